#ifndef TH_GENERIC_FILE
#error "include THNN/SoftMax.h (or THCUNN/THCUNN.h) instead"
#endif

/* SoftMax and LogSoftMax, declared once for THNN and THCUNN (THNN_STATE and THNN_TENSOR as
 * in generic/ElementWise.h), over torch7's dimension: 1-D: 0, 2-D (batch x classes): 1,
 * 3-D (planes x h x w): 0, 4-D (batch x planes x h x w): 1 (THNN/SoftMaxChecks.hpp). The max
 * of each line is subtracted first, so large inputs do not overflow. The backward reads the
 * output; gradOutput and output have input's shape. */
TH_API void THNN_(SoftMax_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(SoftMax_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                           THNN_TENSOR *gradInput, THNN_TENSOR *output);
TH_API void THNN_(LogSoftMax_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(LogSoftMax_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                              THNN_TENSOR *gradInput, THNN_TENSOR *output);
