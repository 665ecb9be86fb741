// The CPU column of the NN kernels: THNN's (Note [NN kernel grammar] in core/ops/NNKernels.h),
// and our own loops where THNN has none.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THVector.h"
#include "THNN/THNN.h"
#include "THNN/dnnl/Convolution.hpp"
#include "core/ops/LinalgKernels.h"
#include "core/ops/MapActivations.hpp"
#include "core/ops/NNKernels.h"
#include "core/ops/Random.h"

namespace torch::cpu {

namespace {

// NN<T>: THNN's kernels of element type T as static members (THNN_FloatThreshold_updateOutput
// for T = float), as TH<T> does for TH.
template <typename T>
struct NN;

// clang-format off
#define TORCH_NN_FNS(_, R)                                                                                      \
  _(R, Threshold_updateOutput) _(R, Threshold_updateGradInput) _(R, HardTanh_updateOutput)                       \
  _(R, HardTanh_updateGradInput) _(R, LeakyReLU_updateOutput) _(R, LeakyReLU_updateGradInput)                    \
  _(R, PReLU_updateOutput) _(R, PReLU_updateGradInput) _(R, PReLU_accGradParameters) _(R, RReLU_updateOutput)    \
  _(R, RReLU_updateGradInput) _(R, ELU_updateOutput) _(R, ELU_updateGradInput) _(R, SoftPlus_updateOutput)       \
  _(R, SoftPlus_updateGradInput) _(R, SoftShrink_updateOutput) _(R, SoftShrink_updateGradInput)                  \
  _(R, HardShrink_updateOutput) _(R, HardShrink_updateGradInput) _(R, LogSigmoid_updateOutput)                   \
  _(R, LogSigmoid_updateGradInput) _(R, SoftMax_updateOutput) _(R, SoftMax_updateGradInput)                      \
  _(R, LogSoftMax_updateOutput) _(R, LogSoftMax_updateGradInput) _(R, AbsCriterion_updateOutput)                 \
  _(R, AbsCriterion_updateGradInput) _(R, MSECriterion_updateOutput) _(R, MSECriterion_updateGradInput)          \
  _(R, SmoothL1Criterion_updateOutput) _(R, SmoothL1Criterion_updateGradInput)                                   \
  _(R, SoftMarginCriterion_updateOutput) _(R, SoftMarginCriterion_updateGradInput)                               \
  _(R, DistKLDivCriterion_updateOutput) _(R, DistKLDivCriterion_updateGradInput)                                 \
  _(R, ClassNLLCriterion_updateOutput) _(R, ClassNLLCriterion_updateGradInput)                                   \
  _(R, SpatialClassNLLCriterion_updateOutput) _(R, SpatialClassNLLCriterion_updateGradInput)                     \
  _(R, MultiLabelMarginCriterion_updateOutput) _(R, MultiLabelMarginCriterion_updateGradInput)                   \
  _(R, MultiMarginCriterion_updateOutput) _(R, MultiMarginCriterion_updateGradInput) _(R, Linear_updateOutput)   \
  _(R, Linear_updateGradInput) _(R, Linear_accGradParameters) _(R, Bilinear_updateOutput)                        \
  _(R, Bilinear_updateGradInput) _(R, Bilinear_accGradParameters) _(R, BatchNormalization_updateOutput)          \
  _(R, BatchNormalization_backward) _(R, LayerNormalization_updateOutput) _(R, LayerNormalization_backward) _(R, LookupTable_updateOutput) _(R, LookupTable_accGradParameters)           \
  _(R, LookupTable_renorm) _(R, SpatialDilatedConvolution_updateOutput)                                          \
  _(R, SpatialDilatedConvolution_updateGradInput) _(R, SpatialDilatedConvolution_accGradParameters)              \
  _(R, SpatialFullDilatedConvolution_updateOutput) _(R, SpatialFullDilatedConvolution_updateGradInput)           \
  _(R, SpatialFullDilatedConvolution_accGradParameters) _(R, VolumetricDilatedConvolution_updateOutput)          \
  _(R, VolumetricDilatedConvolution_updateGradInput) _(R, VolumetricDilatedConvolution_accGradParameters)        \
  _(R, VolumetricFullConvolution_updateOutput) _(R, VolumetricFullConvolution_updateGradInput)                   \
  _(R, VolumetricFullConvolution_accGradParameters) _(R, SpatialDilatedMaxPooling_updateOutput)                  \
  _(R, SpatialDilatedMaxPooling_updateGradInput) _(R, VolumetricDilatedMaxPooling_updateOutput)                  \
  _(R, VolumetricDilatedMaxPooling_updateGradInput) _(R, SpatialAveragePooling_updateOutput)                     \
  _(R, SpatialAveragePooling_updateGradInput) _(R, VolumetricAveragePooling_updateOutput)                        \
  _(R, VolumetricAveragePooling_updateGradInput) _(R, SpatialAdaptiveMaxPooling_updateOutput)                    \
  _(R, SpatialAdaptiveMaxPooling_updateGradInput) _(R, SpatialAdaptiveAveragePooling_updateOutput)               \
  _(R, SpatialAdaptiveAveragePooling_updateGradInput) _(R, SpatialMaxUnpooling_updateOutput)                     \
  _(R, SpatialMaxUnpooling_updateGradInput) _(R, VolumetricMaxUnpooling_updateOutput)                            \
  _(R, VolumetricMaxUnpooling_updateGradInput) _(R, SpatialUpSamplingNearest_updateOutput)                       \
  _(R, SpatialUpSamplingNearest_updateGradInput) _(R, VolumetricUpSamplingNearest_updateOutput)                  \
  _(R, VolumetricUpSamplingNearest_updateGradInput) _(R, SpatialUpSamplingBilinear_updateOutput)                 \
  _(R, SpatialUpSamplingBilinear_updateGradInput) _(R, VolumetricUpSamplingTrilinear_updateOutput)               \
  _(R, VolumetricUpSamplingTrilinear_updateGradInput) _(R, SpatialReflectionPadding_updateOutput)                \
  _(R, SpatialReflectionPadding_updateGradInput) _(R, SpatialReplicationPadding_updateOutput)                    \
  _(R, SpatialReplicationPadding_updateGradInput) _(R, VolumetricReplicationPadding_updateOutput)                \
  _(R, VolumetricReplicationPadding_updateGradInput) _(R, SpatialGridSamplerBilinear_updateOutput)               \
  _(R, SpatialGridSamplerBilinear_updateGradInput)
// clang-format on

#define TORCH_NN_MEMBER(R, name) static constexpr auto name = &THNN_##R##name;
template <>
struct NN<float> {
  TORCH_NN_FNS(TORCH_NN_MEMBER, Float)
};
template <>
struct NN<double> {
  TORCH_NN_FNS(TORCH_NN_MEMBER, Double)
};
#undef TORCH_NN_MEMBER
#undef TORCH_NN_FNS

// The TH tensor of t, or NULL for an undefined (optional) tensor.
template <typename T>
typename TH<T>::Tensor *thOrNull(const Tensor &t) {
  return t.defined() ? t.th<T>() : nullptr;
}
THLongTensor *thLong(const Tensor &t) { return t.th<int64_t>(); }

template <typename T>
T *dataOf(const Tensor &t) {
  return reinterpret_cast<T *>(t.dataPtr());
}

constexpr int64_t kParallelGrain = 32768;  // TH's OpenMP threshold

// ---- linear maps ----

template <typename T>
void linearOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                  const Tensor &addBuffer) {
  NN<T>::Linear_updateOutput(nullptr, input.th<T>(), output.th<T>(), weight.th<T>(), thOrNull<T>(bias),
                             addBuffer.th<T>());
}
// BFloat16: the product on oneDNN (Note [bfloat16 products on oneDNN]), the bias added in
// float, rounded once; through float where oneDNN declines.
void linearOutputBfloat16(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                          const Tensor &addBuffer) {
  Tensor f = input.dim() == 2 ? bfloat16ProductInFloat(input, transpose(weight, 0, 1)) : Tensor();
  if (!f.defined()) {
    ThroughFloat<&linearOutput<float>>::call(input, output, weight, bias, addBuffer);
    return;
  }
  if (bias.defined()) {
    Tensor b = widenToFloat(contiguous(bias));
    float *out = reinterpret_cast<float *>(f.dataPtr());
    const float *add = reinterpret_cast<const float *>(b.dataPtr());
    const int64_t rows = f.size(0), cols = f.size(1);
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) out[i * cols + j] += add[j];
  }
  roundInto(output, f);
}

template <typename T>
void linearGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight) {
  NN<T>::Linear_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), weight.th<T>());
}
template <typename T>
void linearAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &weight, const Tensor &bias,
                   const Tensor &gradWeight, const Tensor &gradBias, const Tensor &addBuffer, double scale) {
  NN<T>::Linear_accGradParameters(nullptr, input.th<T>(), gradOutput.th<T>(), nullptr, weight.th<T>(),
                                  thOrNull<T>(bias), gradWeight.th<T>(), thOrNull<T>(gradBias), addBuffer.th<T>(),
                                  scale);
}

template <typename T>
void bilinearOutput(const Tensor &input1, const Tensor &input2, const Tensor &output, const Tensor &weight,
                    const Tensor &bias, const Tensor &buffer) {
  NN<T>::Bilinear_updateOutput(nullptr, input1.th<T>(), input2.th<T>(), output.th<T>(), weight.th<T>(),
                               thOrNull<T>(bias), buffer.th<T>());
}
template <typename T>
void bilinearGradInput(const Tensor &input1, const Tensor &input2, const Tensor &gradOutput, const Tensor &gradInput1,
                       const Tensor &gradInput2, const Tensor &weight, const Tensor &buffer) {
  NN<T>::Bilinear_updateGradInput(nullptr, input1.th<T>(), input2.th<T>(), gradOutput.th<T>(), thOrNull<T>(gradInput1),
                                  thOrNull<T>(gradInput2), weight.th<T>(), buffer.th<T>());
}
template <typename T>
void bilinearAccGrad(const Tensor &input1, const Tensor &input2, const Tensor &gradOutput, const Tensor &gradWeight,
                     const Tensor &gradBias, const Tensor &buffer, double scale) {
  NN<T>::Bilinear_accGradParameters(nullptr, input1.th<T>(), input2.th<T>(), gradOutput.th<T>(), gradWeight.th<T>(),
                                    thOrNull<T>(gradBias), buffer.th<T>(), scale);
}

// ---- THNN's activations ----

template <typename T>
void hardtanhOutput(const Tensor &input, const Tensor &output, double minVal, double maxVal) {
  NN<T>::HardTanh_updateOutput(nullptr, input.th<T>(), output.th<T>(), minVal, maxVal, false);
}
template <typename T>
void hardtanhGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double minVal,
                       double maxVal) {
  NN<T>::HardTanh_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), minVal, maxVal, false);
}
template <typename T>
void leakyReluOutput(const Tensor &input, const Tensor &output, double slope, double) {
  NN<T>::LeakyReLU_updateOutput(nullptr, input.th<T>(), output.th<T>(), slope, false);
}
template <typename T>
void leakyReluGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double slope, double) {
  NN<T>::LeakyReLU_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), slope, false);
}
template <typename T>
void softshrinkOutput(const Tensor &input, const Tensor &output, double lambda, double) {
  NN<T>::SoftShrink_updateOutput(nullptr, input.th<T>(), output.th<T>(), lambda);
}
template <typename T>
void softshrinkGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double lambda,
                         double) {
  NN<T>::SoftShrink_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), lambda);
}
template <typename T>
void softplusOutput(const Tensor &input, const Tensor &output, double beta, double threshold) {
  NN<T>::SoftPlus_updateOutput(nullptr, input.th<T>(), output.th<T>(), beta, threshold);
}
template <typename T>
void softplusGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &output,
                       double beta, double threshold) {
  NN<T>::SoftPlus_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), output.th<T>(), beta,
                                  threshold);
}
template <typename T>
void preluOutput(const Tensor &input, const Tensor &output, const Tensor &weight) {
  NN<T>::PReLU_updateOutput(nullptr, input.th<T>(), output.th<T>(), weight.th<T>());
}
template <typename T>
void preluGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight) {
  NN<T>::PReLU_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), weight.th<T>());
}
template <typename T>
void preluAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &weight, const Tensor &gradWeight,
                  double scale) {
  NN<T>::PReLU_accGradParameters(nullptr, input.th<T>(), gradOutput.th<T>(), nullptr, weight.th<T>(),
                                 gradWeight.th<T>(), scale);
}
template <typename T>
void rreluOutput(const Tensor &input, const Tensor &output, const Tensor &noise, double lower, double upper,
                 bool training) {
  Generator::defaultGenerator().with([&](THGenerator *gen) {
    NN<T>::RReLU_updateOutput(nullptr, input.th<T>(), output.th<T>(), noise.th<T>(), lower, upper, training, false,
                              gen);
  });
}
template <typename T>
void rreluGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &noise,
                    double lower, double upper, bool training) {
  NN<T>::RReLU_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), noise.th<T>(), lower,
                               upper, training, false);
}
template <typename T>
void logSigmoidOutput(const Tensor &input, const Tensor &output, const Tensor &buffer) {
  NN<T>::LogSigmoid_updateOutput(nullptr, input.th<T>(), output.th<T>(), buffer.th<T>());
}
template <typename T>
void logSigmoidGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &buffer) {
  NN<T>::LogSigmoid_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), buffer.th<T>());
}
template <typename T>
void softmaxOutput(const Tensor &input, const Tensor &output) {
  NN<T>::SoftMax_updateOutput(nullptr, input.th<T>(), output.th<T>());
}
template <typename T>
void softmaxGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &output) {
  NN<T>::SoftMax_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), output.th<T>());
}
template <typename T>
void logSoftmaxOutput(const Tensor &input, const Tensor &output) {
  NN<T>::LogSoftMax_updateOutput(nullptr, input.th<T>(), output.th<T>());
}
template <typename T>
void logSoftmaxGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &output) {
  NN<T>::LogSoftMax_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), output.th<T>());
}

// ---- our own element-wise activations: y = f(x), with derivative df(x) ----
// (formulas in core/ops/MapActivations.hpp, shared with the GPU's kernels)
using namespace torch::activation;

// Note [Activations in vector blocks]: the smooth activations spend their time in exp, expm1,
// erf, tanh, sigmoid and log1p; one element at a time through libm they ran 5-15x slower than
// PyTorch 1.13. Where TH has vector kernels for the processor (Note [Vector kernels]: SLEEF,
// 1 ulp), the map kernels run them in blocks of kBlock elements instead (and THNN's SoftPlus
// and LogSigmoid, THNN/ElementWise.hpp): the formula as a few
// passes over buffers that stay in the L1 cache, each pass a loop the compiler vectorises or
// one of TH's vector kernels. Results stay within a few ulps of the scalar formulas, which
// remain for other processors (and the GPU). Blocks<A>::f(x, y, n, a, t) writes f over n
// elements to y, df(x, d, n, a, t) the derivative to d; t is scratch of 2 * kBlock.
using th::vec::kBlock;
using th::vec::Unary;

template <typename T>
void vecOp(Unary op, T *out, const T *in, int64_t n) {
  th::vec::unary<T>(op)(out, in, n);
}

template <typename A>
struct Blocks : std::false_type {};  // no block form: the element-wise loop

template <>
struct Blocks<Silu> : std::true_type {
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double, T *t) {
    vecOp(Unary::Sigmoid, t, x, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = x[i] * t[i];
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double, T *t) {
    vecOp(Unary::Sigmoid, t, x, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) d[i] = t[i] * (T(1) + x[i] * (T(1) - t[i]));
  }
};

template <>
struct Blocks<Selu> : std::true_type {
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double, T *t) {
    vecOp(Unary::Expm1, t, x, n);
    const T scale = T(kSeluScale), alpha = T(kSeluAlpha);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = scale * pick(x[i] > T(0), x[i], alpha * t[i]);
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double, T *t) {
    vecOp(Unary::Exp, t, x, n);
    const T scale = T(kSeluScale), scaleAlpha = T(kSeluScale * kSeluAlpha);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) d[i] = pick(x[i] > T(0), scale, scaleAlpha * t[i]);
  }
};

template <>
struct Blocks<Elu> : std::true_type {
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double alpha, T *t) {
    vecOp(Unary::Expm1, t, x, n);
    const T al = T(alpha);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = pick(x[i] > T(0), x[i], al * t[i]);
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double alpha, T *t) {
    vecOp(Unary::Exp, t, x, n);
    const T al = T(alpha);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) d[i] = pick(x[i] > T(0), T(1), al * t[i]);
  }
};

template <>
struct Blocks<Celu> : std::true_type {
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double alpha, T *t) {
    const T al = T(alpha);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) t[i] = x[i] / al;
    vecOp(Unary::Expm1, t, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = pick(x[i] > T(0), x[i], al * t[i]);
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double alpha, T *t) {
    const T al = T(alpha);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) t[i] = x[i] / al;
    vecOp(Unary::Exp, t, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) d[i] = pick(x[i] > T(0), T(1), t[i]);
  }
};

// x Phi(x) and its derivative, each one pass of a TH kernel (Note [GELU in one pass] in
// TH/vector/VectorKernels.hpp)
template <>
struct Blocks<Gelu> : std::true_type {
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double, T *) {
    th::vec::gelu<T>()(y, x, n);
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double, T *) {
    th::vec::geluDerivative<T>()(d, x, n);
  }
};

template <>
struct Blocks<GeluTanh> : std::true_type {
  template <typename T>
  static void inner(const T *x, T *t, int64_t n) {  // tanh(sqrt(2/pi) (x + 0.044715 x^3))
#pragma omp simd
    for (int64_t i = 0; i < n; i++) t[i] = T(kSqrt2OverPi) * (x[i] + T(kGeluCubic) * x[i] * x[i] * x[i]);
    vecOp(Unary::Tanh, t, t, n);
  }
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double, T *t) {
    inner(x, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = T(0.5) * x[i] * (T(1) + t[i]);
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double, T *t) {
    inner(x, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) {
      const T du = T(kSqrt2OverPi) * (T(1) + T(3 * kGeluCubic) * x[i] * x[i]);
      d[i] = T(0.5) * (T(1) + t[i]) + T(0.5) * x[i] * (T(1) - t[i] * t[i]) * du;
    }
  }
};

template <>
struct Blocks<Mish> : std::true_type {
  template <typename T>
  static void tanhSoftplus(const T *x, T *t, int64_t n) {  // tanh(softplus(x)), softplus = x past 20
    vecOp(Unary::Exp, t, x, n);
    vecOp(Unary::Log1p, t, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) t[i] = pick(x[i] > T(20), x[i], t[i]);
    vecOp(Unary::Tanh, t, t, n);
  }
  template <typename T>
  static void f(const T *x, T *y, int64_t n, double, T *t) {
    tanhSoftplus(x, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = x[i] * t[i];
  }
  template <typename T>
  static void df(const T *x, T *d, int64_t n, double, T *t) {
    T *s = t + kBlock;
    tanhSoftplus(x, t, n);
    vecOp(Unary::Sigmoid, s, x, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) d[i] = t[i] + x[i] * s[i] * (T(1) - t[i] * t[i]);
  }
};

// Whether activation A runs in vector blocks for T here.
template <typename A, typename T>
bool inBlocks() {
  if constexpr (Blocks<A>::value && (std::is_same_v<T, float> || std::is_same_v<T, double>))
    return th::vec::unary<T>(Unary::Exp) != nullptr;  // the vector sets have every kernel or none
  else
    return false;
}

// The loops of one thread's range, cloned per instruction set (Note [Loops cloned per
// instruction set] in TH/THGeneral.h): in vector blocks, or element by element, where simd
// makes the piecewise formulas vector blends (Note [Selects without branches]).
template <typename A, typename T>
TH_CLONES_PER_ISA void blockOutput(const T *in, T *out, int64_t n, double a) {
  alignas(64) T scratch[2 * kBlock];
  for (int64_t at = 0; at < n; at += kBlock) Blocks<A>::f(in + at, out + at, std::min(kBlock, n - at), a, scratch);
}
template <typename A, typename T>
TH_CLONES_PER_ISA void elementOutput(const T *in, T *out, int64_t n, double a) {
#pragma omp simd
  for (int64_t i = 0; i < n; i++) out[i] = A::f(in[i], a);
}
template <typename A, typename T>
TH_CLONES_PER_ISA void blockGradInput(const T *in, const T *go, T *gi, int64_t n, double a) {
  alignas(64) T scratch[2 * kBlock], d[kBlock];
  for (int64_t at = 0; at < n; at += kBlock) {
    const int64_t m = std::min(kBlock, n - at);
    Blocks<A>::df(in + at, d, m, a, scratch);
#pragma omp simd
    for (int64_t i = 0; i < m; i++) gi[at + i] = pick(d[i] == T(0), T(0), go[at + i] * d[i]);
  }
}
template <typename A, typename T>
TH_CLONES_PER_ISA void elementGradInput(const T *in, const T *go, T *gi, int64_t n, double a) {
#pragma omp simd
  for (int64_t i = 0; i < n; i++) {
    const T d = A::df(in[i], a);
    gi[i] = pick(d == T(0), T(0), go[i] * d);  // Note [Selects without branches]
  }
}

// Both run over the threads the machine can give (th::detail::parallelFor, Note [Threads the
// machine can give] in TH/THGeneral.cpp): each element's value is its own, so the count does
// not change the result, and a region of every asked-for thread waited, beside a busy core,
// for the descheduled one (an MLP step went from 5 to 28 ms at two threads).
template <typename A, typename T>
void mapOutput(const Tensor &input, const Tensor &output, double a) {
  const T *in = dataOf<T>(input);
  T *out = dataOf<T>(output);
  const bool blocks = inBlocks<A, T>();
  th::detail::parallelFor(input.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
    if constexpr (Blocks<A>::value)
      if (blocks) return blockOutput<A>(in + begin, out + begin, end - begin, a);
    elementOutput<A>(in + begin, out + begin, end - begin, a);
  });
}
template <typename A, typename T>
void mapGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double a) {
  const T *in = dataOf<T>(input);
  const T *go = dataOf<T>(gradOutput);
  T *gi = dataOf<T>(gradInput);
  const bool blocks = inBlocks<A, T>();
  th::detail::parallelFor(input.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
    if constexpr (Blocks<A>::value)
      if (blocks) return blockGradInput<A>(in + begin, go + begin, gi + begin, end - begin, a);
    elementGradInput<A>(in + begin, go + begin, gi + begin, end - begin, a);
  });
}

// The kernels of activation A, as templates of the element type alone (for TORCH_TEMPLATE).
template <typename A>
struct Map {
  template <typename T>
  static void output(const Tensor &input, const Tensor &output, double a) {
    mapOutput<A, T>(input, output, a);
  }
  template <typename T>
  static void gradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double a) {
    mapGradInput<A, T>(input, gradOutput, gradInput, a);
  }
};

template <typename A>
void fillMap(NNModule<MapOutput, MapGradInput> &m) {
  fill(m.updateOutput, TORCH_TEMPLATE(Map<A>::template output));
  fill(m.updateGradInput, TORCH_TEMPLATE(Map<A>::template gradInput));
}

// ---- losses ----

// THNN's element-wise criterion K's kernels for T (they share one signature).
#define TORCH_NN_CRITERION(K)                                                                                      \
  template <typename T>                                                                                            \
  void K##Output(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage, bool reduce) { \
    NN<T>::K##_updateOutput(nullptr, input.th<T>(), target.th<T>(), output.th<T>(), sizeAverage, reduce);          \
  }                                                                                                                \
  template <typename T>                                                                                            \
  void K##GradInput(const Tensor &input, const Tensor &target, const Tensor &gradOutput, const Tensor &gradInput,  \
                    bool sizeAverage, bool reduce) {                                                               \
    NN<T>::K##_updateGradInput(nullptr, input.th<T>(), target.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),      \
                               sizeAverage, reduce);                                                               \
  }
TORCH_NN_CRITERION(AbsCriterion)
TORCH_NN_CRITERION(MSECriterion)
TORCH_NN_CRITERION(SmoothL1Criterion)
TORCH_NN_CRITERION(SoftMarginCriterion)
TORCH_NN_CRITERION(DistKLDivCriterion)
#undef TORCH_NN_CRITERION

template <typename T>
void classNLLOutput(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage,
                    const Tensor &weights, const Tensor &totalWeight, int64_t ignoreIndex, bool reduce) {
  auto kernel = input.dim() == 4 ? NN<T>::SpatialClassNLLCriterion_updateOutput : NN<T>::ClassNLLCriterion_updateOutput;
  kernel(nullptr, input.th<T>(), thLong(target), output.th<T>(), sizeAverage, thOrNull<T>(weights), totalWeight.th<T>(),
         ignoreIndex, reduce);
}
template <typename T>
void classNLLGradInput(const Tensor &input, const Tensor &target, const Tensor &gradOutput, const Tensor &gradInput,
                       bool sizeAverage, const Tensor &weights, const Tensor &totalWeight, int64_t ignoreIndex,
                       bool reduce) {
  auto kernel =
      input.dim() == 4 ? NN<T>::SpatialClassNLLCriterion_updateGradInput : NN<T>::ClassNLLCriterion_updateGradInput;
  kernel(nullptr, input.th<T>(), thLong(target), gradOutput.th<T>(), gradInput.th<T>(), sizeAverage,
         thOrNull<T>(weights), totalWeight.th<T>(), ignoreIndex, reduce);
}
template <typename T>
void multiLabelMarginOutput(const Tensor &input, const Tensor &target, const Tensor &output, const Tensor &isTarget,
                            bool sizeAverage, bool reduce) {
  NN<T>::MultiLabelMarginCriterion_updateOutput(nullptr, input.th<T>(), thLong(target), output.th<T>(),
                                                isTarget.th<T>(), sizeAverage, reduce);
}
template <typename T>
void multiLabelMarginGradInput(const Tensor &input, const Tensor &target, const Tensor &gradOutput,
                               const Tensor &gradInput, const Tensor &isTarget, bool sizeAverage, bool reduce) {
  NN<T>::MultiLabelMarginCriterion_updateGradInput(nullptr, input.th<T>(), thLong(target), gradOutput.th<T>(),
                                                   gradInput.th<T>(), isTarget.th<T>(), sizeAverage, reduce);
}
template <typename T>
void multiMarginOutput(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage, int p,
                       const Tensor &weights, double margin, bool reduce) {
  NN<T>::MultiMarginCriterion_updateOutput(nullptr, input.th<T>(), thLong(target), output.th<T>(), sizeAverage, p,
                                           thOrNull<T>(weights), margin, reduce);
}
template <typename T>
void multiMarginGradInput(const Tensor &input, const Tensor &target, const Tensor &gradOutput, const Tensor &gradInput,
                          bool sizeAverage, int p, const Tensor &weights, double margin, bool reduce) {
  NN<T>::MultiMarginCriterion_updateGradInput(nullptr, input.th<T>(), thLong(target), gradOutput.th<T>(),
                                              gradInput.th<T>(), sizeAverage, p, thOrNull<T>(weights), margin, reduce);
}

template <typename T>
void binaryCrossEntropyOutput(const Tensor &input, const Tensor &target, const Tensor &output) {
  const T *x = dataOf<T>(input);
  const T *y = dataOf<T>(target);
  T *out = dataOf<T>(output);
  const int64_t n = input.numel();
#pragma omp parallel for if (n > kParallelGrain) num_threads(THUsableThreads())
  for (int64_t i = 0; i < n; i++) {
    T logX = std::max(std::log(x[i]), T(-100)), log1mX = std::max(std::log(1 - x[i]), T(-100));
    out[i] = -(y[i] * logX + (1 - y[i]) * log1mX);
  }
}
template <typename T>
void binaryCrossEntropyGradInput(const Tensor &input, const Tensor &target, const Tensor &gradInput) {
  const T *x = dataOf<T>(input);
  const T *y = dataOf<T>(target);
  T *gi = dataOf<T>(gradInput);
  const int64_t n = input.numel();
#pragma omp parallel for if (n > kParallelGrain) num_threads(THUsableThreads())
  for (int64_t i = 0; i < n; i++) gi[i] = (x[i] - y[i]) / std::max((1 - x[i]) * x[i], T(1e-12));
}
template <typename T>
bool allProbabilities(const Tensor &input) {
  const T *p = dataOf<T>(input);
  for (int64_t i = 0; i < input.numel(); i++) {
    if (!(p[i] >= 0 && p[i] <= 1)) return false;
  }
  return true;
}

// ---- CTC ----

double logAdd(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// One sample of the CTC loss: lp(t, c) reads its log-probabilities, labels its target.
// Returns -log p(target | input); when grad is given (a [T, C] block, stride C between
// steps), adds factor * d loss / d lp(t, c) to it.
template <typename LP>
double ctcSample(const LP &lp, const int64_t *labels, int64_t steps, int64_t length, int64_t blank, int64_t classes,
                 double *grad, int64_t gradStepStride, double factor) {
  if (steps == 0) return length == 0 ? 0 : INFINITY;
  const int64_t S = 2 * length + 1;  // the target with blanks around every label
  auto label = [&](int64_t s) { return s % 2 == 0 ? blank : labels[s / 2]; };
  // A path may skip the blank between s - 2 and s when their labels differ.
  auto canSkip = [&](int64_t s) { return s % 2 == 1 && s >= 2 && label(s) != label(s - 2); };
  std::vector<double> alpha(steps * S, -INFINITY);
  alpha[0] = lp(0, blank);
  if (S > 1) alpha[1] = lp(0, label(1));
  for (int64_t t = 1; t < steps; t++) {
    for (int64_t s = 0; s < S; s++) {
      double a = alpha[(t - 1) * S + s];
      if (s >= 1) a = logAdd(a, alpha[(t - 1) * S + s - 1]);
      if (canSkip(s)) a = logAdd(a, alpha[(t - 1) * S + s - 2]);
      alpha[t * S + s] = a == -INFINITY ? a : a + lp(t, label(s));
    }
  }
  double logLikelihood = alpha[(steps - 1) * S + S - 1];
  if (S > 1) logLikelihood = logAdd(logLikelihood, alpha[(steps - 1) * S + S - 2]);
  const double nll = -logLikelihood;
  if (!grad) return nll;

  std::vector<double> beta(steps * S, -INFINITY);
  beta[(steps - 1) * S + S - 1] = lp(steps - 1, blank);
  if (S > 1) beta[(steps - 1) * S + S - 2] = lp(steps - 1, label(S - 2));
  for (int64_t t = steps - 2; t >= 0; t--) {
    for (int64_t s = 0; s < S; s++) {
      double b = beta[(t + 1) * S + s];
      if (s + 1 < S) b = logAdd(b, beta[(t + 1) * S + s + 1]);
      if (s + 2 < S && canSkip(s + 2)) b = logAdd(b, beta[(t + 1) * S + s + 2]);
      beta[t * S + s] = b == -INFINITY ? b : b + lp(t, label(s));
    }
  }
  // alpha_t(s) beta_t(s) counts lp(t, label(s)) twice: the paths through label c at time t
  // have probability exp(lcab(c) - lp(t, c)), and d nll / d lp(t, c) is minus that over p.
  std::vector<double> lcab(classes);
  for (int64_t t = 0; t < steps; t++) {
    std::fill(lcab.begin(), lcab.end(), -INFINITY);
    for (int64_t s = 0; s < S; s++) {
      lcab[label(s)] = logAdd(lcab[label(s)], alpha[t * S + s] + beta[t * S + s]);
    }
    for (int64_t c = 0; c < classes; c++) {
      if (lcab[c] == -INFINITY) continue;
      grad[t * gradStepStride + c] -= factor * std::exp(lcab[c] + nll - lp(t, c));
    }
  }
  return nll;
}

template <typename T>
void ctcLoss(const Tensor &logProbs, const CtcLayout &layout, int64_t blank, std::vector<double> &losses, double *grad,
             const std::vector<double> &factors) {
  const int64_t N = logProbs.size(1), C = logProbs.size(2);
  const T *p = dataOf<T>(logProbs);
  const int64_t *labels = dataOf<int64_t>(layout.targets);
#pragma omp parallel for if (N > 1) num_threads(THUsableThreads())
  for (int64_t b = 0; b < N; b++) {
    auto lp = [&](int64_t t, int64_t c) { return static_cast<double>(p[(t * N + b) * C + c]); };
    losses[b] = ctcSample(lp, labels + layout.start[b], layout.inputLengths[b], layout.targetLengths[b], blank, C,
                          grad ? grad + b * C : nullptr, N * C, grad ? factors[b] : 0);
  }
}

// ---- normalization and embeddings ----

template <typename T>
void batchNormOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                     const Tensor &runningMean, const Tensor &runningVar, const Tensor &saveMean, const Tensor &saveStd,
                     bool train, double momentum, double eps) {
  NN<T>::BatchNormalization_updateOutput(nullptr, input.th<T>(), output.th<T>(), thOrNull<T>(weight), thOrNull<T>(bias),
                                         thOrNull<T>(runningMean), thOrNull<T>(runningVar), saveMean.th<T>(),
                                         saveStd.th<T>(), train, momentum, eps);
}
template <typename T>
void batchNormBackward(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                       const Tensor &gradBias, const Tensor &weight, const Tensor &runningMean,
                       const Tensor &runningVar, const Tensor &saveMean, const Tensor &saveStd, bool train,
                       double scale, double eps) {
  NN<T>::BatchNormalization_backward(nullptr, input.th<T>(), gradOutput.th<T>(), thOrNull<T>(gradInput),
                                     thOrNull<T>(gradWeight), thOrNull<T>(gradBias), thOrNull<T>(weight),
                                     thOrNull<T>(runningMean), thOrNull<T>(runningVar), saveMean.th<T>(),
                                     saveStd.th<T>(), train, scale, eps);
}
template <typename T>
void layerNormOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                     const Tensor &saveMean, const Tensor &saveInvStd, int64_t normalized, double eps) {
  NN<T>::LayerNormalization_updateOutput(nullptr, input.th<T>(), output.th<T>(), thOrNull<T>(weight), thOrNull<T>(bias),
                                         saveMean.th<T>(), saveInvStd.th<T>(), normalized, eps);
}
template <typename T>
void layerNormBackward(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                       const Tensor &gradBias, const Tensor &weight, const Tensor &saveMean, const Tensor &saveInvStd,
                       int64_t normalized, double scale) {
  NN<T>::LayerNormalization_backward(nullptr, input.th<T>(), gradOutput.th<T>(), thOrNull<T>(gradInput),
                                     thOrNull<T>(gradWeight), thOrNull<T>(gradBias), thOrNull<T>(weight),
                                     saveMean.th<T>(), saveInvStd.th<T>(), normalized, scale);
}
template <typename T>
void lookupTable(const Tensor &input, const Tensor &output, const Tensor &weight) {
  NN<T>::LookupTable_updateOutput(nullptr, thLong(input), output.th<T>(), weight.th<T>());
}
template <typename T>
void lookupTableAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &count,
                        bool scaleGradByFreq, int paddingValue, double scale) {
  NN<T>::LookupTable_accGradParameters(nullptr, thLong(input), gradOutput.th<T>(), gradWeight.th<T>(),
                                       count.th<int32_t>(), nullptr, nullptr, scaleGradByFreq, paddingValue, scale);
}
template <typename T>
void lookupTableRenorm(const Tensor &input, const Tensor &weight, double maxNorm, double normType) {
  NN<T>::LookupTable_renorm(nullptr, thLong(input), weight.th<T>(), maxNorm, normType);
}

template <typename T>
void embeddingBag(const Tensor &indices, const Tensor &output, const Tensor &weight, const Tensor &perSampleWeights,
                  const Tensor &argmax, const EmbeddingBags &bags) {
  const int64_t B = static_cast<int64_t>(bags.begin.size()), D = weight.size(1), n = indices.numel();
  const int64_t *ip = dataOf<int64_t>(indices);
  const T *w = dataOf<T>(weight);
  const T *sw = perSampleWeights.defined() ? dataOf<T>(perSampleWeights) : nullptr;
  T *o = dataOf<T>(output);
  int64_t *am = argmax.defined() ? dataOf<int64_t>(argmax) : nullptr;
  const nn::BagMode mode = bags.mode;
#pragma omp parallel for if (n * D > kParallelGrain) num_threads(THUsableThreads())
  for (int64_t b = 0; b < B; b++) {
    T *row = o + b * D;
    if (am) std::fill(am + b * D, am + (b + 1) * D, int64_t(-1));
    for (int64_t i = bags.begin[b]; i < bags.end[b]; i++) {
      if (ip[i] == bags.paddingIdx) continue;
      const T *src = w + ip[i] * D;
      if (mode == nn::BagMode::Max) {
        for (int64_t d = 0; d < D; d++) {
          if (am[b * D + d] < 0 || src[d] > row[d]) {
            row[d] = src[d];
            am[b * D + d] = ip[i];
          }
        }
      } else {
        const T s = sw ? sw[i] : T(1);
        for (int64_t d = 0; d < D; d++) row[d] += s * src[d];
      }
    }
    if (mode == nn::BagMode::Mean && bags.count[b] > 0) {
      for (int64_t d = 0; d < D; d++) row[d] /= static_cast<T>(bags.count[b]);
    }
  }
}

template <typename T>
void embeddingBagBackward(const Tensor &indices, const Tensor &gradOutput, const Tensor &gradWeight,
                          const Tensor &gradPerSampleWeights, const Tensor &weight, const Tensor &perSampleWeights,
                          const Tensor &argmax, const EmbeddingBags &bags, const std::vector<int64_t> &freq) {
  const int64_t B = static_cast<int64_t>(bags.begin.size()), D = gradOutput.size(1);
  const int64_t *ids = dataOf<int64_t>(indices);
  const T *gop = dataOf<T>(gradOutput);
  const bool needWeight = gradWeight.defined(), needPerSample = gradPerSampleWeights.defined();
  for (int64_t b = 0; b < B; b++) {
    const T *grow = gop + b * D;
    if (needWeight && bags.mode == nn::BagMode::Max) {
      const int64_t *am = dataOf<int64_t>(argmax) + b * D;
      T *gwp = dataOf<T>(gradWeight);
      for (int64_t d = 0; d < D; d++) {
        if (am[d] >= 0) gwp[am[d] * D + d] += freq.empty() ? grow[d] : grow[d] / static_cast<T>(freq[am[d]]);
      }
      continue;
    }
    for (int64_t i = bags.begin[b]; i < bags.end[b]; i++) {
      if (ids[i] == bags.paddingIdx) continue;
      if (needWeight) {
        T s = perSampleWeights.defined() ? dataOf<T>(perSampleWeights)[i] : T(1);
        if (bags.mode == nn::BagMode::Mean) s /= static_cast<T>(bags.count[b]);
        if (!freq.empty()) s /= static_cast<T>(freq[ids[i]]);
        T *dst = dataOf<T>(gradWeight) + ids[i] * D;
        for (int64_t d = 0; d < D; d++) dst[d] += s * grow[d];
      }
      if (needPerSample) {
        const T *src = dataOf<T>(weight) + ids[i] * D;
        T dot = 0;
        for (int64_t d = 0; d < D; d++) dot += src[d] * grow[d];
        dataOf<T>(gradPerSampleWeights)[i] = dot;
      }
    }
  }
}

// ---- convolutions ----

template <typename T>
void dilatedConvOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                       const Tensor &columns, const IntList &k, const IntList &st, const IntList &pd,
                       const IntList &dl) {
  auto *X = input.th<T>(), *O = output.th<T>(), *W = weight.th<T>(), *B = thOrNull<T>(bias), *C = columns.th<T>();
  if (k.size() == 2)
    NN<T>::SpatialDilatedConvolution_updateOutput(nullptr, X, O, W, B, C, nullptr, k[1], k[0], st[1], st[0], pd[1],
                                                  pd[0], dl[1], dl[0]);
  else
    NN<T>::VolumetricDilatedConvolution_updateOutput(nullptr, X, O, W, B, C, nullptr, k[0], k[2], k[1], st[0], st[2],
                                                     st[1], pd[0], pd[2], pd[1], dl[0], dl[2], dl[1]);
}
// BFloat16 2-d convolutions on oneDNN's bfloat16 kernels, as 1.13 computes them (products
// summed in float, each output rounded once); anything else through float.
void dilatedConvOutputBfloat16(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                               const Tensor &columns, const IntList &k, const IntList &st, const IntList &pd,
                               const IntList &dl) {
  auto outSize = [&](int d) { return (input.size(2 + d) + 2 * pd[d] - (dl[d] * (k[d] - 1) + 1)) / st[d] + 1; };
  if (k.size() == 2 && input.dim() == 4 && weight.dim() == 4 && input.isContiguous() && weight.isContiguous() &&
      weight.size(1) == input.size(1) && outSize(0) > 0 && outSize(1) > 0 && thnn::dnnl_conv::enabled()) {
    const IntList outSizes{input.size(0), weight.size(0), outSize(0), outSize(1)};
    if (output.sizes() != outSizes) resize_(output, outSizes);
    if (output.isContiguous()) {
      Tensor b = bias.defined() ? widenToFloat(contiguous(bias)) : Tensor();
      Tensor buffer = columns.dtype() == ScalarType::Float ? columns : empty({0}, ScalarType::Float, Device::CPU);
      auto scratch = [&](size_t n) {
        if (buffer.numel() < static_cast<int64_t>(n)) resize_(buffer, {static_cast<int64_t>(n)});
        return reinterpret_cast<float *>(buffer.dataPtr());
      };
      const thnn::dnnl_conv::Geometry g{input.size(0),
                                        input.size(1),
                                        input.size(2),
                                        input.size(3),
                                        weight.size(0),
                                        outSizes[2],
                                        outSizes[3],
                                        static_cast<int>(k[0]),
                                        static_cast<int>(k[1]),
                                        static_cast<int>(st[0]),
                                        static_cast<int>(st[1]),
                                        static_cast<int>(pd[0]),
                                        static_cast<int>(pd[1]),
                                        static_cast<int>(dl[0]),
                                        static_cast<int>(dl[1])};
      auto bits = [](const Tensor &t) { return reinterpret_cast<uint16_t *>(t.dataPtr()); };
      if (thnn::dnnl_conv::forwardBfloat16(g, bits(input), bits(weight),
                                           b.defined() ? reinterpret_cast<const float *>(b.dataPtr()) : nullptr,
                                           bits(output), scratch)) {
        return;
      }
    }
  }
  ThroughFloat<&dilatedConvOutput<float>>::call(input, output, weight, bias, columns, k, st, pd, dl);
}

template <typename T>
void dilatedConvGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight,
                          const Tensor &columns, const IntList &k, const IntList &st, const IntList &pd,
                          const IntList &dl) {
  auto *X = input.th<T>(), *GO = gradOutput.th<T>(), *GI = gradInput.th<T>(), *W = weight.th<T>(), *C = columns.th<T>();
  if (k.size() == 2)
    NN<T>::SpatialDilatedConvolution_updateGradInput(nullptr, X, GO, GI, W, C, k[1], k[0], st[1], st[0], pd[1], pd[0],
                                                     dl[1], dl[0]);
  else
    NN<T>::VolumetricDilatedConvolution_updateGradInput(nullptr, X, GO, GI, W, C, k[0], k[2], k[1], st[0], st[2], st[1],
                                                        pd[0], pd[2], pd[1], dl[0], dl[2], dl[1]);
}
template <typename T>
void dilatedConvAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &gradBias,
                        const Tensor &columns, const IntList &k, const IntList &st, const IntList &pd,
                        const IntList &dl, double scale) {
  auto *X = input.th<T>(), *GO = gradOutput.th<T>(), *GW = gradWeight.th<T>(), *GB = thOrNull<T>(gradBias),
       *C = columns.th<T>();
  if (k.size() == 2)
    NN<T>::SpatialDilatedConvolution_accGradParameters(nullptr, X, GO, GW, GB, C, nullptr, k[1], k[0], st[1], st[0],
                                                       pd[1], pd[0], dl[1], dl[0], scale);
  else
    NN<T>::VolumetricDilatedConvolution_accGradParameters(nullptr, X, GO, GW, GB, C, nullptr, k[0], k[2], k[1], st[0],
                                                          st[2], st[1], pd[0], pd[2], pd[1], dl[0], dl[2], dl[1],
                                                          scale);
}

template <typename T>
void fullConvOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                    const Tensor &columns, const Tensor &columns2, const IntList &k, const IntList &st,
                    const IntList &pd, const IntList &dl, const IntList &adj) {
  auto *X = input.th<T>(), *O = output.th<T>(), *W = weight.th<T>(), *B = thOrNull<T>(bias), *C = columns.th<T>();
  if (k.size() == 2)
    NN<T>::SpatialFullDilatedConvolution_updateOutput(nullptr, X, O, W, B, C, nullptr, k[1], k[0], st[1], st[0], pd[1],
                                                      pd[0], dl[1], dl[0], adj[1], adj[0]);
  else
    NN<T>::VolumetricFullConvolution_updateOutput(nullptr, X, O, W, B, C, columns2.th<T>(), k[0], k[2], k[1], st[0],
                                                  st[2], st[1], pd[0], pd[2], pd[1], adj[0], adj[2], adj[1]);
}
template <typename T>
void fullConvGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight,
                       const Tensor &columns, const Tensor &columns2, const IntList &k, const IntList &st,
                       const IntList &pd, const IntList &dl, const IntList &adj) {
  auto *X = input.th<T>(), *GO = gradOutput.th<T>(), *GI = gradInput.th<T>(), *W = weight.th<T>(), *C = columns.th<T>();
  if (k.size() == 2)
    NN<T>::SpatialFullDilatedConvolution_updateGradInput(nullptr, X, GO, GI, W, C, k[1], k[0], st[1], st[0], pd[1],
                                                         pd[0], dl[1], dl[0], adj[1], adj[0]);
  else
    NN<T>::VolumetricFullConvolution_updateGradInput(nullptr, X, GO, GI, W, C, columns2.th<T>(), k[0], k[2], k[1],
                                                     st[0], st[2], st[1], pd[0], pd[2], pd[1], adj[0], adj[2], adj[1]);
}
template <typename T>
void fullConvAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &gradBias,
                     const Tensor &columns, const Tensor &columns2, const IntList &k, const IntList &st,
                     const IntList &pd, const IntList &dl, const IntList &adj, double scale) {
  auto *X = input.th<T>(), *GO = gradOutput.th<T>(), *GW = gradWeight.th<T>(), *GB = thOrNull<T>(gradBias),
       *C = columns.th<T>();
  if (k.size() == 2)
    NN<T>::SpatialFullDilatedConvolution_accGradParameters(nullptr, X, GO, GW, GB, C, nullptr, k[1], k[0], st[1], st[0],
                                                           pd[1], pd[0], dl[1], dl[0], adj[1], adj[0], scale);
  else
    NN<T>::VolumetricFullConvolution_accGradParameters(nullptr, X, GO, GW, GB, C, columns2.th<T>(), k[0], k[2], k[1],
                                                       st[0], st[2], st[1], pd[0], pd[2], pd[1], adj[0], adj[2], adj[1],
                                                       scale);
}

// ---- pooling ----

template <typename T>
void maxPoolOutput(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &k,
                   const IntList &st, const IntList &pd, const IntList &dl, bool ceilMode) {
  if (k.size() == 2)
    NN<T>::SpatialDilatedMaxPooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), thLong(indices), k[1], k[0],
                                                 st[1], st[0], pd[1], pd[0], dl[1], dl[0], ceilMode);
  else
    NN<T>::VolumetricDilatedMaxPooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), thLong(indices), k[0], k[2],
                                                    k[1], st[0], st[2], st[1], pd[0], pd[2], pd[1], dl[0], dl[2], dl[1],
                                                    ceilMode);
}
template <typename T>
void maxPoolGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &indices,
                      const IntList &k, const IntList &st, const IntList &pd, const IntList &dl, bool ceilMode) {
  if (k.size() == 2)
    NN<T>::SpatialDilatedMaxPooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                    thLong(indices), k[1], k[0], st[1], st[0], pd[1], pd[0], dl[1],
                                                    dl[0], ceilMode);
  else
    NN<T>::VolumetricDilatedMaxPooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                       thLong(indices), k[0], k[2], k[1], st[0], st[2], st[1], pd[0],
                                                       pd[2], pd[1], dl[0], dl[2], dl[1], ceilMode);
}
template <typename T>
void avgPoolOutput(const Tensor &input, const Tensor &output, const IntList &k, const IntList &st, const IntList &pd,
                   bool ceilMode, bool countIncludePad) {
  if (k.size() == 2)
    NN<T>::SpatialAveragePooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), k[1], k[0], st[1], st[0], pd[1],
                                              pd[0], ceilMode, countIncludePad);
  else
    NN<T>::VolumetricAveragePooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), k[0], k[2], k[1], st[0], st[2],
                                                 st[1], pd[0], pd[2], pd[1], ceilMode, countIncludePad);
}
template <typename T>
void avgPoolGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const IntList &k,
                      const IntList &st, const IntList &pd, bool ceilMode, bool countIncludePad) {
  if (k.size() == 2)
    NN<T>::SpatialAveragePooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), k[1],
                                                 k[0], st[1], st[0], pd[1], pd[0], ceilMode, countIncludePad);
  else
    NN<T>::VolumetricAveragePooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), k[0],
                                                    k[2], k[1], st[0], st[2], st[1], pd[0], pd[2], pd[1], ceilMode,
                                                    countIncludePad);
}
template <typename T>
void adaptiveMaxPoolOutput(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &o) {
  NN<T>::SpatialAdaptiveMaxPooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), thLong(indices), o[1], o[0]);
}
template <typename T>
void adaptiveMaxPoolGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                              const Tensor &indices) {
  NN<T>::SpatialAdaptiveMaxPooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                   thLong(indices));
}
template <typename T>
void adaptiveAvgPoolOutput(const Tensor &input, const Tensor &output, const IntList &o) {
  NN<T>::SpatialAdaptiveAveragePooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), o[1], o[0]);
}
template <typename T>
void adaptiveAvgPoolGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput) {
  NN<T>::SpatialAdaptiveAveragePooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>());
}
template <typename T>
void maxUnpoolOutput(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &o) {
  if (o.size() == 2)
    NN<T>::SpatialMaxUnpooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), thLong(indices), o[1], o[0]);
  else
    NN<T>::VolumetricMaxUnpooling_updateOutput(nullptr, input.th<T>(), output.th<T>(), thLong(indices), o[0], o[2],
                                               o[1], 1, 1, 1, 0, 0, 0);
}
template <typename T>
void maxUnpoolGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &indices,
                        const IntList &o) {
  if (o.size() == 2)
    NN<T>::SpatialMaxUnpooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                               thLong(indices), o[1], o[0]);
  else
    NN<T>::VolumetricMaxUnpooling_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                  thLong(indices), o[0], o[2], o[1], 1, 1, 1, 0, 0, 0);
}

// ---- resampling, padding, grids ----

template <typename T>
void nearestOutput(const Tensor &input, const Tensor &output, int64_t factor) {
  if (input.dim() == 4)
    NN<T>::SpatialUpSamplingNearest_updateOutput(nullptr, input.th<T>(), output.th<T>(), factor);
  else
    NN<T>::VolumetricUpSamplingNearest_updateOutput(nullptr, input.th<T>(), output.th<T>(), factor);
}
template <typename T>
void nearestGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, int64_t factor) {
  if (input.dim() == 4)
    NN<T>::SpatialUpSamplingNearest_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                    factor);
  else
    NN<T>::VolumetricUpSamplingNearest_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                       factor);
}
template <typename T>
void linearUpOutput(const Tensor &input, const Tensor &output, const IntList &o) {
  if (o.size() == 2)
    NN<T>::SpatialUpSamplingBilinear_updateOutput(nullptr, input.th<T>(), output.th<T>(), o[0], o[1]);
  else
    NN<T>::VolumetricUpSamplingTrilinear_updateOutput(nullptr, input.th<T>(), output.th<T>(), o[0], o[1], o[2]);
}
template <typename T>
void linearUpGradInput(const Tensor &gradOutput, const Tensor &gradInput, const IntList &in, const IntList &o) {
  if (o.size() == 2)
    NN<T>::SpatialUpSamplingBilinear_updateGradInput(nullptr, gradOutput.th<T>(), gradInput.th<T>(), in[0], in[1],
                                                     in[2], in[3], o[0], o[1]);
  else
    NN<T>::VolumetricUpSamplingTrilinear_updateGradInput(nullptr, gradOutput.th<T>(), gradInput.th<T>(), in[0], in[1],
                                                         in[2], in[3], in[4], o[0], o[1], o[2]);
}

template <typename T>
void resample(const Tensor &input, const Tensor &output, int64_t outer, int64_t inner, const Taps &taps) {
  const T *x = dataOf<T>(input);
  T *y = dataOf<T>(output);
  const int64_t in = taps.in, out = taps.out();
  const int64_t *start = taps.start.data(), *index = taps.index.data();
  std::vector<T> weights(taps.weight.begin(), taps.weight.end());
  const T *weight = weights.data();
  if (inner == 1) {  // the last axis: a dot product per output element
#pragma omp parallel for if (outer * out > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
    for (int64_t o = 0; o < outer; o++) {
      const T *src = x + o * in;
      T *dst = y + o * out;
      for (int64_t j = 0; j < out; j++) {
        T acc = 0;
        for (int64_t t = start[j]; t < start[j + 1]; t++) acc += weight[t] * src[index[t]];
        dst[j] = acc;
      }
    }
    return;
  }
#pragma omp parallel for if (outer * out * inner > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t r = 0; r < outer * out; r++) {
    const int64_t o = r / out, j = r % out;
    T *dst = y + r * inner;
    std::fill(dst, dst + inner, T(0));
    for (int64_t t = start[j]; t < start[j + 1]; t++) {
      const T *src = x + (o * in + index[t]) * inner;
      const T w = weight[t];
      for (int64_t i = 0; i < inner; i++) dst[i] += w * src[i];
    }
  }
}

template <typename T>
void reflectionPadOutput(const Tensor &input, const Tensor &output, const IntList &p) {
  NN<T>::SpatialReflectionPadding_updateOutput(nullptr, input.th<T>(), output.th<T>(), p[0], p[1], p[2], p[3]);
}
template <typename T>
void reflectionPadGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const IntList &p) {
  NN<T>::SpatialReflectionPadding_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(), p[0],
                                                  p[1], p[2], p[3]);
}
template <typename T>
void replicationPadOutput(const Tensor &input, const Tensor &output, const IntList &p) {
  if (p.size() == 4)
    NN<T>::SpatialReplicationPadding_updateOutput(nullptr, input.th<T>(), output.th<T>(), p[0], p[1], p[2], p[3]);
  else
    NN<T>::VolumetricReplicationPadding_updateOutput(nullptr, input.th<T>(), output.th<T>(), p[0], p[1], p[2], p[3],
                                                     p[4], p[5]);
}
template <typename T>
void replicationPadGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const IntList &p) {
  if (p.size() == 4)
    NN<T>::SpatialReplicationPadding_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                     p[0], p[1], p[2], p[3]);
  else
    NN<T>::VolumetricReplicationPadding_updateGradInput(nullptr, input.th<T>(), gradOutput.th<T>(), gradInput.th<T>(),
                                                        p[0], p[1], p[2], p[3], p[4], p[5]);
}
template <typename T>
void gridSamplerOutput(const Tensor &input, const Tensor &grid, const Tensor &output, int paddingMode) {
  NN<T>::SpatialGridSamplerBilinear_updateOutput(nullptr, input.th<T>(), grid.th<T>(), output.th<T>(), paddingMode);
}
template <typename T>
void gridSamplerGradInput(const Tensor &input, const Tensor &gradInput, const Tensor &grid, const Tensor &gradGrid,
                          const Tensor &gradOutput, int paddingMode) {
  NN<T>::SpatialGridSamplerBilinear_updateGradInput(nullptr, input.th<T>(), gradInput.th<T>(), grid.th<T>(),
                                                    gradGrid.th<T>(), gradOutput.th<T>(), paddingMode);
}

// grid[n, p, i] = sum_j theta[n, i, j] base[p, j] with base rows (x, y, [z,] 1), or the
// adjoint: gradTheta[n, i, j] = sum_p grad[n, p, i] base[p, j].
template <typename T>
void affineKernel(const Tensor &theta, const Tensor &grid, const std::vector<std::vector<double>> &lines,
                  bool adjoint) {
  const int dims = static_cast<int>(lines.size());  // x, y[, z]
  const int64_t N = theta.size(0);
  int64_t points = 1;
  for (const auto &l : lines) points *= static_cast<int64_t>(l.size());
  const T *src = reinterpret_cast<const T *>((adjoint ? grid : theta).dataPtr());
  T *dst = reinterpret_cast<T *>((adjoint ? theta : grid).dataPtr());
  const int cols = dims + 1;
  std::vector<double> acc;
  for (int64_t n = 0; n < N; n++) {
    if (adjoint) acc.assign(dims * cols, 0.0);
    for (int64_t p = 0; p < points; p++) {
      double base[4];
      int64_t rest = p;
      for (int a = 0; a < dims; a++) {  // x varies fastest, then y, then z
        const auto &l = lines[a];
        base[a] = l[rest % static_cast<int64_t>(l.size())];
        rest /= static_cast<int64_t>(l.size());
      }
      base[dims] = 1.0;
      if (!adjoint) {
        const T *th = src + n * dims * cols;
        T *g = dst + (n * points + p) * dims;
        for (int i = 0; i < dims; i++) {
          double v = 0;
          for (int j = 0; j < cols; j++) v += static_cast<double>(th[i * cols + j]) * base[j];
          g[i] = static_cast<T>(v);
        }
      } else {
        const T *g = src + (n * points + p) * dims;
        for (int i = 0; i < dims; i++)
          for (int j = 0; j < cols; j++) acc[i * cols + j] += static_cast<double>(g[i]) * base[j];
      }
    }
    if (adjoint)
      for (int i = 0; i < dims * cols; i++) dst[n * dims * cols + i] = static_cast<T>(acc[i]);
  }
}
template <typename T>
void affineGridOutput(const Tensor &theta, const Tensor &grid, const std::vector<std::vector<double>> &lines) {
  affineKernel<T>(theta, grid, lines, false);
}
template <typename T>
void affineGridGradInput(const Tensor &gradGrid, const Tensor &gradTheta,
                         const std::vector<std::vector<double>> &lines) {
  affineKernel<T>(gradTheta, gradGrid, lines, true);
}

// columns[n, (c kH + kh) kW + kw, oy oW + ox] = image[n, c, oy sH - pH + kh dH, ox sW - pW + kw dW]
// (0 outside), or the adjoint (col2im: adds the columns into a zeroed image).
template <typename T>
void im2colKernel(const Tensor &imageTensor, const Tensor &columnsTensor, int64_t planes, const IntList &imageSize,
                  const IntList &blocks, const IntList &kernel, const IntList &dilation, const IntList &padding,
                  const IntList &stride, bool adjoint) {
  T *image = dataOf<T>(imageTensor), *columns = dataOf<T>(columnsTensor);
  const int64_t H = imageSize[0], W = imageSize[1], oH = blocks[0], oW = blocks[1];
  const int64_t kH = kernel[0], kW = kernel[1], sH = stride[0], sW = stride[1];
  const int64_t pH = padding[0], pW = padding[1], dH = dilation[0], dW = dilation[1];
#pragma omp parallel for if (planes * kH * kW * oH * oW > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t p = 0; p < planes; p++) {
    T *img = image + p * H * W;
    if (adjoint) std::fill(img, img + H * W, T(0));
    for (int64_t kh = 0; kh < kH; kh++)
      for (int64_t kw = 0; kw < kW; kw++) {
        T *col = columns + ((p * kH + kh) * kW + kw) * oH * oW;
        // Columns ox in [lo, hi) read inside the image: 0 <= ox sW + shift < W.
        const int64_t shift = kw * dW - pW;
        const int64_t lo = shift >= 0 ? 0 : std::min(oW, (-shift + sW - 1) / sW);
        const int64_t hi = std::max(lo, std::min(oW, W - shift > 0 ? (W - shift - 1) / sW + 1 : 0));
        for (int64_t oy = 0; oy < oH; oy++) {
          const int64_t y = oy * sH - pH + kh * dH;
          T *c = col + oy * oW;
          if (y < 0 || y >= H) {
            if (!adjoint) std::fill(c, c + oW, T(0));
            continue;
          }
          const int64_t at = y * W + shift;
          if (adjoint) {
            for (int64_t ox = lo; ox < hi; ox++) img[at + ox * sW] += c[ox];
          } else {
            std::fill(c, c + lo, T(0));
            for (int64_t ox = lo; ox < hi; ox++) c[ox] = img[at + ox * sW];
            std::fill(c + hi, c + oW, T(0));
          }
        }
      }
  }
}
template <typename T>
void im2col(const Tensor &image, const Tensor &columns, int64_t planes, const IntList &imageSize, const IntList &blocks,
            const IntList &kernel, const IntList &dilation, const IntList &padding, const IntList &stride) {
  im2colKernel<T>(image, columns, planes, imageSize, blocks, kernel, dilation, padding, stride, false);
}
template <typename T>
void col2im(const Tensor &image, const Tensor &columns, int64_t planes, const IntList &imageSize, const IntList &blocks,
            const IntList &kernel, const IntList &dilation, const IntList &padding, const IntList &stride) {
  im2colKernel<T>(image, columns, planes, imageSize, blocks, kernel, dilation, padding, stride, true);
}

}  // namespace

void registerNNKernels(NNKernels &k) {
  fill(k.linear.updateOutput, TORCH_TEMPLATE(linearOutput));
  k.linear.updateOutput.add(Device::CPU, ScalarType::BFloat16, &linearOutputBfloat16);
  fill(k.linear.updateGradInput, TORCH_TEMPLATE(linearGradInput));
  fill(k.linear.accGradParameters, TORCH_TEMPLATE(linearAccGrad));
  fill(k.bilinear.updateOutput, TORCH_TEMPLATE(bilinearOutput));
  fill(k.bilinear.updateGradInput, TORCH_TEMPLATE(bilinearGradInput));
  fill(k.bilinear.accGradParameters, TORCH_TEMPLATE(bilinearAccGrad));

  fill(k.hardtanh.updateOutput, TORCH_TEMPLATE(hardtanhOutput));
  fill(k.hardtanh.updateGradInput, TORCH_TEMPLATE(hardtanhGradInput));
  fill(k.leakyRelu.updateOutput, TORCH_TEMPLATE(leakyReluOutput));
  fill(k.leakyRelu.updateGradInput, TORCH_TEMPLATE(leakyReluGradInput));
  fill(k.softshrink.updateOutput, TORCH_TEMPLATE(softshrinkOutput));
  fill(k.softshrink.updateGradInput, TORCH_TEMPLATE(softshrinkGradInput));
  fill(k.softplus.updateOutput, TORCH_TEMPLATE(softplusOutput));
  fill(k.softplus.updateGradInput, TORCH_TEMPLATE(softplusGradInput));
  fill(k.prelu.updateOutput, TORCH_TEMPLATE(preluOutput));
  fill(k.prelu.updateGradInput, TORCH_TEMPLATE(preluGradInput));
  fill(k.prelu.accGradParameters, TORCH_TEMPLATE(preluAccGrad));
  fill(k.rrelu.updateOutput, TORCH_TEMPLATE(rreluOutput));
  fill(k.rrelu.updateGradInput, TORCH_TEMPLATE(rreluGradInput));
  fill(k.logSigmoid.updateOutput, TORCH_TEMPLATE(logSigmoidOutput));
  fill(k.logSigmoid.updateGradInput, TORCH_TEMPLATE(logSigmoidGradInput));
  fillMap<Relu>(k.relu);
  fillMap<Hardshrink>(k.hardshrink);
  fillMap<Elu>(k.elu);
  fillMap<Selu>(k.selu);
  fillMap<Celu>(k.celu);
  fillMap<Gelu>(k.gelu);
  fillMap<GeluTanh>(k.geluTanh);
  fillMap<Silu>(k.silu);
  fillMap<Mish>(k.mish);
  fillMap<Hardsigmoid>(k.hardsigmoid);
  fillMap<Hardswish>(k.hardswish);
  fill(k.softmax.updateOutput, TORCH_TEMPLATE(softmaxOutput));
  fill(k.softmax.updateGradInput, TORCH_TEMPLATE(softmaxGradInput));
  fill(k.logSoftmax.updateOutput, TORCH_TEMPLATE(logSoftmaxOutput));
  fill(k.logSoftmax.updateGradInput, TORCH_TEMPLATE(logSoftmaxGradInput));

  fill(k.absCriterion.updateOutput, TORCH_TEMPLATE(AbsCriterionOutput));
  fill(k.absCriterion.updateGradInput, TORCH_TEMPLATE(AbsCriterionGradInput));
  fill(k.mseCriterion.updateOutput, TORCH_TEMPLATE(MSECriterionOutput));
  fill(k.mseCriterion.updateGradInput, TORCH_TEMPLATE(MSECriterionGradInput));
  fill(k.smoothL1Criterion.updateOutput, TORCH_TEMPLATE(SmoothL1CriterionOutput));
  fill(k.smoothL1Criterion.updateGradInput, TORCH_TEMPLATE(SmoothL1CriterionGradInput));
  fill(k.softMarginCriterion.updateOutput, TORCH_TEMPLATE(SoftMarginCriterionOutput));
  fill(k.softMarginCriterion.updateGradInput, TORCH_TEMPLATE(SoftMarginCriterionGradInput));
  fill(k.distKLDivCriterion.updateOutput, TORCH_TEMPLATE(DistKLDivCriterionOutput));
  fill(k.distKLDivCriterion.updateGradInput, TORCH_TEMPLATE(DistKLDivCriterionGradInput));
  fill(k.classNLLCriterion.updateOutput, TORCH_TEMPLATE(classNLLOutput));
  fill(k.classNLLCriterion.updateGradInput, TORCH_TEMPLATE(classNLLGradInput));
  fill(k.multiLabelMarginCriterion.updateOutput, TORCH_TEMPLATE(multiLabelMarginOutput));
  fill(k.multiLabelMarginCriterion.updateGradInput, TORCH_TEMPLATE(multiLabelMarginGradInput));
  fill(k.multiMarginCriterion.updateOutput, TORCH_TEMPLATE(multiMarginOutput));
  fill(k.multiMarginCriterion.updateGradInput, TORCH_TEMPLATE(multiMarginGradInput));
  fill(k.binaryCrossEntropy.updateOutput, TORCH_TEMPLATE(binaryCrossEntropyOutput));
  fill(k.binaryCrossEntropy.updateGradInput, TORCH_TEMPLATE(binaryCrossEntropyGradInput));
  fill(k.allProbabilities, TORCH_TEMPLATE(allProbabilities));
  fill(k.ctcLoss, TORCH_TEMPLATE(ctcLoss));

  fill(k.batchNormalization.updateOutput, TORCH_TEMPLATE(batchNormOutput));
  fill(k.batchNormalization.updateGradInput, TORCH_TEMPLATE(batchNormBackward));
  fill(k.layerNormalization.updateOutput, TORCH_TEMPLATE(layerNormOutput));
  fill(k.layerNormalization.updateGradInput, TORCH_TEMPLATE(layerNormBackward));
  fill(k.lookupTable, TORCH_TEMPLATE(lookupTable));
  fill(k.lookupTableAccGradParameters, TORCH_TEMPLATE(lookupTableAccGrad));
  fill(k.lookupTableRenorm, TORCH_TEMPLATE(lookupTableRenorm));
  fill(k.embeddingBag, TORCH_TEMPLATE(embeddingBag));
  fill(k.embeddingBagBackward, TORCH_TEMPLATE(embeddingBagBackward));

  fill(k.dilatedConvolution.updateOutput, TORCH_TEMPLATE(dilatedConvOutput));
  k.dilatedConvolution.updateOutput.add(Device::CPU, ScalarType::BFloat16, &dilatedConvOutputBfloat16);
  fill(k.dilatedConvolution.updateGradInput, TORCH_TEMPLATE(dilatedConvGradInput));
  fill(k.dilatedConvolution.accGradParameters, TORCH_TEMPLATE(dilatedConvAccGrad));
  fill(k.fullConvolution.updateOutput, TORCH_TEMPLATE(fullConvOutput));
  fill(k.fullConvolution.updateGradInput, TORCH_TEMPLATE(fullConvGradInput));
  fill(k.fullConvolution.accGradParameters, TORCH_TEMPLATE(fullConvAccGrad));
  fill(k.dilatedMaxPooling.updateOutput, TORCH_TEMPLATE(maxPoolOutput));
  fill(k.dilatedMaxPooling.updateGradInput, TORCH_TEMPLATE(maxPoolGradInput));
  fill(k.averagePooling.updateOutput, TORCH_TEMPLATE(avgPoolOutput));
  fill(k.averagePooling.updateGradInput, TORCH_TEMPLATE(avgPoolGradInput));
  fill(k.adaptiveMaxPooling.updateOutput, TORCH_TEMPLATE(adaptiveMaxPoolOutput));
  fill(k.adaptiveMaxPooling.updateGradInput, TORCH_TEMPLATE(adaptiveMaxPoolGradInput));
  fill(k.adaptiveAveragePooling.updateOutput, TORCH_TEMPLATE(adaptiveAvgPoolOutput));
  fill(k.adaptiveAveragePooling.updateGradInput, TORCH_TEMPLATE(adaptiveAvgPoolGradInput));
  fill(k.maxUnpooling.updateOutput, TORCH_TEMPLATE(maxUnpoolOutput));
  fill(k.maxUnpooling.updateGradInput, TORCH_TEMPLATE(maxUnpoolGradInput));

  fill(k.upSamplingNearest.updateOutput, TORCH_TEMPLATE(nearestOutput));
  fill(k.upSamplingNearest.updateGradInput, TORCH_TEMPLATE(nearestGradInput));
  fill(k.upSamplingLinear.updateOutput, TORCH_TEMPLATE(linearUpOutput));
  fill(k.upSamplingLinear.updateGradInput, TORCH_TEMPLATE(linearUpGradInput));
  fill(k.resample, TORCH_TEMPLATE(resample));
  fill(k.reflectionPadding.updateOutput, TORCH_TEMPLATE(reflectionPadOutput));
  fill(k.reflectionPadding.updateGradInput, TORCH_TEMPLATE(reflectionPadGradInput));
  fill(k.replicationPadding.updateOutput, TORCH_TEMPLATE(replicationPadOutput));
  fill(k.replicationPadding.updateGradInput, TORCH_TEMPLATE(replicationPadGradInput));
  fill(k.gridSamplerBilinear.updateOutput, TORCH_TEMPLATE(gridSamplerOutput));
  fill(k.gridSamplerBilinear.updateGradInput, TORCH_TEMPLATE(gridSamplerGradInput));
  fill(k.affineGrid.updateOutput, TORCH_TEMPLATE(affineGridOutput));
  fill(k.affineGrid.updateGradInput, TORCH_TEMPLATE(affineGridGradInput));
  fill(k.im2col, TORCH_TEMPLATE(im2col));
  fill(k.col2im, TORCH_TEMPLATE(col2im));
}

}  // namespace torch::cpu
