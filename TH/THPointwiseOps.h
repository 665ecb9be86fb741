/* Note [Pointwise op tables]: each family of element-wise ops is listed once, here. A row
 * names the op for every layer:
 *
 *   Op      the core's enum value (torch::UnaryOp::Exp, ...)
 *   torch   its PyTorch name: the Python method, the torch.* function, the in-place twin
 *           (exp_) and the out= form
 *   th      its TH kernel (THFloatTensor_exp) and torch7's method name in Lua (x:exp())
 *   Types   the element types its kernels exist for: All (every arithmetic type), Floating
 *           (Float, Double), Integral (Byte, Char, Short, Int, Long)
 *
 * From a row come: the TH kernel's declaration and (where the row gives an element
 * expression) its definition, its TH<T> member, the core's enum value and name, the CPU
 * kernel registered in the core's dispatch table, the Python bindings and the Lua bindings.
 * The derivative is a case of the switch in autograd/Derivatives.cpp, which the compiler
 * checks covers every op. core/ops/ADDING_AN_OP.md walks through adding one.
 *
 * Rows are appended at the end of a family: the enum values, and so the order of the
 * names, follow the rows. */
#ifndef TH_POINTWISE_OPS_H
#define TH_POINTWISE_OPS_H

/* Unary ops r = f(t): _(Op, torch, th, Types, expression of x of type scalar_t). Ops on
 * Floating types take integer inputs in the core by converting them to the default float
 * type first. */
#define TH_FORALL_UNARY_OPS(_)                                   \
  _(Neg, neg, neg, All, thm::neg(x))                             \
  _(Abs, abs, abs, All, thm::abs(x))                             \
  _(Sign, sign, sign, All, scalar_t((x > 0) - (x < 0)))          \
  _(Exp, exp, exp, Floating, std::exp(x))                        \
  _(Log, log, log, Floating, std::log(x))                        \
  _(Log1p, log1p, log1p, Floating, std::log1p(x))                \
  _(Sqrt, sqrt, sqrt, Floating, std::sqrt(x))                    \
  _(Rsqrt, rsqrt, rsqrt, Floating, 1 / std::sqrt(x))             \
  _(Sigmoid, sigmoid, sigmoid, Floating, 1 / (1 + std::exp(-x))) \
  _(Tanh, tanh, tanh, Floating, std::tanh(x))                    \
  _(Sin, sin, sin, Floating, std::sin(x))                        \
  _(Cos, cos, cos, Floating, std::cos(x))                        \
  _(Tan, tan, tan, Floating, std::tan(x))                        \
  _(Asin, asin, asin, Floating, std::asin(x))                    \
  _(Acos, acos, acos, Floating, std::acos(x))                    \
  _(Atan, atan, atan, Floating, std::atan(x))                    \
  _(Sinh, sinh, sinh, Floating, std::sinh(x))                    \
  _(Cosh, cosh, cosh, Floating, std::cosh(x))                    \
  _(Floor, floor, floor, Floating, std::floor(x))                \
  _(Ceil, ceil, ceil, Floating, std::ceil(x))                    \
  _(Round, round, rint, Floating, std::nearbyint(x))             \
  _(Trunc, trunc, trunc, Floating, std::trunc(x))                \
  _(Frac, frac, frac, Floating, x - std::trunc(x))               \
  _(Reciprocal, reciprocal, cinv, Floating, 1 / x)               \
  _(Expm1, expm1, expm1, Floating, std::expm1(x))                \
  _(Log2, log2, log2, Floating, std::log2(x))                    \
  _(Log10, log10, log10, Floating, std::log10(x))                \
  _(Erf, erf, erf, Floating, std::erf(x))                        \
  _(Erfc, erfc, erfc, Floating, std::erfc(x))                    \
  _(BitwiseNot, bitwise_not, bitnot, Integral, scalar_t(~x))

/* Binary ops r = a op b: _(Op, torch, tensor kernel, value kernel, Types). Types are those
 * PyTorch has the op for; TH may have the kernels for more (torch7 shifts floats). The tensor
 * kernels are THTensor_(cth)(r, t, src), except Add and Sub's, which take alpha
 * (r = t + alpha * src) as torch7's cadd and csub do; the value kernels are
 * THTensor_(th)(r, t, value). The kernels of the first rows are written by hand in
 * generic/THTensorMath.cpp (they check their divisors and exponents); those of the rows in
 * TH_FORALL_GENERATED_BINARY_KERNELS are generated from an expression. */
#define TH_FORALL_BINARY_OPS(_)                               \
  _(Add, add, cadd, add, All)                                 \
  _(Sub, sub, csub, sub, All)                                 \
  _(Mul, mul, cmul, mul, All)                                 \
  _(Div, div, cdiv, div, All)                                 \
  _(FloorDiv, floor_divide, cfloorDivide, floorDivide, All)   \
  _(Pow, pow, cpow, pow, All)                                 \
  _(Fmod, fmod, cfmod, fmod, All)                             \
  _(Remainder, remainder, cremainder, remainder, All)         \
  _(Atan2, atan2, atan2, atan2Value, Floating)                \
  _(Maximum, maximum, cmax, cmaxValue, All)                   \
  _(Minimum, minimum, cmin, cminValue, All)                   \
  _(BitwiseAnd, bitwise_and, cbitAnd, bitAnd, Integral)       \
  _(BitwiseOr, bitwise_or, cbitOr, bitOr, Integral)           \
  _(BitwiseXor, bitwise_xor, cbitXor, bitXor, Integral)       \
  _(LeftShift, bitwise_left_shift, clshift, lshift, Integral) \
  _(RightShift, bitwise_right_shift, crshift, rshift, Integral)

/* The binary kernels TH generates from an element expression of x (t's element) and y
 * (src's element, or the value): _(cth, th, Types, Lua tensor method, Lua value method,
 * expression). The Lua methods are torch7's names (C++ reserves bitand and bitor, so the
 * kernels are named otherwise). Floating shifts multiply or divide by 2^y, as torch7's
 * lshift and rshift on Float and Double did; integer shifts follow thm::shiftLeft. */
#define TH_FORALL_GENERATED_BINARY_KERNELS(_)                     \
  _(cbitAnd, bitAnd, Integral, cbitand, bitand, scalar_t(x &y))   \
  _(cbitOr, bitOr, Integral, cbitor, bitor, scalar_t(x | y))      \
  _(cbitXor, bitXor, Integral, cbitxor, bitxor, scalar_t(x ^ y))  \
  _(clshift, lshift, All, clshift, lshift, thm::shiftLeft(x, y))  \
  _(crshift, rshift, All, crshift, rshift, thm::shiftRight(x, y)) \
  _(atan2, atan2Value, Floating, atan2, atan2Value, std::atan2(x, y))

/* Comparisons, a Bool (Byte) mask or 0/1 in t's type: _(Op, torch, th, alias). The TH
 * kernels are THTensor_(<th>Value), <th>ValueT, <th>Tensor and <th>TensorT (generic/
 * THTensorMath.h); Python also names the op by its alias (torch.less) where it has one. */
#define TH_FORALL_COMPARE_OPS(_) \
  _(Lt, lt, lt, less)            \
  _(Le, le, le, less_equal)      \
  _(Gt, gt, gt, greater)         \
  _(Ge, ge, ge, greater_equal)   \
  _(Eq, eq, eq, )                \
  _(Ne, ne, ne, not_equal)

/* TH_IF_<Types>(...) (THGenerateOneType.h) keeps its arguments in a generic file compiled
 * for a type of that class and drops them otherwise. */

#endif
