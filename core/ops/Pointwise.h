// Element-wise operations with PyTorch's broadcasting and type promotion.
#ifndef TORCH_OPS_POINTWISE_H
#define TORCH_OPS_POINTWISE_H

#include <optional>

#include "TH/THPointwiseOps.h"
#include "core/Tensor.h"

namespace torch {

// The element type of `a op b` (PyTorch 1.x rules: a 0-dim tensor or a Python number only
// raises the category bool < integer < floating, it does not widen within one).
ScalarType resultType(const Tensor &a, const Tensor &b);
ScalarType resultType(const Tensor &a, Scalar b);
// Whether a result of type from may be written into a tensor of type to (no float into
// an integer tensor, nothing but bool into a bool tensor).
bool canCast(ScalarType from, ScalarType to);

// The op families of Note [Pointwise op tables] (TH/THPointwiseOps.h): the enums, names and
// kernels come from the tables' rows. Add and Sub compute a + alpha * b and a - alpha * b;
// Div is true division (integers give the default float type), FloorDiv floor(a / b) with
// integer results for integers, Fmod has the sign of a, Remainder the sign of b (Python's %).
enum class BinaryOp {
#define TORCH_BINARY_ENUM(Op, ...) Op,
  TH_FORALL_BINARY_OPS(TORCH_BINARY_ENUM)
#undef TORCH_BINARY_ENUM
};
const char *binaryOpName(BinaryOp op);

Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha = Scalar(int64_t(1)));
Tensor binary(BinaryOp op, const Tensor &a, Scalar b, Scalar alpha = Scalar(int64_t(1)));
Tensor binary(BinaryOp op, Scalar a, const Tensor &b);  // reflected: 2 - t, 2 ** t
// self = self op other; other is broadcast to self's shape. Checked before any write.
void binary_(BinaryOp op, const Tensor &self, const Tensor &other, Scalar alpha = Scalar(int64_t(1)));
void binary_(BinaryOp op, const Tensor &self, Scalar other, Scalar alpha = Scalar(int64_t(1)));

enum class CompareOp {
#define TORCH_COMPARE_ENUM(Op, ...) Op,
  TH_FORALL_COMPARE_OPS(TORCH_COMPARE_ENUM)
#undef TORCH_COMPARE_ENUM
};
const char *compareOpName(CompareOp op);
Tensor compare(CompareOp op, const Tensor &a, const Tensor &b);  // Bool result
Tensor compare(CompareOp op, const Tensor &a, Scalar b);
void compare_(CompareOp op, const Tensor &self, const Tensor &other);  // 0/1 in self's type
void compare_(CompareOp op, const Tensor &self, Scalar other);

// Ops on Floating types (see the table) convert integer inputs to the default float type.
enum class UnaryOp {
#define TORCH_UNARY_ENUM(Op, ...) Op,
  TH_FORALL_UNARY_OPS(TORCH_UNARY_ENUM)
#undef TORCH_UNARY_ENUM
};
const char *unaryOpName(UnaryOp op);

#define TORCH_COUNT_ROW(...) +1
constexpr int kNumUnaryOps = 0 TH_FORALL_UNARY_OPS(TORCH_COUNT_ROW);
constexpr int kNumBinaryOps = 0 TH_FORALL_BINARY_OPS(TORCH_COUNT_ROW);
constexpr int kNumCompareOps = 0 TH_FORALL_COMPARE_OPS(TORCH_COUNT_ROW);
#undef TORCH_COUNT_ROW

// torch.div's rounding_mode (Note [Rounding division] in Pointwise.cpp): None is Div, Trunc
// and Floor round the quotient toward zero and down; integers stay integers.
enum class RoundingMode { None, Trunc, Floor };
Tensor divide(const Tensor &a, const Tensor &b, RoundingMode mode);
Tensor divide(const Tensor &a, Scalar b, RoundingMode mode);
void divide_(const Tensor &self, const Tensor &other, RoundingMode mode);
void divide_(const Tensor &self, Scalar other, RoundingMode mode);

Tensor unary(UnaryOp op, const Tensor &t);
void unary_(UnaryOp op, const Tensor &t);

Tensor clamp(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max);
void clamp_(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max);
// Tensor bounds, broadcast with t; each gets the gradient where it is the result.
Tensor clamp(const Tensor &t, const std::optional<Tensor> &min, const std::optional<Tensor> &max);
void clamp_(const Tensor &t, const std::optional<Tensor> &min, const std::optional<Tensor> &max);
// self + value * t1 * t2 and self + value * t1 / t2, broadcast together.
Tensor addcmul(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value);
Tensor addcdiv(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value);
void addcmul_(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value);
void addcdiv_(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value);
Tensor lerp(const Tensor &a, const Tensor &b, Scalar weight);
void lerp_(const Tensor &a, const Tensor &b, Scalar weight);
// A weight per element (broadcast with a and b), which gets a gradient too.
Tensor lerp(const Tensor &a, const Tensor &b, const Tensor &weight);
void lerp_(const Tensor &a, const Tensor &b, const Tensor &weight);
Tensor logicalNot(const Tensor &t);
Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b);

}  // namespace torch

#endif
