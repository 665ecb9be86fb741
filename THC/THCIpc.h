/* What CUDA IPC needs from the caching allocator (THCCachingAllocator.h): the segment a
 * block lives in.
 *
 *   void *base = THCCachingAllocator_segmentBase(ptr);  // ptr: a block, as malloc returned it
 *   cudaIpcGetMemHandle(&handle, base);                 // another process opens the segment
 *   ... and finds the block at ptr - base in it ...
 *
 * A CUDA IPC handle (cudaIpcGetMemHandle) names a whole cudaMalloc'd segment, never a block
 * carved from one: a block travels to another process as its segment's handle and its offset
 * in it (torch/multiprocessing/reductions.py, python/csrc/CudaIpc.cpp). The segment stays
 * allocated while the block is. Host code only (nvcc's kernels do not see this header). */
#ifndef THC_IPC_H
#define THC_IPC_H

#include "THC/THCGeneral.h"

/* The start of the cudaMalloc'd segment that holds the block ptr, NULL if ptr is not a block
 * the caching allocator handed out and has not taken back. */
THC_API void *THCCachingAllocator_segmentBase(void *ptr);

#endif
