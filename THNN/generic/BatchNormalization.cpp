#ifndef TH_GENERIC_FILE
#error "compile THNN/Linear.cpp instead"
#endif

/* ---- BatchNormalization -------------------------------------------------------------
 * input is walked as [N, C, S] (S the product of the sizes after dimension 1) in a
 * contiguous copy; each channel is independent, so channels are spread over threads. */

// A per-channel tensor: NULL when allowed, else C elements.
static void THNN_(BatchNormalization_checkChannels)(const char *fn, const char *name, THTensor *t, int argNumber,
                                                    int64_t channels, bool optional) {
  THArgCheck(t || optional, argNumber, "%s: %s must not be NULL", fn, name);
  THArgCheck(!t || linear::numel(t) == channels, argNumber, "%s: %s must have %lld elements (one per channel), got %s",
             fn, name, (long long)channels, shape(t).c_str());
}

// t's elements in row-major order, or fill when t is NULL.
static std::vector<accreal> THNN_(BatchNormalization_read)(THTensor *t, int64_t channels, accreal fill) {
  std::vector<accreal> v(channels, fill);
  if (t) {
    size_t i = 0;
    th::applyInOrder([&](scalar_t &x) { v[i++] = x; }, th::ref(t));
  }
  return v;
}

static void THNN_(BatchNormalization_write)(THTensor *t, const std::vector<accreal> &v) {
  size_t i = 0;
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)v[i++]; }, th::ref(t));
}

// S: the number of values per sample and channel.
static int64_t THNN_(BatchNormalization_innerSize)(THTensor *input) {
  int64_t S = 1;
  for (int d = 2; d < input->nDimension; d++) S *= input->size[d];
  return S;
}

void THNN_(BatchNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                            THTensor *bias, THTensor *running_mean, THTensor *running_var,
                                            THTensor *save_mean, THTensor *save_std, bool train, double momentum,
                                            double eps) {
  const char *fn = "BatchNormalization_updateOutput";
  THArgCheck(input->nDimension >= 2, 2, "%s: input must be [N, C] or [N, C, ...], got %s", fn, shape(input).c_str());
  const int64_t N = input->size[0], C = input->size[1];
  const int64_t S = THNN_(BatchNormalization_innerSize)(input);
  THNN_(BatchNormalization_checkChannels)(fn, "weight", weight, 4, C, true);
  THNN_(BatchNormalization_checkChannels)(fn, "bias", bias, 5, C, true);
  THNN_(BatchNormalization_checkChannels)(fn, "running_mean", running_mean, 6, C, train);
  THNN_(BatchNormalization_checkChannels)(fn, "running_var", running_var, 7, C, train);
  THArgCheck(!train || save_mean, 8, "%s: save_mean must not be NULL in training mode", fn);
  THArgCheck(!train || save_std, 9, "%s: save_std must not be NULL in training mode", fn);
  const int64_t n = N * S;  // values per channel
  THArgCheck(!train || n > 1, 2, "%s: training needs more than one value per channel, got input %s", fn,
             shape(input).c_str());

  const std::vector<accreal> w = THNN_(BatchNormalization_read)(weight, C, 1);
  const std::vector<accreal> b = THNN_(BatchNormalization_read)(bias, C, 0);
  std::vector<accreal> mean(C), invstd(C), unbiasedVar(C);
  if (!train) {
    mean = THNN_(BatchNormalization_read)(running_mean, C, 0);
    invstd = THNN_(BatchNormalization_read)(running_var, C, 0);
    for (auto &v : invstd) v = 1 / std::sqrt(v + eps);
  }

  auto in = linear::contiguous(input);
  THTensor_(resizeAs)(output, input);
  linear::ContiguousResult<THTensor> result(output);
  const scalar_t *x = THTensor_(data)(in.get());
  scalar_t *y = result.data();
#pragma omp parallel for if (N * C * S > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t c = 0; c < C; c++) {
    if (train) {
      accreal sum = 0;
      for (int64_t p = 0; p < N; p++)
        for (int64_t s = 0; s < S; s++) sum += x[(p * C + c) * S + s];
      const accreal m = sum / n;
      accreal sq = 0;  // two passes: no cancellation in the variance
      for (int64_t p = 0; p < N; p++)
        for (int64_t s = 0; s < S; s++) {
          const accreal d = x[(p * C + c) * S + s] - m;
          sq += d * d;
        }
      mean[c] = m;
      invstd[c] = (sq == 0 && eps == 0) ? 0 : 1 / std::sqrt(sq / n + eps);
      unbiasedVar[c] = sq / (n - 1);
    }
    const accreal scale = invstd[c] * w[c], shift = b[c] - mean[c] * scale;
    for (int64_t p = 0; p < N; p++)
      for (int64_t s = 0; s < S; s++) {
        const int64_t i = (p * C + c) * S + s;
        y[i] = (scalar_t)(x[i] * scale + shift);
      }
  }
  result.commit();

  if (train) {
    THTensor_(resize1d)(save_mean, C);
    THTensor_(resize1d)(save_std, C);
    THNN_(BatchNormalization_write)(save_mean, mean);
    THNN_(BatchNormalization_write)(save_std, invstd);
    if (running_mean) {
      std::vector<accreal> r = THNN_(BatchNormalization_read)(running_mean, C, 0);
      for (int64_t c = 0; c < C; c++) r[c] = momentum * mean[c] + (1 - momentum) * r[c];
      THNN_(BatchNormalization_write)(running_mean, r);
    }
    if (running_var) {
      std::vector<accreal> r = THNN_(BatchNormalization_read)(running_var, C, 0);
      for (int64_t c = 0; c < C; c++) r[c] = momentum * unbiasedVar[c] + (1 - momentum) * r[c];
      THNN_(BatchNormalization_write)(running_var, r);
    }
  }
}

void THNN_(BatchNormalization_backward)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                        THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                        THTensor *running_mean, THTensor *running_var, THTensor *save_mean,
                                        THTensor *save_std, bool train, double scale, double eps) {
  const char *fn = "BatchNormalization_backward";
  THArgCheck(input->nDimension >= 2, 2, "%s: input must be [N, C] or [N, C, ...], got %s", fn, shape(input).c_str());
  THArgCheck(THTensor_(isSameSizeAs)(gradOutput, input), 3, "%s: gradOutput %s must have input's size %s", fn,
             shape(gradOutput).c_str(), shape(input).c_str());
  const int64_t N = input->size[0], C = input->size[1];
  const int64_t S = THNN_(BatchNormalization_innerSize)(input);
  THNN_(BatchNormalization_checkChannels)(fn, "gradWeight", gradWeight, 5, C, true);
  THNN_(BatchNormalization_checkChannels)(fn, "gradBias", gradBias, 6, C, true);
  THNN_(BatchNormalization_checkChannels)(fn, "weight", weight, 7, C, true);
  if (train) {  // the statistics the forward normalised with
    THNN_(BatchNormalization_checkChannels)(fn, "save_mean", save_mean, 10, C, false);
    THNN_(BatchNormalization_checkChannels)(fn, "save_std", save_std, 11, C, false);
  } else {
    THNN_(BatchNormalization_checkChannels)(fn, "running_mean", running_mean, 8, C, false);
    THNN_(BatchNormalization_checkChannels)(fn, "running_var", running_var, 9, C, false);
  }
  const int64_t n = N * S;

  const std::vector<accreal> w = THNN_(BatchNormalization_read)(weight, C, 1);
  std::vector<accreal> mean, invstd;
  if (train) {
    mean = THNN_(BatchNormalization_read)(save_mean, C, 0);
    invstd = THNN_(BatchNormalization_read)(save_std, C, 0);
  } else {
    mean = THNN_(BatchNormalization_read)(running_mean, C, 0);
    invstd = THNN_(BatchNormalization_read)(running_var, C, 0);
    for (auto &v : invstd) v = 1 / std::sqrt(v + eps);
  }

  auto in = linear::contiguous(input);
  auto gradOut = linear::contiguous(gradOutput);
  const scalar_t *x = THTensor_(data)(in.get());
  const scalar_t *g = THTensor_(data)(gradOut.get());
  scalar_t *gi = nullptr;
  std::optional<linear::ContiguousResult<THTensor>> result;
  if (gradInput) {
    THTensor_(resizeAs)(gradInput, input);
    result.emplace(gradInput);
    gi = result->data();
  }
  std::vector<accreal> sumG(C), dotP(C);
#pragma omp parallel for if (N * C * S > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t c = 0; c < C; c++) {
    accreal sum = 0, dot = 0;  // sum of gradOutput, and its dot product with input - mean
    for (int64_t p = 0; p < N; p++)
      for (int64_t s = 0; s < S; s++) {
        const int64_t i = (p * C + c) * S + s;
        sum += g[i];
        dot += (x[i] - mean[c]) * g[i];
      }
    sumG[c] = sum;
    dotP[c] = dot;
    if (!gi) continue;
    if (train) {
      // the batch statistics depend on input: dx = (dy - mean(dy) - xhat mean(xhat dy)) invstd w
      const accreal k = dot * invstd[c] * invstd[c] / n, gradMean = sum / n;
      for (int64_t p = 0; p < N; p++)
        for (int64_t s = 0; s < S; s++) {
          const int64_t i = (p * C + c) * S + s;
          gi[i] = (scalar_t)((g[i] - gradMean - (x[i] - mean[c]) * k) * invstd[c] * w[c]);
        }
    } else {
      // the running statistics are constants: the layer is affine
      const accreal k = invstd[c] * w[c];
      for (int64_t p = 0; p < N; p++)
        for (int64_t s = 0; s < S; s++) {
          const int64_t i = (p * C + c) * S + s;
          gi[i] = (scalar_t)(g[i] * k);
        }
    }
  }
  if (result) result->commit();

  if (gradWeight) {
    std::vector<accreal> r = THNN_(BatchNormalization_read)(gradWeight, C, 0);
    for (int64_t c = 0; c < C; c++) r[c] += scale * dotP[c] * invstd[c];
    THNN_(BatchNormalization_write)(gradWeight, r);
  }
  if (gradBias) {
    std::vector<accreal> r = THNN_(BatchNormalization_read)(gradBias, C, 0);
    for (int64_t c = 0; c < C; c++) r[c] += scale * sumG[c];
    THNN_(BatchNormalization_write)(gradBias, r);
  }
}
