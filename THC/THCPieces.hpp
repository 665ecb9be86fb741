// Note [32-bit pieces]: THC's pointwise kernels index in 32 bits, and an op compiles one
// kernel per index type it can launch with, so 64-bit indexing doubled the library's
// compile time for the few tensors past 2^31 elements or offsets. Such a launch is cut
// instead: the tensors, all seen in the first one's shape, are halved along the dimension
// that spans the most memory until every piece fits 32 bits, and each piece is launched
// as tensors of their own (the ops are element-wise, so the pieces are independent).
// PyTorch's TensorIterator splits its large iterations the same way. A tensor of as many
// elements in another shape is seen in the first one's shape when it is contiguous;
// otherwise (TH allows any shape of the same count) the caller copies it contiguous first.
//
// Plain C++ over anything shaped like a tensor (storage->data, storageOffset, nDimension,
// size, stride), so that tests/THC/test_pieces.cpp checks it without a GPU.
#ifndef THC_PIECES_HPP
#define THC_PIECES_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace thc {

// Are t's elements and its largest offset at most limit (INT32_MAX for 32-bit indexing)?
template <typename TensorT>
bool fitsIndex(const TensorT *t, int64_t limit) {
  int64_t extent = 1, n = 1;
  for (int d = 0; d < t->nDimension; d++) {
    if (t->size[d] == 0) return true;
    extent += (t->size[d] - 1) * t->stride[d];
    n *= t->size[d];
  }
  return extent <= limit && n <= limit;
}

// Row-major without gaps, dimensions of size 1 aside.
template <typename TensorT>
bool isRowMajor(const TensorT *t) {
  int64_t expected = 1;
  for (int d = t->nDimension - 1; d >= 0; d--) {
    if (t->size[d] == 1) continue;
    if (t->stride[d] != expected) return false;
    expected *= t->size[d];
  }
  return true;
}

// A strided part of a tensor, read like one; its dimensions of size 1 are left out, so it
// has fewer than 64 (more would be 2^64 elements).
template <typename TensorT>
struct Piece {
  static constexpr int kMaxDims = 64;
  decltype(std::declval<const TensorT &>().storage) storage;
  ptrdiff_t storageOffset;
  int nDimension = 0;
  int64_t size[kMaxDims], stride[kMaxDims];
};

template <typename A, typename B>
bool sameShape(const A *a, const B *b) {
  return a->nDimension == b->nDimension && std::equal(a->size, a->size + a->nDimension, b->size);
}

// t as a piece
template <typename TensorT>
void pieceOf(Piece<TensorT> *p, const TensorT *t) {
  p->storage = t->storage;
  p->storageOffset = t->storageOffset;
  p->nDimension = 0;
  for (int d = 0; d < t->nDimension; d++) {
    if (t->size[d] == 1) continue;
    p->size[p->nDimension] = t->size[d];
    p->stride[p->nDimension] = t->stride[d];
    p->nDimension++;
  }
}

// t as a piece of the shape of `shape` (a piece): t's own when it has that shape, row-major
// when t is; false when t has another shape and is not row-major.
template <typename TensorT, typename ShapeT>
bool pieceOf(Piece<TensorT> *p, const TensorT *t, const ShapeT &shape) {
  pieceOf(p, t);
  if (sameShape(p, &shape)) return true;
  if (!isRowMajor(p)) return false;
  p->nDimension = shape.nDimension;
  int64_t stride = 1;
  for (int d = shape.nDimension - 1; d >= 0; d--) {
    p->size[d] = shape.size[d];
    p->stride[d] = stride;
    stride *= shape.size[d];
  }
  return true;
}

// launch(pieces...) for pieces of p... (one shape) that each fit limit, covering every
// element once.
template <typename Launch, typename... P>
void forEachPiece(int64_t limit, const Launch &launch, const P &...p) {
  if ((fitsIndex(&p, limit) && ...)) {
    launch(p...);
    return;
  }
  // the dimension along which a piece spans the most memory (an expanded one: the most elements)
  const auto &first = std::get<0>(std::forward_as_tuple(p...));
  int cut = -1;
  int64_t widest = -1;
  for (int d = 0; d < first.nDimension; d++) {
    if (first.size[d] < 2) continue;
    const int64_t span = std::max({(p.size[d] - 1) * std::max<int64_t>(p.stride[d], 1)...});
    if (span > widest) {
      cut = d;
      widest = span;
    }
  }
  if (cut < 0) throw std::logic_error("thc::forEachPiece: a piece of one element does not fit");
  const int64_t half = first.size[cut] / 2;
  auto low = [&](const auto &q) {
    auto r = q;
    r.size[cut] = half;
    return r;
  };
  auto high = [&](const auto &q) {
    auto r = q;
    r.size[cut] -= half;
    r.storageOffset += half * q.stride[cut];
    return r;
  };
  forEachPiece(limit, launch, low(p)...);
  forEachPiece(limit, launch, high(p)...);
}

}  // namespace thc

#endif
