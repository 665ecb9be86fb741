// The pinned host memory allocator: see the header.
#include "THC/THCCachingHostAllocator.h"

#include "THC/THCDeviceGuard.h"

#include <stdint.h>

#include <iterator>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace {

constexpr size_t kMinBlockSize = 512;
constexpr size_t kMaxBlockSize = (SIZE_MAX >> 1) + 1;  // the largest power of two

// Where an event is recorded: the stream and the device that was current when the stream
// was recorded (stream 0 is another stream on each device).
using StreamOnDevice = std::pair<cudaStream_t, int>;

struct HostBlock {
  HostBlock(size_t size, char *ptr) : size(size), ptr(ptr) {}

  size_t size;  // a power of two
  char *ptr;
  bool allocated = false;
  int pendingEvents = 0;                // events to wait for before it may be reused
  std::set<StreamOnDevice> streamUses;  // streams of the copies that use it (recordEvent)
};

size_t sizeClass(size_t size) {
  size_t rounded = kMinBlockSize;
  while (rounded < size) rounded <<= 1;
  return rounded;
}

using thc::DeviceGuard;

class HostAllocator {
 public:
  void *malloc(size_t size) {
    if (size == 0) return nullptr;
    std::unique_lock<std::mutex> lock(mutex_);
    processEvents();
    HostBlock *block = nullptr;
    cudaError_t err = cudaErrorMemoryAllocation;
    if (size <= kMaxBlockSize) {
      const size_t rounded = sizeClass(size);
      block = takeFreeBlock(rounded);
      if (!block) block = newBlock(rounded, &err);
    }
    if (!block) {
      lock.unlock();
      if (err == cudaErrorMemoryAllocation)
        THError("CUDA out of memory: tried to allocate %zu bytes of pinned host memory", size);
      THError("cannot allocate %zu bytes of pinned host memory: %s", size, cudaGetErrorString(err));
    }
    block->allocated = true;
    return block->ptr;
  }

  void free(void *ptr) {
    if (!ptr) return;
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = blocks_.find((uintptr_t)ptr);
    if (it == blocks_.end() || !it->second->allocated) {
      lock.unlock();
      THError("THCCachingHostAllocator_free: %p is not a block of the pinned memory allocator (or was freed already)",
              ptr);
    }
    HostBlock *block = it->second;
    block->allocated = false;
    if (block->streamUses.empty()) {
      cache(block);
      return;
    }
    // The copies may still be running: the block is reused when the events recorded on
    // their streams now have completed (processEvents).
    for (const StreamOnDevice &use : block->streamUses) {
      DeviceGuard guard(use.second);
      cudaEvent_t event;
      THCudaCheck(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
      THCudaCheck(cudaEventRecord(event, use.first));
      block->pendingEvents++;
      pendingEvents_.emplace_back(event, block);
    }
    block->streamUses.clear();
  }

  bool recordEvent(void *ptr, cudaStream_t stream) {
    int device = 0;
    THCudaCheck(cudaGetDevice(&device));
    std::lock_guard<std::mutex> lock(mutex_);
    HostBlock *block = allocatedBlockContaining(ptr);
    if (!block) return false;
    block->streamUses.insert({stream, device});
    return true;
  }

  bool isPinned(const void *ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocatedBlockContaining(ptr) != nullptr;
  }

  void emptyCache() {
    std::lock_guard<std::mutex> lock(mutex_);
    processEvents();
    releaseFreeBlocks();
  }

 private:
  HostBlock *allocatedBlockContaining(const void *ptr) {
    const uintptr_t address = (uintptr_t)ptr;
    auto it = blocks_.upper_bound(address);
    if (it == blocks_.begin()) return nullptr;
    HostBlock *block = std::prev(it)->second;
    const bool inside = address < (uintptr_t)block->ptr + block->size;
    return inside && block->allocated ? block : nullptr;
  }

  // The most recently cached block of the size: the likeliest to be in the CPU caches.
  HostBlock *takeFreeBlock(size_t size) {
    auto it = freeBlocks_.lower_bound(size);
    if (it == freeBlocks_.end() || it->first != size) return nullptr;
    HostBlock *block = it->second;
    freeBlocks_.erase(it);
    return block;
  }

  void cache(HostBlock *block) { freeBlocks_.emplace_hint(freeBlocks_.lower_bound(block->size), block->size, block); }

  // A fresh block, or NULL with the CUDA error in *err. When pinned memory runs out, the
  // cached free blocks are released and cudaHostAlloc is tried once more.
  HostBlock *newBlock(size_t size, cudaError_t *err) {
    void *ptr = nullptr;
    *err = cudaHostAlloc(&ptr, size, cudaHostAllocDefault);
    if (*err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // handled here: a later check must not report it
      releaseFreeBlocks();
      *err = cudaHostAlloc(&ptr, size, cudaHostAllocDefault);
    }
    if (*err != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    HostBlock *block = new HostBlock(size, static_cast<char *>(ptr));
    blocks_[(uintptr_t)ptr] = block;
    return block;
  }

  // Makes the blocks whose recorded events have completed reusable.
  void processEvents() {
    for (auto it = pendingEvents_.begin(); it != pendingEvents_.end();) {
      const cudaError_t err = cudaEventQuery(it->first);
      if (err == cudaErrorNotReady) {
        (void)cudaGetLastError();  // not an error: the work is still running
        ++it;
        continue;
      }
      THCudaCheck(err);
      THCudaCheck(cudaEventDestroy(it->first));
      HostBlock *block = it->second;
      it = pendingEvents_.erase(it);
      if (--block->pendingEvents == 0) cache(block);
    }
  }

  void releaseFreeBlocks() {
    for (auto it = freeBlocks_.begin(); it != freeBlocks_.end();) {
      HostBlock *block = it->second;
      THCudaCheck(cudaFreeHost(block->ptr));
      blocks_.erase((uintptr_t)block->ptr);
      it = freeBlocks_.erase(it);
      delete block;
    }
  }

  std::mutex mutex_;
  std::map<uintptr_t, HostBlock *> blocks_;                       // every block, by address
  std::multimap<size_t, HostBlock *> freeBlocks_;                 // reusable blocks by size, the last cached first
  std::list<std::pair<cudaEvent_t, HostBlock *>> pendingEvents_;  // recorded when blocks were freed
};

HostAllocator &allocator() {
  // Never destroyed: at exit the CUDA runtime may be gone before it, and cudaFreeHost would fail.
  static HostAllocator *instance = new HostAllocator();
  return *instance;
}

void *thMalloc(void *, ptrdiff_t size) {
  THArgCheck(size >= 0, 2, "cannot allocate a negative size (%td bytes)", size);
  return allocator().malloc((size_t)size);
}

void thFree(void *, void *ptr) { allocator().free(ptr); }

}  // namespace

void *THCCachingHostAllocator_malloc(size_t size) { return allocator().malloc(size); }
void THCCachingHostAllocator_free(void *ptr) { allocator().free(ptr); }
int THCCachingHostAllocator_recordEvent(void *ptr, cudaStream_t stream) {
  return allocator().recordEvent(ptr, stream) ? 1 : 0;
}
int THCCachingHostAllocator_isPinned(const void *ptr) { return allocator().isPinned(ptr) ? 1 : 0; }
void THCCachingHostAllocator_emptyCache(void) { allocator().emptyCache(); }

THAllocator THCCachingHostAllocator = {thMalloc, nullptr, thFree};
