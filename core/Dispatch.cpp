#include "core/Dispatch.h"

#include "core/ops/CopyKernels.h"

namespace torch {

void missingKernel(const char *op, Types types, Device device, ScalarType dtype) {
  if (types == Types::Floating && dtype != ScalarType::Float && dtype != ScalarType::Double) {
    fail(th::ErrorKind::Type, "%s is only implemented for floating point tensors (got %s)", op, scalarTypeName(dtype));
  }
  if (types != Types::All && dtype == ScalarType::Half) {
    fail(th::ErrorKind::Type, "%s is not implemented for Half tensors", op);
  }
  fail(th::ErrorKind::Runtime, "\"%s\" not implemented for '%s'%s%s", op, scalarTypeName(dtype),
       device == Device::CPU ? "" : " on ", device == Device::CPU ? "" : deviceName(device));
}

namespace cpu {

Tensor halfToFloat(const Tensor &half) {
  Tensor f = empty(half.sizes(), ScalarType::Float, Device::CPU);
  copyKernels().copy(Device::CPU, ScalarType::Float, f, half);
  return f;
}

void roundIntoHalf(const Tensor &half, const Tensor &f) {
  if (half.sizes() != f.sizes()) resize_(half, f.sizes());  // a kernel that resized its output
  copyKernels().copy(Device::CPU, ScalarType::Half, half, f);
}

}  // namespace cpu

}  // namespace torch
