// Note [Dispatch by device and type]: an op of the core does what is the same on every
// device itself (argument checks, PyTorch's type promotion and broadcasting, the shape and
// type of the result, autograd's recording) and hands the element work to a kernel that it
// looks up by (op, device, dtype) in its family's KernelTable:
//
//   Tensor r = empty(shape, type);                                    // on a's device
//   unaryKernels().find(op, a.device(), type, unaryOpName(op))(r, a);
//
// A kernel takes tensors already of its dtype and shape, on its device; it allocates nothing
// that it returns. Each device fills its column of the tables once, by a registration
// function: the CPU's (core/ops/cpu/) from the TH kernels of the op tables (Note [Pointwise
// op tables] in TH/THPointwiseOps.h), when a table is first used; a CUDA library registers
// its THC kernels when it loads. Adding a device is registering kernels, not editing ops.
// A missing kernel is a clear error naming the op, the type and the device, never a crash.
//
// Families on this table today: unary, binary (tensor and scalar operands) and comparisons.
// The other families (reductions, linear algebra, indexing, NN layers) still call TH<T>
// through dispatch(); they move to tables of their own as the CUDA column arrives for them.
#ifndef TORCH_DISPATCH_H
#define TORCH_DISPATCH_H

#include "core/Tensor.h"

namespace torch {

template <typename Kernel, int NumOps>
class KernelTable {
 public:
  // Registers (or replaces) the kernel of (op, device, dtype).
  void add(int op, Device device, ScalarType dtype, Kernel kernel) {
    kernels_[op][static_cast<int>(device)][static_cast<int>(dtype)] = kernel;
  }
  bool has(int op, Device device, ScalarType dtype) const {
    return kernels_[op][static_cast<int>(device)][static_cast<int>(dtype)] != nullptr;
  }
  // The kernel, or an error in PyTorch's words ("exp" not implemented for 'Int').
  Kernel find(int op, Device device, ScalarType dtype, const char *opName) const {
    Kernel k = kernels_[op][static_cast<int>(device)][static_cast<int>(dtype)];
    if (!k) {
      fail(th::ErrorKind::Runtime, "\"%s\" not implemented for '%s'%s%s", opName, scalarTypeName(dtype),
           device == Device::CPU ? "" : " on ", device == Device::CPU ? "" : deviceName(device));
    }
    return k;
  }

 private:
  Kernel kernels_[NumOps][kNumDevices][kNumScalarTypes] = {};
};

}  // namespace torch

#endif
