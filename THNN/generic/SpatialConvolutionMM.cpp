#ifndef TH_GENERIC_FILE
#error "compile THNN/SpatialConvolution.cpp instead"
#endif

/* Note [im2col convolution]: the path of double, and of float where oneDNN does not take the
 * call (Note [oneDNN convolution] in THNN/dnnl/Convolution.cpp). Per sample,
 * columns = im2col(input) [nInputPlane*kH*kW, oH*oW],
 * output = weight [nOutputPlane, nInputPlane*kH*kW] @ columns + bias,
 * gradInput = col2im(weight^T @ gradOutput) and gradWeight += gradOutput @ columns^T.
 * The column buffers hold the whole batch [B, rows, positions] so that im2col / col2im run as
 * one OpenMP loop over every (sample, plane), busy on every thread whatever the batch size;
 * the GEMMs then run one after another, each on all threads (OpenBLAS's OpenMP build shares
 * TH's pool). With the pthread build, alternating a loop and a GEMM per sample was several
 * times slower: idle OpenMP threads spin on the cores the GEMM wants. A 1x1 kernel with
 * stride 1 and no padding unfolds nothing: its columns are the input itself. */

/* Checks a SpatialConvolutionMM or SpatialDilatedConvolution call and completes its shape.
 * The weight (or gradWeight) is argument weightArg, kW argument kernelArg. */
static Conv THNN_(convolution_shape)(const char *fn, THTensor *input, THTensor *gradOutput, const char *weightName,
                                     THTensor *weight, int weightArg, const char *biasName, THTensor *bias, int biasArg,
                                     Conv c, int kernelArg, int dilationArg, bool allow2dWeight) {
  checkParams(fn, c, kernelArg, dilationArg);
  readInput(fn, input, 2, c);
  const auto planes = readWeight(fn, weightName, weight, weightArg, c, "nOutputPlane, nInputPlane", allow2dWeight);
  c.outPlanes = planes.first;
  checkInputPlanes(fn, input, 2, c, planes.second, weightName, weight);
  convolutionOutputSize(fn, input, 2, c);
  if (bias) checkSizes(fn, biasName, bias, biasArg, {c.outPlanes});
  if (gradOutput) checkSizes(fn, "gradOutput", gradOutput, 3, c.outputSizes());
  return c;
}

static void THNN_(convolution_updateOutput)(THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                                            THTensor *columns, const Conv &c) {
  auto in = contiguous<scalar_t>(input), w = contiguous<scalar_t>(weight), b = contiguous<scalar_t>(bias);
  auto out = Target<scalar_t>::result(output, c.outputSizes());
  if (!dnnlForward(c, dataOf<scalar_t>(in), dataOf<scalar_t>(w), dataOf<scalar_t>(b), out.data(), columns)) {
    const Unfold u = unfoldInput(c);
    const int64_t rows = u.rows(), n = u.positions();
    const scalar_t *col = dataOf<scalar_t>(in);
    if (!unfoldIsIdentity(c)) {
      scalar_t *unfolded = scratch<scalar_t>(columns, c.sample({rows, n}));
      unfoldBatch(u, c.batch, col, unfolded);
      col = unfolded;
    }
    for (int64_t s = 0; s < c.batch; s++) {
      scalar_t *y = out.data() + s * c.outPlanes * n;
      if (bias)
        for (int64_t o = 0; o < c.outPlanes; o++) fillPlane(y, dataOf<scalar_t>(b), o, n);
      THNN_(gemm)
      (false, false, c.outPlanes, n, rows, 1, dataOf<scalar_t>(w), rows, col + s * rows * n, n, bias ? 1 : 0, y, n);
    }
  }
  out.finish();
}

static void THNN_(convolution_updateGradInput)(THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
                                               THTensor *gradColumns, const Conv &c) {
  auto go = contiguous<scalar_t>(gradOutput), w = contiguous<scalar_t>(weight);
  auto gi = Target<scalar_t>::result(gradInput, c.inputSizes());
  if (!dnnlBackwardData(c, dataOf<scalar_t>(go), dataOf<scalar_t>(w), gi.data(), gradColumns)) {
    const Unfold u = unfoldInput(c);
    const int64_t rows = u.rows(), n = u.positions();
    const bool identity = unfoldIsIdentity(c);
    scalar_t *col = identity ? gi.data() : scratch<scalar_t>(gradColumns, c.sample({rows, n}));
    for (int64_t s = 0; s < c.batch; s++) THNN_(gemm)
    (true, false, rows, n, c.outPlanes, 1, dataOf<scalar_t>(w), rows, dataOf<scalar_t>(go) + s * c.outPlanes * n, n, 0,
     col + s * rows * n, n);
    if (!identity) foldBatch<scalar_t>(u, c.batch, col, gi.data(), nullptr);
  }
  gi.finish();
}

/* columnsFromForward: columns holds the unfolded input left by updateOutput
 * (SpatialConvolutionMM's finput), or the non-empty 1-D scratch of a oneDNN updateOutput (Note
 * [oneDNN convolution]), after which the input is unfolded again; else the input is unfolded into it. */
static void THNN_(convolution_accGradParameters)(const char *fn, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias, THTensor *columns,
                                                 bool columnsFromForward, const Conv &c, scalar_t scale) {
  auto go = contiguous<scalar_t>(gradOutput), in = contiguous<scalar_t>(input);
  auto gw = Target<scalar_t>::accumulator(gradWeight), gb = Target<scalar_t>::accumulator(gradBias);
  if (!dnnlBackwardWeights(c, dataOf<scalar_t>(in), dataOf<scalar_t>(go), gw.data(), gb.data(), scale, columns)) {
    const Unfold u = unfoldInput(c);
    const int64_t rows = u.rows(), n = u.positions();
    const std::vector<int64_t> unfolded = c.sample({rows, n});
    th::Owned<THTensor> kept;
    const scalar_t *col = dataOf<scalar_t>(in);
    if (!unfoldIsIdentity(c)) {
      if (columnsFromForward && !hasSizes(columns, unfolded)) {
        THArgCheck(columns->nDimension == 1 && columns->size[0] > 0, 6,
                   "%s: finput must hold the unfolded input left by updateOutput, sizes %s, got %s", fn,
                   sizesOf(unfolded).c_str(), sizesOf(columns).c_str());
        columnsFromForward = false;
      }
      if (!columnsFromForward) unfoldBatch(u, c.batch, col, scratch<scalar_t>(columns, unfolded));
      kept = contiguous<scalar_t>(columns);
      col = dataOf<scalar_t>(kept);
    }
    for (int64_t s = 0; s < c.batch; s++) THNN_(gemm)
    (false, true, c.outPlanes, rows, n, scale, dataOf<scalar_t>(go) + s * c.outPlanes * n, n, col + s * rows * n, n, 1,
     gw.data(), rows);
    if (gradBias) accumulatePlaneSums(gb.data(), dataOf<scalar_t>(go), c.batch, c.outPlanes, n, scale);
  }
  gw.finish();
  gb.finish();
}

void THNN_(SpatialConvolutionMM_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                              THTensor *bias, THTensor *finput, THTensor *fgradInput, int kW, int kH,
                                              int dW, int dH, int padW, int padH) {
  const char *fn = "SpatialConvolutionMM_updateOutput";
  const Conv c = THNN_(convolution_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5,
                                          Conv{kW, kH, dW, dH, padW, padH}, 8, 0, true);
  checkNotNull(fn, "output", output, 3);
  checkNotNull(fn, "finput", finput, 6);
  THNN_(convolution_updateOutput)(input, output, weight, bias, finput, c);
}

void THNN_(SpatialConvolutionMM_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                 THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                 int padH) {
  const char *fn = "SpatialConvolutionMM_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(convolution_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0,
                                          Conv{kW, kH, dW, dH, padW, padH}, 8, 0, true);
  checkNotNull(fn, "gradInput", gradInput, 4);
  checkNotNull(fn, "fgradInput", fgradInput, 7);
  THNN_(convolution_updateGradInput)(gradOutput, gradInput, weight, fgradInput, c);
}

void THNN_(SpatialConvolutionMM_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                   THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                   THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW,
                                                   int padH, accreal scale) {
  const char *fn = "SpatialConvolutionMM_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(convolution_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                                          Conv{kW, kH, dW, dH, padW, padH}, 8, 0, true);
  checkNotNull(fn, "finput", finput, 6);
  THNN_(convolution_accGradParameters)(fn, input, gradOutput, gradWeight, gradBias, finput, true, c, (scalar_t)scale);
}

void THNN_(SpatialDilatedConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THTensor *weight, THTensor *bias, THTensor *columns, THTensor *ones,
                                                   int kW, int kH, int dW, int dH, int padW, int padH, int dilationW,
                                                   int dilationH) {
  const char *fn = "SpatialDilatedConvolution_updateOutput";
  const Conv c = THNN_(convolution_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5,
                                          Conv{kW, kH, dW, dH, padW, padH, dilationW, dilationH}, 8, 14, false);
  checkNotNull(fn, "output", output, 3);
  checkNotNull(fn, "columns", columns, 6);
  THNN_(convolution_updateOutput)(input, output, weight, bias, columns, c);
}

void THNN_(SpatialDilatedConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradInput, THTensor *weight, THTensor *gradColumns,
                                                      int kW, int kH, int dW, int dH, int padW, int padH, int dilationW,
                                                      int dilationH) {
  const char *fn = "SpatialDilatedConvolution_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(convolution_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0,
                                          Conv{kW, kH, dW, dH, padW, padH, dilationW, dilationH}, 7, 13, false);
  checkNotNull(fn, "gradInput", gradInput, 4);
  checkNotNull(fn, "gradColumns", gradColumns, 6);
  THNN_(convolution_updateGradInput)(gradOutput, gradInput, weight, gradColumns, c);
}

void THNN_(SpatialDilatedConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradWeight, THTensor *gradBias, THTensor *columns,
                                                        THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                        int padH, int dilationW, int dilationH, accreal scale) {
  const char *fn = "SpatialDilatedConvolution_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(convolution_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                                          Conv{kW, kH, dW, dH, padW, padH, dilationW, dilationH}, 8, 14, false);
  checkNotNull(fn, "columns", columns, 6);
  THNN_(convolution_accGradParameters)(fn, input, gradOutput, gradWeight, gradBias, columns, false, c, (scalar_t)scale);
}
