// Max pooling with indices on the GPU (THCUNN/generic/MaxPooling.h). Its indices count from
// TH_INDEX_BASE, so this translation unit is built once per base (THCUNN/defs.bzl).
//
// Note [Max pooling on the GPU]: the checks, output sizes and windows are THNN's own, built
// on the host by the same helpers (THNN/generic/PoolingHelpers.h: one frame of planes and
// per-axis window lists, Note [One pooling frame]); the windows are copied to the device.
// The forward runs one thread per output element and scans its window in THNN's order, so
// the first maximum (or the first NaN) wins as on the CPU. The backward checks the indices
// first (Note [First bad element]), zeroes gradInput and has one thread per plane add the
// plane's gradOutput elements into the positions their indices name, in output order:
// no atomics, the same additions in the same order as THNN, so the same bits; it is also
// correct for indices that do not come from a forward.
#include <vector>

#include "THCUNN/Common.cuh"
#include "THCUNN/THCUNN.h"
#include "THNN/generic/PoolingHelpers.h"

namespace thcunn {
namespace {  // internal: the code differs per index base

using thnn::pooling::Axis;
using thnn::pooling::Planes;
using thnn::pooling::SlidingSpec;

constexpr int64_t kBase = TH_INDEX_BASE;

// One window on the device: first, end, step (Window's, without the padded length).
struct DeviceWindow {
  int64_t first, end, step;
};

// The windows of the three axes in one device buffer: axis a's start at offset[a].
struct DeviceAxes {
  const DeviceWindow *w;
  int64_t out[3];
  __device__ const DeviceWindow &at(int a, int64_t o) const {
    return w[(a == 0 ? 0 : a == 1 ? out[0] : out[0] + out[1]) + o];
  }
};

class Windows {
 public:
  Windows(const Axis (&ax)[3], cudaStream_t stream) {
    std::vector<DeviceWindow> all;
    for (int a = 0; a < 3; a++) {
      out_[a] = ax[a].out();
      for (const auto &w : ax[a].windows) all.push_back(DeviceWindow{w.first, w.end, w.step});
    }
    buffer_ = std::make_unique<DeviceBuffer>(all.size() * sizeof(DeviceWindow), stream);
    THCudaCheck(cudaMemcpyAsync(buffer_->as<void>(), all.data(), all.size() * sizeof(DeviceWindow),
                                cudaMemcpyHostToDevice, stream));
    THCudaCheck(cudaStreamSynchronize(stream));  // `all` is freed on return
  }
  DeviceAxes axes() const { return DeviceAxes{buffer_->as<DeviceWindow>(), {out_[0], out_[1], out_[2]}}; }

 private:
  int64_t out_[3];
  std::unique_ptr<DeviceBuffer> buffer_;
};

// THNN's rule: a later element wins when larger, or when it is the first NaN.
__device__ __forceinline__ bool beats(float v, float best) { return v > best || (isnan(v) && !isnan(best)); }
__device__ __forceinline__ bool beats(double v, double best) { return v > best || (isnan(v) && !isnan(best)); }

template <typename T>
__global__ void maxPoolForward(const T *src, int64_t H, int64_t W, int64_t inPlane, DeviceAxes ax, int64_t n, T *dst,
                               int64_t *ind) {
  using C = Compute<T>;
  const int64_t outPlane = ax.out[0] * ax.out[1] * ax.out[2];
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t p = i / outPlane, o = i % outPlane;
    const DeviceWindow &wt = ax.at(0, o / (ax.out[1] * ax.out[2]));
    const DeviceWindow &wh = ax.at(1, o / ax.out[2] % ax.out[1]);
    const DeviceWindow &ww = ax.at(2, o % ax.out[2]);
    const T *plane = src + p * inPlane;
    int64_t best = (wt.first * H + wh.first) * W + ww.first;
    C bestValue = load<C>(plane[best]);
    for (int64_t z = wt.first; z < wt.end; z += wt.step)
      for (int64_t y = wh.first; y < wh.end; y += wh.step) {
        const int64_t row = (z * H + y) * W;
        for (int64_t x = ww.first; x < ww.end; x += ww.step) {
          const C v = load<C>(plane[row + x]);
          if (beats(v, bestValue)) {
            bestValue = v;
            best = row + x;
          }
        }
      }
    dst[i] = plane[best];
    ind[i] = best + kBase;
  }
}

__global__ void badIndexKernel(const int64_t *ind, int64_t n, int64_t limit, unsigned long long *flag) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    if (ind[i] < kBase || ind[i] >= kBase + limit) offerBad(flag, i);
}

template <typename T>
__global__ void maxPoolBackward(const T *gradOutput, const int64_t *ind, int64_t planes, int64_t inPlane,
                                int64_t outPlane, T *gradInput) {
  using C = Compute<T>;
  for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < planes; p += (int64_t)gridDim.x * blockDim.x) {
    T *dst = gradInput + p * inPlane;
    for (int64_t o = p * outPlane; o < (p + 1) * outPlane; o++) {
      T &d = dst[ind[o] - kBase];
      d = thc::convert<T>(load<C>(d) + load<C>(gradOutput[o]));
    }
  }
}

template <typename TensorT>
void forward(THCState *state, TensorT *input, TensorT *output, THCudaLongTensor *indices, const Planes &P,
             const Axis (&ax)[3]) {
  using T = thc::Elem<TensorT>;
  cudaStream_t stream = THCState_getCurrentStream(state);
  auto in = contiguous(state, input);
  const int64_t out[3] = {ax[0].out(), ax[1].out(), ax[2].out()};
  const std::vector<int64_t> shape = P.shapeWith(out);
  thc::THC<T>::resizeNd(state, output, (int)shape.size(), shape.data(), nullptr);
  thc::THC<int64_t>::resizeNd(state, indices, (int)shape.size(), shape.data(), nullptr);
  ContiguousResult<TensorT> res(state, output);
  ContiguousResult<THCudaLongTensor> idx(state, indices);
  const int64_t n = P.count() * out[0] * out[1] * out[2];
  Windows windows(ax, stream);
  maxPoolForward<<<thc::gridFor(n), thc::kBlock, 0, stream>>>(dataOf(in.get()), P.size[1], P.size[2], P.planeSize(),
                                                              windows.axes(), n, res.data(), idx.data());
  THCudaCheckLaunch();
  res.finish();
  idx.finish();
}

template <typename TensorT>
void backward(THCState *state, TensorT *input, TensorT *gradOutput, TensorT *gradInput, THCudaLongTensor *indices,
              const Planes &P, const Axis (&ax)[3], int gradOutputArg, int indicesArg) {
  using T = thc::Elem<TensorT>;
  cudaStream_t stream = THCState_getCurrentStream(state);
  const int64_t out[3] = {ax[0].out(), ax[1].out(), ax[2].out()};
  const std::vector<int64_t> shape = P.shapeWith(out);
  thnn::pooling::checkSizes(gradOutput, shape, gradOutputArg, "gradOutput");
  thnn::pooling::checkSizes(indices, shape, indicesArg, "indices");
  auto go = contiguous(state, gradOutput);
  auto ind = contiguous(state, indices);
  const int64_t inPlane = P.planeSize(), outPlane = out[0] * out[1] * out[2], n = P.count() * outPlane;
  {
    FirstBad bad(stream);
    badIndexKernel<<<thc::gridFor(n), thc::kBlock, 0, stream>>>(dataOf(ind.get()), n, inPlane, bad.flag());
    THCudaCheckLaunch();
    const unsigned long long at = bad.position();
    if (at != kNoBadElement) {
      const int64_t value = readBack(stream, dataOf(ind.get()) + at);
      THIndexError("indices: index %lld is out of range for %s of %lld elements (TH_INDEX_BASE %d)", (long long)value,
                   "an input plane", (long long)inPlane, TH_INDEX_BASE);
    }
  }
  const std::vector<int64_t> inShape = thnn::pooling::sizesVector(input);
  thc::THC<T>::resizeNd(state, gradInput, (int)inShape.size(), inShape.data(), nullptr);
  ContiguousResult<TensorT> res(state, gradInput);
  THCudaCheck(cudaMemsetAsync(res.data(), 0, P.count() * inPlane * sizeof(T), stream));
  maxPoolBackward<<<blocksFor(P.count(), thc::kBlock), thc::kBlock, 0, stream>>>(
      dataOf(go.get()), dataOf(ind.get()), P.count(), inPlane, outPlane, res.data());
  THCudaCheckLaunch();
  res.finish();
}

template <typename TensorT>
Planes spatialAxes(TensorT *input, Axis (&ax)[3], int kW, int kH, int dW, int dH, int padW, int padH, int dilationW,
                   int dilationH, bool ceilMode, int argK) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  ax[0] = thnn::pooling::unitAxis();
  ax[1] = thnn::pooling::slidingAxis(SlidingSpec{'H', kH, dH, padH, dilationH, argK + 1}, 2, P.size[1], ceilMode);
  ax[2] = thnn::pooling::slidingAxis(SlidingSpec{'W', kW, dW, padW, dilationW, argK}, 2, P.size[2], ceilMode);
  return P;
}

template <typename TensorT>
Planes volumetricAxes(TensorT *input, Axis (&ax)[3], int kT, int kW, int kH, int dT, int dW, int dH, int pT, int pW,
                      int pH, int dilationT, int dilationW, int dilationH, bool ceilMode, int argK) {
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  ax[0] = thnn::pooling::slidingAxis(SlidingSpec{'T', kT, dT, pT, dilationT, argK}, 3, P.size[0], ceilMode);
  ax[1] = thnn::pooling::slidingAxis(SlidingSpec{'H', kH, dH, pH, dilationH, argK + 2}, 3, P.size[1], ceilMode);
  ax[2] = thnn::pooling::slidingAxis(SlidingSpec{'W', kW, dW, pW, dilationW, argK + 1}, 3, P.size[2], ceilMode);
  return P;
}

}  // namespace
}  // namespace thcunn

#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THC_GENERIC_FILE "THCUNN/generic/MaxPooling.cu"
#include "THC/THCGenerateFloatTypes.h"
