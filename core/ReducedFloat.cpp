#include "core/ReducedFloat.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "TH/THTensor.hpp"
#include "core/BFloat16.h"

namespace torch::reduced {

namespace {

constexpr int64_t kGrain = 1 << 16;  // elements below which one thread converts

// The AVX2 loops below (with F16C for Half) where the processor has them, else the
// elementwise conversions of core/BFloat16.h and TH, which give the same results.
bool hasAvx2() {
#if defined(__x86_64__)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  }();
  return has;
#else
  return false;
#endif
}

#if defined(__x86_64__)
#define TORCH_REDUCED_AVX2 __attribute__((target("avx2,f16c")))

// 8 values of type at src, widened.
TORCH_REDUCED_AVX2 inline __m256 load8(const THHalf *src, ScalarType type) {
  const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src));
  if (type == ScalarType::BFloat16) return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
  return _mm256_cvtph_ps(bits);
}

// bfloat16 bits of 8 floats in the low 16 bits of each lane: round to nearest even, a NaN to
// the quiet NaN 0x7FC0 (core/BFloat16.h).
TORCH_REDUCED_AVX2 inline __m256i bfloat16Bits8(__m256 v) {
  const __m256i u = _mm256_castps_si256(v);
  const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7FFF))), 16);
  const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  return _mm256_blendv_epi8(rounded, _mm256_set1_epi32(0x7FC0), nan);
}

TORCH_REDUCED_AVX2 void widenAvx2(const THHalf *src, float *dst, int64_t n, ScalarType type) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, load8(src + i, type));
  for (; i < n; i++) dst[i] = reducedToFloat(src[i], type);
}

TORCH_REDUCED_AVX2 void narrowAvx2(const float *src, THHalf *dst, int64_t n, ScalarType type) {
  int64_t i = 0;
  if (type == ScalarType::BFloat16) {
    for (; i + 16 <= n; i += 16) {
      // packus interleaves the two halves' 128-bit lanes; the permute puts them back in order
      const __m256i packed =
          _mm256_packus_epi32(bfloat16Bits8(_mm256_loadu_ps(src + i)), bfloat16Bits8(_mm256_loadu_ps(src + i + 8)));
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + i), _mm256_permute4x64_epi64(packed, 0xD8));
    }
  } else {
    for (; i + 8 <= n; i += 8) {
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i),
                       _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
  }
  for (; i < n; i++) dst[i] = floatToReduced(src[i], type);
}

TORCH_REDUCED_AVX2 bool differAvx2(const THHalf *bits, const float *values, int64_t n, ScalarType type) {
  int64_t i = 0;
  __m256 any = _mm256_setzero_ps();
  for (; i + 8 <= n; i += 8) {
    const __m256 a = load8(bits + i, type), b = _mm256_loadu_ps(values + i);
    // unequal numbers, or a NaN on one side only
    const __m256 nanA = _mm256_cmp_ps(a, a, _CMP_UNORD_Q), nanB = _mm256_cmp_ps(b, b, _CMP_UNORD_Q);
    any = _mm256_or_ps(any, _mm256_or_ps(_mm256_cmp_ps(a, b, _CMP_NEQ_OQ), _mm256_xor_ps(nanA, nanB)));
  }
  bool found = _mm256_movemask_ps(any) != 0;
  for (; i < n; i++) {
    const float a = reducedToFloat(bits[i], type), b = values[i];
    found |= a != b && !(std::isnan(a) && std::isnan(b));
  }
  return found;
}
#endif

void widenRange(const THHalf *src, float *dst, int64_t n, ScalarType type) {
#if defined(__x86_64__)
  if (hasAvx2()) return widenAvx2(src, dst, n, type);
#endif
  for (int64_t i = 0; i < n; i++) dst[i] = reducedToFloat(src[i], type);
}

void narrowRange(const float *src, THHalf *dst, int64_t n, ScalarType type) {
#if defined(__x86_64__)
  if (hasAvx2()) return narrowAvx2(src, dst, n, type);
#endif
  for (int64_t i = 0; i < n; i++) dst[i] = floatToReduced(src[i], type);
}

bool differRange(const THHalf *bits, const float *values, int64_t n, ScalarType type) {
#if defined(__x86_64__)
  if (hasAvx2()) return differAvx2(bits, values, n, type);
#endif
  bool found = false;
  for (int64_t i = 0; i < n; i++) {
    const float a = reducedToFloat(bits[i], type), b = values[i];
    found |= a != b && !(std::isnan(a) && std::isnan(b));
  }
  return found;
}

}  // namespace

void widen(const THHalf *src, float *dst, int64_t n, ScalarType type) {
  th::detail::parallelFor(n, kGrain,
                          [&](int64_t begin, int64_t end) { widenRange(src + begin, dst + begin, end - begin, type); });
}

void narrow(const float *src, THHalf *dst, int64_t n, ScalarType type) {
  th::detail::parallelFor(
      n, kGrain, [&](int64_t begin, int64_t end) { narrowRange(src + begin, dst + begin, end - begin, type); });
}

bool differ(const THHalf *bits, const float *values, int64_t n, ScalarType type) {
  std::atomic<bool> found{false};
  th::detail::parallelFor(n, kGrain, [&](int64_t begin, int64_t end) {
    if (differRange(bits + begin, values + begin, end - begin, type)) found.store(true, std::memory_order_relaxed);
  });
  return found.load();
}

}  // namespace torch::reduced
