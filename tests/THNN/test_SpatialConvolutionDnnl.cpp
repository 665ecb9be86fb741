// SpatialConvolutionMM and SpatialDilatedConvolution in float on oneDNN (Note [oneDNN
// convolution] in THNN/dnnl/Convolution.cpp): output, gradInput and the accumulated gradWeight /
// gradBias (with a scale, onto non-zero gradients) against the double im2col path, which
// test_SpatialConvolution checks against a direct loop, on the benchmark's shapes and odd ones,
// at 1 and 2 threads. That oneDNN ran is seen in the caller's buffers: it leaves them a 1-D
// scratch, where the im2col path leaves the unfolded input [B, C kH kW, oH oW] (1x1 kernels
// on one thread, which stay on the im2col path but for a strided one's forward, are checked too).
#define BOOST_TEST_MODULE THNN SpatialConvolution oneDNN
#include <omp.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "thnn_test_util.hpp"

namespace {

using thnnt::Api;
using thnnt::Owned;
using thnnt::TensorOf;

struct Shape {
  const char *name;
  int64_t B, C, H, W, O;  // B = 0: a 3-D input
  int kH, kW, dH = 1, dW = 1, padH = 0, padW = 0, dilationH = 1, dilationW = 1;
  bool bias = true;
  bool nonContiguous = false;  // input and gradOutput as transposed views
  bool weight2d = false;       // MM's [O, C kH kW] weight
};

int64_t outSize(int64_t in, int k, int d, int pad, int dilation) {
  return (in + 2 * pad - (dilation * (k - 1) + 1)) / d + 1;
}

std::vector<int64_t> inputSizes(const Shape &s) {
  if (s.B == 0) return {s.C, s.H, s.W};
  return {s.B, s.C, s.H, s.W};
}

std::vector<int64_t> outputSizes(const Shape &s) {
  const int64_t oH = outSize(s.H, s.kH, s.dH, s.padH, s.dilationH), oW = outSize(s.W, s.kW, s.dW, s.padW, s.dilationW);
  if (s.B == 0) return {s.O, oH, oW};
  return {s.B, s.O, oH, oW};
}

int64_t numelOf(const std::vector<int64_t> &size) {
  int64_t n = 1;
  for (int64_t d : size) n *= d;
  return n;
}

// A tensor of these sizes holding v in row-major order; with nonContiguous, a view with the
// last two dimensions transposed.
template <typename T>
Owned<T> makeTensor(const std::vector<int64_t> &size, const std::vector<double> &v, bool nonContiguous = false) {
  if (!nonContiguous || size.size() < 2) {
    Owned<T> t = th::own(Api<T>::newWithSize((int)size.size(), size.data(), nullptr));
    thnnt::setValues(t.get(), v);
    return t;
  }
  std::vector<int64_t> swapped = size;
  std::swap(swapped[size.size() - 1], swapped[size.size() - 2]);
  Owned<T> base = th::own(Api<T>::newWithSize((int)swapped.size(), swapped.data(), nullptr));
  Owned<T> view = th::own(Api<T>::newTranspose(base.get(), (int)size.size() - 2, (int)size.size() - 1));
  thnnt::setValues(view.get(), v);
  return view;
}

template <typename T>
Owned<T> emptyTensor() {
  if constexpr (std::is_same_v<T, float>) {
    return th::own(THFloatTensor_new());
  } else {
    return th::own(THDoubleTensor_new());
  }
}

// One layer's inputs, drawn once and handed to both element types.
struct Values {
  std::vector<double> input, weight, bias, gradOutput, gradWeight, gradBias;
  explicit Values(const Shape &s, unsigned seed)
      : input(thnnt::uniform(numelOf(inputSizes(s)), seed)),
        weight(thnnt::uniform(s.O * s.C * s.kH * s.kW, seed + 1)),
        bias(thnnt::uniform(s.O, seed + 2)),
        gradOutput(thnnt::uniform(numelOf(outputSizes(s)), seed + 3)),
        gradWeight(thnnt::uniform(s.O * s.C * s.kH * s.kW, seed + 4)),
        gradBias(thnnt::uniform(s.O, seed + 5)) {}
};

struct Results {
  std::vector<double> output, gradInput, gradWeight, gradBias;
  int forwardBufferDims = 0, backwardBufferDims = 0;  // the buffers' dimensions after the calls
  int64_t forwardBufferSize = 0;
};

enum class Kernel { MM, Dilated };

// updateOutput, updateGradInput and accGradParameters(scale) of one kernel on one shape.
template <typename T>
Results run(Kernel kernel, const Shape &s, const Values &v, double scale) {
  auto in = makeTensor<T>(inputSizes(s), v.input, s.nonContiguous);
  auto w = s.weight2d ? makeTensor<T>({s.O, s.C * s.kH * s.kW}, v.weight)
                      : makeTensor<T>({s.O, s.C, (int64_t)s.kH, (int64_t)s.kW}, v.weight);
  auto gw = makeTensor<T>({s.O, s.C, (int64_t)s.kH, (int64_t)s.kW}, v.gradWeight);
  auto b = makeTensor<T>({s.O}, v.bias), gb = makeTensor<T>({s.O}, v.gradBias);
  auto gradOut = makeTensor<T>(outputSizes(s), v.gradOutput, s.nonContiguous);
  auto out = emptyTensor<T>(), gradIn = emptyTensor<T>(), finput = emptyTensor<T>(), fgradInput = emptyTensor<T>();
  TensorOf<T> *bias = s.bias ? b.get() : nullptr, *gradBias = s.bias ? gb.get() : nullptr;
  Results r;
  if (kernel == Kernel::MM) {
    THNN_KERNEL(T, SpatialConvolutionMM_updateOutput)
    (nullptr, in.get(), out.get(), w.get(), bias, finput.get(), fgradInput.get(), s.kW, s.kH, s.dW, s.dH, s.padW,
     s.padH);
    r.forwardBufferDims = finput->nDimension;
    r.forwardBufferSize = th::numel(th::ref(finput.get()));
    THNN_KERNEL(T, SpatialConvolutionMM_updateGradInput)
    (nullptr, in.get(), gradOut.get(), gradIn.get(), w.get(), finput.get(), fgradInput.get(), s.kW, s.kH, s.dW, s.dH,
     s.padW, s.padH);
    r.backwardBufferDims = fgradInput->nDimension;
    THNN_KERNEL(T, SpatialConvolutionMM_accGradParameters)
    (nullptr, in.get(), gradOut.get(), gw.get(), gradBias, finput.get(), fgradInput.get(), s.kW, s.kH, s.dW, s.dH,
     s.padW, s.padH, scale);
  } else {
    THNN_KERNEL(T, SpatialDilatedConvolution_updateOutput)
    (nullptr, in.get(), out.get(), w.get(), bias, finput.get(), nullptr, s.kW, s.kH, s.dW, s.dH, s.padW, s.padH,
     s.dilationW, s.dilationH);
    r.forwardBufferDims = finput->nDimension;
    r.forwardBufferSize = th::numel(th::ref(finput.get()));
    THNN_KERNEL(T, SpatialDilatedConvolution_updateGradInput)
    (nullptr, in.get(), gradOut.get(), gradIn.get(), w.get(), fgradInput.get(), s.kW, s.kH, s.dW, s.dH, s.padW, s.padH,
     s.dilationW, s.dilationH);
    r.backwardBufferDims = fgradInput->nDimension;
    THNN_KERNEL(T, SpatialDilatedConvolution_accGradParameters)
    (nullptr, in.get(), gradOut.get(), gw.get(), gradBias, finput.get(), nullptr, s.kW, s.kH, s.dW, s.dH, s.padW,
     s.padH, s.dilationW, s.dilationH, scale);
  }
  BOOST_TEST_REQUIRE(out->nDimension == (int)outputSizes(s).size());
  for (size_t d = 0; d < outputSizes(s).size(); d++) BOOST_TEST(out->size[d] == outputSizes(s)[d]);
  r.output = thnnt::values(out.get());
  r.gradInput = thnnt::values(gradIn.get());
  r.gradWeight = thnnt::values(gw.get());
  r.gradBias = thnnt::values(gb.get());
  return r;
}

// |got - want| <= 1e-4 max|want| elementwise: float sums of up to 10^5 products.
void expectClose(const std::vector<double> &got, const std::vector<double> &want, const std::string &what) {
  BOOST_TEST_REQUIRE(got.size() == want.size(), what << ": " << got.size() << " values, want " << want.size());
  double scale = 0;
  for (double x : want) scale = std::max(scale, std::fabs(x));
  const double diff = thnnt::maxAbsDiff(got, want);
  BOOST_TEST(diff <= 1e-4 * std::max(scale, 1e-3), what << ": max |difference| " << diff << ", max |value| " << scale);
}

// Sets THNN_CONV_IM2COL=1 while it lives.
struct ForceIm2col {
  ForceIm2col() { setenv("THNN_CONV_IM2COL", "1", 1); }
  ~ForceIm2col() { unsetenv("THNN_CONV_IM2COL"); }
};

// Runs with n OpenMP threads while it lives.
struct Threads {
  int saved = omp_get_max_threads();
  explicit Threads(int n) { omp_set_num_threads(n); }
  ~Threads() { omp_set_num_threads(saved); }
};

// The float kernel on oneDNN against the double kernel on im2col.
void check(Kernel kernel, const Shape &s, int threads, unsigned seed = 1) {
  const std::string what =
      std::string(s.name) + (kernel == Kernel::MM ? " MM" : " Dilated") + ", " + std::to_string(threads) + " threads";
  BOOST_TEST_CONTEXT(what) {
    const Values v(s, seed);
    const Results want = run<double>(kernel, s, v, 0.5);
    Threads t(threads);
    const Results got = run<float>(kernel, s, v, 0.5);
    if (s.kH == 1 && s.kW == 1 && threads == 1) {  // im2col; a 1x1 kernel with stride 1, no padding unfolds nothing
      if (s.dH > 1 || s.dW > 1) {                  // but a strided one's forward is oneDNN's
        BOOST_TEST(got.forwardBufferDims == 1);
        BOOST_TEST(got.backwardBufferDims != 1);
      } else if (s.padH == 0 && s.padW == 0) {
        BOOST_TEST(got.forwardBufferSize == 0);
      } else {
        BOOST_TEST(got.forwardBufferDims == (s.B == 0 ? 2 : 3));
      }
    } else {
      BOOST_TEST(got.forwardBufferDims == 1);  // oneDNN's scratch: oneDNN ran
      BOOST_TEST(got.backwardBufferDims == 1);
    }
    expectClose(got.output, want.output, what + " output");
    expectClose(got.gradInput, want.gradInput, what + " gradInput");
    expectClose(got.gradWeight, want.gradWeight, what + " gradWeight");
    if (s.bias) expectClose(got.gradBias, want.gradBias, what + " gradBias");
  }
}

// The benchmark's shapes (bench/conv2d_vs_pytorch.py), and odd ones.
const std::vector<Shape> &shapes() {
  static const std::vector<Shape> all = {
      {"16x64x32x32 64->64 3x3 pad 1", 16, 64, 32, 32, 64, 3, 3, 1, 1, 1, 1},
      {"64x3x32x32 3->16 3x3 pad 1", 64, 3, 32, 32, 16, 3, 3, 1, 1, 1, 1},
      {"1x64x56x56 64->64 3x3 pad 1", 1, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1},
      // one image: weight gradients cut by output planes, the last cut not a multiple of 16
      {"1x8x10x10 8->40 3x3 pad 1", 1, 8, 10, 10, 40, 3, 3, 1, 1, 1, 1},
      {"16x128x16x16 128->256 3x3 stride 2 pad 1", 16, 128, 16, 16, 256, 3, 3, 2, 2, 1, 1},
      {"1x3x224x224 3->64 3x3 stride 2 pad 1", 1, 3, 224, 224, 64, 3, 3, 2, 2, 1, 1},
      {"16x64x32x32 64->128 1x1", 16, 64, 32, 32, 128, 1, 1},
      {"64x32x16x16 32->64 1x1 stride 2", 64, 32, 16, 16, 64, 1, 1, 2, 2},
      {"1x256x14x14 256->256 1x1", 1, 256, 14, 14, 256, 1, 1},
      {"1x1x1x1 1->1 1x1", 1, 1, 1, 1, 1, 1, 1},
      {"3-D 3x7x9 3->5 3x2 stride 2x1 pad 1x0", 0, 3, 7, 9, 5, 3, 2, 2, 1, 1, 0},
      {"2x7x11x11 7->13 5x5 stride 3 pad 2", 2, 7, 11, 11, 13, 5, 5, 3, 3, 2, 2},
      {"kernel wider than the input 3x4x2x3 4->6 3x3 pad 1", 3, 4, 2, 3, 6, 3, 3, 1, 1, 1, 1},
      {"no bias 4x9x10x6 9->17 3x3 stride 2x1", 4, 9, 10, 6, 17, 3, 3, 2, 1, 0, 0, 1, 1, false},
      {"non-contiguous 2x5x9x8 5->8 3x3 pad 1", 2, 5, 9, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true},
      {"2-D weight 3x6x8x8 6->10 3x3", 3, 6, 8, 8, 10, 3, 3, 1, 1, 0, 0, 1, 1, true, false, true},
      {"1x9 kernel 2x16x5x20 16->24 pad 0x4", 2, 16, 5, 20, 24, 1, 9, 1, 1, 0, 4},
  };
  return all;
}

}  // namespace

// The forward and backward-data passes run on the threads the machine can give (Note [oneDNN
// convolution]): their results must not depend on the count. With TH_USABLE_THREADS=all (set
// before the first call, by the fixture below) the two runs do use 1 and 2 threads.
struct AllThreadsUsable {
  AllThreadsUsable() { setenv("TH_USABLE_THREADS", "all", 1); }
};
BOOST_TEST_GLOBAL_FIXTURE(AllThreadsUsable);

BOOST_AUTO_TEST_CASE(forward_and_backward_data_same_bits_at_1_and_2_threads) {
  for (const Shape &s : shapes()) {
    if (s.kH == 1 && s.kW == 1) continue;  // on one thread these take the im2col path
    BOOST_TEST_CONTEXT(s.name) {
      const Values v(s, 7);
      Results one, two;
      {
        Threads t(1);
        one = run<float>(Kernel::MM, s, v, 1.0);
      }
      {
        Threads t(2);
        two = run<float>(Kernel::MM, s, v, 1.0);
      }
      BOOST_TEST(one.forwardBufferDims == 1);  // oneDNN ran both times
      BOOST_TEST(two.forwardBufferDims == 1);
      BOOST_TEST(one.output == two.output, "output");
      BOOST_TEST(one.gradInput == two.gradInput, "gradInput");
    }
  }
}

BOOST_AUTO_TEST_CASE(mm_against_double_im2col) {
  for (int threads : {1, 2})
    for (const Shape &s : shapes()) check(Kernel::MM, s, threads);
}

BOOST_AUTO_TEST_CASE(dilated_against_double_im2col) {
  std::vector<Shape> dilated = {
      {"dilation 2 2x8x12x12 8->16 3x3 pad 2", 2, 8, 12, 12, 16, 3, 3, 1, 1, 2, 2, 2, 2},
      {"dilation 3x2 stride 2 3x5x15x11 5->7 3x2 pad 1x3", 3, 5, 15, 11, 7, 3, 2, 2, 2, 1, 3, 3, 2},
      {"dilation 2 3-D 4x9x9 4->3 2x2 no bias", 0, 4, 9, 9, 3, 2, 2, 1, 1, 0, 0, 2, 2, false},
  };
  for (int threads : {1, 2}) {
    for (const Shape &s : dilated) check(Kernel::Dilated, s, threads);
    for (size_t i = 0; i < 4; i++) check(Kernel::Dilated, shapes()[i], threads);
  }
}

// More shapes than the plan cache holds, twice over: evicted plans are built again, kept ones
// reused, and every call still computes its own shape.
BOOST_AUTO_TEST_CASE(many_shapes_through_the_plan_cache) {
  for (int round = 0; round < 2; round++)
    for (int64_t h = 3; h < 3 + 70; h += round + 1) {
      const std::string name = "2x3x" + std::to_string(h) + "x5 3->4 3x3";
      const Shape s{name.c_str(), 2, 3, h, 5, 4, 3, 3, 1, 1, 0, 1};
      check(Kernel::MM, s, 1, (unsigned)h);
    }
}

// THNN_CONV_IM2COL=1 takes the im2col path in float too (finput holds the unfolded input),
// with the same results.
BOOST_AUTO_TEST_CASE(environment_forces_im2col) {
  const Shape s{"2x6x9x9 6->8 3x3 pad 1", 2, 6, 9, 9, 8, 3, 3, 1, 1, 1, 1};
  const Values v(s, 7);
  const Results want = run<double>(Kernel::MM, s, v, 2.0);
  ForceIm2col im2col;
  const Results got = run<float>(Kernel::MM, s, v, 2.0);
  BOOST_TEST(got.forwardBufferDims == 3);
  BOOST_TEST(got.backwardBufferDims == 3);
  expectClose(got.output, want.output, "output");
  expectClose(got.gradInput, want.gradInput, "gradInput");
  expectClose(got.gradWeight, want.gradWeight, "gradWeight");
  expectClose(got.gradBias, want.gradBias, "gradBias");
}

// SpatialConvolutionMM's accGradParameters on the im2col path after a oneDNN updateOutput:
// finput is oneDNN's scratch, not the unfolded input, so the input is unfolded again.
BOOST_AUTO_TEST_CASE(mm_im2col_gradients_after_dnnl_forward) {
  const Shape s{"3x4x7x8 4->5 3x3 stride 2", 3, 4, 7, 8, 5, 3, 3, 2, 2, 0, 0};
  const Values v(s, 11);
  const Results want = run<double>(Kernel::MM, s, v, 1.0);
  auto in = makeTensor<float>(inputSizes(s), v.input), w = makeTensor<float>({5, 4, 3, 3}, v.weight);
  auto b = makeTensor<float>({5}, v.bias), gw = makeTensor<float>({5, 4, 3, 3}, v.gradWeight);
  auto gb = makeTensor<float>({5}, v.gradBias), gradOut = makeTensor<float>(outputSizes(s), v.gradOutput);
  auto out = th::own(THFloatTensor_new()), finput = th::own(THFloatTensor_new());
  auto fgradInput = th::own(THFloatTensor_new());
  THNN_FloatSpatialConvolutionMM_updateOutput(nullptr, in.get(), out.get(), w.get(), b.get(), finput.get(),
                                              fgradInput.get(), 3, 3, 2, 2, 0, 0);
  BOOST_TEST(finput->nDimension == 1);
  ForceIm2col im2col;
  THNN_FloatSpatialConvolutionMM_accGradParameters(nullptr, in.get(), gradOut.get(), gw.get(), gb.get(), finput.get(),
                                                   fgradInput.get(), 3, 3, 2, 2, 0, 0, 1.0);
  BOOST_TEST(finput->nDimension == 3);
  expectClose(thnnt::values(out.get()), want.output, "output");
  expectClose(thnnt::values(gw.get()), want.gradWeight, "gradWeight");
  expectClose(thnnt::values(gb.get()), want.gradBias, "gradBias");
}

// Bad arguments raise before oneDNN is reached, and leave the tensors alone.
BOOST_AUTO_TEST_CASE(bad_arguments_float) {
  auto in = thnnt::randomTensor<float>({2, 3, 7, 6}, 1), w = thnnt::randomTensor<float>({5, 4, 3, 3}, 2);
  auto out = thnnt::randomTensor<float>({2, 2}, 3);
  auto finput = th::own(THFloatTensor_new()), fgradInput = th::own(THFloatTensor_new());
  const auto before = thnnt::values(out);
  BOOST_CHECK_EXCEPTION(
      THNN_FloatSpatialConvolutionMM_updateOutput(nullptr, in, out, w, nullptr, finput.get(), fgradInput.get(), 3, 3, 1,
                                                  1, 0, 0),
      th::Error, [](const th::Error &e) { return std::string(e.what()).find("expects 4") != std::string::npos; });
  BOOST_TEST(thnnt::values(out) == before);
  BOOST_TEST(finput->nDimension <= 1);
  BOOST_TEST(THFloatTensor_nElement(finput.get()) == 0);
  THFloatTensor_free(in);
  THFloatTensor_free(w);
  THFloatTensor_free(out);
}
