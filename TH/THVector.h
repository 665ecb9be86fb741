// Note [Vector kernels]: torch7's THVector, again. The loops that decide the speed of
// element-wise math on contiguous memory (transcendental functions, arithmetic, sums) are compiled
// once per instruction set (TH/vector/<set>.cpp, built with that set's -m flags) and the
// best set the processor has is chosen once, at the first call. The transcendental
// functions are SLEEF's (the library PyTorch uses), at 1 ulp (erfc at 1.5), so results
// differ from the scalar path (libm) by at most a couple of ulps.
//
// The plain x86-64 build has no table of its own: a null entry means "no vector kernel",
// and the caller runs its scalar expression (the op table's), so old processors take the
// same path as before. TH_VECTOR=default|avx2|avx512 caps the set chosen, to compare
// paths; the tests call each set's table directly.
//
// The files under TH/vector/ include nothing of TH's templates: code compiled with -mavx2
// that the linker could merge with the plain build's copy (an inline function or a
// template both define) would run on processors without AVX2.
#ifndef TH_VECTOR_H
#define TH_VECTOR_H

#include <cstdint>
#include <type_traits>

#include "TH/THGeneral.h"
#include "TH/THPointwiseOps.h"

namespace th::vec {

// The unary ops of Note [Pointwise op tables], numbered in the table's order.
enum class Unary : int {
#define TH_VECTOR_UNARY_ENUM(Op, ...) Op,
  TH_FORALL_UNARY_OPS(TH_VECTOR_UNARY_ENUM)
#undef TH_VECTOR_UNARY_ENUM
      Count
};

// The ops of the table that have vector kernels: _(Op, SLEEF's name, its error bound).
// Sigmoid, 1 / (1 + exp(-x)), is built on the vector exp.
#define TH_FORALL_VECTOR_UNARY_OPS(_) \
  _(Exp, exp, u10)                    \
  _(Log, log, u10)                    \
  _(Log1p, log1p, u10)                \
  _(Expm1, expm1, u10)                \
  _(Tanh, tanh, u10)                  \
  _(Sin, sin, u10)                    \
  _(Cos, cos, u10)                    \
  _(Tan, tan, u10)                    \
  _(Asin, asin, u10)                  \
  _(Acos, acos, u10)                  \
  _(Atan, atan, u10)                  \
  _(Sinh, sinh, u10)                  \
  _(Cosh, cosh, u10)                  \
  _(Log2, log2, u10)                  \
  _(Log10, log10, u10)                \
  _(Erf, erf, u10)                    \
  _(Erfc, erfc, u15)

// Elements per block where a formula runs as passes of these kernels and of short loops over
// buffers that stay in the L1 cache (Note [Activations in vector blocks] in
// core/ops/cpu/NNKernels.cpp).
constexpr int64_t kBlock = 256;

// out[i] = f(in[i]) for i < n; out may be in (in place), not otherwise overlap it.
template <typename T>
using UnaryKernel = void (*)(T *out, const T *in, int64_t n);

// The arithmetic of two operands, with the scalar path's roundings (a multiply, then an
// add: no fused multiply-add, so both paths give the same bits): r = a + alpha * b (cadd;
// csub is alpha negated, which rounds the same), r = a * b, r = a / b.
enum class Binary : int { AddScaled, Mul, Div, Count };
// r[i] = a[i] op b[i] (alpha for AddScaled) for i < n; r may be a or b, not otherwise overlap them.
template <typename T>
using BinaryKernel = void (*)(T *r, const T *a, const T *b, T alpha, int64_t n);

// A tensor and a number: r = a + value (sub is value negated), r = a * value, r = a / value.
enum class WithValue : int { Add, Mul, Div, Count };
template <typename T>
using ValueKernel = void (*)(T *r, const T *a, T value, int64_t n);

// One instruction set's kernels; null where it has none.
struct Kernels {
  const char *name;
  UnaryKernel<float> floatUnary[int(Unary::Count)];
  UnaryKernel<double> doubleUnary[int(Unary::Count)];
  // GELU, x Phi(x) with Phi the standard normal CDF, and its derivative Phi(x) + x phi(x), phi
  // the density: outside the op table (float: Note [GELU in one pass] in
  // TH/vector/VectorKernels.hpp)
  UnaryKernel<float> floatGelu, floatGeluDerivative;
  UnaryKernel<double> doubleGelu, doubleGeluDerivative;
  BinaryKernel<float> floatBinary[int(Binary::Count)];
  BinaryKernel<double> doubleBinary[int(Binary::Count)];
  ValueKernel<float> floatWithValue[int(WithValue::Count)];
  ValueKernel<double> doubleWithValue[int(WithValue::Count)];
  // sum of x[0..n), accumulated in double in several lanes
  double (*sumFloat)(const float *x, int64_t n);
  double (*sumDouble)(const double *x, int64_t n);
};

enum class Isa : int { Default, Avx2, Avx512 };

// The table of one set (all null for Default); an error where the processor lacks it.
#define TH_VECTOR_API __attribute__((visibility("default")))
TH_VECTOR_API const Kernels &kernelsFor(Isa isa);
TH_VECTOR_API bool supported(Isa isa);
TH_VECTOR_API const char *name(Isa isa);

// Each set's table, from TH/vector/<set>.cpp (callers go through kernelsFor).
TH_VECTOR_API const Kernels &avx2Kernels();
TH_VECTOR_API const Kernels &avx512Kernels();

// The table chosen for this processor (and TH_VECTOR), chosen at the first call.
TH_VECTOR_API const Kernels &kernels();

// Of a float kernel and a double one, T's (null for other types).
template <typename T, typename FloatKernel, typename DoubleKernel>
auto forType(FloatKernel floatKernel, DoubleKernel doubleKernel) {
  if constexpr (std::is_same_v<T, float>)
    return floatKernel;
  else if constexpr (std::is_same_v<T, double>)
    return doubleKernel;
  else
    return nullptr;
}

template <typename T>
UnaryKernel<T> unary(Unary op) {
  return forType<T>(kernels().floatUnary[int(op)], kernels().doubleUnary[int(op)]);
}
template <typename T>
UnaryKernel<T> gelu() {
  return forType<T>(kernels().floatGelu, kernels().doubleGelu);
}
template <typename T>
UnaryKernel<T> geluDerivative() {
  return forType<T>(kernels().floatGeluDerivative, kernels().doubleGeluDerivative);
}
template <typename T>
BinaryKernel<T> binary(Binary op) {
  return forType<T>(kernels().floatBinary[int(op)], kernels().doubleBinary[int(op)]);
}
template <typename T>
ValueKernel<T> withValue(WithValue op) {
  return forType<T>(kernels().floatWithValue[int(op)], kernels().doubleWithValue[int(op)]);
}
// The sum kernel for T (null for integers, or where there is none).
template <typename T>
double (*sum())(const T *, int64_t) {
  return forType<T>(kernels().sumFloat, kernels().sumDouble);
}

}  // namespace th::vec

#endif
