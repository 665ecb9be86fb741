// Reductions, running sums and construction/structure ops: each checked against plain
// loops over the tensor's values in row-major order, on contiguous and strided inputs.
#define BOOST_TEST_MODULE TH reductions and construction
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "th_test_util.hpp"

using tht::fromValues;
using tht::values;

template <typename T>
using Tensor = typename th::TH<T>::Tensor;

// The C API of each element type under one overloaded name, so template tests can call it.
namespace op {
// clang-format off
#define FORWARD(Real, name, fn) \
  template <typename... A>      \
  auto name(TH##Real##Tensor *t, A... a) { return TH##Real##Tensor_##fn(t, a...); }
#define ALL_OPS(Real) \
  FORWARD(Real, sumall, sumall)              \
  FORWARD(Real, prodall, prodall)            \
  FORWARD(Real, maxall, maxall)              \
  FORWARD(Real, minall, minall)              \
  FORWARD(Real, trace, trace)                \
  FORWARD(Real, equal, equal)                \
  FORWARD(Real, sum, sum)                    \
  FORWARD(Real, prod, prod)                  \
  FORWARD(Real, cumsum, cumsum)              \
  FORWARD(Real, cumprod, cumprod)            \
  FORWARD(Real, zeros, zeros)                \
  FORWARD(Real, ones, ones)                  \
  FORWARD(Real, eye, eye)                    \
  FORWARD(Real, range, range)                \
  FORWARD(Real, arange, arange)              \
  FORWARD(Real, diag, diag)                  \
  FORWARD(Real, tril, tril)                  \
  FORWARD(Real, triu, triu)                  \
  FORWARD(Real, cat, cat)                    \
  FORWARD(Real, catArray, catArray)          \
  FORWARD(Real, cross, cross)                \
  FORWARD(Real, permute, permute)            \
  FORWARD(Real, newSelect, newSelect)        \
  FORWARD(Real, newExpand, newExpand)        \
  FORWARD(Real, newTranspose, newTranspose)
#define FLOAT_OPS(Real) \
  FORWARD(Real, meanall, meanall)    \
  FORWARD(Real, varall, varall)      \
  FORWARD(Real, stdall, stdall)      \
  FORWARD(Real, normall, normall)    \
  FORWARD(Real, dist, dist)          \
  FORWARD(Real, mean, mean)          \
  FORWARD(Real, var, var)            \
  FORWARD(Real, stdDim, std)         \
  FORWARD(Real, norm, norm)          \
  FORWARD(Real, linspace, linspace)  \
  FORWARD(Real, logspace, logspace)  \
  FORWARD(Real, histc, histc)        \
  FORWARD(Real, renorm, renorm)
// clang-format on
ALL_OPS(Byte)
ALL_OPS(Int)
ALL_OPS(Long)
ALL_OPS(Float)
ALL_OPS(Double)
FLOAT_OPS(Float)
FLOAT_OPS(Double)
#undef FORWARD
#undef ALL_OPS
#undef FLOAT_OPS
}  // namespace op

namespace {

using AllTypes = boost::mpl::list<uint8_t, int32_t, int64_t, float, double>;
using FloatTypes = boost::mpl::list<float, double>;
using Sizes = std::vector<int64_t>;
using Values = std::vector<double>;

template <typename T>
Tensor<T> *empty() {
  int64_t zero = 0;
  return th::TH<T>::newWithSize(1, &zero, nullptr);
}

template <typename TensorT>
Sizes sizesOf(TensorT *t) {
  return Sizes(t->size, t->size + t->nDimension);
}

int64_t count(const Sizes &size) {
  int64_t n = 1;
  for (auto s : size) n *= s;
  return n;
}

// Contiguous; Spread: every other element of a larger tensor; Reversed: a permutation of a
// tensor stored with the dimensions in reverse order (a transpose for matrices).
enum class Layout { Contiguous, Spread, Reversed };
const Layout kLayouts[] = {Layout::Contiguous, Layout::Spread, Layout::Reversed};

std::string describe(Layout layout) {
  return layout == Layout::Contiguous ? "contiguous" : layout == Layout::Spread ? "spread" : "reversed";
}

// A tensor of sizes `size` whose elements in row-major order are vals, laid out as asked.
template <typename T>
Tensor<T> *make(Layout layout, const Sizes &size, const Values &vals) {
  const int nd = (int)size.size();
  if (layout == Layout::Contiguous || nd == 0) return fromValues<T>(size, vals);
  if (layout == Layout::Spread) {
    Sizes bigSize = size;
    bigSize.push_back(2);
    Values bigVals(2 * vals.size(), 7);
    for (size_t i = 0; i < vals.size(); i++) bigVals[2 * i] = vals[i];
    auto base = th::own(fromValues<T>(bigSize, bigVals));
    return op::newSelect(base.get(), nd, (int64_t)0);
  }
  Sizes reversedSize(size.rbegin(), size.rend());
  Values stored(vals.size());
  for (int64_t i = 0; i < (int64_t)vals.size(); i++) {
    Sizes index(nd);
    int64_t rem = i;
    for (int d = nd - 1; d >= 0; d--) {
      index[d] = rem % size[d];
      rem /= size[d];
    }
    int64_t at = 0;
    for (int d = nd - 1; d >= 0; d--) at = at * size[d] + index[d];
    stored[at] = vals[i];
  }
  auto base = th::own(fromValues<T>(reversedSize, stored));
  std::vector<int> dims(nd);
  for (int d = 0; d < nd; d++) dims[d] = nd - 1 - d;
  Tensor<T> *view = empty<T>();
  op::permute(view, base.get(), dims.data());
  return view;
}

// Random values that type T holds exactly, in [lo, hi] (integers for integer types).
template <typename T>
Values randomFor(size_t n, unsigned seed, double lo, double hi) {
  Values v = tht::randomValues(n, seed, lo, hi);
  for (auto &x : v) x = std::is_integral_v<T> ? std::round(x) : (double)(T)x;
  return v;
}

// What a C cast of a double result to T keeps: integers wrap, floats round.
template <typename T>
double as(double x) {
  if constexpr (std::is_integral_v<T>)
    return (double)(T)(int64_t)x;
  else
    return (double)(T)x;
}

template <typename T>
double tolerance() {
  return std::is_integral_v<T> ? 0 : std::is_same_v<T, float> ? 2e-6 : 1e-12;
}

bool close(double got, double want, double tol) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

void checkClose(const Values &got, const Values &want, double tol, const std::string &what) {
  BOOST_CHECK_MESSAGE(got.size() == want.size(), what << ": got " << got.size() << " elements, want " << want.size());
  if (got.size() != want.size()) return;
  for (size_t i = 0; i < got.size(); i++)
    if (!close(got[i], want[i], tol)) {
      BOOST_ERROR(what << ": element " << i << " is " << got[i] << ", want " << want[i]);
      return;
    }
}

// f(line) for every line of a row-major tensor along dim, in row-major order of the other
// dimensions (a 0-dim tensor is one line of one element).
template <typename F>
Values alongDim(const Values &v, const Sizes &size, int dim, F f) {
  int64_t outer = 1, inner = 1, len = size.empty() ? 1 : size[dim];
  for (int d = 0; d < dim; d++) outer *= size[d];
  for (size_t d = dim + 1; d < size.size(); d++) inner *= size[d];
  Values out;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      Values line(len);
      for (int64_t k = 0; k < len; k++) line[k] = v[(o * len + k) * inner + in];
      out.push_back(f(line));
    }
  return out;
}

// scan(line) replaces every line along dim.
template <typename F>
Values scanDim(const Values &v, const Sizes &size, int dim, F scan) {
  int64_t outer = 1, inner = 1, len = size.empty() ? 1 : size[dim];
  for (int d = 0; d < dim; d++) outer *= size[d];
  for (size_t d = dim + 1; d < size.size(); d++) inner *= size[d];
  Values out(v.size());
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      Values line(len);
      for (int64_t k = 0; k < len; k++) line[k] = v[(o * len + k) * inner + in];
      line = scan(line);
      for (int64_t k = 0; k < len; k++) out[(o * len + k) * inner + in] = line[k];
    }
  return out;
}

Sizes reducedSizes(const Sizes &size, int dim, bool keepdim) {
  Sizes out = size;
  if (out.empty()) return out;
  if (keepdim)
    out[dim] = 1;
  else
    out.erase(out.begin() + dim);
  return out;
}

double lineSum(const Values &l) {
  double s = 0;
  for (double x : l) s += x;
  return s;
}
double lineProd(const Values &l) {
  double p = 1;
  for (double x : l) p *= x;
  return p;
}
double lineVar(const Values &l, bool biased) {
  if (l.empty()) return NAN;
  const double mean = lineSum(l) / l.size();
  double ss = 0;
  for (double x : l) ss += (x - mean) * (x - mean);
  return ss / (biased ? l.size() : l.size() - 1.0);
}
double lineNorm(const Values &l, double p) {
  double acc = 0;
  for (double x : l) {
    if (p == 0)
      acc += x != 0;
    else if (std::isinf(p))
      acc = std::max(acc, std::fabs(x));
    else
      acc += std::pow(std::fabs(x), p);
  }
  return (p == 0 || std::isinf(p)) ? acc : std::pow(acc, 1 / p);
}

// A tensor's sizes and values, to show that a failed call changed nothing.
struct Snapshot {
  Sizes size;
  Values vals;
  bool operator==(const Snapshot &o) const { return size == o.size && vals == o.vals; }
};
template <typename... TensorT>
std::vector<Snapshot> snapshot(TensorT *...ts) {
  return {Snapshot{sizesOf(ts), values(ts)}...};
}

// Concatenation by index arithmetic: for each position before dim, the parts' blocks in turn.
Values catRef(const std::vector<std::pair<Sizes, Values>> &parts, int dim) {
  int64_t outer = 1;
  for (int d = 0; d < dim; d++) outer *= parts[0].first[d];
  Values out;
  for (int64_t o = 0; o < outer; o++)
    for (const auto &part : parts) {
      const int64_t block = count(part.first) / outer;
      out.insert(out.end(), part.second.begin() + o * block, part.second.begin() + (o + 1) * block);
    }
  return out;
}

#define CHECK_FAILS_UNCHANGED(call, ...)           \
  do {                                             \
    auto before_ = snapshot(__VA_ARGS__);          \
    BOOST_CHECK_THROW(call, th::Error);            \
    BOOST_CHECK(snapshot(__VA_ARGS__) == before_); \
  } while (0)

}  // namespace

// ---- Whole-tensor reductions ----

BOOST_AUTO_TEST_CASE_TEMPLATE(whole_tensor_reductions, T, AllTypes) {
  const double lo = std::is_unsigned_v<T> ? 0 : -100, hi = 200;
  const Sizes size = {3, 4, 5};
  const Values vals = randomFor<T>(60, 1, lo, hi);
  const Values small = randomFor<T>(12, 2, std::is_unsigned_v<T> ? 1 : -2, 2);
  for (Layout layout : kLayouts) {
    const std::string where = describe(layout);
    auto t = th::own(make<T>(layout, size, vals));
    const Values v = values(t.get());
    BOOST_CHECK(v == vals);
    BOOST_CHECK_MESSAGE(close((double)op::sumall(t.get()), lineSum(v), tolerance<double>()), "sumall " << where);
    BOOST_CHECK_MESSAGE((double)op::maxall(t.get()) == *std::max_element(v.begin(), v.end()), "maxall " << where);
    BOOST_CHECK_MESSAGE((double)op::minall(t.get()) == *std::min_element(v.begin(), v.end()), "minall " << where);
    auto s = th::own(make<T>(layout, {3, 4}, small));
    BOOST_CHECK_MESSAGE(close((double)op::prodall(s.get()), lineProd(small), tolerance<double>()), "prodall " << where);
    for (Sizes shape : {Sizes{4, 6}, Sizes{6, 4}}) {
      auto m = th::own(make<T>(layout, shape, Values(vals.begin(), vals.begin() + 24)));
      double want = 0;
      for (int64_t i = 0; i < std::min(shape[0], shape[1]); i++) want += vals[i * shape[1] + i];
      BOOST_CHECK_MESSAGE(close((double)op::trace(m.get()), want, tolerance<double>()), "trace " << where);
    }
    // equal: same values in another layout, then one value changed, then another shape
    auto c = th::own(make<T>(Layout::Contiguous, size, vals));
    BOOST_TEST(op::equal(t.get(), c.get()) == 1);
    Values changed = vals;
    changed[37] += 1;
    auto d = th::own(make<T>(layout, size, changed));
    BOOST_TEST(op::equal(t.get(), d.get()) == 0);
    auto flat = th::own(make<T>(layout, {60}, vals));
    BOOST_TEST(op::equal(t.get(), flat.get()) == 0);
  }
  // a 0-stride (expanded) input counts each stored element many times
  auto row = th::own(fromValues<T>({1, 5}, Values(vals.begin(), vals.begin() + 5)));
  int64_t bigger[2] = {4, 5};
  auto expanded = th::own(op::newExpand(row.get(), 2, bigger));
  BOOST_CHECK(close((double)op::sumall(expanded.get()), 4 * lineSum(Values(vals.begin(), vals.begin() + 5)), 1e-12));
}

BOOST_AUTO_TEST_CASE(whole_reductions_nan_and_empty) {
  auto e = th::own(empty<float>());
  BOOST_TEST(THFloatTensor_sumall(e.get()) == 0);
  BOOST_TEST(THFloatTensor_prodall(e.get()) == 1);
  BOOST_TEST(std::isnan(THFloatTensor_meanall(e.get())));
  BOOST_TEST(std::isnan(THFloatTensor_varall(e.get(), 0)));
  BOOST_TEST(THFloatTensor_normall(e.get(), 2) == 0);
  BOOST_CHECK_THROW(THFloatTensor_maxall(e.get()), th::Error);
  BOOST_CHECK_THROW(THFloatTensor_minall(e.get()), th::Error);
  auto n = th::own(fromValues<double>({4}, {1, NAN, 3, -2}));
  BOOST_TEST(std::isnan(THDoubleTensor_maxall(n.get())));
  BOOST_TEST(std::isnan(THDoubleTensor_minall(n.get())));
  BOOST_TEST(THDoubleTensor_equal(n.get(), n.get()) == 0);  // NaN differs from itself
  auto ninf = th::own(fromValues<double>({2}, {-INFINITY, -INFINITY}));
  BOOST_TEST(THDoubleTensor_maxall(ninf.get()) == -INFINITY);
  auto scalar = th::own(fromValues<int32_t>({}, {-7}));
  BOOST_TEST(THIntTensor_sumall(scalar.get()) == -7);
  BOOST_TEST(THIntTensor_maxall(scalar.get()) == -7);
  auto vec = th::own(fromValues<int32_t>({3}, {1, 2, 3}));
  BOOST_CHECK_THROW(THIntTensor_trace(vec.get()), th::Error);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(statistics_whole, T, FloatTypes) {
  Values vals = randomFor<T>(60, 3, -5, 5);
  for (size_t i = 0; i < vals.size(); i += 7) vals[i] = 0;  // non-zeros differ from the count for p = 0
  const Values other = randomFor<T>(60, 4, -5, 5);
  for (Layout layout : kLayouts) {
    const std::string where = describe(layout);
    auto t = th::own(make<T>(layout, {3, 4, 5}, vals));
    const double tol = 1e-12;
    BOOST_CHECK_MESSAGE(close(op::meanall(t.get()), lineSum(vals) / 60, tol), "meanall " << where);
    for (int biased : {0, 1}) {
      BOOST_CHECK_MESSAGE(close(op::varall(t.get(), biased), lineVar(vals, biased), tol), "varall " << where);
      BOOST_CHECK_MESSAGE(close(op::stdall(t.get(), biased), std::sqrt(lineVar(vals, biased)), tol),
                          "stdall " << where);
    }
    // b has another shape with the same element count: walked in row-major order
    auto b = th::own(make<T>(layout, {6, 10}, other));
    Values diff(60);
    for (int i = 0; i < 60; i++) diff[i] = vals[i] - other[i];
    for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, (double)INFINITY}) {
      BOOST_CHECK_MESSAGE(close(op::normall(t.get(), (T)p), lineNorm(vals, p), tol), "normall p=" << p << " " << where);
      BOOST_CHECK_MESSAGE(close(op::dist(t.get(), b.get(), (T)p), lineNorm(diff, p), tol),
                          "dist p=" << p << " " << where);
    }
  }
  auto one = th::own(fromValues<T>({1}, {4}));
  BOOST_TEST(std::isnan(op::varall(one.get(), 0)));
  BOOST_TEST(op::varall(one.get(), 1) == 0);
  auto shorter = th::own(fromValues<T>({59}, Values(other.begin(), other.begin() + 59)));
  auto t = th::own(fromValues<T>({60}, vals));
  CHECK_FAILS_UNCHANGED(op::dist(t.get(), shorter.get(), (T)2), t.get(), shorter.get());
}

// ---- Reductions along a dimension ----

BOOST_AUTO_TEST_CASE_TEMPLATE(sum_prod_cumsum_cumprod, T, AllTypes) {
  // Byte sums overflow and wrap, as a C cast does; products stay small
  const Values vals = randomFor<T>(108, 5, std::is_unsigned_v<T> ? 0 : -100, 120);
  const Values small = randomFor<T>(108, 6, std::is_unsigned_v<T> ? 0 : -3, 3);
  // dim 0 of {9, 4, 3} has long strided lines (walked plane by plane), the others short ones
  for (Sizes size : {Sizes{9, 4, 3}, Sizes{5}, Sizes{}}) {
    const int nd = (int)size.size();
    const int64_t n = count(size);
    const Values v(vals.begin(), vals.begin() + n), s(small.begin(), small.begin() + n);
    for (Layout layout : kLayouts)
      for (int dim = 0; dim < std::max(nd, 1); dim++) {
        std::ostringstream where;
        where << describe(layout) << " sizes " << nd << "-D dim " << dim;
        auto t = th::own(make<T>(layout, size, v));
        auto ts = th::own(make<T>(layout, size, s));
        auto r = th::own(empty<T>());
        for (int keepdim : {0, 1}) {
          const std::string w = where.str() + (keepdim ? " keepdim" : "");
          op::sum(r.get(), t.get(), dim, keepdim);
          BOOST_CHECK(sizesOf(r.get()) == reducedSizes(size, dim, keepdim));
          Values want = alongDim(v, size, dim, [](const Values &l) { return as<T>(lineSum(l)); });
          checkClose(values(r.get()), want, tolerance<T>(), "sum " + w);
          op::prod(r.get(), ts.get(), dim, keepdim);
          BOOST_CHECK(sizesOf(r.get()) == reducedSizes(size, dim, keepdim));
          want = alongDim(s, size, dim, [](const Values &l) { return as<T>(lineProd(l)); });
          checkClose(values(r.get()), want, tolerance<T>(), "prod " + w);
        }
        op::cumsum(r.get(), t.get(), dim);
        BOOST_CHECK(sizesOf(r.get()) == size);
        Values want = scanDim(v, size, dim, [](Values l) {
          double acc = 0;
          for (auto &x : l) x = as<T>(acc += x);
          return l;
        });
        checkClose(values(r.get()), want, tolerance<T>(), "cumsum " + where.str());
        op::cumprod(r.get(), ts.get(), dim);
        want = scanDim(s, size, dim, [](Values l) {
          double acc = 1;
          for (auto &x : l) x = as<T>(acc *= x);
          return l;
        });
        checkClose(values(r.get()), want, tolerance<T>(), "cumprod " + where.str());
      }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(statistics_along_dim, T, FloatTypes) {
  Values vals = randomFor<T>(108, 7, -5, 5);
  for (size_t i = 0; i < vals.size(); i += 5) vals[i] = 0;
  const Sizes size = {9, 4, 3};
  for (Layout layout : kLayouts)
    for (int dim = 0; dim < 3; dim++)
      for (int keepdim : {0, 1}) {
        std::ostringstream where;
        where << describe(layout) << " dim " << dim << (keepdim ? " keepdim" : "");
        auto t = th::own(make<T>(layout, size, vals));
        auto r = th::own(empty<T>());
        const Sizes want = reducedSizes(size, dim, keepdim);
        op::mean(r.get(), t.get(), dim, keepdim);
        BOOST_CHECK(sizesOf(r.get()) == want);
        checkClose(values(r.get()),
                   alongDim(vals, size, dim, [](const Values &l) { return as<T>(lineSum(l) / l.size()); }),
                   tolerance<T>(), "mean " + where.str());
        for (int biased : {0, 1}) {
          op::var(r.get(), t.get(), dim, biased, keepdim);
          BOOST_CHECK(sizesOf(r.get()) == want);
          checkClose(values(r.get()),
                     alongDim(vals, size, dim, [&](const Values &l) { return as<T>(lineVar(l, biased)); }),
                     tolerance<T>(), "var " + where.str());
          op::stdDim(r.get(), t.get(), dim, biased, keepdim);
          checkClose(values(r.get()),
                     alongDim(vals, size, dim, [&](const Values &l) { return as<T>(std::sqrt(lineVar(l, biased))); }),
                     tolerance<T>(), "std " + where.str());
        }
        for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, (double)INFINITY}) {
          op::norm(r.get(), t.get(), (T)p, dim, keepdim);
          BOOST_CHECK(sizesOf(r.get()) == want);
          checkClose(values(r.get()), alongDim(vals, size, dim, [&](const Values &l) { return as<T>(lineNorm(l, p)); }),
                     tolerance<T>(), "norm p=" + std::to_string(p) + " " + where.str());
        }
      }
}

BOOST_AUTO_TEST_CASE(reductions_over_empty_and_scalar) {
  auto t = th::own(fromValues<float>({3, 0}, {}));
  auto r = th::own(empty<float>());
  THFloatTensor_sum(r.get(), t.get(), 1, 0);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({3}));
  BOOST_CHECK(values(r.get()) == Values({0, 0, 0}));
  THFloatTensor_prod(r.get(), t.get(), 1, 1);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({3, 1}));
  BOOST_CHECK(values(r.get()) == Values({1, 1, 1}));
  THFloatTensor_mean(r.get(), t.get(), 1, 0);
  for (double x : values(r.get())) BOOST_TEST(std::isnan(x));
  THFloatTensor_sum(r.get(), t.get(), 0, 0);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({0}));
  THFloatTensor_cumsum(r.get(), t.get(), 0);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({3, 0}));
  // a 0-dim tensor reduces over dim 0 into a 0-dim tensor
  auto s = th::own(fromValues<int64_t>({}, {9}));
  auto rs = th::own(empty<int64_t>());
  THLongTensor_sum(rs.get(), s.get(), 0, 1);
  BOOST_TEST(rs->nDimension == 0);
  BOOST_CHECK(values(rs.get()) == Values({9}));
  CHECK_FAILS_UNCHANGED(THLongTensor_sum(rs.get(), s.get(), 1, 0), rs.get(), s.get());
}

BOOST_AUTO_TEST_CASE(logical_all_any) {
  const Sizes size = {3, 8, 2};
  Values mask = randomFor<uint8_t>(48, 8, 0, 1);
  for (int j = 0; j < 8; j++) mask[0 * 16 + j * 2 + 1] = 1;  // a line of ones along dim 1
  for (int j = 0; j < 8; j++) mask[1 * 16 + j * 2 + 0] = 0;  // a line of zeros along dim 1
  for (Layout layout : kLayouts) {
    auto t = th::own(make<uint8_t>(layout, size, mask));
    const bool all = std::all_of(mask.begin(), mask.end(), [](double x) { return x != 0; });
    const bool any = std::any_of(mask.begin(), mask.end(), [](double x) { return x != 0; });
    BOOST_TEST(THByteTensor_logicalall(t.get()) == (int)all);
    BOOST_TEST(THByteTensor_logicalany(t.get()) == (int)any);
    auto r = th::own(empty<uint8_t>());
    for (int dim = 0; dim < 3; dim++)
      for (int keepdim : {0, 1}) {
        const std::string where = describe(layout) + " dim " + std::to_string(dim);
        THByteTensor_logicalAll(r.get(), t.get(), dim, keepdim);
        BOOST_CHECK(sizesOf(r.get()) == reducedSizes(size, dim, keepdim));
        checkClose(values(r.get()),
                   alongDim(mask, size, dim,
                            [](const Values &l) {
                              return (double)std::all_of(l.begin(), l.end(), [](double x) { return x != 0; });
                            }),
                   0, "logicalAll " + where);
        THByteTensor_logicalAny(r.get(), t.get(), dim, keepdim);
        checkClose(values(r.get()),
                   alongDim(mask, size, dim,
                            [](const Values &l) {
                              return (double)std::any_of(l.begin(), l.end(), [](double x) { return x != 0; });
                            }),
                   0, "logicalAny " + where);
      }
  }
  auto ones = th::own(fromValues<uint8_t>({5}, {1, 2, 3, 255, 9}));
  BOOST_TEST(THByteTensor_logicalall(ones.get()) == 1);
  auto zeros = th::own(fromValues<uint8_t>({3}, {0, 0, 0}));
  BOOST_TEST(THByteTensor_logicalany(zeros.get()) == 0);
  auto e = th::own(empty<uint8_t>());
  BOOST_TEST(THByteTensor_logicalall(e.get()) == 1);
  BOOST_TEST(THByteTensor_logicalany(e.get()) == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(dim_errors_leave_tensors_unchanged, T, AllTypes) {
  auto t = th::own(fromValues<T>({2, 3}, randomFor<T>(6, 9, 0, 9)));
  auto r = th::own(fromValues<T>({4}, {1, 2, 3, 4}));
  for (int dim : {-1, 2, 100}) {
    CHECK_FAILS_UNCHANGED(op::sum(r.get(), t.get(), dim, 0), r.get(), t.get());
    CHECK_FAILS_UNCHANGED(op::prod(r.get(), t.get(), dim, 1), r.get(), t.get());
    CHECK_FAILS_UNCHANGED(op::cumsum(r.get(), t.get(), dim), r.get(), t.get());
    CHECK_FAILS_UNCHANGED(op::cumprod(r.get(), t.get(), dim), r.get(), t.get());
  }
  BOOST_CHECK_EXCEPTION(op::sum(r.get(), t.get(), 5, 0), th::Error, [](const th::Error &e) {
    return e.kind() == th::ErrorKind::Index && std::string(e.what()).find("dimension 5") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(float_errors_leave_tensors_unchanged, T, FloatTypes) {
  auto t = th::own(fromValues<T>({2, 3}, randomFor<T>(6, 10, -2, 2)));
  auto r = th::own(fromValues<T>({4}, {1, 2, 3, 4}));
  CHECK_FAILS_UNCHANGED(op::mean(r.get(), t.get(), 2, 0), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::var(r.get(), t.get(), -1, 0, 0), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::stdDim(r.get(), t.get(), 3, 1, 1), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::norm(r.get(), t.get(), (T)2, 2, 0), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::renorm(r.get(), t.get(), (T)2, 2, (T)1), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::renorm(r.get(), t.get(), (T)0, 0, (T)1), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::renorm(r.get(), t.get(), (T)2, 0, (T)-1), r.get(), t.get());
  auto v = th::own(fromValues<T>({3}, {1, 2, 3}));
  CHECK_FAILS_UNCHANGED(op::renorm(r.get(), v.get(), (T)2, 0, (T)1), r.get(), v.get());
  CHECK_FAILS_UNCHANGED(op::histc(r.get(), t.get(), (int64_t)0, (T)0, (T)1), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::histc(r.get(), t.get(), (int64_t)4, (T)2, (T)1), r.get(), t.get());
  CHECK_FAILS_UNCHANGED(op::linspace(r.get(), (T)0, (T)1, (int64_t)-1), r.get());
  CHECK_FAILS_UNCHANGED(op::logspace(r.get(), (T)0, (T)1, (int64_t)-2), r.get());
  auto inf = th::own(fromValues<T>({2}, {1, INFINITY}));
  CHECK_FAILS_UNCHANGED(op::histc(r.get(), inf.get(), (int64_t)4, (T)0, (T)0), r.get(), inf.get());
}

// ---- Construction ----

BOOST_AUTO_TEST_CASE_TEMPLATE(zeros_ones_eye, T, AllTypes) {
  auto r = th::own(empty<T>());
  int64_t size[3] = {2, 3, 4};
  op::zeros(r.get(), 3, size);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({2, 3, 4}));
  BOOST_CHECK(values(r.get()) == Values(24, 0));
  op::ones(r.get(), 2, size);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({2, 3}));
  BOOST_CHECK(values(r.get()) == Values(6, 1));
  // a strided result of the right sizes is written through its strides
  auto base = th::own(fromValues<T>({3, 2}, Values(6, 5)));
  auto view = th::own(op::newTranspose(base.get(), 0, 1));
  op::zeros(view.get(), 2, size);
  BOOST_TEST(view->storage == base->storage);
  BOOST_CHECK(values(base.get()) == Values(6, 0));
  for (auto nm : std::vector<std::pair<int64_t, int64_t>>{{3, 3}, {2, 4}, {4, 2}, {3, 0}, {0, 0}}) {
    op::eye(r.get(), nm.first, nm.second);
    const int64_t n = nm.first, m = nm.second > 0 ? nm.second : nm.first;
    BOOST_CHECK(sizesOf(r.get()) == Sizes({n, m}));
    Values want(n * m);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < m; j++) want[i * m + j] = i == j;
    BOOST_CHECK(values(r.get()) == want);
  }
  auto kept = th::own(fromValues<T>({2}, {3, 4}));
  int64_t bad[2] = {2, -1};
  CHECK_FAILS_UNCHANGED(op::zeros(kept.get(), 2, bad), kept.get());
  CHECK_FAILS_UNCHANGED(op::ones(kept.get(), -1, bad), kept.get());
  CHECK_FAILS_UNCHANGED(op::eye(kept.get(), (int64_t)-2, (int64_t)3), kept.get());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(range_and_arange, T, AllTypes) {
  using Acc = decltype(op::sumall((Tensor<T> *)nullptr));
  struct Case {
    double from, to, step;
  };
  std::vector<Case> cases = {{0, 10, 3}, {0, 9, 3}, {2, 2, 1}, {5, 40, 7}};
  if (!std::is_unsigned_v<T>) cases.push_back({10, -5, -4});
  if (std::is_floating_point_v<T>) cases.push_back({0, 1, 0.25});
  auto r = th::own(empty<T>());
  for (auto c : cases) {
    Values inclusive, exclusive;
    for (int64_t i = 0;; i++) {
      const double x = c.from + i * c.step;
      if (c.step > 0 ? x > c.to : x < c.to) break;
      inclusive.push_back(as<T>(x));
      if (x != c.to) exclusive.push_back(as<T>(x));
    }
    op::range(r.get(), (Acc)c.from, (Acc)c.to, (Acc)c.step);
    BOOST_CHECK(sizesOf(r.get()) == Sizes({(int64_t)inclusive.size()}));
    checkClose(values(r.get()), inclusive, tolerance<T>(), "range");
    op::arange(r.get(), (Acc)c.from, (Acc)c.to, (Acc)c.step);
    BOOST_CHECK(sizesOf(r.get()) == Sizes({(int64_t)exclusive.size()}));
    checkClose(values(r.get()), exclusive, tolerance<T>(), "arange");
  }
  auto kept = th::own(fromValues<T>({2}, {3, 4}));
  CHECK_FAILS_UNCHANGED(op::range(kept.get(), (Acc)0, (Acc)5, (Acc)0), kept.get());
  CHECK_FAILS_UNCHANGED(op::range(kept.get(), (Acc)5, (Acc)0, (Acc)1), kept.get());
  CHECK_FAILS_UNCHANGED(op::arange(kept.get(), (Acc)0, (Acc)5, (Acc)-1), kept.get());
  CHECK_FAILS_UNCHANGED(op::range(kept.get(), (Acc)0, std::numeric_limits<Acc>::max(), (Acc)1), kept.get());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(linspace_logspace, T, FloatTypes) {
  auto r = th::own(empty<T>());
  for (auto c :
       std::vector<std::tuple<double, double, int64_t>>{{0, 1, 5}, {-3, 7, 11}, {2, -2, 4}, {1.5, 9, 1}, {1, 2, 0}}) {
    const double a = std::get<0>(c), b = std::get<1>(c);
    const int64_t n = std::get<2>(c);
    Values lin(n), logs(n);
    for (int64_t i = 0; i < n; i++) {
      const double x = n == 1 ? a : a + i * (b - a) / (n - 1);
      lin[i] = as<T>(x);
      logs[i] = as<T>(std::pow(10.0, x));
    }
    op::linspace(r.get(), (T)a, (T)b, n);
    BOOST_CHECK(sizesOf(r.get()) == Sizes({n}));
    checkClose(values(r.get()), lin, tolerance<T>(), "linspace");
    if (n > 1) BOOST_TEST(values(r.get()).back() == (double)(T)b);  // the end point is exact
    op::logspace(r.get(), (T)a, (T)b, n);
    checkClose(values(r.get()), logs, 1e-6, "logspace");
  }
}

// ---- Structure ----

BOOST_AUTO_TEST_CASE_TEMPLATE(diag_tril_triu, T, AllTypes) {
  const Values vals = randomFor<T>(15, 11, std::is_unsigned_v<T> ? 1 : -9, 9);
  auto r = th::own(empty<T>());
  for (Layout layout : kLayouts) {
    const std::string where = describe(layout);
    auto v = th::own(make<T>(layout, {4}, Values(vals.begin(), vals.begin() + 4)));
    for (int k : {-2, 0, 1}) {
      op::diag(r.get(), v.get(), k);
      const int64_t side = 4 + std::abs(k);
      BOOST_CHECK(sizesOf(r.get()) == Sizes({side, side}));
      Values want(side * side, 0);
      for (int64_t i = 0; i < 4; i++) want[(k >= 0 ? i : i - k) * side + (k >= 0 ? i + k : i)] = vals[i];
      BOOST_CHECK_MESSAGE(values(r.get()) == want, "diag of a vector, k=" << k << " " << where);
    }
    auto m = th::own(make<T>(layout, {3, 5}, vals));
    for (int k : {-4, -3, -1, 0, 2, 4, 5}) {
      op::diag(r.get(), m.get(), k);
      Values want;
      for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 5; j++)
          if (j - i == k) want.push_back(vals[i * 5 + j]);
      BOOST_CHECK(sizesOf(r.get()) == Sizes({(int64_t)want.size()}));
      BOOST_CHECK_MESSAGE(values(r.get()) == want, "diag of a matrix, k=" << k << " " << where);
    }
    for (int64_t k : {-1, 0, 2}) {
      Values lower(15), upper(15);
      for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 5; j++) {
          lower[i * 5 + j] = j - i <= k ? vals[i * 5 + j] : 0;
          upper[i * 5 + j] = j - i >= k ? vals[i * 5 + j] : 0;
        }
      op::tril(r.get(), m.get(), k);
      BOOST_CHECK(sizesOf(r.get()) == Sizes({3, 5}));
      BOOST_CHECK_MESSAGE(values(r.get()) == lower, "tril k=" << k << " " << where);
      op::triu(r.get(), m.get(), k);
      BOOST_CHECK_MESSAGE(values(r.get()) == upper, "triu k=" << k << " " << where);
      // in place
      auto copy = th::own(make<T>(layout, {3, 5}, vals));
      op::triu(copy.get(), copy.get(), k);
      BOOST_CHECK(values(copy.get()) == upper);
    }
    // r a view of the input's storage: the result is computed from the original values
    auto same = th::own(make<T>(layout, {3, 5}, vals));
    op::diag(same.get(), same.get(), 0);
    BOOST_CHECK(values(same.get()) == Values({vals[0], vals[6], vals[12]}));
  }
  auto cube = th::own(fromValues<T>({2, 2, 2}, Values(8, 1)));
  CHECK_FAILS_UNCHANGED(op::diag(r.get(), cube.get(), 0), r.get(), cube.get());
  CHECK_FAILS_UNCHANGED(op::tril(r.get(), cube.get(), (int64_t)0), r.get(), cube.get());
  auto vec = th::own(fromValues<T>({2}, {1, 2}));
  CHECK_FAILS_UNCHANGED(op::triu(r.get(), vec.get(), (int64_t)0), r.get(), vec.get());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cat_and_catArray, T, AllTypes) {
  const Values vals = randomFor<T>(66, 12, 0, 100);
  auto r = th::own(empty<T>());
  for (Layout layout : kLayouts) {
    const std::string where = describe(layout);
    // along each dimension of 3-D inputs with different sizes there
    for (int dim = 0; dim < 3; dim++) {
      Sizes sa = {2, 3, 4}, sb = sa, sc = sa;
      sb[dim] = 1;
      sc[dim] = 3;
      const Values va(vals.begin(), vals.begin() + count(sa));
      const Values vb(vals.begin() + 24, vals.begin() + 24 + count(sb));
      const Values vc(vals.begin() + 30, vals.begin() + 30 + count(sc));
      auto a = th::own(make<T>(layout, sa, va));
      auto b = th::own(make<T>(Layout::Contiguous, sb, vb));
      auto c = th::own(make<T>(layout, sc, vc));
      auto e = th::own(empty<T>());
      Tensor<T> *inputs[4] = {a.get(), e.get(), b.get(), c.get()};
      op::catArray(r.get(), inputs, 4, dim);
      Sizes want = sa;
      want[dim] = sa[dim] + sb[dim] + sc[dim];
      BOOST_CHECK(sizesOf(r.get()) == want);
      BOOST_CHECK_MESSAGE(values(r.get()) == catRef({{sa, va}, {sb, vb}, {sc, vc}}, dim),
                          "catArray dim " << dim << " " << where);
      op::cat(r.get(), a.get(), b.get(), dim);
      BOOST_CHECK_MESSAGE(values(r.get()) == catRef({{sa, va}, {sb, vb}}, dim), "cat dim " << dim << " " << where);
    }
    // r is one of the inputs: the inputs are read before r changes
    auto a = th::own(make<T>(layout, {2, 3}, Values(vals.begin(), vals.begin() + 6)));
    auto b = th::own(make<T>(layout, {1, 3}, Values(vals.begin() + 6, vals.begin() + 9)));
    op::cat(a.get(), a.get(), b.get(), 0);
    BOOST_CHECK(sizesOf(a.get()) == Sizes({3, 3}));
    BOOST_CHECK(values(a.get()) == Values(vals.begin(), vals.begin() + 9));
  }
  auto e1 = th::own(empty<T>()), e2 = th::own(empty<T>());
  op::cat(r.get(), e1.get(), e2.get(), 0);
  BOOST_CHECK(sizesOf(r.get()) == Sizes({0}));
  auto a = th::own(fromValues<T>({2, 3}, Values(6, 1)));
  auto b = th::own(fromValues<T>({2, 4}, Values(8, 2)));
  auto s = th::own(fromValues<T>({}, {3}));
  CHECK_FAILS_UNCHANGED(op::cat(r.get(), a.get(), b.get(), 0), r.get(), a.get(), b.get());
  CHECK_FAILS_UNCHANGED(op::cat(r.get(), a.get(), b.get(), 2), r.get(), a.get(), b.get());
  CHECK_FAILS_UNCHANGED(op::cat(r.get(), a.get(), b.get(), -1), r.get(), a.get(), b.get());
  CHECK_FAILS_UNCHANGED(op::cat(r.get(), s.get(), s.get(), 0), r.get(), s.get());
  CHECK_FAILS_UNCHANGED(op::catArray(r.get(), (Tensor<T> **)nullptr, 0, 0), r.get());
  auto flat = th::own(fromValues<T>({6}, Values(6, 1)));
  CHECK_FAILS_UNCHANGED(op::cat(r.get(), a.get(), flat.get(), 0), r.get(), a.get(), flat.get());
  BOOST_CHECK_EXCEPTION(op::cat(r.get(), a.get(), b.get(), 0), th::Error, [](const th::Error &err) {
    const std::string msg = err.what();  // names both sizes
    return msg.find("[2, 4]") != std::string::npos && msg.find("[2, 3]") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cross_product, T, AllTypes) {
  const Values va = randomFor<T>(12, 13, std::is_unsigned_v<T> ? 0 : -9, 9);
  const Values vb = randomFor<T>(12, 14, std::is_unsigned_v<T> ? 0 : -9, 9);
  auto crossRef = [](const Values &a, const Values &b, const Sizes &size, int dim) {
    // walk the 3-vectors along dim with the index arithmetic of alongDim
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < dim; d++) outer *= size[d];
    for (size_t d = dim + 1; d < size.size(); d++) inner *= size[d];
    Values out(a.size());
    for (int64_t o = 0; o < outer; o++)
      for (int64_t in = 0; in < inner; in++) {
        auto at = [&](int k) { return (o * 3 + k) * inner + in; };
        out[at(0)] = as<T>(a[at(1)] * b[at(2)] - a[at(2)] * b[at(1)]);
        out[at(1)] = as<T>(a[at(2)] * b[at(0)] - a[at(0)] * b[at(2)]);
        out[at(2)] = as<T>(a[at(0)] * b[at(1)] - a[at(1)] * b[at(0)]);
      }
    return out;
  };
  auto r = th::own(empty<T>());
  for (Layout layout : kLayouts)
    for (auto sd : std::vector<std::pair<Sizes, int>>{{{3, 4}, 0}, {{4, 3}, 1}, {{4, 3}, -1}, {{2, 3, 2}, 1}}) {
      const Sizes size = sd.first;
      const int dim = sd.second < 0 ? 1 : sd.second;
      auto a = th::own(make<T>(layout, size, va));
      auto b = th::own(make<T>(Layout::Contiguous, size, vb));
      op::cross(r.get(), a.get(), b.get(), sd.second);
      BOOST_CHECK(sizesOf(r.get()) == size);
      BOOST_CHECK_MESSAGE(values(r.get()) == crossRef(va, vb, size, dim),
                          "cross dim " << sd.second << " " << describe(layout));
      op::cross(a.get(), a.get(), b.get(), dim);  // in place
      BOOST_CHECK(values(a.get()) == crossRef(va, vb, size, dim));
    }
  auto a = th::own(fromValues<T>({3, 4}, va));
  auto b = th::own(fromValues<T>({4, 3}, vb));
  auto c = th::own(fromValues<T>({3, 4}, vb));
  CHECK_FAILS_UNCHANGED(op::cross(r.get(), a.get(), b.get(), 0), r.get(), a.get(), b.get());
  CHECK_FAILS_UNCHANGED(op::cross(r.get(), a.get(), c.get(), 1), r.get(), a.get(), c.get());
  CHECK_FAILS_UNCHANGED(op::cross(r.get(), a.get(), c.get(), 2), r.get(), a.get(), c.get());
  auto d = th::own(fromValues<T>({2, 4}, Values(8, 1)));
  CHECK_FAILS_UNCHANGED(op::cross(r.get(), d.get(), d.get(), -1), r.get(), d.get());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(histogram, T, FloatTypes) {
  const Values vals = randomFor<T>(60, 15, -8, 8);
  auto histRef = [](const Values &v, int64_t nbins, double lo, double hi) {
    Values h(nbins, 0);
    for (double x : v)
      if (x >= lo && x <= hi) h[std::min((int64_t)((x - lo) / (hi - lo) * nbins), nbins - 1)] += 1;
    return h;
  };
  auto h = th::own(empty<T>());
  for (Layout layout : kLayouts) {
    auto t = th::own(make<T>(layout, {3, 4, 5}, vals));
    op::histc(h.get(), t.get(), (int64_t)7, (T)-5, (T)5);
    BOOST_CHECK(sizesOf(h.get()) == Sizes({7}));
    BOOST_CHECK(values(h.get()) == histRef(vals, 7, -5, 5));
    // min == max: the data's own range, the maximum in the last bin
    op::histc(h.get(), t.get(), (int64_t)10, (T)0, (T)0);
    const double lo = *std::min_element(vals.begin(), vals.end()), hi = *std::max_element(vals.begin(), vals.end());
    BOOST_CHECK(values(h.get()) == histRef(vals, 10, lo, hi));
    BOOST_TEST(lineSum(values(h.get())) == 60);
  }
  auto constant = th::own(fromValues<T>({3}, {2, 2, 2}));
  op::histc(h.get(), constant.get(), (int64_t)4, (T)0, (T)0);  // range [1, 3]
  BOOST_CHECK(values(h.get()) == Values({0, 0, 3, 0}));
  auto e = th::own(empty<T>());
  op::histc(h.get(), e.get(), (int64_t)3, (T)0, (T)0);
  BOOST_CHECK(values(h.get()) == Values({0, 0, 0}));
  auto same = th::own(fromValues<T>({60}, vals));  // the histogram replaces its own input
  op::histc(same.get(), same.get(), (int64_t)5, (T)-8, (T)8);
  BOOST_CHECK(values(same.get()) == histRef(vals, 5, -8, 8));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(renorm_subtensors, T, FloatTypes) {
  const Values vals = randomFor<T>(24, 16, -3, 3);
  for (Layout layout : kLayouts)
    for (const Sizes &size : {Sizes{4, 6}, Sizes{3, 4, 2}})
      for (int dim = 0; dim < (int)size.size(); dim++)
        for (double p : {1.0, 2.0, 3.0}) {
          // sub-tensor i along dim: the elements whose index in dim is i
          const int64_t n = count(size);
          int64_t inner = 1;
          for (size_t d = dim + 1; d < size.size(); d++) inner *= size[d];
          auto indexAt = [&](int64_t flat) { return (flat / inner) % size[dim]; };
          Values norms(size[dim], 0);
          for (int64_t f = 0; f < n; f++) norms[indexAt(f)] += std::pow(std::fabs(vals[f]), p);
          for (auto &x : norms) x = std::pow(x, 1 / p);
          Values sorted = norms;
          std::sort(sorted.begin(), sorted.end());
          // between two norms: some sub-tensors scale, the others do not
          const double maxnorm = as<T>((sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2);
          Values want(n);
          for (int64_t f = 0; f < n; f++) {
            const double norm = norms[indexAt(f)];
            want[f] = as<T>(norm > maxnorm ? vals[f] * (maxnorm / (norm + 1e-7)) : vals[f]);
          }
          auto t = th::own(make<T>(layout, size, Values(vals.begin(), vals.begin() + n)));
          auto r = th::own(empty<T>());
          op::renorm(r.get(), t.get(), (T)p, dim, (T)maxnorm);
          BOOST_CHECK(sizesOf(r.get()) == size);
          std::ostringstream where;
          where << "renorm p=" << p << " dim " << dim << " " << describe(layout);
          checkClose(values(r.get()), want, tolerance<T>(), where.str());
          op::renorm(t.get(), t.get(), (T)p, dim, (T)maxnorm);  // in place
          checkClose(values(t.get()), want, tolerance<T>(), where.str() + " in place");
        }
}

// ---- Aliasing and large tensors ----

BOOST_AUTO_TEST_CASE(result_aliases_input) {
  const Values vals = randomFor<double>(12, 17, -5, 5);
  auto t = th::own(fromValues<double>({3, 4}, vals));
  THDoubleTensor_sum(t.get(), t.get(), 1, 0);  // t becomes its row sums
  BOOST_CHECK(sizesOf(t.get()) == Sizes({3}));
  checkClose(values(t.get()), alongDim(vals, {3, 4}, 1, lineSum), 1e-12, "sum into its input");
  auto u = th::own(fromValues<double>({3, 4}, vals));
  auto col = th::own(THDoubleTensor_newSelect(u.get(), 1, 0));  // r is a column view of the input
  THDoubleTensor_cumsum(col.get(), u.get(), 1);
  BOOST_CHECK(sizesOf(col.get()) == Sizes({3, 4}));
  Values want = scanDim(vals, {3, 4}, 1, [](Values l) {
    double acc = 0;
    for (auto &x : l) x = acc += x;
    return l;
  });
  checkClose(values(col.get()), want, 1e-12, "cumsum into a view of its input");
  auto v = th::own(fromValues<double>({3, 4}, vals));
  THDoubleTensor_cumprod(v.get(), v.get(), 0);
  want = scanDim(vals, {3, 4}, 0, [](Values l) {
    double acc = 1;
    for (auto &x : l) x = acc *= x;
    return l;
  });
  checkClose(values(v.get()), want, 1e-12, "cumprod in place");
}

BOOST_AUTO_TEST_CASE(large_tensors_run_in_parallel) {
  const int64_t rows = 600, cols = 500;  // 3e5 elements, above TH_OMP_THRESHOLD
  const Values vals = randomFor<float>(rows * cols, 18, -1, 1);
  const Sizes size = {rows, cols};
  for (Layout layout : {Layout::Contiguous, Layout::Reversed}) {
    const std::string where = describe(layout);
    auto t = th::own(make<float>(layout, size, vals));
    // four float elements to a float lane, the lanes in double (TH/vector/VectorKernels.hpp):
    // within 4 * 2^-24 of the magnitudes' sum
    double magnitudes = 0;
    for (double v : vals) magnitudes += std::fabs(v);
    BOOST_CHECK_MESSAGE(std::fabs(THFloatTensor_sumall(t.get()) - lineSum(vals)) <= 4 * 0x1p-24 * magnitudes,
                        "sumall " << where);
    BOOST_TEST(THFloatTensor_maxall(t.get()) == *std::max_element(vals.begin(), vals.end()));
    BOOST_CHECK_MESSAGE(close(THFloatTensor_normall(t.get(), 2), lineNorm(vals, 2), 1e-9), "normall " << where);
    BOOST_CHECK_MESSAGE(close(THFloatTensor_varall(t.get(), 0), lineVar(vals, false), 1e-9), "varall " << where);
    auto r = th::own(empty<float>());
    for (int dim : {0, 1}) {
      THFloatTensor_sum(r.get(), t.get(), dim, 0);
      checkClose(values(r.get()), alongDim(vals, size, dim, [](const Values &l) { return as<float>(lineSum(l)); }),
                 2e-6, "sum dim " + std::to_string(dim) + " " + where);
      THFloatTensor_cumsum(r.get(), t.get(), dim);
      Values want = scanDim(vals, size, dim, [](Values l) {
        double acc = 0;
        for (auto &x : l) x = as<float>(acc += x);
        return l;
      });
      checkClose(values(r.get()), want, 2e-6, "cumsum dim " + std::to_string(dim) + " " + where);
    }
    auto c = th::own(make<float>(Layout::Contiguous, size, vals));
    BOOST_TEST(THFloatTensor_equal(t.get(), c.get()) == 1);
    BOOST_TEST(THFloatTensor_dist(t.get(), c.get(), 2) == 0);
    auto h = th::own(empty<float>());
    THFloatTensor_histc(h.get(), t.get(), 20, -1, 1);
    BOOST_TEST(THFloatTensor_sumall(h.get()) == rows * cols);
  }
  // 5000 lines along a strided dim: more than one block of lines per thread
  const Values wide = randomFor<double>(16 * 5000, 19, -1, 1);
  auto w = th::own(fromValues<double>({16, 5000}, wide));
  auto rw = th::own(empty<double>());
  THDoubleTensor_sum(rw.get(), w.get(), 0, 1);
  BOOST_CHECK(sizesOf(rw.get()) == Sizes({1, 5000}));
  checkClose(values(rw.get()), alongDim(wide, {16, 5000}, 0, lineSum), 1e-12, "sum of 5000 lines");
  THDoubleTensor_cumprod(rw.get(), w.get(), 0);
  Values wantProd = scanDim(wide, {16, 5000}, 0, [](Values l) {
    double acc = 1;
    for (auto &x : l) x = acc *= x;
    return l;
  });
  checkClose(values(rw.get()), wantProd, 1e-12, "cumprod of 5000 lines");
  Values ints(rows * cols);
  for (int64_t i = 0; i < rows * cols; i++) ints[i] = (double)(i % 1000) - 300;
  auto l = th::own(make<int64_t>(Layout::Reversed, size, ints));
  BOOST_TEST(THLongTensor_sumall(l.get()) == (int64_t)lineSum(ints));
  BOOST_TEST(THLongTensor_minall(l.get()) == -300);
  // an expanded row: every row is the same stored data
  auto row = th::own(fromValues<double>({1, cols}, Values(vals.begin(), vals.begin() + cols)));
  int64_t big[2] = {rows, cols};
  auto expanded = th::own(THDoubleTensor_newExpand(row.get(), 2, big));
  auto r = th::own(empty<double>());
  THDoubleTensor_sum(r.get(), expanded.get(), 0, 1);
  Values want(cols);
  for (int64_t j = 0; j < cols; j++) want[j] = rows * vals[j];
  checkClose(values(r.get()), want, 1e-12, "sum of an expanded tensor");
}
