// TH benchmark: throughput of TH's matrix product, element-wise add and sum, each next to
// a reference measured in the same run (best of N timings, after one warm-up call).
//   gemm: THFloatTensor_mm/addmm vs calling cblas_sgemm directly (goal: ratio >= 0.95)
//   cadd: contiguous 1e7 floats vs memcpy moving as many bytes on as many OpenMP threads as
//         TH uses (goal: ratio >= 0.8)
//   sumall: 1e7 floats
//   cadd on transposed 3000x3000 views vs contiguous ones (goal: within 3x)
//   the OpenBLAS core: sgemm on the core TH keeps against OpenBLAS's generic Prescott core,
//         which it falls back to on a processor it does not know (Note [A BLAS core that
//         knows the processor])
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "TH/TH.h"
#include "TH/THBlasCore.h"

extern "C" {
void gotoblas_dynamic_init(void);
void gotoblas_dynamic_quit(void);
}

namespace {

// Best wall times in seconds of each function over `reps` rounds, after a warm-up run of
// each. Rounds interleave the functions, so a change in the machine's load (it is shared)
// hits all of them alike.
template <typename... F>
std::vector<double> bestOf(int reps, F &&...fs) {
  (fs(), ...);
  std::vector<double> best(sizeof...(F), std::numeric_limits<double>::infinity());
  for (int i = 0; i < reps; i++) {
    size_t k = 0;
    auto time = [&](auto &f) {
      auto start = std::chrono::steady_clock::now();
      f();
      std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      best[k] = std::min(best[k], took.count());
      k++;
    };
    (time(fs), ...);
  }
  return best;
}

template <typename T>
void fillRandom(T *data, int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int64_t i = 0; i < n; i++) data[i] = (T)dist(gen);
}

volatile double sink;  // keeps results of timed calls alive

// memcpy split into one contiguous chunk per OpenMP thread: the reference for TH's
// multi-threaded element-wise ops (a one-threaded memcpy would flatter them on one core and
// sell them short on many).
void parallelMemcpy(char *dst, const char *src, size_t n) {
#pragma omp parallel
  {
    const size_t threads = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
    const size_t begin = n * t / threads, end = n * (t + 1) / threads;
    memcpy(dst + begin, src + begin, end - begin);
  }
}

// TH's mm and addmm of n x n matrices vs the same product through cblas_?gemm.
template <typename Tensor, typename T, typename Gemm>
void benchGemm(const char *type, const char *gemmName, int64_t n, int reps, Gemm gemm,
               Tensor *(*newWithSize2d)(int64_t, int64_t), T *(*data)(const Tensor *),
               void (*mm)(Tensor *, Tensor *, Tensor *), void (*addmm)(Tensor *, T, Tensor *, T, Tensor *, Tensor *),
               void (*freeTensor)(Tensor *)) {
  Tensor *a = newWithSize2d(n, n), *b = newWithSize2d(n, n), *c = newWithSize2d(n, n);
  fillRandom(data(a), n * n, 1);
  fillRandom(data(b), n * n, 2);
  fillRandom(data(c), n * n, 3);
  T *pa = data(a), *pb = data(b), *pc = data(c);
  const double flops = 2.0 * n * n * n;
  // references with the same beta: 0 for mm, 1 for addmm
  auto t = bestOf(
      reps, [&] { gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, pa, n, pb, n, 0, pc, n); },
      [&] { mm(c, a, b); },
      [&] { gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, pa, n, pb, n, 1, pc, n); },
      [&] { addmm(c, 1, c, 1, a, b); });
  printf(
      "gemm %lldx%lld %-6s  %s %6.1f GFLOP/s | TH mm %6.1f GFLOP/s (ratio %.3f) | TH addmm %6.1f GFLOP/s "
      "(ratio %.3f to beta=1 %s)  [goal >= 0.95]\n",
      (long long)n, (long long)n, type, gemmName, flops / t[0] * 1e-9, flops / t[1] * 1e-9, t[0] / t[1],
      flops / t[3] * 1e-9, t[2] / t[3], gemmName);
  freeTensor(a);
  freeTensor(b);
  freeTensor(c);
}

void benchCaddAndSum(int64_t n, int reps) {
  THFloatTensor *a = THFloatTensor_newWithSize1d(n), *b = THFloatTensor_newWithSize1d(n);
  THFloatTensor *r = THFloatTensor_newWithSize1d(n);
  fillRandom(THFloatTensor_data(a), n, 4);
  fillRandom(THFloatTensor_data(b), n, 5);
  fillRandom(THFloatTensor_data(r), n, 6);
  // cadd reads two arrays and writes one: 3 x 4 x n bytes. The reference memcpy moves as
  // many bytes: it reads and writes 1.5 x 4 x n bytes each, on as many threads as TH's cadd.
  const double bytes = 3.0 * sizeof(float) * n;
  std::vector<char> src((size_t)(bytes / 2), 1), dst((size_t)(bytes / 2), 0);
  auto t = bestOf(
      reps, [&] { parallelMemcpy(dst.data(), src.data(), src.size()); }, [&] { THFloatTensor_cadd(r, a, 1.0f, b); },
      [&] { sink = THFloatTensor_sumall(a); });
  printf(
      "cadd %lld floats, contiguous:  memcpy on %d threads %6.2f GB/s | TH cadd %6.2f GB/s (ratio %.3f)  [goal >= "
      "0.8]\n",
      (long long)n, omp_get_max_threads(), bytes / t[0] * 1e-9, bytes / t[1] * 1e-9, t[0] / t[1]);
  printf("sumall %lld floats:            TH sumall %6.2f GB/s\n", (long long)n, sizeof(float) * n / t[2] * 1e-9);
  THFloatTensor_free(a);
  THFloatTensor_free(b);
  THFloatTensor_free(r);
}

void benchTransposedCadd(int64_t n, int reps) {
  THFloatTensor *a = THFloatTensor_newWithSize2d(n, n), *b = THFloatTensor_newWithSize2d(n, n);
  fillRandom(THFloatTensor_data(a), n * n, 7);
  fillRandom(THFloatTensor_data(b), n * n, 8);
  THFloatTensor *at = THFloatTensor_newTranspose(a, 0, 1), *bt = THFloatTensor_newTranspose(b, 0, 1);
  THFloatTensor *r = THFloatTensor_newWithSize2d(n, n), *rt = THFloatTensor_newWithSize2d(n, n);
  THFloatTensor *rtt = THFloatTensor_newTranspose(rt, 0, 1);
  auto t = bestOf(
      reps, [&] { THFloatTensor_cadd(r, a, 1.0f, b); }, [&] { THFloatTensor_cadd(r, at, 1.0f, bt); },
      [&] { THFloatTensor_cadd(rtt, at, 1.0f, bt); });
  const double bytes = 3.0 * sizeof(float) * n * n;
  printf(
      "cadd %lldx%lld: contiguous %6.2f GB/s | transposed inputs %6.2f GB/s (%.2fx slower) | all transposed "
      "%6.2f GB/s (%.2fx slower)  [goal: within 3x]\n",
      (long long)n, (long long)n, bytes / t[0] * 1e-9, bytes / t[1] * 1e-9, t[1] / t[0], bytes / t[2] * 1e-9,
      t[2] / t[0]);
  for (THFloatTensor *t : {a, b, at, bt, r, rt, rtt}) THFloatTensor_free(t);
}

// sgemm on the core in use against the same call after OpenBLAS was made to pick Prescott,
// as 0.3.21 does on a processor newer than itself; THBlas_chooseCore() then mends it.
void benchCore(int64_t n, int reps) {
  const char *user = getenv("OPENBLAS_CORETYPE");
  if (user) {
    printf("OpenBLAS core %s (OPENBLAS_CORETYPE=%s: the user's choice, kept)\n", THBlas_coreName(), user);
    return;
  }
  std::vector<float> a(n * n), b(n * n), c(n * n);
  fillRandom(a.data(), n * n, 9);
  fillRandom(b.data(), n * n, 10);
  auto sgemm = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a.data(), n, b.data(), n, 0, c.data(), n);
  };
  const std::string kept = THBlas_coreName();
  double onKept = bestOf(reps, sgemm)[0];
  setenv("OPENBLAS_CORETYPE", "Prescott", 1);
  gotoblas_dynamic_quit();
  gotoblas_dynamic_init();
  unsetenv("OPENBLAS_CORETYPE");
  double onGeneric = bestOf(reps, sgemm)[0];
  const std::string chosen = THBlas_chooseCore();
  onKept = std::min(onKept, bestOf(reps, sgemm)[0]);
  const double flops = 2.0 * n * n * n;
  printf(
      "OpenBLAS core %s: sgemm %lld on Prescott (forced, as when misdetected) %6.1f GFLOP/s | after "
      "THBlas_chooseCore (%s) %6.1f GFLOP/s (%.2fx)\n",
      kept.c_str(), (long long)n, flops / onGeneric * 1e-9, chosen.c_str(), flops / onKept * 1e-9, onGeneric / onKept);
}

}  // namespace

int main() {
  printf("TH benchmark: %d OpenMP threads, %d OpenBLAS threads; best of N runs\n", THGetNumThreads(),
         openblas_get_num_threads());
  benchGemm("float", "cblas_sgemm", 1024, 10, cblas_sgemm, THFloatTensor_newWithSize2d, THFloatTensor_data,
            THFloatTensor_mm, THFloatTensor_addmm, THFloatTensor_free);
  benchGemm("double", "cblas_dgemm", 1024, 10, cblas_dgemm, THDoubleTensor_newWithSize2d, THDoubleTensor_data,
            THDoubleTensor_mm, THDoubleTensor_addmm, THDoubleTensor_free);
  benchCaddAndSum(10000000, 20);
  benchTransposedCadd(3000, 10);
  benchCore(1024, 10);
  return 0;
}
