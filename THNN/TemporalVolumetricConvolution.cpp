// Temporal and volumetric convolutions. The type-independent parts live here: checks
// over the tensor structs, the contiguous-result wrapper and vol2col / col2vol; the
// kernels are in generic/TemporalVolumetricConvolution{Common,Temporal,Row,Volumetric}.cpp,
// compiled for Float and Double.
#include "THNN/TemporalVolumetricConvolution.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "TH/THTensor.hpp"

namespace {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT *>()->storage->data)>;

// "[2, 3]" ("NULL" for a missing tensor), owned by the caller (sizeDesc's buffer would be
// shared by two calls in one message).
template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  if (!t) return "NULL";
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

std::string sizesOf(const std::vector<int64_t> &sizes) {
  std::string s = "[";
  for (size_t d = 0; d < sizes.size(); d++) s += (d ? ", " : "") + std::to_string(sizes[d]);
  return s + "]";
}

template <typename TensorT>
void checkSizes(const char *fn, const char *name, const TensorT *t, int arg, const std::vector<int64_t> &sizes) {
  bool same = t && t->nDimension == (int)sizes.size();
  for (int d = 0; same && d < t->nDimension; d++) same = t->size[d] == sizes[d];
  THArgCheck(same, arg, "%s: %s must have sizes %s, got %s", fn, name, sizesOf(sizes).c_str(), sizesOf(t).c_str());
}

// bias and gradBias are [OPTIONAL] (NULL) where torch7 allows it.
template <typename TensorT>
void checkBias(const char *fn, const char *name, const TensorT *bias, int arg, int64_t planes) {
  if (bias) checkSizes(fn, name, bias, arg, {planes});
}

// Scratch buffers are resized contiguous whatever strides they had (Note [Convolution buffers]).
template <typename TensorT>
void resizeBuffer(TensorT *t, std::vector<int64_t> size) {
  std::vector<int64_t> stride(size.size());
  int64_t acc = 1;
  for (size_t d = size.size(); d-- > 0;) {
    stride[d] = acc;
    acc *= std::max<int64_t>(size[d], 1);
  }
  th::TH<Elem<TensorT>>::resizeNd(t, (int)size.size(), size.data(), stride.data());
}

// Kernels write results through raw pointers and matrix views. A result that the caller
// passed as a non-contiguous view of the right size keeps its strides through resize, so
// the kernel works in a contiguous copy and commit() writes it back.
template <typename TensorT>
class Contiguous {
  using T = Elem<TensorT>;

 public:
  explicit Contiguous(TensorT *t) : target_(t), work_(th::own(th::TH<T>::newContiguous(t))) {}
  TensorT *get() const { return work_.get(); }
  T *data() const { return th::ref(work_.get()).data; }
  void commit() const {
    if (work_.get() != target_) th::apply([](T &d, T &s) { d = s; }, th::ref(target_), th::ref(work_.get()));
  }

 private:
  TensorT *target_;
  th::Owned<TensorT> work_;
};

// A 1-d tensor read or updated through its stride.
template <typename TensorT>
struct Strided1d {
  Elem<TensorT> *data;
  int64_t stride;
  explicit Strided1d(TensorT *t) : data(th::ref(t).data), stride(t->stride[0]) {}
  Elem<TensorT> &operator[](int64_t i) const { return data[i * stride]; }
};

// One axis of a convolution seen from its columns: column position o, tap k reads volume
// position o * stride - pad + k * dilation (zero outside [0, in)).
struct Axis {
  int64_t in, out, kernel, stride, pad, dilation;

  int64_t source(int64_t o, int64_t k) const { return o * stride - pad + k * dilation; }
  bool inside(int64_t i) const { return i >= 0 && i < in; }
  // [lo, hi): the column positions whose tap k lands inside the volume.
  void valid(int64_t k, int64_t &lo, int64_t &hi) const {
    const int64_t off = k * dilation - pad;
    lo = off >= 0 ? 0 : (-off + stride - 1) / stride;
    hi = in - off <= 0 ? 0 : (in - off - 1) / stride + 1;
    lo = std::min(lo, out);
    hi = std::max(lo, std::min(hi, out));
  }
};

// A volume of `channels` planes of t x h x w and its columns: row (c, kt, kh, kw), column
// (ot, oh, ow), as torch7 lays them out.
struct VolGeometry {
  int64_t channels;
  Axis t, h, w;
  int64_t rows() const { return channels * t.kernel * h.kernel * w.kernel; }
  int64_t cols() const { return t.out * h.out * w.out; }
};

// Note [Serial unfolding]: vol2col and col2vol run on one thread. They only move memory,
// and each sits between GEMMs: OpenBLAS's worker threads keep spinning for a while after
// a GEMM, so an OpenMP region there shares its cores with them and ran 2-5x slower than
// this serial loop on the 2-core build machine.

// col (rows x cols, contiguous) = the columns of vol, read through strides (plane, t, h, w).
template <typename T>
void vol2col(const T *vol, const int64_t *vs, const VolGeometry &g, T *col) {
  const int64_t rows = g.rows(), n = g.cols();
  for (int64_t r = 0; r < rows; r++) {
    const int64_t kw = r % g.w.kernel, kh = r / g.w.kernel % g.h.kernel;
    const int64_t kt = r / (g.w.kernel * g.h.kernel) % g.t.kernel, c = r / (g.w.kernel * g.h.kernel * g.t.kernel);
    int64_t lo, hi;
    g.w.valid(kw, lo, hi);
    const int64_t step = g.w.stride * vs[3];
    T *dst = col + r * n;
    for (int64_t ot = 0; ot < g.t.out; ot++) {
      const int64_t it = g.t.source(ot, kt);
      for (int64_t oh = 0; oh < g.h.out; oh++, dst += g.w.out) {
        const int64_t ih = g.h.source(oh, kh);
        if (!g.t.inside(it) || !g.h.inside(ih)) {
          std::fill(dst, dst + g.w.out, T(0));
          continue;
        }
        const T *src = vol + c * vs[0] + it * vs[1] + ih * vs[2];
        std::fill(dst, dst + lo, T(0));
        if (step == 1 && lo < hi)  // unit stride over a contiguous row: a plain copy
          std::copy(src + g.w.source(lo, kw), src + g.w.source(hi, kw), dst + lo);
        else
          for (int64_t ow = lo; ow < hi; ow++) dst[ow] = src[g.w.source(ow, kw) * vs[3]];
        std::fill(dst + hi, dst + g.w.out, T(0));
      }
    }
  }
}

// vol += the columns folded back (each column entry added where vol2col read it), vol
// written through strides.
template <typename T>
void col2vol(const T *col, const VolGeometry &g, T *vol, const int64_t *vs) {
  const int64_t n = g.cols(), taps = g.t.kernel * g.h.kernel * g.w.kernel;
  for (int64_t c = 0; c < g.channels; c++) {
    for (int64_t tap = 0; tap < taps; tap++) {
      const int64_t kw = tap % g.w.kernel, kh = tap / g.w.kernel % g.h.kernel, kt = tap / (g.w.kernel * g.h.kernel);
      int64_t lo, hi;
      g.w.valid(kw, lo, hi);
      const int64_t step = g.w.stride * vs[3];
      const T *src = col + (c * taps + tap) * n;
      for (int64_t ot = 0; ot < g.t.out; ot++) {
        const int64_t it = g.t.source(ot, kt);
        for (int64_t oh = 0; oh < g.h.out; oh++, src += g.w.out) {
          const int64_t ih = g.h.source(oh, kh);
          if (!g.t.inside(it) || !g.h.inside(ih)) continue;
          T *dst = vol + c * vs[0] + it * vs[1] + ih * vs[2];
          if (step == 1 && lo < hi) {
            T *row = dst + g.w.source(lo, kw);
            for (int64_t i = 0; i < hi - lo; i++) row[i] += src[lo + i];
          } else {
            for (int64_t ow = lo; ow < hi; ow++) dst[g.w.source(ow, kw) * vs[3]] += src[ow];
          }
        }
      }
    }
  }
}

// data[r][i] += bias[r] over a rows x n contiguous block (nothing without bias).
template <typename T, typename TensorT>
void addBias(T *data, int64_t rows, int64_t n, TensorT *bias) {
  if (!bias) return;
  const Strided1d<TensorT> b(bias);
  for (int64_t r = 0; r < rows; r++) {
    const T v = b[r];
    for (int64_t i = 0; i < n; i++) data[r * n + i] += v;
  }
}

// gradBias[r] += scale * sum over i of data[r * rowStride + i * colStride].
template <typename T, typename TensorT>
void addRowSums(TensorT *gradBias, const T *data, int64_t rows, int64_t rowStride, int64_t n, int64_t colStride,
                T scale) {
  if (!gradBias) return;
  const Strided1d<TensorT> gb(gradBias);
  for (int64_t r = 0; r < rows; r++) {
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += data[r * rowStride + i * colStride];
    gb[r] = (T)(gb[r] + (double)scale * sum);
  }
}

// ---- Temporal kernels: (batch x) frames x features, or features x frames (featFirst) ----

struct Frames {
  bool batched;
  int64_t batch, frames, features;
  int frameDim, featureDim;
  bool featFirst;
  // Sizes of a tensor of this layout and batch.
  std::vector<int64_t> sizes(int64_t nFrames, int64_t nFeatures) const {
    std::vector<int64_t> s;
    if (batched) s.push_back(batch);
    s.push_back(featFirst ? nFeatures : nFrames);
    s.push_back(featFirst ? nFrames : nFeatures);
    return s;
  }
};

template <typename TensorT>
Frames framesOf(const char *fn, const TensorT *input, bool featFirst) {
  THArgCheck(input && (input->nDimension == 2 || input->nDimension == 3), 2,
             "%s: input must be 2-d (%s) or 3-d (batch x %s), got sizes %s", fn,
             featFirst ? "features x frames" : "frames x features",
             featFirst ? "features x frames" : "frames x features", sizesOf(input).c_str());
  const int b = input->nDimension == 3;
  Frames f;
  f.batched = b;
  f.batch = b ? input->size[0] : 1;
  f.featFirst = featFirst;
  f.featureDim = b + (featFirst ? 0 : 1);
  f.frameDim = b + (featFirst ? 1 : 0);
  f.frames = input->size[f.frameDim];
  f.features = input->size[f.featureDim];
  return f;
}

// Checks kernel width, stride and padding (arguments kWArg, +1, +2) against the input;
// returns the number of output frames.
template <typename TensorT>
int64_t outputFrames(const char *fn, const Frames &in, const TensorT *input, int kW, int dW, int padW, int kWArg) {
  THArgCheck(kW > 0, kWArg, "%s: kernel width kW must be positive, got %d", fn, kW);
  THArgCheck(dW > 0, kWArg + 1, "%s: stride dW must be positive, got %d", fn, dW);
  THArgCheck(padW >= 0, kWArg + 2, "%s: padding padW must be >= 0, got %d", fn, padW);
  THArgCheck(in.frames + 2 * padW >= kW, 2,
             "%s: input sizes %s have %lld frames%s, fewer than the kernel width kW = %d", fn, sizesOf(input).c_str(),
             (long long)in.frames, padW ? " with padding" : "", kW);
  return (in.frames + 2 * padW - kW) / dW + 1;
}

// gradBias[f] += scale * sum over frames of data[frame][f] (frames x features, contiguous).
template <typename T, typename TensorT>
void addFrameSums(TensorT *gradBias, const T *data, int64_t frames, int64_t features, T scale) {
  addRowSums(gradBias, data, features, 1, frames, features, scale);
}

// ---- Volumetric kernels ----

// Kernel size, stride, padding and dilation (or output adjustment) in t, h, w order;
// `arg` is the argument number of kT. torch7 passes each triple as T, W, H.
struct ConvParams {
  int k[3], d[3], p[3], e[3];
  int arg;
  int argOf(int group, int axis) const { return arg + 3 * group + (axis == 0 ? 0 : axis == 1 ? 2 : 1); }
};

// transposed: e holds output adjustments (0 <= adj < stride), else dilations (> 0).
inline void checkParams(const char *fn, const ConvParams &c, bool transposed) {
  for (int a = 0; a < 3; a++) {
    THArgCheck(c.k[a] > 0, c.argOf(0, a), "%s: kernel size must be positive, got kT = %d, kW = %d, kH = %d", fn, c.k[0],
               c.k[2], c.k[1]);
    THArgCheck(c.d[a] > 0, c.argOf(1, a), "%s: stride must be positive, got dT = %d, dW = %d, dH = %d", fn, c.d[0],
               c.d[2], c.d[1]);
    THArgCheck(c.p[a] >= 0, c.argOf(2, a), "%s: padding must be >= 0, got padT = %d, padW = %d, padH = %d", fn, c.p[0],
               c.p[2], c.p[1]);
    if (transposed)
      THArgCheck(c.e[a] >= 0 && c.e[a] < c.d[a], c.argOf(3, a),
                 "%s: output adjustment must be >= 0 and smaller than the stride, got adjT = %d, adjW = %d, "
                 "adjH = %d with dT = %d, dW = %d, dH = %d",
                 fn, c.e[0], c.e[2], c.e[1], c.d[0], c.d[2], c.d[1]);
    else
      THArgCheck(c.e[a] > 0, c.argOf(3, a),
                 "%s: dilation must be positive, got dilationT = %d, dilationW = %d, "
                 "dilationH = %d",
                 fn, c.e[0], c.e[2], c.e[1]);
  }
}

// A weight (or gradWeight) planes0 x planes1 x kT x kH x kW, or its 2-d view
// planes0 x (planes1 * kT * kH * kW); returns {planes0, planes1}. layout names the planes.
template <typename TensorT>
std::pair<int64_t, int64_t> weightPlanes(const char *fn, const char *name, const TensorT *w, int arg,
                                         const ConvParams &c, const char *layout) {
  const int64_t taps = (int64_t)c.k[0] * c.k[1] * c.k[2];
  const bool full = w && w->nDimension == 5 && w->size[2] == c.k[0] && w->size[3] == c.k[1] && w->size[4] == c.k[2];
  const bool flat = w && w->nDimension == 2 && w->size[1] % taps == 0;
  THArgCheck((full || flat) && w->size[0] > 0 && w->size[1] > 0, arg,
             "%s: %s must be %s with kT x kH x kW = %d x %d x %d (or its 2-d view), got sizes %s", fn, name, layout,
             c.k[0], c.k[1], c.k[2], sizesOf(w).c_str());
  return {w->size[0], full ? w->size[1] : w->size[1] / taps};
}

// The sizes of a 3-d convolution. Its geometry sees the side that is read as columns as
// the volume: the input for VolumetricConvolutionMM / Dilated, the output for the
// transposed VolumetricFullConvolution.
struct Volumetric {
  bool batched;
  int64_t batch, inPlanes, outPlanes;
  int64_t in[3], out[3];  // t, h, w
  VolGeometry geometry;
  int64_t inVolume() const { return in[0] * in[1] * in[2]; }
  int64_t outVolume() const { return out[0] * out[1] * out[2]; }
  std::vector<int64_t> sizes(int64_t planes, const int64_t *s) const {
    std::vector<int64_t> v;
    if (batched) v.push_back(batch);
    v.insert(v.end(), {planes, s[0], s[1], s[2]});
    return v;
  }
  std::vector<int64_t> inputSizes() const { return sizes(inPlanes, in); }
  std::vector<int64_t> outputSizes() const { return sizes(outPlanes, out); }
};

template <typename TensorT>
Volumetric volumetricOf(const char *fn, const TensorT *input, int64_t inPlanes, int64_t outPlanes, const ConvParams &c,
                        bool transposed) {
  THArgCheck(input && (input->nDimension == 4 || input->nDimension == 5), 2,
             "%s: input must be 4-d (planes x depth x height x width) or 5-d (batch x planes x depth x height x "
             "width), got sizes %s",
             fn, sizesOf(input).c_str());
  const int b = input->nDimension == 5;
  THArgCheck(input->size[b] == inPlanes, 2, "%s: input must have %lld planes (weight's), got sizes %s", fn,
             (long long)inPlanes, sizesOf(input).c_str());
  Volumetric v;
  v.batched = b;
  v.batch = b ? input->size[0] : 1;
  v.inPlanes = inPlanes;
  v.outPlanes = outPlanes;
  Axis axes[3];
  for (int a = 0; a < 3; a++) {
    v.in[a] = input->size[b + 1 + a];
    if (transposed) {
      v.out[a] = (v.in[a] - 1) * c.d[a] - 2 * c.p[a] + c.k[a] + c.e[a];
      axes[a] = {v.out[a], v.in[a], c.k[a], c.d[a], c.p[a], 1};
    } else {
      const int64_t span = (int64_t)c.e[a] * (c.k[a] - 1) + 1;
      v.out[a] = v.in[a] + 2 * c.p[a] >= span ? (v.in[a] + 2 * c.p[a] - span) / c.d[a] + 1 : 0;
      axes[a] = {v.in[a], v.out[a], c.k[a], c.d[a], c.p[a], c.e[a]};
    }
  }
  THArgCheck(v.out[0] > 0 && v.out[1] > 0 && v.out[2] > 0 && v.in[0] > 0 && v.in[1] > 0 && v.in[2] > 0, 2,
             "%s: input sizes %s give an empty output of depth x height x width = %lld x %lld x %lld", fn,
             sizesOf(input).c_str(), (long long)v.out[0], (long long)v.out[1], (long long)v.out[2]);
  v.geometry = {transposed ? outPlanes : inPlanes, axes[0], axes[1], axes[2]};
  return v;
}

}  // namespace

#define TH_GENERIC_FILE "THNN/generic/TemporalVolumetricConvolutionCommon.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/TemporalConvolution.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/TemporalRowConvolution.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/VolumetricConvolution.cpp"
#include "TH/THGenerateFloatTypes.h"
