// SoftMax and LogSoftMax on the GPU, with THNN's arguments, checks (THNN/SoftMaxChecks.hpp)
// and rounding: element-wise math in Compute<T> (float for Float and Half), sums in accreal.
//
// The input is seen as [outer, size, inner] around torch7's dimension (size). Lines along it
// are contiguous when inner is 1 (1-D, 2-D, and images of one pixel): then a block takes a
// line and reduces it with warp shuffles (rows kernels). Otherwise each thread walks one line
// at stride inner, neighbouring threads on neighbouring lines, so that reads coalesce
// (columns kernels). Inputs that are not contiguous are copied first, and results that are
// not contiguous are written through a contiguous copy. Every line is read whole before any
// of its results is written, so output may be input (and gradInput gradOutput or output).
#include "THCUNN/Common.cuh"
#include "THCUNN/THCUNN.h"
#include "THNN/SoftMaxChecks.hpp"

namespace thcunn {
namespace {

struct Shape {
  int64_t outer = 1, size = 1, inner = 1;
};

template <typename TensorT>
Shape shapeAround(const TensorT *t, int dim) {
  Shape s;
  for (int d = 0; d < t->nDimension; d++) {
    if (d < dim) s.outer *= t->size[d];
    if (d == dim) s.size = t->size[d];
    if (d > dim) s.inner *= t->size[d];
  }
  return s;
}

constexpr int kRowThreadsMax = 512;
constexpr int kColumnThreads = 256;

// Threads of a block that reduces a line of `size`: a power of two from a warp to kRowThreadsMax.
inline int rowThreads(int64_t size) {
  int threads = 32;
  while (threads < size && threads < kRowThreadsMax) threads *= 2;
  return threads;
}

// ---- forward ----

template <typename T>
__global__ void __launch_bounds__(kRowThreadsMax)
    forwardRowsKernel(const T *input, T *output, int64_t rows, int64_t size, bool log) {
  using C = Compute<T>;
  using A = Acc<T>;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T *x = input + row * size;
    T *y = output + row * size;
    C max = -INFINITY;
    for (int64_t i = threadIdx.x; i < size; i += blockDim.x) max = Max()(max, load<C>(x[i]));
    max = blockReduce(max, Max(), C(-INFINITY));
    A sum = 0;
    for (int64_t i = threadIdx.x; i < size; i += blockDim.x) sum += static_cast<A>(std::exp(load<C>(x[i]) - max));
    sum = blockReduce(sum, Add(), A(0));
    if (log) {
      const C logSum = max + static_cast<C>(std::log(sum));
      for (int64_t i = threadIdx.x; i < size; i += blockDim.x) y[i] = thc::convert<T>(load<C>(x[i]) - logSum);
    } else {
      const C inverse = static_cast<C>(A(1) / sum);
      for (int64_t i = threadIdx.x; i < size; i += blockDim.x)
        y[i] = thc::convert<T>(static_cast<C>(std::exp(load<C>(x[i]) - max)) * inverse);
    }
  }
}

template <typename T>
__global__ void __launch_bounds__(kColumnThreads) forwardColumnsKernel(const T *input, T *output, Shape s, bool log) {
  using C = Compute<T>;
  using A = Acc<T>;
  const int64_t lines = s.outer * s.inner;
  for (int64_t line = static_cast<int64_t>(blockIdx.x) * kColumnThreads + threadIdx.x; line < lines;
       line += static_cast<int64_t>(gridDim.x) * kColumnThreads) {
    const int64_t first = line / s.inner * s.size * s.inner + line % s.inner;
    const T *x = input + first;
    T *y = output + first;
    C max = -INFINITY;
    for (int64_t i = 0; i < s.size; i++) max = Max()(max, load<C>(x[i * s.inner]));
    A sum = 0;
    for (int64_t i = 0; i < s.size; i++) sum += static_cast<A>(std::exp(load<C>(x[i * s.inner]) - max));
    if (log) {
      const C logSum = max + static_cast<C>(std::log(sum));
      for (int64_t i = 0; i < s.size; i++) y[i * s.inner] = thc::convert<T>(load<C>(x[i * s.inner]) - logSum);
    } else {
      const C inverse = static_cast<C>(A(1) / sum);
      for (int64_t i = 0; i < s.size; i++)
        y[i * s.inner] = thc::convert<T>(static_cast<C>(std::exp(load<C>(x[i * s.inner]) - max)) * inverse);
    }
  }
}

// ---- backward ----
// SoftMax: dx_i = y_i (g_i - sum_j g_j y_j); LogSoftMax: dx_i = g_i - exp(y_i) sum_j g_j.

template <typename T>
__device__ __forceinline__ Acc<T> backwardTerm(T g, T y, bool log) {
  return log ? static_cast<Acc<T>>(load<Compute<T>>(g))
             : static_cast<Acc<T>>(load<Compute<T>>(g)) * static_cast<Acc<T>>(load<Compute<T>>(y));
}

template <typename T>
__device__ __forceinline__ T backwardResult(T g, T y, Compute<T> sum, bool log) {
  using C = Compute<T>;
  const C gc = load<C>(g), yc = load<C>(y);
  return thc::convert<T>(log ? gc - static_cast<C>(std::exp(yc)) * sum : yc * (gc - sum));
}

template <typename T>
__global__ void __launch_bounds__(kRowThreadsMax)
    backwardRowsKernel(const T *gradOutput, const T *output, T *gradInput, int64_t rows, int64_t size, bool log) {
  using A = Acc<T>;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T *g = gradOutput + row * size, *y = output + row * size;
    T *gi = gradInput + row * size;
    A sum = 0;
    for (int64_t i = threadIdx.x; i < size; i += blockDim.x) sum += backwardTerm(g[i], y[i], log);
    const Compute<T> total = static_cast<Compute<T>>(blockReduce(sum, Add(), A(0)));
    for (int64_t i = threadIdx.x; i < size; i += blockDim.x) gi[i] = backwardResult(g[i], y[i], total, log);
  }
}

template <typename T>
__global__ void __launch_bounds__(kColumnThreads)
    backwardColumnsKernel(const T *gradOutput, const T *output, T *gradInput, Shape s, bool log) {
  using A = Acc<T>;
  const int64_t lines = s.outer * s.inner;
  for (int64_t line = static_cast<int64_t>(blockIdx.x) * kColumnThreads + threadIdx.x; line < lines;
       line += static_cast<int64_t>(gridDim.x) * kColumnThreads) {
    const int64_t first = line / s.inner * s.size * s.inner + line % s.inner;
    const T *g = gradOutput + first, *y = output + first;
    T *gi = gradInput + first;
    A sum = 0;
    for (int64_t i = 0; i < s.size; i++) sum += backwardTerm(g[i * s.inner], y[i * s.inner], log);
    const Compute<T> total = static_cast<Compute<T>>(sum);
    for (int64_t i = 0; i < s.size; i++) gi[i * s.inner] = backwardResult(g[i * s.inner], y[i * s.inner], total, log);
  }
}

// ---- drivers ----

inline unsigned rowBlocks(int64_t rows) { return static_cast<unsigned>(std::min<int64_t>(rows, 1 << 20)); }

template <typename TensorT>
void forward(THCState *state, const char *fn, TensorT *input, TensorT *output, bool log) {
  using T = thc::Elem<TensorT>;
  const int dim = thnn::softmax::dimOf(fn, input);
  thc::DeviceGuard guard(thc::commonDevice(fn, input, output));
  auto x = contiguous(state, input);
  thc::THC<T>::resizeAs(state, output, input);
  const Shape s = shapeAround(input, dim);
  if (s.outer * s.size * s.inner == 0) return;
  ContiguousResult<TensorT> y(state, output);
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (s.inner == 1) {
    forwardRowsKernel<<<rowBlocks(s.outer), rowThreads(s.size), 0, stream>>>(dataOf(x.get()), y.data(), s.outer, s.size,
                                                                             log);
  } else {
    forwardColumnsKernel<<<blocksFor(s.outer * s.inner, kColumnThreads), kColumnThreads, 0, stream>>>(dataOf(x.get()),
                                                                                                      y.data(), s, log);
  }
  THCudaCheckLaunch();
  y.finish();
}

template <typename TensorT>
void backward(THCState *state, const char *fn, TensorT *input, TensorT *gradOutput, TensorT *gradInput, TensorT *output,
              bool log) {
  using T = thc::Elem<TensorT>;
  const int dim = thnn::softmax::dimOf(fn, input);
  thnn::softmax::checkSameShape(fn, input, gradOutput, 3, "gradOutput");
  thnn::softmax::checkSameShape(fn, input, output, 5, "output");
  thc::DeviceGuard guard(thc::commonDevice(fn, input, gradOutput, gradInput, output));
  auto g = contiguous(state, gradOutput);
  auto y = contiguous(state, output);
  thc::THC<T>::resizeAs(state, gradInput, input);
  const Shape s = shapeAround(input, dim);
  if (s.outer * s.size * s.inner == 0) return;
  ContiguousResult<TensorT> gi(state, gradInput);
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (s.inner == 1) {
    backwardRowsKernel<<<rowBlocks(s.outer), rowThreads(s.size), 0, stream>>>(dataOf(g.get()), dataOf(y.get()),
                                                                              gi.data(), s.outer, s.size, log);
  } else {
    backwardColumnsKernel<<<blocksFor(s.outer * s.inner, kColumnThreads), kColumnThreads, 0, stream>>>(
        dataOf(g.get()), dataOf(y.get()), gi.data(), s, log);
  }
  THCudaCheckLaunch();
  gi.finish();
}

}  // namespace
}  // namespace thcunn

#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THC_GENERIC_FILE "THCUNN/generic/SoftMax.cu"
#include "THC/THCGenerateFloatTypes.h"
