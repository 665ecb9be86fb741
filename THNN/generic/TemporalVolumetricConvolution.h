#ifndef TH_GENERIC_FILE
#error "include THNN/TemporalVolumetricConvolution.h instead"
#endif

/* Temporal and volumetric convolutions, torch7 nn's THNN signatures.
 *
 * Every kernel takes an unbatched input or the same with a leading batch dimension, and
 * its gradOutput / output follow. Results (output, gradInput) are resized; gradWeight and
 * gradBias are accumulated: grad += scale * d output / d parameter . gradOutput.
 * Arguments are checked before anything is written; a bad size raises with the sizes.
 *
 * Note [Convolution buffers]: finput / fgradInput / columns are scratch tensors owned by
 * the caller and resized (contiguous) by the kernel. Where said, accGradParameters reads
 * the columns that updateOutput left in finput for the same input (torch7's contract);
 * a finput of the wrong size raises. The `ones` buffers of torch7's signatures are not
 * used on the CPU and are left untouched. */

/* output[t] = bias + weight . (input[t*dW], ..., input[t*dW + kW - 1]) (frames concatenated).
 * input: nInputFrame x inputFrameSize, or batch x nInputFrame x inputFrameSize.
 * weight: outputFrameSize x (kW * inputFrameSize); bias: outputFrameSize.
 * output: nOutputFrame x outputFrameSize with nOutputFrame = (nInputFrame - kW) / dW + 1. */
TH_API void THNN_(TemporalConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    THTensor *weight, THTensor *bias, int kW, int dW,
                                                    int inputFrameSize, int outputFrameSize);
TH_API void THNN_(TemporalConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, THTensor *weight, int kW, int dW);
TH_API void THNN_(TemporalConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                         accreal scale);

/* output[t][f] = bias[f] + weight[f] * sum over k < kW of input[t*dW + k][f].
 * input: nInputFrame x inputFrameSize or batch x nInputFrame x inputFrameSize (torch7
 * takes the unbatched form only); weight, bias: inputFrameSize. */
TH_API void THNN_(TemporalSubSampling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    THTensor *weight, THTensor *bias, int kW, int dW,
                                                    int inputFrameSize);
TH_API void THNN_(TemporalSubSampling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, THTensor *weight, int kW, int dW);
TH_API void THNN_(TemporalSubSampling_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                         accreal scale);

/* Each feature row convolved with its own kernel (nn.TemporalRowConvolution):
 * output[c][t] = bias[c] + sum over k < kW of weight[c][0][k] * input[c][t*dW - padW + k]
 * (zero outside). input: nInputFrame x inputFrameSize (batch x ... when 3-d), or with
 * featFirst inputFrameSize x nInputFrame; output has the same layout with
 * nOutputFrame = (nInputFrame + 2 padW - kW) / dW + 1 (torch7 leaves a transposed view
 * there when !featFirst; here it is contiguous). weight: inputFrameSize x 1 x kW;
 * bias [OPTIONAL]: inputFrameSize. finput and fgradInput become
 * (batch x) inputFrameSize x kW x nOutputFrame; accGradParameters reads finput (Note
 * [Convolution buffers]). */
TH_API void THNN_(TemporalRowConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                       THTensor *weight, THTensor *bias, THTensor *finput,
                                                       THTensor *fgradInput, int kW, int dW, int padW, bool featFirst);
TH_API void THNN_(TemporalRowConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                          THTensor *fgradInput, int kW, int dW, int padW,
                                                          bool featFirst);
TH_API void THNN_(TemporalRowConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                            THTensor *fgradInput, int kW, int dW, int padW,
                                                            bool featFirst, accreal scale);

/* 3-d convolution by vol2col + GEMM. input: nInputPlane x inputDepth x inputHeight x
 * inputWidth, or batch x ...; weight: nOutputPlane x nInputPlane x kT x kH x kW (or that
 * viewed as nOutputPlane x (nInputPlane*kT*kH*kW)); bias [OPTIONAL]: nOutputPlane.
 * output: nOutputPlane x oT x oH x oW, oT = (inputDepth + 2 pT - kT) / dT + 1, likewise
 * oH, oW. finput becomes (batch x) (nInputPlane*kT*kH*kW) x (oT*oH*oW), the columns that
 * accGradParameters reads (Note [Convolution buffers]); fgradInput is one sample's
 * columns of the input gradient. Note the torch7 order: kT, kW, kH (width before height). */
TH_API void THNN_(VolumetricConvolutionMM_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                        THTensor *weight, THTensor *bias, THTensor *finput,
                                                        THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW,
                                                        int dH, int pT, int pW, int pH);
TH_API void THNN_(VolumetricConvolutionMM_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                           THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                           THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW,
                                                           int dH, int pT, int pW, int pH);
TH_API void THNN_(VolumetricConvolutionMM_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                             THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                             THTensor *fgradInput, int kT, int kW, int kH, int dT,
                                                             int dW, int dH, int pT, int pW, int pH, accreal scale);

/* VolumetricConvolutionMM with dilated kernels: tap k reads input position
 * o*stride - pad + k*dilation; oT = (inputDepth + 2 padT - (dilationT*(kT-1) + 1)) / dT + 1.
 * columns holds one sample's columns and is recomputed by accGradParameters; ones is
 * unused (Note [Convolution buffers]). */
TH_API void THNN_(VolumetricDilatedConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                             THTensor *weight, THTensor *bias, THTensor *columns,
                                                             THTensor *ones, int kT, int kW, int kH, int dT, int dW,
                                                             int dH, int padT, int padW, int padH, int dilationT,
                                                             int dilationW, int dilationH);
TH_API void THNN_(VolumetricDilatedConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                                THTensor *gradInput, THTensor *weight,
                                                                THTensor *gradColumns, int kT, int kW, int kH, int dT,
                                                                int dW, int dH, int padT, int padW, int padH,
                                                                int dilationT, int dilationW, int dilationH);
TH_API void THNN_(VolumetricDilatedConvolution_accGradParameters)(THNNState *state, THTensor *input,
                                                                  THTensor *gradOutput, THTensor *gradWeight,
                                                                  THTensor *gradBias, THTensor *columns, THTensor *ones,
                                                                  int kT, int kW, int kH, int dT, int dW, int dH,
                                                                  int padT, int padW, int padH, int dilationT,
                                                                  int dilationW, int dilationH, accreal scale);

/* Transposed 3-d convolution (the gradient of VolumetricConvolutionMM with respect to its
 * input): input sample position i and tap k add input[ci][i] * weight[ci][co][k] to
 * output[co][i*stride - pad + k]. weight: nInputPlane x nOutputPlane x kT x kH x kW (or
 * nInputPlane x (nOutputPlane*kT*kH*kW)); bias [OPTIONAL]: nOutputPlane. output:
 * oT = (inputDepth - 1) dT - 2 pT + kT + aT, likewise oH, oW; the adjustments satisfy
 * 0 <= a < stride. finput holds one sample's columns, (nOutputPlane*kT*kH*kW) x
 * (inputDepth*inputHeight*inputWidth), recomputed where needed; fgradInput (torch7's ones)
 * is unused. */
TH_API void THNN_(VolumetricFullConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                          THTensor *weight, THTensor *bias, THTensor *finput,
                                                          THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW,
                                                          int dH, int pT, int pW, int pH, int aT, int aW, int aH);
TH_API void THNN_(VolumetricFullConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                             THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                             THTensor *fgradInput, int kT, int kW, int kH, int dT,
                                                             int dW, int dH, int pT, int pW, int pH, int aT, int aW,
                                                             int aH);
TH_API void THNN_(VolumetricFullConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                               THTensor *gradWeight, THTensor *gradBias,
                                                               THTensor *finput, THTensor *fgradInput, int kT, int kW,
                                                               int kH, int dT, int dW, int dH, int pT, int pW, int pH,
                                                               int aT, int aW, int aH, accreal scale);
