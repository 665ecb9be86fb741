#include "TH/THGeneral.h"

#include <sys/mman.h>

#include <malloc.h>
#include <omp.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "TH/THError.hpp"

namespace {

std::atomic<ptrdiff_t> heapSize{0};  // THHeapSize

ptrdiff_t usableSize(void *ptr) { return ptr ? ptrdiff_t(malloc_usable_size(ptr)) : 0; }

thread_local THErrorHandlerFunction errorHandler = nullptr;
thread_local void *errorHandlerData = nullptr;
thread_local THArgErrorHandlerFunction argErrorHandler = nullptr;
thread_local void *argErrorHandlerData = nullptr;

std::string vformat(const char *fmt, va_list args) {
  char buffer[2048];
  vsnprintf(buffer, sizeof(buffer), fmt, args);
  return buffer;
}

// The message carries the text first and the place after, so users read what went wrong.
std::string located(const std::string &msg, const char *file, int line) {
  const char *base = strrchr(file, '/');
  return msg + " (" + (base ? base + 1 : file) + ":" + std::to_string(line) + ")";
}

[[noreturn]] void raise(th::ErrorKind kind, int argNumber, const std::string &msg) {
  if (argNumber > 0 && argErrorHandler) argErrorHandler(argNumber, msg.c_str(), argErrorHandlerData);
  if (errorHandler) errorHandler(msg.c_str(), errorHandlerData);
  // A handler that returns cannot make the call succeed: fall back to the exception.
  throw th::Error(msg, kind, argNumber);
}

}  // namespace

void _THError(const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  raise(th::ErrorKind::Runtime, 0, located(msg, file, line));
}

void THErrorKind(th::ErrorKind kind, const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  raise(kind, 0, located(msg, file, line));
}

void _THArgCheck(const char *file, int line, int condition, int argNumber, const char *fmt, ...) {
  if (condition) return;
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  raise(th::ErrorKind::Runtime, argNumber,
        located("invalid argument " + std::to_string(argNumber) + ": " + msg, file, line));
}

void THSetErrorHandler(THErrorHandlerFunction handler, void *data) {
  errorHandler = handler;
  errorHandlerData = data;
}

void THSetArgErrorHandler(THArgErrorHandlerFunction handler, void *data) {
  argErrorHandler = handler;
  argErrorHandlerData = data;
}

// Note [Large-block cache]: an out-of-place op on a large tensor (`x + y` on 8M floats)
// allocates a fresh result at each turn and frees the last one. In a thread other than the
// main one, glibc's arena hands such a block out as fresh pages again and again (new heaps,
// mmap and munmap), so each op page-faults much of its result in, the kernel zeroing every
// page first, and two threads doing so at once serialise on the process's memory-map lock:
// two Python threads running `x + y` took 1.7 times as long as one thread running both
// jobs (bench/gil_threads.py). Keeping the freed blocks brings that to about half.
//
// So THFree keeps freed blocks of at least kCacheMinBytes (64-byte aligned, as THAlloc
// makes them) and THAlloc hands one back to a request it fits: usable size at least the
// request and at most an eighth more plus one huge page, the smallest such. The huge page is
// the slack of a huge-page-aligned block (allocate below): glibc gives such a block the rest
// of its mapping past the aligned start, so its usable size is the request plus anything
// up to 2 MB, by where the mapping landed. Small blocks go straight to malloc: they are
// many, their faults are few, and glibc's free lists already keep them.
//
// The cache holds at most TH_BLOCK_CACHE_MB MiB (an environment variable read once; 256 by
// default, 0 turns the cache off), dropping the oldest blocks first. 256 MiB holds the
// temporaries of a few threads' loops over tensors of tens of MB, while a user who frees a
// large tensor still sees most of it go back to the system; THEmptyCache() gives back
// all of it, and an allocation that fails empties the cache and tries again before
// raising "out of memory". Cached blocks are not live: THHeapSize (which Lua's collector
// watches, Note [Heap tracking] in lua/csrc/common.h) counts a block from THAlloc to
// THFree only. Each copy of TH in a process (Python's and Lua's, in the bridge) has its
// own cache.
namespace {

constexpr ptrdiff_t kCacheMinBytes = ptrdiff_t(1) << 20;
// THAlloc starts blocks of two huge pages and more on a huge-page boundary (allocate below):
// their usable size may exceed the request by up to one huge page.
constexpr ptrdiff_t kHugePage = ptrdiff_t(2) << 20;

struct CachedBlock {
  void *ptr;
  ptrdiff_t size;  // usable size
};

struct BlockCache {
  std::mutex mutex;
  std::vector<CachedBlock> blocks;  // oldest first
  ptrdiff_t bytes = 0;
  ptrdiff_t limit;

  BlockCache() {
    const char *env = getenv("TH_BLOCK_CACHE_MB");
    const long mb = env ? strtol(env, nullptr, 10) : 256;
    limit = mb > 0 ? ptrdiff_t(mb) << 20 : 0;
    // A fork while another thread holds the mutex would leave the child's copy locked
    // for good: hold it across fork, as malloc does its own locks.
    pthread_atfork([] { cache().mutex.lock(); }, [] { cache().mutex.unlock(); }, [] { cache().mutex.unlock(); });
  }

  static BlockCache &cache() {
    static BlockCache *c = new BlockCache();  // never destroyed: THFree may run at exit
    return *c;
  }
};

// A cached block for a request of size bytes, or null.
void *takeCached(ptrdiff_t size) {
  if (size < kCacheMinBytes) return nullptr;
  BlockCache &c = BlockCache::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  ptrdiff_t best = -1;
  for (ptrdiff_t i = 0; i < ptrdiff_t(c.blocks.size()); i++) {
    const ptrdiff_t s = c.blocks[i].size;
    if (s >= size && s - size <= size / 8 + kHugePage && (best < 0 || s < c.blocks[best].size)) best = i;
  }
  if (best < 0) return nullptr;
  void *ptr = c.blocks[best].ptr;
  c.bytes -= c.blocks[best].size;
  c.blocks.erase(c.blocks.begin() + best);
  return ptr;
}

// Keeps ptr (of usable size size) if it fits the cache, evicting the oldest blocks to make
// room; frees whatever is not kept, outside the lock (munmap takes the kernel's own).
void putOrFree(void *ptr, ptrdiff_t size) {
  std::vector<void *> evicted;
  if (size >= kCacheMinBytes && reinterpret_cast<uintptr_t>(ptr) % 64 == 0) {
    BlockCache &c = BlockCache::cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (size <= c.limit) {
      size_t drop = 0;
      while (c.bytes + size > c.limit) {
        c.bytes -= c.blocks[drop].size;
        evicted.push_back(c.blocks[drop++].ptr);
      }
      c.blocks.erase(c.blocks.begin(), c.blocks.begin() + drop);
      c.blocks.push_back({ptr, size});
      c.bytes += size;
      ptr = nullptr;
    }
  }
  free(ptr);
  for (void *p : evicted) free(p);
}

void *allocate(ptrdiff_t size) {
  // 64-byte alignment keeps SIMD loads aligned and matches what BLAS likes. Small blocks
  // (structs, size arrays, tiny tensors) take plain malloc's 16 bytes: memalign costs more
  // than the rest of creating a one-element tensor.
  void *ptr = nullptr;
  // Blocks of two huge pages and more start on a huge-page boundary and ask the kernel
  // for huge pages (transparent huge pages are "madvise" on Debian): streaming 40 MB with
  // 4 KB pages spent a third of a float sum's time on TLB misses.
  if (size < 256) {
    ptr = malloc((size_t)size);
  } else if (size >= 2 * kHugePage) {
    if (posix_memalign(&ptr, kHugePage, (size_t)size) != 0) return nullptr;
    madvise(ptr, (size_t)size, MADV_HUGEPAGE);
  } else if (posix_memalign(&ptr, 64, (size_t)size) != 0) {
    ptr = nullptr;
  }
  return ptr;
}

}  // namespace

// The bytes the large-block cache holds (Note [Large-block cache]). This function and
// THEmptyCache are declared where they are used (tests/TH/test_alloc.cpp), as THHeapSize is.
TH_API ptrdiff_t THCachedSize(void);
ptrdiff_t THCachedSize(void) {
  BlockCache &c = BlockCache::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

// Gives every block the large-block cache holds back to the system.
TH_API void THEmptyCache(void);
void THEmptyCache(void) {
  std::vector<CachedBlock> blocks;
  {
    BlockCache &c = BlockCache::cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    blocks.swap(c.blocks);
    c.bytes = 0;
  }
  for (const CachedBlock &b : blocks) free(b.ptr);
}

void *THAlloc(ptrdiff_t size) {
  THArgCheck(size >= 0, 1, "invalid memory size %td", size);
  if (size == 0) return nullptr;
  void *ptr = takeCached(size);
  if (ptr == nullptr) ptr = allocate(size);
  if (ptr == nullptr) {
    THEmptyCache();
    ptr = allocate(size);
  }
  if (ptr == nullptr) THError("out of memory: failed to allocate %td bytes", size);
  heapSize.fetch_add(usableSize(ptr), std::memory_order_relaxed);
  return ptr;
}

void *THRealloc(void *ptr, ptrdiff_t size) {
  THArgCheck(size >= 0, 2, "invalid memory size %td", size);
  if (size == 0) {
    THFree(ptr);
    return nullptr;
  }
  if (!ptr) return THAlloc(size);
  const ptrdiff_t before = usableSize(ptr);
  void *newptr = realloc(ptr, (size_t)size);
  if (!newptr) {
    THEmptyCache();
    newptr = realloc(ptr, (size_t)size);
  }
  if (!newptr) THError("out of memory: failed to reallocate %td bytes", size);
  heapSize.fetch_add(usableSize(newptr) - before, std::memory_order_relaxed);
  return newptr;
}

void THFree(void *ptr) {
  if (!ptr) return;
  const ptrdiff_t size = usableSize(ptr);
  heapSize.fetch_sub(size, std::memory_order_relaxed);
  putOrFree(ptr, size);
}

// Declared where it is used (lua/csrc/common.h): TH's headers are every TH user's inputs, and
// one more function does not justify rebuilding all of them.
TH_API ptrdiff_t THHeapSize(void);
ptrdiff_t THHeapSize(void) { return heapSize.load(std::memory_order_relaxed); }

void THSetNumThreads(int num_threads) {
  if (num_threads > 0) omp_set_num_threads(num_threads);
}

int THGetNumThreads(void) { return omp_get_max_threads(); }

/* Note [Threads the machine can give]: with N threads, a parallel region ends when its slowest
 * thread does. When another process keeps a core busy, the thread that shares that core gets
 * half of it, and between regions libgomp's idle threads spin on the cores the serial code
 * needs: a training step at two threads beside one busy process took twice as long as at one.
 * So regions ask THUsableThreads() how many threads to start, and leave out the cores other
 * processes hold. At most every kSampleSeconds it reads two figures from /proc: the cores
 * (of this process's affinity mask) that other processes kept busy since the last sample (the
 * busy time /proc/stat gives for those cores less this process's own CPU time), and the
 * threads of other processes runnable right now (/proc/stat's procs_running less this
 * process's threads in state R). The smaller of the two counts, rounded: the first alone
 * would count a process that has just stopped, the second alone one that has just paused.
 * The chosen count never changes a result: the pieces of a region, and so the order of a
 * reduction's partial sums, follow THGetNumThreads() (Note [Pieces, not halves] in
 * THTensor.hpp); only the number of threads that take them changes.
 * TH_USABLE_THREADS=all turns the sampling off. */
namespace {

constexpr double kSampleSeconds = 0.1;

double secondsOf(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct MachineSample {
  double busySeconds = -1;  // busy time of the cores in the affinity mask (steal included)
  int cores = 0;            // how many cores those are
  int runnable = -1;        // procs_running: runnable threads of every process, now
};

MachineSample sampleMachine() {
  MachineSample m;
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return m;
  FILE *stat = fopen("/proc/stat", "r");
  if (!stat) return m;
  static const double tick = double(sysconf(_SC_CLK_TCK));
  double busy = 0;
  char line[512];
  while (fgets(line, sizeof(line), stat)) {
    unsigned cpu;
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
    if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice, &system, &idle, &iowait, &irq,
               &softirq, &steal) == 9) {
      if (cpu < CPU_SETSIZE && CPU_ISSET(cpu, &mask)) {
        busy += double(user + nice + system + irq + softirq + steal) / tick;
        m.cores++;
      }
    } else {
      sscanf(line, "procs_running %d", &m.runnable);
    }
  }
  fclose(stat);
  if (m.cores > 0) m.busySeconds = busy;
  return m;
}

/* This process's threads in state R (running or runnable) now; -1 if unreadable. */
int ownRunnableThreads() {
  DIR *tasks = opendir("/proc/self/task");
  if (!tasks) return -1;
  int running = 0;
  while (dirent *task = readdir(tasks)) {
    if (task->d_name[0] == '.') continue;
    char path[64], text[512];
    snprintf(path, sizeof(path), "/proc/self/task/%.20s/stat", task->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;  // the thread has just ended
    const size_t got = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[got] = 0;
    const char *state = strrchr(text, ')');  // the name may hold spaces and parentheses
    if (state && state[1] == ' ' && state[2] == 'R') running++;
  }
  closedir(tasks);
  return running;
}

struct UsableThreads {
  std::mutex sampling;
  std::atomic<double> nextSample{0};
  std::atomic<int> othersBusy{0};  // cores other processes hold, as the note says
  // The cores of the affinity mask, refreshed at each sample: omp_get_num_procs() asks the
  // kernel for the mask at every call (0.35 us, more than the rest of a small op's threading).
  std::atomic<int> cores{omp_get_num_procs()};
  double lastWall = 0, lastBusy = -1, lastOwn = 0;

  void sample(double now) {
    std::unique_lock<std::mutex> lock(sampling, std::try_to_lock);
    if (!lock.owns_lock()) return;  // another thread is sampling: use the last figure
    const MachineSample m = sampleMachine();
    const int own = ownRunnableThreads();
    const double ownSeconds = secondsOf(CLOCK_PROCESS_CPUTIME_ID);
    if (m.busySeconds >= 0 && lastBusy >= 0 && now > lastWall) {
      const double lately = ((m.busySeconds - lastBusy) - (ownSeconds - lastOwn)) / (now - lastWall);
      int others = int(lately + 0.5);
      if (m.runnable >= 0 && own >= 0) others = std::min(others, m.runnable - own);
      othersBusy.store(std::min(m.cores - 1, std::max(0, others)), std::memory_order_relaxed);
    }
    if (m.cores > 0) cores.store(m.cores, std::memory_order_relaxed);
    lastWall = now, lastBusy = m.busySeconds, lastOwn = ownSeconds;
    nextSample.store(now + kSampleSeconds, std::memory_order_relaxed);
  }
};

UsableThreads usable;

}  // namespace

int THUsableThreads(void) {
  const int wanted = omp_get_max_threads();
  static const bool sampled = [] {  // read at the first call, so a program can set it first
    const char *setting = getenv("TH_USABLE_THREADS");
    return !(setting && strcmp(setting, "all") == 0);
  }();
  if (wanted == 1 || !sampled) return wanted;
  const double now = secondsOf(CLOCK_MONOTONIC);
  if (now >= usable.nextSample.load(std::memory_order_relaxed)) usable.sample(now);
  const int cores = usable.cores.load(std::memory_order_relaxed);
  return std::max(1, std::min(wanted, cores - usable.othersBusy.load(std::memory_order_relaxed)));
}

float TH_half2float(THHalf h) {
  uint32_t sign = (uint32_t)(h.x & 0x8000) << 16;
  uint32_t exponent = (h.x >> 10) & 0x1f;
  uint32_t mantissa = h.x & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise it
      int shift = 0;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        shift++;
      }
      mantissa &= 0x3ff;
      bits = sign | ((uint32_t)(127 - 15 + 1 - shift) << 23) | (mantissa << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

THHalf TH_float2half(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffffu;
  THHalf h;
  if (abs >= 0x7f800000u) {  // inf or nan
    h.x = sign | 0x7c00 | (abs > 0x7f800000u ? 0x200 : 0);
    return h;
  }
  if (abs >= 0x477ff000u) {  // rounds to beyond the largest half
    h.x = sign | 0x7c00;
    return h;
  }
  if (abs < 0x38800000u) {  // subnormal half (or zero): round to nearest even
    if (abs < 0x33000000u) {
      h.x = sign;
      return h;
    }
    uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
    int shift = 113 - (int)(abs >> 23) + 13;  // 126 - exponent + 13 ... into 10 bits
    uint32_t half_m = mantissa >> shift;
    uint32_t rem = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_m & 1))) half_m++;
    h.x = sign | (uint16_t)half_m;
    return h;
  }
  uint32_t exponent = (abs >> 23) - 127 + 15;
  uint32_t mantissa = abs & 0x7fffff;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rem = mantissa & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) half++;  // may carry into the exponent
  h.x = sign | (uint16_t)half;
  return h;
}
