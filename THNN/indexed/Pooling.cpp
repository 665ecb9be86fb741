// Max pooling and unpooling: indices count from TH_INDEX_BASE, so this file is compiled
// once per base. The kernels are in generic/MaxPooling.cpp, compiled for Float and Double.
#include "THNN/Pooling.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "THNN/generic/PoolingHelpers.h"

using thnn::pooling::Axis;
using thnn::pooling::Planes;
using thnn::pooling::Result;
using thnn::pooling::SlidingSpec;
using thnn::pooling::Window;

namespace {

// Raises an index error unless all n indices lie in [TH_INDEX_BASE, TH_INDEX_BASE + limit).
void checkIndices(const int64_t *ind, int64_t n, int64_t limit, const char *what) {
  for (int64_t i = 0; i < n; i++)
    if (ind[i] < TH_INDEX_BASE || ind[i] >= TH_INDEX_BASE + limit)
      THIndexError("indices: index %lld is out of range for %s of %lld elements (TH_INDEX_BASE %d)", (long long)ind[i],
                   what, (long long)limit, TH_INDEX_BASE);
}

// A later element wins over the best so far when larger, or when it is the first NaN.
template <typename T>
bool beats(T v, T best) {
  return v > best || (std::isnan(v) && !std::isnan(best));
}

/* Note [Max pooling fast path]: a sliding axis W without dilation (window o covers
 * [o * d - pad, o * d - pad + k) clipped to the input) is pooled one output row at a time:
 * the input rows its windows read (the (t, h) pairs of the row's T and H windows, in window
 * order) are listed once, then the outputs of the row whose windows lie inside the input
 * are pooled one window element at a time: each pass compares one element of every window
 * with the best so far, branch-free (random data would mispredict half the branches) and
 * vectorised, with sizes fixed at compile time for the common kernels (2 and 3, stride 1
 * and 2). The few border outputs (padding, ceil mode) take the general loop over their
 * clipped window.
 * Window order is row-major and a later element replaces the best only when it beats it,
 * so the first maximum (or first NaN) wins exactly as in the general kernel. */
struct Slide {
  int k, d, pad;  // k == 0: not a plain sliding axis; the general kernel runs
};

// An integer as wide as T: the window position of each output's best so far, kept beside
// the values in a type of the same width so that the loop over outputs vectorises.
template <typename T>
using Code = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;

// The outputs [lo, hi) of one output row whose columns x0 + o * D + [0, K) lie inside the
// input, over the nr rows at offsets rows[]. NR, KW, DW: compile-time nr, k and d, or 0
// for the run-time ones. The row is pooled one window element at a time, so that the loop
// over outputs holds no branch and vectorises; rel[] (hi - lo entries) holds the offset
// of each best from its window's first element (Note [Max pooling fast path]).
template <int NR, int KW, int DW, typename T>
void maxRowsInterior(const T *src, const int64_t *rows, int nr, int k, int d, int64_t x0, int64_t lo, int64_t hi,
                     T *dstRow, int64_t *indRow, Code<T> *relRow) {
  const int R = NR ? NR : nr, K = KW ? KW : k, D = DW ? DW : d;
  const int64_t n = hi - lo, x = x0 + lo * D;
  T *__restrict dst = dstRow + lo;
  Code<T> *__restrict rel = relRow;
  {
    const T *__restrict in = src + rows[0] + x;
    for (int64_t o = 0; o < n; o++) {
      dst[o] = in[o * D];
      rel[o] = 0;
    }
  }
  for (int r = 0; r < R; r++)
    for (int j = r == 0 ? 1 : 0; j < K; j++) {
      const T *__restrict in = src + rows[r] + x + j;
      const Code<T> code = (Code<T>)(rows[r] - rows[0] + j);
      for (int64_t o = 0; o < n; o++) {
        const T v = in[o * D], best = dst[o];
        // beats(v, best) with comparisons only (v != v: v is NaN), evaluated eagerly
        const bool take = (v > best) | ((v != v) & (best == best));
        dst[o] = take ? v : best;
        rel[o] = take ? code : rel[o];
      }
    }
  int64_t *__restrict ind = indRow + lo;
  const int64_t at = rows[0] + x + TH_INDEX_BASE;
  for (int64_t o = 0; o < n; o++) ind[o] = at + o * D + rel[o];
}

template <typename T>
using RowKernel = void (*)(const T *, const int64_t *, int, int, int, int64_t, int64_t, int64_t, T *, int64_t *,
                           Code<T> *);

template <int K, int D, typename T>
RowKernel<T> squareOrNot(int nr) {
  return nr == K ? maxRowsInterior<K, K, D, T> : maxRowsInterior<0, K, D, T>;
}

template <typename T>
RowKernel<T> rowKernel(int nr, int k, int d) {
  if (k == 2 && d == 2) return squareOrNot<2, 2, T>(nr);
  if (k == 2 && d == 1) return squareOrNot<2, 1, T>(nr);
  if (k == 3 && d == 2) return squareOrNot<3, 2, T>(nr);
  if (k == 3 && d == 1) return squareOrNot<3, 1, T>(nr);
  return maxRowsInterior<0, 0, 0, T>;
}

// One plane of H x W rows pooled over windows ax (ax[2] the sliding axis s), with rows a
// buffer of at least as many entries as a T window times an H window has rows, rel one of
// ax[2].out() entries. The plane has fewer elements than Code<T> can count.
template <typename T>
void maxPlaneSliding(const T *src, int64_t H, int64_t W, const Axis (&ax)[3], const Slide &s, T *dst, int64_t *ind,
                     int64_t *rows, Code<T> *rel) {
  using thnn::pooling::ceilDiv;
  using thnn::pooling::floorDiv;
  const int64_t outW = ax[2].out();
  const int64_t lo = std::min(outW, ceilDiv(s.pad, s.d));
  const int64_t hi = std::max(lo, std::min(outW, floorDiv(W - s.k + s.pad, s.d) + 1));
  for (const Window &wt : ax[0].windows)
    for (const Window &wh : ax[1].windows) {
      int nr = 0;
      for (int64_t z = wt.first; z < wt.end; z += wt.step)
        for (int64_t y = wh.first; y < wh.end; y += wh.step) rows[nr++] = (z * H + y) * W;
      auto border = [&](int64_t o) {
        const Window &ww = ax[2].windows[o];
        int64_t bestAt = rows[0] + ww.first;
        T best = src[bestAt];
        for (int r = 0; r < nr; r++)
          for (int64_t at = rows[r] + ww.first; at < rows[r] + ww.end; at++)
            if (beats(src[at], best)) {
              best = src[at];
              bestAt = at;
            }
        dst[o] = best;
        ind[o] = bestAt + TH_INDEX_BASE;
      };
      for (int64_t o = 0; o < lo; o++) border(o);
      rowKernel<T>(nr, s.k, s.d)(src, rows, nr, s.k, s.d, -(int64_t)s.pad, lo, hi, dst, ind, rel);
      for (int64_t o = hi; o < outW; o++) border(o);
      dst += outW;
      ind += outW;
    }
}

}  // namespace

#define TH_GENERIC_FILE "THNN/generic/MaxPooling.cpp"
#include "TH/THGenerateFloatTypes.h"
