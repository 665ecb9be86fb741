#ifndef TH_GENERIC_FILE
#error "include from THNN/indexed/Pooling.cpp"
#endif

// Max over the windows of axes t, h, w of one plane of H x W rows: values to dst, flat
// offsets in the plane (Note [Max pooling indices]) to ind.
static void THNN_(MaxPooling_plane)(const scalar_t *src, int64_t H, int64_t W, const Axis (&ax)[3], scalar_t *dst,
                                    int64_t *ind) {
  for (const Window &wt : ax[0].windows)
    for (const Window &wh : ax[1].windows)
      for (const Window &ww : ax[2].windows) {
        int64_t best = (wt.first * H + wh.first) * W + ww.first;
        scalar_t bestValue = src[best];
        for (int64_t z = wt.first; z < wt.end; z += wt.step)
          for (int64_t y = wh.first; y < wh.end; y += wh.step) {
            const int64_t row = (z * H + y) * W;
            for (int64_t x = ww.first; x < ww.end; x += ww.step)
              if (beats(src[row + x], bestValue)) {
                bestValue = src[row + x];
                best = row + x;
              }
          }
        *dst++ = bestValue;
        *ind++ = best + TH_INDEX_BASE;
      }
}

// Max pooling of every plane over the same windows (Note [One pooling frame]); sliding
// axis W (sw.k > 0) takes the fast path (Note [Max pooling fast path]).
static void THNN_(MaxPooling_forward)(THTensor *input, THTensor *output, THLongTensor *indices, const Planes &P,
                                      const Axis (&ax)[3], const Slide &sw) {
  auto in = th::own(THTensor_(newContiguous)(input));
  const int64_t out[3] = {ax[0].out(), ax[1].out(), ax[2].out()};
  const std::vector<int64_t> shape = P.shapeWith(out);
  Result<THTensor> res(output, shape);
  Result<THLongTensor> idx(indices, shape);
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  int64_t *xp = idx.data();
  const int64_t inPlane = P.planeSize(), outPlane = out[0] * out[1] * out[2];
  if (sw.k > 0 && inPlane <= std::numeric_limits<Code<scalar_t>>::max()) {
    // the most input rows one output row reads
    int64_t maxRows = 0;
    for (const Window &wt : ax[0].windows)
      for (const Window &wh : ax[1].windows) maxRows = std::max(maxRows, wt.count() * wh.count());
    thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
      std::vector<int64_t> rows(maxRows);
      std::vector<Code<scalar_t>> rel(out[2]);
      maxPlaneSliding(ip + p * inPlane, P.size[1], P.size[2], ax, sw, op + p * outPlane, xp + p * outPlane, rows.data(),
                      rel.data());
    });
  } else {
    thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
      THNN_(MaxPooling_plane)(ip + p * inPlane, P.size[1], P.size[2], ax, op + p * outPlane, xp + p * outPlane);
    });
  }
  res.finish();
  idx.finish();
}

// Routes every gradOutput element to the input element its index names (flat in the plane).
// The indices are checked first, in parallel, so that a bad one raises before anything is
// written; each plane of gradInput is then zeroed and scattered into while in cache.
static void THNN_(MaxPooling_backward)(THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                       THLongTensor *indices, const Planes &P, const std::vector<int64_t> &outShape,
                                       int gradOutputArg, int indicesArg) {
  thnn::pooling::checkSizes(gradOutput, outShape, gradOutputArg, "gradOutput");
  thnn::pooling::checkSizes(indices, outShape, indicesArg, "indices");
  auto go = th::own(THTensor_(newContiguous)(gradOutput));
  auto ind = th::own(THLongTensor_newContiguous(indices));
  const int64_t inPlane = P.planeSize(), outPlane = THTensor_(nElement)(go.get()) / P.count();
  const int64_t *xp = THLongTensor_data(ind.get());
  std::atomic<bool> bad{false};
  thnn::pooling::forEachPlane(P.count(), outPlane, [&](int64_t p) {
    bool ok = true;
    for (int64_t o = p * outPlane; o < (p + 1) * outPlane; o++)
      ok &= xp[o] >= TH_INDEX_BASE && xp[o] < TH_INDEX_BASE + inPlane;
    if (!ok) bad.store(true, std::memory_order_relaxed);
  });
  if (bad.load()) checkIndices(xp, P.count() * outPlane, inPlane, "an input plane");  // raises, naming one
  Result<THTensor> res(gradInput, thnn::pooling::sizesVector(input));
  const scalar_t *gop = THTensor_(data)(go.get());
  scalar_t *gip = res.data();
  thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
    scalar_t *dst = gip + p * inPlane;
    std::fill(dst, dst + inPlane, scalar_t(0));
    for (int64_t o = p * outPlane; o < (p + 1) * outPlane; o++) dst[xp[o] - TH_INDEX_BASE] += gop[o];
  });
  res.finish();
}

static std::vector<int64_t> THNN_(MaxPooling_outShape)(const Planes &P, const Axis (&ax)[3]) {
  const int64_t out[3] = {ax[0].out(), ax[1].out(), ax[2].out()};
  return P.shapeWith(out);
}

/* Temporal */

struct THNN_(TemporalShape) {
  int64_t nbatch, T, F, outT;
  std::vector<int64_t> outShape;
};

static THNN_(TemporalShape) THNN_(TemporalMaxPooling_shape)(THTensor *input, int kW, int dW, int argK) {
  const int nd = input->nDimension;
  THArgCheck(nd == 2 || nd == 3, 2, "input: 2D (T, F) or 3D (batch mode) tensor expected, got sizes %s",
             thnn::pooling::sizesOf(input).c_str());
  for (int d = 0; d < nd; d++)
    THArgCheck(input->size[d] > 0, 2, "input must not be empty, got sizes %s", thnn::pooling::sizesOf(input).c_str());
  THArgCheck(kW > 0, argK, "kernel size kW must be positive, got %d", kW);
  THArgCheck(dW > 0, argK + 1, "stride dW must be positive, got %d", dW);
  THNN_(TemporalShape) s{nd == 3 ? input->size[0] : 1, input->size[nd - 2], input->size[nd - 1], 0, {}};
  THArgCheck(s.T >= kW, 2, "input: sequence length %lld is smaller than the kernel size kW = %d", (long long)s.T, kW);
  s.outT = (s.T - kW) / dW + 1;
  if (nd == 3) s.outShape.push_back(s.nbatch);
  s.outShape.push_back(s.outT);
  s.outShape.push_back(s.F);
  return s;
}

void THNN_(TemporalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THLongTensor *indices,
                                            int kW, int dW) {
  const auto s = THNN_(TemporalMaxPooling_shape)(input, kW, dW, 5);
  auto in = th::own(THTensor_(newContiguous)(input));
  Result<THTensor> res(output, s.outShape);
  Result<THLongTensor> idx(indices, s.outShape);
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  int64_t *xp = idx.data();
  const int64_t F = s.F;
  // One output frame at a time: its window's frames are read row by row.
  thnn::pooling::forEachPlane(s.nbatch * s.outT, kW * F, [&](int64_t r) {
    const int64_t n = r / s.outT, t = r % s.outT;
    const scalar_t *src = ip + (n * s.T + t * dW) * F;
    scalar_t *dst = op + r * F;
    int64_t *ind = xp + r * F;
    for (int64_t f = 0; f < F; f++) {
      dst[f] = src[f];
      ind[f] = TH_INDEX_BASE;
    }
    for (int x = 1; x < kW; x++)
      for (int64_t f = 0; f < F; f++)
        if (beats(src[x * F + f], dst[f])) {
          dst[f] = src[x * F + f];
          ind[f] = x + TH_INDEX_BASE;
        }
  });
  res.finish();
  idx.finish();
}

void THNN_(TemporalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THLongTensor *indices, int kW, int dW) {
  const auto s = THNN_(TemporalMaxPooling_shape)(input, kW, dW, 6);
  thnn::pooling::checkSizes(gradOutput, s.outShape, 3, "gradOutput");
  thnn::pooling::checkSizes(indices, s.outShape, 5, "indices");
  auto go = th::own(THTensor_(newContiguous)(gradOutput));
  auto ind = th::own(THLongTensor_newContiguous(indices));
  const int64_t *xp = THLongTensor_data(ind.get());
  checkIndices(xp, s.nbatch * s.outT * s.F, kW, "a window");
  Result<THTensor> res(gradInput, thnn::pooling::sizesVector(input));
  res.zero();
  const scalar_t *gop = THTensor_(data)(go.get());
  scalar_t *gip = res.data();
  // Overlapping windows add into the same frames: work items own disjoint feature ranges.
  const int64_t F = s.F, chunk = 64, chunks = thnn::pooling::ceilDiv(F, chunk);
  thnn::pooling::forEachPlane(s.nbatch * chunks, s.outT * chunk, [&](int64_t item) {
    const int64_t n = item / chunks, f0 = (item % chunks) * chunk, f1 = std::min(F, f0 + chunk);
    for (int64_t t = 0; t < s.outT; t++) {
      const int64_t o = (n * s.outT + t) * F;
      scalar_t *dst = gip + (n * s.T + t * dW) * F;
      for (int64_t f = f0; f < f1; f++) dst[(xp[o + f] - TH_INDEX_BASE) * F + f] += gop[o + f];
    }
  });
  res.finish();
}

/* Spatial and volumetric, dilated or not */

// The axes of a spatial max pooling whose kW is argument argK.
static Planes THNN_(SpatialMaxPooling_axes)(THTensor *input, Axis (&ax)[3], int kW, int kH, int dW, int dH, int padW,
                                            int padH, int dilationW, int dilationH, bool ceil_mode, int argK) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  ax[0] = thnn::pooling::unitAxis();
  ax[1] = thnn::pooling::slidingAxis(SlidingSpec{'H', kH, dH, padH, dilationH, argK + 1}, 2, P.size[1], ceil_mode);
  ax[2] = thnn::pooling::slidingAxis(SlidingSpec{'W', kW, dW, padW, dilationW, argK}, 2, P.size[2], ceil_mode);
  return P;
}

void THNN_(SpatialDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                  THLongTensor *indices, int kW, int kH, int dW, int dH, int padW,
                                                  int padH, int dilationW, int dilationH, bool ceil_mode) {
  Axis ax[3];
  const Planes P =
      THNN_(SpatialMaxPooling_axes)(input, ax, kW, kH, dW, dH, padW, padH, dilationW, dilationH, ceil_mode, 5);
  THNN_(MaxPooling_forward)(input, output, indices, P, ax, Slide{dilationW == 1 ? kW : 0, dW, padW});
}

void THNN_(SpatialDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, THLongTensor *indices, int kW, int kH, int dW,
                                                     int dH, int padW, int padH, int dilationW, int dilationH,
                                                     bool ceil_mode) {
  Axis ax[3];
  const Planes P =
      THNN_(SpatialMaxPooling_axes)(input, ax, kW, kH, dW, dH, padW, padH, dilationW, dilationH, ceil_mode, 6);
  THNN_(MaxPooling_backward)(input, gradOutput, gradInput, indices, P, THNN_(MaxPooling_outShape)(P, ax), 3, 5);
}

void THNN_(SpatialMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THLongTensor *indices,
                                           int kW, int kH, int dW, int dH, int padW, int padH, bool ceil_mode) {
  THNN_(SpatialDilatedMaxPooling_updateOutput)
  (state, input, output, indices, kW, kH, dW, dH, padW, padH, 1, 1, ceil_mode);
}

void THNN_(SpatialMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, THLongTensor *indices, int kW, int kH, int dW,
                                              int dH, int padW, int padH, bool ceil_mode) {
  THNN_(SpatialDilatedMaxPooling_updateGradInput)
  (state, input, gradOutput, gradInput, indices, kW, kH, dW, dH, padW, padH, 1, 1, ceil_mode);
}

// The axes of a volumetric max pooling whose kT is argument argK.
static Planes THNN_(VolumetricMaxPooling_axes)(THTensor *input, Axis (&ax)[3], int kT, int kW, int kH, int dT, int dW,
                                               int dH, int pT, int pW, int pH, int dilationT, int dilationW,
                                               int dilationH, bool ceilMode, int argK) {
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  ax[0] = thnn::pooling::slidingAxis(SlidingSpec{'T', kT, dT, pT, dilationT, argK}, 3, P.size[0], ceilMode);
  ax[1] = thnn::pooling::slidingAxis(SlidingSpec{'H', kH, dH, pH, dilationH, argK + 2}, 3, P.size[1], ceilMode);
  ax[2] = thnn::pooling::slidingAxis(SlidingSpec{'W', kW, dW, pW, dilationW, argK + 1}, 3, P.size[2], ceilMode);
  return P;
}

void THNN_(VolumetricDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                     THLongTensor *indices, int kT, int kW, int kH, int dT, int dW,
                                                     int dH, int pT, int pW, int pH, int dilationT, int dilationW,
                                                     int dilationH, bool ceilMode) {
  Axis ax[3];
  const Planes P = THNN_(VolumetricMaxPooling_axes)(input, ax, kT, kW, kH, dT, dW, dH, pT, pW, pH, dilationT, dilationW,
                                                    dilationH, ceilMode, 5);
  THNN_(MaxPooling_forward)(input, output, indices, P, ax, Slide{dilationW == 1 ? kW : 0, dW, pW});
}

void THNN_(VolumetricDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, THLongTensor *indices, int kT, int kW,
                                                        int kH, int dT, int dW, int dH, int pT, int pW, int pH,
                                                        int dilationT, int dilationW, int dilationH, bool ceilMode) {
  Axis ax[3];
  const Planes P = THNN_(VolumetricMaxPooling_axes)(input, ax, kT, kW, kH, dT, dW, dH, pT, pW, pH, dilationT, dilationW,
                                                    dilationH, ceilMode, 6);
  THNN_(MaxPooling_backward)(input, gradOutput, gradInput, indices, P, THNN_(MaxPooling_outShape)(P, ax), 3, 5);
}

void THNN_(VolumetricMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                              THLongTensor *indices, int kT, int kW, int kH, int dT, int dW, int dH,
                                              int pT, int pW, int pH, bool ceilMode) {
  THNN_(VolumetricDilatedMaxPooling_updateOutput)
  (state, input, output, indices, kT, kW, kH, dT, dW, dH, pT, pW, pH, 1, 1, 1, ceilMode);
}

void THNN_(VolumetricMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradInput, THLongTensor *indices, int kT, int kW, int kH,
                                                 int dT, int dW, int dH, int pT, int pW, int pH, bool ceilMode) {
  THNN_(VolumetricDilatedMaxPooling_updateGradInput)
  (state, input, gradOutput, gradInput, indices, kT, kW, kH, dT, dW, dH, pT, pW, pH, 1, 1, 1, ceilMode);
}

/* Adaptive */

void THNN_(SpatialAdaptiveMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THLongTensor *indices, int osizeW, int osizeH) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  THArgCheck(osizeW > 0, 5, "output width osizeW must be positive, got %d", osizeW);
  THArgCheck(osizeH > 0, 6, "output height osizeH must be positive, got %d", osizeH);
  const Axis ax[3] = {thnn::pooling::unitAxis(), thnn::pooling::adaptiveAxis(P.size[1], osizeH),
                      thnn::pooling::adaptiveAxis(P.size[2], osizeW)};
  THNN_(MaxPooling_forward)(input, output, indices, P, ax, Slide{0, 1, 0});
}

void THNN_(SpatialAdaptiveMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradInput, THLongTensor *indices) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  const auto osize = thnn::pooling::adaptiveSizeOf(input, gradOutput, 3);
  const int64_t out[3] = {1, osize.first, osize.second};
  THNN_(MaxPooling_backward)(input, gradOutput, gradInput, indices, P, P.shapeWith(out), 3, 5);
}

/* Fractional */

// The windows of one fractional axis for sample u (THNN/generic/Pooling.h), computed in
// scalar_t as torch7 does so that both give the same windows.
static Axis THNN_(FractionalMaxPooling_axis)(scalar_t u, int64_t in, int64_t out, int poolSize) {
  Axis a{std::vector<Window>(out)};
  const scalar_t alpha = out > 1 ? (scalar_t)(in - poolSize) / (scalar_t)(out - 1) : 0;
  for (int64_t i = 0; i < out; i++) {
    const int64_t start = i + 1 < out ? (int64_t)(((scalar_t)i + u) * alpha) - (int64_t)(u * alpha) : in - poolSize;
    a.windows[i] = Window{start, start + poolSize, 1, poolSize};
  }
  return a;
}

void THNN_(SpatialFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int outputW,
                                                     int outputH, int poolSizeW, int poolSizeH, THLongTensor *indices,
                                                     THTensor *randomSamples) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  THArgCheck(outputW > 0, 4, "outputW must be positive, got %d", outputW);
  THArgCheck(outputH > 0, 5, "outputH must be positive, got %d", outputH);
  THArgCheck(poolSizeW > 0 && outputW + poolSizeW - 1 <= P.size[2], 6,
             "poolSizeW %d must be positive and fit outputW %d windows in input width %lld", poolSizeW, outputW,
             (long long)P.size[2]);
  THArgCheck(poolSizeH > 0 && outputH + poolSizeH - 1 <= P.size[1], 7,
             "poolSizeH %d must be positive and fit outputH %d windows in input height %lld", poolSizeH, outputH,
             (long long)P.size[1]);
  const bool samplesFit = thnn::pooling::hasSizes(randomSamples, {P.nbatch, P.nplanes, 2}) ||
                          (!P.batched && thnn::pooling::hasSizes(randomSamples, {P.nplanes, 2}));
  THArgCheck(samplesFit, 9, "randomSamples: expected sizes [%lld, %lld, 2], got %s", (long long)P.nbatch,
             (long long)P.nplanes, thnn::pooling::sizesOf(randomSamples).c_str());
  auto samples = th::own(THTensor_(newContiguous)(randomSamples));
  const scalar_t *sp = THTensor_(data)(samples.get());
  for (int64_t i = 0; i < P.count() * 2; i++)
    THArgCheck(sp[i] >= 0 && sp[i] < 1, 9, "randomSamples must lie in [0, 1), got %g", (double)sp[i]);

  auto in = th::own(THTensor_(newContiguous)(input));
  const int64_t out[3] = {1, outputH, outputW};
  const std::vector<int64_t> shape = P.shapeWith(out);
  Result<THTensor> res(output, shape);
  Result<THLongTensor> idx(indices, shape);
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  int64_t *xp = idx.data();
  const int64_t inPlane = P.planeSize(), outPlane = (int64_t)outputH * outputW;
  thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
    // Sample 0 of a plane places its columns, sample 1 its rows (torch7's order).
    const Axis ax[3] = {thnn::pooling::unitAxis(),
                        THNN_(FractionalMaxPooling_axis)(sp[2 * p + 1], P.size[1], outputH, poolSizeH),
                        THNN_(FractionalMaxPooling_axis)(sp[2 * p], P.size[2], outputW, poolSizeW)};
    THNN_(MaxPooling_plane)(ip + p * inPlane, P.size[1], P.size[2], ax, op + p * outPlane, xp + p * outPlane);
  });
  res.finish();
  idx.finish();
}

void THNN_(SpatialFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, int outputW, int outputH, int poolSizeW,
                                                        int poolSizeH, THLongTensor *indices) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  const int64_t out[3] = {1, outputH, outputW};
  THNN_(MaxPooling_backward)(input, gradOutput, gradInput, indices, P, P.shapeWith(out), 3, 9);
}

// The sizes, positive and fitting their windows, of one fractional axis.
static void THNN_(FractionalMaxPooling_checkAxis)(const char *name, int out, int poolSize, int64_t in, int outArg,
                                                  int poolArg) {
  THArgCheck(out > 0, outArg, "output%s must be positive, got %d", name, out);
  THArgCheck(poolSize > 0 && out + poolSize - 1 <= in, poolArg,
             "poolSize%s %d must be positive and fit output%s %d windows in input size %lld", name, poolSize, name, out,
             (long long)in);
}

void THNN_(VolumetricFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                        int outputT, int outputW, int outputH, int poolSizeT,
                                                        int poolSizeW, int poolSizeH, THLongTensor *indices,
                                                        THTensor *randomSamples) {
  // planes of H x W x T: Planes' size[0], size[1], size[2]
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  THNN_(FractionalMaxPooling_checkAxis)("T", outputT, poolSizeT, P.size[2], 4, 7);
  THNN_(FractionalMaxPooling_checkAxis)("W", outputW, poolSizeW, P.size[1], 5, 8);
  THNN_(FractionalMaxPooling_checkAxis)("H", outputH, poolSizeH, P.size[0], 6, 9);
  const bool samplesFit = thnn::pooling::hasSizes(randomSamples, {P.nbatch, P.nplanes, 3}) ||
                          (!P.batched && thnn::pooling::hasSizes(randomSamples, {P.nplanes, 3}));
  THArgCheck(samplesFit, 11, "randomSamples: expected sizes [%lld, %lld, 3], got %s", (long long)P.nbatch,
             (long long)P.nplanes, thnn::pooling::sizesOf(randomSamples).c_str());
  auto samples = th::own(THTensor_(newContiguous)(randomSamples));
  const scalar_t *sp = THTensor_(data)(samples.get());
  for (int64_t i = 0; i < P.count() * 3; i++)
    THArgCheck(sp[i] >= 0 && sp[i] < 1, 11, "randomSamples must lie in [0, 1), got %g", (double)sp[i]);

  auto in = th::own(THTensor_(newContiguous)(input));
  const int64_t out[3] = {outputH, outputW, outputT};
  const std::vector<int64_t> shape = P.shapeWith(out);
  Result<THTensor> res(output, shape);
  Result<THLongTensor> idx(indices, shape);
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  int64_t *xp = idx.data();
  const int64_t inPlane = P.planeSize(), outPlane = (int64_t)outputH * outputW * outputT;
  thnn::pooling::forEachPlane(P.count(), inPlane + outPlane, [&](int64_t p) {
    const Axis ax[3] = {THNN_(FractionalMaxPooling_axis)(sp[3 * p + 2], P.size[0], outputH, poolSizeH),
                        THNN_(FractionalMaxPooling_axis)(sp[3 * p + 1], P.size[1], outputW, poolSizeW),
                        THNN_(FractionalMaxPooling_axis)(sp[3 * p], P.size[2], outputT, poolSizeT)};
    THNN_(MaxPooling_plane)(ip + p * inPlane, P.size[1], P.size[2], ax, op + p * outPlane, xp + p * outPlane);
  });
  res.finish();
  idx.finish();
}

void THNN_(VolumetricFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                           THTensor *gradInput, int outputT, int outputW, int outputH,
                                                           int poolSizeT, int poolSizeW, int poolSizeH,
                                                           THLongTensor *indices) {
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  const int64_t out[3] = {outputH, outputW, outputT};
  THNN_(MaxPooling_backward)(input, gradOutput, gradInput, indices, P, P.shapeWith(out), 3, 11);
}

/* Unpooling */

// Output planes of out[0] x out[1] x out[2]: zero, and input values where indices say.
static void THNN_(MaxUnpooling_forward)(THTensor *input, THTensor *output, THLongTensor *indices, const Planes &P,
                                        const int64_t (&out)[3]) {
  thnn::pooling::checkSizes(indices, thnn::pooling::sizesVector(input), 4, "indices");
  const int64_t inPlane = P.planeSize(), outPlane = out[0] * out[1] * out[2];
  auto ind = th::own(THLongTensor_newContiguous(indices));
  const int64_t *xp = THLongTensor_data(ind.get());
  checkIndices(xp, P.count() * inPlane, outPlane, "an output plane");
  auto in = th::own(THTensor_(newContiguous)(input));
  Result<THTensor> res(output, P.shapeWith(out));
  res.zero();
  const scalar_t *ip = THTensor_(data)(in.get());
  scalar_t *op = res.data();
  thnn::pooling::forEachPlane(P.count(), inPlane, [&](int64_t p) {
    scalar_t *dst = op + p * outPlane;
    for (int64_t i = p * inPlane; i < (p + 1) * inPlane; i++) dst[xp[i] - TH_INDEX_BASE] = ip[i];
  });
  res.finish();
}

// gradInput gathers gradOutput where indices say.
static void THNN_(MaxUnpooling_backward)(THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                         THLongTensor *indices, const Planes &P, const int64_t (&out)[3]) {
  thnn::pooling::checkSizes(gradOutput, P.shapeWith(out), 3, "gradOutput");
  thnn::pooling::checkSizes(indices, thnn::pooling::sizesVector(input), 5, "indices");
  const int64_t inPlane = P.planeSize(), outPlane = out[0] * out[1] * out[2];
  auto ind = th::own(THLongTensor_newContiguous(indices));
  const int64_t *xp = THLongTensor_data(ind.get());
  checkIndices(xp, P.count() * inPlane, outPlane, "an output plane");
  auto go = th::own(THTensor_(newContiguous)(gradOutput));
  Result<THTensor> res(gradInput, thnn::pooling::sizesVector(input));
  const scalar_t *gop = THTensor_(data)(go.get());
  scalar_t *gip = res.data();
  thnn::pooling::forEachPlane(P.count(), inPlane, [&](int64_t p) {
    const scalar_t *src = gop + p * outPlane;
    for (int64_t i = p * inPlane; i < (p + 1) * inPlane; i++) gip[i] = src[xp[i] - TH_INDEX_BASE];
  });
  res.finish();
}

static void THNN_(SpatialMaxUnpooling_check)(int owidth, int oheight, int argW) {
  THArgCheck(owidth > 0, argW, "owidth must be positive, got %d", owidth);
  THArgCheck(oheight > 0, argW + 1, "oheight must be positive, got %d", oheight);
}

void THNN_(SpatialMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THLongTensor *indices,
                                             int owidth, int oheight) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  THNN_(SpatialMaxUnpooling_check)(owidth, oheight, 5);
  THNN_(MaxUnpooling_forward)(input, output, indices, P, {1, oheight, owidth});
}

void THNN_(SpatialMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THTensor *gradInput, THLongTensor *indices, int owidth, int oheight) {
  const Planes P = thnn::pooling::planesOf(input, 2, 2);
  THNN_(SpatialMaxUnpooling_check)(owidth, oheight, 6);
  THNN_(MaxUnpooling_backward)(input, gradOutput, gradInput, indices, P, {1, oheight, owidth});
}

static void THNN_(VolumetricMaxUnpooling_check)(int oT, int oW, int oH, int dT, int dW, int dH, int pT, int pW, int pH,
                                                int argOT) {
  THArgCheck(oT > 0 && oW > 0 && oH > 0, argOT, "output size must be positive, got oT %d, oW %d, oH %d", oT, oW, oH);
  THArgCheck(dT > 0 && dW > 0 && dH > 0, argOT + 3, "stride must be positive, got dT %d, dW %d, dH %d", dT, dW, dH);
  THArgCheck(pT >= 0 && pW >= 0 && pH >= 0, argOT + 6, "padding must be >= 0, got pT %d, pW %d, pH %d", pT, pW, pH);
}

void THNN_(VolumetricMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                THLongTensor *indices, int oT, int oW, int oH, int dT, int dW, int dH,
                                                int pT, int pW, int pH) {
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  THNN_(VolumetricMaxUnpooling_check)(oT, oW, oH, dT, dW, dH, pT, pW, pH, 5);
  THNN_(MaxUnpooling_forward)(input, output, indices, P, {oT, oH, oW});
}

void THNN_(VolumetricMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                   THTensor *gradInput, THLongTensor *indices, int oT, int oW, int oH,
                                                   int dT, int dW, int dH, int pT, int pW, int pH) {
  const Planes P = thnn::pooling::planesOf(input, 3, 2);
  THNN_(VolumetricMaxUnpooling_check)(oT, oW, oH, dT, dW, dH, pT, pW, pH, 6);
  THNN_(MaxUnpooling_backward)(input, gradOutput, gradInput, indices, P, {oT, oH, oW});
}
