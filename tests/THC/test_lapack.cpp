// THC's LAPACK (THCTensorLapack.h, cuSOLVER): each function on the GPU against TH's on the
// same values, the inputs on the device contiguous, transposed or narrowed; results that are
// unique (solutions, factors, eigenvalues, singular values) are compared with TH's directly,
// those unique up to signs (eigenvectors, singular vectors, Q and R) column by column up to
// sign and by the property that defines them (a v = lambda v, u diag(s) v^T = a, q r = a),
// computed in double with plain loops. Float within 1e-3, Double within 1e-9, relative to
// max(1, |x|).
#define BOOST_TEST_MODULE THC lapack
#include <boost/test/unit_test.hpp>

#include "thc_test_util.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "TH/THBlas.h"
#include "TH/THError.hpp"
#include "TH/THTensorLapack.h"
#include "THC/THCTensorLapack.h"

namespace {

using thct::DeviceTensor;
using thct::HostTensor;

using Types = std::tuple<float, double>;

template <typename T>
double tolFor() {
  return std::is_same_v<T, float> ? 1e-3 : 1e-9;
}

// THC's LAPACK of element type T.
template <typename T>
struct Ops;
#define THCT_LAPACK_OPS(T, Name)                 \
  template <>                                    \
  struct Ops<T> {                                \
    static constexpr auto gesv = &Name##_gesv;   \
    static constexpr auto getri = &Name##_getri; \
    static constexpr auto getrf = &Name##_getrf; \
    static constexpr auto potrf = &Name##_potrf; \
    static constexpr auto potrs = &Name##_potrs; \
    static constexpr auto potri = &Name##_potri; \
    static constexpr auto syev = &Name##_syev;   \
    static constexpr auto gesvd = &Name##_gesvd; \
    static constexpr auto qr = &Name##_qr;       \
  };
THCT_LAPACK_OPS(float, THCudaTensor)
THCT_LAPACK_OPS(double, THCudaDoubleTensor)
#undef THCT_LAPACK_OPS

THCState *st() { return thct::state(); }

using thct::DeviceOwned;
template <typename TensorT>
auto own(TensorT *t) {
  return thct::ownDevice(t);
}
template <typename T>
using HostOwned = th::Owned<HostTensor<T>>;

template <typename T>
DeviceOwned<T> emptyDevice() {
  const int64_t zero = 0;
  return own(thc::THC<T>::newWithSize(st(), 1, &zero, nullptr));
}
template <typename T>
HostOwned<T> emptyHost() {
  const int64_t zero = 0;
  return th::own(th::TH<T>::newWithSize(1, &zero, nullptr));
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
M columns(const M &a, int64_t count) {
  M r = zeros(a.rows, count);
  for (int64_t i = 0; i < a.rows; i++)
    for (int64_t j = 0; j < count; j++) r(i, j) = a(i, j);
  return r;
}

// The values of a host tensor (a vector is one column).
template <typename T>
M matOf(HostTensor<T> *h) {
  HostOwned<T> c = th::own(th::TH<T>::newContiguous(h));
  const int64_t rows = h->nDimension >= 1 ? h->size[0] : 1, cols = h->nDimension == 2 ? h->size[1] : 1;
  M m = zeros(rows, cols);
  for (int64_t i = 0; i < rows * cols; i++) m.v[i] = (double)c->storage->data[c->storageOffset + i];
  return m;
}
template <typename T>
M matOf(DeviceTensor<T> *d) {
  HostOwned<T> h = th::own(thct::toHost<T>(d));
  return matOf<T>(h.get());
}
template <typename T>
HostTensor<T> *hostOf(const M &m) {
  HostTensor<T> *h = th::TH<T>::newWithSize(2, std::vector<int64_t>{m.rows, m.cols}.data(), nullptr);
  for (int64_t i = 0; i < m.rows * m.cols; i++) h->storage->data[i] = (T)m.v[i];
  return h;
}

std::string shapeOf(const M &m) { return "[" + std::to_string(m.rows) + ", " + std::to_string(m.cols) + "]"; }

// Within tol relative to max(1, |expected|), element by element.
bool close(const M &expected, const M &actual, double tol, std::string *why) {
  if (expected.rows != actual.rows || expected.cols != actual.cols) {
    *why = "shapes differ: expected " + shapeOf(expected) + ", got " + shapeOf(actual);
    return false;
  }
  for (size_t i = 0; i < expected.v.size(); i++)
    if (!(std::abs(expected.v[i] - actual.v[i]) <= tol * std::max(1.0, std::abs(expected.v[i])))) {
      *why = "element " + std::to_string(i) + ": expected " + std::to_string(expected.v[i]) + ", got " +
             std::to_string(actual.v[i]);
      return false;
    }
  return true;
}

#define EXPECT_CLOSE(expected, actual, tol, what)                                  \
  do {                                                                             \
    std::string why_;                                                              \
    BOOST_TEST(close((expected), (actual), (tol), &why_), (what) << ": " << why_); \
  } while (0)

// The sign (+1 or -1) that makes each column of actual closest to expected's.
std::vector<double> columnSigns(const M &expected, const M &actual) {
  std::vector<double> signs(actual.cols, 1.0);
  if (expected.rows != actual.rows || expected.cols != actual.cols) return signs;
  for (int64_t j = 0; j < actual.cols; j++) {
    double d = 0;
    for (int64_t i = 0; i < actual.rows; i++) d += expected(i, j) * actual(i, j);
    if (d < 0) signs[j] = -1;
  }
  return signs;
}

// actual with its columns' signs flipped to match expected.
M alignColumnSigns(const M &expected, M actual) {
  const std::vector<double> signs = columnSigns(expected, actual);
  for (int64_t i = 0; i < actual.rows; i++)
    for (int64_t j = 0; j < actual.cols; j++) actual(i, j) *= signs[j];
  return actual;
}

enum class L { Contiguous, Transposed, Narrowed };
const L kLayouts[] = {L::Contiguous, L::Transposed, L::Narrowed};
const char *nameOf(L l) { return l == L::Contiguous ? "contiguous" : l == L::Transposed ? "transposed" : "narrowed"; }

// h's values in a device view of layout l (a vector is only ever contiguous or narrowed).
template <typename T>
DeviceTensor<T> *deviceIn(L l, HostTensor<T> *h) {
  std::vector<int64_t> shape(h->size, h->size + h->nDimension), base = shape;
  if (l == L::Transposed && shape.size() == 2) std::swap(base[0], base[1]);
  if (l == L::Narrowed)
    for (size_t d = 0; d < base.size(); d++) base[d] += 2 + (int64_t)d;
  DeviceTensor<T> *d = thc::THC<T>::newWithSize(st(), (int)base.size(), base.data(), nullptr);
  thc::THC<T>::fill(st(), d, T(7));
  if (l == L::Transposed && shape.size() == 2) thc::THC<T>::transpose(st(), d, nullptr, 0, 1);
  if (l == L::Narrowed)
    for (int dim = 0; dim < (int)shape.size(); dim++) thc::THC<T>::narrow(st(), d, nullptr, dim, 1, shape[dim]);
  thc::THC<T>::copyFromHost(st(), d, h);
  return d;
}

// Random matrices in [-1, 1): general, well conditioned (diagonally dominant), symmetric,
// symmetric positive definite.
M randomM(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  M m = zeros(rows, cols);
  for (auto &x : m.v) x = dist(gen);
  return m;
}
M wellConditioned(int64_t n, unsigned seed) {
  M m = randomM(n, n, seed);
  for (int64_t i = 0; i < n; i++) m(i, i) += (double)n + 1;
  return m;
}
M symmetric(int64_t n, unsigned seed) {
  const M m = randomM(n, n, seed);
  M s = zeros(n, n);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) s(i, j) = (m(i, j) + m(j, i)) / 2;
  return s;
}
M positiveDefinite(int64_t n, unsigned seed) {
  M m = randomM(n, n, seed);
  M p = mul(m, transpose(m));
  for (int64_t i = 0; i < n; i++) p(i, i) += (double)n;
  return p;
}

// Rounds m to T, so that host and device start from the same values.
template <typename T>
M roundedTo(M m) {
  for (auto &x : m.v) x = (double)(T)x;
  return m;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

template <typename F>
std::string errorOf(F &&f) {
  try {
    f();
  } catch (const th::Error &e) {
    return e.what();
  }
  BOOST_ERROR("no error raised");
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(lapack, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(gesv_solves, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 1;
  for (int64_t n : {1, 5, 17})
    for (int64_t k : {0, 1, 3})  // k == 0: b is the vector [n]
      for (L la : kLayouts)
        for (L lb : kLayouts) {
          if (k == 0 && lb == L::Transposed) continue;
          const std::string what =
              "gesv n " + std::to_string(n) + " k " + std::to_string(k) + " " + nameOf(la) + "/" + nameOf(lb);
          HostOwned<T> a = th::own(hostOf<T>(wellConditioned(n, seed++)));
          HostOwned<T> b = th::own(hostOf<T>(randomM(n, std::max<int64_t>(k, 1), seed++)));
          if (k == 0) H::resizeNd(b.get(), 1, &n, nullptr);
          HostOwned<T> xh = emptyHost<T>(), luh = emptyHost<T>();
          H::gesv(xh.get(), luh.get(), b.get(), a.get());
          DeviceOwned<T> ad = own(deviceIn<T>(la, a.get())), bd = own(deviceIn<T>(lb, b.get()));
          DeviceOwned<T> x = emptyDevice<T>(), lu = emptyDevice<T>();
          Ops<T>::gesv(st(), x.get(), lu.get(), bd.get(), ad.get());
          EXPECT_CLOSE(matOf<T>(xh.get()), matOf<T>(x.get()), tolFor<T>(), what + ": x");
          EXPECT_CLOSE(matOf<T>(luh.get()), matOf<T>(lu.get()), tolFor<T>(), what + ": LU");
          EXPECT_CLOSE(matOf<T>(a.get()), matOf<T>(ad.get()), 0, what + ": a changed");
          // In place: gesv(b, a, NULL, NULL) leaves x in b and the factors in a.
          Ops<T>::gesv(st(), bd.get(), ad.get(), nullptr, nullptr);
          EXPECT_CLOSE(matOf<T>(xh.get()), matOf<T>(bd.get()), tolFor<T>(), what + ": x in place");
          EXPECT_CLOSE(matOf<T>(luh.get()), matOf<T>(ad.get()), tolFor<T>(), what + ": LU in place");
        }
  // Nothing to solve.
  DeviceOwned<T> a = own(thc::THC<T>::newWithSize(st(), 2, std::vector<int64_t>{0, 0}.data(), nullptr));
  DeviceOwned<T> b = own(thc::THC<T>::newWithSize(st(), 2, std::vector<int64_t>{0, 2}.data(), nullptr));
  DeviceOwned<T> x = emptyDevice<T>(), lu = emptyDevice<T>();
  Ops<T>::gesv(st(), x.get(), lu.get(), b.get(), a.get());
  BOOST_TEST((x->nDimension == 2 && x->size[0] == 0 && x->size[1] == 2));
  BOOST_TEST((lu->nDimension == 2 && lu->size[0] == 0 && lu->size[1] == 0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(getri_inverts, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 100;
  for (int64_t n : {1, 4, 16})
    for (L la : kLayouts) {
      const std::string what = "getri n " + std::to_string(n) + " " + nameOf(la);
      HostOwned<T> a = th::own(hostOf<T>(wellConditioned(n, seed++)));
      HostOwned<T> expected = emptyHost<T>();
      H::getri(expected.get(), a.get());
      DeviceOwned<T> ad = own(deviceIn<T>(la, a.get())), inverse = emptyDevice<T>();
      Ops<T>::getri(st(), inverse.get(), ad.get());
      const M got = matOf<T>(inverse.get());
      EXPECT_CLOSE(matOf<T>(expected.get()), got, tolFor<T>(), what);
      EXPECT_CLOSE(identity(n), mul(matOf<T>(a.get()), got), tolFor<T>(), what + ": a a^-1");
      Ops<T>::getri(st(), ad.get(), nullptr);  // in place
      EXPECT_CLOSE(matOf<T>(expected.get()), matOf<T>(ad.get()), tolFor<T>(), what + " in place");
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(getrf_factors_and_pivots, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 200;
  const int64_t shapes[][2] = {{4, 4}, {6, 3}, {3, 6}, {1, 5}};
  for (const auto &s : shapes)
    for (L la : kLayouts) {
      const std::string what = "getrf [" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + "] " + nameOf(la);
      HostOwned<T> a = th::own(hostOf<T>(randomM(s[0], s[1], seed++)));
      HostOwned<T> lu = emptyHost<T>();
      THIntTensor *pivots = THIntTensor_new();
      H::getrf(lu.get(), pivots, a.get());
      DeviceOwned<T> ad = own(deviceIn<T>(la, a.get())), lud = emptyDevice<T>();
      const int64_t zero = 0;
      THCudaIntTensor *pd = THCudaIntTensor_newWithSize(st(), 1, &zero, nullptr);
      Ops<T>::getrf(st(), lud.get(), pd, ad.get());
      EXPECT_CLOSE(matOf<T>(lu.get()), matOf<T>(lud.get()), tolFor<T>(), what);
      THIntTensor *got = THIntTensor_new();
      THIntTensor_resize1d(got, pd->size[0]);
      THIntTensor_copyCudaInt(st(), got, pd);
      BOOST_TEST(matOf<int>(got).v == matOf<int>(pivots).v, what << ": pivots");
      THIntTensor_free(got);
      THIntTensor_free(pivots);
      THCudaIntTensor_free(st(), pd);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cholesky_family, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 300;
  for (int64_t n : {1, 5, 16})
    for (const char *uplo : {"U", "L"})
      for (L la : kLayouts) {
        const std::string what = std::string("n ") + std::to_string(n) + " uplo " + uplo + " " + nameOf(la);
        HostOwned<T> a = th::own(hostOf<T>(positiveDefinite(n, seed++)));
        HostOwned<T> factor = emptyHost<T>();
        H::potrf(factor.get(), a.get(), uplo);
        DeviceOwned<T> ad = own(deviceIn<T>(la, a.get())), fd = emptyDevice<T>();
        Ops<T>::potrf(st(), fd.get(), ad.get(), uplo);
        EXPECT_CLOSE(matOf<T>(factor.get()), matOf<T>(fd.get()), tolFor<T>(), "potrf " + what);

        for (int64_t k : {0, 2}) {
          HostOwned<T> b = th::own(hostOf<T>(randomM(n, std::max<int64_t>(k, 1), seed++)));
          if (k == 0) H::resizeNd(b.get(), 1, &n, nullptr);
          HostOwned<T> x = emptyHost<T>();
          H::potrs(x.get(), b.get(), factor.get(), uplo);
          DeviceOwned<T> fl = own(deviceIn<T>(la, factor.get())), bd = own(deviceIn<T>(L::Narrowed, b.get()));
          DeviceOwned<T> xd = emptyDevice<T>();
          Ops<T>::potrs(st(), xd.get(), bd.get(), fl.get(), uplo);
          EXPECT_CLOSE(matOf<T>(x.get()), matOf<T>(xd.get()), tolFor<T>(), "potrs " + what);
        }

        HostOwned<T> inverse = emptyHost<T>();
        H::potri(inverse.get(), factor.get(), uplo);
        DeviceOwned<T> fl = own(deviceIn<T>(la, factor.get())), id = emptyDevice<T>();
        Ops<T>::potri(st(), id.get(), fl.get(), uplo);
        EXPECT_CLOSE(matOf<T>(inverse.get()), matOf<T>(id.get()), tolFor<T>(), "potri " + what);
      }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(syev_eigenpairs, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 400;
  for (int64_t n : {1, 6, 20})
    for (const char *uplo : {"U", "L"})
      for (L la : kLayouts) {
        const std::string what = "syev n " + std::to_string(n) + " uplo " + uplo + " " + nameOf(la);
        const M values = roundedTo<T>(symmetric(n, seed++));
        HostOwned<T> a = th::own(hostOf<T>(values));
        HostOwned<T> e = emptyHost<T>(), v = emptyHost<T>();
        H::syev(e.get(), v.get(), a.get(), "V", uplo);
        DeviceOwned<T> ad = own(deviceIn<T>(la, a.get())), ed = emptyDevice<T>(), vd = emptyDevice<T>();
        Ops<T>::syev(st(), ed.get(), vd.get(), ad.get(), "V", uplo);
        const M eigenvalues = matOf<T>(ed.get()), vectors = matOf<T>(vd.get());
        EXPECT_CLOSE(matOf<T>(e.get()), eigenvalues, tolFor<T>(), what + ": eigenvalues");
        EXPECT_CLOSE(matOf<T>(v.get()), alignColumnSigns(matOf<T>(v.get()), vectors), tolFor<T>(),
                     what + ": eigenvectors");
        M lambda = zeros(n, n);
        for (int64_t i = 0; i < n && eigenvalues.v.size() == (size_t)n; i++) lambda(i, i) = eigenvalues.v[i];
        EXPECT_CLOSE(mul(values, vectors), mul(vectors, lambda), tolFor<T>() * n, what + ": a v = v lambda");
        // Eigenvalues only: rv keeps its values.
        DeviceOwned<T> keep = own(deviceIn<T>(L::Contiguous, a.get())), en = emptyDevice<T>();
        Ops<T>::syev(st(), en.get(), keep.get(), ad.get(), "N", uplo);
        EXPECT_CLOSE(matOf<T>(e.get()), matOf<T>(en.get()), tolFor<T>(), what + ": eigenvalues only");
        EXPECT_CLOSE(values, matOf<T>(keep.get()), 0, what + ": rv changed by jobz N");
      }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(gesvd_reconstructs, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 500;
  const int64_t shapes[][2] = {{5, 3}, {3, 5}, {4, 4}, {1, 3}, {3, 1}, {7, 2}};
  for (const auto &s : shapes)
    for (const char *job : {"S", "A", "N"})
      for (L la : kLayouts) {
        const int64_t m = s[0], n = s[1], k = std::min(m, n);
        const std::string what =
            "gesvd [" + std::to_string(m) + ", " + std::to_string(n) + "] " + job + " " + nameOf(la);
        const M values = roundedTo<T>(randomM(m, n, seed++));
        HostOwned<T> a = th::own(hostOf<T>(values));
        HostOwned<T> u = emptyHost<T>(), sv = emptyHost<T>(), v = emptyHost<T>();
        H::gesvd(u.get(), sv.get(), v.get(), a.get(), job);
        DeviceOwned<T> ad = own(deviceIn<T>(la, a.get()));
        DeviceOwned<T> ud = own(deviceIn<T>(L::Contiguous, a.get())), sd = emptyDevice<T>();
        DeviceOwned<T> vd = own(deviceIn<T>(L::Contiguous, a.get()));
        Ops<T>::gesvd(st(), ud.get(), sd.get(), vd.get(), ad.get(), job);
        const M sigma = matOf<T>(sd.get());
        EXPECT_CLOSE(matOf<T>(sv.get()), sigma, tolFor<T>(), what + ": singular values");
        if (job[0] == 'N') {
          EXPECT_CLOSE(values, matOf<T>(ud.get()), 0, what + ": ru changed");
          EXPECT_CLOSE(values, matOf<T>(vd.get()), 0, what + ": rv changed");
          continue;
        }
        const M U = matOf<T>(ud.get()), V = matOf<T>(vd.get());
        const M Uh = matOf<T>(u.get()), Vh = matOf<T>(v.get());
        BOOST_TEST((U.rows == Uh.rows && U.cols == Uh.cols && V.rows == Vh.rows && V.cols == Vh.cols),
                   what << ": sizes of u " << shapeOf(U) << " and v " << shapeOf(V) << ", TH's " << shapeOf(Uh)
                        << " and " << shapeOf(Vh));
        EXPECT_CLOSE(identity(U.cols), mul(transpose(U), U), tolFor<T>(), what + ": u^T u");
        EXPECT_CLOSE(identity(V.cols), mul(transpose(V), V), tolFor<T>(), what + ": v^T v");
        if (U.cols < k || V.cols < k || (int64_t)sigma.v.size() != k) continue;
        M S = zeros(k, k);
        for (int64_t i = 0; i < k; i++) S(i, i) = sigma.v[i];
        EXPECT_CLOSE(values, mul(mul(columns(U, k), S), transpose(columns(V, k))), tolFor<T>(), what + ": u s v^T = a");
        // The singular vectors of distinct singular values are TH's up to sign.
        EXPECT_CLOSE(columns(Uh, k), alignColumnSigns(columns(Uh, k), columns(U, k)), tolFor<T>(), what + ": u");
        EXPECT_CLOSE(columns(Vh, k), alignColumnSigns(columns(Vh, k), columns(V, k)), tolFor<T>(), what + ": v");
      }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(qr_factors, T, Types) {
  using H = th::TH<T>;
  unsigned seed = 600;
  const int64_t shapes[][2] = {{5, 3}, {3, 5}, {4, 4}, {1, 1}, {6, 1}, {1, 6}};
  for (const auto &s : shapes)
    for (L la : kLayouts) {
      const int64_t m = s[0], n = s[1], k = std::min(m, n);
      const std::string what = "qr [" + std::to_string(m) + ", " + std::to_string(n) + "] " + nameOf(la);
      const M values = roundedTo<T>(randomM(m, n, seed++));
      HostOwned<T> a = th::own(hostOf<T>(values));
      HostOwned<T> q = emptyHost<T>(), r = emptyHost<T>();
      H::qr(q.get(), r.get(), a.get());
      DeviceOwned<T> ad = own(deviceIn<T>(la, a.get())), qd = emptyDevice<T>(), rd = emptyDevice<T>();
      Ops<T>::qr(st(), qd.get(), rd.get(), ad.get());
      const M Q = matOf<T>(qd.get()), R = matOf<T>(rd.get());
      BOOST_TEST((Q.rows == m && Q.cols == k && R.rows == k && R.cols == n), what << ": sizes");
      if (!(Q.rows == m && Q.cols == k && R.rows == k && R.cols == n)) continue;
      EXPECT_CLOSE(values, mul(Q, R), tolFor<T>(), what + ": q r = a");
      EXPECT_CLOSE(identity(k), mul(transpose(Q), Q), tolFor<T>(), what + ": q^T q");
      for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < i; j++) BOOST_TEST(R(i, j) == 0.0, what << ": r[" << i << "][" << j << "]");
      // TH's factors up to the sign of each column of q and row of r.
      const M Qh = matOf<T>(q.get()), Rh = matOf<T>(r.get());
      const std::vector<double> signs = columnSigns(Qh, Q);
      const M aligned = alignColumnSigns(Qh, Q);
      M Ra = R;
      for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < n; j++) Ra(i, j) *= signs[i];
      EXPECT_CLOSE(Qh, aligned, tolFor<T>(), what + ": q");
      EXPECT_CLOSE(Rh, Ra, tolFor<T>(), what + ": r");
    }
}

// Failures raise TH's errors and leave every tensor as it was.
BOOST_AUTO_TEST_CASE_TEMPLATE(failures_leave_tensors_unchanged, T, Types) {
  auto expectFailureLeaves = [](std::initializer_list<DeviceTensor<T> *> tensors, auto &&f) {
    std::vector<M> before;
    for (DeviceTensor<T> *t : tensors) before.push_back(matOf<T>(t));
    const std::string msg = errorOf(f);
    size_t i = 0;
    for (DeviceTensor<T> *t : tensors) EXPECT_CLOSE(before[i++], matOf<T>(t), 0, msg);
    return msg;
  };
  HostOwned<T> singularH = th::own(hostOf<T>(M{2, 2, {1, 2, 2, 4}}));
  HostOwned<T> indefiniteH = th::own(hostOf<T>(M{2, 2, {1, 2, 2, 1}}));
  HostOwned<T> bH = th::own(hostOf<T>(M{2, 1, {1, 1}})), b3H = th::own(hostOf<T>(randomM(3, 1, 2)));
  HostOwned<T> r1H = th::own(hostOf<T>(M{2, 2, {9, 8, 7, 6}})), r2H = th::own(hostOf<T>(M{1, 3, {5, 4, 3}}));
  HostOwned<T> rectH = th::own(hostOf<T>(randomM(2, 3, 1)));
  DeviceOwned<T> singular = own(deviceIn<T>(L::Contiguous, singularH.get()));
  DeviceOwned<T> indefinite = own(deviceIn<T>(L::Transposed, indefiniteH.get()));
  DeviceOwned<T> b = own(deviceIn<T>(L::Contiguous, bH.get())), b3 = own(deviceIn<T>(L::Contiguous, b3H.get()));
  DeviceOwned<T> r1 = own(deviceIn<T>(L::Contiguous, r1H.get())), r2 = own(deviceIn<T>(L::Contiguous, r2H.get()));
  DeviceOwned<T> rect = own(deviceIn<T>(L::Contiguous, rectH.get()));

  std::string msg = expectFailureLeaves({r1.get(), r2.get(), b.get(), singular.get()},
                                        [&] { Ops<T>::gesv(st(), r2.get(), r1.get(), b.get(), singular.get()); });
  BOOST_TEST(contains(msg, "singular"));
  msg = expectFailureLeaves({r1.get(), singular.get()}, [&] { Ops<T>::getri(st(), r1.get(), singular.get()); });
  BOOST_TEST(contains(msg, "singular"));
  const int64_t zero = 0;
  THCudaIntTensor *pivots = THCudaIntTensor_newWithSize(st(), 1, &zero, nullptr);
  msg = expectFailureLeaves({r1.get(), singular.get()}, [&] { Ops<T>::getrf(st(), r1.get(), pivots, singular.get()); });
  BOOST_TEST(contains(msg, "singular"));
  BOOST_TEST(pivots->size[0] == 0);
  THCudaIntTensor_free(st(), pivots);
  msg =
      expectFailureLeaves({r1.get(), indefinite.get()}, [&] { Ops<T>::potrf(st(), r1.get(), indefinite.get(), "U"); });
  BOOST_TEST(contains(msg, "positive definite"));
  msg = expectFailureLeaves({r1.get(), r2.get(), b3.get(), singular.get()},
                            [&] { Ops<T>::gesv(st(), r2.get(), r1.get(), b3.get(), singular.get()); });
  BOOST_TEST(contains(msg, "[3, 1]"));
  msg = expectFailureLeaves({r1.get(), r2.get(), b.get(), rect.get()},
                            [&] { Ops<T>::gesv(st(), r2.get(), r1.get(), b.get(), rect.get()); });
  BOOST_TEST(contains(msg, "square"));
  msg =
      expectFailureLeaves({r1.get(), indefinite.get()}, [&] { Ops<T>::potrf(st(), r1.get(), indefinite.get(), "X"); });
  BOOST_TEST(contains(msg, "uplo"));
  expectFailureLeaves({r1.get(), r2.get(), singular.get()},
                      [&] { Ops<T>::syev(st(), r2.get(), r1.get(), singular.get(), "Q", "U"); });
  expectFailureLeaves({r1.get(), r2.get(), rect.get()},
                      [&] { Ops<T>::gesvd(st(), r1.get(), r2.get(), r1.get(), rect.get(), "O"); });
  DeviceOwned<T> vec = own(deviceIn<T>(L::Contiguous, b3H.get()));
  thc::THC<T>::resizeNd(st(), vec.get(), 1, std::vector<int64_t>{3}.data(), nullptr);
  msg = expectFailureLeaves({r1.get(), r2.get()}, [&] { Ops<T>::qr(st(), r1.get(), r2.get(), vec.get()); });
  BOOST_TEST(contains(msg, "matrix"));
}

BOOST_AUTO_TEST_SUITE_END()
