// The CUDA column of the core's batch normalization (nnKernels().batchNormalization, THNN's
// grammar and statistics: save_std is 1/sqrt(var + eps), running_var takes the unbiased
// variance) through cuDNN, for Float and Double.
//
// Note [cuDNN batch normalization]: the input [N, C, ...] is seen as [N, C, S, 1] (S the
// product of the rest) in per-channel ("spatial") mode, made contiguous first. cuDNN wants a
// scale and a shift: without weight or bias, ones and zeros stand in, and undefined
// gradients are computed into scratch tensors and dropped. cuDNN's backward is the training
// one (the batch statistics depend on the input); in evaluation the layer is affine, and its
// backward is three lines of the core's own ops on the GPU.
#include "core/ops/NNKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"
#include "core/ops/cuda/Cudnn.hpp"
#include "autograd/Autograd.h"

// the batch-normalization entry points are marked deprecated in cuDNN 9
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace torch::cuda {

namespace {

using namespace cudnn;

// x as [N, C, S, 1], contiguous.
Tensor asNCS1(const Tensor &x) {
  int64_t s = 1;
  for (int d = 2; d < x.dim(); d++) s *= x.size(d);
  return view(contiguous(x), {x.size(0), x.size(1), s, 1});
}

// t when defined, else C copies of v on the GPU.
Tensor orFilled(const Tensor &t, int64_t channels, ScalarType dtype, double v) {
  if (t.defined()) return contiguous(t);
  Tensor r = empty({channels}, dtype, Device::CUDA);
  fill_(r, Scalar(v));
  return r;
}

struct ParamDesc {
  cudnnTensorDescriptor_t d = nullptr;
  explicit ParamDesc(const TensorDesc &x) {
    check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor");
    check(cudnnDeriveBNTensorDescriptor(d, x.d, CUDNN_BATCHNORM_SPATIAL), "cudnnDeriveBNTensorDescriptor");
  }
  ParamDesc(const ParamDesc &) = delete;
  ~ParamDesc() { cudnnDestroyTensorDescriptor(d); }
};

void *ptr(const Tensor &t) { return t.defined() ? t.dataPtr() : nullptr; }

template <typename T>
void batchNormOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                     const Tensor &runningMean, const Tensor &runningVar, const Tensor &saveMean, const Tensor &saveStd,
                     bool train, double momentum, double eps) {
  NoGradGuard plain;  // the kernel's own tensors, not the user's graph
  const int64_t C = input.size(1);
  TORCH_CHECK(!train || input.numel() / std::max<int64_t>(C, 1) > 1, Value,
              "batch_norm: training needs more than one value per channel, got input %s", input.sizeString().c_str());
  if (output.sizes() != input.sizes()) resize_(output, input.sizes());
  if (input.numel() == 0) return;
  Tensor x = asNCS1(input), y = contiguous(output);
  Tensor y4 = view(y, x.sizes());
  TensorDesc xd = TensorDesc::of<T>(x), yd = TensorDesc::of<T>(y4);
  ParamDesc pd(xd);
  Tensor w = orFilled(weight, C, input.dtype(), 1), b = orFilled(bias, C, input.dtype(), 0);
  const T one = 1, zero = 0;
  cudnnHandle_t h = handle();
  if (train) {
    resize_(saveMean, {C});
    resize_(saveStd, {C});
    // cuDNN updates running statistics in place: they must be packed
    TORCH_CHECK(
        (!runningMean.defined() || runningMean.isContiguous()) && (!runningVar.defined() || runningVar.isContiguous()),
        Value, "batch_norm: running_mean and running_var must be contiguous on the GPU");
    check(cudnnBatchNormalizationForwardTraining(
              h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xd.d, x.dataPtr(), yd.d, y4.dataPtr(), pd.d, w.dataPtr(),
              b.dataPtr(), momentum, ptr(runningMean), ptr(runningVar), eps, saveMean.dataPtr(), saveStd.dataPtr()),
          "cudnnBatchNormalizationForwardTraining");
  } else {
    Tensor mean = contiguous(runningMean), var = contiguous(runningVar);
    check(cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xd.d, x.dataPtr(), yd.d,
                                                  y4.dataPtr(), pd.d, w.dataPtr(), b.dataPtr(), mean.dataPtr(),
                                                  var.dataPtr(), eps),
          "cudnnBatchNormalizationForwardInference");
  }
  if (!y.isSameAs(output)) copy_(output, y);
}

template <typename T>
void batchNormBackward(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                       const Tensor &gradBias, const Tensor &weight, const Tensor &runningMean,
                       const Tensor &runningVar, const Tensor &saveMean, const Tensor &saveStd, bool train,
                       double scale, double eps) {
  NoGradGuard plain;
  const int64_t C = input.size(1);
  if (gradInput.defined() && gradInput.sizes() != input.sizes()) resize_(gradInput, input.sizes());
  if (input.numel() == 0) return;
  const int dims = input.dim();
  IntList reduced = {0};
  for (int d = 2; d < dims; d++) reduced.push_back(d);
  Tensor w = orFilled(weight, C, input.dtype(), 1);
  if (!train) {
    // y = (x - mean) * invstd * w + b with constant statistics
    Tensor invstd = unary(UnaryOp::Rsqrt, binary(BinaryOp::Add, runningVar, Scalar(eps)));
    Tensor centred = binary(BinaryOp::Sub, input, perChannel(runningMean, dims));
    if (gradInput.defined())
      copy_(gradInput, binary(BinaryOp::Mul, gradOutput, perChannel(binary(BinaryOp::Mul, invstd, w), dims)));
    if (gradWeight.defined()) {
      Tensor dot = sum(binary(BinaryOp::Mul, centred, gradOutput), reduced, false);
      binary_(BinaryOp::Add, gradWeight, binary(BinaryOp::Mul, dot, invstd), Scalar(scale));
    }
    if (gradBias.defined()) binary_(BinaryOp::Add, gradBias, sum(gradOutput, reduced, false), Scalar(scale));
    return;
  }
  Tensor x = asNCS1(input), dy = view(contiguous(gradOutput), x.sizes());
  Tensor dx = gradInput.defined() && gradInput.isContiguous() ? view(gradInput, x.sizes())
                                                              : empty(x.sizes(), input.dtype(), Device::CUDA);
  // cuDNN accumulates the parameter gradients into packed vectors (beta 1)
  Tensor dw = gradWeight.defined() ? contiguous(gradWeight) : empty({C}, input.dtype(), Device::CUDA);
  Tensor db = gradBias.defined() ? contiguous(gradBias) : empty({C}, input.dtype(), Device::CUDA);
  TensorDesc xd = TensorDesc::of<T>(x), dyd = TensorDesc::of<T>(dy), dxd = TensorDesc::of<T>(dx);
  ParamDesc pd(xd);
  Tensor mean = contiguous(saveMean), invstd = contiguous(saveStd);
  const T one = 1, zero = 0, alpha = static_cast<T>(scale);
  const T paramBeta = gradWeight.defined() || gradBias.defined() ? 1 : 0;
  check(cudnnBatchNormalizationBackward(handle(), CUDNN_BATCHNORM_SPATIAL, &one, &zero, &alpha, &paramBeta, xd.d,
                                        x.dataPtr(), dyd.d, dy.dataPtr(), dxd.d, dx.dataPtr(), pd.d, w.dataPtr(),
                                        dw.dataPtr(), db.dataPtr(), eps, mean.dataPtr(), invstd.dataPtr()),
        "cudnnBatchNormalizationBackward");
  if (gradInput.defined() && !gradInput.isContiguous()) copy_(gradInput, view(dx, input.sizes()));
  if (gradWeight.defined() && !dw.isSameAs(gradWeight)) copy_(gradWeight, dw);
  if (gradBias.defined() && !db.isSameAs(gradBias)) copy_(gradBias, db);
}

template <typename T>
void registerFor(ScalarType dtype) {
  auto &bn = nnKernels().batchNormalization;
  bn.updateOutput.add(Device::CUDA, dtype, &batchNormOutput<T>);
  bn.updateGradInput.add(Device::CUDA, dtype, &batchNormBackward<T>);
}

}  // namespace

void registerCudnnBatchNorm() {
  registerFor<float>(ScalarType::Float);
  registerFor<double>(ScalarType::Double);
}

}  // namespace torch::cuda
