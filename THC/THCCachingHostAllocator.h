/* The caching allocator of pinned (page-locked) host memory, as PyTorch's
 * CachingHostAllocator. Copies between the GPU and pinned memory can run asynchronously.
 *
 *   float *h = (float *)THCCachingHostAllocator_malloc(n * sizeof(float));
 *   cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, stream);
 *   THCCachingHostAllocator_recordEvent(h, stream);  // the copy still reads h
 *   THCCachingHostAllocator_free(h);                  // reused once the copy is done
 *
 * Blocks are cudaHostAlloc'ed with a power-of-two size of at least 512 bytes and kept
 * when freed; a request takes a cached block of exactly its size class. A block used by
 * asynchronous copies is reused only after the work queued on their streams until it was
 * freed has completed (events recorded at free time). When cudaHostAlloc fails, the
 * unused cached blocks are released and it is tried once more. Streams are used with their
 * device current (stream 0 means the current device's). All functions are thread-safe. */
#ifndef THC_CACHING_HOST_ALLOCATOR_H
#define THC_CACHING_HOST_ALLOCATOR_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "TH/THAllocator.h"
#include "THC/THCGeneral.h"

/* cudaHostAlloc'ed, cached; NULL for size 0. Raises when pinned memory cannot be had. */
THC_API void *THCCachingHostAllocator_malloc(size_t size);
/* NULL is ignored; a pointer that malloc did not return raises. */
THC_API void THCCachingHostAllocator_free(void *ptr);
/* An async copy on `stream` reads or writes this block: the block is not reused until that
 * work is done. ptr may point inside a block. Returns 0 if ptr is not in a pinned block of
 * ours that is allocated (then nothing is recorded), 1 otherwise. */
THC_API int THCCachingHostAllocator_recordEvent(void *ptr, cudaStream_t stream);
/* ptr is inside an allocated block of ours. */
THC_API int THCCachingHostAllocator_isPinned(const void *ptr);
/* cudaFreeHost of every cached block that is free and whose events have completed. */
THC_API void THCCachingHostAllocator_emptyCache(void);
/* For TH storages of pinned memory: malloc(ctx, size) and free(ctx, ptr), ctx ignored;
 * realloc is NULL. */
THC_API THAllocator THCCachingHostAllocator;

#endif
