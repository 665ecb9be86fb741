#ifndef TH_GENERIC_FILE
#error "include THNN/ElementWise.h (or THCUNN/THCUNN.h) instead"
#endif

/* The element-wise activations, declared once for every device (Note [Element-wise kernels
 * once]): THNN_STATE and THNN_TENSOR are THNNState and THTensor for THNN, THCState and
 * THCTensor for THCUNN. Output takes input's shape; gradOutput (and the output or buffer a
 * backward reads) must have as many elements as input, walked in row-major order (torch7's
 * rule); gradInput takes input's shape.
 *
 * Note [In-place activations]: with inplace set, updateOutput overwrites input and makes
 * output a view of it, and updateGradInput overwrites gradOutput and makes gradInput a
 * view of it. The backward is then handed the forward's output as `input` (the same
 * tensor), so it reads the sign of x off y: the in-place variants need parameters that
 * keep that sign (ELU alpha >= 0, LeakyReLU negval >= 0, RReLU lower >= 0, Threshold
 * val <= threshold) and raise otherwise. */

/* |x|; backward gradOutput * (x >= 0 ? 1 : -1). */
TH_API void THNN_(Abs_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(Abs_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                       THNN_TENSOR *gradInput);

/* x > 0 ? x : alpha * (exp(x) - 1); the backward reads the forward's output. */
TH_API void THNN_(ELU_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal alpha,
                                    bool inplace);
TH_API void THNN_(ELU_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                       THNN_TENSOR *gradInput, THNN_TENSOR *output, accreal alpha, bool inplace);

/* |x| > lambda ? x : 0 */
TH_API void THNN_(HardShrink_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal lambda);
TH_API void THNN_(HardShrink_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                              THNN_TENSOR *gradInput, accreal lambda);

/* x clamped to [min_val, max_val], min_val < max_val; gradient 0 outside the open interval. */
TH_API void THNN_(HardTanh_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal min_val,
                                         accreal max_val, bool inplace);
TH_API void THNN_(HardTanh_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                            THNN_TENSOR *gradInput, accreal min_val, accreal max_val, bool inplace);

/* x > 0 ? x : negval * x */
TH_API void THNN_(LeakyReLU_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal negval,
                                          bool inplace);
TH_API void THNN_(LeakyReLU_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                             THNN_TENSOR *gradInput, accreal negval, bool inplace);

/* log(1 / (1 + exp(-x))), stable for large |x|. buffer takes input's shape and gets
 * exp(-|x|), which the backward reads. */
TH_API void THNN_(LogSigmoid_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output,
                                           THNN_TENSOR *buffer);
TH_API void THNN_(LogSigmoid_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                              THNN_TENSOR *gradInput, THNN_TENSOR *buffer);

/* 1 / (1 + exp(-x)); the backward needs only the output. */
TH_API void THNN_(Sigmoid_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(Sigmoid_updateGradInput)(THNN_STATE *state, THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                           THNN_TENSOR *output);

/* log(1 + exp(beta * x)) / beta, or x where beta * x > threshold (linear there, no
 * overflow); the backward reads the output. */
TH_API void THNN_(SoftPlus_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal beta,
                                         accreal threshold);
TH_API void THNN_(SoftPlus_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                            THNN_TENSOR *gradInput, THNN_TENSOR *output, accreal beta,
                                            accreal threshold);

/* x > lambda ? x - lambda : x < -lambda ? x + lambda : 0 */
TH_API void THNN_(SoftShrink_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal lambda);
TH_API void THNN_(SoftShrink_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                              THNN_TENSOR *gradInput, accreal lambda);

/* sqrt(x + eps) (torch7's CPU kernel ignored eps; its CUDA kernel added it, as here); the
 * backward reads the output, gradient 0 where the output is 0. */
TH_API void THNN_(Sqrt_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal eps);
TH_API void THNN_(Sqrt_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                        THNN_TENSOR *gradInput, THNN_TENSOR *output);

/* x * x */
TH_API void THNN_(Square_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(Square_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                          THNN_TENSOR *gradInput);

/* tanh(x); the backward needs only the output. */
TH_API void THNN_(Tanh_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output);
TH_API void THNN_(Tanh_updateGradInput)(THNN_STATE *state, THNN_TENSOR *gradOutput, THNN_TENSOR *gradInput,
                                        THNN_TENSOR *output);

/* x > threshold ? x : val */
TH_API void THNN_(Threshold_updateOutput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *output, accreal threshold,
                                          accreal val, bool inplace);
TH_API void THNN_(Threshold_updateGradInput)(THNN_STATE *state, THNN_TENSOR *input, THNN_TENSOR *gradOutput,
                                             THNN_TENSOR *gradInput, accreal threshold, accreal val, bool inplace);
