// The CPU column of the FFT kernels: pocketfft (BSD-3; numpy's and scipy's FFT), one header
// that scripts/setup.sh takes from numpy's sdist (@pocketfft in third_party/system_libs.bzl).
#include "core/ops/FftKernels.h"

#include <complex>

// Its own thread pool would outlive fork() badly; the transforms run on the caller's thread.
#define POCKETFFT_NO_MULTITHREADING
#include "pocketfft_hdronly.h"

namespace torch::cpu {

namespace {

// pocketfft's geometry of t: sizes, and strides in bytes.
pocketfft::shape_t shapeOf(const Tensor &t) {
  IntList sizes = t.sizes();
  return pocketfft::shape_t(sizes.begin(), sizes.end());
}
pocketfft::stride_t byteStrides(const Tensor &t) {
  pocketfft::stride_t s;
  for (int64_t st : t.strides()) s.push_back(static_cast<ptrdiff_t>(st * elementSize(t.dtype())));
  return s;
}
pocketfft::shape_t axesOf(const IntList &dims) { return pocketfft::shape_t(dims.begin(), dims.end()); }

template <typename T>
void c2c(const Tensor &out, const Tensor &in, const IntList &dims, bool forward, double scale) {
  pocketfft::c2c<T>(shapeOf(in), byteStrides(in), byteStrides(out), axesOf(dims), forward,
                    reinterpret_cast<const std::complex<T> *>(in.dataPtr()),
                    reinterpret_cast<std::complex<T> *>(out.dataPtr()), static_cast<T>(scale));
}

template <typename T>
void r2c(const Tensor &out, const Tensor &in, const IntList &dims, double scale) {
  pocketfft::r2c<T>(shapeOf(in), byteStrides(in), byteStrides(out), axesOf(dims), true,
                    reinterpret_cast<const T *>(in.dataPtr()), reinterpret_cast<std::complex<T> *>(out.dataPtr()),
                    static_cast<T>(scale));
}

template <typename T>
void c2r(const Tensor &out, const Tensor &in, const IntList &dims, double scale) {
  pocketfft::c2r<T>(shapeOf(out), byteStrides(in), byteStrides(out), axesOf(dims), false,
                    reinterpret_cast<const std::complex<T> *>(in.dataPtr()), reinterpret_cast<T *>(out.dataPtr()),
                    static_cast<T>(scale));
}

}  // namespace

void registerFftKernels(FftKernels &k) {
  cpu::fill(k.c2c, TORCH_TEMPLATE(c2c));
  cpu::fill(k.r2c, TORCH_TEMPLATE(r2c));
  cpu::fill(k.c2r, TORCH_TEMPLATE(c2r));
}

}  // namespace torch::cpu
