#include "THC/THCGeneral.h"

#include <cublas_v2.h>

#include <vector>

#include "THC/THCCachingAllocator.h"
#include "THC/THCLazyLibrary.h"
#include "TH/THError.hpp"

namespace {

// PyTorch's default CUDA seed, so that an unseeded run draws what PyTorch's would start from.
constexpr uint64_t kDefaultSeed = 67280421310721ULL;

struct DeviceState {
  cublasHandle_t blas = nullptr;
  uint64_t seed = kDefaultSeed;
  uint64_t offset = 0;
};

// The state the caching allocator asks for the current stream (one THCState per process,
// as in cutorch).
THCState *globalState = nullptr;

// Streams are per thread, as the CUDA runtime's current device is.
thread_local std::vector<cudaStream_t> currentStreams;

}  // namespace

struct THCState {
  bool initialized = false;
  int numDevices = 0;
  std::vector<DeviceState> devices;
  bool allowTF32 = false;
};

void THCudaCheckImpl(cudaError_t err, const char *file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clears a non-sticky error so that later calls work
  _THError(file, line, "CUDA error: %s (%s)", cudaGetErrorString(err), cudaGetErrorName(err));
}

THCState *THCState_alloc(void) { return new THCState(); }

void THCState_free(THCState *state) {
  if (globalState == state) globalState = nullptr;
  delete state;
}

static DeviceState &currentDeviceState(THCState *state) {
  if (!state || !state->initialized) THError("THC is not initialised: call THCudaInit first");
  return state->devices[THCudaGetDevice()];
}

void THCudaInit(THCState *state) {
  if (state->initialized) return;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    THError("no CUDA GPU is available (cudaGetDeviceCount: %s)",
            err == cudaSuccess ? "0 devices" : cudaGetErrorString(err));
  }
  state->numDevices = count;
  state->devices.assign(count, DeviceState());
  state->initialized = true;
  globalState = state;
  THCCachingAllocator_setStreamSource(
      []() -> cudaStream_t { return globalState ? THCState_getCurrentStream(globalState) : nullptr; });
}

void THCudaShutdown(THCState *state) {
  if (!state->initialized) return;
  int previous = THCudaGetDevice();
  for (int d = 0; d < state->numDevices; d++) {
    THCudaCheck(cudaSetDevice(d));
    THCudaCheck(cudaDeviceSynchronize());
    if (state->devices[d].blas) THC_LAZY(Cublas, cublasDestroy)(state->devices[d].blas);
    state->devices[d].blas = nullptr;
  }
  THCudaCheck(cudaSetDevice(previous));
  THCCachingAllocator_emptyCache();
  state->initialized = false;
}

int THCState_getNumDevices(THCState *state) { return state->numDevices; }

int THCudaGetDevice(void) {
  int device = 0;
  THCudaCheck(cudaGetDevice(&device));
  return device;
}

void THCudaSetDevice(int device) {
  int count = 0;
  THCudaCheck(cudaGetDeviceCount(&count));
  if (device < 0 || device >= count)
    THIndexError("CUDA device %d does not exist: %d device%s visible", device, count, count == 1 ? "" : "s");
  THCudaCheck(cudaSetDevice(device));
}

int THCState_deviceCanAccessPeer(THCState *state, int device, int peer) {
  if (device < 0 || device >= state->numDevices || peer < 0 || peer >= state->numDevices) return 0;
  if (device == peer) return 1;
  int can = 0;
  THCudaCheck(cudaDeviceCanAccessPeer(&can, device, peer));
  return can;
}

cudaStream_t THCState_getCurrentStream(THCState *state) {
  (void)state;
  int device = THCudaGetDevice();
  return device < (int)currentStreams.size() ? currentStreams[device] : nullptr;
}

void THCState_setCurrentStream(THCState *state, cudaStream_t stream) {
  (void)state;
  int device = THCudaGetDevice();
  if (device >= (int)currentStreams.size()) currentStreams.resize(device + 1, nullptr);
  currentStreams[device] = stream;
}

cublasHandle_t THCState_getCurrentBlasHandle(THCState *state) {
  DeviceState &d = currentDeviceState(state);
  if (!d.blas && THC_LAZY(Cublas, cublasCreate)(&d.blas) != CUBLAS_STATUS_SUCCESS) {
    d.blas = nullptr;
    THError("cuBLAS could not be initialised on device %d", THCudaGetDevice());
  }
  THC_LAZY(Cublas, cublasSetStream)(d.blas, THCState_getCurrentStream(state));
  THC_LAZY(Cublas, cublasSetMathMode)(d.blas, state->allowTF32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
  return d.blas;
}

void THCState_setAllowTF32(THCState *state, int allow) { state->allowTF32 = allow != 0; }
int THCState_getAllowTF32(THCState *state) { return state->allowTF32; }

void THCRandom_manualSeed(THCState *state, uint64_t seed) {
  DeviceState &d = currentDeviceState(state);
  d.seed = seed;
  d.offset = 0;
}

uint64_t THCRandom_initialSeed(THCState *state) { return currentDeviceState(state).seed; }
uint64_t THCRandom_getOffset(THCState *state) { return currentDeviceState(state).offset; }
void THCRandom_setOffset(THCState *state, uint64_t offset) { currentDeviceState(state).offset = offset; }

uint64_t THCRandom_reserve(THCState *state, uint64_t increment) {
  DeviceState &d = currentDeviceState(state);
  uint64_t start = d.offset;
  d.offset += increment;
  return start;
}

void THCudaSynchronize(THCState *state) { THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state))); }
