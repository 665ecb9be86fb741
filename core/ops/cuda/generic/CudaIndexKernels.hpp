#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THC's indexing ops of element type scalar_t (THCTensorIndex.h) for core/ops/IndexKernels.h,
// linked in their base-0 build: indices count from 0 as the core's do. The positions of
// advanced indexing, which THC lacks, are composed from its Long ops. Not here: the
// multiplying scatter.
template <>
struct CudaIndexKernels<scalar_t> {
#if !defined(TH_REAL_IS_HALF)
  static THCTensor *dev(const Tensor &t) { return CudaKernels<scalar_t>::dev(t); }

  // The element value v in self's type; a Bool tensor holds 0 or 1 (as the CPU's kernels).
  static scalar_t elementValue(const Tensor &self, Scalar v) {
    if (self.dtype() == ScalarType::Bool) return static_cast<scalar_t>(v.isFloating() ? v.d != 0 : v.i != 0);
    return v.to<scalar_t>();
  }

  static void indexSelect(const Tensor &r, const Tensor &t, int dim, const Tensor &index) {
    THCTensor_(indexSelect)(state(), dev(r), dev(t), dim, devLong(index));
  }
  static void gather(const Tensor &r, const Tensor &t, int dim, const Tensor &index) {
    THCTensor_(gather)(state(), dev(r), dev(t), dim, devLong(index));
  }
#define CORE_CUDA_INDEX_WRITE(name)                                                      \
  static void name(const Tensor &dst, int dim, const Tensor &index, const Tensor &src) { \
    THCTensor_(name)(state(), dev(dst), dim, devLong(index), dev(src));                  \
  }
  CORE_CUDA_INDEX_WRITE(indexCopy)
  CORE_CUDA_INDEX_WRITE(indexAdd)
  CORE_CUDA_INDEX_WRITE(scatter)
  CORE_CUDA_INDEX_WRITE(scatterAdd)
#undef CORE_CUDA_INDEX_WRITE
  static void indexFill(const Tensor &dst, int dim, const Tensor &index, Scalar value) {
    THCTensor_(indexFill)(state(), dev(dst), dim, devLong(index), elementValue(dst, value));
  }
  static void scatterFill(const Tensor &dst, int dim, const Tensor &index, Scalar value) {
    THCTensor_(scatterFill)(state(), dev(dst), dim, devLong(index), elementValue(dst, value));
  }
  static void maskedFill(const Tensor &dst, const Tensor &mask, Scalar value) {
    THCTensor_(maskedFill)(state(), dev(dst), devByte(mask), elementValue(dst, value));
  }
  static void maskedCopy(const Tensor &dst, const Tensor &mask, const Tensor &src) {
    THCTensor_(maskedCopy)(state(), dev(dst), devByte(mask), dev(src));
  }
  static void maskedSelect(const Tensor &r, const Tensor &t, const Tensor &mask) {
    THCTensor_(maskedSelect)(state(), dev(r), dev(t), devByte(mask));
  }
  static void nonzero(const Tensor &r, const Tensor &t) { THCTensor_(nonzero)(state(), devLong(r), dev(t)); }
  static void take(const Tensor &r, const Tensor &t, const Tensor &index) {
    THCTensor_(take)(state(), dev(r), dev(t), devLong(index));
  }
  static void put(const Tensor &dst, const Tensor &index, const Tensor &src, bool accumulate) {
    THCTensor_(put)(state(), dev(dst), devLong(index), dev(src), accumulate);
  }

#if defined(TH_REAL_IS_LONG)
  // positions (+)= wrapped(index) * stride, as the CPU's: the same values, and its error
  // naming the first index out of range (in row-major order) before anything is written.
  static void advancedPositions(const Tensor &positions, const Tensor &index, int64_t size, int64_t stride,
                                int reportDim, bool single) {
    NoGradGuard plain;  // a kernel's temporaries, not the user's
    Tensor outside = empty(index.sizes(), ScalarType::Byte, Device::CUDA);
    Tensor above = empty(index.sizes(), ScalarType::Byte, Device::CUDA);
    THCTensor_(ltValue)(state(), devByte(outside), dev(index), -size);
    THCTensor_(geValue)(state(), devByte(above), dev(index), size);
    THCudaByteTensor_cmax(state(), devByte(outside), devByte(outside), devByte(above));
    if (THCudaByteTensor_logicalany(state(), devByte(outside))) {
      Tensor bad = empty({0}, ScalarType::Long, Device::CUDA);
      THCTensor_(maskedSelect)(state(), dev(bad), dev(index), devByte(outside));
      fail(th::ErrorKind::Index, "index %lld is out of range for dimension %d with size %lld",
           static_cast<long long>(CudaKernels<int64_t>::read(bad, 0).i), reportDim, static_cast<long long>(size));
    }
    // wrapped = index + size where index < 0
    Tensor wrapped = empty(index.sizes(), ScalarType::Long, Device::CUDA);
    THCTensor_(ltValueT)(state(), dev(wrapped), dev(index), 0);
    THCTensor_(mul)(state(), dev(wrapped), dev(wrapped), size);
    THCTensor_(cadd)(state(), dev(wrapped), dev(wrapped), 1, dev(index));
    if (single) {
      THCTensor_(copy)(state(), dev(positions), dev(wrapped));
    } else {
      THCTensor_(cadd)(state(), dev(positions), dev(positions), stride, dev(wrapped));
    }
  }
#endif
#endif

  // Registers this type's kernels for dtype (Bool on the Byte kernels).
  static void add([[maybe_unused]] ScalarType dtype) {
#if !defined(TH_REAL_IS_HALF)
    IndexKernels &k = indexKernels();
#define CORE_CUDA_ADD(name) k.name.add(Device::CUDA, dtype, &name);
    CORE_CUDA_ADD(indexSelect)
    CORE_CUDA_ADD(gather)
    CORE_CUDA_ADD(indexCopy)
    CORE_CUDA_ADD(indexAdd)
    CORE_CUDA_ADD(scatter)
    CORE_CUDA_ADD(scatterAdd)
    CORE_CUDA_ADD(indexFill)
    CORE_CUDA_ADD(scatterFill)
    CORE_CUDA_ADD(maskedFill)
    CORE_CUDA_ADD(maskedCopy)
    CORE_CUDA_ADD(maskedSelect)
    CORE_CUDA_ADD(nonzero)
    CORE_CUDA_ADD(take)
    CORE_CUDA_ADD(put)
#if defined(TH_REAL_IS_LONG)
    CORE_CUDA_ADD(advancedPositions)
#endif
#undef CORE_CUDA_ADD
#endif
  }
};
