// TH's reduce group on the GPU (THCTensorReduce.h): each op is written once here as a
// template over the tensor type, with TH's argument checks, result shapes and aliasing
// rules (TH/generic/THTensorReduce.cpp), and the generic file gives it its C name per
// element type. The kernels are those of Note [Reductions on the GPU] (THCReduce.cuh).
#include "THC/THCTensorReduce.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "THC/THCReduce.cuh"

namespace thc {
namespace {

using namespace reduce;

// TH's accreal of an element type.
template <typename T>
using AccOf = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

// A THC tensor freed at the end of a scope.
template <typename TensorT>
class Owned {
 public:
  explicit Owned(THCState *state) : state_(state) {}
  ~Owned() {
    if (t_) THC<Elem<TensorT>>::free(state_, t_);
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  TensorT *reset(TensorT *t) {
    if (t_) THC<Elem<TensorT>>::free(state_, t_);
    t_ = t;
    return t;
  }

 private:
  THCState *state_;
  TensorT *t_ = nullptr;
};

template <typename TensorT>
TensorT *newEmpty(THCState *state) {
  int64_t zero = 0;
  return THC<Elem<TensorT>>::newWithSize(state, 1, &zero, nullptr);
}

// ---- Shared pieces (TH's, for CUDA tensors) ----

// A 0-dim tensor counts as one dimension of size 1, as in PyTorch.
template <typename TensorT>
void checkDim(const TensorT *t, int dim, int argNumber, const char *op) {
  const int n = t->nDimension > 0 ? t->nDimension : 1;
  if (dim < 0 || dim >= n)
    THIndexError("%s: dimension %d (argument %d) is out of range for a tensor of sizes %s (expected 0 to %d)", op, dim,
                 argNumber, shapeOf(t).c_str(), n - 1);
}

// Where an op writes its result: r, or a temporary that tmp owns when r shares storage
// with an input, so that the inputs are read intact; finishOutput then copies it into r.
// inPlace: r being exactly the view of an input is safe (the op reads an element, or a
// whole line, before it writes there).
template <typename TensorT>
TensorT *outputFor(THCState *state, TensorT *r, Owned<TensorT> &tmp, bool inPlace, TensorT *const *inputs, int n) {
  for (int i = 0; i < n; i++) {
    if (inputs[i]->storage != r->storage) continue;
    if (inPlace && th::TH<Elem<TensorT>>::isSetTo(th(r), th(inputs[i]))) continue;
    return tmp.reset(newEmpty<TensorT>(state));
  }
  return r;
}

template <typename TensorT>
TensorT *outputFor(THCState *state, TensorT *r, Owned<TensorT> &tmp, bool inPlace,
                   std::initializer_list<TensorT *> inputs) {
  return outputFor(state, r, tmp, inPlace, inputs.begin(), static_cast<int>(inputs.size()));
}

template <typename TensorT>
void finishOutput(THCState *state, TensorT *r, TensorT *out) {
  if (out == r) return;
  THC<Elem<TensorT>>::resizeNd(state, r, out->nDimension, out->size, nullptr);
  THC<Elem<TensorT>>::copy(state, r, out);
}

template <typename TensorT>
void resizeTo(THCState *state, TensorT *t, std::vector<int64_t> size) {
  THC<Elem<TensorT>>::resizeNd(state, t, static_cast<int>(size.size()), size.data(), nullptr);
}

template <typename T>
Fold<AccOf<T>> fold(MapKind map, CombineKind combine, AccOf<T> init, FinishKind finish = FinishKind::Value) {
  Fold<AccOf<T>> f;
  f.map = map;
  f.combine = combine;
  f.init = init;
  f.finish = finish;
  return f;
}

// The folds of TH's ops (TH/generic/THTensorReduce.cpp).
template <typename T>
Fold<AccOf<T>> sumFold() {
  return fold<T>(MapKind::Value, CombineKind::Add, 0);
}
template <typename T>
Fold<AccOf<T>> prodFold() {
  return fold<T>(MapKind::Value, CombineKind::Mul, 1);
}
template <typename T>
Fold<AccOf<T>> meanFold() {
  return fold<T>(MapKind::Value, CombineKind::Add, 0, FinishKind::Mean);
}
template <typename T>
Fold<AccOf<T>> allFold() {
  return fold<T>(MapKind::NonZero, CombineKind::Min, 1);
}
template <typename T>
Fold<AccOf<T>> anyFold() {
  return fold<T>(MapKind::NonZero, CombineKind::Max, 0);
}

// ---- Element-wise kernels with an index ----

template <typename T, typename Value>
__global__ void fillIndexedKernel(T *data, int64_t stride, int64_t n, Value value) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    data[i * stride] = value(i);
}

// data[i * stride] = value(i) for i < n.
template <typename T, typename Value>
void fillIndexed(cudaStream_t stream, T *data, int64_t stride, int64_t n, Value value) {
  if (n == 0) return;
  fillIndexedKernel<<<gridFor(n), kBlock, 0, stream>>>(data, stride, n, value);
  THCudaCheckLaunch();
}

template <typename T>
struct Constant {
  T value;
  __device__ T operator()(int64_t) const { return value; }
};

template <typename T>
struct StridedFrom {
  const T *data;
  int64_t stride;
  __device__ T operator()(int64_t i) const { return data[i * stride]; }
};

// Arithmetic as the host does it: nvcc would otherwise fuse a multiply and an add into
// one rounding, and values computed from an index (range, linspace) would differ from TH's.
template <typename A>
__device__ A mulAsHost(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dmul_rn(a, b);
  return th::math::mul(a, b);
}
template <typename A>
__device__ A addAsHost(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dadd_rn(a, b);
  return th::math::add(a, b);
}
template <typename A>
__device__ A subAsHost(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dsub_rn(a, b);
  return th::math::sub(a, b);
}

// start + i * step in accreal (range, arange).
template <typename T, typename Acc>
struct Arithmetic {
  Acc start, step;
  __device__ T operator()(int64_t i) const {
    return static_cast<T>(addAsHost(start, mulAsHost(static_cast<Acc>(i), step)));
  }
};

// Point i of n evenly spaced from a to b, the second half counted back from b so that both
// ends are exact (TH's spacedPoint); logspace takes 10^point.
template <typename T>
struct Spaced {
  double a, b, step;
  int64_t n;
  bool log;
  __device__ T operator()(int64_t i) const {
    const double x = i < (n + 1) / 2 ? __dadd_rn(a, __dmul_rn(static_cast<double>(i), step))
                                     : __dsub_rn(b, __dmul_rn(static_cast<double>(n - 1 - i), step));
    return static_cast<T>(log ? std::pow(10.0, x) : x);
  }
};

template <typename T>
struct FromCounts {
  const unsigned long long *counts;
  __device__ T operator()(int64_t i) const { return static_cast<T>(static_cast<int64_t>(counts[i])); }
};

// ---- Whole-tensor reductions ----

// f over every element of t, on t's device.
template <typename TensorT>
AccOf<Elem<TensorT>> foldAll(THCState *state, TensorT *t, const Fold<AccOf<Elem<TensorT>>> &f) {
  DeviceGuard guard(device(t));
  return reduceAll(THCState_getCurrentStream(state), t, f);
}

// maxall (largest) and minall: a NaN wins, as in torch7.
template <typename TensorT>
Elem<TensorT> extremeAll(THCState *state, TensorT *t, bool largest) {
  using T = Elem<TensorT>;
  using Acc = AccOf<T>;
  const char *op = largest ? "maxall" : "minall";
  THArgCheck(numel(t) > 0, 1, "%s: the tensor is empty (sizes %s)", op, shapeOf(t).c_str());
  Acc init;
  if constexpr (std::is_floating_point_v<Acc>)
    init = largest ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::infinity();
  else
    init = largest ? std::numeric_limits<Acc>::lowest() : std::numeric_limits<Acc>::max();
  DeviceGuard guard(device(t));
  return static_cast<T>(reduceAll(THCState_getCurrentStream(state), t,
                                  fold<T>(MapKind::Value, largest ? CombineKind::Max : CombineKind::Min, init)));
}

template <typename TensorT>
AccOf<Elem<TensorT>> traceOf(THCState *state, TensorT *t) {
  using T = Elem<TensorT>;
  THArgCheck(t->nDimension == 2, 1, "trace: expected a matrix, got sizes %s", shapeOf(t).c_str());
  StridedView<T> diagonal(dataOf(t));
  diagonal.add(std::min(t->size[0], t->size[1]), t->stride[0] + t->stride[1]);
  DeviceGuard guard(device(t));
  return reduceAll(THCState_getCurrentStream(state), &diagonal, sumFold<T>());
}

template <typename T>
struct FlagDifferent {
  int *flag;
  __device__ void operator()(T &a, T &b) const {
    if (!(a == b)) *flag = 1;
  }
};

template <typename TensorT>
int equalOf(THCState *state, TensorT *a, TensorT *b) {
  using T = Elem<TensorT>;
  if (!THC<T>::isSameSizeAs(state, a, b)) return 0;
  if (numel(a) == 0) return 1;
  DeviceGuard guard(commonDevice("equal", a, b));
  cudaStream_t stream = THCState_getCurrentStream(state);
  DeviceBuffer flag(sizeof(int), stream);
  THCudaCheck(cudaMemsetAsync(flag.as<int>(), 0, sizeof(int), stream));
  pointwise(state, FlagDifferent<T>{flag.as<int>()}, a, b);
  int different = 0;
  THCudaCheck(cudaMemcpyAsync(&different, flag.as<int>(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return !different;
}

template <typename TensorT>
double varAll(THCState *state, TensorT *t, int biased) {
  using T = Elem<TensorT>;
  const int64_t n = numel(t);
  if (n == 0) return NAN;
  DeviceGuard guard(device(t));
  cudaStream_t stream = THCState_getCurrentStream(state);
  const double mean = reduceAll(stream, t, sumFold<T>()) / static_cast<double>(n);
  // two passes, as TH: sums of squared deviations lose less than sums of squares
  auto f = fold<T>(MapKind::SquaredDeviation, CombineKind::Add, 0);
  f.mean = mean;
  return reduceAll(stream, t, f) / static_cast<double>(biased ? n : n - 1);
}

template <typename TensorT>
double normAll(THCState *state, TensorT *t, double p) {
  const Fold<double> f = normFold(p);
  DeviceGuard guard(device(t));
  return f.done(reduceAll(THCState_getCurrentStream(state), t, f), 0);
}

template <typename TensorT>
double distOf(THCState *state, TensorT *a, TensorT *b, double p) {
  THArgCheck(numel(a) == numel(b), 2, "dist: a and b must have the same number of elements, got sizes %s and %s",
             shapeOf(a).c_str(), shapeOf(b).c_str());
  const Fold<double> f = normFold(p);
  DeviceGuard guard(commonDevice("dist", a, b));
  return f.done(reduceAllDifferences(THCState_getCurrentStream(state), a, b, f), 0);
}

// ---- Reductions along a dimension ----

// r <- t reduced along dim by op (FoldOp or MomentsOp): each line of t along dim gives its
// element of r.
template <typename TensorT, typename Op>
void reduceDim(THCState *state, TensorT *r, TensorT *t, int dim, int keepdim, const char *name, Op op) {
  using T = Elem<TensorT>;
  checkDim(t, dim, 3, name);
  DeviceGuard guard(commonDevice(name, r, t));
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, false, {t});
  const int nd = t->nDimension;
  std::vector<int64_t> size(t->size, t->size + nd);
  if (nd > 0) {
    if (keepdim)
      size[dim] = 1;
    else
      size.erase(size.begin() + dim);
  }
  resizeTo(state, out, size);
  // lines: t without dim, in the row-major order of out's elements (out without the kept
  // dimension of size 1); elems: the elements of one line
  StridedView<T> lines(dataOf(t)), elems(dataOf(t)), outLines(dataOf(out));
  viewWithout(lines, t, nd > 0 ? dim : -1);
  if (nd > 0) elems.add(t->size[dim], t->stride[dim]);
  viewWithout(outLines, out, nd > 0 && keepdim ? dim : -1);
  const int64_t length = nd > 0 ? t->size[dim] : 1;
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (fits32(t) && fits32(out))
    reduceLines(stream, op, WriteTo<T, uint32_t>{info<uint32_t>(&outLines)}, dataOf(t), info<uint32_t>(&lines),
                info<uint32_t>(&elems), numel(&lines), length);
  else
    reduceLines(stream, op, WriteTo<T, uint64_t>{info<uint64_t>(&outLines)}, dataOf(t), info<uint64_t>(&lines),
                info<uint64_t>(&elems), numel(&lines), length);
  finishOutput(state, r, out);
}

template <typename TensorT>
void foldDim(THCState *state, TensorT *r, TensorT *t, int dim, int keepdim, const char *name,
             const Fold<AccOf<Elem<TensorT>>> &f) {
  reduceDim(state, r, t, dim, keepdim, name, FoldOp<Elem<TensorT>, AccOf<Elem<TensorT>>>{f});
}

// ---- Scans along a dimension ----

// r <- the running fold of t along dim: element i of a line is the fold of its first i + 1.
template <typename TensorT>
void scanDim(THCState *state, TensorT *r, TensorT *t, int dim, const char *name, const Fold<AccOf<Elem<TensorT>>> &f) {
  using T = Elem<TensorT>;
  checkDim(t, dim, 3, name);
  DeviceGuard guard(commonDevice(name, r, t));
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, true, {t});
  THC<T>::resizeAs(state, out, t);
  const int64_t n = numel(t);
  if (n > 0) {
    const int nd = t->nDimension;
    const int64_t length = nd > 0 ? t->size[dim] : 1;
    const int64_t inStride = nd > 0 ? t->stride[dim] : 0, outStride = nd > 0 ? out->stride[dim] : 0;
    const int64_t nLines = n / length;
    cudaStream_t stream = THCState_getCurrentStream(state);
    StridedView<T> inLines(dataOf(t)), outLines(dataOf(out));
    viewWithout(inLines, t, nd > 0 ? dim : -1);
    viewWithout(outLines, out, nd > 0 ? dim : -1);
    const FoldOp<T, AccOf<T>> op{f};
    if (fits32(t) && fits32(out))
      scanLines(stream, op, dataOf(t), dataOf(out), info<uint32_t>(&inLines), info<uint32_t>(&outLines), nLines, length,
                inStride, outStride);
    else
      scanLines(stream, op, dataOf(t), dataOf(out), info<uint64_t>(&inLines), info<uint64_t>(&outLines), nLines, length,
                inStride, outStride);
  }
  finishOutput(state, r, out);
}

// ---- Construction ----

void checkSizes(int nDimension, const int64_t *size, const char *op) {
  THArgCheck(nDimension >= 0, 2, "%s: the dimension count must be >= 0, got %d", op, nDimension);
  THArgCheck(nDimension == 0 || size != nullptr, 3, "%s: sizes are missing for %d dimensions", op, nDimension);
}

template <typename TensorT>
void filled(THCState *state, TensorT *r, int nDimension, const int64_t *size, Elem<TensorT> value, const char *op) {
  checkSizes(nDimension, size, op);
  THC<Elem<TensorT>>::resizeNd(state, r, nDimension, size, nullptr);
  THC<Elem<TensorT>>::fill(state, r, value);
}

template <typename TensorT>
void eyeOf(THCState *state, TensorT *r, int64_t n, int64_t m) {
  using T = Elem<TensorT>;
  THArgCheck(n >= 0, 2, "eye: n must be >= 0, got %lld", (long long)n);
  if (m <= 0) m = n;
  resizeTo(state, r, {n, m});
  THC<T>::zero(state, r);
  DeviceGuard guard(device(r));
  fillIndexed(THCState_getCurrentStream(state), dataOf(r), r->stride[0] + r->stride[1], std::min(n, m), Constant<T>{1});
}

template <typename Acc>
void checkStep(Acc from, Acc to, Acc step, const char *op) {
  THArgCheck(std::isfinite((double)from) && std::isfinite((double)to), 2,
             "%s: the bounds must be finite, got %g and %g", op, (double)from, (double)to);
  THArgCheck(step != 0, 4, "%s: step must be non-zero", op);
  THArgCheck((step > 0 && to >= from) || (step < 0 && to <= from), 3,
             "%s: the upper bound %g and lower bound %g are inconsistent with the sign of step %g", op, (double)to,
             (double)from, (double)step);
  // the element count must fit in int64_t before the allocation can refuse it
  THArgCheck(((double)to - (double)from) / (double)step < 1e18, 4, "%s: too many elements from %g to %g by step %g", op,
             (double)from, (double)to, (double)step);
}

template <typename TensorT>
void arithmeticOf(THCState *state, TensorT *r, AccOf<Elem<TensorT>> start, AccOf<Elem<TensorT>> step, int64_t n) {
  using T = Elem<TensorT>;
  THC<T>::resizeNd(state, r, 1, &n, nullptr);
  DeviceGuard guard(device(r));
  fillIndexed(THCState_getCurrentStream(state), dataOf(r), r->stride[0], n, Arithmetic<T, AccOf<T>>{start, step});
}

template <typename TensorT>
void spacedOf(THCState *state, TensorT *r, double a, double b, int64_t n, bool log) {
  using T = Elem<TensorT>;
  THArgCheck(n >= 0, 4, "%s: the number of points must be >= 0, got %lld", log ? "logspace" : "linspace", (long long)n);
  THC<T>::resizeNd(state, r, 1, &n, nullptr);
  const double step = n > 1 ? (b - a) / (double)(n - 1) : 0;
  DeviceGuard guard(device(r));
  fillIndexed(THCState_getCurrentStream(state), dataOf(r), r->stride[0], n, Spaced<T>{a, b, step, n, log});
}

// ---- Structure ----

template <typename TensorT>
void diagOf(THCState *state, TensorT *r, TensorT *t, int k) {
  using T = Elem<TensorT>;
  THArgCheck(t->nDimension == 1 || t->nDimension == 2, 2, "diag: expected a vector or a matrix, got sizes %s",
             shapeOf(t).c_str());
  DeviceGuard guard(commonDevice("diag", r, t));
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, false, {t});
  cudaStream_t stream = THCState_getCurrentStream(state);
  const int64_t offset = k;
  if (t->nDimension == 1) {
    const int64_t length = t->size[0];
    const int64_t side = length + (offset >= 0 ? offset : -offset);
    resizeTo(state, out, {side, side});
    THC<T>::zero(state, out);
    T *start = dataOf(out) + (offset >= 0 ? offset * out->stride[1] : -offset * out->stride[0]);
    fillIndexed(stream, start, out->stride[0] + out->stride[1], length, StridedFrom<T>{dataOf(t), t->stride[0]});
  } else {
    const int64_t rows = t->size[0], cols = t->size[1];
    int64_t length = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
    if (length < 0) length = 0;
    resizeTo(state, out, {length});
    const T *start = dataOf(t);
    if (length > 0) start += offset >= 0 ? offset * t->stride[1] : -offset * t->stride[0];
    fillIndexed(stream, dataOf(out), out->stride[0], length, StridedFrom<T>{start, t->stride[0] + t->stride[1]});
  }
  finishOutput(state, r, out);
}

template <typename T>
__global__ void triangleKernel(T *dst, const T *src, int64_t rows, int64_t cols, int64_t ds0, int64_t ds1, int64_t ss0,
                               int64_t ss1, int64_t k, bool upper) {
  const int64_t n = rows * cols;
  for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = idx / cols, j = idx % cols;
    const bool keep = upper ? j - i >= k : j - i <= k;
    dst[i * ds0 + j * ds1] = keep ? src[i * ss0 + j * ss1] : T(0);
  }
}

// tril (upper = false) and triu: keeps the elements with j - i <= k, or >= k.
template <typename TensorT>
void triangleOf(THCState *state, TensorT *r, TensorT *t, int64_t k, bool upper) {
  using T = Elem<TensorT>;
  const char *op = upper ? "triu" : "tril";
  THArgCheck(t->nDimension == 2, 2, "%s: expected a matrix, got sizes %s", op, shapeOf(t).c_str());
  DeviceGuard guard(commonDevice(op, r, t));
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, true, {t});
  THC<T>::resizeAs(state, out, t);
  const int64_t n = numel(t);
  if (n > 0) {
    triangleKernel<<<gridFor(n), kBlock, 0, THCState_getCurrentStream(state)>>>(
        dataOf(out), dataOf(t), t->size[0], t->size[1], out->stride[0], out->stride[1], t->stride[0], t->stride[1], k,
        upper);
    THCudaCheckLaunch();
  }
  finishOutput(state, r, out);
}

template <typename TensorT>
void catOf(THCState *state, TensorT *r, TensorT **inputs, int numInputs, int dim) {
  using T = Elem<TensorT>;
  THArgCheck(numInputs > 0, 3, "cat: expected at least one tensor, got %d", numInputs);
  for (int i = 0; i < numInputs; i++) THArgCheck(inputs[i] != nullptr, 2, "cat: tensor %d is NULL", i);
  auto skipped = [](const TensorT *x) { return x->nDimension == 1 && x->size[0] == 0; };
  int first = -1;
  int64_t total = 0;
  for (int i = 0; i < numInputs; i++) {
    TensorT *x = inputs[i];
    if (skipped(x)) continue;
    if (first < 0) {
      first = i;
      THArgCheck(x->nDimension > 0, 2, "cat: tensor %d is zero-dimensional and cannot be concatenated", i);
      if (dim < 0 || dim >= x->nDimension)
        THIndexError("cat: dimension %d (argument 4) is out of range for tensors of sizes %s (expected 0 to %d)", dim,
                     shapeOf(x).c_str(), x->nDimension - 1);
    }
    const TensorT *f = inputs[first];
    bool match = x->nDimension == f->nDimension;
    for (int d = 0; match && d < x->nDimension; d++)
      if (d != dim && x->size[d] != f->size[d]) match = false;
    if (!match)
      THError("cat: sizes of tensors must match except in dimension %d: tensor %d has sizes %s but tensor %d has %s",
              dim, i, shapeOf(x).c_str(), first, shapeOf(f).c_str());
    total += x->size[dim];
  }
  int dev = device(r);
  for (int i = 0; i < numInputs; i++) dev = commonDeviceOf("cat", dev, inputs[i]);
  DeviceGuard guard(dev);
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, false, inputs, numInputs);
  if (first < 0) {
    resizeTo(state, out, {0});
    finishOutput(state, r, out);
    return;
  }
  std::vector<int64_t> size(inputs[first]->size, inputs[first]->size + inputs[first]->nDimension);
  size[dim] = total;
  resizeTo(state, out, size);
  int64_t offset = 0;
  for (int i = 0; i < numInputs; i++) {
    TensorT *x = inputs[i];
    if (skipped(x)) continue;
    if (x->size[dim] > 0) {
      TensorT *part = THC<T>::newNarrow(state, out, dim, offset, x->size[dim]);
      Owned<TensorT> owned(state);
      owned.reset(part);
      THC<T>::copy(state, part, x);
    }
    offset += x->size[dim];
  }
  finishOutput(state, r, out);
}

template <typename T, typename Acc>
__global__ void crossKernel(T *out, const T *a, const T *b, TensorInfo<T, uint64_t> outLines,
                            TensorInfo<T, uint64_t> aLines, TensorInfo<T, uint64_t> bLines, uint64_t nLines, int64_t os,
                            int64_t as, int64_t bs) {
  for (uint64_t line = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; line < nLines;
       line += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const T *x = a + aLines.offset(line), *y = b + bLines.offset(line);
    T *o = out + outLines.offset(line);
    // in accreal: float products are exact in double, so only the difference rounds
    const Acc x0 = x[0], x1 = x[as], x2 = x[2 * as], y0 = y[0], y1 = y[bs], y2 = y[2 * bs];
    o[0] = static_cast<T>(subAsHost(mulAsHost(x1, y2), mulAsHost(x2, y1)));
    o[os] = static_cast<T>(subAsHost(mulAsHost(x2, y0), mulAsHost(x0, y2)));
    o[2 * os] = static_cast<T>(subAsHost(mulAsHost(x0, y1), mulAsHost(x1, y0)));
  }
}

template <typename TensorT>
void crossOf(THCState *state, TensorT *r, TensorT *a, TensorT *b, int dim) {
  using T = Elem<TensorT>;
  THArgCheck(THC<T>::isSameSizeAs(state, a, b), 3, "cross: a and b must have the same sizes, got %s and %s",
             shapeOf(a).c_str(), shapeOf(b).c_str());
  if (dim < 0) {
    for (int d = 0; d < a->nDimension && dim < 0; d++)
      if (a->size[d] == 3) dim = d;
    THArgCheck(dim >= 0, 4, "cross: no dimension of size 3 in a tensor of sizes %s", shapeOf(a).c_str());
  }
  if (dim >= a->nDimension)
    THIndexError("cross: dimension %d (argument 4) is out of range for tensors of sizes %s", dim, shapeOf(a).c_str());
  THArgCheck(a->size[dim] == 3, 4, "cross: dimension %d must have size 3, got sizes %s", dim, shapeOf(a).c_str());
  DeviceGuard guard(commonDevice("cross", r, a, b));
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, true, {a, b});
  THC<T>::resizeAs(state, out, a);
  StridedView<T> outLines(dataOf(out)), aLines(dataOf(a)), bLines(dataOf(b));
  viewWithout(outLines, out, dim);
  viewWithout(aLines, a, dim);
  viewWithout(bLines, b, dim);
  const int64_t nLines = numel(&aLines);
  if (nLines > 0) {
    crossKernel<T, AccOf<T>><<<gridFor(nLines), kBlock, 0, THCState_getCurrentStream(state)>>>(
        dataOf(out), dataOf(a), dataOf(b), info<uint64_t>(&outLines), info<uint64_t>(&aLines), info<uint64_t>(&bLines),
        static_cast<uint64_t>(nLines), out->stride[dim], a->stride[dim], b->stride[dim]);
    THCudaCheckLaunch();
  }
  finishOutput(state, r, out);
}

// ---- Histograms and renorm (floating types) ----

template <typename T>
struct CountInBin {
  unsigned long long *counts;
  double lo, hi;
  int64_t nbins;
  __device__ void operator()(T &x) const {
    if (x >= lo && x <= hi) {
      const int64_t bin = static_cast<int64_t>((x - lo) / (hi - lo) * nbins);
      atomicAdd(&counts[bin < nbins - 1 ? bin : nbins - 1], 1ULL);
    }
  }
};

template <typename TensorT>
void histcOf(THCState *state, TensorT *hist, TensorT *t, int64_t nbins, double minvalue, double maxvalue) {
  using T = Elem<TensorT>;
  THArgCheck(nbins > 0, 3, "histc: nbins must be > 0, got %lld", (long long)nbins);
  THArgCheck(minvalue <= maxvalue, 4, "histc: minvalue %g must not exceed maxvalue %g", minvalue, maxvalue);
  double lo = minvalue, hi = maxvalue;
  if (lo == hi && numel(t) > 0) {
    lo = extremeAll(state, t, false);
    hi = extremeAll(state, t, true);
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) THValueError("histc: the range [%g, %g] is not finite", lo, hi);
  DeviceGuard guard(commonDevice("histc", hist, t));
  cudaStream_t stream = THCState_getCurrentStream(state);
  DeviceBuffer counts(sizeof(unsigned long long) * nbins, stream);
  THCudaCheck(cudaMemsetAsync(counts.as<void>(), 0, sizeof(unsigned long long) * nbins, stream));
  pointwise(state, CountInBin<T>{counts.as<unsigned long long>(), lo, hi, nbins}, t);
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, hist, tmp, false, {t});
  THC<T>::resizeNd(state, out, 1, &nbins, nullptr);
  fillIndexed(stream, dataOf(out), out->stride[0], nbins, FromCounts<T>{counts.as<unsigned long long>()});
  finishOutput(state, hist, out);
}

// scale[i] from the p-norm of sub-tensor i, as TH: torch7's small epsilon keeps the scaled
// norm just under maxnorm.
struct WriteScale {
  double *scale;
  double maxnorm;
  template <typename Index>
  __device__ void operator()(Index i, double norm) const {
    scale[i] = norm > maxnorm ? maxnorm / (norm + 1e-7) : 1.0;
  }
};

template <typename T, typename Index>
__global__ void scaleSlicesKernel(T *out, const T *in, TensorInfo<T, Index> outSlices, TensorInfo<T, Index> outElems,
                                  TensorInfo<T, Index> inSlices, TensorInfo<T, Index> inElems, const double *scale,
                                  Index n, Index perSlice) {
  for (Index idx = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
       idx += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index slice = idx / perSlice, k = idx % perSlice;
    const T x = in[inSlices.offset(slice) + inElems.offset(k)];
    out[outSlices.offset(slice) + outElems.offset(k)] = static_cast<T>(x * scale[slice]);
  }
}

template <typename T, typename Index>
void renormSlices(cudaStream_t stream, T *out, T *in, StridedView<T> &outSlices, StridedView<T> &outElems,
                  StridedView<T> &inSlices, StridedView<T> &inElems, double p, double maxnorm, int64_t nSlices,
                  int64_t perSlice) {
  DeviceBuffer scale(sizeof(double) * nSlices, stream);
  reduceLines(stream, FoldOp<T, double>{normFold(p)}, WriteScale{scale.as<double>(), maxnorm}, in,
              info<Index>(&inSlices), info<Index>(&inElems), nSlices, perSlice);
  const int64_t n = nSlices * perSlice;
  if (n == 0) return;
  scaleSlicesKernel<<<gridFor(n), kBlock, 0, stream>>>(
      out, in, info<Index>(&outSlices), info<Index>(&outElems), info<Index>(&inSlices), info<Index>(&inElems),
      scale.as<double>(), static_cast<Index>(n), static_cast<Index>(perSlice));
  THCudaCheckLaunch();
}

template <typename TensorT>
void renormOf(THCState *state, TensorT *r, TensorT *t, double p, int dim, double maxnorm) {
  using T = Elem<TensorT>;
  THArgCheck(t->nDimension > 1, 2, "renorm: expected a tensor with at least 2 dimensions, got sizes %s",
             shapeOf(t).c_str());
  checkDim(t, dim, 4, "renorm");
  THArgCheck(p > 0, 3, "renorm: the norm order p must be > 0, got %g", p);
  THArgCheck(maxnorm >= 0, 5, "renorm: maxnorm must be >= 0, got %g", maxnorm);
  DeviceGuard guard(commonDevice("renorm", r, t));
  Owned<TensorT> tmp(state);
  TensorT *out = outputFor(state, r, tmp, true, {t});
  THC<T>::resizeAs(state, out, t);
  // slice i is t.select(dim, i): the lines are dim, their elements all other dimensions
  StridedView<T> inSlices(dataOf(t)), inElems(dataOf(t)), outSlices(dataOf(out)), outElems(dataOf(out));
  inSlices.add(t->size[dim], t->stride[dim]);
  outSlices.add(out->size[dim], out->stride[dim]);
  viewWithout(inElems, t, dim);
  viewWithout(outElems, out, dim);
  const int64_t nSlices = t->size[dim], perSlice = numel(&inElems);
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (nSlices > 0) {
    if (fits32(t) && fits32(out))
      renormSlices<T, uint32_t>(stream, dataOf(out), dataOf(t), outSlices, outElems, inSlices, inElems, p, maxnorm,
                                nSlices, perSlice);
    else
      renormSlices<T, uint64_t>(stream, dataOf(out), dataOf(t), outSlices, outElems, inSlices, inElems, p, maxnorm,
                                nSlices, perSlice);
  }
  finishOutput(state, r, out);
}

}  // namespace
}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorReduce.cu"
#include "THC/THCGenerateAllTypes.h"
