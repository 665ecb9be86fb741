// Activations: every forward against its definition written as a plain loop (torch7's
// boundary choices included), every backward against central differences, in-place
// variants against the out-of-place ones, RReLU's draws against a replayed generator, and
// bad arguments.
#define BOOST_TEST_MODULE THNN activations
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "thnn_test_util.hpp"

namespace {

using thnnt::maxAbsDiff;
using thnnt::values;
using D = THDoubleTensor;
using F = THFloatTensor;
using Sizes = std::vector<int64_t>;
using Values = std::vector<double>;

template <typename TensorT>
Sizes sizes(TensorT *t) {
  return Sizes(t->size, t->size + t->nDimension);
}

template <typename T = double>
typename th::TH<T>::Tensor *newTensor(const Sizes &s, const Values &v) {
  auto *t = th::TH<T>::newWithSize((int)s.size(), s.data(), nullptr);
  thnnt::setValues(t, v);
  return t;
}

// The same values in a non-contiguous tensor: every other element of a larger storage.
D *newStrided(const Sizes &s, const Values &v) {
  Sizes wide = s;
  wide.push_back(2);
  auto base = th::own(newTensor(wide, Values(2 * v.size(), NAN)));
  D *t = THDoubleTensor_newSelect(base.get(), (int)s.size(), 0);
  thnnt::setValues(t, v);
  return t;
}

// The same values in a transposed view (last two dimensions).
D *newTransposed(const Sizes &s, const Values &v) {
  const int n = (int)s.size();
  Sizes swapped = s;
  std::swap(swapped[n - 1], swapped[n - 2]);
  auto base = th::own(newTensor(swapped, Values(v.size(), NAN)));
  D *t = THDoubleTensor_newTranspose(base.get(), n - 2, n - 1);
  thnnt::setValues(t, v);
  return t;
}

int64_t count(const Sizes &s) {
  int64_t n = 1;
  for (int64_t x : s) n *= x;
  return n;
}

// Uniform values moved at least `gap` away from the points where a function has a kink.
Values awayFrom(Values v, const Values &kinks, double gap = 0.05) {
  for (double &x : v)
    for (double k : kinks)
      if (std::fabs(x - k) < gap) x = x < k ? k - gap : k + gap;
  return v;
}

// f must raise th::Error and leave every tensor of `watched` as it was.
template <typename Fn>
void checkRaisesUnchanged(Fn f, std::vector<D *> watched) {
  std::vector<Sizes> sizesBefore;
  std::vector<Values> before;
  for (D *t : watched) {
    sizesBefore.push_back(sizes(t));
    before.push_back(values(t));
  }
  BOOST_CHECK_THROW(f(), th::Error);
  for (size_t i = 0; i < watched.size(); i++) {
    BOOST_CHECK(sizes(watched[i]) == sizesBefore[i]);
    BOOST_CHECK(values(watched[i]) == before[i]);
  }
}

// backward(x, gradOutput, gradInput) against d/dx sum(gradOutput * forward(x)).
void checkGradient(const std::function<void(D *, D *)> &forward, const std::function<void(D *, D *, D *)> &backward,
                   D *x, D *gradOutput, double tol = 1e-7) {
  auto numeric = thnnt::numericalGrad(x, [&] {
    auto y = th::own(THDoubleTensor_new());
    forward(x, y.get());
    return thnnt::dot(gradOutput, y.get());
  });
  auto gradInput = th::own(THDoubleTensor_new());
  backward(x, gradOutput, gradInput.get());
  BOOST_CHECK(sizes(gradInput.get()) == sizes(x));
  BOOST_CHECK_SMALL(maxAbsDiff(values(gradInput.get()), numeric), tol);
}

/* ---- Element-wise activations, one table ---- */

struct Pointwise {
  std::string name;
  std::function<double(double)> ref;  // the definition, torch7's choice at the boundaries
  Values kinks;                       // gradients are checked away from these
  double lo, hi;                      // input range
  std::function<void(D *, D *)> forward;
  std::function<void(F *, F *)> forwardFloat;
  std::function<void(D *, D *, D *)> backward;  // (input, gradOutput, gradInput), runs its own forward
};

template <typename Fwd>
Pointwise pointwise(std::string name, std::function<double(double)> ref, Values kinks, double lo, double hi, Fwd fwd,
                    std::function<void(D *, D *, D *)> bwd) {
  return Pointwise{name, ref, kinks, lo, hi, fwd, fwd, bwd};
}

std::vector<Pointwise> pointwiseCases() {
  auto fresh = [] { return th::own(THDoubleTensor_new()); };
  return {
      pointwise(
          "Abs", [](double x) { return std::fabs(x); }, {0}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), Abs_updateOutput)
            (nullptr, x, y);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleAbs_updateGradInput(nullptr, x, g, gi); }),
      pointwise(
          "ELU", [](double x) { return x > 0 ? x : 1.3 * (std::exp(x) - 1); }, {0}, -3, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), ELU_updateOutput)
            (nullptr, x, y, 1.3, false);
          },
          [fresh](D *x, D *g, D *gi) {
            auto y = fresh();
            THNN_DoubleELU_updateOutput(nullptr, x, y.get(), 1.3, false);
            THNN_DoubleELU_updateGradInput(nullptr, x, g, gi, y.get(), 1.3, false);
          }),
      pointwise(
          "HardShrink", [](double x) { return x > 0.5 || x < -0.5 ? x : 0; }, {-0.5, 0.5}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), HardShrink_updateOutput)
            (nullptr, x, y, 0.5);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleHardShrink_updateGradInput(nullptr, x, g, gi, 0.5); }),
      pointwise(
          "HardTanh", [](double x) { return x < -0.7 ? -0.7 : (x > 0.4 ? 0.4 : x); }, {-0.7, 0.4}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), HardTanh_updateOutput)
            (nullptr, x, y, -0.7, 0.4, false);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleHardTanh_updateGradInput(nullptr, x, g, gi, -0.7, 0.4, false); }),
      pointwise(
          "LeakyReLU", [](double x) { return x > 0 ? x : 0.1 * x; }, {0}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), LeakyReLU_updateOutput)
            (nullptr, x, y, 0.1, false);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleLeakyReLU_updateGradInput(nullptr, x, g, gi, 0.1, false); }),
      pointwise(
          "LogSigmoid", [](double x) { return -std::log(1 + std::exp(-x)); }, {}, -4, 4,
          [](auto *x, auto *y) {
            using A = th::TH<thnnt::ElemOf<std::remove_pointer_t<decltype(x)>>>;
            auto buffer = th::own(A::newEmpty());
            THNN_KERNEL(decltype(x), LogSigmoid_updateOutput)(nullptr, x, y, buffer.get());
          },
          [fresh](D *x, D *g, D *gi) {
            auto y = fresh(), buffer = fresh();
            THNN_DoubleLogSigmoid_updateOutput(nullptr, x, y.get(), buffer.get());
            THNN_DoubleLogSigmoid_updateGradInput(nullptr, x, g, gi, buffer.get());
          }),
      pointwise(
          "RReLU (evaluation)", [](double x) { return x > 0 ? x : 0.25 * x; }, {0}, -2, 2,
          [](auto *x, auto *y) {
            using A = th::TH<thnnt::ElemOf<std::remove_pointer_t<decltype(x)>>>;
            auto noise = th::own(A::newEmpty());
            THNN_KERNEL(decltype(x), RReLU_updateOutput)(nullptr, x, y, noise.get(), 0.1, 0.4, false, false, nullptr);
          },
          [fresh](D *x, D *g, D *gi) {
            auto noise = fresh();
            THNN_DoubleRReLU_updateGradInput(nullptr, x, g, gi, noise.get(), 0.1, 0.4, false, false);
          }),
      pointwise(
          "Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, {}, -4, 4,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), Sigmoid_updateOutput)
            (nullptr, x, y);
          },
          [fresh](D *x, D *g, D *gi) {
            auto y = fresh();
            THNN_DoubleSigmoid_updateOutput(nullptr, x, y.get());
            THNN_DoubleSigmoid_updateGradInput(nullptr, g, gi, y.get());
          }),
      pointwise(
          "SoftPlus", [](double x) { return 2 * x > 3 ? x : std::log(1 + std::exp(2 * x)) / 2; }, {1.5}, -3, 3,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), SoftPlus_updateOutput)
            (nullptr, x, y, 2, 3);
          },
          [fresh](D *x, D *g, D *gi) {
            auto y = fresh();
            THNN_DoubleSoftPlus_updateOutput(nullptr, x, y.get(), 2, 3);
            THNN_DoubleSoftPlus_updateGradInput(nullptr, x, g, gi, y.get(), 2, 3);
          }),
      pointwise(
          "SoftShrink", [](double x) { return x > 0.5 ? x - 0.5 : (x < -0.5 ? x + 0.5 : 0); }, {-0.5, 0.5}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), SoftShrink_updateOutput)
            (nullptr, x, y, 0.5);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleSoftShrink_updateGradInput(nullptr, x, g, gi, 0.5); }),
      pointwise(
          "Sqrt", [](double x) { return std::sqrt(x + 0.25); }, {}, 0.1, 3,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), Sqrt_updateOutput)
            (nullptr, x, y, 0.25);
          },
          [fresh](D *x, D *g, D *gi) {
            auto y = fresh();
            THNN_DoubleSqrt_updateOutput(nullptr, x, y.get(), 0.25);
            THNN_DoubleSqrt_updateGradInput(nullptr, x, g, gi, y.get());
          }),
      pointwise(
          "Square", [](double x) { return x * x; }, {}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), Square_updateOutput)
            (nullptr, x, y);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleSquare_updateGradInput(nullptr, x, g, gi); }),
      pointwise(
          "Tanh", [](double x) { return std::tanh(x); }, {}, -3, 3,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), Tanh_updateOutput)
            (nullptr, x, y);
          },
          [fresh](D *x, D *g, D *gi) {
            auto y = fresh();
            THNN_DoubleTanh_updateOutput(nullptr, x, y.get());
            THNN_DoubleTanh_updateGradInput(nullptr, g, gi, y.get());
          }),
      pointwise(
          "Threshold", [](double x) { return x > 0.3 ? x : -0.2; }, {0.3}, -2, 2,
          [](auto *x, auto *y) {
            THNN_KERNEL(decltype(x), Threshold_updateOutput)
            (nullptr, x, y, 0.3, -0.2, false);
          },
          [](D *x, D *g, D *gi) { THNN_DoubleThreshold_updateGradInput(nullptr, x, g, gi, 0.3, -0.2, false); }),
  };
}

Values applyRef(const Pointwise &c, const Values &x) {
  Values y;
  for (double v : x) y.push_back(c.ref(v));
  return y;
}

BOOST_AUTO_TEST_CASE(pointwise_forward_matches_definition) {
  unsigned seed = 1;
  for (const auto &c : pointwiseCases()) {
    BOOST_TEST_CONTEXT(c.name) {
      // Random values plus the boundaries themselves, where torch7's choice must hold.
      Values v = thnnt::uniform(21, seed++, c.lo, c.hi);
      for (double k : c.kinks) v.push_back(k);
      auto x1 = th::own(newTensor({(int64_t)v.size()}, v));
      auto y1 = th::own(THDoubleTensor_new());
      c.forward(x1.get(), y1.get());
      BOOST_CHECK(sizes(y1.get()) == sizes(x1.get()));
      BOOST_CHECK_SMALL(maxAbsDiff(values(y1.get()), applyRef(c, v)), 1e-12);

      for (Sizes s : {Sizes{3, 5}, Sizes{2, 3, 4}}) {
        Values u = thnnt::uniform(count(s), seed++, c.lo, c.hi);
        // non-contiguous input, and an output that is a transposed view of the right sizes
        auto x = th::own(newTransposed(s, u));
        auto y = th::own(newTransposed(s, Values(u.size(), 0)));
        c.forward(x.get(), y.get());
        BOOST_CHECK(sizes(y.get()) == s);
        BOOST_CHECK(!THDoubleTensor_isContiguous(y.get()));
        BOOST_CHECK_SMALL(maxAbsDiff(values(y.get()), applyRef(c, u)), 1e-12);
        BOOST_CHECK(values(x.get()) == u);
      }

      Values u = thnnt::uniform(20, seed++, c.lo, c.hi);
      auto xf = th::own(newTensor<float>({4, 5}, u));
      auto yf = th::own(THFloatTensor_new());
      c.forwardFloat(xf.get(), yf.get());
      BOOST_CHECK(sizes(yf.get()) == Sizes({4, 5}));
      BOOST_CHECK_SMALL(maxAbsDiff(values(yf.get()), applyRef(c, values(xf.get()))), 1e-5);
    }
  }
}

BOOST_AUTO_TEST_CASE(pointwise_gradients_match_central_differences) {
  unsigned seed = 100;
  for (const auto &c : pointwiseCases()) {
    BOOST_TEST_CONTEXT(c.name) {
      for (Sizes s : {Sizes{7}, Sizes{3, 4}, Sizes{2, 3, 2}}) {
        Values u = awayFrom(thnnt::uniform(count(s), seed++, c.lo, c.hi), c.kinks);
        auto g = th::own(newTensor(s, thnnt::uniform(count(s), seed++)));
        auto x = th::own(newTensor(s, u));
        checkGradient(c.forward, c.backward, x.get(), g.get());
        auto xs = th::own(newStrided(s, u));
        auto gs = th::own(newStrided(s, values(g.get())));
        checkGradient(c.forward, c.backward, xs.get(), gs.get());
      }
      // torch7's rule: gradOutput may have another shape with as many elements.
      Values u = awayFrom(thnnt::uniform(6, seed++, c.lo, c.hi), c.kinks);
      auto x = th::own(newTensor({2, 3}, u));
      auto g = th::own(newTensor({6}, thnnt::uniform(6, seed++)));
      checkGradient(c.forward, c.backward, x.get(), g.get());
    }
  }
}

BOOST_AUTO_TEST_CASE(pointwise_bad_gradOutput_raises_and_leaves_gradInput_unchanged) {
  for (const auto &c : pointwiseCases()) {
    BOOST_TEST_CONTEXT(c.name) {
      auto x = th::own(newTensor({3, 4}, awayFrom(thnnt::uniform(12, 7, c.lo, c.hi), c.kinks)));
      auto g = th::own(newTensor({13}, thnnt::uniform(13, 8)));
      auto gi = th::own(newTensor({2, 2}, {1, 2, 3, 4}));
      checkRaisesUnchanged([&] { c.backward(x.get(), g.get(), gi.get()); }, {x.get(), g.get(), gi.get()});
    }
  }
}

BOOST_AUTO_TEST_CASE(log_sigmoid_and_softplus_are_stable_for_large_inputs) {
  const Values v = {-800, -100, -30, 30, 100, 800};
  auto x = th::own(newTensor({6}, v));
  auto y = th::own(THDoubleTensor_new()), buffer = th::own(THDoubleTensor_new());
  THNN_DoubleLogSigmoid_updateOutput(nullptr, x.get(), y.get(), buffer.get());
  // log sigmoid(x) = x - log(1 + exp(x)) for x < 0, -log(1 + exp(-x)) for x >= 0
  Values ref;
  for (double t : v) ref.push_back(t < 0 ? t - std::log1p(std::exp(t)) : -std::log1p(std::exp(-t)));
  BOOST_CHECK_SMALL(maxAbsDiff(values(y.get()), ref), 1e-12);
  auto g = th::own(newTensor({6}, Values(6, 1))), gi = th::own(THDoubleTensor_new());
  THNN_DoubleLogSigmoid_updateGradInput(nullptr, x.get(), g.get(), gi.get(), buffer.get());
  Values dref;
  for (double t : v) dref.push_back(1 / (1 + std::exp(t)));
  BOOST_CHECK_SMALL(maxAbsDiff(values(gi.get()), dref), 1e-15);
  BOOST_CHECK_CLOSE(values(gi.get())[3], std::exp(-30.0) / (1 + std::exp(-30.0)), 1e-9);

  auto xf = th::own(newTensor<float>({6}, v)), yf = th::own(THFloatTensor_new());
  THNN_FloatSoftPlus_updateOutput(nullptr, xf.get(), yf.get(), 1, 20);
  Values sp = values(yf.get());
  for (size_t i = 0; i < v.size(); i++) {
    BOOST_CHECK(std::isfinite(sp[i]));
    BOOST_CHECK_SMALL(sp[i] - std::max(v[i], 0.0) - std::log1p(std::exp(-std::fabs(v[i]))), 1e-5);
  }
}

BOOST_AUTO_TEST_CASE(log_sigmoid_bad_buffer_raises) {
  auto x = th::own(newTensor({4}, {-1, 0.5, 2, -3}));
  auto g = th::own(newTensor({4}, {1, 1, 1, 1}));
  auto buffer = th::own(newTensor({3}, {1, 1, 1}));
  auto gi = th::own(THDoubleTensor_new());
  checkRaisesUnchanged(
      [&] { THNN_DoubleLogSigmoid_updateGradInput(nullptr, x.get(), g.get(), gi.get(), buffer.get()); }, {gi.get()});
}

/* ---- In-place variants ---- */

struct Inplace {
  std::string name;
  Values kinks;
  std::function<void(D *, D *, bool)> forward;             // (input, output, inplace)
  std::function<void(D *, D *, D *, D *, bool)> backward;  // (input, gradOutput, gradInput, output, inplace)
};

std::vector<Inplace> inplaceCases() {
  return {
      {"ELU",
       {0},
       [](D *x, D *y, bool ip) { THNN_DoubleELU_updateOutput(nullptr, x, y, 0.8, ip); },
       [](D *x, D *g, D *gi, D *y, bool ip) { THNN_DoubleELU_updateGradInput(nullptr, x, g, gi, y, 0.8, ip); }},
      {"HardTanh",
       {-0.5, 0.9},
       [](D *x, D *y, bool ip) { THNN_DoubleHardTanh_updateOutput(nullptr, x, y, -0.5, 0.9, ip); },
       [](D *x, D *g, D *gi, D *, bool ip) { THNN_DoubleHardTanh_updateGradInput(nullptr, x, g, gi, -0.5, 0.9, ip); }},
      {"LeakyReLU",
       {0},
       [](D *x, D *y, bool ip) { THNN_DoubleLeakyReLU_updateOutput(nullptr, x, y, 0.2, ip); },
       [](D *x, D *g, D *gi, D *, bool ip) { THNN_DoubleLeakyReLU_updateGradInput(nullptr, x, g, gi, 0.2, ip); }},
      {"RReLU (evaluation)",
       {0},
       [](D *x, D *y, bool ip) {
         auto noise = th::own(THDoubleTensor_new());
         THNN_DoubleRReLU_updateOutput(nullptr, x, y, noise.get(), 0.2, 0.5, false, ip, nullptr);
       },
       [](D *x, D *g, D *gi, D *, bool ip) {
         auto noise = th::own(THDoubleTensor_new());
         THNN_DoubleRReLU_updateGradInput(nullptr, x, g, gi, noise.get(), 0.2, 0.5, false, ip);
       }},
      {"Threshold",
       {0.1},
       [](D *x, D *y, bool ip) { THNN_DoubleThreshold_updateOutput(nullptr, x, y, 0.1, -0.3, ip); },
       [](D *x, D *g, D *gi, D *, bool ip) { THNN_DoubleThreshold_updateGradInput(nullptr, x, g, gi, 0.1, -0.3, ip); }},
  };
}

BOOST_AUTO_TEST_CASE(inplace_variants_match_out_of_place) {
  unsigned seed = 300;
  for (const auto &c : inplaceCases()) {
    BOOST_TEST_CONTEXT(c.name) {
      const Sizes s = {4, 5};
      const Values u = awayFrom(thnnt::uniform(20, seed++, -2, 2), c.kinks);
      const Values gv = thnnt::uniform(20, seed++);
      auto x = th::own(newTensor(s, u)), y = th::own(THDoubleTensor_new());
      auto g = th::own(newTensor(s, gv)), gi = th::own(THDoubleTensor_new());
      c.forward(x.get(), y.get(), false);
      c.backward(x.get(), g.get(), gi.get(), y.get(), false);
      BOOST_CHECK(values(x.get()) == u);
      BOOST_CHECK(values(g.get()) == gv);

      // In place on non-contiguous tensors: input becomes the output, gradOutput the gradient.
      auto xi = th::own(newTransposed(s, u)), yi = th::own(THDoubleTensor_new());
      c.forward(xi.get(), yi.get(), true);
      BOOST_CHECK(THDoubleTensor_isSetTo(yi.get(), xi.get()));
      BOOST_CHECK(values(xi.get()) == values(y.get()));
      auto gInPlace = th::own(newTransposed(s, gv)), giInPlace = th::own(THDoubleTensor_new());
      c.backward(xi.get(), gInPlace.get(), giInPlace.get(), xi.get(), true);
      BOOST_CHECK(THDoubleTensor_isSetTo(giInPlace.get(), gInPlace.get()));
      BOOST_CHECK_SMALL(maxAbsDiff(values(gInPlace.get()), values(gi.get())), 1e-15);
    }
  }
}

BOOST_AUTO_TEST_CASE(inplace_parameters_that_lose_the_sign_raise) {
  auto x = th::own(newTensor({4}, {-1, -0.5, 0.5, 1}));
  auto y = th::own(newTensor({1}, {9}));
  auto noise = th::own(THDoubleTensor_new());
  checkRaisesUnchanged([&] { THNN_DoubleELU_updateOutput(nullptr, x.get(), y.get(), -0.5, true); }, {x.get(), y.get()});
  checkRaisesUnchanged([&] { THNN_DoubleLeakyReLU_updateOutput(nullptr, x.get(), y.get(), -0.1, true); },
                       {x.get(), y.get()});
  checkRaisesUnchanged([&] { THNN_DoubleThreshold_updateOutput(nullptr, x.get(), y.get(), 0, 1, true); },
                       {x.get(), y.get()});
  checkRaisesUnchanged(
      [&] { THNN_DoubleRReLU_updateOutput(nullptr, x.get(), y.get(), noise.get(), -0.1, 0.3, true, true, nullptr); },
      {x.get(), y.get(), noise.get()});
  auto g = th::own(newTensor({4}, {1, 2, 3, 4}));
  auto gi = th::own(newTensor({1}, {9}));
  checkRaisesUnchanged([&] { THNN_DoubleELU_updateGradInput(nullptr, x.get(), g.get(), gi.get(), x.get(), -1, true); },
                       {x.get(), g.get(), gi.get()});
  checkRaisesUnchanged([&] { THNN_DoubleThreshold_updateGradInput(nullptr, x.get(), g.get(), gi.get(), 0, 1, true); },
                       {x.get(), g.get(), gi.get()});
  // Out of place these parameters are fine.
  BOOST_CHECK_NO_THROW(THNN_DoubleELU_updateOutput(nullptr, x.get(), y.get(), -0.5, false));
  BOOST_CHECK_NO_THROW(THNN_DoubleThreshold_updateOutput(nullptr, x.get(), y.get(), 0, 1, false));
}

BOOST_AUTO_TEST_CASE(bad_bounds_raise) {
  auto x = th::own(newTensor({3}, {-1, 0.5, 2}));
  auto y = th::own(newTensor({1}, {9}));
  auto noise = th::own(THDoubleTensor_new());
  checkRaisesUnchanged([&] { THNN_DoubleHardTanh_updateOutput(nullptr, x.get(), y.get(), 1, -1, false); },
                       {x.get(), y.get()});
  checkRaisesUnchanged(
      [&] { THNN_DoubleRReLU_updateOutput(nullptr, x.get(), y.get(), noise.get(), 0.5, 0.2, true, false, nullptr); },
      {x.get(), y.get(), noise.get()});
}

/* ---- RReLU in training ---- */

BOOST_AUTO_TEST_CASE(rrelu_train_draws_slopes_in_row_major_order_and_backward_reuses_them) {
  const double lower = 0.1, upper = 0.4;
  const Sizes s = {6, 7};
  const Values u = awayFrom(thnnt::uniform(42, 11), {0});
  auto x = th::own(newTransposed(s, u));
  auto y = th::own(THDoubleTensor_new()), noise = th::own(THDoubleTensor_new());
  THGenerator *gen = THGenerator_new();
  THRandom_manualSeed(gen, 42);
  THNN_DoubleRReLU_updateOutput(nullptr, x.get(), y.get(), noise.get(), lower, upper, true, false, gen);
  BOOST_CHECK(values(x.get()) == u);
  BOOST_REQUIRE(sizes(noise.get()) == s);

  // Replaying the generator gives one slope per x <= 0, in row-major order.
  THRandom_manualSeed(gen, 42);
  const Values ys = values(y.get()), rs = values(noise.get());
  int negatives = 0;
  double minSlope = upper, maxSlope = lower;
  for (size_t i = 0; i < u.size(); i++) {
    if (u[i] > 0) {
      BOOST_CHECK_EQUAL(rs[i], 1.0);
      BOOST_CHECK_EQUAL(ys[i], u[i]);
      continue;
    }
    negatives++;
    const double r = THRandom_uniform(gen, lower, upper);
    BOOST_CHECK_EQUAL(rs[i], r);
    BOOST_CHECK(r >= lower && r < upper);
    BOOST_CHECK_EQUAL(ys[i], u[i] * r);
    minSlope = std::min(minSlope, r);
    maxSlope = std::max(maxSlope, r);
  }
  BOOST_CHECK(negatives > 10);
  BOOST_CHECK(maxSlope - minSlope > 0.1);  // the slopes do vary

  // The backward multiplies by the same noise.
  const Values gv = thnnt::uniform(42, 12);
  auto g = th::own(newTensor(s, gv)), gi = th::own(THDoubleTensor_new());
  THNN_DoubleRReLU_updateGradInput(nullptr, x.get(), g.get(), gi.get(), noise.get(), lower, upper, true, false);
  BOOST_CHECK(sizes(gi.get()) == s);
  Values expected;
  for (size_t i = 0; i < gv.size(); i++) expected.push_back(gv[i] * rs[i]);
  BOOST_CHECK(values(gi.get()) == expected);

  // In place with the same seed: the same slopes, written into input and gradOutput.
  THRandom_manualSeed(gen, 42);
  auto xi = th::own(newTensor(s, u)), yi = th::own(THDoubleTensor_new()), noiseIn = th::own(THDoubleTensor_new());
  THNN_DoubleRReLU_updateOutput(nullptr, xi.get(), yi.get(), noiseIn.get(), lower, upper, true, true, gen);
  BOOST_CHECK(THDoubleTensor_isSetTo(yi.get(), xi.get()));
  BOOST_CHECK(values(xi.get()) == ys);
  BOOST_CHECK(values(noiseIn.get()) == rs);
  auto gIn = th::own(newTensor(s, gv)), giIn = th::own(THDoubleTensor_new());
  THNN_DoubleRReLU_updateGradInput(nullptr, xi.get(), gIn.get(), giIn.get(), noiseIn.get(), lower, upper, true, true);
  BOOST_CHECK(THDoubleTensor_isSetTo(giIn.get(), gIn.get()));
  BOOST_CHECK(values(gIn.get()) == expected);

  // A noise of the wrong size is refused.
  auto shortNoise = th::own(newTensor({5}, Values(5, 1)));
  checkRaisesUnchanged(
      [&] {
        THNN_DoubleRReLU_updateGradInput(nullptr, x.get(), g.get(), gi.get(), shortNoise.get(), lower, upper, true,
                                         false);
      },
      {gi.get(), g.get()});
  THGenerator_free(gen);
}

BOOST_AUTO_TEST_CASE(rrelu_train_with_equal_bounds_uses_the_fixed_slope) {
  auto x = th::own(newTensor({4}, {-2, -0.5, 0.5, 3}));
  auto y = th::own(THDoubleTensor_new()), noise = th::own(THDoubleTensor_new());
  THNN_DoubleRReLU_updateOutput(nullptr, x.get(), y.get(), noise.get(), 0.25, 0.25, true, false, nullptr);
  BOOST_CHECK(values(y.get()) == Values({-0.5, -0.125, 0.5, 3}));
  // torch7 ignores the noise here: a stale one does not change the gradient.
  auto stale = th::own(newTensor({4}, {7, 7, 7, 7}));
  auto g = th::own(newTensor({4}, {1, 2, 3, 4})), gi = th::own(THDoubleTensor_new());
  THNN_DoubleRReLU_updateGradInput(nullptr, x.get(), g.get(), gi.get(), stale.get(), 0.25, 0.25, true, false);
  BOOST_CHECK(values(gi.get()) == Values({0.25, 0.5, 3, 4}));
}

/* ---- SoftMax and LogSoftMax ---- */

// torch7's class dimension, and the lines along it, by plain index arithmetic.
Values referenceSoftMax(const Values &x, const Sizes &s, bool log) {
  const size_t dim = s.size() % 2 == 1 ? 0 : 1;
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < dim; d++) outer *= s[d];
  for (size_t d = dim + 1; d < s.size(); d++) inner *= s[d];
  const int64_t n = s[dim];
  Values y(x.size());
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      auto at = [&](int64_t k) { return (o * n + k) * inner + i; };
      double max = -INFINITY, sum = 0;
      for (int64_t k = 0; k < n; k++) max = std::max(max, x[at(k)]);
      for (int64_t k = 0; k < n; k++) sum += std::exp(x[at(k)] - max);
      for (int64_t k = 0; k < n; k++) y[at(k)] = log ? x[at(k)] - max - std::log(sum) : std::exp(x[at(k)] - max) / sum;
    }
  return y;
}

struct SoftMaxKind {
  std::string name;
  bool log;
  std::function<void(D *, D *)> forward;
  std::function<void(F *, F *)> forwardFloat;
  std::function<void(D *, D *, D *)> backward;
};

std::vector<SoftMaxKind> softMaxKinds() {
  auto softmax = [](auto *x, auto *y) { THNN_KERNEL(decltype(x), SoftMax_updateOutput)(nullptr, x, y); };
  auto logSoftmax = [](auto *x, auto *y) { THNN_KERNEL(decltype(x), LogSoftMax_updateOutput)(nullptr, x, y); };
  return {
      {"SoftMax", false, softmax, softmax,
       [](D *x, D *g, D *gi) {
         auto y = th::own(THDoubleTensor_new());
         THNN_DoubleSoftMax_updateOutput(nullptr, x, y.get());
         THNN_DoubleSoftMax_updateGradInput(nullptr, x, g, gi, y.get());
       }},
      {"LogSoftMax", true, logSoftmax, logSoftmax,
       [](D *x, D *g, D *gi) {
         auto y = th::own(THDoubleTensor_new());
         THNN_DoubleLogSoftMax_updateOutput(nullptr, x, y.get());
         THNN_DoubleLogSoftMax_updateGradInput(nullptr, x, g, gi, y.get());
       }},
  };
}

const std::vector<Sizes> kSoftMaxShapes = {{5}, {3, 5}, {4, 3, 2}, {2, 3, 2, 2}};

BOOST_AUTO_TEST_CASE(softmax_forward_over_torch7_dimension) {
  unsigned seed = 500;
  for (const auto &k : softMaxKinds()) {
    BOOST_TEST_CONTEXT(k.name) {
      for (const Sizes &s : kSoftMaxShapes) {
        const Values u = thnnt::uniform(count(s), seed++, -3, 3);
        const Values ref = referenceSoftMax(u, s, k.log);
        auto x = th::own(newTensor(s, u)), y = th::own(THDoubleTensor_new());
        k.forward(x.get(), y.get());
        BOOST_CHECK(sizes(y.get()) == s);
        BOOST_CHECK_SMALL(maxAbsDiff(values(y.get()), ref), 1e-12);
        auto xs = th::own(newStrided(s, u)), ys = th::own(THDoubleTensor_new());
        k.forward(xs.get(), ys.get());
        BOOST_CHECK_SMALL(maxAbsDiff(values(ys.get()), ref), 1e-12);
        if (s.size() >= 2) {
          auto xt = th::own(newTransposed(s, u)), yt = th::own(newTransposed(s, Values(u.size(), 0)));
          k.forward(xt.get(), yt.get());
          BOOST_CHECK_SMALL(maxAbsDiff(values(yt.get()), ref), 1e-12);
        }
        auto xf = th::own(newTensor<float>(s, u)), yf = th::own(THFloatTensor_new());
        k.forwardFloat(xf.get(), yf.get());
        BOOST_CHECK_SMALL(maxAbsDiff(values(yf.get()), referenceSoftMax(values(xf.get()), s, k.log)), 1e-5);
      }
      // The max is subtracted first: no overflow for large inputs.
      Values big = thnnt::uniform(15, seed++, 990, 1010);
      for (size_t i = 0; i < 5; i++) big[i] = -big[i];
      auto x = th::own(newTensor({3, 5}, big)), y = th::own(THDoubleTensor_new());
      k.forward(x.get(), y.get());
      for (double v : values(y.get())) BOOST_CHECK(std::isfinite(v));
      BOOST_CHECK_SMALL(maxAbsDiff(values(y.get()), referenceSoftMax(big, {3, 5}, k.log)), 1e-12);
      auto xf = th::own(newTensor<float>({3, 5}, big)), yf = th::own(THFloatTensor_new());
      k.forwardFloat(xf.get(), yf.get());
      for (double v : values(yf.get())) BOOST_CHECK(std::isfinite(v));
    }
  }
}

BOOST_AUTO_TEST_CASE(softmax_gradients_match_central_differences) {
  unsigned seed = 600;
  for (const auto &k : softMaxKinds()) {
    BOOST_TEST_CONTEXT(k.name) {
      for (const Sizes &s : kSoftMaxShapes) {
        const Values u = thnnt::uniform(count(s), seed++, -2, 2);
        const Values gv = thnnt::uniform(count(s), seed++);
        auto x = th::own(newTensor(s, u)), g = th::own(newTensor(s, gv));
        checkGradient(k.forward, k.backward, x.get(), g.get());
        auto xs = th::own(newStrided(s, u)), gs = th::own(newStrided(s, gv));
        checkGradient(k.forward, k.backward, xs.get(), gs.get());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(softmax_bad_shapes_raise_and_leave_outputs_unchanged) {
  for (const auto &k : softMaxKinds()) {
    BOOST_TEST_CONTEXT(k.name) {
      auto y = th::own(newTensor({2}, {1, 2}));
      auto x5 = th::own(newTensor({1, 2, 1, 2, 2}, thnnt::uniform(8, 1)));
      checkRaisesUnchanged([&] { k.forward(x5.get(), y.get()); }, {x5.get(), y.get()});
      auto x0 = th::own(THDoubleTensor_newWithSize0d());
      checkRaisesUnchanged([&] { k.forward(x0.get(), y.get()); }, {y.get()});
      // gradOutput with as many elements but another shape: the lines would not match.
      auto x = th::own(newTensor({3, 5}, thnnt::uniform(15, 2)));
      auto g = th::own(newTensor({5, 3}, thnnt::uniform(15, 3)));
      auto gi = th::own(newTensor({2}, {1, 2}));
      checkRaisesUnchanged([&] { k.backward(x.get(), g.get(), gi.get()); }, {x.get(), g.get(), gi.get()});
    }
  }
}

/* ---- PReLU ---- */

// Slope of every element: the one shared weight, or the weight of its channel (dimension 0
// for 1-D and 3-D input, 1 for 2-D and 4-D).
Values referencePReLU(const Values &x, const Sizes &s, const Values &w) {
  const size_t dim = s.size() % 2 == 1 ? 0 : 1;
  int64_t inner = 1;
  for (size_t d = dim + 1; d < s.size(); d++) inner *= s[d];
  Values y(x.size());
  for (size_t p = 0; p < x.size(); p++) {
    const double a = w.size() == 1 ? w[0] : w[(p / inner) % s[dim]];
    y[p] = x[p] > 0 ? x[p] : a * x[p];
  }
  return y;
}

struct PReLUCase {
  Sizes s;
  int64_t slopes;
};

const std::vector<PReLUCase> kPReLUCases = {{{5}, 1},    {{3, 5}, 1},    {{2, 3, 2, 2}, 1}, {{4}, 4},
                                            {{3, 4}, 4}, {{4, 2, 3}, 4}, {{2, 4, 3, 2}, 4}};

BOOST_AUTO_TEST_CASE(prelu_forward_and_gradients) {
  unsigned seed = 700;
  for (const auto &c : kPReLUCases) {
    BOOST_TEST_CONTEXT("sizes " << c.s.size() << "-D, " << c.slopes << " slopes") {
      const Values u = awayFrom(thnnt::uniform(count(c.s), seed++, -2, 2), {0});
      const Values gv = thnnt::uniform(count(c.s), seed++);
      auto w = th::own(newTensor({c.slopes}, thnnt::uniform(c.slopes, seed++, 0.05, 0.6)));
      const Values ref = referencePReLU(u, c.s, values(w.get()));
      auto forward = [&](D *x, D *y) { THNN_DoublePReLU_updateOutput(nullptr, x, y, w.get()); };
      auto backward = [&](D *x, D *g, D *gi) { THNN_DoublePReLU_updateGradInput(nullptr, x, g, gi, w.get()); };

      auto x = th::own(newTensor(c.s, u)), y = th::own(THDoubleTensor_new());
      forward(x.get(), y.get());
      BOOST_CHECK(sizes(y.get()) == c.s);
      BOOST_CHECK_SMALL(maxAbsDiff(values(y.get()), ref), 1e-15);
      auto xs = th::own(newStrided(c.s, u)), ys = th::own(THDoubleTensor_new());
      forward(xs.get(), ys.get());
      BOOST_CHECK_SMALL(maxAbsDiff(values(ys.get()), ref), 1e-15);
      auto xf = th::own(newTensor<float>(c.s, u)), yf = th::own(THFloatTensor_new());
      auto wf = th::own(newTensor<float>({c.slopes}, values(w.get())));
      THNN_FloatPReLU_updateOutput(nullptr, xf.get(), yf.get(), wf.get());
      BOOST_CHECK_SMALL(maxAbsDiff(values(yf.get()), referencePReLU(values(xf.get()), c.s, values(wf.get()))), 1e-6);

      auto g = th::own(newTensor(c.s, gv));
      checkGradient(forward, backward, x.get(), g.get());
      auto gs = th::own(newStrided(c.s, gv));
      checkGradient(forward, backward, xs.get(), gs.get());

      // gradWeight against central differences in the weights; scale multiplies, and adds
      // to what gradWeight held.
      auto numeric = thnnt::numericalGrad(w.get(), [&] {
        auto out = th::own(THDoubleTensor_new());
        forward(xs.get(), out.get());
        return thnnt::dot(gs.get(), out.get());
      });
      const Values start = thnnt::uniform(c.slopes, seed++);
      auto gw = th::own(newStrided({c.slopes}, start));
      THNN_DoublePReLU_accGradParameters(nullptr, xs.get(), gs.get(), nullptr, w.get(), gw.get(), 0.5);
      Values expected;
      for (int64_t i = 0; i < c.slopes; i++) expected.push_back(start[i] + 0.5 * numeric[i]);
      BOOST_CHECK_SMALL(maxAbsDiff(values(gw.get()), expected), 1e-7);
      BOOST_CHECK(values(xs.get()) == u);
    }
  }
}

BOOST_AUTO_TEST_CASE(prelu_weight_gradient_on_a_large_input) {
  // Large enough for several threads: partial sums per piece and channel.
  const Sizes s = {4, 3, 64, 64};
  const Values u = thnnt::uniform(count(s), 21, -1, 1), gv = thnnt::uniform(count(s), 22);
  auto x = th::own(newTensor(s, u)), g = th::own(newTensor(s, gv));
  for (int64_t slopes : {1, 3}) {
    BOOST_TEST_CONTEXT(slopes << " slopes") {
      auto w = th::own(newTensor({slopes}, Values(slopes, 0.25)));
      auto gw = th::own(newTensor({slopes}, Values(slopes, 0)));
      THNN_DoublePReLU_accGradParameters(nullptr, x.get(), g.get(), nullptr, w.get(), gw.get(), 1);
      Values ref(slopes, 0);
      for (size_t p = 0; p < u.size(); p++)
        if (u[p] <= 0) ref[slopes == 1 ? 0 : (p / (64 * 64)) % 3] += u[p] * gv[p];
      BOOST_CHECK_SMALL(maxAbsDiff(values(gw.get()), ref), 1e-9);
      auto y = th::own(THDoubleTensor_new());
      THNN_DoublePReLU_updateOutput(nullptr, x.get(), y.get(), w.get());
      BOOST_CHECK(values(y.get()) == referencePReLU(u, s, values(w.get())));
    }
  }
}

BOOST_AUTO_TEST_CASE(prelu_bad_weights_raise_and_leave_outputs_unchanged) {
  auto x = th::own(newTensor({2, 4, 3}, thnnt::uniform(24, 31)));  // 3-D: 2 channels in dimension 0
  auto g = th::own(newTensor({2, 4, 3}, thnnt::uniform(24, 32)));
  auto w4 = th::own(newTensor({4}, Values(4, 0.25)));
  auto y = th::own(newTensor({2}, {1, 2}));
  auto gi = th::own(newTensor({2}, {1, 2}));
  auto gw = th::own(newTensor({4}, {1, 2, 3, 4}));
  checkRaisesUnchanged([&] { THNN_DoublePReLU_updateOutput(nullptr, x.get(), y.get(), w4.get()); }, {x.get(), y.get()});
  checkRaisesUnchanged([&] { THNN_DoublePReLU_updateGradInput(nullptr, x.get(), g.get(), gi.get(), w4.get()); },
                       {gi.get()});
  checkRaisesUnchanged(
      [&] { THNN_DoublePReLU_accGradParameters(nullptr, x.get(), g.get(), gi.get(), w4.get(), gw.get(), 1); },
      {gw.get()});

  // A gradWeight of another size, a weight with no element, per-channel slopes on 5-D input.
  auto w2 = th::own(newTensor({2}, {0.1, 0.2}));
  checkRaisesUnchanged(
      [&] { THNN_DoublePReLU_accGradParameters(nullptr, x.get(), g.get(), gi.get(), w2.get(), gw.get(), 1); },
      {gw.get()});
  auto w0 = th::own(THDoubleTensor_newWithSize1d(0));
  checkRaisesUnchanged([&] { THNN_DoublePReLU_updateOutput(nullptr, x.get(), y.get(), w0.get()); }, {y.get()});
  auto x5 = th::own(newTensor({1, 2, 1, 1, 2}, {1, -1, 2, -2}));
  checkRaisesUnchanged([&] { THNN_DoublePReLU_updateOutput(nullptr, x5.get(), y.get(), w2.get()); }, {y.get()});
  // gradOutput with another element count.
  auto gShort = th::own(newTensor({23}, thnnt::uniform(23, 33)));
  checkRaisesUnchanged([&] { THNN_DoublePReLU_updateGradInput(nullptr, x.get(), gShort.get(), gi.get(), w2.get()); },
                       {gi.get()});

  // The right weight for this input works.
  BOOST_CHECK_NO_THROW(THNN_DoublePReLU_updateOutput(nullptr, x.get(), y.get(), w2.get()));
  BOOST_CHECK(values(y.get()) == referencePReLU(values(x.get()), {2, 4, 3}, {0.1, 0.2}));
}

}  // namespace
