// The CPU column of the pointwise kernel tables: for every row of the op tables (Note
// [Pointwise op tables] in TH/THPointwiseOps.h) and every element type of its Types, the
// TH kernel of that type. Bool tensors are bytes and run on the Byte kernels; Half and
// BFloat16 run on the Float kernels (Note [Half through Float] in core/Dispatch.h).
#include <type_traits>

#include "core/ops/PointwiseKernels.h"

namespace torch::cpu {

namespace {

// The Types column as predicates on the C element type.
template <typename T>
constexpr bool inAll = true;
template <typename T>
constexpr bool inFloating = std::is_floating_point_v<T>;
template <typename T>
constexpr bool inIntegral = std::is_integral_v<T>;

#define TORCH_CPU_UNARY(Op, torch, thName, Types, ...)  \
  struct Unary##Op {                                    \
    template <typename T>                               \
    static constexpr bool exists = in##Types<T>;        \
    template <typename T>                               \
    static void run(const Tensor &r, const Tensor &t) { \
      TH<T>::thName(r.th<T>(), t.th<T>());              \
    }                                                   \
  };
TH_FORALL_UNARY_OPS(TORCH_CPU_UNARY)
#undef TORCH_CPU_UNARY

// Add and Sub's tensor kernels take alpha (r = a + alpha * b), the others do not.
#define TORCH_CPU_BINARY(Op, torch, cthName, thName, Types)                            \
  struct Binary##Op {                                                                  \
    template <typename T>                                                              \
    static constexpr bool exists = in##Types<T>;                                       \
    template <typename T>                                                              \
    static void run(const Tensor &r, const Tensor &a, const Tensor &b, Scalar alpha) { \
      using R = typename TH<T>::Tensor;                                                \
      if constexpr (std::is_invocable_v<decltype(TH<T>::cthName), R *, R *, T, R *>) { \
        TH<T>::cthName(r.th<T>(), a.th<T>(), alpha.to<T>(), b.th<T>());                \
      } else {                                                                         \
        (void)alpha;                                                                   \
        TH<T>::cthName(r.th<T>(), a.th<T>(), b.th<T>());                               \
      }                                                                                \
    }                                                                                  \
    template <typename T>                                                              \
    static void runScalar(const Tensor &r, const Tensor &a, Scalar b) {                \
      TH<T>::thName(r.th<T>(), a.th<T>(), b.to<T>());                                  \
    }                                                                                  \
  };
TH_FORALL_BINARY_OPS(TORCH_CPU_BINARY)
#undef TORCH_CPU_BINARY

#define TORCH_CPU_COMPARE(Op, torch, thName, alias)                      \
  struct Compare##Op {                                                   \
    template <typename T>                                                \
    static constexpr bool exists = true;                                 \
    template <typename T>                                                \
    static void run(const Tensor &r, const Tensor &a, const Tensor &b) { \
      if (r.dtype() == ScalarType::Bool) {                               \
        TH<T>::thName##Tensor(r.th<uint8_t>(), a.th<T>(), b.th<T>());    \
      } else {                                                           \
        TH<T>::thName##TensorT(r.th<T>(), a.th<T>(), b.th<T>());         \
      }                                                                  \
    }                                                                    \
    template <typename T>                                                \
    static void runScalar(const Tensor &r, const Tensor &a, Scalar b) {  \
      if (r.dtype() == ScalarType::Bool) {                               \
        TH<T>::thName##Value(r.th<uint8_t>(), a.th<T>(), b.to<T>());     \
      } else {                                                           \
        TH<T>::thName##ValueT(r.th<T>(), a.th<T>(), b.to<T>());          \
      }                                                                  \
    }                                                                    \
  };
TH_FORALL_COMPARE_OPS(TORCH_CPU_COMPARE)
#undef TORCH_CPU_COMPARE

// Calls f(Tag<T>{}, dtype) for every arithmetic element type, for Bool with Byte's and for
// Half and BFloat16 with THHalf (whose kernels are the Float ones through ThroughFloat).
template <typename F>
void forEachType(F &&f) {
#define TORCH_CPU_EACH_TYPE(Name, T, dtype) f(Tag<T>{}, ScalarType::Name);
  TH_FORALL_ARITH_TYPES(TORCH_CPU_EACH_TYPE)
#undef TORCH_CPU_EACH_TYPE
  f(Tag<uint8_t>{}, ScalarType::Bool);
  f(Tag<THHalf>{}, ScalarType::Half);
  f(Tag<THHalf>{}, ScalarType::BFloat16);
}

// Whether an op of the table exists for T (Half where it exists for float).
template <typename Op, typename T>
constexpr bool existsFor() {
  if constexpr (std::is_same_v<T, THHalf>) {
    return Op::template exists<float>;
  } else {
    return Op::template exists<T>;
  }
}

// The kernel of element type T: Kernel<T>, or for THHalf Kernel<float> through Float.
#define TORCH_CPU_KERNEL(Kernel)                  \
  [] {                                            \
    if constexpr (std::is_same_v<T, THHalf>) {    \
      return &ThroughFloat<&Kernel<float>>::call; \
    } else {                                      \
      return &Kernel<T>;                          \
    }                                             \
  }()

}  // namespace

void registerPointwiseKernels(PointwiseKernels &tables) {
#define TORCH_REGISTER_UNARY(Op, ...)                                                                        \
  forEachType([&](auto tag, ScalarType dtype) {                                                              \
    using T = typename decltype(tag)::type;                                                                  \
    if constexpr (existsFor<Unary##Op, T>())                                                                 \
      tables.unary.add(static_cast<int>(UnaryOp::Op), Device::CPU, dtype, TORCH_CPU_KERNEL(Unary##Op::run)); \
  });
  TH_FORALL_UNARY_OPS(TORCH_REGISTER_UNARY)
#undef TORCH_REGISTER_UNARY
#define TORCH_REGISTER_BINARY(Op, ...)                                                                          \
  forEachType([&](auto tag, ScalarType dtype) {                                                                 \
    using T = typename decltype(tag)::type;                                                                     \
    if constexpr (existsFor<Binary##Op, T>()) {                                                                 \
      tables.binary.add(static_cast<int>(BinaryOp::Op), Device::CPU, dtype, TORCH_CPU_KERNEL(Binary##Op::run)); \
      tables.binaryScalar.add(static_cast<int>(BinaryOp::Op), Device::CPU, dtype,                               \
                              TORCH_CPU_KERNEL(Binary##Op::runScalar));                                         \
    }                                                                                                           \
  });
  TH_FORALL_BINARY_OPS(TORCH_REGISTER_BINARY)
#undef TORCH_REGISTER_BINARY
#define TORCH_REGISTER_COMPARE(Op, ...)                                                                          \
  forEachType([&](auto tag, ScalarType dtype) {                                                                  \
    using T = typename decltype(tag)::type;                                                                      \
    tables.compare.add(static_cast<int>(CompareOp::Op), Device::CPU, dtype, TORCH_CPU_KERNEL(Compare##Op::run)); \
    tables.compareScalar.add(static_cast<int>(CompareOp::Op), Device::CPU, dtype,                                \
                             TORCH_CPU_KERNEL(Compare##Op::runScalar));                                          \
  });
  TH_FORALL_COMPARE_OPS(TORCH_REGISTER_COMPARE)
#undef TORCH_REGISTER_COMPARE
}

}  // namespace torch::cpu
