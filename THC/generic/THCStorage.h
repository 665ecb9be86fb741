#ifndef THC_GENERIC_FILE
#error "include THC/THCStorage.h instead"
#endif

/* TH's storage layout (THStorage.h) holding device memory: `data` is a device pointer and
 * the allocator is THC's caching allocator (THCCachingAllocator_get), so that the last
 * free, by either library, returns the memory to the cache. */
typedef struct THCStorage {
  scalar_t *data;
  ptrdiff_t size;
  int refcount;
  char flag;
  THAllocator *allocator;
  void *allocatorContext;
} THCStorage;

THC_API scalar_t *THCStorage_(data)(THCState *state, const THCStorage *self);
THC_API ptrdiff_t THCStorage_(size)(THCState *state, const THCStorage *self);
THC_API size_t THCStorage_(elementSize)(THCState *state);
/* The device holding the data; -1 for an empty storage. */
THC_API int THCStorage_(getDevice)(THCState *state, const THCStorage *self);

/* One element, copied to or from the host (waits for the current stream). */
THC_API void THCStorage_(set)(THCState *state, THCStorage *self, ptrdiff_t index, scalar_t value);
THC_API scalar_t THCStorage_(get)(THCState *state, const THCStorage *self, ptrdiff_t index);

/* On the current device. */
THC_API THCStorage *THCStorage_(new)(THCState *state);
THC_API THCStorage *THCStorage_(newWithSize)(THCState *state, ptrdiff_t size);

THC_API void THCStorage_(retain)(THCState *state, THCStorage *self);
THC_API void THCStorage_(free)(THCState *state, THCStorage *self);
/* Keeps the first min(old, new) elements. */
THC_API void THCStorage_(resize)(THCState *state, THCStorage *self, ptrdiff_t size);
THC_API void THCStorage_(fill)(THCState *state, THCStorage *self, scalar_t value);

/* Whole-storage copies between host and device (same element type, same size). */
THC_API void THCStorage_(copyCPU)(THCState *state, THCStorage *self, THStorage *src);
THC_API void THStorage_(copyCuda)(THCState *state, THStorage *self, THCStorage *src);
