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
