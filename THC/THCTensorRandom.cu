// Random fills: one kernel template over Philox blocks (Note [Philox counters],
// THCPhilox.cuh). A Draw turns one block into the values of K consecutive elements (32- or
// 64-bit integers, uniforms in [0, 1), standard normals); an Op turns an element's value
// into the element, with the elements of the inputs at the same linear index (per-element
// probabilities, means, standard deviations). Distributions are computed in double.
#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>

#include "THC/THCApply.cuh"
#include "THC/THCPhilox.cuh"
#include "THC/THCTensorRandom.h"

namespace thc {
namespace {

struct Bits32 {
  static constexpr int K = 4;
  using Value = uint64_t;
  __device__ void operator()(const Philox4x32 &r, Value *v) const {
    for (int j = 0; j < K; j++) v[j] = r.v[j];
  }
};
struct Bits64 {
  static constexpr int K = 2;
  using Value = uint64_t;
  __device__ void operator()(const Philox4x32 &r, Value *v) const {
    for (int j = 0; j < K; j++) v[j] = bits64(r.v[2 * j], r.v[2 * j + 1]);
  }
};
struct Uniform32 {
  static constexpr int K = 4;
  using Value = double;
  __device__ void operator()(const Philox4x32 &r, Value *v) const {
    for (int j = 0; j < K; j++) v[j] = uniform32(r.v[j]);
  }
};
struct Uniform53 {
  static constexpr int K = 2;
  using Value = double;
  __device__ void operator()(const Philox4x32 &r, Value *v) const {
    for (int j = 0; j < K; j++) v[j] = uniform53(bits64(r.v[2 * j], r.v[2 * j + 1]));
  }
};
struct Normal32 {
  static constexpr int K = 4;
  using Value = double;
  __device__ void operator()(const Philox4x32 &r, Value *v) const {
    normalPair(uniform32(r.v[0]), uniform32(r.v[1]), &v[0], &v[1]);
    normalPair(uniform32(r.v[2]), uniform32(r.v[3]), &v[2], &v[3]);
  }
};
struct Normal53 {
  static constexpr int K = 2;
  using Value = double;
  __device__ void operator()(const Philox4x32 &r, Value *v) const {
    normalPair(uniform53(bits64(r.v[0], r.v[1])), uniform53(bits64(r.v[2], r.v[3])), &v[0], &v[1]);
  }
};

// Continuous distributions of doubles take 53-bit uniforms, of floats 32-bit ones.
template <typename T>
using UniformDraw = std::conditional_t<std::is_same_v<T, double>, Uniform53, Uniform32>;
template <typename T>
using NormalDraw = std::conditional_t<std::is_same_v<T, double>, Normal53, Normal32>;

template <typename Draw, typename Op, typename Index, typename Out, typename... In>
__global__ void __launch_bounds__(kBlock)
    randomKernel(PhiloxKey key, uint64_t offset, Draw draw, Op op, Index n, Out out, In... in) {
  constexpr int K = Draw::K;
  const Index blocks = n / K + (n % K != 0);
  const Index step = static_cast<Index>(gridDim.x) * kBlock;
  for (Index g = static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x; g < blocks; g += step) {
    typename Draw::Value v[K];
    draw(philox(philoxCounter(offset + g), key), v);
#pragma unroll
    for (int j = 0; j < K; j++) {
      const Index i = g * K + j;
      if (i < n) op(out.data[out.offset(i)], v[j], in.data[in.offset(i)]...);
    }
  }
}

template <typename Index, typename Draw, typename Op, typename OutT, typename... InT>
void launchRandom(cudaStream_t stream, PhiloxKey key, uint64_t offset, Op op, int64_t n, OutT *out, const InT *...in) {
  const int64_t blocks = (n + Draw::K - 1) / Draw::K;
  const int64_t grid = std::min<int64_t>((blocks + kBlock - 1) / kBlock, int64_t(1) << 20);
  randomKernel<<<static_cast<unsigned>(grid), kBlock, 0, stream>>>(key, offset, Draw{}, op, static_cast<Index>(n),
                                                                   info<Index>(out), info<Index>(in)...);
  THCudaCheckLaunch();
}

// op(element of self, draw, elements of the inputs at the same linear index) for every
// element of self, on the device of the tensors with its generator. The inputs have as many
// elements as self (the caller checked).
template <typename Draw, typename Op, typename OutT, typename... InT>
void randomFill(THCState *state, const char *name, Op op, OutT *self, const InT *...in) {
  const int64_t n = numel(self);
  if (n == 0) return;
  DeviceGuard guard(commonDevice(name, self, in...));
  const PhiloxKey key = philoxKey(THCRandom_initialSeed(state));
  const uint64_t offset = THCRandom_reserve(state, static_cast<uint64_t>((n + Draw::K - 1) / Draw::K));
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (fits32(self) && (fits32(in) && ...))
    launchRandom<uint32_t, Draw>(stream, key, offset, op, n, self, in...);
  else
    launchRandom<uint64_t, Draw>(stream, key, offset, op, n, self, in...);
}

// Does pred hold for every element of t? Waits for the stream.
template <typename Pred>
struct FlagUnless {
  Pred pred;
  int *flag;
  template <typename T>
  __device__ void operator()(const T &x) const {
    if (!pred(static_cast<double>(x))) *flag = 1;
  }
};
template <typename Pred, typename TensorT>
bool allOf(THCState *state, const TensorT *t, Pred pred) {
  if (numel(t) == 0) return true;
  DeviceGuard guard(device(t));
  cudaStream_t stream = THCState_getCurrentStream(state);
  int *flag = static_cast<int *>(THCCachingAllocator_malloc(sizeof(int), stream));
  int found = 0;
  try {
    THCudaCheck(cudaMemsetAsync(flag, 0, sizeof(int), stream));
    pointwise(state, FlagUnless<Pred>{pred, flag}, t);
    THCudaCheck(cudaMemcpyAsync(&found, flag, sizeof(int), cudaMemcpyDeviceToHost, stream));
    THCudaCheck(cudaStreamSynchronize(stream));
  } catch (...) {
    THCCachingAllocator_free(flag);
    throw;
  }
  THCCachingAllocator_free(flag);
  return !found;
}

struct IsProbability {
  __device__ bool operator()(double p) const { return p >= 0 && p <= 1; }
};
struct IsPositive {
  __device__ bool operator()(double s) const { return s > 0; }
};

// Checks that p has self's element count and holds probabilities in [0, 1] (TH's messages).
template <typename Self, typename P>
void checkProbabilities(THCState *state, Self *self, P *p, int argNumber) {
  THArgCheck(p != nullptr, argNumber, "probability tensor is NULL");
  const int64_t n = numel(self), np = numel(p);
  THArgCheck(n == np, argNumber, "bernoulli: %lld probabilities given for %lld elements", (long long)np, (long long)n);
  THArgCheck(allOf(state, p, IsProbability{}), argNumber, "bernoulli: every probability must be >= 0 and <= 1");
}

template <typename T>
void checkStddevs(THCState *state, const T *stddevs, int argNumber) {
  THArgCheck(stddevs != nullptr, argNumber, "normal: stddevs tensor is NULL");
  THArgCheck(allOf(state, stddevs, IsPositive{}), argNumber,
             "normal: every standard deviation must be strictly positive");
}

// The largest T below b, the smallest T not below a.
template <typename T>
__device__ T nextDown(T x) {
  if constexpr (std::is_same_v<T, float>)
    return nextafterf(x, -INFINITY);
  else
    return nextafter(x, -INFINITY);
}
template <typename T>
__device__ T nextUp(T x) {
  if constexpr (std::is_same_v<T, float>)
    return nextafterf(x, INFINITY);
  else
    return nextafter(x, INFINITY);
}

template <typename T>
struct UniformOp {
  double a, b;
  __device__ void operator()(T &x, double u) const {
    T r = static_cast<T>(u * (b - a) + a);
    if (a < b) {
      // Rounding (in double, then to T) may reach b or, for an a that T cannot hold, fall
      // below a; the bound b wins.
      if (static_cast<double>(r) < a) {
        r = static_cast<T>(a);
        if (static_cast<double>(r) < a) r = nextUp(r);
      }
      if (!(static_cast<double>(r) < b)) {
        r = static_cast<T>(b);
        if (!(static_cast<double>(r) < b)) r = nextDown(r);
      }
    }
    x = r;
  }
};

template <typename T>
struct NormalOp {
  double mean, stdv;
  __device__ void operator()(T &x, double z) const { x = static_cast<T>(z * stdv + mean); }
};
template <typename T>
struct NormalMeansOp {
  double stdv;
  __device__ void operator()(T &x, double z, const T &mean) const {
    x = static_cast<T>(z * stdv + static_cast<double>(mean));
  }
};
template <typename T>
struct NormalStddevsOp {
  double mean;
  __device__ void operator()(T &x, double z, const T &stdv) const {
    x = static_cast<T>(z * static_cast<double>(stdv) + mean);
  }
};
template <typename T>
struct NormalMeansStddevsOp {
  __device__ void operator()(T &x, double z, const T &mean, const T &stdv) const {
    x = static_cast<T>(z * static_cast<double>(stdv) + static_cast<double>(mean));
  }
};
template <typename T>
struct LogNormalOp {
  double mean, stdv;
  __device__ void operator()(T &x, double z) const { x = static_cast<T>(exp(z * stdv + mean)); }
};

// -log(1 - u) / lambda; 0 - 0 keeps u = 0 at +0.
template <typename T>
struct ExponentialOp {
  double lambda;
  __device__ void operator()(T &x, double u) const { x = static_cast<T>((0.0 - log(1.0 - u)) / lambda); }
};

template <typename T>
struct CauchyOp {
  double median, sigma;
  __device__ void operator()(T &x, double u) const { x = static_cast<T>(median + sigma * tan(M_PI * (u - 0.5))); }
};

// TH's geometric: floor(log(1 - u) / log(p)) + 1, INT_MAX past int's range.
template <typename T>
struct GeometricOp {
  double logp;
  __device__ void operator()(T &x, double u) const {
    const double k = log(1.0 - u) / logp;
    x = static_cast<T>(k < INT_MAX - 1 ? static_cast<int>(k) + 1 : INT_MAX);
  }
};

template <typename T>
struct BernoulliOp {
  double p;
  __device__ void operator()(T &x, double u) const { x = static_cast<T>(u < p); }
};
template <typename T>
struct BernoulliTensorOp {
  template <typename P>
  __device__ void operator()(T &x, double u, const P &p) const {
    x = static_cast<T>(u < static_cast<double>(p));
  }
};

template <typename T>
struct RandomOp {
  uint64_t modulus;
  __device__ void operator()(T &x, uint64_t r) const { x = static_cast<T>(r % modulus); }
};
template <typename T>
struct ClampedRandomOp {
  uint64_t range;
  int64_t min;
  __device__ void operator()(T &x, uint64_t r) const {
    x = static_cast<T>(static_cast<int64_t>(r % range + static_cast<uint64_t>(min)));
  }
};

}  // namespace
}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorRandom.cu"
#include "THC/THCGenerateAllTypes.h"
