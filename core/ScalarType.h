// Element types of the core tensor. Every type but Bool is a TH type; Bool is stored as
// bytes (0 or 1) and runs on the Byte kernels, so a mask is a Bool tensor without a
// ninth TH instantiation.
#ifndef TORCH_SCALAR_TYPE_H
#define TORCH_SCALAR_TYPE_H

#include <cstdint>
#include <string>

#include "TH/THTypes.hpp"

namespace torch {

// TH's types (Note [The type table] in TH/THGeneral.h), in its order, then Bool.
enum class ScalarType : int8_t {
#define TORCH_ENUM_ENTRY(Name, T, dtype) Name,
  TH_FORALL_TYPES(TORCH_ENUM_ENTRY)
#undef TORCH_ENUM_ENTRY
      Bool,
};
constexpr int kNumScalarTypes = th::kNumTypes + 1;

// The TH type whose kernels a ScalarType runs on (Byte for Bool).
inline th::Type thType(ScalarType t) { return t == ScalarType::Bool ? th::Type::Byte : static_cast<th::Type>(t); }

const char *scalarTypeName(ScalarType t);  // "Float", "Bool", ...
const char *dtypeName(ScalarType t);       // "float32", "bool", ...
size_t elementSize(ScalarType t);
inline bool isFloating(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double;
}
inline bool isIntegral(ScalarType t) { return !isFloating(t) && t != ScalarType::Bool; }

// The type both operands of a binary op are converted to (PyTorch's promotion lattice:
// bool < integers < floating, wider wins, uint8 with int8 gives int16).
ScalarType promoteTypes(ScalarType a, ScalarType b);

// A number from the user: integral, floating or boolean, kept exactly until it is
// converted to an element type.
struct Scalar {
  enum class Kind : int8_t { Bool, Int, Float } kind = Kind::Int;
  int64_t i = 0;
  double d = 0;
  Scalar() = default;
  Scalar(int v) : kind(Kind::Int), i(v), d(v) {}
  Scalar(int64_t v) : kind(Kind::Int), i(v), d(static_cast<double>(v)) {}
  Scalar(double v) : kind(Kind::Float), i(static_cast<int64_t>(v)), d(v) {}
  static Scalar boolean(bool v) {
    Scalar s(static_cast<int64_t>(v));
    s.kind = Kind::Bool;
    return s;
  }
  bool isFloating() const { return kind == Kind::Float; }
  bool isBool() const { return kind == Kind::Bool; }
  // The element type a tensor made from this number alone gets.
  ScalarType naturalType(ScalarType defaultFloat) const {
    return kind == Kind::Float ? defaultFloat : kind == Kind::Int ? ScalarType::Long : ScalarType::Bool;
  }
  template <typename T>
  T to() const;
  std::string str() const;
};

}  // namespace torch

#endif
