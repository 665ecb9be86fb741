#ifndef TH_GENERIC_FILE
#error "compile THNN/Sampling.cpp instead"
#endif

// Resizes output to input's sizes resampled by s and fills it (Note [Taps]).
static void THNN_(Sampling_forward)(THTensor *input, THTensor *output, int spatial, const Resampling &s) {
  const std::vector<int64_t> size = resampledSizes(input, spatial, s);
  THTensor_(resizeNd)(output, (int)size.size(), size.data(), nullptr);
  resampleForward(planesOf(input, spatial), planesOf(output, spatial), s);
}

// gradInput gets inputSize and the sum of gradOutput sent back through s.
static void THNN_(Sampling_backward)(THTensor *gradOutput, THTensor *gradInput, const std::vector<int64_t> &inputSize,
                                     int spatial, const Resampling &s) {
  THTensor_(resizeNd)(gradInput, (int)inputSize.size(), inputSize.data(), nullptr);
  THTensor_(zero)(gradInput);
  resampleBackward(planesOf(gradOutput, spatial), planesOf(gradInput, spatial), s);
}

// The gradient of a kernel that knows its input: gradOutput must have the output's sizes.
static void THNN_(Sampling_backwardOf)(THTensor *input, THTensor *gradOutput, int gradOutputArg, THTensor *gradInput,
                                       int spatial, const Resampling &s) {
  checkSizes(gradOutput, gradOutputArg, "gradOutput", resampledSizes(input, spatial, s));
  THNN_(Sampling_backward)
  (gradOutput, gradInput, std::vector<int64_t>(input->size, input->size + input->nDimension), spatial, s);
}

void THNN_(SpatialUpSamplingNearest_updateOutput)(THNNState *, THTensor *input, THTensor *output, int scale_factor) {
  THNN_(Sampling_forward)(input, output, 2, nearestResampling(input, 2, 2, scale_factor, 4));
}

void THNN_(SpatialUpSamplingNearest_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, int scale_factor) {
  THNN_(Sampling_backwardOf)(input, gradOutput, 3, gradInput, 2, nearestResampling(input, 2, 2, scale_factor, 5));
}

void THNN_(VolumetricUpSamplingNearest_updateOutput)(THNNState *, THTensor *input, THTensor *output, int scale_factor) {
  THNN_(Sampling_forward)(input, output, 3, nearestResampling(input, 2, 3, scale_factor, 4));
}

void THNN_(VolumetricUpSamplingNearest_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, int scale_factor) {
  THNN_(Sampling_backwardOf)(input, gradOutput, 3, gradInput, 3, nearestResampling(input, 2, 3, scale_factor, 5));
}

void THNN_(SpatialReflectionPadding_updateOutput)(THNNState *, THTensor *input, THTensor *output, int pad_l, int pad_r,
                                                  int pad_t, int pad_b) {
  const int pads[] = {pad_l, pad_r, pad_t, pad_b};
  THNN_(Sampling_forward)(input, output, 2, paddingResampling(input, 2, 2, pads, 4, true));
}

void THNN_(SpatialReflectionPadding_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, int pad_l, int pad_r, int pad_t, int pad_b) {
  const int pads[] = {pad_l, pad_r, pad_t, pad_b};
  THNN_(Sampling_backwardOf)(input, gradOutput, 3, gradInput, 2, paddingResampling(input, 2, 2, pads, 5, true));
}

void THNN_(SpatialReplicationPadding_updateOutput)(THNNState *, THTensor *input, THTensor *output, int pad_l, int pad_r,
                                                   int pad_t, int pad_b) {
  const int pads[] = {pad_l, pad_r, pad_t, pad_b};
  THNN_(Sampling_forward)(input, output, 2, paddingResampling(input, 2, 2, pads, 4, false));
}

void THNN_(SpatialReplicationPadding_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradInput, int pad_l, int pad_r, int pad_t, int pad_b) {
  const int pads[] = {pad_l, pad_r, pad_t, pad_b};
  THNN_(Sampling_backwardOf)(input, gradOutput, 3, gradInput, 2, paddingResampling(input, 2, 2, pads, 5, false));
}

void THNN_(VolumetricReplicationPadding_updateOutput)(THNNState *, THTensor *input, THTensor *output, int pleft,
                                                      int pright, int ptop, int pbottom, int pfront, int pback) {
  const int pads[] = {pleft, pright, ptop, pbottom, pfront, pback};
  THNN_(Sampling_forward)(input, output, 3, paddingResampling(input, 2, 3, pads, 4, false));
}

void THNN_(VolumetricReplicationPadding_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                         THTensor *gradInput, int pleft, int pright, int ptop,
                                                         int pbottom, int pfront, int pback) {
  const int pads[] = {pleft, pright, ptop, pbottom, pfront, pback};
  THNN_(Sampling_backwardOf)(input, gradOutput, 3, gradInput, 3, paddingResampling(input, 2, 3, pads, 5, false));
}

// outSize: `spatial` sizes, the output sizes given as arguments from outArg on.
static void THNN_(Sampling_linearForward)(THTensor *input, THTensor *output, int spatial, const int64_t *outSize,
                                          int outArg) {
  checkInput(input, 2, spatial);
  checkOutputSizes(spatial, outSize, outArg);
  THNN_(Sampling_forward)
  (input, output, spatial, linearResampling(spatial, input->size + input->nDimension - spatial, outSize));
}

static void THNN_(Sampling_linearBackward)(THTensor *gradOutput, THTensor *gradInput, int spatial, int nbatch,
                                           int nchannels, const int64_t *inSize, const int64_t *outSize) {
  const std::vector<int64_t> size = linearGradSizes(gradOutput, 2, spatial, nbatch, nchannels, inSize, outSize, 4);
  THNN_(Sampling_backward)(gradOutput, gradInput, size, spatial, linearResampling(spatial, inSize, outSize));
}

void THNN_(SpatialUpSamplingBilinear_updateOutput)(THNNState *, THTensor *input, THTensor *output, int outputHeight,
                                                   int outputWidth) {
  const int64_t outSize[] = {outputHeight, outputWidth};
  THNN_(Sampling_linearForward)(input, output, 2, outSize, 4);
}

void THNN_(SpatialUpSamplingBilinear_updateGradInput)(THNNState *, THTensor *gradOutput, THTensor *gradInput,
                                                      int nbatch, int nchannels, int inputHeight, int inputWidth,
                                                      int outputHeight, int outputWidth) {
  const int64_t inSize[] = {inputHeight, inputWidth}, outSize[] = {outputHeight, outputWidth};
  THNN_(Sampling_linearBackward)(gradOutput, gradInput, 2, nbatch, nchannels, inSize, outSize);
}

void THNN_(VolumetricUpSamplingTrilinear_updateOutput)(THNNState *, THTensor *input, THTensor *output, int outputDepth,
                                                       int outputHeight, int outputWidth) {
  const int64_t outSize[] = {outputDepth, outputHeight, outputWidth};
  THNN_(Sampling_linearForward)(input, output, 3, outSize, 4);
}

void THNN_(VolumetricUpSamplingTrilinear_updateGradInput)(THNNState *, THTensor *gradOutput, THTensor *gradInput,
                                                          int nbatch, int nchannels, int inputDepth, int inputHeight,
                                                          int inputWidth, int outputDepth, int outputHeight,
                                                          int outputWidth) {
  const int64_t inSize[] = {inputDepth, inputHeight, inputWidth}, outSize[] = {outputDepth, outputHeight, outputWidth};
  THNN_(Sampling_linearBackward)(gradOutput, gradInput, 3, nbatch, nchannels, inSize, outSize);
}

void THNN_(SpatialGridSamplerBilinear_updateOutput)(THNNState *, THTensor *input, THTensor *grid, THTensor *output,
                                                    int padding_mode) {
  checkGridSampler(input, 2, grid, 3, padding_mode, 5);
  THTensor_(resize4d)(output, input->size[0], input->size[1], grid->size[1], grid->size[2]);
  gridSampleForward(th::ref(input), th::ref(grid), th::ref(output), padding_mode == 1);
}

void THNN_(SpatialGridSamplerBilinear_updateGradInput)(THNNState *, THTensor *input, THTensor *gradInput,
                                                       THTensor *grid, THTensor *gradGrid, THTensor *gradOutput,
                                                       int padding_mode) {
  checkGridSampler(input, 2, grid, 4, padding_mode, 7);
  checkSizes(gradOutput, 6, "gradOutput", {input->size[0], input->size[1], grid->size[1], grid->size[2]});
  THTensor_(resizeAs)(gradInput, input);
  THTensor_(zero)(gradInput);
  THTensor_(resizeAs)(gradGrid, grid);
  gridSampleBackward(th::ref(input), th::ref(gradInput), th::ref(grid), th::ref(gradGrid), th::ref(gradOutput),
                     padding_mode == 1);
}
