// The scalar arithmetic every element-wise op is written with, shared by TH's kernels and
// THC's (where nvcc compiles these for the device too): one definition of what add, div,
// pow, remainder, shifts, max and min mean for every element type.
#ifndef TH_SCALAR_MATH_HPP
#define TH_SCALAR_MATH_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#ifdef __CUDACC__
#define TH_HOST_DEVICE __host__ __device__
#else
#define TH_HOST_DEVICE
#endif

namespace th::math {

// Note [Selects without branches]: pick(c, a, b) is c ? a : b made from the bits of both
// arms. GCC assumes that floating-point operations may trap, so it will not evaluate an arm
// that a ?: might skip (and sinks arithmetic into the arm that uses it): the select stays a
// branch, which data of mixed signs mispredicts half the time (relu's gradient took 5 ns an
// element, PyTorch's 0.5; leaky_relu 9 ns). Both arms computed and chosen by a mask are what
// the vectorizer turns into blends. The element-wise functors' piecewise formulas (THNN's,
// THCUNN's, the core's activations) choose with it.
template <typename T>
TH_HOST_DEVICE inline T pick(bool c, T a, T b) {
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  Bits x, y;
  memcpy(&x, &a, sizeof(T));
  memcpy(&y, &b, sizeof(T));
  const Bits mask = Bits(0) - Bits(c), bits = (x & mask) | (y & ~mask);
  T r;
  memcpy(&r, &bits, sizeof(T));
  return r;
}

// Note [Integer wrap-around]: integer results wrap modulo 2^bits, which is what torch7 got
// from the hardware; computing in uint64_t keeps that without signed-overflow undefined
// behaviour, and the compiler narrows it back to the element width.
template <typename T>
TH_HOST_DEVICE inline T add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return a + b;
}

template <typename T>
TH_HOST_DEVICE inline T sub(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  else
    return a - b;
}

template <typename T>
TH_HOST_DEVICE inline T mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return a * b;
}

template <typename T>
TH_HOST_DEVICE inline T neg(T a) {
  if constexpr (std::is_integral_v<T>)
    return sub(T(0), a);
  else
    return -a;  // keeps the sign of zero
}

// Keeps abs(-0.0) == +0.0 for floats; the most negative integer stays itself.
template <typename T>
TH_HOST_DEVICE inline T abs(T a) {
  if constexpr (std::is_floating_point_v<T>)
    return std::abs(a);
  else
    return a < 0 ? neg(a) : a;
}

// Integer division truncates (C, torch7). The caller has ruled out a zero divisor; a
// divisor of -1 is a negation because MIN / -1 traps on x86.
template <typename T>
TH_HOST_DEVICE inline T div(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    if (b == -1) return neg(a);
  return static_cast<T>(a / b);
}

// C's fmod: the result has the sign of the dividend.
template <typename T>
TH_HOST_DEVICE inline T fmod(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(a, b);
  } else {
    if constexpr (std::is_signed_v<T>)
      if (b == -1) return T(0);
    return static_cast<T>(a % b);
  }
}

// Python's %: the result has the sign of the divisor (NaN for a zero float divisor).
template <typename T>
TH_HOST_DEVICE inline T remainder(T a, T b) {
  T m = fmod(a, b);
  if constexpr (std::is_signed_v<T>)
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

// Integer powers by squaring, wrapping like add and mul; the caller has ruled out
// negative exponents.
template <typename T>
TH_HOST_DEVICE inline T pow(T base, T exp) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(base, exp);
  } else {
    uint64_t result = 1, b = static_cast<uint64_t>(base);
    for (uint64_t e = static_cast<uint64_t>(exp); e; e >>= 1) {
      if (e & 1) result *= b;
      b *= b;
    }
    return static_cast<T>(result);
  }
}

// floor(a / b): Python's //. The caller has ruled out a zero integer divisor.
template <typename T>
TH_HOST_DEVICE inline T floorDivide(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::floor(a / b);
  } else {
    T q = div(a, b);
    if constexpr (std::is_signed_v<T>)
      if (fmod(a, b) != 0 && ((a < 0) != (b < 0))) q = sub(q, T(1));
    return q;
  }
}

// Shifts. Integers shift by y bits in 64-bit arithmetic and narrow back (int8 1 << 7 is
// -128, 1 << 8 is 0, as PyTorch); a count outside [0, 64) shifts everything out: 0 to the
// left, the sign to the right. Floating types multiply or divide by 2^y (torch7).
template <typename T>
TH_HOST_DEVICE inline T shiftLeft(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return x * std::pow(T(2), y);
  } else {
    if (static_cast<uint64_t>(y) >= 64) return T(0);  // negative counts too
    return static_cast<T>(static_cast<uint64_t>(x) << static_cast<uint64_t>(y));
  }
}

template <typename T>
TH_HOST_DEVICE inline T shiftRight(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return x / std::pow(T(2), y);
  } else {
    const int64_t wide = static_cast<int64_t>(x);
    if (static_cast<uint64_t>(y) >= 64) return static_cast<T>(wide < 0 ? -1 : 0);
    return static_cast<T>(wide >> static_cast<int64_t>(y));
  }
}

// max/min that return NaN when either operand is NaN (as PyTorch does).
template <typename T>
TH_HOST_DEVICE inline T max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(b)) return b;
  return a < b ? b : a;
}

template <typename T>
TH_HOST_DEVICE inline T min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(b)) return b;
  return b < a ? b : a;
}

}  // namespace th::math

#endif
