/* THC: the CUDA tensor library, TH for NVIDIA GPUs.
 *
 *   THCState *state = THCState_alloc();
 *   THCudaInit(state);                                   // raises if there is no GPU
 *   THCudaTensor *a = THCudaTensor_newWithSize2d(state, 2, 3);
 *   THCudaTensor_fill(state, a, 1.5f);
 *   THCudaTensor_cadd(state, a, a, 2.0f, a);             // a = a + 2 * a
 *   THFloatTensor *h = THFloatTensor_new();
 *   THFloatTensor_copyCuda(state, h, a);                 // back on the host
 *   THCudaTensor_free(state, a); THFloatTensor_free(h);
 *   THCudaShutdown(state); THCState_free(state);
 *
 * Names follow cutorch: THCuda<Type>Tensor_* (THCudaTensor for float), the state first.
 * Structs have TH's layout (Note [CUDA tensors have TH's layout], generic/THCTensor.h).
 * Work is queued on the current device's current stream; functions that return a value
 * to the host (sumall, get1d, ...) wait for it. Errors raise through TH's handler, as in
 * TH, and are checked before anything is written. Index-taking functions count from
 * TH_INDEX_BASE. */
#ifndef THC_GENERAL_H
#define THC_GENERAL_H

#include <cuda_runtime_api.h>

#include "TH/THGeneral.h"

#define THC_API TH_API

typedef struct THCState THCState;
typedef struct cublasContext *cublasHandle_t;

THC_API THCState *THCState_alloc(void);
THC_API void THCState_free(THCState *state);
/* Finds the devices (raises "no CUDA GPU is available" when there is none) and makes the
 * caching allocator the allocator of CUDA storages. */
THC_API void THCudaInit(THCState *state);
/* Waits for all devices, releases handles and cached memory. */
THC_API void THCudaShutdown(THCState *state);

THC_API int THCState_getNumDevices(THCState *state);
THC_API int THCudaGetDevice(void);
THC_API void THCudaSetDevice(int device); /* raises for a device that does not exist */
THC_API int THCState_deviceCanAccessPeer(THCState *state, int device, int peer);

/* The current stream of the current device; NULL is the legacy default stream. */
THC_API cudaStream_t THCState_getCurrentStream(THCState *state);
THC_API void THCState_setCurrentStream(THCState *state, cudaStream_t stream);
/* cuBLAS handle of the current device, bound to the current stream. */
THC_API cublasHandle_t THCState_getCurrentBlasHandle(THCState *state);
/* Lets cuBLAS use TF32 tensor cores for float GEMMs (off unless asked, as PyTorch's
 * torch.backends.cuda.matmul.allow_tf32). */
THC_API void THCState_setAllowTF32(THCState *state, int allow);
THC_API int THCState_getAllowTF32(THCState *state);

/* The Philox generator of the current device: its whole state is (seed, offset). */
THC_API void THCRandom_manualSeed(THCState *state, uint64_t seed);
THC_API uint64_t THCRandom_initialSeed(THCState *state);
THC_API uint64_t THCRandom_getOffset(THCState *state);
THC_API void THCRandom_setOffset(THCState *state, uint64_t offset);
/* Reserves `increment` counters for one kernel launch: returns the offset to start from. */
THC_API uint64_t THCRandom_reserve(THCState *state, uint64_t increment);

/* Waits for the current device's work. */
THC_API void THCudaSynchronize(THCState *state);

/* Raises a TH error "CUDA error: <what> (<file>:<line>)" when err is not cudaSuccess. */
THC_API void THCudaCheckImpl(cudaError_t err, const char *file, int line);
#define THCudaCheck(err) THCudaCheckImpl((err), __FILE__, __LINE__)
/* The same for the last kernel launch. */
#define THCudaCheckLaunch() THCudaCheckImpl(cudaGetLastError(), __FILE__, __LINE__)

#endif
