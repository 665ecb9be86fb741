#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THC's kernels of element type scalar_t with the core's kernel signatures (core/ops/
// PointwiseKernels.h, CopyKernels.h), and the registration of those that exist for the
// type: the rows of the op tables whose Types include it (TH_IF_<Types>). The other
// families have generic files of their own (CudaReduceKernels.hpp, ...).
template <>
struct CudaKernels<scalar_t> {
  static THCTensor *dev(const Tensor &t) { return reinterpret_cast<THCTensor *>(t.raw()); }

  // dst (this type, on the GPU or on the host) = src (any type, either side).
  static void copy(const Tensor &dst, const Tensor &src) {
    if (dst.device() == Device::CUDA && src.device() == Device::CUDA) {
      switch (src.dtype()) {
#define CORE_CUDA_COPY_FROM(Name, T, dtype)                                                             \
  case ScalarType::Name:                                                                                \
    THCTensor_(copyCuda##Name)(state(), dev(dst), reinterpret_cast<THCuda##Name##Tensor *>(src.raw())); \
    return;
        TH_FORALL_TYPES(CORE_CUDA_COPY_FROM)
#undef CORE_CUDA_COPY_FROM
        case ScalarType::Bool:
          THCTensor_(copyCudaByte)(state(), dev(dst), reinterpret_cast<THCudaByteTensor *>(src.raw()));
          return;
        case ScalarType::ComplexFloat:
        case ScalarType::ComplexDouble:  // copied as their real views (Note [Complex tensors])
          fail(th::ErrorKind::Type, "copy: a complex source reached a real kernel");
        case ScalarType::BFloat16:  // THC has no bfloat16 (Note [BFloat16 on Half's storage])
          fail(th::ErrorKind::Runtime, "\"copy_\" not implemented for 'BFloat16' on cuda");
      }
    }
    if (dst.device() == Device::CUDA) {
      // From the host: converted there to this type first, then one transfer.
      Tensor host = src.dtype() == dst.dtype() ? src : to(src, dst.dtype(), Device::CPU);
#define CORE_CUDA_COPY_SAME_TYPE TH_CONCAT_2(copy, Real)
      THCTensor_(CORE_CUDA_COPY_SAME_TYPE)(state(), dev(dst), reinterpret_cast<THTensor *>(host.raw()));
#undef CORE_CUDA_COPY_SAME_TYPE
      return;
    }
    // To the host: converted on the GPU to this type first, then one transfer.
    Tensor onGpu = src.dtype() == dst.dtype() ? src : to(src, dst.dtype(), Device::CUDA);
    THTensor_(copyCuda)(state(), reinterpret_cast<THTensor *>(dst.raw()), dev(onGpu));
  }

  static void fill(const Tensor &t, Scalar v) { THCTensor_(fill)(state(), dev(t), v.to<scalar_t>()); }

  static Scalar read(const Tensor &t, int64_t offset) {
    NoGradGuard plain;  // a kernel's view, not the user's
    Tensor one = asStrided(t, {}, {}, t.storageOffset() + offset);
    Tensor host = empty({}, t.dtype(), Device::CPU);
    THTensor_(copyCuda)(state(), reinterpret_cast<THTensor *>(host.raw()), dev(one));
    return copyKernels().read(Device::CPU, host.dtype(), host, 0);
  }

#if !defined(TH_REAL_IS_HALF)
  static void copyToBool(const Tensor &dst, const Tensor &src) {
    THCTensor_(neValue)(state(), reinterpret_cast<THCudaByteTensor *>(dst.raw()), dev(src), scalar_t(0));
  }

#define CORE_CUDA_UNARY(Op, torch, thName, Types, ...) \
  TH_IF_##Types(                                       \
      static void unary##Op(const Tensor &r, const Tensor &t) { THCTensor_(thName)(state(), dev(r), dev(t)); })
  TH_FORALL_UNARY_OPS(CORE_CUDA_UNARY)
#undef CORE_CUDA_UNARY

  // Add and Sub take alpha (r = a + alpha * b), as THC's cadd and csub do.
  template <typename F>
  static void callBinary(F fn, const Tensor &r, const Tensor &a, const Tensor &b, Scalar alpha) {
    if constexpr (std::is_invocable_v<F, THCState *, THCTensor *, THCTensor *, scalar_t, THCTensor *>) {
      fn(state(), dev(r), dev(a), alpha.to<scalar_t>(), dev(b));
    } else {
      (void)alpha;
      fn(state(), dev(r), dev(a), dev(b));
    }
  }
#define CORE_CUDA_BINARY(Op, torch, cthName, thName, Types)                                     \
  TH_IF_##Types(                                                                                \
      static void binary##Op(const Tensor &r, const Tensor &a, const Tensor &b, Scalar alpha) { \
        callBinary(&THCTensor_(cthName), r, a, b, alpha);                                       \
      } static void binaryScalar##Op(const Tensor &r, const Tensor &a, Scalar b) {              \
        THCTensor_(thName)(state(), dev(r), dev(a), b.to<scalar_t>());                          \
      })
  TH_FORALL_BINARY_OPS(CORE_CUDA_BINARY)
#undef CORE_CUDA_BINARY

#define CORE_CUDA_COMPARE(Op, torch, thName, alias)                                                                \
  static void compare##Op(const Tensor &r, const Tensor &a, const Tensor &b) {                                     \
    if (r.dtype() == ScalarType::Bool) {                                                                           \
      THCTensor_(thName##Tensor)(state(), reinterpret_cast<THCudaByteTensor *>(r.raw()), dev(a), dev(b));          \
    } else {                                                                                                       \
      THCTensor_(thName##TensorT)(state(), dev(r), dev(a), dev(b));                                                \
    }                                                                                                              \
  }                                                                                                                \
  static void compareScalar##Op(const Tensor &r, const Tensor &a, Scalar b) {                                      \
    if (r.dtype() == ScalarType::Bool) {                                                                           \
      THCTensor_(thName##Value)(state(), reinterpret_cast<THCudaByteTensor *>(r.raw()), dev(a), b.to<scalar_t>()); \
    } else {                                                                                                       \
      THCTensor_(thName##ValueT)(state(), dev(r), dev(a), b.to<scalar_t>());                                       \
    }                                                                                                              \
  }
  TH_FORALL_COMPARE_OPS(CORE_CUDA_COMPARE)
#undef CORE_CUDA_COMPARE

#endif

  // Registers this type's kernels for dtype (Bool on the Byte kernels).
  static void add(ScalarType dtype) {
    CopyKernels &c = copyKernels();
    c.copy.add(Device::CUDA, dtype, &copy);
    c.read.add(Device::CUDA, dtype, &read);
#if !defined(TH_REAL_IS_HALF)
    c.fill.add(Device::CUDA, dtype, &fill);
    c.copyToBool.add(Device::CUDA, dtype, &copyToBool);
    PointwiseKernels &p = pointwiseKernels();
#define CORE_CUDA_ADD_UNARY(Op, torch, thName, Types, ...) \
  TH_IF_##Types(p.unary.add(static_cast<int>(UnaryOp::Op), Device::CUDA, dtype, &unary##Op);)
    TH_FORALL_UNARY_OPS(CORE_CUDA_ADD_UNARY)
#undef CORE_CUDA_ADD_UNARY
#define CORE_CUDA_ADD_BINARY(Op, torch, cthName, thName, Types)                                 \
  TH_IF_##Types(p.binary.add(static_cast<int>(BinaryOp::Op), Device::CUDA, dtype, &binary##Op); \
                p.binaryScalar.add(static_cast<int>(BinaryOp::Op), Device::CUDA, dtype, &binaryScalar##Op);)
    TH_FORALL_BINARY_OPS(CORE_CUDA_ADD_BINARY)
#undef CORE_CUDA_ADD_BINARY
#define CORE_CUDA_ADD_COMPARE(Op, ...)                                               \
  p.compare.add(static_cast<int>(CompareOp::Op), Device::CUDA, dtype, &compare##Op); \
  p.compareScalar.add(static_cast<int>(CompareOp::Op), Device::CUDA, dtype, &compareScalar##Op);
    TH_FORALL_COMPARE_OPS(CORE_CUDA_ADD_COMPARE)
#undef CORE_CUDA_ADD_COMPARE
#endif
  }
};
