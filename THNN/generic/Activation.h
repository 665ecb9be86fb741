#ifndef TH_GENERIC_FILE
#error "include THNN/Activation.h instead"
#endif

/* The activations that are neither element-wise (generic/ElementWise.h) nor SoftMax
 * (generic/SoftMax.h): PReLU and RReLU. Note [In-place activations] applies to RReLU. */

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
