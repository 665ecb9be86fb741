// SpatialConvolution group: every kernel's forward against a direct loop convolution written
// here (a 7-loop gather for the convolutions, a scatter for the transposed ones), its
// gradInput / gradWeight / gradBias against central differences of sum(gradOutput * output)
// in double (or, on larger shapes that run the OpenMP paths, against the adjoint identities
// <gradOutput, f(x)> = <gradInput, x> = <gradWeight, w> of these bilinear layers), a Float run
// of the forward, and bad arguments that must raise th::Error and leave every tensor as it was.
#define BOOST_TEST_MODULE THNN SpatialConvolution
#include <boost/test/unit_test.hpp>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "thnn_test_util.hpp"

namespace {

using thnnt::Api;
using thnnt::Owned;
using thnnt::TensorOf;

enum class Kind { MM, Dilated, Full, FullDilated, Local, Depthwise, SubSampling };

struct Geometry {
  int kW, kH, dW, dH, padW, padH;
  int dilationW = 1, dilationH = 1, adjW = 0, adjH = 0;
};

struct Case {
  const char *name;
  Kind kind;
  Geometry g;
  std::vector<int64_t> input;   // [B, C, H, W] or [C, H, W]
  std::vector<int64_t> weight;  // in the kernel's layout
  bool bias;                    // false: NULL bias
  bool nonContiguous;           // hand the kernels transposed views (input, weight, output, gradients)
  bool large = false;           // check gradients through the adjoint identities
};

struct Dims {
  bool batched;
  int64_t B, C, H, W;
};

Dims dimsOf(const std::vector<int64_t> &s) {
  const bool batched = s.size() == 4;
  const size_t o = batched ? 1 : 0;
  return {batched, batched ? s[0] : 1, s[o], s[o + 1], s[o + 2]};
}

int64_t convolutionSize(int64_t in, int k, int d, int pad, int dilation) {
  return (in + 2 * pad - (dilation * (k - 1) + 1)) / d + 1;
}

int64_t transposedSize(int64_t in, int k, int d, int pad, int dilation, int adj) {
  return (in - 1) * d - 2 * pad + dilation * (k - 1) + 1 + adj;
}

std::vector<int64_t> outputSizesOf(const Case &c) {
  const Dims d = dimsOf(c.input);
  const Geometry &g = c.g;
  int64_t O = 0, oH, oW;
  if (c.kind == Kind::Full || c.kind == Kind::FullDilated) {
    O = c.weight[1];
    oH = transposedSize(d.H, g.kH, g.dH, g.padH, g.dilationH, g.adjH);
    oW = transposedSize(d.W, g.kW, g.dW, g.padW, g.dilationW, g.adjW);
  } else {
    oH = convolutionSize(d.H, g.kH, g.dH, g.padH, g.dilationH);
    oW = convolutionSize(d.W, g.kW, g.dW, g.padW, g.dilationW);
    if (c.kind == Kind::MM || c.kind == Kind::Dilated) O = c.weight[0];
    if (c.kind == Kind::Local) O = c.weight.size() == 6 ? c.weight[2] : c.weight[1];
    if (c.kind == Kind::Depthwise) O = c.weight[0] * d.C;
    if (c.kind == Kind::SubSampling) O = d.C;
  }
  if (d.batched) return {d.B, O, oH, oW};
  return {O, oH, oW};
}

std::vector<int64_t> biasSizesOf(const Case &c) {
  const auto out = outputSizesOf(c);
  const size_t o = out.size() - 3;
  if (c.kind == Kind::Local) return {out[o], out[o + 1], out[o + 2]};
  if (c.kind == Kind::Depthwise) return {c.weight[0], dimsOf(c.input).C};
  return {out[o]};
}

int64_t numelOf(const std::vector<int64_t> &size) {
  int64_t n = 1;
  for (int64_t s : size) n *= s;
  return n;
}

// out[b][o][y][x] = bias(o, y, x) + sum over c, kh, kw of weight(o, c, kh, kw, y, x) * in[b][c][iy][ix]
// with iy = y dH - padH + kh dilationH, ix = x dW - padW + kw dilationW, and 0 outside the input.
std::vector<double> directConvolution(const std::vector<double> &in, const Dims &d, int64_t O, int64_t oH, int64_t oW,
                                      const Geometry &g,
                                      const std::function<double(int64_t, int64_t, int, int, int64_t, int64_t)> &weight,
                                      const std::function<double(int64_t, int64_t, int64_t)> &bias) {
  std::vector<double> out(d.B * O * oH * oW);
  for (int64_t b = 0; b < d.B; b++)
    for (int64_t o = 0; o < O; o++)
      for (int64_t y = 0; y < oH; y++)
        for (int64_t x = 0; x < oW; x++) {
          double sum = bias(o, y, x);
          for (int64_t c = 0; c < d.C; c++)
            for (int kh = 0; kh < g.kH; kh++)
              for (int kw = 0; kw < g.kW; kw++) {
                const int64_t iy = y * g.dH - g.padH + kh * g.dilationH, ix = x * g.dW - g.padW + kw * g.dilationW;
                if (iy < 0 || iy >= d.H || ix < 0 || ix >= d.W) continue;
                sum += weight(o, c, kh, kw, y, x) * in[((b * d.C + c) * d.H + iy) * d.W + ix];
              }
          out[((b * O + o) * oH + y) * oW + x] = sum;
        }
  return out;
}

// Every input pixel spreads into the output: out[b][o][iy dH - padH + kh dilationH][ix dW - padW + kw dilationW]
// += in[b][c][iy][ix] * w[c][o][kh][kw], for the taps that land inside the output; then + bias[o].
std::vector<double> transposedConvolution(const std::vector<double> &in, const Dims &d, int64_t O, int64_t oH,
                                          int64_t oW, const Geometry &g, const std::vector<double> &w,
                                          const std::vector<double> &bias) {
  std::vector<double> out(d.B * O * oH * oW);
  for (int64_t b = 0; b < d.B; b++)
    for (int64_t o = 0; o < O; o++)
      for (int64_t i = 0; i < oH * oW; i++) out[(b * O + o) * oH * oW + i] = bias.empty() ? 0 : bias[o];
  for (int64_t b = 0; b < d.B; b++)
    for (int64_t c = 0; c < d.C; c++)
      for (int64_t iy = 0; iy < d.H; iy++)
        for (int64_t ix = 0; ix < d.W; ix++)
          for (int64_t o = 0; o < O; o++)
            for (int kh = 0; kh < g.kH; kh++)
              for (int kw = 0; kw < g.kW; kw++) {
                const int64_t y = iy * g.dH - g.padH + kh * g.dilationH, x = ix * g.dW - g.padW + kw * g.dilationW;
                if (y < 0 || y >= oH || x < 0 || x >= oW) continue;
                out[((b * O + o) * oH + y) * oW + x] +=
                    in[((b * d.C + c) * d.H + iy) * d.W + ix] * w[((c * O + o) * g.kH + kh) * g.kW + kw];
              }
  return out;
}

// The layer's output for these input, weight and bias values (bias empty: no bias).
std::vector<double> reference(const Case &c, const std::vector<double> &in, const std::vector<double> &w,
                              const std::vector<double> &b) {
  const Dims d = dimsOf(c.input);
  const auto out = outputSizesOf(c);
  const size_t od = out.size() - 3;
  const int64_t O = out[od], oH = out[od + 1], oW = out[od + 2];
  const Geometry &g = c.g;
  const int64_t taps = (int64_t)g.kH * g.kW;
  auto tap = [&](int kh, int kw) { return (int64_t)kh * g.kW + kw; };
  auto orZero = [&](int64_t i) { return b.empty() ? 0.0 : b[i]; };
  switch (c.kind) {
    case Kind::MM:
    case Kind::Dilated:
      return directConvolution(
          in, d, O, oH, oW, g,
          [&](int64_t o, int64_t ch, int kh, int kw, int64_t, int64_t) {
            return w[(o * d.C + ch) * taps + tap(kh, kw)];
          },
          [&](int64_t o, int64_t, int64_t) { return orZero(o); });
    case Kind::Full:
    case Kind::FullDilated: return transposedConvolution(in, d, O, oH, oW, g, w, b);
    case Kind::Local:
      return directConvolution(
          in, d, O, oH, oW, g,
          [&](int64_t o, int64_t ch, int kh, int kw, int64_t y, int64_t x) {
            return w[(((y * oW + x) * O + o) * d.C + ch) * taps + tap(kh, kw)];
          },
          [&](int64_t o, int64_t y, int64_t x) { return orZero((o * oH + y) * oW + x); });
    case Kind::Depthwise: {
      const int64_t m = O / d.C;  // output plane o = ch * m + filter
      return directConvolution(
          in, d, O, oH, oW, g,
          [&](int64_t o, int64_t ch, int kh, int kw, int64_t, int64_t) {
            return o / m == ch ? w[((o % m) * d.C + ch) * taps + tap(kh, kw)] : 0.0;
          },
          [&](int64_t o, int64_t, int64_t) { return orZero((o % m) * d.C + o / m); });
    }
    case Kind::SubSampling:
      return directConvolution(
          in, d, O, oH, oW, g, [&](int64_t o, int64_t ch, int, int, int64_t, int64_t) { return o == ch ? w[ch] : 0.0; },
          [&](int64_t o, int64_t, int64_t) { return orZero(o); });
  }
  return {};
}

// The kernels of one case bound to its options and buffers.
template <typename T>
struct Layer {
  using Tensor = TensorOf<T>;
  Owned<T> buffer1 = th::own(Api<T>::newEmpty()), buffer2 = th::own(Api<T>::newEmpty());
  std::function<void(Tensor *in, Tensor *out, Tensor *w, Tensor *b)> forward;
  std::function<void(Tensor *in, Tensor *gradOut, Tensor *gradIn, Tensor *w)> backward;
  std::function<void(Tensor *in, Tensor *gradOut, Tensor *gradW, Tensor *gradB, double scale)> accGrad;
};

template <typename T>
Layer<T> makeLayer(const Case &c) {
  using Tensor = TensorOf<T>;
  Layer<T> L;
  Tensor *f1 = L.buffer1.get(), *f2 = L.buffer2.get();
  const Geometry g = c.g;
  const Dims d = dimsOf(c.input);
  const auto out = outputSizesOf(c);
  const int64_t oH = out[out.size() - 2], oW = out.back();
  switch (c.kind) {
    case Kind::MM:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialConvolutionMM_updateOutput)
        (nullptr, in, o, w, b, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialConvolutionMM_updateGradInput)
        (nullptr, in, go, gi, w, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialConvolutionMM_accGradParameters)
        (nullptr, in, go, gw, gb, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, s);
      };
      break;
    case Kind::Dilated:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialDilatedConvolution_updateOutput)
        (nullptr, in, o, w, b, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.dilationW, g.dilationH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialDilatedConvolution_updateGradInput)
        (nullptr, in, go, gi, w, f1, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.dilationW, g.dilationH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialDilatedConvolution_accGradParameters)
        (nullptr, in, go, gw, gb, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.dilationW, g.dilationH, s);
      };
      break;
    case Kind::Full:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialFullConvolution_updateOutput)
        (nullptr, in, o, w, b, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.adjW, g.adjH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialFullConvolution_updateGradInput)
        (nullptr, in, go, gi, w, f1, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.adjW, g.adjH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialFullConvolution_accGradParameters)
        (nullptr, in, go, gw, gb, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.adjW, g.adjH, s);
      };
      break;
    case Kind::FullDilated:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialFullDilatedConvolution_updateOutput)
        (nullptr, in, o, w, b, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.dilationW, g.dilationH, g.adjW,
         g.adjH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialFullDilatedConvolution_updateGradInput)
        (nullptr, in, go, gi, w, f1, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.dilationW, g.dilationH, g.adjW, g.adjH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialFullDilatedConvolution_accGradParameters)
        (nullptr, in, go, gw, gb, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, g.dilationW, g.dilationH, g.adjW,
         g.adjH, s);
      };
      break;
    case Kind::Local:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialConvolutionLocal_updateOutput)
        (nullptr, in, o, w, b, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, d.W, d.H, oW, oH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialConvolutionLocal_updateGradInput)
        (nullptr, in, go, gi, w, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, d.W, d.H, oW, oH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialConvolutionLocal_accGradParameters)
        (nullptr, in, go, gw, gb, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, d.W, d.H, oW, oH, s);
      };
      break;
    case Kind::Depthwise:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialDepthwiseConvolution_updateOutput)
        (nullptr, in, o, w, b, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialDepthwiseConvolution_updateGradInput)
        (nullptr, in, go, gi, w, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialDepthwiseConvolution_accGradParameters)
        (nullptr, in, go, gw, gb, f1, f2, g.kW, g.kH, g.dW, g.dH, g.padW, g.padH, s);
      };
      break;
    case Kind::SubSampling:
      L.forward = [=](Tensor *in, Tensor *o, Tensor *w, Tensor *b) {
        THNN_KERNEL(T, SpatialSubSampling_updateOutput)(nullptr, in, o, w, b, g.kW, g.kH, g.dW, g.dH);
      };
      L.backward = [=](Tensor *in, Tensor *go, Tensor *gi, Tensor *w) {
        THNN_KERNEL(T, SpatialSubSampling_updateGradInput)(nullptr, in, go, gi, w, g.kW, g.kH, g.dW, g.dH);
      };
      L.accGrad = [=](Tensor *in, Tensor *go, Tensor *gw, Tensor *gb, double s) {
        THNN_KERNEL(T, SpatialSubSampling_accGradParameters)(nullptr, in, go, gw, gb, g.kW, g.kH, g.dW, g.dH, s);
      };
      break;
  }
  return L;
}

// A tensor of these sizes holding v in row-major order; with nonContiguous, a view whose
// last two dimensions are transposed in memory.
template <typename T>
Owned<T> makeTensor(const std::vector<int64_t> &size, const std::vector<double> &v, bool nonContiguous = false) {
  if (!nonContiguous || size.size() < 2) {
    Owned<T> t = th::own(thnnt::randomTensor<T>(size, 0));
    thnnt::setValues(t.get(), v);
    return t;
  }
  std::vector<int64_t> swapped = size;
  std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  Owned<T> base = th::own(thnnt::randomTensor<T>(swapped, 0));
  Owned<T> view = th::own(Api<T>::newTranspose(base.get(), (int)size.size() - 2, (int)size.size() - 1));
  BOOST_REQUIRE(!Api<T>::isContiguous(view.get()));
  thnnt::setValues(view.get(), v);
  return view;
}

template <typename TensorT>
std::vector<int64_t> sizesOf(TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

std::vector<double> scaled(const std::vector<double> &v, double s) {
  std::vector<double> r(v);
  for (double &x : r) x *= s;
  return r;
}

double dotValues(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); i++) s += a[i] * b[i];
  return s;
}

void checkCase(const Case &c, unsigned seed) {
  BOOST_TEST_CONTEXT(c.name) {
    const auto outSizes = outputSizesOf(c), biasSizes = biasSizesOf(c);
    const auto inV = thnnt::uniform(numelOf(c.input), seed), wV = thnnt::uniform(numelOf(c.weight), seed + 1);
    const auto bV = c.bias ? thnnt::uniform(numelOf(biasSizes), seed + 2) : std::vector<double>{};
    const auto expected = reference(c, inV, wV, bV);

    // forward, Double
    Layer<double> L = makeLayer<double>(c);
    auto in = makeTensor<double>(c.input, inV, c.nonContiguous), w = makeTensor<double>(c.weight, wV, c.nonContiguous);
    auto b = c.bias ? makeTensor<double>(biasSizes, bV) : Owned<double>();
    auto out = c.nonContiguous ? makeTensor<double>(outSizes, std::vector<double>(numelOf(outSizes)), true)
                               : th::own(THDoubleTensor_new());
    L.forward(in.get(), out.get(), w.get(), b.get());
    BOOST_TEST(sizesOf(out.get()) == outSizes);
    BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(out.get()), expected) < 1e-12);
    BOOST_TEST(thnnt::values(in.get()) == inV);
    if (c.nonContiguous) BOOST_TEST(!THDoubleTensor_isContiguous(out.get()));  // written through the caller's view

    // forward, Float
    Layer<float> F = makeLayer<float>(c);
    auto inF = makeTensor<float>(c.input, inV, c.nonContiguous), wF = makeTensor<float>(c.weight, wV);
    auto bF = c.bias ? makeTensor<float>(biasSizes, bV) : Owned<float>();
    auto outF = th::own(THFloatTensor_new());
    F.forward(inF.get(), outF.get(), wF.get(), bF.get());
    BOOST_TEST(sizesOf(outF.get()) == outSizes);
    BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(outF.get()), expected) < 1e-4);

    // gradients of loss = sum(gradOutput * output)
    const auto goV = thnnt::uniform(numelOf(outSizes), seed + 3);
    auto gradOut = makeTensor<double>(outSizes, goV, c.nonContiguous);
    std::vector<double> numIn, numW, numB;
    if (!c.large) {
      auto tmp = th::own(THDoubleTensor_new());
      auto loss = [&] {
        L.forward(in.get(), tmp.get(), w.get(), b.get());
        return thnnt::dot(gradOut.get(), tmp.get());
      };
      numIn = thnnt::numericalGrad(in.get(), loss);
      numW = thnnt::numericalGrad(w.get(), loss);
      if (c.bias) numB = thnnt::numericalGrad(b.get(), loss);
    }
    L.forward(in.get(), out.get(), w.get(), b.get());  // as in training: the backward calls follow a forward
    auto gradIn = th::own(THDoubleTensor_new());
    L.backward(in.get(), gradOut.get(), gradIn.get(), w.get());
    BOOST_TEST(sizesOf(gradIn.get()) == c.input);
    const std::vector<double> zeroW(wV.size()), zeroB(bV.size());
    auto gradW = makeTensor<double>(c.weight, zeroW, c.nonContiguous);
    auto gradB = c.bias ? makeTensor<double>(biasSizes, zeroB) : Owned<double>();
    L.accGrad(in.get(), gradOut.get(), gradW.get(), gradB.get(), 1.0);
    if (!c.large) {
      BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(gradIn.get()), numIn) < 1e-6);
      BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(gradW.get()), numW) < 1e-6);
      if (c.bias) BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(gradB.get()), numB) < 1e-6);
    } else {
      // <gradOutput, f(x) - bias> is bilinear in x and w: it equals <gradInput, x> and <gradWeight, w>
      const auto noBias = reference(c, inV, wV, {});
      const double target = dotValues(goV, noBias);
      const double tol = 1e-9 * (1 + std::fabs(target)) * std::sqrt((double)goV.size());
      BOOST_TEST(std::fabs(dotValues(thnnt::values(gradIn.get()), inV) - target) < tol);
      BOOST_TEST(std::fabs(dotValues(thnnt::values(gradW.get()), wV) - target) < tol);
      // and <gradBias, bias> = <gradOutput, f(x) with w = 0>
      if (c.bias) {
        const double biasTarget = dotValues(goV, reference(c, inV, std::vector<double>(wV.size()), bV));
        BOOST_TEST(std::fabs(dotValues(thnnt::values(gradB.get()), bV) - biasTarget) < tol);
      }
      numW = thnnt::values(gradW.get());
      numB = c.bias ? thnnt::values(gradB.get()) : std::vector<double>{};
    }
    // accGradParameters accumulates scale times the gradient
    L.forward(in.get(), out.get(), w.get(), b.get());
    L.accGrad(in.get(), gradOut.get(), gradW.get(), gradB.get(), 0.5);
    BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(gradW.get()), scaled(numW, 1.5)) < 1e-6);
    if (c.bias) BOOST_TEST(thnnt::maxAbsDiff(thnnt::values(gradB.get()), scaled(numB, 1.5)) < 1e-6);
    BOOST_TEST(thnnt::values(in.get()) == inV);
    BOOST_TEST(thnnt::values(gradOut.get()) == goV);
    if (c.nonContiguous && c.weight.size() >= 2) BOOST_TEST(!THDoubleTensor_isContiguous(gradW.get()));
  }
}

void checkCases(const std::vector<Case> &cases) {
  unsigned seed = 10;
  for (const Case &c : cases) checkCase(c, seed += 10);
}

// f must raise th::Error whose message holds every one of `parts`.
template <typename F>
void expectError(F &&f, std::initializer_list<std::string> parts) {
  try {
    f();
    BOOST_ERROR("no error raised");
  } catch (const th::Error &e) {
    const std::string msg = e.what();
    for (const std::string &p : parts)
      BOOST_CHECK_MESSAGE(msg.find(p) != std::string::npos, "'" << msg << "' lacks '" << p << "'");
  }
}

// Runs a call that must fail on the given tensors and checks that none of them changed.
template <typename F>
void expectErrorUnchanged(F &&f, std::initializer_list<THDoubleTensor *> tensors,
                          std::initializer_list<std::string> parts) {
  std::vector<std::vector<double>> before;
  std::vector<std::vector<int64_t>> sizes;
  for (auto *t : tensors) {
    before.push_back(t ? thnnt::values(t) : std::vector<double>{});
    sizes.push_back(t ? sizesOf(t) : std::vector<int64_t>{});
  }
  expectError(f, parts);
  size_t i = 0;
  for (auto *t : tensors) {
    if (t) {
      BOOST_TEST(sizesOf(t) == sizes[i]);
      BOOST_TEST(thnnt::values(t) == before[i]);
    }
    i++;
  }
}

Owned<double> randomT(const std::vector<int64_t> &size, unsigned seed) {
  return th::own(thnnt::randomTensor<double>(size, seed));
}

}  // namespace

BOOST_AUTO_TEST_CASE(convolution_mm) {
  checkCases({
      {"mm unbatched, 3x2 kernel", Kind::MM, {2, 3, 1, 1, 0, 0}, {3, 5, 7}, {4, 3, 3, 2}, true, false},
      {"mm batched, stride 2x1, padding 1x2", Kind::MM, {3, 3, 2, 1, 1, 2}, {2, 3, 7, 6}, {5, 3, 3, 3}, true, false},
      {"mm 2-D weight, no bias, non-contiguous", Kind::MM, {3, 2, 1, 2, 1, 0}, {2, 2, 5, 6}, {3, 12}, false, true},
      {"mm 1x1 kernel", Kind::MM, {1, 1, 1, 1, 0, 0}, {3, 4, 5}, {2, 3, 1, 1}, true, false},
      {"mm 1x1 kernel batched", Kind::MM, {1, 1, 1, 1, 0, 0}, {3, 4, 5, 6}, {2, 4, 1, 1}, true, false},
      {"mm 1x1 kernel large", Kind::MM, {1, 1, 1, 1, 0, 0}, {4, 24, 9, 10}, {16, 24, 1, 1}, true, false, true},
      {"mm large", Kind::MM, {3, 3, 1, 1, 1, 1}, {3, 16, 20, 19}, {8, 16, 3, 3}, true, false, true},
  });
}

BOOST_AUTO_TEST_CASE(convolution_dilated) {
  checkCases({
      {"dilated batched", Kind::Dilated, {2, 3, 1, 2, 1, 2, 3, 2}, {2, 3, 9, 8}, {4, 3, 3, 2}, true, false},
      {"dilated unbatched, no bias, non-contiguous",
       Kind::Dilated,
       {2, 2, 2, 2, 0, 1, 2, 2},
       {2, 7, 7},
       {3, 2, 2, 2},
       false,
       true},
      {"dilated large", Kind::Dilated, {3, 3, 1, 1, 2, 2, 2, 2}, {2, 12, 17, 18}, {6, 12, 3, 3}, true, false, true},
  });
}

BOOST_AUTO_TEST_CASE(convolution_full) {
  checkCases({
      {"full batched, stride 2, adj 1x0",
       Kind::Full,
       {3, 3, 2, 2, 1, 1, 1, 1, 1, 0},
       {2, 3, 4, 5},
       {3, 2, 3, 3},
       true,
       false},
      {"full unbatched, no bias, non-contiguous",
       Kind::Full,
       {3, 2, 1, 2, 0, 1, 1, 1, 0, 1},
       {2, 3, 4},
       {2, 3, 2, 3},
       false,
       true},
      {"full large", Kind::Full, {4, 4, 2, 2, 1, 1, 1, 1, 1, 1}, {2, 10, 15, 16}, {10, 12, 4, 4}, true, false, true},
  });
}

BOOST_AUTO_TEST_CASE(convolution_full_dilated) {
  checkCases({
      {"full dilated, adj below the dilation",
       Kind::FullDilated,
       {2, 3, 2, 1, 1, 1, 2, 2, 1, 1},
       {2, 2, 3, 4},
       {2, 3, 3, 2},
       true,
       false},
      {"full dilated unbatched, non-contiguous",
       Kind::FullDilated,
       {3, 3, 2, 2, 2, 0, 3, 1, 0, 1},
       {3, 3, 4},
       {3, 2, 3, 3},
       true,
       true},
  });
}

BOOST_AUTO_TEST_CASE(convolution_local) {
  checkCases({
      {"local batched, stride 2x1, padding 1x0",
       Kind::Local,
       {2, 3, 2, 1, 1, 0},
       {2, 2, 5, 6},
       {3, 4, 3, 2, 3, 2},
       true,
       false},
      {"local unbatched, 3-D weight, no bias, non-contiguous",
       Kind::Local,
       {2, 2, 1, 1, 0, 0},
       {3, 4, 4},
       {9, 2, 12},
       false,
       true},
      {"local large", Kind::Local, {3, 3, 1, 1, 1, 1}, {4, 6, 14, 13}, {14, 13, 5, 6, 3, 3}, true, false, true},
  });
}

BOOST_AUTO_TEST_CASE(convolution_depthwise) {
  checkCases({
      {"depthwise batched, 2 filters per plane",
       Kind::Depthwise,
       {2, 3, 1, 2, 1, 1},
       {2, 3, 6, 5},
       {2, 3, 3, 2},
       true,
       false},
      {"depthwise unbatched, 2-D weight, no bias, non-contiguous",
       Kind::Depthwise,
       {3, 3, 2, 2, 1, 1},
       {2, 5, 5},
       {3, 18},
       false,
       true},
      {"depthwise large", Kind::Depthwise, {3, 3, 1, 1, 1, 1}, {3, 16, 21, 20}, {2, 16, 3, 3}, true, false, true},
  });
}

BOOST_AUTO_TEST_CASE(subsampling) {
  checkCases({
      {"subsampling batched, 3x2 window, stride 2x1",
       Kind::SubSampling,
       {3, 2, 2, 1, 0, 0},
       {2, 3, 7, 6},
       {3},
       true,
       false},
      {"subsampling unbatched, no bias, non-contiguous",
       Kind::SubSampling,
       {2, 2, 2, 2, 0, 0},
       {2, 5, 5},
       {2},
       false,
       true},
      {"subsampling large", Kind::SubSampling, {2, 2, 2, 2, 0, 0}, {4, 16, 30, 31}, {16}, true, false, true},
  });
}

BOOST_AUTO_TEST_CASE(bad_arguments_mm) {
  auto in = randomT({2, 3, 7, 6}, 1), w = randomT({5, 4, 3, 3}, 2), w3 = randomT({5, 3, 3, 3}, 3), b = randomT({5}, 4);
  auto out = randomT({2, 2}, 5), finput = th::own(THDoubleTensor_new()), fgrad = th::own(THDoubleTensor_new());
  // updateOutput of `input` with this weight, bias, finput, kernel kW x 3, stride dW x 1, padding padW x 0
  auto forward = [&](THDoubleTensor *input, THDoubleTensor *weight, THDoubleTensor *bias, THDoubleTensor *columns,
                     int kW, int dW, int padW) {
    return [=, &out, &fgrad] {
      THNN_DoubleSpatialConvolutionMM_updateOutput(nullptr, input, out.get(), weight, bias, columns, fgrad.get(), kW, 3,
                                                   dW, 1, padW, 0);
    };
  };
  // input plane count differs from the weight's
  expectErrorUnchanged(forward(in.get(), w.get(), b.get(), finput.get(), 3, 1, 0),
                       {in.get(), out.get(), w.get(), b.get(), finput.get()},
                       {"3 planes", "expects 4", "[2, 3, 7, 6]", "[5, 4, 3, 3]"});
  // output smaller than 1x1
  auto small = randomT({3, 2, 2}, 6);
  expectErrorUnchanged(forward(small.get(), w3.get(), b.get(), finput.get(), 3, 1, 0),
                       {small.get(), out.get(), finput.get()}, {"[3, 2, 2]", "too small", "0x0"});
  // kernel size disagreeing with the weight, bad stride, bad padding, 2-D input, wrong bias, bad 2-D weight
  expectErrorUnchanged(forward(in.get(), w3.get(), b.get(), finput.get(), 2, 1, 0), {out.get()},
                       {"kW=2", "[5, 3, 3, 3]"});
  expectErrorUnchanged(forward(in.get(), w3.get(), b.get(), finput.get(), 3, 0, 0), {out.get()}, {"stride", "dW=0"});
  expectErrorUnchanged(forward(in.get(), w3.get(), b.get(), finput.get(), 3, 1, -1), {out.get()},
                       {"padding", "padW=-1"});
  auto flat = randomT({3, 7}, 7), b4 = randomT({4}, 8), w2 = randomT({5, 10}, 9);  // 10: not a multiple of 3*3
  expectErrorUnchanged(forward(flat.get(), w3.get(), b.get(), finput.get(), 3, 1, 0), {out.get()}, {"3-D", "[3, 7]"});
  expectErrorUnchanged(forward(in.get(), w3.get(), b4.get(), finput.get(), 3, 1, 0), {out.get()},
                       {"bias", "[5]", "[4]"});
  expectErrorUnchanged(forward(in.get(), w2.get(), b.get(), finput.get(), 3, 1, 0), {out.get()}, {"weight", "[5, 10]"});
  expectErrorUnchanged(forward(in.get(), w3.get(), b.get(), nullptr, 3, 1, 0), {out.get()}, {"finput", "NULL"});
  // backward with a gradOutput of the wrong shape, and accGradParameters before any updateOutput
  auto gradOut = randomT({2, 5, 5, 3}, 10), goodGradOut = randomT({2, 5, 5, 4}, 11), gradIn = randomT({1}, 12);
  auto gw = randomT({5, 3, 3, 3}, 13), gb = randomT({5}, 14);
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialConvolutionMM_updateGradInput(nullptr, in.get(), gradOut.get(), gradIn.get(), w3.get(),
                                                        finput.get(), fgrad.get(), 3, 3, 1, 1, 0, 0);
      },
      {gradIn.get(), fgrad.get()}, {"gradOutput", "[2, 5, 5, 4]", "[2, 5, 5, 3]"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialConvolutionMM_accGradParameters(nullptr, in.get(), goodGradOut.get(), gw.get(), gb.get(),
                                                          finput.get(), fgrad.get(), 3, 3, 1, 1, 0, 0, 1.0);
      },
      {gw.get(), gb.get()}, {"finput", "updateOutput", "[2, 27, 20]"});
}

BOOST_AUTO_TEST_CASE(bad_arguments_other_kernels) {
  auto in = randomT({2, 3, 7, 6}, 1), out = randomT({2, 2}, 2);
  auto columns = th::own(THDoubleTensor_new()), ones = th::own(THDoubleTensor_new());
  // dilated: dilation 0; planes mismatch; 2-D weight not accepted
  auto w = randomT({4, 3, 3, 3}, 3), wBad = randomT({4, 2, 3, 3}, 4);
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialDilatedConvolution_updateOutput(nullptr, in.get(), out.get(), w.get(), nullptr, columns.get(),
                                                          ones.get(), 3, 3, 1, 1, 0, 0, 0, 1);
      },
      {out.get()}, {"dilation", "dilationW=0"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialDilatedConvolution_updateOutput(nullptr, in.get(), out.get(), wBad.get(), nullptr,
                                                          columns.get(), ones.get(), 3, 3, 1, 1, 0, 0, 2, 2);
      },
      {out.get()}, {"3 planes", "expects 2", "[4, 2, 3, 3]"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialDilatedConvolution_updateOutput(nullptr, in.get(), out.get(), w.get(), nullptr, columns.get(),
                                                          ones.get(), 3, 3, 1, 1, 0, 0, 3, 3);
      },
      {out.get()}, {"too small", "[2, 3, 7, 6]"});
  // transposed: adj not below stride or dilation; weight [nInputPlane, nOutputPlane, kH, kW] mismatch
  auto wt = randomT({3, 2, 3, 3}, 5), wtBad = randomT({2, 3, 3, 3}, 6);
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialFullConvolution_updateOutput(nullptr, in.get(), out.get(), wt.get(), nullptr, columns.get(),
                                                       ones.get(), 3, 3, 2, 2, 0, 0, 2, 0);
      },
      {out.get()}, {"adjW=2", "dW=2"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialFullDilatedConvolution_updateOutput(nullptr, in.get(), out.get(), wtBad.get(), nullptr,
                                                              columns.get(), ones.get(), 3, 3, 1, 1, 0, 0, 1, 1, 0, 0);
      },
      {out.get()}, {"3 planes", "expects 2", "[2, 3, 3, 3]"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialFullConvolution_updateOutput(nullptr, in.get(), out.get(), wt.get(), nullptr, columns.get(),
                                                       ones.get(), 3, 3, 1, 1, 5, 5, 0, 0);
      },
      {out.get()}, {"too small", "[2, 3, 7, 6]"});
  // local: input and output sizes that disagree with the arguments, weight of the wrong shape
  auto wl = randomT({5, 4, 2, 3, 3, 3}, 7), finput = th::own(THDoubleTensor_new()),
       fgrad = th::own(THDoubleTensor_new());
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialConvolutionLocal_updateOutput(nullptr, in.get(), out.get(), wl.get(), nullptr, finput.get(),
                                                        fgrad.get(), 3, 3, 1, 1, 0, 0, 7, 6, 4, 5);
      },
      {out.get(), finput.get()}, {"inputWidth=7", "[2, 3, 7, 6]"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialConvolutionLocal_updateOutput(nullptr, in.get(), out.get(), wl.get(), nullptr, finput.get(),
                                                        fgrad.get(), 3, 3, 1, 1, 0, 0, 6, 7, 5, 5);
      },
      {out.get(), finput.get()}, {"outputWidth=5", "5x4"});
  auto wlBad = randomT({5, 5, 2, 3, 3, 3}, 8);
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialConvolutionLocal_updateOutput(nullptr, in.get(), out.get(), wlBad.get(), nullptr,
                                                        finput.get(), fgrad.get(), 3, 3, 1, 1, 0, 0, 6, 7, 4, 5);
      },
      {out.get(), finput.get()}, {"weight", "[5, 5, 2, 3, 3, 3]"});
  // depthwise: planes mismatch, bias of the wrong shape
  auto wd = randomT({2, 4, 3, 3}, 9), wdOk = randomT({2, 3, 3, 3}, 10), bd = randomT({3, 2}, 11);
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialDepthwiseConvolution_updateOutput(nullptr, in.get(), out.get(), wd.get(), nullptr,
                                                            finput.get(), fgrad.get(), 3, 3, 1, 1, 0, 0);
      },
      {out.get(), finput.get()}, {"3 planes", "expects 4"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialDepthwiseConvolution_updateOutput(nullptr, in.get(), out.get(), wdOk.get(), bd.get(),
                                                            finput.get(), fgrad.get(), 3, 3, 1, 1, 0, 0);
      },
      {out.get(), finput.get()}, {"bias", "[2, 3]", "[3, 2]"});
  // subsampling: weight size, window larger than the input, gradOutput shape
  auto ws = randomT({4}, 12), wsOk = randomT({3}, 13), bs = randomT({3}, 14);
  expectErrorUnchanged(
      [&] { THNN_DoubleSpatialSubSampling_updateOutput(nullptr, in.get(), out.get(), ws.get(), bs.get(), 2, 2, 2, 2); },
      {out.get()}, {"3 planes", "expects 4"});
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialSubSampling_updateOutput(nullptr, in.get(), out.get(), wsOk.get(), bs.get(), 2, 8, 1, 1);
      },
      {out.get()}, {"too small", "[2, 3, 7, 6]"});
  auto gradOut = randomT({2, 3, 3, 4}, 15), gradIn = randomT({3}, 16);
  expectErrorUnchanged(
      [&] {
        THNN_DoubleSpatialSubSampling_updateGradInput(nullptr, in.get(), gradOut.get(), gradIn.get(), wsOk.get(), 2, 2,
                                                      2, 2);
      },
      {gradIn.get()}, {"gradOutput", "[2, 3, 3, 3]", "[2, 3, 3, 4]"});
}
