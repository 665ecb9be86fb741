// THNN SpatialConvolution group. The type-independent parts live here: argument checks,
// the convolution geometry, im2col / col2im, and where results are written. The kernels
// are in the generic files included at the end, once for Float and once for Double.
#include "THNN/SpatialConvolution.h"

#include <omp.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "TH/THBlas.h"
#include "TH/THTensor.hpp"
#include "THNN/dnnl/Convolution.hpp"

namespace {

std::string sizesOf(const std::vector<int64_t> &size) {
  std::string s = "[";
  for (size_t d = 0; d < size.size(); d++) s += (d ? ", " : "") + std::to_string(size[d]);
  return s + "]";
}

template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  return sizesOf(std::vector<int64_t>(t->size, t->size + t->nDimension));
}

template <typename TensorT>
bool hasSizes(const TensorT *t, const std::vector<int64_t> &size) {
  if (t->nDimension != (int)size.size()) return false;
  for (size_t d = 0; d < size.size(); d++)
    if (t->size[d] != size[d]) return false;
  return true;
}

// t must have exactly the sizes `size`, or `other` when that is given (a weight's 2-D form).
template <typename TensorT>
void checkSizes(const char *fn, const char *name, const TensorT *t, int arg, const std::vector<int64_t> &size,
                const std::vector<int64_t> &other = {}) {
  THArgCheck(t != nullptr, arg, "%s: %s must not be NULL", fn, name);
  const bool ok = hasSizes(t, size) || (!other.empty() && hasSizes(t, other));
  if (other.empty())
    THArgCheck(ok, arg, "%s: %s must have sizes %s, got %s", fn, name, sizesOf(size).c_str(), sizesOf(t).c_str());
  else
    THArgCheck(ok, arg, "%s: %s must have sizes %s or %s, got %s", fn, name, sizesOf(size).c_str(),
               sizesOf(other).c_str(), sizesOf(t).c_str());
}

template <typename TensorT>
void checkNotNull(const char *fn, const char *name, const TensorT *t, int arg) {
  THArgCheck(t != nullptr, arg, "%s: %s must not be NULL", fn, name);
}

// The shape of one layer call. "input" and "output" are the layer's, also for a transposed
// convolution (whose im2col image is its output).
struct Conv {
  int kW, kH, dW, dH, padW, padH;
  int dilationW = 1, dilationH = 1, adjW = 0, adjH = 0;
  bool batched = false;
  int64_t batch = 1, inPlanes = 0, inH = 0, inW = 0;
  int64_t outPlanes = 0, outH = 0, outW = 0;

  // A per-sample shape with the batch dimension in front when the input has one.
  std::vector<int64_t> sample(std::initializer_list<int64_t> size) const {
    std::vector<int64_t> s(size);
    if (batched) s.insert(s.begin(), batch);
    return s;
  }
  std::vector<int64_t> inputSizes() const { return sample({inPlanes, inH, inW}); }
  std::vector<int64_t> outputSizes() const { return sample({outPlanes, outH, outW}); }
};

// Kernel, stride and padding sit at argument positions kernelArg .. kernelArg + 5 in
// torch7's order (kW, kH, dW, dH, padW, padH); dilation and adj where given (0: none).
void checkParams(const char *fn, const Conv &c, int kernelArg, int dilationArg = 0, int adjArg = 0) {
  THArgCheck(c.kW > 0 && c.kH > 0, kernelArg, "%s: kernel size must be positive, got kW=%d kH=%d", fn, c.kW, c.kH);
  THArgCheck(c.dW > 0 && c.dH > 0, kernelArg + 2, "%s: stride must be positive, got dW=%d dH=%d", fn, c.dW, c.dH);
  THArgCheck(c.padW >= 0 && c.padH >= 0, kernelArg + 4, "%s: padding must be >= 0, got padW=%d padH=%d", fn, c.padW,
             c.padH);
  if (dilationArg)
    THArgCheck(c.dilationW > 0 && c.dilationH > 0, dilationArg,
               "%s: dilation must be positive, got dilationW=%d dilationH=%d", fn, c.dilationW, c.dilationH);
  if (adjArg)
    THArgCheck(c.adjW >= 0 && c.adjH >= 0 && (c.adjW < c.dW || c.adjW < c.dilationW) &&
                   (c.adjH < c.dH || c.adjH < c.dilationH),
               adjArg,
               "%s: output padding must be >= 0 and smaller than the stride or the dilation, got adjW=%d adjH=%d "
               "(dW=%d dH=%d, dilationW=%d dilationH=%d)",
               fn, c.adjW, c.adjH, c.dW, c.dH, c.dilationW, c.dilationH);
}

// Reads [batch, planes, height, width] or [planes, height, width] into c.
template <typename TensorT>
void readInput(const char *fn, const TensorT *input, int arg, Conv &c) {
  checkNotNull(fn, "input", input, arg);
  THArgCheck(input->nDimension == 3 || input->nDimension == 4, arg,
             "%s: input must be 3-D (planes x height x width) or 4-D (batch x planes x height x width), got sizes %s",
             fn, sizesOf(input).c_str());
  c.batched = input->nDimension == 4;
  const int64_t *s = input->size + (c.batched ? 1 : 0);
  c.batch = c.batched ? input->size[0] : 1;
  c.inPlanes = s[0];
  c.inH = s[1];
  c.inW = s[2];
  THArgCheck(c.inPlanes > 0 && c.inH > 0 && c.inW > 0, arg,
             "%s: input must have at least one plane, row and column, got sizes %s", fn, sizesOf(input).c_str());
}

template <typename TensorT>
void checkInputPlanes(const char *fn, const TensorT *input, int arg, const Conv &c, int64_t expected,
                      const char *weightName, const TensorT *weight) {
  THArgCheck(c.inPlanes == expected, arg, "%s: input has %lld planes but %s expects %lld (input sizes %s, %s sizes %s)",
             fn, (long long)c.inPlanes, weightName, (long long)expected, sizesOf(input).c_str(), weightName,
             sizesOf(weight).c_str());
}

// Output height and width of a convolution: (in + 2 pad - (dilation (k - 1) + 1)) / stride + 1.
template <typename TensorT>
void convolutionOutputSize(const char *fn, const TensorT *input, int arg, Conv &c) {
  auto size = [](int64_t in, int k, int d, int pad, int dilation) {
    const int64_t span = in + 2 * (int64_t)pad - ((int64_t)dilation * (k - 1) + 1);
    return span < 0 ? 0 : span / d + 1;
  };
  c.outH = size(c.inH, c.kH, c.dH, c.padH, c.dilationH);
  c.outW = size(c.inW, c.kW, c.dW, c.padW, c.dilationW);
  THArgCheck(c.outH >= 1 && c.outW >= 1, arg,
             "%s: input of sizes %s is too small for a %dx%d kernel (kH x kW) with padding %dx%d and dilation "
             "%dx%d: the output would be %lldx%lld",
             fn, sizesOf(input).c_str(), c.kH, c.kW, c.padH, c.padW, c.dilationH, c.dilationW, (long long)c.outH,
             (long long)c.outW);
}

// Output height and width of a transposed convolution: (in - 1) stride - 2 pad + dilation (k - 1) + 1 + adj.
template <typename TensorT>
void transposedOutputSize(const char *fn, const TensorT *input, int arg, Conv &c) {
  c.outH = (c.inH - 1) * c.dH - 2 * (int64_t)c.padH + (int64_t)c.dilationH * (c.kH - 1) + 1 + c.adjH;
  c.outW = (c.inW - 1) * c.dW - 2 * (int64_t)c.padW + (int64_t)c.dilationW * (c.kW - 1) + 1 + c.adjW;
  THArgCheck(c.outH >= 1 && c.outW >= 1, arg,
             "%s: input of sizes %s with a %dx%d kernel (kH x kW), stride %dx%d, padding %dx%d, dilation %dx%d and "
             "adj %dx%d gives an output of %lldx%lld, too small",
             fn, sizesOf(input).c_str(), c.kH, c.kW, c.dH, c.dW, c.padH, c.padW, c.dilationH, c.dilationW, c.adjH,
             c.adjW, (long long)c.outH, (long long)c.outW);
}

// A weight [a, b, kH, kW], or [a, b*kH*kW] when allow2d; returns {a, b}. `layout` names a
// and b for messages ("nOutputPlane, nInputPlane").
template <typename TensorT>
std::pair<int64_t, int64_t> readWeight(const char *fn, const char *name, const TensorT *w, int arg, const Conv &c,
                                       const char *layout, bool allow2d) {
  checkNotNull(fn, name, w, arg);
  const int64_t k = (int64_t)c.kH * c.kW;
  if (w->nDimension == 4) {
    THArgCheck(w->size[0] > 0 && w->size[1] > 0 && w->size[2] == c.kH && w->size[3] == c.kW, arg,
               "%s: %s must have sizes [%s, kH=%d, kW=%d], got %s", fn, name, layout, c.kH, c.kW, sizesOf(w).c_str());
    return {w->size[0], w->size[1]};
  }
  THArgCheck(allow2d, arg, "%s: %s must be 4-D [%s, kH=%d, kW=%d], got sizes %s", fn, name, layout, c.kH, c.kW,
             sizesOf(w).c_str());
  THArgCheck(w->nDimension == 2 && w->size[0] > 0 && w->size[1] > 0 && w->size[1] % k == 0, arg,
             "%s: %s must be 4-D [%s, kH=%d, kW=%d] or 2-D with the last three sizes merged (%lld kernel elements), "
             "got sizes %s",
             fn, name, layout, c.kH, c.kW, (long long)k, sizesOf(w).c_str());
  return {w->size[0], w->size[1] / k};
}

// One image [planes, height, width] and the outH x outW positions of a kH x kW kernel on it.
// Its column matrix has a row per (plane, kh, kw) and a column per kernel position:
// columns[(c kH + kh) kW + kw][y outW + x] = image[c][y dH - padH + kh dilationH][x dW - padW + kw dilationW]
// (0 outside the image).
struct Unfold {
  int64_t planes, height, width, outH, outW;
  int kH, kW, dH, dW, padH, padW, dilationH, dilationW;
  int64_t rows() const { return planes * kH * kW; }
  int64_t positions() const { return outH * outW; }
};

// The convolution's input is the image; the kernel positions are the output pixels.
Unfold unfoldInput(const Conv &c) {
  return {c.inPlanes, c.inH, c.inW, c.outH, c.outW, c.kH, c.kW, c.dH, c.dW, c.padH, c.padW, c.dilationH, c.dilationW};
}

// A transposed convolution's output is the image; the kernel positions are the input pixels.
Unfold unfoldOutput(const Conv &c) {
  return {c.outPlanes, c.outH, c.outW, c.inH, c.inW, c.kH, c.kW, c.dH, c.dW, c.padH, c.padW, c.dilationH, c.dilationW};
}

// [lo, hi): the positions o in [0, count) with 0 <= o * stride + offset < size.
void validRange(int64_t offset, int64_t stride, int64_t size, int64_t count, int64_t &lo, int64_t &hi) {
  lo = offset >= 0 ? 0 : std::min(count, (-offset + stride - 1) / stride);
  hi = size - 1 - offset < 0 ? 0 : std::min(count, (size - 1 - offset) / stride + 1);
  hi = std::max(hi, lo);
}

// Writes the kH*kW rows of plane p of `columns` from plane p of `image`.
template <typename T>
void im2colPlane(const Unfold &u, const T *image, T *columns, int64_t p) {
  const T *plane = image + p * u.height * u.width;
  const int64_t n = u.positions();
  for (int kh = 0; kh < u.kH; kh++) {
    for (int kw = 0; kw < u.kW; kw++) {
      T *row = columns + ((p * u.kH + kh) * u.kW + kw) * n;
      const int64_t xOffset = (int64_t)kw * u.dilationW - u.padW;
      int64_t lo, hi;
      validRange(xOffset, u.dW, u.width, u.outW, lo, hi);
      for (int64_t y = 0; y < u.outH; y++) {
        T *dst = row + y * u.outW;
        const int64_t iy = y * u.dH - u.padH + (int64_t)kh * u.dilationH;
        if (iy < 0 || iy >= u.height) {
          std::fill(dst, dst + u.outW, T(0));
          continue;
        }
        const T *line = plane + iy * u.width;
        std::fill(dst, dst + lo, T(0));
        if (u.dW == 1)
          std::copy(line + lo + xOffset, line + hi + xOffset, dst + lo);
        else
          for (int64_t x = lo; x < hi; x++) dst[x] = line[x * u.dW + xOffset];
        std::fill(dst + hi, dst + u.outW, T(0));
      }
    }
  }
}

// Adds the kH*kW rows of plane p of `columns` into plane p of `image` (the adjoint of im2col).
template <typename T>
void col2imPlane(const Unfold &u, const T *columns, T *image, int64_t p) {
  T *plane = image + p * u.height * u.width;
  const int64_t n = u.positions();
  for (int kh = 0; kh < u.kH; kh++) {
    for (int kw = 0; kw < u.kW; kw++) {
      const T *row = columns + ((p * u.kH + kh) * u.kW + kw) * n;
      const int64_t xOffset = (int64_t)kw * u.dilationW - u.padW;
      int64_t lo, hi;
      validRange(xOffset, u.dW, u.width, u.outW, lo, hi);
      for (int64_t y = 0; y < u.outH; y++) {
        const int64_t iy = y * u.dH - u.padH + (int64_t)kh * u.dilationH;
        if (iy < 0 || iy >= u.height) continue;
        const T *src = row + y * u.outW;
        T *line = plane + iy * u.width;
        if (u.dW == 1)  // a contiguous run: vectorised
          for (int64_t x = lo; x < hi; x++) line[x + xOffset] += src[x];
        else
          for (int64_t x = lo; x < hi; x++) line[x * u.dW + xOffset] += src[x];
      }
    }
  }
}

// Runs f(i) for i in [0, n) on OpenMP threads when the whole work (n items of `cost`
// elements each) is worth it. f must not raise.
template <typename F>
void parallelFor(int64_t n, int64_t cost, F &&f) {
#pragma omp parallel for if (n > 1 && n * cost > TH_OMP_THRESHOLD && !omp_in_parallel()) num_threads(THUsableThreads())
  for (int64_t i = 0; i < n; i++) f(i);
}

// Fills plane o of out [planes, n] with bias[o], or with 0 when there is no bias.
template <typename T>
void fillPlane(T *out, const T *bias, int64_t o, int64_t n) {
  std::fill(out + o * n, out + (o + 1) * n, bias ? bias[o] : T(0));
}

// im2col of a batch: images [batch, planes, height, width] -> columns [batch, rows, positions],
// one OpenMP work item per (sample, plane).
template <typename T>
void unfoldBatch(const Unfold &u, int64_t batch, const T *images, T *columns) {
  const int64_t image = u.planes * u.height * u.width, matrix = u.rows() * u.positions();
  parallelFor(batch * u.planes, matrix / u.planes, [&](int64_t i) {
    const int64_t s = i / u.planes;
    im2colPlane(u, images + s * image, columns + s * matrix, i % u.planes);
  });
}

// col2im of a batch: plane p of every image is set to fill[p] (0 when fill is NULL), then
// the columns are added into it.
template <typename T>
void foldBatch(const Unfold &u, int64_t batch, const T *columns, T *images, const T *fill) {
  const int64_t plane = u.height * u.width, matrix = u.rows() * u.positions();
  parallelFor(batch * u.planes, matrix / u.planes, [&](int64_t i) {
    const int64_t s = i / u.planes, p = i % u.planes;
    T *image = images + s * u.planes * plane;
    fillPlane(image, fill, p, plane);
    col2imPlane(u, columns + s * matrix, image, p);
  });
}

template <typename T>
using TensorOf = typename th::TH<T>::Tensor;

// Where a kernel writes a result or accumulates a gradient: the caller's tensor when it is
// contiguous, else a contiguous stand-in that finish() copies into it (a view the caller
// handed in keeps its strides and gets the values).
template <typename T>
class Target {
 public:
  // A result: t is resized to `size`, its old values are not read.
  static Target result(TensorOf<T> *t, const std::vector<int64_t> &size) {
    th::TH<T>::resizeNd(t, (int)size.size(), size.data(), nullptr);
    Target r(t);
    if (!th::isContiguous(th::ref(t))) r.standIn_ = th::own(th::TH<T>::newWithSize(t->nDimension, t->size, nullptr));
    return r;
  }
  // An accumulator: t keeps its shape and values. NULL (an optional gradient not asked for)
  // gives a NULL data().
  static Target accumulator(TensorOf<T> *t) {
    Target r(t);
    if (t && !th::isContiguous(th::ref(t))) r.standIn_ = th::own(th::TH<T>::newContiguous(t));
    return r;
  }
  T *data() const {
    if (!target_) return nullptr;
    return th::ref(standIn_ ? standIn_.get() : target_).data;
  }
  void finish() {
    if (standIn_) th::apply([](T &dst, T &src) { dst = src; }, th::ref(target_), th::ref(standIn_.get()));
  }

 private:
  explicit Target(TensorOf<T> *t) : target_(t) {}
  TensorOf<T> *target_;
  th::Owned<TensorOf<T>> standIn_;
};

// A scratch buffer of the caller's, resized to `size` with contiguous strides.
template <typename T>
T *scratch(TensorOf<T> *t, const std::vector<int64_t> &size) {
  std::vector<int64_t> stride(size.size());
  int64_t acc = 1;
  for (size_t d = size.size(); d-- > 0;) {
    stride[d] = acc;
    acc *= size[d];
  }
  th::TH<T>::resizeNd(t, (int)size.size(), size.data(), stride.data());
  return th::ref(t).data;
}

// A contiguous version of t (t itself when it is one) that frees itself.
template <typename T>
th::Owned<TensorOf<T>> contiguous(TensorOf<T> *t) {
  return th::own(t ? th::TH<T>::newContiguous(t) : nullptr);
}

template <typename T>
const T *dataOf(const th::Owned<TensorOf<T>> &t) {
  return t ? th::ref(t.get()).data : nullptr;
}

// gradBias[o] += scale * (sum of plane o of every sample of grad [batch, planes, n]).
template <typename T>
void accumulatePlaneSums(T *gradBias, const T *grad, int64_t batch, int64_t planes, int64_t n, T scale) {
  parallelFor(planes, batch * n, [&](int64_t o) {
    double sum = 0;
    for (int64_t s = 0; s < batch; s++) {
      const T *plane = grad + (s * planes + o) * n;
      for (int64_t i = 0; i < n; i++) sum += plane[i];
    }
    gradBias[o] += scale * (T)sum;
  });
}

// A 1x1 kernel with stride 1 and no padding: the unfolded input is the input itself, so the
// im2col path multiplies it (and writes gradInput) directly, and leaves finput alone.
bool unfoldIsIdentity(const Conv &c) {
  return c.kH == 1 && c.kW == 1 && c.dH == 1 && c.dW == 1 && c.padH == 0 && c.padW == 0;
}

// Float convolutions on oneDNN (Note [oneDNN convolution] in dnnl/Convolution.cpp): each
// returns false, for double too, when the caller is to take the im2col path. `buffer` is the
// caller's scratch tensor.
thnn::dnnl_conv::Geometry geometryOf(const Conv &c) {
  return {c.batch, c.inPlanes, c.inH, c.inW,  c.outPlanes, c.outH,      c.outW,     c.kH,
          c.kW,    c.dH,       c.dW,  c.padH, c.padW,      c.dilationH, c.dilationW};
}

thnn::dnnl_conv::Scratch scratchIn(THFloatTensor *buffer) {
  return [buffer](size_t n) { return scratch<float>(buffer, {static_cast<int64_t>(n)}); };
}

bool dnnlForward(const Conv &c, const float *input, const float *weight, const float *bias, float *output,
                 THFloatTensor *buffer) {
  return thnn::dnnl_conv::enabled() &&
         thnn::dnnl_conv::forward(geometryOf(c), input, weight, bias, output, scratchIn(buffer));
}

bool dnnlBackwardData(const Conv &c, const float *gradOutput, const float *weight, float *gradInput,
                      THFloatTensor *buffer) {
  return thnn::dnnl_conv::enabled() &&
         thnn::dnnl_conv::backwardData(geometryOf(c), gradOutput, weight, gradInput, scratchIn(buffer));
}

bool dnnlBackwardWeights(const Conv &c, const float *input, const float *gradOutput, float *gradWeight, float *gradBias,
                         float scale, THFloatTensor *buffer) {
  return thnn::dnnl_conv::enabled() && thnn::dnnl_conv::backwardWeights(geometryOf(c), input, gradOutput, gradWeight,
                                                                        gradBias, scale, scratchIn(buffer));
}

bool dnnlForward(const Conv &, const double *, const double *, const double *, double *, THDoubleTensor *) {
  return false;
}

bool dnnlBackwardData(const Conv &, const double *, const double *, double *, THDoubleTensor *) { return false; }

bool dnnlBackwardWeights(const Conv &, const double *, const double *, double *, double *, double, THDoubleTensor *) {
  return false;
}

}  // namespace

#define TH_GENERIC_FILE "THNN/generic/SpatialConvolutionGemm.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/SpatialConvolutionMM.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/SpatialFullConvolution.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/SpatialConvolutionLocal.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/SpatialDepthwiseConvolution.cpp"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THNN/generic/SpatialSubSampling.cpp"
#include "TH/THGenerateFloatTypes.h"
