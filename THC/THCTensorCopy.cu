// Copies between every pair of element types, on one device, across devices and between
// host and device, and fill. Conversions run on the GPU; the host side only moves bytes.
#include "THC/THCApply.cuh"
#include "THC/THCCachingHostAllocator.h"

namespace thc {
namespace {

struct Convert {
  template <typename D, typename S>
  __device__ void operator()(D &d, const S &s) const {
    d = convert<D>(s);
  }
};

template <typename T>
struct Fill {
  T value;
  __device__ void operator()(T &d) const { d = value; }
};

template <typename A, typename B>
void checkSameCount(const A *a, const B *b) {
  if (numel(a) != numel(b))
    THValueError("copy: the destination %s has %lld elements and the source %s %lld; they must be equal",
                 shapeOf(a).c_str(), (long long)numel(a), shapeOf(b).c_str(), (long long)numel(b));
}

}  // namespace

// dst = src, converting element types; src may live on another device.
template <typename DstT, typename SrcT>
void copyDevice(THCState *state, DstT *dst, SrcT *src) {
  checkSameCount(dst, src);
  if (numel(dst) == 0) return;
  using D = Elem<DstT>;
  using S = Elem<SrcT>;
  const int dstDevice = device(dst), srcDevice = device(src);
  if (dstDevice == srcDevice || dstDevice < 0) {
    DeviceGuard guard(srcDevice);
    cudaStream_t stream = THCState_getCurrentStream(state);
    if constexpr (std::is_same_v<D, S>) {
      if (THC<S>::isContiguous(state, dst) && THC<S>::isContiguous(state, src)) {
        if (dst->storage->data + dst->storageOffset != src->storage->data + src->storageOffset)
          THCudaCheck(cudaMemcpyAsync(dst->storage->data + dst->storageOffset, src->storage->data + src->storageOffset,
                                      numel(dst) * sizeof(D), cudaMemcpyDeviceToDevice, stream));
        return;
      }
    }
    pointwise(state, Convert{}, dst, src);
    return;
  }
  // Across devices: src's elements, contiguous, moved by a peer copy, then converted on dst's
  // device. The source device's stream is synchronised first so the bytes are complete.
  auto *contiguous = THC<S>::newContiguous(state, src);
  typename THC<S>::Tensor *staged = nullptr;
  try {
    {
      DeviceGuard guard(srcDevice);
      THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state)));
    }
    DeviceGuard guard(dstDevice);
    staged = THC<S>::newWithSize(state, src->nDimension, src->size, nullptr);
    cudaStream_t stream = THCState_getCurrentStream(state);
    THCudaCheck(cudaMemcpyPeerAsync(staged->storage->data, dstDevice,
                                    contiguous->storage->data + contiguous->storageOffset, srcDevice,
                                    numel(src) * sizeof(S), stream));
    pointwise(state, Convert{}, dst, staged);
  } catch (...) {
    THC<S>::free(state, contiguous);
    if (staged) THC<S>::free(state, staged);
    throw;
  }
  THC<S>::free(state, contiguous);
  THC<S>::free(state, staged);
}

// Device dst = host src: the bytes of src, contiguous, in its own type, then a conversion
// on the device where the types differ.
template <typename DstT, typename SrcT>
void copyFromHost(THCState *state, DstT *dst, SrcT *src) {
  checkSameCount(dst, src);
  if (numel(dst) == 0) return;
  using D = Elem<DstT>;
  using S = Elem<SrcT>;
  auto host = th::own(th::TH<S>::newContiguous(src));
  const S *bytes = host->storage->data + host->storageOffset;
  DeviceGuard guard(device(dst));
  cudaStream_t stream = THCState_getCurrentStream(state);
  if constexpr (std::is_same_v<D, S>) {
    if (THC<D>::isContiguous(state, dst)) {
      THCudaCheck(cudaMemcpyAsync(dst->storage->data + dst->storageOffset, bytes, numel(dst) * sizeof(D),
                                  cudaMemcpyHostToDevice, stream));
      THCudaCheck(cudaStreamSynchronize(stream));
      return;
    }
  }
  auto *staged = THC<S>::newWithSize(state, src->nDimension, src->size, nullptr);
  try {
    THCudaCheck(cudaMemcpyAsync(staged->storage->data, bytes, numel(src) * sizeof(S), cudaMemcpyHostToDevice, stream));
    copyDevice(state, dst, staged);
    THCudaCheck(cudaStreamSynchronize(stream));
  } catch (...) {
    THC<S>::free(state, staged);
    throw;
  }
  THC<S>::free(state, staged);
}

// Host dst = device src: src converted to dst's type on the device where the types differ,
// made contiguous there, then its bytes.
template <typename DstT, typename SrcT>
void copyToHost(THCState *state, DstT *dst, SrcT *src) {
  checkSameCount(dst, src);
  if (numel(dst) == 0) return;
  using D = Elem<DstT>;
  using S = Elem<SrcT>;
  DeviceGuard guard(device(src));
  cudaStream_t stream = THCState_getCurrentStream(state);
  typename THC<D>::Tensor *staged;
  if constexpr (std::is_same_v<D, S>) {
    staged = THC<D>::newContiguous(state, src);
  } else {
    staged = THC<D>::newWithSize(state, src->nDimension, src->size, nullptr);
    try {
      copyDevice(state, staged, src);
    } catch (...) {
      THC<D>::free(state, staged);
      throw;
    }
  }
  try {
    const D *bytes = staged->storage->data + staged->storageOffset;
    if (th::TH<D>::isContiguous(dst)) {
      THCudaCheck(cudaMemcpyAsync(dst->storage->data + dst->storageOffset, bytes, numel(dst) * sizeof(D),
                                  cudaMemcpyDeviceToHost, stream));
      THCudaCheck(cudaStreamSynchronize(stream));
    } else {
      auto host = th::own(th::TH<D>::newWithSize(src->nDimension, src->size, nullptr));
      THCudaCheck(cudaMemcpyAsync(host->storage->data, bytes, numel(dst) * sizeof(D), cudaMemcpyDeviceToHost, stream));
      THCudaCheck(cudaStreamSynchronize(stream));
      th::TH<D>::copy(dst, host.get());
    }
  } catch (...) {
    THC<D>::free(state, staged);
    throw;
  }
  THC<D>::free(state, staged);
}

inline bool isPinned(const void *ptr) {
  if (THCCachingHostAllocator_isPinned(ptr)) return true;
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

// Asynchronous copies between contiguous tensors of one type, the host side pinned.
template <typename DeviceT, typename HostT>
void copyAsync(THCState *state, DeviceT *deviceTensor, HostT *hostTensor, bool toDevice) {
  using T = Elem<DeviceT>;
  checkSameCount(deviceTensor, hostTensor);
  if (!THC<T>::isContiguous(state, deviceTensor) || !th::TH<T>::isContiguous(hostTensor))
    THValueError("asynchronous copies need contiguous tensors on both sides");
  if (numel(deviceTensor) == 0) return;
  T *hostData = hostTensor->storage->data + hostTensor->storageOffset;
  T *deviceData = deviceTensor->storage->data + deviceTensor->storageOffset;
  if (!isPinned(hostData))
    THValueError("asynchronous copies need pinned host memory (a storage of THCCachingHostAllocator)");
  DeviceGuard guard(device(deviceTensor));
  cudaStream_t stream = THCState_getCurrentStream(state);
  const size_t bytes = numel(deviceTensor) * sizeof(T);
  if (toDevice)
    THCudaCheck(cudaMemcpyAsync(deviceData, hostData, bytes, cudaMemcpyHostToDevice, stream));
  else
    THCudaCheck(cudaMemcpyAsync(hostData, deviceData, bytes, cudaMemcpyDeviceToHost, stream));
  THCCachingHostAllocator_recordEvent(hostData, stream);
}

template <typename TensorT, typename T>
void fill(THCState *state, TensorT *self, T value) {
  pointwise(state, Fill<T>{value}, self);
}

}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorCopy.cu"
#include "THC/THCGenerateAllTypes.h"
