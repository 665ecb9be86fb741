// Shared by THC's Boost.Test suites: one THCState for the binary, the GPU precondition,
// moving TH tensors to the device and back, and the layouts every kernel is run on.
//
// A suite that needs the GPU is declared BOOST_AUTO_TEST_SUITE(name, *thct::needsGPU()):
// without a GPU its cases are skipped with the message "no CUDA GPU" (and the suites are
// tagged "gpu", so that the CPU test run builds them without counting them).
#ifndef THC_TEST_UTIL_HPP
#define THC_TEST_UTIL_HPP

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <memory>
#include <boost/mpl/list.hpp>
#include <random>
#include <string>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THTypes.hpp"
#include "THC/THCGeneral.h"
#include "THC/THCTensor.h"
#include "THC/THCTypes.hpp"

namespace thct {

inline bool gpuPresent() {
  static const bool present = [] {
    int n = 0;
    bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
    cudaGetLastError();
    if (!ok) BOOST_TEST_MESSAGE("no CUDA GPU: the THC cases are skipped");
    return ok;
  }();
  return present;
}

inline boost::unit_test::decorator::precondition needsGPU() {
  return boost::unit_test::precondition([](boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result result(gpuPresent());
    if (!result) result.message() << "no CUDA GPU";
    return result;
  });
}

// The element types of Note [The type table], for BOOST_AUTO_TEST_CASE_TEMPLATE.
using ArithTypes = boost::mpl::list<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;
using AllTypes = boost::mpl::list<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double, THHalf>;
using FloatingTypes = boost::mpl::list<float, double>;

// The process's THCState, initialised on first use.
inline THCState *state() {
  static THCState *s = [] {
    THCState *st = THCState_alloc();
    THCudaInit(st);
    return st;
  }();
  return s;
}

template <typename T>
using HostTensor = typename th::TH<T>::Tensor;
template <typename T>
using DeviceTensor = typename thc::THC<T>::Tensor;

// Owns a device tensor and frees it when the scope ends, also when an error unwinds
// (th::own is the same for host tensors).
template <typename T>
struct DeviceFreer {
  void operator()(DeviceTensor<T> *t) const {
    if (t) thc::THC<T>::free(state(), t);
  }
};
template <typename T>
using DeviceOwned = std::unique_ptr<DeviceTensor<T>, DeviceFreer<T>>;
template <typename TensorT>
auto ownDevice(TensorT *t) {
  using T = std::remove_pointer_t<decltype(t->storage->data)>;
  static_assert(std::is_same_v<TensorT, DeviceTensor<T>>, "ownDevice() is for device tensors; th::own for host ones");
  return DeviceOwned<T>(t);
}

// A device tensor with h's shape and elements (contiguous).
template <typename T>
DeviceTensor<T> *toDevice(HostTensor<T> *h) {
  DeviceTensor<T> *d = thc::THC<T>::newWithSize(state(), h->nDimension, h->size, nullptr);
  thc::THC<T>::copyFromHost(state(), d, h);
  return d;
}

// A host tensor with d's shape and elements (contiguous).
template <typename T>
HostTensor<T> *toHost(DeviceTensor<T> *d) {
  HostTensor<T> *h = th::TH<T>::newWithSize(d->nDimension, d->size, nullptr);
  thc::THC<T>::copyToHost(state(), h, d);
  return h;
}

// Any element as a double (Half too).
template <typename T>
double toDouble(T v) {
  if constexpr (std::is_same_v<T, THHalf>)
    return TH_half2float(v);
  else
    return static_cast<double>(v);
}
template <typename T>
T fromDouble(double v) {
  if constexpr (std::is_same_v<T, THHalf>)
    return TH_float2half(static_cast<float>(v));
  else
    return static_cast<T>(v);
}

// Random values that every type can hold: integers in [lo, hi], floats uniform in [lo, hi).
template <typename T>
HostTensor<T> *randomHost(std::vector<int64_t> shape, double lo, double hi, unsigned seed = 1) {
  HostTensor<T> *h = th::TH<T>::newWithSize((int)shape.size(), shape.data(), nullptr);
  std::mt19937 gen(seed);
  T *p = h->storage->data;
  const int64_t n = th::TH<T>::nElement(h);
  for (int64_t i = 0; i < n; i++) {
    if constexpr (std::is_integral_v<T>)
      p[i] = static_cast<T>(std::uniform_int_distribution<int64_t>((int64_t)lo, (int64_t)hi)(gen));
    else
      p[i] = fromDouble<T>(std::uniform_real_distribution<double>(lo, hi)(gen));
  }
  return h;
}

// Element-wise comparison of two host tensors of the same shape; floats within tol
// (relative to max(1, |expected|)), NaN equal to NaN.
template <typename T>
bool sameValues(HostTensor<T> *expected, HostTensor<T> *actual, double tol, std::string *why = nullptr) {
  if (!th::TH<T>::isSameSizeAs(expected, actual)) {
    if (why) *why = "shapes differ";
    return false;
  }
  auto e = th::own(th::TH<T>::newContiguous(expected));
  auto a = th::own(th::TH<T>::newContiguous(actual));
  const T *pe = th::TH<T>::data(e.get()), *pa = th::TH<T>::data(a.get());
  const int64_t n = th::TH<T>::nElement(e.get());
  for (int64_t i = 0; i < n; i++) {
    double x = toDouble(pe[i]), y = toDouble(pa[i]);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x == y) continue;
    if (std::abs(x - y) <= tol * std::max(1.0, std::abs(x))) continue;
    if (why) *why = "element " + std::to_string(i) + ": expected " + std::to_string(x) + ", got " + std::to_string(y);
    return false;
  }
  return true;
}

// The layouts every kernel is checked on, as views of a fresh device tensor of `shape`
// (2-d at least for the transposed one): name and a function that makes the view from the
// host tensor it must equal. Each returns a new device view and the host view to compare.
enum class Layout { Contiguous, Transposed, Narrowed, Expanded };
inline const char *layoutName(Layout l) {
  switch (l) {
    case Layout::Contiguous: return "contiguous";
    case Layout::Transposed: return "transposed";
    case Layout::Narrowed: return "narrowed";
    case Layout::Expanded: return "expanded";
  }
  return "?";
}
constexpr Layout kLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Narrowed, Layout::Expanded};

// Makes h (host) and d (device) views of the same values in layout l, from a host tensor
// of shape rows x cols. The caller frees both.
template <typename T>
void makeLayout(Layout l, int64_t rows, int64_t cols, unsigned seed, double lo, double hi, HostTensor<T> **h,
                DeviceTensor<T> **d) {
  switch (l) {
    case Layout::Contiguous: {
      *h = randomHost<T>({rows, cols}, lo, hi, seed);
      *d = toDevice<T>(*h);
      return;
    }
    case Layout::Transposed: {
      auto base = th::own(randomHost<T>({cols, rows}, lo, hi, seed));
      auto dbase = toDevice<T>(base.get());
      *h = th::TH<T>::newTranspose(base.get(), 0, 1);
      DeviceTensor<T> *view = thc::THC<T>::newWithTensor(state(), dbase);
      thc::THC<T>::transpose(state(), view, nullptr, 0, 1);
      thc::THC<T>::free(state(), dbase);
      *d = view;
      return;
    }
    case Layout::Narrowed: {
      auto base = th::own(randomHost<T>({rows + 3, cols + 5}, lo, hi, seed));
      auto dbase = toDevice<T>(base.get());
      auto rowsView = th::own(th::TH<T>::newNarrow(base.get(), 0, 1, rows));
      *h = th::TH<T>::newNarrow(rowsView.get(), 1, 2, cols);
      DeviceTensor<T> *view = thc::THC<T>::newWithTensor(state(), dbase);
      thc::THC<T>::narrow(state(), view, nullptr, 0, 1, rows);
      thc::THC<T>::narrow(state(), view, nullptr, 1, 2, cols);
      thc::THC<T>::free(state(), dbase);
      *d = view;
      return;
    }
    case Layout::Expanded: {
      auto base = th::own(randomHost<T>({1, cols}, lo, hi, seed));
      auto dbase = toDevice<T>(base.get());
      int64_t size[2] = {rows, cols};
      *h = th::TH<T>::newExpand(base.get(), 2, size);
      DeviceTensor<T> *view = thc::THC<T>::newWithTensor(state(), dbase);
      thc::THC<T>::expand(state(), view, nullptr, 2, size);
      thc::THC<T>::free(state(), dbase);
      *d = view;
      return;
    }
  }
}

}  // namespace thct

#endif
