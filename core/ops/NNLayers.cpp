#include "core/ops/NNLayers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "autograd/Derivatives.h"
#include "core/Autocast.h"
#include "core/ops/Factory.h"
#include "core/ops/Indexing.h"
#include "core/ops/NNKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace torch {

NNKernels &nnKernels() {
  static NNKernels *tables = [] {
    auto *t = new NNKernels();  // never destroyed: kernels may run during exit
    cpu::registerNNKernels(*t);
    return t;
  }();
  return *tables;
}

namespace nn {

namespace {

NNKernels &kernels() { return nnKernels(); }

// THNN resizes the tensors it is handed; this is one to hand it.
Tensor blank(ScalarType dtype, Device device) { return empty({0}, dtype, device); }

template <typename T>
T *dataOf(const Tensor &t) {
  return reinterpret_cast<T *>(t.dataPtr());
}

void checkSameType(const Tensor &x, const Tensor &other, const char *op, const char *what) {
  if (!other.defined()) return;
  TORCH_CHECK(other.dtype() == x.dtype(), Runtime, "%s: expected %s to have scalar type %s but found %s", op, what,
              scalarTypeName(x.dtype()), scalarTypeName(other.dtype()));
}

void checkFloating(const Tensor &x, const char *op) {
  TORCH_CHECK(hasFloatingKernels(x.dtype()), Type, "%s is only implemented for floating point tensors (got %s)", op,
              scalarTypeName(x.dtype()));
}

// Integer class targets as a Long tensor.
Tensor longTargets(const Tensor &target, const char *op) {
  TORCH_CHECK(isIntegral(target.dtype()), Runtime, "%s: expected target of scalar type Long but found %s", op,
              scalarTypeName(target.dtype()));
  return toType(target, ScalarType::Long);
}

int64_t productOf(const IntList &sizes, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to && i < sizes.size(); i++) n *= sizes[i];
  return n;
}

// ---- element-wise activations ----

// An activation of our own (Note [NN kernel grammar]: module's updateOutput maps each
// element); a is its parameter.
Tensor mapActivation(const char *name, const NNModule<MapOutput, MapGradInput> &module, const Tensor &x, double a) {
  RecordScope rec({&x});
  Tensor c = contiguous(x);
  Tensor y = empty(x.sizes(), x.dtype(), x.device());
  module.updateOutput(x.device(), x.dtype(), c, y, a);
  if (rec) derivatives::activation(name, module, x, a, y);
  return y;
}

// A THNN activation with parameters a and b.
template <typename Module>
Tensor thnnActivation(const char *name, const Module &module, const Tensor &x, double a, double b) {
  checkFloating(x, name);
  RecordScope rec({&x});
  Tensor y = blank(x.dtype(), x.device());
  module.updateOutput(x.device(), x.dtype(), x, y, a, b);
  if (rec) derivatives::activation(name, module, x, a, b, y);
  return y;
}

// Note [In-place activations]: op computes the new value of x out of place.
void activationInPlace(const Tensor &x, const std::function<Tensor(const Tensor &)> &op) {
  checkNoInternalOverlap(x);
  if (needsRecording({&x})) {
    checkInplace(x);
    bumpVersion(x);
    inplaceWithHistory(x, op);
    return;
  }
  Tensor r = op(x);
  bumpVersion(x);
  copyValues_(x, r);
}

// ---- softmax ----

// x seen as [outer, size(dim), inner, 1]: THNN's 4-D (Log)SoftMax runs along dimension 1.
IntList softmaxShape(const Tensor &x, int d) {
  IntList s = x.sizes();
  if (x.dim() == 0) return {1, 1, 1, 1};
  return {productOf(s, 0, d), s[d], productOf(s, d + 1, s.size()), 1};
}

Tensor softmaxImpl(const char *name, const Tensor &x, int64_t dim, bool log) {
  checkFloating(x, name);
  int d = x.dim() == 0 ? (wrapDim(dim, 1), 0) : wrapDim(dim, x.dim());
  RecordScope rec({&x});
  IntList shape4 = softmaxShape(x, d);
  Tensor x4 = reshape(x, shape4);
  Tensor y4 = empty(shape4, x.dtype(), x.device());
  if (x.numel() > 0) (log ? kernels().logSoftmax : kernels().softmax).updateOutput(x.device(), x.dtype(), x4, y4);
  Tensor y = reshape(y4, x.sizes());
  if (rec) derivatives::softmax(name, log, x, shape4, y);
  return y;
}

// ---- losses ----

bool reduces(Reduction r) { return r != Reduction::None; }

// A reduced loss as a 0-dim tensor; per-element losses as they are.
Tensor lossResult(const Tensor &out, Reduction r, const IntList &noneShape) {
  return reduces(r) ? reshape(out, {}) : reshape(out, noneShape);
}

void checkSameShape(const Tensor &input, const Tensor &target, const char *op) {
  TORCH_CHECK(input.isSameSizeAs(target), Runtime, "%s: the size of target %s must match the size of input %s", op,
              target.sizeString().c_str(), input.sizeString().c_str());
}

using derivatives::CriterionTargetGrad;

// How a loss is made from a THNN criterion K: outScale * K(input / inputScale, target /
// inputScale), whose gradient is gradScale * K' (SmoothL1's beta, see smoothL1Loss).
struct Scaling {
  double input = 1, out = 1, grad = 1;
};

// An element-wise THNN criterion.
Tensor pointwiseCriterion(const char *name, const Tensor &input, const Tensor &target, Reduction reduction,
                          CriterionTargetGrad targetGrad, Scaling scaling,
                          const NNModule<CriterionOutput, CriterionGradInput> &module) {
  checkFloating(input, name);
  TORCH_CHECK(isFloating(target.dtype()), Runtime, "%s: expected a floating point target, got %s", name,
              scalarTypeName(target.dtype()));
  checkSameShape(input, target, name);
  checkSameDevice(name, input, target);
  RecordScope rec({&input, &target});
  ScalarType type = promoteTypes(input.dtype(), target.dtype());
  Tensor x = toType(input, type), y = toType(target, type);
  if (scaling.input != 1) {
    x = binary(BinaryOp::Div, x, Scalar(scaling.input));
    y = binary(BinaryOp::Div, y, Scalar(scaling.input));
  }
  bool sizeAverage = reduction == Reduction::Mean, reduce = reduces(reduction);
  Tensor out = blank(type, x.device());
  module.updateOutput(x.device(), type, x, y, out, sizeAverage, reduce);
  if (scaling.out != 1) binary_(BinaryOp::Mul, out, Scalar(scaling.out));  // out is new: nothing records
  Tensor loss = lossResult(out, reduction, input.sizes());
  if (rec)
    derivatives::pointwiseCriterion(name, module, input, target, x, y, reduction, targetGrad, scaling.grad, loss);
  return loss;
}

// Checks class targets against C classes (ignoreIndex aside) before a kernel sees them,
// on the host (a copy of a device's targets).
void checkClassTargets(const Tensor &target, int64_t classes, std::optional<int64_t> ignoreIndex) {
  Tensor t = contiguous(to(target, target.dtype(), Device::CPU));
  const int64_t *p = dataOf<int64_t>(t);
  for (int64_t i = 0; i < t.numel(); i++) {
    if (ignoreIndex && p[i] == *ignoreIndex) continue;
    TORCH_CHECK(p[i] >= 0 && p[i] < classes, Index, "Target %lld is out of bounds.", static_cast<long long>(p[i]));
  }
}

void checkClassWeight(const Tensor &weight, int64_t classes, const Tensor &input, const char *op) {
  if (!weight.defined()) return;
  TORCH_CHECK(weight.dim() == 1 && weight.numel() == classes, Runtime,
              "%s: weight tensor should be defined either for all %lld classes or no classes but got weight tensor "
              "of shape: %s",
              op, static_cast<long long>(classes), weight.sizeString().c_str());
  checkSameType(input, weight, op, "weight");
}

// ---- CTC ----

CtcLayout ctcLayout(const Tensor &logProbs, const Tensor &targets, const Tensor &inputLengths,
                    const Tensor &targetLengths, int64_t batch, int64_t blank) {
  const int64_t T = logProbs.size(0), C = logProbs.size(2);
  TORCH_CHECK(blank >= 0 && blank < C, Runtime, "blank must be in label range");
  CtcLayout layout;
  layout.targets = contiguous(longTargets(targets, "ctc_loss"));
  auto lengths = [&](const Tensor &t, const char *what) {
    TORCH_CHECK(isIntegral(t.dtype()) && t.dim() <= 1 && t.numel() == batch, Runtime, "%s must be of size batch_size",
                what);
    Tensor c = contiguous(to(t, ScalarType::Long, Device::CPU));  // read on the host
    return std::vector<int64_t>(dataOf<int64_t>(c), dataOf<int64_t>(c) + batch);
  };
  layout.inputLengths = lengths(inputLengths, "input_lengths");
  layout.targetLengths = lengths(targetLengths, "target_lengths");
  int64_t maxTarget = 0, total = 0;
  for (int64_t b = 0; b < batch; b++) {
    int64_t in = layout.inputLengths[b], tl = layout.targetLengths[b];
    TORCH_CHECK(in >= 0 && in <= T, Runtime,
                "Expected input_lengths to have value at most %lld, but got value %lld (while checking arguments "
                "for ctc_loss)",
                static_cast<long long>(T), static_cast<long long>(in));
    TORCH_CHECK(tl >= 0, Runtime, "Expected target_lengths to be non-negative, but got value %lld",
                static_cast<long long>(tl));
    maxTarget = std::max(maxTarget, tl);
    layout.start.push_back(total);
    total += tl;
  }
  const Tensor &tg = layout.targets;
  if (tg.dim() == 1) {
    TORCH_CHECK(tg.size(0) >= total, Runtime,
                "Expected tensor to have size at least %lld at dimension 0, but got size %lld for argument #2 "
                "'targets' (while checking arguments for ctc_loss)",
                static_cast<long long>(total), static_cast<long long>(tg.size(0)));
  } else {
    TORCH_CHECK(tg.dim() == 2 && tg.size(0) == batch, Runtime,
                "ctc_loss: targets must be [batch_size, max_target_length] or 1-D, got %s for batch_size %lld",
                tg.sizeString().c_str(), static_cast<long long>(batch));
    TORCH_CHECK(tg.size(1) >= maxTarget, Runtime,
                "Expected tensor to have size at least %lld at dimension 1, but got size %lld for argument #2 "
                "'targets' (while checking arguments for ctc_loss)",
                static_cast<long long>(maxTarget), static_cast<long long>(tg.size(1)));
    for (int64_t b = 0; b < batch; b++) layout.start[b] = b * tg.size(1);
  }
  Tensor hostTargets = contiguous(to(tg, ScalarType::Long, Device::CPU));  // read on the host
  const int64_t *labels = dataOf<int64_t>(hostTargets);
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < layout.targetLengths[b]; i++) {
      int64_t v = labels[layout.start[b] + i];
      TORCH_CHECK(v >= 0 && v < C, Index, "ctc_loss: target %lld is out of range for %lld classes",
                  static_cast<long long>(v), static_cast<long long>(C));
    }
  }
  return layout;
}

// Per-sample losses (double) of logProbs [T, N, C].
std::vector<double> ctcRun(const Tensor &logProbs, const CtcLayout &layout, int64_t blank) {
  std::vector<double> losses(logProbs.size(1));
  Tensor lpc = contiguous(logProbs);
  kernels().ctcLoss(lpc.device(), lpc.dtype(), lpc, layout, blank, losses, nullptr, {});
  return losses;
}

}  // namespace

Reduction reductionOf(const std::string &name) {
  if (name == "none") return Reduction::None;
  if (name == "mean") return Reduction::Mean;
  if (name == "sum") return Reduction::Sum;
  fail(th::ErrorKind::Value, "%s is not a valid value for reduction", name.c_str());
}

// ---- linear maps ----

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) {
  if (autocast::on(input)) {
    return autocast::run(
        autocast::Policy::Lower, [](auto &&...x) { return linear(x...); }, input, weight, bias);
  }
  TORCH_CHECK(input.dim() >= 1 && weight.dim() >= 1, Runtime,
              "both arguments to linear need to be at least 1D, but they are %dD and %dD", input.dim(), weight.dim());
  TORCH_CHECK(weight.dim() == 2, Runtime, "linear(): weight must be 2-D [out_features, in_features], got %s",
              weight.sizeString().c_str());
  const int64_t in = input.size(input.dim() - 1), out = weight.size(0);
  const int64_t rows = input.dim() == 1 ? 1 : productOf(input.sizes(), 0, input.dim() - 1);
  TORCH_CHECK(in == weight.size(1), Runtime, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
              static_cast<long long>(rows), static_cast<long long>(in), static_cast<long long>(weight.size(1)),
              static_cast<long long>(out));
  TORCH_CHECK(input.dtype() == weight.dtype(), Runtime, "mat1 and mat2 must have the same dtype");
  checkFloating(input, "linear");
  if (bias.defined()) {
    TORCH_CHECK(bias.numel() == out && bias.dim() <= 1, Runtime,
                "linear(): bias must have out_features (%lld) elements, got sizes %s", static_cast<long long>(out),
                bias.sizeString().c_str());
    checkSameType(input, bias, "linear", "bias");
  }
  RecordScope rec({&input, &weight, &bias});
  Tensor x2 = input.dim() <= 2 ? input : reshape(input, {rows, in});
  Tensor b1 = bias.defined() ? reshape(bias, {out}) : Tensor();
  Tensor y2 = blank(input.dtype(), input.device()), buffer = blank(input.dtype(), input.device());
  kernels().linear.updateOutput(input.device(), input.dtype(), x2, y2, weight, b1, buffer);
  IntList outSizes = input.sizes();
  outSizes.back() = out;
  Tensor y = reshape(y2, outSizes);
  if (rec) derivatives::linear(input, weight, bias, x2, y);
  return y;
}

Tensor bilinear(const Tensor &input1, const Tensor &input2, const Tensor &weight, const Tensor &bias) {
  TORCH_CHECK(input1.dim() == input2.dim(), Runtime, "bilinear(): input dimensions do not match: got %d and %d",
              input1.dim(), input2.dim());
  TORCH_CHECK(input1.dim() >= 1, Runtime, "bilinear(): inputs must have at least one dimension");
  for (int d = 0; d + 1 < input1.dim(); d++) {
    TORCH_CHECK(input1.size(d) == input2.size(d), Runtime,
                "bilinear(): input batch dimensions do not match: got %s and %s", input1.sizeString().c_str(),
                input2.sizeString().c_str());
  }
  TORCH_CHECK(weight.dim() == 3, Runtime, "bilinear(): weight must be 3-D [out, in1, in2], got %s",
              weight.sizeString().c_str());
  const int64_t in1 = input1.size(input1.dim() - 1), in2 = input2.size(input2.dim() - 1), out = weight.size(0);
  TORCH_CHECK(in1 == weight.size(1), Runtime,
              "bilinear(): input1 size does not match weight size: got %lld but expected %lld",
              static_cast<long long>(in1), static_cast<long long>(weight.size(1)));
  TORCH_CHECK(in2 == weight.size(2), Runtime,
              "bilinear(): input2 size does not match weight size: got %lld but expected %lld",
              static_cast<long long>(in2), static_cast<long long>(weight.size(2)));
  if (bias.defined()) {
    TORCH_CHECK(bias.numel() == out && bias.dim() <= 1, Runtime,
                "bilinear(): bias size does not match weight size: got %lld but expected %lld",
                static_cast<long long>(bias.numel()), static_cast<long long>(out));
  }
  checkFloating(input1, "bilinear");
  checkSameType(input1, input2, "bilinear", "input2");
  checkSameType(input1, weight, "bilinear", "weight");
  checkSameType(input1, bias, "bilinear", "bias");
  RecordScope rec({&input1, &input2, &weight, &bias});
  const int64_t rows = productOf(input1.sizes(), 0, input1.dim() - 1);
  Tensor x1 = reshape(input1, {rows, in1}), x2 = reshape(input2, {rows, in2});
  Tensor b1 = bias.defined() ? reshape(bias, {out}) : Tensor();
  Tensor y2 = blank(input1.dtype(), input1.device()), buffer = blank(input1.dtype(), input1.device());
  kernels().bilinear.updateOutput(input1.device(), input1.dtype(), x1, x2, y2, weight, b1, buffer);
  IntList outSizes = input1.sizes();
  outSizes.back() = out;
  Tensor y = reshape(y2, outSizes);
  if (rec) derivatives::bilinear(input1, input2, weight, bias, x1, x2, y);
  return y;
}

// ---- activations ----

// PyTorch's rule, x <= threshold ? value : x, so that a NaN passes, and its gradient with it
// (THNN's Threshold keeps torch7's x > threshold ? x : value for Lua's nn, where a NaN becomes
// value): a comparison and a masked fill, on every device.
Tensor threshold(const Tensor &x, double threshold, double value) {
  checkFloating(x, "threshold");
  RecordScope rec({&x});
  Tensor y = maskedFill(x, compare(CompareOp::Le, x, Scalar(threshold)), Scalar(value));
  if (rec) derivatives::threshold(x, threshold, y);
  return y;
}

void threshold_(const Tensor &x, double th, double value) {
  activationInPlace(x, [=](const Tensor &b) { return threshold(b, th, value); });
}

Tensor relu(const Tensor &x) {
  if (!isFloating(x.dtype())) {
    TORCH_CHECK(x.dtype() != ScalarType::Bool, Runtime, "\"relu\" not implemented for 'Bool'");
    return clamp(x, Scalar(int64_t(0)), std::nullopt);
  }
  return mapActivation("relu", kernels().relu, x, 0);  // NaN passes (Note in MapActivations.hpp)
}

void relu_(const Tensor &x) {
  if (!isFloating(x.dtype())) {
    TORCH_CHECK(x.dtype() != ScalarType::Bool, Runtime, "\"relu\" not implemented for 'Bool'");
    clamp_(x, Scalar(int64_t(0)), std::nullopt);
    return;
  }
  activationInPlace(x, [](const Tensor &b) { return relu(b); });
}

Tensor hardtanh(const Tensor &x, double minVal, double maxVal) {
  TORCH_CHECK(minVal < maxVal, Value, "hardtanh: max_val (%g) must be larger than min_val (%g)", maxVal, minVal);
  return thnnActivation("hardtanh", kernels().hardtanh, x, minVal, maxVal);
}

void hardtanh_(const Tensor &x, double minVal, double maxVal) {
  activationInPlace(x, [=](const Tensor &b) { return hardtanh(b, minVal, maxVal); });
}

Tensor leakyRelu(const Tensor &x, double negativeSlope) {
  return thnnActivation("leaky_relu", kernels().leakyRelu, x, negativeSlope, 0);
}

void leakyRelu_(const Tensor &x, double negativeSlope) {
  activationInPlace(x, [=](const Tensor &b) { return leakyRelu(b, negativeSlope); });
}

Tensor prelu(const Tensor &x, const Tensor &weight) {
  checkFloating(x, "prelu");
  checkSameType(x, weight, "prelu", "weight");
  TORCH_CHECK(x.dim() > 0, Runtime, "Not allow zero-dim input tensor.");
  const int64_t slopes = weight.numel();
  const int64_t channels = x.dim() > 1 ? x.size(1) : 1;
  TORCH_CHECK(slopes == 1 || slopes == channels, Runtime,
              "Mismatch of parameter numbers and input channel size. Found parameter numbers = %lld and channel "
              "size = %lld.",
              static_cast<long long>(slopes), static_cast<long long>(channels));
  RecordScope rec({&x, &weight});
  // THNN's channel dimension is 1 for 2-D and 4-D input: [N, C, rest, 1] puts PyTorch's there.
  IntList shape = x.dim() <= 2 ? x.sizes() : IntList{x.size(0), x.size(1), productOf(x.sizes(), 2, x.dim()), 1};
  Tensor xs = reshape(x, shape), w = reshape(weight, {slopes});
  Tensor y = blank(x.dtype(), x.device());
  kernels().prelu.updateOutput(x.device(), x.dtype(), xs, y, w);
  y = reshape(y, x.sizes());
  if (rec) derivatives::prelu(x, weight, xs, w, y);
  return y;
}

Tensor rrelu(const Tensor &x, double lower, double upper, bool training) {
  checkFloating(x, "rrelu");
  TORCH_CHECK(lower <= upper, Value, "Lower bound should be less than or equal to the upper bound");
  RecordScope rec({&x});
  Tensor y = blank(x.dtype(), x.device()), noise = blank(x.dtype(), x.device());
  kernels().rrelu.updateOutput(x.device(), x.dtype(), x, y, noise, lower, upper, training);
  if (rec) derivatives::rrelu(x, noise, lower, upper, training, y);
  return y;
}

void rrelu_(const Tensor &x, double lower, double upper, bool training) {
  activationInPlace(x, [=](const Tensor &b) { return rrelu(b, lower, upper, training); });
}

Tensor elu(const Tensor &x, double alpha) { return mapActivation("elu", kernels().elu, x, alpha); }

void elu_(const Tensor &x, double alpha) {
  activationInPlace(x, [=](const Tensor &b) { return elu(b, alpha); });
}

Tensor selu(const Tensor &x) { return mapActivation("selu", kernels().selu, x, 0); }

void selu_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return selu(b); });
}

Tensor celu(const Tensor &x, double alpha) {
  TORCH_CHECK(alpha != 0, Runtime, "ZeroDivisionError: celu's alpha must not be 0");
  return mapActivation("celu", kernels().celu, x, alpha);
}

void celu_(const Tensor &x, double alpha) {
  activationInPlace(x, [=](const Tensor &b) { return celu(b, alpha); });
}

Tensor gelu(const Tensor &x, bool tanhApproximation) {
  return mapActivation("gelu", tanhApproximation ? kernels().geluTanh : kernels().gelu, x, 0);
}

Tensor silu(const Tensor &x) { return mapActivation("silu", kernels().silu, x, 0); }

void silu_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return silu(b); });
}

Tensor mish(const Tensor &x) { return mapActivation("mish", kernels().mish, x, 0); }

void mish_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return mish(b); });
}

Tensor hardsigmoid(const Tensor &x) { return mapActivation("hardsigmoid", kernels().hardsigmoid, x, 0); }

void hardsigmoid_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return hardsigmoid(b); });
}

Tensor hardswish(const Tensor &x) { return mapActivation("hardswish", kernels().hardswish, x, 0); }

void hardswish_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return hardswish(b); });
}

Tensor softplus(const Tensor &x, double beta, double threshold) {
  return thnnActivation("softplus", kernels().softplus, x, beta, threshold);
}

Tensor softshrink(const Tensor &x, double lambda) {
  TORCH_CHECK(lambda >= 0, Runtime, "lambda must be greater or equal to 0, but found to be %g.", lambda);
  return thnnActivation("softshrink", kernels().softshrink, x, lambda, 0);
}

Tensor hardshrink(const Tensor &x, double lambda) {
  return mapActivation("hardshrink", kernels().hardshrink, x, lambda);
}

Tensor logSigmoid(const Tensor &x) {
  checkFloating(x, "log_sigmoid");
  RecordScope rec({&x});
  Tensor y = blank(x.dtype(), x.device()), buffer = blank(x.dtype(), x.device());
  kernels().logSigmoid.updateOutput(x.device(), x.dtype(), x, y, buffer);
  if (rec) derivatives::logSigmoid(x, buffer, y);
  return y;
}

Tensor softmax(const Tensor &x, int64_t dim) { return softmaxImpl("softmax", x, dim, false); }

Tensor logSoftmax(const Tensor &x, int64_t dim) { return softmaxImpl("log_softmax", x, dim, true); }

// ---- losses ----

Tensor l1Loss(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("l1_loss", input, target, reduction, CriterionTargetGrad::Negated, Scaling{},
                            kernels().absCriterion);
}

Tensor mseLoss(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("mse_loss", input, target, reduction, CriterionTargetGrad::Negated, Scaling{},
                            kernels().mseCriterion);
}

// THNN's SmoothL1 has beta = 1. With d = x - y, beta S1(d / beta) is the loss for beta, so
// the kernel runs on input / beta and target / beta; Huber's loss is delta times that.
Tensor smoothL1Loss(const Tensor &input, const Tensor &target, Reduction reduction, double beta) {
  TORCH_CHECK(beta >= 0, Runtime, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0) return l1Loss(input, target, reduction);
  return pointwiseCriterion("smooth_l1_loss", input, target, reduction, CriterionTargetGrad::Negated,
                            Scaling{beta, beta, 1}, kernels().smoothL1Criterion);
}

Tensor huberLoss(const Tensor &input, const Tensor &target, Reduction reduction, double delta) {
  TORCH_CHECK(delta > 0, Runtime, "huber_loss does not support non-positive values for delta.");
  return pointwiseCriterion("huber_loss", input, target, reduction, CriterionTargetGrad::Negated,
                            Scaling{delta, delta * delta, delta}, kernels().smoothL1Criterion);
}

Tensor softMarginLoss(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("soft_margin_loss", input, target, reduction, CriterionTargetGrad::None, Scaling{},
                            kernels().softMarginCriterion);
}

Tensor klDiv(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("kl_div", input, target, reduction, CriterionTargetGrad::KLDiv, Scaling{},
                            kernels().distKLDivCriterion);
}

// Note [BCE at 0 and 1]: THNN's BCECriterion is torch7's, log(x + 1e-12); PyTorch clamps
// each log at -100 instead, so a saturated probability (sigmoid(20) is 1 in float) costs
// 100, not 27.6. This follows PyTorch, with its gradient (x - y) / max(x (1 - x), 1e-12).
Tensor binaryCrossEntropy(const Tensor &input, const Tensor &target, const Tensor &weight, Reduction reduction) {
  checkFloating(input, "binary_cross_entropy");
  checkSameShape(input, target, "binary_cross_entropy");
  checkSameType(input, target, "binary_cross_entropy", "target");
  if (weight.defined()) {
    TORCH_CHECK(weight.isSameSizeAs(input), Runtime,
                "binary_cross_entropy: weight of size %s must have the size of input %s", weight.sizeString().c_str(),
                input.sizeString().c_str());
    checkSameType(input, weight, "binary_cross_entropy", "weight");
  }
  Tensor x = contiguous(input), y = contiguous(target);
  TORCH_CHECK(kernels().allProbabilities(x.device(), x.dtype(), x), Runtime,
              "all elements of input should be between 0 and 1");
  RecordScope rec({&input});
  Tensor losses = empty(input.sizes(), input.dtype(), input.device());
  kernels().binaryCrossEntropy.updateOutput(x.device(), x.dtype(), x, y, losses);
  if (weight.defined()) losses = binary(BinaryOp::Mul, losses, weight);
  Tensor loss = reduction == Reduction::None  ? losses
                : reduction == Reduction::Sum ? sum(losses, {}, false)
                                              : mean(losses, {}, false);
  if (rec) derivatives::binaryCrossEntropy(input, target, weight, reduction, loss);
  return loss;
}

Tensor nllLoss(const Tensor &input, const Tensor &target, const Tensor &weight, Reduction reduction,
               int64_t ignoreIndex) {
  checkFloating(input, "nll_loss");
  TORCH_CHECK(input.dim() >= 1, Runtime, "Expected 1 or more dimensions (got 0)");
  TORCH_CHECK(isIntegral(target.dtype()), Runtime, "expected scalar type Long but found %s",
              scalarTypeName(target.dtype()));
  const int nd = input.dim();
  if (nd >= 2) {
    TORCH_CHECK(target.dim() >= 1, Runtime, "0D or 1D target tensor expected, multi-target not supported");
    TORCH_CHECK(input.size(0) == target.size(0), Value,
                "Expected input batch_size (%lld) to match target batch_size (%lld).",
                static_cast<long long>(input.size(0)), static_cast<long long>(target.size(0)));
  }
  const int64_t classes = nd == 1 ? input.size(0) : input.size(1);
  IntList noneShape;        // the shape of per-sample losses
  IntList inShape, tShape;  // what THNN sees
  if (nd == 1) {
    TORCH_CHECK(target.dim() <= 1 && target.numel() == 1, Runtime,
                "0D or 1D target tensor expected, multi-target not supported");
    noneShape = target.sizes();
    inShape = input.sizes();
    tShape = {1};
  } else if (nd == 2) {
    TORCH_CHECK(target.dim() == 1, Runtime, "0D or 1D target tensor expected, multi-target not supported");
    noneShape = target.sizes();
    inShape = input.sizes();
    tShape = target.sizes();
  } else {
    IntList sizes = input.sizes();
    IntList spatial(sizes.begin() + 2, sizes.end());
    IntList expected = spatial;
    expected.insert(expected.begin(), input.size(0));
    TORCH_CHECK(target.hasSizes(expected), Runtime, "Expected target size %s, got %s", shapeString(expected).c_str(),
                target.sizeString().c_str());
    const int64_t pixels = productOf(spatial, 0, spatial.size());
    noneShape = expected;
    inShape = {input.size(0), classes, pixels, 1};
    tShape = {input.size(0), pixels, 1};
  }
  checkClassWeight(weight, classes, input, "nll_loss");
  Tensor t = reshape(contiguous(toType(target, ScalarType::Long)), tShape);
  checkClassTargets(t, classes, ignoreIndex);
  RecordScope rec({&input});
  Tensor x = reshape(input, inShape);
  const bool reduce = reduces(reduction);
  Tensor out = blank(input.dtype(), input.device()), total = blank(input.dtype(), input.device());
  // Summed here and divided below, so that a mean over no counted target is 0 / 0 = nan.
  kernels().classNLLCriterion.updateOutput(x.device(), x.dtype(), x, t, out, false, weight, total, ignoreIndex, reduce);
  if (reduction == Reduction::Mean) binary_(BinaryOp::Div, out, reshape(total, out.sizes()));  // out is new
  Tensor loss = lossResult(out, reduction, noneShape);
  if (rec) derivatives::nllLoss(input, x, t, weight, reduction, ignoreIndex, out, loss);
  return loss;
}

Tensor multilabelMarginLoss(const Tensor &input, const Tensor &target, Reduction reduction) {
  checkFloating(input, "multilabel_margin_loss");
  TORCH_CHECK((input.dim() == 2 && input.size(1) != 0) || (input.dim() == 1 && input.size(0) != 0) || input.dim() == 0,
              Runtime, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
              input.sizeString().c_str());
  Tensor t = longTargets(target, "multilabel_margin_loss");
  TORCH_CHECK(t.numel() == input.numel() && t.dim() == input.dim() && (input.dim() == 0 || t.isSameSizeAs(input)),
              Runtime, "inconsistent target size: %s for input of size: %s", t.sizeString().c_str(),
              input.sizeString().c_str());
  RecordScope rec({&input});
  IntList shape = input.dim() == 0 ? IntList{1} : input.sizes();
  Tensor x = reshape(input, shape);
  t = reshape(t, shape);
  IntList noneShape = input.dim() == 2 ? IntList{input.size(0)} : IntList{};
  const bool reduce = reduces(reduction), sizeAverage = reduction == Reduction::Mean;
  Tensor out = blank(input.dtype(), input.device()), isTarget = blank(input.dtype(), input.device());
  kernels().multiLabelMarginCriterion.updateOutput(x.device(), x.dtype(), x, t, out, isTarget, sizeAverage, reduce);
  Tensor loss = lossResult(out, reduction, noneShape);
  if (rec) derivatives::multilabelMarginLoss(input, x, t, reduction, out, loss);
  return loss;
}

Tensor multiMarginLoss(const Tensor &input, const Tensor &target, int p, double margin, const Tensor &weight,
                       Reduction reduction) {
  checkFloating(input, "multi_margin_loss");
  TORCH_CHECK(p == 1 || p == 2, Value, "only p == 1 and p == 2 supported");
  TORCH_CHECK((input.dim() == 2 && input.size(1) != 0) || (input.dim() == 1 && input.size(0) != 0) || input.dim() == 0,
              Runtime, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
              input.sizeString().c_str());
  const int64_t rows = input.dim() == 2 ? input.size(0) : 1;
  const int64_t classes = input.dim() == 0 ? 1 : input.size(input.dim() - 1);
  Tensor t = longTargets(target, "multi_margin_loss");
  TORCH_CHECK(t.dim() <= 1 && t.numel() == rows, Runtime, "inconsistent target size, expected %lld but got %s",
              static_cast<long long>(rows), t.sizeString().c_str());
  if (weight.defined()) {
    TORCH_CHECK(weight.dim() <= 1 && weight.numel() == classes, Runtime,
                "inconsistent weight size, expected %lld but got %s", static_cast<long long>(classes),
                weight.sizeString().c_str());
    checkSameType(input, weight, "multi_margin_loss", "weight");
  }
  t = reshape(contiguous(t), {rows});
  checkClassTargets(t, classes, std::nullopt);
  RecordScope rec({&input});
  Tensor x = input.dim() == 2 ? input : reshape(input, {classes});
  Tensor w = weight.defined() ? reshape(weight, {classes}) : Tensor();
  IntList noneShape = input.dim() == 2 ? IntList{rows} : target.sizes();
  const bool reduce = reduces(reduction), sizeAverage = reduction == Reduction::Mean;
  Tensor out = blank(input.dtype(), input.device());
  kernels().multiMarginCriterion.updateOutput(x.device(), x.dtype(), x, t, out, sizeAverage, p, w, margin, reduce);
  Tensor loss = lossResult(out, reduction, noneShape);
  if (rec) derivatives::multiMarginLoss(input, x, t, p, margin, w, reduction, out, loss);
  return loss;
}

Tensor ctcLoss(const Tensor &logProbs, const Tensor &targets, const Tensor &inputLengths, const Tensor &targetLengths,
               int64_t blank, Reduction reduction, bool zeroInfinity) {
  checkFloating(logProbs, "ctc_loss");
  TORCH_CHECK(logProbs.dim() == 3 || logProbs.dim() == 2, Runtime,
              "ctc_loss: log_probs must be [T, N, C] (or [T, C] unbatched), got %s", logProbs.sizeString().c_str());
  const bool unbatched = logProbs.dim() == 2;
  RecordScope rec({&logProbs});
  Tensor lp = unbatched ? unsqueeze(logProbs, 1) : logProbs;
  Tensor tg = unbatched && targets.dim() == 1 ? unsqueeze(targets, 0) : targets;
  Tensor il = unbatched ? reshape(inputLengths, {1}) : inputLengths;
  Tensor tl = unbatched ? reshape(targetLengths, {1}) : targetLengths;
  const int64_t N = lp.size(1);
  CtcLayout layout = ctcLayout(lp, tg, il, tl, N, blank);
  std::vector<double> losses = ctcRun(lp, layout, blank);
  std::vector<bool> zeroed(N, false);
  for (int64_t b = 0; b < N; b++) {
    if (zeroInfinity && std::isinf(losses[b])) {
      losses[b] = 0;
      zeroed[b] = true;
    }
  }
  // Mean: each loss over its target length (at least 1), then the batch average.
  std::vector<double> weights(N, 1.0);
  if (reduction == Reduction::Mean) {
    for (int64_t b = 0; b < N; b++) weights[b] = 1.0 / (std::max<int64_t>(layout.targetLengths[b], 1) * N);
  }
  Tensor loss;
  if (reduces(reduction)) {
    double total = 0;
    for (int64_t b = 0; b < N; b++) total += weights[b] * losses[b];
    loss = scalarTensor(Scalar(total), lp.dtype(), lp.device());
  } else {
    Tensor perSample = empty({N}, ScalarType::Double, Device::CPU);  // filled on the host
    std::copy(losses.begin(), losses.end(), dataOf<double>(perSample));
    loss = to(perSample, lp.dtype(), lp.device());
    if (unbatched) loss = reshape(loss, {});
  }
  if (rec) derivatives::ctcLoss(logProbs, lp, layout, blank, weights, zeroed, unbatched, loss);
  return loss;
}

// ---- normalization ----

Tensor batchNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &runningMean,
                 const Tensor &runningVar, bool training, double momentum, double eps) {
  checkFloating(input, "batch_norm");
  TORCH_CHECK(input.dim() >= 2, Runtime, "batch_norm: expected input of at least 2 dimensions [N, C, ...], got %s",
              input.sizeString().c_str());
  const int64_t C = input.size(1);
  auto checkChannels = [&](const Tensor &t, const char *what) {
    if (!t.defined()) return;
    TORCH_CHECK(t.numel() == C, Runtime, "%s should contain %lld elements not %lld", what, static_cast<long long>(C),
                static_cast<long long>(t.numel()));
    checkSameType(input, t, "batch_norm", what);
  };
  checkChannels(weight, "weight");
  checkChannels(bias, "bias");
  checkChannels(runningMean, "running_mean");
  checkChannels(runningVar, "running_var");
  TORCH_CHECK(training || (runningMean.defined() && runningVar.defined()), Runtime,
              "running_mean and running_var must be defined in evaluation mode");
  RecordScope rec({&input, &weight, &bias});
  Tensor out = blank(input.dtype(), input.device()), saveMean = blank(input.dtype(), input.device()),
         saveStd = blank(input.dtype(), input.device());
  kernels().batchNormalization.updateOutput(input.device(), input.dtype(), input, out, weight, bias, runningMean,
                                            runningVar, saveMean, saveStd, training, momentum, eps);
  if (training && runningMean.defined()) bumpVersion(runningMean);
  if (training && runningVar.defined()) bumpVersion(runningVar);
  if (rec) derivatives::batchNorm(input, weight, bias, runningMean, runningVar, training, eps, saveMean, saveStd, out);
  return out;
}

Tensor layerNorm(const Tensor &input, const IntList &normalizedShape, const Tensor &weight, const Tensor &bias,
                 double eps) {
  checkFloating(input, "layer_norm");
  const int k = static_cast<int>(normalizedShape.size());
  IntList sizes = input.sizes();
  bool matches = input.dim() >= k;
  for (int i = 0; matches && i < k; i++) matches = sizes[input.dim() - k + i] == normalizedShape[i];
  std::string joined;
  for (int i = 0; i < k; i++) joined += (i ? ", " : "") + std::to_string(normalizedShape[i]);
  TORCH_CHECK(matches, Runtime,
              "Given normalized_shape=[%s], expected input with shape [*, %s], but got input of size%s", joined.c_str(),
              joined.c_str(), input.sizeString().c_str());
  const int64_t D = productOf(normalizedShape, 0, k);
  auto checkParameter = [&](const Tensor &t, const char *what) {
    if (!t.defined()) return;
    TORCH_CHECK(t.numel() == D, Runtime, "layer_norm: %s should contain %lld elements (normalized_shape [%s]), got %s",
                what, static_cast<long long>(D), joined.c_str(), t.sizeString().c_str());
    checkSameType(input, t, "layer_norm", what);
  };
  checkParameter(weight, "weight");
  checkParameter(bias, "bias");
  RecordScope rec({&input, &weight, &bias});
  Tensor out = empty(sizes, input.dtype(), input.device()), mean = blank(input.dtype(), input.device()),
         invstd = blank(input.dtype(), input.device());
  if (input.numel() == 0) {
    if (rec) derivatives::layerNorm(input, weight, bias, D, eps, mean, invstd, out);
    return out;
  }
  Tensor x = contiguous(input);
  Tensor w = weight.defined() ? contiguous(weight) : Tensor(), b = bias.defined() ? contiguous(bias) : Tensor();
  kernels().layerNormalization.updateOutput(x.device(), x.dtype(), x, out, w, b, mean, invstd, D, eps);
  if (rec) derivatives::layerNorm(input, weight, bias, D, eps, mean, invstd, out);
  return out;
}

// ---- embeddings ----

namespace {

Tensor embeddingIndices(const Tensor &indices, const char *op) {
  TORCH_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int, Runtime,
              "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but "
              "got %s instead (while checking arguments for %s)",
              scalarTypeName(indices.dtype()), op);
  return contiguous(toType(indices, ScalarType::Long));
}

void checkRows(const Tensor &idx, int64_t rows) {
  Tensor host = contiguous(to(idx, ScalarType::Long, Device::CPU));  // read on the host
  const int64_t *p = dataOf<int64_t>(host);
  for (int64_t i = 0; i < idx.numel(); i++) {
    TORCH_CHECK(p[i] >= 0 && p[i] < rows, Index, "index out of range in self");
  }
}

}  // namespace

Tensor embedding(const Tensor &weight, const Tensor &indices, int64_t paddingIdx, bool scaleGradByFreq) {
  TORCH_CHECK(weight.dim() == 2, Runtime, "'weight' must be 2-D");
  checkFloating(weight, "embedding");
  Tensor idx = embeddingIndices(indices, "embedding");
  checkRows(idx, weight.size(0));
  RecordScope rec({&weight});
  Tensor out = blank(weight.dtype(), weight.device());
  kernels().lookupTable(weight.device(), weight.dtype(), idx, out, weight);
  if (rec) derivatives::embedding(weight, idx, paddingIdx, scaleGradByFreq, out);
  return out;
}

void embeddingRenorm_(const Tensor &weight, const Tensor &indices, double maxNorm, double normType) {
  TORCH_CHECK(weight.dim() == 2, Runtime, "'weight' must be 2-D");
  checkFloating(weight, "embedding_renorm_");
  Tensor idx = embeddingIndices(indices, "embedding_renorm_");
  checkRows(idx, weight.size(0));
  kernels().lookupTableRenorm(weight.device(), weight.dtype(), idx, weight, maxNorm, normType);
  bumpVersion(weight);
}

Tensor embeddingBag(const Tensor &weight, const Tensor &indices, const Tensor &offsets, BagMode mode,
                    const Tensor &perSampleWeights, bool includeLastOffset, int64_t paddingIdx, bool scaleGradByFreq) {
  TORCH_CHECK(weight.dim() == 2, Runtime, "'weight' must be 2-D");
  checkFloating(weight, "embedding_bag");
  TORCH_CHECK(indices.dim() == 1 || indices.dim() == 2, Value,
              "input has to be 1D or 2D Tensor, but got Tensor of dimension %d", indices.dim());
  Tensor idx = reshape(embeddingIndices(indices, "embedding_bag"), {indices.numel()});
  const int64_t rows = weight.size(0), D = weight.size(1), n = idx.numel();
  checkRows(idx, rows);
  EmbeddingBags bags{{}, {}, {}, paddingIdx, mode};
  if (indices.dim() == 2) {
    TORCH_CHECK(!offsets.defined(), Value,
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length "
                "sequences. However, found offsets of type Tensor");
    const int64_t L = indices.size(1);
    for (int64_t b = 0; b < indices.size(0); b++) {
      bags.begin.push_back(b * L);
      bags.end.push_back((b + 1) * L);
    }
  } else {
    TORCH_CHECK(offsets.defined(), Value, "offsets has to be a 1D Tensor but got None");
    TORCH_CHECK(offsets.dim() == 1, Value, "offsets has to be a 1D Tensor");
    Tensor off = to(embeddingIndices(offsets, "embedding_bag"), ScalarType::Long, Device::CPU);  // read on the host
    const int64_t *o = dataOf<int64_t>(off);
    const int64_t count = off.numel();
    const int64_t B = includeLastOffset ? count - 1 : count;
    TORCH_CHECK(B >= 0, Runtime, "embedding_bag: include_last_offset needs at least one offset");
    TORCH_CHECK(count == 0 || o[0] == 0, Value,
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
                "However, got %lld",
                static_cast<long long>(count ? o[0] : 0));
    for (int64_t b = 0; b < B; b++) {
      int64_t e = b + 1 < count ? o[b + 1] : n;
      TORCH_CHECK(o[b] <= e && e <= n, Runtime,
                  "embedding_bag: offsets must be non-decreasing and at most the number of indices (%lld), got %lld "
                  "after %lld",
                  static_cast<long long>(n), static_cast<long long>(e), static_cast<long long>(o[b]));
      bags.begin.push_back(o[b]);
      bags.end.push_back(e);
    }
  }
  Tensor psw;
  if (perSampleWeights.defined()) {
    TORCH_CHECK(mode == BagMode::Sum, Runtime,
                "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum'");
    TORCH_CHECK(perSampleWeights.isSameSizeAs(indices), Value,
                "embedding_bag: If per_sample_weights (%s) is not None, then it must have the same shape as the input "
                "(%s)",
                perSampleWeights.sizeString().c_str(), indices.sizeString().c_str());
    checkSameType(weight, perSampleWeights, "embedding_bag", "per_sample_weights");
    psw = perSampleWeights;
  }
  RecordScope rec({&weight, &perSampleWeights});
  const int64_t B = static_cast<int64_t>(bags.begin.size());
  Tensor out = zeros({B, D}, weight.dtype(), weight.device());
  Tensor argmax = mode == BagMode::Max ? empty({B, D}, ScalarType::Long, weight.device()) : Tensor();
  Tensor pswc = psw.defined() ? contiguous(reshape(psw, {n})) : Tensor();
  Tensor hostIdx = to(idx, ScalarType::Long, Device::CPU);  // read on the host
  const int64_t *ip = dataOf<int64_t>(hostIdx);
  bags.count.assign(B, 0);
  for (int64_t b = 0; b < B; b++) {
    for (int64_t i = bags.begin[b]; i < bags.end[b]; i++) bags.count[b] += ip[i] != paddingIdx;
  }
  kernels().embeddingBag(weight.device(), weight.dtype(), idx, out, contiguous(weight), pswc, argmax, bags);
  if (rec) derivatives::embeddingBag(weight, perSampleWeights, pswc, idx, argmax, bags, scaleGradByFreq, out);
  return out;
}

}  // namespace nn
}  // namespace torch
