#ifndef TH_GENERIC_FILE
#error "compile THNN/indexed/Linear.cpp instead"
#endif

/* ---- SparseLinear -------------------------------------------------------------------
 * Both input formats are read into a list of checked non-zero entries first; the kernels
 * then work on that list. */

typedef std::vector<SparseEntry<scalar_t>> THNN_(SparseEntries);

// input [nnz, 3]: (sample id, feature id, value) rows. nSamples < 0: sample ids unchecked
// (updateParameters and zeroGradParameters do not know the batch size).
static THNN_(SparseEntries)
    THNN_(SparseLinear_entries)(const char *fn, THTensor *input, int argNumber, int64_t nSamples, int64_t nFeatures) {
  THArgCheck(input->nDimension == 2 && input->size[1] == 3, argNumber,
             "%s: input must be [nnz, 3] (sample id, feature id, value), got %s", fn, shape(input).c_str());
  const auto m = linear::mat(input);
  THNN_(SparseEntries) entries;
  for (int64_t i = 0; i < m.rows; i++) {
    const int64_t sample = nSamples < 0 ? 0 : sparseId(fn, "sample id", m(i, 0), nSamples);
    const int64_t feature = sparseId(fn, "feature id", m(i, 1), nFeatures);
    if (m(i, 2) != 0) entries.push_back({sample, feature, m(i, 2)});
  }
  return entries;
}

// Legacy input [batch, nnz, 2]: (feature id, value) rows per sample.
static THNN_(SparseEntries)
    THNN_(SparseLinear_legacyEntries)(const char *fn, THTensor *input, int argNumber, int64_t nFeatures) {
  THArgCheck(input->nDimension == 3 && input->size[2] == 2, argNumber,
             "%s: input must be [batch, nnz, 2] (feature id, value), got %s", fn, shape(input).c_str());
  const scalar_t *data = input->storage->data + input->storageOffset;
  auto at = [&](int64_t h, int64_t i, int64_t k) {
    return data[h * input->stride[0] + i * input->stride[1] + k * input->stride[2]];
  };
  THNN_(SparseEntries) entries;
  for (int64_t h = 0; h < input->size[0]; h++)
    for (int64_t i = 0; i < input->size[1]; i++) {
      const int64_t feature = sparseId(fn, "feature id", at(h, i, 0), nFeatures);
      if (at(h, i, 1) != 0) entries.push_back({h, feature, at(h, i, 1)});
    }
  return entries;
}

// weight [outputSize, inputSize] and bias [outputSize] (or their gradients, named so).
static void THNN_(SparseLinear_checkParameters)(const char *fn, THTensor *weight, int weightArg, THTensor *bias,
                                                int biasArg, const char *weightName = "weight",
                                                const char *biasName = "bias") {
  THArgCheck(weight->nDimension == 2, weightArg, "%s: %s must be [outputSize, inputSize], got %s", fn, weightName,
             shape(weight).c_str());
  THArgCheck(bias && linear::isVectorOf(bias, weight->size[0]), biasArg, "%s: %s must be [%lld], got %s", fn, biasName,
             (long long)weight->size[0], bias ? shape(bias).c_str() : "NULL");
}

// output [batch, outputSize]: row s = bias + sum of value * weight[:, feature] over sample
// s's entries, in input order.
static void THNN_(SparseLinear_forward)(const THNN_(SparseEntries) & entries, THTensor *output, THTensor *weight,
                                        THTensor *bias) {
  const int64_t batch = output->size[0], outputSize = output->size[1];
  const Groups bySample = groupBy((int64_t)entries.size(), batch, [&](int64_t i) { return entries[i].sample; });
  const auto out = linear::mat(output), w = linear::mat(weight);
  const auto b = linear::vec(bias);
#pragma omp parallel for if ((int64_t)(entries.size() + batch) * outputSize > TH_OMP_THRESHOLD) \
    num_threads(THUsableThreads())
  for (int64_t s = 0; s < batch; s++) {
    for (int64_t k = 0; k < outputSize; k++) out(s, k) = b[k];
    for (int64_t e = bySample.start[s]; e < bySample.start[s + 1]; e++) {
      const auto &entry = entries[bySample.order[e]];
      for (int64_t k = 0; k < outputSize; k++) out(s, k) += entry.value * w(k, entry.feature);
    }
  }
}

// gradOutput [batch, outputSize], or [outputSize] for a batch of one.
static void THNN_(SparseLinear_checkGradOutput)(const char *fn, THTensor *gradOutput, int64_t batch,
                                                int64_t outputSize) {
  const bool ok = (gradOutput->nDimension == 2 && gradOutput->size[0] == batch && gradOutput->size[1] == outputSize) ||
                  (batch == 1 && linear::isVectorOf(gradOutput, outputSize));
  THArgCheck(ok, 3, "%s: gradOutput must be [%lld, %lld], got %s", fn, (long long)batch, (long long)outputSize,
             shape(gradOutput).c_str());
}

static void THNN_(SparseLinear_checkGradients)(const char *fn, THTensor *weight, THTensor *gradWeight,
                                               THTensor *gradBias) {
  THArgCheck(THTensor_(isSameSizeAs)(gradWeight, weight), 4, "%s: gradWeight %s must have weight's size %s", fn,
             shape(gradWeight).c_str(), shape(weight).c_str());
  THArgCheck(gradBias && linear::isVectorOf(gradBias, weight->size[0]), 5, "%s: gradBias must be [%lld], got %s", fn,
             (long long)weight->size[0], gradBias ? shape(gradBias).c_str() : "NULL");
}

// gradWeight[:, f] += scale value gradOutput[sample] over the entries of feature f (one
// thread per feature, entries in input order); gradBias += scale (sum of gradOutput's rows);
// gradWeight += weightDecay weight.
static void THNN_(SparseLinear_backward)(const THNN_(SparseEntries) & entries, THTensor *gradOutput,
                                         THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                         accreal weightDecay, accreal scale) {
  const int64_t outputSize = gradWeight->size[0], nFeatures = gradWeight->size[1];
  const Groups byFeature = groupBy((int64_t)entries.size(), nFeatures, [&](int64_t i) { return entries[i].feature; });
  const auto g = linear::mat(gradOutput), gw = linear::mat(gradWeight);
#pragma omp parallel for if ((int64_t)entries.size() * outputSize > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t f = 0; f < nFeatures; f++)
    for (int64_t e = byFeature.start[f]; e < byFeature.start[f + 1]; e++) {
      const auto &entry = entries[byFeature.order[e]];
      const scalar_t s = (scalar_t)(scale * entry.value);
      for (int64_t k = 0; k < outputSize; k++) gw(k, f) += s * g(entry.sample, k);
    }
  const auto gb = linear::vec(gradBias);
  for (int64_t k = 0; k < outputSize; k++) {
    accreal sum = 0;
    for (int64_t s = 0; s < g.rows; s++) sum += g(s, k);
    gb[k] += (scalar_t)(scale * sum);
  }
  if (weightDecay != 0) THTensor_(cadd)(gradWeight, gradWeight, (scalar_t)weightDecay, weight);
}

// The features present in entries, each once.
static std::vector<int64_t> THNN_(SparseLinear_features)(const THNN_(SparseEntries) & entries) {
  std::vector<int64_t> features;
  for (const auto &entry : entries) features.push_back(entry.feature);
  std::sort(features.begin(), features.end());
  features.erase(std::unique(features.begin(), features.end()), features.end());
  return features;
}

static void THNN_(SparseLinear_step)(const THNN_(SparseEntries) & entries, THTensor *weight, THTensor *bias,
                                     THTensor *gradWeight, THTensor *gradBias, accreal learningRate) {
  THTensor_(cadd)(bias, bias, (scalar_t)-learningRate, gradBias);
  const std::vector<int64_t> features = THNN_(SparseLinear_features)(entries);
  const auto w = linear::mat(weight), gw = linear::mat(gradWeight);
  const int64_t n = (int64_t)features.size(), outputSize = weight->size[0];
#pragma omp parallel for if (n * outputSize > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = 0; k < outputSize; k++) w(k, features[i]) -= (scalar_t)learningRate * gw(k, features[i]);
}

static void THNN_(SparseLinear_zero)(const THNN_(SparseEntries) & entries, THTensor *gradWeight, THTensor *gradBias) {
  THTensor_(zero)(gradBias);
  const auto gw = linear::mat(gradWeight);
  for (int64_t f : THNN_(SparseLinear_features)(entries))
    for (int64_t k = 0; k < gw.rows; k++) gw(k, f) = 0;
}

void THNN_(SparseLinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                      THTensor *bias) {
  const char *fn = "SparseLinear_updateOutput";
  THNN_(SparseLinear_checkParameters)(fn, weight, 4, bias, 5);
  THArgCheck(output->nDimension == 2 && output->size[1] == weight->size[0], 3,
             "%s: output must be [batch, %lld], sized by the caller, got %s", fn, (long long)weight->size[0],
             shape(output).c_str());
  const auto entries = THNN_(SparseLinear_entries)(fn, input, 2, output->size[0], weight->size[1]);
  THNN_(SparseLinear_forward)(entries, output, weight, bias);
}

void THNN_(SparseLinear_legacyUpdateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                            THTensor *bias) {
  const char *fn = "SparseLinear_legacyUpdateOutput";
  THNN_(SparseLinear_checkParameters)(fn, weight, 4, bias, 5);
  const auto entries = THNN_(SparseLinear_legacyEntries)(fn, input, 2, weight->size[1]);
  THTensor_(resize2d)(output, input->size[0], weight->size[0]);
  THNN_(SparseLinear_forward)(entries, output, weight, bias);
}

void THNN_(SparseLinear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                           THTensor *gradWeight, THTensor *gradBias, THTensor *weight, THTensor *bias,
                                           accreal weightDecay, accreal scale) {
  const char *fn = "SparseLinear_accGradParameters";
  THNN_(SparseLinear_checkParameters)(fn, weight, 7, bias, 8);
  THNN_(SparseLinear_checkGradients)(fn, weight, gradWeight, gradBias);
  THArgCheck(gradOutput->nDimension == 1 || gradOutput->nDimension == 2, 3,
             "%s: gradOutput must be [batch, %lld], got %s", fn, (long long)weight->size[0], shape(gradOutput).c_str());
  const int64_t batch = gradOutput->nDimension == 2 ? gradOutput->size[0] : 1;
  THNN_(SparseLinear_checkGradOutput)(fn, gradOutput, batch, weight->size[0]);
  const auto entries = THNN_(SparseLinear_entries)(fn, input, 2, batch, weight->size[1]);
  THNN_(SparseLinear_backward)(entries, gradOutput, gradWeight, gradBias, weight, weightDecay, scale);
}

void THNN_(SparseLinear_legacyAccGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                                 THTensor *bias, accreal weightDecay, accreal scale) {
  const char *fn = "SparseLinear_legacyAccGradParameters";
  THNN_(SparseLinear_checkParameters)(fn, weight, 7, bias, 8);
  THNN_(SparseLinear_checkGradients)(fn, weight, gradWeight, gradBias);
  const auto entries = THNN_(SparseLinear_legacyEntries)(fn, input, 2, weight->size[1]);
  THNN_(SparseLinear_checkGradOutput)(fn, gradOutput, input->size[0], weight->size[0]);
  THNN_(SparseLinear_backward)(entries, gradOutput, gradWeight, gradBias, weight, weightDecay, scale);
}

void THNN_(SparseLinear_updateParameters)(THNNState *state, THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                          THTensor *gradBias, THTensor *lastInput, accreal learningRate) {
  const char *fn = "SparseLinear_updateParameters";
  THNN_(SparseLinear_checkParameters)(fn, weight, 2, bias, 3);
  THNN_(SparseLinear_checkGradients)(fn, weight, gradWeight, gradBias);
  const auto entries = THNN_(SparseLinear_entries)(fn, lastInput, 6, -1, weight->size[1]);
  THNN_(SparseLinear_step)(entries, weight, bias, gradWeight, gradBias, learningRate);
}

void THNN_(SparseLinear_legacyUpdateParameters)(THNNState *state, THTensor *weight, THTensor *bias,
                                                THTensor *gradWeight, THTensor *gradBias, THTensor *lastInput,
                                                accreal learningRate) {
  const char *fn = "SparseLinear_legacyUpdateParameters";
  THNN_(SparseLinear_checkParameters)(fn, weight, 2, bias, 3);
  THNN_(SparseLinear_checkGradients)(fn, weight, gradWeight, gradBias);
  const auto entries = THNN_(SparseLinear_legacyEntries)(fn, lastInput, 6, weight->size[1]);
  THNN_(SparseLinear_step)(entries, weight, bias, gradWeight, gradBias, learningRate);
}

void THNN_(SparseLinear_zeroGradParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                            THTensor *lastInput) {
  const char *fn = "SparseLinear_zeroGradParameters";
  THNN_(SparseLinear_checkParameters)(fn, gradWeight, 2, gradBias, 3, "gradWeight", "gradBias");
  const auto entries = THNN_(SparseLinear_entries)(fn, lastInput, 4, -1, gradWeight->size[1]);
  THNN_(SparseLinear_zero)(entries, gradWeight, gradBias);
}

void THNN_(SparseLinear_legacyZeroGradParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                                  THTensor *lastInput) {
  const char *fn = "SparseLinear_legacyZeroGradParameters";
  THNN_(SparseLinear_checkParameters)(fn, gradWeight, 2, gradBias, 3, "gradWeight", "gradBias");
  const auto entries = THNN_(SparseLinear_legacyEntries)(fn, lastInput, 4, gradWeight->size[1]);
  THNN_(SparseLinear_zero)(entries, gradWeight, gradBias);
}
