// BLAS: raw THBlas_ calls and the tensor products, checked against plain loops over the
// values read back from the operands, on every stride layout the products meet.
#define BOOST_TEST_MODULE TH blas
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

using AllTypes = std::tuple<double, float, int32_t, int64_t, uint8_t>;
using FloatTypes = std::tuple<double, float>;

template <typename T>
using TensorOf = typename Api<T>::Tensor;

// Small values that every type holds exactly: integers in [-4, 4] ([0, 3] for Byte, so
// that no product wraps around), and values of [-1, 1] rounded to T for floats.
template <typename T>
std::vector<double> randomFor(size_t n, unsigned seed) {
  std::vector<double> v = tht::randomValues(n, seed, -1, 1);
  for (auto &x : v) {
    if (std::is_floating_point_v<T>)
      x = (double)(T)x;
    else if (std::is_unsigned_v<T>)
      x = std::floor((x + 1) * 2);
    else
      x = std::floor(x * 4.5);
  }
  return v;
}

// Scalars exact in every type; positive for integers so that Byte never wraps.
template <typename T>
T alphaFor() {
  return std::is_floating_point_v<T> ? T(0.5) : T(2);
}
template <typename T>
T betaFor() {
  return std::is_floating_point_v<T> ? T(-1.5) : T(3);
}

template <typename T>
double tolFor() {
  return std::is_same_v<T, float> ? 1e-4 : std::is_same_v<T, double> ? 1e-10 : 0;
}

// A view with the given sizes and strides on a fresh storage whose other elements hold a
// sentinel (so a read outside the view shows in the result). vals fill the view in
// row-major order; with 0 strides the last write to a place wins, so tests read the
// operands back with values() before computing references.
template <typename T>
TensorOf<T> *makeTensor(const std::vector<int64_t> &size, const std::vector<int64_t> &stride,
                        const std::vector<double> &vals) {
  const int nd = (int)size.size();
  int64_t n = 1, last = 0;
  for (int d = 0; d < nd; d++) {
    n *= size[d];
    if (size[d] > 0) last += (size[d] - 1) * stride[d];
  }
  const int64_t offset = 2;
  auto *storage = Api<T>::S::newWithSize(offset + last + 3);
  for (int64_t i = 0; i < offset + last + 3; i++) storage->data[i] = T(77);
  std::vector<int64_t> index(nd, 0);
  for (int64_t i = 0; i < n; i++) {
    int64_t pos = offset;
    for (int d = 0; d < nd; d++) pos += index[d] * stride[d];
    storage->data[pos] = (T)vals[i];
    for (int d = nd - 1; d >= 0; d--) {
      if (++index[d] < size[d]) break;
      index[d] = 0;
    }
  }
  auto *t = Api<T>::newWithStorage(storage, offset, nd, size.data(), stride.data());
  Api<T>::S::free(storage);
  return t;
}

// The layouts a matrix operand can have.
enum class Layout { Contig, ColMajor, RowPadded, ColPadded, Stepped, Expanded, UnitZero };
const Layout kLayouts[] = {Layout::Contig,  Layout::ColMajor, Layout::RowPadded, Layout::ColPadded,
                           Layout::Stepped, Layout::Expanded, Layout::UnitZero};

const char *name(Layout l) {
  switch (l) {
    case Layout::Contig: return "contiguous";
    case Layout::ColMajor: return "transposed";
    case Layout::RowPadded: return "row-major with ld > cols";
    case Layout::ColPadded: return "column-major with ld > rows";
    case Layout::Stepped: return "every other element";
    case Layout::Expanded: return "expanded rows (stride 0)";
    case Layout::UnitZero: return "column-major, size-1 dims with stride 0";
  }
  return "";
}

std::vector<int64_t> strides2d(Layout l, int64_t rows, int64_t cols) {
  switch (l) {
    case Layout::Contig: return {cols, 1};
    case Layout::ColMajor: return {1, rows};
    case Layout::RowPadded: return {cols + 3, 1};
    case Layout::ColPadded: return {1, rows + 2};
    case Layout::Stepped: return {2 * cols + 1, 2};
    case Layout::Expanded: return {0, 1};
    case Layout::UnitZero: return {rows == 1 ? 0 : 1, cols == 1 ? 0 : rows};
  }
  return {};
}

template <typename T>
TensorOf<T> *makeMatrix(int64_t rows, int64_t cols, Layout l, unsigned seed) {
  return makeTensor<T>({rows, cols}, strides2d(l, rows, cols), randomFor<T>(rows * cols, seed));
}

// Vectors: contiguous, every third element, expanded.
const int64_t kVecStrides[] = {1, 3, 0};

template <typename T>
TensorOf<T> *makeVector(int64_t n, int64_t stride, unsigned seed) {
  return makeTensor<T>({n}, {stride}, randomFor<T>(n, seed));
}

// Batches [b, rows, cols]: contiguous, each matrix transposed, batch dimension innermost
// but one, every other element.
std::vector<std::vector<int64_t>> batchStrides(int64_t b, int64_t rows, int64_t cols) {
  return {{rows * cols, cols, 1}, {rows * cols, 1, rows}, {cols, b * cols, 1}, {2 * rows * cols, 2 * cols, 2}};
}

// m [rows x inner] times n [inner x cols], all row-major.
std::vector<double> matmul(const std::vector<double> &a, const std::vector<double> &b, int64_t rows, int64_t inner,
                           int64_t cols) {
  std::vector<double> c(rows * cols, 0.0);
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++)
      for (int64_t l = 0; l < inner; l++) c[i * cols + j] += a[i * inner + l] * b[l * cols + j];
  return c;
}

// beta t + alpha p, elementwise
std::vector<double> axpby(double beta, const std::vector<double> &t, double alpha, const std::vector<double> &p) {
  std::vector<double> r(p.size());
  for (size_t i = 0; i < p.size(); i++) r[i] = (beta == 0 ? 0.0 : beta * t[i]) + alpha * p[i];
  return r;
}

double maxError(const std::vector<double> &got, const std::vector<double> &want) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < got.size(); i++) {
    double e = std::abs(got[i] - want[i]) / (1 + std::abs(want[i]));
    if (!(e <= worst)) worst = e;  // NaN propagates as a failure
  }
  return worst;
}

// Integer results wrap around as T does.
template <typename T>
void expectClose(const std::vector<double> &got, std::vector<double> want) {
  if (std::is_integral_v<T>)
    for (auto &w : want) w = (double)(T)(int64_t)w;
  BOOST_TEST(got.size() == want.size());
  BOOST_TEST(maxError(got, want) <= tolFor<T>());
}

template <typename TensorT>
std::vector<int64_t> sizes(TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

// Runs call, which must throw th::Error and leave every tensor in `tensors` as it was.
template <typename TensorT, typename Call>
std::string expectFailureLeaves(std::initializer_list<TensorT *> tensors, Call call) {
  std::vector<std::vector<double>> before;
  std::vector<std::vector<int64_t>> shapes;
  for (auto *t : tensors) {
    before.push_back(values(t));
    shapes.push_back(sizes(t));
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
    BOOST_TEST(sizes(t) == shapes[i]);
    BOOST_TEST(values(t) == before[i]);
    i++;
  }
  return message;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

// ---- raw BLAS, column-major ------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemm_all_transposes, T, AllTypes) {
  const int64_t m = 3, n = 4, k = 5;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  unsigned seed = 1;
  for (char ta : {'n', 't'})
    for (char tb : {'N', 'T'}) {
      BOOST_TEST_CONTEXT("transa " << ta << " transb " << tb) {
        const bool tA = ta == 't', tB = tb == 'T';
        // stored matrices with two rows of padding below each column
        const int64_t aRows = tA ? k : m, aCols = tA ? m : k, lda = aRows + 2;
        const int64_t bRows = tB ? n : k, bCols = tB ? k : n, ldb = bRows + 2;
        const int64_t ldc = m + 2;
        std::vector<double> av = randomFor<T>(lda * aCols, seed++), bv = randomFor<T>(ldb * bCols, seed++),
                            cv = randomFor<T>(ldc * n, seed++);
        std::vector<T> a(av.begin(), av.end()), b(bv.begin(), bv.end()), c(cv.begin(), cv.end());
        Api<T>::Blas::gemm(ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
        for (int64_t j = 0; j < n; j++)
          for (int64_t i = 0; i < ldc; i++) {
            double want = cv[i + j * ldc];  // padding rows stay as they were
            if (i < m) {
              double sum = 0;
              for (int64_t l = 0; l < k; l++)
                sum += (tA ? av[l + i * lda] : av[i + l * lda]) * (tB ? bv[j + l * ldb] : bv[l + j * ldb]);
              want = (double)beta * want + (double)alpha * sum;
            }
            BOOST_TEST(std::abs((double)c[i + j * ldc] - want) <= tolFor<T>() * (1 + std::abs(want)));
          }
      }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemm_checks_arguments, T, AllTypes) {
  std::vector<T> a(20, T(1)), b(20, T(1)), c(20, T(5));
  const std::vector<T> before = c;
  BOOST_CHECK_THROW(Api<T>::Blas::gemm('x', 'n', 2, 2, 2, 1, a.data(), 2, b.data(), 2, 0, c.data(), 2), th::Error);
  BOOST_CHECK_THROW(Api<T>::Blas::gemm('n', 'n', 3, 2, 2, 1, a.data(), 2, b.data(), 2, 0, c.data(), 3),
                    th::Error);  // lda < m
  BOOST_CHECK_THROW(Api<T>::Blas::gemm('n', 'n', 2, 2, 2, 1, a.data(), 2, b.data(), 2, 0, c.data(), 1),
                    th::Error);  // ldc < m
  BOOST_CHECK_THROW(Api<T>::Blas::gemm('n', 'n', -1, 2, 2, 1, a.data(), 2, b.data(), 2, 0, c.data(), 2), th::Error);
  BOOST_TEST(c == before);
  // a single column makes its leading dimension irrelevant (torch7 passes any value)
  Api<T>::Blas::gemm('n', 'n', 3, 1, 2, 1, a.data(), 3, b.data(), 2, 0, c.data(), 0);
  for (int i = 0; i < 3; i++) BOOST_TEST((double)c[i] == 2.0);
  BOOST_TEST((double)c[3] == 5.0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemv_ger, T, AllTypes) {
  const int64_t m = 4, n = 3, lda = 6;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  std::vector<double> av = randomFor<T>(lda * n, 11);
  std::vector<T> a(av.begin(), av.end());
  for (char trans : {'n', 't'}) {
    BOOST_TEST_CONTEXT("trans " << trans) {
      const bool t = trans == 't';
      const int64_t lenx = t ? m : n, leny = t ? n : m, incx = 2, incy = 3;
      std::vector<double> xv = randomFor<T>(lenx * incx, 12), yv = randomFor<T>(leny * incy, 13);
      std::vector<T> x(xv.begin(), xv.end()), y(yv.begin(), yv.end());
      Api<T>::Blas::gemv(trans, m, n, alpha, a.data(), lda, x.data(), incx, beta, y.data(), incy);
      for (int64_t i = 0; i < leny * incy; i++) {
        double want = yv[i];
        if (i % incy == 0) {
          const int64_t r = i / incy;
          double sum = 0;
          for (int64_t l = 0; l < lenx; l++) sum += (t ? av[l + r * lda] : av[r + l * lda]) * xv[l * incx];
          want = (double)beta * want + (double)alpha * sum;
        }
        BOOST_TEST(std::abs((double)y[i] - want) <= tolFor<T>() * (1 + std::abs(want)));
      }
    }
  }
  std::vector<double> xv = randomFor<T>(m * 2, 14), yv = randomFor<T>(n, 15);
  std::vector<T> x(xv.begin(), xv.end()), y(yv.begin(), yv.end()), g = a;
  Api<T>::Blas::ger(m, n, alpha, x.data(), 2, y.data(), 1, g.data(), lda);
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < lda; i++) {
      double want = av[i + j * lda] + (i < m ? (double)alpha * xv[i * 2] * yv[j] : 0.0);
      BOOST_TEST(std::abs((double)g[i + j * lda] - want) <= tolFor<T>() * (1 + std::abs(want)));
    }
  BOOST_CHECK_THROW(Api<T>::Blas::ger(m, n, alpha, x.data(), 0, y.data(), 1, g.data(), lda), th::Error);
  BOOST_CHECK_THROW(Api<T>::Blas::gemv('n', m, n, alpha, a.data(), m - 1, x.data(), 1, beta, y.data(), 1), th::Error);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_level1, T, AllTypes) {
  const int64_t n = 5;
  std::vector<double> xv = randomFor<T>(2 * n, 21), yv = randomFor<T>(3 * n, 22);
  std::vector<T> x(xv.begin(), xv.end()), y(yv.begin(), yv.end());
  double want = 0;
  for (int64_t i = 0; i < n; i++) want += xv[2 * i] * yv[3 * i];
  BOOST_TEST(std::abs((double)Api<T>::Blas::dot(n, x.data(), 2, y.data(), 3) - want) <=
             tolFor<T>() * (1 + std::abs(want)));

  const T a = alphaFor<T>();
  Api<T>::Blas::axpy(n, a, x.data(), 2, y.data(), 3);
  for (int64_t i = 0; i < 3 * n; i++)
    BOOST_TEST((double)y[i] == (double)(T)(yv[i] + (i % 3 == 0 ? (double)a * xv[i / 3 * 2] : 0.0)));

  std::vector<T> s(x);
  Api<T>::Blas::scal(n, a, s.data(), 2);
  for (int64_t i = 0; i < 2 * n; i++) BOOST_TEST((double)s[i] == (i % 2 == 0 ? (double)a * xv[i] : xv[i]));

  std::vector<T> dst(3 * n, T(9));
  Api<T>::Blas::copy(n, x.data(), 2, dst.data(), 3);
  for (int64_t i = 0; i < 3 * n; i++) BOOST_TEST((double)dst[i] == (i % 3 == 0 ? xv[i / 3 * 2] : 9.0));

  std::vector<T> p(x), q(n, T(1));
  Api<T>::Blas::swap(n, p.data(), 2, q.data(), 1);
  for (int64_t i = 0; i < n; i++) {
    BOOST_TEST((double)q[i] == xv[2 * i]);
    BOOST_TEST((double)p[2 * i] == 1.0);
    BOOST_TEST((double)p[2 * i + 1] == xv[2 * i + 1]);
  }
  BOOST_CHECK_THROW(Api<T>::Blas::copy(n, x.data(), 0, dst.data(), 1), th::Error);
  BOOST_CHECK_THROW(Api<T>::Blas::dot(-2, x.data(), 1, y.data(), 1), th::Error);
}

// ---- tensors -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(dot_any_layout, T, AllTypes) {
  using A = Api<T>;
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{7}, {1}}, {{7}, {2}}, {{3, 4}, {4, 1}}, {{3, 4}, {1, 3}}, {{3, 4}, {0, 1}}, {{2, 2, 3}, {1, 2, 4}}};
  unsigned seed = 100;
  for (auto &sa : shapes)
    for (auto &sb : shapes) {
      int64_t na = 1, nb = 1;
      for (auto s : sa.first) na *= s;
      for (auto s : sb.first) nb *= s;
      if (na != nb) continue;
      auto *a = makeTensor<T>(sa.first, sa.second, randomFor<T>(na, seed++));
      auto *b = makeTensor<T>(sb.first, sb.second, randomFor<T>(nb, seed++));
      std::vector<double> av = values(a), bv = values(b);
      double want = 0;
      for (size_t i = 0; i < av.size(); i++) want += av[i] * bv[i];
      BOOST_TEST(std::abs((double)A::dot(a, b) - want) <= tolFor<T>() * (1 + std::abs(want)));
      BOOST_TEST(values(a) == av);
      A::free(a);
      A::free(b);
    }
  auto *a = makeTensor<T>({3}, {1}, {1, 2, 3});
  auto *b = makeTensor<T>({2, 2}, {2, 1}, {1, 2, 3, 0});
  std::string msg = expectFailureLeaves<TensorOf<T>>({a, b}, [&] { A::dot(a, b); });
  BOOST_TEST(contains(msg, "[3]"));
  BOOST_TEST(contains(msg, "[2, 2]"));
  A::free(a);
  A::free(b);
}

// Result modes: a fresh r, or r == t laid out in one of these ways.
enum class Out { Fresh, InPlace, InPlaceTransposed, InPlaceStepped };
const Out kOuts[] = {Out::Fresh, Out::InPlace, Out::InPlaceTransposed, Out::InPlaceStepped};
Layout outLayout(Out o) {
  return o == Out::InPlaceTransposed ? Layout::ColMajor : o == Out::InPlaceStepped ? Layout::Stepped : Layout::Contig;
}

BOOST_AUTO_TEST_CASE_TEMPLATE(addmm_every_layout, T, AllTypes) {
  using A = Api<T>;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  const int64_t shapes[][3] = {{3, 4, 5}, {1, 4, 5}, {3, 1, 5}, {3, 4, 1}, {1, 1, 1}, {3, 0, 2}, {2, 3, 0}};
  unsigned seed = 1000;
  for (auto &s : shapes)
    for (Layout l1 : kLayouts)
      for (Layout l2 : kLayouts)
        for (Out o : kOuts) {
          const int64_t m = s[0], k = s[1], n = s[2];
          BOOST_TEST_CONTEXT("m " << m << " k " << k << " n " << n << ", m1 " << name(l1) << ", m2 " << name(l2)
                                  << ", result " << (int)o) {
            auto *m1 = makeMatrix<T>(m, k, l1, seed++);
            auto *m2 = makeMatrix<T>(k, n, l2, seed++);
            auto *t = makeMatrix<T>(m, n, outLayout(o), seed++);
            const std::vector<double> v1 = values(m1), v2 = values(m2), vt = values(t);
            auto *r = o == Out::Fresh ? A::newEmpty() : t;
            A::addmm(r, beta, t, alpha, m1, m2);
            expectClose<T>(values(r), axpby(beta, vt, alpha, matmul(v1, v2, m, k, n)));
            BOOST_TEST(sizes(r) == std::vector<int64_t>({m, n}));
            BOOST_TEST(values(m1) == v1);
            BOOST_TEST(values(m2) == v2);
            if (o == Out::Fresh) {
              BOOST_TEST(values(t) == vt);
              A::mm(r, m1, m2);
              expectClose<T>(values(r), matmul(v1, v2, m, k, n));
              A::free(r);
            }
            A::free(m1);
            A::free(m2);
            A::free(t);
          }
        }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(products_large_enough_for_threads, T, AllTypes) {
  using A = Api<T>;
  if (std::is_unsigned_v<T>) return;  // sums this long overflow a byte
  const int64_t m = 70, k = 80, n = 90;
  auto *m1 = makeMatrix<T>(m, k, Layout::Contig, 1);
  auto *m2 = makeMatrix<T>(k, n, Layout::ColMajor, 2);
  auto *r = A::newEmpty();
  A::mm(r, m1, m2);
  expectClose<T>(values(r), matmul(values(m1), values(m2), m, k, n));
  A::free(m1);
  A::free(m2);
  A::free(r);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(result_shares_memory_with_an_operand, T, AllTypes) {
  using A = Api<T>;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  // a = a @ b
  auto *a = makeMatrix<T>(3, 3, Layout::Contig, 1);
  auto *b = makeMatrix<T>(3, 3, Layout::ColMajor, 2);
  std::vector<double> va = values(a), vb = values(b);
  A::mm(a, a, b);
  expectClose<T>(values(a), matmul(va, vb, 3, 3, 3));
  // b = beta b + alpha a b, where r == t is also the second factor
  va = values(a);
  A::addmm(b, beta, b, alpha, a, b);
  expectClose<T>(values(b), axpby(beta, vb, alpha, matmul(va, vb, 3, 3, 3)));
  // r a different view of t's memory: the transpose of t
  auto *t = makeMatrix<T>(3, 3, Layout::Contig, 3);
  const std::vector<double> vt = values(t);
  auto *rt = A::newWithStorage(t->storage, t->storageOffset, 2, std::vector<int64_t>{3, 3}.data(),
                               std::vector<int64_t>{1, 3}.data());
  va = values(a);
  vb = values(b);
  A::addmm(rt, beta, t, alpha, a, b);
  expectClose<T>(values(rt), axpby(beta, vt, alpha, matmul(va, vb, 3, 3, 3)));
  // mv and addr into their own operands
  auto *v = makeVector<T>(3, 1, 4);
  const std::vector<double> vv = values(v);
  A::mv(v, a, v);
  expectClose<T>(values(v), matmul(va, vv, 3, 3, 1));
  A::free(a);
  A::free(b);
  A::free(t);
  A::free(rt);
  A::free(v);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(beta_zero_ignores_nan, T, FloatTypes) {
  using A = Api<T>;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  auto *m1 = makeMatrix<T>(3, 4, Layout::Contig, 1);
  auto *m2 = makeMatrix<T>(4, 2, Layout::Contig, 2);
  auto *vec = makeVector<T>(4, 1, 3);
  auto *vec2 = makeVector<T>(2, 1, 4);
  auto *vec3 = makeVector<T>(3, 1, 7);
  auto *b1 = makeTensor<T>({2, 3, 4}, {12, 4, 1}, randomFor<T>(24, 5));
  auto *b2 = makeTensor<T>({2, 4, 2}, {8, 2, 1}, randomFor<T>(16, 6));
  const std::vector<double> v1 = values(m1), v2 = values(m2), vv = values(vec), vv2 = values(vec2), vv3 = values(vec3);
  for (Layout l : {Layout::Contig, Layout::ColMajor, Layout::Stepped}) {
    BOOST_TEST_CONTEXT("result " << name(l)) {
      auto *r = makeTensor<T>({3, 2}, strides2d(l, 3, 2), std::vector<double>(6, nan));
      A::addmm(r, 0, r, 2, m1, m2);
      expectClose<T>(values(r), axpby(0, {}, 2, matmul(v1, v2, 3, 4, 2)));
      A::free(r);
      r = makeTensor<T>({3, 2}, strides2d(l, 3, 2), std::vector<double>(6, nan));
      A::mm(r, m1, m2);
      expectClose<T>(values(r), matmul(v1, v2, 3, 4, 2));
      A::free(r);
      r = makeTensor<T>({3, 2}, strides2d(l, 3, 2), std::vector<double>(6, nan));
      A::addr(r, 0, r, 2, vec3, vec2);
      expectClose<T>(values(r), axpby(0, {}, 2, matmul(vv3, vv2, 3, 1, 2)));
      A::free(r);
      r = makeTensor<T>({3, 2}, strides2d(l, 3, 2), std::vector<double>(6, nan));
      A::addbmm(r, 0, r, 1, b1, b2);
      std::vector<double> want(6, 0.0), vb1 = values(b1), vb2 = values(b2);
      for (int i = 0; i < 2; i++) {
        auto p = matmul(std::vector<double>(vb1.begin() + 12 * i, vb1.begin() + 12 * (i + 1)),
                        std::vector<double>(vb2.begin() + 8 * i, vb2.begin() + 8 * (i + 1)), 3, 4, 2);
        for (int j = 0; j < 6; j++) want[j] += p[j];
      }
      expectClose<T>(values(r), want);
      A::free(r);
    }
  }
  auto *y = makeTensor<T>({3}, {2}, std::vector<double>(3, nan));
  A::addmv(y, 0, y, 1, m1, vec);
  expectClose<T>(values(y), matmul(v1, vv, 3, 4, 1));
  A::free(y);
  A::free(m1);
  A::free(m2);
  A::free(vec);
  A::free(vec2);
  A::free(vec3);
  A::free(b1);
  A::free(b2);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(addmv_every_layout, T, AllTypes) {
  using A = Api<T>;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  const int64_t shapes[][2] = {{3, 4}, {1, 4}, {3, 1}, {1, 1}, {3, 0}, {0, 2}};
  unsigned seed = 2000;
  for (auto &s : shapes)
    for (Layout l : kLayouts)
      for (int64_t vs : kVecStrides)
        for (int64_t rs : {int64_t(0), int64_t(1), int64_t(2)}) {  // 0: a fresh r
          const int64_t m = s[0], n = s[1];
          BOOST_TEST_CONTEXT("m " << m << " n " << n << ", mat " << name(l) << ", vec stride " << vs
                                  << ", result stride " << rs) {
            auto *mat = makeMatrix<T>(m, n, l, seed++);
            auto *vec = makeVector<T>(n, vs, seed++);
            auto *t = makeVector<T>(m, rs == 0 ? 1 : rs, seed++);
            const std::vector<double> vm = values(mat), vv = values(vec), vt = values(t);
            auto *r = rs == 0 ? A::newEmpty() : t;
            A::addmv(r, beta, t, alpha, mat, vec);
            expectClose<T>(values(r), axpby(beta, vt, alpha, matmul(vm, vv, m, n, 1)));
            BOOST_TEST(sizes(r) == std::vector<int64_t>({m}));
            BOOST_TEST(values(mat) == vm);
            BOOST_TEST(values(vec) == vv);
            if (rs == 0) {
              A::mv(r, mat, vec);
              expectClose<T>(values(r), matmul(vm, vv, m, n, 1));
              A::free(r);
            }
            A::free(mat);
            A::free(vec);
            A::free(t);
          }
        }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(addr_every_layout, T, AllTypes) {
  using A = Api<T>;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  const int64_t shapes[][2] = {{3, 4}, {1, 4}, {3, 1}, {0, 2}};
  unsigned seed = 3000;
  for (auto &s : shapes)
    for (int64_t s1 : kVecStrides)
      for (int64_t s2 : kVecStrides)
        for (Out o : kOuts) {
          const int64_t m = s[0], n = s[1];
          BOOST_TEST_CONTEXT("m " << m << " n " << n << ", strides " << s1 << ", " << s2 << ", result " << (int)o) {
            auto *v1 = makeVector<T>(m, s1, seed++);
            auto *v2 = makeVector<T>(n, s2, seed++);
            auto *t = makeMatrix<T>(m, n, outLayout(o), seed++);
            const std::vector<double> a = values(v1), b = values(v2), vt = values(t);
            auto *r = o == Out::Fresh ? A::newEmpty() : t;
            A::addr(r, beta, t, alpha, v1, v2);
            expectClose<T>(values(r), axpby(beta, vt, alpha, matmul(a, b, m, 1, n)));
            if (o == Out::Fresh) {
              BOOST_TEST(values(t) == vt);
              A::free(r);
            }
            A::free(v1);
            A::free(v2);
            A::free(t);
          }
        }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(batch_products, T, AllTypes) {
  using A = Api<T>;
  const T alpha = alphaFor<T>(), beta = betaFor<T>();
  const int64_t shapes[][4] = {{2, 3, 4, 2}, {1, 1, 3, 1}, {3, 2, 1, 2}, {0, 2, 3, 2}};
  unsigned seed = 4000;
  for (auto &s : shapes) {
    const int64_t nb = s[0], m = s[1], k = s[2], n = s[3];
    auto st1 = batchStrides(nb, m, k), st2 = batchStrides(nb, k, n), sto = batchStrides(nb, m, n);
    for (size_t i1 = 0; i1 < st1.size(); i1++)
      for (size_t i2 = 0; i2 < st2.size(); i2++)
        for (size_t io = 0; io <= sto.size(); io++) {  // io == sto.size(): a fresh r
          BOOST_TEST_CONTEXT("b " << nb << " m " << m << " k " << k << " n " << n << ", layouts " << i1 << " " << i2
                                  << " " << io) {
            auto *b1 = makeTensor<T>({nb, m, k}, st1[i1], randomFor<T>(nb * m * k, seed++));
            auto *b2 = makeTensor<T>({nb, k, n}, st2[i2], randomFor<T>(nb * k * n, seed++));
            const bool fresh = io == sto.size();
            auto *t = makeTensor<T>({nb, m, n}, sto[fresh ? 0 : io], randomFor<T>(nb * m * n, seed++));
            const std::vector<double> v1 = values(b1), v2 = values(b2), vt = values(t);
            std::vector<double> each, sum(m * n, 0.0);
            for (int64_t i = 0; i < nb; i++) {
              auto p = matmul(std::vector<double>(v1.begin() + i * m * k, v1.begin() + (i + 1) * m * k),
                              std::vector<double>(v2.begin() + i * k * n, v2.begin() + (i + 1) * k * n), m, k, n);
              each.insert(each.end(), p.begin(), p.end());
              for (int64_t j = 0; j < m * n; j++) sum[j] += p[j];
            }
            auto *r = fresh ? A::newEmpty() : t;
            A::baddbmm(r, beta, t, alpha, b1, b2);
            expectClose<T>(values(r), axpby(beta, vt, alpha, each));
            BOOST_TEST(sizes(r) == std::vector<int64_t>({nb, m, n}));
            if (fresh) {
              A::bmm(r, b1, b2);
              expectClose<T>(values(r), each);
              A::free(r);
            }
            // addbmm's t is one matrix: the first of t's batch, or a fresh one when empty
            auto *t2 = makeMatrix<T>(m, n, fresh ? Layout::Contig : Layout::ColMajor, seed++);
            const std::vector<double> vt2 = values(t2);
            auto *r2 = fresh ? A::newEmpty() : t2;
            A::addbmm(r2, beta, t2, alpha, b1, b2);
            expectClose<T>(values(r2), axpby(beta, vt2, alpha, sum));
            if (fresh) A::free(r2);
            BOOST_TEST(values(b1) == v1);
            BOOST_TEST(values(b2) == v2);
            A::free(b1);
            A::free(b2);
            A::free(t);
            A::free(t2);
          }
        }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(size_errors_leave_tensors_unchanged, T, AllTypes) {
  using A = Api<T>;
  auto *m23 = makeMatrix<T>(2, 3, Layout::Contig, 1);
  auto *m45 = makeMatrix<T>(4, 5, Layout::Contig, 2);
  auto *m35 = makeMatrix<T>(3, 5, Layout::Contig, 3);
  auto *t22 = makeMatrix<T>(2, 2, Layout::Contig, 4);
  auto *v3 = makeVector<T>(3, 1, 5);
  auto *v4 = makeVector<T>(4, 1, 6);
  auto *v2 = makeVector<T>(2, 1, 7);
  auto *b234 = makeTensor<T>({2, 3, 4}, {12, 4, 1}, randomFor<T>(24, 8));
  auto *b345 = makeTensor<T>({3, 4, 5}, {20, 5, 1}, randomFor<T>(60, 9));
  auto *b252 = makeTensor<T>({2, 5, 2}, {10, 2, 1}, randomFor<T>(20, 10));
  auto *r = makeMatrix<T>(2, 2, Layout::Contig, 11);
  using TL = std::initializer_list<TensorOf<T> *>;
  std::string msg = expectFailureLeaves<TensorOf<T>>(TL{r, m23, m45}, [&] { A::mm(r, m23, m45); });
  BOOST_TEST(contains(msg, "[2, 3]"));
  BOOST_TEST(contains(msg, "[4, 5]"));
  msg = expectFailureLeaves<TensorOf<T>>(TL{r, t22, m23, m35}, [&] { A::addmm(r, 1, t22, 1, m23, m35); });
  BOOST_TEST(contains(msg, "[2, 5]"));  // the result's shape that t should have
  BOOST_TEST(contains(msg, "[2, 2]"));
  expectFailureLeaves<TensorOf<T>>(TL{t22, v3, m23}, [&] { A::addmm(t22, 1, t22, 1, v3, m23); });
  msg = expectFailureLeaves<TensorOf<T>>(TL{r, m23, v4}, [&] { A::mv(r, m23, v4); });
  BOOST_TEST(contains(msg, "[2, 3]"));
  BOOST_TEST(contains(msg, "[4]"));
  expectFailureLeaves<TensorOf<T>>(TL{v3, m23}, [&] { A::addmv(v3, 1, v3, 1, m23, v3); });  // t has 3, not 2
  expectFailureLeaves<TensorOf<T>>(TL{r, m23, m23}, [&] { A::mv(r, m23, m23); });
  expectFailureLeaves<TensorOf<T>>(TL{t22, v3, v2}, [&] { A::addr(t22, 1, t22, 1, v3, v2); });
  expectFailureLeaves<TensorOf<T>>(TL{r, m23, v2}, [&] { A::addr(r, 1, r, 1, m23, v2); });
  msg = expectFailureLeaves<TensorOf<T>>(TL{r, b234, b345}, [&] { A::bmm(r, b234, b345); });
  BOOST_TEST(contains(msg, "[2, 3, 4]"));
  BOOST_TEST(contains(msg, "[3, 4, 5]"));
  expectFailureLeaves<TensorOf<T>>(TL{r, b234, b252}, [&] { A::bmm(r, b234, b252); });
  expectFailureLeaves<TensorOf<T>>(TL{t22, b234, b345}, [&] { A::addbmm(t22, 1, t22, 1, b234, b345); });
  expectFailureLeaves<TensorOf<T>>(TL{r, m23, m35}, [&] { A::bmm(r, m23, m35); });
  for (auto *x : {m23, m45, m35, t22, v3, v4, v2, b234, b345, b252, r}) A::free(x);
}
