// Bulk conversions between float and the 16-bit floating types (Half, BFloat16), for
// contiguous memory: the path every op of those types takes twice or more (Note [Half through
// Float] in core/Dispatch.h), so it runs as plain loops the compiler vectorises, Half on the
// processor's F16C instructions where it has them, over the usable threads for large n. The
// rounding is the elementwise one of core/BFloat16.h and TH_float2half.
#ifndef TORCH_REDUCED_FLOAT_H
#define TORCH_REDUCED_FLOAT_H

#include <cstdint>

#include "core/ScalarType.h"

namespace torch::reduced {

void widen(const THHalf *src, float *dst, int64_t n, ScalarType type);   // exact
void narrow(const float *src, THHalf *dst, int64_t n, ScalarType type);  // rounded to nearest even
// Whether some values[i] differs from bits[i]'s value (a NaN for a NaN is no difference).
bool differ(const THHalf *bits, const float *values, int64_t n, ScalarType type);

}  // namespace torch::reduced

#endif
