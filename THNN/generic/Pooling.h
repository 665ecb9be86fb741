#ifndef TH_GENERIC_FILE
#error "include THNN/Pooling.h instead"
#endif

/* Shapes. Temporal kernels take (T, F) or batched (N, T, F) and pool along T; spatial
 * kernels take planes (C, H, W) or (N, C, H, W); volumetric kernels (C, T, H, W) or
 * (N, C, T, H, W). Every plane is pooled on its own; the output keeps the leading sizes.
 * Sizes are checked before anything is written, outputs and buffers are resized by the
 * kernel, and the backward kernels check gradOutput (and indices) against the output shape
 * the forward gives.
 *
 * Note [Pooled size]: along each axis, with kernel k, stride d, padding pad <= k / 2 on
 * both sides and dilation dil (extent e = dil * (k - 1) + 1):
 *   out = floor((in + 2 pad - e) / d) + 1, or ceil(...) + 1 with ceil_mode,
 * less one when the last window would start at or past in + pad (it must start inside
 * the input or the left padding). out < 1 is an error.
 *
 * Note [Max pooling indices]: a max kernel stores, per output element, where its maximum
 * was read: the flat offset inside the input plane (h * W + w, or t * H * W + h * W + w
 * for volumes; torch7's later layout) plus TH_INDEX_BASE. TemporalMaxPooling keeps
 * torch7's layout for sequences: the offset of the maximum inside its window plus
 * TH_INDEX_BASE. Ties go to the first element in row-major order; a NaN wins. Backward
 * kernels and unpooling raise an index error for an index outside the plane. */

/* Mean over kH x kW windows. count_include_pad divides by the window's size clipped to
 * the padded input, otherwise by the number of input elements it covers. */
TH_API void THNN_(SpatialAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int kW,
                                                      int kH, int dW, int dH, int padW, int padH, bool ceil_mode,
                                                      bool count_include_pad);
TH_API void THNN_(SpatialAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THTensor *gradInput, int kW, int kH, int dW, int dH, int padW,
                                                         int padH, bool ceil_mode, bool count_include_pad);

/* Mean over kT x kH x kW windows, as SpatialAveragePooling. */
TH_API void THNN_(VolumetricAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int kT,
                                                         int kW, int kH, int dT, int dW, int dH, int padT, int padW,
                                                         int padH, bool ceil_mode, bool count_include_pad);
TH_API void THNN_(VolumetricAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradInput, int kT, int kW, int kH, int dT, int dW,
                                                            int dH, int padT, int padW, int padH, bool ceil_mode,
                                                            bool count_include_pad);

/* Output (osizeH, osizeW) whatever the input size: output (i, j) is the mean of rows
 * [floor(i * H / osizeH), ceil((i + 1) * H / osizeH)) and the same for columns. The
 * backward reads the output size off gradOutput. */
TH_API void THNN_(SpatialAdaptiveAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                              int osizeW, int osizeH);
TH_API void THNN_(SpatialAdaptiveAveragePooling_updateGradInput)(THNNState *state, THTensor *input,
                                                                 THTensor *gradOutput, THTensor *gradInput);

/* Max over windows of kW steps along T, every dW steps (no padding); indices: the offset
 * inside the window (Note [Max pooling indices]). */
TH_API void THNN_(TemporalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THLongTensor *indices, int kW, int dW);
TH_API void THNN_(TemporalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradInput, THLongTensor *indices, int kW, int dW);

/* Max over kH x kW windows (dilated: every dilation-th element), padding counts as -inf.
 * SpatialMaxPooling is SpatialDilatedMaxPooling with dilation 1. */
TH_API void THNN_(SpatialMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                  THLongTensor *indices, int kW, int kH, int dW, int dH, int padW,
                                                  int padH, bool ceil_mode);
TH_API void THNN_(SpatialMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, THLongTensor *indices, int kW, int kH, int dW,
                                                     int dH, int padW, int padH, bool ceil_mode);
TH_API void THNN_(SpatialDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                         THLongTensor *indices, int kW, int kH, int dW, int dH,
                                                         int padW, int padH, int dilationW, int dilationH,
                                                         bool ceil_mode);
TH_API void THNN_(SpatialDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradInput, THLongTensor *indices, int kW, int kH,
                                                            int dW, int dH, int padW, int padH, int dilationW,
                                                            int dilationH, bool ceil_mode);

/* Max over the adaptive windows of SpatialAdaptiveAveragePooling. */
TH_API void THNN_(SpatialAdaptiveMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                          THLongTensor *indices, int osizeW, int osizeH);
TH_API void THNN_(SpatialAdaptiveMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                             THTensor *gradInput, THLongTensor *indices);

/* Lp pooling across features: the feature dimension (1 of a vector or of C x H [x W], 2
 * of a batch with batchMode) shrinks to (F - width) / stride + 1, output feature k being
 * (sum of x^power over input features k*stride .. k*stride + width - 1)^(1 / power), no
 * absolute value taken (torch7). width in 2..16, stride in 1..4. The gradient of each
 * window is gradOutput * (x / output)^(power - 1), a window whose output is 0 passing
 * nothing. */
TH_API void THNN_(FeatureLPPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, double power,
                                                 int width, int stride, bool batchMode);
TH_API void THNN_(FeatureLPPooling_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *input,
                                                    THTensor *output, THTensor *gradInput, double power, int width,
                                                    int stride, bool batchMode);

/* Fractional max pooling (Graham, 2014): output (outputH, outputW), windows of
 * poolSizeH x poolSizeW whose starts are drawn per plane from randomSamples, (N, C, 2)
 * values in [0, 1) ((1, C, 2) or (C, 2) for unbatched input): sample u of an axis gives
 * starts floor((i + u) * a) - floor(u * a) for i < out - 1 with
 * a = (in - poolSize) / (out - 1), and in - poolSize for the last one. */
TH_API void THNN_(SpatialFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                            int outputW, int outputH, int poolSizeW, int poolSizeH,
                                                            THLongTensor *indices, THTensor *randomSamples);
TH_API void THNN_(SpatialFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                               THTensor *gradInput, int outputW, int outputH,
                                                               int poolSizeW, int poolSizeH, THLongTensor *indices);

/* Fractional max pooling of volumes in torch7's layout: planes of H x W x T (T the last
 * dimension), output (outputH, outputW, outputT), windows of poolSizeH x poolSizeW x
 * poolSizeT placed per plane by randomSamples (N, C, 3) ((1, C, 3) or (C, 3) unbatched):
 * sample 0 places the T windows, 1 the W ones, 2 the H ones, as
 * SpatialFractionalMaxPooling's do. */
TH_API void THNN_(VolumetricFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                               int outputT, int outputW, int outputH, int poolSizeT,
                                                               int poolSizeW, int poolSizeH, THLongTensor *indices,
                                                               THTensor *randomSamples);
TH_API void THNN_(VolumetricFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input,
                                                                  THTensor *gradOutput, THTensor *gradInput,
                                                                  int outputT, int outputW, int outputH, int poolSizeT,
                                                                  int poolSizeW, int poolSizeH, THLongTensor *indices);

/* Max over kT x kH x kW windows, as SpatialDilatedMaxPooling; VolumetricMaxPooling has
 * dilation 1. */
TH_API void THNN_(VolumetricMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                     THLongTensor *indices, int kT, int kW, int kH, int dT, int dW,
                                                     int dH, int pT, int pW, int pH, bool ceilMode);
TH_API void THNN_(VolumetricMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, THLongTensor *indices, int kT, int kW,
                                                        int kH, int dT, int dW, int dH, int pT, int pW, int pH,
                                                        bool ceilMode);
TH_API void THNN_(VolumetricDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                            THLongTensor *indices, int kT, int kW, int kH, int dT,
                                                            int dW, int dH, int pT, int pW, int pH, int dilationT,
                                                            int dilationW, int dilationH, bool ceilMode);
TH_API void THNN_(VolumetricDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                               THTensor *gradInput, THLongTensor *indices, int kT,
                                                               int kW, int kH, int dT, int dW, int dH, int pT, int pW,
                                                               int pH, int dilationT, int dilationW, int dilationH,
                                                               bool ceilMode);

/* Inverse of max pooling: output planes of (oheight, owidth), zero but where indices
 * (input's shape, flat offsets in the output plane) put the input's values; a later
 * index wins when two coincide. The backward gathers gradOutput at the indices. */
TH_API void THNN_(SpatialMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    THLongTensor *indices, int owidth, int oheight);
TH_API void THNN_(SpatialMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, THLongTensor *indices, int owidth,
                                                       int oheight);

/* As SpatialMaxUnpooling with (oT, oH, oW) volumes. The pooling's strides and paddings are
 * only checked (positive, non-negative): the indices are flat. */
TH_API void THNN_(VolumetricMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                       THLongTensor *indices, int oT, int oW, int oH, int dT, int dW,
                                                       int dH, int pT, int pW, int pH);
TH_API void THNN_(VolumetricMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput, THLongTensor *indices, int oT, int oW,
                                                          int oH, int dT, int dW, int dH, int pT, int pW, int pH);
