#ifndef TH_GENERIC_FILE
#error "compile THNN/Activation.cpp instead"
#endif

void THNN_(SoftMax_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  const int dim = thnn::softmax::dimOf("SoftMax_updateOutput", input);
  THTensor_(resizeAs)(output, input);
  // Each x is read before its y is written, so output may be input. Contiguous lines
  // take Note [Vector kernels]' exp and sum, in place in y.
  const auto vectorExp = th::vec::unary<scalar_t>(th::vec::Unary::Exp);
  const auto vectorSum = th::vec::sum<scalar_t>();
  th::applyDim(
      [&](th::DimSlice<scalar_t> y, th::DimSlice<scalar_t> x) {
        scalar_t max = -INFINITY;
        for (int64_t i = 0; i < x.size; i++) max = std::max(max, x[i]);
        accreal sum = 0;
        if (vectorExp && vectorSum && x.stride == 1 && y.stride == 1) {
          for (int64_t i = 0; i < x.size; i++) y.data[i] = x.data[i] - max;
          vectorExp(y.data, y.data, y.size);
          sum = vectorSum(y.data, y.size);
        } else {
          for (int64_t i = 0; i < x.size; i++) {
            y[i] = std::exp(x[i] - max);
            sum += y[i];
          }
        }
        const scalar_t inv = (scalar_t)(1 / sum);
        for (int64_t i = 0; i < x.size; i++) y[i] *= inv;
      },
      dim, th::ref(output), th::ref(input));
}

/* dx_i = y_i (g_i - sum_j g_j y_j) */
void THNN_(SoftMax_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                    THTensor *output) {
  const char *fn = "SoftMax_updateGradInput";
  const int dim = thnn::softmax::dimOf(fn, input);
  thnn::softmax::checkSameShape(fn, input, gradOutput, 3, "gradOutput");
  thnn::softmax::checkSameShape(fn, input, output, 5, "output");
  THTensor_(resizeAs)(gradInput, input);
  th::applyDim(
      [](th::DimSlice<scalar_t> gi, th::DimSlice<scalar_t> g, th::DimSlice<scalar_t> y) {
        accreal dot = 0;
        for (int64_t i = 0; i < g.size; i++) dot += (accreal)g[i] * y[i];
        const scalar_t d = (scalar_t)dot;
        for (int64_t i = 0; i < g.size; i++) gi[i] = y[i] * (g[i] - d);
      },
      dim, th::ref(gradInput), th::ref(gradOutput), th::ref(output));
}

void THNN_(LogSoftMax_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  const int dim = thnn::softmax::dimOf("LogSoftMax_updateOutput", input);
  THTensor_(resizeAs)(output, input);
  const auto vectorExp = th::vec::unary<scalar_t>(th::vec::Unary::Exp);
  const auto vectorSum = th::vec::sum<scalar_t>();
  th::applyDim(
      [&](th::DimSlice<scalar_t> y, th::DimSlice<scalar_t> x) {
        scalar_t max = -INFINITY;
        for (int64_t i = 0; i < x.size; i++) max = std::max(max, x[i]);
        accreal sum = 0;
        if (vectorExp && vectorSum && x.stride == 1) {
          // through a buffer on the stack: y may be x, which is read again below
          scalar_t chunk[kSoftMaxChunk];
          for (int64_t start = 0; start < x.size; start += kSoftMaxChunk) {
            const int64_t n = std::min(kSoftMaxChunk, x.size - start);
            for (int64_t i = 0; i < n; i++) chunk[i] = x.data[start + i] - max;
            vectorExp(chunk, chunk, n);
            sum += vectorSum(chunk, n);
          }
        } else {
          for (int64_t i = 0; i < x.size; i++) sum += std::exp(x[i] - max);
        }
        const scalar_t logSum = max + (scalar_t)std::log(sum);
        for (int64_t i = 0; i < x.size; i++) y[i] = x[i] - logSum;
      },
      dim, th::ref(output), th::ref(input));
}

/* dx_i = g_i - exp(y_i) sum_j g_j */
void THNN_(LogSoftMax_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                       THTensor *output) {
  const char *fn = "LogSoftMax_updateGradInput";
  const int dim = thnn::softmax::dimOf(fn, input);
  thnn::softmax::checkSameShape(fn, input, gradOutput, 3, "gradOutput");
  thnn::softmax::checkSameShape(fn, input, output, 5, "output");
  THTensor_(resizeAs)(gradInput, input);
  const auto vectorExp = th::vec::unary<scalar_t>(th::vec::Unary::Exp);
  th::applyDim(
      [&](th::DimSlice<scalar_t> gi, th::DimSlice<scalar_t> g, th::DimSlice<scalar_t> y) {
        accreal sum = 0;
        for (int64_t i = 0; i < g.size; i++) sum += g[i];
        const scalar_t s = (scalar_t)sum;
        if (vectorExp && y.stride == 1) {
          // chunk by chunk: gi may be g or y
          scalar_t chunk[kSoftMaxChunk];
          for (int64_t start = 0; start < g.size; start += kSoftMaxChunk) {
            const int64_t n = std::min(kSoftMaxChunk, g.size - start);
            vectorExp(chunk, y.data + start, n);
            for (int64_t i = 0; i < n; i++) gi[start + i] = g[start + i] - chunk[i] * s;
          }
        } else {
          for (int64_t i = 0; i < g.size; i++) gi[i] = g[i] - std::exp(y[i]) * s;
        }
      },
      dim, th::ref(gradInput), th::ref(gradOutput), th::ref(output));
}
