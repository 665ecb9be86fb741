// The CPU column of the copy, fill and read kernels: TH's copies between types, and
// BFloat16's conversions (Note [BFloat16 on Half's storage] in core/BFloat16.h).
#include "core/BFloat16.h"
#include "core/ReducedFloat.h"
#include "core/ops/CopyKernels.h"

namespace torch::cpu {

namespace {

// dst (Float) = src (Half or BFloat16), exactly; contiguous memory in bulk (core/ReducedFloat.h).
void widenInto(const Tensor &dst, const Tensor &src) {
  if (dst.isContiguous() && src.isContiguous()) {
    reduced::widen(reinterpret_cast<const THHalf *>(src.dataPtr()), reinterpret_cast<float *>(dst.dataPtr()),
                   src.numel(), src.dtype());
    return;
  }
  const ScalarType type = src.dtype();
  th::apply([type](float &d, THHalf &s) { d = reducedToFloat(s, type); }, th::ref(dst.th<float>()),
            th::ref(src.th<THHalf>()));
}

// dst (Half or BFloat16) = src (Float), rounded.
void narrowInto(const Tensor &dst, const Tensor &src) {
  if (dst.isContiguous() && src.isContiguous()) {
    reduced::narrow(reinterpret_cast<const float *>(src.dataPtr()), reinterpret_cast<THHalf *>(dst.dataPtr()),
                    src.numel(), dst.dtype());
    return;
  }
  const ScalarType type = dst.dtype();
  th::apply([type](THHalf &d, float &s) { d = floatToReduced(s, type); }, th::ref(dst.th<THHalf>()),
            th::ref(src.th<float>()));
}

// A BFloat16 tensor's values in a new Float tensor (exactly: bfloat16 is float's upper half).
Tensor widenBfloat16(const Tensor &src) {
  Tensor f = empty(src.sizes(), ScalarType::Float, Device::CPU);
  widenInto(f, src);
  return f;
}

// dst (BFloat16) = src (any type), rounded from float as PyTorch converts (a Double or Long
// source through float too).
void copyToBfloat16(const Tensor &dst, const Tensor &src) {
  if (src.dtype() == ScalarType::BFloat16) {
    TH<THHalf>::copyHalf(dst.th<THHalf>(), src.th<THHalf>());  // the same bits
    return;
  }
  Tensor f = src;
  if (src.dtype() != ScalarType::Float) {
    f = empty(src.sizes(), ScalarType::Float, Device::CPU);
    copyKernels().copy(Device::CPU, ScalarType::Float, f, src);
  }
  narrowInto(dst, f);
}

template <typename D>
void copy(const Tensor &dst, const Tensor &src) {
  if constexpr (std::is_same_v<D, THHalf>) {
    if (dst.dtype() == ScalarType::BFloat16) return copyToBfloat16(dst, src);
    if (src.dtype() == ScalarType::Float) return narrowInto(dst, src);
  }
  if constexpr (std::is_same_v<D, float>) {
    if (isReducedFloat(src.dtype())) return widenInto(dst, src);
  }
  auto *d = dst.th<D>();
  switch (src.dtype()) {
    case ScalarType::Byte:
    case ScalarType::Bool: TH<D>::copyByte(d, src.th<uint8_t>()); break;
    case ScalarType::Char: TH<D>::copyChar(d, src.th<int8_t>()); break;
    case ScalarType::Short: TH<D>::copyShort(d, src.th<int16_t>()); break;
    case ScalarType::Int: TH<D>::copyInt(d, src.th<int32_t>()); break;
    case ScalarType::Long: TH<D>::copyLong(d, src.th<int64_t>()); break;
    case ScalarType::Half: TH<D>::copyHalf(d, src.th<THHalf>()); break;
    case ScalarType::Float: TH<D>::copyFloat(d, src.th<float>()); break;
    case ScalarType::Double: TH<D>::copyDouble(d, src.th<double>()); break;
    case ScalarType::BFloat16: TH<D>::copyFloat(d, widenBfloat16(src).th<float>()); break;
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:  // copied as their real views (Note [Complex tensors])
      fail(th::ErrorKind::Type, "copy: a complex source reached a real kernel");
  }
}

template <typename T>
void copyToBool(const Tensor &dst, const Tensor &src) {
  TH<T>::neValue(dst.th<uint8_t>(), src.th<T>(), T(0));
}

template <typename T>
void fill(const Tensor &t, Scalar value) {
  TH<T>::fill(t.th<T>(), value.to<T>());
}

template <typename T>
Scalar read(const Tensor &t, int64_t offset) {
  T v = reinterpret_cast<const T *>(t.dataPtr())[offset];
  if constexpr (std::is_same_v<T, THHalf>) {
    return Scalar(static_cast<double>(reducedToFloat(v, t.dtype())));
  } else if constexpr (std::is_floating_point_v<T>) {
    return Scalar(static_cast<double>(v));
  } else {
    if (t.dtype() == ScalarType::Bool) return Scalar::boolean(v != 0);
    return Scalar(static_cast<int64_t>(v));
  }
}

void boolFromBytes(const Tensor &t) { TH<uint8_t>::neValue(t.th<uint8_t>(), t.th<uint8_t>(), 0); }

}  // namespace

void registerCopyKernels(CopyKernels &k) {
  cpu::fill(k.copy, TORCH_TEMPLATE(copy));
  cpu::fillWithHalf(k.copyToBool, TORCH_TEMPLATE(copyToBool));
  cpu::fillWithHalf(k.fill, TORCH_TEMPLATE(fill));
  cpu::fill(k.read, TORCH_TEMPLATE(read));
  k.boolFromBytes.add(Device::CPU, ScalarType::Bool, &boolFromBytes);
}

}  // namespace torch::cpu
