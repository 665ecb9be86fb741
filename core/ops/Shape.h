// Construction and shape operations with PyTorch 1.x semantics: joining, diagonals and
// triangles, reordering (flip, roll, rot90), repetition, grids, and dimension moves.
//
//   Tensor a = ..., b = ...;                    // [2, 3] Float, [4, 3] Long
//   Tensor c = cat({a, b}, 0);                  // [6, 3] Float (promoted)
//   Tensor s = stack({a, a}, 1);                // [2, 2, 3]
//   Tensor d = diagonal(c, 1, 0, 1);            // a view of c: [2]
//   Tensor l = tril(c, -1);                     // a new [6, 3] tensor
//   Tensor r = roll(a, {1}, {1});               // columns shifted right by one
//   Tensor t = repeat(a, {2, 1, 2});            // [2, 4, 6]
//
// Note [Views and copies]: diagonal, movedim, unflatten, meshgrid's results and the
// atleast_* helpers are views (they share storage with their input, like PyTorch's);
// everything else returns a new tensor. The *_ functions change their argument in place:
// tril_/triu_/renorm_ its values, transpose_/squeeze_/unsqueeze_/t_ its geometry.
//
// Note [Legacy cat]: cat skips 1-D tensors of size 0 when checking sizes (the torch7-era
// "empty" tensor), as PyTorch 1.x does; they still take part in type promotion.
#ifndef TORCH_OPS_SHAPE_H
#define TORCH_OPS_SHAPE_H

#include <optional>
#include <vector>

#include "core/Tensor.h"

namespace torch {

using TensorList = std::vector<Tensor>;

// ---- joining (results promoted to the inputs' common type) ----
ScalarType resultType(const TensorList &tensors);
Tensor cat(const TensorList &tensors, int64_t dim);    // Note [Legacy cat]
Tensor stack(const TensorList &tensors, int64_t dim);  // equal sizes, new dim
Tensor hstack(const TensorList &tensors);              // along dim 1 (dim 0 for 1-D inputs)
Tensor vstack(const TensorList &tensors);              // atleast_2d, along dim 0
Tensor dstack(const TensorList &tensors);              // atleast_3d, along dim 2
Tensor columnStack(const TensorList &tensors);         // 0-D and 1-D inputs as columns
Tensor atleast1d(const Tensor &t);
Tensor atleast2d(const Tensor &t);  // a 1-D [n] becomes [1, n]
Tensor atleast3d(const Tensor &t);  // [n] becomes [1, n, 1], [m, n] becomes [m, n, 1]

// ---- diagonals and triangles ----
// 1-D: a square matrix with t on diagonal `offset` (above the main one when positive);
// 2-D: that diagonal as a new 1-D tensor.
Tensor diag(const Tensor &t, int64_t offset);
// The diagonal of the (dim1, dim2) planes as a view; it becomes the last dimension.
Tensor diagonal(const Tensor &t, int64_t offset, int64_t dim1, int64_t dim2);
// t's last dimension placed on diagonal `offset` of the (dim1, dim2) planes of a new
// zero tensor with one more dimension (dims count in the result's dimensions).
Tensor diagEmbed(const Tensor &t, int64_t offset, int64_t dim1, int64_t dim2);
Tensor diagflat(const Tensor &t, int64_t offset);  // diag of the flattened tensor
// Elements with column - row <= offset (tril) or >= offset (triu) of the last two
// dimensions; the others are zero. Any batch dimensions, every element type.
Tensor tril(const Tensor &t, int64_t offset);
Tensor triu(const Tensor &t, int64_t offset);
void tril_(const Tensor &t, int64_t offset);
void triu_(const Tensor &t, int64_t offset);
// Coordinates (2 x N, row-major order) of the lower or upper triangle of a row x col matrix.
Tensor trilIndices(int64_t row, int64_t col, int64_t offset, ScalarType dtype);
Tensor triuIndices(int64_t row, int64_t col, int64_t offset, ScalarType dtype);

// ---- products and statistics ----
// Cross product of 3-vectors along dim (no dim: the first dimension of size 3, as 1.x);
// same dtype and number of dimensions, other sizes broadcast.
Tensor cross(const Tensor &a, const Tensor &b, std::optional<int64_t> dim);
// Counts of a floating tensor's elements in `bins` equal bins over [min, max] (the data's
// range when min == max); elements outside are ignored, max falls in the last bin.
Tensor histc(const Tensor &t, int64_t bins, double min, double max);
// Each slice t.select(dim, i) whose p-norm exceeds maxnorm, scaled to norm maxnorm.
Tensor renorm(const Tensor &t, double p, int64_t dim, double maxnorm);
void renorm_(const Tensor &t, double p, int64_t dim, double maxnorm);
Tensor kron(const Tensor &a, const Tensor &b);  // Kronecker product, promoted

// ---- reordering (new tensors) ----
Tensor flip(const Tensor &t, const IntList &dims);
Tensor fliplr(const Tensor &t);  // flip(t, {1}), at least 2-D
Tensor flipud(const Tensor &t);  // flip(t, {0}), at least 1-D
// Elements shifted by shifts[i] along dims[i], wrapping around; no dims: the flattened
// tensor is rolled by the one shift.
Tensor roll(const Tensor &t, const IntList &shifts, const IntList &dims);
Tensor rot90(const Tensor &t, int64_t k, const IntList &dims);  // from dims[0] towards dims[1]

// ---- repetition ----
Tensor repeat(const Tensor &t, const IntList &repeats);  // at least t.dim() repeats
Tensor tile(const Tensor &t, const IntList &reps);       // missing leading reps are 1
// Each element (no dim: of the flattened tensor) or slice along dim repeated `repeats`
// times, or repeats[i] times for slice i (a 1-D Long or Int tensor, or one element).
Tensor repeatInterleave(const Tensor &t, int64_t repeats, std::optional<int64_t> dim);
Tensor repeatInterleave(const Tensor &t, const Tensor &repeats, std::optional<int64_t> dim);
Tensor repeatInterleave(const Tensor &repeats);  // i repeated repeats[i] times

// ---- grids ----
// Views of the 0-D or 1-D inputs expanded to the grid's shape. "ij" indexing: input i
// varies along dim i; "xy" (numpy's default): the first two inputs vary along dims 1 and 0.
TensorList meshgrid(const TensorList &tensors, bool xy);

// ---- dimension moves (views) ----
Tensor movedim(const Tensor &t, const IntList &source, const IntList &destination);
Tensor unflatten(const Tensor &t, int64_t dim, const IntList &sizes);  // one -1 inferred
Tensor narrowCopy(const Tensor &t, int64_t dim, int64_t start, int64_t length);
// Views of t along dim of the given sizes (summing to t's size there): chunk and split. One
// node records them all, whose backward joins the parts' gradients with one cat (zeros for
// a part without one) rather than one zero-padded copy of t per part. node names it as
// PyTorch does: "Split" (chunk, split by a size) or "SplitWithSizes" (split by sizes).
TensorList splitWithSizes(const Tensor &t, const IntList &sizes, int64_t dim, const char *node);
// The slices along dim, recorded as one node whose backward stacks their gradients.
TensorList unbind(const Tensor &t, int64_t dim);

// ---- in-place geometry changes (the tensor becomes the view) ----
void transpose_(const Tensor &t, int64_t dim0, int64_t dim1);
void t_(const Tensor &t);  // at most 2-D
void squeeze_(const Tensor &t);
void squeeze_(const Tensor &t, int64_t dim);
void unsqueeze_(const Tensor &t, int64_t dim);

}  // namespace torch

#endif
