// THC's element-wise math against TH's on the same values: every op of the op tables, every
// type it exists for, the layouts of thct::kLayouts, in place, empty and 0-dim tensors, and
// the errors that must leave the result unchanged.
#define BOOST_TEST_MODULE THC math
#include <utility>

#include "THC/THCTensorMath.h"
#include "TH/THTensorMath.h"
#include "thc_test_util.hpp"

using namespace thct;

namespace thct {
template <typename T>
struct Math;
#define THC_GENERIC_FILE "tests/THC/math_fns.hpp"
#include "THC/THCGenerateAllTypes.h"
}  // namespace thct

namespace {

template <typename T>
using H = th::TH<T>;
template <typename T>
using D = thc::THC<T>;

using TypesAll = ArithTypes;
using TypesFloating = FloatingTypes;
using TypesIntegral = boost::mpl::list<uint8_t, int8_t, int16_t, int32_t, int64_t>;

// Transcendental functions on the GPU may differ from the host's libm by a few ulp.
template <typename T>
double tolerance() {
  if constexpr (std::is_same_v<T, float>) return 2e-5;
  if constexpr (std::is_same_v<T, double>) return 1e-12;
  return 0;
}

// Input ranges a type can hold: [lo, hi]
template <typename T>
std::pair<double, double> range() {
  if constexpr (std::is_floating_point_v<T>) return {-3, 3};
  if constexpr (std::is_unsigned_v<T>) return {0, 200};
  return {-100, 100};
}

template <typename T>
void compare(HostTensor<T> *expected, DeviceTensor<T> *actual, const std::string &what) {
  auto back = th::own(toHost<T>(actual));
  std::string why;
  BOOST_TEST(sameValues<T>(expected, back.get(), tolerance<T>(), &why), what << ": " << why);
}

// r = f(t) on host and device for every layout of t, into a fresh r and in place.
template <typename T, typename Pair>
void checkUnary(const char *name, Pair fns, double lo, double hi) {
  THCState *s = state();
  for (Layout l : kLayouts) {
    HostTensor<T> *ht;
    DeviceTensor<T> *dt;
    makeLayout<T>(l, 17, 45, 11, lo, hi, &ht, &dt);
    auto hr = th::own(H<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
    DeviceTensor<T> *dr = D<T>::newWithSize(s, 1, std::vector<int64_t>{0}.data(), nullptr);
    fns.first(hr.get(), ht);
    fns.second(s, dr, dt);
    compare<T>(hr.get(), dr, std::string(name) + " on " + layoutName(l));
    if (l != Layout::Expanded) {  // in place
      fns.second(s, dt, dt);
      compare<T>(hr.get(), dt, std::string(name) + " in place on " + layoutName(l));
    }
    D<T>::free(s, dr);
    D<T>::free(s, dt);
    H<T>::free(ht);
  }
}

// r = f(t, src) with t and src in every pair of layouts; src's values from [srcLo, srcHi].
template <typename T, typename Pair>
void checkBinary(const char *name, Pair fns, double srcLo, double srcHi) {
  THCState *s = state();
  auto [lo, hi] = range<T>();
  for (Layout lt : kLayouts)
    for (Layout ls : kLayouts) {
      HostTensor<T> *ht, *hs;
      DeviceTensor<T> *dt, *ds;
      makeLayout<T>(lt, 13, 40, 21, lo, hi, &ht, &dt);
      makeLayout<T>(ls, 13, 40, 22, srcLo, srcHi, &hs, &ds);
      auto hr = th::own(H<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
      DeviceTensor<T> *dr = D<T>::newWithSize(s, 1, std::vector<int64_t>{0}.data(), nullptr);
      fns.first(hr.get(), ht, hs);
      fns.second(s, dr, dt, ds);
      compare<T>(hr.get(), dr, std::string(name) + " on " + layoutName(lt) + ", " + layoutName(ls));
      D<T>::free(s, dr);
      D<T>::free(s, ds);
      D<T>::free(s, dt);
      H<T>::free(hs);
      H<T>::free(ht);
    }
}

// r = f(t, value)
template <typename T, typename Pair>
void checkValue(const char *name, Pair fns, T value) {
  THCState *s = state();
  auto [lo, hi] = range<T>();
  for (Layout l : kLayouts) {
    HostTensor<T> *ht;
    DeviceTensor<T> *dt;
    makeLayout<T>(l, 19, 33, 5, lo, hi, &ht, &dt);
    auto hr = th::own(H<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
    DeviceTensor<T> *dr = D<T>::newWithSize(s, 1, std::vector<int64_t>{0}.data(), nullptr);
    fns.first(hr.get(), ht, value);
    fns.second(s, dr, dt, value);
    compare<T>(hr.get(), dr, std::string(name) + " on " + layoutName(l));
    D<T>::free(s, dr);
    D<T>::free(s, dt);
    H<T>::free(ht);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(math, *needsGPU())

// One case per row of TH_FORALL_UNARY_OPS, over the types of its Types column.
#define THCT_UNARY_CASE(Op, torch, th, Kinds, ...)             \
  BOOST_AUTO_TEST_CASE_TEMPLATE(unary_##th, T, Types##Kinds) { \
    auto [lo, hi] = range<T>();                                \
    checkUnary<T>(#th, Math<T>::th, lo, hi);                   \
  }
TH_FORALL_UNARY_OPS(THCT_UNARY_CASE)
#undef THCT_UNARY_CASE

BOOST_AUTO_TEST_CASE_TEMPLATE(arithmetic_with_a_tensor, T, TypesAll) {
  auto [lo, hi] = range<T>();
  // divisors and exponents that every type accepts: positive, nonzero
  const double dLo = 1, dHi = std::is_floating_point_v<T> ? 3 : 9;
  checkBinary<T>("cmul", Math<T>::cmul, lo, hi);
  checkBinary<T>("cmax", Math<T>::cmax, lo, hi);
  checkBinary<T>("cmin", Math<T>::cmin, lo, hi);
  checkBinary<T>("cdiv", Math<T>::cdiv, dLo, dHi);
  checkBinary<T>("cfmod", Math<T>::cfmod, dLo, dHi);
  checkBinary<T>("cremainder", Math<T>::cremainder, dLo, dHi);
  checkBinary<T>("cfloorDivide", Math<T>::cfloorDivide, dLo, dHi);
  checkBinary<T>("cpow", Math<T>::cpow, 0, 3);
  checkBinary<T>("clshift", Math<T>::clshift, 0, 5);
  checkBinary<T>("crshift", Math<T>::crshift, 0, 5);
  // cadd / csub take alpha
  auto alpha = [](auto f) {
    return std::make_pair([f](HostTensor<T> *r, HostTensor<T> *t, HostTensor<T> *src) { f.first(r, t, T(3), src); },
                          [f](THCState *s, DeviceTensor<T> *r, DeviceTensor<T> *t, DeviceTensor<T> *src) {
                            f.second(s, r, t, T(3), src);
                          });
  };
  checkBinary<T>("cadd", alpha(Math<T>::cadd), lo, hi);
  checkBinary<T>("csub", alpha(Math<T>::csub), lo, hi);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bitwise_with_a_tensor, T, TypesIntegral) {
  auto [lo, hi] = range<T>();
  checkBinary<T>("cbitAnd", Math<T>::cbitAnd, lo, hi);
  checkBinary<T>("cbitOr", Math<T>::cbitOr, lo, hi);
  checkBinary<T>("cbitXor", Math<T>::cbitXor, lo, hi);
  checkValue<T>("bitAnd", Math<T>::bitAnd, T(0x35));
  checkValue<T>("bitXor", Math<T>::bitXor, T(0x5a));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(floating_only, T, TypesFloating) {
  checkBinary<T>("atan2", Math<T>::atan2, -3, 3);
  checkValue<T>("atan2Value", Math<T>::atan2Value, T(0.5));
  checkUnary<T>("round", Math<T>::round, -3, 3);
  auto lerp = std::make_pair(
      [](HostTensor<T> *r, HostTensor<T> *a, HostTensor<T> *b) { Math<T>::lerp.first(r, a, b, T(0.25)); },
      [](THCState *s, DeviceTensor<T> *r, DeviceTensor<T> *a, DeviceTensor<T> *b) {
        Math<T>::lerp.second(s, r, a, b, T(0.25));
      });
  checkBinary<T>("lerp", lerp, -3, 3);
  // NaN propagates through max and min as in TH
  checkValue<T>("cmaxValue NaN", Math<T>::cmaxValue, T(NAN));
  checkValue<T>("pow fractional", Math<T>::pow, T(0.5));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(arithmetic_with_a_value, T, TypesAll) {
  checkValue<T>("add", Math<T>::add, T(7));
  checkValue<T>("sub", Math<T>::sub, T(7));
  checkValue<T>("mul", Math<T>::mul, T(3));
  checkValue<T>("div", Math<T>::div, T(3));
  checkValue<T>("fmod", Math<T>::fmod, T(7));
  checkValue<T>("remainder", Math<T>::remainder, T(7));
  checkValue<T>("floorDivide", Math<T>::floorDivide, T(7));
  checkValue<T>("pow", Math<T>::pow, T(2));
  checkValue<T>("cmaxValue", Math<T>::cmaxValue, T(5));
  checkValue<T>("cminValue", Math<T>::cminValue, T(5));
  checkValue<T>("lshift", Math<T>::lshift, T(2));
  checkValue<T>("rshift", Math<T>::rshift, T(1));
  auto clamp = std::make_pair(
      [](HostTensor<T> *r, HostTensor<T> *t, T) { Math<T>::clamp.first(r, t, T(2), T(40)); },
      [](THCState *s, DeviceTensor<T> *r, DeviceTensor<T> *t, T) { Math<T>::clamp.second(s, r, t, T(2), T(40)); });
  checkValue<T>("clamp", clamp, T(0));
  // tpow: value ^ t with t's exponents in [0, 3]
  THCState *s = state();
  auto h = th::own(randomHost<T>({6, 7}, 0, 3, 8));
  DeviceTensor<T> *d = toDevice<T>(h.get());
  auto hr = th::own(H<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
  DeviceTensor<T> *dr = D<T>::newWithSize(s, 1, std::vector<int64_t>{0}.data(), nullptr);
  Math<T>::tpow.first(hr.get(), T(2), h.get());
  Math<T>::tpow.second(s, dr, T(2), d);
  compare<T>(hr.get(), dr, "tpow");
  D<T>::free(s, dr);
  D<T>::free(s, d);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(addcmul_addcdiv, T, TypesAll) {
  THCState *s = state();
  auto [lo, hi] = range<T>();
  for (Layout l : kLayouts) {
    HostTensor<T> *ht, *h1, *h2;
    DeviceTensor<T> *dt, *d1, *d2;
    makeLayout<T>(l, 11, 23, 1, lo, hi, &ht, &dt);
    makeLayout<T>(Layout::Transposed, 11, 23, 2, lo, hi, &h1, &d1);
    makeLayout<T>(Layout::Narrowed, 11, 23, 3, 1, 9, &h2, &d2);
    for (auto f : {Math<T>::addcmul, Math<T>::addcdiv}) {
      auto hr = th::own(H<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
      DeviceTensor<T> *dr = D<T>::newWithSize(s, 1, std::vector<int64_t>{0}.data(), nullptr);
      f.first(hr.get(), ht, T(2), h1, h2);
      f.second(s, dr, dt, T(2), d1, d2);
      compare<T>(hr.get(), dr, std::string("addcmul/addcdiv on ") + layoutName(l));
      D<T>::free(s, dr);
    }
    D<T>::free(s, d2);
    D<T>::free(s, d1);
    D<T>::free(s, dt);
    H<T>::free(h2);
    H<T>::free(h1);
    H<T>::free(ht);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(comparisons, T, TypesAll) {
  THCState *s = state();
  // few distinct values so that equality happens
  HostTensor<T> *ha, *hb;
  DeviceTensor<T> *da, *db;
  makeLayout<T>(Layout::Transposed, 15, 31, 4, 0, 4, &ha, &da);
  makeLayout<T>(Layout::Narrowed, 15, 31, 5, 0, 4, &hb, &db);
#define THCT_COMPARE_CHECK(Op, torch, thName, alias)                                        \
  {                                                                                         \
    auto hm = th::own(THByteTensor_new());                                                  \
    THCudaByteTensor *dm = THCudaByteTensor_new(s);                                         \
    Math<T>::thName##Tensor.first(hm.get(), ha, hb);                                        \
    Math<T>::thName##Tensor.second(s, dm, da, db);                                          \
    auto back = th::own(toHost<uint8_t>(dm));                                               \
    BOOST_TEST(sameValues<uint8_t>(hm.get(), back.get(), 0), #thName "Tensor");             \
    Math<T>::thName##Value.first(hm.get(), ha, T(2));                                       \
    Math<T>::thName##Value.second(s, dm, da, T(2));                                         \
    auto back2 = th::own(toHost<uint8_t>(dm));                                              \
    BOOST_TEST(sameValues<uint8_t>(hm.get(), back2.get(), 0), #thName "Value");             \
    THCudaByteTensor_free(s, dm);                                                           \
    auto hr = th::own(H<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));       \
    DeviceTensor<T> *dr = D<T>::newWithSize(s, 1, std::vector<int64_t>{0}.data(), nullptr); \
    Math<T>::thName##TensorT.first(hr.get(), ha, hb);                                       \
    Math<T>::thName##TensorT.second(s, dr, da, db);                                         \
    compare<T>(hr.get(), dr, #thName "TensorT");                                            \
    Math<T>::thName##ValueT.first(hr.get(), ha, T(1));                                      \
    Math<T>::thName##ValueT.second(s, dr, da, T(1));                                        \
    compare<T>(hr.get(), dr, #thName "ValueT");                                             \
    D<T>::free(s, dr);                                                                      \
  }
  TH_FORALL_COMPARE_OPS(THCT_COMPARE_CHECK)
#undef THCT_COMPARE_CHECK
  D<T>::free(s, db);
  D<T>::free(s, da);
  H<T>::free(hb);
  H<T>::free(ha);
}

// A bad call raises and leaves the result as it was.
BOOST_AUTO_TEST_CASE(errors_leave_the_result_unchanged) {
  THCState *s = state();
  THCudaIntTensor *r = THCudaIntTensor_newWithSize1d(s, 6);
  THCudaIntTensor_fill(s, r, 9);
  THCudaIntTensor *t = THCudaIntTensor_newWithSize1d(s, 6);
  THCudaIntTensor_fill(s, t, 4);
  THCudaIntTensor *zeroAt3 = THCudaIntTensor_newWithSize1d(s, 6);
  THCudaIntTensor_fill(s, zeroAt3, 2);
  THCudaIntTensor_set1d(s, zeroAt3, 3, 0);
  BOOST_CHECK_THROW(THCudaIntTensor_cdiv(s, r, t, zeroAt3), th::Error);
  BOOST_CHECK_THROW(THCudaIntTensor_cremainder(s, r, t, zeroAt3), th::Error);
  BOOST_CHECK_THROW(THCudaIntTensor_div(s, r, t, 0), th::Error);
  BOOST_CHECK_THROW(THCudaIntTensor_pow(s, r, t, -1), th::Error);
  THCudaIntTensor *negative = THCudaIntTensor_newWithSize1d(s, 6);
  THCudaIntTensor_fill(s, negative, -2);
  BOOST_CHECK_THROW(THCudaIntTensor_cpow(s, r, t, negative), th::Error);
  THCudaIntTensor *five = THCudaIntTensor_newWithSize1d(s, 5);
  BOOST_CHECK_THROW(THCudaIntTensor_cadd(s, r, t, 1, five), th::Error);
  for (int i = 0; i < 6; i++) BOOST_TEST(THCudaIntTensor_get1d(s, r, i) == 9);
  // float division by zero is IEEE, not an error
  THCudaTensor *f = THCudaTensor_newWithSize1d(s, 2);
  THCudaTensor_fill(s, f, 1.f);
  THCudaTensor_div(s, f, f, 0.f);
  BOOST_TEST(std::isinf(THCudaTensor_get1d(s, f, 0)));
  THCudaTensor_free(s, f);
  THCudaIntTensor_free(s, five);
  THCudaIntTensor_free(s, negative);
  THCudaIntTensor_free(s, zeroAt3);
  THCudaIntTensor_free(s, t);
  THCudaIntTensor_free(s, r);
}

BOOST_AUTO_TEST_CASE(empty_and_zero_dim) {
  THCState *s = state();
  THCudaTensor *e = THCudaTensor_new(s);
  THCudaTensor *r = THCudaTensor_new(s);
  THCudaTensor_exp(s, r, e);
  BOOST_TEST(THCudaTensor_nElement(s, r) == 0);
  THCudaTensor_cadd(s, r, e, 2.f, e);
  BOOST_TEST(THCudaTensor_nElement(s, r) == 0);
  THCudaTensor *z = THCudaTensor_newWithSize0d(s);
  THCudaTensor_set0d(s, z, 2.f);
  THCudaTensor_mul(s, r, z, 4.f);
  BOOST_TEST(THCudaTensor_nDimension(s, r) == 0);
  BOOST_TEST(THCudaTensor_get0d(s, r) == 8.f);
  THCudaTensor_free(s, z);
  THCudaTensor_free(s, r);
  THCudaTensor_free(s, e);
}

// Note [Tiled pointwise]: inputs that run fastest along another dimension than the result
// (3-d, with a batch dimension and partial tiles at every edge), and results that do.
BOOST_AUTO_TEST_CASE_TEMPLATE(tiled_layouts, T, TypesAll) {
  THCState *s = state();
  auto [lo, hi] = range<T>();
  const std::vector<int64_t> shape = {5, 70, 45};
  // a view of `shape` over a tensor whose dimensions d1 and d2 are swapped (none: 0, 0)
  unsigned seed = 40;
  auto view = [&](int d1, int d2) {
    std::vector<int64_t> base = shape;
    std::swap(base[d1], base[d2]);
    auto h = th::own(randomHost<T>(base, lo, hi, seed++));
    DeviceTensor<T> *d = toDevice<T>(h.get());
    HostTensor<T> *hv = H<T>::newTranspose(h.get(), d1, d2);
    DeviceTensor<T> *dv = D<T>::newTranspose(s, d, d1, d2);
    D<T>::free(s, d);
    return std::make_pair(hv, dv);
  };
  const std::pair<int, int> swaps[] = {{0, 0}, {1, 2}, {0, 2}};
  for (auto [x1, x2] : swaps)
    for (auto [y1, y2] : swaps)
      for (auto [r1, r2] : swaps) {
        auto [hx, dx] = view(x1, x2);
        auto [hy, dy] = view(y1, y2);
        auto [hr, dr] = view(r1, r2);
        Math<T>::cadd.first(hr, hx, T(3), hy);
        Math<T>::cadd.second(s, dr, dx, T(3), dy);
        const std::string what = "cadd of swaps (" + std::to_string(x1) + " " + std::to_string(x2) + "), (" +
                                 std::to_string(y1) + " " + std::to_string(y2) + ") into (" + std::to_string(r1) + " " +
                                 std::to_string(r2) + ")";
        compare<T>(hr, dr, what);
        // a copy between layouts, through the same path
        D<T>::copy(s, dr, dx);
        compare<T>(hx, dr, "copy, " + what);
        for (auto *h : {hx, hy, hr}) H<T>::free(h);
        for (auto *d : {dx, dy, dr}) D<T>::free(s, d);
      }
}

// Past 2^31 elements and 65535 blocks: an in-place add over 2^31 + 32 bytes, contiguous
// and through a transposed view.
BOOST_AUTO_TEST_CASE(large_tensors) {
  THCState *s = state();
  const int64_t n = (int64_t(1) << 31) + 32;
  THCudaByteTensor *a = THCudaByteTensor_newWithSize1d(s, n);
  THCudaByteTensor_fill(s, a, 1);
  THCudaByteTensor_set1d(s, a, n - 1, 100);
  THCudaByteTensor_add(s, a, a, 2);
  BOOST_TEST(THCudaByteTensor_get1d(s, a, 0) == 3);
  BOOST_TEST(THCudaByteTensor_get1d(s, a, int64_t(1) << 31) == 3);
  BOOST_TEST(THCudaByteTensor_get1d(s, a, n - 1) == 102);
  int64_t shape[2] = {n / 32, 32};
  THCudaByteTensor *v = THCudaByteTensor_newView(s, a, 2, shape);
  THCudaByteTensor *t = THCudaByteTensor_newTranspose(s, v, 0, 1);
  THCudaByteTensor_mul(s, t, t, 2);
  BOOST_TEST(THCudaByteTensor_get1d(s, a, 5) == 6);
  BOOST_TEST(THCudaByteTensor_get1d(s, a, n - 1) == 204);
  // the transposed view copied into a contiguous tensor: tiled, with 64-bit index math
  THCudaByteTensor *c = THCudaByteTensor_newWithSize2d(s, 32, n / 32);
  THCudaByteTensor_copy(s, c, t);
  BOOST_TEST(THCudaByteTensor_get2d(s, c, 0, 0) == 6);
  BOOST_TEST(THCudaByteTensor_get2d(s, c, 31, n / 32 - 1) == 204);
  BOOST_TEST(THCudaByteTensor_get2d(s, c, 7, n / 32 - 3) == THCudaByteTensor_get2d(s, t, 7, n / 32 - 3));
  THCudaByteTensor_free(s, c);
  THCudaByteTensor_free(s, t);
  THCudaByteTensor_free(s, v);
  THCudaByteTensor_free(s, a);
}

BOOST_AUTO_TEST_SUITE_END()
