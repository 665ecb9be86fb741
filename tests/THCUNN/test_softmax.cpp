// THCUNN's SoftMax and LogSoftMax against THNN's on the CPU for the same inputs: Float and
// Double at THNN's own type (1e-5 and 1e-10 relative), Half against Float on the same
// half-rounded values (1e-2 relative). Every dimension count THNN takes (1-D to 4-D, lines
// along torch7's dimension contiguous or strided, short and long), contiguous and
// non-contiguous inputs and results, large inputs that overflow without the max
// subtraction, in place, and the errors, which must be the same on both devices.
#define BOOST_TEST_MODULE THCUNN SoftMax
#include "tests/THCUNN/thcunn_test_util.hpp"

using namespace thcunnt;

namespace {

// The two kernels of one element type on one device (THNN's state is void *: the THCState
// converts to it and is ignored).
template <typename T>
struct Cpu;
template <typename T>
struct Gpu;
#define THCUNN_TEST_SOFTMAX(prefix)                                                \
  static constexpr auto SoftMax_updateOutput = prefix##SoftMax_updateOutput;       \
  static constexpr auto SoftMax_updateGradInput = prefix##SoftMax_updateGradInput; \
  static constexpr auto LogSoftMax_updateOutput = prefix##LogSoftMax_updateOutput; \
  static constexpr auto LogSoftMax_updateGradInput = prefix##LogSoftMax_updateGradInput;
template <>
struct Cpu<float> {
  THCUNN_TEST_SOFTMAX(THNN_Float)
};
template <>
struct Cpu<double> {
  THCUNN_TEST_SOFTMAX(THNN_Double)
};
template <>
struct Gpu<float> {
  THCUNN_TEST_SOFTMAX(THNN_Cuda)
};
template <>
struct Gpu<double> {
  THCUNN_TEST_SOFTMAX(THNN_CudaDouble)
};
template <>
struct Gpu<THHalf> {
  THCUNN_TEST_SOFTMAX(THNN_CudaHalf)
};

// The shapes: every dimension count, the line along the class dimension contiguous
// (1-D, 2-D, 4-D with 1 x 1 images) or strided (3-D, 4-D), short, longer than a block, empty.
const std::vector<std::vector<int64_t>> kShapes = {
    {37}, {5, 37}, {3, 2000}, {7, 4, 5}, {3, 7, 4, 5}, {3, 7, 1, 1}, {2, 300, 3, 2}, {1, 1}, {0, 5},
};

std::string shapeName(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); i++) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Forward and backward of SoftMax (log = false) or LogSoftMax on both devices; the backward
// of both reads the CPU's output (rounded for Half), so that both start from one output.
template <typename T>
void checkSoftMax(bool log, const std::vector<int64_t> &shape, bool contiguous, double lo, double hi,
                  bool nonContiguousResults) {
  using R = Ref<T>;
  THCState *s = state();
  const std::string what = std::string(log ? "LogSoftMax" : "SoftMax") + " on " + shapeName(shape) +
                           (contiguous ? "" : ", non-contiguous") +
                           (nonContiguousResults ? ", into non-contiguous results" : "") + " in [" +
                           std::to_string(lo) + ", " + std::to_string(hi) + ")";
  auto in = randomBoth<T>(shape, lo, hi, 11, contiguous);
  auto hout = hostEmpty<R>();
  // a non-contiguous result keeps its strides when it has the right sizes already
  auto dout = nonContiguousResults ? std::move(randomBoth<T>(shape, 0, 1, 12, false).d) : deviceEmpty<T>();
  if (log) {
    Cpu<R>::LogSoftMax_updateOutput(s, in.h.get(), hout.get());
    Gpu<T>::LogSoftMax_updateOutput(s, in.d.get(), dout.get());
  } else {
    Cpu<R>::SoftMax_updateOutput(s, in.h.get(), hout.get());
    Gpu<T>::SoftMax_updateOutput(s, in.d.get(), dout.get());
  }
  compare<T>(hout.get(), dout.get(), what + ", output");

  auto go = randomBoth<T>(shape, -2, 2, 13, contiguous);
  // out: the CPU's output in go's layout, as the device holds it (rounded for Half)
  auto out = randomBoth<T>(shape, 0, 1, 14, contiguous);
  auto rounded = th::own(th::TH<R>::newClone(hout.get()));
  auto dRounded = ownDevice(deviceCopy<T>(rounded.get()));
  thc::THC<T>::copy(s, out.d.get(), dRounded.get());
  th::TH<R>::copy(out.h.get(), rounded.get());
  auto hgi = hostEmpty<R>();
  auto dgi = nonContiguousResults ? std::move(randomBoth<T>(shape, 0, 1, 15, false).d) : deviceEmpty<T>();
  if (log) {
    Cpu<R>::LogSoftMax_updateGradInput(s, in.h.get(), go.h.get(), hgi.get(), out.h.get());
    Gpu<T>::LogSoftMax_updateGradInput(s, in.d.get(), go.d.get(), dgi.get(), out.d.get());
  } else {
    Cpu<R>::SoftMax_updateGradInput(s, in.h.get(), go.h.get(), hgi.get(), out.h.get());
    Gpu<T>::SoftMax_updateGradInput(s, in.d.get(), go.d.get(), dgi.get(), out.d.get());
  }
  compare<T>(hgi.get(), dgi.get(), what + ", gradInput");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(softmax, *needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(every_shape_and_layout, T, Types) {
  for (bool log : {false, true})
    for (const auto &shape : kShapes)
      for (bool contiguous : {true, false}) checkSoftMax<T>(log, shape, contiguous, -4, 4, false);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(non_contiguous_results, T, Types) {
  for (bool log : {false, true})
    for (const auto &shape : std::vector<std::vector<int64_t>>{{5, 37}, {3, 7, 4, 5}})
      checkSoftMax<T>(log, shape, true, -4, 4, true);
}

// exp(x) overflows float and Half here: only the max subtraction keeps the result finite.
BOOST_AUTO_TEST_CASE_TEMPLATE(large_inputs_are_stable, T, Types) {
  for (bool log : {false, true}) {
    checkSoftMax<T>(log, {4, 50}, true, 500, 510, false);
    checkSoftMax<T>(log, {2, 6, 3, 3}, true, -510, -500, false);
  }
}

// output may be input, and gradInput gradOutput.
BOOST_AUTO_TEST_CASE_TEMPLATE(in_place, T, Types) {
  using R = Ref<T>;
  THCState *s = state();
  for (bool log : {false, true}) {
    const std::string what = log ? "LogSoftMax in place" : "SoftMax in place";
    auto x = randomBoth<T>({6, 40}, -3, 3, 21);
    auto hout = hostEmpty<R>();
    if (log) {
      Cpu<R>::LogSoftMax_updateOutput(s, x.h.get(), hout.get());
      Gpu<T>::LogSoftMax_updateOutput(s, x.d.get(), x.d.get());
    } else {
      Cpu<R>::SoftMax_updateOutput(s, x.h.get(), hout.get());
      Gpu<T>::SoftMax_updateOutput(s, x.d.get(), x.d.get());
    }
    compare<T>(hout.get(), x.d.get(), what + ", output");
    auto y = randomBoth<T>({6, 40}, 0, 1, 22);
    auto g = randomBoth<T>({6, 40}, -1, 1, 23);
    auto hgi = hostEmpty<R>();
    if (log) {
      Cpu<R>::LogSoftMax_updateGradInput(s, y.h.get(), g.h.get(), hgi.get(), y.h.get());
      Gpu<T>::LogSoftMax_updateGradInput(s, y.d.get(), g.d.get(), g.d.get(), y.d.get());
    } else {
      Cpu<R>::SoftMax_updateGradInput(s, y.h.get(), g.h.get(), hgi.get(), y.h.get());
      Gpu<T>::SoftMax_updateGradInput(s, y.d.get(), g.d.get(), g.d.get(), y.d.get());
    }
    compare<T>(hgi.get(), g.d.get(), what + ", gradInput");
  }
}

// Repeated calls give the same bits (the block reductions have a fixed order).
BOOST_AUTO_TEST_CASE(results_are_deterministic) {
  THCState *s = state();
  auto x = randomBoth<float>({3, 5000}, -3, 3, 31);
  auto first = deviceEmpty<float>();
  auto second = deviceEmpty<float>();
  THNN_CudaLogSoftMax_updateOutput(s, x.d.get(), first.get());
  THNN_CudaLogSoftMax_updateOutput(s, x.d.get(), second.get());
  auto a = hostCopy<float>(first.get());
  auto b = hostCopy<float>(second.get());
  std::string why;
  BOOST_TEST(sameValues<float>(a.get(), b.get(), 0, &why), why);
}

BOOST_AUTO_TEST_CASE(errors_match_thnn) {
  THCState *s = state();
  auto five = randomBoth<float>({2, 2, 2, 2, 2}, -1, 1, 41);
  auto x = randomBoth<float>({4, 5}, -1, 1, 42);
  auto shortGrad = randomBoth<float>({3, 5}, -1, 1, 43);
  auto hr = hostEmpty<float>();
  auto dr = deviceEmpty<float>();
  expectSameError(
      "SoftMax of a 5-D input", [&] { THNN_FloatSoftMax_updateOutput(nullptr, five.h.get(), hr.get()); },
      [&] { THNN_CudaSoftMax_updateOutput(s, five.d.get(), dr.get()); });
  expectSameError(
      "LogSoftMax of a 5-D input", [&] { THNN_FloatLogSoftMax_updateOutput(nullptr, five.h.get(), hr.get()); },
      [&] { THNN_CudaLogSoftMax_updateOutput(s, five.d.get(), dr.get()); });
  expectSameError(
      "SoftMax backward with a short gradOutput",
      [&] { THNN_FloatSoftMax_updateGradInput(nullptr, x.h.get(), shortGrad.h.get(), hr.get(), x.h.get()); },
      [&] { THNN_CudaSoftMax_updateGradInput(s, x.d.get(), shortGrad.d.get(), dr.get(), x.d.get()); });
  expectSameError(
      "LogSoftMax backward with a short output",
      [&] { THNN_FloatLogSoftMax_updateGradInput(nullptr, x.h.get(), x.h.get(), hr.get(), shortGrad.h.get()); },
      [&] { THNN_CudaLogSoftMax_updateGradInput(s, x.d.get(), x.d.get(), dr.get(), shortGrad.d.get()); });
}

BOOST_AUTO_TEST_SUITE_END()
