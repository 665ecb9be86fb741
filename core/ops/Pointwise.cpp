#include "core/ops/Pointwise.h"

#include <cmath>

#include "autograd/Derivatives.h"

namespace torch {

namespace {

// bool < integer < floating
int category(ScalarType t) { return t == ScalarType::Bool ? 0 : isFloating(t) ? 2 : 1; }
int category(Scalar s) { return s.isBool() ? 0 : s.isFloating() ? 2 : 1; }

[[noreturn]] void castError(ScalarType from, ScalarType to) {
  fail(th::ErrorKind::Runtime, "result type %s can't be cast to the desired output type %s", scalarTypeName(from),
       scalarTypeName(to));
}

bool isBoolOrInt(ScalarType t) { return !isFloating(t); }

// The type a floating-only op computes in for an input of type t.
ScalarType floatingResult(ScalarType t) { return isFloating(t) ? t : defaultFloatType(); }

}  // namespace

ScalarType resultType(const Tensor &a, const Tensor &b) {
  bool aDims = a.dim() > 0, bDims = b.dim() > 0;
  if (aDims == bDims) return promoteTypes(a.dtype(), b.dtype());
  const Tensor &dimmed = aDims ? a : b;
  const Tensor &zeroDim = aDims ? b : a;
  return category(zeroDim.dtype()) > category(dimmed.dtype()) ? zeroDim.dtype() : dimmed.dtype();
}

ScalarType resultType(const Tensor &a, Scalar b) {
  if (category(b) <= category(a.dtype())) return a.dtype();
  return b.isFloating() ? defaultFloatType() : ScalarType::Long;
}

bool canCast(ScalarType from, ScalarType to) {
  if (isFloating(from) && !isFloating(to)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

const char *binaryOpName(BinaryOp op) {
  static const char *names[] = {"add", "sub", "mul", "div", "floor_divide", "pow", "fmod", "remainder", "atan2",
                                "maximum", "minimum"};
  return names[static_cast<int>(op)];
}

namespace {

// The type op computes in, from the promoted type of its operands.
ScalarType computeType(BinaryOp op, ScalarType promoted) {
  if (op == BinaryOp::Div || op == BinaryOp::Atan2) return floatingResult(promoted);
  return promoted;
}

void checkBoolOp(BinaryOp op, ScalarType t) {
  if (t != ScalarType::Bool) return;
  bool allowed = op == BinaryOp::Add || op == BinaryOp::Mul || op == BinaryOp::Maximum || op == BinaryOp::Minimum;
  TORCH_CHECK(allowed, Type, "%s is not supported for bool tensors", binaryOpName(op));
}

void checkAlpha(ScalarType t, Scalar alpha) {
  TORCH_CHECK(isFloating(t) || !alpha.isFloating(), Type,
              "For integral input tensors, argument alpha must not be a floating point number.");
}

// Bool results computed on bytes: anything non-zero is true.
void normalizeBool(const Tensor &r) {
  if (r.dtype() == ScalarType::Bool) TH<uint8_t>::neValue(r.th<uint8_t>(), r.th<uint8_t>(), 0);
}

template <typename T>
void floorDivideKernel(typename TH<T>::Tensor *r, typename TH<T>::Tensor *a, typename TH<T>::Tensor *b) {
  th::apply(
      [](T &y, const T &x, const T &z) {
        if constexpr (std::is_floating_point_v<T>) {
          y = std::floor(x / z);
        } else {
          if (z == 0) THError("ZeroDivisionError: integer division by zero");
          T q = x / z;
          if ((x % z != 0) && ((x < 0) != (z < 0))) q -= 1;
          y = q;
        }
      },
      th::ref(r), th::ref(a), th::ref(b));
}

// r = a op b for tensors of one type T and one shape (r may be a).
template <typename T>
void binaryKernel(BinaryOp op, typename TH<T>::Tensor *r, typename TH<T>::Tensor *a, typename TH<T>::Tensor *b,
                  Scalar alpha) {
  switch (op) {
    case BinaryOp::Add: TH<T>::cadd(r, a, alpha.to<T>(), b); break;
    case BinaryOp::Sub: TH<T>::csub(r, a, alpha.to<T>(), b); break;
    case BinaryOp::Mul: TH<T>::cmul(r, a, b); break;
    case BinaryOp::Div: TH<T>::cdiv(r, a, b); break;
    case BinaryOp::FloorDiv:
      // Check integer division by zero before any write: r may be a.
      if constexpr (!std::is_floating_point_v<T>) {
        TH<T>::resizeAs(r, a);
      }
      floorDivideKernel<T>(r, a, b);
      break;
    case BinaryOp::Pow: TH<T>::cpow(r, a, b); break;
    case BinaryOp::Fmod: TH<T>::cfmod(r, a, b); break;
    case BinaryOp::Remainder: TH<T>::cremainder(r, a, b); break;
    case BinaryOp::Atan2:
      if constexpr (std::is_floating_point_v<T>) {
        TH<T>::atan2(r, a, b);
      }
      break;
    case BinaryOp::Maximum: TH<T>::cmax(r, a, b); break;
    case BinaryOp::Minimum: TH<T>::cmin(r, a, b); break;
  }
}

// r = a op value.
template <typename T>
void scalarKernel(BinaryOp op, typename TH<T>::Tensor *r, typename TH<T>::Tensor *a, Scalar value) {
  T v = value.to<T>();
  switch (op) {
    case BinaryOp::Add: TH<T>::add(r, a, v); break;
    case BinaryOp::Sub: TH<T>::sub(r, a, v); break;
    case BinaryOp::Mul: TH<T>::mul(r, a, v); break;
    case BinaryOp::Div: TH<T>::div(r, a, v); break;
    case BinaryOp::Pow: TH<T>::pow(r, a, v); break;
    case BinaryOp::Fmod: TH<T>::fmod(r, a, v); break;
    case BinaryOp::Remainder: TH<T>::remainder(r, a, v); break;
    case BinaryOp::Maximum: TH<T>::cmaxValue(r, a, v); break;
    case BinaryOp::Minimum: TH<T>::cminValue(r, a, v); break;
    case BinaryOp::FloorDiv:
    case BinaryOp::Atan2: fail(th::ErrorKind::Runtime, "internal: %s has no scalar kernel", binaryOpName(op));
  }
}

bool hasScalarKernel(BinaryOp op) { return op != BinaryOp::FloorDiv && op != BinaryOp::Atan2; }

// alpha * b folded into one value (a + alpha * b with a scalar b).
Scalar scaled(Scalar b, Scalar alpha) {
  if (b.isFloating() || alpha.isFloating()) return Scalar(b.d * alpha.d);
  return Scalar(b.i * alpha.i);
}

}  // namespace

Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha) {
  RecordScope rec({&a, &b});
  ScalarType type = computeType(op, resultType(a, b));
  checkBoolOp(op, type);
  if (op == BinaryOp::Add || op == BinaryOp::Sub) checkAlpha(type, alpha);
  IntList shape = a.isSameSizeAs(b) ? a.sizes() : broadcastShapes(a.sizes(), b.sizes());
  Tensor ca = toType(a, type), cb = toType(b, type);
  if (!ca.hasSizes(shape)) ca = expand(ca, shape);
  if (!cb.hasSizes(shape)) cb = expand(cb, shape);
  Tensor r = empty(shape, type);
  dispatchArith(type, binaryOpName(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    binaryKernel<T>(op, r.th<T>(), ca.th<T>(), cb.th<T>(), alpha);
  });
  normalizeBool(r);
  if (rec && isFloating(type) && op != BinaryOp::FloorDiv) derivatives::binary(op, a, b, alpha, r);
  return r;
}

Tensor binary(BinaryOp op, const Tensor &a, Scalar b, Scalar alpha) {
  ScalarType type = computeType(op, resultType(a, b));
  if (!hasScalarKernel(op) || type == ScalarType::Bool) return binary(op, a, scalarTensor(b, type), alpha);
  RecordScope rec({&a});
  Scalar given = b;
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {
    checkAlpha(type, alpha);
    b = scaled(b, alpha);
  }
  Tensor ca = toType(a, type);
  Tensor r = empty(a.sizes(), type);
  dispatchArith(type, binaryOpName(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    scalarKernel<T>(op, r.th<T>(), ca.th<T>(), b);
  });
  if (rec && isFloating(type)) derivatives::binary(op, a, given, alpha, r);
  return r;
}

Tensor binary(BinaryOp op, Scalar a, const Tensor &b) {
  ScalarType type = resultType(b, a);
  return binary(op, scalarTensor(a, type), b);
}

void binary_(BinaryOp op, const Tensor &self, const Tensor &other, Scalar alpha) {
  ScalarType type = computeType(op, resultType(self, other));
  if (!canCast(type, self.dtype())) castError(type, self.dtype());
  checkBoolOp(op, self.dtype());
  if (op == BinaryOp::Add || op == BinaryOp::Sub) checkAlpha(self.dtype(), alpha);
  TORCH_CHECK(other.isSameSizeAs(self) || isBroadcastableTo(other.sizes(), self.sizes()), Runtime,
              "output with shape %s doesn't match the broadcast shape %s", self.sizeString().c_str(),
              shapeString(broadcastShapes(self.sizes(), other.sizes())).c_str());
  bumpVersion(self);
  if (needsRecording({&self, &other}) && isFloating(self.dtype())) {
    checkInplace(self);
    inplaceWithHistory(self, [&](const Tensor &before) { return binary(op, before, other, alpha); });
    return;
  }
  Tensor co = toType(other, self.dtype());
  if (!co.isSameSizeAs(self)) co = expand(co, self.sizes());
  dispatchArith(self.dtype(), binaryOpName(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    binaryKernel<T>(op, self.th<T>(), self.th<T>(), co.th<T>(), alpha);
  });
  normalizeBool(self);
}

void binary_(BinaryOp op, const Tensor &self, Scalar other, Scalar alpha) {
  ScalarType type = computeType(op, resultType(self, other));
  if (!canCast(type, self.dtype())) castError(type, self.dtype());
  if (!hasScalarKernel(op) || self.dtype() == ScalarType::Bool) {
    binary_(op, self, scalarTensor(other, self.dtype()), alpha);
    return;
  }
  if (op == BinaryOp::Add || op == BinaryOp::Sub) checkAlpha(self.dtype(), alpha);
  bumpVersion(self);
  if (needsRecording({&self}) && isFloating(self.dtype())) {
    checkInplace(self);
    inplaceWithHistory(self, [&](const Tensor &before) { return binary(op, before, other, alpha); });
    return;
  }
  if (op == BinaryOp::Add || op == BinaryOp::Sub) other = scaled(other, alpha);
  dispatchArith(self.dtype(), binaryOpName(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    scalarKernel<T>(op, self.th<T>(), self.th<T>(), other);
  });
}

// ---- comparisons ----

namespace {

template <typename T, typename R>
void compareKernel(CompareOp op, R *r, typename TH<T>::Tensor *a, typename TH<T>::Tensor *b) {
  constexpr bool sameType = std::is_same_v<R, typename TH<T>::Tensor>;
  switch (op) {
#define TORCH_COMPARE_CASE(name, fn)                      \
  case CompareOp::name:                                   \
    if constexpr (sameType) TH<T>::fn##TensorT(r, a, b);   \
    else TH<T>::fn##Tensor(r, a, b);                       \
    break;
    TORCH_COMPARE_CASE(Lt, lt)
    TORCH_COMPARE_CASE(Le, le)
    TORCH_COMPARE_CASE(Gt, gt)
    TORCH_COMPARE_CASE(Ge, ge)
    TORCH_COMPARE_CASE(Eq, eq)
    TORCH_COMPARE_CASE(Ne, ne)
#undef TORCH_COMPARE_CASE
  }
}

template <typename T, typename R>
void compareValueKernel(CompareOp op, R *r, typename TH<T>::Tensor *a, T v) {
  constexpr bool sameType = std::is_same_v<R, typename TH<T>::Tensor>;
  switch (op) {
#define TORCH_COMPARE_CASE(name, fn)                     \
  case CompareOp::name:                                  \
    if constexpr (sameType) TH<T>::fn##ValueT(r, a, v);   \
    else TH<T>::fn##Value(r, a, v);                       \
    break;
    TORCH_COMPARE_CASE(Lt, lt)
    TORCH_COMPARE_CASE(Le, le)
    TORCH_COMPARE_CASE(Gt, gt)
    TORCH_COMPARE_CASE(Ge, ge)
    TORCH_COMPARE_CASE(Eq, eq)
    TORCH_COMPARE_CASE(Ne, ne)
#undef TORCH_COMPARE_CASE
  }
}

}  // namespace

Tensor compare(CompareOp op, const Tensor &a, const Tensor &b) {
  ScalarType type = resultType(a, b);
  IntList shape = a.isSameSizeAs(b) ? a.sizes() : broadcastShapes(a.sizes(), b.sizes());
  Tensor ca = toType(a, type), cb = toType(b, type);
  if (!ca.hasSizes(shape)) ca = expand(ca, shape);
  if (!cb.hasSizes(shape)) cb = expand(cb, shape);
  Tensor r = empty(shape, ScalarType::Bool);
  dispatchArith(type, "comparison", [&](auto tag) {
    using T = typename decltype(tag)::type;
    compareKernel<T>(op, r.th<uint8_t>(), ca.th<T>(), cb.th<T>());
  });
  return r;
}

Tensor compare(CompareOp op, const Tensor &a, Scalar b) {
  ScalarType type = resultType(a, b);
  Tensor ca = toType(a, type);
  Tensor r = empty(a.sizes(), ScalarType::Bool);
  dispatchArith(type, "comparison", [&](auto tag) {
    using T = typename decltype(tag)::type;
    compareValueKernel<T>(op, r.th<uint8_t>(), ca.th<T>(), b.to<T>());
  });
  return r;
}

void compare_(CompareOp op, const Tensor &self, const Tensor &other) {
  TORCH_CHECK(other.isSameSizeAs(self) || isBroadcastableTo(other.sizes(), self.sizes()), Runtime,
              "output with shape %s doesn't match the broadcast shape %s", self.sizeString().c_str(),
              shapeString(broadcastShapes(self.sizes(), other.sizes())).c_str());
  bumpVersion(self);
  if (GradMode::enabled() && requiresGrad(self)) {
    checkInplace(self);
    inplaceWithHistory(self, [&](const Tensor &before) { return compare(op, before, other); });
    return;
  }
  Tensor co = toType(other, self.dtype());
  if (!co.isSameSizeAs(self)) co = expand(co, self.sizes());
  dispatchArith(self.dtype(), "comparison", [&](auto tag) {
    using T = typename decltype(tag)::type;
    compareKernel<T>(op, self.th<T>(), self.th<T>(), co.th<T>());
  });
}

void compare_(CompareOp op, const Tensor &self, Scalar other) {
  compare_(op, self, scalarTensor(other, resultType(self, other)));
}

// ---- unary ----

const char *unaryOpName(UnaryOp op) {
  static const char *names[] = {"neg",   "abs",  "sign", "exp",   "log",   "log1p", "sqrt", "rsqrt",
                                "sigmoid", "tanh", "sin", "cos",   "tan",   "asin",  "acos", "atan",
                                "sinh",  "cosh", "floor", "ceil", "round", "trunc", "frac", "reciprocal"};
  return names[static_cast<int>(op)];
}

namespace {

bool isFloatingOp(UnaryOp op) { return op > UnaryOp::Sign; }

template <typename T>
void unaryKernel(UnaryOp op, typename TH<T>::Tensor *r, typename TH<T>::Tensor *t) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
#define TORCH_UNARY_CASE(name, fn) \
  case UnaryOp::name: TH<T>::fn(r, t); return;
      TORCH_UNARY_CASE(Exp, exp)
      TORCH_UNARY_CASE(Log, log)
      TORCH_UNARY_CASE(Log1p, log1p)
      TORCH_UNARY_CASE(Sqrt, sqrt)
      TORCH_UNARY_CASE(Rsqrt, rsqrt)
      TORCH_UNARY_CASE(Sigmoid, sigmoid)
      TORCH_UNARY_CASE(Tanh, tanh)
      TORCH_UNARY_CASE(Sin, sin)
      TORCH_UNARY_CASE(Cos, cos)
      TORCH_UNARY_CASE(Tan, tan)
      TORCH_UNARY_CASE(Asin, asin)
      TORCH_UNARY_CASE(Acos, acos)
      TORCH_UNARY_CASE(Atan, atan)
      TORCH_UNARY_CASE(Sinh, sinh)
      TORCH_UNARY_CASE(Cosh, cosh)
      TORCH_UNARY_CASE(Floor, floor)
      TORCH_UNARY_CASE(Ceil, ceil)
      TORCH_UNARY_CASE(Trunc, trunc)
      TORCH_UNARY_CASE(Frac, frac)
      TORCH_UNARY_CASE(Reciprocal, cinv)
#undef TORCH_UNARY_CASE
      case UnaryOp::Round:
        // Halves to even, like PyTorch and numpy (TH's round goes away from zero).
        TH<T>::resizeAs(r, t);
        th::apply([](T &y, const T &x) { y = std::nearbyint(x); }, th::ref(r), th::ref(t));
        return;
      default: break;
    }
  }
  switch (op) {
    case UnaryOp::Neg:
      if constexpr (std::is_same_v<T, uint8_t>) {
        TH<T>::mul(r, t, T(255));  // wraps around like the other integer types
      } else {
        TH<T>::neg(r, t);
      }
      return;
    case UnaryOp::Abs:
      if constexpr (std::is_same_v<T, uint8_t>) {
        TH<T>::resizeAs(r, t);
        TH<T>::copy(r, t);
      } else {
        TH<T>::abs(r, t);
      }
      return;
    case UnaryOp::Sign: TH<T>::sign(r, t); return;
    default: fail(th::ErrorKind::Runtime, "internal: %s has no kernel for this type", unaryOpName(op));
  }
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
  RecordScope rec({&t});
  ScalarType type = unaryType(op, t.dtype());
  Tensor ct = toType(t, type);
  Tensor r = empty(t.sizes(), type);
  dispatchArith(type, unaryOpName(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    unaryKernel<T>(op, r.th<T>(), ct.th<T>());
  });
  if (rec && isFloating(type)) derivatives::unary(op, t, r);
  return r;
}

void unary_(UnaryOp op, const Tensor &t) {
  ScalarType type = unaryType(op, t.dtype());
  if (type != t.dtype()) castError(type, t.dtype());
  bumpVersion(t);
  if (needsRecording({&t})) {
    checkInplace(t);
    inplaceWithHistory(t, [&](const Tensor &before) { return unary(op, before); });
    return;
  }
  dispatchArith(type, unaryOpName(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    unaryKernel<T>(op, t.th<T>(), t.th<T>());
  });
}

// ---- clamp, addcmul, addcdiv, lerp, logical ----

namespace {

template <typename T>
void clampKernel(typename TH<T>::Tensor *r, typename TH<T>::Tensor *t, std::optional<Scalar> min,
                 std::optional<Scalar> max) {
  if (min && max) {
    TH<T>::clamp(r, t, min->to<T>(), max->to<T>());
  } else if (min) {
    TH<T>::cmaxValue(r, t, min->to<T>());
  } else {
    TH<T>::cminValue(r, t, max->to<T>());
  }
}

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
  Tensor r = empty(t.sizes(), type);
  dispatchArith(type, "clamp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    clampKernel<T>(r.th<T>(), ct.th<T>(), min, max);
  });
  if (rec && isFloating(type)) derivatives::clamp(t, min, max, r);
  return r;
}

void clamp_(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max) {
  ScalarType type = clampType(t, min, max);
  if (!canCast(type, t.dtype())) castError(type, t.dtype());
  bumpVersion(t);
  if (needsRecording({&t})) {
    checkInplace(t);
    inplaceWithHistory(t, [&](const Tensor &before) { return clamp(before, min, max); });
    return;
  }
  dispatchArith(t.dtype(), "clamp_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    clampKernel<T>(t.th<T>(), t.th<T>(), min, max);
  });
}

namespace {

// self + value * t1 (op) t2 into r (which may be self), all broadcast to r's shape.
void addcop(bool divide, const Tensor &r, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  IntList shape = r.sizes();
  auto prep = [&](const Tensor &x) {
    Tensor c = toType(x, r.dtype());
    return c.sizes() == shape ? c : expand(c, shape);
  };
  Tensor cs = prep(self), c1 = prep(t1), c2 = prep(t2);
  checkAlpha(r.dtype(), value);
  dispatchArith(r.dtype(), divide ? "addcdiv" : "addcmul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (divide) {
      TH<T>::addcdiv(r.th<T>(), cs.th<T>(), value.to<T>(), c1.th<T>(), c2.th<T>());
    } else {
      TH<T>::addcmul(r.th<T>(), cs.th<T>(), value.to<T>(), c1.th<T>(), c2.th<T>());
    }
  });
}

Tensor addcopOut(bool divide, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value) {
  RecordScope rec({&self, &t1, &t2});
  ScalarType type = promoteTypes(resultType(self, t1), resultType(self, t2));
  if (divide) type = floatingResult(type);
  IntList shape = broadcastShapes(self.sizes(), broadcastShapes(t1.sizes(), t2.sizes()));
  Tensor r = empty(shape, type);
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
  bumpVersion(self);
  if (needsRecording({&self, &t1, &t2})) {
    checkInplace(self);
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
  bumpVersion(a);
  if (needsRecording({&a, &b})) {
    checkInplace(a);
    inplaceWithHistory(a, [&](const Tensor &before) { return lerp(before, b, weight); });
    return;
  }
  Tensor cb = b.sizes() == a.sizes() ? b : expand(b, a.sizes());
  dispatchFloating(a.dtype(), "lerp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::lerp(a.th<T>(), a.th<T>(), cb.th<T>(), weight.to<T>());
  });
}

Tensor logicalNot(const Tensor &t) { return compare(CompareOp::Eq, t, Scalar(int64_t(0))); }

Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b) {
  RecordScope rec({&a, &b});
  ScalarType type = resultType(a, b);
  IntList shape = broadcastShapes(cond.sizes(), broadcastShapes(a.sizes(), b.sizes()));
  Tensor c = toType(cond, ScalarType::Bool);
  auto prep = [&](const Tensor &x, ScalarType t) {
    Tensor y = toType(x, t);
    return y.sizes() == shape ? y : expand(y, shape);
  };
  Tensor cc = prep(c, ScalarType::Bool), ca = prep(a, type), cb = prep(b, type);
  Tensor r = empty(shape, type);
  dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    th::apply([](T &y, const uint8_t &m, const T &x, const T &z) { y = m ? x : z; }, th::ref(r.th<T>()),
              th::ref(cc.th<uint8_t>()), th::ref(ca.th<T>()), th::ref(cb.th<T>()));
  });
  if (rec && isFloating(type)) derivatives::where(c, a, b, r);
  return r;
}

}  // namespace torch
