// Not a generic file: type-independent pieces shared by THNN/Pooling.cpp and
// THNN/indexed/Pooling.cpp (input shapes, window geometry, results written contiguously).
//
// Note [One pooling frame]: every spatial or volumetric kernel sees its input as
// nbatch * nplanes contiguous planes of T x H x W elements (T = 1 for spatial kernels) and
// each output axis as a list of windows over the matching input axis. Sliding, adaptive
// and fractional pooling differ only in how they build the windows.
#ifndef THNN_POOLING_HELPERS_H
#define THNN_POOLING_HELPERS_H

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "TH/THTensor.hpp"

namespace thnn {
namespace pooling {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT *>()->storage->data)>;

inline std::string sizesOf(int ndim, const int64_t *size) {
  std::string s = "[";
  for (int d = 0; d < ndim; d++) s += (d ? ", " : "") + std::to_string(size[d]);
  return s + "]";
}

template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  return sizesOf(t->nDimension, t->size);
}

template <typename TensorT>
std::vector<int64_t> sizesVector(const TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

inline int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }
inline int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

// Input positions read by one output position along one axis: first, first + step, ...
// below end, all inside the input. padded: the window's length clipped to the padded
// input (count_include_pad's divisor).
struct Window {
  int64_t first, end, step, padded;
  int64_t count() const { return first < end ? (end - first + step - 1) / step : 0; }
};

struct Axis {
  std::vector<Window> windows;  // one per output position
  int64_t out() const { return (int64_t)windows.size(); }
};

// An axis of length one pooled to length one (time for spatial kernels).
inline Axis unitAxis() { return Axis{{Window{0, 1, 1, 1}}}; }

// One axis of a sliding-window pooling as its kernel got it: name ('T', 'H', 'W'), kernel
// size, stride, padding, dilation, and the argument number of the kernel size in the
// kernel's signature (stride, padding and dilation follow nAxes arguments apart).
struct SlidingSpec {
  char name;
  int k, d, pad, dil;
  int argK;
};

// Note [Pooled size] (THNN/generic/Pooling.h).
inline int64_t pooledSize(int64_t in, int k, int d, int pad, int dil, bool ceilMode) {
  const int64_t span = in + 2 * (int64_t)pad - ((int64_t)dil * (k - 1) + 1);
  int64_t out = (ceilMode ? ceilDiv(span, d) : floorDiv(span, d)) + 1;
  if (out > 0 && (out - 1) * d >= in + pad) out--;
  return out;
}

// Checks a sliding axis and lays out its windows. Dilated windows that start in the left
// padding skip to their first element inside the input; one that has none is an error.
inline Axis slidingAxis(const SlidingSpec &s, int nAxes, int64_t in, bool ceilMode) {
  THArgCheck(s.k > 0, s.argK, "kernel size k%c must be positive, got %d", s.name, s.k);
  THArgCheck(s.d > 0, s.argK + nAxes, "stride d%c must be positive, got %d", s.name, s.d);
  THArgCheck(s.pad >= 0 && s.pad <= s.k / 2, s.argK + 2 * nAxes,
             "padding pad%c must be between 0 and half the kernel size (k%c = %d), got %d", s.name, s.name, s.k, s.pad);
  THArgCheck(s.dil > 0, s.argK + 3 * nAxes, "dilation%c must be positive, got %d", s.name, s.dil);
  const int64_t out = pooledSize(in, s.k, s.d, s.pad, s.dil, ceilMode);
  if (out < 1)
    THError("input size %lld along %c is too small for kernel %d (dilation %d, padding %d): output size %lld",
            (long long)in, s.name, s.k, s.dil, s.pad, (long long)out);
  Axis a{std::vector<Window>(out)};
  for (int64_t o = 0; o < out; o++) {
    const int64_t start = o * s.d - s.pad;
    Window &w = a.windows[o];
    w.first = start < 0 ? start + ceilDiv(-start, s.dil) * s.dil : start;
    w.end = std::min<int64_t>(start + (int64_t)s.dil * (s.k - 1) + 1, in);
    w.step = s.dil;
    w.padded = std::min<int64_t>(start + s.k, in + s.pad) - start;
    if (w.count() == 0)
      THError(
          "pooling window %lld along %c (input size %lld, kernel %d, dilation %d, padding %d) has no input "
          "element",
          (long long)o, s.name, (long long)in, s.k, s.dil, s.pad);
  }
  return a;
}

// Adaptive windows: output o of out covers [floor(o * in / out), ceil((o + 1) * in / out)).
inline Axis adaptiveAxis(int64_t in, int64_t out) {
  Axis a{std::vector<Window>(out)};
  for (int64_t o = 0; o < out; o++) {
    const int64_t first = o * in / out, end = ceilDiv((o + 1) * in, out);
    a.windows[o] = Window{first, end, 1, end - first};
  }
  return a;
}

// The output size of an adaptive pooling's backward, read off gradOutput (argument
// argNumber): {height, width}; the caller checks gradOutput's whole shape next.
template <typename TensorT>
std::pair<int64_t, int64_t> adaptiveSizeOf(const TensorT *input, const TensorT *gradOutput, int argNumber) {
  const int nd = input->nDimension;
  THArgCheck(gradOutput->nDimension == nd && gradOutput->size[nd - 2] > 0 && gradOutput->size[nd - 1] > 0, argNumber,
             "gradOutput: expected %dD with non-empty planes like input %s, got sizes %s", nd, sizesOf(input).c_str(),
             sizesOf(gradOutput).c_str());
  return {gradOutput->size[nd - 2], gradOutput->size[nd - 1]};
}

// A pooling input as nbatch * nplanes contiguous planes of size[0] x size[1] x size[2]
// (T x H x W, leading sizes 1 for fewer spatial dimensions).
struct Planes {
  int spatialDims;
  bool batched;
  int64_t nbatch, nplanes;
  int64_t size[3];
  int64_t count() const { return nbatch * nplanes; }
  int64_t planeSize() const { return size[0] * size[1] * size[2]; }
  // The sizes of a tensor with these leading sizes and planes out[0] x out[1] x out[2].
  std::vector<int64_t> shapeWith(const int64_t out[3]) const {
    std::vector<int64_t> s;
    if (batched) s.push_back(nbatch);
    s.push_back(nplanes);
    s.insert(s.end(), out + 3 - spatialDims, out + 3);
    return s;
  }
};

template <typename TensorT>
Planes planesOf(const TensorT *input, int spatialDims, int argNumber) {
  const int nd = input->nDimension;
  THArgCheck(nd == spatialDims + 1 || nd == spatialDims + 2, argNumber,
             "input: %dD or %dD (batch mode) tensor expected, got sizes %s", spatialDims + 1, spatialDims + 2,
             sizesOf(input).c_str());
  for (int d = 0; d < nd; d++)
    THArgCheck(input->size[d] > 0, argNumber, "input must not be empty, got sizes %s", sizesOf(input).c_str());
  Planes p{spatialDims, nd == spatialDims + 2, 1, 1, {1, 1, 1}};
  if (p.batched) p.nbatch = input->size[0];
  p.nplanes = input->size[nd - spatialDims - 1];
  for (int i = 0; i < spatialDims; i++) p.size[3 - spatialDims + i] = input->size[nd - spatialDims + i];
  return p;
}

template <typename TensorT>
bool hasSizes(const TensorT *t, const std::vector<int64_t> &sizes) {
  if (t->nDimension != (int)sizes.size()) return false;
  for (int d = 0; d < t->nDimension; d++)
    if (t->size[d] != sizes[d]) return false;
  return true;
}

template <typename TensorT>
void checkSizes(const TensorT *t, const std::vector<int64_t> &sizes, int argNumber, const char *name) {
  THArgCheck(hasSizes(t, sizes), argNumber, "%s: expected sizes %s, got %s", name,
             sizesOf((int)sizes.size(), sizes.data()).c_str(), sizesOf(t).c_str());
}

template <typename TensorT>
Elem<TensorT> *dataOf(TensorT *t) {
  return th::ref(t).data;
}

// The caller's result resized to sizes and written through data(): the result itself when
// contiguous, else a contiguous temporary copied into it by finish() (resize keeps a
// view's strides).
template <typename TensorT>
class Result {
 public:
  using T = Elem<TensorT>;
  Result(TensorT *target, const std::vector<int64_t> &sizes) : target_(target) {
    th::TH<T>::resizeNd(target, (int)sizes.size(), sizes.data(), nullptr);
    if (!th::isContiguous(th::ref(target)))
      tmp_ = th::own(th::TH<T>::newWithSize((int)sizes.size(), sizes.data(), nullptr));
  }
  T *data() { return dataOf(tmp_ ? tmp_.get() : target_); }
  void zero() { std::fill(data(), data() + th::numel(th::ref(target_)), T(0)); }
  void finish() {
    if (tmp_) th::apply([](T &dst, T &src) { dst = src; }, th::ref(target_), th::ref(tmp_.get()));
  }

 private:
  TensorT *target_;
  th::Owned<TensorT> tmp_;
};

// Runs body(plane) for every plane, in parallel when the planes hold enough work.
template <typename Body>
void forEachPlane(int64_t planes, int64_t workPerPlane, const Body &body) {
#pragma omp parallel for if (planes > 1 && planes * workPerPlane > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t p = 0; p < planes; p++) body(p);
}

}  // namespace pooling
}  // namespace thnn

#endif
