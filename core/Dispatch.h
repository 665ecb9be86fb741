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
// Two shapes of table, one lookup:
//  - KernelTable: the pointwise families, whose ops share one signature and are numbered
//    by their op tables (unary, binary with tensor and scalar operands, comparisons);
//  - Kernels<Signature, Types>: one op with a signature of its own (a reduction along a
//    dimension, a sort, an index_select, ...), declared as a member of its family's struct
//    (core/ops/*Kernels.h) and called as  reduceKernels().sum(device, dtype, r, t, dim);
//    its CPU column is a function template of the element type, registered for every type
//    of its Types by cpu::fill (core/ops/cpu/*Kernels.cpp).
// Types says which element types an op has kernels for; outside it, the error is the one a
// PyTorch user knows ("sort is not implemented for Half tensors", "... only implemented for
// floating point tensors"). A type inside it with no kernel on a device is named with the
// device ("cumsum" not implemented for 'Float' on cuda).
#ifndef TORCH_DISPATCH_H
#define TORCH_DISPATCH_H

#include "core/Tensor.h"

namespace torch {

enum class Types : uint8_t {
  All,       // every type, Half included (copies, fills, views of memory)
  Arith,     // every type with arithmetic: all but Half; Bool runs on Byte's kernel
  Floating,  // Float and Double
};

[[noreturn]] void missingKernel(const char *op, Types types, Device device, ScalarType dtype);

template <typename Signature, Types OpTypes>
class Kernels;

template <typename R, typename... Args, Types OpTypes>
class Kernels<R(Args...), OpTypes> {
 public:
  using Fn = R (*)(Args...);
  static constexpr Types types = OpTypes;
  explicit constexpr Kernels(const char *name) : name_(name) {}
  void add(Device device, ScalarType dtype, Fn fn) { fns_[static_cast<int>(device)][static_cast<int>(dtype)] = fn; }
  bool has(Device device, ScalarType dtype) const {
    return fns_[static_cast<int>(device)][static_cast<int>(dtype)] != nullptr;
  }
  Fn find(Device device, ScalarType dtype) const {
    TORCH_CHECK(static_cast<int>(dtype) >= 0 && static_cast<int>(dtype) < kNumScalarTypes, Type,
                "unknown element type %d", static_cast<int>(dtype));
    Fn fn = fns_[static_cast<int>(device)][static_cast<int>(dtype)];
    if (!fn) missingKernel(name_, OpTypes, device, dtype);
    return fn;
  }
  R operator()(Device device, ScalarType dtype, Args... args) const {
    return find(device, dtype)(std::forward<Args>(args)...);
  }
  const char *name() const { return name_; }

 private:
  const char *name_;
  Fn fns_[kNumDevices][kNumScalarTypes] = {};
};

namespace cpu {

// Calls f(Tag<T>{}, dtype) for each dtype of types with its C type T (uint8_t for Bool).
template <Types OpTypes, typename F>
void forEachType(F &&f) {
  if constexpr (OpTypes == Types::Floating) {
    f(Tag<float>{}, ScalarType::Float);
    f(Tag<double>{}, ScalarType::Double);
  } else {
#define TORCH_DISPATCH_EACH_TYPE(Name, T, dtype) f(Tag<T>{}, ScalarType::Name);
    TH_FORALL_ARITH_TYPES(TORCH_DISPATCH_EACH_TYPE)
#undef TORCH_DISPATCH_EACH_TYPE
    f(Tag<uint8_t>{}, ScalarType::Bool);
    if constexpr (OpTypes == Types::All) f(Tag<THHalf>{}, ScalarType::Half);
  }
}

// Registers the CPU column of kernels: pick(Tag<T>{}) gives the kernel of element type T.
template <typename Signature, Types OpTypes, typename Pick>
void fill(Kernels<Signature, OpTypes> &kernels, Pick &&pick) {
  forEachType<OpTypes>([&](auto tag, ScalarType dtype) { kernels.add(Device::CPU, dtype, pick(tag)); });
}

}  // namespace cpu

// The instantiations of a kernel template, for cpu::fill:  cpu::fill(k, TORCH_TEMPLATE(sumDim)).
#define TORCH_TEMPLATE(fn) [](auto tag) { return &fn<typename decltype(tag)::type>; }

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
