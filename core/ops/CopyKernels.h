// The kernels under the tensor's own element operations (Note [Dispatch by device and
// type] in core/Dispatch.h): copies between element types, fills and reading one element.
// A copy is looked up by the destination's (device, dtype); its kernel reads any source
// type. A copy between devices will be looked up on the side that is not the CPU, whose
// library knows both memories.
#ifndef TORCH_OPS_COPY_KERNELS_H
#define TORCH_OPS_COPY_KERNELS_H

#include "core/Dispatch.h"

namespace torch {

struct CopyKernels {
  // dst = src converted, same shape; a Bool source reads as bytes.
  Kernels<void(const Tensor &dst, const Tensor &src), Types::All> copy{"copy_", /*acrossDevices=*/true};
  // dst (Bool) = src != 0, looked up by src's type.
  Kernels<void(const Tensor &dst, const Tensor &src), Types::Arith> copyToBool{"copy to bool"};
  // Every element = value (a Bool tensor gets 0 or 1 from the op).
  Kernels<void(const Tensor &t, Scalar value), Types::Arith> fill{"fill_"};
  // A Bool tensor whose bytes were computed as numbers (sums, shifts) made 0 or 1 again,
  // in place (Bool only).
  Kernels<void(const Tensor &t), Types::Arith> boolFromBytes{"bool"};
  // The element at offset (in elements from the first) as a Scalar.
  Kernels<Scalar(const Tensor &t, int64_t offset), Types::All> read{"item"};
};

// The tables, with the CPU column registered on first use.
CopyKernels &copyKernels();

namespace cpu {
void registerCopyKernels(CopyKernels &k);  // core/ops/cpu/CopyKernels.cpp
}  // namespace cpu

}  // namespace torch

#endif
