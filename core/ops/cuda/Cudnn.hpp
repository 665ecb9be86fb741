// What the cuDNN kernels of the CUDA column share (CudnnConvolution.cpp, CudnnBatchNorm.cpp):
// errors, the per-thread handle, descriptors of core tensors, workspace from THC's caching
// allocator.
#ifndef TORCH_OPS_CUDA_CUDNN_HPP
#define TORCH_OPS_CUDA_CUDNN_HPP

#include <cudnn.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "THC/THCCachingAllocator.h"
#include "core/Tensor.h"
#include "core/ops/cuda/Cuda.h"

namespace torch::cuda::cudnn {

inline void check(cudnnStatus_t status, const char *what) {
  TORCH_CHECK(status == CUDNN_STATUS_SUCCESS, Runtime, "cuDNN error: %s (%s)", cudnnGetErrorString(status), what);
}

// One handle per device and thread (a handle must not be used by two threads at once),
// bound to the thread's current stream at each use.
inline cudnnHandle_t handle() {
  thread_local std::vector<cudnnHandle_t> handles;
  int device = THCudaGetDevice();
  if (device >= static_cast<int>(handles.size())) handles.resize(device + 1, nullptr);
  if (!handles[device]) check(cudnnCreate(&handles[device]), "cudnnCreate");
  check(cudnnSetStream(handles[device], THCState_getCurrentStream(state())), "cudnnSetStream");
  return handles[device];
}

template <typename T>
cudnnDataType_t dataType() {
  return std::is_same_v<T, double> ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

// t itself when cuDNN can read it as it is (no zero stride), else a contiguous copy.
inline Tensor readable(const Tensor &t) {
  for (int d = 0; d < t.dim(); d++) {
    if (t.stride(d) == 0 && t.size(d) > 1) return contiguous(t);
  }
  return t;
}

struct TensorDesc {
  cudnnTensorDescriptor_t d = nullptr;
  template <typename T>
  static TensorDesc of(const Tensor &t) {
    TensorDesc r;
    check(cudnnCreateTensorDescriptor(&r.d), "cudnnCreateTensorDescriptor");
    std::vector<int> sizes(t.dim()), strides(t.dim());
    for (int i = 0; i < t.dim(); i++) {
      sizes[i] = static_cast<int>(t.size(i));
      strides[i] = static_cast<int>(std::max<int64_t>(t.stride(i), 1));
    }
    check(cudnnSetTensorNdDescriptor(r.d, dataType<T>(), t.dim(), sizes.data(), strides.data()),
          "cudnnSetTensorNdDescriptor");
    return r;
  }
  // [1, C, 1, 1(, 1)] over a contiguous vector of C, for bias.
  template <typename T>
  static TensorDesc bias(int64_t channels, int dims) {
    TensorDesc r;
    check(cudnnCreateTensorDescriptor(&r.d), "cudnnCreateTensorDescriptor");
    std::vector<int> sizes(dims, 1), strides(dims, 1);
    sizes[1] = static_cast<int>(channels);
    strides[0] = static_cast<int>(channels);
    check(cudnnSetTensorNdDescriptor(r.d, dataType<T>(), dims, sizes.data(), strides.data()),
          "cudnnSetTensorNdDescriptor");
    return r;
  }
  TensorDesc() = default;
  TensorDesc(TensorDesc &&o) noexcept : d(o.d) { o.d = nullptr; }
  TensorDesc(const TensorDesc &) = delete;
  ~TensorDesc() {
    if (d) cudnnDestroyTensorDescriptor(d);
  }
};

// Workspace from the caching allocator, given back when the call's work is queued (the next
// user of the block runs on the same stream, after it).
struct Workspace {
  void *p = nullptr;
  explicit Workspace(size_t bytes) {
    if (bytes) p = THCCachingAllocator_malloc(bytes, THCState_getCurrentStream(state()));
  }
  Workspace(const Workspace &) = delete;
  ~Workspace() { THCCachingAllocator_free(p); }
};

// [1, C, 1...] view of a channel vector, to broadcast against [N, C, ...].
inline Tensor perChannel(const Tensor &v, int dims) {
  IntList sizes(dims, 1);
  sizes[1] = v.numel();
  return view(contiguous(v), sizes);
}

}  // namespace torch::cuda::cudnn

#endif
