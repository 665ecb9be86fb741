#ifndef THC_GENERIC_FILE
#error "include THCUNN/Linear.h"
#endif

/* nn.Linear on the GPU: THNN's Linear kernels (THNN/generic/Linear.h) with THC's tensors, the
 * same arguments and checks; the products are cuBLAS's (THC's BLAS group). */
TH_API void THNN_(Linear_updateOutput)(THCState *state, THCTensor *input, THCTensor *output, THCTensor *weight,
                                       THCTensor *bias, THCTensor *addBuffer);
TH_API void THNN_(Linear_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput,
                                          THCTensor *gradInput, THCTensor *weight);
TH_API void THNN_(Linear_accGradParameters)(THCState *state, THCTensor *input, THCTensor *gradOutput,
                                            THCTensor *gradInput, THCTensor *weight, THCTensor *bias,
                                            THCTensor *gradWeight, THCTensor *gradBias, THCTensor *addBuffer,
                                            accreal scale);
