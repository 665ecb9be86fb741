// The CUDA column of the core's max pooling (nnKernels().dilatedMaxPooling) from THCUNN's
// kernels (THCUNN/generic/MaxPooling.h, Note [Max pooling on the GPU]), index base 0, for
// Float and Double. Lists of sizes are [H, W] or [T, H, W] (Note [NN kernel grammar]).
#include "THCUNN/THCUNN.h"
#include "core/ops/NNKernels.h"
#include "core/ops/cuda/Cuda.h"

namespace torch::cuda {

namespace {

template <typename TensorT>
TensorT *dev(const Tensor &t) {
  return reinterpret_cast<TensorT *>(t.raw());
}

#define CORE_CUDA_MAX_POOLING(CReal, TensorT)                                                                        \
  void maxPoolOutput##CReal(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &k,      \
                            const IntList &st, const IntList &pd, const IntList &dl, bool ceilMode) {                \
    auto *X = dev<TensorT>(input), *O = dev<TensorT>(output);                                                        \
    auto *I = dev<THCudaLongTensor>(indices);                                                                        \
    if (k.size() == 2)                                                                                               \
      THNN_Cuda##CReal##SpatialDilatedMaxPooling_updateOutput(state(), X, O, I, k[1], k[0], st[1], st[0], pd[1],     \
                                                              pd[0], dl[1], dl[0], ceilMode);                        \
    else                                                                                                             \
      THNN_Cuda##CReal##VolumetricDilatedMaxPooling_updateOutput(state(), X, O, I, k[0], k[2], k[1], st[0], st[2],   \
                                                                 st[1], pd[0], pd[2], pd[1], dl[0], dl[2], dl[1],    \
                                                                 ceilMode);                                          \
  }                                                                                                                  \
  void maxPoolGradInput##CReal(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,               \
                               const Tensor &indices, const IntList &k, const IntList &st, const IntList &pd,        \
                               const IntList &dl, bool ceilMode) {                                                   \
    auto *X = dev<TensorT>(input), *GO = dev<TensorT>(gradOutput), *GI = dev<TensorT>(gradInput);                    \
    auto *I = dev<THCudaLongTensor>(indices);                                                                        \
    if (k.size() == 2)                                                                                               \
      THNN_Cuda##CReal##SpatialDilatedMaxPooling_updateGradInput(state(), X, GO, GI, I, k[1], k[0], st[1], st[0],    \
                                                                 pd[1], pd[0], dl[1], dl[0], ceilMode);              \
    else                                                                                                             \
      THNN_Cuda##CReal##VolumetricDilatedMaxPooling_updateGradInput(state(), X, GO, GI, I, k[0], k[2], k[1], st[0],  \
                                                                    st[2], st[1], pd[0], pd[2], pd[1], dl[0], dl[2], \
                                                                    dl[1], ceilMode);                                \
  }
CORE_CUDA_MAX_POOLING(, THCudaTensor)
CORE_CUDA_MAX_POOLING(Double, THCudaDoubleTensor)
#undef CORE_CUDA_MAX_POOLING

}  // namespace

void registerCudaPooling() {
  auto &pool = nnKernels().dilatedMaxPooling;
  pool.updateOutput.add(Device::CUDA, ScalarType::Float, &maxPoolOutput);
  pool.updateGradInput.add(Device::CUDA, ScalarType::Float, &maxPoolGradInput);
  pool.updateOutput.add(Device::CUDA, ScalarType::Double, &maxPoolOutputDouble);
  pool.updateGradInput.add(Device::CUDA, ScalarType::Double, &maxPoolGradInputDouble);
}

}  // namespace torch::cuda
