#ifndef TH_GENERIC_FILE
#error "include THNN/Criterion.h (or THCUNN/THCUNN.h) instead"
#endif

/* Criterions: a loss of `input` against `target`, torch7 nn's THNN signatures, declared once
 * for THNN and THCUNN (THNN_STATE and THNN_TENSOR as in generic/ElementWise.h; THNN_INDEX_TENSOR
 * is THLongTensor or THCudaLongTensor).
 *
 * Note [Criterion reduction]: with reduce (and always for the kernels without the flag),
 * updateOutput resizes `output` to one element, the sum of the losses, divided with
 * sizeAverage by the element count (by the sample count, or the total weight, where
 * said). updateGradInput writes d output / d input times gradOutput, a one-element
 * tensor (NULL reads as 1). Without reduce, `output` holds one loss per element (per
 * sample for the class criterions, see each) and gradOutput gives one value per loss;
 * sizeAverage is ignored.
 *
 * Element-wise criterions take a target (and weights) with as many elements as input,
 * walked in row-major order whatever the shapes (torch7's rule); a reduce=false output
 * has input's shape. Class targets are LongTensors counting from TH_INDEX_BASE: those
 * kernels live in THNN/indexed/Criterion.cpp, built once per base.
 */

/* |x - y| */
TH_API void THNN_(AbsCriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                             THNN_TENSOR *output, bool sizeAverage, bool reduce);
TH_API void THNN_(AbsCriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput, bool sizeAverage,
                                                bool reduce);

/* -w (y log(x + eps) + (1 - y) log(1 - x + eps)), eps = 1e-12 as torch7; input in [0, 1].
 * weights [OPTIONAL]: one per element, NULL for 1. */
TH_API void THNN_(BCECriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                             THNN_TENSOR *output, bool sizeAverage, THNN_TENSOR *weights, bool reduce);
TH_API void THNN_(BCECriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput, bool sizeAverage,
                                                THNN_TENSOR *weights, bool reduce);

/* y (log y - x) where y > 0, else 0 (input holds log-probabilities) */
TH_API void THNN_(DistKLDivCriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                   THNN_TENSOR *output, bool sizeAverage, bool reduce);
TH_API void THNN_(DistKLDivCriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                      THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput, bool sizeAverage,
                                                      bool reduce);

/* sum |x|, no target, no averaging. gradOutput [OPTIONAL]: one element, NULL for 1
 * (torch7's nn passes NULL). */
TH_API void THNN_(L1Cost_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(L1Cost_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                          THNN_TENSOR *gradInput);

/* max(0, margin - x y), y in {-1, 1}; always reduced, no gradOutput (torch7) */
TH_API void THNN_(MarginCriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                THNN_TENSOR *output, bool sizeAverage, accreal margin);
TH_API void THNN_(MarginCriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                   THNN_TENSOR *gradInput, bool sizeAverage, accreal margin);

/* (x - y)^2 */
TH_API void THNN_(MSECriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                             THNN_TENSOR *output, bool sizeAverage, bool reduce);
TH_API void THNN_(MSECriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput, bool sizeAverage,
                                                bool reduce);

/* 0.5 (x - y)^2 where |x - y| < 1, else |x - y| - 0.5 */
TH_API void THNN_(SmoothL1Criterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                  THNN_TENSOR *output, bool sizeAverage, bool reduce);
TH_API void THNN_(SmoothL1Criterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                     THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput, bool sizeAverage,
                                                     bool reduce);

/* log(1 + exp(-x y)), y in {-1, 1} */
TH_API void THNN_(SoftMarginCriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                    THNN_TENSOR *output, bool sizeAverage, bool reduce);
TH_API void THNN_(SoftMarginCriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *target,
                                                       THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                                       bool sizeAverage, bool reduce);

/* ---- Class criterions (indexed: targets count from TH_INDEX_BASE) ---- */

/* -w[t] x[t] for log-probabilities x: a vector (C) with a one-element target, or a
 * batch (N x C) with N targets. weights [OPTIONAL]: C class weights, NULL for 1.
 * A target equal to ignore_index (same base as the targets) counts nothing.
 * total_weight [BUFFER]: resized to one element, the sum of the weights of the counted
 * targets; sizeAverage divides by it (when not 0). updateGradInput recomputes it.
 * reduce=false on a batch gives N losses (-w[t] x[t], 0 for ignored); on a vector it
 * gives the one unaveraged loss. */
TH_API void THNN_(ClassNLLCriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_INDEX_TENSOR *target,
                                                  THNN_TENSOR *output, bool sizeAverage, THNN_TENSOR *weights,
                                                  THNN_TENSOR *total_weight, int64_t ignore_index, bool reduce);
TH_API void THNN_(ClassNLLCriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_INDEX_TENSOR *target,
                                                     THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput, bool sizeAverage,
                                                     THNN_TENSOR *weights, THNN_TENSOR *total_weight,
                                                     int64_t ignore_index, bool reduce);

/* ClassNLLCriterion at every pixel: input N x C x H x W, target N x H x W;
 * reduce=false gives N x H x W losses. */
TH_API void THNN_(SpatialClassNLLCriterion_updateOutput)(THNN_STATE *state, THNN_TENSOR *input,
                                                         THNN_INDEX_TENSOR *target, THNN_TENSOR *output,
                                                         bool sizeAverage, THNN_TENSOR *weights,
                                                         THNN_TENSOR *total_weight, int64_t ignore_index, bool reduce);
TH_API void THNN_(SpatialClassNLLCriterion_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input,
                                                            THNN_INDEX_TENSOR *target, THNN_TENSOR *gradOutput,
                                                            THNN_TENSOR *gradInput, bool sizeAverage,
                                                            THNN_TENSOR *weights, THNN_TENSOR *total_weight,
                                                            int64_t ignore_index, bool reduce);

/* The multi-class margin criterions are not on the GPU yet (issue 17). */
#ifndef THNN_ON_GPU

/* Note [Multi-label targets]: input is a vector (C) or a batch (N x C); target has
 * input's shape and lists each sample's classes, ended by the first entry equal to
 * TH_INDEX_BASE - 1 (torch7's 0 in base 1, -1 in base 0); entries after it are unused
 * but must lie in range too. Per sample:
 *   sum over listed j, unlisted d of max(0, 1 - x[j] + x[d]) / C,
 * sizeAverage divides by N; reduce=false gives N losses.
 * isTarget [BUFFER]: resized to target's shape, 1 at the listed classes, else 0
 * (updateGradInput recomputes it). */
TH_API void THNN_(MultiLabelMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THLongTensor *target,
                                                          THTensor *output, THTensor *isTarget, bool sizeAverage,
                                                          bool reduce);
TH_API void THNN_(MultiLabelMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THLongTensor *target,
                                                             THTensor *gradOutput, THTensor *gradInput,
                                                             THTensor *isTarget, bool sizeAverage, bool reduce);

/* Per sample of a vector (C, one-element target) or batch (N x C, N targets):
 *   sum over d != t of w[t] max(0, margin - x[t] + x[d])^p / C,   p = 1 or 2,
 * weights [OPTIONAL]: C class weights, NULL for 1. sizeAverage divides by N;
 * reduce=false gives N losses. */
TH_API void THNN_(MultiMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THLongTensor *target,
                                                     THTensor *output, bool sizeAverage, int p, THTensor *weights,
                                                     accreal margin, bool reduce);
TH_API void THNN_(MultiMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THLongTensor *target,
                                                        THTensor *gradOutput, THTensor *gradInput, bool sizeAverage,
                                                        int p, THTensor *weights, accreal margin, bool reduce);

#endif
