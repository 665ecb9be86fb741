// Note [Vector kernels] for AVX2 with FMA: compiled with -mavx2 -mfma, called only where
// the processor has both (TH/THVector.cpp).
#include <immintrin.h>
#include <sleef.h>

#include "TH/THVector.h"

namespace th::vec {
namespace {

struct FloatLanes {
  using T = float;
  using V = __m256;
  using D = __m256d;
  static constexpr int64_t kWidth = 8;
  static V load(const T *p) { return _mm256_loadu_ps(p); }
  static void store(T *p, V v) { _mm256_storeu_ps(p, v); }
  static V set1(T x) { return _mm256_set1_ps(x); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V neg(V a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V abs(V a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }         // b where either is NaN
  static V max(V a, V b) { return _mm256_max_ps(a, b); }         // b where either is NaN
  static V reciprocalEstimate(V a) { return _mm256_rcp_ps(a); }  // 12 bits
  static V round(V a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  // a 2^k for whole k, -190 <= k <= 128 (a near 1): a 2^(k - h) 2^h with h = floor(k / 2), each
  // power built from its exponent bits; a subnormal result rounds once, in the last multiply
  static V scale(V a, V k) {
    const __m256i whole = _mm256_cvtps_epi32(k), half = _mm256_srai_epi32(whole, 1);
    const __m256i bias = _mm256_set1_epi32(127);
    auto power = [&](__m256i e) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(e, bias), 23)); };
    return _mm256_mul_ps(_mm256_mul_ps(a, power(_mm256_sub_epi32(whole, half))), power(half));
  }
  static V greater(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  static bool any(V mask) { return _mm256_movemask_ps(mask) != 0; }
  static V select(V mask, V a, V b) { return _mm256_blendv_ps(b, a, mask); }
  static D zeroD() { return _mm256_setzero_pd(); }
  static D addD(D a, D b) { return _mm256_add_pd(a, b); }
  static double sumD(D a) {
    __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
    return _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
  }
  static void widen(const float *p, D &low, D &high) {
    low = _mm256_cvtps_pd(_mm_loadu_ps(p));
    high = _mm256_cvtps_pd(_mm_loadu_ps(p + 4));
  }
};

struct DoubleLanes {
  using T = double;
  using V = __m256d;
  static constexpr int64_t kWidth = 4;
  static V load(const T *p) { return _mm256_loadu_pd(p); }
  static void store(T *p, V v) { _mm256_storeu_pd(p, v); }
  static V set1(T x) { return _mm256_set1_pd(x); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V div(V a, V b) { return _mm256_div_pd(a, b); }
  static V neg(V a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
  static V greater(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
  static bool any(V mask) { return _mm256_movemask_pd(mask) != 0; }
  static V select(V mask, V a, V b) { return _mm256_blendv_pd(b, a, mask); }
  static double sumD(V a) { return FloatLanes::sumD(a); }
};

}  // namespace
}  // namespace th::vec

#define TH_VECTOR_FLOAT(name, ulp) Sleef_##name##f8_##ulp##avx2
#define TH_VECTOR_DOUBLE(name, ulp) Sleef_##name##d4_##ulp##avx2
#include "TH/vector/VectorKernels.hpp"

namespace th::vec {
const Kernels &avx2Kernels() {
  static const Kernels table = makeKernels("avx2");
  return table;
}
}  // namespace th::vec
