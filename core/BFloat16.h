// Note [BFloat16 on Half's storage]: bfloat16 is float32's upper half (sign, 8 exponent bits,
// 7 mantissa bits): float's range with 3 significant digits. Like Half, the CPU stores it and
// computes in float (Note [Half through Float] in core/Dispatch.h), so it needs no TH type of
// its own: its elements are 16-bit patterns kept in a TH Half storage, as Bool's are bytes in a
// Byte storage. Everything that moves memory (views, cat, index copies, where, storages,
// sharing) is Half's code; what reads or writes a value converts with the two functions here,
// which round as PyTorch's c10::BFloat16 does (to nearest, ties to even; a NaN stays a NaN).
// Torch7 has no bfloat16, so the Lua bridge and .t7 files refuse it.
#ifndef TORCH_BFLOAT16_H
#define TORCH_BFLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/ScalarType.h"

namespace torch {

inline uint16_t bfloat16FromFloat(float f) {
  if (std::isnan(f)) return 0x7FC0;  // a quiet NaN: rounding a NaN's bits could make it an infinity
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  // Adding 0x7FFF carries into the upper half past the halfway point; the upper half's lowest
  // bit makes an exact tie round to even.
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

inline float floatFromBfloat16(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// An element of a 16-bit floating type (Half or BFloat16, both kept as THHalf) to float and back.
inline float reducedToFloat(THHalf h, ScalarType type) {
  return type == ScalarType::BFloat16 ? floatFromBfloat16(h.x) : TH_half2float(h);
}
inline THHalf floatToReduced(float f, ScalarType type) {
  if (type != ScalarType::BFloat16) return TH_float2half(f);
  THHalf h;
  h.x = bfloat16FromFloat(f);
  return h;
}

}  // namespace torch

#endif
