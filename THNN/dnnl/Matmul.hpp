// oneDNN's bfloat16 matrix products (Note [bfloat16 products on oneDNN] in Matmul.cpp), for the
// core's BFloat16 addmm and baddbmm kernels (core/ops/cpu/LinalgKernels.cpp):
//
//   thnn::dnnl_matmul::Operand x{data, {B, M, K}, {sB, sM, sK}}, y{...};
//   if (!thnn::dnnl_matmul::bfloat16Product(x, y, out))  // out: B x M x N floats, contiguous
//     ... compute in float
#pragma once

#include <array>
#include <cstdint>

namespace thnn::dnnl_matmul {

// A batch of matrices of bfloat16 bit patterns: sizes and strides (in elements) of
// [batch, rows, columns]; batch 1 and any stride of 0 for a broadcast batch are allowed.
struct Operand {
  const uint16_t *data;
  std::array<int64_t, 3> sizes, strides;
};

// out[b] = x[b] @ y[b] in float (bfloat16 products summed in float): false when oneDNN has no
// implementation for the call (the caller then computes it another way; out is then unspecified).
bool bfloat16Product(const Operand &x, const Operand &y, float *out);

}  // namespace thnn::dnnl_matmul
