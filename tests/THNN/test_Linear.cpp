// Linear, Bilinear and BatchNormalization: forwards against plain loops over the values,
// backwards against central differences of sum(gradOutput * forward), bad shapes.
#define BOOST_TEST_MODULE THNN Linear
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "thnn_test_util.hpp"

using thnnt::maxAbsDiff;
using thnnt::values;
using D = THDoubleTensor;
using F = THFloatTensor;
using Owned = th::Owned<D>;

namespace {

Owned rnd(const std::vector<int64_t> &size, unsigned seed, double lo = -1, double hi = 1) {
  return th::own(thnnt::randomTensor<double>(size, seed, lo, hi));
}

// A tensor of the given sizes that is not contiguous: a transposed view for 2 or more
// dimensions, every second element of a storage for 1.
Owned rndStrided(std::vector<int64_t> size, unsigned seed) {
  const int n = (int)size.size();
  if (n == 1) {
    auto base = rnd({size[0] * 2}, seed);
    return th::own(THDoubleTensor_newWithStorage1d(base->storage, 0, size[0], 2));
  }
  std::swap(size[n - 1], size[n - 2]);
  auto t = rnd(size, seed);
  return th::own(THDoubleTensor_newTranspose(t.get(), n - 2, n - 1));
}

Owned empty() { return th::own(THDoubleTensor_new()); }

th::Owned<F> toFloat(D *t) {
  auto f = th::own(THFloatTensor_new());
  THFloatTensor_resizeNd(f.get(), t->nDimension, t->size, nullptr);
  thnnt::setValues(f.get(), values(t));
  return f;
}

std::vector<int64_t> sizes(D *t) { return std::vector<int64_t>(t->size, t->size + t->nDimension); }

std::vector<double> minus(const std::vector<double> &a, const std::vector<double> &b) {
  std::vector<double> r(a.size());
  for (size_t i = 0; i < a.size(); i++) r[i] = a[i] - b[i];
  return r;
}

std::vector<double> times(double s, std::vector<double> v) {
  for (auto &x : v) x *= s;
  return v;
}

// The values and sizes of t stay as they were across a call that must fail.
void checkThrowsUnchanged(const std::function<void()> &call, std::vector<D *> kept) {
  std::vector<std::vector<double>> before;
  std::vector<std::vector<int64_t>> sizesBefore;
  for (D *t : kept) {
    before.push_back(values(t));
    sizesBefore.push_back(sizes(t));
  }
  BOOST_CHECK_THROW(call(), th::Error);
  for (size_t i = 0; i < kept.size(); i++) {
    BOOST_TEST(sizes(kept[i]) == sizesBefore[i]);
    BOOST_TEST(values(kept[i]) == before[i]);
  }
}

const double kTol = 1e-6;

// ---- Linear ----

std::vector<double> linearRef(D *x, D *w, D *b) {
  const auto xv = values(x), wv = values(w);
  const int64_t out = w->size[0], in = w->size[1], batch = (int64_t)xv.size() / in;
  std::vector<double> y(batch * out);
  for (int64_t r = 0; r < batch; r++)
    for (int64_t o = 0; o < out; o++) {
      double s = b ? values(b)[o] : 0;
      for (int64_t i = 0; i < in; i++) s += xv[r * in + i] * wv[o * in + i];
      y[r * out + o] = s;
    }
  return y;
}

}  // namespace

BOOST_AUTO_TEST_CASE(linear_forward_matches_loops) {
  for (int batched = 0; batched < 2; batched++)
    for (int withBias = 0; withBias < 2; withBias++)
      for (int strided = 0; strided < 2; strided++) {
        std::vector<int64_t> xs = batched ? std::vector<int64_t>{3, 5} : std::vector<int64_t>{5};
        auto x = strided ? rndStrided(xs, 1) : rnd(xs, 1);
        auto w = rnd({4, 5}, 2), b = rnd({4}, 3);
        auto out = empty(), ones = empty();
        THNN_DoubleLinear_updateOutput(nullptr, x.get(), out.get(), w.get(), withBias ? b.get() : nullptr, ones.get());
        BOOST_TEST(sizes(out.get()) == (batched ? std::vector<int64_t>{3, 4} : std::vector<int64_t>{4}));
        BOOST_TEST(maxAbsDiff(values(out.get()), linearRef(x.get(), w.get(), withBias ? b.get() : nullptr)) < 1e-12);
      }
}

BOOST_AUTO_TEST_CASE(linear_forward_float) {
  auto x = rnd({7, 9}, 4), w = rnd({3, 9}, 5), b = rnd({3}, 6);
  auto xf = toFloat(x.get()), wf = toFloat(w.get()), bf = toFloat(b.get());
  auto out = th::own(THFloatTensor_new()), ones = th::own(THFloatTensor_new());
  THNN_FloatLinear_updateOutput(nullptr, xf.get(), out.get(), wf.get(), bf.get(), ones.get());
  BOOST_TEST(maxAbsDiff(values(out.get()), linearRef(x.get(), w.get(), b.get())) < 1e-5);
}

BOOST_AUTO_TEST_CASE(linear_gradients_match_numerical) {
  for (int batched = 0; batched < 2; batched++) {
    auto x = batched ? rndStrided({3, 5}, 7) : rnd({5}, 7);
    auto w = rnd({4, 5}, 8), b = rnd({4}, 9);
    auto g = batched ? rnd({3, 4}, 10) : rnd({4}, 10);
    auto out = empty(), ones = empty();
    auto loss = [&] {
      THNN_DoubleLinear_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), ones.get());
      return thnnt::dot(g.get(), out.get());
    };
    auto gradInput = empty();
    THNN_DoubleLinear_updateGradInput(nullptr, x.get(), g.get(), gradInput.get(), w.get());
    BOOST_TEST(sizes(gradInput.get()) == sizes(x.get()));
    BOOST_TEST(maxAbsDiff(values(gradInput.get()), thnnt::numericalGrad(x.get(), loss)) < kTol);

    const double scale = 0.5;
    auto gradWeight = rnd({4, 5}, 11), gradBias = rnd({4}, 12);
    const auto gw0 = values(gradWeight.get()), gb0 = values(gradBias.get());
    THNN_DoubleLinear_accGradParameters(nullptr, x.get(), g.get(), nullptr, w.get(), b.get(), gradWeight.get(),
                                        gradBias.get(), ones.get(), scale);
    BOOST_TEST(maxAbsDiff(minus(values(gradWeight.get()), gw0), times(scale, thnnt::numericalGrad(w.get(), loss))) <
               kTol);
    BOOST_TEST(maxAbsDiff(minus(values(gradBias.get()), gb0), times(scale, thnnt::numericalGrad(b.get(), loss))) <
               kTol);
  }
}

BOOST_AUTO_TEST_CASE(linear_bad_shapes_throw) {
  auto x = rnd({3, 5}, 13), w = rnd({4, 5}, 14), b = rnd({4}, 15);
  auto out = rnd({2, 2}, 16), ones = empty();
  auto wrongW = rnd({4, 6}, 17), wrongB = rnd({3}, 18), x3 = rnd({2, 3, 5}, 19);
  checkThrowsUnchanged(
      [&] { THNN_DoubleLinear_updateOutput(nullptr, x.get(), out.get(), wrongW.get(), b.get(), ones.get()); },
      {out.get(), ones.get()});
  checkThrowsUnchanged(
      [&] { THNN_DoubleLinear_updateOutput(nullptr, x.get(), out.get(), w.get(), wrongB.get(), ones.get()); },
      {out.get(), ones.get()});
  checkThrowsUnchanged(
      [&] { THNN_DoubleLinear_updateOutput(nullptr, x3.get(), out.get(), w.get(), b.get(), ones.get()); },
      {out.get(), ones.get()});
  auto g = rnd({3, 4}, 20), wrongG = rnd({2, 4}, 21), gradInput = rnd({1}, 22);
  checkThrowsUnchanged(
      [&] { THNN_DoubleLinear_updateGradInput(nullptr, x.get(), wrongG.get(), gradInput.get(), w.get()); },
      {gradInput.get()});
  auto gradWeight = rnd({4, 5}, 23), gradBias = rnd({4}, 24), wrongGW = rnd({5, 4}, 25);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleLinear_accGradParameters(nullptr, x.get(), g.get(), nullptr, w.get(), b.get(), wrongGW.get(),
                                            gradBias.get(), ones.get(), 1);
      },
      {wrongGW.get(), gradBias.get()});
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleLinear_accGradParameters(nullptr, x.get(), g.get(), nullptr, w.get(), b.get(), gradWeight.get(),
                                            wrongB.get(), ones.get(), 1);
      },
      {gradWeight.get(), wrongB.get()});
}

// ---- Bilinear ----

namespace {

std::vector<double> bilinearRef(D *x1, D *x2, D *w, D *b) {
  const auto a = values(x1), c = values(x2), wv = values(w);
  const int64_t out = w->size[0], in1 = w->size[1], in2 = w->size[2], batch = (int64_t)a.size() / in1;
  std::vector<double> y(batch * out);
  for (int64_t r = 0; r < batch; r++)
    for (int64_t k = 0; k < out; k++) {
      double s = b ? values(b)[k] : 0;
      for (int64_t i = 0; i < in1; i++)
        for (int64_t j = 0; j < in2; j++) s += a[r * in1 + i] * wv[(k * in1 + i) * in2 + j] * c[r * in2 + j];
      y[r * out + k] = s;
    }
  return y;
}

}  // namespace

BOOST_AUTO_TEST_CASE(bilinear_forward_matches_loops) {
  for (int batched = 0; batched < 2; batched++)
    for (int withBias = 0; withBias < 2; withBias++) {
      auto x1 = batched ? rndStrided({3, 4}, 30) : rnd({4}, 30);
      auto x2 = batched ? rnd({3, 5}, 31) : rndStrided({5}, 31);
      auto w = rnd({2, 4, 5}, 32), b = rnd({2}, 33);
      auto out = empty(), buffer = empty();
      THNN_DoubleBilinear_updateOutput(nullptr, x1.get(), x2.get(), out.get(), w.get(), withBias ? b.get() : nullptr,
                                       buffer.get());
      BOOST_TEST(sizes(out.get()) == (batched ? std::vector<int64_t>{3, 2} : std::vector<int64_t>{2}));
      BOOST_TEST(maxAbsDiff(values(out.get()), bilinearRef(x1.get(), x2.get(), w.get(), withBias ? b.get() : nullptr)) <
                 1e-12);
    }
  auto x1 = rnd({6, 3}, 34), x2 = rnd({6, 7}, 35), w = rnd({5, 3, 7}, 36), b = rnd({5}, 37);
  auto x1f = toFloat(x1.get()), x2f = toFloat(x2.get()), wf = toFloat(w.get()), bf = toFloat(b.get());
  auto out = th::own(THFloatTensor_new()), buffer = th::own(THFloatTensor_new());
  THNN_FloatBilinear_updateOutput(nullptr, x1f.get(), x2f.get(), out.get(), wf.get(), bf.get(), buffer.get());
  BOOST_TEST(maxAbsDiff(values(out.get()), bilinearRef(x1.get(), x2.get(), w.get(), b.get())) < 1e-4);
}

BOOST_AUTO_TEST_CASE(bilinear_gradients_match_numerical) {
  for (int batched = 0; batched < 2; batched++) {
    auto x1 = batched ? rnd({3, 4}, 40) : rnd({4}, 40);
    auto x2 = batched ? rndStrided({3, 5}, 41) : rnd({5}, 41);
    auto w = rnd({2, 4, 5}, 42), b = rnd({2}, 43);
    auto g = batched ? rnd({3, 2}, 44) : rnd({2}, 44);
    auto out = empty(), buffer = empty();
    auto loss = [&] {
      THNN_DoubleBilinear_updateOutput(nullptr, x1.get(), x2.get(), out.get(), w.get(), b.get(), buffer.get());
      return thnnt::dot(g.get(), out.get());
    };
    auto gi1 = empty(), gi2 = empty();
    THNN_DoubleBilinear_updateGradInput(nullptr, x1.get(), x2.get(), g.get(), gi1.get(), gi2.get(), w.get(),
                                        buffer.get());
    BOOST_TEST(sizes(gi1.get()) == sizes(x1.get()));
    BOOST_TEST(sizes(gi2.get()) == sizes(x2.get()));
    BOOST_TEST(maxAbsDiff(values(gi1.get()), thnnt::numericalGrad(x1.get(), loss)) < kTol);
    BOOST_TEST(maxAbsDiff(values(gi2.get()), thnnt::numericalGrad(x2.get(), loss)) < kTol);

    const double scale = 0.25;
    auto gradWeight = rnd({2, 4, 5}, 45), gradBias = rnd({2}, 46);
    const auto gw0 = values(gradWeight.get()), gb0 = values(gradBias.get());
    THNN_DoubleBilinear_accGradParameters(nullptr, x1.get(), x2.get(), g.get(), gradWeight.get(), gradBias.get(),
                                          buffer.get(), scale);
    BOOST_TEST(maxAbsDiff(minus(values(gradWeight.get()), gw0), times(scale, thnnt::numericalGrad(w.get(), loss))) <
               kTol);
    BOOST_TEST(maxAbsDiff(minus(values(gradBias.get()), gb0), times(scale, thnnt::numericalGrad(b.get(), loss))) <
               kTol);
  }
}

BOOST_AUTO_TEST_CASE(bilinear_bad_shapes_throw) {
  auto x1 = rnd({3, 4}, 50), x2 = rnd({3, 5}, 51), w = rnd({2, 4, 5}, 52), b = rnd({2}, 53);
  auto out = rnd({1}, 54), buffer = empty();
  auto x2wrongBatch = rnd({2, 5}, 55), wrongW = rnd({2, 5, 4}, 56), wrongB = rnd({3}, 57);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBilinear_updateOutput(nullptr, x1.get(), x2wrongBatch.get(), out.get(), w.get(), b.get(),
                                         buffer.get());
      },
      {out.get()});
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBilinear_updateOutput(nullptr, x1.get(), x2.get(), out.get(), wrongW.get(), b.get(), buffer.get());
      },
      {out.get()});
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBilinear_updateOutput(nullptr, x1.get(), x2.get(), out.get(), w.get(), wrongB.get(), buffer.get());
      },
      {out.get()});
  auto wrongG = rnd({3, 3}, 58), gi1 = rnd({1}, 59), gi2 = rnd({1}, 60), gradWeight = rnd({2, 4, 5}, 61);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBilinear_updateGradInput(nullptr, x1.get(), x2.get(), wrongG.get(), gi1.get(), gi2.get(), w.get(),
                                            buffer.get());
      },
      {gi1.get(), gi2.get()});
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBilinear_accGradParameters(nullptr, x1.get(), x2.get(), wrongG.get(), gradWeight.get(), b.get(),
                                              buffer.get(), 1);
      },
      {gradWeight.get(), b.get()});
}

// ---- BatchNormalization ----

namespace {

const double kEps = 1e-5;

struct BNRef {
  std::vector<double> out, mean, invstd, unbiasedVar;
};

// input [N, C, S...] in row-major values; weight / bias may be NULL.
BNRef bnRef(D *x, D *w, D *b, bool train, D *runningMean, D *runningVar) {
  const auto xv = values(x);
  const int64_t N = x->size[0], C = x->size[1], S = (int64_t)xv.size() / (N * C), n = N * S;
  BNRef r;
  r.out.resize(xv.size());
  for (int64_t c = 0; c < C; c++) {
    double mean, var;
    if (train) {
      double s = 0, sq = 0;
      for (int64_t p = 0; p < N; p++)
        for (int64_t k = 0; k < S; k++) s += xv[(p * C + c) * S + k];
      mean = s / n;
      for (int64_t p = 0; p < N; p++)
        for (int64_t k = 0; k < S; k++) sq += std::pow(xv[(p * C + c) * S + k] - mean, 2);
      var = sq / n;
      r.unbiasedVar.push_back(sq / (n - 1));
    } else {
      mean = values(runningMean)[c];
      var = values(runningVar)[c];
    }
    const double invstd = 1 / std::sqrt(var + kEps);
    r.mean.push_back(mean);
    r.invstd.push_back(invstd);
    const double wc = w ? values(w)[c] : 1, bc = b ? values(b)[c] : 0;
    for (int64_t p = 0; p < N; p++)
      for (int64_t k = 0; k < S; k++) {
        const int64_t i = (p * C + c) * S + k;
        r.out[i] = (xv[i] - mean) * invstd * wc + bc;
      }
  }
  return r;
}

const std::vector<std::vector<int64_t>> kBNShapes = {{5, 3}, {2, 3, 5}, {3, 2, 3, 5}, {2, 2, 3, 1, 3}};

}  // namespace

BOOST_AUTO_TEST_CASE(batchnorm_train_forward_and_running_statistics) {
  unsigned seed = 70;
  for (const auto &shape : kBNShapes)
    for (int affine = 0; affine < 2; affine++) {
      const int64_t C = shape[1];
      auto x = rnd(shape, seed++), w = rnd({C}, seed++), b = rnd({C}, seed++);
      auto rm = rnd({C}, seed++), rv = rnd({C}, seed++, 0.5, 2);
      const auto rm0 = values(rm.get()), rv0 = values(rv.get());
      auto out = empty(), saveMean = empty(), saveStd = empty();
      const double momentum = 0.1;
      THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), affine ? w.get() : nullptr,
                                                 affine ? b.get() : nullptr, rm.get(), rv.get(), saveMean.get(),
                                                 saveStd.get(), true, momentum, kEps);
      const BNRef ref = bnRef(x.get(), affine ? w.get() : nullptr, affine ? b.get() : nullptr, true, nullptr, nullptr);
      BOOST_TEST(sizes(out.get()) == shape);
      BOOST_TEST(maxAbsDiff(values(out.get()), ref.out) < 1e-12);
      BOOST_TEST(maxAbsDiff(values(saveMean.get()), ref.mean) < 1e-12);
      BOOST_TEST(maxAbsDiff(values(saveStd.get()), ref.invstd) < 1e-12);
      std::vector<double> rmExpected, rvExpected;
      for (int64_t c = 0; c < C; c++) {
        rmExpected.push_back(momentum * ref.mean[c] + (1 - momentum) * rm0[c]);
        rvExpected.push_back(momentum * ref.unbiasedVar[c] + (1 - momentum) * rv0[c]);
      }
      BOOST_TEST(maxAbsDiff(values(rm.get()), rmExpected) < 1e-12);
      BOOST_TEST(maxAbsDiff(values(rv.get()), rvExpected) < 1e-12);
    }
}

BOOST_AUTO_TEST_CASE(batchnorm_eval_forward_uses_running_statistics) {
  unsigned seed = 100;
  for (const auto &shape : kBNShapes) {
    const int64_t C = shape[1];
    auto x = rnd(shape, seed++), w = rnd({C}, seed++), b = rnd({C}, seed++);
    auto rm = rnd({C}, seed++), rv = rnd({C}, seed++, 0.5, 2);
    const auto rm0 = values(rm.get()), rv0 = values(rv.get());
    auto out = empty();
    THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), rm.get(), rv.get(),
                                               nullptr, nullptr, false, 0.1, kEps);
    BOOST_TEST(maxAbsDiff(values(out.get()), bnRef(x.get(), w.get(), b.get(), false, rm.get(), rv.get()).out) < 1e-12);
    BOOST_TEST(values(rm.get()) == rm0);
    BOOST_TEST(values(rv.get()) == rv0);
  }
}

BOOST_AUTO_TEST_CASE(batchnorm_strided_input_and_output_and_float) {
  auto x = rndStrided({4, 3, 5}, 120), w = rnd({3}, 121), b = rnd({3}, 122);
  auto rm = rnd({3}, 123), rv = rnd({3}, 124, 0.5, 2);
  auto out = rndStrided({4, 3, 5}, 125), saveMean = empty(), saveStd = empty();
  THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), rm.get(), rv.get(),
                                             saveMean.get(), saveStd.get(), true, 0.1, kEps);
  BOOST_TEST(!THDoubleTensor_isContiguous(out.get()));
  BOOST_TEST(maxAbsDiff(values(out.get()), bnRef(x.get(), w.get(), b.get(), true, nullptr, nullptr).out) < 1e-12);

  auto xf = toFloat(x.get()), wf = toFloat(w.get()), bf = toFloat(b.get());
  auto rmf = th::own(THFloatTensor_newWithSize1d(3)), rvf = th::own(THFloatTensor_newWithSize1d(3));
  THFloatTensor_fill(rmf.get(), 0);
  THFloatTensor_fill(rvf.get(), 1);
  auto outf = th::own(THFloatTensor_new()), smf = th::own(THFloatTensor_new()), ssf = th::own(THFloatTensor_new());
  THNN_FloatBatchNormalization_updateOutput(nullptr, xf.get(), outf.get(), wf.get(), bf.get(), rmf.get(), rvf.get(),
                                            smf.get(), ssf.get(), true, 0.1, kEps);
  BOOST_TEST(maxAbsDiff(values(outf.get()), bnRef(x.get(), w.get(), b.get(), true, nullptr, nullptr).out) < 1e-5);
}

BOOST_AUTO_TEST_CASE(batchnorm_gradients_match_numerical) {
  unsigned seed = 130;
  for (int train = 0; train < 2; train++)
    for (const auto &shape : kBNShapes) {
      const int64_t C = shape[1];
      auto x = train ? rndStrided(shape, seed++) : rnd(shape, seed++);
      auto w = rnd({C}, seed++), b = rnd({C}, seed++), g = rnd(shape, seed++);
      auto rm = rnd({C}, seed++), rv = rnd({C}, seed++, 0.5, 2);
      auto out = empty(), saveMean = empty(), saveStd = empty();
      auto forward = [&] {
        THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), rm.get(), rv.get(),
                                                   saveMean.get(), saveStd.get(), train, 0.1, kEps);
      };
      auto loss = [&] {
        forward();
        return thnnt::dot(g.get(), out.get());
      };
      const auto numX = thnnt::numericalGrad(x.get(), loss), numW = thnnt::numericalGrad(w.get(), loss),
                 numB = thnnt::numericalGrad(b.get(), loss);
      forward();  // save_mean and save_std of the unperturbed input
      const double scale = 0.5;
      auto gradInput = empty(), gradWeight = rnd({C}, seed++), gradBias = rnd({C}, seed++);
      const auto gw0 = values(gradWeight.get()), gb0 = values(gradBias.get());
      THNN_DoubleBatchNormalization_backward(nullptr, x.get(), g.get(), gradInput.get(), gradWeight.get(),
                                             gradBias.get(), w.get(), rm.get(), rv.get(), saveMean.get(), saveStd.get(),
                                             train, scale, kEps);
      BOOST_TEST(sizes(gradInput.get()) == shape);
      BOOST_TEST(maxAbsDiff(values(gradInput.get()), numX) < kTol);
      BOOST_TEST(maxAbsDiff(minus(values(gradWeight.get()), gw0), times(scale, numW)) < kTol);
      BOOST_TEST(maxAbsDiff(minus(values(gradBias.get()), gb0), times(scale, numB)) < kTol);

      // without weight and with only gradInput asked for
      auto lossNoWeight = [&] {
        THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), nullptr, nullptr, rm.get(), rv.get(),
                                                   saveMean.get(), saveStd.get(), train, 0.1, kEps);
        return thnnt::dot(g.get(), out.get());
      };
      const auto numX1 = thnnt::numericalGrad(x.get(), lossNoWeight);
      lossNoWeight();
      THNN_DoubleBatchNormalization_backward(nullptr, x.get(), g.get(), gradInput.get(), nullptr, nullptr, nullptr,
                                             rm.get(), rv.get(), saveMean.get(), saveStd.get(), train, scale, kEps);
      BOOST_TEST(maxAbsDiff(values(gradInput.get()), numX1) < kTol);
    }
}

BOOST_AUTO_TEST_CASE(batchnorm_bad_arguments_throw) {
  auto x = rnd({4, 3, 2}, 160), w = rnd({3}, 161), b = rnd({3}, 162), rm = rnd({3}, 163), rv = rnd({3}, 164, 0.5, 2);
  auto out = rnd({2}, 165), sm = rnd({1}, 166), ss = rnd({1}, 167);
  auto wrongW = rnd({4}, 168), one = rnd({1, 3}, 169), x1d = rnd({3}, 170);
  std::vector<D *> kept = {out.get(), sm.get(), ss.get(), rm.get(), rv.get()};
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), wrongW.get(), b.get(), rm.get(),
                                                   rv.get(), sm.get(), ss.get(), true, 0.1, kEps);
      },
      kept);
  checkThrowsUnchanged(  // one value per channel: no variance to estimate
      [&] {
        THNN_DoubleBatchNormalization_updateOutput(nullptr, one.get(), out.get(), w.get(), b.get(), rm.get(), rv.get(),
                                                   sm.get(), ss.get(), true, 0.1, kEps);
      },
      kept);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBatchNormalization_updateOutput(nullptr, x1d.get(), out.get(), w.get(), b.get(), rm.get(), rv.get(),
                                                   sm.get(), ss.get(), true, 0.1, kEps);
      },
      kept);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBatchNormalization_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), nullptr, rv.get(),
                                                   nullptr, nullptr, false, 0.1, kEps);
      },
      kept);
  auto wrongG = rnd({4, 3, 3}, 171), gi = rnd({2}, 172), gw = rnd({3}, 173), gb = rnd({3}, 174);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBatchNormalization_backward(nullptr, x.get(), wrongG.get(), gi.get(), gw.get(), gb.get(), w.get(),
                                               rm.get(), rv.get(), rm.get(), rv.get(), true, 1, kEps);
      },
      {gi.get(), gw.get(), gb.get()});
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleBatchNormalization_backward(nullptr, x.get(), x.get(), gi.get(), gw.get(), gb.get(), w.get(),
                                               rm.get(), rv.get(), nullptr, rv.get(), true, 1, kEps);
      },
      {gi.get(), gw.get(), gb.get()});
}

// ---- LayerNormalization ----

namespace {

// rows of D values of x, each normalised by its mean and biased variance, times w plus b
std::vector<double> layerNormRef(const std::vector<double> &x, int64_t D, const std::vector<double> &w,
                                 const std::vector<double> &b, double eps) {
  std::vector<double> out(x.size());
  for (size_t r = 0; r < x.size() / D; r++) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < D; i++) mean += x[r * D + i] / D;
    for (int64_t i = 0; i < D; i++) var += (x[r * D + i] - mean) * (x[r * D + i] - mean) / D;
    for (int64_t i = 0; i < D; i++)
      out[r * D + i] = (x[r * D + i] - mean) / std::sqrt(var + eps) * (w.empty() ? 1 : w[i]) + (b.empty() ? 0 : b[i]);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(layernorm_forward_matches_loops) {
  unsigned seed = 300;
  // rows of a few elements, of many (the vector sum's tail lengths), and one row of one
  for (const auto &shape : std::vector<std::vector<int64_t>>{{4, 5}, {3, 2, 37}, {2, 1000}, {6, 1}, {1, 16}}) {
    const int64_t D = shape.back();
    auto x = rnd(shape, seed++), w = rnd({D}, seed++), b = rnd({D}, seed++);
    auto out = empty(), mean = empty(), invstd = empty();
    THNN_DoubleLayerNormalization_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), mean.get(), invstd.get(),
                                               D, kEps);
    BOOST_TEST(maxAbsDiff(values(out.get()), layerNormRef(values(x.get()), D, values(w.get()), values(b.get()), kEps)) <
               1e-10);
    BOOST_TEST(THDoubleTensor_nElement(mean.get()) == THDoubleTensor_nElement(x.get()) / D);
    THNN_DoubleLayerNormalization_updateOutput(nullptr, x.get(), out.get(), nullptr, nullptr, mean.get(), invstd.get(),
                                               D, kEps);
    BOOST_TEST(maxAbsDiff(values(out.get()), layerNormRef(values(x.get()), D, {}, {}, kEps)) < 1e-10);
    // float, through the vector sum: 1e-5 relative to the values' scale
    auto xf = th::own(th::TH<float>::newWithSize((int)shape.size(), shape.data(), nullptr));
    auto wf = th::own(THFloatTensor_newWithSize1d(D)), bf = th::own(THFloatTensor_newWithSize1d(D));
    auto outf = th::own(THFloatTensor_new()), mf = th::own(THFloatTensor_new()), sf = th::own(THFloatTensor_new());
    thnnt::setValues(xf.get(), values(x.get()));
    thnnt::setValues(wf.get(), values(w.get()));
    thnnt::setValues(bf.get(), values(b.get()));
    THNN_FloatLayerNormalization_updateOutput(nullptr, xf.get(), outf.get(), wf.get(), bf.get(), mf.get(), sf.get(), D,
                                              kEps);
    BOOST_TEST(maxAbsDiff(values(outf.get()),
                          layerNormRef(values(x.get()), D, values(w.get()), values(b.get()), kEps)) < 1e-4);
  }
}

BOOST_AUTO_TEST_CASE(layernorm_gradients_match_numerical) {
  unsigned seed = 320;
  for (const auto &shape : std::vector<std::vector<int64_t>>{{4, 5}, {3, 2, 7}, {2, 33}}) {
    const int64_t D = shape.back();
    auto x = rnd(shape, seed++), w = rnd({D}, seed++), b = rnd({D}, seed++), g = rnd(shape, seed++);
    auto out = empty(), mean = empty(), invstd = empty();
    auto loss = [&] {
      THNN_DoubleLayerNormalization_updateOutput(nullptr, x.get(), out.get(), w.get(), b.get(), mean.get(),
                                                 invstd.get(), D, kEps);
      return thnnt::dot(g.get(), out.get());
    };
    const auto numX = thnnt::numericalGrad(x.get(), loss), numW = thnnt::numericalGrad(w.get(), loss),
               numB = thnnt::numericalGrad(b.get(), loss);
    loss();  // the statistics of the unperturbed input
    const double scale = 0.5;
    auto gradInput = empty(), gradWeight = rnd({D}, seed++), gradBias = rnd({D}, seed++);
    const auto gw0 = values(gradWeight.get()), gb0 = values(gradBias.get());
    THNN_DoubleLayerNormalization_backward(nullptr, x.get(), g.get(), gradInput.get(), gradWeight.get(), gradBias.get(),
                                           w.get(), mean.get(), invstd.get(), D, scale);
    BOOST_TEST(sizes(gradInput.get()) == shape);
    BOOST_TEST(maxAbsDiff(values(gradInput.get()), numX) < kTol);
    BOOST_TEST(maxAbsDiff(minus(values(gradWeight.get()), gw0), times(scale, numW)) < kTol);
    BOOST_TEST(maxAbsDiff(minus(values(gradBias.get()), gb0), times(scale, numB)) < kTol);
    // no weight, gradInput alone, written over gradOutput itself
    auto lossNoWeight = [&] {
      THNN_DoubleLayerNormalization_updateOutput(nullptr, x.get(), out.get(), nullptr, nullptr, mean.get(),
                                                 invstd.get(), D, kEps);
      return thnnt::dot(g.get(), out.get());
    };
    const auto numX1 = thnnt::numericalGrad(x.get(), lossNoWeight);
    lossNoWeight();
    THNN_DoubleLayerNormalization_backward(nullptr, x.get(), g.get(), g.get(), nullptr, nullptr, nullptr, mean.get(),
                                           invstd.get(), D, scale);
    BOOST_TEST(maxAbsDiff(values(g.get()), numX1) < kTol);
  }
}

BOOST_AUTO_TEST_CASE(layernorm_bad_arguments_throw) {
  auto x = rnd({4, 6}, 340), w = rnd({6}, 341), wrongW = rnd({5}, 342), out = rnd({2}, 343), sm = rnd({1}, 344),
       ss = rnd({1}, 345), strided = rndStrided({4, 6}, 346);
  std::vector<D *> kept = {out.get(), sm.get(), ss.get()};
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleLayerNormalization_updateOutput(nullptr, x.get(), out.get(), wrongW.get(), nullptr, sm.get(),
                                                   ss.get(), 6, kEps);
      },
      kept);
  checkThrowsUnchanged(  // 24 elements are not rows of 5
      [&] {
        THNN_DoubleLayerNormalization_updateOutput(nullptr, x.get(), out.get(), nullptr, nullptr, sm.get(), ss.get(), 5,
                                                   kEps);
      },
      kept);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleLayerNormalization_updateOutput(nullptr, strided.get(), out.get(), nullptr, nullptr, sm.get(),
                                                   ss.get(), 6, kEps);
      },
      kept);
  auto g = rnd({4, 5}, 347), gi = rnd({2}, 348);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleLayerNormalization_backward(nullptr, x.get(), g.get(), gi.get(), nullptr, nullptr, nullptr, sm.get(),
                                               ss.get(), 6, 1);
      },
      {gi.get(), sm.get(), ss.get()});
}
