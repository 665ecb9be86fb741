#ifndef THC_GENERIC_FILE
#error "include THC/THCTensor.h instead"
#endif

/* Copies: self keeps its shape, src must have as many elements. Any strides on either
 * side; elements are converted as C++ converts them (Half through float). */

/* device to device, same type; src may be on another device (a peer copy) */
THC_API void THCTensor_(copy)(THCState *state, THCTensor *self, THCTensor *src);
/* device to device from every type: THCudaTensor_copyCudaByte(state, self, src), ... */
#define THC_COPY_FROM_CUDA(Name, T, dtype) \
  THC_API void THCTensor_(copyCuda##Name)(THCState * state, THCTensor * self, THCuda##Name##Tensor * src);
TH_FORALL_TYPES(THC_COPY_FROM_CUDA)
#undef THC_COPY_FROM_CUDA
/* host to device from every type: THCudaTensor_copyByte(state, self, THByteTensor *src), ... */
#define THC_COPY_FROM_HOST(Name, T, dtype) \
  THC_API void THCTensor_(copy##Name)(THCState * state, THCTensor * self, TH##Name##Tensor * src);
TH_FORALL_TYPES(THC_COPY_FROM_HOST)
#undef THC_COPY_FROM_HOST
/* device to host into every type: THFloatTensor_copyCudaByte(state, self, THCudaByteTensor *src), ...
 * and THFloatTensor_copyCuda for the same type */
#define THC_COPY_TO_HOST(Name, T, dtype) \
  THC_API void THTensor_(copyCuda##Name)(THCState * state, THTensor * self, THCuda##Name##Tensor * src);
TH_FORALL_TYPES(THC_COPY_TO_HOST)
#undef THC_COPY_TO_HOST
THC_API void THTensor_(copyCuda)(THCState *state, THTensor *self, THCTensor *src);

/* Asynchronous copies on the current stream, between a contiguous device tensor and a
 * contiguous host tensor in pinned memory (THCCachingHostAllocator); the host block is
 * not reused before the copy is done. Raises for memory that is not pinned. */
THC_API void THCTensor_(copyAsyncCPU)(THCState *state, THCTensor *self, THTensor *src);
THC_API void THTensor_(copyAsyncCuda)(THCState *state, THTensor *self, THCTensor *src);

/* Every element set to value (every type, Half included). */
THC_API void THCTensor_(fill)(THCState *state, THCTensor *self, scalar_t value);
THC_API void THCTensor_(zero)(THCState *state, THCTensor *self);
