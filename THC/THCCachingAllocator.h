/* The CUDA caching allocator: device memory for CUDA storages, as PyTorch's
 * CUDACachingAllocator.
 *
 *   void *p = THCCachingAllocator_malloc(1000, stream);  // 1024 bytes carved from a 2 MiB segment
 *   ... kernels on `stream` use p ...
 *   THCCachingAllocator_recordStream(p, other);           // `other` reads p too
 *   THCCachingAllocator_free(p);      // cached: reused once the work on `other` queued until now is done
 *   THCCachingAllocator_emptyCache(); // cudaFree of the segments nobody uses
 *
 * Note [Caching allocator]: cudaMalloc and cudaFree are slow and cudaFree waits for the
 * whole device, so freed blocks are kept and handed out again. A block belongs to the
 * stream it was allocated for and is reused only for that stream: work on one stream runs
 * in order, so the next user of the block cannot overtake the last one. Other streams that
 * use a block must be declared with recordStream. Sizes are rounded up to 512 bytes.
 * Requests up to 1 MiB come from the small pool, whose segments are 2 MiB; larger ones
 * from the large pool, whose segments are 20 MiB below 10 MiB and the request rounded up
 * to 2 MiB otherwise. A free block is split when the rest is worth keeping (512 bytes in
 * the small pool, more than 1 MiB in the large one) and merged with its free neighbours
 * when freed. When cudaMalloc runs out of memory, the unused segments of the device are
 * released and cudaMalloc is tried once more.
 *
 * Streams: a stream is used with its device current (as everywhere in THC); the legacy
 * default stream 0 means the current device's. All functions are thread-safe. */
#ifndef THC_CACHING_ALLOCATOR_H
#define THC_CACHING_ALLOCATOR_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "TH/THAllocator.h"
#include "THC/THCGeneral.h"

/* Per device. allocated counts whole blocks (the rounded size, plus a remainder too small
 * to split off); numAllocs counts the malloc calls that returned a block; numCudaMallocs
 * the cudaMalloc calls that succeeded. */
typedef struct THCAllocatorStats {
  size_t allocated; /* bytes in blocks handed to callers now */
  size_t reserved;  /* bytes obtained with cudaMalloc and not yet released */
  size_t peakAllocated;
  size_t peakReserved;
  uint64_t numAllocs;      /* calls to malloc */
  uint64_t numCudaMallocs; /* cudaMalloc calls made */
  uint64_t numCudaFrees;   /* cudaFree calls made */
} THCAllocatorStats;

/* size bytes on the current device, for use on `stream`. Never returns NULL for size > 0
 * (raises "CUDA out of memory: ..." instead); size 0 gives NULL. */
THC_API void *THCCachingAllocator_malloc(size_t size, cudaStream_t stream);
/* NULL is ignored; an unknown pointer raises. Never calls cudaFree. */
THC_API void THCCachingAllocator_free(void *ptr);
/* The block is also used on `stream`: its reuse waits for the work queued there until it
 * is freed (an event recorded at free time). NULL is ignored; an unknown pointer raises. */
THC_API void THCCachingAllocator_recordStream(void *ptr, cudaStream_t stream);
/* The device of a block (ptr as malloc returned it), -1 if not ours. */
THC_API int THCCachingAllocator_device(void *ptr);
/* cudaFree of every unused cached segment, on all devices, after waiting for the events
 * of the blocks freed after recordStream. */
THC_API void THCCachingAllocator_emptyCache(void);
/* Raises for a device that does not exist. */
THC_API void THCCachingAllocator_getStats(int device, THCAllocatorStats *stats);
/* The peaks become the current values. */
THC_API void THCCachingAllocator_resetPeakStats(int device);

/* The THAllocator adapter used by CUDA storages (TH/THAllocator.h). ctx is ignored.
 * malloc allocates on the current device for the stream the stream source returns
 * (default: the legacy default stream 0); realloc allocates a new block the same way,
 * copies min(old, new) bytes device-to-device with cudaMemcpyAsync on that stream, and
 * frees the old one (whose reuse waits for the copy). */
THC_API THAllocator *THCCachingAllocator_get(void);
typedef cudaStream_t (*THCStreamSource)(void);
/* NULL restores the default. */
THC_API void THCCachingAllocator_setStreamSource(THCStreamSource source);

#endif
