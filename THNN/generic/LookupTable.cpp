#ifndef TH_GENERIC_FILE
#error "compile THNN/indexed/Linear.cpp instead"
#endif

/* ---- LookupTable ------------------------------------------------------------------- */

void THNN_(LookupTable_updateOutput)(THNNState *state, THLongTensor *input, THTensor *output, THTensor *weight) {
  const char *fn = "LookupTable_updateOutput";
  THArgCheck(weight->nDimension == 2, 4, "%s: weight must be [nIndex, dim], got %s", fn, shape(weight).c_str());
  const std::vector<int64_t> rows = rowsOf(fn, "index", input, weight->size[0]);
  const int64_t n = (int64_t)rows.size(), dim = weight->size[1];

  std::vector<int64_t> size(input->size, input->size + input->nDimension);
  size.push_back(dim);
  THTensor_(resizeNd)(output, (int)size.size(), size.data(), nullptr);
  linear::ContiguousResult<THTensor> result(output);
  scalar_t *out = result.data();
  const auto w = linear::mat(weight);
#pragma omp parallel for if (n * dim > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < dim; j++) out[i * dim + j] = w(rows[i], j);
  result.commit();
}

void THNN_(LookupTable_accGradParameters)(THNNState *state, THLongTensor *input, THTensor *gradOutput,
                                          THTensor *gradWeight, THIntTensor *count, THLongTensor *sorted,
                                          THLongTensor *indices, bool scaleGradByFreq, int paddingValue,
                                          accreal scale) {
  const char *fn = "LookupTable_accGradParameters";
  THArgCheck(gradWeight->nDimension == 2, 4, "%s: gradWeight must be [nIndex, dim], got %s", fn,
             shape(gradWeight).c_str());
  const int64_t nIndex = gradWeight->size[0], dim = gradWeight->size[1];
  const std::vector<int64_t> rows = rowsOf(fn, "index", input, nIndex);
  const int64_t n = (int64_t)rows.size();
  THArgCheck(linear::numel(gradOutput) == n * dim, 3, "%s: gradOutput %s must have %lld x %lld elements for input %s",
             fn, shape(gradOutput).c_str(), (long long)n, (long long)dim, shape(input).c_str());
  THArgCheck(!scaleGradByFreq || count, 5, "%s: count must not be NULL with scaleGradByFreq", fn);

  std::vector<int64_t> freq;
  if (scaleGradByFreq) {
    freq.assign(nIndex, 0);
    for (int64_t r : rows) freq[r]++;
    THIntTensor_resize1d(count, nIndex);
    const auto c = linear::vec(count);
    for (int64_t r = 0; r < nIndex; r++) c[r] = (int)freq[r];
  }
  auto go = linear::contiguous(gradOutput);
  const scalar_t *g = THTensor_(data)(go.get());
  const auto gw = linear::mat(gradWeight);
  const int64_t paddingRow = (int64_t)paddingValue - TH_INDEX_BASE;
  // Each thread owns a range of rows and walks the whole input, so the sum of every row
  // is taken in input order, however many threads there are.
  auto accumulate = [&](int64_t first, int64_t last) {
    for (int64_t i = 0; i < n; i++) {
      const int64_t r = rows[i];
      if (r < first || r >= last || r == paddingRow) continue;
      const scalar_t s = (scalar_t)(freq.empty() ? scale : scale / freq[r]);
      for (int64_t j = 0; j < dim; j++) gw(r, j) += s * g[i * dim + j];
    }
  };
#pragma omp parallel if (n * dim > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  {
    const int64_t chunk = (nIndex + omp_get_num_threads() - 1) / omp_get_num_threads();
    const int64_t first = omp_get_thread_num() * chunk;
    accumulate(first, std::min(nIndex, first + chunk));
  }
}

void THNN_(LookupTable_renorm)(THNNState *state, THLongTensor *idx, THTensor *weight, accreal maxNorm,
                               accreal normType) {
  const char *fn = "LookupTable_renorm";
  THArgCheck(weight->nDimension == 2, 3, "%s: weight must be [nIndex, dim], got %s", fn, shape(weight).c_str());
  THArgCheck(normType > 0, 5, "%s: normType must be positive, got %g", fn, (double)normType);
  std::vector<int64_t> rows = rowsOf(fn, "index", idx, weight->size[0]);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());

  const auto w = linear::mat(weight);
  const int64_t n = (int64_t)rows.size(), dim = weight->size[1];
#pragma omp parallel for if (n * dim > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < n; i++) {
    const int64_t r = rows[i];
    accreal norm = 0;
    for (int64_t j = 0; j < dim; j++) {
      const accreal a = std::fabs((accreal)w(r, j));
      norm += normType == 1 ? a : normType == 2 ? a * a : std::pow(a, normType);
    }
    norm = std::pow(norm, 1 / normType);
    if (norm > maxNorm) {
      const scalar_t s = (scalar_t)(maxNorm / (norm + 1e-7));  // torch7's margin keeps the new norm below maxNorm
      for (int64_t j = 0; j < dim; j++) w(r, j) *= s;
    }
  }
}
