// The CUDA column of the core's own activations (nnKernels().relu ... hardswish, MapOutput
// and MapGradInput: contiguous input and gradOutput, output of the input's shape), over the
// kernels of MapActivations.cu, for Float and Double.
#include "core/ops/NNKernels.h"
#include "core/ops/cuda/Cuda.h"
#include "core/ops/cuda/MapActivations.h"

namespace torch::cuda {

namespace {

template <Activation A>
void output(const Tensor &input, const Tensor &out, double a) {
  if (out.sizes() != input.sizes()) resize_(out, input.sizes());
  launchActivation(A, input.dtype() == ScalarType::Double, input.dataPtr(), nullptr, out.dataPtr(), input.numel(), a,
                   THCState_getCurrentStream(state()));
  THCudaCheckLaunch();
}

template <Activation A>
void gradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gi, double a) {
  if (gi.sizes() != input.sizes()) resize_(gi, input.sizes());
  launchActivation(A, input.dtype() == ScalarType::Double, input.dataPtr(), gradOutput.dataPtr(), gi.dataPtr(),
                   input.numel(), a, THCState_getCurrentStream(state()));
  THCudaCheckLaunch();
}

template <Activation A>
void add(NNModule<MapOutput, MapGradInput> &m) {
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    m.updateOutput.add(Device::CUDA, dtype, &output<A>);
    m.updateGradInput.add(Device::CUDA, dtype, &gradInput<A>);
  }
}

}  // namespace

void registerCudaActivations() {
  NNKernels &k = nnKernels();
  add<Activation::Relu>(k.relu);
  add<Activation::Hardshrink>(k.hardshrink);
  add<Activation::Elu>(k.elu);
  add<Activation::Selu>(k.selu);
  add<Activation::Celu>(k.celu);
  add<Activation::Gelu>(k.gelu);
  add<Activation::GeluTanh>(k.geluTanh);
  add<Activation::Silu>(k.silu);
  add<Activation::Mish>(k.mish);
  add<Activation::Hardsigmoid>(k.hardsigmoid);
  add<Activation::Hardswish>(k.hardswish);
}

}  // namespace torch::cuda
