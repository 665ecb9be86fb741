// Note [Vector kernels] for AVX-512 (F): compiled with -mavx512f, called only where the
// processor has it (TH/THVector.cpp).
#include <immintrin.h>
#include <cstdint>
#include <sleef.h>

#include "TH/THVector.h"

namespace th::vec {
namespace {

struct FloatLanes {
  using T = float;
  using V = __m512;
  using D = __m512d;
  static constexpr int64_t kWidth = 16;
  static V load(const T *p) { return _mm512_loadu_ps(p); }
  static void store(T *p, V v) { _mm512_storeu_ps(p, v); }
  static V set1(T x) { return _mm512_set1_ps(x); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V abs(V a) { return _mm512_abs_ps(a); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }           // b where either is NaN
  static V max(V a, V b) { return _mm512_max_ps(a, b); }           // b where either is NaN
  static V reciprocalEstimate(V a) { return _mm512_rcp14_ps(a); }  // 14 bits
  static V round(V a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static V scale(V a, V k) { return _mm512_scalef_ps(a, k); }  // a 2^k, rounded once
  static __mmask16 greater(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  static bool any(__mmask16 mask) { return mask != 0; }
  static V select(__mmask16 mask, V a, V b) { return _mm512_mask_blend_ps(mask, b, a); }
  static V neg(V a) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32(INT32_MIN)));
  }
  static D zeroD() { return _mm512_setzero_pd(); }
  static D addD(D a, D b) { return _mm512_add_pd(a, b); }
  static double sumD(D a) { return _mm512_reduce_add_pd(a); }
  static void widen(const float *p, D &low, D &high) {
    low = _mm512_cvtps_pd(_mm256_loadu_ps(p));
    high = _mm512_cvtps_pd(_mm256_loadu_ps(p + 8));
  }
};

struct DoubleLanes {
  using T = double;
  using V = __m512d;
  static constexpr int64_t kWidth = 8;
  static V load(const T *p) { return _mm512_loadu_pd(p); }
  static void store(T *p, V v) { _mm512_storeu_pd(p, v); }
  static V set1(T x) { return _mm512_set1_pd(x); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V div(V a, V b) { return _mm512_div_pd(a, b); }
  static __mmask8 greater(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
  static bool any(__mmask8 mask) { return mask != 0; }
  static V select(__mmask8 mask, V a, V b) { return _mm512_mask_blend_pd(mask, b, a); }
  static V neg(V a) {
    return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(INT64_MIN)));
  }
  static double sumD(V a) { return _mm512_reduce_add_pd(a); }
};

}  // namespace
}  // namespace th::vec

#define TH_VECTOR_FLOAT(name, ulp) Sleef_##name##f16_##ulp##avx512f
#define TH_VECTOR_DOUBLE(name, ulp) Sleef_##name##d8_##ulp##avx512f
#include "TH/vector/VectorKernels.hpp"

namespace th::vec {
const Kernels &avx512Kernels() {
  static const Kernels table = makeKernels("avx512");
  return table;
}
}  // namespace th::vec
