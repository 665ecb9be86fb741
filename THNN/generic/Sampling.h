#ifndef TH_GENERIC_FILE
#error "include THNN/Sampling.h instead"
#endif

/* Resampling of images (Spatial*: C x H x W or N x C x H x W) and volumes (Volumetric*:
 * C x T x H x W or N x C x T x H x W), torch7 nn's THNN signatures. Each output element is
 * a weighted sum of input elements of the same plane; updateGradInput resizes gradInput
 * like the input and writes the transposed sums. Any strides are accepted. Spatial sizes
 * of the input must be positive. */

/* output[..., y, x] = input[..., y / s, x / s]: H*s x W*s, s = scale_factor >= 1. */
TH_API void THNN_(SpatialUpSamplingNearest_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                         int scale_factor);
TH_API void THNN_(SpatialUpSamplingNearest_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradInput, int scale_factor);

/* Bilinear resize to outputHeight x outputWidth with corners aligned (torch7): output
 * row y samples input row y * (H - 1) / (outputHeight - 1) (row 0 when outputHeight is 1).
 * The gradient takes the sizes instead of the input: gradOutput is nbatch x nchannels x
 * outputHeight x outputWidth (or nchannels x outputHeight x outputWidth when nbatch is 1,
 * for an unbatched input), and gradInput gets the input sizes with gradOutput's rank. */
TH_API void THNN_(SpatialUpSamplingBilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                          int outputHeight, int outputWidth);
TH_API void THNN_(SpatialUpSamplingBilinear_updateGradInput)(THNNState *state, THTensor *gradOutput,
                                                             THTensor *gradInput, int nbatch, int nchannels,
                                                             int inputHeight, int inputWidth, int outputHeight,
                                                             int outputWidth);

/* Padding by the mirror image without repeating the edge (d c b | a b c d | c b a): each pad
 * must be smaller than the padded size. A negative pad crops (torch7). */
TH_API void THNN_(SpatialReflectionPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int pad_l,
                                                         int pad_r, int pad_t, int pad_b);
TH_API void THNN_(SpatialReflectionPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradInput, int pad_l, int pad_r, int pad_t,
                                                            int pad_b);

/* Padding by repeating the edge (a a | a b c d | d d); a negative pad crops (torch7). */
TH_API void THNN_(SpatialReplicationPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                          int pad_l, int pad_r, int pad_t, int pad_b);
TH_API void THNN_(SpatialReplicationPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                             THTensor *gradInput, int pad_l, int pad_r, int pad_t,
                                                             int pad_b);

/* input N x C x IH x IW sampled at grid N x H x W x 2 (x then y, -1 and 1 the centres of
 * the first and last pixels): output N x C x H x W. Points outside the image read zeros
 * (padding_mode 0) or the nearest border pixel (padding_mode 1). updateGradInput writes
 * gradInput (input's sizes) and gradGrid (grid's sizes). */
TH_API void THNN_(SpatialGridSamplerBilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *grid,
                                                           THTensor *output, int padding_mode);
TH_API void THNN_(SpatialGridSamplerBilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradInput,
                                                              THTensor *grid, THTensor *gradGrid, THTensor *gradOutput,
                                                              int padding_mode);

/* Replication padding of the three last dimensions: width, height, then time. */
TH_API void THNN_(VolumetricReplicationPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                             int pleft, int pright, int ptop, int pbottom, int pfront,
                                                             int pback);
TH_API void THNN_(VolumetricReplicationPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                                THTensor *gradInput, int pleft, int pright, int ptop,
                                                                int pbottom, int pfront, int pback);

/* output[..., t, y, x] = input[..., t / s, y / s, x / s], s = scale_factor >= 1. */
TH_API void THNN_(VolumetricUpSamplingNearest_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                            int scale_factor);
TH_API void THNN_(VolumetricUpSamplingNearest_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                               THTensor *gradInput, int scale_factor);

/* Trilinear resize with corners aligned, as SpatialUpSamplingBilinear with a time axis. */
TH_API void THNN_(VolumetricUpSamplingTrilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                              int outputDepth, int outputHeight, int outputWidth);
TH_API void THNN_(VolumetricUpSamplingTrilinear_updateGradInput)(THNNState *state, THTensor *gradOutput,
                                                                 THTensor *gradInput, int nbatch, int nchannels,
                                                                 int inputDepth, int inputHeight, int inputWidth,
                                                                 int outputDepth, int outputHeight, int outputWidth);
