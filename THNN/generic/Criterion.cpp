#ifndef TH_GENERIC_FILE
#error "compiled through THNN/Criterion.cpp"
#endif

// The element-wise criterions share two drivers (overloaded per type through THTensor):
// a kernel checks its own arguments, then hands over its loss(x, y) or derivative
// d loss / d x (formulas in THNN/Criterion.cpp). weights (BCE's, else NULL) multiply each
// element's loss.

static void checkPointwise(THTensor *input, THTensor *target, THTensor *weights, int weightsArg) {
  const int64_t n = criterion::count(input);
  THArgCheck(criterion::count(target) == n, 3, "target must have as many elements as input %s, got sizes %s",
             criterion::sizesOf(input).c_str(), criterion::sizesOf(target).c_str());
  if (weights)
    THArgCheck(criterion::count(weights) == n, weightsArg,
               "weights must have as many elements as input %s, got sizes %s", criterion::sizesOf(input).c_str(),
               criterion::sizesOf(weights).c_str());
}

template <typename Loss>
static void pointwiseOutput(THTensor *input, THTensor *target, THTensor *weights, THTensor *output, bool sizeAverage,
                            bool reduce, Loss loss) {
  if (!reduce) {
    THTensor_(resizeAs)(output, input);
    if (weights)
      th::apply([&](scalar_t &o, scalar_t &x, scalar_t &y, scalar_t &w) { o = (scalar_t)(w * loss(x, y)); },
                th::ref(output), th::ref(input), th::ref(target), th::ref(weights));
    else
      th::apply([&](scalar_t &o, scalar_t &x, scalar_t &y) { o = (scalar_t)loss(x, y); }, th::ref(output),
                th::ref(input), th::ref(target));
    return;
  }
  double sum = weights ? criterion::sumOf([&](scalar_t x, scalar_t y, scalar_t w) { return w * loss(x, y); }, input,
                                          target, weights)
                       : criterion::sumOf(loss, input, target);
  if (sizeAverage) sum /= (double)criterion::count(input);
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

template <typename Grad>
static void pointwiseGradInput(THTensor *input, THTensor *target, THTensor *weights, THTensor *gradOutput,
                               THTensor *gradInput, bool sizeAverage, bool reduce, Grad grad) {
  const int64_t n = criterion::count(input);
  if (!reduce) {
    criterion::checkLossGradOutput(gradOutput, n, 4);
    THTensor_(resizeAs)(gradInput, input);
    if (weights)
      th::apply([&](scalar_t &gi, scalar_t &x, scalar_t &y, scalar_t &w,
                    scalar_t &go) { gi = (scalar_t)(go * w * grad(x, y)); },
                th::ref(gradInput), th::ref(input), th::ref(target), th::ref(weights), th::ref(gradOutput));
    else
      th::apply([&](scalar_t &gi, scalar_t &x, scalar_t &y, scalar_t &go) { gi = (scalar_t)(go * grad(x, y)); },
                th::ref(gradInput), th::ref(input), th::ref(target), th::ref(gradOutput));
    return;
  }
  const double scale = criterion::reducedGradOutput(gradOutput, 4) / (sizeAverage && n > 0 ? (double)n : 1.0);
  THTensor_(resizeAs)(gradInput, input);
  if (weights)
    th::apply([&](scalar_t &gi, scalar_t &x, scalar_t &y, scalar_t &w) { gi = (scalar_t)(scale * w * grad(x, y)); },
              th::ref(gradInput), th::ref(input), th::ref(target), th::ref(weights));
  else
    th::apply([&](scalar_t &gi, scalar_t &x, scalar_t &y) { gi = (scalar_t)(scale * grad(x, y)); }, th::ref(gradInput),
              th::ref(input), th::ref(target));
}

/* ---- AbsCriterion ---- */

void THNN_(AbsCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                      bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::absLoss);
}

void THNN_(AbsCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                         THTensor *gradInput, bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::absGrad);
}

/* ---- BCECriterion ---- */

static void checkProbabilities(THTensor *input) {
  auto bad = [](double v) { return !(v >= 0 && v <= 1); };  // NaN is bad too
  const double found = th::reduceAll(
      th::ref(input), 0.5, [&](double acc, scalar_t x) { return bad(acc) ? acc : (double)x; },
      [&](double a, double b) { return bad(a) ? a : b; });
  THArgCheck(!bad(found), 2, "BCECriterion input values must lie in [0, 1], got %g", found);
}

void THNN_(BCECriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                      bool sizeAverage, THTensor *weights, bool reduce) {
  checkPointwise(input, target, weights, 6);
  checkProbabilities(input);
  pointwiseOutput(input, target, weights, output, sizeAverage, reduce, criterion::bceLoss);
}

void THNN_(BCECriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                         THTensor *gradInput, bool sizeAverage, THTensor *weights, bool reduce) {
  checkPointwise(input, target, weights, 7);
  checkProbabilities(input);
  pointwiseGradInput(input, target, weights, gradOutput, gradInput, sizeAverage, reduce, criterion::bceGrad);
}

/* ---- DistKLDivCriterion ---- */

void THNN_(DistKLDivCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                            bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::klLoss);
}

void THNN_(DistKLDivCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                               THTensor *gradInput, bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::klGrad);
}

/* ---- L1Cost ---- */

void THNN_(L1Cost_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  const double sum = criterion::sumOf([](scalar_t x) { return std::fabs((double)x); }, input);
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

void THNN_(L1Cost_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput) {
  const double scale = criterion::reducedGradOutput(gradOutput, 3);
  THTensor_(resizeAs)(gradInput, input);
  th::apply([&](scalar_t &gi, scalar_t &x) { gi = (scalar_t)(x > 0   ? scale
                                                             : x < 0 ? -scale
                                                                     : 0); }, th::ref(gradInput),
            th::ref(input));
}

/* ---- MarginCriterion ---- */

void THNN_(MarginCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                         bool sizeAverage, accreal margin) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, true,
                  [margin](double x, double y) { return std::max(0.0, (double)margin - x * y); });
}

void THNN_(MarginCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradInput,
                                            bool sizeAverage, accreal margin) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, nullptr, gradInput, sizeAverage, true,
                     [margin](double x, double y) { return x * y < (double)margin ? -y : 0.0; });
}

/* ---- MSECriterion ---- */

void THNN_(MSECriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                      bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::mseLoss);
}

void THNN_(MSECriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                         THTensor *gradInput, bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::mseGrad);
}

/* ---- SmoothL1Criterion ---- */

void THNN_(SmoothL1Criterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                           bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::smoothL1Loss);
}

void THNN_(SmoothL1Criterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                              THTensor *gradInput, bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::smoothL1Grad);
}

/* ---- SoftMarginCriterion ---- */

void THNN_(SoftMarginCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                             bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::softMarginLoss);
}

void THNN_(SoftMarginCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                                THTensor *gradInput, bool sizeAverage, bool reduce) {
  checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::softMarginGrad);
}
