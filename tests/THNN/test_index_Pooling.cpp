// Max pooling with indices (Temporal, Spatial(Dilated), Volumetric(Dilated), Adaptive,
// Fractional) and max unpooling: values and indices against plain-loop references (the
// sliding fast path also on ties, NaNs and non-contiguous layouts, float and double),
// gradInput against central differences on inputs without ties, bad arguments and bad
// indices. Built for TH_INDEX_BASE 0 and 1: indices are compared after subtracting
// TH_INDEX_BASE and built by adding it.
#define BOOST_TEST_MODULE THNN max pooling and unpooling
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "thnn_test_util.hpp"

namespace {

using thnnt::values;
using Sizes = std::vector<int64_t>;

template <typename TensorT>
Sizes sizes(TensorT *t) {
  return Sizes(t->size, t->size + t->nDimension);
}

std::vector<double> minusBase(const std::vector<double> &ind) {
  std::vector<double> v(ind);
  for (double &x : v) x -= TH_INDEX_BASE;
  return v;
}

// A tensor holding a shuffle of n distinct values spaced 2 / n apart in (-1, 1): no ties, so
// central differences never cross from one maximum to another.
THDoubleTensor *distinctTensor(const Sizes &s, unsigned seed) {
  THDoubleTensor *t = THDoubleTensor_newWithSize((int)s.size(), s.data(), nullptr);
  const int64_t n = THDoubleTensor_nElement(t);
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; i++) v[i] = -1 + (2 * i + 1) / double(n);
  std::shuffle(v.begin(), v.end(), std::mt19937(seed));
  thnnt::setValues(t, v);
  return t;
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

// f must raise th::Error (of kind Index when index is set) and leave out's sizes and values.
template <typename TensorT, typename F>
void checkRaisesUnchanged(TensorT *out, F f, bool index = false) {
  const auto before = values(out);
  const Sizes sizesBefore = sizes(out);
  try {
    f();
    BOOST_ERROR("no error raised");
  } catch (const th::Error &e) {
    BOOST_CHECK(!index || e.kind() == th::ErrorKind::Index);
  }
  BOOST_CHECK(sizes(out) == sizesBefore);
  BOOST_CHECK(values(out) == before);
}

/* References */

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

// A max pooling in T, H, W order (T = 1, k = d = dil = 1, pad = 0 for spatial ones).
struct Pool {
  int spatialDims;
  int k[3], d[3], pad[3], dil[3];
  bool ceilMode;
};

Pool spatial(int kW, int kH, int dW, int dH, int padW, int padH, int dilW, int dilH, bool ceilMode) {
  return Pool{2, {1, kH, kW}, {1, dH, dW}, {0, padH, padW}, {1, dilH, dilW}, ceilMode};
}

Pool volumetric(int kT, int kW, int kH, int dT, int dW, int dH, int pT, int pW, int pH, int dilT, int dilW, int dilH,
                bool ceilMode) {
  return Pool{3, {kT, kH, kW}, {dT, dH, dW}, {pT, pH, pW}, {dilT, dilH, dilW}, ceilMode};
}

// torch7's output size, in its floating-point form.
int64_t pooledSize(int64_t in, int k, int d, int pad, int dil, bool ceilMode) {
  const double q = double(in - (dil * (k - 1) + 1) + 2 * pad) / d;
  int64_t out = (int64_t)(ceilMode ? std::ceil(q) : std::floor(q)) + 1;
  if ((out - 1) * d >= in + pad) out--;
  return out;
}

// Max and its flat offset in the plane over the input positions of a window given per
// axis as lists of positions (out-of-range ones already dropped). First maximum wins.
void windowMax(const double *plane, const int64_t in[3], const std::vector<int64_t> (&pos)[3], double &value,
               int64_t &index) {
  index = -1;
  for (int64_t t : pos[0])
    for (int64_t h : pos[1])
      for (int64_t w : pos[2]) {
        const int64_t i = (t * in[1] + h) * in[2] + w;
        if (index < 0 || plane[i] > value) {
          value = plane[i];
          index = i;
        }
      }
}

struct Pooled {
  Sizes sizes;
  std::vector<double> values, indices;  // indices from 0
};

// Reference sliding max pooling: window o reads o * d - pad + m * dil, m < k, inside the input.
Pooled referenceMax(const std::vector<double> &x, const Sizes &inSizes, const Pool &p) {
  const Frame f = frameOf(inSizes, p.spatialDims);
  int64_t out[3];
  for (int a = 0; a < 3; a++) out[a] = pooledSize(f.in[a], p.k[a], p.d[a], p.pad[a], p.dil[a], p.ceilMode);
  Pooled r{f.lead, {}, {}};
  for (int a = 3 - p.spatialDims; a < 3; a++) r.sizes.push_back(out[a]);
  const int64_t planeSize = f.in[0] * f.in[1] * f.in[2];
  for (int64_t n = 0; n < f.planes; n++)
    for (int64_t ot = 0; ot < out[0]; ot++)
      for (int64_t oh = 0; oh < out[1]; oh++)
        for (int64_t ow = 0; ow < out[2]; ow++) {
          const int64_t o[3] = {ot, oh, ow};
          std::vector<int64_t> pos[3];
          for (int a = 0; a < 3; a++)
            for (int m = 0; m < p.k[a]; m++) {
              const int64_t i = o[a] * p.d[a] - p.pad[a] + (int64_t)m * p.dil[a];
              if (i >= 0 && i < f.in[a]) pos[a].push_back(i);
            }
          double value;
          int64_t index;
          windowMax(x.data() + n * planeSize, f.in, pos, value, index);
          r.values.push_back(value);
          r.indices.push_back((double)index);
        }
  return r;
}

std::vector<int64_t> range(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t i = lo; i < hi; i++) v.push_back(i);
  return v;
}

// Reference adaptive max: output o of out covers [floor(o * in / out), ceil((o + 1) * in / out)).
Pooled referenceAdaptiveMax(const std::vector<double> &x, const Sizes &inSizes, int64_t oH, int64_t oW) {
  const Frame f = frameOf(inSizes, 2);
  Pooled r{f.lead, {}, {}};
  r.sizes.push_back(oH);
  r.sizes.push_back(oW);
  auto cover = [](int64_t o, int64_t in, int64_t out) {
    return range((int64_t)std::floor(double(o) * in / out), (int64_t)std::ceil(double(o + 1) * in / out));
  };
  for (int64_t n = 0; n < f.planes; n++)
    for (int64_t i = 0; i < oH; i++)
      for (int64_t j = 0; j < oW; j++) {
        const std::vector<int64_t> pos[3] = {{0}, cover(i, f.in[1], oH), cover(j, f.in[2], oW)};
        double value;
        int64_t index;
        windowMax(x.data() + n * f.in[1] * f.in[2], f.in, pos, value, index);
        r.values.push_back(value);
        r.indices.push_back((double)index);
      }
  return r;
}

// Fractional window starts as torch7 defines them: floor((i + u) * a) - floor(u * a) with
// a = (in - pool) / (out - 1), the last one in - pool.
std::vector<int64_t> fractionalStarts(double u, int64_t in, int64_t out, int pool) {
  std::vector<int64_t> s;
  const double a = out > 1 ? double(in - pool) / double(out - 1) : 0;
  for (int64_t i = 0; i + 1 < out; i++) s.push_back((int64_t)std::floor((i + u) * a) - (int64_t)std::floor(u * a));
  s.push_back(in - pool);
  return s;
}

Pooled referenceFractional(const std::vector<double> &x, const Sizes &inSizes, const std::vector<double> &samples,
                           int64_t oH, int64_t oW, int poolH, int poolW) {
  const Frame f = frameOf(inSizes, 2);
  Pooled r{f.lead, {}, {}};
  r.sizes.push_back(oH);
  r.sizes.push_back(oW);
  for (int64_t n = 0; n < f.planes; n++) {
    const auto rows = fractionalStarts(samples[2 * n + 1], f.in[1], oH, poolH);
    const auto cols = fractionalStarts(samples[2 * n], f.in[2], oW, poolW);
    for (int64_t i = 0; i < oH; i++)
      for (int64_t j = 0; j < oW; j++) {
        BOOST_REQUIRE(rows[i] >= 0 && rows[i] + poolH <= f.in[1] && cols[j] >= 0 && cols[j] + poolW <= f.in[2]);
        const std::vector<int64_t> pos[3] = {{0}, range(rows[i], rows[i] + poolH), range(cols[j], cols[j] + poolW)};
        double value;
        int64_t index;
        windowMax(x.data() + n * f.in[1] * f.in[2], f.in, pos, value, index);
        r.values.push_back(value);
        r.indices.push_back((double)index);
      }
  }
  return r;
}

// Reference temporal max: output frame t is the max over input frames t * dW + m, m < kW;
// the index is m.
Pooled referenceTemporal(const std::vector<double> &x, const Sizes &in, int kW, int dW) {
  const bool batched = in.size() == 3;
  const int64_t N = batched ? in[0] : 1, T = in[batched], F = in[batched + 1];
  const int64_t outT = (T - kW) / dW + 1;
  Pooled r{batched ? Sizes{N, outT, F} : Sizes{outT, F}, {}, {}};
  for (int64_t n = 0; n < N; n++)
    for (int64_t t = 0; t < outT; t++)
      for (int64_t f = 0; f < F; f++) {
        int best = 0;
        for (int m = 1; m < kW; m++)
          if (x[(n * T + t * dW + m) * F + f] > x[(n * T + t * dW + best) * F + f]) best = m;
        r.values.push_back(x[(n * T + t * dW + best) * F + f]);
        r.indices.push_back(best);
      }
  return r;
}

/* Kernel calls */

void maxForward(THDoubleTensor *x, THDoubleTensor *y, THLongTensor *ind, const Pool &p) {
  if (p.spatialDims == 2)
    THNN_DoubleSpatialDilatedMaxPooling_updateOutput(nullptr, x, y, ind, p.k[2], p.k[1], p.d[2], p.d[1], p.pad[2],
                                                     p.pad[1], p.dil[2], p.dil[1], p.ceilMode);
  else
    THNN_DoubleVolumetricDilatedMaxPooling_updateOutput(nullptr, x, y, ind, p.k[0], p.k[2], p.k[1], p.d[0], p.d[2],
                                                        p.d[1], p.pad[0], p.pad[2], p.pad[1], p.dil[0], p.dil[2],
                                                        p.dil[1], p.ceilMode);
}

void maxBackward(THDoubleTensor *x, THDoubleTensor *go, THDoubleTensor *gi, THLongTensor *ind, const Pool &p) {
  if (p.spatialDims == 2)
    THNN_DoubleSpatialDilatedMaxPooling_updateGradInput(nullptr, x, go, gi, ind, p.k[2], p.k[1], p.d[2], p.d[1],
                                                        p.pad[2], p.pad[1], p.dil[2], p.dil[1], p.ceilMode);
  else
    THNN_DoubleVolumetricDilatedMaxPooling_updateGradInput(nullptr, x, go, gi, ind, p.k[0], p.k[2], p.k[1], p.d[0],
                                                           p.d[2], p.d[1], p.pad[0], p.pad[2], p.pad[1], p.dil[0],
                                                           p.dil[2], p.dil[1], p.ceilMode);
}

void checkPooled(THDoubleTensor *y, THLongTensor *ind, const Pooled &ref, const Sizes &expected) {
  BOOST_CHECK(ref.sizes == expected);
  BOOST_CHECK(sizes(y) == ref.sizes);
  BOOST_CHECK(sizes(ind) == ref.sizes);
  BOOST_CHECK(values(y) == ref.values);
  BOOST_CHECK(minusBase(values(ind)) == ref.indices);
}

// Values, indices and expected sizes of a sliding max pooling, then gradInput.
void checkMax(THDoubleTensor *x, const Pool &p, const Sizes &expected, unsigned seed) {
  THDoubleTensor *y = THDoubleTensor_new();
  THLongTensor *ind = THLongTensor_new();
  maxForward(x, y, ind, p);
  checkPooled(y, ind, referenceMax(values(x), sizes(x), p), expected);
  checkGradInput(
      x, [&](THDoubleTensor *in, THDoubleTensor *out) { maxForward(in, out, ind, p); },
      [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) { maxBackward(in, go, gi, ind, p); }, seed);
  THLongTensor_free(ind);
  THDoubleTensor_free(y);
}

}  // namespace

BOOST_AUTO_TEST_CASE(spatial_max_pooling) {
  struct Case {
    Sizes in;
    Pool p;
    Sizes out;
  };
  const Case cases[] = {
      {{3, 6, 7}, spatial(3, 2, 2, 2, 1, 1, 1, 1, false), {3, 4, 4}},       // unbatched, padding
      {{3, 6, 7}, spatial(3, 2, 2, 2, 1, 1, 1, 1, true), {3, 4, 4}},        // ceil mode, same here
      {{2, 2, 5, 7}, spatial(2, 2, 2, 2, 0, 0, 1, 1, true), {2, 2, 3, 4}},  // ceil mode adds a clipped window
      {{1, 3, 3}, spatial(2, 2, 2, 2, 1, 1, 1, 1, true), {1, 2, 2}},        // last window in the padding dropped
      {{2, 2, 9, 8}, spatial(3, 3, 2, 1, 1, 1, 2, 3, true), {2, 2, 5, 4}},  // dilated, batched
      {{2, 5, 6}, spatial(2, 3, 1, 2, 1, 1, 3, 2, false), {2, 2, 5}},       // dilated, windows starting in padding
  };
  unsigned seed = 100;
  for (const Case &c : cases) {
    THDoubleTensor *x = distinctTensor(c.in, seed++);
    checkMax(x, c.p, c.out, seed++);
    THDoubleTensor_free(x);
  }
  // SpatialMaxPooling is the dilation-1 case
  THDoubleTensor *x = distinctTensor({2, 6, 7}, seed);
  THDoubleTensor *y = THDoubleTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_DoubleSpatialMaxPooling_updateOutput(nullptr, x, y, ind, 3, 2, 2, 1, 1, 1, true);
  const Pool p = spatial(3, 2, 2, 1, 1, 1, 1, 1, true);
  checkPooled(y, ind, referenceMax(values(x), sizes(x), p), {2, 7, 4});
  checkGradInput(
      x,
      [&](THDoubleTensor *in, THDoubleTensor *out) {
        THNN_DoubleSpatialMaxPooling_updateOutput(nullptr, in, out, ind, 3, 2, 2, 1, 1, 1, true);
      },
      [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialMaxPooling_updateGradInput(nullptr, in, go, gi, ind, 3, 2, 2, 1, 1, 1, true);
      },
      seed + 1);
  THLongTensor_free(ind);
  THDoubleTensor_free(y);
  THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(spatial_max_pooling_noncontiguous_float_ties_nan) {
  // a transposed input view, results into non-contiguous views of the right sizes
  THDoubleTensor *base = distinctTensor({2, 7, 5}, 200);
  THDoubleTensor *x = THDoubleTensor_newTranspose(base, 1, 2);  // [2, 5, 7]
  THDoubleTensor *yBase = THDoubleTensor_newWithSize3d(2, 4, 3);
  THDoubleTensor *y = THDoubleTensor_newTranspose(yBase, 1, 2);  // [2, 3, 4]
  THLongTensor *indBase = THLongTensor_newWithSize3d(2, 4, 3);
  THLongTensor *ind = THLongTensor_newTranspose(indBase, 1, 2);
  const Pool p = spatial(3, 2, 2, 2, 1, 1, 1, 1, true);
  maxForward(x, y, ind, p);
  checkPooled(y, ind, referenceMax(values(x), sizes(x), p), {2, 3, 4});
  BOOST_CHECK(y->stride[1] == 1 && ind->stride[1] == 1);
  checkGradInput(
      x, [&](THDoubleTensor *in, THDoubleTensor *out) { maxForward(in, out, ind, p); },
      [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) { maxBackward(in, go, gi, ind, p); }, 201);

  // float
  THFloatTensor *xf = thnnt::randomTensor<float>({2, 3, 6, 7}, 202);
  THFloatTensor *yf = THFloatTensor_new();
  THLongTensor *indf = THLongTensor_new();
  THNN_FloatSpatialDilatedMaxPooling_updateOutput(nullptr, xf, yf, indf, 3, 2, 2, 1, 1, 1, 2, 1, true);
  const Pooled ref = referenceMax(values(xf), sizes(xf), spatial(3, 2, 2, 1, 1, 1, 2, 1, true));
  BOOST_CHECK(sizes(yf) == ref.sizes);
  BOOST_CHECK(values(yf) == ref.values);
  BOOST_CHECK(minusBase(values(indf)) == ref.indices);

  // ties go to the first element of the window in row-major order
  THDoubleTensor *zeros = THDoubleTensor_newWithSize3d(1, 4, 6);
  THDoubleTensor_zero(zeros);
  THDoubleTensor *yz = THDoubleTensor_new();
  THLongTensor *indz = THLongTensor_new();
  THNN_DoubleSpatialMaxPooling_updateOutput(nullptr, zeros, yz, indz, 2, 2, 2, 2, 0, 0, false);
  BOOST_CHECK(minusBase(values(indz)) == std::vector<double>({0, 2, 4, 12, 14, 16}));

  // a NaN in a window wins
  THDoubleTensor_set3d(zeros, 0, 3, 3, NAN);
  THNN_DoubleSpatialMaxPooling_updateOutput(nullptr, zeros, yz, indz, 2, 2, 2, 2, 0, 0, false);
  BOOST_CHECK(std::isnan(values(yz)[4]));
  BOOST_CHECK_EQUAL(minusBase(values(indz))[4], 3 * 6 + 3);
  BOOST_CHECK_EQUAL(values(yz)[5], 0);

  for (THLongTensor *t : {indz, indf, ind, indBase}) THLongTensor_free(t);
  for (THDoubleTensor *t : {yz, zeros, y, yBase, x, base}) THDoubleTensor_free(t);
  THFloatTensor_free(yf);
  THFloatTensor_free(xf);
}

BOOST_AUTO_TEST_CASE(large_inputs_take_the_threaded_path) {
  // gradInput against the reference's routing: gradOutput added at the reference maxima
  THDoubleTensor *x = distinctTensor({4, 8, 40, 41}, 250);
  THDoubleTensor *y = THDoubleTensor_new();
  THDoubleTensor *gradInput = THDoubleTensor_new();
  THLongTensor *ind = THLongTensor_new();
  const Pool p = spatial(3, 3, 2, 2, 1, 1, 2, 1, true);
  maxForward(x, y, ind, p);
  const Pooled ref = referenceMax(values(x), sizes(x), p);
  checkPooled(y, ind, ref, {4, 8, 21, 20});
  THDoubleTensor *g = thnnt::randomTensor<double>(ref.sizes, 251);
  maxBackward(x, g, gradInput, ind, p);
  std::vector<double> expected(THDoubleTensor_nElement(x), 0);
  const auto gv = values(g);
  const int64_t inPlane = 40 * 41, outPlane = 21 * 20;
  for (size_t o = 0; o < gv.size(); o++) expected[o / outPlane * inPlane + (int64_t)ref.indices[o]] += gv[o];
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gradInput), expected), 1e-12);

  // temporal: overlapping windows over many features
  THDoubleTensor *t = distinctTensor({4, 100, 300}, 252);
  THNN_DoubleTemporalMaxPooling_updateOutput(nullptr, t, y, ind, 4, 2);
  const Pooled tref = referenceTemporal(values(t), sizes(t), 4, 2);
  checkPooled(y, ind, tref, {4, 49, 300});
  THDoubleTensor *tg = thnnt::randomTensor<double>(tref.sizes, 253);
  THNN_DoubleTemporalMaxPooling_updateGradInput(nullptr, t, tg, gradInput, ind, 4, 2);
  std::vector<double> texpected(THDoubleTensor_nElement(t), 0);
  const auto tgv = values(tg);
  for (int64_t n = 0; n < 4; n++)
    for (int64_t o = 0; o < 49; o++)
      for (int64_t f = 0; f < 300; f++) {
        const int64_t k = (n * 49 + o) * 300 + f;
        texpected[(n * 100 + o * 2 + (int64_t)tref.indices[k]) * 300 + f] += tgv[k];
      }
  BOOST_CHECK_SMALL(thnnt::maxAbsDiff(values(gradInput), texpected), 1e-12);
  THDoubleTensor_free(tg);
  THDoubleTensor_free(t);
  THDoubleTensor_free(g);
  THLongTensor_free(ind);
  THDoubleTensor_free(gradInput);
  THDoubleTensor_free(y);
  THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(volumetric_max_pooling) {
  struct Case {
    Sizes in;
    Pool p;
    Sizes out;
  };
  const Case cases[] = {
      {{2, 4, 5, 6}, volumetric(2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, true), {2, 3, 6, 4}},
      {{2, 1, 5, 6, 7}, volumetric(2, 2, 3, 1, 2, 2, 0, 1, 1, 2, 2, 2, false), {2, 1, 3, 2, 4}},
      {{1, 2, 3, 4, 5}, volumetric(3, 2, 2, 2, 2, 2, 1, 0, 1, 1, 1, 1, true), {1, 2, 2, 3, 3}},
  };
  unsigned seed = 300;
  for (const Case &c : cases) {
    THDoubleTensor *x = distinctTensor(c.in, seed++);
    checkMax(x, c.p, c.out, seed++);
    THDoubleTensor_free(x);
  }
  // VolumetricMaxPooling is the dilation-1 case
  THDoubleTensor *x = distinctTensor({2, 4, 5, 6}, seed);
  THDoubleTensor *y = THDoubleTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_DoubleVolumetricMaxPooling_updateOutput(nullptr, x, y, ind, 2, 3, 2, 2, 2, 1, 1, 1, 1, true);
  checkPooled(y, ind, referenceMax(values(x), sizes(x), volumetric(2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, true)),
              {2, 3, 6, 4});
  checkGradInput(
      x,
      [&](THDoubleTensor *in, THDoubleTensor *out) {
        THNN_DoubleVolumetricMaxPooling_updateOutput(nullptr, in, out, ind, 2, 3, 2, 2, 2, 1, 1, 1, 1, true);
      },
      [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleVolumetricMaxPooling_updateGradInput(nullptr, in, go, gi, ind, 2, 3, 2, 2, 2, 1, 1, 1, 1, true);
      },
      seed + 1);
  THFloatTensor *xf = thnnt::randomTensor<float>({2, 1, 5, 6, 7}, seed + 2);
  THFloatTensor *yf = THFloatTensor_new();
  THNN_FloatVolumetricDilatedMaxPooling_updateOutput(nullptr, xf, yf, ind, 2, 2, 3, 1, 2, 2, 0, 1, 1, 2, 2, 2, false);
  const Pooled ref = referenceMax(values(xf), sizes(xf), volumetric(2, 2, 3, 1, 2, 2, 0, 1, 1, 2, 2, 2, false));
  BOOST_CHECK(values(yf) == ref.values);
  BOOST_CHECK(minusBase(values(ind)) == ref.indices);
  THFloatTensor_free(yf);
  THFloatTensor_free(xf);
  THLongTensor_free(ind);
  THDoubleTensor_free(y);
  THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(temporal_max_pooling) {
  struct Case {
    Sizes in;
    int kW, dW;
    Sizes out;
  };
  // overlapping windows; gaps between windows (dW > kW), batched
  for (const Case &c :
       {Case{{7, 3}, 3, 2, {3, 3}}, Case{{2, 8, 4}, 2, 3, {2, 3, 4}}, Case{{1, 5, 2}, 5, 1, {1, 1, 2}}}) {
    THDoubleTensor *x = distinctTensor(c.in, 400 + c.kW);
    THDoubleTensor *y = THDoubleTensor_new();
    THLongTensor *ind = THLongTensor_new();
    THNN_DoubleTemporalMaxPooling_updateOutput(nullptr, x, y, ind, c.kW, c.dW);
    const Pooled ref = referenceTemporal(values(x), c.in, c.kW, c.dW);
    checkPooled(y, ind, ref, c.out);
    checkGradInput(
        x,
        [&](THDoubleTensor *in, THDoubleTensor *out) {
          THNN_DoubleTemporalMaxPooling_updateOutput(nullptr, in, out, ind, c.kW, c.dW);
        },
        [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleTemporalMaxPooling_updateGradInput(nullptr, in, go, gi, ind, c.kW, c.dW);
        },
        410 + c.kW);
    THLongTensor_free(ind);
    THDoubleTensor_free(y);
    THDoubleTensor_free(x);
  }
  // a non-contiguous (transposed) input and float
  THFloatTensor *base = thnnt::randomTensor<float>({4, 9}, 420);
  THFloatTensor *xf = THFloatTensor_newTranspose(base, 0, 1);  // [9, 4]
  THFloatTensor *yf = THFloatTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_FloatTemporalMaxPooling_updateOutput(nullptr, xf, yf, ind, 4, 2);
  const auto xv = values(xf);
  const auto yv = values(yf), iv = minusBase(values(ind));
  BOOST_REQUIRE(sizes(yf) == Sizes({3, 4}));
  for (int t = 0; t < 3; t++)
    for (int f = 0; f < 4; f++) {
      double best = -INFINITY;
      for (int m = 0; m < 4; m++) best = std::max(best, xv[(t * 2 + m) * 4 + f]);
      BOOST_CHECK_EQUAL(yv[t * 4 + f], best);
      BOOST_CHECK_EQUAL(xv[(t * 2 + (int)iv[t * 4 + f]) * 4 + f], best);
    }
  THLongTensor_free(ind);
  THFloatTensor_free(yf);
  THFloatTensor_free(xf);
  THFloatTensor_free(base);
}

BOOST_AUTO_TEST_CASE(adaptive_max_pooling) {
  struct Case {
    Sizes in;
    int oH, oW;
  };
  // shrinking with uneven windows, growing (overlapping windows), batched
  for (const Case &c : {Case{{3, 5, 7}, 3, 4}, Case{{2, 3, 2}, 4, 5}, Case{{2, 2, 6, 5}, 4, 2}}) {
    THDoubleTensor *x = distinctTensor(c.in, 500 + c.oH);
    THDoubleTensor *y = THDoubleTensor_new();
    THLongTensor *ind = THLongTensor_new();
    THNN_DoubleSpatialAdaptiveMaxPooling_updateOutput(nullptr, x, y, ind, c.oW, c.oH);
    const Pooled ref = referenceAdaptiveMax(values(x), c.in, c.oH, c.oW);
    checkPooled(y, ind, ref, ref.sizes);
    checkGradInput(
        x,
        [&](THDoubleTensor *in, THDoubleTensor *out) {
          THNN_DoubleSpatialAdaptiveMaxPooling_updateOutput(nullptr, in, out, ind, c.oW, c.oH);
        },
        [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleSpatialAdaptiveMaxPooling_updateGradInput(nullptr, in, go, gi, ind);
        },
        510 + c.oH);
    THLongTensor_free(ind);
    THDoubleTensor_free(y);
    THDoubleTensor_free(x);
  }
  THFloatTensor *xf = thnnt::randomTensor<float>({2, 7, 5}, 520);
  THFloatTensor *yf = THFloatTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_FloatSpatialAdaptiveMaxPooling_updateOutput(nullptr, xf, yf, ind, 2, 3);
  const Pooled ref = referenceAdaptiveMax(values(xf), sizes(xf), 3, 2);
  BOOST_CHECK(values(yf) == ref.values);
  BOOST_CHECK(minusBase(values(ind)) == ref.indices);
  THLongTensor_free(ind);
  THFloatTensor_free(yf);
  THFloatTensor_free(xf);
}

BOOST_AUTO_TEST_CASE(fractional_max_pooling) {
  struct Case {
    Sizes in, samples;
    int oH, oW, poolH, poolW;
  };
  const Case cases[] = {
      {{2, 3, 9, 10}, {2, 3, 2}, 4, 5, 3, 2},  // batched
      {{2, 7, 6}, {2, 2}, 5, 3, 2, 3},         // unbatched with (C, 2) samples
      {{1, 5, 5}, {1, 1, 2}, 1, 4, 5, 2},      // one output row: its window is the last one
  };
  unsigned seed = 600;
  for (const Case &c : cases) {
    THDoubleTensor *x = distinctTensor(c.in, seed++);
    THDoubleTensor *samples = thnnt::randomTensor<double>(c.samples, seed++, 0, 1);
    THDoubleTensor *y = THDoubleTensor_new();
    THLongTensor *ind = THLongTensor_new();
    THNN_DoubleSpatialFractionalMaxPooling_updateOutput(nullptr, x, y, c.oW, c.oH, c.poolW, c.poolH, ind, samples);
    const Pooled ref = referenceFractional(values(x), c.in, values(samples), c.oH, c.oW, c.poolH, c.poolW);
    checkPooled(y, ind, ref, ref.sizes);
    checkGradInput(
        x,
        [&](THDoubleTensor *in, THDoubleTensor *out) {
          THNN_DoubleSpatialFractionalMaxPooling_updateOutput(nullptr, in, out, c.oW, c.oH, c.poolW, c.poolH, ind,
                                                              samples);
        },
        [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleSpatialFractionalMaxPooling_updateGradInput(nullptr, in, go, gi, c.oW, c.oH, c.poolW, c.poolH,
                                                                 ind);
        },
        seed++);
    THLongTensor_free(ind);
    THDoubleTensor_free(y);
    THDoubleTensor_free(samples);
    THDoubleTensor_free(x);
  }
  // float, with the windows computed in float as torch7 does (same windows here)
  THFloatTensor *xf = thnnt::randomTensor<float>({2, 3, 9, 10}, seed);
  THFloatTensor *samples = thnnt::randomTensor<float>({2, 3, 2}, seed + 1, 0, 1);
  THFloatTensor *yf = THFloatTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_FloatSpatialFractionalMaxPooling_updateOutput(nullptr, xf, yf, 5, 4, 2, 3, ind, samples);
  const Pooled ref = referenceFractional(values(xf), sizes(xf), values(samples), 4, 5, 3, 2);
  BOOST_CHECK(values(yf) == ref.values);
  BOOST_CHECK(minusBase(values(ind)) == ref.indices);
  THLongTensor_free(ind);
  THFloatTensor_free(yf);
  THFloatTensor_free(samples);
  THFloatTensor_free(xf);
}

BOOST_AUTO_TEST_CASE(unpooling_puts_values_back_at_the_pooled_positions) {
  // spatial: pool a batched input, unpool to the input size
  THDoubleTensor *x = distinctTensor({2, 3, 6, 7}, 700);
  THDoubleTensor *pooled = THDoubleTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_DoubleSpatialMaxPooling_updateOutput(nullptr, x, pooled, ind, 2, 2, 2, 2, 0, 0, true);
  THDoubleTensor *up = THDoubleTensor_new();
  THNN_DoubleSpatialMaxUnpooling_updateOutput(nullptr, pooled, up, ind, 7, 6);
  BOOST_REQUIRE(sizes(up) == sizes(x));
  {
    // each plane of up: zero, but x's value at every pooled position
    const auto xv = values(x), pv = values(pooled), iv = minusBase(values(ind)), uv = values(up);
    std::vector<double> expected(xv.size(), 0);
    const int64_t inPlane = 6 * 7, outPlane = 3 * 4;
    for (size_t o = 0; o < pv.size(); o++) {
      const int64_t plane = (int64_t)o / outPlane;
      BOOST_CHECK_EQUAL(xv[plane * inPlane + (int64_t)iv[o]], pv[o]);
      expected[plane * inPlane + (int64_t)iv[o]] = pv[o];
    }
    BOOST_CHECK(uv == expected);
  }
  checkGradInput(
      pooled,
      [&](THDoubleTensor *in, THDoubleTensor *out) {
        THNN_DoubleSpatialMaxUnpooling_updateOutput(nullptr, in, out, ind, 7, 6);
      },
      [&](THDoubleTensor *in, THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialMaxUnpooling_updateGradInput(nullptr, in, go, gi, ind, 7, 6);
      },
      701);

  // hand-made indices on an unbatched float input, a later index wins a shared position
  THFloatTensor *small = THFloatTensor_newWithSize3d(1, 1, 3);
  thnnt::setValues(small, {5, 6, 7});
  THLongTensor *handInd = THLongTensor_newWithSize3d(1, 1, 3);
  thnnt::setValues(handInd, {3 + TH_INDEX_BASE, 0 + TH_INDEX_BASE, 3 + TH_INDEX_BASE});
  THFloatTensor *upf = THFloatTensor_new();
  THNN_FloatSpatialMaxUnpooling_updateOutput(nullptr, small, upf, handInd, 2, 2);
  BOOST_CHECK(sizes(upf) == Sizes({1, 2, 2}));
  BOOST_CHECK(values(upf) == std::vector<double>({6, 0, 0, 7}));
  THFloatTensor_free(upf);
  THLongTensor_free(handInd);
  THFloatTensor_free(small);

  // volumetric: unbatched and batched
  for (const Sizes &in : {Sizes{2, 4, 5, 6}, Sizes{2, 1, 3, 4, 5}}) {
    THDoubleTensor *xv = distinctTensor(in, 710 + (unsigned)in.size());
    THNN_DoubleVolumetricMaxPooling_updateOutput(nullptr, xv, pooled, ind, 2, 2, 2, 2, 2, 2, 0, 0, 0, false);
    const int oT = (int)in[in.size() - 3], oH = (int)in[in.size() - 2], oW = (int)in[in.size() - 1];
    THNN_DoubleVolumetricMaxUnpooling_updateOutput(nullptr, pooled, up, ind, oT, oW, oH, 2, 2, 2, 0, 0, 0);
    BOOST_REQUIRE(sizes(up) == in);
    const auto x0 = values(xv), pv = values(pooled), iv = minusBase(values(ind)), uv = values(up);
    std::vector<double> expected(x0.size(), 0);
    const int nd = pooled->nDimension;
    const int64_t inPlane = (int64_t)oT * oH * oW,
                  outPlane = pooled->size[nd - 3] * pooled->size[nd - 2] * pooled->size[nd - 1];
    for (size_t o = 0; o < pv.size(); o++) {
      const int64_t plane = (int64_t)o / outPlane;
      BOOST_CHECK_EQUAL(x0[plane * inPlane + (int64_t)iv[o]], pv[o]);
      expected[plane * inPlane + (int64_t)iv[o]] = pv[o];
    }
    BOOST_CHECK(uv == expected);
    checkGradInput(
        pooled,
        [&](THDoubleTensor *i, THDoubleTensor *o) {
          THNN_DoubleVolumetricMaxUnpooling_updateOutput(nullptr, i, o, ind, oT, oW, oH, 2, 2, 2, 0, 0, 0);
        },
        [&](THDoubleTensor *i, THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleVolumetricMaxUnpooling_updateGradInput(nullptr, i, go, gi, ind, oT, oW, oH, 2, 2, 2, 0, 0, 0);
        },
        720 + (unsigned)in.size());
    THDoubleTensor_free(xv);
  }
  THDoubleTensor_free(up);
  THLongTensor_free(ind);
  THDoubleTensor_free(pooled);
  THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(bad_arguments_raise_and_leave_outputs_unchanged) {
  THDoubleTensor *x = distinctTensor({2, 5, 6}, 800);
  THDoubleTensor *out = thnnt::randomTensor<double>({2, 3}, 801);
  THLongTensor *ind = THLongTensor_newWithSize1d(4);
  thnnt::setValues(ind, {1, 2, 3, 4});
  auto spatialMax = [&](THDoubleTensor *in, int kW, int kH, int dW, int dH, int padW, int padH, int dilW, int dilH) {
    return [=] {
      THNN_DoubleSpatialDilatedMaxPooling_updateOutput(nullptr, in, out, ind, kW, kH, dW, dH, padW, padH, dilW, dilH,
                                                       true);
    };
  };
  THDoubleTensor *x2 = distinctTensor({5, 6}, 802);
  THDoubleTensor *h1 = distinctTensor({1, 1, 6}, 803);
  for (auto f : {spatialMax(x2, 2, 2, 1, 1, 0, 0, 1, 1),    // 2D input
                 spatialMax(x, 0, 2, 1, 1, 0, 0, 1, 1),     // empty kernel
                 spatialMax(x, 2, 2, 1, 0, 0, 0, 1, 1),     // zero stride
                 spatialMax(x, 3, 3, 1, 1, 2, 0, 1, 1),     // padding over half the kernel
                 spatialMax(x, 2, 2, 1, 1, 0, 0, 0, 1),     // zero dilation
                 spatialMax(x, 2, 3, 1, 1, 0, 0, 1, 3),     // dilated kernel taller than the input
                 spatialMax(h1, 1, 3, 1, 10, 0, 1, 1, 5)})  // a window with no input element
  {
    checkRaisesUnchanged(out, f);
    checkRaisesUnchanged(ind, f);
  }
  checkRaisesUnchanged(out, [&] {
    THNN_DoubleVolumetricMaxPooling_updateOutput(nullptr, x, out, ind, 1, 1, 1, 1, 1, 1, 0, 0, 0, false);
  });
  checkRaisesUnchanged(out, [&] { THNN_DoubleTemporalMaxPooling_updateOutput(nullptr, x2, out, ind, 6, 1); });
  checkRaisesUnchanged(out, [&] { THNN_DoubleSpatialAdaptiveMaxPooling_updateOutput(nullptr, x, out, ind, 2, 0); });
  THDoubleTensor *samples = thnnt::randomTensor<double>({1, 2, 2}, 804, 0, 1);
  checkRaisesUnchanged(out, [&] {  // 4 windows of 3 rows do not fit in 5 rows
    THNN_DoubleSpatialFractionalMaxPooling_updateOutput(nullptr, x, out, 2, 4, 2, 3, ind, samples);
  });
  THDoubleTensor *fewSamples = thnnt::randomTensor<double>({1, 1, 2}, 805, 0, 1);
  checkRaisesUnchanged(
      out, [&] { THNN_DoubleSpatialFractionalMaxPooling_updateOutput(nullptr, x, out, 2, 2, 2, 2, ind, fewSamples); });
  THDoubleTensor_set3d(samples, 0, 1, 0, 1.0);
  checkRaisesUnchanged(out, [&] {  // a sample outside [0, 1)
    THNN_DoubleSpatialFractionalMaxPooling_updateOutput(nullptr, x, out, 2, 2, 2, 2, ind, samples);
  });
  checkRaisesUnchanged(out, [&] { THNN_DoubleSpatialMaxUnpooling_updateOutput(nullptr, x, out, ind, 6, 0); });

  // backward: gradOutput and indices of the wrong shape, indices out of range
  THDoubleTensor *y = THDoubleTensor_new();
  THLongTensor *good = THLongTensor_new();
  THNN_DoubleSpatialMaxPooling_updateOutput(nullptr, x, y, good, 2, 2, 2, 2, 0, 0, false);  // [2, 2, 3]
  THDoubleTensor *gradIn = thnnt::randomTensor<double>({3, 2}, 806);
  THDoubleTensor *gradOutBad = thnnt::randomTensor<double>({2, 3, 3}, 807);
  checkRaisesUnchanged(gradIn, [&] {
    THNN_DoubleSpatialMaxPooling_updateGradInput(nullptr, x, gradOutBad, gradIn, good, 2, 2, 2, 2, 0, 0, false);
  });
  checkRaisesUnchanged(gradIn, [&] {
    THNN_DoubleSpatialMaxPooling_updateGradInput(nullptr, x, y, gradIn, ind, 2, 2, 2, 2, 0, 0, false);
  });
  THLongTensor *bad = THLongTensor_newClone(good);
  for (int64_t badIndex : {(int64_t)30 + TH_INDEX_BASE, (int64_t)-1 + TH_INDEX_BASE}) {
    THLongTensor_set3d(bad, 1, 0, 1, badIndex);  // planes of 5 x 6 = 30 elements
    checkRaisesUnchanged(
        gradIn,
        [&] { THNN_DoubleSpatialMaxPooling_updateGradInput(nullptr, x, y, gradIn, bad, 2, 2, 2, 2, 0, 0, false); },
        true);
    checkRaisesUnchanged(
        gradIn, [&] { THNN_DoubleSpatialAdaptiveMaxPooling_updateGradInput(nullptr, x, y, gradIn, bad); }, true);
    // unpooling [2, 2, 3] planes back to 5 x 6, and its backward
    checkRaisesUnchanged(
        out, [&] { THNN_DoubleSpatialMaxUnpooling_updateOutput(nullptr, y, out, bad, 6, 5); }, true);
    checkRaisesUnchanged(
        gradIn, [&] { THNN_DoubleSpatialMaxUnpooling_updateGradInput(nullptr, y, x, gradIn, bad, 6, 5); }, true);
  }
  checkRaisesUnchanged(gradIn, [&] {  // gradOutput not of the unpooled size
    THNN_DoubleSpatialMaxUnpooling_updateGradInput(nullptr, y, gradOutBad, gradIn, good, 6, 5);
  });
  checkRaisesUnchanged(out, [&] {  // indices not of the input's size
    THNN_DoubleSpatialMaxUnpooling_updateOutput(nullptr, y, out, ind, 6, 5);
  });

  // temporal: a window offset past the kernel
  THDoubleTensor *ty = THDoubleTensor_new();
  THLongTensor *tind = THLongTensor_new();
  THNN_DoubleTemporalMaxPooling_updateOutput(nullptr, x2, ty, tind, 2, 2);  // [2, 6]
  THLongTensor_set2d(tind, 1, 3, 2 + TH_INDEX_BASE);
  checkRaisesUnchanged(
      gradIn, [&] { THNN_DoubleTemporalMaxPooling_updateGradInput(nullptr, x2, ty, gradIn, tind, 2, 2); }, true);

  // volumetric unpooling: zero stride, an index past the volume
  THDoubleTensor *v = distinctTensor({1, 2, 2, 2}, 808);
  THLongTensor *vind = THLongTensor_newWithSize4d(1, 2, 2, 2);
  thnnt::setValues(vind, {0, 1, 2, 3, 4, 5, 6, 7});
  THLongTensor_add(vind, vind, TH_INDEX_BASE);
  checkRaisesUnchanged(
      out, [&] { THNN_DoubleVolumetricMaxUnpooling_updateOutput(nullptr, v, out, vind, 2, 2, 2, 0, 1, 1, 0, 0, 0); });
  checkRaisesUnchanged(
      out, [&] { THNN_DoubleVolumetricMaxUnpooling_updateOutput(nullptr, v, out, vind, 1, 2, 2, 1, 1, 1, 0, 0, 0); },
      true);

  THLongTensor_free(vind);
  THDoubleTensor_free(v);
  THLongTensor_free(tind);
  THDoubleTensor_free(ty);
  THLongTensor_free(bad);
  THDoubleTensor_free(gradOutBad);
  THDoubleTensor_free(gradIn);
  THLongTensor_free(good);
  THDoubleTensor_free(y);
  THDoubleTensor_free(fewSamples);
  THDoubleTensor_free(samples);
  THDoubleTensor_free(h1);
  THDoubleTensor_free(x2);
  THLongTensor_free(ind);
  THDoubleTensor_free(out);
  THDoubleTensor_free(x);
}

/* The fast path (Note [Max pooling fast path]) against a plain loop, on shapes that take it
 * (no dilation along W: 2x2 and 3x3 kernels, stride 1 and 2, other kernels, padding and ceil
 * mode borders, dilation along H or T only) and shapes that do not (dilation along W), on
 * inputs full of ties and of NaNs, contiguous or not, in float and double. */

namespace {

// Plain sliding max in window order t, h, w: a NaN beats anything but an earlier NaN, a
// number beats the best so far only when larger. Returns values and 0-based indices.
template <typename T>
std::pair<std::vector<T>, std::vector<int64_t>> plainMax(const std::vector<T> &x, const Sizes &inSizes, const Pool &p,
                                                         Sizes &outSizes) {
  const Frame f = frameOf(inSizes, p.spatialDims);
  int64_t out[3];
  for (int a = 0; a < 3; a++) out[a] = pooledSize(f.in[a], p.k[a], p.d[a], p.pad[a], p.dil[a], p.ceilMode);
  outSizes = f.lead;
  for (int a = 3 - p.spatialDims; a < 3; a++) outSizes.push_back(out[a]);
  std::vector<T> values;
  std::vector<int64_t> indices;
  const int64_t planeSize = f.in[0] * f.in[1] * f.in[2];
  for (int64_t n = 0; n < f.planes; n++)
    for (int64_t ot = 0; ot < out[0]; ot++)
      for (int64_t oh = 0; oh < out[1]; oh++)
        for (int64_t ow = 0; ow < out[2]; ow++) {
          bool have = false;
          T best = 0;
          int64_t at = -1;
          for (int mt = 0; mt < p.k[0]; mt++)
            for (int mh = 0; mh < p.k[1]; mh++)
              for (int mw = 0; mw < p.k[2]; mw++) {
                const int64_t t = ot * p.d[0] - p.pad[0] + (int64_t)mt * p.dil[0];
                const int64_t h = oh * p.d[1] - p.pad[1] + (int64_t)mh * p.dil[1];
                const int64_t w = ow * p.d[2] - p.pad[2] + (int64_t)mw * p.dil[2];
                if (t < 0 || t >= f.in[0] || h < 0 || h >= f.in[1] || w < 0 || w >= f.in[2]) continue;
                const int64_t i = (t * f.in[1] + h) * f.in[2] + w;
                const T v = x[n * planeSize + i];
                if (!have || (!std::isnan(best) && (std::isnan(v) || v > best))) {
                  have = true;
                  best = v;
                  at = i;
                }
              }
          BOOST_REQUIRE(have);
          values.push_back(best);
          indices.push_back(at);
        }
  return {values, indices};
}

void dilatedMax(THFloatTensor *x, THFloatTensor *y, THLongTensor *ind, const Pool &p) {
  if (p.spatialDims == 2)
    THNN_FloatSpatialDilatedMaxPooling_updateOutput(nullptr, x, y, ind, p.k[2], p.k[1], p.d[2], p.d[1], p.pad[2],
                                                    p.pad[1], p.dil[2], p.dil[1], p.ceilMode);
  else
    THNN_FloatVolumetricDilatedMaxPooling_updateOutput(nullptr, x, y, ind, p.k[0], p.k[2], p.k[1], p.d[0], p.d[2],
                                                       p.d[1], p.pad[0], p.pad[2], p.pad[1], p.dil[0], p.dil[2],
                                                       p.dil[1], p.ceilMode);
}

void dilatedMax(THDoubleTensor *x, THDoubleTensor *y, THLongTensor *ind, const Pool &p) { maxForward(x, y, ind, p); }

void dilatedMaxBackward(THFloatTensor *x, THFloatTensor *go, THFloatTensor *gi, THLongTensor *ind, const Pool &p) {
  if (p.spatialDims == 2)
    THNN_FloatSpatialDilatedMaxPooling_updateGradInput(nullptr, x, go, gi, ind, p.k[2], p.k[1], p.d[2], p.d[1],
                                                       p.pad[2], p.pad[1], p.dil[2], p.dil[1], p.ceilMode);
  else
    THNN_FloatVolumetricDilatedMaxPooling_updateGradInput(nullptr, x, go, gi, ind, p.k[0], p.k[2], p.k[1], p.d[0],
                                                          p.d[2], p.d[1], p.pad[0], p.pad[2], p.pad[1], p.dil[0],
                                                          p.dil[2], p.dil[1], p.ceilMode);
}

void dilatedMaxBackward(THDoubleTensor *x, THDoubleTensor *go, THDoubleTensor *gi, THLongTensor *ind, const Pool &p) {
  maxBackward(x, go, gi, ind, p);
}

THFloatTensor *transposeOf(THFloatTensor *t, int a, int b) { return THFloatTensor_newTranspose(t, a, b); }
THDoubleTensor *transposeOf(THDoubleTensor *t, int a, int b) { return THDoubleTensor_newTranspose(t, a, b); }

std::string sizesString(const Sizes &s) {
  std::string r;
  for (int64_t x : s) r += (r.empty() ? "" : "x") + std::to_string(x);
  return r;
}

enum class Fill { Ties, TiesAndNaN };

// Values from {-2, ..., 2} (ties in almost every window), a fifth of them NaN for TiesAndNaN.
std::vector<double> tiedValues(size_t n, Fill fill, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> value(-2, 2), pick(0, 4);
  std::vector<double> v(n);
  for (double &x : v) x = fill == Fill::TiesAndNaN && pick(gen) == 0 ? NAN : value(gen);
  return v;
}

bool sameValues(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

// Forward values and indices against plainMax, then gradInput against gradOutput added at
// the plain loop's maxima, for input x (any layout) and outputs y, ind (any layout).
template <typename T, typename TensorT>
void checkAgainstPlain(TensorT *x, TensorT *y, THLongTensor *ind, const Pool &p, unsigned seed) {
  const std::vector<double> xv = values(x);
  const std::vector<T> xt(xv.begin(), xv.end());
  Sizes outSizes;
  const auto ref = plainMax(xt, sizes(x), p, outSizes);
  dilatedMax(x, y, ind, p);
  BOOST_REQUIRE(sizes(y) == outSizes);
  BOOST_REQUIRE(sizes(ind) == outSizes);
  BOOST_CHECK(sameValues(values(y), std::vector<double>(ref.first.begin(), ref.first.end())));
  BOOST_CHECK(minusBase(values(ind)) == std::vector<double>(ref.second.begin(), ref.second.end()));

  auto *go = thnnt::randomTensor<T>(outSizes, seed);
  auto *gi = th::TH<T>::newWithSize(0, nullptr, nullptr);
  dilatedMaxBackward(x, go, gi, ind, p);
  const Frame f = frameOf(sizes(x), p.spatialDims);
  const int64_t inPlane = f.in[0] * f.in[1] * f.in[2], outPlane = (int64_t)ref.second.size() / f.planes;
  std::vector<T> expected(xv.size(), 0);
  const auto gv = values(go);
  for (size_t o = 0; o < gv.size(); o++) expected[o / outPlane * inPlane + ref.second[o]] += (T)gv[o];
  BOOST_CHECK(sizes(gi) == sizes(x));
  BOOST_CHECK(values(gi) == std::vector<double>(expected.begin(), expected.end()));
  th::thFree(gi);
  th::thFree(go);
}

template <typename T>
void checkFastPathCase(const Sizes &in, const Pool &p, unsigned seed) {
  using TensorT = typename th::TH<T>::Tensor;
  const int nd = (int)in.size();
  for (Fill fill : {Fill::Ties, Fill::TiesAndNaN})
    for (bool contiguous : {true, false}) {
      BOOST_TEST_CONTEXT("sizes " << sizesString(in) << " kernel " << p.k[0] << "x" << p.k[1] << "x" << p.k[2]
                                  << " stride " << p.d[1] << "," << p.d[2] << " pad " << p.pad[1] << "," << p.pad[2]
                                  << " dil " << p.dil[1] << "," << p.dil[2] << " ceil " << p.ceilMode
                                  << (fill == Fill::TiesAndNaN ? " NaN" : " ties")
                                  << (contiguous ? " contiguous" : " transposed") << " " << th::TH<T>::name) {
        // a transposed view of the last two dimensions when not contiguous; the outputs are
        // then transposed views too
        Sizes storageSizes = in;
        if (!contiguous) std::swap(storageSizes[nd - 2], storageSizes[nd - 1]);
        TensorT *base = th::TH<T>::newWithSize(nd, storageSizes.data(), nullptr);
        TensorT *x = contiguous ? base : transposeOf(base, nd - 2, nd - 1);
        thnnt::setValues(x, tiedValues(th::numel(th::ref(x)), fill, seed++));
        TensorT *y = th::TH<T>::newWithSize(0, nullptr, nullptr);
        THLongTensor *ind = THLongTensor_new();
        checkAgainstPlain<T>(x, y, ind, p, seed++);
        if (!contiguous) {
          Sizes outSizes = sizes(y);
          std::swap(outSizes[nd - 2], outSizes[nd - 1]);
          TensorT *yBase = th::TH<T>::newWithSize(nd, outSizes.data(), nullptr);
          TensorT *yT = transposeOf(yBase, nd - 2, nd - 1);
          THLongTensor *indBase = THLongTensor_newWithSize(nd, outSizes.data(), nullptr);
          THLongTensor *indT = THLongTensor_newTranspose(indBase, nd - 2, nd - 1);
          checkAgainstPlain<T>(x, yT, indT, p, seed++);
          BOOST_CHECK(yT->stride[nd - 2] == 1 && indT->stride[nd - 2] == 1);
          THLongTensor_free(indT);
          THLongTensor_free(indBase);
          th::thFree(yT);
          th::thFree(yBase);
          th::thFree(x);
        }
        THLongTensor_free(ind);
        th::thFree(y);
        th::thFree(base);
      }
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(fast_path_matches_a_plain_loop) {
  struct Case {
    Sizes in;
    Pool p;
  };
  const Case cases[] = {
      {{2, 3, 8, 10}, spatial(2, 2, 2, 2, 0, 0, 1, 1, false)},   // 2x2 stride 2, windows tile the plane
      {{2, 3, 9, 11}, spatial(2, 2, 2, 2, 0, 0, 1, 1, false)},   // odd sizes: last row and column unread
      {{2, 3, 9, 11}, spatial(2, 2, 2, 2, 0, 0, 1, 1, true)},    // ceil mode: clipped last row and column
      {{3, 13, 37}, spatial(3, 3, 2, 2, 1, 1, 1, 1, false)},     // 3x3 stride 2 pad 1, long rows
      {{3, 13, 37}, spatial(3, 3, 2, 2, 1, 1, 1, 1, true)},      // ... ceil mode
      {{2, 2, 7, 9}, spatial(3, 3, 1, 1, 1, 1, 1, 1, false)},    // 3x3 stride 1
      {{2, 2, 7, 9}, spatial(2, 2, 1, 1, 0, 0, 1, 1, true)},     // 2x2 stride 1
      {{2, 2, 11, 12}, spatial(3, 4, 2, 1, 1, 2, 1, 1, false)},  // 3 wide, 4 high
      {{2, 2, 12, 17}, spatial(5, 5, 3, 3, 2, 2, 1, 1, true)},   // other kernels: run-time sizes
      {{2, 6, 5}, spatial(1, 2, 1, 2, 0, 0, 1, 1, false)},       // one column wide
      {{2, 2, 12, 17}, spatial(3, 3, 2, 2, 1, 1, 1, 2, false)},  // dilated along H only: fast path
      {{2, 2, 12, 17}, spatial(3, 3, 2, 2, 1, 1, 2, 1, false)},  // dilated along W: general path
      {{2, 2, 12, 17}, spatial(2, 2, 2, 2, 1, 1, 2, 2, true)},   // dilated both ways
      {{2, 3, 2}, spatial(3, 3, 2, 2, 1, 1, 1, 1, false)},       // no window inside the row
      {{4, 8, 40, 41}, spatial(2, 2, 2, 2, 0, 0, 1, 1, false)},  // many planes: threads
      {{4, 8, 40, 41}, spatial(3, 3, 2, 2, 1, 1, 1, 1, true)},   // ...
      {{2, 2, 5, 6, 7}, volumetric(2, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1, false)},
      {{2, 5, 7, 9}, volumetric(3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, true)},
      {{2, 7, 7, 9}, volumetric(2, 3, 3, 1, 2, 2, 0, 1, 1, 2, 1, 1, false)},  // dilated along T only
      {{2, 7, 7, 9}, volumetric(2, 3, 3, 1, 2, 2, 0, 1, 1, 1, 2, 1, false)},  // dilated along W
  };
  unsigned seed = 900;
  for (const Case &c : cases) {
    checkFastPathCase<float>(c.in, c.p, seed);
    checkFastPathCase<double>(c.in, c.p, seed + 50);
    seed += 100;
  }
}

BOOST_AUTO_TEST_CASE(threaded_backward_checks_indices_before_writing) {
  THFloatTensor *x = thnnt::randomTensor<float>({4, 8, 40, 41}, 990);
  THFloatTensor *y = THFloatTensor_new();
  THLongTensor *ind = THLongTensor_new();
  THNN_FloatSpatialMaxPooling_updateOutput(nullptr, x, y, ind, 2, 2, 2, 2, 0, 0, false);
  THFloatTensor *gi = thnnt::randomTensor<float>({4, 8, 40, 41}, 991);
  for (int64_t badIndex : {(int64_t)40 * 41 + TH_INDEX_BASE, (int64_t)TH_INDEX_BASE - 1}) {
    THLongTensor_set4d(ind, 3, 7, 19, 19, badIndex);  // the last output of the last plane
    checkRaisesUnchanged(
        gi, [&] { THNN_FloatSpatialMaxPooling_updateGradInput(nullptr, x, y, gi, ind, 2, 2, 2, 2, 0, 0, false); },
        true);
  }
  THFloatTensor_free(gi);
  THLongTensor_free(ind);
  THFloatTensor_free(y);
  THFloatTensor_free(x);
}
