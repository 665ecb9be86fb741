#ifndef TH_GENERIC_FILE
#error "compiled through THNN/TemporalVolumetricConvolution.cpp"
#endif

/* ---- TemporalRowConvolution ---- */

// A sample is a volume of inputFrameSize planes, each one row of frames: vol2col unfolds
// it into finput[c][k][t] = input[c][t*dW - padW + k], and one batched GEMM over the
// planes (baddbmm) applies each row's own kernel.

static VolGeometry THNN_(rowGeometry)(const Frames &in, int64_t nOut, int kW, int dW, int padW) {
  const Axis single = {1, 1, 1, 1, 0, 1};
  return {in.features, single, single, {in.frames, nOut, kW, dW, padW, 1}};
}

// Volume strides (plane, -, -, frame) of t's sample n in the layout of `in`, and its first element.
static scalar_t *THNN_(rowSample)(THTensor *t, const Frames &in, int64_t n, int64_t *strides) {
  strides[0] = t->stride[in.featureDim];
  strides[1] = strides[2] = 0;
  strides[3] = t->stride[in.frameDim];
  return dataOf(t) + (in.batched ? n * t->stride[0] : 0);
}

// Sample n of t as features x 1 x frames (the GEMM operand of one row per plane).
static th::Owned<THTensor> THNN_(rowView)(THTensor *t, const Frames &in, int64_t n, int64_t frames) {
  int64_t strides[4];
  const ptrdiff_t offset = THNN_(rowSample)(t, in, n, strides) - dataOf(t);
  return viewOf(t, offset, {in.features, 1, frames}, {strides[0], strides[0], strides[3]});
}

static std::vector<int64_t> THNN_(rowColumnSizes)(const Frames &in, int kW, int64_t nOut) {
  if (in.batched) return {in.batch, in.features, kW, nOut};
  return {in.features, kW, nOut};
}

void THNN_(TemporalRowConvolution_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight,
                                                THTensor *bias, THTensor *finput, THTensor *, int kW, int dW, int padW,
                                                bool featFirst) {
  const char *fn = "TemporalRowConvolution_updateOutput";
  const Frames in = framesOf(fn, input, featFirst);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, padW, 8);
  const int64_t F = in.features, perSample = F * kW * nOut;
  checkSizes(fn, "weight", weight, 4, {F, 1, kW});
  checkBias(fn, "bias", bias, 5, F);

  const VolGeometry g = THNN_(rowGeometry)(in, nOut, kW, dW, padW);
  resizeTo(output, in.sizes(nOut, F));
  resizeBuffer(finput, THNN_(rowColumnSizes)(in, kW, nOut));
  Contiguous<THTensor> out(output);
  // The GEMMs add onto the bias.
  const int64_t fs = featFirst ? nOut : 1, ts = featFirst ? 1 : F;
  scalar_t *start = out.data();
  for (int64_t n = 0; n < in.batch; n++)
    for (int64_t c = 0; c < F; c++) {
      const scalar_t v = bias ? Strided1d<THTensor>(bias)[c] : scalar_t(0);
      for (int64_t t = 0; t < nOut; t++) start[n * F * nOut + c * fs + t * ts] = v;
    }
  for (int64_t n = 0; n < in.batch; n++) {
    int64_t vs[4];
    const scalar_t *x = THNN_(rowSample)(input, in, n, vs);
    vol2col(x, vs, g, dataOf(finput) + n * perSample);
    auto y = THNN_(rowView)(out.get(), in, n, nOut);
    auto columns = viewOf(finput, n * perSample, {F, kW, nOut}, {kW * nOut, nOut, 1});
    THTensor_(baddbmm)(y.get(), 1, y.get(), 1, weight, columns.get());
  }
  out.commit();
}

void THNN_(TemporalRowConvolution_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                   THTensor *gradInput, THTensor *weight, THTensor *,
                                                   THTensor *fgradInput, int kW, int dW, int padW, bool featFirst) {
  const char *fn = "TemporalRowConvolution_updateGradInput";
  const Frames in = framesOf(fn, input, featFirst);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, padW, 8);
  const int64_t F = in.features, perSample = F * kW * nOut;
  checkSizes(fn, "weight", weight, 5, {F, 1, kW});
  checkSizes(fn, "gradOutput", gradOutput, 3, in.sizes(nOut, F));

  const VolGeometry g = THNN_(rowGeometry)(in, nOut, kW, dW, padW);
  resizeBuffer(fgradInput, THNN_(rowColumnSizes)(in, kW, nOut));
  resizeTo(gradInput, in.sizes(in.frames, F));
  Contiguous<THTensor> dx(gradInput);
  THTensor_(zero)(dx.get());
  auto weightT = th::own(THTensor_(newTranspose)(weight, 1, 2));
  for (int64_t n = 0; n < in.batch; n++) {
    auto dy = THNN_(rowView)(gradOutput, in, n, nOut);
    auto columns = viewOf(fgradInput, n * perSample, {F, kW, nOut}, {kW * nOut, nOut, 1});
    THTensor_(bmm)(columns.get(), weightT.get(), dy.get());
    int64_t vs[4];
    scalar_t *sample = THNN_(rowSample)(dx.get(), in, n, vs);
    col2vol(dataOf(columns.get()), g, sample, vs);
  }
  dx.commit();
}

void THNN_(TemporalRowConvolution_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                     THTensor *, int kW, int dW, int padW, bool featFirst,
                                                     accreal scale) {
  const char *fn = "TemporalRowConvolution_accGradParameters";
  const Frames in = framesOf(fn, input, featFirst);
  const int64_t nOut = outputFrames(fn, in, input, kW, dW, padW, 8);
  const int64_t F = in.features, perSample = F * kW * nOut;
  checkSizes(fn, "gradWeight", gradWeight, 4, {F, 1, kW});
  checkBias(fn, "gradBias", gradBias, 5, F);
  checkSizes(fn, "gradOutput", gradOutput, 3, in.sizes(nOut, F));
  checkSizes(fn, "finput (updateOutput's columns)", finput, 6, THNN_(rowColumnSizes)(in, kW, nOut));

  const scalar_t s = (scalar_t)scale;
  auto columns = contiguousOf(finput);
  for (int64_t n = 0; n < in.batch; n++) {
    auto dy = THNN_(rowView)(gradOutput, in, n, nOut);
    auto columnsT = viewOf(columns.get(), n * perSample, {F, nOut, kW}, {kW * nOut, 1, nOut});
    THTensor_(baddbmm)(gradWeight, 1, gradWeight, s, dy.get(), columnsT.get());
    int64_t strides[4];
    const scalar_t *sample = THNN_(rowSample)(gradOutput, in, n, strides);
    addRowSums(gradBias, sample, F, strides[0], nOut, strides[3], s);
  }
}
