#ifndef TH_THREADS_HPP
#define TH_THREADS_HPP

#include <omp.h>

#include "TH/THGeneral.h"

namespace th {

// For its lifetime, the calling thread's OpenMP thread count is lowered to what a call whose
// work is `work` should use: one thread below `threshold` (a fork/join would cost more than it
// saves), else the threads the machine can give now (Note [Threads the machine can give] in
// THGeneral.cpp). For libraries that read the count at each call (OpenBLAS, oneDNN); only
// for calls whose result does not depend on the number of threads.
class UsableThreadsScope {
 public:
  explicit UsableThreadsScope(double work = 1, double threshold = 0) {
    if (omp_in_parallel()) return;
    saved_ = omp_get_max_threads();
    const int threads = saved_ == 1 || work < threshold ? 1 : THUsableThreads();
    if (threads < saved_) {
      omp_set_num_threads(threads);
      changed_ = true;
    }
  }
  ~UsableThreadsScope() {
    if (changed_) omp_set_num_threads(saved_);
  }
  UsableThreadsScope(const UsableThreadsScope &) = delete;
  UsableThreadsScope &operator=(const UsableThreadsScope &) = delete;

 private:
  int saved_ = 0;
  bool changed_ = false;
};

}  // namespace th

#endif
