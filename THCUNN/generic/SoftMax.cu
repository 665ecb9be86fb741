#ifndef THC_GENERIC_FILE
#error "compile THCUNN/SoftMax.cu instead"
#endif

void THNN_(SoftMax_updateOutput)(THCState *state, THCTensor *input, THCTensor *output) {
  thcunn::forward(state, "SoftMax_updateOutput", input, output, false);
}

void THNN_(SoftMax_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput, THCTensor *gradInput,
                                    THCTensor *output) {
  thcunn::backward(state, "SoftMax_updateGradInput", input, gradOutput, gradInput, output, false);
}

void THNN_(LogSoftMax_updateOutput)(THCState *state, THCTensor *input, THCTensor *output) {
  thcunn::forward(state, "LogSoftMax_updateOutput", input, output, true);
}

void THNN_(LogSoftMax_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput, THCTensor *gradInput,
                                       THCTensor *output) {
  thcunn::backward(state, "LogSoftMax_updateGradInput", input, gradOutput, gradInput, output, true);
}
