#ifndef TH_GENERIC_FILE
#error "compile THNN/SpatialConvolution.cpp instead"
#endif

/* Note [transposed convolution]: the adjoint of Note [im2col convolution], with the layer's
 * output as the image that im2col / col2im walk (unfoldOutput). Per sample,
 * columns = weight^T [nOutputPlane*kH*kW, nInputPlane] @ input [nInputPlane, iH*iW] and
 * output = col2im(columns) + bias; gradInput = weight @ im2col(gradOutput) and
 * gradWeight += input @ im2col(gradOutput)^T. */

/* Checks a SpatialFullConvolution or SpatialFullDilatedConvolution call and completes its
 * shape. The weight (or gradWeight) is argument weightArg, kW argument kernelArg. */
static Conv THNN_(transposed_shape)(const char *fn, THTensor *input, THTensor *gradOutput, const char *weightName,
                                    THTensor *weight, int weightArg, const char *biasName, THTensor *bias, int biasArg,
                                    Conv c, int kernelArg, int dilationArg, int adjArg) {
  checkParams(fn, c, kernelArg, dilationArg, adjArg);
  readInput(fn, input, 2, c);
  const auto planes = readWeight(fn, weightName, weight, weightArg, c, "nInputPlane, nOutputPlane", false);
  c.outPlanes = planes.second;
  checkInputPlanes(fn, input, 2, c, planes.first, weightName, weight);
  transposedOutputSize(fn, input, 2, c);
  if (bias) checkSizes(fn, biasName, bias, biasArg, {c.outPlanes});
  if (gradOutput) checkSizes(fn, "gradOutput", gradOutput, 3, c.outputSizes());
  return c;
}

static void THNN_(transposed_updateOutput)(THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                                           THTensor *columns, const Conv &c) {
  auto in = contiguous<scalar_t>(input), w = contiguous<scalar_t>(weight), b = contiguous<scalar_t>(bias);
  const Unfold u = unfoldOutput(c);
  const int64_t rows = u.rows(), n = u.positions();
  scalar_t *col = scratch<scalar_t>(columns, c.sample({rows, n}));
  for (int64_t s = 0; s < c.batch; s++) THNN_(gemm)
  (true, false, rows, n, c.inPlanes, 1, dataOf<scalar_t>(w), rows, dataOf<scalar_t>(in) + s * c.inPlanes * n, n, 0,
   col + s * rows * n, n);
  auto out = Target<scalar_t>::result(output, c.outputSizes());
  foldBatch(u, c.batch, col, out.data(), dataOf<scalar_t>(b));
  out.finish();
}

static void THNN_(transposed_updateGradInput)(THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
                                              THTensor *gradColumns, const Conv &c) {
  auto go = contiguous<scalar_t>(gradOutput), w = contiguous<scalar_t>(weight);
  const Unfold u = unfoldOutput(c);
  const int64_t rows = u.rows(), n = u.positions();
  scalar_t *col = scratch<scalar_t>(gradColumns, c.sample({rows, n}));
  unfoldBatch(u, c.batch, dataOf<scalar_t>(go), col);
  auto gi = Target<scalar_t>::result(gradInput, c.inputSizes());
  for (int64_t s = 0; s < c.batch; s++) THNN_(gemm)
  (false, false, c.inPlanes, n, rows, 1, dataOf<scalar_t>(w), rows, col + s * rows * n, n, 0,
   gi.data() + s * c.inPlanes * n, n);
  gi.finish();
}

static void THNN_(transposed_accGradParameters)(THTensor *input, THTensor *gradOutput, THTensor *gradWeight,
                                                THTensor *gradBias, THTensor *columns, const Conv &c, scalar_t scale) {
  auto in = contiguous<scalar_t>(input), go = contiguous<scalar_t>(gradOutput);
  const Unfold u = unfoldOutput(c);
  const int64_t rows = u.rows(), n = u.positions();
  scalar_t *col = scratch<scalar_t>(columns, c.sample({rows, n}));
  unfoldBatch(u, c.batch, dataOf<scalar_t>(go), col);
  auto gw = Target<scalar_t>::accumulator(gradWeight);
  for (int64_t s = 0; s < c.batch; s++) THNN_(gemm)
  (false, true, c.inPlanes, rows, n, scale, dataOf<scalar_t>(in) + s * c.inPlanes * n, n, col + s * rows * n, n, 1,
   gw.data(), rows);
  gw.finish();
  if (gradBias) {
    auto gb = Target<scalar_t>::accumulator(gradBias);
    accumulatePlaneSums(gb.data(), dataOf<scalar_t>(go), c.batch, c.outPlanes, c.outH * c.outW, scale);
    gb.finish();
  }
}

void THNN_(SpatialFullDilatedConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                       THTensor *weight, THTensor *bias, THTensor *columns,
                                                       THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                       int padH, int dilationW, int dilationH, int adjW, int adjH) {
  const char *fn = "SpatialFullDilatedConvolution_updateOutput";
  const Conv c = THNN_(transposed_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5,
                                         Conv{kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH}, 8, 14, 16);
  checkNotNull(fn, "output", output, 3);
  checkNotNull(fn, "columns", columns, 6);
  THNN_(transposed_updateOutput)(input, output, weight, bias, columns, c);
}

void THNN_(SpatialFullDilatedConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput, THTensor *weight, THTensor *gradColumns,
                                                          int kW, int kH, int dW, int dH, int padW, int padH,
                                                          int dilationW, int dilationH, int adjW, int adjH) {
  const char *fn = "SpatialFullDilatedConvolution_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(transposed_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0,
                                         Conv{kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH}, 7, 13, 15);
  checkNotNull(fn, "gradInput", gradInput, 4);
  checkNotNull(fn, "gradColumns", gradColumns, 6);
  THNN_(transposed_updateGradInput)(gradOutput, gradInput, weight, gradColumns, c);
}

void THNN_(SpatialFullDilatedConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                            THTensor *gradWeight, THTensor *gradBias, THTensor *columns,
                                                            THTensor *ones, int kW, int kH, int dW, int dH, int padW,
                                                            int padH, int dilationW, int dilationH, int adjW, int adjH,
                                                            accreal scale) {
  const char *fn = "SpatialFullDilatedConvolution_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(transposed_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                                         Conv{kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH}, 8, 14, 16);
  checkNotNull(fn, "columns", columns, 6);
  THNN_(transposed_accGradParameters)(input, gradOutput, gradWeight, gradBias, columns, c, (scalar_t)scale);
}

void THNN_(SpatialFullConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                                THTensor *bias, THTensor *columns, THTensor *ones, int kW, int kH,
                                                int dW, int dH, int padW, int padH, int adjW, int adjH) {
  const char *fn = "SpatialFullConvolution_updateOutput";
  const Conv c = THNN_(transposed_shape)(fn, input, nullptr, "weight", weight, 4, "bias", bias, 5,
                                         Conv{kW, kH, dW, dH, padW, padH, 1, 1, adjW, adjH}, 8, 0, 14);
  checkNotNull(fn, "output", output, 3);
  checkNotNull(fn, "columns", columns, 6);
  THNN_(transposed_updateOutput)(input, output, weight, bias, columns, c);
}

void THNN_(SpatialFullConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                   THTensor *gradInput, THTensor *weight, THTensor *gradColumns, int kW,
                                                   int kH, int dW, int dH, int padW, int padH, int adjW, int adjH) {
  const char *fn = "SpatialFullConvolution_updateGradInput";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(transposed_shape)(fn, input, gradOutput, "weight", weight, 5, "", nullptr, 0,
                                         Conv{kW, kH, dW, dH, padW, padH, 1, 1, adjW, adjH}, 7, 0, 13);
  checkNotNull(fn, "gradInput", gradInput, 4);
  checkNotNull(fn, "gradColumns", gradColumns, 6);
  THNN_(transposed_updateGradInput)(gradOutput, gradInput, weight, gradColumns, c);
}

void THNN_(SpatialFullConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradWeight, THTensor *gradBias, THTensor *columns,
                                                     THTensor *ones, int kW, int kH, int dW, int dH, int padW, int padH,
                                                     int adjW, int adjH, accreal scale) {
  const char *fn = "SpatialFullConvolution_accGradParameters";
  checkNotNull(fn, "gradOutput", gradOutput, 3);
  const Conv c = THNN_(transposed_shape)(fn, input, gradOutput, "gradWeight", gradWeight, 4, "gradBias", gradBias, 5,
                                         Conv{kW, kH, dW, dH, padW, padH, 1, 1, adjW, adjH}, 8, 0, 14);
  checkNotNull(fn, "columns", columns, 6);
  THNN_(transposed_accGradParameters)(input, gradOutput, gradWeight, gradBias, columns, c, (scalar_t)scale);
}
