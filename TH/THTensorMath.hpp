// C++ internals of the math group (TH/THTensorMath*.cpp): argument checks and the one
// driver that writes r = f(inputs...) through th::apply. The scalar arithmetic the ops are
// written with is in THScalarMath.hpp, shared with THC.
#ifndef TH_TENSOR_MATH_HPP
#define TH_TENSOR_MATH_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "TH/THScalarMath.hpp"
#include "TH/THTensor.hpp"
#include "TH/THVector.h"

namespace th::math {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT &>().storage->data)>;

template <typename TensorT>
std::string shape(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

// Element-wise operands need the same number of elements (torch7's rule; shapes may differ).
template <typename A, typename B>
void checkSameCount(const char *op, A *a, const char *aName, B *b, int bArg, const char *bName) {
  const int64_t na = numel(ref(a)), nb = numel(ref(b));
  THArgCheck(na == nb, bArg,
             "%s: %s %s (%lld elements) and %s %s (%lld elements) must have the same number of elements", op, aName,
             shape(a).c_str(), (long long)na, bName, shape(b).c_str(), (long long)nb);
}

// Integer division, fmod and remainder raise on a zero divisor instead of trapping.
template <typename TensorT>
void checkNoZero(const char *op, TensorT *divisor, int arg, const char *name) {
  using T = Elem<TensorT>;
  if constexpr (std::is_integral_v<T>) {
    auto anyZero = [](int acc, T x) { return acc | (x == 0); };
    int zero = reduceAll(ref(divisor), 0, anyZero, [](int a, int b) { return a | b; });
    THArgCheck(!zero, arg, "%s: integer division by zero (%s holds a zero)", op, name);
  }
}

// Integers have no negative powers (PyTorch's rule).
template <typename TensorT>
void checkNoNegative(const char *op, TensorT *exponent, int arg, const char *name) {
  using T = Elem<TensorT>;
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    auto anyNegative = [](int acc, T x) { return acc | (x < 0); };
    int negative = reduceAll(ref(exponent), 0, anyNegative, [](int a, int b) { return a | b; });
    THArgCheck(!negative, arg, "%s: integers to negative integer powers are not allowed (%s holds a negative value)",
               op, name);
  }
}

// r = f(a, b...) element by element; r takes a's shape (resizeNd keeps r's strides when
// the shape is already right). The caller has checked every operand.
template <typename F, typename R, typename A, typename... B>
void map(F f, R *r, A *a, B *...b) {
  TH<Elem<R>>::resizeNd(r, a->nDimension, a->size, nullptr);
  apply([&](Elem<R> &y, Elem<A> &x, Elem<B> &...z) { y = static_cast<Elem<R>>(f(x, z...)); }, ref(r), ref(a),
        ref(b)...);
}

// r = kernel(a) through a kernel of Note [Vector kernels], in chunks over the threads, when
// there is one and r's and a's last dimensions are contiguous: the whole at once when both
// are contiguous, row by row when only their rows are (a chunk or a narrow of a matrix, as
// an LSTM's gates are, in place or not: the same row gives the same values either way);
// false (r resized, nothing written) otherwise.
template <typename R, typename A>
bool mapVector(vec::UnaryKernel<Elem<R>> kernel, R *r, A *a) {
  if (!kernel) return false;
  TH<Elem<R>>::resizeNd(r, a->nDimension, a->size, nullptr);
  const auto out = ref(r);
  const auto in = ref(a);
  if (isContiguous(out) && isContiguous(in)) {
    detail::parallelFor(numel(in), TH_OMP_THRESHOLD,
                        [&](int64_t begin, int64_t end) { kernel(out.data + begin, in.data + begin, end - begin); });
    return true;
  }
  const int last = in.ndim - 1;
  if (last < 1 || in.stride[last] != 1 || out.stride[last] != 1) return false;
  const int64_t cols = in.size[last], rows = cols > 0 ? numel(in) / cols : 0;
  detail::parallelFor(rows, std::max<int64_t>(1, TH_OMP_THRESHOLD / std::max<int64_t>(cols, 1)),
                      [&](int64_t begin, int64_t end) {
                        for (int64_t row = begin; row < end; row++) {
                          int64_t inOffset = 0, outOffset = 0, rest = row;
                          for (int d = last - 1; d >= 0; d--) {
                            const int64_t i = rest % in.size[d];
                            inOffset += i * in.stride[d];
                            outOffset += i * out.stride[d];
                            rest /= in.size[d];
                          }
                          kernel(out.data + outOffset, in.data + inOffset, cols);
                        }
                      });
  return true;
}

// r = a op b (alpha for Binary::AddScaled) through a kernel of Note [Vector kernels], in
// chunks over the threads, when there is one and r (resized to a's shape), a and b are all
// contiguous; false otherwise (r resized, nothing written).
template <typename R, typename A, typename B>
bool zipVector(vec::BinaryKernel<Elem<R>> kernel, R *r, A *a, B *b, Elem<R> alpha) {
  if (!kernel) return false;
  TH<Elem<R>>::resizeNd(r, a->nDimension, a->size, nullptr);
  const auto out = ref(r);
  const auto x = ref(a);
  const auto y = ref(b);
  if (!isContiguous(out) || !isContiguous(x) || !isContiguous(y)) return false;
  detail::parallelFor(numel(x), TH_OMP_THRESHOLD, [&](int64_t begin, int64_t end) {
    kernel(out.data + begin, x.data + begin, y.data + begin, alpha, end - begin);
  });
  return true;
}

// r = a op value, as zipVector.
template <typename R, typename A>
bool mapValueVector(vec::ValueKernel<Elem<R>> kernel, R *r, A *a, Elem<R> value) {
  if (!kernel) return false;
  TH<Elem<R>>::resizeNd(r, a->nDimension, a->size, nullptr);
  const auto out = ref(r);
  const auto x = ref(a);
  if (!isContiguous(out) || !isContiguous(x)) return false;
  detail::parallelFor(numel(x), TH_OMP_THRESHOLD, [&](int64_t begin, int64_t end) {
    kernel(out.data + begin, x.data + begin, value, end - begin);
  });
  return true;
}

}  // namespace th::math

#endif
