// THCUNN's element-wise activations against THNN's on the CPU for the same inputs: Float and
// Double at THNN's own type (1e-5 and 1e-10 relative), Half against Float on the same
// half-rounded values (1e-2 relative); contiguous and transposed inputs (the transposed
// ones take Note [Tiled pointwise]), the in-place variants, and the errors, which
// must be the same on both devices and leave the results unchanged.
#define BOOST_TEST_MODULE THCUNN activations
#include <cstring>

#include "THC/THC.h"
#include "THCUNN/THCUNN.h"
#include "THNN/THNN.h"
#include "tests/THC/thc_test_util.hpp"

using namespace thct;

namespace {

// clang-format off
#define THCUNN_TEST_KERNELS(_)                                                              \
  _(Abs_updateOutput) _(Abs_updateGradInput) _(ELU_updateOutput) _(ELU_updateGradInput)     \
  _(HardShrink_updateOutput) _(HardShrink_updateGradInput) _(HardTanh_updateOutput)         \
  _(HardTanh_updateGradInput) _(LeakyReLU_updateOutput) _(LeakyReLU_updateGradInput)        \
  _(LogSigmoid_updateOutput) _(LogSigmoid_updateGradInput) _(Sigmoid_updateOutput)          \
  _(Sigmoid_updateGradInput) _(SoftPlus_updateOutput) _(SoftPlus_updateGradInput)           \
  _(SoftShrink_updateOutput) _(SoftShrink_updateGradInput) _(Sqrt_updateOutput)             \
  _(Sqrt_updateGradInput) _(Square_updateOutput) _(Square_updateGradInput)                  \
  _(Tanh_updateOutput) _(Tanh_updateGradInput) _(Threshold_updateOutput)                    \
  _(Threshold_updateGradInput)
// clang-format on

// The kernels of one element type on one device, as members, so that one generic lambda
// calls either (THNN's state is void *: the THCState converts to it and is ignored).
#define THCUNN_TEST_MEMBER(prefix, n) static constexpr auto n = prefix##n;
template <typename T>
struct Cpu;
template <typename T>
struct Gpu;
#define MEMBER_FLOAT(n) THCUNN_TEST_MEMBER(THNN_Float, n)
#define MEMBER_DOUBLE(n) THCUNN_TEST_MEMBER(THNN_Double, n)
#define MEMBER_CUDA(n) THCUNN_TEST_MEMBER(THNN_Cuda, n)
#define MEMBER_CUDA_DOUBLE(n) THCUNN_TEST_MEMBER(THNN_CudaDouble, n)
#define MEMBER_CUDA_HALF(n) THCUNN_TEST_MEMBER(THNN_CudaHalf, n)
template <>
struct Cpu<float> {
  THCUNN_TEST_KERNELS(MEMBER_FLOAT)
};
template <>
struct Cpu<double> {
  THCUNN_TEST_KERNELS(MEMBER_DOUBLE)
};
template <>
struct Gpu<float> {
  THCUNN_TEST_KERNELS(MEMBER_CUDA)
};
template <>
struct Gpu<double> {
  THCUNN_TEST_KERNELS(MEMBER_CUDA_DOUBLE)
};
template <>
struct Gpu<THHalf> {
  THCUNN_TEST_KERNELS(MEMBER_CUDA_HALF)
};

// The reference type of T on the CPU (THNN has no Half) and the tolerance of T's results.
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

// d's values as a host tensor of Ref<T>.
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

// The input layouts: a host view of shape rows x cols over fresh values in [lo, hi).
enum class Layout { Contiguous, Transposed };
const char *layoutName(Layout l) { return l == Layout::Contiguous ? "contiguous" : "transposed"; }

template <typename R>
HostTensor<R> *hostInput(Layout l, int64_t rows, int64_t cols, double lo, double hi, unsigned seed) {
  if (l == Layout::Contiguous) return randomHost<R>({rows, cols}, lo, hi, seed);
  auto base = th::own(randomHost<R>({cols, rows}, lo, hi, seed));
  return th::TH<R>::newTranspose(base.get(), 0, 1);
}

// The same view on the device: the host view's values copied into a device tensor laid out
// the same way (transposed storage for a transposed view).
template <typename T>
Dev<T> *deviceInput(Layout l, Host<T> *h) {
  if (l != Layout::Transposed) return deviceCopy<T>(h);
  auto base = th::own(th::TH<Ref<T>>::newTranspose(h, 0, 1));
  auto contiguous = th::own(th::TH<Ref<T>>::newContiguous(base.get()));
  Dev<T> *d = deviceCopy<T>(contiguous.get());
  th::TH<Ref<T>>::copy(base.get(), contiguous.get());  // the half-rounded values back into h
  Dev<T> *view = thc::THC<T>::newTranspose(state(), d, 0, 1);
  thc::THC<T>::free(state(), d);
  return view;
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

// The address of a tensor's first element.
template <typename TensorT>
const void *dataOf(const TensorT *t) {
  return t->storage ? t->storage->data + t->storageOffset : nullptr;
}

// One activation: forward(kernels, state, input, output, buffer, inplace) and
// backward(kernels, state, input, gradOutput, gradInput, output, buffer, inplace), each a
// generic lambda over Cpu<Ref<T>> and Gpu<T>. Runs both on every layout, and in place where
// the activation has an in-place variant.
template <typename T, typename Forward, typename Backward>
void checkActivation(const char *name, double lo, double hi, bool hasInPlace, Forward forward, Backward backward) {
  using R = Ref<T>;
  THCState *s = state();
  for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
    const std::string where = std::string(name) + " on " + layoutName(l);
    auto hin = th::own(hostInput<R>(l, 17, 45, lo, hi, 3));
    auto din = ownDevice(deviceInput<T>(l, hin.get()));
    auto hgo = th::own(randomHost<R>({17, 45}, -2, 2, 4));
    auto dgo = ownDevice(deviceCopy<T>(hgo.get()));
    for (bool inplace : {false, true}) {
      if (inplace && !hasInPlace) continue;
      const std::string what = where + (inplace ? ", in place" : "");
      // in place, each side works on copies: the forward rewrites its input
      auto hx = th::own(th::TH<R>::newClone(hin.get()));
      auto dx = ownDevice(thc::THC<T>::newClone(s, din.get()));
      auto hout = hostEmpty<R>();
      auto hbuf = hostEmpty<R>();
      auto dout = deviceEmpty<T>();
      auto dbuf = deviceEmpty<T>();
      forward(Cpu<R>(), s, hx.get(), hout.get(), hbuf.get(), inplace);
      forward(Gpu<T>(), s, dx.get(), dout.get(), dbuf.get(), inplace);
      compare<T>(hout.get(), dout.get(), what + ", output");
      if (th::TH<R>::nElement(hbuf.get()) > 0) compare<T>(hbuf.get(), dbuf.get(), what + ", buffer");
      if (inplace) BOOST_TEST(dataOf(dout.get()) == dataOf(dx.get()), what << ": the output is a view of the input");
      // backward; in place, `input` is the forward's output (Note [In-place activations])
      auto hg = th::own(th::TH<R>::newClone(hgo.get()));
      auto dg = ownDevice(thc::THC<T>::newClone(s, dgo.get()));
      auto hgi = hostEmpty<R>();
      auto dgi = deviceEmpty<T>();
      backward(Cpu<R>(), s, inplace ? hout.get() : hx.get(), hg.get(), hgi.get(), hout.get(), hbuf.get(), inplace);
      backward(Gpu<T>(), s, inplace ? dout.get() : dx.get(), dg.get(), dgi.get(), dout.get(), dbuf.get(), inplace);
      compare<T>(hgi.get(), dgi.get(), what + ", gradInput");
      if (inplace) BOOST_TEST(dataOf(dgi.get()) == dataOf(dg.get()), what << ": gradInput is a view of gradOutput");
    }
  }
}

using Types = boost::mpl::list<float, double, THHalf>;

}  // namespace

BOOST_AUTO_TEST_SUITE(element_wise, *needsGPU())

// The activations that read the input in the backward, with their parameters.
BOOST_AUTO_TEST_CASE_TEMPLATE(activations_of_the_input, T, Types) {
  auto fwdNone = [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.Abs_updateOutput(s, in, out); };
  auto bwdNone = [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool) {
    k.Abs_updateGradInput(s, in, go, gi);
  };
  checkActivation<T>("Abs", -3, 3, false, fwdNone, bwdNone);
  checkActivation<T>(
      "HardShrink", -3, 3, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.HardShrink_updateOutput(s, in, out, 0.6); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool) {
        k.HardShrink_updateGradInput(s, in, go, gi, 0.6);
      });
  checkActivation<T>(
      "HardTanh", -3, 3, true,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool ip) {
        k.HardTanh_updateOutput(s, in, out, -1.5, 0.8, ip);
      },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool ip) {
        k.HardTanh_updateGradInput(s, in, go, gi, -1.5, 0.8, ip);
      });
  checkActivation<T>(
      "LeakyReLU", -3, 3, true,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool ip) { k.LeakyReLU_updateOutput(s, in, out, 0.1, ip); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool ip) {
        k.LeakyReLU_updateGradInput(s, in, go, gi, 0.1, ip);
      });
  checkActivation<T>(
      "SoftShrink", -3, 3, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.SoftShrink_updateOutput(s, in, out, 0.4); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool) {
        k.SoftShrink_updateGradInput(s, in, go, gi, 0.4);
      });
  checkActivation<T>(
      "Square", -3, 3, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.Square_updateOutput(s, in, out); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool) {
        k.Square_updateGradInput(s, in, go, gi);
      });
  checkActivation<T>(
      "Threshold", -3, 3, true,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool ip) {
        k.Threshold_updateOutput(s, in, out, 0.2, -1, ip);
      },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *, bool ip) {
        k.Threshold_updateGradInput(s, in, go, gi, 0.2, -1, ip);
      });
}

// The activations whose backward reads the output (or a buffer).
BOOST_AUTO_TEST_CASE_TEMPLATE(activations_of_the_output, T, Types) {
  checkActivation<T>(
      "ELU", -3, 3, true,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool ip) { k.ELU_updateOutput(s, in, out, 0.7, ip); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *out, auto *, bool ip) {
        k.ELU_updateGradInput(s, in, go, gi, out, 0.7, ip);
      });
  checkActivation<T>(
      "LogSigmoid", -6, 6, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *buf, bool) { k.LogSigmoid_updateOutput(s, in, out, buf); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *, auto *buf, bool) {
        k.LogSigmoid_updateGradInput(s, in, go, gi, buf);
      });
  checkActivation<T>(
      "Sigmoid", -6, 6, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.Sigmoid_updateOutput(s, in, out); },
      [](auto k, THCState *s, auto *, auto *go, auto *gi, auto *out, auto *, bool) {
        k.Sigmoid_updateGradInput(s, go, gi, out);
      });
  checkActivation<T>(
      "SoftPlus", -6, 6, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.SoftPlus_updateOutput(s, in, out, 1.5, 4); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *out, auto *, bool) {
        k.SoftPlus_updateGradInput(s, in, go, gi, out, 1.5, 4);
      });
  checkActivation<T>(
      "Sqrt", 0, 4, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.Sqrt_updateOutput(s, in, out, 1e-3); },
      [](auto k, THCState *s, auto *in, auto *go, auto *gi, auto *out, auto *, bool) {
        k.Sqrt_updateGradInput(s, in, go, gi, out);
      });
  checkActivation<T>(
      "Tanh", -4, 4, false,
      [](auto k, THCState *s, auto *in, auto *out, auto *, bool) { k.Tanh_updateOutput(s, in, out); },
      [](auto k, THCState *s, auto *, auto *go, auto *gi, auto *out, auto *, bool) {
        k.Tanh_updateGradInput(s, go, gi, out);
      });
}

// The text of an error without its source location " (file:line)".
std::string text(const char *what) {
  std::string s = what;
  const size_t open = s.rfind(" (");
  if (open != std::string::npos && !s.empty() && s.back() == ')') s.erase(open);
  return s;
}

// Bad calls raise the same error on both devices (text and argument) and leave gradInput
// and the output as they were.
BOOST_AUTO_TEST_CASE(errors_match_thnn) {
  THCState *s = state();
  auto in = th::own(randomHost<float>({4, 5}, -1, 1, 7));
  auto shortGrad = th::own(randomHost<float>({3, 5}, -1, 1, 8));
  auto before = th::own(randomHost<float>({2, 2}, -1, 1, 9));
  auto din = ownDevice(toDevice<float>(in.get()));
  auto dShortGrad = ownDevice(toDevice<float>(shortGrad.get()));
  auto expectSame = [&](const std::string &what, auto cpuCall, auto gpuCall) {
    auto hResult = th::own(THFloatTensor_newClone(before.get()));
    auto dResult = ownDevice(toDevice<float>(before.get()));
    std::string expected;
    int arg = -1;
    try {
      cpuCall(hResult.get());
      BOOST_ERROR(what << ": THNN raised nothing");
    } catch (const th::Error &e) {
      expected = text(e.what());
      arg = e.argNumber();
    }
    try {
      gpuCall(dResult.get());
      BOOST_ERROR(what << ": THCUNN raised nothing; THNN raised: " << expected);
    } catch (const th::Error &e) {
      BOOST_TEST(text(e.what()) == expected, what);
      BOOST_TEST(e.argNumber() == arg, what);
    }
    compare<float>(before.get(), dResult.get(), what + ": THCUNN's result is unchanged");
    std::string why;
    BOOST_TEST(sameValues<float>(before.get(), hResult.get(), 0, &why),
               what << ": THNN's result is unchanged: " << why);
  };
  expectSame(
      "Abs with a short gradOutput",
      [&](THFloatTensor *r) { THNN_FloatAbs_updateGradInput(nullptr, in.get(), shortGrad.get(), r); },
      [&](THCudaTensor *r) { THNN_CudaAbs_updateGradInput(s, din.get(), dShortGrad.get(), r); });
  expectSame(
      "Tanh with a short gradOutput",
      [&](THFloatTensor *r) { THNN_FloatTanh_updateGradInput(nullptr, shortGrad.get(), r, in.get()); },
      [&](THCudaTensor *r) { THNN_CudaTanh_updateGradInput(s, dShortGrad.get(), r, din.get()); });
  expectSame(
      "in-place ELU with alpha < 0",
      [&](THFloatTensor *r) { THNN_FloatELU_updateOutput(nullptr, in.get(), r, -1, true); },
      [&](THCudaTensor *r) { THNN_CudaELU_updateOutput(s, din.get(), r, -1, true); });
  expectSame(
      "HardTanh with min_val >= max_val",
      [&](THFloatTensor *r) { THNN_FloatHardTanh_updateOutput(nullptr, in.get(), r, 1, 1, false); },
      [&](THCudaTensor *r) { THNN_CudaHardTanh_updateOutput(s, din.get(), r, 1, 1, false); });
  expectSame(
      "in-place Threshold with val > threshold",
      [&](THFloatTensor *r) { THNN_FloatThreshold_updateOutput(nullptr, in.get(), r, 0, 1, true); },
      [&](THCudaTensor *r) { THNN_CudaThreshold_updateOutput(s, din.get(), r, 0, 1, true); });
  // the input of a failed in-place call is unchanged too
  auto input = hostCopy<float>(din.get());
  std::string why;
  BOOST_TEST(sameValues<float>(in.get(), input.get(), 0, &why), "the input is unchanged: " << why);
}

BOOST_AUTO_TEST_SUITE_END()
