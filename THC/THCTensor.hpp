// C++ internals shared by THC's implementation files: the casts between a CUDA tensor and
// the TH struct of the same layout (Note [CUDA tensors have TH's layout]), the device of
// tensors and a guard that switches devices for the length of a scope.
#ifndef THC_TENSOR_HPP
#define THC_TENSOR_HPP

#include <cstddef>
#include <string>
#include <type_traits>

#include "TH/THError.hpp"
#include "TH/THTensor.hpp"
#include "THC/THCCachingAllocator.h"
#include "THC/THCTensor.h"
#include "THC/THCTypes.hpp"

namespace thc {

// The TH struct of the same element type and layout.
template <typename TensorT>
struct AsTH;
#define THC_AS_TH(Name, T, dtype)                                                                             \
  template <>                                                                                                 \
  struct AsTH<THCuda##Name##Tensor> {                                                                         \
    using type = TH##Name##Tensor;                                                                            \
  };                                                                                                          \
  template <>                                                                                                 \
  struct AsTH<THCuda##Name##Storage> {                                                                        \
    using type = TH##Name##Storage;                                                                           \
  };                                                                                                          \
  static_assert(sizeof(THCuda##Name##Tensor) == sizeof(TH##Name##Tensor) &&                                   \
                    offsetof(THCuda##Name##Tensor, storage) == offsetof(TH##Name##Tensor, storage) &&         \
                    offsetof(THCuda##Name##Tensor, flag) == offsetof(TH##Name##Tensor, flag),                 \
                "CUDA tensors have TH's layout");                                                             \
  static_assert(                                                                                              \
      sizeof(THCuda##Name##Storage) == sizeof(TH##Name##Storage) &&                                           \
          offsetof(THCuda##Name##Storage, allocatorContext) == offsetof(TH##Name##Storage, allocatorContext), \
      "CUDA storages have TH's layout");
TH_FORALL_TYPES(THC_AS_TH)
#undef THC_AS_TH

template <typename X>
typename AsTH<X>::type *th(X *x) {
  return reinterpret_cast<typename AsTH<X>::type *>(x);
}
template <typename X>
const typename AsTH<X>::type *th(const X *x) {
  return reinterpret_cast<const typename AsTH<X>::type *>(x);
}

// The device of a pointer: the caching allocator's record, or CUDA's for foreign memory;
// -1 for NULL.
inline int pointerDevice(const void *ptr) {
  if (!ptr) return -1;
  int device = THCCachingAllocator_device(const_cast<void *>(ptr));
  if (device >= 0) return device;
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged ? attributes.device : -1;
}

template <typename TensorT>
int64_t numel(const TensorT *t) {
  int64_t n = 1;
  for (int d = 0; d < t->nDimension; d++) n *= t->size[d];
  return n;
}

// "[2, 3]", for error messages.
template <typename TensorT>
std::string shapeOf(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

template <typename TensorT>
int device(const TensorT *t) {
  return pointerDevice(t->storage->data);
}

// Switches to `device` (when >= 0) until the end of the scope.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    THCudaCheck(cudaGetDevice(&previous_));
    if (device >= 0 && device != previous_) THCudaCheck(cudaSetDevice(device));
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;

 private:
  int previous_ = 0;
};

// The one device of an op's tensors (those with memory): results live on the inputs'
// device. Raises when they are on different devices; -1 when none has memory yet.
inline int commonDeviceOf(const char *, int found) { return found; }
template <typename TensorT, typename... Rest>
int commonDeviceOf(const char *op, int found, const TensorT *t, const Rest *...rest) {
  int d = t ? device(t) : -1;
  if (d >= 0 && found >= 0 && d != found)
    THError("%s: tensors are on different devices (%d and %d); copy them to one device first", op, found, d);
  return commonDeviceOf(op, d >= 0 ? d : found, rest...);
}
template <typename... TensorT>
int commonDevice(const char *op, const TensorT *...t) {
  return commonDeviceOf(op, -1, t...);
}

}  // namespace thc

#endif
