#ifndef TH_GENERIC_FILE
#error "include THNN/SpatialConvolution.h instead"
#endif

/* Shapes (a 3-D input drops the batch dimension B of the input, the output and the buffers):
 *   input [B, nInputPlane, iH, iW], output [B, nOutputPlane, oH, oW]
 *   convolution:  oH = (iH + 2 padH - (dilationH (kH - 1) + 1)) / dH + 1   (dilation 1 for MM)
 *   transposed:   oH = (iH - 1) dH - 2 padH + dilationH (kH - 1) + 1 + adjH (dilation 1 for Full)
 * bias may be NULL in updateOutput, gradBias in accGradParameters. accGradParameters adds
 * scale times the gradient to gradWeight and gradBias. */

/* weight [nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW], bias [nOutputPlane].
 * finput: the unfolded input [B, nInputPlane*kH*kW, oH*oW], written by updateOutput and read by
 * accGradParameters (call updateOutput with the same input first). fgradInput: same shape,
 * scratch of updateGradInput. Float runs on oneDNN, which needs no unfolded input and leaves
 * both a 1-D scratch buffer (Note [oneDNN convolution] in THNN/dnnl/Convolution.cpp). */
TH_API void THNN_(SpatialConvolutionMM_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                     THTensor *weight, THTensor *bias, THTensor *finput,
                                                     THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                     int padH);
TH_API void THNN_(SpatialConvolutionMM_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                        THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                        int padH);
TH_API void THNN_(SpatialConvolutionMM_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                          THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                          int padW, int padH, accreal scale);

/* weight [nOutputPlane, nInputPlane, kH, kW], bias [nOutputPlane]. columns / gradColumns:
 * scratch [B, nInputPlane*kH*kW, oH*oW] (the whole batch, unlike torch7's one sample: see
 * Note [im2col convolution]), or 1-D and smaller in float, on oneDNN. ones: torch7's bias
 * helper, not needed here (may be NULL). */
TH_API void THNN_(SpatialDilatedConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                          THTensor *weight, THTensor *bias, THTensor *columns,
                                                          THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                          int padH, int dilationW, int dilationH);
TH_API void THNN_(SpatialDilatedConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                             THTensor *gradInput, THTensor *weight,
                                                             THTensor *gradColumns, int kW, int kH, int dW, int dH,
                                                             int padW, int padH, int dilationW, int dilationH);
TH_API void THNN_(SpatialDilatedConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                               THTensor *gradWeight, THTensor *gradBias,
                                                               THTensor *columns, THTensor *ones, int kW, int kH,
                                                               int dW, int dH, int padW, int padH, int dilationW,
                                                               int dilationH, accreal scale);

/* Transposed convolution (the gradient of a convolution with respect to its input).
 * weight [nInputPlane, nOutputPlane, kH, kW], bias [nOutputPlane]; 0 <= adj < stride or
 * adj < dilation. columns / gradColumns: scratch [B, nOutputPlane*kH*kW, iH*iW]; ones unused. */
TH_API void THNN_(SpatialFullConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                       THTensor *weight, THTensor *bias, THTensor *columns,
                                                       THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                       int padH, int adjW, int adjH);
TH_API void THNN_(SpatialFullConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput, THTensor *weight, THTensor *gradColumns,
                                                          int kW, int kH, int dW, int dH, int padW, int padH, int adjW,
                                                          int adjH);
TH_API void THNN_(SpatialFullConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradWeight, THTensor *gradBias, THTensor *columns,
                                                            THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                            int padH, int adjW, int adjH, accreal scale);
TH_API void THNN_(SpatialFullDilatedConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                              THTensor *weight, THTensor *bias, THTensor *columns,
                                                              THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                              int padH, int dilationW, int dilationH, int adjW,
                                                              int adjH);
TH_API void THNN_(SpatialFullDilatedConvolution_updateGradInput)(THNNState *state, THTensor *input,
                                                                 THTensor *gradOutput, THTensor *gradInput,
                                                                 THTensor *weight, THTensor *gradColumns, int kW,
                                                                 int kH, int dW, int dH, int padW, int padH,
                                                                 int dilationW, int dilationH, int adjW, int adjH);
TH_API void THNN_(SpatialFullDilatedConvolution_accGradParameters)(THNNState *state, THTensor *input,
                                                                   THTensor *gradOutput, THTensor *gradWeight,
                                                                   THTensor *gradBias, THTensor *columns,
                                                                   THTensor *ones, int kW, int kH, int dW, int dH,
                                                                   int padW, int padH, int dilationW, int dilationH,
                                                                   int adjW, int adjH, accreal scale);

/* Untied weights: one filter bank per output position.
 * weight [oH, oW, nOutputPlane, nInputPlane, kH, kW] or [oH*oW, nOutputPlane, nInputPlane*kH*kW],
 * bias [nOutputPlane, oH, oW]; inputWidth/Height and outputWidth/Height must match the input
 * and the computed output. finput / fgradInput as for SpatialConvolutionMM. */
TH_API void THNN_(SpatialConvolutionLocal_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                        THTensor *weight, THTensor *bias, THTensor *finput,
                                                        THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                        int padH, int64_t inputWidth, int64_t inputHeight,
                                                        int64_t outputWidth, int64_t outputHeight);
TH_API void THNN_(SpatialConvolutionLocal_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                           THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                           THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                           int padW, int padH, int64_t inputWidth, int64_t inputHeight,
                                                           int64_t outputWidth, int64_t outputHeight);
TH_API void THNN_(SpatialConvolutionLocal_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                             THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                             THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                             int padW, int padH, int64_t inputWidth,
                                                             int64_t inputHeight, int64_t outputWidth,
                                                             int64_t outputHeight, accreal scale);

/* Each input plane i is convolved with its own nOutputPlane filters (torch7's
 * SpatialDepthWiseConvolution): output plane i*nOutputPlane + o uses weight[o][i].
 * weight [nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW],
 * bias [nOutputPlane, nInputPlane]; output [B, nInputPlane*nOutputPlane, oH, oW].
 * finput [B, nInputPlane, kH*kW, oH*oW], written by updateOutput and read by
 * accGradParameters; fgradInput: same shape, scratch of updateGradInput. */
TH_API void THNN_(SpatialDepthwiseConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                            THTensor *weight, THTensor *bias, THTensor *finput,
                                                            THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                            int padW, int padH);
TH_API void THNN_(SpatialDepthwiseConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                               THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                               THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                               int padW, int padH);
TH_API void THNN_(SpatialDepthwiseConvolution_accGradParameters)(THNNState *state, THTensor *input,
                                                                 THTensor *gradOutput, THTensor *gradWeight,
                                                                 THTensor *gradBias, THTensor *finput,
                                                                 THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                                 int padW, int padH, accreal scale);

/* output[c] = bias[c] + weight[c] * (sum of input[c] over each kH x kW window), no padding:
 * oH = (iH - kH) / dH + 1. weight and bias [nInputPlane]; output has nInputPlane planes. */
TH_API void THNN_(SpatialSubSampling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THTensor *weight, THTensor *bias, int kW, int kH, int dW, int dH);
TH_API void THNN_(SpatialSubSampling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradInput, THTensor *weight, int kW, int kH, int dW,
                                                      int dH);
TH_API void THNN_(SpatialSubSampling_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradWeight, THTensor *gradBias, int kW, int kH,
                                                        int dW, int dH, accreal scale);
