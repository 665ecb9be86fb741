#ifndef THC_GENERIC_FILE
#error "compile THCUNN/indexed/Pooling.cu instead"
#endif

// THNN's argument numbers: kW (kT) is argument 5 of updateOutput, 6 of updateGradInput;
// gradOutput is 3 and indices 5 of updateGradInput.

void THNN_(SpatialDilatedMaxPooling_updateOutput)(THCState *state, THCTensor *input, THCTensor *output,
                                                  THCudaLongTensor *indices, int kW, int kH, int dW, int dH, int padW,
                                                  int padH, int dilationW, int dilationH, bool ceil_mode) {
  thnn::pooling::Axis ax[3];
  const thnn::pooling::Planes P =
      thcunn::spatialAxes(input, ax, kW, kH, dW, dH, padW, padH, dilationW, dilationH, ceil_mode, 5);
  thcunn::forward(state, input, output, indices, P, ax);
}

void THNN_(SpatialDilatedMaxPooling_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput,
                                                     THCTensor *gradInput, THCudaLongTensor *indices, int kW, int kH,
                                                     int dW, int dH, int padW, int padH, int dilationW, int dilationH,
                                                     bool ceil_mode) {
  thnn::pooling::Axis ax[3];
  const thnn::pooling::Planes P =
      thcunn::spatialAxes(input, ax, kW, kH, dW, dH, padW, padH, dilationW, dilationH, ceil_mode, 6);
  thcunn::backward(state, input, gradOutput, gradInput, indices, P, ax, 3, 5);
}

void THNN_(VolumetricDilatedMaxPooling_updateOutput)(THCState *state, THCTensor *input, THCTensor *output,
                                                     THCudaLongTensor *indices, int kT, int kW, int kH, int dT, int dW,
                                                     int dH, int pT, int pW, int pH, int dilationT, int dilationW,
                                                     int dilationH, bool ceilMode) {
  thnn::pooling::Axis ax[3];
  const thnn::pooling::Planes P = thcunn::volumetricAxes(input, ax, kT, kW, kH, dT, dW, dH, pT, pW, pH, dilationT,
                                                         dilationW, dilationH, ceilMode, 5);
  thcunn::forward(state, input, output, indices, P, ax);
}

void THNN_(VolumetricDilatedMaxPooling_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput,
                                                        THCTensor *gradInput, THCudaLongTensor *indices, int kT, int kW,
                                                        int kH, int dT, int dW, int dH, int pT, int pW, int pH,
                                                        int dilationT, int dilationW, int dilationH, bool ceilMode) {
  thnn::pooling::Axis ax[3];
  const thnn::pooling::Planes P = thcunn::volumetricAxes(input, ax, kT, kW, kH, dT, dW, dH, pT, pW, pH, dilationT,
                                                         dilationW, dilationH, ceilMode, 6);
  thcunn::backward(state, input, gradOutput, gradInput, indices, P, ax, 3, 5);
}
