// ClassNLLCriterion and SpatialClassNLLCriterion on the GPU. Their targets count from
// TH_INDEX_BASE, so this translation unit is built once per base (THCUNN/defs.bzl); the
// checks and messages are THNN's (THNN/generic/CriterionHelpers.h).
//
// Both are one computation over items: the samples of ClassNLL (a vector input is one
// sample) or the pixels (b, h, w) of SpatialClassNLL, each with a target class t and the
// loss -w[t] x[t]. Targets are checked on the device before anything is written (Note
// [First bad element]); the loss and the total weight are summed by Note [Deterministic
// sums]; gradInput is zeroed and then gets one value per counted item. Input, output and
// gradInput are read and written through their strides; targets, weights and a per-item
// gradOutput are made contiguous.
#include <vector>

#include "THCUNN/Common.cuh"
#include "THCUNN/THCUNN.h"
#include "THNN/generic/CriterionHelpers.h"

namespace thcunn {
namespace {  // internal: the code differs per index base

namespace fn = thnn::criterion;

constexpr int64_t kBase = TH_INDEX_BASE;

// Strides of a tensor along an item's batch, class, height and width (0 where it has none).
struct Strides {
  int64_t b, c, h, w;
};

template <typename T>
struct Items {
  const T *x;
  Strides xs;
  const int64_t *t;  // contiguous, one per item
  const T *w;        // contiguous class weights, or null
  int64_t pixels, width;
  int64_t ignore;
  bool spatial;  // THNN's SpatialClassNLL counts a pixel whose class weighs 0 (as -0 x)

  __device__ int64_t at(int64_t k, int64_t c, const Strides &s) const {
    const int64_t b = k / pixels, p = k % pixels;
    return b * s.b + c * s.c + p / width * s.h + p % width * s.w;
  }
  // The weight of item k's class, 0 when the target is ignored.
  __device__ Acc<T> weight(int64_t k) const {
    const int64_t target = t[k];
    if (target == ignore) return 0;
    return w ? load<Acc<T>>(w[target - kBase]) : Acc<T>(1);
  }
  // Does item k write a loss and a gradient?
  __device__ bool counted(int64_t k, Acc<T> wk) const { return spatial ? t[k] != ignore : wk != 0; }
  __device__ Acc<T> loss(int64_t k) const {
    const Acc<T> wk = weight(k);
    return counted(k, wk) ? -wk * load<Acc<T>>(x[at(k, t[k] - kBase, xs)]) : Acc<T>(0);
  }
};

// Term k of the sums: (loss, weight).
template <typename T>
struct Term {
  Items<T> items;
  __device__ Pair<Acc<T>> operator()(int64_t k) const { return {items.loss(k), items.weight(k)}; }
};

// total_weight[0] = the total weight; output[0] (unless null) = the summed loss, divided by
// the total weight when averaged and not 0; total (unless null) keeps the total for a
// kernel that follows.
template <typename T>
struct WriteSums {
  T *output, *totalWeight;
  Acc<T> *total;
  bool average;
  __device__ void operator()(Pair<Acc<T>> s) const {
    if (output) *output = thc::convert<T>(average && s.second != 0 ? s.first / s.second : s.first);
    *totalWeight = thc::convert<T>(s.second);
    if (total) *total = s.second;
  }
};

__global__ void badTargetKernel(const int64_t *t, int64_t n, int64_t classes, int64_t ignore,
                                unsigned long long *first) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * thc::kBlock + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * thc::kBlock) {
    const int64_t v = t[k];
    if (!((v >= kBase && v < classes + kBase) || v == ignore)) offerBad(first, k);
  }
}

template <typename T>
__global__ void lossesKernel(Items<T> items, int64_t n, T *output, Strides os) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * thc::kBlock + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * thc::kBlock)
    output[items.at(k, 0, os)] = thc::convert<T>(items.loss(k));
}

// gradInput at each counted item's class: -w[t] times gradOutput's value for the item, or
// the reduced loss's one gradOutput (1 for null), over the total weight when averaged.
template <typename T>
__global__ void gradientsKernel(Items<T> items, int64_t n, T *gradInput, Strides gs, const T *gradOutput,
                                const T *gradOutputScalar, const Acc<T> *total, bool average) {
  using A = Acc<T>;
  const A go = gradOutputScalar ? load<A>(*gradOutputScalar) : A(1);
  const A scale = average && *total != 0 ? go / *total : go;
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * thc::kBlock + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * thc::kBlock) {
    const A wk = items.weight(k);
    if (!items.counted(k, wk)) continue;
    const A factor = gradOutput ? load<A>(gradOutput[k]) : scale;
    gradInput[items.at(k, items.t[k] - kBase, gs)] = thc::convert<T>(-wk * factor);
  }
}

// Raises THNN's IndexError for the first target out of range that is not ignore_index.
void checkTargets(cudaStream_t stream, const int64_t *t, int64_t n, int64_t classes, int64_t ignore) {
  if (n == 0) return;
  FirstBad bad(stream);
  badTargetKernel<<<blocksFor(n, thc::kBlock), thc::kBlock, 0, stream>>>(t, n, classes, ignore, bad.flag());
  THCudaCheckLaunch();
  const unsigned long long position = bad.position();
  if (position != kNoBadElement) fn::raiseBadTarget(readBack(stream, t + position), classes, kBase, TH_INDEX_BASE);
}

template <typename TensorT>
Strides inputStrides(const TensorT *t, bool spatial) {
  if (spatial) return {t->stride[0], t->stride[1], t->stride[2], t->stride[3]};
  if (t->nDimension == 1) return {0, t->stride[0], 0, 0};
  return {t->stride[0], t->stride[1], 0, 0};
}

// The driver of both criterions' kernels, after their shape checks: THNN's order of the
// remaining checks, then output (per item without reduce on a batch) or gradInput.
template <typename TensorT>
void run(THCState *state, bool spatial, bool gradient, TensorT *input, THCudaLongTensor *target, TensorT *gradOutput,
         TensorT *result, bool sizeAverage, TensorT *weights, TensorT *total_weight, int64_t ignore_index,
         bool reduce) {
  using T = thc::Elem<TensorT>;
  using A = Acc<T>;
  const char *op = spatial ? "SpatialClassNLLCriterion" : "ClassNLLCriterion";
  thc::DeviceGuard guard(thc::commonDevice(op, input, target, gradOutput, result, weights, total_weight));
  cudaStream_t stream = THCState_getCurrentStream(state);
  const int64_t batch = spatial || input->nDimension == 2 ? input->size[0] : 1;
  const int64_t height = spatial ? input->size[2] : 1, width = spatial ? input->size[3] : 1;
  const int64_t classes = spatial ? input->size[1] : input->size[input->nDimension - 1];
  const int64_t n = batch * height * width;
  auto t = contiguous(state, target);
  checkTargets(stream, dataOf(t.get()), n, classes, ignore_index);
  // per item: a gradOutput value, and without reduce on a batch an output value
  const bool perItem = !reduce && (spatial || input->nDimension == 2);
  if (gradient) {
    if (perItem && spatial)
      fn::checkSpatialLossGradOutput(gradOutput, target);
    else if (perItem)
      fn::checkLossGradOutput(gradOutput, n, 4);
    else
      fn::checkReducedGradOutput(gradOutput, 4);
  }
  auto w = contiguous(state, weights);
  auto go = contiguous(state, gradient && perItem ? gradOutput : nullptr);
  const Items<T> items{dataOf(input),   inputStrides(input, spatial),
                       dataOf(t.get()), dataOf(w.get()),
                       height * width,  width,
                       ignore_index,    spatial};
  const std::vector<int64_t> one{1};
  thc::THC<T>::resizeNd(state, total_weight, 1, one.data(), nullptr);
  const bool average = reduce && sizeAverage;
  if (!gradient) {
    if (perItem) {
      const std::vector<int64_t> sizes = spatial ? std::vector<int64_t>{batch, height, width} : std::vector{batch};
      thc::THC<T>::resizeNd(state, result, static_cast<int>(sizes.size()), sizes.data(), nullptr);
      const Strides os = spatial ? Strides{result->stride[0], 0, result->stride[1], result->stride[2]}
                                 : Strides{result->stride[0], 0, 0, 0};
      if (n > 0) {
        lossesKernel<<<thc::gridFor(n), thc::kBlock, 0, stream>>>(items, n, dataOf(result), os);
        THCudaCheckLaunch();
      }
      deterministicSum<Pair<A>>(stream, n, Term<T>{items}, WriteSums<T>{nullptr, dataOf(total_weight), nullptr, false});
    } else {
      thc::THC<T>::resizeNd(state, result, 1, one.data(), nullptr);
      deterministicSum<Pair<A>>(stream, n, Term<T>{items},
                                WriteSums<T>{dataOf(result), dataOf(total_weight), nullptr, average});
    }
    return;
  }
  DeviceBuffer total(sizeof(A), stream);
  deterministicSum<Pair<A>>(stream, n, Term<T>{items},
                            WriteSums<T>{nullptr, dataOf(total_weight), total.as<A>(), average});
  thc::THC<T>::resizeAs(state, result, input);
  thc::THC<T>::zero(state, result);
  if (n == 0) return;
  const Strides gs = inputStrides(result, spatial);
  gradientsKernel<<<thc::gridFor(n), thc::kBlock, 0, stream>>>(
      items, n, dataOf(result), gs, dataOf(go.get()), perItem ? nullptr : dataOf(gradOutput), total.as<A>(), average);
  THCudaCheckLaunch();
}

}  // namespace
}  // namespace thcunn

#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THC_GENERIC_FILE "THCUNN/generic/ClassNLLCriterion.cu"
#include "THC/THCGenerateFloatTypes.h"
