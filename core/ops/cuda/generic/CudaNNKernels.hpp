#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THCUNN's kernels of element type scalar_t (THCUNN/THCUNN.h) for core/ops/NNKernels.h:
// THNN's twins with the same arguments after the state (Note [NN kernel grammar]), called
// as the CPU's kernels call THNN's. Float and Double; ClassNLLCriterion's targets count from
// 0 (THCUNN's base-0 build). The other modules (linear maps, convolutions, pooling, the
// multi-class margins, BCE's per-element losses, our own activations) have no THCUNN kernel.
template <>
struct CudaNNKernels<scalar_t> {
#if TH_REAL_IS_FLOATING
  static THCTensor *dev(const Tensor &t) { return CudaKernels<scalar_t>::dev(t); }
  static THCTensor *devOrNull(const Tensor &t) { return t.defined() ? dev(t) : nullptr; }
#define CORE_THCUNN(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)

  // ---- activations (never in place: the op owns both tensors) ----
  static void hardtanhOutput(const Tensor &input, const Tensor &output, double minVal, double maxVal) {
    CORE_THCUNN(HardTanh_updateOutput)(state(), dev(input), dev(output), minVal, maxVal, false);
  }
  static void hardtanhGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double minVal,
                                double maxVal) {
    CORE_THCUNN(HardTanh_updateGradInput)(state(), dev(input), dev(gradOutput), dev(gradInput), minVal, maxVal, false);
  }
  static void leakyReluOutput(const Tensor &input, const Tensor &output, double slope, double) {
    CORE_THCUNN(LeakyReLU_updateOutput)(state(), dev(input), dev(output), slope, false);
  }
  static void leakyReluGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double slope,
                                 double) {
    CORE_THCUNN(LeakyReLU_updateGradInput)(state(), dev(input), dev(gradOutput), dev(gradInput), slope, false);
  }
  static void softshrinkOutput(const Tensor &input, const Tensor &output, double lambda, double) {
    CORE_THCUNN(SoftShrink_updateOutput)(state(), dev(input), dev(output), lambda);
  }
  static void softshrinkGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double lambda,
                                  double) {
    CORE_THCUNN(SoftShrink_updateGradInput)(state(), dev(input), dev(gradOutput), dev(gradInput), lambda);
  }
  static void softplusOutput(const Tensor &input, const Tensor &output, double beta, double threshold) {
    CORE_THCUNN(SoftPlus_updateOutput)(state(), dev(input), dev(output), beta, threshold);
  }
  static void softplusGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                                const Tensor &output, double beta, double threshold) {
    CORE_THCUNN(SoftPlus_updateGradInput)
    (state(), dev(input), dev(gradOutput), dev(gradInput), dev(output), beta, threshold);
  }
  static void logSigmoidOutput(const Tensor &input, const Tensor &output, const Tensor &buffer) {
    CORE_THCUNN(LogSigmoid_updateOutput)(state(), dev(input), dev(output), dev(buffer));
  }
  static void logSigmoidGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                                  const Tensor &buffer) {
    CORE_THCUNN(LogSigmoid_updateGradInput)(state(), dev(input), dev(gradOutput), dev(gradInput), dev(buffer));
  }
  static void softmaxOutput(const Tensor &input, const Tensor &output) {
    CORE_THCUNN(SoftMax_updateOutput)(state(), dev(input), dev(output));
  }
  static void softmaxGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                               const Tensor &output) {
    CORE_THCUNN(SoftMax_updateGradInput)(state(), dev(input), dev(gradOutput), dev(gradInput), dev(output));
  }
  static void logSoftmaxOutput(const Tensor &input, const Tensor &output) {
    CORE_THCUNN(LogSoftMax_updateOutput)(state(), dev(input), dev(output));
  }
  static void logSoftmaxGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                                  const Tensor &output) {
    CORE_THCUNN(LogSoftMax_updateGradInput)(state(), dev(input), dev(gradOutput), dev(gradInput), dev(output));
  }

  // ---- losses ----
#define CORE_CUDA_CRITERION(K)                                                                             \
  static void K##Output(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage, \
                        bool reduce) {                                                                     \
    CORE_THCUNN(K##_updateOutput)(state(), dev(input), dev(target), dev(output), sizeAverage, reduce);     \
  }                                                                                                        \
  static void K##GradInput(const Tensor &input, const Tensor &target, const Tensor &gradOutput,            \
                           const Tensor &gradInput, bool sizeAverage, bool reduce) {                       \
    CORE_THCUNN(K##_updateGradInput)                                                                       \
    (state(), dev(input), dev(target), dev(gradOutput), dev(gradInput), sizeAverage, reduce);              \
  }
  CORE_CUDA_CRITERION(AbsCriterion)
  CORE_CUDA_CRITERION(MSECriterion)
  CORE_CUDA_CRITERION(SmoothL1Criterion)
  CORE_CUDA_CRITERION(SoftMarginCriterion)
  CORE_CUDA_CRITERION(DistKLDivCriterion)
#undef CORE_CUDA_CRITERION

  // A 4-D input is the spatial criterion, as on the CPU.
  static void classNLLOutput(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage,
                             const Tensor &weights, const Tensor &totalWeight, int64_t ignoreIndex, bool reduce) {
    auto kernel = input.dim() == 4 ? &CORE_THCUNN(SpatialClassNLLCriterion_updateOutput)
                                   : &CORE_THCUNN(ClassNLLCriterion_updateOutput);
    kernel(state(), dev(input), devLong(target), dev(output), sizeAverage, devOrNull(weights), dev(totalWeight),
           ignoreIndex, reduce);
  }
  static void classNLLGradInput(const Tensor &input, const Tensor &target, const Tensor &gradOutput,
                                const Tensor &gradInput, bool sizeAverage, const Tensor &weights,
                                const Tensor &totalWeight, int64_t ignoreIndex, bool reduce) {
    auto kernel = input.dim() == 4 ? &CORE_THCUNN(SpatialClassNLLCriterion_updateGradInput)
                                   : &CORE_THCUNN(ClassNLLCriterion_updateGradInput);
    kernel(state(), dev(input), devLong(target), dev(gradOutput), dev(gradInput), sizeAverage, devOrNull(weights),
           dev(totalWeight), ignoreIndex, reduce);
  }
#undef CORE_THCUNN
#endif

  static void add([[maybe_unused]] ScalarType dtype) {
#if TH_REAL_IS_FLOATING
    NNKernels &k = nnKernels();
#define CORE_CUDA_ADD_MODULE(member, prefix)                       \
  k.member.updateOutput.add(Device::CUDA, dtype, &prefix##Output); \
  k.member.updateGradInput.add(Device::CUDA, dtype, &prefix##GradInput);
    CORE_CUDA_ADD_MODULE(hardtanh, hardtanh)
    CORE_CUDA_ADD_MODULE(leakyRelu, leakyRelu)
    CORE_CUDA_ADD_MODULE(softshrink, softshrink)
    CORE_CUDA_ADD_MODULE(softplus, softplus)
    CORE_CUDA_ADD_MODULE(logSigmoid, logSigmoid)
    CORE_CUDA_ADD_MODULE(softmax, softmax)
    CORE_CUDA_ADD_MODULE(logSoftmax, logSoftmax)
    CORE_CUDA_ADD_MODULE(absCriterion, AbsCriterion)
    CORE_CUDA_ADD_MODULE(mseCriterion, MSECriterion)
    CORE_CUDA_ADD_MODULE(smoothL1Criterion, SmoothL1Criterion)
    CORE_CUDA_ADD_MODULE(softMarginCriterion, SoftMarginCriterion)
    CORE_CUDA_ADD_MODULE(distKLDivCriterion, DistKLDivCriterion)
    CORE_CUDA_ADD_MODULE(classNLLCriterion, classNLL)
#undef CORE_CUDA_ADD_MODULE
#endif
  }
};
