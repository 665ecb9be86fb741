#ifndef TH_ALLOCATOR_H
#define TH_ALLOCATOR_H

#include "TH/THGeneral.h"

/* An allocator is three functions and the context they are called with. A storage keeps
 * both, so whoever drops the last reference frees the memory the right way, whichever
 * binding (Python, Lua) created it. realloc may be NULL: such storages cannot resize. */
typedef struct THAllocator {
  void *(*malloc)(void *ctx, ptrdiff_t size);
  void *(*realloc)(void *ctx, void *ptr, ptrdiff_t size);
  void (*free)(void *ctx, void *ptr);
} THAllocator;

/* malloc/free on the heap; the context is unused. */
TH_API THAllocator THDefaultAllocator;

/* File-backed and shared-memory mappings. Flags for THMapAllocatorContext_new: */
#define TH_ALLOCATOR_MAPPED_SHARED 1    /* MAP_SHARED: writes reach the file */
#define TH_ALLOCATOR_MAPPED_SHAREDMEM 2 /* POSIX shared memory (shm_open) instead of a file */
#define TH_ALLOCATOR_MAPPED_EXCLUSIVE 4 /* fail if it exists (O_EXCL) */
#define TH_ALLOCATOR_MAPPED_NOCREATE 8  /* fail if it does not exist */
#define TH_ALLOCATOR_MAPPED_UNLINK 16   /* unlink the name once mapped */
/* without TH_ALLOCATOR_MAPPED_SHARED a file mapping is private (copy on write) */

typedef struct THMapAllocatorContext THMapAllocatorContext;
TH_API THMapAllocatorContext *THMapAllocatorContext_new(const char *filename, int flags);
TH_API const char *THMapAllocatorContext_filename(THMapAllocatorContext *ctx);
TH_API ptrdiff_t THMapAllocatorContext_size(THMapAllocatorContext *ctx);
TH_API int THMapAllocatorContext_flags(THMapAllocatorContext *ctx);
/* Frees a context that was never handed to a storage. */
TH_API void THMapAllocatorContext_free(THMapAllocatorContext *ctx);

/* malloc(ctx, size) maps `size` bytes (size 0: the file's whole size, which must be > 0);
 * free(ctx, ptr) unmaps and frees the context. */
TH_API THAllocator THMapAllocator;

/* A fresh unique POSIX shared-memory name ("/torch_<pid>_<counter>"), for share_memory_(). */
TH_API void THSharedMemory_newName(char *buffer, size_t length);

#endif
