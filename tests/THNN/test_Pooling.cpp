// Average pooling (SpatialAveragePooling, VolumetricAveragePooling,
// SpatialAdaptiveAveragePooling): forward against plain-loop references written from
// torch7's definitions, backward against central differences, bad arguments.
#define BOOST_TEST_MODULE THNN average pooling
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <vector>

#include "thnn_test_util.hpp"

namespace {

using thnnt::values;
using Sizes = std::vector<int64_t>;

template <typename TensorT>
Sizes sizes(TensorT *t) {
  return Sizes(t->size, t->size + t->nDimension);
}

template <typename T>
using Ops = th::TH<T>;

// An average pooling in T, H, W order (T = 1, k = d = 1, pad = 0 for spatial ones).
struct Pool {
  int spatialDims;
  int k[3], d[3], pad[3];
  bool ceilMode, countPad;
};

Pool spatial(int kW, int kH, int dW, int dH, int padW, int padH, bool ceilMode, bool countPad) {
  return Pool{2, {1, kH, kW}, {1, dH, dW}, {0, padH, padW}, ceilMode, countPad};
}

Pool volumetric(int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH, bool ceilMode,
                bool countPad) {
  return Pool{3, {kT, kH, kW}, {dT, dH, dW}, {padT, padH, padW}, ceilMode, countPad};
}

// torch7's output size, in its floating-point form.
int64_t pooledSize(int64_t in, int k, int d, int pad, bool ceilMode) {
  const double q = double(in - k + 2 * pad) / d;
  int64_t out = (int64_t)(ceilMode ? std::ceil(q) : std::floor(q)) + 1;
  if ((out - 1) * d >= in + pad) out--;
  return out;
}

// The leading sizes of an input with spatialDims trailing dimensions, and its T, H, W.
struct Frame {
  Sizes lead;
  int64_t planes, in[3];
};

Frame frameOf(const Sizes &s, int spatialDims) {
  Frame f{Sizes(s.begin(), s.end() - spatialDims), 1, {1, 1, 1}};
  for (int64_t x : f.lead) f.planes *= x;
  for (int i = 0; i < spatialDims; i++) f.in[3 - spatialDims + i] = s[s.size() - spatialDims + i];
  return f;
}

// Reference average pooling: window [o * d - pad, o * d - pad + k) clipped to the padded
// input gives the count_include_pad divisor, clipped to the input the summed elements.
std::vector<double> referenceAverage(const std::vector<double> &x, const Sizes &inSizes, const Pool &p,
                                     Sizes &outSizes) {
  const Frame f = frameOf(inSizes, p.spatialDims);
  int64_t out[3];
  for (int a = 0; a < 3; a++) out[a] = pooledSize(f.in[a], p.k[a], p.d[a], p.pad[a], p.ceilMode);
  outSizes = f.lead;
  for (int a = 3 - p.spatialDims; a < 3; a++) outSizes.push_back(out[a]);
  std::vector<double> y;
  for (int64_t n = 0; n < f.planes; n++)
    for (int64_t ot = 0; ot < out[0]; ot++)
      for (int64_t oh = 0; oh < out[1]; oh++)
        for (int64_t ow = 0; ow < out[2]; ow++) {
          const int64_t o[3] = {ot, oh, ow};
          int64_t lo[3], hi[3], padded = 1, inside = 1;
          for (int a = 0; a < 3; a++) {
            lo[a] = o[a] * p.d[a] - p.pad[a];
            hi[a] = std::min<int64_t>(lo[a] + p.k[a], f.in[a] + p.pad[a]);
            padded *= hi[a] - lo[a];
            lo[a] = std::max<int64_t>(lo[a], 0);
            hi[a] = std::min<int64_t>(hi[a], f.in[a]);
            inside *= hi[a] - lo[a];
          }
          double sum = 0;
          for (int64_t t = lo[0]; t < hi[0]; t++)
            for (int64_t h = lo[1]; h < hi[1]; h++)
              for (int64_t w = lo[2]; w < hi[2]; w++) sum += x[((n * f.in[0] + t) * f.in[1] + h) * f.in[2] + w];
          y.push_back(sum / (p.countPad ? padded : inside));
        }
  return y;
}

// Reference adaptive average: output o of out covers [floor(o * in / out), ceil((o + 1) * in / out)).
std::vector<double> referenceAdaptive(const std::vector<double> &x, const Sizes &inSizes, int64_t oH, int64_t oW,
                                      Sizes &outSizes) {
  const Frame f = frameOf(inSizes, 2);
  const int64_t H = f.in[1], W = f.in[2];
  outSizes = f.lead;
  outSizes.push_back(oH);
  outSizes.push_back(oW);
  auto lo = [](int64_t o, int64_t in, int64_t out) { return (int64_t)std::floor(double(o) * in / out); };
  auto hi = [](int64_t o, int64_t in, int64_t out) { return (int64_t)std::ceil(double(o + 1) * in / out); };
  std::vector<double> y;
  for (int64_t n = 0; n < f.planes; n++)
    for (int64_t i = 0; i < oH; i++)
      for (int64_t j = 0; j < oW; j++) {
        double sum = 0;
        for (int64_t h = lo(i, H, oH); h < hi(i, H, oH); h++)
          for (int64_t w = lo(j, W, oW); w < hi(j, W, oW); w++) sum += x[(n * H + h) * W + w];
        y.push_back(sum / ((hi(i, H, oH) - lo(i, H, oH)) * (hi(j, W, oW) - lo(j, W, oW))));
      }
  return y;
}

template <typename T>
void runForward(typename Ops<T>::Tensor *input, typename Ops<T>::Tensor *output, const Pool &p) {
  if (p.spatialDims == 2) THNN_KERNEL(T, SpatialAveragePooling_updateOutput)
  (nullptr, input, output, p.k[2], p.k[1], p.d[2], p.d[1], p.pad[2], p.pad[1], p.ceilMode, p.countPad);
  else THNN_KERNEL(T, VolumetricAveragePooling_updateOutput)(nullptr, input, output, p.k[0], p.k[2], p.k[1], p.d[0],
                                                             p.d[2], p.d[1], p.pad[0], p.pad[2], p.pad[1], p.ceilMode,
                                                             p.countPad);
}

void runBackward(THDoubleTensor *input, THDoubleTensor *gradOutput, THDoubleTensor *gradInput, const Pool &p) {
  if (p.spatialDims == 2)
    THNN_DoubleSpatialAveragePooling_updateGradInput(nullptr, input, gradOutput, gradInput, p.k[2], p.k[1], p.d[2],
                                                     p.d[1], p.pad[2], p.pad[1], p.ceilMode, p.countPad);
  else
    THNN_DoubleVolumetricAveragePooling_updateGradInput(nullptr, input, gradOutput, gradInput, p.k[0], p.k[2], p.k[1],
                                                        p.d[0], p.d[2], p.d[1], p.pad[0], p.pad[2], p.pad[1],
                                                        p.ceilMode, p.countPad);
}

// backward(x, gradOutput, gradInput) against central differences of
// sum(gradOutput * forward(x)), gradOutput random.
template <typename Fwd, typename Bwd>
void checkGradInput(THDoubleTensor *x, Fwd forward, Bwd backward, unsigned seed) {
  THDoubleTensor *out = THDoubleTensor_new();
  forward(x, out);
  THDoubleTensor *gradOutput = thnnt::randomTensor<double>(sizes(out), seed);
  THDoubleTensor *gradInput = THDoubleTensor_new();
  backward(x, gradOutput, gradInput);
  const auto numeric = thnnt::numericalGrad(x, [&] {
    forward(x, out);
    return thnnt::dot(gradOutput, out);
  });
  BOOST_CHECK(sizes(gradInput) == sizes(x));
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gradInput), numeric), 1e-7);
  THDoubleTensor_free(gradInput);
  THDoubleTensor_free(gradOutput);
  THDoubleTensor_free(out);
}

// Forward against the reference (with the expected sizes when given) in T, and gradInput
// against central differences in double.
template <typename T>
void checkAverage(const Sizes &inSizes, const Pool &p, const Sizes &expectedOut, unsigned seed) {
  auto *x = thnnt::randomTensor<T>(inSizes, seed);
  auto *y = Ops<T>::newEmpty();
  runForward<T>(x, y, p);
  Sizes refSizes;
  const auto ref = referenceAverage(values(x), inSizes, p, refSizes);
  BOOST_CHECK(refSizes == expectedOut);
  BOOST_CHECK(sizes(y) == refSizes);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(y), ref), (std::is_same_v<T, float> ? 1e-5 : 1e-12));
  Ops<T>::free(y);
  Ops<T>::free(x);
  if constexpr (std::is_same_v<T, double>) {
    THDoubleTensor *xd = thnnt::randomTensor<double>(inSizes, seed + 1);
    checkGradInput(
        xd, [&](THDoubleTensor *in, THDoubleTensor *out) { runForward<double>(in, out, p); },
        [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) { runBackward(in, go, gi, p); }, seed + 2);
    THDoubleTensor_free(xd);
  }
}

// f must raise th::Error and leave out's sizes and values as they were.
template <typename F>
void checkRaisesUnchanged(THDoubleTensor *out, F f) {
  const auto before = values(out);
  const Sizes sizesBefore = sizes(out);
  BOOST_CHECK_THROW(f(), th::Error);
  BOOST_CHECK(sizes(out) == sizesBefore);
  BOOST_CHECK(values(out) == before);
}

}  // namespace

BOOST_AUTO_TEST_CASE(spatial_average_forward_and_gradient) {
  for (bool countPad : {true, false}) {
    // unbatched, padding, odd sizes and unequal strides
    checkAverage<double>({3, 5, 7}, spatial(3, 2, 2, 1, 1, 1, false, countPad), {3, 6, 4}, 1);
    // batched, ceil mode: the last row window hangs over the bottom edge
    checkAverage<double>({2, 2, 6, 5}, spatial(2, 3, 2, 2, 1, 0, true, countPad), {2, 2, 3, 3}, 2);
    // ceil mode with padding: a window starting in the right padding is dropped (3 -> 2)
    checkAverage<double>({1, 3, 3}, spatial(2, 2, 2, 2, 1, 1, true, countPad), {1, 2, 2}, 3);
    checkAverage<double>({1, 3, 3}, spatial(2, 2, 2, 2, 1, 1, false, countPad), {1, 2, 2}, 4);
  }
  // window larger than the stride, input smaller than one window plus padding
  checkAverage<double>({2, 4, 4}, spatial(3, 3, 3, 3, 1, 1, true, true), {2, 2, 2}, 5);
  checkAverage<float>({2, 2, 6, 5}, spatial(2, 3, 2, 2, 1, 1, true, false), {2, 2, 4, 3}, 6);
}

BOOST_AUTO_TEST_CASE(count_include_pad_divisors) {
  // A 2x2 input of ones, 3x3 windows with padding 1 and stride 2: one output per corner.
  THDoubleTensor *x = THDoubleTensor_newWithSize3d(1, 2, 2);
  THDoubleTensor_fill(x, 1);
  THDoubleTensor *y = THDoubleTensor_new();
  THNN_DoubleSpatialAveragePooling_updateOutput(nullptr, x, y, 3, 3, 2, 2, 1, 1, false, true);
  BOOST_CHECK(sizes(y) == Sizes({1, 1, 1}));
  BOOST_CHECK_CLOSE(values(y)[0], 4.0 / 9.0, 1e-12);
  THNN_DoubleSpatialAveragePooling_updateOutput(nullptr, x, y, 3, 3, 2, 2, 1, 1, false, false);
  BOOST_CHECK_CLOSE(values(y)[0], 1.0, 1e-12);
  THDoubleTensor_free(y);
  THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(volumetric_average_forward_and_gradient) {
  for (bool countPad : {true, false}) {
    checkAverage<double>({2, 4, 5, 6}, volumetric(2, 3, 2, 1, 2, 2, 1, 1, 1, true, countPad), {2, 5, 3, 4}, 11);
    checkAverage<double>({2, 1, 3, 4, 5}, volumetric(2, 2, 3, 2, 1, 2, 0, 1, 0, false, countPad), {2, 1, 1, 1, 6}, 12);
  }
  checkAverage<float>({2, 4, 5, 6}, volumetric(2, 3, 2, 1, 2, 2, 1, 1, 1, true, false), {2, 5, 3, 4}, 13);
}

BOOST_AUTO_TEST_CASE(average_noncontiguous_input_and_output) {
  // input: a transposed view; output: a transposed view of the right size (written in place)
  THDoubleTensor *base = thnnt::randomTensor<double>({2, 7, 5}, 21);
  THDoubleTensor *x = THDoubleTensor_newTranspose(base, 1, 2);  // [2, 5, 7]
  THDoubleTensor *outBase = THDoubleTensor_newWithSize3d(2, 4, 3);
  THDoubleTensor *y = THDoubleTensor_newTranspose(outBase, 1, 2);  // [2, 3, 4]
  const Pool p = spatial(3, 2, 2, 2, 1, 1, true, false);
  runForward<double>(x, y, p);
  Sizes refSizes;
  const auto ref = referenceAverage(values(x), sizes(x), p, refSizes);
  BOOST_REQUIRE(refSizes == Sizes({2, 3, 4}));
  BOOST_CHECK(sizes(y) == refSizes);
  BOOST_CHECK(y->stride[1] == 1);  // still the caller's view
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(y), ref), 1e-12);
  checkGradInput(
      x, [&](THDoubleTensor *in, THDoubleTensor *out) { runForward<double>(in, out, p); },
      [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) { runBackward(in, go, gi, p); }, 22);
  THDoubleTensor_free(y);
  THDoubleTensor_free(outBase);
  THDoubleTensor_free(x);
  THDoubleTensor_free(base);
}

BOOST_AUTO_TEST_CASE(average_large_inputs_take_the_threaded_path) {
  // Average pooling is linear: its backward is its adjoint, sum(g * f(x)) = sum(b(g) * x).
  struct Case {
    Sizes in;
    Pool p;
  };
  for (const Case &c : {Case{{4, 8, 40, 41}, spatial(3, 3, 2, 2, 1, 1, true, false)},
                        Case{{2, 4, 10, 20, 21}, volumetric(3, 2, 3, 2, 2, 1, 1, 1, 1, false, true)}}) {
    THDoubleTensor *x = thnnt::randomTensor<double>(c.in, 51);
    THDoubleTensor *y = THDoubleTensor_new();
    runForward<double>(x, y, c.p);
    Sizes refSizes;
    const auto ref = referenceAverage(values(x), c.in, c.p, refSizes);
    BOOST_CHECK(sizes(y) == refSizes);
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(y), ref), 1e-12);
    THDoubleTensor *g = thnnt::randomTensor<double>(refSizes, 52);
    THDoubleTensor *gradInput = THDoubleTensor_new();
    runBackward(x, g, gradInput, c.p);
    BOOST_CHECK_CLOSE(thnnt::dot(g, y), thnnt::dot(gradInput, x), 1e-9);
    THDoubleTensor_free(gradInput);
    THDoubleTensor_free(g);
    THDoubleTensor_free(y);
    THDoubleTensor_free(x);
  }
}

BOOST_AUTO_TEST_CASE(adaptive_average_forward_and_gradient) {
  struct Case {
    Sizes in;
    int oH, oW;
  };
  // shrinking with uneven windows, growing (overlapping windows), batched, same size
  for (const Case &c :
       {Case{{3, 5, 7}, 3, 4}, Case{{2, 3, 2}, 4, 5}, Case{{2, 2, 6, 5}, 4, 2}, Case{{1, 3, 3}, 3, 3}}) {
    THDoubleTensor *x = thnnt::randomTensor<double>(c.in, 31);
    THDoubleTensor *y = THDoubleTensor_new();
    THNN_DoubleSpatialAdaptiveAveragePooling_updateOutput(nullptr, x, y, c.oW, c.oH);
    Sizes refSizes;
    const auto ref = referenceAdaptive(values(x), c.in, c.oH, c.oW, refSizes);
    BOOST_CHECK(sizes(y) == refSizes);
    BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(y), ref), 1e-12);
    checkGradInput(
        x,
        [&](THDoubleTensor *in, THDoubleTensor *out) {
          THNN_DoubleSpatialAdaptiveAveragePooling_updateOutput(nullptr, in, out, c.oW, c.oH);
        },
        [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleSpatialAdaptiveAveragePooling_updateGradInput(nullptr, in, go, gi);
        },
        32);
    THDoubleTensor_free(y);
    THDoubleTensor_free(x);
  }
  THFloatTensor *xf = thnnt::randomTensor<float>({2, 3, 7, 5}, 33);
  THFloatTensor *yf = THFloatTensor_new();
  THNN_FloatSpatialAdaptiveAveragePooling_updateOutput(nullptr, xf, yf, 3, 2);
  Sizes refSizes;
  const auto ref = referenceAdaptive(values(xf), sizes(xf), 2, 3, refSizes);
  BOOST_CHECK(sizes(yf) == refSizes);
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(yf), ref), 1e-5);
  THFloatTensor_free(yf);
  THFloatTensor_free(xf);
}

BOOST_AUTO_TEST_CASE(average_bad_arguments_raise_and_leave_outputs_unchanged) {
  THDoubleTensor *x = thnnt::randomTensor<double>({2, 5, 6}, 41);
  THDoubleTensor *x5 = thnnt::randomTensor<double>({1, 2, 3, 4, 5}, 42);
  THDoubleTensor *out = thnnt::randomTensor<double>({2, 3}, 43);
  auto spatialOut = [&](THDoubleTensor *in, int kW, int kH, int dW, int dH, int padW, int padH) {
    return [=] {
      THNN_DoubleSpatialAveragePooling_updateOutput(nullptr, in, out, kW, kH, dW, dH, padW, padH, false, true);
    };
  };
  checkRaisesUnchanged(out, spatialOut(x5, 2, 2, 1, 1, 0, 0));  // 5D input
  checkRaisesUnchanged(out, spatialOut(x, 0, 2, 1, 1, 0, 0));   // empty kernel
  checkRaisesUnchanged(out, spatialOut(x, 2, 2, 0, 1, 0, 0));   // zero stride
  checkRaisesUnchanged(out, spatialOut(x, 3, 3, 1, 1, 2, 0));   // padding over half the kernel
  checkRaisesUnchanged(out, spatialOut(x, 2, 2, 1, 1, -1, 0));  // negative padding
  checkRaisesUnchanged(out, spatialOut(x, 7, 2, 1, 1, 0, 0));   // kernel wider than the input
  checkRaisesUnchanged(out, [&] {
    THNN_DoubleVolumetricAveragePooling_updateOutput(nullptr, x, out, 2, 2, 2, 1, 1, 1, 0, 0, 0, false, true);
  });  // 3D input for a volumetric kernel
  checkRaisesUnchanged(out, [&] {
    THNN_DoubleVolumetricAveragePooling_updateOutput(nullptr, x5, out, 4, 2, 2, 1, 1, 1, 0, 0, 0, false, true);
  });  // kT = 4 over T = 3
  THDoubleTensor *emptyIn = THDoubleTensor_newWithSize3d(2, 0, 4);
  checkRaisesUnchanged(out, spatialOut(emptyIn, 1, 1, 1, 1, 0, 0));
  checkRaisesUnchanged(out, [&] { THNN_DoubleSpatialAdaptiveAveragePooling_updateOutput(nullptr, x, out, 0, 2); });

  // backward: gradOutput of the wrong shape
  THDoubleTensor *gradIn = thnnt::randomTensor<double>({3, 2}, 44);
  THDoubleTensor *gradOut = thnnt::randomTensor<double>({2, 4, 4}, 45);  // the forward gives [2, 4, 5]
  checkRaisesUnchanged(gradIn, [&] {
    THNN_DoubleSpatialAveragePooling_updateGradInput(nullptr, x, gradOut, gradIn, 2, 2, 1, 1, 0, 0, false, true);
  });
  THDoubleTensor *gradOut2 = thnnt::randomTensor<double>({2, 5, 4, 4}, 46);
  checkRaisesUnchanged(gradIn,
                       [&] { THNN_DoubleSpatialAdaptiveAveragePooling_updateGradInput(nullptr, x, gradOut2, gradIn); });
  THDoubleTensor_free(gradOut2);
  THDoubleTensor_free(gradOut);
  THDoubleTensor_free(gradIn);
  THDoubleTensor_free(emptyIn);
  THDoubleTensor_free(out);
  THDoubleTensor_free(x5);
  THDoubleTensor_free(x);
}
