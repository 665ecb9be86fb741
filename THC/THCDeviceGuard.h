/* THC's scope guard for the current device, for host code (the caching allocators, the nccl
 * backend): switches to `device` until the end of the scope, and back.
 *
 *   { thc::DeviceGuard guard(block->device); cudaFree(block->ptr); }
 *
 * Host code only: nvcc's kernels do not include it (THC/defs.bzl). */
#ifndef THC_DEVICE_GUARD_H
#define THC_DEVICE_GUARD_H

#include <cuda_runtime_api.h>

#include "THC/THCGeneral.h"

namespace thc {

class DeviceGuard {
 public:
  explicit DeviceGuard(int device) : device_(device) {
    THCudaCheck(cudaGetDevice(&previous_));
    if (device_ != previous_) THCudaCheck(cudaSetDevice(device_));
  }
  ~DeviceGuard() {
    if (device_ != previous_) cudaSetDevice(previous_);  // a destructor does not throw
  }
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;

 private:
  int device_;
  int previous_ = 0;
};

}  // namespace thc

#endif
