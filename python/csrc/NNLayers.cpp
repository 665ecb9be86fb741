// torch._C._nn: the non-spatial layers (core/ops/NNLayers.h) for
// torch.nn.functional, which supplies PyTorch's defaults and argument handling; plus the
// Tensor methods relu, relu_, softmax, log_softmax and hardshrink.
#include "core/ops/NNLayers.h"

#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

using nn::Reduction;

Tensor orUndefined(const std::optional<Tensor> &t) { return t ? *t : Tensor(); }

Reduction reductionArg(const std::string &name) { return nn::reductionOf(name); }

// An in-place op as Python sees it: it returns its argument.
template <typename... Args>
auto inPlace(void (*op)(const Tensor &, Args...)) {
  return [op](const Tensor &x, Args... args) {
    op(x, args...);
    return x;
  };
}

// softmax(dim, dtype=None): the input is converted to dtype first, as PyTorch does.
Tensor softmaxWithType(Tensor (*op)(const Tensor &, int64_t), const Tensor &x, int64_t dim, py::handle dtype) {
  std::optional<ScalarType> type;
  if (!dtype.is_none()) type = toDtype(dtype);
  return withoutGil([&] { return op(type ? toType(x, *type) : x, dim); });
}

nn::BagMode bagMode(const std::string &mode) {
  if (mode == "sum") return nn::BagMode::Sum;
  if (mode == "mean") return nn::BagMode::Mean;
  if (mode == "max") return nn::BagMode::Max;
  throw py::value_error("mode has to be one of sum, mean or max");
}

}  // namespace

void bindNNLayers(py::module &m, TensorClass &cls) {
  // ---- linear maps ----
  m.def(
      "linear",
      [](const Tensor &x, const Tensor &w, const std::optional<Tensor> &b) { return nn::linear(x, w, orUndefined(b)); },
      py::arg("input"), py::arg("weight"), py::arg("bias") = py::none(), ReleaseGil());
  m.def(
      "bilinear",
      [](const Tensor &x1, const Tensor &x2, const Tensor &w, const std::optional<Tensor> &b) {
        return nn::bilinear(x1, x2, w, orUndefined(b));
      },
      py::arg("input1"), py::arg("input2"), py::arg("weight"), py::arg("bias") = py::none(), ReleaseGil());

  // ---- activations ----
  m.def("threshold", &nn::threshold, py::arg("input"), py::arg("threshold"), py::arg("value"), ReleaseGil());
  m.def("threshold_", inPlace(&nn::threshold_), py::arg("input"), py::arg("threshold"), py::arg("value"), ReleaseGil());
  m.def("relu", &nn::relu, py::arg("input"), ReleaseGil());
  m.def("relu_", inPlace(&nn::relu_), py::arg("input"), ReleaseGil());
  m.def("hardtanh", &nn::hardtanh, py::arg("input"), py::arg("min_val") = -1.0, py::arg("max_val") = 1.0, ReleaseGil());
  m.def("hardtanh_", inPlace(&nn::hardtanh_), py::arg("input"), py::arg("min_val") = -1.0, py::arg("max_val") = 1.0,
        ReleaseGil());
  m.def("leaky_relu", &nn::leakyRelu, py::arg("input"), py::arg("negative_slope") = 0.01, ReleaseGil());
  m.def("leaky_relu_", inPlace(&nn::leakyRelu_), py::arg("input"), py::arg("negative_slope") = 0.01, ReleaseGil());
  m.def("prelu", &nn::prelu, py::arg("input"), py::arg("weight"), ReleaseGil());
  // rrelu draws from the default generator, which the GIL keeps to one thread at a time.
  m.def("rrelu", &nn::rrelu, py::arg("input"), py::arg("lower"), py::arg("upper"), py::arg("training"));
  m.def("rrelu_", inPlace(&nn::rrelu_), py::arg("input"), py::arg("lower"), py::arg("upper"), py::arg("training"));
  m.def("elu", &nn::elu, py::arg("input"), py::arg("alpha") = 1.0, ReleaseGil());
  m.def("elu_", inPlace(&nn::elu_), py::arg("input"), py::arg("alpha") = 1.0, ReleaseGil());
  m.def("selu", &nn::selu, py::arg("input"), ReleaseGil());
  m.def("selu_", inPlace(&nn::selu_), py::arg("input"), ReleaseGil());
  m.def("celu", &nn::celu, py::arg("input"), py::arg("alpha") = 1.0, ReleaseGil());
  m.def("celu_", inPlace(&nn::celu_), py::arg("input"), py::arg("alpha") = 1.0, ReleaseGil());
  m.def(
      "gelu",
      [](const Tensor &x, const std::string &approximate) {
        if (approximate != "none" && approximate != "tanh") {
          throw std::runtime_error("approximate argument must be either none or tanh.");
        }
        return nn::gelu(x, approximate == "tanh");
      },
      py::arg("input"), py::arg("approximate") = "none", ReleaseGil());
  m.def("silu", &nn::silu, py::arg("input"), ReleaseGil());
  m.def("silu_", inPlace(&nn::silu_), py::arg("input"), ReleaseGil());
  m.def("mish", &nn::mish, py::arg("input"), ReleaseGil());
  m.def("mish_", inPlace(&nn::mish_), py::arg("input"), ReleaseGil());
  m.def("hardsigmoid", &nn::hardsigmoid, py::arg("input"), ReleaseGil());
  m.def("hardsigmoid_", inPlace(&nn::hardsigmoid_), py::arg("input"), ReleaseGil());
  m.def("hardswish", &nn::hardswish, py::arg("input"), ReleaseGil());
  m.def("hardswish_", inPlace(&nn::hardswish_), py::arg("input"), ReleaseGil());
  m.def("softplus", &nn::softplus, py::arg("input"), py::arg("beta") = 1.0, py::arg("threshold") = 20.0, ReleaseGil());
  m.def("softshrink", &nn::softshrink, py::arg("input"), py::arg("lambd") = 0.5, ReleaseGil());
  m.def("hardshrink", &nn::hardshrink, py::arg("input"), py::arg("lambd") = 0.5, ReleaseGil());
  m.def("log_sigmoid", &nn::logSigmoid, py::arg("input"), ReleaseGil());
  m.def(
      "softmax",
      [](const Tensor &x, int64_t dim, py::handle dtype) { return softmaxWithType(nn::softmax, x, dim, dtype); },
      py::arg("input"), py::arg("dim"), py::arg("dtype") = py::none());
  m.def(
      "log_softmax",
      [](const Tensor &x, int64_t dim, py::handle dtype) { return softmaxWithType(nn::logSoftmax, x, dim, dtype); },
      py::arg("input"), py::arg("dim"), py::arg("dtype") = py::none());

  cls.def("relu", &nn::relu, ReleaseGil());
  cls.def("relu_", inPlace(&nn::relu_), ReleaseGil());
  cls.def(
      "softmax",
      [](const Tensor &x, int64_t dim, py::handle dtype) { return softmaxWithType(nn::softmax, x, dim, dtype); },
      py::arg("dim"), py::arg("dtype") = py::none());
  cls.def(
      "log_softmax",
      [](const Tensor &x, int64_t dim, py::handle dtype) { return softmaxWithType(nn::logSoftmax, x, dim, dtype); },
      py::arg("dim"), py::arg("dtype") = py::none());
  cls.def("hardshrink", &nn::hardshrink, py::arg("lambd") = 0.5, ReleaseGil());
  // The ones PyTorch also has as torch.<name>, with the same signature.
  m.attr("_torch_functions") = py::make_tuple("relu", "relu_", "selu", "selu_", "celu", "celu_", "threshold",
                                              "threshold_", "prelu", "hardshrink", "softmax", "log_softmax");

  // ---- losses (reduction: "none" | "mean" | "sum") ----
  m.def(
      "l1_loss",
      [](const Tensor &x, const Tensor &y, const std::string &r) { return nn::l1Loss(x, y, reductionArg(r)); },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "mse_loss",
      [](const Tensor &x, const Tensor &y, const std::string &r) { return nn::mseLoss(x, y, reductionArg(r)); },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "smooth_l1_loss",
      [](const Tensor &x, const Tensor &y, const std::string &r, double beta) {
        return nn::smoothL1Loss(x, y, reductionArg(r), beta);
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", py::arg("beta") = 1.0, ReleaseGil());
  m.def(
      "huber_loss",
      [](const Tensor &x, const Tensor &y, const std::string &r, double delta) {
        return nn::huberLoss(x, y, reductionArg(r), delta);
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", py::arg("delta") = 1.0, ReleaseGil());
  m.def(
      "soft_margin_loss",
      [](const Tensor &x, const Tensor &y, const std::string &r) { return nn::softMarginLoss(x, y, reductionArg(r)); },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "kl_div", [](const Tensor &x, const Tensor &y, const std::string &r) { return nn::klDiv(x, y, reductionArg(r)); },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "binary_cross_entropy",
      [](const Tensor &x, const Tensor &y, const std::optional<Tensor> &w, const std::string &r) {
        return nn::binaryCrossEntropy(x, y, orUndefined(w), reductionArg(r));
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(), py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "nll_loss",
      [](const Tensor &x, const Tensor &y, const std::optional<Tensor> &w, const std::string &r, int64_t ignoreIndex) {
        return nn::nllLoss(x, y, orUndefined(w), reductionArg(r), ignoreIndex);
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(), py::arg("reduction") = "mean",
      py::arg("ignore_index") = -100, ReleaseGil());
  m.def(
      "multilabel_margin_loss",
      [](const Tensor &x, const Tensor &y, const std::string &r) {
        return nn::multilabelMarginLoss(x, y, reductionArg(r));
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "multi_margin_loss",
      [](const Tensor &x, const Tensor &y, int p, double margin, const std::optional<Tensor> &w, const std::string &r) {
        return nn::multiMarginLoss(x, y, p, margin, orUndefined(w), reductionArg(r));
      },
      py::arg("input"), py::arg("target"), py::arg("p") = 1, py::arg("margin") = 1.0, py::arg("weight") = py::none(),
      py::arg("reduction") = "mean", ReleaseGil());
  m.def(
      "ctc_loss",
      [](const Tensor &logProbs, const Tensor &targets, const Tensor &inputLengths, const Tensor &targetLengths,
         int64_t blank, const std::string &r, bool zeroInfinity) {
        return nn::ctcLoss(logProbs, targets, inputLengths, targetLengths, blank, reductionArg(r), zeroInfinity);
      },
      py::arg("log_probs"), py::arg("targets"), py::arg("input_lengths"), py::arg("target_lengths"),
      py::arg("blank") = 0, py::arg("reduction") = "mean", py::arg("zero_infinity") = false, ReleaseGil());

  // ---- normalization ----
  m.def(
      "batch_norm",
      [](const Tensor &x, const std::optional<Tensor> &w, const std::optional<Tensor> &b,
         const std::optional<Tensor> &runningMean, const std::optional<Tensor> &runningVar, bool training,
         double momentum, double eps) {
        return nn::batchNorm(x, orUndefined(w), orUndefined(b), orUndefined(runningMean), orUndefined(runningVar),
                             training, momentum, eps);
      },
      py::arg("input"), py::arg("weight"), py::arg("bias"), py::arg("running_mean"), py::arg("running_var"),
      py::arg("training"), py::arg("momentum"), py::arg("eps"), ReleaseGil());

  m.def(
      "layer_norm",
      [](const Tensor &x, const std::vector<int64_t> &normalizedShape, const std::optional<Tensor> &w,
         const std::optional<Tensor> &b,
         double eps) { return nn::layerNorm(x, normalizedShape, orUndefined(w), orUndefined(b), eps); },
      py::arg("input"), py::arg("normalized_shape"), py::arg("weight") = py::none(), py::arg("bias") = py::none(),
      py::arg("eps") = 1e-5, ReleaseGil());

  // ---- embeddings ----
  m.def("embedding", &nn::embedding, py::arg("weight"), py::arg("indices"), py::arg("padding_idx") = -1,
        py::arg("scale_grad_by_freq") = false, ReleaseGil());
  m.def(
      "embedding_renorm_",
      [](const Tensor &w, const Tensor &indices, double maxNorm, double normType) {
        nn::embeddingRenorm_(w, indices, maxNorm, normType);
        return w;
      },
      py::arg("weight"), py::arg("indices"), py::arg("max_norm"), py::arg("norm_type"), ReleaseGil());
  m.def(
      "embedding_bag",
      [](const Tensor &w, const Tensor &indices, const std::optional<Tensor> &offsets, const std::string &mode,
         const std::optional<Tensor> &perSampleWeights, bool includeLastOffset, int64_t paddingIdx,
         bool scaleGradByFreq) {
        return nn::embeddingBag(w, indices, orUndefined(offsets), bagMode(mode), orUndefined(perSampleWeights),
                                includeLastOffset, paddingIdx, scaleGradByFreq);
      },
      py::arg("weight"), py::arg("indices"), py::arg("offsets"), py::arg("mode"), py::arg("per_sample_weights"),
      py::arg("include_last_offset"), py::arg("padding_idx"), py::arg("scale_grad_by_freq"), ReleaseGil());
}

}  // namespace torch::python
