// torch._C._nn, spatial half: the core ops of core/ops/NNSpatial.h with list arguments.
// torch/nn/_functional_spatial.py turns PyTorch's arguments (ints or tuples, defaults,
// None sizes, scale factors) into these calls.
#include "core/ops/NNSpatial.h"

#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

Tensor orUndefined(const std::optional<Tensor> &t) { return t ? *t : Tensor(); }

}  // namespace

void bindNNSpatial(py::module &m, TensorClass &) {
  m.def(
      "convolution",
      [](const Tensor &input, const Tensor &weight, const std::optional<Tensor> &bias, const IntList &stride,
         py::handle padding, const IntList &dilation, int64_t groups) {
        if (py::isinstance<py::str>(padding)) {
          std::string mode = padding.cast<std::string>();
          return withoutGil(
              [&] { return nn::convolution(input, weight, orUndefined(bias), stride, mode, dilation, groups); });
        }
        IntList pads = toIntList(padding, "padding");
        return withoutGil(
            [&] { return nn::convolution(input, weight, orUndefined(bias), stride, pads, dilation, groups); });
      },
      py::arg("input"), py::arg("weight"), py::arg("bias"), py::arg("stride"), py::arg("padding"), py::arg("dilation"),
      py::arg("groups"));
  m.def(
      "conv_transpose",
      [](const Tensor &input, const Tensor &weight, const std::optional<Tensor> &bias, const IntList &stride,
         const IntList &padding, const IntList &outputPadding, int64_t groups, const IntList &dilation) {
        return nn::convTranspose(input, weight, orUndefined(bias), stride, padding, outputPadding, groups, dilation);
      },
      py::arg("input"), py::arg("weight"), py::arg("bias"), py::arg("stride"), py::arg("padding"),
      py::arg("output_padding"), py::arg("groups"), py::arg("dilation"), ReleaseGil());

  m.def("max_pool", &nn::maxPool, py::arg("input"), py::arg("kernel_size"), py::arg("stride"), py::arg("padding"),
        py::arg("dilation"), py::arg("ceil_mode"), ReleaseGil());
  m.def("avg_pool", &nn::avgPool, py::arg("input"), py::arg("kernel_size"), py::arg("stride"), py::arg("padding"),
        py::arg("ceil_mode"), py::arg("count_include_pad"), py::arg("divisor_override"), ReleaseGil());
  m.def("adaptive_max_pool", &nn::adaptiveMaxPool, py::arg("input"), py::arg("output_size"), ReleaseGil());
  m.def("adaptive_avg_pool", &nn::adaptiveAvgPool, py::arg("input"), py::arg("output_size"), ReleaseGil());
  m.def("max_unpool", &nn::maxUnpool, py::arg("input"), py::arg("indices"), py::arg("output_size"), ReleaseGil());

  m.def("interpolate", &nn::interpolate, py::arg("input"), py::arg("mode"), py::arg("output_size"), py::arg("scales"),
        py::arg("align_corners"), ReleaseGil());
  m.def("pad", &nn::pad, py::arg("input"), py::arg("pad"), py::arg("mode"), py::arg("value"), ReleaseGil());
  m.def("pixel_shuffle", &nn::pixelShuffle, py::arg("input"), py::arg("upscale_factor"), ReleaseGil());
  m.def("pixel_unshuffle", &nn::pixelUnshuffle, py::arg("input"), py::arg("downscale_factor"), ReleaseGil());
  m.def("grid_sample", &nn::gridSample, py::arg("input"), py::arg("grid"), py::arg("mode"), py::arg("padding_mode"),
        py::arg("align_corners"), ReleaseGil());
  m.def("affine_grid", &nn::affineGrid, py::arg("theta"), py::arg("size"), py::arg("align_corners"), ReleaseGil());
  m.def("im2col", &nn::im2col, py::arg("input"), py::arg("kernel_size"), py::arg("dilation"), py::arg("padding"),
        py::arg("stride"), ReleaseGil());
  m.def("col2im", &nn::col2im, py::arg("input"), py::arg("output_size"), py::arg("kernel_size"), py::arg("dilation"),
        py::arg("padding"), py::arg("stride"), ReleaseGil());
}

}  // namespace torch::python
