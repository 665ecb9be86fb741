// THC on the GPU against references measured in the same run: cuBLAS called directly for
// GEMM, cudaMemcpy for bandwidth, CUB's radix sort, cudaMalloc/cudaFree for the caching
// allocator. Prints one line per figure with its ratio (>= 1 means THC is at least as fast,
// for the allocator the speed-up). Each figure is the best of several runs.
#include <cublas_v2.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "THC/THCBlas.h"
#include "THC/THCCachingAllocator.h"
#include "THC/THCGeneral.h"
#include "THC/THCTensorMath.h"
#include "THC/THCTensorMathBlas.h"
#include "THC/THCTensorRandom.h"
#include "THC/THCTensorReduce.h"
#include "THC/THCTensorSort.h"

namespace {

THCState *state;

// Best time in milliseconds of `reps` runs of f on the current stream.
double bestMs(int reps, const std::function<void()> &f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  f();  // warm-up
  cudaDeviceSynchronize();
  double best = 1e30;
  for (int i = 0; i < reps; i++) {
    cudaEventRecord(start);
    f();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    best = std::min(best, (double)ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  THCudaCheck(cudaGetLastError());
  return best;
}

void report(const char *what, double ours, double reference, const char *unit, const char *refName) {
  std::printf("%-44s THC %10.1f %s   %-22s %10.1f %s   ratio %.3f\n", what, ours, unit, refName, reference, unit,
              ours / reference);
}

void gemm() {
  const int n = 4096;
  THCudaTensor *a = THCudaTensor_newWithSize2d(state, n, n), *b = THCudaTensor_newWithSize2d(state, n, n),
               *c = THCudaTensor_newWithSize2d(state, n, n);
  THCudaTensor_uniform(state, a, -1, 1);
  THCudaTensor_uniform(state, b, -1, 1);
  THCudaTensor_zero(state, c);
  const double flop = 2.0 * n * n * n;
  cublasHandle_t handle = THCState_getCurrentBlasHandle(state);
  const float one = 1, zero = 0;
  double ref = bestMs(10, [&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, THCudaTensor_data(state, b), n,
                THCudaTensor_data(state, a), n, &zero, THCudaTensor_data(state, c), n);
  });
  double ours = bestMs(10, [&] { THCudaTensor_addmm(state, c, 0.f, c, 1.f, a, b); });
  report("sgemm 4096 (GFLOP/s)", flop / ours / 1e6, flop / ref / 1e6, "", "cublasSgemm");
  THCudaDoubleTensor *da = THCudaDoubleTensor_newWithSize2d(state, n, n),
                     *db = THCudaDoubleTensor_newWithSize2d(state, n, n),
                     *dc = THCudaDoubleTensor_newWithSize2d(state, n, n);
  THCudaDoubleTensor_uniform(state, da, -1, 1);
  THCudaDoubleTensor_uniform(state, db, -1, 1);
  THCudaDoubleTensor_zero(state, dc);
  const double done = 1, dzero = 0;
  handle = THCState_getCurrentBlasHandle(state);
  ref = bestMs(5, [&] {
    cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &done, THCudaDoubleTensor_data(state, db), n,
                THCudaDoubleTensor_data(state, da), n, &dzero, THCudaDoubleTensor_data(state, dc), n);
  });
  ours = bestMs(5, [&] { THCudaDoubleTensor_addmm(state, dc, 0., dc, 1., da, db); });
  report("dgemm 4096 (GFLOP/s)", flop / ours / 1e6, flop / ref / 1e6, "", "cublasDgemm");
  THCudaDoubleTensor_free(state, da);
  THCudaDoubleTensor_free(state, db);
  THCudaDoubleTensor_free(state, dc);
  THCudaTensor_free(state, a);
  THCudaTensor_free(state, b);
  THCudaTensor_free(state, c);
}

void bandwidth() {
  const int64_t n = int64_t(1) << 28;
  THCudaTensor *a = THCudaTensor_newWithSize1d(state, n), *b = THCudaTensor_newWithSize1d(state, n),
               *r = THCudaTensor_newWithSize1d(state, n);
  THCudaTensor_fill(state, a, 1.f);
  THCudaTensor_fill(state, b, 2.f);
  const double bytes = 4.0 * n;
  double copyMs = bestMs(10, [&] {
    cudaMemcpyAsync(THCudaTensor_data(state, r), THCudaTensor_data(state, a), bytes, cudaMemcpyDeviceToDevice, 0);
  });
  const double copyGBs = 2 * bytes / copyMs / 1e6;  // read + write
  double addMs = bestMs(10, [&] { THCudaTensor_cadd(state, r, a, 1.f, b); });
  report("add 2^28 floats (GB/s moved)", 3 * bytes / addMs / 1e6, copyGBs, "GB/s", "cudaMemcpy D2D");
  // the same add on transposed inputs: 2^14 x 2^14 views
  int64_t side = int64_t(1) << 14, shape[2] = {side, side};
  THCudaTensor *av = THCudaTensor_newView(state, a, 2, shape), *bv = THCudaTensor_newView(state, b, 2, shape);
  THCudaTensor *at = THCudaTensor_newTranspose(state, av, 0, 1), *bt = THCudaTensor_newTranspose(state, bv, 0, 1);
  THCudaTensor *rt = THCudaTensor_newWithSize2d(state, side, side);
  double addTMs = bestMs(5, [&] { THCudaTensor_cadd(state, rt, at, 1.f, bt); });
  report("add 2^28 floats, transposed inputs (ms)", addTMs, addMs, "ms", "contiguous add");
  double sumMs = bestMs(10, [&] { THCudaTensor_sumall(state, a); });
  report("sum of 2^28 floats (GB/s read)", bytes / sumMs / 1e6, copyGBs, "GB/s", "cudaMemcpy D2D");
  THCudaTensor_free(state, rt);
  THCudaTensor_free(state, at);
  THCudaTensor_free(state, bt);
  THCudaTensor_free(state, av);
  THCudaTensor_free(state, bv);
  THCudaTensor_free(state, a);
  THCudaTensor_free(state, b);
  THCudaTensor_free(state, r);
}

void sort() {
  const int64_t n = 100000000;
  THCudaTensor *keys = THCudaTensor_newWithSize1d(state, n), *sorted = THCudaTensor_new(state);
  THCudaLongTensor *indices = THCudaLongTensor_new(state);
  THCudaTensor_uniform(state, keys, -1, 1);
  // reference: CUB's radix sort of (key, int64 position) pairs, as THC's sort produces
  float *keysOut;
  int64_t *valuesIn, *valuesOut;
  cudaMalloc(&keysOut, n * sizeof(float));
  cudaMalloc(&valuesIn, n * sizeof(int64_t));
  cudaMalloc(&valuesOut, n * sizeof(int64_t));
  size_t tempBytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, THCudaTensor_data(state, keys), keysOut, valuesIn, valuesOut,
                                  (int)n);
  void *temp;
  cudaMalloc(&temp, tempBytes);
  double ref = bestMs(5, [&] {
    cub::DeviceRadixSort::SortPairs(temp, tempBytes, THCudaTensor_data(state, keys), keysOut, valuesIn, valuesOut,
                                    (int)n);
  });
  double ours = bestMs(5, [&] { THCudaTensor_sort(state, sorted, indices, keys, 0, 0); });
  report("sort 1e8 floats with indices (Mkeys/s)", n / ours / 1e3, n / ref / 1e3, "", "cub::DeviceRadixSort");
  cudaFree(temp);
  cudaFree(keysOut);
  cudaFree(valuesIn);
  cudaFree(valuesOut);
  THCudaLongTensor_free(state, indices);
  THCudaTensor_free(state, sorted);
  THCudaTensor_free(state, keys);
}

void allocator() {
  const int cycles = 100000;
  const size_t bytes = 1 << 20;
  cudaStream_t stream = THCState_getCurrentStream(state);
  double ours = bestMs(3, [&] {
    for (int i = 0; i < cycles; i++) THCCachingAllocator_free(THCCachingAllocator_malloc(bytes, stream));
  });
  const int directCycles = 2000;  // cudaMalloc/cudaFree synchronise: fewer cycles, scaled
  double direct = bestMs(3, [&] {
    for (int i = 0; i < directCycles; i++) {
      void *p;
      cudaMalloc(&p, bytes);
      cudaFree(p);
    }
  });
  const double oursUs = ours * 1e3 / cycles, directUs = direct * 1e3 / directCycles;
  std::printf("%-44s THC %10.3f us   %-22s %10.3f us   speed-up %.0fx\n", "alloc+free 1 MiB (per cycle)", oursUs,
              "cudaMalloc+cudaFree", directUs, directUs / oursUs);
}

}  // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("thc_bench: no CUDA GPU, nothing measured\n");
    return 0;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("thc_bench on %s\n", prop.name);
  state = THCState_alloc();
  THCudaInit(state);
  gemm();
  bandwidth();
  sort();
  allocator();
  THCudaShutdown(state);
  THCState_free(state);
  return 0;
}
