// Indexing: Python-style `t[...]` reads and writes, and the index ops (index_select,
// gather, scatter, masked_*, nonzero, take, put) with PyTorch 1.x semantics, 0-based.
//
//   Tensor t = ...;                                   // [4, 5, 6]
//   std::vector<TensorIndex> key = {TensorIndex::integer(1), TensorIndex::slice(0, 5, 2)};
//   Tensor v = index(t, key);                         // t[1, 0:5:2]: a [3, 6] view
//   key = {TensorIndex::ellipsis(), TensorIndex::advanced(idx)};  // idx: Long [2, 2]
//   Tensor c = index(t, key);                         // t[..., idx]: a [4, 5, 2, 2] copy
//   indexPut_(t, key, value);                         // t[..., idx] = value
//
// Note [Index semantics]: integers, slices, None and Ellipsis are basic indices and give
// views. Integers select (they are not advanced indices, as in PyTorch: `t[0, :, [1, 2]]`
// has shape [t.size(1), 2], where numpy would give [2, t.size(1)]). Integer tensors are
// advanced indices; bool/uint8 masks stand for the integer tensors of their nonzero()
// columns. Advanced indices broadcast together into one shape B; when they are adjacent
// (after the basic indices are applied: an Ellipsis that spans no dimension does not
// separate them, where numpy says it does), B replaces them in place, otherwise B comes
// first (numpy's rule). Advanced indexing copies. A boolean (True/False, or a 0-dim
// bool/uint8 tensor) adds a dimension of size 1 that it indexes with [0] or [] as an
// advanced index, as PyTorch does: `t[True]` is a copy, and `t[[0, 1], :, True]` places
// the broadcast shape first.
//
// The binding turns a Python key into TensorIndex entries; PyTorch's Python-level rules
// (a 0-dim integer tensor acts as an int, lists become index tensors) live there, so that
// index_put_ keeps ATen's meaning (every tensor is an advanced index).
#ifndef TORCH_OPS_INDEXING_H
#define TORCH_OPS_INDEXING_H

#include <cstdint>
#include <limits>
#include <vector>

#include "core/Tensor.h"

namespace torch {

// One entry of an index tuple.
struct TensorIndex {
  enum class Kind : int8_t { Int, Slice, None, Ellipsis, Bool, Tensor };
  Kind kind = Kind::None;
  int64_t start = 0;  // Int: the index; Slice: start (Python's rules, clamped)
  int64_t stop = std::numeric_limits<int64_t>::max();
  int64_t step = 1;  // Slice: > 0
  Tensor tensor;     // Tensor: an integer index tensor or a bool/uint8 mask; Bool: unused

  static TensorIndex integer(int64_t i) {
    TensorIndex x;
    x.kind = Kind::Int;
    x.start = i;
    return x;
  }
  static TensorIndex slice(int64_t start, int64_t stop, int64_t step) {
    TensorIndex x;
    x.kind = Kind::Slice;
    x.start = start;
    x.stop = stop;
    x.step = step;
    return x;
  }
  static TensorIndex none() { return TensorIndex(); }
  static TensorIndex ellipsis() {
    TensorIndex x;
    x.kind = Kind::Ellipsis;
    return x;
  }
  // t[True] adds a dimension of size 1, t[False] one of size 0.
  static TensorIndex boolean(bool b) {
    TensorIndex x;
    x.kind = Kind::Bool;
    x.start = b;
    return x;
  }
  static TensorIndex advanced(Tensor t) {
    TensorIndex x;
    x.kind = Kind::Tensor;
    x.tensor = std::move(t);
    return x;
  }
};

// ---- t[key] and t[key] = value (see Note [Index semantics]) ----
Tensor index(const Tensor &self, const std::vector<TensorIndex> &key);
// value is converted to self's type and broadcast to the shape of self[key]; with repeated
// advanced indices the last write wins, or the values add up when accumulate is set.
void indexPut_(const Tensor &self, const std::vector<TensorIndex> &key, const Tensor &value, bool accumulate = false);
void indexPut_(const Tensor &self, const std::vector<TensorIndex> &key, Scalar value);

// ---- index ops: indices are Long tensors, checked before anything is written ----
// index_select also takes an Int index, as PyTorch does.
Tensor indexSelect(const Tensor &self, int64_t dim, const Tensor &index);
void indexCopy_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source);
void indexAdd_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source, Scalar alpha);
void indexFill_(const Tensor &self, int64_t dim, const Tensor &index, Scalar value);
Tensor gather(const Tensor &self, int64_t dim, const Tensor &index);
void scatter_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source);
void scatter_(const Tensor &self, int64_t dim, const Tensor &index, Scalar value);
void scatterAdd_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source);
// scatter_(..., reduce='add' | 'multiply'): self[p with p[dim] = index[p]] op= source[p].
enum class ScatterReduce { Add, Multiply };
void scatterReduce_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source, ScatterReduce op);
void scatterReduce_(const Tensor &self, int64_t dim, const Tensor &index, Scalar value, ScatterReduce op);

// Masks are Bool (or uint8, any non-zero is true) and broadcast to self's shape.
void maskedFill_(const Tensor &self, const Tensor &mask, Scalar value);
// The selected elements of self get source's first elements, in row-major order.
void maskedScatter_(const Tensor &self, const Tensor &mask, const Tensor &source);
Tensor maskedFill(const Tensor &self, const Tensor &mask, Scalar value);  // broadcast result
Tensor maskedScatter(const Tensor &self, const Tensor &mask, const Tensor &source);
Tensor maskedSelect(const Tensor &self, const Tensor &mask);  // 1-D

Tensor nonzero(const Tensor &self);  // Long [N, self.dim()], row-major order
// Flat indices into self viewed as 1-D; negative ones count from the end.
Tensor take(const Tensor &self, const Tensor &index);
void put_(const Tensor &self, const Tensor &index, const Tensor &source, bool accumulate);

}  // namespace torch

#endif
