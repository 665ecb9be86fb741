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
  All,       // every type, Half included (copies, fills, views of memory)
  Arith,     // every type with arithmetic: all but Half; Bool runs on Byte's kernel
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

// Note [Half through Float]: TH has no Half arithmetic on the CPU. A kernel family that opts
// in (fillWithHalf, or the pointwise tables) runs a Half call on its Float kernel: each Half
// tensor argument is copied to a new Float tensor, the Float kernel runs, and its first
// tensor argument of a kernel that returns nothing (its output, by the convention of these
// signatures; the others are read only, as are all of a kernel returning a value) is rounded
// back into the Half tensor. Each element is converted, computed in float
// and rounded once, as PyTorch computes Half on the CPU; a device with Half kernels of its own
// registers those instead.
Tensor halfToFloat(const Tensor &half);                   // a new Float tensor of the same values
void roundIntoHalf(const Tensor &half, const Tensor &f);  // half = f, rounded

template <auto FloatKernel>
struct HalfThroughFloat;

template <typename R, typename... Args, R (*FloatKernel)(Args...)>
struct HalfThroughFloat<FloatKernel> {
  static R call(Args... args) {
    // Tensors travel by value (Half ones as Float copies); every other argument by reference.
    auto convert = [](auto &&a) -> decltype(auto) {
      using A = std::decay_t<decltype(a)>;
      if constexpr (std::is_same_v<A, Tensor>) {
        return a.defined() && a.dtype() == ScalarType::Half ? halfToFloat(a) : Tensor(a);
      } else {
        return std::forward<decltype(a)>(a);
      }
    };
    std::tuple<std::conditional_t<std::is_same_v<std::decay_t<Args>, Tensor>, Tensor, Args &&>...> held(
        convert(std::forward<Args>(args))...);
    const Tensor *output = firstTensor(args...);
    const Tensor *converted = std::apply([](auto &...h) { return firstTensor(h...); }, held);
    if constexpr (std::is_void_v<R>) {
      std::apply([](auto &...h) { FloatKernel(h...); }, held);
      if (output && output->defined() && output->dtype() == ScalarType::Half) roundIntoHalf(*output, *converted);
    } else {
      return std::apply([](auto &...h) { return FloatKernel(h...); }, held);
    }
  }

 private:
  template <typename... As>
  static const Tensor *firstTensor(const As &...as) {
    const Tensor *first = nullptr;
    auto visit = [&first](const auto &a) {
      if constexpr (std::is_same_v<std::decay_t<decltype(a)>, Tensor>) {
        if (!first) first = &a;
      }
    };
    (visit(as), ...);
    return first;
  }
};

// fill, and Half through the Float kernel: pick is TORCH_TEMPLATE_WITH_HALF(fn).
template <typename Signature, Types OpTypes, typename Pick>
void fillWithHalf(Kernels<Signature, OpTypes> &kernels, Pick &&pick) {
  static_assert(OpTypes != Types::All, "a family of every type has Half kernels of its own");
  fill(kernels, pick);
  kernels.add(Device::CPU, ScalarType::Half, pick(Tag<THHalf>{}));
}

}  // namespace cpu

// The instantiations of a kernel template, for cpu::fill:  cpu::fill(k, TORCH_TEMPLATE(sumDim)).
#define TORCH_TEMPLATE(fn) [](auto tag) { return &fn<typename decltype(tag)::type>; }
// The same with Half through fn<float> (Note [Half through Float]), for cpu::fillWithHalf.
#define TORCH_TEMPLATE_WITH_HALF(fn)                            \
  [](auto tag) {                                                \
    using T = typename decltype(tag)::type;                     \
    if constexpr (std::is_same_v<T, THHalf>) {                  \
      return &::torch::cpu::HalfThroughFloat<&fn<float>>::call; \
    } else {                                                    \
      return &fn<T>;                                            \
    }                                                           \
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
