#ifndef TH_GENERIC_FILE
#error "compiled through THNN/TemporalVolumetricConvolution.cpp"
#endif

// Sample n of a (batch x) planes x t x h x w tensor: its first element and strides (plane, t, h, w).
static scalar_t *THNN_(volumeSample)(THTensor *t, const Volumetric &v, int64_t n, int64_t *strides) {
  const int first = v.batched ? 1 : 0;
  for (int i = 0; i < 4; i++) strides[i] = t->stride[first + i];
  return dataOf(t) + (v.batched ? n * t->stride[0] : 0);
}

/* ---- VolumetricConvolutionMM and VolumetricDilatedConvolution: vol2col + GEMM ---- */

// columns = vol2col(input), output = weight (planes x K) . columns + bias, per sample.
// keepColumns (MM): every sample's columns stay in `columns`, batch x K x N, for
// accGradParameters; otherwise one sample's K x N is reused.
static void THNN_(convolutionOutput)(THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                                     THTensor *columns, const Volumetric &v, bool keepColumns) {
  const VolGeometry &g = v.geometry;
  const int64_t K = g.rows(), N = g.cols(), planes = v.outPlanes;
  resizeTo(output, v.outputSizes());
  if (keepColumns && v.batched)
    resizeBuffer(columns, {v.batch, K, N});
  else
    resizeBuffer(columns, {K, N});
  Contiguous<THTensor> out(output);
  auto w = matrixOf(weight, planes, K);
  for (int64_t n = 0; n < v.batch; n++) {
    int64_t vs[4];
    const scalar_t *x = THNN_(volumeSample)(input, v, n, vs);
    const int64_t at = keepColumns ? n * K * N : 0;
    vol2col(x, vs, g, dataOf(columns) + at);
    auto cols = viewOf(columns, at, {K, N}, {N, 1});
    auto y = viewOf(out.get(), n * planes * N, {planes, N}, {N, 1});
    THTensor_(addmm)(y.get(), 0, y.get(), 1, w.get(), cols.get());
    addBias(dataOf(y.get()), planes, N, bias);
  }
  out.commit();
}

// gradInput = col2vol(weight^T . gradOutput), sample by sample through gradColumns (K x N).
static void THNN_(convolutionGradInput)(THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
                                        THTensor *gradColumns, const Volumetric &v) {
  const VolGeometry &g = v.geometry;
  const int64_t K = g.rows(), N = g.cols(), planes = v.outPlanes;
  resizeBuffer(gradColumns, {K, N});
  resizeTo(gradInput, v.inputSizes());
  Contiguous<THTensor> dx(gradInput);
  THTensor_(zero)(dx.get());
  auto w = matrixOf(weight, planes, K);
  auto wT = th::own(THTensor_(newTranspose)(w.get(), 0, 1));
  auto dyt = contiguousOf(gradOutput);
  auto cols = viewOf(gradColumns, 0, {K, N}, {N, 1});
  for (int64_t n = 0; n < v.batch; n++) {
    auto dy = viewOf(dyt.get(), n * planes * N, {planes, N}, {N, 1});
    THTensor_(addmm)(cols.get(), 0, cols.get(), 1, wT.get(), dy.get());
    int64_t vs[4];
    col2vol(dataOf(gradColumns), g, THNN_(volumeSample)(dx.get(), v, n, vs), vs);
  }
  dx.commit();
}

// gradWeight += scale gradOutput . columns^T, gradBias += scale * plane sums of gradOutput.
// storedColumns (MM): `columns` holds updateOutput's columns of every sample; otherwise
// each sample's columns are recomputed into it.
static void THNN_(convolutionAccGrad)(THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                      THTensor *columns, const Volumetric &v, bool storedColumns, scalar_t scale) {
  const VolGeometry &g = v.geometry;
  const int64_t K = g.rows(), N = g.cols(), planes = v.outPlanes;
  th::Owned<THTensor> stored;
  if (storedColumns)
    stored = contiguousOf(columns);
  else
    resizeBuffer(columns, {K, N});
  THTensor *source = storedColumns ? stored.get() : columns;
  Contiguous<THTensor> gw(gradWeight);
  auto gw2 = viewOf(gw.get(), 0, {planes, K}, {K, 1});
  auto dyt = contiguousOf(gradOutput);
  for (int64_t n = 0; n < v.batch; n++) {
    const int64_t at = storedColumns ? n * K * N : 0;
    if (!storedColumns) {
      int64_t vs[4];
      vol2col<scalar_t>(THNN_(volumeSample)(input, v, n, vs), vs, g, dataOf(columns));
    }
    auto colsT = viewOf(source, at, {N, K}, {1, N});
    auto dy = viewOf(dyt.get(), n * planes * N, {planes, N}, {N, 1});
    THTensor_(addmm)(gw2.get(), 1, gw2.get(), scale, dy.get(), colsT.get());
    addRowSums(gradBias, dataOf(dy.get()), planes, N, N, 1, scale);
  }
  gw.commit();
}

// Checks shared by the MM and dilated kernels; weight is weight or gradWeight.
static Volumetric THNN_(checkConvolution)(const char *fn, THTensor *input, THTensor *weight, const char *weightName,
                                          int weightArg, const ConvParams &c) {
  checkParams(fn, c, false);
  const auto planes = weightPlanes(fn, weightName, weight, weightArg, c, "nOutputPlane x nInputPlane x kT x kH x kW");
  return volumetricOf(fn, input, planes.second, planes.first, c, false);
}

/* ---- VolumetricConvolutionMM ---- */

void THNN_(VolumetricConvolutionMM_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight,
                                                 THTensor *bias, THTensor *finput, THTensor *, int kT, int kW, int kH,
                                                 int dT, int dW, int dH, int pT, int pW, int pH) {
  const char *fn = "VolumetricConvolutionMM_updateOutput";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {1, 1, 1}, 8};
  const Volumetric v = THNN_(checkConvolution)(fn, input, weight, "weight", 4, c);
  checkBias(fn, "bias", bias, 5, v.outPlanes);
  THNN_(convolutionOutput)(input, output, weight, bias, finput, v, true);
}

void THNN_(VolumetricConvolutionMM_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, THTensor *weight, THTensor *,
                                                    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW,
                                                    int dH, int pT, int pW, int pH) {
  const char *fn = "VolumetricConvolutionMM_updateGradInput";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {1, 1, 1}, 8};
  const Volumetric v = THNN_(checkConvolution)(fn, input, weight, "weight", 5, c);
  checkSizes(fn, "gradOutput", gradOutput, 3, v.outputSizes());
  THNN_(convolutionGradInput)(gradOutput, gradInput, weight, fgradInput, v);
}

void THNN_(VolumetricConvolutionMM_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                      THTensor *, int kT, int kW, int kH, int dT, int dW, int dH,
                                                      int pT, int pW, int pH, accreal scale) {
  const char *fn = "VolumetricConvolutionMM_accGradParameters";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {1, 1, 1}, 8};
  const Volumetric v = THNN_(checkConvolution)(fn, input, gradWeight, "gradWeight", 4, c);
  checkBias(fn, "gradBias", gradBias, 5, v.outPlanes);
  checkSizes(fn, "gradOutput", gradOutput, 3, v.outputSizes());
  const int64_t K = v.geometry.rows(), N = v.geometry.cols();
  checkSizes(fn, "finput (updateOutput's columns)", finput, 6,
             v.batched ? std::vector<int64_t>{v.batch, K, N} : std::vector<int64_t>{K, N});
  THNN_(convolutionAccGrad)(input, gradOutput, gradWeight, gradBias, finput, v, true, (scalar_t)scale);
}

/* ---- VolumetricDilatedConvolution ---- */

void THNN_(VolumetricDilatedConvolution_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight,
                                                      THTensor *bias, THTensor *columns, THTensor *, int kT, int kW,
                                                      int kH, int dT, int dW, int dH, int padT, int padW, int padH,
                                                      int dilationT, int dilationW, int dilationH) {
  const char *fn = "VolumetricDilatedConvolution_updateOutput";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {padT, padH, padW}, {dilationT, dilationH, dilationW}, 8};
  const Volumetric v = THNN_(checkConvolution)(fn, input, weight, "weight", 4, c);
  checkBias(fn, "bias", bias, 5, v.outPlanes);
  THNN_(convolutionOutput)(input, output, weight, bias, columns, v, false);
}

void THNN_(VolumetricDilatedConvolution_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                         THTensor *gradInput, THTensor *weight, THTensor *gradColumns,
                                                         int kT, int kW, int kH, int dT, int dW, int dH, int padT,
                                                         int padW, int padH, int dilationT, int dilationW,
                                                         int dilationH) {
  const char *fn = "VolumetricDilatedConvolution_updateGradInput";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {padT, padH, padW}, {dilationT, dilationH, dilationW}, 7};
  const Volumetric v = THNN_(checkConvolution)(fn, input, weight, "weight", 5, c);
  checkSizes(fn, "gradOutput", gradOutput, 3, v.outputSizes());
  THNN_(convolutionGradInput)(gradOutput, gradInput, weight, gradColumns, v);
}

void THNN_(VolumetricDilatedConvolution_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                           THTensor *gradWeight, THTensor *gradBias, THTensor *columns,
                                                           THTensor *, int kT, int kW, int kH, int dT, int dW, int dH,
                                                           int padT, int padW, int padH, int dilationT, int dilationW,
                                                           int dilationH, accreal scale) {
  const char *fn = "VolumetricDilatedConvolution_accGradParameters";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {padT, padH, padW}, {dilationT, dilationH, dilationW}, 8};
  const Volumetric v = THNN_(checkConvolution)(fn, input, gradWeight, "gradWeight", 4, c);
  checkBias(fn, "gradBias", gradBias, 5, v.outPlanes);
  checkSizes(fn, "gradOutput", gradOutput, 3, v.outputSizes());
  THNN_(convolutionAccGrad)(input, gradOutput, gradWeight, gradBias, columns, v, false, (scalar_t)scale);
}

/* ---- VolumetricFullConvolution ---- */

// The transposed convolution runs the MM kernels' steps backwards: its geometry takes the
// output as the volume and the input positions as the columns (K = nOutputPlane * taps,
// N = input volume). Forward: columns = weight^T . input, output = col2vol(columns) + bias.

static Volumetric THNN_(checkFull)(const char *fn, THTensor *input, THTensor *weight, const char *weightName,
                                   int weightArg, const ConvParams &c) {
  checkParams(fn, c, true);
  const auto planes = weightPlanes(fn, weightName, weight, weightArg, c, "nInputPlane x nOutputPlane x kT x kH x kW");
  return volumetricOf(fn, input, planes.first, planes.second, c, true);
}

void THNN_(VolumetricFullConvolution_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight,
                                                   THTensor *bias, THTensor *finput, THTensor *, int kT, int kW, int kH,
                                                   int dT, int dW, int dH, int pT, int pW, int pH, int aT, int aW,
                                                   int aH) {
  const char *fn = "VolumetricFullConvolution_updateOutput";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {aT, aH, aW}, 8};
  const Volumetric v = THNN_(checkFull)(fn, input, weight, "weight", 4, c);
  checkBias(fn, "bias", bias, 5, v.outPlanes);

  const VolGeometry &g = v.geometry;
  const int64_t K = g.rows(), N = g.cols(), outVolume = v.outVolume();
  resizeBuffer(finput, {K, N});
  resizeTo(output, v.outputSizes());
  Contiguous<THTensor> out(output);
  THTensor_(zero)(out.get());
  auto xt = contiguousOf(input);
  auto w = matrixOf(weight, v.inPlanes, K);
  auto wT = th::own(THTensor_(newTranspose)(w.get(), 0, 1));
  auto cols = viewOf(finput, 0, {K, N}, {N, 1});
  for (int64_t n = 0; n < v.batch; n++) {
    auto x = viewOf(xt.get(), n * v.inPlanes * N, {v.inPlanes, N}, {N, 1});
    THTensor_(addmm)(cols.get(), 0, cols.get(), 1, wT.get(), x.get());
    int64_t vs[4];
    scalar_t *y = THNN_(volumeSample)(out.get(), v, n, vs);
    col2vol(dataOf(finput), g, y, vs);
    addBias(y, v.outPlanes, outVolume, bias);
  }
  out.commit();
}

void THNN_(VolumetricFullConvolution_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                      THTensor *gradInput, THTensor *weight, THTensor *finput,
                                                      THTensor *, int kT, int kW, int kH, int dT, int dW, int dH,
                                                      int pT, int pW, int pH, int aT, int aW, int aH) {
  const char *fn = "VolumetricFullConvolution_updateGradInput";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {aT, aH, aW}, 8};
  const Volumetric v = THNN_(checkFull)(fn, input, weight, "weight", 5, c);
  checkSizes(fn, "gradOutput", gradOutput, 3, v.outputSizes());

  const VolGeometry &g = v.geometry;
  const int64_t K = g.rows(), N = g.cols();
  resizeBuffer(finput, {K, N});
  resizeTo(gradInput, v.inputSizes());
  Contiguous<THTensor> dx(gradInput);
  auto w = matrixOf(weight, v.inPlanes, K);
  auto cols = viewOf(finput, 0, {K, N}, {N, 1});
  for (int64_t n = 0; n < v.batch; n++) {
    int64_t vs[4];
    vol2col<scalar_t>(THNN_(volumeSample)(gradOutput, v, n, vs), vs, g, dataOf(finput));
    auto d = viewOf(dx.get(), n * v.inPlanes * N, {v.inPlanes, N}, {N, 1});
    THTensor_(addmm)(d.get(), 0, d.get(), 1, w.get(), cols.get());
  }
  dx.commit();
}

void THNN_(VolumetricFullConvolution_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradWeight, THTensor *gradBias, THTensor *finput,
                                                        THTensor *, int kT, int kW, int kH, int dT, int dW, int dH,
                                                        int pT, int pW, int pH, int aT, int aW, int aH, accreal scale) {
  const char *fn = "VolumetricFullConvolution_accGradParameters";
  const ConvParams c = {{kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {aT, aH, aW}, 8};
  const Volumetric v = THNN_(checkFull)(fn, input, gradWeight, "gradWeight", 4, c);
  checkBias(fn, "gradBias", gradBias, 5, v.outPlanes);
  checkSizes(fn, "gradOutput", gradOutput, 3, v.outputSizes());

  const VolGeometry &g = v.geometry;
  const int64_t K = g.rows(), N = g.cols(), outVolume = v.outVolume();
  const scalar_t s = (scalar_t)scale;
  resizeBuffer(finput, {K, N});
  Contiguous<THTensor> gw(gradWeight);
  auto gw2 = viewOf(gw.get(), 0, {v.inPlanes, K}, {K, 1});
  auto xt = contiguousOf(input);
  auto dyt = contiguousOf(gradOutput);
  auto colsT = viewOf(finput, 0, {N, K}, {1, N});
  for (int64_t n = 0; n < v.batch; n++) {
    int64_t vs[4];
    const scalar_t *dy = THNN_(volumeSample)(dyt.get(), v, n, vs);
    vol2col(dy, vs, g, dataOf(finput));
    auto x = viewOf(xt.get(), n * v.inPlanes * N, {v.inPlanes, N}, {N, 1});
    THTensor_(addmm)(gw2.get(), 1, gw2.get(), s, x.get(), colsT.get());
    addRowSums(gradBias, dy, v.outPlanes, outVolume, outVolume, 1, s);
  }
  gw.commit();
}
