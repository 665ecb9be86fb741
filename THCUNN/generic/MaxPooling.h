#ifndef THC_GENERIC_FILE
#error "include THCUNN/THCUNN.h"
#endif

/* Max pooling with indices, THNN's SpatialDilatedMaxPooling and VolumetricDilatedMaxPooling
 * (THNN/generic/Pooling.h) on the GPU: the same arguments, checks, windows and indices (flat
 * in the input plane, counting from TH_INDEX_BASE; the first maximum, or the first NaN,
 * wins), so indexed/Pooling.cu is built once per base. */
TH_API void THNN_(SpatialDilatedMaxPooling_updateOutput)(THCState *state, THCTensor *input, THCTensor *output,
                                                         THCudaLongTensor *indices, int kW, int kH, int dW, int dH,
                                                         int padW, int padH, int dilationW, int dilationH,
                                                         bool ceil_mode);
TH_API void THNN_(SpatialDilatedMaxPooling_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput,
                                                            THCTensor *gradInput, THCudaLongTensor *indices, int kW,
                                                            int kH, int dW, int dH, int padW, int padH, int dilationW,
                                                            int dilationH, bool ceil_mode);
TH_API void THNN_(VolumetricDilatedMaxPooling_updateOutput)(THCState *state, THCTensor *input, THCTensor *output,
                                                            THCudaLongTensor *indices, int kT, int kW, int kH, int dT,
                                                            int dW, int dH, int pT, int pW, int pH, int dilationT,
                                                            int dilationW, int dilationH, bool ceilMode);
TH_API void THNN_(VolumetricDilatedMaxPooling_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput,
                                                               THCTensor *gradInput, THCudaLongTensor *indices, int kT,
                                                               int kW, int kH, int dT, int dW, int dH, int pT, int pW,
                                                               int pH, int dilationT, int dilationW, int dilationH,
                                                               bool ceilMode);
