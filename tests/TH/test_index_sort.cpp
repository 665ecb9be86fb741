// max/min with indices, sort, topk, kthvalue, median, mode and medianall, checked against
// references computed here with plain loops and std::stable_sort on the values read back
// from the input. Built for TH_INDEX_BASE 0 and 1: returned indices are compared after
// subtracting TH_INDEX_BASE.
#define BOOST_TEST_MODULE TH sort and order statistics
#include <algorithm>
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>

#include "th_test_util.hpp"

namespace {

// The C API of one element type (TH's type table), so that one test body serves every type.
template <typename T>
using Ops = th::TH<T>;

using AllTypes = boost::mpl::list<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;

template <typename T>
using TensorOf = typename Ops<T>::Tensor;

// Plain readers: strides walked by hand, in row-major order.
template <typename TensorT>
std::vector<int64_t> sizes(TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

template <typename TensorT>
std::vector<double> flat(TensorT *t) {
  const int nd = t->nDimension;
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= t->size[d];
  std::vector<double> out;
  std::vector<int64_t> index(nd, 0);
  for (int64_t e = 0; e < n; e++) {
    ptrdiff_t offset = t->storageOffset;
    for (int d = 0; d < nd; d++) offset += index[d] * t->stride[d];
    out.push_back((double)t->storage->data[offset]);
    for (int d = nd - 1; d >= 0 && ++index[d] == t->size[d]; d--) index[d] = 0;
  }
  return out;
}

// Row-major positions of the elements of every line along dim; lines in row-major order
// of the other dimensions. A 0-dim shape is one line of one element.
std::vector<std::vector<int64_t>> linesOf(const std::vector<int64_t> &size, int dim) {
  if (size.empty()) return {{0}};
  const int nd = (int)size.size();
  std::vector<int64_t> stride(nd, 1);
  for (int d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * size[d + 1];
  std::vector<int64_t> outer = size;  // the other dimensions' positions
  outer[dim] = 1;
  int64_t count = 1;
  for (auto s : outer) count *= s;
  std::vector<std::vector<int64_t>> lines;
  std::vector<int64_t> index(nd, 0);
  for (int64_t l = 0; l < count; l++) {
    int64_t start = 0;
    for (int d = 0; d < nd; d++) start += index[d] * stride[d];
    std::vector<int64_t> line;
    for (int64_t j = 0; j < size[dim]; j++) line.push_back(start + j * stride[dim]);
    lines.push_back(line);
    for (int d = nd - 1; d >= 0 && ++index[d] == outer[d]; d--) index[d] = 0;
  }
  return lines;
}

std::vector<double> gather(const std::vector<double> &v, const std::vector<int64_t> &at) {
  std::vector<double> out;
  for (auto i : at) out.push_back(v[i]);
  return out;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
bool sameAll(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!same(a[i], b[i])) return false;
  return true;
}

// The reference order: NaN above every number.
bool less(double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; }

using Pick = std::pair<double, int64_t>;  // a value and its index from 0

std::vector<int64_t> stableOrder(const std::vector<double> &v, bool descending) {
  std::vector<int64_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t i, int64_t j) { return descending ? less(v[j], v[i]) : less(v[i], v[j]); });
  return order;
}

Pick refExtreme(const std::vector<double> &v, bool isMax) {
  for (size_t i = 0; i < v.size(); i++)
    if (std::isnan(v[i])) return {v[i], i};
  size_t best = 0;
  for (size_t i = 1; i < v.size(); i++)
    if (isMax ? v[i] > v[best] : v[i] < v[best]) best = i;
  return {v[best], best};
}

Pick refKth(const std::vector<double> &v, int64_t k) {
  const int64_t i = stableOrder(v, false)[k - 1];
  return {v[i], i};
}

Pick refMedian(const std::vector<double> &v) {
  for (size_t i = 0; i < v.size(); i++)
    if (std::isnan(v[i])) return {v[i], i};
  return refKth(v, ((int64_t)v.size() + 1) / 2);
}

// Counts by brute force; the smallest of the most frequent values, its last occurrence.
Pick refMode(const std::vector<double> &v) {
  size_t best = 0, bestCount = 0;
  for (size_t i = 0; i < v.size(); i++) {
    size_t count = 0;
    for (size_t j = 0; j < v.size(); j++) count += same(v[i], v[j]);
    if (count > bestCount || (count == bestCount && less(v[i], v[best]))) {
      best = i;
      bestCount = count;
    }
  }
  size_t last = 0;
  for (size_t j = 0; j < v.size(); j++)
    if (same(v[j], v[best])) last = j;
  return {v[best], last};
}

std::string show(const std::vector<double> &v) {
  std::ostringstream s;
  for (auto x : v) s << x << ' ';
  return s.str();
}

// Small integers (halves for floats) so that lines hold duplicates; NaNs now and then.
template <typename T>
std::vector<double> sample(size_t n, unsigned seed, bool nans) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(0, 8);
  std::vector<double> v(n);
  for (auto &x : v) {
    x = std::is_signed_v<T> ? dist(gen) - 4 : dist(gen);
    if (std::is_floating_point_v<T>) {
      x /= 2;
      if (nans && gen() % 8 == 0) x = NAN;
    }
  }
  return v;
}

template <typename T>
using Owned = th::Owned<TensorOf<T>>;

// The inputs every op is checked on: contiguous, transposed, narrowed and expanded (0
// stride) views, 1-dim, 0-dim.
template <typename T>
std::vector<std::pair<std::string, Owned<T>>> inputs(unsigned seed, bool nans) {
  using O = Ops<T>;
  std::vector<std::pair<std::string, Owned<T>>> list;
  list.emplace_back("contiguous [3,4,5]", th::own(tht::fromValues<T>({3, 4, 5}, sample<T>(60, seed, nans))));
  auto base = th::own(tht::fromValues<T>({5, 4, 3}, sample<T>(60, seed + 1, nans)));
  list.emplace_back("transposed [3,4,5]", th::own(O::newTranspose(base.get(), 0, 2)));
  base = th::own(tht::fromValues<T>({3, 7, 5}, sample<T>(105, seed + 2, nans)));
  list.emplace_back("narrowed [3,4,5]", th::own(O::newNarrow(base.get(), 1, 2, 4)));
  base = th::own(tht::fromValues<T>({3, 1, 5}, sample<T>(15, seed + 3, nans)));
  const int64_t expanded[3] = {3, 4, 5};
  list.emplace_back("expanded [3,4,5]", th::own(O::newExpand(base.get(), 3, expanded)));
  base = th::own(tht::fromValues<T>({7, 6}, sample<T>(42, seed + 4, nans)));
  list.emplace_back("transposed [6,7]", th::own(O::newTranspose(base.get(), 0, 1)));
  list.emplace_back("1-dim [9]", th::own(tht::fromValues<T>({9}, sample<T>(9, seed + 5, nans))));
  list.emplace_back("1-dim [1]", th::own(tht::fromValues<T>({1}, sample<T>(1, seed + 6, nans))));
  list.emplace_back("0-dim", th::own(tht::fromValues<T>({}, sample<T>(1, seed + 7, nans))));
  return list;
}

// Runs run(values, indices, t, dim, keepdim) for every dim (or onlyDim) whose lines are
// at least minLength long and both keepdim, and checks shapes, values and indices against
// ref(line values) and that t is unchanged.
template <typename T, typename Run, typename Ref>
void checkReduction(const std::string &what, TensorOf<T> *t, int64_t minLength, Run run, Ref ref, int onlyDim = -1) {
  const std::vector<double> in = flat(t);
  const std::vector<int64_t> size = sizes(t);
  const int nd = (int)size.size();
  for (int dim = 0; dim < std::max(nd, 1); dim++) {
    if ((nd ? size[dim] : 1) < minLength || (onlyDim >= 0 && dim != onlyDim)) continue;
    for (int keepdim = 0; keepdim < 2; keepdim++) {
      BOOST_TEST_CONTEXT(what << ", dim " << dim << ", keepdim " << keepdim) {
        auto values = th::own(Ops<T>::newEmpty());
        auto indices = th::own(THLongTensor_new());
        run(values.get(), indices.get(), t, dim, keepdim);
        std::vector<int64_t> shape = size;
        if (nd && keepdim) shape[dim] = 1;
        if (nd && !keepdim) shape.erase(shape.begin() + dim);
        BOOST_TEST(sizes(values.get()) == shape);
        BOOST_TEST(sizes(indices.get()) == shape);
        const auto lines = linesOf(size, dim);
        std::vector<double> want, wantIndex;
        for (auto &line : lines) {
          const Pick p = ref(gather(in, line));
          want.push_back(p.first);
          wantIndex.push_back((double)p.second + TH_INDEX_BASE);
        }
        const auto got = flat(values.get()), gotIndex = flat(indices.get());
        BOOST_TEST(sameAll(got, want), "values " << show(got) << "!= " << show(want));
        BOOST_TEST(sameAll(gotIndex, wantIndex), "indices " << show(gotIndex) << "!= " << show(wantIndex));
        BOOST_TEST(sameAll(flat(t), in));
      }
    }
  }
}

// Runs run(rt, ri, t, dim) for every dim with lines of at least k elements (k < 0: all
// of them) and checks that line j of the result holds the elements at positions
// ref(line values) of line j of t: in that order if ordered, as a set otherwise.
template <typename T, typename Run, typename Ref>
void checkLines(const std::string &what, TensorOf<T> *t, int64_t k, bool ordered, Run run, Ref ref) {
  const std::vector<double> in = flat(t);
  const std::vector<int64_t> size = sizes(t);
  const int nd = (int)size.size();
  for (int dim = 0; dim < std::max(nd, 1); dim++) {
    const int64_t n = nd ? size[dim] : 1;
    if (n < k) continue;
    BOOST_TEST_CONTEXT(what << ", dim " << dim) {
      auto rt = th::own(Ops<T>::newEmpty());
      auto ri = th::own(THLongTensor_new());
      run(rt.get(), ri.get(), t, dim);
      std::vector<int64_t> shape = size;
      if (nd) shape[dim] = k < 0 ? n : k;
      BOOST_TEST(sizes(rt.get()) == shape);
      BOOST_TEST(sizes(ri.get()) == shape);
      const auto inLines = linesOf(size, dim), outLines = linesOf(shape, dim);
      const auto gotAll = flat(rt.get()), gotIndexAll = flat(ri.get());
      BOOST_TEST(inLines.size() == outLines.size());
      for (size_t l = 0; l < inLines.size() && l < outLines.size(); l++) {
        const auto line = gather(in, inLines[l]);
        const auto got = gather(gotAll, outLines[l]);
        std::vector<int64_t> gotIndex;
        for (double i : gather(gotIndexAll, outLines[l])) gotIndex.push_back((int64_t)i - TH_INDEX_BASE);
        std::vector<int64_t> want = ref(line);
        bool ok = gotIndex.size() == want.size();
        for (size_t j = 0; ok && j < gotIndex.size(); j++)
          ok = gotIndex[j] >= 0 && gotIndex[j] < (int64_t)line.size() && same(got[j], line[gotIndex[j]]);
        if (!ordered) {
          std::sort(gotIndex.begin(), gotIndex.end());
          std::sort(want.begin(), want.end());
        }
        BOOST_TEST((ok && gotIndex == want), "line " << l << ": " << show(line) << "gave " << show(got));
      }
      BOOST_TEST(sameAll(flat(t), in));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(max_min, T, AllTypes) {
  for (auto &[name, t] : inputs<T>(10, true)) {
    checkReduction<T>("max " + name, t.get(), 1, Ops<T>::max, [](auto v) { return refExtreme(v, true); });
    checkReduction<T>("min " + name, t.get(), 1, Ops<T>::min, [](auto v) { return refExtreme(v, false); });
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(kthvalue, T, AllTypes) {
  for (auto &[name, t] : inputs<T>(20, true)) {
    for (int64_t k = 1; k <= 9; k++) {
      checkReduction<T>(
          "kthvalue k=" + std::to_string(k) + " " + name, t.get(), k,
          [k](auto *v, auto *i, auto *t, int dim, int keepdim) { Ops<T>::kthvalue(v, i, t, k, dim, keepdim); },
          [k](auto v) { return refKth(v, k); });
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(median_mode, T, AllTypes) {
  for (bool nans : {false, true}) {
    for (auto &[name, t] : inputs<T>(nans ? 30 : 40, nans)) {
      checkReduction<T>("median " + name, t.get(), 1, Ops<T>::median, refMedian);
      checkReduction<T>("mode " + name, t.get(), 1, Ops<T>::mode, refMode);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(medianall, T, AllTypes) {
  for (bool nans : {false, true}) {
    for (auto &[name, t] : inputs<T>(nans ? 50 : 60, nans)) {
      BOOST_TEST_CONTEXT(name) {
        const auto v = flat(t.get());
        std::vector<double> sorted = gather(v, stableOrder(v, false));
        double want = sorted[(sorted.size() - 1) / 2];
        for (double x : v)
          if (std::isnan(x)) want = x;
        BOOST_TEST(same((double)Ops<T>::medianall(t.get()), want));
        BOOST_TEST(sameAll(flat(t.get()), v));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(sort, T, AllTypes) {
  for (auto &[name, t] : inputs<T>(70, true)) {
    for (int descending = 0; descending < 2; descending++) {
      checkLines<T>((descending ? "sort descending " : "sort ") + name, t.get(), -1, true,
                    [descending](auto *rt, auto *ri, auto *t, int dim) { Ops<T>::sort(rt, ri, t, dim, descending); },
                    [descending](auto v) { return stableOrder(v, descending); });
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(topk, T, AllTypes) {
  for (auto &[name, t] : inputs<T>(80, true)) {
    for (int64_t k : {0, 1, 2, 3, 5, 9}) {
      for (int dir = 0; dir < 2; dir++) {
        for (int sorted = 0; sorted < 2; sorted++) {
          if (k != 1 && t->nDimension == 0) continue;
          std::ostringstream what;
          what << "topk k=" << k << " dir=" << dir << " sorted=" << sorted << " " << name;
          checkLines<T>(
              what.str(), t.get(), k, sorted,
              [=](auto *rt, auto *ri, auto *t, int dim) { Ops<T>::topk(rt, ri, t, k, dim, dir, sorted); },
              [=](auto v) {
                auto order = stableOrder(v, dir);
                order.resize(k);
                return order;
              });
        }
      }
    }
  }
}

// Outputs that are t itself, share its storage, or are non-contiguous views of the right
// size (written through their strides, which stay as they were).
BOOST_AUTO_TEST_CASE(outputs_alias_and_views) {
  const auto v = sample<float>(60, 90, true);
  std::vector<Pick> wantMax;
  for (auto &line : linesOf({3, 4, 5}, 1)) wantMax.push_back(refExtreme(gather(v, line), true));

  auto t = th::own(tht::fromValues<float>({3, 4, 5}, v));
  auto idx = th::own(THLongTensor_new());
  THFloatTensor_max(t.get(), idx.get(), t.get(), 1, 0);
  BOOST_TEST(sizes(t.get()) == std::vector<int64_t>({3, 5}));
  for (size_t l = 0; l < wantMax.size(); l++) {
    BOOST_TEST(same(flat(t.get())[l], wantMax[l].first));
    BOOST_TEST(flat(idx.get())[l] == wantMax[l].second + TH_INDEX_BASE);
  }

  // values: a transposed [5,3] tensor seen as [3,5]
  t = th::own(tht::fromValues<float>({3, 4, 5}, v));
  auto base = th::own(THFloatTensor_newWithSize2d(5, 3));
  auto out = th::own(THFloatTensor_newTranspose(base.get(), 0, 1));
  THFloatTensor_max(out.get(), idx.get(), t.get(), 1, 0);
  BOOST_TEST(out->storage == base->storage);
  BOOST_TEST(sizes(out.get()) == std::vector<int64_t>({3, 5}));
  BOOST_TEST(out->stride[0] == 1);
  BOOST_TEST(out->stride[1] == 3);
  for (size_t l = 0; l < wantMax.size(); l++) BOOST_TEST(same(flat(out.get())[l], wantMax[l].first));

  // in-place sort of a transposed view: rt is t
  base = th::own(tht::fromValues<float>({5, 4}, sample<float>(20, 91, true)));
  t = th::own(THFloatTensor_newTranspose(base.get(), 0, 1));
  const auto tv = flat(t.get());
  THFloatTensor_sort(t.get(), idx.get(), t.get(), 1, 0);
  const auto lines = linesOf({4, 5}, 1);
  for (size_t l = 0; l < lines.size(); l++) {
    const auto line = gather(tv, lines[l]);
    const auto order = stableOrder(line, false);
    BOOST_TEST(sameAll(gather(flat(t.get()), lines[l]), gather(line, order)));
    for (size_t j = 0; j < order.size(); j++) BOOST_TEST(flat(idx.get())[lines[l][j]] == order[j] + TH_INDEX_BASE);
  }

  // Long: the indices output is t itself
  const auto lv = sample<int64_t>(12, 92, false);
  auto lt = th::own(tht::fromValues<int64_t>({3, 4}, lv));
  auto lvalues = th::own(THLongTensor_new());
  THLongTensor_min(lvalues.get(), lt.get(), lt.get(), 0, 1);
  BOOST_TEST(sizes(lt.get()) == std::vector<int64_t>({1, 4}));
  const auto cols = linesOf({3, 4}, 0);
  for (size_t l = 0; l < cols.size(); l++) {
    const Pick p = refExtreme(gather(lv, cols[l]), false);
    BOOST_TEST(flat(lvalues.get())[l] == p.first);
    BOOST_TEST(flat(lt.get())[l] == p.second + TH_INDEX_BASE);
  }
}

// Lines long and many enough for applyDim to spread them over OpenMP threads.
BOOST_AUTO_TEST_CASE(large_parallel) {
  std::vector<double> v = tht::randomValues(40 * 3000, 100);
  for (size_t i = 0; i < v.size(); i += 97) v[i] = NAN;
  for (size_t i = 1; i < v.size(); i += 5) v[i] = v[i - 1];
  auto t = th::own(tht::fromValues<float>({40, 3000}, v));
  for (int dim = 0; dim < 2; dim++) {
    checkLines<float>(
        "sort", t.get(), -1, true, [](auto *rt, auto *ri, auto *t, int dim) { THFloatTensor_sort(rt, ri, t, dim, 1); },
        [](auto line) { return stableOrder(line, true); });
    checkLines<float>(
        "topk", t.get(), 7, true,
        [](auto *rt, auto *ri, auto *t, int dim) { THFloatTensor_topk(rt, ri, t, 7, dim, 0, 1); },
        [](auto line) {
          auto order = stableOrder(line, false);
          order.resize(7);
          return order;
        });
  }
  checkReduction<float>("max", t.get(), 1, THFloatTensor_max, [](auto line) { return refExtreme(line, true); });
  checkReduction<float>(
      "kthvalue", t.get(), 1,
      [](auto *v, auto *i, auto *t, int dim, int keepdim) { THFloatTensor_kthvalue(v, i, t, 30, dim, keepdim); },
      [](auto line) { return refKth(line, 30); });
  // the brute-force reference of mode is quadratic: short lines only
  checkReduction<float>("mode", t.get(), 1, THFloatTensor_mode, refMode, 0);
}

namespace {
// Calls f, which must throw th::Error of the given kind, and checks that the outputs and t
// kept their shapes and values.
template <typename F, typename... Tensors>
void checkRejected(const std::string &what, th::ErrorKind kind, F f, Tensors *...tensors) {
  BOOST_TEST_CONTEXT(what) {
    const std::vector<std::vector<double>> before{flat(tensors)...};
    const std::vector<std::vector<int64_t>> shapes{sizes(tensors)...};
    bool thrown = false;
    try {
      f();
    } catch (const th::Error &e) {
      thrown = true;
      BOOST_TEST((e.kind() == kind), e.what());
    }
    BOOST_TEST(thrown);
    const std::vector<std::vector<double>> after{flat(tensors)...};
    const std::vector<std::vector<int64_t>> shapesAfter{sizes(tensors)...};
    BOOST_TEST((shapes == shapesAfter));
    for (size_t i = 0; i < before.size(); i++) BOOST_TEST(sameAll(before[i], after[i]));
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(errors_leave_tensors_unchanged) {
  using th::ErrorKind;
  auto t = th::own(tht::fromValues<float>({2, 3}, {1, 2, 3, 4, 5, 6}));
  auto scalar = th::own(tht::fromValues<float>({}, {7}));
  auto empty = th::own(tht::fromValues<float>({2, 0}, {}));
  auto v = th::own(tht::fromValues<float>({2, 2}, {9, 8, 7, 6}));
  auto i = th::own(tht::fromValues<int64_t>({2, 2}, {5, 4, 3, 2}));
  auto V = v.get();
  auto I = i.get();
  auto T = t.get();
  auto E = empty.get();
  auto S = scalar.get();
  checkRejected(
      "max dim 2", ErrorKind::Index, [&] { THFloatTensor_max(V, I, T, 2, 0); }, V, I, T);
  checkRejected(
      "min dim -1", ErrorKind::Index, [&] { THFloatTensor_min(V, I, T, -1, 1); }, V, I, T);
  checkRejected(
      "median 0-dim dim 1", ErrorKind::Index, [&] { THFloatTensor_median(V, I, S, 1, 0); }, V, I, S);
  checkRejected(
      "sort dim 2", ErrorKind::Index, [&] { THFloatTensor_sort(V, I, T, 2, 0); }, V, I, T);
  checkRejected(
      "topk dim 5", ErrorKind::Index, [&] { THFloatTensor_topk(V, I, T, 1, 5, 1, 1); }, V, I, T);
  checkRejected(
      "kthvalue k 0", ErrorKind::Runtime, [&] { THFloatTensor_kthvalue(V, I, T, 0, 1, 0); }, V, I, T);
  checkRejected(
      "kthvalue k 4", ErrorKind::Runtime, [&] { THFloatTensor_kthvalue(V, I, T, 4, 1, 0); }, V, I, T);
  checkRejected(
      "kthvalue dim 3", ErrorKind::Index, [&] { THFloatTensor_kthvalue(V, I, T, 1, 3, 0); }, V, I, T);
  checkRejected(
      "topk k 4", ErrorKind::Runtime, [&] { THFloatTensor_topk(V, I, T, 4, 1, 1, 1); }, V, I, T);
  checkRejected(
      "topk k -1", ErrorKind::Runtime, [&] { THFloatTensor_topk(V, I, T, -1, 1, 0, 0); }, V, I, T);
  checkRejected(
      "topk 0-dim k 0", ErrorKind::Runtime, [&] { THFloatTensor_topk(V, I, S, 0, 0, 1, 1); }, V, I, S);
  checkRejected(
      "max empty dim", ErrorKind::Value, [&] { THFloatTensor_max(V, I, E, 1, 0); }, V, I, E);
  checkRejected(
      "min empty dim", ErrorKind::Value, [&] { THFloatTensor_min(V, I, E, 1, 0); }, V, I, E);
  checkRejected(
      "kthvalue empty dim", ErrorKind::Value, [&] { THFloatTensor_kthvalue(V, I, E, 1, 1, 0); }, V, I, E);
  checkRejected(
      "median empty dim", ErrorKind::Value, [&] { THFloatTensor_median(V, I, E, 1, 1); }, V, I, E);
  checkRejected(
      "mode empty dim", ErrorKind::Value, [&] { THFloatTensor_mode(V, I, E, 1, 0); }, V, I, E);
  checkRejected(
      "medianall empty", ErrorKind::Value, [&] { THFloatTensor_medianall(E); }, E);
  // a Long tensor given as both outputs
  auto l = th::own(tht::fromValues<int64_t>({2, 3}, {3, 1, 2, 6, 5, 4}));
  auto L = l.get();
  checkRejected(
      "sort into one tensor", ErrorKind::Runtime, [&] { THLongTensor_sort(I, I, L, 1, 0); }, I, L);
  checkRejected(
      "max into one tensor", ErrorKind::Runtime, [&] { THLongTensor_max(I, I, L, 1, 0); }, I, L);

  // an empty dim is fine where nothing is reduced: sort and topk k = 0 give empty results
  THFloatTensor_sort(V, I, E, 1, 0);
  BOOST_TEST(sizes(V) == std::vector<int64_t>({2, 0}));
  BOOST_TEST(sizes(I) == std::vector<int64_t>({2, 0}));
  THFloatTensor_topk(V, I, E, 0, 1, 1, 1);
  BOOST_TEST(sizes(V) == std::vector<int64_t>({2, 0}));
  THFloatTensor_max(V, I, E, 0, 0);
  BOOST_TEST(sizes(V) == std::vector<int64_t>({0}));
}
