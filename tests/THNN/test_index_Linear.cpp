// LookupTable, SparseLinear and IndexLinear, built for TH_INDEX_BASE 0 and 1: ids are written
// 0-based in the tests and stored in the build's base. Forwards against plain loops,
// gradients against loops and central differences, bad ids and shapes.
#define BOOST_TEST_MODULE THNN Linear indexed
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "thnn_test_util.hpp"

using thnnt::maxAbsDiff;
using thnnt::values;
using D = THDoubleTensor;
using Owned = th::Owned<D>;
using OwnedLong = th::Owned<THLongTensor>;

namespace {

const int B = TH_INDEX_BASE;

Owned rnd(const std::vector<int64_t> &size, unsigned seed, double lo = -1, double hi = 1) {
  return th::own(thnnt::randomTensor<double>(size, seed, lo, hi));
}

Owned fromValues(const std::vector<int64_t> &size, const std::vector<double> &v) {
  auto t = th::own(THDoubleTensor_newWithSize((int)size.size(), size.data(), nullptr));
  thnnt::setValues(t.get(), v);
  return t;
}

// A non-contiguous tensor of the given sizes (dimensions 0 and 1 transposed) holding v in
// row-major order.
Owned stridedFromValues(std::vector<int64_t> size, const std::vector<double> &v) {
  std::swap(size[0], size[1]);
  auto t = th::own(THDoubleTensor_newWithSize((int)size.size(), size.data(), nullptr));
  auto view = th::own(THDoubleTensor_newTranspose(t.get(), 0, 1));
  thnnt::setValues(view.get(), v);
  return view;
}

Owned empty() { return th::own(THDoubleTensor_new()); }

// ids written 0-based, stored in the build's base
OwnedLong ids(const std::vector<int64_t> &v, std::vector<int64_t> size = {}) {
  if (size.empty()) size = {(int64_t)v.size()};
  auto t = th::own(THLongTensor_newWithSize((int)size.size(), size.data(), nullptr));
  size_t i = 0;
  th::applyInOrder([&](int64_t &x) { x = v[i++] + B; }, th::ref(t.get()));
  return t;
}

OwnedLong longs(const std::vector<int64_t> &v) {
  auto t = ids(v);
  THLongTensor_add(t.get(), t.get(), -B);
  return t;
}

template <typename TensorT>
std::vector<int64_t> sizes(TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

std::vector<double> minus(const std::vector<double> &a, const std::vector<double> &b) {
  std::vector<double> r(a.size());
  for (size_t i = 0; i < a.size(); i++) r[i] = a[i] - b[i];
  return r;
}

// The call must fail with the given kind of error and leave the tensors as they were.
void checkThrowsUnchanged(const std::function<void()> &call, std::vector<D *> kept,
                          th::ErrorKind kind = th::ErrorKind::Runtime) {
  std::vector<std::vector<double>> before;
  std::vector<std::vector<int64_t>> sizesBefore;
  for (D *t : kept) {
    before.push_back(values(t));
    sizesBefore.push_back(sizes(t));
  }
  bool thrown = false;
  try {
    call();
  } catch (const th::Error &e) {
    thrown = true;
    BOOST_TEST((e.kind() == kind), "error kind of: " << e.what());
  }
  BOOST_TEST(thrown);
  for (size_t i = 0; i < kept.size(); i++) {
    BOOST_TEST(sizes(kept[i]) == sizesBefore[i]);
    BOOST_TEST(values(kept[i]) == before[i]);
  }
}

const double kTol = 1e-6;

}  // namespace

// ---- LookupTable ----

BOOST_AUTO_TEST_CASE(lookup_forward_selects_rows) {
  auto weight = rnd({5, 3}, 1);
  const auto w = values(weight.get());
  const std::vector<int64_t> rows = {0, 4, 2, 2, 1, 4};
  auto input = ids(rows, {2, 3});
  auto out = stridedFromValues({2, 3, 3}, std::vector<double>(18, 0));  // a view the kernel must write through
  auto check = [&](D *o) {
    std::vector<double> expected;
    for (int64_t r : rows)
      for (int j = 0; j < 3; j++) expected.push_back(w[r * 3 + j]);
    BOOST_TEST(values(o) == expected);
  };
  THNN_DoubleLookupTable_updateOutput(nullptr, input.get(), out.get(), weight.get());
  BOOST_TEST(sizes(out.get()) == (std::vector<int64_t>{2, 3, 3}));
  BOOST_TEST(!THDoubleTensor_isContiguous(out.get()));
  check(out.get());

  auto flat = ids(rows);
  auto out1 = empty();
  THNN_DoubleLookupTable_updateOutput(nullptr, flat.get(), out1.get(), weight.get());
  BOOST_TEST(sizes(out1.get()) == (std::vector<int64_t>{6, 3}));
  check(out1.get());

  auto wf = th::own(THFloatTensor_newWithSize2d(5, 3));
  thnnt::setValues(wf.get(), w);
  auto outf = th::own(THFloatTensor_new());
  THNN_FloatLookupTable_updateOutput(nullptr, flat.get(), outf.get(), wf.get());
  std::vector<double> expected;
  for (int64_t r : rows)
    for (int j = 0; j < 3; j++) expected.push_back((float)w[r * 3 + j]);
  BOOST_TEST(values(outf.get()) == expected);
}

namespace {

// gradWeight[id] += scale gradOutput[i] / (count of id when byFreq), except for padding.
std::vector<double> lookupGradRef(const std::vector<int64_t> &rows, D *gradOutput, std::vector<double> gw, int64_t dim,
                                  int64_t paddingRow, bool byFreq, double scale) {
  const auto g = values(gradOutput);
  std::vector<double> count(gw.size() / dim, 0);
  for (int64_t r : rows) count[r]++;
  for (size_t i = 0; i < rows.size(); i++) {
    if (rows[i] == paddingRow) continue;
    for (int64_t j = 0; j < dim; j++) gw[rows[i] * dim + j] += scale * g[i * dim + j] / (byFreq ? count[rows[i]] : 1);
  }
  return gw;
}

}  // namespace

BOOST_AUTO_TEST_CASE(lookup_gradient_repeated_ids_padding_and_frequency) {
  const std::vector<int64_t> rows = {1, 3, 1, 0, 3, 1};
  auto input = ids(rows, {2, 3});
  auto weight = rnd({5, 4}, 2), g = rnd({2, 3, 4}, 3);
  auto count = th::own(THIntTensor_new());

  // no padding (an id outside the table): the gradient of sum(g * weight[input])
  {
    auto gradWeight = rnd({5, 4}, 4);
    const auto gw0 = values(gradWeight.get());
    THNN_DoubleLookupTable_accGradParameters(nullptr, input.get(), g.get(), gradWeight.get(), count.get(), nullptr,
                                             nullptr, false, B - 1, 0.5);
    BOOST_TEST(maxAbsDiff(values(gradWeight.get()), lookupGradRef(rows, g.get(), gw0, 4, -1, false, 0.5)) < 1e-12);
    auto out = empty();
    auto loss = [&] {
      THNN_DoubleLookupTable_updateOutput(nullptr, input.get(), out.get(), weight.get());
      return thnnt::dot(g.get(), out.get());
    };
    std::vector<double> numeric = thnnt::numericalGrad(weight.get(), loss);
    for (auto &x : numeric) x *= 0.5;
    BOOST_TEST(maxAbsDiff(minus(values(gradWeight.get()), gw0), numeric) < kTol);
  }
  // padding id 3 gets nothing
  {
    auto gradWeight = rnd({5, 4}, 5);
    const auto gw0 = values(gradWeight.get());
    THNN_DoubleLookupTable_accGradParameters(nullptr, input.get(), g.get(), gradWeight.get(), count.get(), nullptr,
                                             nullptr, false, 3 + B, 1);
    const auto gw = values(gradWeight.get());
    BOOST_TEST(maxAbsDiff(gw, lookupGradRef(rows, g.get(), gw0, 4, 3, false, 1)) < 1e-12);
    BOOST_TEST(std::vector<double>(gw.begin() + 12, gw.begin() + 16) ==
               std::vector<double>(gw0.begin() + 12, gw0.begin() + 16));
  }
  // scaleGradByFreq: each contribution divided by its id's count, which count receives
  {
    auto gradWeight = rnd({5, 4}, 6);
    const auto gw0 = values(gradWeight.get());
    auto gStrided = stridedFromValues({2, 3, 4}, values(g.get()));
    THNN_DoubleLookupTable_accGradParameters(nullptr, input.get(), gStrided.get(), gradWeight.get(), count.get(),
                                             nullptr, nullptr, true, 0 + B, 2);
    BOOST_TEST(maxAbsDiff(values(gradWeight.get()), lookupGradRef(rows, g.get(), gw0, 4, 0, true, 2)) < 1e-12);
    BOOST_TEST(values(count.get()) == (std::vector<double>{1, 3, 0, 2, 0}));
  }
}

BOOST_AUTO_TEST_CASE(lookup_gradient_large_input_on_threads) {
  std::vector<int64_t> rows;
  for (int i = 0; i < 3000; i++) rows.push_back((i * 7919) % 97);
  auto input = ids(rows);
  auto g = rnd({3000, 16}, 7), gradWeight = rnd({97, 16}, 8);
  const auto gw0 = values(gradWeight.get());
  auto count = th::own(THIntTensor_new());
  THNN_DoubleLookupTable_accGradParameters(nullptr, input.get(), g.get(), gradWeight.get(), count.get(), nullptr,
                                           nullptr, true, 5 + B, 0.25);
  BOOST_TEST(maxAbsDiff(values(gradWeight.get()), lookupGradRef(rows, g.get(), gw0, 16, 5, true, 0.25)) < 1e-12);
}

BOOST_AUTO_TEST_CASE(lookup_renorm_scales_listed_rows_above_max_norm) {
  for (double p : {1.0, 2.0, 3.0}) {
    auto weight = rnd({6, 4}, 9, -2, 2);
    const auto w0 = values(weight.get());
    auto idx = ids({1, 3, 3, 5, 0});
    const double maxNorm = 1.5;
    THNN_DoubleLookupTable_renorm(nullptr, idx.get(), weight.get(), maxNorm, p);
    const auto w = values(weight.get());
    for (int r = 0; r < 6; r++) {
      double norm = 0;
      for (int j = 0; j < 4; j++) norm += std::pow(std::fabs(w0[r * 4 + j]), p);
      norm = std::pow(norm, 1 / p);
      const bool listed = r == 0 || r == 1 || r == 3 || r == 5;
      const double s = listed && norm > maxNorm ? maxNorm / (norm + 1e-7) : 1;
      for (int j = 0; j < 4; j++) BOOST_TEST(std::fabs(w[r * 4 + j] - w0[r * 4 + j] * s) < 1e-12);
    }
    BOOST_TEST(values(idx.get()) == (std::vector<double>{1. + B, 3. + B, 3. + B, 5. + B, 0. + B}));
  }
}

BOOST_AUTO_TEST_CASE(lookup_bad_ids_and_shapes_throw) {
  auto weight = rnd({5, 3}, 10);
  auto out = rnd({2}, 11), gradWeight = rnd({5, 3}, 12), g = rnd({3, 3}, 13);
  auto count = th::own(THIntTensor_new());
  for (int64_t bad : {5, -1}) {
    auto input = ids({0, bad, 2});
    checkThrowsUnchanged([&] { THNN_DoubleLookupTable_updateOutput(nullptr, input.get(), out.get(), weight.get()); },
                         {out.get()}, th::ErrorKind::Index);
    checkThrowsUnchanged(
        [&] {
          THNN_DoubleLookupTable_accGradParameters(nullptr, input.get(), g.get(), gradWeight.get(), count.get(),
                                                   nullptr, nullptr, true, -1, 1);
        },
        {gradWeight.get()}, th::ErrorKind::Index);
    checkThrowsUnchanged([&] { THNN_DoubleLookupTable_renorm(nullptr, input.get(), weight.get(), 0.1, 2); },
                         {weight.get()}, th::ErrorKind::Index);
  }
  auto input = ids({0, 1, 2});
  auto wrongG = rnd({2, 3}, 14), weight1d = rnd({5}, 15);
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleLookupTable_accGradParameters(nullptr, input.get(), wrongG.get(), gradWeight.get(), count.get(),
                                                 nullptr, nullptr, false, -1, 1);
      },
      {gradWeight.get()});
  checkThrowsUnchanged([&] { THNN_DoubleLookupTable_updateOutput(nullptr, input.get(), out.get(), weight1d.get()); },
                       {out.get()});
  checkThrowsUnchanged([&] { THNN_DoubleLookupTable_renorm(nullptr, input.get(), weight.get(), 1, 0); },
                       {weight.get()});
}

// ---- SparseLinear ----

namespace {

struct Entry {
  int64_t sample, feature;
  double value;
};

// Unordered, a repeated (sample, feature) pair and a zero value.
const std::vector<Entry> kEntries = {{2, 1, 0.5},  {0, 4, -1.25}, {1, 0, 2.0}, {0, 1, 0.75},
                                     {2, 5, -0.5}, {0, 4, 0.25},  {1, 3, 0.0}, {2, 0, 1.5}};
const int64_t kBatch = 3, kIn = 6, kOut = 4;

Owned cooInput(const std::vector<Entry> &entries, bool strided = false) {
  std::vector<double> v;
  for (const auto &e : entries) {
    v.push_back(double(e.sample + B));
    v.push_back(double(e.feature + B));
    v.push_back(e.value);
  }
  const std::vector<int64_t> size = {(int64_t)entries.size(), 3};
  return strided ? stridedFromValues(size, v) : fromValues(size, v);
}

// [batch, nnz, 2] with nnz = the largest number of entries of a sample; the others are
// padded with value-0 entries of feature 0.
Owned legacyInput(const std::vector<Entry> &entries) {
  std::vector<std::vector<Entry>> perSample(kBatch);
  for (const auto &e : entries) perSample[e.sample].push_back(e);
  size_t nnz = 0;
  for (const auto &s : perSample) nnz = std::max(nnz, s.size());
  std::vector<double> v;
  for (auto &s : perSample) {
    while (s.size() < nnz) s.push_back({0, 0, 0});
    for (const auto &e : s) {
      v.push_back(double(e.feature + B));
      v.push_back(e.value);
    }
  }
  return fromValues({kBatch, (int64_t)nnz, 2}, v);
}

// The dense input: X[sample][feature] = sum of the entries' values.
std::vector<double> dense(const std::vector<Entry> &entries) {
  std::vector<double> x(kBatch * kIn, 0);
  for (const auto &e : entries) x[e.sample * kIn + e.feature] += e.value;
  return x;
}

std::vector<double> sparseForwardRef(D *weight, D *bias) {
  const auto x = dense(kEntries), w = values(weight), b = values(bias);
  std::vector<double> y(kBatch * kOut);
  for (int64_t s = 0; s < kBatch; s++)
    for (int64_t k = 0; k < kOut; k++) {
      double acc = b[k];
      for (int64_t f = 0; f < kIn; f++) acc += x[s * kIn + f] * w[k * kIn + f];
      y[s * kOut + k] = acc;
    }
  return y;
}

}  // namespace

BOOST_AUTO_TEST_CASE(sparse_forward_matches_dense_loops) {
  auto weight = rnd({kOut, kIn}, 20), bias = rnd({kOut}, 21);
  for (int strided = 0; strided < 2; strided++) {
    auto input = cooInput(kEntries, strided);
    auto out = fromValues({kBatch, kOut}, std::vector<double>(kBatch * kOut, 7));
    THNN_DoubleSparseLinear_updateOutput(nullptr, input.get(), out.get(), weight.get(), bias.get());
    BOOST_TEST(maxAbsDiff(values(out.get()), sparseForwardRef(weight.get(), bias.get())) < 1e-12);
  }
  auto legacy = legacyInput(kEntries);
  auto out = empty();
  THNN_DoubleSparseLinear_legacyUpdateOutput(nullptr, legacy.get(), out.get(), weight.get(), bias.get());
  BOOST_TEST(sizes(out.get()) == (std::vector<int64_t>{kBatch, kOut}));
  BOOST_TEST(maxAbsDiff(values(out.get()), sparseForwardRef(weight.get(), bias.get())) < 1e-12);

  auto inputF = th::own(THFloatTensor_newWithSize2d((int64_t)kEntries.size(), 3));
  thnnt::setValues(inputF.get(), values(cooInput(kEntries).get()));
  auto wf = th::own(THFloatTensor_newWithSize2d(kOut, kIn)), bf = th::own(THFloatTensor_newWithSize1d(kOut));
  thnnt::setValues(wf.get(), values(weight.get()));
  thnnt::setValues(bf.get(), values(bias.get()));
  auto outF = th::own(THFloatTensor_newWithSize2d(kBatch, kOut));
  THNN_FloatSparseLinear_updateOutput(nullptr, inputF.get(), outF.get(), wf.get(), bf.get());
  BOOST_TEST(maxAbsDiff(values(outF.get()), sparseForwardRef(weight.get(), bias.get())) < 1e-5);
}

BOOST_AUTO_TEST_CASE(sparse_gradients_match_numerical) {
  auto weight = rnd({kOut, kIn}, 22), bias = rnd({kOut}, 23), g = rnd({kBatch, kOut}, 24);
  auto input = cooInput(kEntries);
  auto out = th::own(THDoubleTensor_newWithSize2d(kBatch, kOut));
  auto loss = [&] {
    THNN_DoubleSparseLinear_updateOutput(nullptr, input.get(), out.get(), weight.get(), bias.get());
    return thnnt::dot(g.get(), out.get());
  };
  const auto numW = thnnt::numericalGrad(weight.get(), loss), numB = thnnt::numericalGrad(bias.get(), loss);
  const double scale = 0.5, decay = 0.1;
  for (int legacy = 0; legacy < 2; legacy++) {
    auto gradWeight = rnd({kOut, kIn}, 25), gradBias = rnd({kOut}, 26);
    const auto gw0 = values(gradWeight.get()), gb0 = values(gradBias.get()), w = values(weight.get());
    if (legacy) {
      auto legacyIn = legacyInput(kEntries);
      THNN_DoubleSparseLinear_legacyAccGradParameters(nullptr, legacyIn.get(), g.get(), gradWeight.get(),
                                                      gradBias.get(), weight.get(), bias.get(), decay, scale);
    } else {
      THNN_DoubleSparseLinear_accGradParameters(nullptr, input.get(), g.get(), gradWeight.get(), gradBias.get(),
                                                weight.get(), bias.get(), decay, scale);
    }
    std::vector<double> expectedW(gw0.size()), expectedB(gb0.size());
    for (size_t i = 0; i < gw0.size(); i++) expectedW[i] = scale * numW[i] + decay * w[i];
    for (size_t i = 0; i < gb0.size(); i++) expectedB[i] = scale * numB[i];
    BOOST_TEST(maxAbsDiff(minus(values(gradWeight.get()), gw0), expectedW) < kTol);
    BOOST_TEST(maxAbsDiff(minus(values(gradBias.get()), gb0), expectedB) < kTol);
  }
}

BOOST_AUTO_TEST_CASE(sparse_update_and_zero_touch_present_features_only) {
  // features with a non-zero value: 0, 1, 4, 5 (feature 3 only has a zero, 2 is absent)
  const std::vector<bool> present = {true, true, false, false, true, true};
  for (int legacy = 0; legacy < 2; legacy++) {
    auto lastInput = legacy ? legacyInput(kEntries) : cooInput(kEntries);
    auto weight = rnd({kOut, kIn}, 30), bias = rnd({kOut}, 31), gradWeight = rnd({kOut, kIn}, 32),
         gradBias = rnd({kOut}, 33);
    const auto w0 = values(weight.get()), b0 = values(bias.get()), gw = values(gradWeight.get()),
               gb = values(gradBias.get());
    const double lr = 0.1;
    if (legacy)
      THNN_DoubleSparseLinear_legacyUpdateParameters(nullptr, weight.get(), bias.get(), gradWeight.get(),
                                                     gradBias.get(), lastInput.get(), lr);
    else
      THNN_DoubleSparseLinear_updateParameters(nullptr, weight.get(), bias.get(), gradWeight.get(), gradBias.get(),
                                               lastInput.get(), lr);
    const auto w = values(weight.get()), b = values(bias.get());
    for (int64_t k = 0; k < kOut; k++) {
      BOOST_TEST(std::fabs(b[k] - (b0[k] - lr * gb[k])) < 1e-12);
      for (int64_t f = 0; f < kIn; f++) {
        const int64_t i = k * kIn + f;
        BOOST_TEST(std::fabs(w[i] - (present[f] ? w0[i] - lr * gw[i] : w0[i])) < 1e-12);
      }
    }
    if (legacy)
      THNN_DoubleSparseLinear_legacyZeroGradParameters(nullptr, gradWeight.get(), gradBias.get(), lastInput.get());
    else
      THNN_DoubleSparseLinear_zeroGradParameters(nullptr, gradWeight.get(), gradBias.get(), lastInput.get());
    const auto gwAfter = values(gradWeight.get());
    BOOST_TEST(values(gradBias.get()) == std::vector<double>(kOut, 0));
    for (int64_t k = 0; k < kOut; k++)
      for (int64_t f = 0; f < kIn; f++) BOOST_TEST(gwAfter[k * kIn + f] == (present[f] ? 0 : gw[k * kIn + f]));
  }
}

BOOST_AUTO_TEST_CASE(sparse_bad_ids_and_shapes_throw) {
  auto weight = rnd({kOut, kIn}, 40), bias = rnd({kOut}, 41);
  auto out = rnd({kBatch, kOut}, 42), gradWeight = rnd({kOut, kIn}, 43), gradBias = rnd({kOut}, 44),
       g = rnd({kBatch, kOut}, 45);
  const std::vector<std::vector<Entry>> badEntries = {
      {{0, 1, 1.0}, {1, kIn, 1.0}},  // feature past the end
      {{0, -1, 1.0}},                // feature before the first
      {{kBatch, 1, 1.0}},            // sample past the batch
  };
  for (const auto &entries : badEntries) {
    auto input = cooInput(entries);
    checkThrowsUnchanged(
        [&] { THNN_DoubleSparseLinear_updateOutput(nullptr, input.get(), out.get(), weight.get(), bias.get()); },
        {out.get()}, th::ErrorKind::Index);
    checkThrowsUnchanged(
        [&] {
          THNN_DoubleSparseLinear_accGradParameters(nullptr, input.get(), g.get(), gradWeight.get(), gradBias.get(),
                                                    weight.get(), bias.get(), 0, 1);
        },
        {gradWeight.get(), gradBias.get()}, th::ErrorKind::Index);
  }
  auto nonInteger = fromValues({1, 3}, {0.5 + B, 1. + B, 1.0});
  checkThrowsUnchanged(
      [&] { THNN_DoubleSparseLinear_updateOutput(nullptr, nonInteger.get(), out.get(), weight.get(), bias.get()); },
      {out.get()}, th::ErrorKind::Index);
  auto legacyBad = fromValues({1, 1, 2}, {double(kIn + B), 1.0});
  checkThrowsUnchanged(
      [&] {
        THNN_DoubleSparseLinear_legacyUpdateParameters(nullptr, weight.get(), bias.get(), gradWeight.get(),
                                                       gradBias.get(), legacyBad.get(), 0.1);
      },
      {weight.get(), bias.get()}, th::ErrorKind::Index);
  auto input = cooInput(kEntries), wrongShape = rnd({4, 2}, 46), wrongBias = rnd({kOut + 1}, 47),
       wrongOut = rnd({kBatch, kOut + 1}, 48);
  checkThrowsUnchanged(
      [&] { THNN_DoubleSparseLinear_updateOutput(nullptr, wrongShape.get(), out.get(), weight.get(), bias.get()); },
      {out.get()});
  checkThrowsUnchanged(
      [&] { THNN_DoubleSparseLinear_updateOutput(nullptr, input.get(), out.get(), weight.get(), wrongBias.get()); },
      {out.get()});
  checkThrowsUnchanged(
      [&] { THNN_DoubleSparseLinear_updateOutput(nullptr, input.get(), wrongOut.get(), weight.get(), bias.get()); },
      {wrongOut.get()});
}

// ---- IndexLinear ----

namespace {

// A batch of three samples with 2, 0 and 3 entries; row 1 is used twice.
const std::vector<int64_t> kRows = {1, 5, 6, 1, 0};
const std::vector<int64_t> kSizes = {2, 0, 3};
const int64_t kInputSize = 7;

struct IndexBatchT {
  OwnedLong keys, sizes, cumSumSizes;
  Owned values;
};

// keys name rows kRows through keysOffset
IndexBatchT indexBatch(int64_t keysOffset, unsigned seed, bool bigValues = false) {
  std::vector<int64_t> keys, cum;
  for (int64_t r : kRows) keys.push_back(r - keysOffset);
  int64_t c = 0;
  for (int64_t s : kSizes) cum.push_back(c += s);
  return {ids(keys), longs(kSizes), longs(cum),
          rnd({(int64_t)kRows.size()}, seed, bigValues ? -3 : -1, bigValues ? 3 : 1)};
}

int64_t sampleOf(int64_t i) {
  int64_t j = 0, end = kSizes[0];
  while (i >= end) end += kSizes[++j];
  return j;
}

// out[j] = bias + sum of x[i] weight[row_i][first:] over sample j's entries
std::vector<double> indexForwardRef(const std::vector<double> &x, D *weight, D *bias, int64_t first) {
  const auto w = values(weight), b = values(bias);
  const int64_t out = (int64_t)b.size(), width = weight->size[1];
  std::vector<double> y;
  for (size_t j = 0; j < kSizes.size(); j++)
    for (int64_t k = 0; k < out; k++) y.push_back(b[k]);
  for (size_t i = 0; i < kRows.size(); i++)
    for (int64_t k = 0; k < out; k++) y[sampleOf(i) * out + k] += x[i] * w[kRows[i] * width + first + k];
  return y;
}

}  // namespace

BOOST_AUTO_TEST_CASE(index_forward_matches_loops) {
  for (int64_t outDim : {1, 3})
    for (int64_t keysOffset : {0, 2}) {
      auto batch = indexBatch(keysOffset, 50);
      auto weight = rnd({kInputSize, outDim}, 51), bias = rnd({outDim}, 52);
      auto out = empty(), normalized = empty();
      THNN_DoubleIndexLinear_updateOutput(nullptr, batch.keys.get(), keysOffset, batch.values.get(), batch.sizes.get(),
                                          batch.cumSumSizes.get(), out.get(), weight.get(), bias.get(),
                                          normalized.get(), 1);
      BOOST_TEST(sizes(out.get()) == (std::vector<int64_t>{3, outDim}));
      BOOST_TEST(maxAbsDiff(values(out.get()),
                            indexForwardRef(values(batch.values.get()), weight.get(), bias.get(), 0)) < 1e-12);
    }
  // values every second element of a storage; Float
  auto batch = indexBatch(0, 53);
  const auto v = values(batch.values.get());
  auto storage = rnd({2 * (int64_t)v.size()}, 54);
  auto strided = th::own(THDoubleTensor_newWithStorage1d(storage->storage, 0, (int64_t)v.size(), 2));
  thnnt::setValues(strided.get(), v);
  auto weight = rnd({kInputSize, 3}, 55), bias = rnd({3}, 56);
  auto out = empty(), normalized = empty();
  THNN_DoubleIndexLinear_updateOutput(nullptr, batch.keys.get(), 0, strided.get(), batch.sizes.get(),
                                      batch.cumSumSizes.get(), out.get(), weight.get(), bias.get(), normalized.get(),
                                      1);
  BOOST_TEST(maxAbsDiff(values(out.get()), indexForwardRef(v, weight.get(), bias.get(), 0)) < 1e-12);

  auto vf = th::own(THFloatTensor_newWithSize1d((int64_t)v.size()));
  auto wf = th::own(THFloatTensor_newWithSize2d(kInputSize, 3)), bf = th::own(THFloatTensor_newWithSize1d(3));
  thnnt::setValues(vf.get(), v);
  thnnt::setValues(wf.get(), values(weight.get()));
  thnnt::setValues(bf.get(), values(bias.get()));
  auto outf = th::own(THFloatTensor_new()), nf = th::own(THFloatTensor_new());
  THNN_FloatIndexLinear_updateOutput(nullptr, batch.keys.get(), 0, vf.get(), batch.sizes.get(), batch.cumSumSizes.get(),
                                     outf.get(), wf.get(), bf.get(), nf.get(), 1);
  BOOST_TEST(maxAbsDiff(values(outf.get()), indexForwardRef(v, weight.get(), bias.get(), 0)) < 1e-5);
}

BOOST_AUTO_TEST_CASE(index_gradients_updates_and_accupdate) {
  for (int64_t outDim : {1, 3}) {
    auto batch = indexBatch(1, 53);
    auto weight = rnd({kInputSize, outDim}, 54), bias = rnd({outDim}, 55), g = rnd({3, outDim}, 56);
    auto out = empty(), normalized = empty();
    auto loss = [&] {
      THNN_DoubleIndexLinear_updateOutput(nullptr, batch.keys.get(), 1, batch.values.get(), batch.sizes.get(),
                                          batch.cumSumSizes.get(), out.get(), weight.get(), bias.get(),
                                          normalized.get(), 1);
      return thnnt::dot(g.get(), out.get());
    };
    const auto numW = thnnt::numericalGrad(weight.get(), loss), numB = thnnt::numericalGrad(bias.get(), loss);

    const double scale = 0.5;
    auto gradWeight = empty(), gradBias = rnd({outDim}, 57), buffer = empty();
    const auto gb0 = values(gradBias.get());
    THNN_DoubleIndexLinear_accGradParameters(nullptr, batch.keys.get(), 1, batch.values.get(), batch.sizes.get(),
                                             batch.cumSumSizes.get(), g.get(), gradWeight.get(), gradBias.get(),
                                             weight.get(), bias.get(), buffer.get(), 0, scale);
    BOOST_TEST(sizes(gradWeight.get()) == (std::vector<int64_t>{(int64_t)kRows.size(), outDim}));
    // the per-entry rows, summed into their weight rows, are scale times the gradient
    const auto gw = values(gradWeight.get());
    std::vector<double> summed(kInputSize * outDim, 0);
    for (size_t i = 0; i < kRows.size(); i++)
      for (int64_t k = 0; k < outDim; k++) summed[kRows[i] * outDim + k] += gw[i * outDim + k];
    for (auto &x : summed) x /= scale;
    BOOST_TEST(maxAbsDiff(summed, numW) < kTol);
    std::vector<double> db = minus(values(gradBias.get()), gb0);
    for (auto &x : db) x /= scale;
    BOOST_TEST(maxAbsDiff(db, numB) < kTol);

    // updateParameters: bias -= lr gradBias; rows in turn: w = w - decay w - lr grad
    const double lr = 0.1, decay = 0.01;
    auto running = ids({kRows[0] - 1, kRows[1] - 1, kRows[2] - 1, kRows[3] - 1, kRows[4] - 1});
    std::vector<double> w = values(weight.get()), b = values(bias.get());
    const auto gbv = values(gradBias.get());
    for (int64_t k = 0; k < outDim; k++) b[k] -= lr * gbv[k];
    for (size_t i = 0; i < kRows.size(); i++)
      for (int64_t k = 0; k < outDim; k++) {
        double &x = w[kRows[i] * outDim + k];
        x -= decay * x + lr * gw[i * outDim + k];
      }
    auto weight2 = fromValues({kInputSize, outDim}, values(weight.get()));
    auto bias2 = fromValues({outDim}, values(bias.get()));
    THNN_DoubleIndexLinear_updateParameters(nullptr, gradWeight.get(), gradBias.get(), weight.get(), bias.get(),
                                            running.get(), batch.cumSumSizes.get(), 1, decay, lr);
    BOOST_TEST(maxAbsDiff(values(weight.get()), w) < 1e-12);
    BOOST_TEST(maxAbsDiff(values(bias.get()), b) < 1e-12);

    // accUpdateGradParameters = accGradParameters then updateParameters with rate 1 and a
    // zero gradBias
    auto gradWeight3 = empty(), gradBias3 = fromValues({outDim}, std::vector<double>(outDim, 0));
    auto weight3 = fromValues({kInputSize, outDim}, values(weight2.get()));
    auto bias3 = fromValues({outDim}, values(bias2.get()));
    THNN_DoubleIndexLinear_accGradParameters(nullptr, batch.keys.get(), 1, batch.values.get(), batch.sizes.get(),
                                             batch.cumSumSizes.get(), g.get(), gradWeight3.get(), gradBias3.get(),
                                             weight3.get(), bias3.get(), buffer.get(), 0, scale);
    THNN_DoubleIndexLinear_updateParameters(nullptr, gradWeight3.get(), gradBias3.get(), weight3.get(), bias3.get(),
                                            running.get(), batch.cumSumSizes.get(), 1, decay, 1);
    THNN_DoubleIndexLinear_accUpdateGradParameters(nullptr, batch.keys.get(), 1, batch.values.get(), batch.sizes.get(),
                                                   batch.cumSumSizes.get(), g.get(), weight2.get(), bias2.get(), decay,
                                                   scale);
    BOOST_TEST(maxAbsDiff(values(weight2.get()), values(weight3.get())) < 1e-12);
    BOOST_TEST(maxAbsDiff(values(bias2.get()), values(bias3.get())) < 1e-12);
  }
}

namespace {

// The normalised values of a training forward, entry by entry, and the weight it leaves.
std::vector<double> normaliseRef(const std::vector<double> &v, std::vector<double> &w, int64_t width, bool train) {
  std::vector<double> x;
  for (size_t i = 0; i < v.size(); i++) {
    double *row = &w[kRows[i] * width];
    const double a = std::fabs(v[i]);
    if (train) {
      if (a > row[0]) {
        row[0] = a;
        row[1] = 1 / a;
      }
      row[2] = 1;
    }
    x.push_back((a > row[0] ? (v[i] > 0 ? 1.0 : -1.0) : v[i] * row[1]) + row[3]);
  }
  return x;
}

// A normalising weight [inputSize, 4 + outDim]: no maximum seen yet, scale 0, random shifts.
Owned normalisingWeight(int64_t outDim, unsigned seed) {
  auto w = rnd({kInputSize, 4 + outDim}, seed);
  for (int64_t r = 0; r < kInputSize; r++)
    for (int c = 0; c < 3; c++) THDoubleTensor_set2d(w.get(), r, c, 0);
  return w;
}

}  // namespace

BOOST_AUTO_TEST_CASE(index_normalised_forward_train_and_eval) {
  for (int64_t outDim : {1, 3}) {
    auto batch = indexBatch(0, 60, true);
    auto weight = normalisingWeight(outDim, 61), bias = rnd({outDim}, 62);
    std::vector<double> w = values(weight.get());
    const auto x = normaliseRef(values(batch.values.get()), w, 4 + outDim, true);
    auto out = empty(), normalized = empty();
    THNN_DoubleIndexLinear_updateOutput(nullptr, batch.keys.get(), 0, batch.values.get(), batch.sizes.get(),
                                        batch.cumSumSizes.get(), out.get(), weight.get(), bias.get(), normalized.get(),
                                        1);
    BOOST_TEST(maxAbsDiff(values(weight.get()), w) < 1e-12);
    BOOST_TEST(maxAbsDiff(values(normalized.get()), x) < 1e-12);
    BOOST_TEST(maxAbsDiff(values(out.get()), indexForwardRef(x, weight.get(), bias.get(), 4)) < 1e-12);

    // evaluation: the statistics stay, values beyond the maximum are clamped to their sign
    auto bigger = indexBatch(0, 63, true);
    THDoubleTensor_mul(bigger.values.get(), bigger.values.get(), 2);
    const auto xEval = normaliseRef(values(bigger.values.get()), w, 4 + outDim, false);
    THNN_DoubleIndexLinear_updateOutput(nullptr, bigger.keys.get(), 0, bigger.values.get(), bigger.sizes.get(),
                                        bigger.cumSumSizes.get(), out.get(), weight.get(), bias.get(), normalized.get(),
                                        0);
    BOOST_TEST(values(weight.get()) == w);
    BOOST_TEST(maxAbsDiff(values(out.get()), indexForwardRef(xEval, weight.get(), bias.get(), 4)) < 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(index_normalised_gradients_and_updates) {
  for (int64_t outDim : {1, 3}) {
    const int64_t width = 4 + outDim;
    auto batch = indexBatch(0, 70, true);
    auto weight = normalisingWeight(outDim, 71), bias = rnd({outDim}, 72), g = rnd({3, outDim}, 73);
    auto out = empty(), normalized = empty();
    THNN_DoubleIndexLinear_updateOutput(nullptr, batch.keys.get(), 0, batch.values.get(), batch.sizes.get(),
                                        batch.cumSumSizes.get(), out.get(), weight.get(), bias.get(), normalized.get(),
                                        1);
    // with the statistics fixed, the gradient of an evaluation forward w.r.t. the shifts
    // (column 3) and the weights proper (columns 4..)
    auto loss = [&] {
      THNN_DoubleIndexLinear_updateOutput(nullptr, batch.keys.get(), 0, batch.values.get(), batch.sizes.get(),
                                          batch.cumSumSizes.get(), out.get(), weight.get(), bias.get(),
                                          normalized.get(), 0);
      return thnnt::dot(g.get(), out.get());
    };
    const auto num = thnnt::numericalGrad(weight.get(), loss);
    loss();  // the normalised values of the unperturbed weight

    const double scale = 2;
    auto gradWeight = empty(), gradBias = fromValues({outDim}, std::vector<double>(outDim, 0)), buffer = empty();
    THNN_DoubleIndexLinear_accGradParameters(nullptr, batch.keys.get(), 0, normalized.get(), batch.sizes.get(),
                                             batch.cumSumSizes.get(), g.get(), gradWeight.get(), gradBias.get(),
                                             weight.get(), bias.get(), buffer.get(), 0, scale);
    BOOST_TEST(sizes(gradWeight.get()) == (std::vector<int64_t>{(int64_t)kRows.size(), 2 * outDim}));
    const auto gw = values(gradWeight.get()), w = values(weight.get());
    std::vector<double> analytic(kInputSize * width, 0), numeric(kInputSize * width, 0);
    for (size_t i = 0; i < kRows.size(); i++) {
      const int64_t r = kRows[i];
      for (int64_t k = 0; k < outDim; k++) {
        analytic[r * width + 3] += gw[i * 2 * outDim + k] * w[r * width + 4 + k] / scale;
        analytic[r * width + 4 + k] += gw[i * 2 * outDim + outDim + k] / scale;
      }
    }
    for (int64_t r = 0; r < kInputSize; r++)
      for (int64_t c = 3; c < width; c++) numeric[r * width + c] = num[r * width + c];
    BOOST_TEST(maxAbsDiff(analytic, numeric) < kTol);

    // updateParameters, rows in turn: rate and decay scaled by column 2; the shift moves by
    // -rate (gradient of the shift . weights) before the weights move
    const double lr = 0.1, decay = 0.01;
    std::vector<double> expected = w;
    for (size_t i = 0; i < kRows.size(); i++) {
      double *row = &expected[kRows[i] * width];
      const double rate = lr * row[2], d = decay * row[2];
      double dot = 0;
      for (int64_t k = 0; k < outDim; k++) dot += gw[i * 2 * outDim + k] * row[4 + k];
      row[3] -= rate * dot;
      for (int64_t k = 0; k < outDim; k++) row[4 + k] -= d * row[4 + k] + rate * gw[i * 2 * outDim + outDim + k];
    }
    auto weight2 = fromValues({kInputSize, width}, w);
    auto bias2 = fromValues({outDim}, values(bias.get()));
    THNN_DoubleIndexLinear_updateParameters(nullptr, gradWeight.get(), gradBias.get(), weight.get(), bias.get(),
                                            batch.keys.get(), batch.cumSumSizes.get(), 0, decay, lr);
    BOOST_TEST(maxAbsDiff(values(weight.get()), expected) < 1e-12);

    // accUpdateGradParameters = accGradParameters then updateParameters at rate 1
    auto expected2 = fromValues({kInputSize, width}, w);
    auto expectedBias2 = fromValues({outDim}, values(bias2.get()));
    auto gradWeight3 = empty(), gradBias3 = fromValues({outDim}, std::vector<double>(outDim, 0));
    THNN_DoubleIndexLinear_accGradParameters(nullptr, batch.keys.get(), 0, normalized.get(), batch.sizes.get(),
                                             batch.cumSumSizes.get(), g.get(), gradWeight3.get(), gradBias3.get(),
                                             expected2.get(), expectedBias2.get(), buffer.get(), 0, scale);
    THNN_DoubleIndexLinear_updateParameters(nullptr, gradWeight3.get(), gradBias3.get(), expected2.get(),
                                            expectedBias2.get(), batch.keys.get(), batch.cumSumSizes.get(), 0, decay,
                                            1);
    THNN_DoubleIndexLinear_accUpdateGradParameters(nullptr, batch.keys.get(), 0, normalized.get(), batch.sizes.get(),
                                                   batch.cumSumSizes.get(), g.get(), weight2.get(), bias2.get(), decay,
                                                   scale);
    BOOST_TEST(maxAbsDiff(values(weight2.get()), values(expected2.get())) < 1e-12);
    BOOST_TEST(maxAbsDiff(values(bias2.get()), values(expectedBias2.get())) < 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(index_bad_keys_and_shapes_throw) {
  auto weight = rnd({kInputSize, 3}, 80), bias = rnd({3}, 81);
  auto out = rnd({2}, 82), normalized = empty();
  auto call = [&](IndexBatchT &b, int64_t keysOffset, D *w) {
    THNN_DoubleIndexLinear_updateOutput(nullptr, b.keys.get(), keysOffset, b.values.get(), b.sizes.get(),
                                        b.cumSumSizes.get(), out.get(), w, bias.get(), normalized.get(), 1);
  };
  {
    auto b = indexBatch(0, 83);
    checkThrowsUnchanged([&] { call(b, 1, weight.get()); }, {out.get(), weight.get()}, th::ErrorKind::Index);
    checkThrowsUnchanged([&] { call(b, -2, weight.get()); }, {out.get(), weight.get()}, th::ErrorKind::Index);
    auto wrongWidth = rnd({kInputSize, 5}, 84);
    checkThrowsUnchanged([&] { call(b, 0, wrongWidth.get()); }, {out.get(), wrongWidth.get()});
  }
  {
    auto b = indexBatch(0, 85);
    b.sizes = longs({2, 0, 2});
    checkThrowsUnchanged([&] { call(b, 0, weight.get()); }, {out.get()});
  }
  {
    auto b = indexBatch(0, 86);
    b.cumSumSizes = longs({2, 2, 4});
    checkThrowsUnchanged([&] { call(b, 0, weight.get()); }, {out.get()});
  }
  {
    auto b = indexBatch(0, 87);
    b.values = rnd({4}, 88);
    checkThrowsUnchanged([&] { call(b, 0, weight.get()); }, {out.get()});
  }
  {
    auto b = indexBatch(0, 89);
    auto g = rnd({2, 3}, 90), gradWeight = rnd({1}, 91), gradBias = rnd({3}, 92);
    checkThrowsUnchanged(
        [&] {
          THNN_DoubleIndexLinear_accGradParameters(nullptr, b.keys.get(), 0, b.values.get(), b.sizes.get(),
                                                   b.cumSumSizes.get(), g.get(), gradWeight.get(), gradBias.get(),
                                                   weight.get(), bias.get(), nullptr, 0, 1);
        },
        {gradWeight.get(), gradBias.get()});
    auto running = ids({0, kInputSize});
    auto gw = rnd({2, 3}, 93);
    checkThrowsUnchanged(
        [&] {
          THNN_DoubleIndexLinear_updateParameters(nullptr, gw.get(), gradBias.get(), weight.get(), bias.get(),
                                                  running.get(), b.cumSumSizes.get(), 0, 0, 0.1);
        },
        {weight.get(), bias.get()}, th::ErrorKind::Index);
  }
}
