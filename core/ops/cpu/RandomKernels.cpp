// The CPU column of the random kernels: PyTorch 1.13's CPU streams (Note [Two random
// streams] in core/ops/Random.h) over TH's Mersenne twister, one element after another in
// memory order.
#include <immintrin.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "core/BFloat16.h"
#include "core/ops/RandomKernels.h"

namespace torch::cpu {

namespace {

// ---- PyTorch's transformations of raw draws (ATen's DistributionsHelper.h) ----

// Note [Fused multiply-add in the streams]: PyTorch 1.13 compiles its distribution
// kernels once per CPU capability and picks one at run time; GCC fuses `a * b + c` into
// one rounding in the AVX2 and AVX-512 builds (they are compiled with -mfma) and not in
// the default one. A stream made with `mulAdd` rounds as the build this machine would
// run, so that uniform_(a, b), normal_(mean, std), cauchy_ ... agree to the last bit too.
// ATEN_CPU_CAPABILITY (default, avx2, avx512) overrides the choice, as it does for PyTorch.
enum class Capability { Default, Avx2, Avx512 };

Capability detectCapability() {
  if (const char *env = std::getenv("ATEN_CPU_CAPABILITY")) {
    if (!strcmp(env, "default")) return Capability::Default;
    if (!strcmp(env, "avx2")) return Capability::Avx2;
    if (!strcmp(env, "avx512")) return Capability::Avx512;
  }
#if defined(__x86_64__) || defined(__i386__)
  // AVX-512 machines too: PyTorch 1.13 picks its AVX2 kernels there unless told otherwise
  // (torch.__config__.show() on one: "CPU capability usage: AVX2"), and its AVX2 normal_
  // is the vectorised Box-Muller below, not the scalar one its AVX-512 build would run.
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Capability::Avx2;
#endif
  return Capability::Default;
}

Capability capability() {
  static const Capability c = detectCapability();
  return c;
}

template <typename A>
A mulAdd(A a, A b, A c) {
  return capability() == Capability::Default ? a * b + c : std::fma(a, b, c);
}

// A uniform in [0, 1) of T's precision: 24 bits of one 32-bit draw for float, 53 bits of a
// 64-bit draw for double.
template <typename T>
T unit(THGenerator *g) {
  if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(THRandom_random64(g) & ((uint64_t(1) << 53) - 1)) * (1.0 / (uint64_t(1) << 53));
  } else {
    return static_cast<float>(THRandom_random(g) & ((uint32_t(1) << 24) - 1)) * (1.0f / (uint32_t(1) << 24));
  }
}

// [from, to) in T's arithmetic.
template <typename T>
T uniformReal(THGenerator *g, T from, T to) {
  return mulAdd(unit<T>(g), to - from, from);
}

// PyTorch's scalar Box-Muller (normal_distribution<double>): two double uniforms make two
// normals, the second waits in the generator's cache.
double normalDouble(THGenerator *g, NormalCache &cache, double mean, double std) {
  double z;
  if (cache.nextDouble) {
    z = *cache.nextDouble;
    cache.nextDouble.reset();
  } else {
    const double u1 = unit<double>(g);
    const double u2 = unit<double>(g);
    const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
    const double theta = 2.0 * M_PI * u1;
    cache.nextDouble = r * std::sin(theta);
    z = r * std::cos(theta);
  }
  return mulAdd(z, std, mean);
}

// Note [PyTorch's AVX2 normal_]: on an AVX2 machine PyTorch 1.13 turns the uniforms of a
// float normal_ into normals with its own vectorised logarithm, sine and cosine (the
// cephes polynomials of Pommier's sse_mathfun, eight lanes at a time), not libm's. The
// functions below compute those in AVX2, in the same operations, roundings and fused
// multiply-adds as PyTorch's build, so that the results agree bit for bit (checked on 300
// seeds in tests/python/test_random_streams.py). The logarithm of x > 0: x = m 2^e with m in
// [sqrt(1/2), sqrt(2)), a degree-9 polynomial in m - 1, e log(2) added in two parts; sin(x)
// and cos(x): x reduced by multiples of pi/4 in three parts, one polynomial for each
// octant's sine and cosine.
#define TORCH_RANDOM_AVX2 __attribute__((target("avx2,fma")))

TORCH_RANDOM_AVX2 __m256 cephesLog8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
  const __m256i bits = _mm256_castps_si256(x);
  const __m256i exponent = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(exponent), one);
  x = _mm256_castsi256_ps(_mm256_or_si256(_mm256_andnot_si256(_mm256_set1_epi32(0x7f800000), bits),
                                          _mm256_castps_si256(_mm256_set1_ps(0.5f))));
  const __m256 below = _mm256_cmp_ps(x, _mm256_set1_ps(0.707106781186547524f), _CMP_LT_OQ);
  const __m256 small = _mm256_and_ps(x, below);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, below));
  x = _mm256_add_ps(_mm256_sub_ps(x, one), small);
  const __m256 z = _mm256_mul_ps(x, x);
  static const float p[] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                            -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                            2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
  __m256 y = _mm256_set1_ps(p[0]);
  for (int k = 1; k < 9; k++) y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(p[k]));
  y = _mm256_fmadd_ps(_mm256_mul_ps(y, x), z, _mm256_mul_ps(e, _mm256_set1_ps(-2.12194440e-4f)));
  y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
  return _mm256_fmadd_ps(e, _mm256_set1_ps(0.693359375f), _mm256_add_ps(x, y));
}

TORCH_RANDOM_AVX2 void cephesSinCos8(__m256 x, __m256 &s, __m256 &c) {
  const __m256 signBit = _mm256_set1_ps(-0.0f);
  const __m256 negative = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
  x = _mm256_andnot_ps(signBit, x);
  __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(1.27323954473516f)));
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  const __m256 y = _mm256_cvtepi32_ps(j);
  const __m256i zero = _mm256_setzero_si256();
  const __m256 bit4 = _mm256_castsi256_ps(
      _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), zero), _mm256_set1_epi32(-1)));
  const __m256 flipSin = _mm256_xor_ps(bit4, negative);
  const __m256 flipCos = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_sub_epi32(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(4)), zero));
  const __m256 swap = _mm256_castsi256_ps(
      _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), zero), _mm256_set1_epi32(-1)));
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(-0.78515625f), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(-2.4187564849853515625e-4f), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(-3.77489497744594108e-8f), x);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 cosPoly = _mm256_set1_ps(2.443315711809948E-005f);
  cosPoly = _mm256_fmadd_ps(cosPoly, z, _mm256_set1_ps(-1.388731625493765E-003f));
  cosPoly = _mm256_fmadd_ps(cosPoly, z, _mm256_set1_ps(4.166664568298827E-002f));
  cosPoly = _mm256_add_ps(
      _mm256_fmadd_ps(_mm256_mul_ps(cosPoly, z), z, _mm256_xor_ps(signBit, _mm256_mul_ps(z, _mm256_set1_ps(0.5f)))),
      _mm256_set1_ps(1.0f));
  __m256 sinPoly = _mm256_set1_ps(-1.9515295891E-4f);
  sinPoly = _mm256_fmadd_ps(sinPoly, z, _mm256_set1_ps(8.3321608736E-3f));
  sinPoly = _mm256_fmadd_ps(sinPoly, z, _mm256_set1_ps(-1.6666654611E-1f));
  sinPoly = _mm256_fmadd_ps(_mm256_mul_ps(sinPoly, z), x, x);
  s = _mm256_blendv_ps(sinPoly, cosPoly, swap);
  c = _mm256_blendv_ps(cosPoly, sinPoly, swap);
  s = _mm256_xor_ps(s, _mm256_and_ps(flipSin, signBit));
  c = _mm256_xor_ps(c, _mm256_and_ps(flipCos, signBit));
}

TORCH_RANDOM_AVX2 void boxMuller16Avx2(float *data, float mean, float std) {
  const __m256 u1 = _mm256_loadu_ps(data), u2 = _mm256_loadu_ps(data + 8);
  const __m256 radius =
      _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), cephesLog8(_mm256_sub_ps(_mm256_set1_ps(1.0f), u1))));
  __m256 s, c;
  cephesSinCos8(_mm256_mul_ps(_mm256_set1_ps(static_cast<float>(2.0 * M_PI)), u2), s, c);
  const __m256 vstd = _mm256_set1_ps(std), vmean = _mm256_set1_ps(mean);
  _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, c), vstd, vmean));
  _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, s), vstd, vmean));
}

// Box-Muller on 16 uniforms in place: pairs (j, j + 8).
template <typename T>
void boxMuller16(T *data, T mean, T std) {
  if constexpr (std::is_same_v<T, float>) {
    if (capability() == Capability::Avx2) return boxMuller16Avx2(data, mean, std);
  }
  for (int j = 0; j < 8; j++) {
    const T u1 = 1 - data[j];  // [0, 1) -> (0, 1] for the logarithm
    const T radius = std::sqrt(-2 * std::log(u1));
    const T theta = static_cast<T>(2.0 * M_PI * static_cast<double>(data[j + 8]));
    data[j] = mulAdd(radius * std::cos(theta), std, mean);
    data[j + 8] = mulAdd(radius * std::sin(theta), std, mean);
  }
}

// PyTorch's normal_fill: every element a uniform first, then Box-Muller 16 at a time; a
// tail shorter than 16 redraws the last 16 elements and transforms them again.
template <typename T>
void normalFill(T *data, int64_t n, THGenerator *g, T mean, T std) {
  for (int64_t i = 0; i < n; i++) data[i] = unit<T>(g);
  for (int64_t i = 0; i + 16 <= n; i += 16) boxMuller16(data + i, mean, std);
  if (n % 16 != 0) {
    T *tail = data + n - 16;
    for (int i = 0; i < 16; i++) tail[i] = unit<T>(g);
    boxMuller16(tail, mean, std);
  }
}

// t's dimensions from the largest stride to the smallest: the order in which PyTorch's
// TensorIterator walks an output, so that a transposed result gets its draws in memory
// order as there (for a contiguous one this is row-major order). permute(t, memoryOrder(t))
// walked row-major visits t in that order.
IntList memoryOrder(const Tensor &t) {
  IntList dims(static_cast<size_t>(t.dim()));
  for (int d = 0; d < t.dim(); d++) dims[d] = d;
  // An insertion sort that, like TensorIterator's, looks past dimensions it cannot order
  // (of size 1, or equal strides).
  auto order = [&](int64_t a, int64_t b) {
    if (t.size(a) == 1 || t.size(b) == 1 || t.stride(a) == t.stride(b)) return 0;
    return t.stride(a) < t.stride(b) ? 1 : -1;
  };
  for (size_t i = 1; i < dims.size(); i++) {
    size_t moving = i;
    for (size_t k = i; k-- > 0;) {
      const int c = order(dims[k], dims[moving]);
      if (c < 0) break;
      if (c > 0) {
        std::swap(dims[k], dims[moving]);
        moving = k;
      }
    }
  }
  return dims;
}

// x = draw(g, cache) for every element of t, in memory order.
template <typename T, typename Draw>
void drawEach(const Tensor &t, Generator &gen, Draw draw) {
  Tensor ordered = permute(t, memoryOrder(t));
  gen.withCache([&](THGenerator *g, NormalCache &cache) {
    if (ordered.isContiguous()) {  // the common case, as a plain loop over memory
      T *data = reinterpret_cast<T *>(ordered.dataPtr());
      for (int64_t i = 0, n = ordered.numel(); i < n; i++) data[i] = static_cast<T>(draw(g, cache));
      return;
    }
    th::applyInOrder([&](T &x) { x = static_cast<T>(draw(g, cache)); }, th::ref(ordered.th<T>()));
  });
}

template <typename T>
void uniform(const Tensor &t, Generator &gen, double from, double to) {
  const T a = static_cast<T>(from), b = static_cast<T>(to);
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &) { return uniformReal<T>(g, a, b); });
}

template <typename T>
void normal(const Tensor &t, Generator &gen, double mean, double std) {
  if (t.numel() >= 16 && t.isContiguous()) {
    gen.with([&](THGenerator *g) {
      normalFill<T>(reinterpret_cast<T *>(t.dataPtr()), t.numel(), g, static_cast<T>(mean), static_cast<T>(std));
    });
    return;
  }
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &cache) { return normalDouble(g, cache, mean, std); });
}

// Note [16-bit streams]: PyTorch 1.13 draws a bfloat16 or half uniform from as many bits of
// one 32-bit draw as the type's significand holds (8 or 11), scaled in float and rounded
// once. Its normal_ of 16 or more contiguous elements is its normal_fill in the type's own
// arithmetic, which is not the same for the two: every operation of a bfloat16 Box-Muller
// rounds (c10::BFloat16's operators and its std::log, sqrt, cos and sin return bfloat16),
// while half's libm calls and its products with floats stay in float, rounded where a half
// variable is assigned. These are those streams; fewer than 16 elements are the double
// normals of the other types, rounded (the Float kernel through float gives those).
float roundTo(float v, ScalarType type) { return reducedToFloat(floatToReduced(v, type), type); }

float unitReduced(THGenerator *g, ScalarType type) {
  const int digits = type == ScalarType::BFloat16 ? 8 : 11;
  return static_cast<float>(THRandom_random(g) & ((1u << digits) - 1)) * (1.0f / static_cast<float>(1u << digits));
}

void uniformReduced(const Tensor &t, Generator &gen, double from, double to) {
  const ScalarType type = t.dtype();
  const float a = roundTo(static_cast<float>(from), type);
  const float span = roundTo(roundTo(static_cast<float>(to), type) - a, type);
  drawEach<THHalf>(t, gen, [&](THGenerator *g, NormalCache &) {
    return floatToReduced(mulAdd(unitReduced(g, type), span, a), type);
  });
}

void boxMuller16Reduced(float *data, float mean, float std, ScalarType type) {
  auto r = [type](float v) { return roundTo(v, type); };
  for (int j = 0; j < 8; j++) {
    const float u1 = r(1 - data[j]);
    const float theta = r(static_cast<float>(2.0f * M_PI * static_cast<double>(data[j + 8])));
    if (type == ScalarType::BFloat16) {
      const float radius = r(std::sqrt(r(-2 * r(std::log(u1)))));
      data[j] = r(r(r(radius * r(std::cos(theta))) * std) + mean);
      data[j + 8] = r(r(r(radius * r(std::sin(theta))) * std) + mean);
    } else {
      const float radius = r(std::sqrt(-2 * std::log(u1)));
      data[j] = r(mulAdd(radius * std::cos(theta), std, mean));
      data[j + 8] = r(mulAdd(radius * std::sin(theta), std, mean));
    }
  }
}

void normalReduced(const Tensor &t, Generator &gen, double mean, double std) {
  const int64_t n = t.numel();
  if (n < 16 || !t.isContiguous()) {
    ThroughFloat<&normal<float>>::call(t, gen, mean, std);
    return;
  }
  const ScalarType type = t.dtype();
  std::vector<float> data(static_cast<size_t>(n));  // values of type, kept widened
  const float m = roundTo(static_cast<float>(mean), type), s = roundTo(static_cast<float>(std), type);
  gen.with([&](THGenerator *g) {
    for (int64_t i = 0; i < n; i++) data[i] = unitReduced(g, type);
    for (int64_t i = 0; i + 16 <= n; i += 16) boxMuller16Reduced(data.data() + i, m, s, type);
    if (n % 16 != 0) {
      float *tail = data.data() + n - 16;
      for (int i = 0; i < 16; i++) tail[i] = unitReduced(g, type);
      boxMuller16Reduced(tail, m, s, type);
    }
  });
  THHalf *out = reinterpret_cast<THHalf *>(t.dataPtr());
  for (int64_t i = 0; i < n; i++) out[i] = floatToReduced(data[i], type);
}

template <typename T>
void exponential(const Tensor &t, Generator &gen, double lambd, double) {
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &) { return -1.0 / lambd * std::log(1.0 - unit<double>(g)); });
}

template <typename T>
void cauchy(const Tensor &t, Generator &gen, double median, double sigma) {
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &) {
    return mulAdd(sigma, std::tan(M_PI * (unit<double>(g) - 0.5)), median);
  });
}

template <typename T>
void logNormal(const Tensor &t, Generator &gen, double mean, double std) {
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &cache) { return std::exp(normalDouble(g, cache, mean, std)); });
}

template <typename T>
void geometric(const Tensor &t, Generator &gen, double p) {
  drawEach<T>(t, gen,
              [&](THGenerator *g, NormalCache &) { return std::ceil(std::log(unit<double>(g)) / std::log(1.0 - p)); });
}

template <typename T>
void bernoulli(const Tensor &t, Generator &gen, double p) {
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &) { return unit<double>(g) < p; });
}

template <typename T>
void bernoulliTensor(const Tensor &t, Generator &gen, const Tensor &probs) {
  const IntList dims = memoryOrder(t);
  Tensor ordered = permute(t, dims), p = permute(probs, dims);
  gen.with([&](THGenerator *g) {
    if (p.dtype() == ScalarType::Double) {
      th::applyInOrder([&](T &x, double &q) { x = static_cast<T>(unit<double>(g) < q); }, th::ref(ordered.th<T>()),
                       th::ref(p.th<double>()));
    } else {
      th::applyInOrder([&](T &x, float &q) { x = static_cast<T>(unit<float>(g) < q); }, th::ref(ordered.th<T>()),
                       th::ref(p.th<float>()));
    }
  });
}

template <typename T>
void random(const Tensor &t, Generator &gen, int64_t from, int64_t last) {
  // Values in [from, last]: a draw modulo the count. PyTorch draws 64 bits for Long, Double
  // and Float when the count needs more than 32, else 32 (so Int's whole range too); the
  // count is 0 only for Long's whole range, where the 64-bit draw is the value.
  const uint64_t count = static_cast<uint64_t>(last) - static_cast<uint64_t>(from) + 1;
  constexpr bool mayBeWide = std::is_same_v<T, int64_t> || std::is_same_v<T, double> || std::is_same_v<T, float>;
  const bool wide = mayBeWide && (count == 0 || count >= (uint64_t(1) << 32));
  drawEach<T>(t, gen, [&](THGenerator *g, NormalCache &) {
    const uint64_t r = wide ? THRandom_random64(g) : static_cast<uint64_t>(THRandom_random(g));
    if (count == 0) return static_cast<int64_t>(r);
    return static_cast<int64_t>(r % count + static_cast<uint64_t>(from));
  });
}

template <typename T>
void normalTensors(const Tensor &t, Generator &gen, const Tensor &means, const Tensor &stds) {
  // PyTorch: normal_(0, 1), then mul_(std), then add_(mean), each rounded.
  normal<T>(t, gen, 0, 1);
  th::applyInOrder(
      [&](T &x, T &m, T &s) {
        const T scaled = x * s;
        x = scaled + m;
      },
      th::ref(t.th<T>()), th::ref(means.th<T>()), th::ref(stds.th<T>()));
}

// One Poisson count of mean lambda. Small means multiply uniforms until the product falls
// below exp(-lambda) (Knuth); from 10 on, whose cost that would grow with lambda, Hormann's
// transformed rejection (PTRS, 1993) takes a bounded number of draws on average. Its draws
// are torch7's uniforms: PyTorch's own Poisson sampler is not reproduced.
double poissonDraw(THGenerator *g, double lambda) {
  if (lambda == 0) return 0;
  if (lambda < 10) {
    const double limit = std::exp(-lambda);
    double product = THRandom_uniform(g, 0, 1);
    double k = 0;
    while (product > limit) {
      product *= THRandom_uniform(g, 0, 1);
      k++;
    }
    return k;
  }
  const double root = std::sqrt(lambda), logLambda = std::log(lambda);
  const double b = 0.931 + 2.53 * root;
  const double a = -0.059 + 0.02483 * b;
  const double inverseAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = THRandom_uniform(g, 0, 1) - 0.5;
    const double v = THRandom_uniform(g, 0, 1);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inverseAlpha) - std::log(a / (us * us) + b) <=
        -lambda + k * logLambda - std::lgamma(k + 1)) {
      return k;
    }
  }
}

template <typename T>
void poisson(const Tensor &t, Generator &gen, const Tensor &rates) {
  gen.with([&](THGenerator *g) {
    th::applyInOrder([&](T &x, T &l) { x = static_cast<T>(poissonDraw(g, l)); }, th::ref(t.th<T>()),
                     th::ref(rates.th<T>()));
  });
}

template <typename T>
void randperm(const Tensor &t, Generator &gen, int64_t n) {
  // PyTorch's shuffle is torch7's: swap i with i + draw % (n - i).
  gen.with([&](THGenerator *g) { TH<T>::randperm(t.th<T>(), g, n); });
}

template <typename T>
void multinomial(const Tensor &r, Generator &gen, const Tensor &weights, int64_t samples, bool) {
  // With replacement (the op draws without replacement itself): PyTorch's inverse CDF, a
  // double uniform per sample and a binary search in the row's normalised cumulative sums.
  const int64_t categories = weights.size(weights.dim() - 1);
  const int64_t rows = weights.dim() == 2 ? weights.size(0) : 1;
  Tensor w = contiguous(weights);
  const T *p = reinterpret_cast<const T *>(w.dataPtr());
  std::vector<T> cumulative(static_cast<size_t>(rows * categories));
  for (int64_t i = 0; i < rows; i++) {
    T sum = 0;
    for (int64_t j = 0; j < categories; j++) {
      const T v = p[i * categories + j];
      TORCH_CHECK(v >= 0, Runtime, "invalid multinomial distribution (encountering probability entry < 0)");
      TORCH_CHECK(std::isfinite(v), Runtime,
                  "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      sum += v;
      cumulative[i * categories + j] = sum;
    }
    TORCH_CHECK(sum > 0, Runtime, "invalid multinomial distribution (sum of probabilities <= 0)");
    for (int64_t j = 0; j < categories; j++) cumulative[i * categories + j] /= sum;
    cumulative[i * categories + categories - 1] = 1;
  }
  int64_t *out = reinterpret_cast<int64_t *>(r.dataPtr());
  gen.with([&](THGenerator *g) {
    for (int64_t i = 0; i < rows; i++) {
      const T *row = cumulative.data() + i * categories;
      for (int64_t s = 0; s < samples; s++) {
        const double u = unit<double>(g);
        int64_t left = 0, right = categories;
        while (right > left) {
          const int64_t mid = left + (right - left) / 2;
          if (row[mid] < u) {
            left = mid + 1;
          } else {
            right = mid;
          }
        }
        out[i * samples + s] = left;
      }
    }
  });
}

}  // namespace

void registerRandomKernels(RandomKernels &k) {
  fill(k.uniform, TORCH_TEMPLATE(uniform));
  fill(k.normal, TORCH_TEMPLATE(normal));
  for (ScalarType type : {ScalarType::BFloat16, ScalarType::Half}) {  // Note [16-bit streams]
    k.uniform.add(Device::CPU, type, &uniformReduced);
    k.normal.add(Device::CPU, type, &normalReduced);
  }
  fill(k.exponential, TORCH_TEMPLATE(exponential));
  fill(k.cauchy, TORCH_TEMPLATE(cauchy));
  fill(k.logNormal, TORCH_TEMPLATE(logNormal));
  fill(k.geometric, TORCH_TEMPLATE(geometric));
  fill(k.bernoulli, TORCH_TEMPLATE(bernoulli));
  fill(k.bernoulliTensor, TORCH_TEMPLATE(bernoulliTensor));
  fill(k.random, TORCH_TEMPLATE(random));
  fill(k.normalTensors, TORCH_TEMPLATE(normalTensors));
  fill(k.poisson, TORCH_TEMPLATE(poisson));
  fill(k.randperm, TORCH_TEMPLATE(randperm));
  fill(k.multinomial, TORCH_TEMPLATE(multinomial));
}

}  // namespace torch::cpu
