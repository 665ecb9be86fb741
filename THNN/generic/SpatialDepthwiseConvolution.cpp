#ifndef TH_GENERIC_FILE
#error "compile THNN/SpatialConvolution.cpp instead"
#endif

/* Note [depthwise convolution]: input plane p unfolds to its own kH*kW rows of the columns
 * (the rows im2col gives plane p anyway), and output plane p*m + o (m = nOutputPlane filters
 * per plane) = weight[o][p] [kH*kW] @ those rows + bias[o][p]. The products are too small for
 * BLAS to pay off; each (sample, plane) is one OpenMP work item with vectorisable row loops. */

/* Checks a SpatialDepthwiseConvolution call and completes its shape. The weight (or
 * gradWeight) is argument weightArg. */
static Conv THNN_(depthwise_shape)(const char *fn, THTensor *input, THTensor *gradOutput, const char *weightName,
                                   THTensor *weight, int weightArg, const char *biasName, THTensor *bias, int biasArg,
                                   Conv c) {
  checkParams(fn, c, 8);
  readInput(fn, input, 2, c);
  const auto planes = readWeight(fn, weightName, weight, weightArg, c, "nOutputPlane, nInputPlane", true);
  checkInputPlanes(fn, input, 2, c, planes.second, weightName, weight);
  convolutionOutputSize(fn, input, 2, c);
  c.outPlanes = c.inPlanes * planes.first;
  if (bias) checkSizes(fn, biasName, bias, biasArg, {planes.first, c.inPlanes});
  if (gradOutput) checkSizes(fn, "gradOutput", gradOutput, 3, c.outputSizes());
  return c;
}

static void THNN_(depthwise_updateOutput)(THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                                          THTensor *finput, const Conv &c) {
  auto in = contiguous<scalar_t>(input), w = contiguous<scalar_t>(weight), b = contiguous<scalar_t>(bias);
  const Unfold u = unfoldInput(c);
  const int64_t k = (int64_t)c.kH * c.kW, n = u.positions(), m = c.outPlanes / c.inPlanes;
  scalar_t *col = scratch<scalar_t>(finput, c.sample({c.inPlanes, k, n}));
  auto out = Target<scalar_t>::result(output, c.outputSizes());
  const scalar_t *wd = dataOf<scalar_t>(w), *bd = dataOf<scalar_t>(b);
  parallelFor(c.batch * c.inPlanes, (m + 1) * k * n, [&](int64_t i) {
    const int64_t s = i / c.inPlanes, p = i % c.inPlanes;
    scalar_t *cs = col + s * c.inPlanes * k * n;
    im2colPlane(u, dataOf<scalar_t>(in) + s * c.inPlanes * c.inH * c.inW, cs, p);
    const scalar_t *rows = cs + p * k * n;
    for (int64_t o = 0; o < m; o++) {
      scalar_t *y = out.data() + (i * m + o) * n;
      std::fill(y, y + n, bd ? bd[o * c.inPlanes + p] : scalar_t(0));
      for (int64_t j = 0; j < k; j++) {
        const scalar_t wv = wd[(o * c.inPlanes + p) * k + j], *row = rows + j * n;
        for (int64_t l = 0; l < n; l++) y[l] += wv * row[l];
      }
    }
  });
  out.finish();
}

static void THNN_(depthwise_updateGradInput)(THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
                                             THTensor *fgradInput, const Conv &c) {
  auto go = contiguous<scalar_t>(gradOutput), w = contiguous<scalar_t>(weight);
  const Unfold u = unfoldInput(c);
  const int64_t k = (int64_t)c.kH * c.kW, n = u.positions(), m = c.outPlanes / c.inPlanes, plane = c.inH * c.inW;
  scalar_t *col = scratch<scalar_t>(fgradInput, c.sample({c.inPlanes, k, n}));
  auto gi = Target<scalar_t>::result(gradInput, c.inputSizes());
  const scalar_t *wd = dataOf<scalar_t>(w);
  parallelFor(c.batch * c.inPlanes, (m + 1) * k * n, [&](int64_t i) {
    const int64_t s = i / c.inPlanes, p = i % c.inPlanes;
    scalar_t *cs = col + s * c.inPlanes * k * n;
    for (int64_t j = 0; j < k; j++) {
      scalar_t *row = cs + (p * k + j) * n;
      std::fill(row, row + n, scalar_t(0));
      for (int64_t o = 0; o < m; o++) {
        const scalar_t wv = wd[(o * c.inPlanes + p) * k + j], *g = dataOf<scalar_t>(go) + (i * m + o) * n;
        for (int64_t l = 0; l < n; l++) row[l] += wv * g[l];
      }
    }
    scalar_t *gx = gi.data() + s * c.inPlanes * plane;
    std::fill(gx + p * plane, gx + (p + 1) * plane, scalar_t(0));
    col2imPlane(u, cs, gx, p);
  });
  gi.finish();
}

static void THNN_(depthwise_accGradParameters)(THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                               THTensor *finput, const Conv &c, scalar_t scale) {
  auto go = contiguous<scalar_t>(gradOutput), saved = contiguous<scalar_t>(finput);
  const int64_t k = (int64_t)c.kH * c.kW, n = c.outH * c.outW, m = c.outPlanes / c.inPlanes;
  const scalar_t *g = dataOf<scalar_t>(go), *col = dataOf<scalar_t>(saved);
  auto gw = Target<scalar_t>::accumulator(gradWeight);
  scalar_t *gwd = gw.data();
  // work item i = p*m + o: the filter weight[o][p], fed by input plane p and output plane i
  parallelFor(c.outPlanes, c.batch * k * n, [&](int64_t i) {
    const int64_t p = i / m, o = i % m;
    for (int64_t j = 0; j < k; j++) {
      accreal sum = 0;
      for (int64_t s = 0; s < c.batch; s++) {
        const scalar_t *gs = g + (s * c.outPlanes + i) * n, *row = col + ((s * c.inPlanes + p) * k + j) * n;
        for (int64_t l = 0; l < n; l++) sum += gs[l] * row[l];
      }
      gwd[(o * c.inPlanes + p) * k + j] += scale * (scalar_t)sum;
    }
  });
  gw.finish();
  if (gradBias) {
    auto gb = Target<scalar_t>::accumulator(gradBias);
    scalar_t *gbd = gb.data();
    parallelFor(c.outPlanes, c.batch * n, [&](int64_t i) {
      accreal sum = 0;
      for (int64_t s = 0; s < c.batch; s++) {
        const scalar_t *gs = g + (s * c.outPlanes + i) * n;
        for (int64_t l = 0; l < n; l++) sum += gs[l];
      }
      gbd[(i % m) * c.inPlanes + i / m] += scale * (scalar_t)sum;
    });
    gb.finish();
  }
}

void THNN_(SpatialDepthwiseConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                     THTensor *weight, THTensor *bias, THTensor *finput,
                                                     THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                     int padH) {
  const char *fn = "SpatialDepthwiseConvolution_updateOutput";
  const Conv c = THNN_(depthwise_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5,
                                        Conv{kW, kH, dW, dH, padW, padH});
  checkNotNull(fn, "output", output, 3);
  checkNotNull(fn, "finput", finput, 6);
  THNN_(depthwise_updateOutput)(input, output, weight, bias, finput, c);
}

void THNN_(SpatialDepthwiseConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                        THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                        int padH) {
  const char *fn = "SpatialDepthwiseConvolution_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(depthwise_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0,
                                        Conv{kW, kH, dW, dH, padW, padH});
  checkNotNull(fn, "gradInput", gradInput, 4);
  checkNotNull(fn, "fgradInput", fgradInput, 7);
  THNN_(depthwise_updateGradInput)(gradOutput, gradInput, weight, fgradInput, c);
}

void THNN_(SpatialDepthwiseConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                          THTensor *fgradInput, int kW, int kH, int dW, int dH,
                                                          int padW, int padH, accreal scale) {
  const char *fn = "SpatialDepthwiseConvolution_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(depthwise_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                                        Conv{kW, kH, dW, dH, padW, padH});
  checkNotNull(fn, "finput", finput, 6);
  const std::vector<int64_t> unfolded = c.sample({c.inPlanes, (int64_t)kH * kW, c.outH * c.outW});
  THArgCheck(hasSizes(finput, unfolded), 6,
             "%s: finput must hold the unfolded input left by updateOutput, sizes %s, got %s", fn,
             sizesOf(unfolded).c_str(), sizesOf(finput).c_str());
  THNN_(depthwise_accGradParameters)(gradOutput, gradWeight, gradBias, finput, c, (scalar_t)scale);
}
