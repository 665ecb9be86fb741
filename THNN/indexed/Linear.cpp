// LookupTable, SparseLinear and IndexLinear for Float and Double. Their ids and keys count
// from TH_INDEX_BASE, so this translation unit is compiled once per base.
#include "THNN/Linear.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "THNN/generic/LinearUtil.h"
#include "TH/THTensor.hpp"

namespace linear = thnn::linear;
using linear::shape;

namespace {

// Counting sort of the items 0..n-1 by group(i) in [0, groups): the items of group g are
// order[start[g]] .. order[start[g + 1] - 1], in their original order.
struct Groups {
  std::vector<int64_t> start, order;
};

template <typename GroupOf>
Groups groupBy(int64_t n, int64_t groups, GroupOf groupOf) {
  Groups r{std::vector<int64_t>(groups + 1, 0), std::vector<int64_t>(n)};
  for (int64_t i = 0; i < n; i++) r.start[groupOf(i) + 1]++;
  for (int64_t g = 0; g < groups; g++) r.start[g + 1] += r.start[g];
  std::vector<int64_t> next(r.start.begin(), r.start.end() - 1);
  for (int64_t i = 0; i < n; i++) r.order[next[groupOf(i)]++] = i;
  return r;
}

// The 0-based rows that the ids of a LongTensor name (row-major order), each checked to
// lie in [TH_INDEX_BASE, TH_INDEX_BASE + nRows).
std::vector<int64_t> rowsOf(const char *fn, const char *what, THLongTensor *ids, int64_t nRows) {
  std::vector<int64_t> rows;
  rows.reserve(linear::numel(ids));
  th::applyInOrder([&](int64_t &id) { rows.push_back(id - TH_INDEX_BASE); }, th::ref(ids));
  for (int64_t r : rows)
    if (r < 0 || r >= nRows)
      THIndexError("%s: %s %lld is out of range for %lld rows (ids count from %d)", fn, what,
                   (long long)(r + TH_INDEX_BASE), (long long)nRows, TH_INDEX_BASE);
  return rows;
}

// A SparseLinear id, stored as a value of the input's type: an integer in
// [TH_INDEX_BASE, TH_INDEX_BASE + n). Returns it 0-based.
template <typename T>
int64_t sparseId(const char *fn, const char *what, T value, int64_t n) {
  const double x = (double)value;
  if (!(x >= TH_INDEX_BASE && x < (double)n + TH_INDEX_BASE) || x != std::floor(x))
    THIndexError("%s: %s %g is not an integer in [%d, %lld]", fn, what, x, TH_INDEX_BASE,
                 (long long)(n - 1 + TH_INDEX_BASE));
  return (int64_t)x - TH_INDEX_BASE;
}

// One non-zero of a sparse input: its sample, its feature (both 0-based) and its value.
template <typename T>
struct SparseEntry {
  int64_t sample, feature;
  T value;
};

// The weight rows of IndexLinear keys: key - TH_INDEX_BASE + keysOffset, each checked to
// lie in [0, nRows).
std::vector<int64_t> keyRows(const char *fn, THLongTensor *keys, int argNumber, int64_t keysOffset, int64_t nRows) {
  THArgCheck(keys->nDimension == 1, argNumber, "%s: keys must be a vector, got %s", fn, shape(keys).c_str());
  std::vector<int64_t> rows;
  rows.reserve(keys->size[0]);
  th::applyInOrder([&](int64_t &key) { rows.push_back(key - TH_INDEX_BASE + keysOffset); }, th::ref(keys));
  for (int64_t r : rows)
    if (r < 0 || r >= nRows)
      THIndexError(
          "%s: key %lld with keysOffset %lld names row %lld, outside the %lld rows of weight (keys count "
          "from %d)",
          fn, (long long)(r + TH_INDEX_BASE - keysOffset), (long long)keysOffset, (long long)r, (long long)nRows,
          TH_INDEX_BASE);
  return rows;
}

// An IndexLinear batch, checked: the weight row of every entry, and the first entry of
// every sample (start[j] .. start[j + 1] - 1 are sample j's entries).
struct IndexBatch {
  std::vector<int64_t> rows, start;
};

IndexBatch indexBatch(const char *fn, THLongTensor *keys, int64_t keysOffset, THLongTensor *sizes,
                      THLongTensor *cumSumSizes, int64_t nRows) {
  THArgCheck(sizes->nDimension == 1, 5, "%s: sizes must be a vector, got %s", fn, shape(sizes).c_str());
  const int64_t batch = sizes->size[0];
  THArgCheck(linear::isVectorOf(cumSumSizes, batch), 6, "%s: cumSumSizes must be [%lld] like sizes, got %s", fn,
             (long long)batch, shape(cumSumSizes).c_str());
  IndexBatch b;
  b.start.push_back(0);
  th::applyInOrder([&](int64_t &n) { b.start.push_back(b.start.back() + n); }, th::ref(sizes));
  int64_t j = 0;
  th::applyInOrder(
      [&](int64_t &cum) {
        THArgCheck(b.start[j + 1] >= b.start[j] && cum == b.start[j + 1], 6,
                   "%s: sizes must be >= 0 and cumSumSizes their running sum; sample %lld has size %lld and "
                   "cumSumSizes %lld",
                   fn, (long long)j, (long long)(b.start[j + 1] - b.start[j]), (long long)cum);
        j++;
      },
      th::ref(cumSumSizes));
  b.rows = keyRows(fn, keys, 2, keysOffset, nRows);
  THArgCheck(b.start.back() == (int64_t)b.rows.size(), 5, "%s: sizes add up to %lld but there are %lld keys", fn,
             (long long)b.start.back(), (long long)b.rows.size());
  return b;
}

}  // namespace

#define TH_GENERIC_FILE "THNN/generic/LookupTable.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/SparseLinear.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/IndexLinear.cpp"
#include "TH/THGenerateFloatTypes.h"
