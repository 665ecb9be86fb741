#ifndef TH_GENERIC_FILE
#error "compiled through THNN/TemporalVolumetricConvolution.cpp"
#endif

/* ---- TemporalConvolution ---- */

// Note [Frame windows]: output frame t reads the kW * inputFrameSize contiguous values of
// input frames t*dW ... t*dW + kW - 1. The windows of output frames j, j + s, j + 2s, ...
// with s = ceil(kW / dW) start s*dW >= kW frames apart: they are the disjoint rows of one
// strided matrix that BLAS reads in place (leading dimension s*dW*inputFrameSize). So a
// sample takes s GEMMs and the input is never unfolded. body(windows, rows) gets, for each
// residue j, those windows of `frames` and the matching rows of `rows` (frames of rowSize
// values); offsets select the sample.
template <typename Body>
static void forEachWindowSet(THTensor *frames, int64_t framesOffset, int64_t frameSize, THTensor *rows,
                             int64_t rowsOffset, int64_t rowSize, int64_t nOutputFrame, int kW, int dW, Body body) {
  const int64_t s = (kW - 1) / dW + 1;
  for (int64_t j = 0; j < s && j < nOutputFrame; j++) {
    const int64_t count = (nOutputFrame - j + s - 1) / s;
    auto windows = viewOf(frames, framesOffset + j * dW * frameSize, {count, kW * frameSize}, {s * dW * frameSize, 1});
    auto matching = viewOf(rows, rowsOffset + j * rowSize, {count, rowSize}, {s * rowSize, 1});
    body(windows.get(), matching.get());
  }
}

static void THNN_(checkTemporalWeight)(const char *fn, const char *name, THTensor *weight, int arg, int kW,
                                       const Frames &in) {
  THArgCheck(weight && weight->nDimension == 2 && weight->size[1] == kW * in.features, arg,
             "%s: %s must be outputFrameSize x (kW * inputFrameSize) = ? x %lld, got sizes %s", fn, name,
             (long long)(kW * in.features), sizesOf(weight).c_str());
}

void THNN_(TemporalConvolution_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight,
                                             THTensor *bias, int kW, int dW, int inputFrameSize, int outputFrameSize) {
  const char *fn = "TemporalConvolution_updateOutput";
  const Frames in = framesOf(fn, input, false);
  THArgCheck(in.features == inputFrameSize, 2, "%s: input sizes %s have frames of %lld features, inputFrameSize is %d",
             fn, sizesOf(input).c_str(), (long long)in.features, inputFrameSize);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, 0, 6);
  const int64_t nFrameOut = outputFrameSize, F = in.features;
  checkSizes(fn, "weight", weight, 4, {nFrameOut, kW * F});
  checkSizes(fn, "bias", bias, 5, {nFrameOut});

  auto x = contiguousOf(input);
  auto weightT = th::own(THTensor_(newTranspose)(weight, 0, 1));
  const Strided1d<THTensor> b(bias);
  resizeTo(output, in.sizes(nOut, nFrameOut));
  Contiguous<THTensor> out(output);
  scalar_t *y = out.data();
  for (int64_t i = 0; i < in.batch * nOut; i++)
    for (int64_t o = 0; o < nFrameOut; o++) y[i * nFrameOut + o] = b[o];
  for (int64_t s = 0; s < in.batch; s++)
    forEachWindowSet(
        x.get(), s * in.frames * F, F, out.get(), s * nOut * nFrameOut, nFrameOut, nOut, kW, dW,
        [&](THTensor *windows, THTensor *rows) { THTensor_(addmm)(rows, 1, rows, 1, windows, weightT.get()); });
  out.commit();
}

void THNN_(TemporalConvolution_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                                THTensor *weight, int kW, int dW) {
  const char *fn = "TemporalConvolution_updateGradInput";
  const Frames in = framesOf(fn, input, false);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, 0, 6);
  THNN_(checkTemporalWeight)(fn, "weight", weight, 5, kW, in);
  const int64_t nFrameOut = weight->size[0], F = in.features;
  checkSizes(fn, "gradOutput", gradOutput, 3, in.sizes(nOut, nFrameOut));

  auto dy = contiguousOf(gradOutput);
  resizeTo(gradInput, in.sizes(in.frames, F));
  Contiguous<THTensor> dx(gradInput);
  THTensor_(zero)(dx.get());
  for (int64_t s = 0; s < in.batch; s++)
    forEachWindowSet(
        dx.get(), s * in.frames * F, F, dy.get(), s * nOut * nFrameOut, nFrameOut, nOut, kW, dW,
        [&](THTensor *windows, THTensor *rows) { THTensor_(addmm)(windows, 1, windows, 1, rows, weight); });
  dx.commit();
}

void THNN_(TemporalConvolution_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                  accreal scale) {
  const char *fn = "TemporalConvolution_accGradParameters";
  const Frames in = framesOf(fn, input, false);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, 0, 6);
  THNN_(checkTemporalWeight)(fn, "gradWeight", gradWeight, 4, kW, in);
  const int64_t nFrameOut = gradWeight->size[0], F = in.features;
  checkSizes(fn, "gradBias", gradBias, 5, {nFrameOut});
  checkSizes(fn, "gradOutput", gradOutput, 3, in.sizes(nOut, nFrameOut));

  const scalar_t s = (scalar_t)scale;
  auto x = contiguousOf(input);
  auto dy = contiguousOf(gradOutput);
  for (int64_t n = 0; n < in.batch; n++)
    forEachWindowSet(x.get(), n * in.frames * F, F, dy.get(), n * nOut * nFrameOut, nFrameOut, nOut, kW, dW,
                     [&](THTensor *windows, THTensor *rows) {
                       auto rowsT = th::own(THTensor_(newTranspose)(rows, 0, 1));
                       THTensor_(addmm)(gradWeight, 1, gradWeight, s, rowsT.get(), windows);
                     });
  addFrameSums(gradBias, dataOf(dy.get()), in.batch * nOut, nFrameOut, s);
}

/* ---- TemporalSubSampling ---- */

void THNN_(TemporalSubSampling_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight,
                                             THTensor *bias, int kW, int dW, int inputFrameSize) {
  const char *fn = "TemporalSubSampling_updateOutput";
  const Frames in = framesOf(fn, input, false);
  THArgCheck(in.features == inputFrameSize, 2, "%s: input sizes %s have frames of %lld features, inputFrameSize is %d",
             fn, sizesOf(input).c_str(), (long long)in.features, inputFrameSize);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, 0, 6);
  const int64_t F = in.features;
  checkSizes(fn, "weight", weight, 4, {F});
  checkSizes(fn, "bias", bias, 5, {F});

  auto xt = contiguousOf(input);
  const scalar_t *x = dataOf(xt.get());
  const Strided1d<THTensor> w(weight), b(bias);
  resizeTo(output, in.sizes(nOut, F));
  Contiguous<THTensor> out(output);
  scalar_t *y = out.data();
  const int64_t frames = in.batch * nOut;
#pragma omp parallel for if (frames * kW * F > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < frames; i++) {
    const scalar_t *window = x + (i / nOut * in.frames + i % nOut * dW) * F;
    scalar_t *row = y + i * F;
    std::fill(row, row + F, scalar_t(0));
    for (int64_t k = 0; k < kW; k++)
      for (int64_t f = 0; f < F; f++) row[f] += window[k * F + f];
    for (int64_t f = 0; f < F; f++) row[f] = b[f] + w[f] * row[f];
  }
  out.commit();
}

void THNN_(TemporalSubSampling_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                                THTensor *weight, int kW, int dW) {
  const char *fn = "TemporalSubSampling_updateGradInput";
  const Frames in = framesOf(fn, input, false);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, 0, 6);
  const int64_t F = in.features;
  checkSizes(fn, "weight", weight, 5, {F});
  checkSizes(fn, "gradOutput", gradOutput, 3, in.sizes(nOut, F));

  auto dyt = contiguousOf(gradOutput);
  const scalar_t *dy = dataOf(dyt.get());
  const Strided1d<THTensor> w(weight);
  resizeTo(gradInput, in.sizes(in.frames, F));
  Contiguous<THTensor> dxt(gradInput);
  THTensor_(zero)(dxt.get());
  scalar_t *dx = dxt.data();
  // Windows overlap within a sample, so threads take whole samples.
#pragma omp parallel for if (in.batch > 1 && in.batch * nOut * kW * F > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t n = 0; n < in.batch; n++)
    for (int64_t t = 0; t < nOut; t++) {
      const scalar_t *g = dy + (n * nOut + t) * F;
      scalar_t *window = dx + (n * in.frames + t * dW) * F;
      for (int64_t k = 0; k < kW; k++)
        for (int64_t f = 0; f < F; f++) window[k * F + f] += w[f] * g[f];
    }
  dxt.commit();
}

void THNN_(TemporalSubSampling_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                  accreal scale) {
  const char *fn = "TemporalSubSampling_accGradParameters";
  const Frames in = framesOf(fn, input, false);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, 0, 6);
  const int64_t F = in.features;
  checkSizes(fn, "gradWeight", gradWeight, 4, {F});
  checkSizes(fn, "gradBias", gradBias, 5, {F});
  checkSizes(fn, "gradOutput", gradOutput, 3, in.sizes(nOut, F));

  auto xt = contiguousOf(input);
  auto dyt = contiguousOf(gradOutput);
  const scalar_t *x = dataOf(xt.get()), *dy = dataOf(dyt.get());
  std::vector<double> sum(F, 0.0);
  for (int64_t i = 0; i < in.batch * nOut; i++) {
    const scalar_t *window = x + (i / nOut * in.frames + i % nOut * dW) * F;
    for (int64_t f = 0; f < F; f++) {
      double windowSum = 0;
      for (int64_t k = 0; k < kW; k++) windowSum += window[k * F + f];
      sum[f] += dy[i * F + f] * windowSum;
    }
  }
  const Strided1d<THTensor> gw(gradWeight);
  for (int64_t f = 0; f < F; f++) gw[f] = (scalar_t)(gw[f] + scale * sum[f]);
  addFrameSums(gradBias, dy, in.batch * nOut, F, (scalar_t)scale);
}
