#ifndef TH_GENERIC_FILE
#error "compile THNN/SpatialConvolution.cpp instead"
#endif

/* Note [locally connected]: like Note [im2col convolution] with one weight matrix
 * W_l [nOutputPlane, nInputPlane*kH*kW] per output position l: output[:, l] = W_l @ columns[:, l]
 * + bias[:, l]. Every sample is unfolded first; then the positions are split over threads,
 * each position's column gathered once into a contiguous scratch line per sample. */

/* Checks a SpatialConvolutionLocal call and completes its shape. The weight (or gradWeight)
 * is argument weightArg. */
static Conv THNN_(local_shape)(const char *fn, THTensor *input, THTensor *gradOutput, const char *weightName,
                               THTensor *weight, int weightArg, const char *biasName, THTensor *bias, int biasArg,
                               Conv c, int64_t inputWidth, int64_t inputHeight, int64_t outputWidth,
                               int64_t outputHeight) {
  checkParams(fn, c, 8);
  readInput(fn, input, 2, c);
  THArgCheck(c.inW == inputWidth && c.inH == inputHeight, 14,
             "%s: inputWidth=%lld and inputHeight=%lld do not match the input of sizes %s", fn, (long long)inputWidth,
             (long long)inputHeight, sizesOf(input).c_str());
  convolutionOutputSize(fn, input, 2, c);
  THArgCheck(c.outW == outputWidth && c.outH == outputHeight, 16,
             "%s: outputWidth=%lld and outputHeight=%lld do not match the output size %lldx%lld (height x width) "
             "of the input of sizes %s",
             fn, (long long)outputWidth, (long long)outputHeight, (long long)c.outH, (long long)c.outW,
             sizesOf(input).c_str());
  checkNotNull(fn, weightName, weight, weightArg);
  const int64_t k = (int64_t)c.kH * c.kW, positions = c.outH * c.outW;
  const int64_t *s = weight->size;
  const bool six = weight->nDimension == 6 && s[0] == c.outH && s[1] == c.outW && s[2] > 0 && s[3] > 0 &&
                   s[4] == c.kH && s[5] == c.kW;
  const bool three = weight->nDimension == 3 && s[0] == positions && s[1] > 0 && s[2] > 0 && s[2] % k == 0;
  THArgCheck(six || three, weightArg,
             "%s: %s must have sizes [oH=%lld, oW=%lld, nOutputPlane, nInputPlane, kH=%d, kW=%d] or "
             "[oH*oW=%lld, nOutputPlane, nInputPlane*%lld], got %s",
             fn, weightName, (long long)c.outH, (long long)c.outW, c.kH, c.kW, (long long)positions, (long long)k,
             sizesOf(weight).c_str());
  c.outPlanes = six ? s[2] : s[1];
  checkInputPlanes(fn, input, 2, c, six ? s[3] : s[2] / k, weightName, weight);
  if (bias) checkSizes(fn, biasName, bias, biasArg, {c.outPlanes, c.outH, c.outW});
  if (gradOutput) checkSizes(fn, "gradOutput", gradOutput, 3, c.outputSizes());
  return c;
}

/* One scratch line of `length` elements per OpenMP thread. */
static std::vector<scalar_t> THNN_(local_lines)(int64_t length) {
  return std::vector<scalar_t>(omp_get_max_threads() * length);
}

static void THNN_(local_updateOutput)(THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                                      THTensor *finput, const Conv &c) {
  auto in = contiguous<scalar_t>(input), w = contiguous<scalar_t>(weight), b = contiguous<scalar_t>(bias);
  const Unfold u = unfoldInput(c);
  const int64_t rows = u.rows(), n = u.positions();
  scalar_t *col = scratch<scalar_t>(finput, c.sample({rows, n}));
  unfoldBatch(u, c.batch, dataOf<scalar_t>(in), col);
  auto out = Target<scalar_t>::result(output, c.outputSizes());
  scalar_t *y = out.data();
  const scalar_t *wd = dataOf<scalar_t>(w), *bd = dataOf<scalar_t>(b);
  auto lines = THNN_(local_lines)(rows);
  parallelFor(n, c.batch * c.outPlanes * rows, [&](int64_t l) {
    scalar_t *f = lines.data() + omp_get_thread_num() * rows;
    const scalar_t *wl = wd + l * c.outPlanes * rows;
    for (int64_t s = 0; s < c.batch; s++) {
      const scalar_t *cs = col + s * rows * n;
      for (int64_t k = 0; k < rows; k++) f[k] = cs[k * n + l];
      for (int64_t o = 0; o < c.outPlanes; o++) {
        const scalar_t *row = wl + o * rows;
        scalar_t sum = bd ? bd[o * n + l] : scalar_t(0);
        for (int64_t k = 0; k < rows; k++) sum += row[k] * f[k];
        y[(s * c.outPlanes + o) * n + l] = sum;
      }
    }
  });
  out.finish();
}

static void THNN_(local_updateGradInput)(THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
                                         THTensor *fgradInput, const Conv &c) {
  auto go = contiguous<scalar_t>(gradOutput), w = contiguous<scalar_t>(weight);
  const Unfold u = unfoldInput(c);
  const int64_t rows = u.rows(), n = u.positions();
  scalar_t *col = scratch<scalar_t>(fgradInput, c.sample({rows, n}));
  const scalar_t *g = dataOf<scalar_t>(go), *wd = dataOf<scalar_t>(w);
  auto lines = THNN_(local_lines)(rows);
  parallelFor(n, c.batch * c.outPlanes * rows, [&](int64_t l) {
    scalar_t *f = lines.data() + omp_get_thread_num() * rows;
    const scalar_t *wl = wd + l * c.outPlanes * rows;
    for (int64_t s = 0; s < c.batch; s++) {
      std::fill(f, f + rows, scalar_t(0));
      for (int64_t o = 0; o < c.outPlanes; o++) {
        const scalar_t *row = wl + o * rows, go_l = g[(s * c.outPlanes + o) * n + l];
        for (int64_t k = 0; k < rows; k++) f[k] += row[k] * go_l;
      }
      scalar_t *cs = col + s * rows * n;
      for (int64_t k = 0; k < rows; k++) cs[k * n + l] = f[k];
    }
  });
  auto gi = Target<scalar_t>::result(gradInput, c.inputSizes());
  foldBatch<scalar_t>(u, c.batch, col, gi.data(), nullptr);
  gi.finish();
}

static void THNN_(local_accGradParameters)(THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                           THTensor *finput, const Conv &c, scalar_t scale) {
  auto go = contiguous<scalar_t>(gradOutput), saved = contiguous<scalar_t>(finput);
  const int64_t rows = unfoldInput(c).rows(), n = c.outH * c.outW;
  const scalar_t *g = dataOf<scalar_t>(go), *col = dataOf<scalar_t>(saved);
  auto gw = Target<scalar_t>::accumulator(gradWeight);
  scalar_t *gwd = gw.data();
  auto lines = THNN_(local_lines)(rows);
  parallelFor(n, c.batch * c.outPlanes * rows, [&](int64_t l) {
    scalar_t *f = lines.data() + omp_get_thread_num() * rows;
    scalar_t *gwl = gwd + l * c.outPlanes * rows;
    for (int64_t s = 0; s < c.batch; s++) {
      const scalar_t *cs = col + s * rows * n;
      for (int64_t k = 0; k < rows; k++) f[k] = cs[k * n + l];
      for (int64_t o = 0; o < c.outPlanes; o++) {
        scalar_t *row = gwl + o * rows;
        const scalar_t go_l = scale * g[(s * c.outPlanes + o) * n + l];
        for (int64_t k = 0; k < rows; k++) row[k] += go_l * f[k];
      }
    }
  });
  gw.finish();
  if (gradBias) {
    auto gb = Target<scalar_t>::accumulator(gradBias);
    scalar_t *gbd = gb.data();
    const int64_t perSample = c.outPlanes * n;
    parallelFor(perSample, c.batch, [&](int64_t i) {
      accreal sum = 0;
      for (int64_t s = 0; s < c.batch; s++) sum += g[s * perSample + i];
      gbd[i] += scale * (scalar_t)sum;
    });
    gb.finish();
  }
}

void THNN_(SpatialConvolutionLocal_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                                 THTensor *bias, THTensor *finput, THTensor *fgradInput, int kW, int kH,
                                                 int dW, int dH, int padW, int padH, int64_t inputWidth,
                                                 int64_t inputHeight, int64_t outputWidth, int64_t outputHeight) {
  const char *fn = "SpatialConvolutionLocal_updateOutput";
  const Conv c =
      THNN_(local_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5, Conv{kW, kH, dW, dH, padW, padH},
                         inputWidth, inputHeight, outputWidth, outputHeight);
  checkNotNull(fn, "output", output, 3);
  checkNotNull(fn, "finput", finput, 6);
  THNN_(local_updateOutput)(input, output, weight, bias, finput, c);
}

void THNN_(SpatialConvolutionLocal_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                    int padH, int64_t inputWidth, int64_t inputHeight,
                                                    int64_t outputWidth, int64_t outputHeight) {
  const char *fn = "SpatialConvolutionLocal_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c =
      THNN_(local_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0, Conv{kW, kH, dW, dH, padW, padH},
                         inputWidth, inputHeight, outputWidth, outputHeight);
  checkNotNull(fn, "gradInput", gradInput, 4);
  checkNotNull(fn, "fgradInput", fgradInput, 7);
  THNN_(local_updateGradInput)(gradOutput, gradInput, weight, fgradInput, c);
}

void THNN_(SpatialConvolutionLocal_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                      THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                      int padH, int64_t inputWidth, int64_t inputHeight,
                                                      int64_t outputWidth, int64_t outputHeight, accreal scale) {
  const char *fn = "SpatialConvolutionLocal_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c =
      THNN_(local_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                         Conv{kW, kH, dW, dH, padW, padH}, inputWidth, inputHeight, outputWidth, outputHeight);
  checkNotNull(fn, "finput", finput, 6);
  const std::vector<int64_t> unfolded = c.sample({unfoldInput(c).rows(), c.outH * c.outW});
  THArgCheck(hasSizes(finput, unfolded), 6,
             "%s: finput must hold the unfolded input left by updateOutput, sizes %s, got %s", fn,
             sizesOf(unfolded).c_str(), sizesOf(finput).c_str());
  THNN_(local_accGradParameters)(gradOutput, gradWeight, gradBias, finput, c, (scalar_t)scale);
}
