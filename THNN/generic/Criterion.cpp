#ifndef TH_GENERIC_FILE
#error "compiled through THNN/Criterion.cpp"
#endif

// The element-wise criterions share two drivers (overloaded per type through THTensor):
// a kernel checks its own arguments, then hands over the functor of its loss(x, y) and
// derivative grad(x, y) = d loss / d x (THNN/CriterionFunctions.hpp), computed in double.
// weights (BCE's, else NULL) multiply each element's loss.

template <typename F>
static void pointwiseOutput(THTensor *input, THTensor *target, THTensor *weights, THTensor *output, bool sizeAverage,
                            bool reduce, F f) {
  auto loss = [f](double x, double y) { return f.loss(x, y); };
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

template <typename F>
static void pointwiseGradInput(THTensor *input, THTensor *target, THTensor *weights, THTensor *gradOutput,
                               THTensor *gradInput, bool sizeAverage, bool reduce, F f) {
  auto grad = [f](double x, double y) { return f.grad(x, y); };
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
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::AbsLoss<double>());
}

void THNN_(AbsCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                         THTensor *gradInput, bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::AbsLoss<double>());
}

/* ---- BCECriterion ---- */

static void checkProbabilities(THTensor *input) {
  auto bad = [](double v) { return !(v >= 0 && v <= 1); };  // NaN is bad too
  const double found = th::reduceAll(
      th::ref(input), 0.5, [&](double acc, scalar_t x) { return bad(acc) ? acc : (double)x; },
      [&](double a, double b) { return bad(a) ? a : b; });
  if (bad(found)) criterion::raiseBadProbability(found);
}

void THNN_(BCECriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                      bool sizeAverage, THTensor *weights, bool reduce) {
  criterion::checkPointwise(input, target, weights, 6);
  checkProbabilities(input);
  pointwiseOutput(input, target, weights, output, sizeAverage, reduce, criterion::BCELoss<double>());
}

void THNN_(BCECriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                         THTensor *gradInput, bool sizeAverage, THTensor *weights, bool reduce) {
  criterion::checkPointwise(input, target, weights, 7);
  checkProbabilities(input);
  pointwiseGradInput(input, target, weights, gradOutput, gradInput, sizeAverage, reduce, criterion::BCELoss<double>());
}

/* ---- DistKLDivCriterion ---- */

void THNN_(DistKLDivCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                            bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::DistKLDivLoss<double>());
}

void THNN_(DistKLDivCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                               THTensor *gradInput, bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce,
                     criterion::DistKLDivLoss<double>());
}

/* ---- L1Cost ---- */

void THNN_(L1Cost_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  const double sum = criterion::sumOf([](scalar_t x) { return criterion::L1Cost<double>().loss(x, 0); }, input);
  THTensor_(resize1d)(output, 1);
  THTensor_(set1d)(output, 0, (scalar_t)sum);
}

void THNN_(L1Cost_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput) {
  const double scale = criterion::reducedGradOutput(gradOutput, 3);
  THTensor_(resizeAs)(gradInput, input);
  th::apply([&](scalar_t &gi, scalar_t &x) { gi = (scalar_t)(scale * criterion::L1Cost<double>().grad(x, 0)); },
            th::ref(gradInput), th::ref(input));
}

/* ---- MarginCriterion ---- */

void THNN_(MarginCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                         bool sizeAverage, accreal margin) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, true, criterion::MarginLoss<double>{(double)margin});
}

void THNN_(MarginCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradInput,
                                            bool sizeAverage, accreal margin) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, nullptr, gradInput, sizeAverage, true,
                     criterion::MarginLoss<double>{(double)margin});
}

/* ---- MSECriterion ---- */

void THNN_(MSECriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                      bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::MSELoss<double>());
}

void THNN_(MSECriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                         THTensor *gradInput, bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce, criterion::MSELoss<double>());
}

/* ---- SmoothL1Criterion ---- */

void THNN_(SmoothL1Criterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                           bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::SmoothL1Loss<double>());
}

void THNN_(SmoothL1Criterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                              THTensor *gradInput, bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce,
                     criterion::SmoothL1Loss<double>());
}

/* ---- SoftMarginCriterion ---- */

void THNN_(SoftMarginCriterion_updateOutput)(THNNState *, THTensor *input, THTensor *target, THTensor *output,
                                             bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseOutput(input, target, nullptr, output, sizeAverage, reduce, criterion::SoftMarginLoss<double>());
}

void THNN_(SoftMarginCriterion_updateGradInput)(THNNState *, THTensor *input, THTensor *target, THTensor *gradOutput,
                                                THTensor *gradInput, bool sizeAverage, bool reduce) {
  criterion::checkPointwise(input, target, nullptr, 0);
  pointwiseGradInput(input, target, nullptr, gradOutput, gradInput, sizeAverage, reduce,
                     criterion::SoftMarginLoss<double>());
}
