#include "TH/THTensorReduce.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THVector.h"

namespace {

// The sum of a contiguous tensor through its vector kernel, each thread's part summed
// alone and the parts added in order; false (nothing done) when it has none.
template <typename T>
bool vectorSumAll(const th::TensorRef<T> &t, double &total) {
  const auto kernel = th::vec::sum<T>();
  if (!kernel || !th::isContiguous(t)) return false;
  const int64_t n = th::numel(t);
  const int maxThreads = omp_get_max_threads();
  if (n <= TH_OMP_THRESHOLD || maxThreads == 1 || omp_in_parallel()) {
    total = kernel(t.data, n);
    return true;
  }
  const int64_t pieces = th::detail::pieceCount(n);
  std::vector<double> partial(pieces, 0.0);  // Note [Pieces, not halves]
  th::detail::parallelPieces(
      n, pieces, [&](int64_t p, int64_t begin, int64_t end) { partial[p] = kernel(t.data + begin, end - begin); });
  total = 0;
  for (double part : partial) total += part;
  return true;
}

// A reduction of reduceDim (generic/THTensorReduce.cpp) with no kernel for whole lines.
struct NoLineKernel {
  template <typename T, typename Acc>
  bool operator()(const T *, int64_t, Acc &) const {
    return false;
  }
};

// th::reduceAll for several tensors with the same number of elements, and for accumulators
// that are costly to copy (a histogram): each thread folds its part into a fresh copy of
// init (which must be neutral) with step(acc, x...), and merge(total, part) adds the parts
// up. Same shapes run in parallel; different shapes are walked in their own row-major order.
template <typename Acc, typename Step, typename Merge, typename... T>
Acc foldAll(Acc init, Step step, Merge merge, th::TensorRef<T>... rs) {
  constexpr size_t N = sizeof...(T);
  const auto first = std::get<0>(std::make_tuple(rs...));
  const int64_t n = th::numel(first);
  Acc total = init;
  if (n == 0) return total;
  const bool sameShape = ((rs.ndim == first.ndim && std::equal(rs.size, rs.size + rs.ndim, first.size)) && ...);
  if (!sameShape) {
    std::tuple<th::detail::Cursor<T>...> cursors{th::detail::Cursor<T>(rs)...};
    for (int64_t i = 0; i < n; i++)
      std::apply(
          [&](auto &...c) {
            step(total, c.get()...);
            (c.next(), ...);
          },
          cursors);
    return total;
  }
  const int64_t *strides[N] = {rs.stride...};
  auto layout = th::detail::collapse<N>(first.ndim, first.size, strides);
  if (n <= TH_OMP_THRESHOLD) {
    auto body = [&](T &...x) { step(total, x...); };
    th::detail::stridedRange(layout, 0, n, body, std::make_index_sequence<N>{}, rs.data...);
    return total;
  }
  const int64_t pieces = th::detail::pieceCount(n);
  struct Part {  // not a vector<bool>'s packed bits when Acc is bool
    Acc acc;
  };
  std::vector<Part> parts(pieces, Part{init});  // merged in piece order: Note [Pieces, not halves]
  th::detail::parallelPieces(n, pieces, [&](int64_t p, int64_t begin, int64_t end) {
    auto body = [&](T &...x) { step(parts[p].acc, x...); };
    th::detail::stridedRange(layout, begin, end, body, std::make_index_sequence<N>{}, rs.data...);
  });
  for (Part &part : parts) merge(total, part.acc);
  return total;
}

// Reductions and scans along a dimension whose lines are strided (not innermost in memory):
// walking one line at a time touches a new cache line, often a new page, per element. Lines
// are instead taken a block at a time and walked plane by plane (k = 0, 1, ... along dim),
// each plane read in memory order; acc holds the running state of each line of the block.
// visit(acc, x, o) sees element k of a line of t and of out (out advances by outStep per k:
// 0 for a reduction), finish(acc, o) ends a line.
template <typename T>
bool linesAreStrided(const th::TensorRef<T> &t, int dim) {
  if (t.ndim == 0 || t.size[dim] < 8) return false;
  for (int d = 0; d < t.ndim; d++)
    if (d != dim && t.size[d] > 1 && t.stride[d] < t.stride[dim]) return true;
  return false;
}

template <typename T, typename Acc, typename Visit, typename Finish>
void walkPlanes(th::TensorRef<T> t, th::TensorRef<T> out, int dim, int64_t outStep, Acc init, Visit visit,
                Finish finish) {
  constexpr int64_t kBlock = 2048;
  std::vector<int64_t> size, accStride, tStride, oStride;
  for (int d = 0; d < t.ndim; d++) {
    if (d == dim) continue;
    size.push_back(t.size[d]);
    tStride.push_back(t.stride[d]);
    oStride.push_back(out.stride[d]);
  }
  accStride.resize(size.size());
  int64_t lines = 1;
  for (int d = (int)size.size() - 1; d >= 0; d--) {
    accStride[d] = lines;
    lines *= size[d];
  }
  if (lines == 0) return;
  const int64_t *strides[3] = {accStride.data(), tStride.data(), oStride.data()};
  auto layout = th::detail::collapse<3>((int)size.size(), size.data(), strides);
  const int64_t length = t.size[dim];
  std::vector<Acc> acc(lines, init);
  th::detail::parallelFor(lines, TH_OMP_THRESHOLD / length, [&](int64_t begin, int64_t end) {
    for (int64_t first = begin; first < end; first += kBlock) {
      const int64_t last = std::min(end, first + kBlock);
      for (int64_t k = 0; k < length; k++)
        th::detail::stridedRange(layout, first, last, visit, std::make_index_sequence<3>{}, acc.data(),
                                 t.data + k * t.stride[dim], out.data + k * outStep);
      auto done = [&](Acc &a, T &, T &o) { finish(a, o); };
      th::detail::stridedRange(layout, first, last, done, std::make_index_sequence<3>{}, acc.data(), t.data, out.data);
    }
  });
}

// Mean and sum of squared deviations, updated one value at a time (Welford): one pass, and
// no cancellation as in sum(x^2) - n mean^2.
struct Moments {
  double mean = 0, m2 = 0;
  int64_t n = 0;
  void add(double x) {
    n++;
    const double d = x - mean;
    mean += d / (double)n;
    m2 += d * (x - mean);
  }
  double var(bool biased) const { return n == 0 ? NAN : m2 / (double)(biased ? n : n - 1); }
};

// Folds every element of t into acc[i], i its index along dim (parallel: each thread fills
// a private acc, merged with combine). Used by renorm for the norms of all sub-tensors at
// once, in one pass in memory order.
template <typename T, typename Step, typename Combine>
std::vector<double> foldAlong(th::TensorRef<T> t, int dim, Step step, Combine combine) {
  std::vector<double> total(t.size[dim], 0.0);
  const int64_t n = th::numel(t);
  if (n == 0) return total;
  std::vector<int64_t> accStride(t.ndim, 0);
  accStride[dim] = 1;
  const int64_t *strides[2] = {accStride.data(), t.stride};
  auto layout = th::detail::collapse<2>(t.ndim, t.size, strides);
  const int64_t pieces = n <= TH_OMP_THRESHOLD ? 1 : th::detail::pieceCount(n);
  std::vector<std::vector<double>> parts(pieces);  // combined in piece order: Note [Pieces, not halves]
  th::detail::parallelPieces(n, pieces, [&](int64_t p, int64_t begin, int64_t end) {
    parts[p].assign(total.size(), 0.0);
    auto body = [&](double &a, T &x) { a = step(a, x); };
    th::detail::stridedRange(layout, begin, end, body, std::make_index_sequence<2>{}, parts[p].data(), t.data);
  });
  for (const auto &part : parts)
    for (size_t i = 0; i < total.size(); i++) total[i] = combine(total[i], part[i]);
  return total;
}

// The p-norm as a fold from 0: acc = step(acc, x), parts merged with combine, the norm is
// finish(acc). withNorm picks the kind for p once, outside the loops.
struct NormSum {
  double combine(double a, double b) const { return a + b; }
  double finish(double acc) const { return acc; }
};
struct NormCount : NormSum {
  double step(double acc, double x) const { return acc + (x != 0 ? 1 : 0); }
};
struct NormAbs : NormSum {
  double step(double acc, double x) const { return acc + std::fabs(x); }
};
struct NormSquare : NormSum {
  double step(double acc, double x) const { return acc + x * x; }
  double finish(double acc) const { return std::sqrt(acc); }
};
struct NormPow : NormSum {
  double p;
  double step(double acc, double x) const { return acc + std::pow(std::fabs(x), p); }
  double finish(double acc) const { return std::pow(acc, 1 / p); }
};
struct NormMax {
  double combine(double a, double b) const { return (b > a || std::isnan(b)) ? b : a; }
  double step(double acc, double x) const { return combine(acc, std::fabs(x)); }
  double finish(double acc) const { return acc; }
};

template <typename F>
auto withNorm(double p, F &&f) {
  if (p == 0) return f(NormCount{});
  if (p == 1) return f(NormAbs{});
  if (p == 2) return f(NormSquare{});
  if (std::isinf(p) && p > 0) return f(NormMax{});
  NormPow general;
  general.p = p;
  return f(general);
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorReduce.cpp"
#include "TH/THGenerateAllTypes.h"
