// THUsableThreads (Note [Threads the machine can give] in TH/THGeneral.cpp): a process of this
// test keeps one core busy, and the count must leave that core out; whole-tensor sums must give
// the same bits whatever number of threads took their pieces; every piece of a parallel loop must
// run once, whatever the thread count, and an error in one must come out of the loop.
#define BOOST_TEST_MODULE TH usable threads
#include <omp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "TH/THTensor.hpp"

#include "th_test_util.hpp"

namespace {

// A child process spinning on one core while it lives (bounded: it exits by itself after 30 s).
struct BusyCore {
  pid_t pid = fork();
  BusyCore() {
    if (pid == 0) {
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      volatile unsigned long spins = 0;
      while (std::chrono::steady_clock::now() < end) spins = spins + 1;
      _exit(0);
    }
    BOOST_TEST_REQUIRE(pid > 0, "fork failed");
  }
  ~BusyCore() {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
};

// Calls THUsableThreads over `seconds`, so that it samples the machine, and returns its last answer.
int usableAfter(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    THUsableThreads();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return THUsableThreads();
}

struct AllCores {
  int saved = omp_get_max_threads();
  AllCores() { omp_set_num_threads(omp_get_num_procs()); }
  ~AllCores() { omp_set_num_threads(saved); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_busy_core_is_left_out) {
  AllCores all;
  const int cores = omp_get_num_procs();
  BusyCore busy;
  const int usable = usableAfter(0.5);
  BOOST_TEST(usable >= 1);
  if (cores == 1)
    BOOST_TEST(usable == 1);
  else
    BOOST_TEST(usable < cores, "a busy core and " << usable << " usable threads of " << cores);
}

BOOST_AUTO_TEST_CASE(never_more_than_asked) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  BOOST_TEST(THUsableThreads() == 1);
  omp_set_num_threads(saved);
  BOOST_TEST(THUsableThreads() <= saved);
}

// The pieces of a sum, and the order their partial sums are added in, follow the thread count
// asked for, not the threads that ran: the same bits beside a busy core as before it, and within
// the float sum's bound of a plain double loop.
BOOST_AUTO_TEST_CASE(sums_do_not_depend_on_the_threads_that_ran) {
  AllCores all;
  const int64_t n = 1000003;
  THFloatTensor *t = THFloatTensor_newWithSize1d(n);
  float *data = THFloatTensor_data(t);
  for (int64_t i = 0; i < n; i++) data[i] = float((i * 7919) % 1000) * 0.001f + 1e-3f;
  const double before = THFloatTensor_sumall(t);
  double beside;
  {
    BusyCore busy;
    usableAfter(0.4);
    beside = THFloatTensor_sumall(t);
  }
  BOOST_TEST(std::memcmp(&before, &beside, sizeof(double)) == 0, before << " then " << beside);
  const double exact = [&] {  // far closer than the bound below
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += double(data[i]);
    return s;
  }();
  BOOST_TEST(std::fabs(before - exact) <= 4 * std::ldexp(1.0, -24) * exact);
  THFloatTensor_free(t);
}

// Note [Pieces, not halves] in TH/THTensor.hpp: each thread takes its own run of pieces first,
// then what is left of the others'; every piece runs once, over its own range.
BOOST_AUTO_TEST_CASE(every_piece_runs_once) {
  const int saved = omp_get_max_threads();
  for (int threads : {2, 3, 4, 7, 20})
    for (int64_t pieces : {2, 5, 28, 101}) {
      omp_set_num_threads(threads);
      const int64_t n = 1000;
      std::vector<std::atomic<int>> runs(pieces);
      std::atomic<int> wrongRange{0};
      th::detail::parallelPieces(n, pieces, [&](int64_t p, int64_t begin, int64_t end) {
        if (begin != p * n / pieces || end != (p + 1) * n / pieces) wrongRange++;
        volatile double spin = 0;  // uneven pieces, so that threads take over others' runs
        for (int64_t i = 0; i < (p % 3) * 20000; i++) spin = spin + 1;
        runs[p]++;
      });
      int bad = 0;
      for (auto &r : runs) bad += r.load() != 1;
      BOOST_TEST(bad == 0, bad << " pieces of " << pieces << " not run once on " << threads << " threads");
      BOOST_TEST(wrongRange.load() == 0);
    }
  omp_set_num_threads(saved);
}

BOOST_AUTO_TEST_CASE(an_error_in_a_piece_comes_out_of_the_loop) {
  AllCores all;
  for (int attempt = 0; attempt < 20; attempt++) {
    std::atomic<int> ran{0};
    bool thrown = false;
    try {
      th::detail::parallelPieces(640, 64, [&](int64_t p, int64_t, int64_t) {
        ran++;
        if (p == 5) throw std::runtime_error("piece 5");
      });
    } catch (const std::runtime_error &e) {
      thrown = std::strcmp(e.what(), "piece 5") == 0;
    }
    BOOST_TEST_REQUIRE(thrown);
    BOOST_TEST(ran.load() <= 64);
  }
  std::vector<int> once(64, 0);
  th::detail::parallelPieces(640, 64, [&](int64_t p, int64_t, int64_t) { once[p]++; });
  for (int p = 0; p < 64; p++) BOOST_TEST(once[p] == 1, "piece " << p);
}
