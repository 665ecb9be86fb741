#ifndef TH_GENERIC_FILE
#error "compile THNN/indexed/Linear.cpp instead"
#endif

/* ---- IndexLinear --------------------------------------------------------------------
 * Note [IndexLinear normalisation]: a weight of [inputSize, 4 + outputSize] carries, per
 * feature row, the largest |value| seen (column 0), its inverse (1), a learning-rate scale
 * (2, set to 1 by a training forward) and a shift (3); the weights proper start at column
 * 4. A value v enters as v / max + shift, or sign(v) + shift when |v| exceeds max. */

// outputSize from bias [outputSize]; weight is [inputSize, outputSize] or, normalising,
// [inputSize, 4 + outputSize]. Returns whether it normalises.
static bool THNN_(IndexLinear_checkParameters)(const char *fn, THTensor *weight, int weightArg, THTensor *bias,
                                               int biasArg) {
  THArgCheck(bias->nDimension == 1, biasArg, "%s: bias must be [outputSize], got %s", fn, shape(bias).c_str());
  const int64_t outputSize = bias->size[0];
  THArgCheck(weight->nDimension == 2 && (weight->size[1] == outputSize || weight->size[1] == outputSize + 4), weightArg,
             "%s: weight must be [inputSize, %lld] or [inputSize, %lld] (normalised), got %s", fn,
             (long long)outputSize, (long long)outputSize + 4, shape(weight).c_str());
  return weight->size[1] == outputSize + 4;
}

static void THNN_(IndexLinear_checkValues)(const char *fn, THLongTensor *keys, THTensor *values) {
  THArgCheck(values->nDimension == 1 && values->size[0] == keys->size[0], 4,
             "%s: values must be a vector like keys %s, got %s", fn, shape(keys).c_str(), shape(values).c_str());
}

// gradOutput [batch, outputSize], or [outputSize] for a batch of one.
static void THNN_(IndexLinear_checkGradOutput)(const char *fn, THTensor *gradOutput, int64_t batch,
                                               int64_t outputSize) {
  const bool ok = (gradOutput->nDimension == 2 && gradOutput->size[0] == batch && gradOutput->size[1] == outputSize) ||
                  (batch == 1 && linear::isVectorOf(gradOutput, outputSize));
  THArgCheck(ok, 7, "%s: gradOutput must be [%lld, %lld], got %s", fn, (long long)batch, (long long)outputSize,
             shape(gradOutput).c_str());
}

// One feature's SGD step on weight row r (see Note [IndexLinear normalisation]): the
// weights shrink by weightDecay and move by -learningRate gradScale grad; normalising, both
// are scaled by column 2 and the shift moves by -learningRate shiftScale (shiftGrad . weights).
static void THNN_(IndexLinear_step)(const linear::Mat<scalar_t> &w, int64_t r, int64_t outputSize, bool normalised,
                                    linear::Vec<scalar_t> shiftGrad, accreal shiftScale, linear::Vec<scalar_t> grad,
                                    accreal gradScale, accreal learningRate, accreal weightDecay) {
  const int64_t first = normalised ? 4 : 0;
  accreal rate = learningRate, decay = weightDecay;
  if (normalised) {
    rate *= w(r, 2);
    decay *= w(r, 2);
    accreal dot = 0;
    for (int64_t k = 0; k < outputSize; k++) dot += (accreal)shiftGrad[k] * w(r, first + k);
    w(r, 3) -= (scalar_t)(rate * shiftScale * dot);
  }
  for (int64_t k = 0; k < outputSize; k++) {
    scalar_t &x = w(r, first + k);
    x -= (scalar_t)(decay * x + rate * gradScale * grad[k]);
  }
}

void THNN_(IndexLinear_updateOutput)(THNNState *state, THLongTensor *keys, int64_t keysOffset, THTensor *values,
                                     THLongTensor *sizes, THLongTensor *cumSumSizes, THTensor *output, THTensor *weight,
                                     THTensor *bias, THTensor *normalizedValues, int train) {
  const char *fn = "IndexLinear_updateOutput";
  const bool normalised = THNN_(IndexLinear_checkParameters)(fn, weight, 8, bias, 9);
  THArgCheck(!normalised || normalizedValues, 10, "%s: normalizedValues must not be NULL with a normalising weight %s",
             fn, shape(weight).c_str());
  const IndexBatch batch = indexBatch(fn, keys, keysOffset, sizes, cumSumSizes, weight->size[0]);
  THNN_(IndexLinear_checkValues)(fn, keys, values);
  const int64_t nSamples = (int64_t)batch.start.size() - 1, nKeys = (int64_t)batch.rows.size();
  const int64_t outputSize = bias->size[0];

  auto vals = linear::contiguous(values);
  scalar_t *v = THTensor_(data)(vals.get());
  const auto w = linear::mat(weight);
  const auto b = linear::vec(bias);
  linear::Vec<scalar_t> x{v, 1};
  if (normalised) {
    THTensor_(resize1d)(normalizedValues, nKeys);
    x = linear::vec(normalizedValues);
    auto normalise = [&](int64_t i) {
      const int64_t r = batch.rows[i];
      const scalar_t a = std::fabs(v[i]);
      if (train) {
        if (a > w(r, 0)) {
          w(r, 0) = a;
          w(r, 1) = 1 / a;
        }
        w(r, 2) = 1;
      }
      x[i] = (a > w(r, 0) ? (scalar_t)((v[i] > 0) - (v[i] < 0)) : v[i] * w(r, 1)) + w(r, 3);
    };
    if (train) {
      // entries sharing a row see the running maximum: one thread, in order
      for (int64_t i = 0; i < nKeys; i++) normalise(i);
    } else {
#pragma omp parallel for if (nKeys > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
      for (int64_t i = 0; i < nKeys; i++) normalise(i);
    }
  }
  THTensor_(resize2d)(output, nSamples, outputSize);
  const auto out = linear::mat(output);
  const int64_t first = normalised ? 4 : 0;
#pragma omp parallel for if ((nKeys + nSamples) * outputSize > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t j = 0; j < nSamples; j++) {
    for (int64_t k = 0; k < outputSize; k++) out(j, k) = b[k];
    for (int64_t i = batch.start[j]; i < batch.start[j + 1]; i++)
      for (int64_t k = 0; k < outputSize; k++) out(j, k) += x[i] * w(batch.rows[i], first + k);
  }
}

void THNN_(IndexLinear_accGradParameters)(THNNState *state, THLongTensor *keys, int64_t keysOffset, THTensor *values,
                                          THLongTensor *sizes, THLongTensor *cumSumSizes, THTensor *gradOutput,
                                          THTensor *gradWeight, THTensor *gradBias, THTensor *weight, THTensor *bias,
                                          THTensor *valuesBuffer, accreal weightDecay, accreal scale) {
  const char *fn = "IndexLinear_accGradParameters";
  const bool normalised = THNN_(IndexLinear_checkParameters)(fn, weight, 10, bias, 11);
  const int64_t outputSize = bias->size[0];
  THArgCheck(linear::isVectorOf(gradBias, outputSize), 9, "%s: gradBias must be [%lld], got %s", fn,
             (long long)outputSize, shape(gradBias).c_str());
  const IndexBatch batch = indexBatch(fn, keys, keysOffset, sizes, cumSumSizes, weight->size[0]);
  THNN_(IndexLinear_checkValues)(fn, keys, values);
  const int64_t nSamples = (int64_t)batch.start.size() - 1, nKeys = (int64_t)batch.rows.size();
  THNN_(IndexLinear_checkGradOutput)(fn, gradOutput, nSamples, outputSize);

  const auto x = linear::vec(values);
  const auto g = linear::mat(gradOutput);
  THTensor_(resize2d)(gradWeight, nKeys, normalised ? 2 * outputSize : outputSize);
  const auto gw = linear::mat(gradWeight);
  const int64_t first = normalised ? outputSize : 0;
#pragma omp parallel for if (nKeys * outputSize > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t j = 0; j < nSamples; j++)
    for (int64_t i = batch.start[j]; i < batch.start[j + 1]; i++) {
      const scalar_t s = (scalar_t)(scale * x[i]);
      for (int64_t k = 0; k < outputSize; k++) {
        if (normalised) gw(i, k) = (scalar_t)(scale * g(j, k));  // the shift's gradient, dotted with the weights later
        gw(i, first + k) = s * g(j, k);
      }
    }
  const auto gb = linear::vec(gradBias);
  for (int64_t k = 0; k < outputSize; k++) {
    accreal sum = 0;
    for (int64_t j = 0; j < nSamples; j++) sum += g(j, k);
    gb[k] += (scalar_t)(scale * sum);
  }
}

void THNN_(IndexLinear_updateParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                         THTensor *bias, THLongTensor *runningKeys, THLongTensor *cumSumSizes,
                                         int64_t keysOffset, accreal weightDecay, accreal learningRate) {
  const char *fn = "IndexLinear_updateParameters";
  const bool normalised = THNN_(IndexLinear_checkParameters)(fn, weight, 4, bias, 5);
  const int64_t outputSize = bias->size[0];
  THArgCheck(linear::isVectorOf(gradBias, outputSize), 3, "%s: gradBias must be [%lld], got %s", fn,
             (long long)outputSize, shape(gradBias).c_str());
  const std::vector<int64_t> rows = keyRows(fn, runningKeys, 6, keysOffset, weight->size[0]);
  const int64_t nKeys = (int64_t)rows.size(), width = normalised ? 2 * outputSize : outputSize;
  THArgCheck(gradWeight->nDimension == 2 && gradWeight->size[0] == nKeys && gradWeight->size[1] == width, 2,
             "%s: gradWeight must be [%lld, %lld] for %lld keys, got %s", fn, (long long)nKeys, (long long)width,
             (long long)nKeys, shape(gradWeight).c_str());

  THTensor_(cadd)(bias, bias, (scalar_t)-learningRate, gradBias);
  const auto w = linear::mat(weight), gw = linear::mat(gradWeight);
  // rows may repeat: one thread, in order
  for (int64_t i = 0; i < nKeys; i++) {
    const linear::Vec<scalar_t> shiftGrad{&gw(i, 0), gw.s1}, grad{&gw(i, width - outputSize), gw.s1};
    THNN_(IndexLinear_step)(w, rows[i], outputSize, normalised, shiftGrad, 1, grad, 1, learningRate, weightDecay);
  }
}

void THNN_(IndexLinear_accUpdateGradParameters)(THNNState *state, THLongTensor *keys, int64_t keysOffset,
                                                THTensor *values, THLongTensor *sizes, THLongTensor *cumSumSizes,
                                                THTensor *gradOutput, THTensor *weight, THTensor *bias,
                                                accreal weightDecay, accreal scale) {
  const char *fn = "IndexLinear_accUpdateGradParameters";
  const bool normalised = THNN_(IndexLinear_checkParameters)(fn, weight, 8, bias, 9);
  const int64_t outputSize = bias->size[0];
  const IndexBatch batch = indexBatch(fn, keys, keysOffset, sizes, cumSumSizes, weight->size[0]);
  THNN_(IndexLinear_checkValues)(fn, keys, values);
  const int64_t nSamples = (int64_t)batch.start.size() - 1;
  THNN_(IndexLinear_checkGradOutput)(fn, gradOutput, nSamples, outputSize);

  const auto x = linear::vec(values);
  const auto g = linear::mat(gradOutput), w = linear::mat(weight);
  const auto b = linear::vec(bias);
  // rows may repeat: one thread, in order
  for (int64_t j = 0; j < nSamples; j++) {
    const linear::Vec<scalar_t> gj{&g(j, 0), g.s1};
    for (int64_t k = 0; k < outputSize; k++) b[k] -= (scalar_t)(scale * gj[k]);
    for (int64_t i = batch.start[j]; i < batch.start[j + 1]; i++)
      THNN_(IndexLinear_step)(w, batch.rows[i], outputSize, normalised, gj, scale, gj, scale * x[i], 1, weightDecay);
  }
}
