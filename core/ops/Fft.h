// The discrete Fourier transforms under torch.fft: PyTorch's three primitives (_fft_c2c,
// _fft_r2c, _fft_c2r), on which the Python module writes fft, rfft, hfft and their inverses
// and n-dimensional forms as PyTorch does. Each transforms the dimensions dims at once, with
// their gradients (Note [Complex tensors] in core/ops/Complex.h for the convention).
//
//   Tensor spectrum = fftR2C(signal, {-1}, FftNorm::None, true);  // torch.fft.rfft(signal)
#ifndef TORCH_OPS_FFT_H
#define TORCH_OPS_FFT_H

#include "core/Tensor.h"

namespace torch {

// The scaling of a transform: none, 1 / sqrt(n) or 1 / n, n the product of the signal sizes.
enum class FftNorm : int { None = 0, ByRootN = 1, ByN = 2 };

// Complex to complex; forward: exp(-2 pi i jk / n).
Tensor fftC2C(const Tensor &t, const IntList &dims, FftNorm norm, bool forward);
// Real to complex, forward; onesided keeps the last of dims' first n / 2 + 1 outputs.
Tensor fftR2C(const Tensor &t, const IntList &dims, FftNorm norm, bool onesided);
// Hermitian complex (the last of dims holds lastDimSize / 2 + 1 values) to real of lastDimSize
// along that dimension, backward (exp(+2 pi i jk / n)).
Tensor fftC2R(const Tensor &t, const IntList &dims, FftNorm norm, int64_t lastDimSize);

}  // namespace torch

#endif
