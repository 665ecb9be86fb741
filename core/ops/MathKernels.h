// The kernels of the rest of the tensor math (Note [Dispatch by device and type] in
// core/Dispatch.h): clamp, addcmul/addcdiv, lerp and where (element-wise, operands already
// of r's type and shape), cross, histc, renorm and the sequences of the factories.
#ifndef TORCH_OPS_MATH_KERNELS_H
#define TORCH_OPS_MATH_KERNELS_H

#include <optional>

#include "core/Dispatch.h"

namespace torch {

// What a sequence factory writes at position i of its n elements.
struct Sequence {
  enum class Kind : uint8_t {
    Integers,  // start.i + i * step.i, exactly (arange over integers)
    Steps,     // start.d + i * step.d
    Spaced,    // spacedPoint(a, b, n, i)
    LogSpaced  // base ^ spacedPoint(a, b, n, i)
  } kind;
  Scalar start, step;
  double a = 0, b = 0, base = 10;
};

// Point i of n evenly spaced points from a to b. The second half counts back from b, so
// the last point is b exactly and the sequence is symmetric.
inline double spacedPoint(double a, double b, int64_t n, int64_t i) {
  double step = n > 1 ? (b - a) / static_cast<double>(n - 1) : 0;
  return i < n / 2 ? a + step * i : b - step * (n - 1 - i);
}

struct MathKernels {
  // r = t clamped to [min, max]; either bound may be missing (not both).
  Kernels<void(const Tensor &r, const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max), Types::Arith>
      clamp{"clamp"};
  // r = self + value * t1 * t2, or / t2.
  Kernels<void(const Tensor &r, const Tensor &self, Scalar value, const Tensor &t1, const Tensor &t2), Types::Arith>
      addcmul{"addcmul"}, addcdiv{"addcdiv"};
  // r = a + weight * (b - a).
  Kernels<void(const Tensor &r, const Tensor &a, const Tensor &b, Scalar weight), Types::Floating> lerp{"lerp"};
  // r = cond ? a : b, cond Bool.
  Kernels<void(const Tensor &r, const Tensor &cond, const Tensor &a, const Tensor &b), Types::All> where{"where"};
  // r = the cross products of a's and b's 3-vectors along dim.
  Kernels<void(const Tensor &r, const Tensor &a, const Tensor &b, int dim), Types::Arith> cross{"cross"};
  // r = the histogram of t in bins over [min, max] (t's own range when they are equal),
  // PyTorch's bin rule; raises for a range that is not finite or empty.
  Kernels<void(const Tensor &r, const Tensor &t, int64_t bins, double min, double max), Types::Floating> histc{"histc"};
  // r = t with each slice along dim of p-norm above maxnorm scaled down to maxnorm.
  Kernels<void(const Tensor &r, const Tensor &t, double p, int dim, double maxnorm), Types::Floating> renorm{"renorm"};
  // r (1-D, n elements, any stride) = the sequence; a Bool r holds value != 0.
  Kernels<void(const Tensor &r, const Sequence &sequence), Types::Arith> sequence{"sequence"};
};

// The tables, with the CPU column registered on first use.
MathKernels &mathKernels();

namespace cpu {
void registerMathKernels(MathKernels &k);  // core/ops/cpu/MathKernels.cpp
}  // namespace cpu

}  // namespace torch

#endif
