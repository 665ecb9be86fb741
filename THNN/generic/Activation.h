#ifndef TH_GENERIC_FILE
#error "include THNN/Activation.h instead"
#endif

/* Element-wise activations: output takes input's shape; gradOutput (and the output or
 * buffer a backward reads) must have as many elements as input, walked in row-major
 * order (torch7's rule); gradInput takes input's shape.
 *
 * Note [In-place activations]: with inplace set, updateOutput overwrites input and makes
 * output a view of it, and updateGradInput overwrites gradOutput and makes gradInput a
 * view of it. The backward is then handed the forward's output as `input` (the same
 * tensor), so it reads the sign of x off y: the in-place variants need parameters that
 * keep that sign (ELU alpha >= 0, LeakyReLU negval >= 0, RReLU lower >= 0, Threshold
 * val <= threshold) and raise otherwise. */

/* |x|; backward gradOutput * (x >= 0 ? 1 : -1). */
TH_API void THNN_(Abs_updateOutput)(THNNState *state, THTensor *input, THTensor *output);
TH_API void THNN_(Abs_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput);

/* x > 0 ? x : alpha * (exp(x) - 1); the backward reads the forward's output. */
TH_API void THNN_(ELU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal alpha, bool inplace);
TH_API void THNN_(ELU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                       THTensor *output, accreal alpha, bool inplace);

/* |x| > lambda ? x : 0 */
TH_API void THNN_(HardShrink_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal lambda);
TH_API void THNN_(HardShrink_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, accreal lambda);

/* x clamped to [min_val, max_val], min_val < max_val; gradient 0 outside the open interval. */
TH_API void THNN_(HardTanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal min_val,
                                         accreal max_val, bool inplace);
TH_API void THNN_(HardTanh_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            THTensor *gradInput, accreal min_val, accreal max_val, bool inplace);

/* x > 0 ? x : negval * x */
TH_API void THNN_(LeakyReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal negval,
                                          bool inplace);
TH_API void THNN_(LeakyReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                             THTensor *gradInput, accreal negval, bool inplace);

/* log(1 / (1 + exp(-x))), stable for large |x|. buffer takes input's shape and gets
 * exp(-|x|), which the backward reads. */
TH_API void THNN_(LogSigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *buffer);
TH_API void THNN_(LogSigmoid_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, THTensor *buffer);

/* SoftMax and LogSoftMax over torch7's dimension: 1-D: 0, 2-D (batch x classes): 1,
 * 3-D (planes x h x w): 0, 4-D (batch x planes x h x w): 1. The max of each line is
 * subtracted first, so large inputs do not overflow. The backward reads the output;
 * gradOutput and output have input's shape. */
TH_API void THNN_(SoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output);
TH_API void THNN_(SoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                           THTensor *output);
TH_API void THNN_(LogSoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output);
TH_API void THNN_(LogSoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, THTensor *output);

/* x > 0 ? x : w * x. weight holds one slope shared by every element, or one per channel:
 * the channel dimension is 0 for 1-D (channels) and 3-D (channels x h x w) input, 1 for
 * batched 2-D (batch x channels) and 4-D (batch x channels x h x w) input.
 * accGradParameters: gradWeight (as many elements as weight) += scale * sum of x * gradOutput
 * over the x <= 0 of each channel. gradInput is unused there (torch7's argument list). */
TH_API void THNN_(PReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight);
TH_API void THNN_(PReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                         THTensor *weight);
TH_API void THNN_(PReLU_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                           THTensor *weight, THTensor *gradWeight, accreal scale);

/* Randomized leaky ReLU, 0 <= lower <= upper when in place, lower <= upper always.
 * train: every x <= 0 is multiplied by a slope drawn uniformly from [lower, upper) with
 * generator (NULL: the default one), one draw per such element in row-major order; noise
 * takes input's shape and holds each element's slope (1 where x > 0), and the backward
 * multiplies gradOutput by it. Not train (or upper - lower <= 1e-6 in the backward): the
 * fixed slope (lower + upper) / 2. */
TH_API void THNN_(RReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *noise,
                                      accreal lower, accreal upper, bool train, bool inplace, THGenerator *generator);
TH_API void THNN_(RReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                         THTensor *noise, accreal lower, accreal upper, bool train, bool inplace);

/* 1 / (1 + exp(-x)); the backward needs only the output. */
TH_API void THNN_(Sigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output);
TH_API void THNN_(Sigmoid_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput,
                                           THTensor *output);

/* log(1 + exp(beta * x)) / beta, or x where beta * x > threshold (linear there, no
 * overflow); the backward reads the output. */
TH_API void THNN_(SoftPlus_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal beta,
                                         accreal threshold);
TH_API void THNN_(SoftPlus_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            THTensor *gradInput, THTensor *output, accreal beta, accreal threshold);

/* x > lambda ? x - lambda : x < -lambda ? x + lambda : 0 */
TH_API void THNN_(SoftShrink_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal lambda);
TH_API void THNN_(SoftShrink_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, accreal lambda);

/* sqrt(x + eps) (torch7's CPU kernel ignored eps; its CUDA kernel added it, as here); the
 * backward reads the output, gradient 0 where the output is 0. */
TH_API void THNN_(Sqrt_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal eps);
TH_API void THNN_(Sqrt_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                        THTensor *output);

/* x * x */
TH_API void THNN_(Square_updateOutput)(THNNState *state, THTensor *input, THTensor *output);
TH_API void THNN_(Square_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput);

/* tanh(x); the backward needs only the output. */
TH_API void THNN_(Tanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output);
TH_API void THNN_(Tanh_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput, THTensor *output);

/* x > threshold ? x : val */
TH_API void THNN_(Threshold_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal threshold,
                                          accreal val, bool inplace);
TH_API void THNN_(Threshold_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                             THTensor *gradInput, accreal threshold, accreal val, bool inplace);
