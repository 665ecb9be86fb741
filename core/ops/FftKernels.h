// The kernels of the discrete Fourier transforms (Note [Dispatch by device and type] in
// core/Dispatch.h), looked up by the real type of the transform (Float for complex64 data,
// Double for complex128): the CPU's are pocketfft's (core/ops/cpu/FftKernels.cpp), a GPU
// library registers cuFFT's in the same members. Each transforms the dimensions dims of in
// (any strides) into out (contiguous, allocated by the caller) and multiplies by scale;
// forward is the sign of the exponent (true: exp(-2 pi i jk/n)).
#ifndef TORCH_OPS_FFT_KERNELS_H
#define TORCH_OPS_FFT_KERNELS_H

#include "core/Dispatch.h"

namespace torch {

struct FftKernels {
  // complex in, complex out, same sizes
  Kernels<void(const Tensor &out, const Tensor &in, const IntList &dims, bool forward, double scale), Types::Floating>
      c2c{"fft_c2c"};
  // real in, complex out: the last of dims keeps its first n / 2 + 1 outputs (forward)
  Kernels<void(const Tensor &out, const Tensor &in, const IntList &dims, double scale), Types::Floating> r2c{"fft_r2c"};
  // complex in (Hermitian: the last of dims holds n / 2 + 1 inputs), real out of the sizes of
  // out (backward)
  Kernels<void(const Tensor &out, const Tensor &in, const IntList &dims, double scale), Types::Floating> c2r{"fft_c2r"};
};

FftKernels &fftKernels();

namespace cpu {
void registerFftKernels(FftKernels &k);  // core/ops/cpu/FftKernels.cpp
}

}  // namespace torch

#endif
