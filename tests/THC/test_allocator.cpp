// The caching allocators: what reaches cudaMalloc, what the statistics count, when a freed
// block may be handed out again, and the pinned host allocator. Sizes and addresses follow
// Note [Caching allocator] (THC/THCCachingAllocator.h): 512-byte rounding, 2 MiB segments
// for requests up to 1 MiB, 20 MiB segments for larger ones below 10 MiB.
#define BOOST_TEST_MODULE THC caching allocator
#include <boost/test/unit_test.hpp>

#include "thc_test_util.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "THC/THCCachingAllocator.h"
#include "THC/THCCachingHostAllocator.h"
#include "THC/THCIpc.h"
#include "TH/THError.hpp"

namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * 1024;

int currentDevice() {
  int device = 0;
  THCudaCheck(cudaGetDevice(&device));
  return device;
}

THCAllocatorStats stats() {
  THCAllocatorStats s;
  THCCachingAllocator_getStats(currentDevice(), &s);
  return s;
}

void *dmalloc(size_t size, cudaStream_t stream = nullptr) { return THCCachingAllocator_malloc(size, stream); }
void dfree(void *ptr) { THCCachingAllocator_free(ptr); }
char *at(void *base, size_t offset) { return static_cast<char *>(base) + offset; }

// Each test starts with nothing cached and nothing allocated, so that addresses are those
// of its own requests; the counters run on, and the test counts from what this returns.
THCAllocatorStats freshCache() {
  THCCachingAllocator_emptyCache();
  THCCachingAllocator_resetPeakStats(currentDevice());
  const THCAllocatorStats start = stats();
  BOOST_REQUIRE_EQUAL(start.allocated, 0u);
  BOOST_REQUIRE_EQUAL(start.reserved, 0u);
  return start;
}

uint64_t cudaMallocsSince(const THCAllocatorStats &start) { return stats().numCudaMallocs - start.numCudaMallocs; }
uint64_t cudaFreesSince(const THCAllocatorStats &start) { return stats().numCudaFrees - start.numCudaFrees; }

std::vector<uint8_t> deviceBytes(const void *ptr, size_t size) {
  std::vector<uint8_t> bytes(size);
  THCudaCheck(cudaMemcpy(bytes.data(), ptr, size, cudaMemcpyDeviceToHost));
  return bytes;
}

bool allEqual(const std::vector<uint8_t> &bytes, uint8_t value) {
  for (uint8_t b : bytes)
    if (b != value) return false;
  return true;
}

bool isOutOfMemory(const th::Error &e) { return std::string(e.what()).find("out of memory") != std::string::npos; }

// A stream that does not wait for the legacy default stream (nor it for this one).
struct SideStream {
  SideStream() { THCudaCheck(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~SideStream() { cudaStreamDestroy(stream); }
  cudaStream_t stream = nullptr;
};

// Holds back the work queued on a stream after it until open() (without a kernel: a host
// function that waits), so that "not finished yet" is certain. It gives up after 10 s, so
// that a failing test cannot hang.
class StreamGate {
 public:
  explicit StreamGate(cudaStream_t stream) : stream_(stream) { THCudaCheck(cudaLaunchHostFunc(stream, wait, this)); }
  ~StreamGate() {
    open();
    cudaStreamSynchronize(stream_);  // the host function must be done with *this
  }
  void open() { open_ = true; }

 private:
  static void CUDART_CB wait(void *self) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!static_cast<StreamGate *>(self)->open_ && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  cudaStream_t stream_;
  std::atomic<bool> open_{false};
};

// The adapter's stream for one test; the default (legacy stream 0) again afterwards.
cudaStream_t adapterStream = nullptr;
struct AdapterStreamScope {
  explicit AdapterStreamScope(cudaStream_t stream) {
    adapterStream = stream;
    THCCachingAllocator_setStreamSource([]() { return adapterStream; });
  }
  ~AdapterStreamScope() { THCCachingAllocator_setStreamSource(nullptr); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(allocator, *thct::needsGPU())

BOOST_AUTO_TEST_CASE(round_trip) {
  freshCache();
  const size_t size = 10000;
  void *p = dmalloc(size);
  BOOST_REQUIRE(p != nullptr);
  BOOST_TEST(THCCachingAllocator_device(p) == currentDevice());
  THCudaCheck(cudaMemset(p, 0x5a, size));
  BOOST_TEST(allEqual(deviceBytes(p, size), 0x5a));
  dfree(p);

  BOOST_TEST(dmalloc(0) == nullptr);
  dfree(nullptr);
  int local = 0;
  BOOST_TEST(THCCachingAllocator_device(&local) == -1);
  BOOST_TEST(THCCachingAllocator_device(nullptr) == -1);
  BOOST_TEST(THCCachingAllocator_device(p) == -1);  // freed
}

BOOST_AUTO_TEST_CASE(freed_block_is_reused) {
  const THCAllocatorStats start = freshCache();
  void *p = dmalloc(5000);
  dfree(p);
  void *q = dmalloc(4700);  // the same 5120 bytes
  BOOST_TEST(q == p);
  dfree(q);
  BOOST_TEST(cudaMallocsSince(start) == 1u);
  BOOST_TEST(cudaFreesSince(start) == 0u);
}

BOOST_AUTO_TEST_CASE(steady_loop_of_one_size_stops_calling_cudaMalloc) {
  const THCAllocatorStats before = freshCache();
  uint64_t mallocsAfterFirst = 0;
  for (int i = 0; i < 1000; i++) {
    dfree(dmalloc(MiB));
    if (i == 0) mallocsAfterFirst = stats().numCudaMallocs;
  }
  const THCAllocatorStats after = stats();
  BOOST_TEST(mallocsAfterFirst == before.numCudaMallocs + 1);
  BOOST_TEST(after.numCudaMallocs == mallocsAfterFirst);
  BOOST_TEST(after.numCudaFrees == before.numCudaFrees);
  BOOST_TEST(after.numAllocs == before.numAllocs + 1000);
}

BOOST_AUTO_TEST_CASE(steady_loop_of_mixed_sizes_stops_calling_cudaMalloc) {
  const THCAllocatorStats before = freshCache();
  const std::vector<size_t> sizes = {100, 4096, 777777, MiB, 3 * MiB, 12 * MiB, 1};
  uint64_t mallocsAfterFirst = 0;
  for (int i = 0; i < 1000; i++) {
    std::vector<void *> blocks;
    for (size_t size : sizes) blocks.push_back(dmalloc(size));
    // Freeing in either order must merge the segments back the same way.
    if (i % 2) std::reverse(blocks.begin(), blocks.end());
    for (void *block : blocks) dfree(block);
    if (i == 0) mallocsAfterFirst = stats().numCudaMallocs;
  }
  const THCAllocatorStats after = stats();
  BOOST_TEST(mallocsAfterFirst > before.numCudaMallocs);
  BOOST_TEST(after.numCudaMallocs == mallocsAfterFirst);
  BOOST_TEST(after.numCudaFrees == before.numCudaFrees);
  BOOST_TEST(after.allocated == 0u);
}

BOOST_AUTO_TEST_CASE(statistics_of_a_known_sequence) {
  const THCAllocatorStats before = freshCache();
  void *a = dmalloc(1000);  // each rounded to 1024 bytes, all from one 2 MiB segment
  void *b = dmalloc(1000);
  void *c = dmalloc(1000);
  THCAllocatorStats s = stats();
  BOOST_TEST(s.allocated == 3 * 1024u);
  BOOST_TEST(s.reserved == 2 * MiB);
  BOOST_TEST(s.numAllocs == before.numAllocs + 3);
  BOOST_TEST(s.numCudaMallocs == before.numCudaMallocs + 1);

  dfree(b);
  s = stats();
  BOOST_TEST(s.allocated == 2 * 1024u);
  BOOST_TEST(s.peakAllocated == 3 * 1024u);

  void *d = dmalloc(1);  // 512 bytes, in b's place
  BOOST_TEST(d == b);
  BOOST_TEST(stats().allocated == 2 * 1024u + 512u);
  dfree(a);
  dfree(c);
  dfree(d);
  s = stats();
  BOOST_TEST(s.allocated == 0u);
  BOOST_TEST(s.reserved == 2 * MiB);  // cached, not released

  THCCachingAllocator_emptyCache();
  s = stats();
  BOOST_TEST(s.reserved == 0u);
  BOOST_TEST(s.numCudaFrees == before.numCudaFrees + 1);
  BOOST_TEST(s.peakAllocated == 3 * 1024u);
  BOOST_TEST(s.peakReserved == 2 * MiB);

  THCCachingAllocator_resetPeakStats(currentDevice());
  s = stats();
  BOOST_TEST(s.peakAllocated == 0u);
  BOOST_TEST(s.peakReserved == 0u);
}

BOOST_AUTO_TEST_CASE(small_blocks_are_split_from_one_segment) {
  const THCAllocatorStats start = freshCache();
  void *a = dmalloc(512 * KiB);
  void *b = dmalloc(512 * KiB);
  void *c = dmalloc(MiB);  // exactly the rest of the segment
  BOOST_TEST(b == at(a, 512 * KiB));
  BOOST_TEST(c == at(a, MiB));
  BOOST_TEST(cudaMallocsSince(start) == 1u);
  BOOST_TEST(stats().reserved == 2 * MiB);
  dfree(a);
  dfree(b);
  dfree(c);
}

// What CUDA IPC sends: a block's segment (THC/THCIpc.h), whose first block is at its start.
BOOST_AUTO_TEST_CASE(segment_base_is_where_the_blocks_segment_starts) {
  freshCache();
  void *a = dmalloc(512 * KiB);
  void *b = dmalloc(512 * KiB);
  void *large = dmalloc(3 * MiB);  // a segment of its own, in the large pool
  void *after = dmalloc(MiB);      // the rest of a's small segment
  BOOST_TEST(THCCachingAllocator_segmentBase(a) == a);
  BOOST_TEST(THCCachingAllocator_segmentBase(b) == a);
  BOOST_TEST(THCCachingAllocator_segmentBase(after) == a);
  BOOST_TEST(THCCachingAllocator_segmentBase(large) == large);
  cudaIpcMemHandle_t handle;
  BOOST_TEST(cudaIpcGetMemHandle(&handle, THCCachingAllocator_segmentBase(b)) == cudaSuccess);
  int local = 0;
  BOOST_TEST(THCCachingAllocator_segmentBase(&local) == nullptr);
  BOOST_TEST(THCCachingAllocator_segmentBase(at(b, 512)) == nullptr);  // inside a block is not a block
  BOOST_TEST(THCCachingAllocator_segmentBase(nullptr) == nullptr);
  dfree(a);
  BOOST_TEST(THCCachingAllocator_segmentBase(a) == nullptr);  // freed
  BOOST_TEST(THCCachingAllocator_segmentBase(b) == a);
  dfree(b);
  dfree(large);
  dfree(after);
}

BOOST_AUTO_TEST_CASE(freed_neighbours_are_merged) {
  const THCAllocatorStats start = freshCache();
  void *a = dmalloc(512 * KiB);
  void *b = dmalloc(512 * KiB);
  dfree(a);
  dfree(b);
  // Only the merged a+b+rest can start at a; unmerged, 1 MiB would fit only in the rest.
  void *x = dmalloc(MiB);
  void *y = dmalloc(MiB);
  BOOST_TEST(x == a);
  BOOST_TEST(y == at(a, MiB));
  BOOST_TEST(cudaMallocsSince(start) == 1u);
  dfree(y);
  dfree(x);
  // A segment is released only whole: one cudaFree shows it was merged back.
  THCCachingAllocator_emptyCache();
  BOOST_TEST(cudaFreesSince(start) == 1u);
  BOOST_TEST(stats().reserved == 0u);
}

BOOST_AUTO_TEST_CASE(large_pool) {
  const THCAllocatorStats start = freshCache();
  void *a = dmalloc(3 * MiB);  // a 20 MiB segment
  BOOST_TEST(stats().reserved == 20 * MiB);
  void *b = dmalloc(3 * MiB);
  void *c = dmalloc(12 * MiB);
  void *d = dmalloc(1536 * KiB);  // takes the last 2 MiB whole: a 512 KiB rest is not split off
  BOOST_TEST(b == at(a, 3 * MiB));
  BOOST_TEST(c == at(a, 6 * MiB));
  BOOST_TEST(d == at(a, 18 * MiB));
  BOOST_TEST(stats().allocated == 20 * MiB);
  BOOST_TEST(cudaMallocsSince(start) == 1u);

  // A small request never takes a large block.
  void *s = dmalloc(1000);
  BOOST_TEST(cudaMallocsSince(start) == 2u);
  BOOST_TEST(stats().reserved == 22 * MiB);
  dfree(s);

  dfree(b);
  dfree(d);
  dfree(a);
  dfree(c);
  void *e = dmalloc(19 * MiB);  // the merged segment
  BOOST_TEST(e == a);
  BOOST_TEST(cudaMallocsSince(start) == 2u);
  dfree(e);

  // From 10 MiB on, a segment is the request rounded up to 2 MiB.
  THCCachingAllocator_emptyCache();
  BOOST_TEST(stats().reserved == 0u);
  void *f = dmalloc(11 * MiB + 1);
  BOOST_TEST(stats().reserved == 12 * MiB);
  BOOST_TEST(stats().allocated == 12 * MiB);  // the rest, under 1 MiB, stays with the block
  dfree(f);
}

BOOST_AUTO_TEST_CASE(empty_cache_releases_only_unused_segments) {
  freshCache();
  void *used = dmalloc(10 * MiB);  // a segment of exactly its size
  dfree(dmalloc(1000));
  dfree(dmalloc(3 * MiB));
  THCAllocatorStats s = stats();
  BOOST_TEST(s.reserved == 32 * MiB);
  const uint64_t freesBefore = s.numCudaFrees;

  THCCachingAllocator_emptyCache();
  s = stats();
  BOOST_TEST(s.reserved == s.allocated);
  BOOST_TEST(s.reserved == 10 * MiB);
  BOOST_TEST(s.numCudaFrees == freesBefore + 2);

  // Half of a segment in use keeps all of it.
  void *half = dmalloc(512 * KiB);
  dfree(dmalloc(512 * KiB));
  THCCachingAllocator_emptyCache();
  BOOST_TEST(stats().reserved == 12 * MiB);
  dfree(half);
  dfree(used);
  THCCachingAllocator_emptyCache();
  BOOST_TEST(stats().reserved == 0u);
}

BOOST_AUTO_TEST_CASE(out_of_memory_raises_and_changes_nothing) {
  freshCache();
  void *kept = dmalloc(1000);
  THCCachingAllocator_emptyCache();  // nothing left to release: the stats must stay as they are
  const THCAllocatorStats before = stats();
  BOOST_CHECK_EXCEPTION(dmalloc(size_t(1) << 50), th::Error, isOutOfMemory);
  BOOST_CHECK_EXCEPTION(dmalloc(SIZE_MAX), th::Error, isOutOfMemory);
  const THCAllocatorStats after = stats();
  BOOST_TEST(after.allocated == before.allocated);
  BOOST_TEST(after.reserved == before.reserved);
  BOOST_TEST(after.peakAllocated == before.peakAllocated);
  BOOST_TEST(after.peakReserved == before.peakReserved);
  BOOST_TEST(after.numAllocs == before.numAllocs);
  BOOST_TEST(after.numCudaMallocs == before.numCudaMallocs);
  BOOST_TEST(after.numCudaFrees == before.numCudaFrees);
  BOOST_TEST(cudaGetLastError() == cudaSuccess);

  void *p = dmalloc(MiB);
  THCudaCheck(cudaMemset(p, 1, MiB));
  BOOST_TEST(allEqual(deviceBytes(p, MiB), 1));
  dfree(p);
  dfree(kept);
}

BOOST_AUTO_TEST_CASE(out_of_memory_releases_the_cache_first) {
  freshCache();
  size_t freeBytes = 0, totalBytes = 0;
  THCudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes));
  // Two thirds of the free memory, cached; a second such request fits only once it is released.
  const size_t size = freeBytes / 3 * 2;
  dfree(dmalloc(size));
  const uint64_t freesBefore = stats().numCudaFrees;
  void *p = dmalloc(size + 4 * MiB);  // too large for the cached segment
  BOOST_TEST(stats().numCudaFrees == freesBefore + 1);
  dfree(p);
  THCCachingAllocator_emptyCache();
}

BOOST_AUTO_TEST_CASE(blocks_stay_with_their_stream) {
  const THCAllocatorStats start = freshCache();
  SideStream side;
  void *p = dmalloc(512 * KiB);
  dfree(p);
  void *q = dmalloc(512 * KiB, side.stream);  // p's segment belongs to stream 0
  BOOST_TEST(q != p);
  BOOST_TEST(cudaMallocsSince(start) == 2u);
  dfree(q);
  void *r = dmalloc(512 * KiB, side.stream);
  BOOST_TEST(r == q);
  dfree(r);
}

BOOST_AUTO_TEST_CASE(record_stream_defers_reuse) {
  const THCAllocatorStats start = freshCache();
  SideStream side;
  void *p = dmalloc(512 * KiB);
  {
    StreamGate gate(side.stream);
    THCudaCheck(cudaMemsetAsync(p, 3, 512 * KiB, side.stream));  // waits behind the gate
    THCCachingAllocator_recordStream(p, side.stream);
    dfree(p);
    BOOST_TEST(stats().allocated == 0u);  // no longer the caller's, though not reusable yet
    void *q = dmalloc(512 * KiB);
    BOOST_TEST(q != p);
    dfree(q);
    gate.open();
    THCudaCheck(cudaStreamSynchronize(side.stream));
  }
  void *r = dmalloc(512 * KiB);  // the side stream is done with p
  BOOST_TEST(r == p);
  BOOST_TEST(cudaMallocsSince(start) == 1u);
  dfree(r);

  // Recording the block's own stream changes nothing.
  void *s = dmalloc(512 * KiB);
  THCCachingAllocator_recordStream(s, nullptr);
  dfree(s);
  void *t = dmalloc(512 * KiB);
  BOOST_TEST(t == s);
  dfree(t);
}

BOOST_AUTO_TEST_CASE(empty_cache_waits_for_recorded_streams) {
  freshCache();
  SideStream side;
  void *p = dmalloc(MiB);
  THCudaCheck(cudaMemsetAsync(p, 0, MiB, side.stream));
  THCCachingAllocator_recordStream(p, side.stream);
  dfree(p);
  THCCachingAllocator_emptyCache();
  BOOST_TEST(stats().reserved == 0u);
}

BOOST_AUTO_TEST_CASE(unknown_pointers_raise) {
  freshCache();
  int local = 0;
  BOOST_CHECK_THROW(dfree(&local), th::Error);
  BOOST_CHECK_THROW(THCCachingAllocator_recordStream(&local, nullptr), th::Error);
  void *p = dmalloc(100);
  BOOST_CHECK_THROW(dfree(at(p, 512)), th::Error);  // inside a block is not a block
  dfree(p);
  BOOST_CHECK_THROW(dfree(p), th::Error);  // twice
  THCCachingAllocator_recordStream(nullptr, nullptr);
  THCAllocatorStats unused;
  BOOST_CHECK_THROW(THCCachingAllocator_getStats(-1, &unused), th::Error);
}

BOOST_AUTO_TEST_CASE(th_allocator_adapter) {
  const THCAllocatorStats start = freshCache();
  THAllocator *allocator = THCCachingAllocator_get();
  void *p = allocator->malloc(nullptr, 1000);
  THCudaCheck(cudaMemset(p, 7, 1000));
  void *q = allocator->realloc(nullptr, p, 5000);  // grows: the first 1000 bytes move along
  BOOST_TEST(stats().allocated == 5120u);
  BOOST_TEST(allEqual(deviceBytes(q, 1000), 7));
  void *r = allocator->realloc(nullptr, q, 100);  // shrinks
  BOOST_TEST(stats().allocated == 512u);
  BOOST_TEST(allEqual(deviceBytes(r, 100), 7));
  BOOST_TEST(allocator->realloc(nullptr, r, 0) == nullptr);
  BOOST_TEST(stats().allocated == 0u);
  void *s = allocator->realloc(nullptr, nullptr, 10);
  BOOST_TEST(stats().allocated == 512u);
  allocator->free(nullptr, s);
  BOOST_TEST(allocator->malloc(nullptr, 0) == nullptr);
  BOOST_CHECK_THROW(allocator->malloc(nullptr, -1), th::Error);

  // With a stream source, blocks are for its stream and realloc copies on it.
  SideStream side;
  {
    AdapterStreamScope scope(side.stream);
    void *u = allocator->malloc(nullptr, 2000);
    THCudaCheck(cudaMemsetAsync(u, 9, 2000, side.stream));
    void *v = allocator->realloc(nullptr, u, 3000);
    THCudaCheck(cudaStreamSynchronize(side.stream));
    BOOST_TEST(allEqual(deviceBytes(v, 2000), 9));
    allocator->free(nullptr, v);
    // u and v were carved from one segment of the side stream, whole again now.
    void *w = dmalloc(3000, side.stream);
    BOOST_TEST(w == u);
    BOOST_TEST(cudaMallocsSince(start) == 2u);  // one segment per stream
    dfree(w);
  }
  BOOST_TEST(stats().allocated == 0u);
}

BOOST_AUTO_TEST_CASE(host_blocks_are_pinned) {
  THCCachingHostAllocator_emptyCache();
  const size_t size = 1000;
  auto *h = static_cast<uint8_t *>(THCCachingHostAllocator_malloc(size));
  BOOST_REQUIRE(h != nullptr);
  cudaPointerAttributes attributes;
  THCudaCheck(cudaPointerGetAttributes(&attributes, h));
  BOOST_TEST(attributes.type == cudaMemoryTypeHost);
  BOOST_TEST(THCCachingHostAllocator_isPinned(h) == 1);
  BOOST_TEST(THCCachingHostAllocator_isPinned(h + size - 1) == 1);
  int local = 0;
  BOOST_TEST(THCCachingHostAllocator_isPinned(&local) == 0);
  BOOST_TEST(THCCachingHostAllocator_isPinned(nullptr) == 0);
  BOOST_TEST(THCCachingHostAllocator_malloc(0) == nullptr);

  // Round trip through the device from pinned memory to pinned memory.
  for (size_t i = 0; i < size; i++) h[i] = (uint8_t)(i * 7);
  auto *back = static_cast<uint8_t *>(THCCachingHostAllocator_malloc(size));
  void *d = dmalloc(size);
  THCudaCheck(cudaMemcpy(d, h, size, cudaMemcpyHostToDevice));
  THCudaCheck(cudaMemcpy(back, d, size, cudaMemcpyDeviceToHost));
  BOOST_TEST(std::memcmp(back, h, size) == 0);
  dfree(d);
  THCCachingHostAllocator_free(back);
  THCCachingHostAllocator_free(h);
  BOOST_TEST(THCCachingHostAllocator_isPinned(h) == 0);  // freed
}

BOOST_AUTO_TEST_CASE(host_blocks_are_reused_by_size_class) {
  THCCachingHostAllocator_emptyCache();
  void *p = THCCachingHostAllocator_malloc(1000);  // 1024 bytes
  THCCachingHostAllocator_free(p);
  void *q = THCCachingHostAllocator_malloc(600);
  BOOST_TEST(q == p);
  void *r = THCCachingHostAllocator_malloc(1000);  // p is taken
  BOOST_TEST(r != p);
  THCCachingHostAllocator_free(r);
  void *s = THCCachingHostAllocator_malloc(1025);  // 2048 bytes: another class
  BOOST_TEST(s != r);
  THCCachingHostAllocator_free(s);
  THCCachingHostAllocator_free(q);
  int local = 0;
  BOOST_CHECK_THROW(THCCachingHostAllocator_free(&local), th::Error);
  BOOST_CHECK_THROW(THCCachingHostAllocator_free(q), th::Error);  // twice
  THCCachingHostAllocator_free(nullptr);
  THCCachingHostAllocator_emptyCache();
}

BOOST_AUTO_TEST_CASE(host_record_event_defers_reuse) {
  THCCachingHostAllocator_emptyCache();
  SideStream side;
  const size_t size = 4096;
  auto *h = static_cast<char *>(THCCachingHostAllocator_malloc(size));
  void *other = THCCachingHostAllocator_malloc(size);
  // Cached before h, so that no cudaHostAlloc runs behind the gate, and taken after h if
  // h were reusable (the last cached block of a size goes first).
  THCCachingHostAllocator_free(other);
  void *d = dmalloc(size);
  {
    StreamGate gate(side.stream);
    THCudaCheck(cudaMemcpyAsync(d, h, size, cudaMemcpyHostToDevice, side.stream));
    BOOST_TEST(THCCachingHostAllocator_recordEvent(h + 100, side.stream) == 1);  // inside the block
    THCCachingHostAllocator_free(h);
    void *next = THCCachingHostAllocator_malloc(size);
    BOOST_TEST(next == other);  // not h: the copy has not run
    THCCachingHostAllocator_free(next);
    gate.open();
    THCudaCheck(cudaStreamSynchronize(side.stream));
  }
  // Both blocks are free now.
  void *a = THCCachingHostAllocator_malloc(size);
  void *b = THCCachingHostAllocator_malloc(size);
  BOOST_TEST((std::set<void *>{a, b} == std::set<void *>{h, other}));
  THCCachingHostAllocator_free(a);
  THCCachingHostAllocator_free(b);
  dfree(d);

  int local = 0;
  BOOST_TEST(THCCachingHostAllocator_recordEvent(&local, side.stream) == 0);
  THCCachingHostAllocator_emptyCache();
}

BOOST_AUTO_TEST_CASE(host_th_allocator_adapter) {
  THAllocator *allocator = &THCCachingHostAllocator;
  BOOST_TEST(allocator->realloc == nullptr);
  void *p = allocator->malloc(nullptr, 100);
  BOOST_TEST(THCCachingHostAllocator_isPinned(p) == 1);
  std::memset(p, 1, 100);
  allocator->free(nullptr, p);
  BOOST_TEST(THCCachingHostAllocator_isPinned(p) == 0);
  BOOST_TEST(allocator->malloc(nullptr, 0) == nullptr);
  BOOST_CHECK_THROW(allocator->malloc(nullptr, -1), th::Error);
  THCCachingHostAllocator_emptyCache();
}

BOOST_AUTO_TEST_SUITE_END()
