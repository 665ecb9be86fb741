// The kernels of the reductions, scans and sorts (Note [Dispatch by device and type] in
// core/Dispatch.h). Each takes tensors already of its dtype, on its device; results named
// r, values and indices are tensors it resizes and fills (indices are Long). A whole-tensor
// reduction returns its value as a Scalar (TH's accumulation type: int64 or double).
#ifndef TORCH_OPS_REDUCE_KERNELS_H
#define TORCH_OPS_REDUCE_KERNELS_H

#include "core/Dispatch.h"

namespace torch {

using ReduceAllKernel = Scalar(const Tensor &t);
// r = the reduction of t along dim (kept with size 1 when keepdim).
using ReduceDimKernel = void(const Tensor &r, const Tensor &t, int dim, bool keepdim);
using ValuesIndicesDimKernel = void(const Tensor &values, const Tensor &indices, const Tensor &t, int dim,
                                    bool keepdim);

struct ReduceKernels {
  Kernels<ReduceAllKernel, Types::Arith> sumAll{"sum"}, prodAll{"prod"}, maxAll{"max"}, minAll{"min"},
      medianAll{"median"}, trace{"trace"};
  Kernels<ReduceDimKernel, Types::Arith> sum{"sum"}, prod{"prod"};
  Kernels<ReduceAllKernel, Types::Floating> meanAll{"mean"};
  Kernels<ReduceDimKernel, Types::Floating> mean{"mean"};
  // biased: divide by n rather than n - 1
  Kernels<Scalar(const Tensor &t, bool biased), Types::Floating> varAll{"var"}, stdDevAll{"std"};
  Kernels<void(const Tensor &r, const Tensor &t, int dim, bool biased, bool keepdim), Types::Floating> var{"var"},
      stdDev{"std"};
  Kernels<Scalar(const Tensor &t, double p), Types::Floating> normAll{"norm"};
  Kernels<void(const Tensor &r, const Tensor &t, double p, int dim, bool keepdim), Types::Floating> norm{"norm"};
  Kernels<Scalar(const Tensor &a, const Tensor &b, double p), Types::Floating> dist{"dist"};
  // t's infinities and NaNs replaced by 0, in place (logsumexp's shift).
  Kernels<void(const Tensor &t), Types::Floating> zeroNonFinite{"logsumexp"};
  Kernels<ValuesIndicesDimKernel, Types::Arith> max{"max"}, min{"min"}, median{"median"}, mode{"mode"};
  Kernels<void(const Tensor &values, const Tensor &indices, const Tensor &t, int64_t k, int dim, bool keepdim),
          Types::Arith>
      kthvalue{"kthvalue"};
  Kernels<void(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool descending), Types::Arith>
      sort{"sort"};
  Kernels<void(const Tensor &values, const Tensor &indices, const Tensor &t, int64_t k, int dim, bool largest,
               bool sorted),
          Types::Arith>
      topk{"topk"};
  // From t sorted (sorted, with the permutation perm that sorted it): the distinct values,
  // each element's position among them (inverse, t's shape) and their counts (Long).
  Kernels<void(const Tensor &sorted, const Tensor &perm, const Tensor &values, const Tensor &inverse,
               const Tensor &counts),
          Types::Arith>
      uniqueSorted{"unique"};
  // The distinct rows of rows (n x m, contiguous) in lexicographic order: firsts (Long) gets
  // the number of one row of each, inverse (Long, n) each row's place among them, counts
  // (Long) how many rows each stands for.
  Kernels<void(const Tensor &rows, const Tensor &firsts, const Tensor &inverse, const Tensor &counts), Types::Arith>
      uniqueRows{"unique"};
  Kernels<void(const Tensor &r, const Tensor &t, int dim), Types::Arith> cumsum{"cumsum"}, cumprod{"cumprod"};
  Kernels<bool(const Tensor &a, const Tensor &b), Types::Arith> equal{"equal"};
  // r (Bool) = |a - b| <= atol + rtol |b| elementwise, a and b of r's shape.
  Kernels<void(const Tensor &r, const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan),
          Types::Arith>
      isclose{"isclose"};
  // Over Bool (or Byte) masks only.
  Kernels<ReduceAllKernel, Types::Arith> allAll{"all"}, anyAll{"any"};
  Kernels<ReduceDimKernel, Types::Arith> all{"all"}, any{"any"};
};

// The tables, with the CPU column registered on first use.
ReduceKernels &reduceKernels();

namespace cpu {
void registerReduceKernels(ReduceKernels &k);  // core/ops/cpu/ReduceKernels.cpp
}  // namespace cpu

}  // namespace torch

#endif
