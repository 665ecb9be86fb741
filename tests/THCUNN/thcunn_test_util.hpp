// Shared by THCUNN's suites that compare a kernel with THNN's on the CPU (test_softmax,
// test_criterion, test_index_criterion): the reference type and tolerance of each element
// type, copies between the devices that leave both sides with the same values, non-contiguous
// views of the same values on both devices, and the check that both raise the same error.
#ifndef THCUNN_TEST_UTIL_HPP
#define THCUNN_TEST_UTIL_HPP

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "THC/THC.h"
#include "THCUNN/THCUNN.h"
#include "THNN/THNN.h"
#include "tests/THC/thc_test_util.hpp"

namespace thcunnt {

using namespace thct;

// The reference type of T on the CPU (THNN has no Half) and the tolerance of T's results
// relative to max(1, |expected|).
template <typename T>
using Ref = std::conditional_t<std::is_same_v<T, THHalf>, float, T>;
template <typename T>
double tolerance() {
  if constexpr (std::is_same_v<T, THHalf>) return 1e-2;
  if constexpr (std::is_same_v<T, float>) return 1e-5;
  return 1e-10;
}

template <typename T>
using Host = HostTensor<Ref<T>>;
template <typename T>
using Dev = DeviceTensor<T>;

using Types = boost::mpl::list<float, double, THHalf>;

// A device tensor of T with h's values (rounded to Half for Half), and h rewritten to the
// values the device holds, so that both sides start from the same numbers.
template <typename T>
Dev<T> *deviceCopy(Host<T> *h) {
  if constexpr (std::is_same_v<T, THHalf>) {
    auto half = th::own(THHalfTensor_newWithSize(h->nDimension, h->size, nullptr));
    THHalfTensor_copyFloat(half.get(), h);
    THFloatTensor_copyHalf(h, half.get());
    return toDevice<THHalf>(half.get());
  } else {
    return toDevice<T>(h);
  }
}

// d's values as a (contiguous) host tensor of Ref<T>.
template <typename T>
th::Owned<Host<T>> hostCopy(Dev<T> *d) {
  auto back = th::own(toHost<T>(d));
  if constexpr (std::is_same_v<T, THHalf>) {
    auto f = th::own(THFloatTensor_newWithSize(back->nDimension, back->size, nullptr));
    THFloatTensor_copyHalf(f.get(), back.get());
    return f;
  } else {
    return back;
  }
}

template <typename T>
void compare(Host<T> *expected, Dev<T> *actual, const std::string &what) {
  auto got = hostCopy<T>(actual);
  std::string why;
  BOOST_TEST(sameValues<Ref<T>>(expected, got.get(), tolerance<T>(), &why), what << ": " << why);
}

// Empty results for a kernel to resize.
template <typename R>
th::Owned<HostTensor<R>> hostEmpty() {
  return th::own(th::TH<R>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
}
template <typename T>
DeviceOwned<T> deviceEmpty() {
  return ownDevice(thc::THC<T>::newWithSize(state(), 1, std::vector<int64_t>{0}.data(), nullptr));
}

// The same values on both devices, as views of one layout.
template <typename T>
struct Both {
  th::Owned<Host<T>> h;
  DeviceOwned<T> d;
};

// Random values in [lo, hi) of `shape`, contiguous, or (non-contiguous) a view that skips
// the first and the last element of each line of a larger tensor along the last dimension.
template <typename T>
Both<T> randomBoth(std::vector<int64_t> shape, double lo, double hi, unsigned seed, bool contiguous = true) {
  using R = Ref<T>;
  if (contiguous) {
    auto h = th::own(randomHost<R>(shape, lo, hi, seed));
    auto d = ownDevice(deviceCopy<T>(h.get()));
    return {std::move(h), std::move(d)};
  }
  std::vector<int64_t> wide = shape;
  const int last = (int)shape.size() - 1;
  wide[last] += 2;
  auto base = th::own(randomHost<R>(wide, lo, hi, seed));
  auto dbase = ownDevice(deviceCopy<T>(base.get()));
  auto h = th::own(th::TH<R>::newNarrow(base.get(), last, 1, shape[last]));
  auto d = ownDevice(thc::THC<T>::newNarrow(state(), dbase.get(), last, 1, shape[last]));
  return {std::move(h), std::move(d)};
}

// The text of an error without its source location " (file:line)".
inline std::string errorText(const char *what) {
  std::string s = what;
  const size_t open = s.rfind(" (");
  if (open != std::string::npos && !s.empty() && s.back() == ')') s.erase(open);
  return s;
}

// cpu() and gpu() both raise, the same text, kind and argument.
inline void expectSameError(const std::string &what, const std::function<void()> &cpu,
                            const std::function<void()> &gpu) {
  std::string expected;
  int arg = -1;
  th::ErrorKind kind = th::ErrorKind::Runtime;
  try {
    cpu();
    BOOST_ERROR(what << ": THNN raised nothing");
    return;
  } catch (const th::Error &e) {
    expected = errorText(e.what());
    arg = e.argNumber();
    kind = e.kind();
  }
  try {
    gpu();
    BOOST_ERROR(what << ": THCUNN raised nothing; THNN raised: " << expected);
  } catch (const th::Error &e) {
    BOOST_TEST(errorText(e.what()) == expected, what);
    BOOST_TEST(e.argNumber() == arg, what);
    BOOST_TEST((e.kind() == kind), what);
  }
}

}  // namespace thcunnt

#endif
