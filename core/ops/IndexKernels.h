// The kernels of the indexing ops (Note [Dispatch by device and type] in core/Dispatch.h).
// Indices are Long tensors of checked or TH-checked 0-based positions; masks are Bool (or
// Byte) tensors of the indexed shape; a number is converted to the tensor's element type by
// the kernel (a Bool tensor holds 0 or 1). Results named r are resized and filled.
#ifndef TORCH_OPS_INDEX_KERNELS_H
#define TORCH_OPS_INDEX_KERNELS_H

#include "core/Dispatch.h"

namespace torch {

// dst's slices along dim at index take src's slices, in order.
using IndexWriteKernel = void(const Tensor &dst, int dim, const Tensor &index, const Tensor &src);

struct IndexKernels {
  // r = t's slices along dim at index.
  Kernels<void(const Tensor &r, const Tensor &t, int dim, const Tensor &index), Types::Arith> indexSelect{
      "index_select"},
      gather{"gather"};
  Kernels<IndexWriteKernel, Types::Arith> indexCopy{"index_copy_"}, indexAdd{"index_add_"}, scatter{"scatter_"},
      scatterAdd{"scatter_add_"}, scatterMultiply{"scatter_"};
  Kernels<void(const Tensor &dst, int dim, const Tensor &index, Scalar value), Types::Arith> indexFill{"index_fill_"},
      scatterFill{"scatter_"};
  Kernels<void(const Tensor &dst, const Tensor &mask, Scalar value), Types::Arith> maskedFill{"masked_fill_"};
  Kernels<void(const Tensor &dst, const Tensor &mask, const Tensor &src), Types::Arith> maskedCopy{"masked_scatter_"};
  Kernels<void(const Tensor &r, const Tensor &t, const Tensor &mask), Types::Arith> maskedSelect{"masked_select"};
  // r (Long, [n, t.dim()]) = the positions of t's non-zero elements, row-major order.
  Kernels<void(const Tensor &r, const Tensor &t), Types::Arith> nonzero{"nonzero"};
  // Over t seen as 1-D (row-major).
  Kernels<void(const Tensor &r, const Tensor &t, const Tensor &index), Types::Arith> take{"take"};
  Kernels<void(const Tensor &dst, const Tensor &index, const Tensor &src, bool accumulate), Types::Arith> put{"put_"};
  // Advanced indexing (Long only): positions (+)= wrapped(index) * stride, each index
  // checked against size (an error names reportDim), or = wrapped(index) when single.
  Kernels<void(const Tensor &positions, const Tensor &index, int64_t size, int64_t stride, int reportDim, bool single),
          Types::Arith>
      advancedPositions{"advanced indexing"};
};

// The tables, with the CPU column registered on first use.
IndexKernels &indexKernels();

namespace cpu {
void registerIndexKernels(IndexKernels &k);  // core/ops/cpu/IndexKernels.cpp
}  // namespace cpu

}  // namespace torch

#endif
