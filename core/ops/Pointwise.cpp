#include "core/ops/Pointwise.h"

#include <cmath>

#include "autograd/Derivatives.h"
#include "core/ops/Complex.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/MathKernels.h"
#include "core/ops/PointwiseKernels.h"

namespace torch {

namespace {

// bool < integer < floating < complex
int category(ScalarType t) { return t == ScalarType::Bool ? 0 : isFloating(t) ? 2 : isComplex(t) ? 3 : 1; }
int category(Scalar s) { return s.isBool() ? 0 : s.isFloating() ? 2 : s.isComplex() ? 3 : 1; }

[[noreturn]] void castError(ScalarType from, ScalarType to) {
  fail(th::ErrorKind::Runtime, "result type %s can't be cast to the desired output type %s", scalarTypeName(from),
       scalarTypeName(to));
}

// The type a floating-only op computes in for an input of type t.
ScalarType floatingResult(ScalarType t) { return isFloating(t) || isComplex(t) ? t : defaultFloatType(); }

}  // namespace

ScalarType resultType(const Tensor &a, const Tensor &b) {
  bool aDims = a.dim() > 0, bDims = b.dim() > 0;
  if (aDims == bDims) return promoteTypes(a.dtype(), b.dtype());
  const Tensor &dimmed = aDims ? a : b;
  const Tensor &zeroDim = aDims ? b : a;
  if (category(zeroDim.dtype()) <= category(dimmed.dtype())) return dimmed.dtype();
  // a complex 0-dim tensor with floating ones: complex of their precision (double gives complex128)
  if (isComplex(zeroDim.dtype()) && isFloating(dimmed.dtype())) return toComplexType(dimmed.dtype());
  return zeroDim.dtype();
}

ScalarType resultType(const Tensor &a, Scalar b) {
  if (category(b) <= category(a.dtype())) return a.dtype();
  if (b.isComplex()) return toComplexType(isFloating(a.dtype()) ? a.dtype() : defaultFloatType());
  return b.isFloating() ? defaultFloatType() : ScalarType::Long;
}

bool canCast(ScalarType from, ScalarType to) {
  if (isComplex(from) && !isComplex(to)) return false;
  if (isFloating(from) && !isFloating(to) && !isComplex(to)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

const char *binaryOpName(BinaryOp op) {
  static const char *names[] = {
#define TORCH_BINARY_NAME(Op, torch, ...) #torch,
      TH_FORALL_BINARY_OPS(TORCH_BINARY_NAME)
#undef TORCH_BINARY_NAME
  };
  return names[static_cast<int>(op)];
}

const char *compareOpName(CompareOp op) {
  static const char *names[] = {
#define TORCH_COMPARE_NAME(Op, torch, ...) #torch,
      TH_FORALL_COMPARE_OPS(TORCH_COMPARE_NAME)
#undef TORCH_COMPARE_NAME
  };
  return names[static_cast<int>(op)];
}

const char *unaryOpName(UnaryOp op) {
  static const char *names[] = {
#define TORCH_UNARY_NAME(Op, torch, ...) #torch,
      TH_FORALL_UNARY_OPS(TORCH_UNARY_NAME)
#undef TORCH_UNARY_NAME
  };
  return names[static_cast<int>(op)];
}

MathKernels &mathKernels() {
  static MathKernels *tables = [] {
    auto *t = new MathKernels();  // never destroyed: kernels may run during exit
    cpu::registerMathKernels(*t);
    return t;
  }();
  return *tables;
}

PointwiseKernels &pointwiseKernels() {
  static PointwiseKernels *tables = [] {
    auto *t = new PointwiseKernels();  // never destroyed: kernels may run during exit
    cpu::registerPointwiseKernels(*t);
    return t;
  }();
  return *tables;
}

namespace {

// The type op computes in, from the promoted type of its operands.
ScalarType computeType(BinaryOp op, ScalarType promoted) {
  if (op == BinaryOp::Div || op == BinaryOp::Atan2) return floatingResult(promoted);
  return promoted;
}

bool isBitwise(BinaryOp op) {
  return op == BinaryOp::BitwiseAnd || op == BinaryOp::BitwiseOr || op == BinaryOp::BitwiseXor;
}
bool isShift(BinaryOp op) { return op == BinaryOp::LeftShift || op == BinaryOp::RightShift; }

// Ops with a gradient: the others are piecewise constant or defined on integers only.
bool isDifferentiable(BinaryOp op) { return op != BinaryOp::FloorDiv && !isBitwise(op) && !isShift(op); }

void checkBoolOp(BinaryOp op, ScalarType t) {
  if (t != ScalarType::Bool) return;
  bool allowed =
      op == BinaryOp::Add || op == BinaryOp::Mul || op == BinaryOp::Maximum || op == BinaryOp::Minimum || isBitwise(op);
  TORCH_CHECK(allowed, Type, "%s is not supported for bool tensors", binaryOpName(op));
}

void checkAlpha(ScalarType t, Scalar alpha) {
  TORCH_CHECK(isFloating(t) || !alpha.isFloating(), Type,
              "For integral input tensors, argument alpha must not be a floating point number.");
}

// Bool results computed on bytes: anything non-zero is true.
void normalizeBool(const Tensor &r) {
  if (r.dtype() == ScalarType::Bool) copyKernels().boolFromBytes(r.device(), r.dtype(), r);
}

// r = a op b for tensors of r's type and shape (r may be a).
void binaryKernel(BinaryOp op, const Tensor &r, const Tensor &a, const Tensor &b, Scalar alpha) {
  pointwiseKernels().binary.find(static_cast<int>(op), r.device(), r.dtype(), binaryOpName(op))(r, a, b, alpha);
}

// r = a op value.
void scalarKernel(BinaryOp op, const Tensor &r, const Tensor &a, Scalar value) {
  pointwiseKernels().binaryScalar.find(static_cast<int>(op), r.device(), r.dtype(), binaryOpName(op))(r, a, value);
}

// alpha * b folded into one value (a + alpha * b with a scalar b).
Scalar scaled(Scalar b, Scalar alpha) {
  if (b.isFloating() || alpha.isFloating()) return Scalar(b.d * alpha.d);
  return Scalar(b.i * alpha.i);
}

}  // namespace

Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha) {
  ScalarType type = computeType(op, resultType(a, b));
  if (isComplex(type)) return complexBinary(op, a, b, alpha, type);
  RecordScope rec({&a, &b});
  checkBoolOp(op, type);
  if (op == BinaryOp::Add || op == BinaryOp::Sub) checkAlpha(type, alpha);
  IntList shape = a.isSameSizeAs(b) ? a.sizes() : broadcastShapes(a.sizes(), b.sizes());
  Device device = resultDevice(binaryOpName(op), a, b);
  Tensor ca = to(a, type, device), cb = to(b, type, device);
  if (!ca.hasSizes(shape)) ca = expand(ca, shape);
  if (!cb.hasSizes(shape)) cb = expand(cb, shape);
  Tensor r = empty(shape, type, device);
  binaryKernel(op, r, ca, cb, alpha);
  normalizeBool(r);
  if (rec && isFloating(type) && isDifferentiable(op)) derivatives::binary(op, a, b, alpha, r);
  return r;
}

Tensor binary(BinaryOp op, const Tensor &a, Scalar b, Scalar alpha) {
  ScalarType type = computeType(op, resultType(a, b));
  if (isComplex(type) && op == BinaryOp::Pow) return complexPow(toType(a, type), b);
  if (isComplex(type)) return complexBinary(op, a, scalarTensor(b, type, a.device()), alpha, type);
  if (type == ScalarType::Bool) return binary(op, a, scalarTensor(b, type, a.device()), alpha);  // normalized to 0/1
  RecordScope rec({&a});
  Scalar given = b;
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {
    checkAlpha(type, alpha);
    b = scaled(b, alpha);
  }
  Tensor ca = toType(a, type);
  Tensor r = emptyLike(a, type);
  scalarKernel(op, r, ca, b);
  if (rec && isFloating(type) && isDifferentiable(op)) derivatives::binary(op, a, given, alpha, r);
  return r;
}

Tensor binary(BinaryOp op, Scalar a, const Tensor &b) {
  ScalarType type = resultType(b, a);
  return binary(op, scalarTensor(a, type, b.device()), b);
}

void binary_(BinaryOp op, const Tensor &self, const Tensor &other, Scalar alpha) {
  ScalarType type = computeType(op, resultType(self, other));
  if (!canCast(type, self.dtype())) castError(type, self.dtype());
  checkBoolOp(op, self.dtype());
  if (op == BinaryOp::Add || op == BinaryOp::Sub) checkAlpha(self.dtype(), alpha);
  TORCH_CHECK(other.isSameSizeAs(self) || isBroadcastableTo(other.sizes(), self.sizes()), Runtime,
              "output with shape %s doesn't match the broadcast shape %s", self.sizeString().c_str(),
              shapeString(broadcastShapes(self.sizes(), other.sizes())).c_str());
  checkInplaceDevice(binaryOpName(op), self, other);
  if (isComplex(self.dtype())) {
    copy_(self, binary(op, self, other, alpha));  // computed apart: the parts of self are read twice
    return;
  }
  if (beginInplace(self, needsRecording({&self, &other}) && isFloating(self.dtype()))) {
    inplaceWithHistory(self, [&](const Tensor &before) { return binary(op, before, other, alpha); });
    return;
  }
  Tensor co = to(other, self.dtype(), self.device());
  if (!co.isSameSizeAs(self)) co = expand(co, self.sizes());
  binaryKernel(op, self, self, co, alpha);
  normalizeBool(self);
}

void binary_(BinaryOp op, const Tensor &self, Scalar other, Scalar alpha) {
  ScalarType type = computeType(op, resultType(self, other));
  if (!canCast(type, self.dtype())) castError(type, self.dtype());
  if (self.dtype() == ScalarType::Bool || isComplex(self.dtype())) {
    binary_(op, self, scalarTensor(other, self.dtype(), self.device()), alpha);
    return;
  }
  if (op == BinaryOp::Add || op == BinaryOp::Sub) checkAlpha(self.dtype(), alpha);
  if (beginInplace(self, needsRecording({&self}) && isFloating(self.dtype()))) {
    inplaceWithHistory(self, [&](const Tensor &before) { return binary(op, before, other, alpha); });
    return;
  }
  if (op == BinaryOp::Add || op == BinaryOp::Sub) other = scaled(other, alpha);
  scalarKernel(op, self, self, other);
}

// ---- division with a rounding mode ----

// Note [Rounding division]: torch.div's rounding_mode. On floating types the quotient is
// rounded by the Trunc and Floor unary ops, so autograd sees piecewise-constant functions
// and gives zero gradients, as PyTorch does. On integers 'floor' is FloorDiv and 'trunc' is
// TH's own integer div (C's truncation; MIN / -1 wraps, Note [Integer wrap-around]); both
// refuse a zero divisor.
namespace {

template <typename Other>
Tensor divideRounded(const Tensor &a, const Other &b, RoundingMode mode) {
  if (mode == RoundingMode::None) return binary(BinaryOp::Div, a, b);
  const ScalarType type = resultType(a, b);
  const UnaryOp round = mode == RoundingMode::Trunc ? UnaryOp::Trunc : UnaryOp::Floor;
  if (isFloating(type)) return unary(round, binary(BinaryOp::Div, a, b));
  if (mode == RoundingMode::Floor) return binary(BinaryOp::FloorDiv, a, b);
  checkBoolOp(BinaryOp::Div, type);
  Tensor ca = toType(a, type);
  if constexpr (std::is_same_v<Other, Tensor>) {
    IntList shape = a.isSameSizeAs(b) ? a.sizes() : broadcastShapes(a.sizes(), b.sizes());
    Device device = resultDevice("div", a, b);
    ca = to(ca, type, device);
    Tensor cb = to(b, type, device);
    if (!ca.hasSizes(shape)) ca = expand(ca, shape);
    if (!cb.hasSizes(shape)) cb = expand(cb, shape);
    Tensor r = empty(shape, type, device);
    binaryKernel(BinaryOp::Div, r, ca, cb, Scalar(int64_t(1)));
    return r;
  } else {
    Tensor r = emptyLike(a, type);
    scalarKernel(BinaryOp::Div, r, ca, b);
    return r;
  }
}

template <typename Other>
void divideRounded_(const Tensor &self, const Other &other, RoundingMode mode) {
  if (mode == RoundingMode::None || isFloating(self.dtype())) {
    binary_(BinaryOp::Div, self, other);
    if (mode != RoundingMode::None) unary_(mode == RoundingMode::Trunc ? UnaryOp::Trunc : UnaryOp::Floor, self);
    return;
  }
  if (mode == RoundingMode::Floor) return binary_(BinaryOp::FloorDiv, self, other);
  const ScalarType type = resultType(self, other);
  if (!canCast(type, self.dtype())) castError(type, self.dtype());
  checkBoolOp(BinaryOp::Div, self.dtype());
  if constexpr (std::is_same_v<Other, Tensor>) {
    TORCH_CHECK(other.isSameSizeAs(self) || isBroadcastableTo(other.sizes(), self.sizes()), Runtime,
                "output with shape %s doesn't match the broadcast shape %s", self.sizeString().c_str(),
                shapeString(broadcastShapes(self.sizes(), other.sizes())).c_str());
    checkInplaceDevice("div_", self, other);
    beginInplace(self, false);
    Tensor co = to(other, self.dtype(), self.device());
    if (!co.isSameSizeAs(self)) co = expand(co, self.sizes());
    binaryKernel(BinaryOp::Div, self, self, co, Scalar(int64_t(1)));
  } else {
    beginInplace(self, false);
    scalarKernel(BinaryOp::Div, self, self, other);
  }
}

}  // namespace

Tensor divide(const Tensor &a, const Tensor &b, RoundingMode mode) { return divideRounded(a, b, mode); }
Tensor divide(const Tensor &a, Scalar b, RoundingMode mode) { return divideRounded(a, b, mode); }
void divide_(const Tensor &self, const Tensor &other, RoundingMode mode) { divideRounded_(self, other, mode); }
void divide_(const Tensor &self, Scalar other, RoundingMode mode) { divideRounded_(self, other, mode); }

// ---- comparisons ----

namespace {

// r (a Bool mask, or of a's type) = a op b.
void compareKernel(CompareOp op, const Tensor &r, const Tensor &a, const Tensor &b) {
  pointwiseKernels().compare.find(static_cast<int>(op), r.device(), a.dtype(), compareOpName(op))(r, a, b);
}

void compareScalarKernel(CompareOp op, const Tensor &r, const Tensor &a, Scalar b) {
  pointwiseKernels().compareScalar.find(static_cast<int>(op), r.device(), a.dtype(), compareOpName(op))(r, a, b);
}

}  // namespace

Tensor compare(CompareOp op, const Tensor &a, const Tensor &b) {
  ScalarType type = resultType(a, b);
  if (isComplex(type)) return complexCompare(op, a, b, type);
  IntList shape = a.isSameSizeAs(b) ? a.sizes() : broadcastShapes(a.sizes(), b.sizes());
  Device device = resultDevice(compareOpName(op), a, b);
  Tensor ca = to(a, type, device), cb = to(b, type, device);
  if (!ca.hasSizes(shape)) ca = expand(ca, shape);
  if (!cb.hasSizes(shape)) cb = expand(cb, shape);
  Tensor r = empty(shape, ScalarType::Bool, device);
  compareKernel(op, r, ca, cb);
  return r;
}

Tensor compare(CompareOp op, const Tensor &a, Scalar b) {
  ScalarType type = resultType(a, b);
  if (isComplex(type)) return complexCompare(op, a, scalarTensor(b, type, a.device()), type);
  Tensor ca = toType(a, type);
  Tensor r = emptyLike(a, ScalarType::Bool);
  compareScalarKernel(op, r, ca, b);
  return r;
}

void compare_(CompareOp op, const Tensor &self, const Tensor &other) {
  TORCH_CHECK(other.isSameSizeAs(self) || isBroadcastableTo(other.sizes(), self.sizes()), Runtime,
              "output with shape %s doesn't match the broadcast shape %s", self.sizeString().c_str(),
              shapeString(broadcastShapes(self.sizes(), other.sizes())).c_str());
  checkInplaceDevice(compareOpName(op), self, other);
  if (beginInplace(self, GradMode::enabled() && requiresGrad(self))) {
    inplaceWithHistory(self, [&](const Tensor &before) { return compare(op, before, other); });
    return;
  }
  Tensor co = to(other, self.dtype(), self.device());
  if (!co.isSameSizeAs(self)) co = expand(co, self.sizes());
  compareKernel(op, self, self, co);
}

void compare_(CompareOp op, const Tensor &self, Scalar other) {
  compare_(op, self, scalarTensor(other, resultType(self, other), self.device()));
}

// ---- unary ----

namespace {

// The ops of the Floating rows: integer and Bool inputs compute in the default float type.
bool isFloatingOp(UnaryOp op) {
  static const bool floating[] = {
#define TORCH_FLOATING_All false
#define TORCH_FLOATING_Floating true
#define TORCH_FLOATING_Integral false
#define TORCH_UNARY_FLOATING(Op, torch, th, Types, ...) TORCH_FLOATING_##Types,
      TH_FORALL_UNARY_OPS(TORCH_UNARY_FLOATING)
#undef TORCH_UNARY_FLOATING
#undef TORCH_FLOATING_All
#undef TORCH_FLOATING_Floating
#undef TORCH_FLOATING_Integral
  };
  return floating[static_cast<int>(op)];
}

void unaryKernel(UnaryOp op, const Tensor &r, const Tensor &t) {
  pointwiseKernels().unary.find(static_cast<int>(op), r.device(), r.dtype(), unaryOpName(op))(r, t);
}

ScalarType unaryType(UnaryOp op, ScalarType t) {
  if (t == ScalarType::Bool) {
    TORCH_CHECK(op != UnaryOp::Neg, Type,
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
                "mask, use the `~` or `logical_not()` operator instead.");
  }
  return isFloatingOp(op) ? floatingResult(t) : t;
}

}  // namespace

Tensor unary(UnaryOp op, const Tensor &t) {
  if (op == UnaryOp::BitwiseNot && t.dtype() == ScalarType::Bool) return logicalNot(t);  // bytes hold 0/1
  if (isComplex(t.dtype())) return complexUnary(op, t);
  RecordScope rec({&t});
  ScalarType type = unaryType(op, t.dtype());
  Tensor ct = toType(t, type);
  Tensor r = emptyLike(t, type);
  unaryKernel(op, r, ct);
  if (rec && isFloating(type)) derivatives::unary(op, t, r);
  return r;
}

void unary_(UnaryOp op, const Tensor &t) {
  if (op == UnaryOp::BitwiseNot && t.dtype() == ScalarType::Bool) {
    compare_(CompareOp::Eq, t, Scalar(int64_t(0)));
    return;
  }
  if (isComplex(t.dtype())) {
    Tensor r = complexUnary(op, t);
    if (r.dtype() != t.dtype()) castError(r.dtype(), t.dtype());
    copy_(t, r);
    return;
  }
  ScalarType type = unaryType(op, t.dtype());
  if (type != t.dtype()) castError(type, t.dtype());
  if (beginInplace(t, needsRecording({&t}))) {
    inplaceWithHistory(t, [&](const Tensor &before) { return unary(op, before); });
    return;
  }
  unaryKernel(op, t, t);
}

// ---- clamp, addcmul, addcdiv, lerp, logical ----

namespace {

ScalarType clampType(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max) {
  TORCH_CHECK(min || max, Value, "At least one of 'min' or 'max' must not be None");
  ScalarType type = t.dtype();
  if (min) type = promoteTypes(type, resultType(t, *min));
  if (max) type = promoteTypes(type, resultType(t, *max));
  return type;
}

}  // namespace

Tensor clamp(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max) {
  RecordScope rec({&t});
  ScalarType type = clampType(t, min, max);
  Tensor ct = toType(t, type);
  Tensor r = emptyLike(t, type);
  mathKernels().clamp(ct.device(), type, r, ct, min, max);
  if (rec && isFloating(type)) derivatives::clamp(t, min, max, r);
  return r;
}

void clamp_(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max) {
  ScalarType type = clampType(t, min, max);
  if (!canCast(type, t.dtype())) castError(type, t.dtype());
  if (beginInplace(t, needsRecording({&t}))) {
    inplaceWithHistory(t, [&](const Tensor &before) { return clamp(before, min, max); });
    return;
  }
  mathKernels().clamp(t.device(), t.dtype(), t, t, min, max);
}

// Composed of recorded ops (the bounds need gradients, which the clamp kernel cannot give):
// the lower bound first, then the upper, so that where the bounds cross the upper wins, as in
// PyTorch; at a tie the input keeps the gradient.
Tensor clamp(const Tensor &t, const std::optional<Tensor> &min, const std::optional<Tensor> &max) {
  TORCH_CHECK(min || max, Value, "At least one of 'min' or 'max' must not be None");
  ScalarType type = t.dtype();
  if (min) type = promoteTypes(type, resultType(t, *min));
  if (max) type = promoteTypes(type, resultType(t, *max));
  Tensor r = toType(t, type);
  if (min) {
    Tensor low = toType(*min, type);
    r = where(compare(CompareOp::Lt, r, low), low, r);
  }
  if (max) {
    Tensor high = toType(*max, type);
    r = where(compare(CompareOp::Gt, r, high), high, r);
  }
  return r;
}

void clamp_(const Tensor &t, const std::optional<Tensor> &min, const std::optional<Tensor> &max) {
  Tensor r = clamp(t, min, max);
  if (!canCast(r.dtype(), t.dtype())) castError(r.dtype(), t.dtype());
  TORCH_CHECK(r.sizes() == t.sizes(), Runtime, "output with shape %s doesn't match the broadcast shape %s",
              t.sizeString().c_str(), r.sizeString().c_str());
  copy_(t, r);
}

namespace {

// self + value * t1 (op) t2 into r (which may be self), all broadcast to r's shape.
void addcop(bool divide, const Tensor &r, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  IntList shape = r.sizes();
  auto prep = [&](const Tensor &x) {
    Tensor c = to(x, r.dtype(), r.device());
    return c.sizes() == shape ? c : expand(c, shape);
  };
  Tensor cs = prep(self), c1 = prep(t1), c2 = prep(t2);
  checkAlpha(r.dtype(), value);
  (divide ? mathKernels().addcdiv : mathKernels().addcmul)(r.device(), r.dtype(), r, cs, value, c1, c2);
}

Tensor addcopOut(bool divide, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  RecordScope rec({&self, &t1, &t2});
  ScalarType type = promoteTypes(resultType(self, t1), resultType(self, t2));
  if (divide) type = floatingResult(type);
  IntList shape = broadcastShapes(self.sizes(), broadcastShapes(t1.sizes(), t2.sizes()));
  Tensor r = empty(shape, type, resultDevice(divide ? "addcdiv" : "addcmul", {&self, &t1, &t2}));
  addcop(divide, r, self, t1, t2, value);
  if (rec && isFloating(type)) derivatives::addcop(divide, self, t1, t2, value, r);
  return r;
}

void addcopInPlace(bool divide, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  ScalarType type = promoteTypes(resultType(self, t1), resultType(self, t2));
  if (divide) type = floatingResult(type);
  if (!canCast(type, self.dtype())) castError(type, self.dtype());
  IntList shape = broadcastShapes(self.sizes(), broadcastShapes(t1.sizes(), t2.sizes()));
  TORCH_CHECK(shape == self.sizes(), Runtime, "output with shape %s doesn't match the broadcast shape %s",
              self.sizeString().c_str(), shapeString(shape).c_str());
  checkInplaceDevice(divide ? "addcdiv_" : "addcmul_", self, t1);
  checkInplaceDevice(divide ? "addcdiv_" : "addcmul_", self, t2);
  if (beginInplace(self, needsRecording({&self, &t1, &t2}))) {
    inplaceWithHistory(self, [&](const Tensor &before) { return addcopOut(divide, before, t1, t2, value); });
    return;
  }
  addcop(divide, self, self, t1, t2, value);
}

}  // namespace

Tensor addcmul(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  return addcopOut(false, self, t1, t2, value);
}
Tensor addcdiv(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  return addcopOut(true, self, t1, t2, value);
}
void addcmul_(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  addcopInPlace(false, self, t1, t2, value);
}
void addcdiv_(const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  addcopInPlace(true, self, t1, t2, value);
}

Tensor lerp(const Tensor &a, const Tensor &b, Scalar weight) {
  RecordScope rec({&a, &b});
  Tensor r = clone(expand(a, broadcastShapes(a.sizes(), b.sizes())));
  lerp_(r, b, weight);
  if (rec) derivatives::lerp(a, b, weight, r);
  return r;
}

void lerp_(const Tensor &a, const Tensor &b, Scalar weight) {
  TORCH_CHECK(a.dtype() == b.dtype(), Type, "lerp: expected dtype %s for `end` but got dtype %s",
              scalarTypeName(a.dtype()), scalarTypeName(b.dtype()));
  TORCH_CHECK(isBroadcastableTo(b.sizes(), a.sizes()), Runtime,
              "output with shape %s doesn't match the broadcast shape %s", a.sizeString().c_str(),
              shapeString(broadcastShapes(a.sizes(), b.sizes())).c_str());
  checkInplaceDevice("lerp_", a, b);
  if (beginInplace(a, needsRecording({&a, &b}))) {
    inplaceWithHistory(a, [&](const Tensor &before) { return lerp(before, b, weight); });
    return;
  }
  Tensor onA = to(b, b.dtype(), a.device());
  Tensor cb = onA.sizes() == a.sizes() ? onA : expand(onA, a.sizes());
  mathKernels().lerp(a.device(), a.dtype(), a, a, cb, weight);
}

// PyTorch's two-sided formula (exact at weight 1), composed of recorded ops so that the
// weight gets a gradient.
Tensor lerp(const Tensor &a, const Tensor &b, const Tensor &weight) {
  TORCH_CHECK(a.dtype() == b.dtype(), Type, "lerp: expected dtype %s for `end` but got dtype %s",
              scalarTypeName(a.dtype()), scalarTypeName(b.dtype()));
  TORCH_CHECK(a.dtype() == weight.dtype(), Type, "lerp: expected dtype %s for `weight` but got dtype %s",
              scalarTypeName(a.dtype()), scalarTypeName(weight.dtype()));
  TORCH_CHECK(isFloating(a.dtype()), Type, "lerp: expected a floating point tensor, got %s", scalarTypeName(a.dtype()));
  Tensor diff = binary(BinaryOp::Sub, b, a);
  Tensor nearStart = compare(CompareOp::Lt, unary(UnaryOp::Abs, weight), Scalar(0.5));
  Tensor fromStart = binary(BinaryOp::Add, a, binary(BinaryOp::Mul, weight, diff));
  Tensor fromEnd = binary(BinaryOp::Sub, b, binary(BinaryOp::Mul, diff, binary(BinaryOp::Sub, Scalar(1.0), weight)));
  return where(nearStart, fromStart, fromEnd);
}

void lerp_(const Tensor &a, const Tensor &b, const Tensor &weight) {
  Tensor r = lerp(a, b, weight);
  TORCH_CHECK(r.sizes() == a.sizes(), Runtime, "output with shape %s doesn't match the broadcast shape %s",
              a.sizeString().c_str(), r.sizeString().c_str());
  copy_(a, r);
}

Tensor logicalNot(const Tensor &t) { return compare(CompareOp::Eq, t, Scalar(int64_t(0))); }

Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b) {
  ScalarType type = resultType(a, b);
  if (isComplex(type)) {  // chosen element by element: both parts together
    Device device = resultDevice("where", {&cond, &a, &b});
    return viewAsComplex(contiguous(where(unsqueeze(toType(cond, ScalarType::Bool), -1),
                                          viewAsReal(to(a, type, device)), viewAsReal(to(b, type, device)))));
  }
  RecordScope rec({&a, &b});
  IntList shape = broadcastShapes(cond.sizes(), broadcastShapes(a.sizes(), b.sizes()));
  Device device = resultDevice("where", {&cond, &a, &b});
  Tensor c = toType(cond, ScalarType::Bool);
  auto prep = [&](const Tensor &x, ScalarType t) {
    Tensor y = to(x, t, device);
    return y.sizes() == shape ? y : expand(y, shape);
  };
  Tensor cc = prep(c, ScalarType::Bool), ca = prep(a, type), cb = prep(b, type);
  Tensor r = empty(shape, type, device);
  mathKernels().where(r.device(), type, r, cc, ca, cb);
  if (rec && isFloating(type)) derivatives::where(c, a, b, r);
  return r;
}

}  // namespace torch
