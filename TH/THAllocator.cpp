#include "TH/THAllocator.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <string>

static void *defaultMalloc(void *, ptrdiff_t size) { return THAlloc(size); }
static void *defaultRealloc(void *, void *ptr, ptrdiff_t size) { return THRealloc(ptr, size); }
static void defaultFree(void *, void *ptr) { THFree(ptr); }

THAllocator THDefaultAllocator = {defaultMalloc, defaultRealloc, defaultFree};

struct THMapAllocatorContext {
  std::string filename;
  int flags;
  ptrdiff_t size;  // bytes mapped
  int fd;          // kept open for a mapping by descriptor, else -1
};

THMapAllocatorContext *THMapAllocatorContext_new(const char *filename, int flags) {
  THArgCheck(filename != nullptr && filename[0] != '\0', 1, "a file name is required");
  return new THMapAllocatorContext{filename, flags, 0, -1};
}

const char *THMapAllocatorContext_filename(THMapAllocatorContext *ctx) { return ctx->filename.c_str(); }
ptrdiff_t THMapAllocatorContext_size(THMapAllocatorContext *ctx) { return ctx->size; }
int THMapAllocatorContext_flags(THMapAllocatorContext *ctx) { return ctx->flags; }
void THMapAllocatorContext_free(THMapAllocatorContext *ctx) { delete ctx; }

static void *mapMalloc(void *vctx, ptrdiff_t size) {
  auto *ctx = static_cast<THMapAllocatorContext *>(vctx);
  const bool shm = ctx->flags & TH_ALLOCATOR_MAPPED_SHAREDMEM;
  const bool shared = shm || (ctx->flags & TH_ALLOCATOR_MAPPED_SHARED);
  int oflags = shared ? O_RDWR : O_RDONLY;
  if (!(ctx->flags & TH_ALLOCATOR_MAPPED_NOCREATE) && shared) oflags |= O_CREAT;
  if (ctx->flags & TH_ALLOCATOR_MAPPED_EXCLUSIVE) oflags |= O_EXCL;
  const char *name = ctx->filename.c_str();
  // Note [Shared memory by descriptor]
  // A shared-memory mapping may name a descriptor this process holds, "/proc/self/fd/<n>" (a
  // memfd, or a segment whose name is already unlinked, received over a Unix socket): it is
  // opened through /proc, the same memory with no name anywhere. shm_open names cannot hold a
  // second '/', so the two kinds never meet. The mapping keeps a descriptor of its own (close
  // on exec) and its filename then names that one, so that the memory can be handed on to
  // another process while the storage lives, from this process or from a forked child
  // (torch/utils/data/_shared.py sends tensors so); it is closed with the mapping.
  const bool byDescriptor = shm && strncmp(name, "/proc/self/fd/", 14) == 0;
  if (byDescriptor) oflags |= O_CLOEXEC;
  int fd = shm && !byDescriptor ? shm_open(name, oflags, S_IRUSR | S_IWUSR) : open(name, oflags, S_IRUSR | S_IWUSR);
  if (fd < 0) THError("cannot open '%s' for mapping: %s", name, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    THError("cannot stat '%s': %s", name, strerror(err));
  }
  if (size == 0) size = (ptrdiff_t)st.st_size;
  if (size <= 0) {
    close(fd);
    THError("cannot map '%s': it is empty and no size was given", name);
  }
  if ((ptrdiff_t)st.st_size < size) {
    if (!shared) {
      close(fd);
      THError("cannot map %td bytes of '%s': the file has only %lld bytes", size, name, (long long)st.st_size);
    }
    if (ftruncate(fd, size) != 0) {
      int err = errno;
      close(fd);
      THError("cannot grow '%s' to %td bytes: %s", name, size, strerror(err));
    }
  }
  // A private mapping is copy-on-write: PROT_WRITE is allowed without touching the file.
  void *data = mmap(nullptr, (size_t)size, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
  int err = errno;
  if (data == MAP_FAILED || !byDescriptor) close(fd);
  if (data == MAP_FAILED) THError("cannot map '%s': %s", name, strerror(err));
  if ((ctx->flags & TH_ALLOCATOR_MAPPED_UNLINK) && !byDescriptor) {
    if (shm)
      shm_unlink(name);
    else
      unlink(name);
  }
  if (byDescriptor) {
    ctx->fd = fd;
    ctx->filename = "/proc/self/fd/" + std::to_string(fd);
  }
  ctx->size = size;
  return data;
}

static void mapFree(void *vctx, void *ptr) {
  auto *ctx = static_cast<THMapAllocatorContext *>(vctx);
  if (ptr) munmap(ptr, (size_t)ctx->size);
  if (ctx->fd >= 0) close(ctx->fd);
  delete ctx;
}

THAllocator THMapAllocator = {mapMalloc, nullptr, mapFree};

void THSharedMemory_newName(char *buffer, size_t length) {
  static std::atomic<unsigned long> counter{0};
  snprintf(buffer, length, "/torch_%d_%lu", (int)getpid(), counter.fetch_add(1));
}
