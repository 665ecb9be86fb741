// The kernel tables of the pointwise families (Note [Dispatch by device and type] in
// core/Dispatch.h). A kernel gets tensors already of its dtype and of one shape (the
// result's), on its device; comparisons write a Bool mask or, when the result has the
// operands' type, 0 and 1 of that type.
#ifndef TORCH_OPS_POINTWISE_KERNELS_H
#define TORCH_OPS_POINTWISE_KERNELS_H

#include "core/Dispatch.h"
#include "core/ops/Pointwise.h"

namespace torch {

using UnaryKernel = void (*)(const Tensor &result, const Tensor &self);
using BinaryKernel = void (*)(const Tensor &result, const Tensor &a, const Tensor &b, Scalar alpha);
using BinaryScalarKernel = void (*)(const Tensor &result, const Tensor &a, Scalar b);
using CompareKernel = void (*)(const Tensor &result, const Tensor &a, const Tensor &b);
using CompareScalarKernel = void (*)(const Tensor &result, const Tensor &a, Scalar b);

struct PointwiseKernels {
  KernelTable<UnaryKernel, kNumUnaryOps> unary;
  KernelTable<BinaryKernel, kNumBinaryOps> binary;              // Add and Sub use alpha
  KernelTable<BinaryScalarKernel, kNumBinaryOps> binaryScalar;  // a op b for a number b
  KernelTable<CompareKernel, kNumCompareOps> compare;
  KernelTable<CompareScalarKernel, kNumCompareOps> compareScalar;
};

// The tables, with the CPU column registered on first use.
PointwiseKernels &pointwiseKernels();

namespace cpu {
// Fills the CPU column from TH's kernels (core/ops/cpu/PointwiseKernels.cpp).
void registerPointwiseKernels(PointwiseKernels &tables);
}  // namespace cpu

}  // namespace torch

#endif
