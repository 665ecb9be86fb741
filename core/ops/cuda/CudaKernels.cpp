// The CUDA column of the core's kernel tables from THC, and THC's caching allocator as the
// memory of CUDA tensors (core/ops/cuda/Cuda.h). A CUDA tensor of the core is TH's struct
// over device memory (Note [CUDA tensors have TH's layout] in THC/THCTensor.hpp), so a core
// tensor's header is THC's tensor as it is: the kernels cast, they never convert.
#include "core/ops/cuda/Cuda.h"

#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "THC/THCCachingAllocator.h"
#include "THC/THCCachingHostAllocator.h"
#include "THC/THCTensor.h"
#include "THC/THCTensorIndex.h"
#include "THC/THCTensorLapack.h"
#include "THC/THCTensorMath.h"
#include "THC/THCTensorMathBlas.h"
#include "THC/THCTensorRandom.h"
#include "THC/THCTensorReduce.h"
#include "THC/THCTensorSort.h"
#include "THCUNN/THCUNN.h"
#include "autograd/Autograd.h"
#include "core/ops/Composite.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/IndexKernels.h"
#include "core/ops/LinalgKernels.h"
#include "core/ops/MathKernels.h"
#include "core/ops/NNKernels.h"
#include "core/ops/PointwiseKernels.h"
#include "core/ops/RandomKernels.h"
#include "core/ops/ReduceKernels.h"

namespace torch::cuda {

namespace {

THCState *gState = nullptr;
std::string gUnavailable;

// The index, mask and pivot tensors a kernel of any element type takes, as THC's.
THCudaLongTensor *devLong(const Tensor &t) { return reinterpret_cast<THCudaLongTensor *>(t.raw()); }
THCudaByteTensor *devByte(const Tensor &t) { return reinterpret_cast<THCudaByteTensor *>(t.raw()); }

// A THC result (its accumulation type or the element type) as a Scalar, as the CPU's.
template <typename V>
Scalar scalarOf(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return Scalar(static_cast<double>(v));
  } else {
    return Scalar(static_cast<int64_t>(v));
  }
}

// One struct per kernel family (core/ops/*Kernels.h), each specialised per element type
// by its generic file and registered by its add(dtype).
template <typename T>
struct CudaKernels;
template <typename T>
struct CudaReduceKernels;
template <typename T>
struct CudaMathKernels;
template <typename T>
struct CudaLinalgKernels;
template <typename T>
struct CudaIndexKernels;
template <typename T>
struct CudaRandomKernels;
template <typename T>
struct CudaNNKernels;

#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaKernels.hpp"
#include "THC/THCGenerateAllTypes.h"
#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaReduceKernels.hpp"
#include "THC/THCGenerateAllTypes.h"
#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaMathKernels.hpp"
#include "THC/THCGenerateAllTypes.h"
#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaLinalgKernels.hpp"
#include "THC/THCGenerateAllTypes.h"
#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaIndexKernels.hpp"
#include "THC/THCGenerateAllTypes.h"
#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaRandomKernels.hpp"
#include "THC/THCGenerateAllTypes.h"
#define THC_GENERIC_FILE "core/ops/cuda/generic/CudaNNKernels.hpp"
#include "THC/THCGenerateAllTypes.h"

// Every family's kernels of element type T for dtype.
template <typename T>
void addKernels(ScalarType dtype) {
  CudaKernels<T>::add(dtype);
  CudaReduceKernels<T>::add(dtype);
  CudaMathKernels<T>::add(dtype);
  CudaLinalgKernels<T>::add(dtype);
  CudaIndexKernels<T>::add(dtype);
  CudaRandomKernels<T>::add(dtype);
  CudaNNKernels<T>::add(dtype);
}

bool gpuPresent() {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: not an error of ours
    gUnavailable = cudaGetErrorString(err);
    return false;
  }
  if (n == 0) gUnavailable = "no CUDA-capable device is detected";
  return n > 0;
}

}  // namespace

void registerCudnnKernels();     // CudnnConvolution.cpp
void registerCudnnBatchNorm();   // CudnnBatchNorm.cpp
void registerCudaPooling();      // CudaPooling.cpp
void registerCudaActivations();  // CudaActivations.cpp

namespace {

void registerAll() {
  gState = THCState_alloc();
  THCudaInit(gState);
  registerDeviceAllocator(Device::CUDA, THCCachingAllocator_get(), gState);
  registerPinnedAllocator(&THCCachingHostAllocator, nullptr);
#define CORE_CUDA_REGISTER(Name, T, dtype) addKernels<T>(ScalarType::Name);
  TH_FORALL_TYPES(CORE_CUDA_REGISTER)
#undef CORE_CUDA_REGISTER
  addKernels<uint8_t>(ScalarType::Bool);
  registerCudnnKernels();
  registerCudnnBatchNorm();
  registerCudaPooling();
  registerCudaActivations();
  composite::registerComposites(Device::CUDA);  // what no library above has (Note [Composite kernels])
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

std::string unavailableReason() { return gUnavailable; }

DeviceProperties properties(int device) {
  TORCH_CHECK(init(), Runtime, "no CUDA GPU: %s", gUnavailable.c_str());
  TORCH_CHECK(device >= 0 && device < THCState_getNumDevices(gState), Runtime,
              "CUDA error: invalid device ordinal (device %d of %d)", device, THCState_getNumDevices(gState));
  cudaDeviceProp p;
  THCudaCheck(cudaGetDeviceProperties(&p, device));
  return DeviceProperties{p.name, p.major, p.minor, static_cast<int64_t>(p.totalGlobalMem), p.multiProcessorCount};
}

}  // namespace torch::cuda
