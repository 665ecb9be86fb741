// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3",
// SC'11): a counter-based generator. philox(counter, key) is a keyed bijection of 128-bit
// counters, so any element's random bits can be computed without computing the others, on
// the host or on the device. THC's generator state is (seed, offset) per device
// (THCRandom_*, THCGeneral.h); Note [Philox counters] says how kernels use them.
//
//   Philox4x32 r = thc::philox(thc::philoxCounter(17), thc::philoxKey(seed));
//   double u = thc::uniform32(r.v[0]);  // [0, 1)
//
// This header compiles as C++ too (the host known-answer test includes it).
#ifndef THC_PHILOX_CUH
#define THC_PHILOX_CUH

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>

// Note [Philox counters]: a kernel of THC's random group gives element i of its output (the
// row-major linear index, whatever the strides) the Philox block of counter offset + i / K
// under the key seed, where offset was reserved for the launch with THCRandom_reserve and K
// is the number of draws one 128-bit block holds: 4 for draws of 32 bits, 2 for draws of 64
// bits (doubles, and integer ranges past 2^32). Element i takes draw i % K of its block
// (normal values: the Box-Muller pair of that draw's pair of words, see normalPair). So a
// result depends only on seed, offset and the linear index: not on the launch configuration,
// the strides of the output, or which GPU runs it; and a launch over n elements moves the
// offset by ceil(n / K).

namespace thc {

constexpr uint32_t kPhiloxM0 = 0xD2511F53u;  // round multipliers
constexpr uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u;  // key schedule: golden ratio, sqrt(3) - 1
constexpr uint32_t kPhiloxW1 = 0xBB67AE85u;
constexpr int kPhiloxRounds = 10;

struct Philox4x32 {
  uint32_t v[4];
};
struct PhiloxKey {
  uint32_t v[2];
};

__host__ __device__ inline uint32_t mulhi32(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}

// One round: two 32x32 -> 64-bit products, the high halves xored with the other two words and
// the key, the words permuted.
__host__ __device__ inline Philox4x32 philoxRound(Philox4x32 c, PhiloxKey k) {
  const uint32_t hi0 = mulhi32(kPhiloxM0, c.v[0]), lo0 = kPhiloxM0 * c.v[0];
  const uint32_t hi1 = mulhi32(kPhiloxM1, c.v[2]), lo1 = kPhiloxM1 * c.v[2];
  return Philox4x32{{hi1 ^ c.v[1] ^ k.v[0], lo1, hi0 ^ c.v[3] ^ k.v[1], lo0}};
}

// The ten rounds, the key bumped by the Weyl constants before each round but the first.
__host__ __device__ inline Philox4x32 philox(Philox4x32 counter, PhiloxKey key) {
  counter = philoxRound(counter, key);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int r = 1; r < kPhiloxRounds; r++) {
    key.v[0] += kPhiloxW0;
    key.v[1] += kPhiloxW1;
    counter = philoxRound(counter, key);
  }
  return counter;
}

__host__ __device__ inline PhiloxKey philoxKey(uint64_t seed) {
  return PhiloxKey{{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
}
// Counters below 2^64: the two high words stay zero.
__host__ __device__ inline Philox4x32 philoxCounter(uint64_t c) {
  return Philox4x32{{static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0u, 0u}};
}

// Uniform in [0, 1) from 32 bits: w / 2^32, as TH's uniform (exact in double; never 1).
__host__ __device__ inline double uniform32(uint32_t w) { return w * 0x1p-32; }
// Uniform in [0, 1) from 64 bits: the high 53 (exact in double; never 1).
__host__ __device__ inline double uniform53(uint64_t w) { return static_cast<double>(w >> 11) * 0x1p-53; }
__host__ __device__ inline uint64_t bits64(uint32_t hi, uint32_t lo) { return (static_cast<uint64_t>(hi) << 32) | lo; }

// Box-Muller: two independent standard normal values from two uniforms in [0, 1); u1 gives
// the radius (1 - u1 > 0, so it is finite), u2 the angle.
__host__ __device__ inline void normalPair(double u1, double u2, double *z0, double *z1) {
  const double rho = sqrt(-2.0 * log(1.0 - u1));
  double s, c;
#ifdef __CUDA_ARCH__
  sincospi(2.0 * u2, &s, &c);
#else
  s = std::sin(2.0 * M_PI * u2);
  c = std::cos(2.0 * M_PI * u2);
#endif
  *z0 = rho * c;
  *z1 = rho * s;
}

}  // namespace thc

#endif
