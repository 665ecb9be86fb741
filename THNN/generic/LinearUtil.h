// C++ helpers shared by the Linear group's translation units (THNN/Linear.cpp and
// THNN/indexed/Linear.cpp): not a generic file, templates over the element type.
// Each group keeps its helpers in its own namespace (thnn::linear, thnn::pooling,
// thnn::criterion): two groups' inline helpers of one name and different bodies, linked
// into one binary, would break the ODR silently.
#ifndef THNN_GENERIC_LINEAR_UTIL_H
#define THNN_GENERIC_LINEAR_UTIL_H

#include <string>
#include <type_traits>

#include "TH/THTensor.hpp"

namespace thnn::linear {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT *>()->storage->data)>;

// "[2, 3]" for error messages (each call owns its string, unlike sizeDesc's buffer).
template <typename TensorT>
std::string shape(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

template <typename TensorT>
int64_t numel(TensorT *t) {
  return th::numel(th::ref(t));
}

template <typename TensorT>
bool isVectorOf(const TensorT *t, int64_t n) {
  return t->nDimension == 1 && t->size[0] == n;
}

// Element (i, j) of a matrix with any strides. A vector reads as one row.
template <typename T>
struct Mat {
  T *data;
  int64_t rows, cols, s0, s1;
  T &operator()(int64_t i, int64_t j) const { return data[i * s0 + j * s1]; }
};

template <typename TensorT>
auto mat(TensorT *t) {
  using T = Elem<TensorT>;
  T *data = t->storage->data + t->storageOffset;
  if (t->nDimension == 1) return Mat<T>{data, 1, t->size[0], 0, t->stride[0]};
  return Mat<T>{data, t->size[0], t->size[1], t->stride[0], t->stride[1]};
}

// Element i of a vector with any stride.
template <typename T>
struct Vec {
  T *data;
  int64_t stride;
  T &operator[](int64_t i) const { return data[i * stride]; }
};

template <typename TensorT>
auto vec(TensorT *t) {
  using T = Elem<TensorT>;
  return Vec<T>{t->storage->data + t->storageOffset, t->nDimension ? t->stride[0] : 1};
}

// A contiguous copy of t (t itself, retained, when it is contiguous already).
template <typename TensorT>
th::Owned<TensorT> contiguous(TensorT *t) {
  return th::own(th::TH<Elem<TensorT>>::newContiguous(t));
}

// The contiguous memory a kernel writes a result into: the result itself when it is
// contiguous, else a temporary that commit() copies into it (a caller may hand in any view).
template <typename TensorT>
class ContiguousResult {
  using T = Elem<TensorT>;

 public:
  explicit ContiguousResult(TensorT *r) : r_(r) {
    if (!th::isContiguous(th::ref(r))) tmp_ = th::own(th::TH<T>::newWithSize(r->nDimension, r->size, nullptr));
  }
  T *data() const {
    TensorT *t = tmp_ ? tmp_.get() : r_;
    return t->storage->data + t->storageOffset;
  }
  void commit() {
    if (tmp_) th::apply([](T &dst, T &src) { dst = src; }, th::ref(r_), th::ref(tmp_.get()));
  }

 private:
  TensorT *r_;
  th::Owned<TensorT> tmp_;
};

}  // namespace thnn::linear

#endif
