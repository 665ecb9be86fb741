// LAPACK: each result is checked by the property that defines it (a x = b, q r = a,
// u diag(s) v^T = a, a v = lambda v, l l^T = a, a a^-1 = I), computed with plain loops in
// double on the values read back from the tensors, for contiguous, transposed and
// strided inputs.
#define BOOST_TEST_MODULE TH lapack
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "th_test_util.hpp"

using tht::values;

namespace {

// The C API of one element type (TH's type table), so that one test body serves every type.
template <typename T>
using Api = th::TH<T>;

using FloatTypes = std::tuple<double, float>;
template <typename T>
using TensorOf = typename Api<T>::Tensor;

template <typename T>
double tolFor() {
  return std::is_same_v<T, float> ? 2e-4 : 1e-10;
}

// Row-major dense matrices in double for the references.
struct M {
  int64_t rows, cols;
  std::vector<double> v;
  double &operator()(int64_t i, int64_t j) { return v[i * cols + j]; }
  double operator()(int64_t i, int64_t j) const { return v[i * cols + j]; }
};

M zeros(int64_t rows, int64_t cols) { return {rows, cols, std::vector<double>(rows * cols, 0.0)}; }
M identity(int64_t n) {
  M r = zeros(n, n);
  for (int64_t i = 0; i < n; i++) r(i, i) = 1;
  return r;
}
M mul(const M &a, const M &b) {
  M c = zeros(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; i++)
    for (int64_t j = 0; j < b.cols; j++)
      for (int64_t l = 0; l < a.cols; l++) c(i, j) += a(i, l) * b(l, j);
  return c;
}
M transpose(const M &a) {
  M t = zeros(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; i++)
    for (int64_t j = 0; j < a.cols; j++) t(j, i) = a(i, j);
  return t;
}
// Gaussian elimination with partial pivoting: a x = b.
M solve(M a, M b) {
  const int64_t n = a.rows;
  for (int64_t c = 0; c < n; c++) {
    int64_t p = c;
    for (int64_t i = c + 1; i < n; i++)
      if (std::abs(a(i, c)) > std::abs(a(p, c))) p = i;
    for (int64_t j = 0; j < n; j++) std::swap(a(c, j), a(p, j));
    for (int64_t j = 0; j < b.cols; j++) std::swap(b(c, j), b(p, j));
    for (int64_t i = c + 1; i < n; i++) {
      const double f = a(i, c) / a(c, c);
      for (int64_t j = c; j < n; j++) a(i, j) -= f * a(c, j);
      for (int64_t j = 0; j < b.cols; j++) b(i, j) -= f * b(c, j);
    }
  }
  for (int64_t c = n - 1; c >= 0; c--)
    for (int64_t j = 0; j < b.cols; j++) {
      double s = b(c, j);
      for (int64_t l = c + 1; l < n; l++) s -= a(c, l) * b(l, j);
      b(c, j) = s / a(c, c);
    }
  return b;
}
// Upper u with a = u^T u.
M choleskyUpper(const M &a) {
  const int64_t n = a.rows;
  M u = zeros(n, n);
  for (int64_t i = 0; i < n; i++) {
    double d = a(i, i);
    for (int64_t l = 0; l < i; l++) d -= u(l, i) * u(l, i);
    u(i, i) = std::sqrt(d);
    for (int64_t j = i + 1; j < n; j++) {
      double s = a(i, j);
      for (int64_t l = 0; l < i; l++) s -= u(l, i) * u(l, j);
      u(i, j) = s / u(i, i);
    }
  }
  return u;
}
// Largest |a - b| relative to the largest |b| (and at least 1).
double distance(const M &a, const M &b) {
  if (a.rows != b.rows || a.cols != b.cols) return std::numeric_limits<double>::infinity();
  double worst = 0, scale = 1;
  for (size_t i = 0; i < a.v.size(); i++) {
    scale = std::max(scale, std::abs(b.v[i]));
    double e = std::abs(a.v[i] - b.v[i]);
    if (!(e <= worst)) worst = e;
  }
  return worst / scale;
}

template <typename TensorT>
M read(TensorT *t) {
  BOOST_REQUIRE(t->nDimension == 2);
  return {t->size[0], t->size[1], values(t)};
}
template <typename TensorT>
M readColumn(TensorT *t) {  // a vector as an [n, 1] matrix
  BOOST_REQUIRE(t->nDimension == 1);
  return {t->size[0], 1, values(t)};
}

M randomMatrix(int64_t rows, int64_t cols, unsigned seed) {
  return {rows, cols, tht::randomValues(rows * cols, seed, -1, 1)};
}
M spd(int64_t n, unsigned seed) {
  M b = randomMatrix(n, n, seed), a = mul(b, transpose(b));
  for (int64_t i = 0; i < n; i++) a(i, i) += n;
  return a;
}

// Layouts of input matrices: contiguous, transposed (column-major), every other element.
enum class Layout { Contig, ColMajor, Stepped };
const Layout kLayouts[] = {Layout::Contig, Layout::ColMajor, Layout::Stepped};

// A view holding m (rounded to T) in the given layout, on a storage padded with a sentinel.
template <typename T>
TensorOf<T> *tensorOf(const M &m, Layout l) {
  const int64_t rows = m.rows, cols = m.cols;
  int64_t stride[2] = {cols, 1};
  if (l == Layout::ColMajor) stride[0] = 1, stride[1] = rows;
  if (l == Layout::Stepped) stride[0] = 2 * cols + 1, stride[1] = 2;
  const int64_t offset = 3, extent = offset + (rows - 1) * stride[0] + (cols - 1) * stride[1] + 4;
  auto *s = Api<T>::S::newWithSize(extent);
  for (int64_t i = 0; i < extent; i++) s->data[i] = T(55);
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) s->data[offset + i * stride[0] + j * stride[1]] = (T)m(i, j);
  int64_t size[2] = {rows, cols};
  auto *t = Api<T>::newWithStorage(s, offset, 2, size, stride);
  Api<T>::S::free(s);
  return t;
}

// A vector with elements every `step` places.
template <typename T>
TensorOf<T> *vectorOf(const std::vector<double> &v, int64_t step) {
  const int64_t n = (int64_t)v.size();
  auto *s = Api<T>::S::newWithSize(n * step + 1);
  for (int64_t i = 0; i < n * step + 1; i++) s->data[i] = T(55);
  for (int64_t i = 0; i < n; i++) s->data[i * step] = (T)v[i];
  int64_t size = n, stride = step;
  auto *t = Api<T>::newWithStorage(s, 0, 1, &size, &stride);
  Api<T>::S::free(s);
  return t;
}

// Runs call, which must throw th::Error and leave every tensor as it was; returns the message.
template <typename TensorT, typename Call>
std::string expectFailureLeaves(std::initializer_list<TensorT *> tensors, Call call) {
  std::vector<std::vector<double>> before;
  std::vector<int> dims;
  for (auto *t : tensors) {
    before.push_back(values(t));
    dims.push_back(t->nDimension);
  }
  std::string message;
  try {
    call();
    BOOST_ERROR("the call did not fail");
  } catch (const th::Error &e) {
    message = e.what();
  }
  size_t i = 0;
  for (auto *t : tensors) {
    BOOST_TEST(t->nDimension == dims[i]);
    BOOST_TEST(values(t) == before[i]);
    i++;
  }
  return message;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// The unit lower and upper triangles that LAPACK packs into one n x cols matrix.
M lowerUnit(const M &lu, int64_t k) {
  M l = zeros(lu.rows, k);
  for (int64_t i = 0; i < lu.rows; i++)
    for (int64_t j = 0; j < k; j++) l(i, j) = i == j ? 1 : i > j ? lu(i, j) : 0;
  return l;
}
M upper(const M &lu, int64_t k) {
  M u = zeros(k, lu.cols);
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = i; j < lu.cols; j++) u(i, j) = lu(i, j);
  return u;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(gesv_solves, T, FloatTypes) {
  using A = Api<T>;
  const int64_t n = 5, k = 3;
  unsigned seed = 1;
  for (Layout la : kLayouts)
    for (int bl = 0; bl < 4; bl++) {  // b: contiguous, transposed, a vector, a strided vector
      BOOST_TEST_CONTEXT("a layout " << (int)la << ", b layout " << bl) {
        M am = randomMatrix(n, n, seed++);
        auto *a = tensorOf<T>(am, la);
        const int64_t cols = bl < 2 ? k : 1;
        TensorOf<T> *b = bl < 2
                             ? tensorOf<T>(randomMatrix(n, cols, seed++), bl == 0 ? Layout::Contig : Layout::ColMajor)
                             : vectorOf<T>(tht::randomValues(n, seed++, -1, 1), bl == 2 ? 1 : 3);
        const M av = read(a), bv = b->nDimension == 2 ? read(b) : readColumn(b);
        auto *x = A::newEmpty(), *lu = A::newEmpty();
        A::gesv(x, lu, b, a);
        BOOST_TEST(distance(read(x), solve(av, bv)) <= tolFor<T>() * 10);
        BOOST_TEST(distance(mul(av, read(x)), bv) <= tolFor<T>());
        // rows of L U are the rows of a in some order
        M prod = mul(lowerUnit(read(lu), n), upper(read(lu), n));
        std::vector<bool> used(n, false);
        for (int64_t i = 0; i < n; i++) {
          int64_t match = -1;
          for (int64_t r = 0; r < n && match < 0; r++) {
            double e = 0;
            for (int64_t j = 0; j < n; j++) e = std::max(e, std::abs(prod(i, j) - av(r, j)));
            if (!used[r] && e <= tolFor<T>() * 10) match = r;
          }
          BOOST_TEST(match >= 0);
          if (match >= 0) used[match] = true;
        }
        BOOST_TEST(values(a) == av.v);  // inputs are not modified
        // torch7's in-place forms: results in the inputs' places, or NULL inputs
        A::gesv(b, a, b, a);
        BOOST_TEST(values(b) == values(x));
        BOOST_TEST(values(a) == values(lu));
        A::free(a);
        A::free(b);
        a = tensorOf<T>(av, Layout::Contig);
        b = tensorOf<T>(bv, Layout::Contig);
        A::gesv(b, a, nullptr, nullptr);
        BOOST_TEST(values(b) == values(x));
        A::free(a);
        A::free(b);
        A::free(x);
        A::free(lu);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(gels_least_squares_and_minimum_norm, T, FloatTypes) {
  using A = Api<T>;
  const int64_t shapes[][2] = {{6, 4}, {4, 4}, {3, 5}};
  unsigned seed = 100;
  for (auto &s : shapes)
    for (Layout l : kLayouts) {
      const int64_t m = s[0], n = s[1], k = 2;
      BOOST_TEST_CONTEXT("a [" << m << ", " << n << "], layout " << (int)l) {
        auto *a = tensorOf<T>(randomMatrix(m, n, seed++), l);
        auto *b = tensorOf<T>(randomMatrix(m, k, seed++), l);
        const M av = read(a), bv = read(b), at = transpose(av);
        // over-determined: the normal equations; under-determined: x = a^T w with a a^T w = b
        const M want = m >= n ? solve(mul(at, av), mul(at, bv)) : mul(at, solve(mul(av, at), bv));
        auto *x = A::newEmpty(), *qr = A::newEmpty();
        A::gels(x, qr, b, a);
        BOOST_TEST(x->size[0] == n);
        BOOST_TEST(x->size[1] == k);
        BOOST_TEST(qr->size[0] == m);
        BOOST_TEST(qr->size[1] == n);
        BOOST_TEST(distance(read(x), want) <= tolFor<T>() * 10);
        BOOST_TEST(values(a) == av.v);
        BOOST_TEST(values(b) == bv.v);
        A::free(a);
        A::free(b);
        A::free(x);
        A::free(qr);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(getri_inverts, T, FloatTypes) {
  using A = Api<T>;
  unsigned seed = 200;
  for (int64_t n : {1, 4, 7})
    for (Layout l : kLayouts) {
      auto *a = tensorOf<T>(randomMatrix(n, n, seed++), l);
      const M av = read(a);
      auto *inv = A::newEmpty();
      A::getri(inv, a);
      BOOST_TEST(distance(mul(av, read(inv)), identity(n)) <= tolFor<T>() * 10);
      BOOST_TEST(distance(mul(read(inv), av), identity(n)) <= tolFor<T>() * 10);
      A::getri(a, nullptr);  // in place
      BOOST_TEST(values(a) == values(inv));
      A::free(a);
      A::free(inv);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cholesky_family, T, FloatTypes) {
  using A = Api<T>;
  const int64_t n = 5;
  unsigned seed = 300;
  for (Layout l : kLayouts)
    for (const char *uplo : {"U", "L", "l"}) {
      BOOST_TEST_CONTEXT("layout " << (int)l << ", uplo " << uplo) {
        const bool up = uplo[0] == 'U';
        M spdm = spd(n, seed++);
        auto *a = tensorOf<T>(spdm, l);
        const M av = read(a);
        const M u = choleskyUpper(av), factor = up ? u : transpose(u);
        auto *f = A::newEmpty();
        A::potrf(f, a, uplo);
        BOOST_TEST(distance(read(f), factor) <= tolFor<T>() * 10);  // the other triangle is zero
        BOOST_TEST(distance(up ? mul(transpose(read(f)), read(f)) : mul(read(f), transpose(read(f))), av) <=
                   tolFor<T>() * 10);
        BOOST_TEST(values(a) == av.v);
        // potrs and potri take the factor
        auto *ft = tensorOf<T>(factor, l);
        auto *b = tensorOf<T>(randomMatrix(n, 2, seed++), Layout::ColMajor);
        const M bv = read(b);
        auto *x = A::newEmpty();
        A::potrs(x, b, ft, uplo);
        BOOST_TEST(distance(mul(av, read(x)), bv) <= tolFor<T>() * 10);
        auto *inv = A::newEmpty();
        A::potri(inv, ft, uplo);
        BOOST_TEST(distance(mul(av, read(inv)), identity(n)) <= tolFor<T>() * 10);
        BOOST_TEST(distance(read(inv), transpose(read(inv))) == 0);  // both triangles filled
        for (auto *t : {a, f, ft, b, x, inv}) A::free(t);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(syev_eigenpairs, T, FloatTypes) {
  using A = Api<T>;
  const int64_t n = 6;
  unsigned seed = 400;
  for (Layout l : kLayouts)
    for (const char *uplo : {"U", "L"}) {
      BOOST_TEST_CONTEXT("layout " << (int)l << ", uplo " << uplo) {
        M sym = spd(n, seed++);
        for (int64_t i = 0; i < n; i++) sym(i, i) -= n + 1;  // eigenvalues of both signs
        // the triangle syev must not read holds garbage
        M given = sym;
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++)
            if (uplo[0] == 'U' ? i > j : i < j) given(i, j) = 1000 + i;
        auto *a = tensorOf<T>(given, l);
        const M full = [&] {
          M s = read(a);  // sym as rounded to T
          for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
              if (uplo[0] == 'U' ? i > j : i < j) s(i, j) = s(j, i);
          return s;
        }();
        auto *e = A::newEmpty(), *v = A::newEmpty();
        A::syev(e, v, a, "V", uplo);
        const std::vector<double> ev = values(e);
        const M vv = read(v);
        BOOST_TEST(ev.size() == (size_t)n);
        for (int64_t j = 0; j + 1 < n; j++) BOOST_TEST(ev[j] <= ev[j + 1]);
        M lambdaV = vv;
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++) lambdaV(i, j) *= ev[j];
        BOOST_TEST(distance(mul(full, vv), lambdaV) <= tolFor<T>() * 10);
        BOOST_TEST(distance(mul(transpose(vv), vv), identity(n)) <= tolFor<T>() * 10);
        // eigenvalues only: their sum is the trace, the sum of their squares |a|_F^2; v stays
        double trace = 0, frob = 0, sum = 0, squares = 0;
        for (int64_t i = 0; i < n; i++) trace += full(i, i);
        for (double x : full.v) frob += x * x;
        auto *e2 = A::newEmpty();
        A::syev(e2, v, a, "N", uplo);
        for (double x : values(e2)) sum += x, squares += x * x;
        BOOST_TEST(std::abs(sum - trace) <= tolFor<T>() * 100);
        BOOST_TEST(std::abs(squares - frob) <= tolFor<T>() * 100 * frob);
        BOOST_TEST(values(v) == vv.v);
        for (auto *t : {a, e, v, e2}) A::free(t);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(geev_eigenpairs, T, FloatTypes) {
  using A = Api<T>;
  const int64_t n = 6;
  unsigned seed = 500;
  for (Layout l : kLayouts) {
    auto *a = tensorOf<T>(randomMatrix(n, n, seed++), l);
    const M av = read(a);
    auto *e = A::newEmpty(), *v = A::newEmpty();
    A::geev(e, v, a, "V");
    const M ev = read(e), vv = read(v);
    BOOST_TEST(ev.cols == 2);
    int complexPairs = 0;
    for (int64_t j = 0; j < n; j++) {
      const double re = ev(j, 0), im = ev(j, 1);
      // column j (+ i column j+1 for a complex pair) is an eigenvector
      M x = zeros(n, 1), y = zeros(n, 1);
      for (int64_t i = 0; i < n; i++) {
        x(i, 0) = vv(i, j);
        y(i, 0) = im != 0 ? vv(i, j + 1) : 0;
      }
      if (im < 0) continue;  // the conjugate of the previous pair
      if (im > 0) complexPairs++;
      M ax = mul(av, x), ay = mul(av, y), wantX = zeros(n, 1), wantY = zeros(n, 1);
      for (int64_t i = 0; i < n; i++) {
        wantX(i, 0) = re * x(i, 0) - im * y(i, 0);
        wantY(i, 0) = im * x(i, 0) + re * y(i, 0);
      }
      BOOST_TEST(distance(ax, wantX) <= tolFor<T>() * 10);
      BOOST_TEST(distance(ay, wantY) <= tolFor<T>() * 10);
      if (im > 0) j++;
    }
    BOOST_TEST_MESSAGE("complex pairs: " << complexPairs);
    double trace = 0, sum = 0;
    for (int64_t i = 0; i < n; i++) trace += av(i, i);
    auto *e2 = A::newEmpty();
    A::geev(e2, v, a, "N");
    const M e2m = read(e2);
    for (int64_t j = 0; j < n; j++) sum += e2m(j, 0);
    BOOST_TEST(std::abs(sum - trace) <= tolFor<T>() * 100);
    BOOST_TEST(values(v) == vv.v);
    BOOST_TEST(values(a) == av.v);
    for (auto *t : {a, e, v, e2}) A::free(t);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(gesvd_reconstructs, T, FloatTypes) {
  using A = Api<T>;
  const int64_t shapes[][2] = {{5, 3}, {3, 5}, {4, 4}};
  unsigned seed = 600;
  for (auto &s : shapes)
    for (Layout l : kLayouts)
      for (const char *job : {"S", "A"}) {
        const int64_t m = s[0], n = s[1], k = std::min(m, n);
        BOOST_TEST_CONTEXT("a [" << m << ", " << n << "], layout " << (int)l << ", jobu " << job) {
          auto *a = tensorOf<T>(randomMatrix(m, n, seed++), l);
          const M av = read(a);
          auto *u = A::newEmpty(), *sv = A::newEmpty(), *v = A::newEmpty();
          A::gesvd(u, sv, v, a, job);
          const bool all = job[0] == 'A';
          const M um = read(u), vm = read(v);
          const std::vector<double> sing = values(sv);
          BOOST_TEST(um.rows == m);
          BOOST_TEST(um.cols == (all ? m : k));
          BOOST_TEST(vm.rows == n);
          BOOST_TEST(vm.cols == (all ? n : k));
          BOOST_TEST(sing.size() == (size_t)k);
          for (int64_t i = 0; i < k; i++) {
            BOOST_TEST(sing[i] >= 0);
            if (i + 1 < k) BOOST_TEST(sing[i] >= sing[i + 1]);
          }
          M us = zeros(m, k), vk = zeros(n, k);  // the first k columns, U scaled by S
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < k; j++) us(i, j) = um(i, j) * sing[j];
          for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < k; j++) vk(i, j) = vm(i, j);
          BOOST_TEST(distance(mul(us, transpose(vk)), av) <= tolFor<T>() * 10);
          BOOST_TEST(distance(mul(transpose(um), um), identity(um.cols)) <= tolFor<T>() * 10);
          BOOST_TEST(distance(mul(transpose(vm), vm), identity(vm.cols)) <= tolFor<T>() * 10);
          // "N": singular values only, whose squares sum to |a|_F^2; u and v stay
          auto *s2 = A::newEmpty();
          A::gesvd(u, s2, v, a, "N");
          double squares = 0, frob = 0;
          for (double x : values(s2)) squares += x * x;
          for (double x : av.v) frob += x * x;
          BOOST_TEST(std::abs(squares - frob) <= tolFor<T>() * 10 * frob);
          BOOST_TEST(values(u) == um.v);
          BOOST_TEST(values(a) == av.v);
          for (auto *t : {a, u, sv, v, s2}) A::free(t);
        }
      }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(qr_factors, T, FloatTypes) {
  using A = Api<T>;
  const int64_t shapes[][2] = {{5, 3}, {3, 5}, {4, 4}, {1, 3}};
  unsigned seed = 700;
  for (auto &s : shapes)
    for (Layout l : kLayouts) {
      const int64_t m = s[0], n = s[1], k = std::min(m, n);
      BOOST_TEST_CONTEXT("a [" << m << ", " << n << "], layout " << (int)l) {
        auto *a = tensorOf<T>(randomMatrix(m, n, seed++), l);
        const M av = read(a);
        auto *q = A::newEmpty(), *r = A::newEmpty();
        A::qr(q, r, a);
        const M qm = read(q), rm = read(r);
        BOOST_TEST(qm.rows == m);
        BOOST_TEST(qm.cols == k);
        BOOST_TEST(rm.rows == k);
        BOOST_TEST(rm.cols == n);
        for (int64_t i = 0; i < k; i++)
          for (int64_t j = 0; j < i; j++) BOOST_TEST(rm(i, j) == 0);
        BOOST_TEST(distance(mul(qm, rm), av) <= tolFor<T>() * 10);
        BOOST_TEST(distance(mul(transpose(qm), qm), identity(k)) <= tolFor<T>() * 10);
        BOOST_TEST(values(a) == av.v);
        for (auto *t : {a, q, r}) A::free(t);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(getrf_pivots_and_factors, T, FloatTypes) {
  using A = Api<T>;
  const int64_t shapes[][2] = {{4, 4}, {5, 3}, {3, 5}};
  unsigned seed = 800;
  for (auto &s : shapes)
    for (Layout l : kLayouts) {
      const int64_t m = s[0], n = s[1], k = std::min(m, n);
      BOOST_TEST_CONTEXT("a [" << m << ", " << n << "], layout " << (int)l) {
        auto *a = tensorOf<T>(randomMatrix(m, n, seed++), l);
        M pa = read(a);
        auto *lu = A::newEmpty();
        THIntTensor *piv = THIntTensor_new();
        A::getrf(lu, piv, a);
        BOOST_TEST(piv->size[0] == k);
        for (int64_t i = 0; i < k; i++) {
          const int p = THIntTensor_get1d(piv, i);  // 1-based, LAPACK's convention
          BOOST_TEST(p >= i + 1);
          BOOST_TEST(p <= m);
          for (int64_t j = 0; j < n; j++) std::swap(pa(i, j), pa(p - 1, j));
        }
        const M lum = read(lu);
        BOOST_TEST(distance(mul(lowerUnit(lum, k), upper(lum, k)), pa) <= tolFor<T>() * 10);
        A::free(a);
        A::free(lu);
        THIntTensor_free(piv);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(sytrf_sytrs_solve_symmetric_systems, T, FloatTypes) {
  using A = Api<T>;
  const int64_t n = 6, k = 2;
  unsigned seed = 900;
  for (Layout l : kLayouts)
    for (bool zeroDiagonal : {false, true}) {  // zeros on the diagonal force 2x2 pivots
      BOOST_TEST_CONTEXT("layout " << (int)l << ", zero diagonal " << zeroDiagonal) {
        M r = randomMatrix(n, n, seed++);
        M sym = zeros(n, n);
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++) sym(i, j) = i == j && zeroDiagonal ? 0 : r(i, j) + r(j, i);
        auto *a = tensorOf<T>(sym, l);
        auto *b = tensorOf<T>(randomMatrix(n, k, seed++), Layout::Contig);
        const M bv = read(b);
        auto *ld = A::newEmpty(), *x = A::newEmpty();
        THIntTensor *piv = THIntTensor_new();
        BOOST_TEST(A::sytrf(ld, piv, a) == 0);
        BOOST_TEST(piv->size[0] == n);
        const M ldm = read(ld);
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = i + 1; j < n; j++) BOOST_TEST(ldm(i, j) == 0);  // upper triangle cleared
        bool twoByTwo = false;
        for (int64_t i = 0; i < n; i++) twoByTwo = twoByTwo || THIntTensor_get1d(piv, i) < 0;
        if (zeroDiagonal) BOOST_TEST(twoByTwo);
        A::sytrs(x, b, ld, piv);
        BOOST_TEST(distance(mul(sym, read(x)), bv) <= tolFor<T>() * 10);
        A::free(a);
        A::free(b);
        A::free(ld);
        A::free(x);
        THIntTensor_free(piv);
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(failures_leave_tensors_unchanged, T, FloatTypes) {
  using A = Api<T>;
  using TL = std::initializer_list<TensorOf<T> *>;
  auto *singular = tensorOf<T>({2, 2, {1, 2, 2, 4}}, Layout::Contig);
  auto *indefinite = tensorOf<T>({2, 2, {1, 2, 2, 1}}, Layout::ColMajor);
  auto *b = tensorOf<T>({2, 1, {1, 1}}, Layout::Contig);
  auto *r1 = tensorOf<T>({2, 2, {9, 8, 7, 6}}, Layout::Contig);
  auto *r2 = tensorOf<T>({1, 3, {5, 4, 3}}, Layout::Contig);
  auto *rect = tensorOf<T>(randomMatrix(2, 3, 1), Layout::Contig);
  auto *b3 = tensorOf<T>(randomMatrix(3, 1, 2), Layout::Contig);
  THIntTensor *piv = THIntTensor_new();

  std::string msg = expectFailureLeaves<TensorOf<T>>(TL{r1, r2, b, singular}, [&] { A::gesv(r2, r1, b, singular); });
  BOOST_TEST(contains(msg, "singular"));
  msg = expectFailureLeaves<TensorOf<T>>(TL{r1, singular}, [&] { A::getri(r1, singular); });
  BOOST_TEST(contains(msg, "singular"));
  expectFailureLeaves<TensorOf<T>>(TL{r1, singular}, [&] { A::getrf(r1, piv, singular); });
  BOOST_TEST(piv->size[0] == 0);
  msg = expectFailureLeaves<TensorOf<T>>(TL{r1, indefinite}, [&] { A::potrf(r1, indefinite, "U"); });
  BOOST_TEST(contains(msg, "positive definite"));
  msg = expectFailureLeaves<TensorOf<T>>(TL{r1, r2, b3, singular}, [&] { A::gesv(r2, r1, b3, singular); });
  BOOST_TEST(contains(msg, "[3, 1]"));
  BOOST_TEST(contains(msg, "[2, 2]"));
  msg = expectFailureLeaves<TensorOf<T>>(TL{r1, r2, b, rect}, [&] { A::gesv(r2, r1, b, rect); });
  BOOST_TEST(contains(msg, "square"));
  expectFailureLeaves<TensorOf<T>>(TL{r1, r2, b3, rect}, [&] { A::gels(r2, r1, b3, rect); });
  msg = expectFailureLeaves<TensorOf<T>>(TL{r1, indefinite}, [&] { A::potrf(r1, indefinite, "X"); });
  BOOST_TEST(contains(msg, "uplo"));
  expectFailureLeaves<TensorOf<T>>(TL{r1, r2, singular}, [&] { A::syev(r2, r1, singular, "Q", "U"); });
  expectFailureLeaves<TensorOf<T>>(TL{r1, r2, rect}, [&] { A::geev(r2, r1, rect, "V"); });
  expectFailureLeaves<TensorOf<T>>(TL{r1, r2, rect}, [&] { A::gesvd(r1, r2, r1, rect, "O"); });
  auto *vec = vectorOf<T>({1, 2, 3}, 1);
  msg = expectFailureLeaves<TensorOf<T>>(TL{r1, r2, vec}, [&] { A::qr(r1, r2, vec); });
  BOOST_TEST(contains(msg, "matrix"));
  for (auto *t : {singular, indefinite, b, r1, r2, rect, b3, vec}) A::free(t);
  THIntTensor_free(piv);
}
