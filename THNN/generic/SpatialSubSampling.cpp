#ifndef TH_GENERIC_FILE
#error "compile THNN/SpatialConvolution.cpp instead"
#endif

/* Checks a SpatialSubSampling call and completes its shape. The weight (or gradWeight) is
 * argument weightArg; kW is argument 6. */
static Conv THNN_(subsampling_shape)(const char *fn, THTensor *input, THTensor *gradOutput, const char *weightName,
                                     THTensor *weight, int weightArg, const char *biasName, THTensor *bias, int biasArg,
                                     Conv c) {
  checkParams(fn, c, 6);
  readInput(fn, input, 2, c);
  checkNotNull(fn, weightName, weight, weightArg);
  THArgCheck(weight->nDimension == 1, weightArg, "%s: %s must be 1-D [nInputPlane], got sizes %s", fn, weightName,
             sizesOf(weight).c_str());
  checkInputPlanes(fn, input, 2, c, weight->size[0], weightName, weight);
  convolutionOutputSize(fn, input, 2, c);
  c.outPlanes = c.inPlanes;
  if (bias) checkSizes(fn, biasName, bias, biasArg, {c.inPlanes});
  if (gradOutput) checkSizes(fn, "gradOutput", gradOutput, 3, c.outputSizes());
  return c;
}

/* The sum of the kH x kW window of `plane` whose top left corner is (y dH, x dW). */
static inline accreal THNN_(subsampling_window)(const scalar_t *plane, const Conv &c, int64_t y, int64_t x) {
  accreal sum = 0;
  for (int kh = 0; kh < c.kH; kh++) {
    const scalar_t *row = plane + (y * c.dH + kh) * c.inW + x * c.dW;
    for (int kw = 0; kw < c.kW; kw++) sum += row[kw];
  }
  return sum;
}

void THNN_(SpatialSubSampling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                            THTensor *bias, int kW, int kH, int dW, int dH) {
  const char *fn = "SpatialSubSampling_updateOutput";
  const Conv c =
      THNN_(subsampling_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5, Conv{kW, kH, dW, dH, 0, 0});
  checkNotNull(fn, "output", output, 3);
  auto in = contiguous<scalar_t>(input), w = contiguous<scalar_t>(weight), b = contiguous<scalar_t>(bias);
  const scalar_t *x = dataOf<scalar_t>(in), *wd = dataOf<scalar_t>(w), *bd = dataOf<scalar_t>(b);
  const int64_t plane = c.inH * c.inW, outPlane = c.outH * c.outW;
  auto out = Target<scalar_t>::result(output, c.outputSizes());
  parallelFor(c.batch * c.inPlanes, (int64_t)kH * kW * outPlane, [&](int64_t i) {
    const int64_t p = i % c.inPlanes;
    scalar_t *y = out.data() + i * outPlane;
    for (int64_t oy = 0; oy < c.outH; oy++)
      for (int64_t ox = 0; ox < c.outW; ox++)
        y[oy * c.outW + ox] =
            (bd ? bd[p] : scalar_t(0)) + wd[p] * (scalar_t)THNN_(subsampling_window)(x + i * plane, c, oy, ox);
  });
  out.finish();
}

void THNN_(SpatialSubSampling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *weight, int kW, int kH, int dW, int dH) {
  const char *fn = "SpatialSubSampling_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c =
      THNN_(subsampling_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0, Conv{kW, kH, dW, dH, 0, 0});
  checkNotNull(fn, "gradInput", gradInput, 4);
  auto go = contiguous<scalar_t>(gradOutput), w = contiguous<scalar_t>(weight);
  const scalar_t *g = dataOf<scalar_t>(go), *wd = dataOf<scalar_t>(w);
  const int64_t plane = c.inH * c.inW, outPlane = c.outH * c.outW;
  auto gi = Target<scalar_t>::result(gradInput, c.inputSizes());
  parallelFor(c.batch * c.inPlanes, (int64_t)kH * kW * outPlane, [&](int64_t i) {
    scalar_t *gx = gi.data() + i * plane;
    std::fill(gx, gx + plane, scalar_t(0));
    const scalar_t wp = wd[i % c.inPlanes];
    for (int64_t oy = 0; oy < c.outH; oy++)
      for (int64_t ox = 0; ox < c.outW; ox++) {
        const scalar_t v = wp * g[i * outPlane + oy * c.outW + ox];
        for (int kh = 0; kh < kH; kh++) {
          scalar_t *row = gx + (oy * dH + kh) * c.inW + ox * dW;
          for (int kw = 0; kw < kW; kw++) row[kw] += v;
        }
      }
  });
  gi.finish();
}

void THNN_(SpatialSubSampling_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias, int kW, int kH, int dW,
                                                 int dH, accreal scale) {
  const char *fn = "SpatialSubSampling_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(subsampling_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                                          Conv{kW, kH, dW, dH, 0, 0});
  auto in = contiguous<scalar_t>(input), go = contiguous<scalar_t>(gradOutput);
  const scalar_t *x = dataOf<scalar_t>(in), *g = dataOf<scalar_t>(go);
  const int64_t plane = c.inH * c.inW, outPlane = c.outH * c.outW;
  auto gw = Target<scalar_t>::accumulator(gradWeight), gb = Target<scalar_t>::accumulator(gradBias);
  scalar_t *gwd = gw.data(), *gbd = gb.data();
  parallelFor(c.inPlanes, c.batch * kH * kW * outPlane, [&](int64_t p) {
    accreal sumWeight = 0, sumBias = 0;
    for (int64_t s = 0; s < c.batch; s++) {
      const int64_t i = s * c.inPlanes + p;
      for (int64_t oy = 0; oy < c.outH; oy++)
        for (int64_t ox = 0; ox < c.outW; ox++) {
          const accreal v = g[i * outPlane + oy * c.outW + ox];
          sumBias += v;
          sumWeight += v * THNN_(subsampling_window)(x + i * plane, c, oy, ox);
        }
    }
    gwd[p] += scale * (scalar_t)sumWeight;
    if (gbd) gbd[p] += scale * (scalar_t)sumBias;
  });
  gw.finish();
  gb.finish();
}
