#ifndef TH_GENERIC_FILE
#error "compiled through THNN/indexed/Criterion.cpp"
#endif

// Inputs, targets, outputs and gradInputs are read and written through their strides, so
// any layout works without copies; only weights are made contiguous. Samples are
// independent: large batches run on several threads.

// A contiguous version of an optional tensor (weights, per-sample gradOutput), read by flat index.
static th::Owned<THTensor> contiguousOrNull(THTensor *t) {
  return th::Owned<THTensor>(t ? THTensor_(newContiguous)(t) : nullptr);
}

static const scalar_t *dataOrNull(const th::Owned<THTensor> &t) { return t ? THTensor_(data)(t.get()) : nullptr; }

/* ---- ClassNLLCriterion ---- */

static void checkClassNLL(THTensor *input, THLongTensor *target, THTensor *weights, int weightsArg,
                          int64_t ignore_index) {
  criterion::checkClassNLLShapes(input, target, weights, weightsArg);
  criterion::checkTargets(target, input->size[input->nDimension - 1], TH_INDEX_BASE, &ignore_index);
}

// The weight of sample i's target class, 0 when the target is ignored.
static double nllWeight(const th::DimSlice<int64_t> &t, int64_t i, const scalar_t *w, int64_t ignore_index) {
  if (t[i] == ignore_index) return 0;
  return w ? (double)w[t[i] - TH_INDEX_BASE] : 1.0;
}

static double nllTotalWeight(const th::DimSlice<int64_t> &t, int64_t n, const scalar_t *w, int64_t ignore_index) {
  double total = 0;
  for (int64_t i = 0; i < n; i++) total += nllWeight(t, i, w, ignore_index);
  return total;
}

void THNN_(ClassNLLCriterion_updateOutput)(THNNState *, THTensor *input, THLongTensor *target, THTensor *output,
                                           bool sizeAverage, THTensor *weights, THTensor *total_weight,
                                           int64_t ignore_index, bool reduce) {
  checkClassNLL(input, target, weights, 6, ignore_index);
  auto w = contiguousOrNull(weights);
  const scalar_t *wd = dataOrNull(w);
  const auto x = criterion::rowsOf(input);
  const auto t = criterion::lineOf(target);
  const double total = nllTotalWeight(t, x.rows, wd, ignore_index);
  THTensor_(resize1d)(total_weight, 1);
  THTensor_(set1d)(total_weight, 0, (scalar_t)total);
  auto loss = [&](int64_t i) {
    const double wi = nllWeight(t, i, wd, ignore_index);
    return wi == 0 ? 0.0 : -wi * (double)x(i, t[i] - TH_INDEX_BASE);
  };
  if (!reduce && input->nDimension == 2) {
    THTensor_(resize1d)(output, x.rows);
    const auto out = criterion::lineOf(output);
    for (int64_t i = 0; i < x.rows; i++) out[i] = (scalar_t)loss(i);
    return;
  }
  double sum = 0;
  for (int64_t i = 0; i < x.rows; i++) sum += loss(i);
  // reduce=false on a vector is the one unaveraged loss (torch7)
  if (reduce && sizeAverage && total != 0) sum /= total;
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

void THNN_(ClassNLLCriterion_updateGradInput)(THNNState *, THTensor *input, THLongTensor *target, THTensor *gradOutput,
                                              THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                              THTensor *total_weight, int64_t ignore_index, bool reduce) {
  checkClassNLL(input, target, weights, 7, ignore_index);
  const bool perSample = !reduce && input->nDimension == 2;
  if (perSample) criterion::checkLossGradOutput(gradOutput, input->size[0], 4);
  const double go = perSample ? 0 : criterion::reducedGradOutput(gradOutput, 4);
  auto goc = contiguousOrNull(perSample ? gradOutput : nullptr);
  const scalar_t *god = dataOrNull(goc);
  auto w = contiguousOrNull(weights);
  const scalar_t *wd = dataOrNull(w);
  const auto x = criterion::rowsOf(input);
  const auto t = criterion::lineOf(target);
  const double total = nllTotalWeight(t, x.rows, wd, ignore_index);
  const double scale = reduce && sizeAverage && total != 0 ? go / total : go;
  THTensor_(resize1d)(total_weight, 1);
  THTensor_(set1d)(total_weight, 0, (scalar_t)total);
  THTensor_(resizeAs)(gradInput, input);
  THTensor_(zero)(gradInput);
  const auto g = criterion::rowsOf(gradInput);
  for (int64_t i = 0; i < x.rows; i++) {
    const double wi = nllWeight(t, i, wd, ignore_index);
    if (wi == 0) continue;
    const double factor = god ? (double)god[i] : scale;
    g(i, t[i] - TH_INDEX_BASE) = (scalar_t)(-wi * factor);
  }
}

/* ---- SpatialClassNLLCriterion ---- */

static void checkSpatialClassNLL(THTensor *input, THLongTensor *target, THTensor *weights, int weightsArg,
                                 int64_t ignore_index) {
  criterion::checkSpatialClassNLLShapes(input, target, weights, weightsArg);
  criterion::checkTargets(target, input->size[1], TH_INDEX_BASE, &ignore_index);
}

// Calls f(b, h, w, class, weight) for every counted pixel (ignored ones skipped); the
// pixels are spread over threads, f must only write pixel-local results.
template <typename F>
static void forEachPixel(THTensor *input, THLongTensor *target, const scalar_t *wd, int64_t ignore_index, F f) {
  const int64_t N = input->size[0], H = input->size[2], W = input->size[3];
  const int64_t *ts = target->stride;
  const int64_t *td = th::ref(target).data;
#pragma omp parallel for collapse(2) if (N * H * W > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t b = 0; b < N; b++)
    for (int64_t h = 0; h < H; h++)
      for (int64_t x = 0; x < W; x++) {
        const int64_t cls = td[b * ts[0] + h * ts[1] + x * ts[2]];
        if (cls == ignore_index) continue;
        f(b, h, x, cls - TH_INDEX_BASE, wd ? (double)wd[cls - TH_INDEX_BASE] : 1.0);
      }
}

// The sum of f(b, h, w, class, weight) over the counted pixels.
template <typename F>
static double sumOverPixels(THTensor *input, THLongTensor *target, const scalar_t *wd, int64_t ignore_index, F f) {
  const int64_t N = input->size[0], H = input->size[2], W = input->size[3];
  const int64_t *ts = target->stride;
  const int64_t *td = th::ref(target).data;
  // one term per image row (b, h)
  return th::detail::parallelSum(N * H, W > 0 ? TH_OMP_THRESHOLD / W : N * H, [&](int64_t row) {
    const int64_t b = row / H, h = row % H;
    double sum = 0;
    for (int64_t x = 0; x < W; x++) {
      const int64_t cls = td[b * ts[0] + h * ts[1] + x * ts[2]];
      if (cls != ignore_index) sum += f(b, h, x, cls - TH_INDEX_BASE, wd ? (double)wd[cls - TH_INDEX_BASE] : 1.0);
    }
    return sum;
  });
}

static double spatialTotalWeight(THTensor *input, THLongTensor *target, const scalar_t *wd, int64_t ignore_index) {
  return sumOverPixels(input, target, wd, ignore_index,
                       [](int64_t, int64_t, int64_t, int64_t, double wc) { return wc; });
}

static scalar_t &at4(THTensor *t, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
  const int64_t *s = t->stride;
  return th::ref(t).data[i0 * s[0] + i1 * s[1] + i2 * s[2] + i3 * s[3]];
}

static scalar_t &at3(THTensor *t, int64_t i0, int64_t i1, int64_t i2) {
  const int64_t *s = t->stride;
  return th::ref(t).data[i0 * s[0] + i1 * s[1] + i2 * s[2]];
}

void THNN_(SpatialClassNLLCriterion_updateOutput)(THNNState *, THTensor *input, THLongTensor *target, THTensor *output,
                                                  bool sizeAverage, THTensor *weights, THTensor *total_weight,
                                                  int64_t ignore_index, bool reduce) {
  checkSpatialClassNLL(input, target, weights, 6, ignore_index);
  auto w = contiguousOrNull(weights);
  const scalar_t *wd = dataOrNull(w);
  const double total = spatialTotalWeight(input, target, wd, ignore_index);
  THTensor_(resize1d)(total_weight, 1);
  THTensor_(set1d)(total_weight, 0, (scalar_t)total);
  if (!reduce) {
    THTensor_(resize3d)(output, input->size[0], input->size[2], input->size[3]);
    THTensor_(zero)(output);  // the ignored pixels
    forEachPixel(input, target, wd, ignore_index, [&](int64_t b, int64_t h, int64_t x, int64_t c, double wc) {
      at3(output, b, h, x) = (scalar_t)(-wc * (double)at4(input, b, c, h, x));
    });
    return;
  }
  double sum = sumOverPixels(
      input, target, wd, ignore_index,
      [&](int64_t b, int64_t h, int64_t x, int64_t c, double wc) { return -wc * (double)at4(input, b, c, h, x); });
  if (sizeAverage && total != 0) sum /= total;
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

void THNN_(SpatialClassNLLCriterion_updateGradInput)(THNNState *, THTensor *input, THLongTensor *target,
                                                     THTensor *gradOutput, THTensor *gradInput, bool sizeAverage,
                                                     THTensor *weights, THTensor *total_weight, int64_t ignore_index,
                                                     bool reduce) {
  checkSpatialClassNLL(input, target, weights, 7, ignore_index);
  if (!reduce) criterion::checkSpatialLossGradOutput(gradOutput, target);
  const double go = reduce ? criterion::reducedGradOutput(gradOutput, 4) : 0;
  auto w = contiguousOrNull(weights);
  const scalar_t *wd = dataOrNull(w);
  const double total = spatialTotalWeight(input, target, wd, ignore_index);
  const double scale = sizeAverage && total != 0 ? go / total : go;
  THTensor_(resize1d)(total_weight, 1);
  THTensor_(set1d)(total_weight, 0, (scalar_t)total);
  THTensor_(resizeAs)(gradInput, input);
  THTensor_(zero)(gradInput);
  forEachPixel(input, target, wd, ignore_index, [&](int64_t b, int64_t h, int64_t x, int64_t c, double wc) {
    const double factor = reduce ? scale : (double)at3(gradOutput, b, h, x);
    at4(gradInput, b, c, h, x) = (scalar_t)(-wc * factor);
  });
}

/* ---- MultiLabelMarginCriterion (Note [Multi-label targets]) ---- */

static void checkMultiLabel(THTensor *input, THLongTensor *target) {
  THArgCheck((input->nDimension == 1 || input->nDimension == 2) && input->size[input->nDimension - 1] > 0, 2,
             "input must be a non-empty vector (classes) or matrix (batch x classes), got sizes %s",
             criterion::sizesOf(input).c_str());
  bool same = target->nDimension == input->nDimension;
  for (int d = 0; same && d < input->nDimension; d++) same = target->size[d] == input->size[d];
  THArgCheck(same, 3, "target must have input's sizes %s, got %s", criterion::sizesOf(input).c_str(),
             criterion::sizesOf(target).c_str());
  criterion::checkTargets(target, input->size[input->nDimension - 1], TH_INDEX_BASE - 1, nullptr);
}

// Marks sample i's listed classes in its row of isTarget; returns the length of its list.
static int64_t markTargets(const criterion::Rows<int64_t> &t, int64_t i, const criterion::Rows<scalar_t> &isTarget) {
  for (int64_t d = 0; d < t.cols; d++) isTarget(i, d) = 0;
  int64_t len = 0;
  while (len < t.cols && t(i, len) != TH_INDEX_BASE - 1) isTarget(i, t(i, len++) - TH_INDEX_BASE) = 1;
  return len;
}

// Calls f(j, d, z) for every listed class j and unlisted class d of sample i whose hinge
// z = 1 - x[j] + x[d] is positive.
template <typename F>
static void forEachMultiLabelHinge(const criterion::Rows<scalar_t> &x, const criterion::Rows<int64_t> &t,
                                   const criterion::Rows<scalar_t> &isTarget, int64_t i, int64_t len, F f) {
  for (int64_t k = 0; k < len; k++) {
    const int64_t j = t(i, k) - TH_INDEX_BASE;
    const double xj = (double)x(i, j);
    for (int64_t d = 0; d < x.cols; d++) {
      if (isTarget(i, d) != 0) continue;
      const double z = 1 - xj + (double)x(i, d);
      if (z > 0) f(j, d, z);
    }
  }
}

void THNN_(MultiLabelMarginCriterion_updateOutput)(THNNState *, THTensor *input, THLongTensor *target, THTensor *output,
                                                   THTensor *isTarget, bool sizeAverage, bool reduce) {
  checkMultiLabel(input, target);
  THTensor_(resizeAs)(isTarget, input);
  const auto x = criterion::rowsOf(input);
  const auto t = criterion::rowsOf(target);
  const auto marks = criterion::rowsOf(isTarget);
  std::vector<double> losses(x.rows);
#pragma omp parallel for if (x.rows * x.cols > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < x.rows; i++) {
    const int64_t len = markTargets(t, i, marks);
    double sum = 0;
    forEachMultiLabelHinge(x, t, marks, i, len, [&](int64_t, int64_t, double z) { sum += z; });
    losses[i] = sum / (double)x.cols;
  }
  if (!reduce) {
    THTensor_(resize1d)(output, x.rows);
    const auto out = criterion::lineOf(output);
    for (int64_t i = 0; i < x.rows; i++) out[i] = (scalar_t)losses[i];
    return;
  }
  double sum = 0;
  for (double l : losses) sum += l;
  if (sizeAverage) sum /= (double)x.rows;
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

void THNN_(MultiLabelMarginCriterion_updateGradInput)(THNNState *, THTensor *input, THLongTensor *target,
                                                      THTensor *gradOutput, THTensor *gradInput, THTensor *isTarget,
                                                      bool sizeAverage, bool reduce) {
  checkMultiLabel(input, target);
  const int64_t rows = input->nDimension == 1 ? 1 : input->size[0];
  if (!reduce) criterion::checkLossGradOutput(gradOutput, rows, 4);
  const double go = reduce ? criterion::reducedGradOutput(gradOutput, 4) / (sizeAverage ? (double)rows : 1.0) : 0;
  auto goc = contiguousOrNull(reduce ? nullptr : gradOutput);
  const scalar_t *god = dataOrNull(goc);
  THTensor_(resizeAs)(isTarget, input);
  THTensor_(resizeAs)(gradInput, input);
  THTensor_(zero)(gradInput);
  const auto x = criterion::rowsOf(input);
  const auto t = criterion::rowsOf(target);
  const auto marks = criterion::rowsOf(isTarget);
  const auto g = criterion::rowsOf(gradInput);
#pragma omp parallel for if (x.rows * x.cols > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < x.rows; i++) {
    const int64_t len = markTargets(t, i, marks);
    const double scale = (god ? (double)god[i] : go) / (double)x.cols;
    forEachMultiLabelHinge(x, t, marks, i, len, [&](int64_t j, int64_t d, double) {
      g(i, j) = (scalar_t)(g(i, j) - scale);
      g(i, d) = (scalar_t)(g(i, d) + scale);
    });
  }
}

/* ---- MultiMarginCriterion ---- */

static void checkMultiMargin(THTensor *input, THLongTensor *target, int p, int pArg, THTensor *weights,
                             int weightsArg) {
  THArgCheck((input->nDimension == 1 || input->nDimension == 2) && input->size[input->nDimension - 1] > 0, 2,
             "input must be a non-empty vector (classes) or matrix (batch x classes), got sizes %s",
             criterion::sizesOf(input).c_str());
  if (input->nDimension == 1)
    THArgCheck(target->nDimension <= 1 && criterion::count(target) == 1, 3,
               "target of a vector input must have one element, got sizes %s", criterion::sizesOf(target).c_str());
  else
    THArgCheck(target->nDimension == 1 && target->size[0] == input->size[0], 3,
               "target must be a vector of %lld class indices, got sizes %s", (long long)input->size[0],
               criterion::sizesOf(target).c_str());
  THArgCheck(p == 1 || p == 2, pArg, "p must be 1 or 2, got %d", p);
  const int64_t classes = input->size[input->nDimension - 1];
  criterion::checkClassWeights(weights, classes, weightsArg);
  criterion::checkTargets(target, classes, TH_INDEX_BASE, nullptr);
}

void THNN_(MultiMarginCriterion_updateOutput)(THNNState *, THTensor *input, THLongTensor *target, THTensor *output,
                                              bool sizeAverage, int p, THTensor *weights, accreal margin, bool reduce) {
  checkMultiMargin(input, target, p, 6, weights, 7);
  auto w = contiguousOrNull(weights);
  const scalar_t *wd = dataOrNull(w);
  const auto x = criterion::rowsOf(input);
  const auto t = criterion::lineOf(target);
  std::vector<double> losses(x.rows);
#pragma omp parallel for if (x.rows * x.cols > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < x.rows; i++) {
    const int64_t y = t[i] - TH_INDEX_BASE;
    const double xy = (double)x(i, y);
    double sum = 0;
    for (int64_t d = 0; d < x.cols; d++) {
      const double z = (double)margin - xy + (double)x(i, d);
      if (d != y && z > 0) sum += p == 1 ? z : z * z;
    }
    losses[i] = (wd ? (double)wd[y] : 1.0) * sum / (double)x.cols;
  }
  if (!reduce) {
    THTensor_(resize1d)(output, x.rows);
    const auto out = criterion::lineOf(output);
    for (int64_t i = 0; i < x.rows; i++) out[i] = (scalar_t)losses[i];
    return;
  }
  double sum = 0;
  for (double l : losses) sum += l;
  if (sizeAverage) sum /= (double)x.rows;
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

void THNN_(MultiMarginCriterion_updateGradInput)(THNNState *, THTensor *input, THLongTensor *target,
                                                 THTensor *gradOutput, THTensor *gradInput, bool sizeAverage, int p,
                                                 THTensor *weights, accreal margin, bool reduce) {
  checkMultiMargin(input, target, p, 7, weights, 8);
  const int64_t rows = input->nDimension == 1 ? 1 : input->size[0];
  if (!reduce) criterion::checkLossGradOutput(gradOutput, rows, 4);
  const double go = reduce ? criterion::reducedGradOutput(gradOutput, 4) / (sizeAverage ? (double)rows : 1.0) : 0;
  auto goc = contiguousOrNull(reduce ? nullptr : gradOutput);
  const scalar_t *god = dataOrNull(goc);
  auto w = contiguousOrNull(weights);
  const scalar_t *wd = dataOrNull(w);
  THTensor_(resizeAs)(gradInput, input);
  const auto x = criterion::rowsOf(input);
  const auto t = criterion::lineOf(target);
  const auto g = criterion::rowsOf(gradInput);
#pragma omp parallel for if (x.rows * x.cols > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t i = 0; i < x.rows; i++) {
    const int64_t y = t[i] - TH_INDEX_BASE;
    const double xy = (double)x(i, y);
    const double scale = (god ? (double)god[i] : go) * (wd ? (double)wd[y] : 1.0) / (double)x.cols;
    double gy = 0;
    for (int64_t d = 0; d < x.cols; d++) {
      if (d == y) continue;
      const double z = (double)margin - xy + (double)x(i, d);
      const double gd = z > 0 ? scale * (p == 1 ? 1 : 2 * z) : 0;
      g(i, d) = (scalar_t)gd;
      gy -= gd;
    }
    g(i, y) = (scalar_t)gy;
  }
}
