// The CUDA caching allocator: Note [Caching allocator] in the header.
#include "THC/THCCachingAllocator.h"

#include "THC/THCDeviceGuard.h"
#include "THC/THCIpc.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

constexpr size_t kMinBlockSize = 512;         // every size is rounded up to a multiple of this
constexpr size_t kSmallSize = 1 << 20;        // the largest request served by the small pool
constexpr size_t kSmallBuffer = 2 << 20;      // segment size of the small pool
constexpr size_t kMinLargeAlloc = 10 << 20;   // large requests below this share a kLargeBuffer segment
constexpr size_t kLargeBuffer = 20 << 20;     // segment size for those
constexpr size_t kRoundLarge = 2 << 20;       // larger segments are rounded up to this
constexpr size_t kMaxRequest = SIZE_MAX / 2;  // rounding beyond this could overflow; no GPU has that much

struct Block;

// Best fit: the first block at or after (stream, size, NULL) is the smallest one of the
// stream that is large enough.
struct BlockOrder {
  bool operator()(const Block *a, const Block *b) const;
};
using BlockPool = std::set<Block *, BlockOrder>;

// Where an event is recorded: the stream and the device that was current when the stream
// was recorded (stream 0 is another stream on each device).
using StreamOnDevice = std::pair<cudaStream_t, int>;

struct Block {
  Block(int device, cudaStream_t stream, size_t size, char *ptr, BlockPool *pool)
      : device(device), stream(stream), size(size), ptr(ptr), pool(pool) {}

  int device;
  cudaStream_t stream;  // the stream it was allocated for, the only one it is reused for
  size_t size;          // bytes, a multiple of kMinBlockSize
  char *ptr;
  BlockPool *pool;           // the small or large pool of its device, where it waits when free
  size_t requestedSize = 0;  // what the caller asked for, while allocated
  bool allocated = false;
  int pendingEvents = 0;  // events to wait for before it may go back to its pool
  Block *prev = nullptr;  // neighbours within the same cudaMalloc segment
  Block *next = nullptr;
  std::set<StreamOnDevice> streamUses;  // other streams that use it (recordStream)
};

bool BlockOrder::operator()(const Block *a, const Block *b) const {
  if (a->stream != b->stream) return std::less<cudaStream_t>()(a->stream, b->stream);
  if (a->size != b->size) return a->size < b->size;
  return std::less<char *>()(a->ptr, b->ptr);
}

struct DeviceState {
  BlockPool smallBlocks;
  BlockPool largeBlocks;
  std::list<std::pair<cudaEvent_t, Block *>> pendingEvents;  // recorded when blocks were freed
  THCAllocatorStats stats{};
};

using thc::DeviceGuard;

size_t roundUp(size_t size, size_t multiple) { return (size + multiple - 1) / multiple * multiple; }

size_t segmentSize(size_t roundedSize) {
  if (roundedSize <= kSmallSize) return kSmallBuffer;
  if (roundedSize < kMinLargeAlloc) return kLargeBuffer;
  return roundUp(roundedSize, kRoundLarge);
}

int currentDevice() {
  int device = 0;
  THCudaCheck(cudaGetDevice(&device));
  return device;
}

void checkDevice(int device) {
  int count = 0;
  THCudaCheck(cudaGetDeviceCount(&count));
  THArgCheck(device >= 0 && device < count, 1, "CUDA device %d does not exist: %d device%s visible", device, count,
             count == 1 ? "" : "s");
}

void updatePeak(size_t value, size_t *peak) { *peak = std::max(*peak, value); }

// Absorbs `neighbour` into `block` when it is free and waits in the pool.
void mergeInto(Block *block, Block *neighbour) {
  if (!neighbour || neighbour->allocated || neighbour->pendingEvents > 0) return;
  if (neighbour == block->prev) {
    block->ptr = neighbour->ptr;
    block->prev = neighbour->prev;
    if (block->prev) block->prev->next = block;
  } else {
    block->next = neighbour->next;
    if (block->next) block->next->prev = block;
  }
  block->size += neighbour->size;
  block->pool->erase(neighbour);
  delete neighbour;
}

// Puts a block nobody uses any more back into its pool, merged with its free neighbours.
void returnToPool(Block *block) {
  mergeInto(block, block->prev);
  mergeInto(block, block->next);
  block->pool->insert(block);
}

class CachingAllocator {
 public:
  void *malloc(size_t size, cudaStream_t stream) {
    if (size == 0) return nullptr;
    const int device = currentDevice();
    std::unique_lock<std::mutex> lock(mutex_);
    DeviceState &ds = state(device);
    processEvents(ds);
    Block *block = nullptr;
    if (size <= kMaxRequest) {
      const size_t rounded = roundUp(size, kMinBlockSize);
      BlockPool &pool = rounded <= kSmallSize ? ds.smallBlocks : ds.largeBlocks;
      block = takeFreeBlock(pool, stream, rounded);
      if (!block) block = newSegment(ds, device, pool, stream, segmentSize(rounded));
      if (block) splitOff(block, rounded);
    }
    if (!block) {
      const THCAllocatorStats stats = ds.stats;
      lock.unlock();
      THError(
          "CUDA out of memory: tried to allocate %zu bytes on device %d (%zu allocated, %zu reserved by the caching "
          "allocator)",
          size, device, stats.allocated, stats.reserved);
    }
    block->allocated = true;
    block->requestedSize = size;
    allocatedBlocks_[block->ptr] = block;
    ds.stats.allocated += block->size;
    updatePeak(ds.stats.allocated, &ds.stats.peakAllocated);
    ds.stats.numAllocs++;
    return block->ptr;
  }

  void free(void *ptr) {
    if (!ptr) return;
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = allocatedBlocks_.find(ptr);
    if (it == allocatedBlocks_.end()) {
      lock.unlock();
      THError("THCCachingAllocator_free: %p is not a block of the CUDA caching allocator (or was freed already)", ptr);
    }
    Block *block = it->second;
    allocatedBlocks_.erase(it);
    DeviceState &ds = *devices_[block->device];
    ds.stats.allocated -= block->size;
    block->allocated = false;
    block->requestedSize = 0;
    if (block->streamUses.empty()) {
      returnToPool(block);
      return;
    }
    // The other streams may still be using the block: it goes back to the pool when the
    // events recorded on them now have completed (processEvents).
    for (const StreamOnDevice &use : block->streamUses) {
      DeviceGuard guard(use.second);
      cudaEvent_t event;
      THCudaCheck(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
      THCudaCheck(cudaEventRecord(event, use.first));
      block->pendingEvents++;
      ds.pendingEvents.emplace_back(event, block);
    }
    block->streamUses.clear();
  }

  void recordStream(void *ptr, cudaStream_t stream) {
    if (!ptr) return;
    const int device = currentDevice();
    std::unique_lock<std::mutex> lock(mutex_);
    Block *block = allocatedBlock(ptr);
    if (!block) {
      lock.unlock();
      THError("THCCachingAllocator_recordStream: %p is not a block of the CUDA caching allocator", ptr);
    }
    // Work on the block's own stream is ordered with its next use already.
    if (stream == block->stream && device == block->device) return;
    block->streamUses.insert({stream, device});
  }

  int device(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    Block *block = allocatedBlock(ptr);
    return block ? block->device : -1;
  }

  // The cudaMalloc'd segment holding an allocated block: its first block's address.
  void *segmentBase(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    Block *block = allocatedBlock(ptr);
    if (!block) return nullptr;
    while (block->prev) block = block->prev;
    return block->ptr;
  }

  size_t requestedSize(void *ptr) {
    std::unique_lock<std::mutex> lock(mutex_);
    Block *block = allocatedBlock(ptr);
    if (!block) {
      lock.unlock();
      THError("THCCachingAllocator realloc: %p is not a block of the CUDA caching allocator", ptr);
    }
    return block->requestedSize;
  }

  void emptyCache() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t device = 0; device < devices_.size(); device++)
      if (devices_[device]) releaseCachedBlocks(*devices_[device], (int)device);
  }

  THCAllocatorStats stats(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return state(device).stats;
  }

  void resetPeakStats(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    THCAllocatorStats &stats = state(device).stats;
    stats.peakAllocated = stats.allocated;
    stats.peakReserved = stats.reserved;
  }

 private:
  DeviceState &state(int device) {
    if ((size_t)device >= devices_.size()) devices_.resize(device + 1);
    if (!devices_[device]) devices_[device] = std::make_unique<DeviceState>();
    return *devices_[device];
  }

  Block *allocatedBlock(void *ptr) {
    auto it = allocatedBlocks_.find(ptr);
    return it == allocatedBlocks_.end() ? nullptr : it->second;
  }

  // The smallest free block of `stream` with at least `size` bytes, taken out of the pool.
  static Block *takeFreeBlock(BlockPool &pool, cudaStream_t stream, size_t size) {
    Block key(-1, stream, size, nullptr, nullptr);
    auto it = pool.lower_bound(&key);
    if (it == pool.end() || (*it)->stream != stream) return nullptr;
    Block *block = *it;
    pool.erase(it);
    return block;
  }

  // Returns the rest of a block taken for `size` bytes to the pool when it is worth keeping
  // apart: a large block keeps a remainder of 1 MiB or less, which no large request fits.
  static void splitOff(Block *block, size_t size) {
    const size_t remaining = block->size - size;
    const bool small = size <= kSmallSize;
    if (small ? remaining < kMinBlockSize : remaining <= kSmallSize) return;
    Block *rest = new Block(block->device, block->stream, remaining, block->ptr + size, block->pool);
    rest->prev = block;
    rest->next = block->next;
    if (rest->next) rest->next->prev = rest;
    block->next = rest;
    block->size = size;
    block->pool->insert(rest);
  }

  // A block spanning a fresh segment, or NULL when the device is out of memory even after
  // the unused cached segments were released.
  Block *newSegment(DeviceState &ds, int device, BlockPool &pool, cudaStream_t stream, size_t size) {
    void *ptr = nullptr;
    cudaError_t err = cudaMalloc(&ptr, size);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // handled here: a later check must not report it
      releaseCachedBlocks(ds, device);
      err = cudaMalloc(&ptr, size);
    }
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;
    }
    THCudaCheck(err);
    ds.stats.reserved += size;
    updatePeak(ds.stats.reserved, &ds.stats.peakReserved);
    ds.stats.numCudaMallocs++;
    return new Block(device, stream, size, static_cast<char *>(ptr), &pool);
  }

  // Returns the blocks whose recorded events have completed to their pools.
  static void processEvents(DeviceState &ds) {
    for (auto it = ds.pendingEvents.begin(); it != ds.pendingEvents.end();) {
      const cudaError_t err = cudaEventQuery(it->first);
      if (err == cudaErrorNotReady) {
        (void)cudaGetLastError();  // not an error: the work is still running
        ++it;
        continue;
      }
      THCudaCheck(err);
      THCudaCheck(cudaEventDestroy(it->first));
      Block *block = it->second;
      it = ds.pendingEvents.erase(it);
      if (--block->pendingEvents == 0) returnToPool(block);
    }
  }

  // Waits for all recorded events, then cudaFrees the segments that are wholly free.
  static void releaseCachedBlocks(DeviceState &ds, int device) {
    while (!ds.pendingEvents.empty()) {
      auto [event, block] = ds.pendingEvents.front();
      THCudaCheck(cudaEventSynchronize(event));
      THCudaCheck(cudaEventDestroy(event));
      ds.pendingEvents.pop_front();
      if (--block->pendingEvents == 0) returnToPool(block);
    }
    DeviceGuard guard(device);
    releaseSegments(ds, ds.smallBlocks);
    releaseSegments(ds, ds.largeBlocks);
  }

  static void releaseSegments(DeviceState &ds, BlockPool &pool) {
    for (auto it = pool.begin(); it != pool.end();) {
      Block *block = *it;
      if (block->prev || block->next) {  // part of a segment still in use
        ++it;
        continue;
      }
      THCudaCheck(cudaFree(block->ptr));
      ds.stats.reserved -= block->size;
      ds.stats.numCudaFrees++;
      it = pool.erase(it);
      delete block;
    }
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<DeviceState>> devices_;  // by device index, made on first use
  std::unordered_map<void *, Block *> allocatedBlocks_;
};

CachingAllocator &allocator() {
  // Never destroyed: at exit the CUDA runtime may be gone before it, and cudaFree would fail.
  static CachingAllocator *instance = new CachingAllocator();
  return *instance;
}

std::atomic<THCStreamSource> streamSource{nullptr};

cudaStream_t sourceStream() {
  const THCStreamSource source = streamSource.load();
  return source ? source() : nullptr;
}

void *thMalloc(void *, ptrdiff_t size) {
  THArgCheck(size >= 0, 2, "cannot allocate a negative size (%td bytes)", size);
  return THCCachingAllocator_malloc((size_t)size, sourceStream());
}

void *thRealloc(void *, void *ptr, ptrdiff_t size) {
  THArgCheck(size >= 0, 3, "cannot reallocate to a negative size (%td bytes)", size);
  if (!ptr) return thMalloc(nullptr, size);
  const size_t oldSize = allocator().requestedSize(ptr);
  const cudaStream_t stream = sourceStream();
  void *newPtr = THCCachingAllocator_malloc((size_t)size, stream);
  const size_t copyBytes = std::min(oldSize, (size_t)size);
  if (copyBytes > 0) {
    const cudaError_t err = cudaMemcpyAsync(newPtr, ptr, copyBytes, cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) {
      THCCachingAllocator_free(newPtr);
      THCudaCheck(err);
    }
  }
  // The copy reads the old block on `stream`: its reuse must wait for it.
  THCCachingAllocator_recordStream(ptr, stream);
  THCCachingAllocator_free(ptr);
  return newPtr;
}

void thFree(void *, void *ptr) { THCCachingAllocator_free(ptr); }

THAllocator thAllocator = {thMalloc, thRealloc, thFree};

}  // namespace

void *THCCachingAllocator_malloc(size_t size, cudaStream_t stream) { return allocator().malloc(size, stream); }
void THCCachingAllocator_free(void *ptr) { allocator().free(ptr); }
void THCCachingAllocator_recordStream(void *ptr, cudaStream_t stream) { allocator().recordStream(ptr, stream); }
int THCCachingAllocator_device(void *ptr) { return ptr ? allocator().device(ptr) : -1; }
void *THCCachingAllocator_segmentBase(void *ptr) { return ptr ? allocator().segmentBase(ptr) : nullptr; }
void THCCachingAllocator_emptyCache(void) { allocator().emptyCache(); }

void THCCachingAllocator_getStats(int device, THCAllocatorStats *stats) {
  checkDevice(device);
  *stats = allocator().stats(device);
}

void THCCachingAllocator_resetPeakStats(int device) {
  checkDevice(device);
  allocator().resetPeakStats(device);
}

THAllocator *THCCachingAllocator_get(void) { return &thAllocator; }
void THCCachingAllocator_setStreamSource(THCStreamSource source) { streamSource.store(source); }
