// Complex tensors' own functions (torch._C._view_as_real, ...) and the FFT primitives
// (torch._C._fft_c2c, _fft_r2c, _fft_c2r) that torch/fft.py builds torch.fft on.
#include "core/ops/Complex.h"
#include "core/ops/Fft.h"
#include "python/csrc/Bind.h"

namespace torch::python {

namespace {

FftNorm fftNorm(int64_t n) {
  TORCH_CHECK(n >= 0 && n <= 2, Value, "invalid FFT normalization %lld", static_cast<long long>(n));
  return static_cast<FftNorm>(n);
}

}  // namespace

void bindComplex(py::module &m, TensorClass &cls) {
  m.def("_view_as_real", [](const Tensor &t) { return viewAsReal(t); });
  m.def("_view_as_complex", [](const Tensor &t) { return viewAsComplex(t); });
  m.def("_real", [](const Tensor &t) { return real(t); });
  m.def("_imag", [](const Tensor &t) { return imag(t); });
  m.def("_complex", [](const Tensor &re, const Tensor &im) { return complex(re, im); });
  m.def("_polar", [](const Tensor &abs, const Tensor &angle) { return polar(abs, angle); });
  m.def("_conj", [](const Tensor &t) { return conj(t); });
  m.def("_angle", [](const Tensor &t) { return angle(t); });
  cls.def("is_complex", [](const Tensor &t) { return isComplex(t.dtype()); });
  m.def(
      "_fft_c2c",
      [](const Tensor &t, const IntList &dims, int64_t norm, bool forward) {
        return withoutGil([&] { return fftC2C(t, dims, fftNorm(norm), forward); });
      },
      py::arg("input"), py::arg("dim"), py::arg("normalization"), py::arg("forward"));
  m.def(
      "_fft_r2c",
      [](const Tensor &t, const IntList &dims, int64_t norm, bool onesided) {
        return withoutGil([&] { return fftR2C(t, dims, fftNorm(norm), onesided); });
      },
      py::arg("input"), py::arg("dim"), py::arg("normalization"), py::arg("onesided"));
  m.def(
      "_fft_c2r",
      [](const Tensor &t, const IntList &dims, int64_t norm, int64_t lastDimSize) {
        return withoutGil([&] { return fftC2R(t, dims, fftNorm(norm), lastDimSize); });
      },
      py::arg("input"), py::arg("dim"), py::arg("normalization"), py::arg("last_dim_size"));
}

}  // namespace torch::python
