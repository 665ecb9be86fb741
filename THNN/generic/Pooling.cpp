#ifndef TH_GENERIC_FILE
#error "include from THNN/Pooling.cpp"
#endif

// Means over the windows of axes t, h, w of every plane (Note [One pooling frame]); the
// windows of average pooling are never dilated.
static void THNN_(AveragePooling_forward)(THTensor *input, THTensor *output, const Planes &P, const Axis (&ax)[3],
                                          bool countIncludePad) {
  auto in = th::own(THTensor_(newContiguous)(input));
  const int64_t out[3] = {ax[0].out(), ax[1].out(), ax[2].out()};
  Result<THTensor> res(output, P.shapeWith(out));
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  const int64_t H = P.size[1], W = P.size[2], inPlane = P.planeSize(), outPlane = out[0] * out[1] * out[2];
  thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
    const scalar_t *src = ip + p * inPlane;
    scalar_t *dst = op + p * outPlane;
    for (const Window &wt : ax[0].windows)
      for (const Window &wh : ax[1].windows)
        for (const Window &ww : ax[2].windows) {
          accreal sum = 0;
          for (int64_t z = wt.first; z < wt.end; z++)
            for (int64_t y = wh.first; y < wh.end; y++) {
              const scalar_t *row = src + (z * H + y) * W;
              for (int64_t x = ww.first; x < ww.end; x++) sum += row[x];
            }
          const int64_t divisor =
              countIncludePad ? wt.padded * wh.padded * ww.padded : wt.count() * wh.count() * ww.count();
          *dst++ = (scalar_t)(sum / divisor);
        }
  });
  res.finish();
}

// Spreads every gradOutput element evenly over the input elements of its window.
static void THNN_(AveragePooling_backward)(THTensor *input, THTensor *gradOutput, THTensor *gradInput, const Planes &P,
                                           const Axis (&ax)[3], bool countIncludePad, int gradOutputArg) {
  const int64_t out[3] = {ax[0].out(), ax[1].out(), ax[2].out()};
  thnn::pooling::checkSizes(gradOutput, P.shapeWith(out), gradOutputArg, "gradOutput");
  auto go = th::own(THTensor_(newContiguous)(gradOutput));
  Result<THTensor> res(gradInput, thnn::pooling::sizesVector(input));
  res.zero();
  const scalar_t *gop = THTensor_(data)(go.get());
  scalar_t *gip = res.data();
  const int64_t H = P.size[1], W = P.size[2], inPlane = P.planeSize(), outPlane = out[0] * out[1] * out[2];
  thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
    const scalar_t *src = gop + p * outPlane;
    scalar_t *dst = gip + p * inPlane;
    for (const Window &wt : ax[0].windows)
      for (const Window &wh : ax[1].windows)
        for (const Window &ww : ax[2].windows) {
          const int64_t divisor =
              countIncludePad ? wt.padded * wh.padded * ww.padded : wt.count() * wh.count() * ww.count();
          const scalar_t g = (scalar_t)((accreal)*src++ / divisor);
          for (int64_t z = wt.first; z < wt.end; z++)
            for (int64_t y = wh.first; y < wh.end; y++) {
              scalar_t *row = dst + (z * H + y) * W;
              for (int64_t x = ww.first; x < ww.end; x++) row[x] += g;
            }
        }
  });
  res.finish();
}

// The axes of a spatial average pooling whose kW is argument argK.
static Planes THNN_(SpatialAveragePooling_axes)(THTensor *input, Axis (&ax)[3], int kW, int kH, int dW, int dH,
                                                int padW, int padH, bool ceil_mode, int argK) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  ax[0] = thnn::pooling::unitAxis();
  ax[1] = thnn::pooling::slidingAxis(SlidingSpec{'H', kH, dH, padH, 1, argK + 1}, 2, P.size[1], ceil_mode);
  ax[2] = thnn::pooling::slidingAxis(SlidingSpec{'W', kW, dW, padW, 1, argK}, 2, P.size[2], ceil_mode);
  return P;
}

void THNN_(SpatialAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int kW, int kH,
                                               int dW, int dH, int padW, int padH, bool ceil_mode,
                                               bool count_include_pad) {
  Axis ax[3];
  const Planes P = THNN_(SpatialAveragePooling_axes)(input, ax, kW, kH, dW, dH, padW, padH, ceil_mode, 4);
  THNN_(AveragePooling_forward)(input, output, P, ax, count_include_pad);
}

void THNN_(SpatialAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradInput, int kW, int kH, int dW, int dH, int padW,
                                                  int padH, bool ceil_mode, bool count_include_pad) {
  Axis ax[3];
  const Planes P = THNN_(SpatialAveragePooling_axes)(input, ax, kW, kH, dW, dH, padW, padH, ceil_mode, 5);
  THNN_(AveragePooling_backward)(input, gradOutput, gradInput, P, ax, count_include_pad, 3);
}

// The axes of a volumetric average pooling whose kT is argument argK.
static Planes THNN_(VolumetricAveragePooling_axes)(THTensor *input, Axis (&ax)[3], int kT, int kW, int kH, int dT,
                                                   int dW, int dH, int padT, int padW, int padH, bool ceil_mode,
                                                   int argK) {
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  ax[0] = thnn::pooling::slidingAxis(SlidingSpec{'T', kT, dT, padT, 1, argK}, 3, P.size[0], ceil_mode);
  ax[1] = thnn::pooling::slidingAxis(SlidingSpec{'H', kH, dH, padH, 1, argK + 2}, 3, P.size[1], ceil_mode);
  ax[2] = thnn::pooling::slidingAxis(SlidingSpec{'W', kW, dW, padW, 1, argK + 1}, 3, P.size[2], ceil_mode);
  return P;
}

void THNN_(VolumetricAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int kT, int kW,
                                                  int kH, int dT, int dW, int dH, int padT, int padW, int padH,
                                                  bool ceil_mode, bool count_include_pad) {
  Axis ax[3];
  const Planes P =
      THNN_(VolumetricAveragePooling_axes)(input, ax, kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil_mode, 4);
  THNN_(AveragePooling_forward)(input, output, P, ax, count_include_pad);
}

void THNN_(VolumetricAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, int kT, int kW, int kH, int dT, int dW,
                                                     int dH, int padT, int padW, int padH, bool ceil_mode,
                                                     bool count_include_pad) {
  Axis ax[3];
  const Planes P =
      THNN_(VolumetricAveragePooling_axes)(input, ax, kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil_mode, 5);
  THNN_(AveragePooling_backward)(input, gradOutput, gradInput, P, ax, count_include_pad, 3);
}

void THNN_(SpatialAdaptiveAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int osizeW,
                                                       int osizeH) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  THArgCheck(osizeW > 0, 4, "output width osizeW must be positive, got %d", osizeW);
  THArgCheck(osizeH > 0, 5, "output height osizeH must be positive, got %d", osizeH);
  const Axis ax[3] = {thnn::pooling::unitAxis(), thnn::pooling::adaptiveAxis(P.size[1], osizeH),
                      thnn::pooling::adaptiveAxis(P.size[2], osizeW)};
  THNN_(AveragePooling_forward)(input, output, P, ax, true);
}

void THNN_(SpatialAdaptiveAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  const auto osize = thnn::pooling::adaptiveSizeOf(input, gradOutput, 3);
  const Axis ax[3] = {thnn::pooling::unitAxis(), thnn::pooling::adaptiveAxis(P.size[1], osize.first),
                      thnn::pooling::adaptiveAxis(P.size[2], osize.second)};
  THNN_(AveragePooling_backward)(input, gradOutput, gradInput, P, ax, true, 3);
}

/* Feature Lp pooling */

// The input as batches x features x rest (the trailing dimensions), checked.
struct THNN_(FeatureLPPooling_shape) {
  int64_t batches, features, rest, outFeatures;
  int featureDim;
};

static THNN_(FeatureLPPooling_shape) THNN_(FeatureLPPooling_shapeOf)(THTensor *input, int width, int stride,
                                                                     bool batchMode, int inputArg, int widthArg) {
  const int nd = input->nDimension;
  THArgCheck(batchMode ? nd >= 2 && nd <= 4 : nd >= 1 && nd <= 3, inputArg, "input: %s tensor expected, got sizes %s",
             batchMode ? "2D to 4D (batch mode)" : "1D to 3D", thnn::pooling::sizesOf(input).c_str());
  THArgCheck(width >= 2 && width <= 16, widthArg, "width must be in 2..16, got %d", width);
  THArgCheck(stride >= 1 && stride <= 4, widthArg + 1, "stride must be in 1..4, got %d", stride);
  THNN_(FeatureLPPooling_shape) s{1, 0, 1, 0, batchMode ? 1 : 0};
  if (batchMode) s.batches = input->size[0];
  s.features = input->size[s.featureDim];
  for (int d = s.featureDim + 1; d < nd; d++) s.rest *= input->size[d];
  THArgCheck(s.features >= width, inputArg, "input: %lld features are fewer than the width %d", (long long)s.features,
             width);
  s.outFeatures = (s.features - width) / stride + 1;
  return s;
}

static std::vector<int64_t> THNN_(FeatureLPPooling_outSizes)(THTensor *input, const THNN_(FeatureLPPooling_shape) & s) {
  std::vector<int64_t> sizes = thnn::pooling::sizesVector(input);
  sizes[s.featureDim] = s.outFeatures;
  return sizes;
}

void THNN_(FeatureLPPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, double power, int width,
                                          int stride, bool batchMode) {
  const auto s = THNN_(FeatureLPPooling_shapeOf)(input, width, stride, batchMode, 2, 5);
  auto in = th::own(THTensor_(newContiguous)(input));
  Result<THTensor> res(output, THNN_(FeatureLPPooling_outSizes)(input, s));
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  thnn::pooling::forEachPlane(s.batches, s.features * s.rest * width, [&](int64_t b) {
    for (int64_t k = 0; k < s.outFeatures; k++)
      for (int64_t r = 0; r < s.rest; r++) {
        double sum = 0;
        for (int i = 0; i < width; i++)
          sum += std::pow((double)ip[(b * s.features + k * stride + i) * s.rest + r], power);
        op[(b * s.outFeatures + k) * s.rest + r] = (scalar_t)std::pow(sum, 1 / power);
      }
  });
  res.finish();
}

void THNN_(FeatureLPPooling_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *input, THTensor *output,
                                             THTensor *gradInput, double power, int width, int stride, bool batchMode) {
  const auto s = THNN_(FeatureLPPooling_shapeOf)(input, width, stride, batchMode, 3, 7);
  const std::vector<int64_t> outSizes = THNN_(FeatureLPPooling_outSizes)(input, s);
  thnn::pooling::checkSizes(output, outSizes, 4, "output");
  thnn::pooling::checkSizes(gradOutput, outSizes, 2, "gradOutput");
  auto in = th::own(THTensor_(newContiguous)(input));
  auto out = th::own(THTensor_(newContiguous)(output));
  auto go = th::own(THTensor_(newContiguous)(gradOutput));
  Result<THTensor> res(gradInput, thnn::pooling::sizesVector(input));
  res.zero();
  const scalar_t *ip = THTensor_(data)(in.get()), *op = THTensor_(data)(out.get()), *gop = THTensor_(data)(go.get());
  scalar_t *gip = res.data();
  thnn::pooling::forEachPlane(s.batches, s.features * s.rest * width, [&](int64_t b) {
    for (int64_t k = 0; k < s.outFeatures; k++)
      for (int64_t r = 0; r < s.rest; r++) {
        const int64_t o = (b * s.outFeatures + k) * s.rest + r;
        if (op[o] == 0) continue;
        for (int i = 0; i < width; i++) {
          const int64_t x = (b * s.features + k * stride + i) * s.rest + r;
          gip[x] += (scalar_t)(gop[o] * std::pow((double)ip[x] / op[o], power - 1));
        }
      }
  });
  res.finish();
}
