// THC's BLAS: the cuBLAS wrappers (THCBlas.h) and the products of CUDA tensors
// (THCTensorMathBlas.h). Each product runs on the GPU with its operands in every layout of
// Note [Layouts cuBLAS reads] (contiguous, transposed, narrowed, expanded, strided without a
// unit stride, batches interleaved) and on TH with the same values, contiguous, and the
// results are compared: Float within 1e-4, Double within 1e-10 (relative to max(1, |x|)),
// Half against TH's Float on the same (Half-rounded) values within 1e-2.
#define BOOST_TEST_MODULE THC blas
#include <boost/test/unit_test.hpp>

#include "thc_test_util.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "TH/THBlas.h"
#include "TH/THError.hpp"
#include "THC/THCBlas.h"
#include "THC/THCTensorMathBlas.h"

namespace {

using thct::DeviceTensor;
using thct::HostTensor;

using Types = std::tuple<float, double, THHalf>;
using FullTypes = std::tuple<float, double>;

template <typename T>
constexpr bool isHalf = std::is_same_v<T, THHalf>;

// The host element type of the reference: TH has no Half arithmetic, so Half is checked
// against Float on the same values.
template <typename T>
using Ref = std::conditional_t<isHalf<T>, float, T>;

template <typename T>
double tolFor() {
  if constexpr (isHalf<T>)
    return 1e-2;
  else if constexpr (std::is_same_v<T, float>)
    return 1e-4;
  else
    return 1e-10;
}

template <typename T>
T scalarOf(double v) {
  if constexpr (isHalf<T>)
    return TH_float2half((float)v);
  else
    return (T)v;
}

// THC's products of element type T.
template <typename T>
struct Ops;
#define THCT_BLAS_OPS(T, Name)                       \
  template <>                                        \
  struct Ops<T> {                                    \
    static constexpr auto dot = &Name##_dot;         \
    static constexpr auto addmv = &Name##_addmv;     \
    static constexpr auto addr = &Name##_addr;       \
    static constexpr auto addmm = &Name##_addmm;     \
    static constexpr auto addbmm = &Name##_addbmm;   \
    static constexpr auto baddbmm = &Name##_baddbmm; \
    static constexpr auto mv = &Name##_mv;           \
    static constexpr auto mm = &Name##_mm;           \
    static constexpr auto bmm = &Name##_bmm;         \
  };
THCT_BLAS_OPS(float, THCudaTensor)
THCT_BLAS_OPS(double, THCudaDoubleTensor)
THCT_BLAS_OPS(THHalf, THCudaHalfTensor)
#undef THCT_BLAS_OPS

THCState *st() { return thct::state(); }

using thct::DeviceOwned;
template <typename TensorT>
auto own(TensorT *t) {
  return thct::ownDevice(t);
}
template <typename R>
using HostOwned = th::Owned<HostTensor<R>>;

// The layouts of the operands (Note [Layouts cuBLAS reads]): views of a larger device tensor.
enum class L { Contiguous, Transposed, Narrowed, Expanded, Strided, Interleaved };
const char *nameOf(L l) {
  switch (l) {
    case L::Contiguous: return "contiguous";
    case L::Transposed: return "transposed";
    case L::Narrowed: return "narrowed";
    case L::Expanded: return "expanded";
    case L::Strided: return "strided";
    case L::Interleaved: return "interleaved";
  }
  return "?";
}
// Strided: every stride doubled (a vector stays readable, a matrix has no unit stride).
// Interleaved (3-d): [b, m, n] as a transposed view of [m, b, n], the batch stride smaller
// than a matrix.
const std::vector<L> kVectorLayouts = {L::Contiguous, L::Strided, L::Expanded};
const std::vector<L> kMatrixLayouts = {L::Contiguous, L::Transposed, L::Narrowed, L::Expanded, L::Strided};
const std::vector<L> kBatchLayouts = {L::Contiguous, L::Transposed, L::Narrowed,
                                      L::Expanded,   L::Strided,    L::Interleaved};

std::vector<int64_t> baseShape(L l, std::vector<int64_t> shape) {
  const size_t nd = shape.size();
  switch (l) {
    case L::Contiguous: break;
    case L::Transposed: std::swap(shape[nd - 2], shape[nd - 1]); break;
    case L::Narrowed:
      for (size_t d = 0; d < nd; d++) shape[d] += 2 + (int64_t)d;
      break;
    case L::Expanded: shape[0] = 1; break;
    case L::Strided: shape.push_back(2); break;
    case L::Interleaved: std::swap(shape[0], shape[1]); break;
  }
  return shape;
}

// Makes the device tensor t (of the base shape) the view of the given shape in layout l.
template <typename T>
void makeView(L l, const std::vector<int64_t> &shape, DeviceTensor<T> *t) {
  using C = thc::THC<T>;
  const int nd = (int)shape.size();
  switch (l) {
    case L::Contiguous: return;
    case L::Transposed: C::transpose(st(), t, nullptr, nd - 2, nd - 1); return;
    case L::Narrowed:
      for (int d = 0; d < nd; d++) C::narrow(st(), t, nullptr, d, 1, shape[d]);
      return;
    case L::Expanded: C::expand(st(), t, nullptr, nd, shape.data()); return;
    case L::Strided: thc::THC<T>::select(st(), t, nullptr, nd, 0); return;
    case L::Interleaved: C::transpose(st(), t, nullptr, 0, 1); return;
  }
}

// Random host values of the given shape in [-1, 1), rounded to Half for Half, and the same
// along dimension 0 for the expanded layout.
template <typename T>
HostTensor<Ref<T>> *valuesFor(L l, std::vector<int64_t> shape, unsigned seed) {
  using R = Ref<T>;
  std::vector<int64_t> drawn = shape;
  if (l == L::Expanded) drawn[0] = 1;
  HostOwned<R> base = th::own(thct::randomHost<R>(drawn, -1, 1, seed));
  if constexpr (isHalf<T>) {
    R *p = base->storage->data;
    for (int64_t i = 0; i < th::TH<R>::nElement(base.get()); i++) p[i] = TH_half2float(TH_float2half(p[i]));
  }
  if (l != L::Expanded) return base.release();
  HostOwned<R> expanded = th::own(th::TH<R>::newExpand(base.get(), (int)shape.size(), shape.data()));
  return th::TH<R>::newContiguous(expanded.get());
}

// v's values copied into a device view of layout l (the rest of its base holds 7s).
template <typename T>
DeviceTensor<T> *deviceIn(L l, HostTensor<Ref<T>> *v) {
  const std::vector<int64_t> shape(v->size, v->size + v->nDimension);
  const std::vector<int64_t> base = baseShape(l, shape);
  DeviceTensor<T> *d = thc::THC<T>::newWithSize(st(), (int)base.size(), base.data(), nullptr);
  thc::THC<T>::fill(st(), d, scalarOf<T>(7));
  makeView<T>(l, shape, d);
  if constexpr (isHalf<T>)
    THCudaHalfTensor_copyFloat(st(), d, v);
  else
    thc::THC<T>::copyFromHost(st(), d, v);
  return d;
}

// d's values on the host, contiguous, in the reference type.
template <typename T>
HostTensor<Ref<T>> *hostOf(DeviceTensor<T> *d) {
  HostTensor<T> *h = thct::toHost<T>(d);
  if constexpr (isHalf<T>) {
    HostOwned<THHalf> half = th::own(h);
    HostTensor<float> *f = THFloatTensor_newWithSize(d->nDimension, d->size, nullptr);
    THFloatTensor_copyHalf(f, half.get());
    return f;
  } else {
    return h;
  }
}

// An operand: its values on the host (contiguous) and on the device in a layout.
template <typename T>
struct Operand {
  HostOwned<Ref<T>> host;
  DeviceOwned<T> dev;
};

template <typename T>
Operand<T> operand(L l, std::vector<int64_t> shape, unsigned seed) {
  Operand<T> o{th::own(valuesFor<T>(l, shape, seed)), nullptr};
  o.dev = own(deviceIn<T>(l, o.host.get()));
  return o;
}

template <typename T>
DeviceOwned<T> emptyDevice() {
  const int64_t zero = 0;
  return own(thc::THC<T>::newWithSize(st(), 1, &zero, nullptr));
}

template <typename R>
HostOwned<R> emptyHost() {
  const int64_t zero = 0;
  return th::own(th::TH<R>::newWithSize(1, &zero, nullptr));
}

template <typename T>
void expectMatches(HostTensor<Ref<T>> *expected, DeviceTensor<T> *actual, const std::string &what) {
  HostOwned<Ref<T>> got = th::own(hostOf<T>(actual));
  std::string why;
  BOOST_TEST(thct::sameValues<Ref<T>>(expected, got.get(), tolFor<T>(), &why), what << ": " << why);
}

// The operand still holds its values (products never write their inputs).
template <typename T>
void expectUnchanged(const Operand<T> &o, const std::string &what) {
  HostOwned<Ref<T>> got = th::own(hostOf<T>(o.dev.get()));
  std::string why;
  BOOST_TEST(thct::sameValues<Ref<T>>(o.host.get(), got.get(), 0, &why), what << " changed an input: " << why);
}

std::string layouts(std::initializer_list<L> ls) {
  std::string s;
  for (L l : ls) s += std::string(s.empty() ? "" : "/") + nameOf(l);
  return s;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// Runs f, which must raise th::Error; returns the message.
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

BOOST_AUTO_TEST_SUITE(blas, *thct::needsGPU())

// ---- the cuBLAS wrappers, against TH's THBlas on the same column-major arrays ----

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemm_every_transpose, T, Types) {
  using R = Ref<T>;
  const int64_t m = 5, n = 4, k = 3, ld = 9;  // every leading dimension larger than needed
  for (char ta : {'n', 't'})
    for (char tb : {'n', 'T'}) {
      // Arrays of ld x 9 elements: a matrix with ld >= its rows fits in each.
      auto a = operand<T>(L::Contiguous, {ld * 9}, 1), b = operand<T>(L::Contiguous, {ld * 9}, 2);
      auto c = operand<T>(L::Contiguous, {ld * 9}, 3);
      HostOwned<R> expected = th::own(th::TH<R>::newClone(c.host.get()));
      const double alpha = 1.5, beta = -0.5;
      th::TH<R>::Blas::gemm(ta, tb, m, n, k, (R)alpha, a.host->storage->data, ld, b.host->storage->data, ld, (R)beta,
                            expected->storage->data, ld);
      const T *da = a.dev->storage->data, *db = b.dev->storage->data;
      T *dc = c.dev->storage->data;
      if constexpr (isHalf<T>)
        THCudaBlas_Hgemm(st(), ta, tb, m, n, k, (float)alpha, da, ld, db, ld, (float)beta, dc, ld);
      else if constexpr (std::is_same_v<T, float>)
        THCudaBlas_Sgemm(st(), ta, tb, m, n, k, (float)alpha, da, ld, db, ld, (float)beta, dc, ld);
      else
        THCudaBlas_Dgemm(st(), ta, tb, m, n, k, alpha, da, ld, db, ld, beta, dc, ld);
      expectMatches<T>(expected.get(), c.dev.get(), std::string("gemm ") + ta + tb);
    }
}

// k == 0: c = beta c inside the m x n block of a column-major array with ldc > m; beta == 0
// clears NaNs; the rest of the array is untouched.
BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemm_inner_size_zero, T, Types) {
  using R = Ref<T>;
  const int64_t m = 3, n = 4, ld = 5;
  for (double beta : {0.0, 2.0}) {
    auto c = operand<T>(L::Contiguous, {ld * n}, 4);
    HostOwned<R> expected = th::own(th::TH<R>::newClone(c.host.get()));
    if (beta == 0) {
      thc::THC<T>::fill(st(), c.dev.get(), scalarOf<T>(std::numeric_limits<double>::quiet_NaN()));
      for (int64_t i = 0; i < ld * n; i++) expected->storage->data[i] = std::numeric_limits<R>::quiet_NaN();
    }
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < m; i++) {
        R &e = expected->storage->data[i + j * ld];
        e = beta == 0 ? R(0) : (R)(beta * e);
      }
    T *dc = c.dev->storage->data;
    if constexpr (isHalf<T>)
      THCudaBlas_Hgemm(st(), 'n', 'n', m, n, 0, 1.0f, nullptr, m, nullptr, 1, (float)beta, dc, ld);
    else if constexpr (std::is_same_v<T, float>)
      THCudaBlas_Sgemm(st(), 'n', 'n', m, n, 0, 1.0f, nullptr, m, nullptr, 1, (float)beta, dc, ld);
    else
      THCudaBlas_Dgemm(st(), 'n', 'n', m, n, 0, 1.0, nullptr, m, nullptr, 1, beta, dc, ld);
    expectMatches<T>(expected.get(), c.dev.get(), "gemm with k = 0, beta " + std::to_string(beta));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemm_strided_batched, T, Types) {
  using R = Ref<T>;
  const int64_t m = 4, n = 3, k = 5, ld = 6, count = 3, stride = 40;  // matrices 40 elements apart
  for (char ta : {'n', 't'})
    for (char tb : {'n', 't'}) {
      auto a = operand<T>(L::Contiguous, {stride * count}, 5), b = operand<T>(L::Contiguous, {stride * count}, 6);
      auto c = operand<T>(L::Contiguous, {stride * count}, 7);
      HostOwned<R> expected = th::own(th::TH<R>::newClone(c.host.get()));
      const double alpha = 0.5, beta = 1.5;
      for (int64_t i = 0; i < count; i++)
        th::TH<R>::Blas::gemm(ta, tb, m, n, k, (R)alpha, a.host->storage->data + i * stride, ld,
                              b.host->storage->data + i * stride, ld, (R)beta, expected->storage->data + i * stride,
                              ld);
      const T *da = a.dev->storage->data, *db = b.dev->storage->data;
      T *dc = c.dev->storage->data;
      if constexpr (isHalf<T>)
        THCudaBlas_HgemmStridedBatched(st(), ta, tb, m, n, k, (float)alpha, da, ld, stride, db, ld, stride, (float)beta,
                                       dc, ld, stride, count);
      else if constexpr (std::is_same_v<T, float>)
        THCudaBlas_SgemmStridedBatched(st(), ta, tb, m, n, k, (float)alpha, da, ld, stride, db, ld, stride, (float)beta,
                                       dc, ld, stride, count);
      else
        THCudaBlas_DgemmStridedBatched(st(), ta, tb, m, n, k, alpha, da, ld, stride, db, ld, stride, beta, dc, ld,
                                       stride, count);
      expectMatches<T>(expected.get(), c.dev.get(), std::string("gemmStridedBatched ") + ta + tb);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(raw_gemv_ger_dot, T, FullTypes) {
  using H = th::TH<T>;
  const int64_t m = 5, n = 4, lda = 7, inc = 2;
  for (char trans : {'n', 't'}) {
    auto a = operand<T>(L::Contiguous, {lda * n}, 8), x = operand<T>(L::Contiguous, {inc * 8}, 9);
    auto y = operand<T>(L::Contiguous, {inc * 8}, 10);
    HostOwned<T> expected = th::own(H::newClone(y.host.get()));
    H::Blas::gemv(trans, m, n, T(0.5), a.host->storage->data, lda, x.host->storage->data, inc, T(-2),
                  expected->storage->data, inc);
    if constexpr (std::is_same_v<T, float>)
      THCudaBlas_Sgemv(st(), trans, m, n, 0.5f, a.dev->storage->data, lda, x.dev->storage->data, inc, -2.0f,
                       y.dev->storage->data, inc);
    else
      THCudaBlas_Dgemv(st(), trans, m, n, 0.5, a.dev->storage->data, lda, x.dev->storage->data, inc, -2.0,
                       y.dev->storage->data, inc);
    expectMatches<T>(expected.get(), y.dev.get(), std::string("gemv ") + trans);
  }
  {
    auto a = operand<T>(L::Contiguous, {lda * n}, 11), x = operand<T>(L::Contiguous, {inc * m}, 12);
    auto y = operand<T>(L::Contiguous, {n}, 13);
    HostOwned<T> expected = th::own(H::newClone(a.host.get()));
    H::Blas::ger(m, n, T(1.5), x.host->storage->data, inc, y.host->storage->data, 1, expected->storage->data, lda);
    if constexpr (std::is_same_v<T, float>)
      THCudaBlas_Sger(st(), m, n, 1.5f, x.dev->storage->data, inc, y.dev->storage->data, 1, a.dev->storage->data, lda);
    else
      THCudaBlas_Dger(st(), m, n, 1.5, x.dev->storage->data, inc, y.dev->storage->data, 1, a.dev->storage->data, lda);
    expectMatches<T>(expected.get(), a.dev.get(), "ger");
  }
  {
    auto x = operand<T>(L::Contiguous, {3 * 100}, 14), y = operand<T>(L::Contiguous, {100}, 15);
    const double expected = H::Blas::dot(100, x.host->storage->data, 3, y.host->storage->data, 1);
    double got;
    if constexpr (std::is_same_v<T, float>)
      got = THCudaBlas_Sdot(st(), 100, x.dev->storage->data, 3, y.dev->storage->data, 1);
    else
      got = THCudaBlas_Ddot(st(), 100, x.dev->storage->data, 3, y.dev->storage->data, 1);
    BOOST_TEST(std::abs(got - expected) <= tolFor<T>() * std::max(1.0, std::abs(expected)));
    BOOST_TEST((std::is_same_v<T, float> ? THCudaBlas_Sdot(st(), 0, nullptr, 1, nullptr, 1) : 0.0) == 0.0);
  }
}

BOOST_AUTO_TEST_CASE(raw_half_dot) {
  auto x = operand<THHalf>(L::Contiguous, {2 * 300}, 16), y = operand<THHalf>(L::Contiguous, {300}, 17);
  const double expected = THFloatBlas_dot(300, x.host->storage->data, 2, y.host->storage->data, 1);
  const float got = THCudaBlas_Hdot(st(), 300, x.dev->storage->data, 2, y.dev->storage->data, 1);
  BOOST_TEST(std::abs(got - expected) <= 1e-3 * std::max(1.0, std::abs(expected)));
}

BOOST_AUTO_TEST_CASE(raw_argument_errors) {
  float *p = nullptr;  // never reached: the checks come first
  std::string msg = errorOf([&] { THCudaBlas_Sgemm(st(), 'x', 'n', 2, 2, 2, 1, p, 2, p, 2, 0, p, 2); });
  BOOST_TEST(contains(msg, "transpose flag"));
  msg = errorOf([&] { THCudaBlas_Sgemm(st(), 'n', 'n', 3, 2, 2, 1, p, 2, p, 2, 0, p, 3); });
  BOOST_TEST(contains(msg, "leading dimension"));
  msg = errorOf([&] { THCudaBlas_Sgemm(st(), 'n', 'n', -1, 2, 2, 1, p, 2, p, 2, 0, p, 2); });
  BOOST_TEST(contains(msg, "size must be >= 0"));
  const int64_t big = int64_t(INT_MAX) + 1;
  msg = errorOf([&] { THCudaBlas_Sgemm(st(), 'n', 'n', big, 2, 2, 1, p, big, p, 2, 0, p, big); });
  BOOST_TEST(contains(msg, "too large for cuBLAS"));
  msg = errorOf([&] { THCudaBlas_Dgemv(st(), 'n', 2, 3, 1, nullptr, 2, nullptr, 0, 0, nullptr, 1); });
  BOOST_TEST(contains(msg, "increment"));
  msg = errorOf([&] { THCudaBlas_Sdot(st(), big, p, 1, p, 1); });
  BOOST_TEST(contains(msg, "too large for cuBLAS"));
  msg = errorOf([&] { THCudaBlas_SgemmStridedBatched(st(), 'n', 'n', 2, 2, 2, 1, p, 2, 4, p, 2, 4, 0, p, 2, 4, big); });
  BOOST_TEST(contains(msg, "batchCount"));
}

// TF32 changes float products only when asked for, and is off by default.
BOOST_AUTO_TEST_CASE(tf32_when_allowed) {
  BOOST_TEST(THCState_getAllowTF32(st()) == 0);
  auto a = operand<float>(L::Contiguous, {64, 64}, 18), b = operand<float>(L::Contiguous, {64, 64}, 19);
  HostOwned<float> expected = emptyHost<float>();
  THFloatTensor_mm(expected.get(), a.host.get(), b.host.get());
  DeviceOwned<float> r = emptyDevice<float>();
  THCState_setAllowTF32(st(), 1);
  try {
    THCudaTensor_mm(st(), r.get(), a.dev.get(), b.dev.get());
  } catch (...) {
    THCState_setAllowTF32(st(), 0);
    throw;
  }
  THCState_setAllowTF32(st(), 0);
  HostOwned<float> got = th::own(hostOf<float>(r.get()));
  std::string why;
  BOOST_TEST(thct::sameValues<float>(expected.get(), got.get(), 2e-2, &why), why);
  THCudaTensor_mm(st(), r.get(), a.dev.get(), b.dev.get());
  expectMatches<float>(expected.get(), r.get(), "mm with TF32 off again");
}

// ---- products of tensors, against TH on the same values ----

BOOST_AUTO_TEST_CASE_TEMPLATE(addmm_every_layout, T, Types) {
  using R = Ref<T>;
  const int64_t m = 7, k = 5, n = 6;
  const double beta = 0.5, alpha = -1.5;
  unsigned seed = 100;
  for (L l1 : kMatrixLayouts)
    for (L l2 : kMatrixLayouts)
      for (L lt : kMatrixLayouts) {
        const std::string what = "addmm " + layouts({l1, l2, lt});
        auto a = operand<T>(l1, {m, k}, seed++), b = operand<T>(l2, {k, n}, seed++), t = operand<T>(lt, {m, n}, seed++);
        HostOwned<R> expected = emptyHost<R>();
        th::TH<R>::addmm(expected.get(), (R)beta, t.host.get(), (R)alpha, a.host.get(), b.host.get());
        DeviceOwned<T> r = emptyDevice<T>();
        Ops<T>::addmm(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), a.dev.get(), b.dev.get());
        expectMatches<T>(expected.get(), r.get(), what);
        expectUnchanged(a, what);
        expectUnchanged(b, what);
        expectUnchanged(t, what);
        if (lt == L::Expanded) continue;  // an expanded result has no defined value
        Ops<T>::addmm(st(), t.dev.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), a.dev.get(), b.dev.get());
        expectMatches<T>(expected.get(), t.dev.get(), what + " in place");
      }
}

// Row and column vectors as matrices, single elements, empty results and k = 0 (r = beta t),
// sizes that are not multiples of anything, every beta class.
BOOST_AUTO_TEST_CASE_TEMPLATE(addmm_shapes, T, Types) {
  using R = Ref<T>;
  const int64_t shapes[][3] = {{1, 5, 6}, {7, 5, 1}, {7, 1, 6}, {1, 1, 1}, {1, 7, 1},   {0, 5, 6},
                               {7, 5, 0}, {7, 0, 6}, {0, 0, 0}, {1, 0, 1}, {33, 65, 17}};
  unsigned seed = 200;
  for (const auto &s : shapes)
    for (L l1 : {L::Contiguous, L::Transposed, L::Narrowed})
      for (L l2 : {L::Contiguous, L::Transposed})
        for (double beta : {0.0, 1.0, 0.5}) {
          const int64_t m = s[0], k = s[1], n = s[2];
          const std::string what = "addmm [" + std::to_string(m) + ", " + std::to_string(k) + "] @ [" +
                                   std::to_string(k) + ", " + std::to_string(n) + "] " + layouts({l1, l2}) + " beta " +
                                   std::to_string(beta);
          auto a = operand<T>(l1, {m, k}, seed++), b = operand<T>(l2, {k, n}, seed++);
          auto t = operand<T>(L::Narrowed, {m, n}, seed++);
          HostOwned<R> expected = emptyHost<R>();
          th::TH<R>::addmm(expected.get(), (R)beta, t.host.get(), (R)2, a.host.get(), b.host.get());
          DeviceOwned<T> r = emptyDevice<T>();
          Ops<T>::addmm(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(2), a.dev.get(), b.dev.get());
          expectMatches<T>(expected.get(), r.get(), what);
          Ops<T>::addmm(st(), t.dev.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(2), a.dev.get(), b.dev.get());
          expectMatches<T>(expected.get(), t.dev.get(), what + " in place");
        }
}

// A result that shares memory with an operand is computed aside and copied in at the end.
BOOST_AUTO_TEST_CASE_TEMPLATE(result_shares_memory_with_an_operand, T, Types) {
  using R = Ref<T>;
  using H = th::TH<R>;
  const int64_t n = 6;
  for (L la : {L::Contiguous, L::Transposed}) {
    auto a = operand<T>(la, {n, n}, 300), b = operand<T>(L::Contiguous, {n, n}, 301);
    HostOwned<R> expected = emptyHost<R>();
    H::mm(expected.get(), a.host.get(), b.host.get());
    Ops<T>::mm(st(), a.dev.get(), a.dev.get(), b.dev.get());  // a = a @ b
    expectMatches<T>(expected.get(), a.dev.get(), std::string("mm into its left operand, ") + nameOf(la));
  }
  {
    // r is a view of the storage of m1 and t another one: r = 0.5 t + m1 @ m2.
    auto base = operand<T>(L::Contiguous, {2 * n, n}, 302), m2 = operand<T>(L::Contiguous, {n, n}, 303);
    HostOwned<R> m1h = th::own(H::newNarrow(base.host.get(), 0, 0, n));
    HostOwned<R> th_ = th::own(H::newNarrow(base.host.get(), 0, n, n));
    HostOwned<R> expected = emptyHost<R>();
    H::addmm(expected.get(), (R)0.5, th_.get(), (R)1, m1h.get(), m2.host.get());
    DeviceOwned<T> m1 = own(thc::THC<T>::newNarrow(st(), base.dev.get(), 0, 0, n));
    DeviceOwned<T> t = own(thc::THC<T>::newNarrow(st(), base.dev.get(), 0, n, n));
    DeviceOwned<T> r = own(thc::THC<T>::newTranspose(st(), m1.get(), 0, 1));
    Ops<T>::addmm(st(), r.get(), scalarOf<T>(0.5), t.get(), scalarOf<T>(1), m1.get(), m2.dev.get());
    expectMatches<T>(expected.get(), r.get(), "addmm into a view of m1's storage");
  }
  {
    const int64_t b = 3;
    auto x = operand<T>(L::Contiguous, {b, n, n}, 304), y = operand<T>(L::Interleaved, {b, n, n}, 305);
    HostOwned<R> expected = emptyHost<R>();
    H::bmm(expected.get(), x.host.get(), y.host.get());
    Ops<T>::bmm(st(), y.dev.get(), x.dev.get(), y.dev.get());
    expectMatches<T>(expected.get(), y.dev.get(), "bmm into its right operand");
  }
}

// beta == 0 ignores t's values, NaNs included, also when the result goes through a buffer
// and when nothing is summed (k == 0).
BOOST_AUTO_TEST_CASE_TEMPLATE(beta_zero_ignores_nan, T, Types) {
  using R = Ref<T>;
  using H = th::TH<R>;
  const T nan = scalarOf<T>(std::numeric_limits<double>::quiet_NaN()), zero = scalarOf<T>(0);
  const T two = scalarOf<T>(2);
  for (int64_t k : {4, 0})
    for (L lt : {L::Contiguous, L::Transposed, L::Strided}) {
      const std::string what = std::string(nameOf(lt)) + " t of NaNs, k = " + std::to_string(k);
      auto a = operand<T>(L::Contiguous, {5, k}, 400), b = operand<T>(L::Transposed, {k, 3}, 401);
      auto t = operand<T>(lt, {5, 3}, 402);
      thc::THC<T>::fill(st(), t.dev.get(), nan);
      HostOwned<R> expected = emptyHost<R>();
      H::addmm(expected.get(), (R)0, t.host.get(), (R)2, a.host.get(), b.host.get());
      DeviceOwned<T> r = emptyDevice<T>();
      Ops<T>::addmm(st(), r.get(), zero, t.dev.get(), two, a.dev.get(), b.dev.get());
      expectMatches<T>(expected.get(), r.get(), "addmm, " + what);
      Ops<T>::addmm(st(), t.dev.get(), zero, t.dev.get(), two, a.dev.get(), b.dev.get());
      expectMatches<T>(expected.get(), t.dev.get(), "addmm in place, " + what);

      auto v = operand<T>(L::Strided, {k}, 403), y = operand<T>(lt == L::Transposed ? L::Contiguous : lt, {5}, 404);
      thc::THC<T>::fill(st(), y.dev.get(), nan);
      HostOwned<R> ev = emptyHost<R>();
      H::addmv(ev.get(), (R)0, y.host.get(), (R)2, a.host.get(), v.host.get());
      Ops<T>::addmv(st(), y.dev.get(), zero, y.dev.get(), two, a.dev.get(), v.dev.get());
      expectMatches<T>(ev.get(), y.dev.get(), "addmv in place, " + what);

      auto bt = operand<T>(lt == L::Transposed ? L::Interleaved : lt, {2, 5, 3}, 405);
      auto b1 = operand<T>(L::Contiguous, {2, 5, k}, 406), b2 = operand<T>(L::Contiguous, {2, k, 3}, 407);
      thc::THC<T>::fill(st(), bt.dev.get(), nan);
      HostOwned<R> eb = emptyHost<R>();
      H::baddbmm(eb.get(), (R)0, bt.host.get(), (R)2, b1.host.get(), b2.host.get());
      Ops<T>::baddbmm(st(), bt.dev.get(), zero, bt.dev.get(), two, b1.dev.get(), b2.dev.get());
      expectMatches<T>(eb.get(), bt.dev.get(), "baddbmm in place, " + what);

      auto t2 = operand<T>(lt, {5, 3}, 408);
      thc::THC<T>::fill(st(), t2.dev.get(), nan);
      HostOwned<R> ea = emptyHost<R>();
      H::addbmm(ea.get(), (R)0, t2.host.get(), (R)2, b1.host.get(), b2.host.get());
      Ops<T>::addbmm(st(), t2.dev.get(), zero, t2.dev.get(), two, b1.dev.get(), b2.dev.get());
      expectMatches<T>(ea.get(), t2.dev.get(), "addbmm in place, " + what);
    }
  for (L lt : {L::Contiguous, L::Strided}) {
    auto v1 = operand<T>(L::Contiguous, {5}, 409), v2 = operand<T>(L::Strided, {3}, 410);
    auto t = operand<T>(lt, {5, 3}, 411);
    thc::THC<T>::fill(st(), t.dev.get(), nan);
    HostOwned<R> expected = emptyHost<R>();
    H::addr(expected.get(), (R)0, t.host.get(), (R)2, v1.host.get(), v2.host.get());
    Ops<T>::addr(st(), t.dev.get(), zero, t.dev.get(), two, v1.dev.get(), v2.dev.get());
    expectMatches<T>(expected.get(), t.dev.get(), std::string("addr in place, t of NaNs, ") + nameOf(lt));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(addmv_every_layout, T, Types) {
  using R = Ref<T>;
  const int64_t m = 7, n = 5;
  const double beta = -0.5, alpha = 1.5;
  unsigned seed = 500;
  for (L lm : kMatrixLayouts)
    for (L lv : kVectorLayouts)
      for (L lt : kVectorLayouts) {
        const std::string what = "addmv " + layouts({lm, lv, lt});
        auto a = operand<T>(lm, {m, n}, seed++), v = operand<T>(lv, {n}, seed++), t = operand<T>(lt, {m}, seed++);
        HostOwned<R> expected = emptyHost<R>();
        th::TH<R>::addmv(expected.get(), (R)beta, t.host.get(), (R)alpha, a.host.get(), v.host.get());
        DeviceOwned<T> r = emptyDevice<T>();
        Ops<T>::addmv(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), a.dev.get(), v.dev.get());
        expectMatches<T>(expected.get(), r.get(), what);
        expectUnchanged(a, what);
        expectUnchanged(v, what);
        if (lt != L::Expanded) {
          Ops<T>::addmv(st(), t.dev.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), a.dev.get(),
                        v.dev.get());
          expectMatches<T>(expected.get(), t.dev.get(), what + " in place");
        }
        HostOwned<R> ev = emptyHost<R>();
        th::TH<R>::mv(ev.get(), a.host.get(), v.host.get());
        Ops<T>::mv(st(), r.get(), a.dev.get(), v.dev.get());
        expectMatches<T>(ev.get(), r.get(), "mv " + layouts({lm, lv}));
      }
  for (int64_t rows : {1, 0})
    for (int64_t cols : {1, 0, 3}) {
      auto a = operand<T>(L::Transposed, {rows, cols}, seed++), v = operand<T>(L::Contiguous, {cols}, seed++);
      auto t = operand<T>(L::Contiguous, {rows}, seed++);
      HostOwned<R> expected = emptyHost<R>();
      th::TH<R>::addmv(expected.get(), (R)beta, t.host.get(), (R)alpha, a.host.get(), v.host.get());
      DeviceOwned<T> r = emptyDevice<T>();
      Ops<T>::addmv(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), a.dev.get(), v.dev.get());
      expectMatches<T>(expected.get(), r.get(), "addmv [" + std::to_string(rows) + ", " + std::to_string(cols) + "]");
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(addr_every_layout, T, Types) {
  using R = Ref<T>;
  const int64_t m = 6, n = 5;
  const double beta = 0.5, alpha = 2;
  unsigned seed = 600;
  for (L l1 : kVectorLayouts)
    for (L l2 : kVectorLayouts)
      for (L lt : kMatrixLayouts) {
        const std::string what = "addr " + layouts({l1, l2, lt});
        auto x = operand<T>(l1, {m}, seed++), y = operand<T>(l2, {n}, seed++), t = operand<T>(lt, {m, n}, seed++);
        HostOwned<R> expected = emptyHost<R>();
        th::TH<R>::addr(expected.get(), (R)beta, t.host.get(), (R)alpha, x.host.get(), y.host.get());
        DeviceOwned<T> r = emptyDevice<T>();
        Ops<T>::addr(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), x.dev.get(), y.dev.get());
        expectMatches<T>(expected.get(), r.get(), what);
        expectUnchanged(x, what);
        expectUnchanged(y, what);
        if (lt == L::Expanded) continue;
        Ops<T>::addr(st(), t.dev.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), x.dev.get(), y.dev.get());
        expectMatches<T>(expected.get(), t.dev.get(), what + " in place");
      }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(batch_products_every_layout, T, Types) {
  using R = Ref<T>;
  using H = th::TH<R>;
  const int64_t b = 3, m = 4, k = 5, n = 6;
  const double beta = 0.5, alpha = -1;
  unsigned seed = 700;
  for (L l1 : kBatchLayouts)
    for (L l2 : kBatchLayouts) {
      auto x = operand<T>(l1, {b, m, k}, seed++), y = operand<T>(l2, {b, k, n}, seed++);
      for (L lt : kBatchLayouts) {
        const std::string what = "baddbmm " + layouts({l1, l2, lt});
        auto t = operand<T>(lt, {b, m, n}, seed++);
        HostOwned<R> expected = emptyHost<R>();
        H::baddbmm(expected.get(), (R)beta, t.host.get(), (R)alpha, x.host.get(), y.host.get());
        DeviceOwned<T> r = emptyDevice<T>();
        Ops<T>::baddbmm(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), x.dev.get(), y.dev.get());
        expectMatches<T>(expected.get(), r.get(), what);
        if (lt == L::Expanded) continue;
        Ops<T>::baddbmm(st(), t.dev.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), x.dev.get(),
                        y.dev.get());
        expectMatches<T>(expected.get(), t.dev.get(), what + " in place");
      }
      for (L lt : kMatrixLayouts) {
        const std::string what = "addbmm " + layouts({l1, l2, lt});
        auto t = operand<T>(lt, {m, n}, seed++);
        HostOwned<R> expected = emptyHost<R>();
        H::addbmm(expected.get(), (R)beta, t.host.get(), (R)alpha, x.host.get(), y.host.get());
        DeviceOwned<T> r = emptyDevice<T>();
        Ops<T>::addbmm(st(), r.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), x.dev.get(), y.dev.get());
        expectMatches<T>(expected.get(), r.get(), what);
        if (lt == L::Expanded) continue;
        Ops<T>::addbmm(st(), t.dev.get(), scalarOf<T>(beta), t.dev.get(), scalarOf<T>(alpha), x.dev.get(), y.dev.get());
        expectMatches<T>(expected.get(), t.dev.get(), what + " in place");
      }
      HostOwned<R> expected = emptyHost<R>();
      H::bmm(expected.get(), x.host.get(), y.host.get());
      DeviceOwned<T> r = emptyDevice<T>();
      Ops<T>::bmm(st(), r.get(), x.dev.get(), y.dev.get());
      expectMatches<T>(expected.get(), r.get(), "bmm " + layouts({l1, l2}));
      expectUnchanged(x, "bmm");
      expectUnchanged(y, "bmm");
    }
}

// No matrices, empty matrices, k = 0, one matrix.
BOOST_AUTO_TEST_CASE_TEMPLATE(batch_products_degenerate_sizes, T, Types) {
  using R = Ref<T>;
  using H = th::TH<R>;
  const int64_t shapes[][4] = {{0, 4, 5, 6}, {3, 0, 5, 6}, {3, 4, 0, 6}, {3, 4, 5, 0}, {1, 4, 5, 6}, {2, 1, 1, 1}};
  unsigned seed = 800;
  for (const auto &s : shapes) {
    const int64_t b = s[0], m = s[1], k = s[2], n = s[3];
    const std::string what = "[" + std::to_string(b) + ", " + std::to_string(m) + ", " + std::to_string(k) + "] @ [" +
                             std::to_string(b) + ", " + std::to_string(k) + ", " + std::to_string(n) + "]";
    auto x = operand<T>(L::Contiguous, {b, m, k}, seed++), y = operand<T>(L::Transposed, {b, k, n}, seed++);
    auto t3 = operand<T>(L::Contiguous, {b, m, n}, seed++), t2 = operand<T>(L::Contiguous, {m, n}, seed++);
    HostOwned<R> e3 = emptyHost<R>(), e2 = emptyHost<R>();
    H::baddbmm(e3.get(), (R)0.5, t3.host.get(), (R)2, x.host.get(), y.host.get());
    H::addbmm(e2.get(), (R)0.5, t2.host.get(), (R)2, x.host.get(), y.host.get());
    DeviceOwned<T> r = emptyDevice<T>();
    Ops<T>::baddbmm(st(), r.get(), scalarOf<T>(0.5), t3.dev.get(), scalarOf<T>(2), x.dev.get(), y.dev.get());
    expectMatches<T>(e3.get(), r.get(), "baddbmm " + what);
    Ops<T>::addbmm(st(), r.get(), scalarOf<T>(0.5), t2.dev.get(), scalarOf<T>(2), x.dev.get(), y.dev.get());
    expectMatches<T>(e2.get(), r.get(), "addbmm " + what);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(dot_any_layout, T, Types) {
  using R = Ref<T>;
  const int64_t n = 300;
  unsigned seed = 900;
  auto check = [](double expected, double got, const std::string &what) {
    BOOST_TEST(std::abs(got - expected) <= tolFor<T>() * std::max(1.0, std::abs(expected)),
               what << ": expected " << expected << ", got " << got);
  };
  for (L l1 : kVectorLayouts)
    for (L l2 : kVectorLayouts) {
      auto x = operand<T>(l1, {n}, seed++), y = operand<T>(l2, {n}, seed++);
      check(th::TH<R>::dot(x.host.get(), y.host.get()), Ops<T>::dot(st(), x.dev.get(), y.dev.get()),
            "dot " + layouts({l1, l2}));
    }
  // Shapes may differ when the element counts agree; 2-d operands are made contiguous.
  auto a = operand<T>(L::Transposed, {15, 20}, seed++), v = operand<T>(L::Strided, {300}, seed++);
  check(th::TH<R>::dot(a.host.get(), v.host.get()), Ops<T>::dot(st(), a.dev.get(), v.dev.get()), "dot of a matrix");
  auto s1 = operand<T>(L::Contiguous, {1}, seed++), s2 = operand<T>(L::Contiguous, {1}, seed++);
  DeviceOwned<T> zeroDim = own(thc::THC<T>::newWithSize(st(), 0, nullptr, nullptr));
  thc::THC<T>::copy(st(), zeroDim.get(), s1.dev.get());
  check(th::TH<R>::dot(s1.host.get(), s2.host.get()), Ops<T>::dot(st(), zeroDim.get(), s2.dev.get()), "0-dim dot");
  DeviceOwned<T> e1 = emptyDevice<T>(), e2 = emptyDevice<T>();
  BOOST_TEST(Ops<T>::dot(st(), e1.get(), e2.get()) == 0);
  std::string msg = errorOf([&] { Ops<T>::dot(st(), a.dev.get(), s1.dev.get()); });
  BOOST_TEST(contains(msg, "[15, 20]"));
}

// Arguments are checked before anything is written.
BOOST_AUTO_TEST_CASE_TEMPLATE(size_errors_leave_tensors_unchanged, T, Types) {
  using R = Ref<T>;
  auto expectFailureLeaves = [](std::initializer_list<DeviceTensor<T> *> tensors, auto &&f) {
    std::vector<HostOwned<R>> before;
    for (DeviceTensor<T> *t : tensors) before.push_back(th::own(hostOf<T>(t)));
    const std::string msg = errorOf(f);
    size_t i = 0;
    for (DeviceTensor<T> *t : tensors) {
      HostOwned<R> after = th::own(hostOf<T>(t));
      std::string why;
      BOOST_TEST(thct::sameValues<R>(before[i++].get(), after.get(), 0, &why), msg << ": " << why);
    }
    return msg;
  };
  auto m23 = operand<T>(L::Contiguous, {2, 3}, 1), m45 = operand<T>(L::Contiguous, {4, 5}, 2);
  auto m35 = operand<T>(L::Contiguous, {3, 5}, 3), t22 = operand<T>(L::Contiguous, {2, 2}, 4);
  auto v3 = operand<T>(L::Contiguous, {3}, 5), v4 = operand<T>(L::Contiguous, {4}, 6);
  auto v2 = operand<T>(L::Contiguous, {2}, 7), r = operand<T>(L::Contiguous, {2, 2}, 8);
  auto b234 = operand<T>(L::Contiguous, {2, 3, 4}, 9), b345 = operand<T>(L::Contiguous, {3, 4, 5}, 10);
  auto b252 = operand<T>(L::Contiguous, {2, 5, 2}, 11);
  const T one = scalarOf<T>(1);
  std::string msg = expectFailureLeaves({r.dev.get(), m23.dev.get(), m45.dev.get()},
                                        [&] { Ops<T>::mm(st(), r.dev.get(), m23.dev.get(), m45.dev.get()); });
  BOOST_TEST(contains(msg, "[2, 3]"));
  BOOST_TEST(contains(msg, "[4, 5]"));
  msg = expectFailureLeaves({r.dev.get(), t22.dev.get()}, [&] {
    Ops<T>::addmm(st(), r.dev.get(), one, t22.dev.get(), one, m23.dev.get(), m35.dev.get());
  });
  BOOST_TEST(contains(msg, "[2, 5]"));
  msg = expectFailureLeaves({r.dev.get()}, [&] { Ops<T>::mv(st(), r.dev.get(), m23.dev.get(), v4.dev.get()); });
  BOOST_TEST(contains(msg, "[4]"));
  expectFailureLeaves({v3.dev.get()},
                      [&] { Ops<T>::addmv(st(), v3.dev.get(), one, v3.dev.get(), one, m23.dev.get(), v3.dev.get()); });
  expectFailureLeaves({r.dev.get()}, [&] { Ops<T>::mv(st(), r.dev.get(), m23.dev.get(), m23.dev.get()); });
  expectFailureLeaves({t22.dev.get()},
                      [&] { Ops<T>::addr(st(), t22.dev.get(), one, t22.dev.get(), one, v3.dev.get(), v2.dev.get()); });
  expectFailureLeaves({r.dev.get()},
                      [&] { Ops<T>::addr(st(), r.dev.get(), one, r.dev.get(), one, m23.dev.get(), v2.dev.get()); });
  msg = expectFailureLeaves({r.dev.get()}, [&] { Ops<T>::bmm(st(), r.dev.get(), b234.dev.get(), b345.dev.get()); });
  BOOST_TEST(contains(msg, "[2, 3, 4]"));
  BOOST_TEST(contains(msg, "[3, 4, 5]"));
  expectFailureLeaves({r.dev.get()}, [&] { Ops<T>::bmm(st(), r.dev.get(), b234.dev.get(), b252.dev.get()); });
  expectFailureLeaves({t22.dev.get()}, [&] {
    Ops<T>::addbmm(st(), t22.dev.get(), one, t22.dev.get(), one, b234.dev.get(), b345.dev.get());
  });
  expectFailureLeaves({r.dev.get()}, [&] { Ops<T>::bmm(st(), r.dev.get(), m23.dev.get(), m35.dev.get()); });
}

BOOST_AUTO_TEST_SUITE_END()
