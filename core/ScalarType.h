// Element types of the core tensor. Every type but Bool, BFloat16 and the complex ones is a TH
// type; Bool is stored as bytes (0 or 1) and runs on the Byte kernels, so a mask is a Bool
// tensor without a ninth TH instantiation; a complex tensor is stored in its real type's TH
// storage (Note [Complex tensors] in core/ops/Complex.h); BFloat16 in Half's (Note [BFloat16
// on Half's storage] in core/BFloat16.h).
#ifndef TORCH_SCALAR_TYPE_H
#define TORCH_SCALAR_TYPE_H

#include <cstdint>
#include <string>

#include "TH/THTypes.hpp"

namespace torch {

// TH's types (Note [The type table] in TH/THGeneral.h), in its order, then Bool, then the
// complex types (complex64 and complex128; complex32 is not provided), then BFloat16.
enum class ScalarType : int8_t {
#define TORCH_ENUM_ENTRY(Name, T, dtype) Name,
  TH_FORALL_TYPES(TORCH_ENUM_ENTRY)
#undef TORCH_ENUM_ENTRY
      Bool,
  ComplexFloat,
  ComplexDouble,
  BFloat16,
};
constexpr int kNumScalarTypes = th::kNumTypes + 4;

inline bool isComplex(ScalarType t) { return t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble; }
// Float for ComplexFloat, Double for ComplexDouble; other types are their own.
inline ScalarType toRealType(ScalarType t) {
  return t == ScalarType::ComplexFloat ? ScalarType::Float : t == ScalarType::ComplexDouble ? ScalarType::Double : t;
}
// ComplexDouble for Double, ComplexFloat for every other type (PyTorch's rule for int -> complex).
inline ScalarType toComplexType(ScalarType t) {
  return t == ScalarType::Double || t == ScalarType::ComplexDouble ? ScalarType::ComplexDouble
                                                                   : ScalarType::ComplexFloat;
}

// The TH type whose storage and header a ScalarType uses (Byte for Bool, the real type for a
// complex type, Half for BFloat16).
inline th::Type thType(ScalarType t) {
  return t == ScalarType::Bool       ? th::Type::Byte
         : t == ScalarType::BFloat16 ? th::Type::Half
                                     : static_cast<th::Type>(toRealType(t));
}

const char *scalarTypeName(ScalarType t);  // "Float", "Bool", ...
const char *dtypeName(ScalarType t);       // "float32", "bool", ...
size_t elementSize(ScalarType t);
inline bool isFloating(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || t == ScalarType::Float || t == ScalarType::Double;
}
// The 16-bit floating types, which the CPU stores but computes in float (Note [Half through
// Float] in core/Dispatch.h).
inline bool isReducedFloat(ScalarType t) { return t == ScalarType::Half || t == ScalarType::BFloat16; }
// The types of the floating-point kernel families (Types::Floating in core/Dispatch.h): Float,
// Double, and BFloat16 through Float.
inline bool hasFloatingKernels(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::BFloat16;
}
inline bool isIntegral(ScalarType t) { return !isFloating(t) && !isComplex(t) && t != ScalarType::Bool; }
// Types whose tensors may require gradients.
inline bool isDifferentiable(ScalarType t) { return isFloating(t) || isComplex(t); }

// The type both operands of a binary op are converted to (PyTorch's promotion lattice:
// bool < integers < floating, wider wins, uint8 with int8 gives int16).
ScalarType promoteTypes(ScalarType a, ScalarType b);

// A number from the user: integral, floating, complex or boolean, kept exactly until it is
// converted to an element type (a complex one to a real type gives its real part).
struct Scalar {
  enum class Kind : int8_t { Bool, Int, Float, Complex } kind = Kind::Int;
  int64_t i = 0;
  double d = 0;     // the value, or a complex value's real part
  double imag = 0;  // a complex value's imaginary part
  Scalar() = default;
  Scalar(int v) : kind(Kind::Int), i(v), d(v) {}
  Scalar(int64_t v) : kind(Kind::Int), i(v), d(static_cast<double>(v)) {}
  Scalar(double v) : kind(Kind::Float), i(static_cast<int64_t>(v)), d(v) {}
  static Scalar boolean(bool v) {
    Scalar s(static_cast<int64_t>(v));
    s.kind = Kind::Bool;
    return s;
  }
  static Scalar complex(double re, double im) {
    Scalar s(re);
    s.kind = Kind::Complex;
    s.imag = im;
    return s;
  }
  bool isFloating() const { return kind == Kind::Float; }
  bool isComplex() const { return kind == Kind::Complex; }
  bool isBool() const { return kind == Kind::Bool; }
  // Whether the number is 0 (0 + 0i for a complex one), as Note [beta zero] asks.
  bool isZero() const { return kind == Kind::Complex ? d == 0 && imag == 0 : kind == Kind::Float ? d == 0 : i == 0; }
  // The element type a tensor made from this number alone gets.
  ScalarType naturalType(ScalarType defaultFloat) const {
    return kind == Kind::Complex ? toComplexType(defaultFloat)
           : kind == Kind::Float ? defaultFloat
           : kind == Kind::Int   ? ScalarType::Long
                                 : ScalarType::Bool;
  }
  template <typename T>
  T to() const;
  std::string str() const;
};

}  // namespace torch

#endif
