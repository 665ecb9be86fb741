// Class criterions, built once per TH_INDEX_BASE: targets are written as 0-based classes
// and shifted by TH_INDEX_BASE. Forward against plain loops, gradInput against central
// differences of sum(gradOutput * output), weights, ignore_index, sizeAverage, reduce,
// vector and batch inputs, non-contiguous inputs, Float forward, and bad targets or
// shapes that must throw before anything is written.
#define BOOST_TEST_MODULE THNN Criterion indexed
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "thnn_test_util.hpp"

using thnnt::values;

namespace {

using DT = THDoubleTensor;
using LT = THLongTensor;

constexpr int64_t B = TH_INDEX_BASE;
constexpr int64_t kEnd = -1;  // 0-based spelling of the multi-label list terminator (B - 1)

// A LongTensor of targets from 0-based classes.
LT *targetsOf(const std::vector<int64_t> &shape, const std::vector<int64_t> &classes) {
  auto *t = th::TH<int64_t>::newWithSize((int)shape.size(), shape.data(), nullptr);
  std::vector<double> v;
  for (int64_t c : classes) v.push_back((double)(c + B));
  thnnt::setValues(t, v);
  return t;
}

DT *vectorOf(const std::vector<double> &v) {
  auto *t = THDoubleTensor_newWithSize1d((int64_t)v.size());
  thnnt::setValues(t, v);
  return t;
}

DT *filled(const std::vector<int64_t> &shape, double value) {
  auto *t = thnnt::randomTensor<double>(shape, 0);
  THDoubleTensor_fill(t, value);
  return t;
}

// Checks gradInput of a loss against central differences of sum(gradOutput * forward(x)).
void checkGradient(DT *x, DT *gradOutput, const std::function<void(DT *out)> &forward,
                   const std::function<void(DT *gradInput)> &backward) {
  auto gi = th::own(THDoubleTensor_new());
  backward(gi.get());
  BOOST_REQUIRE(THDoubleTensor_isSameSizeAs(gi.get(), x));
  auto tmp = th::own(THDoubleTensor_new());
  auto numeric = thnnt::numericalGrad(x, [&] {
    forward(tmp.get());
    return thnnt::dot(gradOutput, tmp.get());
  });
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gi.get()), numeric), 1e-6);
}

// The gradOutput a test feeds: one element (0.7) with reduce, else one random value per loss.
th::Owned<DT> gradOutputFor(bool reduce, int64_t losses) {
  return th::own(reduce ? vectorOf({0.7}) : thnnt::randomTensor<double>({losses}, 21));
}

// A bad target raises an IndexError whose message names the class count.
void expectThrowsIndex(const std::function<void()> &f) {
  try {
    f();
    BOOST_ERROR("expected an IndexError");
  } catch (const th::Error &e) {
    BOOST_CHECK(e.kind() == th::ErrorKind::Index);
    BOOST_CHECK(std::string(e.what()).find("classes") != std::string::npos);
  }
}

/* ---- ClassNLLCriterion ---- */

struct NLLCase {
  bool avg, reduce;
  DT *weights;
  int64_t ignore;  // as the caller writes it (based)
};

// Reference: per-sample losses -w[t] x[t] (0 when ignored) and the total weight.
std::vector<double> nllReference(const std::vector<double> &x, int64_t classes, const std::vector<int64_t> &t,
                                 const std::vector<double> &w, int64_t ignore, double &total) {
  std::vector<double> losses;
  total = 0;
  for (size_t i = 0; i < t.size(); i++) {
    if (t[i] + B == ignore) {
      losses.push_back(0);
      continue;
    }
    double wi = w.empty() ? 1 : w[t[i]];
    total += wi;
    losses.push_back(-wi * x[i * classes + t[i]]);
  }
  return losses;
}

void checkClassNLL(DT *x, LT *target, const std::vector<int64_t> &t, const NLLCase &c) {
  const bool batch = x->nDimension == 2;
  const int64_t classes = x->size[x->nDimension - 1];
  const std::vector<double> w = c.weights ? values(c.weights) : std::vector<double>{};
  double total;
  auto losses = nllReference(values(x), classes, t, w, c.ignore, total);
  auto out = th::own(THDoubleTensor_new()), tw = th::own(THDoubleTensor_new());
  auto forward = [&](DT *o) {
    THNN_DoubleClassNLLCriterion_updateOutput(nullptr, x, target, o, c.avg, c.weights, tw.get(), c.ignore, c.reduce);
  };
  forward(out.get());
  BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(tw.get()), 1);
  BOOST_CHECK_SMALL(THDoubleTensor_get1d(tw.get(), 0) - total, 1e-12);
  if (!c.reduce && batch) {
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(out.get()), losses), 1e-12);
  } else {
    double sum = 0;
    for (double l : losses) sum += l;
    if (c.reduce && c.avg && total != 0) sum /= total;
    BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(out.get()), 1);
    BOOST_CHECK_SMALL(THDoubleTensor_get1d(out.get(), 0) - sum, 1e-12);
  }
  auto go = gradOutputFor(c.reduce || !batch, (int64_t)t.size());
  checkGradient(x, go.get(), forward, [&](DT *gi) {
    auto tw2 = th::own(THDoubleTensor_new());  // recomputed by updateGradInput
    THNN_DoubleClassNLLCriterion_updateGradInput(nullptr, x, target, go.get(), gi, c.avg, c.weights, tw2.get(),
                                                 c.ignore, c.reduce);
    BOOST_CHECK_SMALL(THDoubleTensor_get1d(tw2.get(), 0) - total, 1e-12);
  });
}

}  // namespace

BOOST_AUTO_TEST_CASE(class_nll) {
  const int64_t N = 5, C = 4;
  const std::vector<int64_t> t = {1, 3, 0, 2, 2};
  auto x = th::own(thnnt::randomTensor<double>({N, C}, 1, -3, 0));
  auto target = th::own(targetsOf({N}, t));
  auto weights = th::own(vectorOf({0.5, 1.5, 2.0, 0.25}));
  for (DT *w : {(DT *)nullptr, weights.get()})
    for (int64_t ignore : {int64_t(-100), 2 + B})  // none ignored, two samples ignored
      for (bool avg : {false, true})
        for (bool reduce : {true, false})
          BOOST_TEST_CONTEXT("weights " << (w != nullptr) << " ignore " << ignore << " avg " << avg << " reduce "
                                        << reduce) {
            checkClassNLL(x.get(), target.get(), t, {avg, reduce, w, ignore});
            // a vector input with a one-element target
            auto xv = th::own(thnnt::randomTensor<double>({C}, 2, -3, 0));
            for (int64_t cls : {int64_t(3), int64_t(2)}) {
              auto tv = th::own(targetsOf({1}, {cls}));
              checkClassNLL(xv.get(), tv.get(), {cls}, {avg, reduce, w, ignore});
            }
          }
  // every target ignored: total weight 0, the loss stays 0 with sizeAverage
  auto all = th::own(targetsOf({N}, {2, 2, 2, 2, 2}));
  checkClassNLL(x.get(), all.get(), {2, 2, 2, 2, 2}, {true, true, nullptr, 2 + B});
}

BOOST_AUTO_TEST_CASE(class_nll_non_contiguous_and_float) {
  const int64_t N = 6, C = 3;
  const std::vector<int64_t> t = {0, 2, 1, 1, 0, 2};
  auto base = th::own(thnnt::randomTensor<double>({C, N}, 3, -2, 0));
  auto x = th::own(THDoubleTensor_newTranspose(base.get(), 0, 1));
  auto wideTarget = th::own(targetsOf({N, 2}, {0, 9, 2, 9, 1, 9, 1, 9, 0, 9, 2, 9}));
  auto target = th::own(THLongTensor_newSelect(wideTarget.get(), 1, 0));  // stride 2
  for (bool reduce : {true, false}) checkClassNLL(x.get(), target.get(), t, {true, reduce, nullptr, -100});
  auto xc = th::own(THDoubleTensor_newClone(x.get()));
  auto tc = th::own(targetsOf({N}, t));
  auto o1 = th::own(THDoubleTensor_new()), o2 = th::own(THDoubleTensor_new()), tw = th::own(THDoubleTensor_new());
  THNN_DoubleClassNLLCriterion_updateOutput(nullptr, x.get(), target.get(), o1.get(), true, nullptr, tw.get(), -100,
                                            true);
  THNN_DoubleClassNLLCriterion_updateOutput(nullptr, xc.get(), tc.get(), o2.get(), true, nullptr, tw.get(), -100, true);
  BOOST_CHECK_EQUAL(THDoubleTensor_get1d(o1.get(), 0), THDoubleTensor_get1d(o2.get(), 0));

  auto xf = th::own(thnnt::randomTensor<float>({N, C}, 4, -2, 0));
  auto wf = th::own(thnnt::randomTensor<float>({C}, 5, 0.5, 2));
  auto of = th::own(THFloatTensor_new()), twf = th::own(THFloatTensor_new());
  THNN_FloatClassNLLCriterion_updateOutput(nullptr, xf.get(), tc.get(), of.get(), true, wf.get(), twf.get(), -100,
                                           true);
  auto vx = values(xf.get()), vw = values(wf.get());
  double sum = 0, total = 0;
  for (int64_t i = 0; i < N; i++) {
    sum -= vw[t[i]] * vx[i * C + t[i]];
    total += vw[t[i]];
  }
  BOOST_CHECK_SMALL(THFloatTensor_get1d(of.get(), 0) - sum / total, 1e-5);
  BOOST_CHECK_SMALL(THFloatTensor_get1d(twf.get(), 0) - total, 1e-5);
}

BOOST_AUTO_TEST_CASE(class_nll_bad_arguments) {
  const int64_t N = 3, C = 4;
  auto x = th::own(thnnt::randomTensor<double>({N, C}, 6));
  auto out = th::own(filled({1}, 42)), tw = th::own(filled({1}, 43)), gi = th::own(filled({2}, 44));
  auto go = th::own(vectorOf({1}));
  auto untouched = [&] {
    BOOST_CHECK(values(out.get()) == std::vector<double>{42});
    BOOST_CHECK(values(tw.get()) == std::vector<double>{43});
    BOOST_CHECK(values(gi.get()) == (std::vector<double>{44, 44}));
  };
  auto forward = [&](DT *input, LT *target, DT *w, int64_t ignore) {
    THNN_DoubleClassNLLCriterion_updateOutput(nullptr, input, target, out.get(), true, w, tw.get(), ignore, true);
  };
  auto backward = [&](DT *input, LT *target, DT *w, int64_t ignore) {
    THNN_DoubleClassNLLCriterion_updateGradInput(nullptr, input, target, go.get(), gi.get(), true, w, tw.get(), ignore,
                                                 true);
  };
  // a class too large, or below the base (an ignore_index elsewhere does not excuse it)
  for (int64_t bad : {C, int64_t(-1)}) {
    auto target = th::own(targetsOf({N}, {0, bad, 1}));
    expectThrowsIndex([&] { forward(x.get(), target.get(), nullptr, -100); });
    expectThrowsIndex([&] { backward(x.get(), target.get(), nullptr, -100); });
    expectThrowsIndex([&] {
      THNN_DoubleClassNLLCriterion_updateOutput(nullptr, x.get(), target.get(), out.get(), true, nullptr, tw.get(),
                                                -100, false);
    });
  }
  // the same value is fine when it is ignore_index
  {
    auto target = th::own(targetsOf({N}, {0, C, 1}));
    auto o = th::own(THDoubleTensor_new()), t2 = th::own(THDoubleTensor_new());
    THNN_DoubleClassNLLCriterion_updateOutput(nullptr, x.get(), target.get(), o.get(), false, nullptr, t2.get(), C + B,
                                              true);
    BOOST_CHECK_EQUAL(THDoubleTensor_get1d(t2.get(), 0), 2.0);
  }
  auto target = th::own(targetsOf({N}, {0, 1, 2}));
  auto shortTarget = th::own(targetsOf({N - 1}, {0, 1}));
  auto w3 = th::own(vectorOf({1, 1, 1}));
  auto x3d = th::own(thnnt::randomTensor<double>({2, N, C}, 7));
  BOOST_CHECK_THROW(forward(x.get(), shortTarget.get(), nullptr, -100), th::Error);
  BOOST_CHECK_THROW(backward(x.get(), shortTarget.get(), nullptr, -100), th::Error);
  BOOST_CHECK_THROW(forward(x.get(), target.get(), w3.get(), -100), th::Error);
  BOOST_CHECK_THROW(backward(x.get(), target.get(), w3.get(), -100), th::Error);
  BOOST_CHECK_THROW(forward(x3d.get(), target.get(), nullptr, -100), th::Error);
  // per-sample gradOutput of the wrong count
  BOOST_CHECK_THROW(THNN_DoubleClassNLLCriterion_updateGradInput(nullptr, x.get(), target.get(), go.get(), gi.get(),
                                                                 true, nullptr, tw.get(), -100, false),
                    th::Error);
  untouched();
}

/* ---- SpatialClassNLLCriterion ---- */

BOOST_AUTO_TEST_CASE(spatial_class_nll) {
  const int64_t N = 2, C = 3, H = 3, W = 4;
  std::vector<int64_t> t;
  for (int64_t i = 0; i < N * H * W; i++) t.push_back((i * 7 + i / 5) % C);
  auto target = th::own(targetsOf({N, H, W}, t));
  auto weights = th::own(vectorOf({0.5, 2.0, 1.25}));
  // the input as a permuted view of an N x H x W x C tensor: non-contiguous
  auto nhwc = th::own(thnnt::randomTensor<double>({N, H, W, C}, 8, -3, 0));
  auto x = th::own(THDoubleTensor_new());
  const int perm[] = {0, 3, 1, 2};
  THDoubleTensor_permute(x.get(), nhwc.get(), perm);
  auto xc = th::own(THDoubleTensor_newClone(x.get()));
  auto vx = values(xc.get());
  for (DT *input : {xc.get(), x.get()})
    for (DT *w : {(DT *)nullptr, weights.get()})
      for (int64_t ignore : {int64_t(-100), 1 + B})
        for (bool avg : {false, true})
          for (bool reduce : {true, false})
            BOOST_TEST_CONTEXT("contiguous " << (input == xc.get()) << " weights " << (w != nullptr) << " ignore "
                                             << ignore << " avg " << avg << " reduce " << reduce) {
              std::vector<double> losses;
              double total = 0;
              for (int64_t b = 0; b < N; b++)
                for (int64_t h = 0; h < H; h++)
                  for (int64_t k = 0; k < W; k++) {
                    const int64_t cls = t[(b * H + h) * W + k];
                    if (cls + B == ignore) {
                      losses.push_back(0);
                      continue;
                    }
                    const double wc = w ? values(w)[cls] : 1;
                    total += wc;
                    losses.push_back(-wc * vx[((b * C + cls) * H + h) * W + k]);
                  }
              auto out = th::own(THDoubleTensor_new()), tw = th::own(THDoubleTensor_new());
              auto forward = [&](DT *o) {
                THNN_DoubleSpatialClassNLLCriterion_updateOutput(nullptr, input, target.get(), o, avg, w, tw.get(),
                                                                 ignore, reduce);
              };
              forward(out.get());
              BOOST_CHECK_SMALL(THDoubleTensor_get1d(tw.get(), 0) - total, 1e-12);
              if (reduce) {
                double sum = 0;
                for (double l : losses) sum += l;
                if (avg) sum /= total;
                BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(out.get()), 1);
                BOOST_CHECK_SMALL(THDoubleTensor_get1d(out.get(), 0) - sum, 1e-12);
              } else {
                const int64_t sizes[] = {N, H, W};
                BOOST_CHECK(THDoubleTensor_isSize(out.get(), 3, sizes));
                BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(out.get()), losses), 1e-12);
              }
              auto go = th::own(reduce ? vectorOf({0.7}) : thnnt::randomTensor<double>({N, H, W}, 22));
              checkGradient(input, go.get(), forward, [&](DT *gi) {
                THNN_DoubleSpatialClassNLLCriterion_updateGradInput(nullptr, input, target.get(), go.get(), gi, avg, w,
                                                                    tw.get(), ignore, reduce);
              });
            }
  // Float
  auto xf = th::own(thnnt::randomTensor<float>({N, C, H, W}, 9, -3, 0));
  auto of = th::own(THFloatTensor_new()), twf = th::own(THFloatTensor_new());
  THNN_FloatSpatialClassNLLCriterion_updateOutput(nullptr, xf.get(), target.get(), of.get(), true, nullptr, twf.get(),
                                                  -100, true);
  auto vf = values(xf.get());
  double sum = 0;
  for (int64_t i = 0; i < N * H * W; i++) sum -= vf[(i / (H * W) * C + t[i]) * H * W + i % (H * W)];
  BOOST_CHECK_SMALL(THFloatTensor_get1d(of.get(), 0) - sum / (N * H * W), 1e-5);
  // bad target value, target sizes, input dimensions: throw, outputs untouched
  auto out = th::own(filled({1}, 42)), tw = th::own(filled({1}, 43));
  std::vector<int64_t> bad = t;
  bad[13] = C;
  auto badTarget = th::own(targetsOf({N, H, W}, bad));
  expectThrowsIndex([&] {
    THNN_DoubleSpatialClassNLLCriterion_updateOutput(nullptr, xc.get(), badTarget.get(), out.get(), true, nullptr,
                                                     tw.get(), -100, false);
  });
  auto flatTarget = th::own(targetsOf({N, H * W}, t));
  BOOST_CHECK_THROW(THNN_DoubleSpatialClassNLLCriterion_updateOutput(nullptr, xc.get(), flatTarget.get(), out.get(),
                                                                     true, nullptr, tw.get(), -100, true),
                    th::Error);
  auto gi = th::own(filled({2}, 44));
  auto go = th::own(vectorOf({1, 2}));
  BOOST_CHECK_THROW(THNN_DoubleSpatialClassNLLCriterion_updateGradInput(nullptr, xc.get(), target.get(), go.get(),
                                                                        gi.get(), true, nullptr, tw.get(), -100, false),
                    th::Error);
  BOOST_CHECK(values(out.get()) == std::vector<double>{42});
  BOOST_CHECK(values(tw.get()) == std::vector<double>{43});
  BOOST_CHECK(values(gi.get()) == (std::vector<double>{44, 44}));
}

/* ---- MultiMarginCriterion ---- */

namespace {

std::vector<double> multiMarginReference(const std::vector<double> &x, int64_t C, const std::vector<int64_t> &t, int p,
                                         const std::vector<double> &w, double margin) {
  std::vector<double> losses;
  for (size_t i = 0; i < t.size(); i++) {
    double s = 0;
    for (int64_t d = 0; d < C; d++) {
      if (d == t[i]) continue;
      double z = std::max(0.0, margin - x[i * C + t[i]] + x[i * C + d]);
      s += (w.empty() ? 1 : w[t[i]]) * (p == 1 ? z : z * z);
    }
    losses.push_back(s / C);
  }
  return losses;
}

void checkMultiMargin(DT *x, LT *target, const std::vector<int64_t> &t, int p, DT *w, double margin, bool avg,
                      bool reduce) {
  const int64_t C = x->size[x->nDimension - 1];
  auto losses = multiMarginReference(values(x), C, t, p, w ? values(w) : std::vector<double>{}, margin);
  auto out = th::own(THDoubleTensor_new());
  auto forward = [&](DT *o) {
    THNN_DoubleMultiMarginCriterion_updateOutput(nullptr, x, target, o, avg, p, w, margin, reduce);
  };
  forward(out.get());
  if (reduce) {
    double sum = 0;
    for (double l : losses) sum += l;
    if (avg) sum /= (double)t.size();
    BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(out.get()), 1);
    BOOST_CHECK_SMALL(THDoubleTensor_get1d(out.get(), 0) - sum, 1e-12);
  } else {
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(out.get()), losses), 1e-12);
  }
  auto go = gradOutputFor(reduce, (int64_t)t.size());
  checkGradient(x, go.get(), forward, [&](DT *gi) {
    THNN_DoubleMultiMarginCriterion_updateGradInput(nullptr, x, target, go.get(), gi, avg, p, w, margin, reduce);
  });
}

}  // namespace

BOOST_AUTO_TEST_CASE(multi_margin) {
  const int64_t N = 4, C = 5;
  const std::vector<int64_t> t = {4, 0, 2, 2};
  auto target = th::own(targetsOf({N}, t));
  auto weights = th::own(vectorOf({0.5, 1, 1.5, 2, 0.75}));
  auto x = th::own(thnnt::randomTensor<double>({N, C}, 10));
  auto base = th::own(thnnt::randomTensor<double>({C, N}, 11));
  auto xt = th::own(THDoubleTensor_newTranspose(base.get(), 0, 1));
  auto xv = th::own(thnnt::randomTensor<double>({C}, 12));
  auto tv = th::own(targetsOf({1}, {3}));
  for (int p : {1, 2})
    for (double margin : {1.0, 0.3})
      for (DT *w : {(DT *)nullptr, weights.get()})
        for (bool avg : {false, true})
          for (bool reduce : {true, false})
            BOOST_TEST_CONTEXT("p " << p << " margin " << margin << " weights " << (w != nullptr) << " avg " << avg
                                    << " reduce " << reduce) {
              checkMultiMargin(x.get(), target.get(), t, p, w, margin, avg, reduce);
              checkMultiMargin(xt.get(), target.get(), t, p, w, margin, avg, reduce);
              checkMultiMargin(xv.get(), tv.get(), {3}, p, w, margin, avg, reduce);
            }
  // Float
  auto xf = th::own(thnnt::randomTensor<float>({N, C}, 13));
  auto of = th::own(THFloatTensor_new());
  THNN_FloatMultiMarginCriterion_updateOutput(nullptr, xf.get(), target.get(), of.get(), true, 2, nullptr, 1.0, true);
  auto losses = multiMarginReference(values(xf.get()), C, t, 2, {}, 1.0);
  double sum = 0;
  for (double l : losses) sum += l;
  BOOST_CHECK_SMALL(THFloatTensor_get1d(of.get(), 0) - sum / N, 1e-5);
  // bad targets, p, weights, target size: throw, outputs untouched
  auto out = th::own(filled({1}, 42)), gi = th::own(filled({2}, 44));
  auto go = th::own(vectorOf({1}));
  for (int64_t bad : {C, int64_t(-1)}) {
    auto badTarget = th::own(targetsOf({N}, {0, 1, bad, 2}));
    expectThrowsIndex([&] {
      THNN_DoubleMultiMarginCriterion_updateOutput(nullptr, x.get(), badTarget.get(), out.get(), true, 1, nullptr, 1.0,
                                                   true);
    });
    expectThrowsIndex([&] {
      THNN_DoubleMultiMarginCriterion_updateGradInput(nullptr, x.get(), badTarget.get(), go.get(), gi.get(), true, 1,
                                                      nullptr, 1.0, true);
    });
  }
  auto w4 = th::own(vectorOf({1, 1, 1, 1}));
  auto shortTarget = th::own(targetsOf({N - 1}, {0, 1, 2}));
  BOOST_CHECK_THROW(THNN_DoubleMultiMarginCriterion_updateOutput(nullptr, x.get(), target.get(), out.get(), true, 3,
                                                                 nullptr, 1.0, true),
                    th::Error);
  BOOST_CHECK_THROW(THNN_DoubleMultiMarginCriterion_updateOutput(nullptr, x.get(), target.get(), out.get(), true, 1,
                                                                 w4.get(), 1.0, true),
                    th::Error);
  BOOST_CHECK_THROW(THNN_DoubleMultiMarginCriterion_updateOutput(nullptr, x.get(), shortTarget.get(), out.get(), true,
                                                                 1, nullptr, 1.0, true),
                    th::Error);
  BOOST_CHECK_THROW(THNN_DoubleMultiMarginCriterion_updateGradInput(nullptr, x.get(), target.get(), go.get(), gi.get(),
                                                                    true, 1, nullptr, 1.0, false),
                    th::Error);
  BOOST_CHECK(values(out.get()) == std::vector<double>{42});
  BOOST_CHECK(values(gi.get()) == (std::vector<double>{44, 44}));
}

/* ---- MultiLabelMarginCriterion ---- */

namespace {

// Reference per-sample losses and isTarget marks (Note [Multi-label targets]).
std::vector<double> multiLabelReference(const std::vector<double> &x, int64_t C, const std::vector<int64_t> &t,
                                        std::vector<double> &marks) {
  const size_t rows = t.size() / C;
  marks.assign(t.size(), 0);
  std::vector<double> losses;
  for (size_t i = 0; i < rows; i++) {
    std::vector<int64_t> listed;
    for (int64_t k = 0; k < C && t[i * C + k] != kEnd; k++) listed.push_back(t[i * C + k]);
    for (int64_t j : listed) marks[i * C + j] = 1;
    double s = 0;
    for (int64_t j : listed)
      for (int64_t d = 0; d < C; d++)
        if (marks[i * C + d] == 0) s += std::max(0.0, 1 - x[i * C + j] + x[i * C + d]);
    losses.push_back(s / C);
  }
  return losses;
}

void checkMultiLabel(DT *x, LT *target, const std::vector<int64_t> &t, bool avg, bool reduce) {
  const int64_t C = x->size[x->nDimension - 1];
  std::vector<double> marks;
  auto losses = multiLabelReference(values(x), C, t, marks);
  auto out = th::own(THDoubleTensor_new()), isTarget = th::own(THDoubleTensor_new());
  auto forward = [&](DT *o) {
    THNN_DoubleMultiLabelMarginCriterion_updateOutput(nullptr, x, target, o, isTarget.get(), avg, reduce);
  };
  forward(out.get());
  BOOST_CHECK(THDoubleTensor_isSameSizeAs(isTarget.get(), x));
  BOOST_CHECK(values(isTarget.get()) == marks);
  if (reduce) {
    double sum = 0;
    for (double l : losses) sum += l;
    if (avg) sum /= (double)losses.size();
    BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(out.get()), 1);
    BOOST_CHECK_SMALL(THDoubleTensor_get1d(out.get(), 0) - sum, 1e-12);
  } else {
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(out.get()), losses), 1e-12);
  }
  auto go = gradOutputFor(reduce, (int64_t)losses.size());
  checkGradient(x, go.get(), forward, [&](DT *gi) {
    auto freshMarks = th::own(THDoubleTensor_new());  // recomputed by updateGradInput
    THNN_DoubleMultiLabelMarginCriterion_updateGradInput(nullptr, x, target, go.get(), gi, freshMarks.get(), avg,
                                                         reduce);
    BOOST_CHECK(values(freshMarks.get()) == marks);
  });
}

}  // namespace

BOOST_AUTO_TEST_CASE(multi_label_margin) {
  const int64_t N = 4, C = 5;
  // entries after the terminator are unused; an empty list and a full one give 0
  const std::vector<int64_t> t = {3,    0,    kEnd, 1,    2,     //
                                  1,    kEnd, kEnd, kEnd, kEnd,  //
                                  kEnd, 2,    2,    2,    2,     //
                                  4,    2,    0,    1,    3};
  auto target = th::own(targetsOf({N, C}, t));
  auto x = th::own(thnnt::randomTensor<double>({N, C}, 14));
  auto base = th::own(thnnt::randomTensor<double>({C, N}, 15));
  auto xt = th::own(THDoubleTensor_newTranspose(base.get(), 0, 1));
  auto xv = th::own(thnnt::randomTensor<double>({C}, 16));
  const std::vector<int64_t> tvClasses = {2, 4, kEnd, 0, 0};
  auto tv = th::own(targetsOf({C}, tvClasses));
  for (bool avg : {false, true})
    for (bool reduce : {true, false}) BOOST_TEST_CONTEXT("avg " << avg << " reduce " << reduce) {
        checkMultiLabel(x.get(), target.get(), t, avg, reduce);
        checkMultiLabel(xt.get(), target.get(), t, avg, reduce);
        checkMultiLabel(xv.get(), tv.get(), tvClasses, avg, reduce);
      }
  // a duplicated class counts twice (torch7)
  const std::vector<int64_t> dup = {1, 1, kEnd, 0, 0};
  auto td = th::own(targetsOf({C}, dup));
  checkMultiLabel(xv.get(), td.get(), dup, false, true);
  // Float
  auto xf = th::own(thnnt::randomTensor<float>({N, C}, 17));
  auto of = th::own(THFloatTensor_new()), marksf = th::own(THFloatTensor_new());
  THNN_FloatMultiLabelMarginCriterion_updateOutput(nullptr, xf.get(), target.get(), of.get(), marksf.get(), true, true);
  std::vector<double> marks;
  auto losses = multiLabelReference(values(xf.get()), C, t, marks);
  double sum = 0;
  for (double l : losses) sum += l;
  BOOST_CHECK_SMALL(THFloatTensor_get1d(of.get(), 0) - sum / N, 1e-5);
  BOOST_CHECK(values(marksf.get()) == marks);
  // out of range (above the classes, below the terminator), target sizes: throw, untouched
  auto out = th::own(filled({1}, 42)), isTarget = th::own(filled({1}, 43)), gi = th::own(filled({2}, 44));
  auto go = th::own(vectorOf({1}));
  for (int64_t bad : {C, int64_t(-2)}) {
    std::vector<int64_t> tb = t;
    tb[7] = bad;  // after row 1's terminator: checked all the same
    auto badTarget = th::own(targetsOf({N, C}, tb));
    expectThrowsIndex([&] {
      THNN_DoubleMultiLabelMarginCriterion_updateOutput(nullptr, x.get(), badTarget.get(), out.get(), isTarget.get(),
                                                        true, true);
    });
    expectThrowsIndex([&] {
      THNN_DoubleMultiLabelMarginCriterion_updateGradInput(nullptr, x.get(), badTarget.get(), go.get(), gi.get(),
                                                           isTarget.get(), true, true);
    });
  }
  auto flat = th::own(targetsOf({N * C}, t));
  BOOST_CHECK_THROW(THNN_DoubleMultiLabelMarginCriterion_updateOutput(nullptr, x.get(), flat.get(), out.get(),
                                                                      isTarget.get(), true, true),
                    th::Error);
  BOOST_CHECK_THROW(THNN_DoubleMultiLabelMarginCriterion_updateGradInput(nullptr, x.get(), target.get(), go.get(),
                                                                         gi.get(), isTarget.get(), true, false),
                    th::Error);
  BOOST_CHECK(values(out.get()) == std::vector<double>{42});
  BOOST_CHECK(values(isTarget.get()) == std::vector<double>{43});
  BOOST_CHECK(values(gi.get()) == (std::vector<double>{44, 44}));
}

// Batches above TH_OMP_THRESHOLD run on several threads: the same results as the loops
// above and as one sample at a time.
BOOST_AUTO_TEST_CASE(large_batches) {
  {
    const int64_t N = 2, C = 3, H = 128, W = 130;
    std::vector<int64_t> t;
    for (int64_t i = 0; i < N * H * W; i++) t.push_back((i * 7 + i / 11) % C);
    auto target = th::own(targetsOf({N, H, W}, t));
    auto x = th::own(thnnt::randomTensor<double>({N, C, H, W}, 30, -3, 0));
    auto weights = th::own(vectorOf({0.5, 2.0, 1.25}));
    auto vx = values(x.get());
    const std::vector<double> w = {0.5, 2.0, 1.25};
    double sum = 0, total = 0;
    for (int64_t i = 0; i < N * H * W; i++) {
      if (t[i] == 1) continue;  // ignored
      total += w[t[i]];
      sum -= w[t[i]] * vx[(i / (H * W) * C + t[i]) * H * W + i % (H * W)];
    }
    auto out = th::own(THDoubleTensor_new()), tw = th::own(THDoubleTensor_new());
    THNN_DoubleSpatialClassNLLCriterion_updateOutput(nullptr, x.get(), target.get(), out.get(), true, weights.get(),
                                                     tw.get(), 1 + B, true);
    BOOST_CHECK_CLOSE(THDoubleTensor_get1d(out.get(), 0), sum / total, 1e-9);
    BOOST_CHECK_CLOSE(THDoubleTensor_get1d(tw.get(), 0), total, 1e-9);
    auto go = th::own(vectorOf({0.7}));
    auto gi = th::own(THDoubleTensor_new());
    THNN_DoubleSpatialClassNLLCriterion_updateGradInput(nullptr, x.get(), target.get(), go.get(), gi.get(), true,
                                                        weights.get(), tw.get(), 1 + B, true);
    std::vector<double> expected(vx.size(), 0);
    for (int64_t i = 0; i < N * H * W; i++)
      if (t[i] != 1) expected[(i / (H * W) * C + t[i]) * H * W + i % (H * W)] = -w[t[i]] * 0.7 / total;
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gi.get()), expected), 1e-15);
  }
  const int64_t N = 400, C = 100;
  auto x = th::own(thnnt::randomTensor<double>({N, C}, 31));
  std::vector<int64_t> t, labels;
  for (int64_t i = 0; i < N; i++) {
    t.push_back((i * 37) % C);
    for (int64_t k = 0; k < C; k++) labels.push_back(k < 3 ? (i + 31 * k) % C : kEnd);
  }
  auto target = th::own(targetsOf({N}, t));
  auto labelTarget = th::own(targetsOf({N, C}, labels));
  auto go = th::own(thnnt::randomTensor<double>({N}, 32));
  auto out = th::own(THDoubleTensor_new()), gi = th::own(THDoubleTensor_new()), marks = th::own(THDoubleTensor_new());
  // one sample at a time, below the threshold
  auto sampleOf = [](auto *tensor, int64_t i) {
    using T = std::remove_pointer_t<decltype(tensor)>;
    T *row = nullptr;
    if constexpr (std::is_same_v<T, DT>)
      row = THDoubleTensor_newNarrow(tensor, 0, i, 1);
    else
      row = THLongTensor_newNarrow(tensor, 0, i, 1);
    return th::own(row);
  };
  THNN_DoubleMultiMarginCriterion_updateOutput(nullptr, x.get(), target.get(), out.get(), false, 2, nullptr, 1.0,
                                               false);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(out.get()), multiMarginReference(values(x.get()), C, t, 2, {}, 1.0)),
                    1e-12);
  THNN_DoubleMultiMarginCriterion_updateGradInput(nullptr, x.get(), target.get(), go.get(), gi.get(), false, 2, nullptr,
                                                  1.0, false);
  for (int64_t i : {int64_t(0), int64_t(123), N - 1}) {
    auto xi = sampleOf(x.get(), i), goi = sampleOf(go.get(), i), gii = sampleOf(gi.get(), i);
    auto ti = sampleOf(target.get(), i);
    gii = sampleOf(gi.get(), i);
    auto g1 = th::own(THDoubleTensor_new());
    THNN_DoubleMultiMarginCriterion_updateGradInput(nullptr, xi.get(), ti.get(), goi.get(), g1.get(), false, 2, nullptr,
                                                    1.0, false);
    BOOST_CHECK(values(g1.get()) == values(gii.get()));
  }
  THNN_DoubleMultiLabelMarginCriterion_updateOutput(nullptr, x.get(), labelTarget.get(), out.get(), marks.get(), false,
                                                    false);
  std::vector<double> refMarks;
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(out.get()), multiLabelReference(values(x.get()), C, labels, refMarks)),
                    1e-12);
  BOOST_CHECK(values(marks.get()) == refMarks);
  THNN_DoubleMultiLabelMarginCriterion_updateGradInput(nullptr, x.get(), labelTarget.get(), go.get(), gi.get(),
                                                       marks.get(), false, false);
  for (int64_t i : {int64_t(0), int64_t(123), N - 1}) {
    auto xi = sampleOf(x.get(), i), goi = sampleOf(go.get(), i), gii = sampleOf(gi.get(), i);
    auto ti = sampleOf(labelTarget.get(), i);
    auto g1 = th::own(THDoubleTensor_new()), m1 = th::own(THDoubleTensor_new());
    THNN_DoubleMultiLabelMarginCriterion_updateGradInput(nullptr, xi.get(), ti.get(), goi.get(), g1.get(), m1.get(),
                                                         false, false);
    BOOST_CHECK(values(g1.get()) == values(gii.get()));
  }
}
