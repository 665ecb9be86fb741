// THC's core: state, storages, tensors and their views, copies between every pair of types
// and between host and device, fill. Each result is compared with TH's on the same values.
#define BOOST_TEST_MODULE THC tensor core
#include "thc_test_util.hpp"

#include "THC/THCCachingHostAllocator.h"

using namespace thct;

namespace {

template <typename T>
using H = th::TH<T>;
template <typename T>
using D = thc::THC<T>;

// Device tensor d holds the same shape and values as host tensor h.
template <typename T>
void checkSame(HostTensor<T> *h, DeviceTensor<T> *d, const std::string &what) {
  auto back = th::own(toHost<T>(d));
  std::string why;
  BOOST_TEST(sameValues<T>(h, back.get(), 0.0, &why), what << ": " << why);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(core, *needsGPU())

BOOST_AUTO_TEST_CASE(init_finds_devices) {
  BOOST_TEST(THCState_getNumDevices(state()) >= 1);
  BOOST_TEST(THCudaGetDevice() >= 0);
  BOOST_CHECK_THROW(THCudaSetDevice(THCState_getNumDevices(state())), th::Error);
}

BOOST_AUTO_TEST_CASE(storage_get_set_resize_fill) {
  THCState *s = state();
  THCudaStorage *st = THCudaStorage_newWithSize(s, 5);
  BOOST_TEST(THCudaStorage_getDevice(s, st) == THCudaGetDevice());
  THCudaStorage_fill(s, st, 2.5f);
  for (int i = 0; i < 5; i++) BOOST_TEST(THCudaStorage_get(s, st, i) == 2.5f);
  THCudaStorage_set(s, st, 3, 7.f);
  BOOST_TEST(THCudaStorage_get(s, st, 3) == 7.f);
  BOOST_CHECK_THROW(THCudaStorage_get(s, st, 5), th::Error);
  BOOST_CHECK_THROW(THCudaStorage_set(s, st, -1, 1.f), th::Error);
  THCudaStorage_resize(s, st, 1000);  // keeps the first five
  BOOST_TEST(THCudaStorage_size(s, st) == 1000);
  BOOST_TEST(THCudaStorage_get(s, st, 3) == 7.f);
  BOOST_TEST(THCudaStorage_get(s, st, 4) == 2.5f);
  THFloatStorage *h = THFloatStorage_newWithSize(1000);
  for (int i = 0; i < 1000; i++) h->data[i] = float(i) * 0.5f;
  THCudaStorage_copyCPU(s, st, h);
  THFloatStorage *back = THFloatStorage_newWithSize(1000);
  THFloatStorage_copyCuda(s, back, st);
  for (int i = 0; i < 1000; i++) BOOST_TEST(back->data[i] == float(i) * 0.5f);
  THFloatStorage *small = THFloatStorage_newWithSize(3);
  BOOST_CHECK_THROW(THCudaStorage_copyCPU(s, st, small), th::Error);
  THFloatStorage_free(small);
  THFloatStorage_free(back);
  THFloatStorage_free(h);
  THCudaStorage_free(s, st);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(roundtrip_and_layouts, T, AllTypes) {
  for (Layout l : kLayouts) {
    HostTensor<T> *h;
    DeviceTensor<T> *d;
    makeLayout<T>(l, 37, 53, 7, -50, 50, &h, &d);
    checkSame<T>(h, d, layoutName(l));
    // a contiguous device copy of the view
    DeviceTensor<T> *c = D<T>::newContiguous(state(), d);
    BOOST_TEST(D<T>::isContiguous(state(), c));
    checkSame<T>(h, c, std::string("newContiguous of ") + layoutName(l));
    // copy into a transposed destination
    DeviceTensor<T> *base = D<T>::newWithSize(state(), 2, std::vector<int64_t>{53, 37}.data(), nullptr);
    DeviceTensor<T> *dst = D<T>::newTranspose(state(), base, 0, 1);
    D<T>::copy(state(), dst, d);
    checkSame<T>(h, dst, std::string("copy into transposed from ") + layoutName(l));
    // the host destination may be non-contiguous too
    auto hostBase = th::own(H<T>::newWithSize(2, std::vector<int64_t>{53, 37}.data(), nullptr));
    auto hostDst = th::own(H<T>::newTranspose(hostBase.get(), 0, 1));
    D<T>::copyToHost(state(), hostDst.get(), d);
    std::string why;
    BOOST_TEST(sameValues<T>(h, hostDst.get(), 0.0, &why), "to a transposed host tensor: " << why);
    D<T>::free(state(), dst);
    D<T>::free(state(), base);
    D<T>::free(state(), c);
    D<T>::free(state(), d);
    H<T>::free(h);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(views_match_th, T, AllTypes) {
  auto h = th::own(randomHost<T>({4, 6, 5}, -20, 20, 3));
  DeviceTensor<T> *d = toDevice<T>(h.get());
  struct View {
    const char *name;
    std::function<HostTensor<T> *(HostTensor<T> *)> host;
    std::function<DeviceTensor<T> *(DeviceTensor<T> *)> device;
  };
  THCState *s = state();
  std::vector<View> views = {
      {"select", [](HostTensor<T> *x) { return H<T>::newSelect(x, 1, 2); },
       [s](DeviceTensor<T> *x) { return D<T>::newSelect(s, x, 1, 2); }},
      {"narrow", [](HostTensor<T> *x) { return H<T>::newNarrow(x, 2, 1, 3); },
       [s](DeviceTensor<T> *x) { return D<T>::newNarrow(s, x, 2, 1, 3); }},
      {"transpose", [](HostTensor<T> *x) { return H<T>::newTranspose(x, 0, 2); },
       [s](DeviceTensor<T> *x) { return D<T>::newTranspose(s, x, 0, 2); }},
  };
  for (auto &v : views) {
    auto hv = th::own(v.host(h.get()));
    DeviceTensor<T> *dv = v.device(d);
    checkSame<T>(hv.get(), dv, v.name);
    D<T>::free(s, dv);
  }
  // view and expand, through the in-place forms
  int64_t flat[2] = {24, 5};
  auto hView = th::own(H<T>::newView(h.get(), 2, flat));
  DeviceTensor<T> *dView = D<T>::newWithTensor(s, d);
  D<T>::view(s, dView, nullptr, 2, flat);
  checkSame<T>(hView.get(), dView, "view");
  auto hRow = th::own(H<T>::newSelect(hView.get(), 0, 3));  // [5]
  DeviceTensor<T> *dRow = D<T>::newSelect(s, dView, 0, 3);
  int64_t big[2] = {7, 5};
  auto hExp = th::own(H<T>::newExpand(hRow.get(), 2, big));
  DeviceTensor<T> *dExp = D<T>::newExpand(s, dRow, 2, big);
  checkSame<T>(hExp.get(), dExp, "expand");
  D<T>::free(s, dExp);
  D<T>::free(s, dRow);
  D<T>::free(s, dView);
  D<T>::free(s, d);
}

BOOST_AUTO_TEST_CASE(unfold_matches_th) {
  auto h = th::own(randomHost<float>({4, 9}, -1, 1, 5));
  DeviceTensor<float> *d = toDevice<float>(h.get());
  auto hu = th::own(THFloatTensor_newUnfold(h.get(), 1, 3, 2));
  THCudaTensor *du = THCudaTensor_newUnfold(state(), d, 1, 3, 2);
  checkSame<float>(hu.get(), du, "unfold");
  THCudaTensor_free(state(), du);
  THCudaTensor_free(state(), d);
}

// Every pair of element types converts as TH converts (host to device, device to device,
// device to host): the GPU's result equals TH's copy<Type> of the same values.
template <typename To, typename From>
void checkConversion() {
  auto h =
      th::own(randomHost<From>({13, 11}, std::is_signed_v<From> || std::is_floating_point_v<From> ? -100 : 0, 100, 9));
  auto expected = th::own(H<To>::newWithSize(2, h->size, nullptr));
  // TH's conversion of the same values
  if constexpr (std::is_same_v<From, uint8_t>) H<To>::copyByte(expected.get(), h.get());
  if constexpr (std::is_same_v<From, int8_t>) H<To>::copyChar(expected.get(), h.get());
  if constexpr (std::is_same_v<From, int16_t>) H<To>::copyShort(expected.get(), h.get());
  if constexpr (std::is_same_v<From, int32_t>) H<To>::copyInt(expected.get(), h.get());
  if constexpr (std::is_same_v<From, int64_t>) H<To>::copyLong(expected.get(), h.get());
  if constexpr (std::is_same_v<From, float>) H<To>::copyFloat(expected.get(), h.get());
  if constexpr (std::is_same_v<From, double>) H<To>::copyDouble(expected.get(), h.get());
  if constexpr (std::is_same_v<From, THHalf>) H<To>::copyHalf(expected.get(), h.get());
  THCState *s = state();
  DeviceTensor<From> *src = toDevice<From>(h.get());
  DeviceTensor<To> *dst = D<To>::newWithSize(s, 2, h->size, nullptr);
  // device to device across types, through the generated copyCuda<Type>
  if constexpr (std::is_same_v<From, uint8_t>) D<To>::copyCudaByte(s, dst, src);
  if constexpr (std::is_same_v<From, int8_t>) D<To>::copyCudaChar(s, dst, src);
  if constexpr (std::is_same_v<From, int16_t>) D<To>::copyCudaShort(s, dst, src);
  if constexpr (std::is_same_v<From, int32_t>) D<To>::copyCudaInt(s, dst, src);
  if constexpr (std::is_same_v<From, int64_t>) D<To>::copyCudaLong(s, dst, src);
  if constexpr (std::is_same_v<From, float>) D<To>::copyCudaFloat(s, dst, src);
  if constexpr (std::is_same_v<From, double>) D<To>::copyCudaDouble(s, dst, src);
  if constexpr (std::is_same_v<From, THHalf>) D<To>::copyCudaHalf(s, dst, src);
  checkSame<To>(expected.get(), dst,
                std::string("device ") + th::TypeInfo<From>::name + " to " + th::TypeInfo<To>::name);
  D<To>::free(s, dst);
  D<From>::free(s, src);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(conversions_match_th, To, AllTypes) {
  checkConversion<To, uint8_t>();
  checkConversion<To, int8_t>();
  checkConversion<To, int16_t>();
  checkConversion<To, int32_t>();
  checkConversion<To, int64_t>();
  checkConversion<To, float>();
  checkConversion<To, double>();
  checkConversion<To, THHalf>();
}

BOOST_AUTO_TEST_CASE(cross_type_host_copies) {
  THCState *s = state();
  auto h = th::own(randomHost<double>({5, 7}, -3, 3, 2));
  THCudaTensor *d = THCudaTensor_newWithSize2d(s, 5, 7);
  THCudaTensor_copyDouble(s, d, h.get());  // host double -> device float
  auto expected = th::own(THFloatTensor_newWithSize2d(5, 7));
  THFloatTensor_copyDouble(expected.get(), h.get());
  checkSame<float>(expected.get(), d, "host double to device float");
  auto back = th::own(THLongTensor_newWithSize2d(5, 7));
  THLongTensor_copyCudaFloat(s, back.get(), d);  // device float -> host long
  auto expectedLong = th::own(THLongTensor_newWithSize2d(5, 7));
  THLongTensor_copyFloat(expectedLong.get(), expected.get());
  std::string why;
  BOOST_TEST(sameValues<int64_t>(expectedLong.get(), back.get(), 0.0, &why), why);
  THCudaTensor_free(s, d);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(fill_and_zero, T, AllTypes) {
  THCState *s = state();
  for (Layout l : kLayouts) {
    if (l == Layout::Expanded) continue;  // filling an expanded view writes one element many times
    HostTensor<T> *h;
    DeviceTensor<T> *d;
    makeLayout<T>(l, 9, 70, 1, 0, 50, &h, &d);
    D<T>::fill(s, d, fromDouble<T>(42));
    auto expected = th::own(H<T>::newWithSize(2, h->size, nullptr));
    for (int64_t i = 0; i < 9 * 70; i++) expected->storage->data[i] = fromDouble<T>(42);
    checkSame<T>(expected.get(), d, layoutName(l));
    D<T>::zero(s, d);
    for (int64_t i = 0; i < 9 * 70; i++) expected->storage->data[i] = fromDouble<T>(0);
    checkSame<T>(expected.get(), d, layoutName(l));
    D<T>::free(s, d);
    H<T>::free(h);
  }
}

BOOST_AUTO_TEST_CASE(empty_and_zero_dim) {
  THCState *s = state();
  THCudaTensor *e = THCudaTensor_new(s);
  BOOST_TEST(THCudaTensor_nElement(s, e) == 0);
  BOOST_TEST(THCudaTensor_getDevice(s, e) == -1);  // no memory yet
  THFloatTensor *he = THFloatTensor_new();
  THCudaTensor_copyFloat(s, e, he);  // nothing to move
  THFloatTensor_copyCuda(s, he, e);
  THCudaTensor *z = THCudaTensor_newWithSize0d(s);
  THCudaTensor_set0d(s, z, 3.25f);
  BOOST_TEST(THCudaTensor_get0d(s, z) == 3.25f);
  THFloatTensor *hz = THFloatTensor_newWithSize0d();
  THFloatTensor_copyCuda(s, hz, z);
  BOOST_TEST(THFloatTensor_get0d(hz) == 3.25f);
  BOOST_CHECK_THROW(THCudaTensor_get1d(s, z, 0), th::Error);
  THFloatTensor_free(hz);
  THFloatTensor_free(he);
  THCudaTensor_free(s, z);
  THCudaTensor_free(s, e);
}

BOOST_AUTO_TEST_CASE(bad_copies_raise_and_leave_dst) {
  THCState *s = state();
  THCudaTensor *dst = THCudaTensor_newWithSize1d(s, 4);
  THCudaTensor_fill(s, dst, 5.f);
  THCudaTensor *src = THCudaTensor_newWithSize1d(s, 5);
  THCudaTensor_fill(s, src, 1.f);
  BOOST_CHECK_THROW(THCudaTensor_copy(s, dst, src), th::Error);
  THFloatTensor *h = THFloatTensor_newWithSize1d(3);
  BOOST_CHECK_THROW(THCudaTensor_copyFloat(s, dst, h), th::Error);
  BOOST_CHECK_THROW(THFloatTensor_copyCuda(s, h, dst), th::Error);
  for (int i = 0; i < 4; i++) BOOST_TEST(THCudaTensor_get1d(s, dst, i) == 5.f);
  BOOST_CHECK_THROW(THCudaTensor_get1d(s, dst, 4), th::Error);
  // an async copy from pageable memory is refused
  THFloatTensor *pageable = THFloatTensor_newWithSize1d(4);
  BOOST_CHECK_THROW(THCudaTensor_copyAsyncCPU(s, dst, pageable), th::Error);
  for (int i = 0; i < 4; i++) BOOST_TEST(THCudaTensor_get1d(s, dst, i) == 5.f);
  THFloatTensor_free(pageable);
  THFloatTensor_free(h);
  THCudaTensor_free(s, src);
  THCudaTensor_free(s, dst);
}

BOOST_AUTO_TEST_CASE(async_copies_through_pinned_memory) {
  THCState *s = state();
  const int64_t n = 1 << 20;
  THFloatStorage *pinned = THFloatStorage_newWithAllocator(n, &THCCachingHostAllocator, nullptr);
  THFloatTensor *h = THFloatTensor_newWithStorage1d(pinned, 0, n, 1);
  for (int64_t i = 0; i < n; i++) pinned->data[i] = float(i % 1000);
  THCudaTensor *d = THCudaTensor_newWithSize1d(s, n);
  THCudaTensor_copyAsyncCPU(s, d, h);
  THFloatStorage *pinnedBack = THFloatStorage_newWithAllocator(n, &THCCachingHostAllocator, nullptr);
  THFloatTensor *back = THFloatTensor_newWithStorage1d(pinnedBack, 0, n, 1);
  THFloatTensor_copyAsyncCuda(s, back, d);
  THCudaSynchronize(s);
  bool same = true;
  for (int64_t i = 0; i < n; i++) same = same && pinnedBack->data[i] == float(i % 1000);
  BOOST_TEST(same);
  THFloatTensor_free(back);
  THFloatStorage_free(pinnedBack);
  THFloatTensor_free(h);
  THFloatStorage_free(pinned);
  THCudaTensor_free(s, d);
}

// Past 2^31 elements the index math is 64-bit: a 2^31 + 64 byte tensor, copied through a
// transposed view (so the general kernel walks it), keeps marked elements in place.
BOOST_AUTO_TEST_CASE(index_math_past_2_31_elements) {
  THCState *s = state();
  const int64_t n = (int64_t(1) << 31) + 64;
  THCudaByteTensor *a = THCudaByteTensor_newWithSize1d(s, n);
  THCudaByteTensor_fill(s, a, 7);
  const int64_t marks[] = {0, 1, (int64_t(1) << 31) - 1, int64_t(1) << 31, n - 1};
  for (int64_t m : marks) THCudaByteTensor_set1d(s, a, m, uint8_t(m % 250 + 1));
  // [n/2, 2] viewed transposed as [2, n/2]: a non-contiguous walk over all n elements
  int64_t shape[2] = {n / 2, 2};
  THCudaByteTensor *v = THCudaByteTensor_newView(s, a, 2, shape);
  THCudaByteTensor *t = THCudaByteTensor_newTranspose(s, v, 0, 1);
  THCudaByteTensor *c = THCudaByteTensor_newContiguous(s, t);  // c[j][i] = a[2 i + j]
  for (int64_t m : marks) {
    int64_t i = m / 2, j = m % 2;
    BOOST_TEST(THCudaByteTensor_get2d(s, c, j, i) == uint8_t(m % 250 + 1), "element " << m);
  }
  BOOST_TEST(THCudaByteTensor_get2d(s, c, 1, n / 2 - 2) == 7);
  THCudaByteTensor_free(s, c);
  THCudaByteTensor_free(s, t);
  THCudaByteTensor_free(s, v);
  THCudaByteTensor_free(s, a);
}

BOOST_AUTO_TEST_CASE(peer_copies_between_devices, *boost::unit_test::precondition([](boost::unit_test::test_unit_id) {
                       boost::test_tools::assertion_result r(gpuPresent() && THCState_getNumDevices(state()) >= 2);
                       if (!r) r.message() << "needs two GPUs";
                       return r;
                     })) {
  THCState *s = state();
  auto h = th::own(randomHost<float>({100, 30}, -1, 1, 4));
  THCudaSetDevice(0);
  THCudaTensor *a = toDevice<float>(h.get());
  THCudaSetDevice(1);
  THCudaTensor *b = THCudaTensor_newWithSize2d(s, 30, 100);
  THCudaTensor *bt = THCudaTensor_newTranspose(s, b, 0, 1);
  THCudaTensor_copy(s, bt, a);  // device 0 to a transposed view on device 1
  BOOST_TEST(THCudaTensor_getDevice(s, bt) == 1);
  THCudaSetDevice(0);
  checkSame<float>(h.get(), bt, "peer copy");
  THCudaTensor_free(s, bt);
  THCudaTensor_free(s, b);
  THCudaTensor_free(s, a);
}

BOOST_AUTO_TEST_SUITE_END()
