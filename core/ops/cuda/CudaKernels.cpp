// The CUDA column of the core's kernel tables from THC, and THC's caching allocator as the
// memory of CUDA tensors (core/ops/cuda/Cuda.h). A CUDA tensor of the core is TH's struct
// over device memory (Note [CUDA tensors have TH's layout] in THC/THCTensor.hpp), so a core
// tensor's header is THC's tensor as it is: the kernels cast, they never convert.
#include "core/ops/cuda/Cuda.h"

#include <mutex>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "THC/THCCachingAllocator.h"
#include "THC/THCTensor.h"
#include "THC/THCTensorMath.h"
#include "THC/THCTensorReduce.h"
#include "autograd/Autograd.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/PointwiseKernels.h"
#include "core/ops/ReduceKernels.h"

namespace torch::cuda {

namespace {

THCState *gState = nullptr;

template <typename T>
struct CudaKernels;

#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaKernels.hpp"
#include "THC/THCGenerateAllTypes.h"

bool gpuPresent() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: not an error of ours
    return false;
  }
  return n > 0;
}

void registerAll() {
  gState = THCState_alloc();
  THCudaInit(gState);
  registerDeviceAllocator(Device::CUDA, THCCachingAllocator_get(), gState);
#define CORE_CUDA_REGISTER(Name, T, dtype) CudaKernels<T>::add(ScalarType::Name);
  TH_FORALL_TYPES(CORE_CUDA_REGISTER)
#undef CORE_CUDA_REGISTER
  CudaKernels<uint8_t>::add(ScalarType::Bool);
}

}  // namespace

bool init() {
  static std::once_flag once;
  static bool present = false;
  std::call_once(once, [] {
    present = gpuPresent();
    if (present) registerAll();
  });
  return present;
}

THCState *state() { return gState; }

}  // namespace torch::cuda
