// The CPU column of the indexing kernels: TH's, per element type. Bool tensors run on the
// Byte kernels.
#include "core/ops/IndexKernels.h"

namespace torch::cpu {

namespace {

// The element value v in self's type; a bool tensor holds 0 or 1.
template <typename T>
T elementValue(const Tensor &self, Scalar v) {
  if (self.dtype() == ScalarType::Bool) return static_cast<T>(v.isFloating() ? v.d != 0 : v.i != 0);
  return v.to<T>();
}

template <typename T>
void indexSelect(const Tensor &r, const Tensor &t, int dim, const Tensor &index) {
  TH<T>::indexSelect(r.th<T>(), t.th<T>(), dim, index.th<int64_t>());
}
template <typename T>
void gather(const Tensor &r, const Tensor &t, int dim, const Tensor &index) {
  TH<T>::gather(r.th<T>(), t.th<T>(), dim, index.th<int64_t>());
}
template <typename T>
void indexCopy(const Tensor &dst, int dim, const Tensor &index, const Tensor &src) {
  TH<T>::indexCopy(dst.th<T>(), dim, index.th<int64_t>(), src.th<T>());
}
template <typename T>
void indexAdd(const Tensor &dst, int dim, const Tensor &index, const Tensor &src) {
  TH<T>::indexAdd(dst.th<T>(), dim, index.th<int64_t>(), src.th<T>());
}
template <typename T>
void scatter(const Tensor &dst, int dim, const Tensor &index, const Tensor &src) {
  TH<T>::scatter(dst.th<T>(), dim, index.th<int64_t>(), src.th<T>());
}
template <typename T>
void scatterAdd(const Tensor &dst, int dim, const Tensor &index, const Tensor &src) {
  TH<T>::scatterAdd(dst.th<T>(), dim, index.th<int64_t>(), src.th<T>());
}
// TH has no multiplying scatter. Lines along dim: dst's have its own length, index's and
// src's index's length; the other dimensions walk index's extent in all three (the op has
// checked that index fits both).
template <typename T>
void scatterMultiply(const Tensor &dst, int dim, const Tensor &index, const Tensor &src) {
  IntList lines = index.sizes(), indexSizes = index.sizes();
  lines[dim] = dst.size(dim);
  th::TensorRef<T> to = th::ref(dst.th<T>()), from = th::ref(src.th<T>());
  to.size = lines.data();
  from.size = indexSizes.data();
  th::applyDim(
      [](th::DimSlice<T> t, th::DimSlice<int64_t> i, th::DimSlice<T> s) {
        for (int64_t k = 0; k < i.size; k++) t[i[k]] = t[i[k]] * s[k];
      },
      dim, to, th::ref(index.th<int64_t>()), from);
}
template <typename T>
void indexFill(const Tensor &dst, int dim, const Tensor &index, Scalar value) {
  TH<T>::indexFill(dst.th<T>(), dim, index.th<int64_t>(), elementValue<T>(dst, value));
}
template <typename T>
void scatterFill(const Tensor &dst, int dim, const Tensor &index, Scalar value) {
  TH<T>::scatterFill(dst.th<T>(), dim, index.th<int64_t>(), elementValue<T>(dst, value));
}
template <typename T>
void maskedFill(const Tensor &dst, const Tensor &mask, Scalar value) {
  TH<T>::maskedFill(dst.th<T>(), mask.th<uint8_t>(), elementValue<T>(dst, value));
}
template <typename T>
void maskedCopy(const Tensor &dst, const Tensor &mask, const Tensor &src) {
  TH<T>::maskedCopy(dst.th<T>(), mask.th<uint8_t>(), src.th<T>());
}
template <typename T>
void maskedSelect(const Tensor &r, const Tensor &t, const Tensor &mask) {
  TH<T>::maskedSelect(r.th<T>(), t.th<T>(), mask.th<uint8_t>());
}
template <typename T>
void nonzero(const Tensor &r, const Tensor &t) {
  TH<T>::nonzero(r.th<int64_t>(), t.th<T>());
}
template <typename T>
void take(const Tensor &r, const Tensor &t, const Tensor &index) {
  TH<T>::take(r.th<T>(), t.th<T>(), index.th<int64_t>());
}
template <typename T>
void put(const Tensor &dst, const Tensor &index, const Tensor &src, bool accumulate) {
  TH<T>::put(dst.th<T>(), index.th<int64_t>(), src.th<T>(), accumulate);
}

void advancedPositions(const Tensor &positions, const Tensor &index, int64_t size, int64_t stride, int reportDim,
                       bool single) {
  th::apply(
      [=](int64_t &out, int64_t &v) {
        if (v < -size || v >= size) {
          fail(th::ErrorKind::Index, "index %lld is out of range for dimension %d with size %lld",
               static_cast<long long>(v), reportDim, static_cast<long long>(size));
        }
        int64_t i = v < 0 ? v + size : v;
        out = single ? i : out + i * stride;
      },
      th::ref(positions.th<int64_t>()), th::ref(index.th<int64_t>()));
}

}  // namespace

void registerIndexKernels(IndexKernels &k) {
  fillWithHalf(k.indexSelect, TORCH_TEMPLATE(indexSelect));
  fillWithHalf(k.gather, TORCH_TEMPLATE(gather));
  fillWithHalf(k.indexCopy, TORCH_TEMPLATE(indexCopy));
  fillWithHalf(k.indexAdd, TORCH_TEMPLATE(indexAdd));
  fillWithHalf(k.scatter, TORCH_TEMPLATE(scatter));
  fillWithHalf(k.scatterAdd, TORCH_TEMPLATE(scatterAdd));
  fillWithHalf(k.scatterMultiply, TORCH_TEMPLATE(scatterMultiply));
  fillWithHalf(k.indexFill, TORCH_TEMPLATE(indexFill));
  fillWithHalf(k.scatterFill, TORCH_TEMPLATE(scatterFill));
  fillWithHalf(k.maskedFill, TORCH_TEMPLATE(maskedFill));
  fillWithHalf(k.maskedCopy, TORCH_TEMPLATE(maskedCopy));
  fillWithHalf(k.maskedSelect, TORCH_TEMPLATE(maskedSelect));
  fillWithHalf(k.nonzero, TORCH_TEMPLATE(nonzero));
  fillWithHalf(k.take, TORCH_TEMPLATE(take));
  fillWithHalf(k.put, TORCH_TEMPLATE(put));
  k.advancedPositions.add(Device::CPU, ScalarType::Long, &advancedPositions);
}

}  // namespace torch::cpu
