// Reductions, scans, sorting and selection with PyTorch 1.x semantics, over TH's kernels.
//
//   Tensor t = ...;                        // [4, 5] Float
//   Tensor total = sum(t, {}, false);      // 0-dim Float
//   Tensor rows = sum(t, {1}, true);       // [4, 1]
//   ValuesIndices m = max(t, 0, false);    // values [5], indices [5] Long (0-based)
//
// Note [Reduction dims]: an empty dim list reduces over every dimension into a 0-dim
// tensor (keepdim then gives size 1 in every dimension). Dims may be negative and must be
// distinct. A 0-dim tensor reduces over "dim 0" (or -1) into a 0-dim tensor, as in PyTorch.
//
// Note [Reduction types]: sum, prod, cumsum and cumprod of integer and bool tensors give
// Long (PyTorch's rule, so that they do not overflow in the input's type); an explicit
// dtype converts the input first. mean, var, std, norm and dist need floating inputs;
// logsumexp promotes integers to the default float type.
#ifndef TORCH_OPS_REDUCE_H
#define TORCH_OPS_REDUCE_H

#include <optional>

#include "core/Tensor.h"

namespace torch {

struct ValuesIndices {
  Tensor values;
  Tensor indices;  // Long, 0-based
};

// ---- sums and statistics (dims: see Note [Reduction dims]) ----
Tensor sum(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype = std::nullopt);
Tensor var(const Tensor &t, const IntList &dims, bool unbiased, bool keepdim);
Tensor std(const Tensor &t, const IntList &dims, bool unbiased, bool keepdim);
// p-norm: p = 0 counts non-zeros, +inf is max |x|, -inf is min |x|.
Tensor norm(const Tensor &t, double p, const IntList &dims, bool keepdim);
Tensor dist(const Tensor &a, const Tensor &b, double p);  // norm of a - b, broadcast
Tensor logsumexp(const Tensor &t, const IntList &dims, bool keepdim);

// ---- extremes ----
Tensor maxAll(const Tensor &t);  // 0-dim; an error for an empty tensor
Tensor minAll(const Tensor &t);
ValuesIndices max(const Tensor &t, int64_t dim, bool keepdim);
ValuesIndices min(const Tensor &t, int64_t dim, bool keepdim);
Tensor amax(const Tensor &t, const IntList &dims, bool keepdim);
Tensor amin(const Tensor &t, const IntList &dims, bool keepdim);
// No dim: the index into the flattened tensor.
Tensor argmax(const Tensor &t, std::optional<int64_t> dim, bool keepdim);
Tensor argmin(const Tensor &t, std::optional<int64_t> dim, bool keepdim);

// ---- logic ----
Tensor all(const Tensor &t, std::optional<int64_t> dim, bool keepdim);  // Bool
Tensor any(const Tensor &t, std::optional<int64_t> dim, bool keepdim);
Tensor countNonzero(const Tensor &t, const IntList &dims);  // Long

// ---- scans ----
Tensor cumsum(const Tensor &t, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor cumprod(const Tensor &t, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);

// ---- order statistics and sorting ----
Tensor medianAll(const Tensor &t);  // the lower median of all elements
ValuesIndices median(const Tensor &t, int64_t dim, bool keepdim);
ValuesIndices mode(const Tensor &t, int64_t dim, bool keepdim);
ValuesIndices kthvalue(const Tensor &t, int64_t k, int64_t dim, bool keepdim);  // k from 1
ValuesIndices sort(const Tensor &t, int64_t dim, bool descending);              // stable
Tensor argsort(const Tensor &t, int64_t dim, bool descending);
ValuesIndices topk(const Tensor &t, int64_t k, int64_t dim, bool largest, bool sorted);

struct UniqueResult {
  Tensor values;   // 1-D, ascending
  Tensor inverse;  // t's shape: where each element of t is in values
  Tensor counts;   // how often each value occurs
};
UniqueResult unique(const Tensor &t, bool returnInverse, bool returnCounts);
// The distinct slices of t along dim (values: t's shape but there, in lexicographic order),
// inverse (1-D, t.size(dim)) and counts.
UniqueResult unique(const Tensor &t, int64_t dim, bool returnInverse, bool returnCounts);

// ---- comparisons of whole tensors ----
Tensor trace(const Tensor &t);                 // integers give Long
bool equal(const Tensor &a, const Tensor &b);  // same sizes and values
// |a - b| <= atol + rtol * |b| element-wise, broadcast; equal infinities are close.
Tensor isclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan);
bool allclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan);

}  // namespace torch

#endif
