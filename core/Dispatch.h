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

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/Tensor.h"

namespace torch {

enum class Types : uint8_t {
  All,       // every type, Half and BFloat16 included (copies, fills, views of memory)
  Arith,     // every type with arithmetic: all but Half and BFloat16; Bool runs on Byte's kernel
  Floating,  // Float and Double
};

[[noreturn]] void missingKernel(const char *op, Types types, Device device, ScalarType dtype);

// Note [A device's column copied]: every table registers itself as it is built, so that one
// device's column can be copied into another's in one call. The stand-in CUDA device of the
// tests (core/ops/StandInDevice.h) runs the CPU's kernels this way; a real device registers
// its own kernels one by one.
namespace detail {
void registerTable(std::function<void(Device from, Device to)> copyColumn);
}
// Gives `to` every kernel that `from` has and `to` lacks, in every table built so far.
void copyColumn(Device from, Device to);

namespace detail {
[[noreturn]] void wrongDevice(const char *op, Device kernel, Device tensor);
// Every tensor argument of a kernel of `device` lives there: a tensor of another device
// reaching a kernel would be memory the kernel cannot read (a crash on a GPU), so the call
// raises PyTorch's error instead, before anything is written.
template <typename... As>
void checkDevices(const char *op, Device device, const As &...as) {
  auto one = [&](const auto &a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (std::is_same_v<A, Tensor>) {
      if (a.defined() && a.device() != device) wrongDevice(op, device, a.device());
    } else if constexpr (std::is_same_v<A, std::vector<Tensor>>) {
      for (const Tensor &t : a) {
        if (t.defined() && t.device() != device) wrongDevice(op, device, t.device());
      }
    }
  };
  (one(as), ...);
}
}  // namespace detail

template <typename Signature, Types OpTypes>
class Kernels;

template <typename R, typename... Args, Types OpTypes>
class Kernels<R(Args...), OpTypes> {
 public:
  using Fn = R (*)(Args...);
  static constexpr Types types = OpTypes;
  // acrossDevices: the kernel takes tensors of other devices too (copies between them)
  explicit Kernels(const char *name, bool acrossDevices = false) : name_(name), acrossDevices_(acrossDevices) {
    detail::registerTable([this](Device from, Device to) {
      for (int t = 0; t < kNumScalarTypes; t++) {
        auto dtype = static_cast<ScalarType>(t);
        if (has(from, dtype) && !has(to, dtype)) add(to, dtype, fns_[static_cast<int>(from)][t]);
      }
    });
  }
  Kernels(const Kernels &) = delete;  // registered by address
  Kernels &operator=(const Kernels &) = delete;
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
    Fn fn = find(device, dtype);
    if (!acrossDevices_) detail::checkDevices(name_, device, args...);
    return fn(std::forward<Args>(args)...);
  }
  const char *name() const { return name_; }

 private:
  const char *name_;
  bool acrossDevices_;
  Fn fns_[kNumDevices][kNumScalarTypes] = {};
};

namespace cpu {

// The element "type" under which a family registers its Float kernel for Half or BFloat16
// (Note [Half through Float]): TORCH_TEMPLATE(fn) gives ThroughFloat<&fn<float>>::call for it.
struct ViaFloat {};

// Calls f(Tag<T>{}, dtype) for each dtype of types with its C type T: uint8_t for Bool; for
// Half and BFloat16 THHalf in a family of every type (which moves their bits: Note [BFloat16 on
// Half's storage]), else ViaFloat for BFloat16, as PyTorch 1.13 computes every op in bfloat16 on
// the CPU. Half has arithmetic only where a family opts in (fillWithHalf), as in 1.13.
template <Types OpTypes, typename F>
void forEachType(F &&f) {
  if constexpr (OpTypes == Types::Floating) {
    f(Tag<float>{}, ScalarType::Float);
    f(Tag<double>{}, ScalarType::Double);
    f(Tag<ViaFloat>{}, ScalarType::BFloat16);
  } else {
#define TORCH_DISPATCH_EACH_TYPE(Name, T, dtype) f(Tag<T>{}, ScalarType::Name);
    TH_FORALL_ARITH_TYPES(TORCH_DISPATCH_EACH_TYPE)
#undef TORCH_DISPATCH_EACH_TYPE
    f(Tag<uint8_t>{}, ScalarType::Bool);
    if constexpr (OpTypes == Types::All) {
      f(Tag<THHalf>{}, ScalarType::Half);
      f(Tag<THHalf>{}, ScalarType::BFloat16);
    } else {
      f(Tag<ViaFloat>{}, ScalarType::BFloat16);
    }
  }
}

// Registers the CPU column of kernels: pick(Tag<T>{}) gives the kernel of element type T.
template <typename Signature, Types OpTypes, typename Pick>
void fill(Kernels<Signature, OpTypes> &kernels, Pick &&pick) {
  forEachType<OpTypes>([&](auto tag, ScalarType dtype) { kernels.add(Device::CPU, dtype, pick(tag)); });
}

// Note [Half through Float]: TH has no Half arithmetic on the CPU, and bfloat16 is not a TH
// type at all (Note [BFloat16 on Half's storage] in core/BFloat16.h). Their kernels are the
// Float ones: each Half or BFloat16 tensor argument is copied to a new Float tensor, the Float
// kernel runs, and each argument whose Float copy it changed (or resized) gets the new values,
// rounded; an argument it only read is left as it was, bit for bit. So any signature works,
// whichever of its tensors are outputs. Each element is converted, computed in float and
// rounded once, as PyTorch computes both types on the CPU; a device with kernels of its own for
// them registers those instead.
Tensor widenToFloat(const Tensor &reduced);  // a new Float tensor of the same values
// Whether a kernel changed (or resized) the Float copy values of reduced.
bool changedFrom(const Tensor &reduced, const Tensor &values);
void roundInto(const Tensor &reduced, const Tensor &values);  // reduced = values (Float), rounded

template <auto FloatKernel>
struct ThroughFloat;

template <typename R, typename... Args, R (*FloatKernel)(Args...)>
struct ThroughFloat<FloatKernel> {
  static R call(Args... args) {
    // Tensors travel by value (16-bit ones as Float copies); every other argument by reference.
    auto convert = [](auto &&a) -> decltype(auto) {
      using A = std::decay_t<decltype(a)>;
      if constexpr (std::is_same_v<A, Tensor>) {
        return a.defined() && isReducedFloat(a.dtype()) ? widenToFloat(a) : Tensor(a);
      } else {
        return std::forward<decltype(a)>(a);
      }
    };
    std::tuple<std::conditional_t<std::is_same_v<std::decay_t<Args>, Tensor>, Tensor, Args &&>...> held(
        convert(std::forward<Args>(args))...);
    // All changes are found before any is written back: an output may be one of the inputs.
    auto roundBack = [&] {
      std::vector<std::pair<const Tensor *, const Tensor *>> changed;
      std::apply([&](auto &...h) { (findChange(changed, args, h), ...); }, held);
      for (auto [original, values] : changed) roundInto(*original, *values);
    };
    if constexpr (std::is_void_v<R>) {
      std::apply([](auto &...h) { FloatKernel(h...); }, held);
      roundBack();
    } else {
      R r = std::apply([](auto &...h) { return FloatKernel(h...); }, held);
      roundBack();
      return r;
    }
  }

 private:
  template <typename A, typename H>
  static void findChange(std::vector<std::pair<const Tensor *, const Tensor *>> &changed, const A &original,
                         const H &converted) {
    if constexpr (std::is_same_v<std::decay_t<A>, Tensor>) {
      if (original.defined() && isReducedFloat(original.dtype()) && changedFrom(original, converted)) {
        changed.emplace_back(&original, &converted);
      }
    }
  }
};

// fill, and Half through the Float kernel too (as BFloat16 always is).
template <typename Signature, Types OpTypes, typename Pick>
void fillWithHalf(Kernels<Signature, OpTypes> &kernels, Pick &&pick) {
  static_assert(OpTypes != Types::All, "a family of every type has Half kernels of its own");
  fill(kernels, pick);
  kernels.add(Device::CPU, ScalarType::Half, pick(Tag<ViaFloat>{}));
}

}  // namespace cpu

// The instantiations of a kernel template, for cpu::fill:  cpu::fill(k, TORCH_TEMPLATE(sumDim));
// for ViaFloat, fn<float> through float (Note [Half through Float]).
#define TORCH_TEMPLATE(fn)                                     \
  [](auto tag) {                                               \
    using T = typename decltype(tag)::type;                    \
    if constexpr (std::is_same_v<T, ::torch::cpu::ViaFloat>) { \
      return &::torch::cpu::ThroughFloat<&fn<float>>::call;    \
    } else {                                                   \
      return &fn<T>;                                           \
    }                                                          \
  }

template <typename Kernel, int NumOps>
class KernelTable {
 public:
  KernelTable() {
    detail::registerTable([this](Device from, Device to) {
      for (int op = 0; op < NumOps; op++) {
        for (int t = 0; t < kNumScalarTypes; t++) {
          auto dtype = static_cast<ScalarType>(t);
          if (has(op, from, dtype) && !has(op, to, dtype)) add(op, to, dtype, kernels_[op][static_cast<int>(from)][t]);
        }
      }
    });
  }
  KernelTable(const KernelTable &) = delete;  // registered by address
  KernelTable &operator=(const KernelTable &) = delete;
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
