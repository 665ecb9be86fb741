// THCUNN's element-wise criterions against THNN's on the CPU for the same inputs: Float and
// Double at THNN's own type (1e-5 and 1e-10 relative), Half against Float on the same
// half-rounded values (1e-2 relative). Each criterion with sizeAverage on and off, reduce on
// and off, BCE with and without weights, contiguous and non-contiguous operands, a target of
// another shape with as many elements (paired in row-major order), a gradOutput of NULL, a
// sum over many blocks (Note [Deterministic sums]) that gives the same bits twice, and the
// errors, which must be the same on both devices.
#define BOOST_TEST_MODULE THCUNN Criterion
#include <cmath>

#include "tests/THCUNN/thcunn_test_util.hpp"

using namespace thcunnt;

namespace {

// clang-format off
#define THCUNN_TEST_KERNELS(_)                                                                        \
  _(AbsCriterion_updateOutput) _(AbsCriterion_updateGradInput) _(BCECriterion_updateOutput)           \
  _(BCECriterion_updateGradInput) _(DistKLDivCriterion_updateOutput)                                  \
  _(DistKLDivCriterion_updateGradInput) _(L1Cost_updateOutput) _(L1Cost_updateGradInput)              \
  _(MarginCriterion_updateOutput) _(MarginCriterion_updateGradInput) _(MSECriterion_updateOutput)     \
  _(MSECriterion_updateGradInput) _(SmoothL1Criterion_updateOutput)                                   \
  _(SmoothL1Criterion_updateGradInput) _(SoftMarginCriterion_updateOutput)                            \
  _(SoftMarginCriterion_updateGradInput)
// clang-format on

// The kernels of one element type on one device, as members, so that one generic lambda
// calls either (THNN's state is void *: the THCState converts to it and is ignored).
#define THCUNN_TEST_MEMBER(prefix, n) static constexpr auto n = prefix##n;
template <typename T>
struct Cpu;
template <typename T>
struct Gpu;
#define MEMBER_FLOAT(n) THCUNN_TEST_MEMBER(THNN_Float, n)
#define MEMBER_DOUBLE(n) THCUNN_TEST_MEMBER(THNN_Double, n)
#define MEMBER_CUDA(n) THCUNN_TEST_MEMBER(THNN_Cuda, n)
#define MEMBER_CUDA_DOUBLE(n) THCUNN_TEST_MEMBER(THNN_CudaDouble, n)
#define MEMBER_CUDA_HALF(n) THCUNN_TEST_MEMBER(THNN_CudaHalf, n)
template <>
struct Cpu<float> {
  THCUNN_TEST_KERNELS(MEMBER_FLOAT)
};
template <>
struct Cpu<double> {
  THCUNN_TEST_KERNELS(MEMBER_DOUBLE)
};
template <>
struct Gpu<float> {
  THCUNN_TEST_KERNELS(MEMBER_CUDA)
};
template <>
struct Gpu<double> {
  THCUNN_TEST_KERNELS(MEMBER_CUDA_DOUBLE)
};
template <>
struct Gpu<THHalf> {
  THCUNN_TEST_KERNELS(MEMBER_CUDA_HALF)
};

// Rewrites every value v of b (both devices) to f(v).
template <typename T, typename F>
void mapBoth(Both<T> &b, F f) {
  using R = Ref<T>;
  auto values = th::own(th::TH<R>::newContiguous(b.h.get()));
  R *p = th::TH<R>::data(values.get());
  for (int64_t i = 0; i < th::TH<R>::nElement(values.get()); i++) p[i] = (R)f((double)p[i]);
  auto d = ownDevice(deviceCopy<T>(values.get()));
  th::TH<R>::copy(b.h.get(), values.get());
  thc::THC<T>::copy(state(), b.d.get(), d.get());
}

// One criterion: its operands' ranges, whether it has a target, weights, reduce and a
// gradOutput, and its calls: forward(k, state, x, y, w, output, sizeAverage, reduce) and
// backward(k, state, x, y, w, gradOutput, gradInput, sizeAverage, reduce), each a generic
// lambda over Cpu<Ref<T>> and Gpu<T>.
struct Operands {
  double xLo, xHi, yLo, yHi;
  bool signTarget = false;  // y in {-1, 1}
  bool hasTarget = true, hasWeights = false, hasReduce = true, hasGradOutput = true, hasSizeAverage = true;
};

template <typename T, typename Forward, typename Backward>
void checkCriterion(const char *name, const Operands &op, Forward forward, Backward backward) {
  using R = Ref<T>;
  THCState *s = state();
  const std::vector<int64_t> shape{6, 13};
  for (bool contiguous : {true, false})
    for (bool weighted : {false, true})
      for (bool sizeAverage : {true, false})
        for (bool reduce : {true, false}) {
          if ((weighted && !op.hasWeights) || (!reduce && !op.hasReduce) || (!sizeAverage && !op.hasSizeAverage))
            continue;
          const std::string what = std::string(name) + (contiguous ? "" : ", non-contiguous") +
                                   (weighted ? ", weighted" : "") + (sizeAverage ? ", sizeAverage" : "") +
                                   (reduce ? ", reduced" : ", not reduced");
          auto x = randomBoth<T>(shape, op.xLo, op.xHi, 1, contiguous);
          // contiguous: a target of another shape with as many elements
          auto y = randomBoth<T>(contiguous ? std::vector<int64_t>{78} : shape, op.yLo, op.yHi, 2, contiguous);
          if (op.signTarget) mapBoth(y, [](double v) { return v < 0 ? -1.0 : 1.0; });
          auto w = randomBoth<T>(shape, 0.1, 2, 3, contiguous);
          auto *hw = weighted ? w.h.get() : nullptr;
          auto *dw = weighted ? w.d.get() : nullptr;
          auto hout = hostEmpty<R>();
          auto dout = deviceEmpty<T>();
          forward(Cpu<R>(), s, x.h.get(), y.h.get(), hw, hout.get(), sizeAverage, reduce);
          forward(Gpu<T>(), s, x.d.get(), y.d.get(), dw, dout.get(), sizeAverage, reduce);
          compare<T>(hout.get(), dout.get(), what + ", output");

          auto go = reduce ? randomBoth<T>({1}, 0.7, 0.7, 4) : randomBoth<T>(shape, -1, 1, 4, contiguous);
          for (bool nullGradOutput : {false, true}) {
            if (nullGradOutput && (!reduce || !op.hasGradOutput)) continue;
            auto *hgo = op.hasGradOutput && !nullGradOutput ? go.h.get() : nullptr;
            auto *dgo = op.hasGradOutput && !nullGradOutput ? go.d.get() : nullptr;
            auto hgi = hostEmpty<R>();
            auto dgi = deviceEmpty<T>();
            backward(Cpu<R>(), s, x.h.get(), y.h.get(), hw, hgo, hgi.get(), sizeAverage, reduce);
            backward(Gpu<T>(), s, x.d.get(), y.d.get(), dw, dgo, dgi.get(), sizeAverage, reduce);
            compare<T>(hgi.get(), dgi.get(), what + (nullGradOutput ? ", gradOutput NULL" : "") + ", gradInput");
          }
        }
}

// The criterions with THNN's signature (input, target, output/gradOutput, gradInput,
// sizeAverage, reduce), by kernel name.
#define THCUNN_TEST_PLAIN(NAME, ...)                                                                         \
  checkCriterion<T>(                                                                                         \
      #NAME, Operands{__VA_ARGS__},                                                                          \
      [](auto k, THCState *s, auto *x, auto *y, auto *, auto *out, bool sizeAverage, bool reduce) {          \
        k.NAME##_updateOutput(s, x, y, out, sizeAverage, reduce);                                            \
      },                                                                                                     \
      [](auto k, THCState *s, auto *x, auto *y, auto *, auto *go, auto *gi, bool sizeAverage, bool reduce) { \
        k.NAME##_updateGradInput(s, x, y, go, gi, sizeAverage, reduce);                                      \
      })

}  // namespace

BOOST_AUTO_TEST_SUITE(criterion, *needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(element_wise_criterions, T, Types) {
  THCUNN_TEST_PLAIN(AbsCriterion, -2, 2, -2, 2);
  THCUNN_TEST_PLAIN(DistKLDivCriterion, -3, 0, -0.3, 1);
  THCUNN_TEST_PLAIN(MSECriterion, -2, 2, -2, 2);
  THCUNN_TEST_PLAIN(SmoothL1Criterion, -2, 2, -2, 2);
  THCUNN_TEST_PLAIN(SoftMarginCriterion, -2, 2, -1, 1, true);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bce_criterion, T, Types) {
  Operands op{0.02, 0.98, 0, 1};
  op.hasWeights = true;
  checkCriterion<T>(
      "BCECriterion", op,
      [](auto k, THCState *s, auto *x, auto *y, auto *w, auto *out, bool sizeAverage, bool reduce) {
        k.BCECriterion_updateOutput(s, x, y, out, sizeAverage, w, reduce);
      },
      [](auto k, THCState *s, auto *x, auto *y, auto *w, auto *go, auto *gi, bool sizeAverage, bool reduce) {
        k.BCECriterion_updateGradInput(s, x, y, go, gi, sizeAverage, w, reduce);
      });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(l1_cost_and_margin_criterion, T, Types) {
  Operands l1{-2, 2, 0, 1};
  l1.hasTarget = false;
  l1.hasReduce = false;
  l1.hasSizeAverage = false;
  checkCriterion<T>(
      "L1Cost", l1,
      [](auto k, THCState *s, auto *x, auto *, auto *, auto *out, bool, bool) { k.L1Cost_updateOutput(s, x, out); },
      [](auto k, THCState *s, auto *x, auto *, auto *, auto *go, auto *gi, bool, bool) {
        k.L1Cost_updateGradInput(s, x, go, gi);
      });
  Operands margin{-2, 2, -1, 1, true};
  margin.hasReduce = false;
  margin.hasGradOutput = false;
  checkCriterion<T>(
      "MarginCriterion", margin,
      [](auto k, THCState *s, auto *x, auto *y, auto *, auto *out, bool sizeAverage, bool) {
        k.MarginCriterion_updateOutput(s, x, y, out, sizeAverage, 0.7);
      },
      [](auto k, THCState *s, auto *x, auto *y, auto *, auto *, auto *gi, bool sizeAverage, bool) {
        k.MarginCriterion_updateGradInput(s, x, y, gi, sizeAverage, 0.7);
      });
}

// A sum over many blocks of the first pass (Note [Deterministic sums]) against THNN's, and
// the same bits from a second call.
BOOST_AUTO_TEST_CASE_TEMPLATE(large_sums, T, Types) {
  using R = Ref<T>;
  THCState *s = state();
  auto x = randomBoth<T>({700, 999}, 0.01, 0.99, 5);
  auto y = randomBoth<T>({700, 999}, 0, 1, 6);
  auto w = randomBoth<T>({700, 999}, 0.5, 1.5, 7);
  for (bool sizeAverage : {true, false}) {
    auto hout = hostEmpty<R>();
    auto dout = deviceEmpty<T>();
    auto again = deviceEmpty<T>();
    Cpu<R>::BCECriterion_updateOutput(s, x.h.get(), y.h.get(), hout.get(), sizeAverage, w.h.get(), true);
    Gpu<T>::BCECriterion_updateOutput(s, x.d.get(), y.d.get(), dout.get(), sizeAverage, w.d.get(), true);
    Gpu<T>::BCECriterion_updateOutput(s, x.d.get(), y.d.get(), again.get(), sizeAverage, w.d.get(), true);
    compare<T>(hout.get(), dout.get(), sizeAverage ? "BCE of 699300 elements, averaged" : "BCE of 699300 elements");
    auto a = hostCopy<T>(dout.get());
    auto b = hostCopy<T>(again.get());
    std::string why;
    BOOST_TEST(sameValues<R>(a.get(), b.get(), 0, &why), "a second call gives the same bits: " << why);
  }
}

BOOST_AUTO_TEST_CASE(errors_match_thnn) {
  THCState *s = state();
  auto x = randomBoth<float>({4, 5}, 0.1, 0.9, 8);
  auto shortY = randomBoth<float>({3, 5}, 0, 1, 9);
  auto y = randomBoth<float>({4, 5}, 0, 1, 10);
  auto two = randomBoth<float>({2}, 0, 1, 11);
  auto bad = randomBoth<float>({4, 5}, 0.1, 0.9, 12);
  int64_t i = 0;
  mapBoth(bad, [&](double v) {
    i++;
    return i == 8 ? 1.5 : i == 13 ? -0.5 : v;  // the first bad value in row-major order is 1.5
  });
  auto hr = hostEmpty<float>();
  auto dr = deviceEmpty<float>();
  expectSameError(
      "MSE with a short target",
      [&] { THNN_FloatMSECriterion_updateOutput(nullptr, x.h.get(), shortY.h.get(), hr.get(), true, true); },
      [&] { THNN_CudaMSECriterion_updateOutput(s, x.d.get(), shortY.d.get(), dr.get(), true, true); });
  expectSameError(
      "BCE with short weights",
      [&] { THNN_FloatBCECriterion_updateOutput(nullptr, x.h.get(), y.h.get(), hr.get(), true, shortY.h.get(), true); },
      [&] { THNN_CudaBCECriterion_updateOutput(s, x.d.get(), y.d.get(), dr.get(), true, shortY.d.get(), true); });
  expectSameError(
      "BCE with input outside [0, 1]",
      [&] { THNN_FloatBCECriterion_updateOutput(nullptr, bad.h.get(), y.h.get(), hr.get(), true, nullptr, true); },
      [&] { THNN_CudaBCECriterion_updateOutput(s, bad.d.get(), y.d.get(), dr.get(), true, nullptr, true); });
  expectSameError(
      "BCE backward with input outside [0, 1]",
      [&] {
        THNN_FloatBCECriterion_updateGradInput(nullptr, bad.h.get(), y.h.get(), nullptr, hr.get(), true, nullptr, true);
      },
      [&] {
        THNN_CudaBCECriterion_updateGradInput(s, bad.d.get(), y.d.get(), nullptr, dr.get(), true, nullptr, true);
      });
  expectSameError(
      "Abs with a reduced gradOutput of two elements",
      [&] { THNN_FloatAbsCriterion_updateGradInput(nullptr, x.h.get(), y.h.get(), two.h.get(), hr.get(), true, true); },
      [&] { THNN_CudaAbsCriterion_updateGradInput(s, x.d.get(), y.d.get(), two.d.get(), dr.get(), true, true); });
  expectSameError(
      "SmoothL1 without reduce and a short gradOutput",
      [&] {
        THNN_FloatSmoothL1Criterion_updateGradInput(nullptr, x.h.get(), y.h.get(), shortY.h.get(), hr.get(), true,
                                                    false);
      },
      [&] {
        THNN_CudaSmoothL1Criterion_updateGradInput(s, x.d.get(), y.d.get(), shortY.d.get(), dr.get(), true, false);
      });
  expectSameError(
      "SoftMargin without reduce and no gradOutput",
      [&] {
        THNN_FloatSoftMarginCriterion_updateGradInput(nullptr, x.h.get(), y.h.get(), nullptr, hr.get(), true, false);
      },
      [&] { THNN_CudaSoftMarginCriterion_updateGradInput(s, x.d.get(), y.d.get(), nullptr, dr.get(), true, false); });
  expectSameError(
      "L1Cost with a gradOutput of two elements",
      [&] { THNN_FloatL1Cost_updateGradInput(nullptr, x.h.get(), two.h.get(), hr.get()); },
      [&] { THNN_CudaL1Cost_updateGradInput(s, x.d.get(), two.d.get(), dr.get()); });
  // a failed call leaves its result as it was
  BOOST_TEST(thc::THC<float>::nElement(s, dr.get()) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
