// Random ops that return indices (randperm, multinomial): compiled once per TH_INDEX_BASE.
// Their draws follow Note [Philox counters] (THCPhilox.cuh) with 64-bit draws (K = 2):
// randperm's element i is key i, multinomial's element (row, sample) with replacement is
// uniform row * n_sample + sample, without replacement (row, category) is the exponential
// draw row * categories + category.
#include <cub/cub.cuh>

#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include "THC/THCApply.cuh"
#include "THC/THCPhilox.cuh"
#include "THC/THCTensorRandom.h"

namespace thc {
namespace {

// Device memory for the length of a scope, on the stream it is used on.
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, cudaStream_t stream) : ptr_(bytes ? THCCachingAllocator_malloc(bytes, stream) : nullptr) {}
  ~DeviceBuffer() { THCCachingAllocator_free(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <typename T>
  T *as() const {
    return static_cast<T *>(ptr_);
  }

 private:
  void *ptr_;
};

unsigned gridOf(int64_t threads) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((threads + kBlock - 1) / kBlock, 1 << 20)));
}

// The Philox counters that n elements drawn 64 bits at a time use.
uint64_t countersFor64(int64_t n) { return static_cast<uint64_t>((n + 1) / 2); }

// ---- randperm: the order of n random 64-bit keys (ties, about n^2 / 2^65 of them, keep
// index order: the sort is stable).

__global__ void __launch_bounds__(kBlock)
    permutationKeys(PhiloxKey key, uint64_t offset, int64_t n, uint64_t *keys, int64_t *values) {
  const int64_t blocks = (n + 1) / 2, step = static_cast<int64_t>(gridDim.x) * kBlock;
  for (int64_t g = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; g < blocks; g += step) {
    const Philox4x32 r = philox(philoxCounter(offset + g), key);
    for (int j = 0; j < 2; j++) {
      const int64_t i = 2 * g + j;
      if (i < n) {
        keys[i] = bits64(r.v[2 * j], r.v[2 * j + 1]);
        values[i] = i;
      }
    }
  }
}

template <typename T>
__global__ void __launch_bounds__(kBlock) writePermutation(const int64_t *order, int64_t n, T *out, int64_t stride) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * kBlock;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; i < n; i += step)
    out[i * stride] = static_cast<T>(order[i] + TH_INDEX_BASE);
}

// self (1-D, already of size n) <- a random permutation.
template <typename TensorT>
void fillPermutation(THCState *state, TensorT *self) {
  using T = Elem<TensorT>;
  const int64_t n = self->size[0];
  if (n == 0) return;
  DeviceGuard guard(device(self));
  const PhiloxKey key = philoxKey(THCRandom_initialSeed(state));
  const uint64_t offset = THCRandom_reserve(state, countersFor64(n));
  cudaStream_t stream = THCState_getCurrentStream(state);
  DeviceBuffer keys(2 * n * sizeof(uint64_t), stream), values(2 * n * sizeof(int64_t), stream);
  uint64_t *keysIn = keys.as<uint64_t>(), *keysOut = keysIn + n;
  int64_t *valuesIn = values.as<int64_t>(), *valuesOut = valuesIn + n;
  permutationKeys<<<gridOf((n + 1) / 2), kBlock, 0, stream>>>(key, offset, n, keysIn, valuesIn);
  THCudaCheckLaunch();
  size_t tempBytes = 0;
  THCudaCheck(
      cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, keysIn, keysOut, valuesIn, valuesOut, n, 0, 64, stream));
  DeviceBuffer temp(tempBytes, stream);
  THCudaCheck(cub::DeviceRadixSort::SortPairs(temp.as<void>(), tempBytes, keysIn, keysOut, valuesIn, valuesOut, n, 0,
                                              64, stream));
  writePermutation<<<gridOf(n), kBlock, 0, stream>>>(valuesOut, n, self->storage->data + self->storageOffset,
                                                     self->stride[0]);
  THCudaCheckLaunch();
}

// ---- multinomial

// What a distribution (a row of prob_dist) holds: the sum of its probabilities, how many
// are nonzero, and its first invalid one (negative, NaN or infinite; categories if none).
struct RowStats {
  double total;
  int64_t nonzero;
  int64_t firstInvalid;
};

struct MinOp {
  __device__ int64_t operator()(int64_t a, int64_t b) const { return a < b ? a : b; }
};

// The probabilities of prob_dist, 1-D or 2-D, any strides.
template <typename T>
struct Distributions {
  const T *data;
  int64_t rowStride, catStride;
  int64_t rows, categories;
  __device__ double operator()(int64_t row, int64_t category) const {
    return static_cast<double>(data[row * rowStride + category * catStride]);
  }
};

// One thread block per row: RowStats, and the cumulative sums (in double) when cum is not
// NULL. The block scan adds in its own order: the sums are nondecreasing and end at the
// total only up to rounding, which sampleWithReplacement allows for.
template <typename T>
__global__ void __launch_bounds__(kBlock) distributionStats(Distributions<T> dist, double *cum, RowStats *stats) {
  using BlockScan = cub::BlockScan<double, kBlock>;
  using BlockReduce = cub::BlockReduce<int64_t, kBlock>;
  __shared__ union {
    typename BlockScan::TempStorage scan;
    typename BlockReduce::TempStorage reduce;
  } temp;
  const int64_t nCat = dist.categories;
  for (int64_t row = blockIdx.x; row < dist.rows; row += gridDim.x) {
    double carry = 0;
    int64_t nonzero = 0, firstInvalid = nCat;
    for (int64_t base = 0; base < nCat; base += kBlock) {
      const int64_t j = base + threadIdx.x;
      double p = 0;
      if (j < nCat) {
        p = dist(row, j);
        if (!(p >= 0 && isfinite(p)) && j < firstInvalid) firstInvalid = j;
        nonzero += p > 0;
      }
      double inclusive, aggregate;
      BlockScan(temp.scan).InclusiveSum(p, inclusive, aggregate);
      if (cum && j < nCat) cum[row * nCat + j] = carry + inclusive;
      carry += aggregate;
      __syncthreads();
    }
    const int64_t rowNonzero = BlockReduce(temp.reduce).Sum(nonzero);
    __syncthreads();
    const int64_t rowInvalid = BlockReduce(temp.reduce).Reduce(firstInvalid, MinOp{});
    __syncthreads();
    if (threadIdx.x == 0) stats[row] = RowStats{carry, rowNonzero, rowInvalid};
  }
}

// The samples' destination: self, rows x samples (rowStride 0 for one distribution).
struct Samples {
  int64_t *data;
  int64_t rowStride, stride;
  int64_t samples;
};

// With replacement: sample (row, s) is the first category whose cumulative sum exceeds u *
// total. In exact arithmetic a category of probability 0 never is (its sum equals the one
// before it); the block scan's rounding can break that tie, or leave the last sum below
// total, so a category of probability 0 that the search lands on gives way to the nearest
// one of nonzero probability before it (after it when there is none before).
template <typename T>
__global__ void __launch_bounds__(kBlock) sampleWithReplacement(PhiloxKey key, uint64_t offset, Distributions<T> dist,
                                                                const double *cum, const RowStats *stats, Samples out) {
  const int64_t nCat = dist.categories;
  const int64_t n = dist.rows * out.samples, blocks = (n + 1) / 2, step = static_cast<int64_t>(gridDim.x) * kBlock;
  for (int64_t g = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; g < blocks; g += step) {
    const Philox4x32 r = philox(philoxCounter(offset + g), key);
    for (int j = 0; j < 2; j++) {
      const int64_t e = 2 * g + j;
      if (e >= n) break;
      const int64_t row = e / out.samples, s = e % out.samples;
      const double total = stats[row].total;
      double target = uniform53(bits64(r.v[2 * j], r.v[2 * j + 1])) * total;
      if (!(target < total)) target = nextafter(total, 0.0);
      const double *c = cum + row * nCat;
      int64_t lo = 0, hi = nCat - 1;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (c[mid] > target)
          hi = mid;
        else
          lo = mid + 1;
      }
      if (!(dist(row, lo) > 0)) {
        int64_t k = lo;
        while (k > 0 && !(dist(row, k) > 0)) k--;
        if (!(dist(row, k) > 0))
          for (k = lo; !(dist(row, k) > 0);) k++;  // the row has one (its total is > 0)
        lo = k;
      }
      out.data[row * out.rowStride + s * out.stride] = lo + TH_INDEX_BASE;
    }
  }
}

// Without replacement, Note [Exponential race]: category j of a row gets the key
// log(E_j) - log(p_j), E_j exponential(1) (the order of E_j / p_j, overflow-free); the
// samples are the categories of the n_sample smallest keys, in increasing order. A
// category of probability 0 gets +inf and comes last. This draws as sampling one category
// at a time in proportion to p and removing it: the smallest E_j / p_j is category j with
// probability p_j / sum(p), and given that, the others' E / p past it are again independent
// exponentials scaled by 1 / p (memorylessness).
template <typename T>
__global__ void __launch_bounds__(kBlock) raceKeys(PhiloxKey key, uint64_t offset, Distributions<T> dist, int64_t row0,
                                                   int64_t rows, double *keys, int *categories) {
  const int64_t nCat = dist.categories;
  // this chunk's elements are row0 * nCat ... (row0 + rows) * nCat - 1; start at an even one
  const int64_t first = row0 * nCat, last = (row0 + rows) * nCat;
  const int64_t g0 = first / 2, g1 = (last + 1) / 2, step = static_cast<int64_t>(gridDim.x) * kBlock;
  for (int64_t g = g0 + static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; g < g1; g += step) {
    const Philox4x32 r = philox(philoxCounter(offset + g), key);
    for (int j = 0; j < 2; j++) {
      const int64_t e = 2 * g + j;
      if (e < first || e >= last) continue;
      const int64_t row = e / nCat, category = e % nCat;
      const double p = dist(row, category);
      const double exponential = 0.0 - log(1.0 - uniform53(bits64(r.v[2 * j], r.v[2 * j + 1])));
      keys[e - first] = p > 0 ? log(exponential) - log(p) : INFINITY;
      categories[e - first] = static_cast<int>(category);
    }
  }
}

__global__ void __launch_bounds__(kBlock) segmentOffsets(int rows, int nCat, int *offsets) {
  for (int r = blockIdx.x * kBlock + threadIdx.x; r <= rows; r += gridDim.x * kBlock) offsets[r] = r * nCat;
}

__global__ void __launch_bounds__(kBlock)
    takeFirst(const int *sorted, int64_t row0, int64_t rows, int64_t nCat, Samples out) {
  const int64_t n = rows * out.samples, step = static_cast<int64_t>(gridDim.x) * kBlock;
  for (int64_t e = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; e < n; e += step) {
    const int64_t row = e / out.samples, s = e % out.samples;
    out.data[(row0 + row) * out.rowStride + s * out.stride] = sorted[row * nCat + s] + TH_INDEX_BASE;
  }
}

// The sizes of multinomial's arguments, checked on the host.
template <typename TensorT>
Distributions<Elem<TensorT>> distributionsOf(TensorT *prob_dist) {
  const int nd = prob_dist->nDimension;
  return Distributions<Elem<TensorT>>{prob_dist->storage->data + prob_dist->storageOffset,
                                      nd == 1 ? 0 : prob_dist->stride[0], prob_dist->stride[nd - 1],
                                      nd == 1 ? 1 : prob_dist->size[0], prob_dist->size[nd - 1]};
}

// Each row's RowStats (and cumulative sums when cum is not NULL), copied to the host.
template <typename T>
std::vector<RowStats> statsOf(const Distributions<T> &dist, double *cum, RowStats *stats, cudaStream_t stream) {
  std::vector<RowStats> host(dist.rows);
  distributionStats<<<static_cast<unsigned>(std::min<int64_t>(dist.rows, 1 << 20)), kBlock, 0, stream>>>(dist, cum,
                                                                                                         stats);
  THCudaCheckLaunch();
  THCudaCheck(cudaMemcpyAsync(host.data(), stats, dist.rows * sizeof(RowStats), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return host;
}

template <typename T>
void sampleWith(THCState *state, const Distributions<T> &dist, const double *cum, const RowStats *stats, Samples out,
                cudaStream_t stream) {
  const int64_t n = dist.rows * out.samples;
  const PhiloxKey key = philoxKey(THCRandom_initialSeed(state));
  const uint64_t offset = THCRandom_reserve(state, countersFor64(n));
  sampleWithReplacement<<<gridOf((n + 1) / 2), kBlock, 0, stream>>>(key, offset, dist, cum, stats, out);
  THCudaCheckLaunch();
}

// Rows in chunks small enough for CUB's 32-bit segmented sort (categories <= INT_MAX, the
// caller checked) and for memory.
template <typename T>
void sampleWithout(THCState *state, const Distributions<T> &dist, Samples out, cudaStream_t stream) {
  const int64_t nCat = dist.categories;
  const PhiloxKey key = philoxKey(THCRandom_initialSeed(state));
  const uint64_t offset = THCRandom_reserve(state, countersFor64(dist.rows * nCat));
  const int64_t chunkRows = std::max<int64_t>(1, std::min<int64_t>((int64_t(1) << 26) / nCat, dist.rows));
  const int64_t chunk = chunkRows * nCat;
  DeviceBuffer keys(2 * chunk * sizeof(double), stream), categories(2 * chunk * sizeof(int), stream);
  DeviceBuffer offsets((chunkRows + 1) * sizeof(int), stream);
  double *keysIn = keys.as<double>(), *keysOut = keysIn + chunk;
  int *categoriesIn = categories.as<int>(), *categoriesOut = categoriesIn + chunk;
  int *begins = offsets.as<int>(), *ends = begins + 1;
  for (int64_t row0 = 0; row0 < dist.rows; row0 += chunkRows) {
    const int64_t rows = std::min(chunkRows, dist.rows - row0);
    const int items = static_cast<int>(rows * nCat);
    segmentOffsets<<<gridOf(rows + 1), kBlock, 0, stream>>>(static_cast<int>(rows), static_cast<int>(nCat), begins);
    THCudaCheckLaunch();
    raceKeys<<<gridOf((rows * nCat + 3) / 2), kBlock, 0, stream>>>(key, offset, dist, row0, rows, keysIn, categoriesIn);
    THCudaCheckLaunch();
    size_t tempBytes = 0;
    THCudaCheck(cub::DeviceSegmentedRadixSort::SortPairs(nullptr, tempBytes, keysIn, keysOut, categoriesIn,
                                                         categoriesOut, items, static_cast<int>(rows), begins, ends, 0,
                                                         64, stream));
    DeviceBuffer temp(tempBytes, stream);
    THCudaCheck(cub::DeviceSegmentedRadixSort::SortPairs(temp.as<void>(), tempBytes, keysIn, keysOut, categoriesIn,
                                                         categoriesOut, items, static_cast<int>(rows), begins, ends, 0,
                                                         64, stream));
    takeFirst<<<gridOf(rows * out.samples), kBlock, 0, stream>>>(categoriesOut, row0, rows, nCat, out);
    THCudaCheckLaunch();
  }
}

}  // namespace
}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorRandomIndex.cu"
#include "THC/THCGenerateAllTypes.h"
