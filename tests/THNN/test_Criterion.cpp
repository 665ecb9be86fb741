// Element-wise criterions: forward against plain loops over the elements, gradInput against
// central differences of sum(gradOutput * output), on vectors, matrices and 3-D tensors,
// sizeAverage on and off, reduce on and off, non-contiguous operands, Float forward, and
// bad arguments that must throw and leave the outputs as they were.
#define BOOST_TEST_MODULE THNN Criterion
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "thnn_test_util.hpp"

using thnnt::values;

namespace {

using DT = THDoubleTensor;
using FT = THFloatTensor;

const std::vector<std::vector<int64_t>> kShapes = {{7}, {3, 5}, {2, 3, 4}};

int64_t countOf(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// Fills a tensor of the given shape from gen(i) for each row-major position i.
template <typename T = double>
typename th::TH<T>::Tensor *tensorOf(const std::vector<int64_t> &shape, const std::function<double(size_t)> &gen) {
  auto *t = thnnt::randomTensor<T>(shape, 0);
  std::vector<double> v(countOf(shape));
  for (size_t i = 0; i < v.size(); i++) v[i] = gen(i);
  thnnt::setValues(t, v);
  return t;
}

std::function<double(size_t)> uniformGen(unsigned seed, double lo, double hi, size_t n = 64) {
  auto v = thnnt::uniform(n, seed, lo, hi);
  return [v](size_t i) { return v.at(i); };
}

std::function<double(size_t)> signGen(unsigned seed) {
  auto v = thnnt::uniform(64, seed);
  return [v](size_t i) { return v.at(i) < 0 ? -1.0 : 1.0; };
}

// One element-wise criterion: its reference loss and adapters to its Double and Float kernels.
struct Pointwise {
  std::string name;
  std::function<double(double x, double y, size_t i)> loss;
  std::function<double(size_t)> input, target;
  bool hasReduce = true;        // the kernel takes reduce (else it always reduces)
  bool takesGradOutput = true;  // updateGradInput takes gradOutput (else it is 1)
  std::function<void(DT *x, DT *y, DT *out, bool avg, bool reduce)> forward;
  std::function<void(DT *x, DT *y, DT *go, DT *gi, bool avg, bool reduce)> backward;
  std::function<void(FT *x, FT *y, FT *out, bool avg)> forwardFloat;  // reduced
};

double referenceSum(const Pointwise &c, DT *x, DT *y) {
  auto vx = values(x), vy = values(y);
  double s = 0;
  for (size_t i = 0; i < vx.size(); i++) s += c.loss(vx[i], vy[i], i);
  return s;
}

void checkForwardAndGradient(const Pointwise &c, DT *x, DT *y) {
  const int64_t n = th::numel(th::ref(x));
  for (bool avg : {false, true})
    for (bool reduce : {true, false}) {
      if (!reduce && !c.hasReduce) continue;
      BOOST_TEST_CONTEXT(c.name << " sizes " << THDoubleTensor_sizeDesc(x) << " sizeAverage " << avg << " reduce "
                                << reduce) {
        auto out = th::own(THDoubleTensor_new());
        c.forward(x, y, out.get(), avg, reduce);
        if (reduce) {
          BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(out.get()), 1);
          const double expected = referenceSum(c, x, y) / (avg ? n : 1);
          BOOST_CHECK_SMALL(THDoubleTensor_get1d(out.get(), 0) - expected, 1e-12 * (1 + std::fabs(expected)));
        } else {
          BOOST_REQUIRE(THDoubleTensor_isSameSizeAs(out.get(), x));
          auto vx = values(x), vy = values(y), vo = values(out.get());
          for (size_t i = 0; i < vx.size(); i++) BOOST_CHECK_SMALL(vo[i] - c.loss(vx[i], vy[i], i), 1e-12);
        }
        auto go = th::own(reduce ? tensorOf({1}, [&](size_t) { return c.takesGradOutput ? 0.7 : 1.0; })
                                 : thnnt::randomTensor<double>({n}, 11));
        auto gi = th::own(THDoubleTensor_new());
        c.backward(x, y, go.get(), gi.get(), avg, reduce);
        BOOST_REQUIRE(THDoubleTensor_isSameSizeAs(gi.get(), x));
        auto tmp = th::own(THDoubleTensor_new());
        auto numeric = thnnt::numericalGrad(x, [&] {
          c.forward(x, y, tmp.get(), avg, reduce);
          return thnnt::dot(go.get(), tmp.get());
        });
        BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gi.get()), numeric), 1e-6);
      }
    }
}

// The same results on a transposed input and a narrowed target as on contiguous copies.
void checkNonContiguous(const Pointwise &c) {
  auto base = th::own(tensorOf({5, 3}, c.input));
  auto x = th::own(THDoubleTensor_newTranspose(base.get(), 0, 1));  // 3 x 5
  auto wide = th::own(tensorOf({3, 7}, c.target));
  auto y = th::own(THDoubleTensor_newNarrow(wide.get(), 1, 0, 5));
  BOOST_REQUIRE(!THDoubleTensor_isContiguous(x.get()) && !THDoubleTensor_isContiguous(y.get()));
  auto xc = th::own(THDoubleTensor_newClone(x.get())), yc = th::own(THDoubleTensor_newClone(y.get()));
  checkForwardAndGradient(c, x.get(), y.get());
  for (bool reduce : {true, false}) {
    if (!reduce && !c.hasReduce) continue;
    auto o1 = th::own(THDoubleTensor_new()), o2 = th::own(THDoubleTensor_new());
    c.forward(x.get(), y.get(), o1.get(), true, reduce);
    c.forward(xc.get(), yc.get(), o2.get(), true, reduce);
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(o1.get()), values(o2.get())), 1e-14);
  }
}

void checkFloat(const Pointwise &c) {
  for (bool avg : {false, true}) {
    auto x = th::own(tensorOf<float>({3, 5}, c.input)), y = th::own(tensorOf<float>({3, 5}, c.target));
    auto out = th::own(THFloatTensor_new());
    c.forwardFloat(x.get(), y.get(), out.get(), avg);
    auto vx = values(x.get()), vy = values(y.get());
    double expected = 0;
    for (size_t i = 0; i < vx.size(); i++) expected += c.loss(vx[i], vy[i], i);
    expected /= avg ? 15 : 1;
    BOOST_REQUIRE_EQUAL(THFloatTensor_nElement(out.get()), 1);
    BOOST_CHECK_SMALL(THFloatTensor_get1d(out.get(), 0) - expected, 1e-5 * (1 + std::fabs(expected)));
  }
}

// A target of another element count, and a gradOutput of the wrong count, must throw and
// leave output and gradInput untouched.
void checkBadShapes(const Pointwise &c) {
  auto x = th::own(tensorOf({3, 5}, c.input));
  auto y = th::own(tensorOf({16}, c.target));
  auto out = th::own(tensorOf({2}, [](size_t i) { return 40.0 + i; }));
  auto gi = th::own(tensorOf({2}, [](size_t i) { return 50.0 + i; }));
  auto go = th::own(tensorOf({1}, [](size_t) { return 1.0; }));
  BOOST_CHECK_THROW(c.forward(x.get(), y.get(), out.get(), true, true), th::Error);
  BOOST_CHECK_THROW(c.backward(x.get(), y.get(), go.get(), gi.get(), true, true), th::Error);
  auto yGood = th::own(tensorOf({15}, c.target));
  if (c.hasReduce) {
    BOOST_CHECK_THROW(c.backward(x.get(), yGood.get(), go.get(), gi.get(), true, false), th::Error);
    auto go2 = th::own(tensorOf({2}, [](size_t) { return 1.0; }));
    BOOST_CHECK_THROW(c.backward(x.get(), yGood.get(), go2.get(), gi.get(), true, true), th::Error);
  }
  BOOST_CHECK(values(out.get()) == (std::vector<double>{40, 41}));
  BOOST_CHECK(values(gi.get()) == (std::vector<double>{50, 51}));
}

void checkAll(const Pointwise &c) {
  for (const auto &shape : kShapes) {
    auto x = th::own(tensorOf(shape, c.input)), y = th::own(tensorOf(shape, c.target));
    checkForwardAndGradient(c, x.get(), y.get());
  }
  // target of another shape with the same element count (torch7's rule)
  auto x = th::own(tensorOf({3, 4}, c.input)), y = th::own(tensorOf({12}, c.target));
  checkForwardAndGradient(c, x.get(), y.get());
  checkNonContiguous(c);
  checkFloat(c);
  checkBadShapes(c);
}

// Adapters for the kernels that share the (input, target, ..., sizeAverage, reduce) signature.
#define STANDARD(NAME)                                                       \
  c.forward = [](DT *x, DT *y, DT *out, bool avg, bool reduce) {             \
    THNN_Double##NAME##_updateOutput(nullptr, x, y, out, avg, reduce);       \
  };                                                                         \
  c.backward = [](DT *x, DT *y, DT *go, DT *gi, bool avg, bool reduce) {     \
    THNN_Double##NAME##_updateGradInput(nullptr, x, y, go, gi, avg, reduce); \
  };                                                                         \
  c.forwardFloat = [](FT *x, FT *y, FT *out, bool avg) {                     \
    THNN_Float##NAME##_updateOutput(nullptr, x, y, out, avg, true);          \
  }

}  // namespace

BOOST_AUTO_TEST_CASE(abs_criterion) {
  Pointwise c;
  c.name = "AbsCriterion";
  c.loss = [](double x, double y, size_t) { return std::fabs(x - y); };
  c.input = uniformGen(1, -1, 1);
  c.target = uniformGen(2, -1, 1);
  STANDARD(AbsCriterion);
  checkAll(c);
}

BOOST_AUTO_TEST_CASE(mse_criterion) {
  Pointwise c;
  c.name = "MSECriterion";
  c.loss = [](double x, double y, size_t) { return (x - y) * (x - y); };
  c.input = uniformGen(3, -1, 1);
  c.target = uniformGen(4, -1, 1);
  STANDARD(MSECriterion);
  checkAll(c);
}

BOOST_AUTO_TEST_CASE(smooth_l1_criterion) {
  Pointwise c;
  c.name = "SmoothL1Criterion";
  c.loss = [](double x, double y, size_t) {
    double d = std::fabs(x - y);
    return d < 1 ? d * d / 2 : d - 0.5;
  };
  c.input = uniformGen(5, -2, 2);  // both branches
  c.target = uniformGen(6, -1, 1);
  STANDARD(SmoothL1Criterion);
  checkAll(c);
}

BOOST_AUTO_TEST_CASE(soft_margin_criterion) {
  Pointwise c;
  c.name = "SoftMarginCriterion";
  c.loss = [](double x, double y, size_t) { return std::log(1 + std::exp(-x * y)); };
  c.input = uniformGen(7, -3, 3);
  c.target = signGen(8);
  STANDARD(SoftMarginCriterion);
  checkAll(c);
}

BOOST_AUTO_TEST_CASE(dist_kl_div_criterion) {
  Pointwise c;
  c.name = "DistKLDivCriterion";
  c.loss = [](double x, double y, size_t) { return y > 0 ? y * (std::log(y) - x) : 0.0; };
  c.input = uniformGen(9, -3, 0);
  auto u = uniformGen(10, 0, 1);
  c.target = [u](size_t i) { return i % 4 == 1 ? 0.0 : u(i); };  // zero targets count nothing
  STANDARD(DistKLDivCriterion);
  checkAll(c);
}

BOOST_AUTO_TEST_CASE(bce_criterion) {
  for (bool weighted : {false, true}) {
    Pointwise c;
    c.name = weighted ? "BCECriterion weighted" : "BCECriterion";
    auto weightOf = [weighted](size_t i) { return weighted ? 0.5 + 0.25 * (i % 4) : 1.0; };
    c.loss = [weightOf](double x, double y, size_t i) {
      return -weightOf(i) * (y * std::log(x + 1e-12) + (1 - y) * std::log(1 - x + 1e-12));
    };
    c.input = uniformGen(11, 0.05, 0.95);
    c.target = uniformGen(12, 0, 1);
    // weights have input's element count, any shape: here a flat vector
    auto weightsFor = [weighted, weightOf](auto *x) {
      using T = std::remove_pointer_t<decltype(x->storage->data)>;
      return weighted ? th::own(tensorOf<T>({th::numel(th::ref(x))}, weightOf))
                      : th::Owned<typename th::TH<T>::Tensor>(nullptr);
    };
    c.forward = [weightsFor](DT *x, DT *y, DT *out, bool avg, bool reduce) {
      auto w = weightsFor(x);
      THNN_DoubleBCECriterion_updateOutput(nullptr, x, y, out, avg, w.get(), reduce);
    };
    c.backward = [weightsFor](DT *x, DT *y, DT *go, DT *gi, bool avg, bool reduce) {
      auto w = weightsFor(x);
      THNN_DoubleBCECriterion_updateGradInput(nullptr, x, y, go, gi, avg, w.get(), reduce);
    };
    c.forwardFloat = [weightsFor](FT *x, FT *y, FT *out, bool avg) {
      auto w = weightsFor(x);
      THNN_FloatBCECriterion_updateOutput(nullptr, x, y, out, avg, w.get(), true);
    };
    checkAll(c);
  }
  // an input outside [0, 1] throws, the output is untouched
  auto x = th::own(tensorOf({4}, [](size_t i) { return i == 2 ? 1.5 : 0.5; }));
  auto y = th::own(tensorOf({4}, [](size_t) { return 1.0; }));
  auto out = th::own(tensorOf({1}, [](size_t) { return 42.0; }));
  BOOST_CHECK_THROW(THNN_DoubleBCECriterion_updateOutput(nullptr, x.get(), y.get(), out.get(), true, nullptr, true),
                    th::Error);
  BOOST_CHECK_THROW(THNN_DoubleBCECriterion_updateOutput(nullptr, x.get(), y.get(), out.get(), true, nullptr, false),
                    th::Error);
  BOOST_CHECK_EQUAL(THDoubleTensor_get1d(out.get(), 0), 42.0);
  // weights of the wrong count
  auto xs = th::own(tensorOf({4}, [](size_t) { return 0.5; }));
  auto w = th::own(tensorOf({3}, [](size_t) { return 1.0; }));
  BOOST_CHECK_THROW(THNN_DoubleBCECriterion_updateOutput(nullptr, xs.get(), y.get(), out.get(), true, w.get(), true),
                    th::Error);
  BOOST_CHECK_EQUAL(THDoubleTensor_get1d(out.get(), 0), 42.0);
  // 0 and 1 are legal inputs: eps keeps the loss finite
  auto edge = th::own(tensorOf({2}, [](size_t i) { return i == 0 ? 0.0 : 1.0; }));
  auto wrong = th::own(tensorOf({2}, [](size_t i) { return i == 0 ? 1.0 : 0.0; }));
  THNN_DoubleBCECriterion_updateOutput(nullptr, edge.get(), wrong.get(), out.get(), false, nullptr, true);
  BOOST_CHECK_CLOSE(THDoubleTensor_get1d(out.get(), 0), -2 * std::log(1e-12), 1e-9);
}

BOOST_AUTO_TEST_CASE(margin_criterion) {
  for (double margin : {1.0, 0.5}) {
    Pointwise c;
    c.name = "MarginCriterion margin " + std::to_string(margin);
    c.loss = [margin](double x, double y, size_t) { return std::max(0.0, margin - x * y); };
    c.input = uniformGen(13, -2, 2);
    c.target = signGen(14);
    c.hasReduce = false;
    c.takesGradOutput = false;
    c.forward = [margin](DT *x, DT *y, DT *out, bool avg, bool) {
      THNN_DoubleMarginCriterion_updateOutput(nullptr, x, y, out, avg, margin);
    };
    c.backward = [margin](DT *x, DT *y, DT *, DT *gi, bool avg, bool) {
      THNN_DoubleMarginCriterion_updateGradInput(nullptr, x, y, gi, avg, margin);
    };
    c.forwardFloat = [margin](FT *x, FT *y, FT *out, bool avg) {
      THNN_FloatMarginCriterion_updateOutput(nullptr, x, y, out, avg, margin);
    };
    checkAll(c);
  }
}

// With reduce, a NULL gradOutput reads as 1.
BOOST_AUTO_TEST_CASE(null_grad_output_is_one) {
  auto x = th::own(tensorOf({2, 3}, uniformGen(15, -1, 1))), y = th::own(tensorOf({6}, uniformGen(16, -1, 1)));
  auto one = th::own(tensorOf({1}, [](size_t) { return 1.0; }));
  auto g1 = th::own(THDoubleTensor_new()), g2 = th::own(THDoubleTensor_new());
  THNN_DoubleMSECriterion_updateGradInput(nullptr, x.get(), y.get(), nullptr, g1.get(), true, true);
  THNN_DoubleMSECriterion_updateGradInput(nullptr, x.get(), y.get(), one.get(), g2.get(), true, true);
  BOOST_CHECK(values(g1.get()) == values(g2.get()));
  auto vx = values(x.get()), vy = values(y.get()), vg = values(g1.get());
  for (size_t i = 0; i < 6; i++) BOOST_CHECK_SMALL(vg[i] - 2 * (vx[i] - vy[i]) / 6, 1e-15);
}

BOOST_AUTO_TEST_CASE(l1_cost) {
  for (const auto &shape : kShapes) {
    auto x = th::own(tensorOf(shape, uniformGen(17, -1, 1)));
    auto out = th::own(THDoubleTensor_new());
    THNN_DoubleL1Cost_updateOutput(nullptr, x.get(), out.get());
    double expected = 0;
    for (double v : values(x.get())) expected += std::fabs(v);
    BOOST_REQUIRE_EQUAL(THDoubleTensor_nElement(out.get()), 1);
    BOOST_CHECK_SMALL(THDoubleTensor_get1d(out.get(), 0) - expected, 1e-12);
    for (double scale : {1.0, 0.3}) {
      auto go = th::own(tensorOf({1}, [scale](size_t) { return scale; }));
      auto gi = th::own(THDoubleTensor_new());
      THNN_DoubleL1Cost_updateGradInput(nullptr, x.get(), scale == 1.0 ? nullptr : go.get(), gi.get());
      BOOST_REQUIRE(THDoubleTensor_isSameSizeAs(gi.get(), x.get()));
      auto tmp = th::own(THDoubleTensor_new());
      auto numeric = thnnt::numericalGrad(x.get(), [&] {
        THNN_DoubleL1Cost_updateOutput(nullptr, x.get(), tmp.get());
        return scale * THDoubleTensor_get1d(tmp.get(), 0);
      });
      BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gi.get()), numeric), 1e-6);
    }
  }
  // transposed input, Float
  auto base = th::own(tensorOf({4, 3}, uniformGen(18, -1, 1)));
  auto xt = th::own(THDoubleTensor_newTranspose(base.get(), 0, 1));
  auto o1 = th::own(THDoubleTensor_new()), o2 = th::own(THDoubleTensor_new());
  THNN_DoubleL1Cost_updateOutput(nullptr, xt.get(), o1.get());
  THNN_DoubleL1Cost_updateOutput(nullptr, base.get(), o2.get());
  BOOST_CHECK_SMALL(THDoubleTensor_get1d(o1.get(), 0) - THDoubleTensor_get1d(o2.get(), 0), 1e-14);
  auto gi = th::own(THDoubleTensor_new());
  THNN_DoubleL1Cost_updateGradInput(nullptr, xt.get(), nullptr, gi.get());
  auto vx = values(xt.get()), vg = values(gi.get());
  for (size_t i = 0; i < vx.size(); i++) BOOST_CHECK_EQUAL(vg[i], vx[i] > 0 ? 1.0 : -1.0);
  auto xf = th::own(tensorOf<float>({3, 5}, uniformGen(19, -1, 1)));
  auto of = th::own(THFloatTensor_new());
  THNN_FloatL1Cost_updateOutput(nullptr, xf.get(), of.get());
  double expected = 0;
  for (double v : values(xf.get())) expected += std::fabs(v);
  BOOST_CHECK_SMALL(THFloatTensor_get1d(of.get(), 0) - expected, 1e-5);
  // a gradOutput of two elements throws, gradInput untouched
  auto go2 = th::own(tensorOf({2}, [](size_t) { return 1.0; }));
  auto before = values(gi.get());
  BOOST_CHECK_THROW(THNN_DoubleL1Cost_updateGradInput(nullptr, xt.get(), go2.get(), gi.get()), th::Error);
  BOOST_CHECK(values(gi.get()) == before);
}

// Above TH_OMP_THRESHOLD elements the sums and element-wise passes run on several threads.
BOOST_AUTO_TEST_CASE(large_inputs) {
  const int64_t n = 50001;
  auto x = th::own(thnnt::randomTensor<double>({n}, 20, 0.05, 0.95));
  auto y = th::own(thnnt::randomTensor<double>({n}, 21, 0, 1));
  auto w = th::own(thnnt::randomTensor<double>({n}, 22, 0.5, 1.5));
  auto vx = values(x.get()), vy = values(y.get()), vw = values(w.get());
  auto out = th::own(THDoubleTensor_new());
  THNN_DoubleMSECriterion_updateOutput(nullptr, x.get(), y.get(), out.get(), true, true);
  double mse = 0;
  for (int64_t i = 0; i < n; i++) mse += (vx[i] - vy[i]) * (vx[i] - vy[i]);
  BOOST_CHECK_CLOSE(THDoubleTensor_get1d(out.get(), 0), mse / n, 1e-9);
  THNN_DoubleBCECriterion_updateOutput(nullptr, x.get(), y.get(), out.get(), false, w.get(), false);
  auto vo = values(out.get());
  double worst = 0;
  for (int64_t i = 0; i < n; i++)
    worst = std::max(worst, std::fabs(vo[i] + vw[i] * (vy[i] * std::log(vx[i] + 1e-12) +
                                                       (1 - vy[i]) * std::log(1 - vx[i] + 1e-12))));
  BOOST_CHECK_SMALL(worst, 1e-12);
  auto gi = th::own(THDoubleTensor_new());
  THNN_DoubleSmoothL1Criterion_updateGradInput(nullptr, x.get(), y.get(), nullptr, gi.get(), false, true);
  auto vg = values(gi.get());
  worst = 0;
  for (int64_t i = 0; i < n; i++) worst = std::max(worst, std::fabs(vg[i] - (vx[i] - vy[i])));  // |x - y| < 1
  BOOST_CHECK_SMALL(worst, 1e-15);
}
