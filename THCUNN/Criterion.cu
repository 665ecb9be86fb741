// The element-wise criterions on the GPU, with THNN's arguments, checks and messages
// (THNN/generic/CriterionHelpers.h) and formulas (THNN/CriterionFunctions.hpp, computed in
// accreal: double for Float and Double, float for Half), and Note [Criterion reduction].
//
// The formula is picked at run time (Loss below), so that each element type compiles three
// kernels for every criterion: the terms of a sum (Note [Deterministic sums]), the
// per-element losses or gradients, and BCE's range check. Inputs that are not contiguous are
// copied first: elements then pair by their position in row-major order, THNN's rule.
#include <vector>

#include "THCUNN/Common.cuh"
#include "THCUNN/THCUNN.h"
#include "THNN/CriterionFunctions.hpp"
#include "THNN/generic/CriterionHelpers.h"

namespace thcunn {
namespace {

namespace fn = thnn::criterion;

enum class Kind { Abs, BCE, DistKLDiv, L1Cost, Margin, MSE, SmoothL1, SoftMargin };

template <typename A>
struct Loss {
  Kind kind;
  A margin;  // MarginCriterion's

  __device__ A loss(A x, A y) const {
    switch (kind) {
      case Kind::Abs: return fn::AbsLoss<A>().loss(x, y);
      case Kind::BCE: return fn::BCELoss<A>().loss(x, y);
      case Kind::DistKLDiv: return fn::DistKLDivLoss<A>().loss(x, y);
      case Kind::L1Cost: return fn::L1Cost<A>().loss(x, y);
      case Kind::Margin: return fn::MarginLoss<A>{margin}.loss(x, y);
      case Kind::MSE: return fn::MSELoss<A>().loss(x, y);
      case Kind::SmoothL1: return fn::SmoothL1Loss<A>().loss(x, y);
      default: return fn::SoftMarginLoss<A>().loss(x, y);
    }
  }
  __device__ A grad(A x, A y) const {
    switch (kind) {
      case Kind::Abs: return fn::AbsLoss<A>().grad(x, y);
      case Kind::BCE: return fn::BCELoss<A>().grad(x, y);
      case Kind::DistKLDiv: return fn::DistKLDivLoss<A>().grad(x, y);
      case Kind::L1Cost: return fn::L1Cost<A>().grad(x, y);
      case Kind::Margin: return fn::MarginLoss<A>{margin}.grad(x, y);
      case Kind::MSE: return fn::MSELoss<A>().grad(x, y);
      case Kind::SmoothL1: return fn::SmoothL1Loss<A>().grad(x, y);
      default: return fn::SoftMarginLoss<A>().grad(x, y);
    }
  }
};

// One call's contiguous operands: input, target (input again for L1Cost), weights or null.
template <typename T>
struct Operands {
  Loss<Acc<T>> f;
  const T *x, *y, *w;
};

// Term i of a reduced loss: w_i loss(x_i, y_i).
template <typename T>
struct Term {
  Operands<T> o;
  __device__ Acc<T> operator()(int64_t i) const {
    using A = Acc<T>;
    const A l = o.f.loss(load<A>(o.x[i]), load<A>(o.y[i]));
    return o.w ? load<A>(o.w[i]) * l : l;
  }
};

// output[0] = the sum, divided by the element count with sizeAverage (0/0 is NaN, as on the CPU).
template <typename T>
struct WriteLoss {
  T *output;
  bool average;
  int64_t n;
  __device__ void operator()(Acc<T> sum) const {
    *output = thc::convert<T>(average ? sum / static_cast<Acc<T>>(n) : sum);
  }
};

// Per element: the loss (forward) or the gradient times gradOutput: gradOutput's own element,
// or its one element over the divisor for a reduced loss (1 when gradOutput is null).
template <typename T>
struct Elements {
  Operands<T> o;
  bool gradient;
  const T *gradOutput;        // one value per element, or null
  const T *gradOutputScalar;  // a reduced loss's, or null
  Acc<T> divisor;
  T *result;
};

template <typename T>
__global__ void elementsKernel(Elements<T> e, int64_t n) {
  using A = Acc<T>;
  const A scale = (e.gradOutputScalar ? load<A>(*e.gradOutputScalar) : A(1)) / e.divisor;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * thc::kBlock + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * thc::kBlock) {
    const A x = load<A>(e.o.x[i]), y = load<A>(e.o.y[i]);
    A r;
    if (e.gradient) {
      const A factor = e.gradOutput ? load<A>(e.gradOutput[i]) : scale;
      r = e.o.w ? factor * load<A>(e.o.w[i]) * e.o.f.grad(x, y) : factor * e.o.f.grad(x, y);
    } else {
      r = e.o.w ? load<A>(e.o.w[i]) * e.o.f.loss(x, y) : e.o.f.loss(x, y);
    }
    e.result[i] = thc::convert<T>(r);
  }
}

template <typename T>
__global__ void badProbabilityKernel(const T *x, int64_t n, unsigned long long *first) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * thc::kBlock + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * thc::kBlock) {
    const Acc<T> v = load<Acc<T>>(x[i]);
    if (!(v >= 0 && v <= 1)) offerBad(first, i);  // NaN is bad too
  }
}

// Raises THNN's error for the first input value outside [0, 1] (Note [First bad element]).
template <typename T>
void checkProbabilities(cudaStream_t stream, const T *x, int64_t n) {
  if (n == 0) return;
  FirstBad bad(stream);
  badProbabilityKernel<<<blocksFor(n, thc::kBlock), thc::kBlock, 0, stream>>>(x, n, bad.flag());
  THCudaCheckLaunch();
  const unsigned long long position = bad.position();
  if (position != kNoBadElement) fn::raiseBadProbability(thc::convert<double>(readBack(stream, x + position)));
}

// What a kernel asks of the driver.
struct Call {
  Kind kind;
  double margin = 0;
  bool reduce = true, sizeAverage = false;
  bool gradient = false;       // updateGradInput
  bool probabilities = false;  // BCE: input must lie in [0, 1]
  int gradOutputArg = 4;       // argument number of gradOutput in messages
  bool noGradOutput = false;   // MarginCriterion's backward has none
};

// The driver of every element-wise criterion, after the kernel's shape checks: THNN's order
// of the remaining checks, then the result (output, or gradInput from gradOutput).
// (The optional tensors' type is not deduced, so that they may be a bare nullptr.)
template <typename TensorT>
void run(THCState *state, const Call &c, TensorT *input, std::common_type_t<TensorT> *target,
         std::common_type_t<TensorT> *weights, std::common_type_t<TensorT> *gradOutput, TensorT *result) {
  using T = thc::Elem<TensorT>;
  using A = Acc<T>;
  thc::DeviceGuard guard(thc::commonDevice("THCUNN", input, target, weights, gradOutput, result));
  cudaStream_t stream = THCState_getCurrentStream(state);
  const int64_t n = fn::count(input);
  auto x = contiguous(state, input);
  auto y = contiguous(state, target);
  auto w = contiguous(state, weights);
  if (c.probabilities) checkProbabilities(stream, dataOf(x.get()), n);
  if (c.gradient && !c.noGradOutput) {
    if (c.reduce)
      fn::checkReducedGradOutput(gradOutput, c.gradOutputArg);
    else
      fn::checkLossGradOutput(gradOutput, n, c.gradOutputArg);
  }
  const Operands<T> o{Loss<A>{c.kind, static_cast<A>(c.margin)}, dataOf(x.get()),
                      y.get() ? dataOf(y.get()) : dataOf(x.get()), dataOf(w.get())};
  if (!c.gradient && c.reduce) {
    thc::THC<T>::resizeNd(state, result, 1, std::vector<int64_t>{1}.data(), nullptr);
    deterministicSum<A>(stream, n, Term<T>{o}, WriteLoss<T>{dataOf(result), c.sizeAverage, n});
    return;
  }
  auto go = contiguous(state, c.gradient && !c.reduce ? gradOutput : nullptr);
  thc::THC<T>::resizeAs(state, result, input);
  if (n == 0) return;
  ContiguousResult<TensorT> r(state, result);
  const Elements<T> e{o,
                      c.gradient,
                      dataOf(go.get()),
                      c.gradient && c.reduce ? dataOf(gradOutput) : nullptr,
                      static_cast<A>(c.sizeAverage && c.reduce ? static_cast<double>(n) : 1.0),
                      r.data()};
  elementsKernel<<<thc::gridFor(n), thc::kBlock, 0, stream>>>(e, n);
  THCudaCheckLaunch();
  r.finish();
}

template <typename TensorT>
void updateOutput(THCState *state, Kind kind, TensorT *input, TensorT *target, TensorT *output, bool sizeAverage,
                  std::common_type_t<TensorT> *weights, int weightsArg, bool reduce) {
  fn::checkPointwise(input, target, weights, weightsArg);
  Call c{kind};
  c.reduce = reduce;
  c.sizeAverage = sizeAverage;
  c.probabilities = kind == Kind::BCE;
  run(state, c, input, target, weights, nullptr, output);
}

template <typename TensorT>
void updateGradInput(THCState *state, Kind kind, TensorT *input, TensorT *target, TensorT *gradOutput,
                     TensorT *gradInput, bool sizeAverage, std::common_type_t<TensorT> *weights, int weightsArg,
                     bool reduce) {
  fn::checkPointwise(input, target, weights, weightsArg);
  Call c{kind};
  c.reduce = reduce;
  c.sizeAverage = sizeAverage;
  c.gradient = true;
  c.probabilities = kind == Kind::BCE;
  run(state, c, input, target, weights, gradOutput, gradInput);
}

}  // namespace
}  // namespace thcunn

#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THC_GENERIC_FILE "THCUNN/generic/Criterion.cu"
#include "THC/THCGenerateFloatTypes.h"
