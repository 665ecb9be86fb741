// THCUNN's ClassNLLCriterion and SpatialClassNLLCriterion against THNN's on the CPU, built
// once per TH_INDEX_BASE (targets are written as 0-based classes and shifted by it): Float
// and Double at THNN's own type (1e-5 and 1e-10 relative), Half against Float on the same
// half-rounded values (1e-2 relative). Vector and batch inputs, weights present and absent,
// an ignore_index that some targets hold and one that none does, sizeAverage and reduce on
// and off, contiguous and non-contiguous inputs and targets; output, total_weight and
// gradInput compared. Out-of-range targets and bad shapes raise THNN's errors (the first bad
// target is named) and leave the results unchanged.
#define BOOST_TEST_MODULE THCUNN Criterion indexed
#include "tests/THCUNN/thcunn_test_util.hpp"

using namespace thcunnt;

namespace {

constexpr int64_t B = TH_INDEX_BASE;

// clang-format off
#define THCUNN_TEST_KERNELS(_)                                                                  \
  _(ClassNLLCriterion_updateOutput) _(ClassNLLCriterion_updateGradInput)                        \
  _(SpatialClassNLLCriterion_updateOutput) _(SpatialClassNLLCriterion_updateGradInput)
// clang-format on

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

// Targets of `shape` on both devices from 0-based classes (shifted by B), contiguous or as a
// view that takes every other element of a tensor twice as long.
struct Targets {
  th::Owned<THLongTensor> h;
  DeviceOwned<int64_t> d;
};

Targets targetsOf(const std::vector<int64_t> &shape, const std::vector<int64_t> &classes, bool contiguous) {
  const int64_t n = (int64_t)classes.size();
  auto flat = th::own(THLongTensor_newWithSize1d(contiguous ? n : 2 * n));
  for (int64_t i = 0; i < THLongTensor_nElement(flat.get()); i++)
    THLongTensor_set1d(flat.get(), i, contiguous ? classes[i] + B : (i % 2 ? -7 : classes[i / 2] + B));
  auto dflat = ownDevice(toDevice<int64_t>(flat.get()));
  if (!contiguous) {
    auto h = th::own(THLongTensor_newWithStorage1d(flat->storage, flat->storageOffset, n, 2));
    auto d = ownDevice(THCudaLongTensor_newWithStorage1d(state(), dflat->storage, dflat->storageOffset, n, 2));
    if (shape.size() == 1) return {std::move(h), std::move(d)};
    // a strided view of shape's sizes: element k at 2 k
    std::vector<int64_t> strides(shape.size());
    int64_t stride = 2;
    for (int i = (int)shape.size() - 1; i >= 0; i--) {
      strides[i] = stride;
      stride *= shape[i];
    }
    return {th::own(THLongTensor_newWithStorage(flat->storage, 0, (int)shape.size(), shape.data(), strides.data())),
            ownDevice(THCudaLongTensor_newWithStorage(state(), dflat->storage, 0, (int)shape.size(), shape.data(),
                                                      strides.data()))};
  }
  auto h = th::own(THLongTensor_newWithSize((int)shape.size(), shape.data(), nullptr));
  THLongTensor_copy(h.get(), flat.get());
  auto d = ownDevice(toDevice<int64_t>(h.get()));
  return {std::move(h), std::move(d)};
}

// Classes 0 .. C-1 for n items; some of them `ignored` (0-based) when that is a class.
std::vector<int64_t> classesFor(int64_t n, int64_t classes, int64_t ignored, unsigned seed) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; i++) v[i] = (int64_t)((i * 7 + seed) % classes);
  if (n > 2 && ignored >= 0) v[1] = ignored;
  return v;
}

// Input of `shape`: contiguous, or a view with another layout holding the same values (the
// class dimension outermost in memory; a vector skips elements).
template <typename T>
Both<T> inputOf(const std::vector<int64_t> &shape, bool contiguous, unsigned seed) {
  if (contiguous || shape.size() == 1) return randomBoth<T>(shape, -3, 0, seed, contiguous);
  std::vector<int64_t> moved = shape;
  moved.erase(moved.begin() + 1);
  moved.insert(moved.begin(), shape[1]);
  auto base = randomBoth<T>(moved, -3, 0, seed);
  return {th::own(th::TH<Ref<T>>::newTranspose(base.h.get(), 0, 1)),
          ownDevice(thc::THC<T>::newTranspose(state(), base.d.get(), 0, 1))};
}

struct Case {
  bool spatial;
  std::vector<int64_t> shape;  // input's
  bool contiguous, weighted, sizeAverage, reduce;
  int64_t ignore;  // 0-based
  std::string name() const {
    std::string s = spatial ? "SpatialClassNLL" : "ClassNLL";
    s += " [";
    for (size_t i = 0; i < shape.size(); i++) s += (i ? ", " : "") + std::to_string(shape[i]);
    s += "]";
    s += contiguous ? "" : ", non-contiguous";
    s += weighted ? ", weighted" : "";
    s += sizeAverage ? ", sizeAverage" : "";
    s += reduce ? ", reduced" : ", not reduced";
    s += ", ignore_index " + std::to_string(ignore) + " (0-based)";
    return s;
  }
};

template <typename T>
void checkCase(const Case &c) {
  using R = Ref<T>;
  THCState *s = state();
  const std::string what = c.name();
  const int64_t classes = c.spatial ? c.shape[1] : c.shape.back();
  std::vector<int64_t> tshape;
  if (c.spatial)
    tshape = {c.shape[0], c.shape[2], c.shape[3]};
  else if (c.shape.size() == 2)
    tshape = {c.shape[0]};
  const int64_t items = c.spatial ? c.shape[0] * c.shape[2] * c.shape[3] : (c.shape.size() == 2 ? c.shape[0] : 1);
  auto x = inputOf<T>(c.shape, c.contiguous, 5);
  auto t = targetsOf(tshape, classesFor(items, classes, c.ignore, 3), c.contiguous);
  auto w = randomBoth<T>({classes}, 0.2, 2, 6);
  if (classes > 2) {  // a class that weighs 0
    th::TH<R>::data(w.h.get())[2] = 0;
    auto zero = ownDevice(thc::THC<T>::newNarrow(s, w.d.get(), 0, 2, 1));
    thc::THC<T>::zero(s, zero.get());
  }
  auto *hw = c.weighted ? w.h.get() : nullptr;
  auto *dw = c.weighted ? w.d.get() : nullptr;
  const int64_t ignore = c.ignore + B;
  auto hout = hostEmpty<R>(), htw = hostEmpty<R>();
  auto dout = deviceEmpty<T>(), dtw = deviceEmpty<T>();
  if (c.spatial) {
    Cpu<R>::SpatialClassNLLCriterion_updateOutput(s, x.h.get(), t.h.get(), hout.get(), c.sizeAverage, hw, htw.get(),
                                                  ignore, c.reduce);
    Gpu<T>::SpatialClassNLLCriterion_updateOutput(s, x.d.get(), t.d.get(), dout.get(), c.sizeAverage, dw, dtw.get(),
                                                  ignore, c.reduce);
  } else {
    Cpu<R>::ClassNLLCriterion_updateOutput(s, x.h.get(), t.h.get(), hout.get(), c.sizeAverage, hw, htw.get(), ignore,
                                           c.reduce);
    Gpu<T>::ClassNLLCriterion_updateOutput(s, x.d.get(), t.d.get(), dout.get(), c.sizeAverage, dw, dtw.get(), ignore,
                                           c.reduce);
  }
  compare<T>(hout.get(), dout.get(), what + ", output");
  compare<T>(htw.get(), dtw.get(), what + ", total_weight");

  const bool perItem = !c.reduce && (c.spatial || c.shape.size() == 2);
  auto go = perItem ? randomBoth<T>(tshape, -1, 1, 7, c.contiguous) : randomBoth<T>({1}, 0.7, 0.7, 7);
  auto hgi = hostEmpty<R>(), htw2 = hostEmpty<R>();
  auto dgi = deviceEmpty<T>(), dtw2 = deviceEmpty<T>();
  if (c.spatial) {
    Cpu<R>::SpatialClassNLLCriterion_updateGradInput(s, x.h.get(), t.h.get(), go.h.get(), hgi.get(), c.sizeAverage, hw,
                                                     htw2.get(), ignore, c.reduce);
    Gpu<T>::SpatialClassNLLCriterion_updateGradInput(s, x.d.get(), t.d.get(), go.d.get(), dgi.get(), c.sizeAverage, dw,
                                                     dtw2.get(), ignore, c.reduce);
  } else {
    Cpu<R>::ClassNLLCriterion_updateGradInput(s, x.h.get(), t.h.get(), go.h.get(), hgi.get(), c.sizeAverage, hw,
                                              htw2.get(), ignore, c.reduce);
    Gpu<T>::ClassNLLCriterion_updateGradInput(s, x.d.get(), t.d.get(), go.d.get(), dgi.get(), c.sizeAverage, dw,
                                              dtw2.get(), ignore, c.reduce);
  }
  compare<T>(hgi.get(), dgi.get(), what + ", gradInput");
  compare<T>(htw2.get(), dtw2.get(), what + ", total_weight of the backward");
}

void forEachCase(bool spatial, const std::vector<std::vector<int64_t>> &shapes, const std::function<void(Case)> &f) {
  for (const auto &shape : shapes)
    for (bool contiguous : {true, false})
      for (bool weighted : {false, true})
        for (bool sizeAverage : {true, false})
          for (bool reduce : {true, false})
            for (int64_t ignore : {int64_t(1), int64_t(-100)})
              f(Case{spatial, shape, contiguous, weighted, sizeAverage, reduce, ignore});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(class_nll, *needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(class_nll_criterion, T, Types) {
  forEachCase(false, {{7}, {9, 7}, {700, 33}}, [](Case c) { checkCase<T>(c); });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(spatial_class_nll_criterion, T, Types) {
  forEachCase(true, {{2, 4, 3, 5}, {3, 5, 40, 30}}, [](Case c) { checkCase<T>(c); });
}

// Targets out of range raise THNN's IndexError, naming the first bad target in row-major
// order, before anything is written; so do bad shapes.
BOOST_AUTO_TEST_CASE(errors_match_thnn) {
  THCState *s = state();
  auto x = randomBoth<float>({6, 4}, -3, 0, 8);
  auto xs = randomBoth<float>({2, 4, 3, 2}, -3, 0, 9);
  auto w = randomBoth<float>({4}, 0.5, 1, 10);
  auto shortW = randomBoth<float>({3}, 0.5, 1, 11);
  auto good = targetsOf({6}, {0, 1, 2, 3, 0, 1}, true);
  auto tooHigh = targetsOf({6}, {0, 1, 2, 4, 0, 9}, true);  // 4 (0-based) is the first bad one
  auto tooLow = targetsOf({6}, {0, -1 - B, 2, 3, 0, 1}, true);
  auto shortT = targetsOf({5}, {0, 1, 2, 3, 0}, true);
  auto spatialBad = targetsOf({2, 3, 2}, {0, 1, 2, 3, 0, 1, 2, 3, 7, 0, 1, 2}, false);
  auto spatialGood = targetsOf({2, 3, 2}, {0, 1, 2, 3, 0, 1, 2, 3, 3, 0, 1, 2}, true);
  auto spatialShort = targetsOf({2, 3, 1}, {0, 1, 2, 3, 0, 1}, true);
  auto hout = randomBoth<float>({2}, 5, 5, 12);  // results that a failed call must leave as they were
  auto htw = randomBoth<float>({1}, 5, 5, 13);
  auto check = [&](const std::string &what, auto *target, auto *weights, bool spatial, bool gradient) {
    auto *in = spatial ? &xs : &x;
    expectSameError(
        what,
        [&] {
          if (spatial && gradient)
            THNN_FloatSpatialClassNLLCriterion_updateGradInput(nullptr, in->h.get(), target->h.get(), nullptr,
                                                               hout.h.get(), true, weights ? weights->h.get() : nullptr,
                                                               htw.h.get(), -100, true);
          else if (spatial)
            THNN_FloatSpatialClassNLLCriterion_updateOutput(nullptr, in->h.get(), target->h.get(), hout.h.get(), true,
                                                            weights ? weights->h.get() : nullptr, htw.h.get(), -100,
                                                            true);
          else if (gradient)
            THNN_FloatClassNLLCriterion_updateGradInput(nullptr, in->h.get(), target->h.get(), nullptr, hout.h.get(),
                                                        true, weights ? weights->h.get() : nullptr, htw.h.get(), -100,
                                                        true);
          else
            THNN_FloatClassNLLCriterion_updateOutput(nullptr, in->h.get(), target->h.get(), hout.h.get(), true,
                                                     weights ? weights->h.get() : nullptr, htw.h.get(), -100, true);
        },
        [&] {
          if (spatial && gradient)
            THNN_CudaSpatialClassNLLCriterion_updateGradInput(s, in->d.get(), target->d.get(), nullptr, hout.d.get(),
                                                              true, weights ? weights->d.get() : nullptr, htw.d.get(),
                                                              -100, true);
          else if (spatial)
            THNN_CudaSpatialClassNLLCriterion_updateOutput(s, in->d.get(), target->d.get(), hout.d.get(), true,
                                                           weights ? weights->d.get() : nullptr, htw.d.get(), -100,
                                                           true);
          else if (gradient)
            THNN_CudaClassNLLCriterion_updateGradInput(s, in->d.get(), target->d.get(), nullptr, hout.d.get(), true,
                                                       weights ? weights->d.get() : nullptr, htw.d.get(), -100, true);
          else
            THNN_CudaClassNLLCriterion_updateOutput(s, in->d.get(), target->d.get(), hout.d.get(), true,
                                                    weights ? weights->d.get() : nullptr, htw.d.get(), -100, true);
        });
  };
  Both<float> *noWeights = nullptr;
  check("ClassNLL with a target too high", &tooHigh, noWeights, false, false);
  check("ClassNLL backward with a target too high", &tooHigh, &w, false, true);
  check("ClassNLL with a target too low", &tooLow, noWeights, false, false);
  check("ClassNLL with a short target", &shortT, noWeights, false, false);
  check("ClassNLL with short weights", &good, &shortW, false, false);
  check("SpatialClassNLL with a target too high", &spatialBad, noWeights, true, false);
  check("SpatialClassNLL backward with a target too high", &spatialBad, &w, true, true);
  check("SpatialClassNLL with a short target", &spatialShort, noWeights, true, false);
  check("SpatialClassNLL with short weights", &spatialGood, &shortW, true, false);
  compare<float>(hout.h.get(), hout.d.get(), "a failed call leaves output as it was");
  compare<float>(htw.h.get(), htw.d.get(), "a failed call leaves total_weight as it was");
  auto unchanged = hostCopy<float>(hout.d.get());
  BOOST_TEST(THFloatTensor_get1d(unchanged.get(), 0) == 5.0f);
}

BOOST_AUTO_TEST_SUITE_END()
