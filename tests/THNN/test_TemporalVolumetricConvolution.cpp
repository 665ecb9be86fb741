// Temporal and volumetric convolutions: forward against plain-loop references, backward
// against central differences of the forward, argument checks.
#define BOOST_TEST_MODULE TemporalVolumetricConvolution
#include <boost/test/unit_test.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "thnn_test_util.hpp"

namespace {

using Vec = std::vector<double>;
using Sizes = std::vector<int64_t>;
using DTensor = th::Owned<THDoubleTensor>;
using thnnt::values;

DTensor random(const Sizes &size, unsigned seed) { return th::own(thnnt::randomTensor<double>(size, seed)); }
DTensor empty() { return th::own(THDoubleTensor_new()); }

Sizes sizesOf(THDoubleTensor *t) { return Sizes(t->size, t->size + t->nDimension); }

// A copy of t whose elements sit two apart in memory: non-contiguous unless it has one element.
DTensor spread(THDoubleTensor *t) {
  const Sizes size = sizesOf(t);
  Sizes stride(size.size());
  int64_t acc = 2;
  for (size_t d = size.size(); d-- > 0;) {
    stride[d] = acc;
    acc *= size[d];
  }
  auto buffer = th::own(THDoubleTensor_newWithSize1d(acc));
  auto view = th::own(THDoubleTensor_newWithStorage(buffer->storage, 0, (int)size.size(), size.data(), stride.data()));
  THDoubleTensor_copy(view.get(), t);
  BOOST_REQUIRE(acc == 2 || !THDoubleTensor_isContiguous(view.get()));
  return view;
}

th::Owned<THFloatTensor> toFloat(THDoubleTensor *t) {
  auto f = th::own(THFloatTensor_new());
  THFloatTensor_resizeNd(f.get(), t->nDimension, t->size, nullptr);
  THFloatTensor_copyDouble(f.get(), t);
  return f;
}

// A kernel family bound to its options, over double tensors; its buffers live inside.
// b (bias, gradBias) may be NULL where the kernel allows it.
struct Bound {
  std::function<void(THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b)> forward;
  std::function<void(THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w)> gradInput;
  std::function<void(THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale)>
      accGrad;
};

// (after - before) / scale: what accGradParameters added, per unit of scale.
Vec added(THDoubleTensor *t, const Vec &before, double scale) {
  Vec v = values(t);
  for (size_t i = 0; i < v.size(); i++) v[i] = (v[i] - before[i]) / scale;
  return v;
}

// The checks every kernel gets: the forward against the reference `expected` (also on a
// non-contiguous input and into a non-contiguous output), gradInput and the parameter
// gradients against central differences of loss = sum(gradOutput * forward), and the
// backward once more on non-contiguous tensors.
void checkKernel(const Bound &k, THDoubleTensor *x, THDoubleTensor *w, THDoubleTensor *b, const Sizes &outSizes,
                 const Vec &expected) {
  auto y = empty();
  k.forward(x, y.get(), w, b);
  BOOST_CHECK(sizesOf(y.get()) == outSizes);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(y.get()), expected), 1e-12);

  auto xs = spread(x);
  auto ys = spread(random(outSizes, 1).get());
  k.forward(xs.get(), ys.get(), w, b);
  BOOST_CHECK(sizesOf(ys.get()) == outSizes);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(ys.get()), expected), 1e-12);

  auto gy = random(outSizes, 2);
  auto loss = [&] {
    auto out = empty();
    k.forward(x, out.get(), w, b);
    return thnnt::dot(gy.get(), out.get());
  };
  auto gx = empty();
  k.gradInput(x, gy.get(), gx.get(), w);
  BOOST_CHECK(sizesOf(gx.get()) == sizesOf(x));
  const Vec gxValues = values(gx.get());
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(gxValues, thnnt::numericalGrad(x, loss)), 1e-7);

  const double scale = 0.5;
  k.forward(x, y.get(), w, b);  // accGradParameters of the MM kernels reads this forward's columns
  auto gw = random(sizesOf(w), 3);
  DTensor gb = b ? random(sizesOf(b), 4) : nullptr;
  const Vec gwBefore = values(gw.get()), gbBefore = b ? values(gb.get()) : Vec();
  k.accGrad(x, gy.get(), gw.get(), gb.get(), scale);
  const Vec gwAdded = added(gw.get(), gwBefore, scale);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(gwAdded, thnnt::numericalGrad(w, loss)), 1e-7);
  if (b) BOOST_CHECK_SMALL(thnnt::maxAbsDiff(added(gb.get(), gbBefore, scale), thnnt::numericalGrad(b, loss)), 1e-7);

  // Non-contiguous input, gradOutput, gradInput, gradWeight and gradBias.
  auto gys = spread(gy.get());
  auto gxs = spread(random(sizesOf(x), 5).get());
  k.gradInput(xs.get(), gys.get(), gxs.get(), w);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gxs.get()), gxValues), 1e-12);
  k.forward(xs.get(), y.get(), w, b);
  auto gws = spread(gw.get());
  DTensor gbs = b ? spread(gb.get()) : nullptr;
  const Vec gbsBefore = b ? values(gbs.get()) : Vec();
  k.accGrad(xs.get(), gys.get(), gws.get(), gbs.get(), 1.0);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(added(gws.get(), values(gw.get()), 1.0), gwAdded), 1e-12);
  if (b)
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(added(gbs.get(), gbsBefore, 1.0), added(gb.get(), gbBefore, scale)), 1e-12);
}

// call must raise th::Error with a message containing `needle` and leave every tensor of
// `untouched` as it was (sizes and values).
void expectError(const std::function<void()> &call, const std::string &needle,
                 const std::vector<THDoubleTensor *> &untouched) {
  std::vector<Sizes> sizes;
  std::vector<Vec> vals;
  for (THDoubleTensor *t : untouched) {
    sizes.push_back(sizesOf(t));
    vals.push_back(values(t));
  }
  try {
    call();
    BOOST_ERROR("no error raised; expected one mentioning " + needle);
  } catch (const th::Error &e) {
    BOOST_CHECK_MESSAGE(std::string(e.what()).find(needle) != std::string::npos,
                        "message \"" << e.what() << "\" lacks \"" << needle << "\"");
  }
  for (size_t i = 0; i < untouched.size(); i++) {
    BOOST_CHECK(sizesOf(untouched[i]) == sizes[i]);
    BOOST_CHECK(values(untouched[i]) == vals[i]);
  }
}

Sizes batched(int64_t batch, Sizes sample) {
  if (batch) sample.insert(sample.begin(), batch);
  return sample;
}

/* ---- references ---- */

// x: batch x T x F, w: O x (kW*F).
Vec refTemporalConvolution(const Vec &x, int64_t B, int64_t T, int64_t F, const Vec &w, const Vec &b, int64_t O, int kW,
                           int dW) {
  const int64_t nOut = (T - kW) / dW + 1;
  Vec y(B * nOut * O);
  for (int64_t n = 0; n < B; n++)
    for (int64_t t = 0; t < nOut; t++)
      for (int64_t o = 0; o < O; o++) {
        double s = b[o];
        for (int64_t k = 0; k < kW; k++)
          for (int64_t f = 0; f < F; f++) s += w[o * kW * F + k * F + f] * x[(n * T + t * dW + k) * F + f];
        y[(n * nOut + t) * O + o] = s;
      }
  return y;
}

Vec refTemporalSubSampling(const Vec &x, int64_t B, int64_t T, int64_t F, const Vec &w, const Vec &b, int kW, int dW) {
  const int64_t nOut = (T - kW) / dW + 1;
  Vec y(B * nOut * F);
  for (int64_t n = 0; n < B; n++)
    for (int64_t t = 0; t < nOut; t++)
      for (int64_t f = 0; f < F; f++) {
        double s = 0;
        for (int64_t k = 0; k < kW; k++) s += x[(n * T + t * dW + k) * F + f];
        y[(n * nOut + t) * F + f] = b[f] + w[f] * s;
      }
  return y;
}

// x: batch x T x F (or batch x F x T with featFirst), w: F x 1 x kW; output in x's layout.
Vec refTemporalRowConvolution(const Vec &x, int64_t B, int64_t T, int64_t F, const Vec &w, const Vec *b, int kW, int dW,
                              int padW, bool featFirst) {
  const int64_t nOut = (T + 2 * padW - kW) / dW + 1;
  auto at = [&](int64_t n, int64_t c, int64_t t, int64_t frames) {
    return featFirst ? (n * F + c) * frames + t : (n * frames + t) * F + c;
  };
  Vec y(B * nOut * F);
  for (int64_t n = 0; n < B; n++)
    for (int64_t c = 0; c < F; c++)
      for (int64_t o = 0; o < nOut; o++) {
        double s = b ? (*b)[c] : 0;
        for (int64_t k = 0; k < kW; k++) {
          const int64_t t = o * dW - padW + k;
          if (t >= 0 && t < T) s += w[c * kW + k] * x[at(n, c, t, T)];
        }
        y[at(n, c, o, nOut)] = s;
      }
  return y;
}

// Options of a 3-d convolution in t, h, w order; e is the dilation, or the output
// adjustment of the transposed convolution.
struct Conv3d {
  int64_t batch, inPlanes, outPlanes, in[3];
  int k[3], d[3], p[3], e[3];
  int64_t outSize(int a, bool transposed) const {
    return transposed ? (in[a] - 1) * d[a] - 2 * p[a] + k[a] + e[a]
                      : (in[a] + 2 * p[a] - (e[a] * (k[a] - 1) + 1)) / d[a] + 1;
  }
  Sizes inputSizes() const { return batched(batch, {inPlanes, in[0], in[1], in[2]}); }
  Sizes outputSizes(bool transposed) const {
    return batched(batch, {outPlanes, outSize(0, transposed), outSize(1, transposed), outSize(2, transposed)});
  }
};

// x: batch x C x T x H x W, w: O x C x kT x kH x kW.
Vec refConvolution3d(const Conv3d &c, const Vec &x, const Vec &w, const Vec *b) {
  const int64_t B = c.batch ? c.batch : 1, C = c.inPlanes, O = c.outPlanes;
  const int64_t oT = c.outSize(0, false), oH = c.outSize(1, false), oW = c.outSize(2, false);
  const int64_t T = c.in[0], H = c.in[1], W = c.in[2];
  Vec y(B * O * oT * oH * oW);
  for (int64_t n = 0; n < B; n++)
    for (int64_t o = 0; o < O; o++)
      for (int64_t ot = 0; ot < oT; ot++)
        for (int64_t oh = 0; oh < oH; oh++)
          for (int64_t ow = 0; ow < oW; ow++) {
            double s = b ? (*b)[o] : 0;
            for (int64_t ci = 0; ci < C; ci++)
              for (int kt = 0; kt < c.k[0]; kt++)
                for (int kh = 0; kh < c.k[1]; kh++)
                  for (int kw = 0; kw < c.k[2]; kw++) {
                    const int64_t it = ot * c.d[0] - c.p[0] + kt * c.e[0];
                    const int64_t ih = oh * c.d[1] - c.p[1] + kh * c.e[1];
                    const int64_t iw = ow * c.d[2] - c.p[2] + kw * c.e[2];
                    if (it < 0 || it >= T || ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                    s += w[(((o * C + ci) * c.k[0] + kt) * c.k[1] + kh) * c.k[2] + kw] *
                         x[(((n * C + ci) * T + it) * H + ih) * W + iw];
                  }
            y[(((n * O + o) * oT + ot) * oH + oh) * oW + ow] = s;
          }
  return y;
}

// Transposed: input position i, tap k add x * w[ci][co][k] to output position i*d - p + k.
Vec refFullConvolution3d(const Conv3d &c, const Vec &x, const Vec &w, const Vec *b) {
  const int64_t B = c.batch ? c.batch : 1, C = c.inPlanes, O = c.outPlanes;
  const int64_t oT = c.outSize(0, true), oH = c.outSize(1, true), oW = c.outSize(2, true);
  const int64_t T = c.in[0], H = c.in[1], W = c.in[2];
  Vec y(B * O * oT * oH * oW);
  for (int64_t n = 0; n < B; n++)
    for (int64_t o = 0; o < O; o++)
      for (int64_t i = 0; i < oT * oH * oW; i++) y[(n * O + o) * oT * oH * oW + i] = b ? (*b)[o] : 0;
  for (int64_t n = 0; n < B; n++)
    for (int64_t ci = 0; ci < C; ci++)
      for (int64_t it = 0; it < T; it++)
        for (int64_t ih = 0; ih < H; ih++)
          for (int64_t iw = 0; iw < W; iw++)
            for (int64_t o = 0; o < O; o++)
              for (int kt = 0; kt < c.k[0]; kt++)
                for (int kh = 0; kh < c.k[1]; kh++)
                  for (int kw = 0; kw < c.k[2]; kw++) {
                    const int64_t ot = it * c.d[0] - c.p[0] + kt;
                    const int64_t oh = ih * c.d[1] - c.p[1] + kh;
                    const int64_t ow = iw * c.d[2] - c.p[2] + kw;
                    if (ot < 0 || ot >= oT || oh < 0 || oh >= oH || ow < 0 || ow >= oW) continue;
                    y[(((n * O + o) * oT + ot) * oH + oh) * oW + ow] +=
                        x[(((n * C + ci) * T + it) * H + ih) * W + iw] *
                        w[(((ci * O + o) * c.k[0] + kt) * c.k[1] + kh) * c.k[2] + kw];
                  }
  return y;
}

/* ---- bindings ---- */

Bound temporalConvolution(int kW, int dW, int inputFrameSize, int outputFrameSize) {
  return {[=](THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b) {
            THNN_DoubleTemporalConvolution_updateOutput(nullptr, x, y, w, b, kW, dW, inputFrameSize, outputFrameSize);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w) {
            THNN_DoubleTemporalConvolution_updateGradInput(nullptr, x, gy, gx, w, kW, dW);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale) {
            THNN_DoubleTemporalConvolution_accGradParameters(nullptr, x, gy, gw, gb, kW, dW, scale);
          }};
}

Bound temporalSubSampling(int kW, int dW, int inputFrameSize) {
  return {[=](THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b) {
            THNN_DoubleTemporalSubSampling_updateOutput(nullptr, x, y, w, b, kW, dW, inputFrameSize);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w) {
            THNN_DoubleTemporalSubSampling_updateGradInput(nullptr, x, gy, gx, w, kW, dW);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale) {
            THNN_DoubleTemporalSubSampling_accGradParameters(nullptr, x, gy, gw, gb, kW, dW, scale);
          }};
}

// Buffers shared by the calls of one binding, as a module's fields would be.
struct Buffers {
  DTensor a = empty(), b = empty();
};

Bound temporalRowConvolution(int kW, int dW, int padW, bool featFirst) {
  auto buf = std::make_shared<Buffers>();
  return {[=](THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b) {
            THNN_DoubleTemporalRowConvolution_updateOutput(nullptr, x, y, w, b, buf->a.get(), buf->b.get(), kW, dW,
                                                           padW, featFirst);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w) {
            THNN_DoubleTemporalRowConvolution_updateGradInput(nullptr, x, gy, gx, w, buf->a.get(), buf->b.get(), kW, dW,
                                                              padW, featFirst);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale) {
            THNN_DoubleTemporalRowConvolution_accGradParameters(nullptr, x, gy, gw, gb, buf->a.get(), buf->b.get(), kW,
                                                                dW, padW, featFirst, scale);
          }};
}

// The volumetric kernels take each triple as T, W, H.
Bound convolutionMM(const Conv3d &c) {
  auto buf = std::make_shared<Buffers>();
  return {[=](THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b) {
            THNN_DoubleVolumetricConvolutionMM_updateOutput(nullptr, x, y, w, b, buf->a.get(), buf->b.get(), c.k[0],
                                                            c.k[2], c.k[1], c.d[0], c.d[2], c.d[1], c.p[0], c.p[2],
                                                            c.p[1]);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w) {
            THNN_DoubleVolumetricConvolutionMM_updateGradInput(nullptr, x, gy, gx, w, buf->a.get(), buf->b.get(),
                                                               c.k[0], c.k[2], c.k[1], c.d[0], c.d[2], c.d[1], c.p[0],
                                                               c.p[2], c.p[1]);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale) {
            THNN_DoubleVolumetricConvolutionMM_accGradParameters(nullptr, x, gy, gw, gb, buf->a.get(), buf->b.get(),
                                                                 c.k[0], c.k[2], c.k[1], c.d[0], c.d[2], c.d[1], c.p[0],
                                                                 c.p[2], c.p[1], scale);
          }};
}

Bound dilatedConvolution(const Conv3d &c) {
  auto buf = std::make_shared<Buffers>();
  return {[=](THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b) {
            THNN_DoubleVolumetricDilatedConvolution_updateOutput(nullptr, x, y, w, b, buf->a.get(), buf->b.get(),
                                                                 c.k[0], c.k[2], c.k[1], c.d[0], c.d[2], c.d[1], c.p[0],
                                                                 c.p[2], c.p[1], c.e[0], c.e[2], c.e[1]);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w) {
            THNN_DoubleVolumetricDilatedConvolution_updateGradInput(nullptr, x, gy, gx, w, buf->a.get(), c.k[0], c.k[2],
                                                                    c.k[1], c.d[0], c.d[2], c.d[1], c.p[0], c.p[2],
                                                                    c.p[1], c.e[0], c.e[2], c.e[1]);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale) {
            THNN_DoubleVolumetricDilatedConvolution_accGradParameters(
                nullptr, x, gy, gw, gb, buf->a.get(), buf->b.get(), c.k[0], c.k[2], c.k[1], c.d[0], c.d[2], c.d[1],
                c.p[0], c.p[2], c.p[1], c.e[0], c.e[2], c.e[1], scale);
          }};
}

Bound fullConvolution(const Conv3d &c) {
  auto buf = std::make_shared<Buffers>();
  return {[=](THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *w, THDoubleTensor *b) {
            THNN_DoubleVolumetricFullConvolution_updateOutput(nullptr, x, y, w, b, buf->a.get(), buf->b.get(), c.k[0],
                                                              c.k[2], c.k[1], c.d[0], c.d[2], c.d[1], c.p[0], c.p[2],
                                                              c.p[1], c.e[0], c.e[2], c.e[1]);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gx, THDoubleTensor *w) {
            THNN_DoubleVolumetricFullConvolution_updateGradInput(nullptr, x, gy, gx, w, buf->a.get(), buf->b.get(),
                                                                 c.k[0], c.k[2], c.k[1], c.d[0], c.d[2], c.d[1], c.p[0],
                                                                 c.p[2], c.p[1], c.e[0], c.e[2], c.e[1]);
          },
          [=](THDoubleTensor *x, THDoubleTensor *gy, THDoubleTensor *gw, THDoubleTensor *gb, double scale) {
            THNN_DoubleVolumetricFullConvolution_accGradParameters(
                nullptr, x, gy, gw, gb, buf->a.get(), buf->b.get(), c.k[0], c.k[2], c.k[1], c.d[0], c.d[2], c.d[1],
                c.p[0], c.p[2], c.p[1], c.e[0], c.e[2], c.e[1], scale);
          }};
}

Sizes convolutionWeightSizes(const Conv3d &c) { return {c.outPlanes, c.inPlanes, c.k[0], c.k[1], c.k[2]}; }
Sizes fullWeightSizes(const Conv3d &c) { return {c.inPlanes, c.outPlanes, c.k[0], c.k[1], c.k[2]}; }

}  // namespace

/* ---- TemporalConvolution ---- */

struct TemporalCase {
  int64_t batch, frames, features, outFeatures;
  int kW, dW;
};

// Odd sizes; kW > dW (several window sets), dW > kW (frames skipped), one output frame.
const TemporalCase kTemporalCases[] = {
    {0, 7, 3, 4, 3, 2}, {2, 9, 2, 3, 4, 1}, {3, 8, 3, 2, 2, 3}, {2, 5, 4, 3, 5, 1}, {1, 6, 1, 1, 1, 1},
};

BOOST_AUTO_TEST_CASE(temporal_convolution) {
  unsigned seed = 10;
  for (const TemporalCase &c : kTemporalCases) {
    BOOST_TEST_MESSAGE("batch " << c.batch << " frames " << c.frames << " kW " << c.kW << " dW " << c.dW);
    auto x = random(batched(c.batch, {c.frames, c.features}), seed++);
    auto w = random({c.outFeatures, c.kW * c.features}, seed++);
    auto b = random({c.outFeatures}, seed++);
    const int64_t nOut = (c.frames - c.kW) / c.dW + 1;
    const Vec expected = refTemporalConvolution(values(x.get()), c.batch ? c.batch : 1, c.frames, c.features,
                                                values(w.get()), values(b.get()), c.outFeatures, c.kW, c.dW);
    checkKernel(temporalConvolution(c.kW, c.dW, (int)c.features, (int)c.outFeatures), x.get(), w.get(), b.get(),
                batched(c.batch, {nOut, c.outFeatures}), expected);
  }
}

BOOST_AUTO_TEST_CASE(temporal_convolution_errors) {
  auto x = random({2, 6, 3}, 1), w = random({4, 9}, 2), b = random({4}, 3);
  auto y = random({2, 2}, 4), gx = random({3}, 5), gw = random({4, 9}, 6), gb = random({4}, 7);
  auto gy = random({2, 4, 4}, 8);
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateOutput(nullptr, w.get(), y.get(), w.get(), b.get(), 3, 1, 3, 4); },
      "[4, 9]", {y.get()});  // a 2-d input whose frames have 9 features
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateOutput(nullptr, b.get(), y.get(), w.get(), b.get(), 3, 1, 3, 4); },
      "[4]", {y.get()});
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), b.get(), 7, 1, 3, 4); },
      "[2, 6, 3]", {y.get()});  // fewer frames than kW
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), gy.get(), 3, 1, 3, 4); },
      "[2, 4, 4]", {y.get()});
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), b.get(), 3, 0, 3, 4); },
      "dW", {y.get()});
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), nullptr, 3, 1, 3, 4); },
      "bias must have sizes [4], got NULL", {y.get()});
  auto badGy = random({2, 3, 4}, 9);
  expectError(
      [&] { THNN_DoubleTemporalConvolution_updateGradInput(nullptr, x.get(), badGy.get(), gx.get(), w.get(), 3, 1); },
      "[2, 3, 4]", {gx.get()});
  auto badGw = random({4, 8}, 10);
  expectError(
      [&] {
        THNN_DoubleTemporalConvolution_accGradParameters(nullptr, x.get(), gy.get(), badGw.get(), gb.get(), 3, 1, 1);
      },
      "[4, 8]", {badGw.get(), gb.get()});
  auto badGb = random({5}, 11);
  expectError(
      [&] {
        THNN_DoubleTemporalConvolution_accGradParameters(nullptr, x.get(), gy.get(), gw.get(), badGb.get(), 3, 1, 1);
      },
      "[5]", {gw.get(), badGb.get()});
}

/* ---- TemporalSubSampling ---- */

BOOST_AUTO_TEST_CASE(temporal_subsampling) {
  unsigned seed = 30;
  for (const TemporalCase &c : kTemporalCases) {
    BOOST_TEST_MESSAGE("batch " << c.batch << " frames " << c.frames << " kW " << c.kW << " dW " << c.dW);
    auto x = random(batched(c.batch, {c.frames, c.features}), seed++);
    auto w = random({c.features}, seed++);
    auto b = random({c.features}, seed++);
    const int64_t nOut = (c.frames - c.kW) / c.dW + 1;
    const Vec expected = refTemporalSubSampling(values(x.get()), c.batch ? c.batch : 1, c.frames, c.features,
                                                values(w.get()), values(b.get()), c.kW, c.dW);
    checkKernel(temporalSubSampling(c.kW, c.dW, (int)c.features), x.get(), w.get(), b.get(),
                batched(c.batch, {nOut, c.features}), expected);
  }
}

BOOST_AUTO_TEST_CASE(temporal_subsampling_errors) {
  auto x = random({6, 3}, 1), w = random({3}, 2), b = random({3}, 3), y = random({2}, 4);
  auto badW = random({4}, 5);
  expectError(
      [&] { THNN_DoubleTemporalSubSampling_updateOutput(nullptr, x.get(), y.get(), badW.get(), b.get(), 2, 1, 3); },
      "[4]", {y.get()});
  expectError(
      [&] { THNN_DoubleTemporalSubSampling_updateOutput(nullptr, x.get(), y.get(), w.get(), b.get(), 2, 1, 4); },
      "[6, 3]", {y.get()});  // inputFrameSize mismatch
  auto gy = random({5, 2}, 6), gx = random({2}, 7);
  expectError(
      [&] { THNN_DoubleTemporalSubSampling_updateGradInput(nullptr, x.get(), gy.get(), gx.get(), w.get(), 2, 1); },
      "[5, 2]", {gx.get()});
}

/* ---- TemporalRowConvolution ---- */

struct RowCase {
  int64_t batch, frames, features;
  int kW, dW, padW;
  bool featFirst;
};

BOOST_AUTO_TEST_CASE(temporal_row_convolution) {
  const RowCase cases[] = {
      {0, 7, 3, 3, 1, 0, false}, {2, 8, 3, 3, 2, 1, false}, {2, 6, 4, 2, 1, 2, true},
      {0, 5, 2, 4, 3, 1, true},  {3, 5, 2, 5, 1, 0, false}, {1, 3, 3, 5, 2, 2, true},
  };
  unsigned seed = 50;
  for (const RowCase &c : cases) {
    BOOST_TEST_MESSAGE("batch " << c.batch << " frames " << c.frames << " kW " << c.kW << " dW " << c.dW << " padW "
                                << c.padW << " featFirst " << c.featFirst);
    const Sizes sample = c.featFirst ? Sizes{c.features, c.frames} : Sizes{c.frames, c.features};
    auto x = random(batched(c.batch, sample), seed++);
    auto w = random({c.features, 1, c.kW}, seed++);
    auto b = random({c.features}, seed++);
    const int64_t nOut = (c.frames + 2 * c.padW - c.kW) / c.dW + 1;
    const Sizes outSizes = batched(c.batch, c.featFirst ? Sizes{c.features, nOut} : Sizes{nOut, c.features});
    const Vec bv = values(b.get());
    const Bound k = temporalRowConvolution(c.kW, c.dW, c.padW, c.featFirst);
    checkKernel(k, x.get(), w.get(), b.get(), outSizes,
                refTemporalRowConvolution(values(x.get()), c.batch ? c.batch : 1, c.frames, c.features, values(w.get()),
                                          &bv, c.kW, c.dW, c.padW, c.featFirst));
    checkKernel(k, x.get(), w.get(), nullptr, outSizes,
                refTemporalRowConvolution(values(x.get()), c.batch ? c.batch : 1, c.frames, c.features, values(w.get()),
                                          nullptr, c.kW, c.dW, c.padW, c.featFirst));
  }
}

BOOST_AUTO_TEST_CASE(temporal_row_convolution_errors) {
  auto x = random({2, 6, 3}, 1), w = random({3, 1, 2}, 2), b = random({3}, 3), y = random({2}, 4);
  auto finput = empty(), fgradInput = empty();
  auto badW = random({3, 2}, 5);
  expectError(
      [&] {
        THNN_DoubleTemporalRowConvolution_updateOutput(nullptr, x.get(), y.get(), badW.get(), b.get(), finput.get(),
                                                       fgradInput.get(), 2, 1, 0, false);
      },
      "[3, 2]", {y.get(), finput.get()});
  expectError(
      [&] {
        THNN_DoubleTemporalRowConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), b.get(), finput.get(),
                                                       fgradInput.get(), 2, 1, 0, true);  // 6 features, not 3
      },
      "[3, 1, 2]", {y.get(), finput.get()});
  auto gy = random({2, 5, 3}, 6), gw = random({3, 1, 2}, 7), gb = random({3}, 8);
  // accGradParameters needs updateOutput's columns in finput.
  expectError(
      [&] {
        THNN_DoubleTemporalRowConvolution_accGradParameters(nullptr, x.get(), gy.get(), gw.get(), gb.get(),
                                                            finput.get(), fgradInput.get(), 2, 1, 0, false, 1);
      },
      "finput", {gw.get(), gb.get()});
  auto badGy = random({2, 3, 5}, 9), gx = random({1}, 10);
  expectError(
      [&] {
        THNN_DoubleTemporalRowConvolution_updateGradInput(nullptr, x.get(), badGy.get(), gx.get(), w.get(),
                                                          finput.get(), fgradInput.get(), 2, 1, 0, false);
      },
      "[2, 3, 5]", {gx.get()});
}

/* ---- VolumetricConvolutionMM and VolumetricDilatedConvolution ---- */

BOOST_AUTO_TEST_CASE(volumetric_convolution_mm) {
  const Conv3d cases[] = {
      {0, 2, 3, {4, 5, 5}, {2, 3, 2}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}},
      {2, 2, 2, {5, 4, 6}, {3, 2, 3}, {2, 1, 2}, {1, 0, 1}, {1, 1, 1}},
      {1, 1, 2, {3, 3, 3}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
      {3, 3, 1, {2, 5, 3}, {1, 2, 2}, {1, 3, 1}, {0, 2, 1}, {1, 1, 1}},
  };
  unsigned seed = 70;
  for (const Conv3d &c : cases) {
    BOOST_TEST_MESSAGE("batch " << c.batch << " in " << c.in[0] << "x" << c.in[1] << "x" << c.in[2]);
    auto x = random(c.inputSizes(), seed++);
    auto w = random(convolutionWeightSizes(c), seed++);
    auto b = random({c.outPlanes}, seed++);
    const Vec bv = values(b.get());
    const Bound k = convolutionMM(c);
    checkKernel(k, x.get(), w.get(), b.get(), c.outputSizes(false),
                refConvolution3d(c, values(x.get()), values(w.get()), &bv));
    checkKernel(k, x.get(), w.get(), nullptr, c.outputSizes(false),
                refConvolution3d(c, values(x.get()), values(w.get()), nullptr));
    // torch7's 2-d view of the weight, nOutputPlane x (nInputPlane * kT * kH * kW).
    auto w2 = th::own(THDoubleTensor_newWithSize2d(c.outPlanes, c.inPlanes * c.k[0] * c.k[1] * c.k[2]));
    THDoubleTensor_copy(w2.get(), w.get());
    checkKernel(k, x.get(), w2.get(), b.get(), c.outputSizes(false),
                refConvolution3d(c, values(x.get()), values(w.get()), &bv));
  }
}

BOOST_AUTO_TEST_CASE(volumetric_dilated_convolution) {
  const Conv3d cases[] = {
      {2, 2, 3, {6, 5, 7}, {2, 2, 3}, {1, 2, 1}, {1, 0, 2}, {2, 1, 2}},
      {0, 1, 2, {5, 5, 5}, {2, 2, 2}, {2, 2, 1}, {0, 1, 1}, {2, 2, 1}},
      {1, 2, 2, {4, 5, 4}, {1, 2, 2}, {1, 1, 2}, {0, 0, 0}, {1, 3, 2}},
  };
  unsigned seed = 90;
  for (const Conv3d &c : cases) {
    BOOST_TEST_MESSAGE("batch " << c.batch << " in " << c.in[0] << "x" << c.in[1] << "x" << c.in[2]);
    auto x = random(c.inputSizes(), seed++);
    auto w = random(convolutionWeightSizes(c), seed++);
    auto b = random({c.outPlanes}, seed++);
    const Vec bv = values(b.get());
    checkKernel(dilatedConvolution(c), x.get(), w.get(), b.get(), c.outputSizes(false),
                refConvolution3d(c, values(x.get()), values(w.get()), &bv));
  }
}

BOOST_AUTO_TEST_CASE(volumetric_convolution_errors) {
  const Conv3d c = {2, 2, 3, {4, 4, 4}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
  auto x = random(c.inputSizes(), 1), w = random(convolutionWeightSizes(c), 2), b = random({3}, 3);
  auto y = random({2}, 4), finput = random({3}, 5), fgradInput = empty();
  auto run = [&](THDoubleTensor *input, THDoubleTensor *weight, THDoubleTensor *bias, int kT, int pad) {
    THNN_DoubleVolumetricConvolutionMM_updateOutput(nullptr, input, y.get(), weight, bias, finput.get(),
                                                    fgradInput.get(), kT, 2, 2, 1, 1, 1, pad, pad, pad);
  };
  expectError([&] { run(b.get(), w.get(), b.get(), 2, 0); }, "got sizes [3]", {y.get(), finput.get()});
  auto x3 = random({2, 3, 4, 4, 4}, 6);  // 3 planes, weight takes 2
  expectError([&] { run(x3.get(), w.get(), b.get(), 2, 0); }, "[2, 3, 4, 4, 4]", {y.get(), finput.get()});
  expectError([&] { run(x.get(), w.get(), b.get(), 3, 0); }, "[3, 2, 2, 2, 2]", {y.get(), finput.get()});  // kT
  expectError([&] { run(x.get(), w.get(), b.get(), 2, -1); }, "padding", {y.get(), finput.get()});
  expectError([&] { run(x.get(), nullptr, b.get(), 2, 0); }, "got sizes NULL", {y.get(), finput.get()});
  auto badB = random({2}, 7);
  expectError([&] { run(x.get(), w.get(), badB.get(), 2, 0); }, "[2]", {y.get(), finput.get()});
  auto small = random({2, 2, 1, 4, 4}, 8);  // depth 1 < kT
  expectError([&] { run(small.get(), w.get(), b.get(), 2, 0); }, "[2, 2, 1, 4, 4]", {y.get(), finput.get()});

  auto gy = random({2, 3, 3, 3, 3}, 9), gw = random(convolutionWeightSizes(c), 10), gb = random({3}, 11);
  // accGradParameters reads updateOutput's columns: a finput of another size raises.
  expectError(
      [&] {
        THNN_DoubleVolumetricConvolutionMM_accGradParameters(nullptr, x.get(), gy.get(), gw.get(), gb.get(),
                                                             finput.get(), fgradInput.get(), 2, 2, 2, 1, 1, 1, 0, 0, 0,
                                                             1);
      },
      "finput", {gw.get(), gb.get()});
  auto badGy = random({2, 3, 3, 3, 2}, 12), gx = random({2}, 13);
  expectError(
      [&] {
        THNN_DoubleVolumetricConvolutionMM_updateGradInput(nullptr, x.get(), badGy.get(), gx.get(), w.get(),
                                                           finput.get(), fgradInput.get(), 2, 2, 2, 1, 1, 1, 0, 0, 0);
      },
      "[2, 3, 3, 3, 2]", {gx.get()});
  auto columns = empty(), ones = empty();
  expectError(
      [&] {
        THNN_DoubleVolumetricDilatedConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), b.get(), columns.get(),
                                                             ones.get(), 2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 1, 1);
      },
      "dilation", {y.get(), columns.get()});
  expectError(
      [&] {
        THNN_DoubleVolumetricDilatedConvolution_updateOutput(nullptr, x.get(), y.get(), w.get(), b.get(), columns.get(),
                                                             ones.get(), 2, 2, 2, 1, 1, 1, 0, 0, 0, 4, 1,
                                                             1);  // dilated kernel spans 5 > 4
      },
      "[2, 2, 4, 4, 4]", {y.get(), columns.get()});
}

/* ---- VolumetricFullConvolution ---- */

BOOST_AUTO_TEST_CASE(volumetric_full_convolution) {
  const Conv3d cases[] = {
      {0, 2, 3, {2, 3, 2}, {2, 3, 2}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}},
      {2, 2, 2, {3, 2, 3}, {3, 2, 3}, {2, 1, 2}, {1, 0, 1}, {1, 0, 1}},
      {1, 1, 2, {2, 2, 2}, {2, 2, 2}, {3, 2, 2}, {0, 1, 0}, {2, 0, 1}},
      {3, 3, 1, {1, 3, 2}, {1, 3, 3}, {1, 2, 3}, {0, 1, 1}, {0, 1, 2}},
  };
  unsigned seed = 110;
  for (const Conv3d &c : cases) {
    BOOST_TEST_MESSAGE("batch " << c.batch << " in " << c.in[0] << "x" << c.in[1] << "x" << c.in[2]);
    auto x = random(c.inputSizes(), seed++);
    auto w = random(fullWeightSizes(c), seed++);
    auto b = random({c.outPlanes}, seed++);
    const Vec bv = values(b.get());
    const Bound k = fullConvolution(c);
    checkKernel(k, x.get(), w.get(), b.get(), c.outputSizes(true),
                refFullConvolution3d(c, values(x.get()), values(w.get()), &bv));
    checkKernel(k, x.get(), w.get(), nullptr, c.outputSizes(true),
                refFullConvolution3d(c, values(x.get()), values(w.get()), nullptr));
  }
}

BOOST_AUTO_TEST_CASE(volumetric_full_convolution_errors) {
  const Conv3d c = {2, 2, 3, {3, 3, 3}, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0}};
  auto x = random(c.inputSizes(), 1), w = random(fullWeightSizes(c), 2), b = random({3}, 3);
  auto y = random({2}, 4), finput = empty(), fgradInput = empty();
  auto run = [&](THDoubleTensor *weight, THDoubleTensor *bias, int adj, int pad) {
    THNN_DoubleVolumetricFullConvolution_updateOutput(nullptr, x.get(), y.get(), weight, bias, finput.get(),
                                                      fgradInput.get(), 2, 2, 2, 2, 2, 2, pad, pad, pad, adj, adj, adj);
  };
  expectError([&] { run(w.get(), b.get(), 2, 0); }, "adjustment", {y.get(), finput.get()});  // adj == stride
  auto wOut = random({3, 2, 2, 2, 2}, 5);  // 3 input planes, input has 2
  expectError([&] { run(wOut.get(), b.get(), 0, 0); }, "[2, 2, 3, 3, 3]", {y.get(), finput.get()});
  auto badB = random({2}, 6);
  expectError([&] { run(w.get(), badB.get(), 0, 0); }, "[2]", {y.get(), finput.get()});
  expectError([&] { run(w.get(), b.get(), 0, 3); }, "[2, 2, 3, 3, 3]", {y.get(), finput.get()});  // output empty
  auto gy = random({2, 3, 6, 6, 5}, 7), gx = random({2}, 8);
  expectError(
      [&] {
        THNN_DoubleVolumetricFullConvolution_updateGradInput(nullptr, x.get(), gy.get(), gx.get(), w.get(),
                                                             finput.get(), fgradInput.get(), 2, 2, 2, 2, 2, 2, 0, 0, 0,
                                                             0, 0, 0);
      },
      "[2, 3, 6, 6, 5]", {gx.get()});
}

/* ---- Float ---- */

BOOST_AUTO_TEST_CASE(float_forward) {
  const double tol = 1e-4;
  auto x = random({2, 7, 3}, 1), w = random({4, 9}, 2), b = random({4}, 3);
  auto yf = th::own(THFloatTensor_new());
  THNN_FloatTemporalConvolution_updateOutput(nullptr, toFloat(x.get()).get(), yf.get(), toFloat(w.get()).get(),
                                             toFloat(b.get()).get(), 3, 2, 3, 4);
  BOOST_CHECK_SMALL(
      thnnt::maxAbsDiff(values(yf.get()),
                        refTemporalConvolution(values(x.get()), 2, 7, 3, values(w.get()), values(b.get()), 4, 3, 2)),
      tol);

  auto ws = random({3}, 4), bs = random({3}, 5);
  THNN_FloatTemporalSubSampling_updateOutput(nullptr, toFloat(x.get()).get(), yf.get(), toFloat(ws.get()).get(),
                                             toFloat(bs.get()).get(), 3, 2, 3);
  BOOST_CHECK_SMALL(
      thnnt::maxAbsDiff(values(yf.get()),
                        refTemporalSubSampling(values(x.get()), 2, 7, 3, values(ws.get()), values(bs.get()), 3, 2)),
      tol);

  auto wr = random({3, 1, 3}, 6);
  auto finput = th::own(THFloatTensor_new()), fgradInput = th::own(THFloatTensor_new());
  THNN_FloatTemporalRowConvolution_updateOutput(nullptr, toFloat(x.get()).get(), yf.get(), toFloat(wr.get()).get(),
                                                toFloat(bs.get()).get(), finput.get(), fgradInput.get(), 3, 2, 1,
                                                false);
  const Vec bsv = values(bs.get());
  BOOST_CHECK_SMALL(
      thnnt::maxAbsDiff(values(yf.get()),
                        refTemporalRowConvolution(values(x.get()), 2, 7, 3, values(wr.get()), &bsv, 3, 2, 1, false)),
      tol);

  const Conv3d c = {2, 2, 3, {4, 5, 3}, {2, 3, 2}, {1, 2, 1}, {1, 0, 1}, {2, 1, 1}};
  auto xv = random(c.inputSizes(), 7), wv = random(convolutionWeightSizes(c), 8), bv = random({3}, 9);
  const Vec bvv = values(bv.get());
  THNN_FloatVolumetricConvolutionMM_updateOutput(nullptr, toFloat(xv.get()).get(), yf.get(), toFloat(wv.get()).get(),
                                                 toFloat(bv.get()).get(), finput.get(), fgradInput.get(), 2, 2, 3, 1, 1,
                                                 2, 1, 1, 0);
  Conv3d mm = c;
  mm.e[0] = 1;
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(yf.get()), refConvolution3d(mm, values(xv.get()), values(wv.get()), &bvv)),
                    tol);
  THNN_FloatVolumetricDilatedConvolution_updateOutput(nullptr, toFloat(xv.get()).get(), yf.get(),
                                                      toFloat(wv.get()).get(), toFloat(bv.get()).get(), finput.get(),
                                                      fgradInput.get(), 2, 2, 3, 1, 1, 2, 1, 1, 0, 2, 1, 1);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(yf.get()), refConvolution3d(c, values(xv.get()), values(wv.get()), &bvv)),
                    tol);

  const Conv3d f = {2, 2, 3, {2, 3, 2}, {2, 2, 3}, {2, 1, 2}, {0, 1, 1}, {1, 0, 1}};
  auto xf = random(f.inputSizes(), 10), wf = random(fullWeightSizes(f), 11);
  THNN_FloatVolumetricFullConvolution_updateOutput(nullptr, toFloat(xf.get()).get(), yf.get(), toFloat(wf.get()).get(),
                                                   toFloat(bv.get()).get(), finput.get(), fgradInput.get(), 2, 3, 2, 2,
                                                   2, 1, 0, 1, 1, 1, 1, 0);
  BOOST_CHECK_SMALL(
      thnnt::maxAbsDiff(values(yf.get()), refFullConvolution3d(f, values(xf.get()), values(wf.get()), &bvv)), tol);
}
