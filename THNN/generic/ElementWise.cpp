#ifndef TH_GENERIC_FILE
#error "compile THNN/ElementWise.cpp or THCUNN/ElementWise.cu instead"
#endif

/* Note [Element-wise kernels once]: the element-wise activations are written once, here,
 * for THNN and THCUNN. What differs per device comes from the file that includes this one:
 * THNN_STATE and THNN_TENSOR (THNNState and THTensor, or THCState and THCTensor), THNN_
 * naming the kernel (THNN_FloatTanh_updateOutput, THNN_CudaTanh_updateOutput), and the
 * drivers mapForward, mapForwardBuffered and mapBackward that walk the tensors (th::apply on
 * the CPU, one GPU kernel on the GPU) and call a functor of THNN/ElementWiseFunctions.hpp
 * per element, computing in THNN_COMPUTE (float for Half). The checks and their messages are
 * the same on both devices. */

#define THNN_COMPUTE thnn::Compute<scalar_t>

void THNN_(Abs_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output) {
  mapForward<scalar_t>(state, input, output, false, thnn::Abs<THNN_COMPUTE>());
}

void THNN_(Abs_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                THNN_TENSOR *gradInput) {
  checkSameCount("Abs_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::Abs<THNN_COMPUTE>(), input);
}

void THNN_(ELU_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal alpha, bool inplace) {
  THArgCheck(!inplace || alpha >= 0, 4, "ELU_updateOutput: in-place ELU needs alpha >= 0, got %g", (double)alpha);
  mapForward<scalar_t>(state, input, output, inplace, thnn::ELU<THNN_COMPUTE>(alpha));
}

void THNN_(ELU_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                THNN_TENSOR *output, accreal alpha, bool inplace) {
  checkSameCount("ELU_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("ELU_updateGradInput", input, "input", output, 5, "output");
  THArgCheck(!inplace || alpha >= 0, 6, "ELU_updateGradInput: in-place ELU needs alpha >= 0, got %g", (double)alpha);
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, inplace, thnn::ELU<THNN_COMPUTE>(alpha), input, output);
}

void THNN_(HardShrink_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal lambda) {
  mapForward<scalar_t>(state, input, output, false, thnn::HardShrink<THNN_COMPUTE>(lambda));
}

void THNN_(HardShrink_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                       THNN_TENSOR *gradInput, accreal lambda) {
  checkSameCount("HardShrink_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::HardShrink<THNN_COMPUTE>(lambda), input);
}

void THNN_(HardTanh_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal min_val,
                                  accreal max_val, bool inplace) {
  THArgCheck(min_val < max_val, 5, "HardTanh_updateOutput: max_val (%g) must be larger than min_val (%g)",
             (double)max_val, (double)min_val);
  mapForward<scalar_t>(state, input, output, inplace, thnn::HardTanh<THNN_COMPUTE>(min_val, max_val));
}

void THNN_(HardTanh_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                     THNN_TENSOR *gradInput, accreal min_val, accreal max_val, bool inplace) {
  checkSameCount("HardTanh_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THArgCheck(min_val < max_val, 6, "HardTanh_updateGradInput: max_val (%g) must be larger than min_val (%g)",
             (double)max_val, (double)min_val);
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, inplace, thnn::HardTanh<THNN_COMPUTE>(min_val, max_val),
                        input);
}

void THNN_(LeakyReLU_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal negval,
                                   bool inplace) {
  THArgCheck(!inplace || negval >= 0, 4, "LeakyReLU_updateOutput: in-place LeakyReLU needs negval >= 0, got %g",
             (double)negval);
  mapForward<scalar_t>(state, input, output, inplace, thnn::LeakyReLU<THNN_COMPUTE>(negval));
}

void THNN_(LeakyReLU_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                      THNN_TENSOR *gradInput, accreal negval, bool inplace) {
  checkSameCount("LeakyReLU_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THArgCheck(!inplace || negval >= 0, 5, "LeakyReLU_updateGradInput: in-place LeakyReLU needs negval >= 0, got %g",
             (double)negval);
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, inplace, thnn::LeakyReLU<THNN_COMPUTE>(negval), input);
}

void THNN_(LogSigmoid_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, THNN_TENSOR *buffer) {
  mapForwardBuffered<scalar_t>(state, input, output, buffer, thnn::LogSigmoid<THNN_COMPUTE>());
}

void THNN_(LogSigmoid_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                       THNN_TENSOR *gradInput, THNN_TENSOR *buffer) {
  checkSameCount("LogSigmoid_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("LogSigmoid_updateGradInput", input, "input", buffer, 5, "buffer");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::LogSigmoid<THNN_COMPUTE>(), input, buffer);
}

void THNN_(Sigmoid_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output) {
  mapForward<scalar_t>(state, input, output, false, thnn::Sigmoid<THNN_COMPUTE>());
}

void THNN_(Sigmoid_updateGradInput)(THNN_STATE *state, THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                    THNN_TENSOR *output) {
  checkSameCount("Sigmoid_updateGradInput", output, "output", gradOutput, 2, "gradOutput");
  mapBackward<scalar_t>(state, output, gradOutput, gradInput, false, thnn::Sigmoid<THNN_COMPUTE>(), output);
}

void THNN_(SoftPlus_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal beta,
                                  accreal threshold) {
  mapForward<scalar_t>(state, input, output, false, thnn::SoftPlus<THNN_COMPUTE>(beta, threshold));
}

void THNN_(SoftPlus_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                     THNN_TENSOR *gradInput, THNN_TENSOR *output, accreal beta, accreal threshold) {
  checkSameCount("SoftPlus_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("SoftPlus_updateGradInput", input, "input", output, 5, "output");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::SoftPlus<THNN_COMPUTE>(beta, threshold),
                        input, output);
}

void THNN_(SoftShrink_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal lambda) {
  mapForward<scalar_t>(state, input, output, false, thnn::SoftShrink<THNN_COMPUTE>(lambda));
}

void THNN_(SoftShrink_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                       THNN_TENSOR *gradInput, accreal lambda) {
  checkSameCount("SoftShrink_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::SoftShrink<THNN_COMPUTE>(lambda), input);
}

void THNN_(Sqrt_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal eps) {
  mapForward<scalar_t>(state, input, output, false, thnn::Sqrt<THNN_COMPUTE>(eps));
}

void THNN_(Sqrt_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                 THNN_TENSOR *output) {
  checkSameCount("Sqrt_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("Sqrt_updateGradInput", input, "input", output, 5, "output");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::Sqrt<THNN_COMPUTE>(0), output);
}

void THNN_(Square_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output) {
  mapForward<scalar_t>(state, input, output, false, thnn::Square<THNN_COMPUTE>());
}

void THNN_(Square_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                   THNN_TENSOR *gradInput) {
  checkSameCount("Square_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, false, thnn::Square<THNN_COMPUTE>(), input);
}

void THNN_(Tanh_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output) {
  mapForward<scalar_t>(state, input, output, false, thnn::Tanh<THNN_COMPUTE>());
}

void THNN_(Tanh_updateGradInput)(THNN_STATE *state, THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                 THNN_TENSOR *output) {
  checkSameCount("Tanh_updateGradInput", output, "output", gradOutput, 2, "gradOutput");
  mapBackward<scalar_t>(state, output, gradOutput, gradInput, false, thnn::Tanh<THNN_COMPUTE>(), output);
}

void THNN_(Threshold_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal threshold,
                                   accreal val, bool inplace) {
  THArgCheck(!inplace || val <= threshold, 5,
             "Threshold_updateOutput: in-place Threshold needs val (%g) <= threshold (%g)", (double)val,
             (double)threshold);
  mapForward<scalar_t>(state, input, output, inplace, thnn::Threshold<THNN_COMPUTE>(threshold, val));
}

void THNN_(Threshold_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                      THNN_TENSOR *gradInput, accreal threshold, accreal val, bool inplace) {
  checkSameCount("Threshold_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THArgCheck(!inplace || val <= threshold, 6,
             "Threshold_updateGradInput: in-place Threshold needs val (%g) <= threshold (%g)", (double)val,
             (double)threshold);
  mapBackward<scalar_t>(state, input, gradOutput, gradInput, inplace, thnn::Threshold<THNN_COMPUTE>(threshold, val),
                        input);
}

#undef THNN_COMPUTE
