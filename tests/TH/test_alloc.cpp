// THAlloc, THRealloc and THFree as their users see them: THHeapSize counts the live bytes
// only, and the large-block cache (Note [Large-block cache] in TH/THGeneral.cpp) hands a
// freed block back to the next request it fits, holds at most its bound, and gives its
// blocks back to the system when emptied or when an allocation would fail.
#define BOOST_TEST_MODULE TH allocator
#include <malloc.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "TH/THGeneral.h"

// Defined in TH/THGeneral.cpp, declared by their users.
TH_API ptrdiff_t THHeapSize(void);
TH_API ptrdiff_t THCachedSize(void);
TH_API void THEmptyCache(void);

namespace {

constexpr ptrdiff_t MiB = ptrdiff_t(1) << 20;
// The default bound: Bazel runs tests without TH_BLOCK_CACHE_MB in their environment.
constexpr ptrdiff_t kLimit = 256 * MiB;

ptrdiff_t usable(void *p) { return ptrdiff_t(malloc_usable_size(p)); }

char *alloc(ptrdiff_t size) { return static_cast<char *>(THAlloc(size)); }

// The process's address space in bytes, as the kernel counts it against RLIMIT_AS.
ptrdiff_t addressSpace() {
  std::ifstream statm("/proc/self/statm");
  ptrdiff_t pages = 0;
  statm >> pages;
  return pages * sysconf(_SC_PAGESIZE);
}

// Lowers the soft limit on the address space for its lifetime.
struct AddressSpaceLimit {
  rlimit saved;
  explicit AddressSpaceLimit(ptrdiff_t bytes) {
    getrlimit(RLIMIT_AS, &saved);
    rlimit lowered = saved;
    lowered.rlim_cur = rlim_t(bytes);
    setrlimit(RLIMIT_AS, &lowered);
  }
  ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &saved); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(heap_size_counts_live_blocks) {
  THEmptyCache();
  const ptrdiff_t live = THHeapSize();
  void *small = THAlloc(1000), *large = THAlloc(4 * MiB);
  const ptrdiff_t largeSize = usable(large);
  BOOST_TEST(THHeapSize() - live == usable(small) + largeSize);
  THFree(small);
  THFree(large);
  BOOST_TEST(THHeapSize() == live, "a cached block is not live");
  BOOST_TEST(THCachedSize() == largeSize);
  THEmptyCache();
}

BOOST_AUTO_TEST_CASE(freed_large_block_is_reused) {
  THEmptyCache();
  const ptrdiff_t live = THHeapSize();
  char *p = alloc(4 * MiB);
  const ptrdiff_t size = usable(p);
  memset(p, 1, 4 * MiB);
  THFree(p);
  BOOST_TEST(THCachedSize() == size);
  char *q = alloc(4 * MiB);
  // A fresh mapping would read zero (and could well land at the same address): the bytes
  // written before THFree show the block is the one kept.
  BOOST_TEST(static_cast<void *>(q) == static_cast<void *>(p));
  BOOST_TEST(q[0] == 1);
  BOOST_TEST(q[4 * MiB - 1] == 1);
  BOOST_TEST(reinterpret_cast<uintptr_t>(q) % 64 == 0);
  BOOST_TEST(THCachedSize() == 0);
  BOOST_TEST(THHeapSize() - live == size);
  THFree(q);
  THEmptyCache();
}

BOOST_AUTO_TEST_CASE(a_cached_block_serves_requests_it_fits) {
  THEmptyCache();
  char *p = alloc(4 * MiB);
  // 4 MiB and up to a huge page more: THAlloc aligns the block, and glibc hands it the rest
  // of its mapping, so how much more depends on where the mapping landed
  const ptrdiff_t room = usable(p);
  THFree(p);
  const ptrdiff_t cached = THCachedSize();
  char *quarter = alloc(MiB);  // would waste three quarters of the block
  char *larger = alloc(room + 64 * 1024);
  BOOST_TEST(THCachedSize() == cached);
  char *close = alloc(4 * MiB - 64 * 1024);  // within an eighth and the alignment slack
  BOOST_TEST(static_cast<void *>(close) == static_cast<void *>(p));
  BOOST_TEST(THCachedSize() == 0);
  THFree(quarter);
  THFree(larger);
  THFree(close);
  THEmptyCache();
  // small blocks go straight back to malloc
  THFree(THAlloc(1000));
  THFree(THAlloc(512 * 1024));
  BOOST_TEST(THCachedSize() == 0);
}

BOOST_AUTO_TEST_CASE(the_cache_keeps_the_newest_blocks_up_to_its_bound) {
  THEmptyCache();
  const ptrdiff_t live = THHeapSize();
  const int n = 40;  // 320 MiB, untouched but for one page each
  std::vector<char *> blocks;
  for (int i = 0; i < n; i++) {
    blocks.push_back(alloc(8 * MiB));
    blocks.back()[0] = char(i + 1);
  }
  // blocks start on huge pages: each may hold up to 2 MiB more than asked, by where its
  // mapping landed
  ptrdiff_t largest = 0;
  for (char *b : blocks) largest = std::max(largest, usable(b));
  for (char *b : blocks) THFree(b);
  BOOST_TEST(THCachedSize() <= kLimit);
  BOOST_TEST(THCachedSize() > kLimit - largest);
  BOOST_TEST(THHeapSize() == live);
  // the oldest went back to the system: taking every cached block finds the newest ones
  std::vector<bool> seen(n + 1, false);
  int kept = 0;
  while (THCachedSize() > 0 && kept < n) {
    char *b = alloc(8 * MiB);
    seen[b[0]] = true;
    blocks[kept++] = b;
  }
  BOOST_TEST(THCachedSize() == 0);
  BOOST_TEST(kept >= int(kLimit / (10 * MiB)));
  for (int i = n - kept; i < n; i++) BOOST_TEST(seen[i + 1], "block " << i << " was kept");
  for (int i = 0; i < kept; i++) THFree(blocks[i]);
  // a block larger than the bound is not kept
  const ptrdiff_t before = THCachedSize();
  THFree(THAlloc(kLimit + MiB));
  BOOST_TEST(THCachedSize() == before);
  THEmptyCache();
  BOOST_TEST(THCachedSize() == 0);
  BOOST_TEST(THHeapSize() == live);
}

BOOST_AUTO_TEST_CASE(a_failing_allocation_empties_the_cache_first) {
  THEmptyCache();
  // Blocks of 64 MiB are above glibc's largest mmap threshold: each is a mapping of its own,
  // unmapped when freed.
  std::vector<void *> blocks;
  for (int i = 0; i < 3; i++) blocks.push_back(THAlloc(64 * MiB));
  for (void *b : blocks) THFree(b);
  BOOST_TEST(THCachedSize() >= 192 * MiB);
  void *p = nullptr;
  {
    AddressSpaceLimit limit(addressSpace() + 128 * MiB);
    void *direct = malloc(200 * MiB);
    BOOST_TEST(direct == nullptr, "the limit leaves no room for 200 MiB");
    free(direct);
    BOOST_CHECK_NO_THROW(p = THAlloc(200 * MiB));  // room made by unmapping the cache
  }
  BOOST_TEST(p != nullptr);
  BOOST_TEST(THCachedSize() == 0);
  THFree(p);
  THEmptyCache();
}

BOOST_AUTO_TEST_CASE(realloc_takes_cached_and_fresh_blocks) {
  THEmptyCache();
  const ptrdiff_t live = THHeapSize();
  char *p = alloc(4 * MiB);
  memset(p, 7, 4 * MiB);
  THFree(p);
  char *q = alloc(4 * MiB);
  BOOST_TEST(THCachedSize() == 0, "q is the cached block");
  q = static_cast<char *>(THRealloc(q, 8 * MiB));
  BOOST_TEST(q[0] == 7);
  BOOST_TEST(q[4 * MiB - 1] == 7);
  BOOST_TEST(THHeapSize() - live == usable(q));
  q = static_cast<char *>(THRealloc(q, 100));
  BOOST_TEST(q[99] == 7);
  BOOST_TEST(THHeapSize() - live == usable(q));
  char *r = static_cast<char *>(THRealloc(nullptr, 2 * MiB));
  r[0] = 3;
  r = static_cast<char *>(THRealloc(r, 3 * MiB));
  BOOST_TEST(r[0] == 3);
  BOOST_TEST(THHeapSize() - live == usable(q) + usable(r));
  THFree(q);
  BOOST_TEST(THRealloc(r, 0) == nullptr);
  BOOST_TEST(THHeapSize() == live);
  THEmptyCache();
}

BOOST_AUTO_TEST_CASE(threads_share_the_cache_safely) {
  THEmptyCache();
  const ptrdiff_t live = THHeapSize();
  const int kThreads = 4, kTurns = 300;
  std::atomic<int> clobbered{0};
  auto work = [&](int t) {
    struct Held {
      uint32_t *p;
      ptrdiff_t words;
      uint32_t tag;
    };
    std::vector<Held> held;
    auto release = [&](const Held &h) {
      // a block handed to two owners at once would carry the other's tag
      if (h.p[0] != h.tag || h.p[h.words / 2] != h.tag || h.p[h.words - 1] != h.tag) clobbered++;
      THFree(h.p);
    };
    for (int i = 0; i < kTurns; i++) {
      const ptrdiff_t size = (1 + (i * 7 + t) % 6) * MiB + (i % 3) * 4096;
      Held h{static_cast<uint32_t *>(THAlloc(size)), size / 4, uint32_t(t << 16 | i)};
      h.p[0] = h.p[h.words / 2] = h.p[h.words - 1] = h.tag;
      held.push_back(h);
      if (held.size() > 3) {
        release(held.front());
        held.erase(held.begin());
      }
    }
    for (const Held &h : held) release(h);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) threads.emplace_back(work, t);
  for (std::thread &t : threads) t.join();
  BOOST_TEST(clobbered.load() == 0);
  BOOST_TEST(THHeapSize() == live);
  BOOST_TEST(THCachedSize() > 0);
  BOOST_TEST(THCachedSize() <= kLimit);
  THEmptyCache();
  BOOST_TEST(THCachedSize() == 0);
}

BOOST_AUTO_TEST_CASE(blocks_of_two_huge_pages_start_on_one) {
  THEmptyCache();
  char *large = alloc(4 * MiB), *smaller = alloc(4 * MiB - 1);
  BOOST_TEST(reinterpret_cast<uintptr_t>(large) % (2 * MiB) == 0);
  BOOST_TEST(reinterpret_cast<uintptr_t>(smaller) % 64 == 0);
  THFree(large);
  THFree(smaller);
  THEmptyCache();
}
