/* max/min with indices, sort, topk, kthvalue, median, mode: compiled once per TH_INDEX_BASE.
 * The type-independent pieces are here; the ops are in TH/generic/THTensorSort.cpp. */
#include "TH/THTensorSort.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "TH/THTensor.hpp"

namespace {

template <typename T>
bool isNan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

/* An element of a line and its position in the line (from 0). */
template <typename T>
struct Item {
  T value;
  int64_t index;
};

/* Ascending or descending by value, ties by index: a strict total order on numbers (NaNs
 * are put aside by load), so std::sort and std::nth_element give what a stable sort gives. */
template <typename T, bool Descending>
struct Before {
  bool operator()(const Item<T> &a, const Item<T> &b) const {
    if (a.value != b.value) return Descending ? a.value > b.value : a.value < b.value;
    return a.index < b.index;
  }
};

template <typename T>
bool sameValue(T a, T b) {
  return a == b || (isNan(a) && isNan(b));
}

/* First occurrence of the largest (Max) or smallest element, or the first NaN. */
template <bool Max, typename T>
Item<T> extreme(const th::DimSlice<T> &line) {
  Item<T> best{line[0], 0};
  if (isNan(best.value)) return best;
  for (int64_t i = 1; i < line.size; i++) {
    const T x = line[i];
    if (isNan(x)) return {x, i};
    if (Max ? x > best.value : x < best.value) best = {x, i};
  }
  return best;
}

/* Copies line into buf, its NaNs (in index order) after the numbers, or before them if
 * NanFirst: where Note [NaN order] puts them. Returns where the numbers are, [first, last),
 * which is all an Item order has to sort. */
template <bool NanFirst, typename T>
std::pair<int64_t, int64_t> load(std::vector<Item<T>> &buf, const th::DimSlice<T> &line) {
  buf.resize(line.size);
  int64_t numbers = 0;
  for (int64_t i = 0; i < line.size; i++)
    if (!isNan(line[i])) buf[numbers++] = {line[i], i};
  if (numbers == line.size) return {0, numbers};
  const int64_t first = NanFirst ? line.size - numbers : 0;
  std::move_backward(buf.begin(), buf.begin() + numbers, buf.begin() + first + numbers);
  int64_t nan = NanFirst ? 0 : numbers;
  for (int64_t i = 0; i < line.size; i++)
    if (isNan(line[i])) buf[nan++] = {line[i], i};
  return {first, first + numbers};
}

/* Loads line into buf and reorders it so that its first k items are those a stable sort
 * (ascending, or descending if Descending) puts first, in that order if sorted: quickselect
 * in O(n), then a sort of those k only. */
template <bool Descending, typename T>
void selectFirst(std::vector<Item<T>> &buf, const th::DimSlice<T> &line, int64_t k, bool sorted) {
  const auto [first, last] = load<Descending>(buf, line);
  if (k <= first) return;  // NaNs only, already in order
  const int64_t end = std::min(k, last);
  const Before<T, Descending> before;
  if (end < last) std::nth_element(buf.begin() + first, buf.begin() + end, buf.begin() + last, before);
  if (sorted) std::sort(buf.begin() + first, buf.begin() + end, before);
}

/* The element a stable ascending sort puts at position k (from 0). */
template <typename T>
Item<T> kth(std::vector<Item<T>> &buf, const th::DimSlice<T> &line, int64_t k) {
  const int64_t numbers = load<false>(buf, line).second;
  if (k < numbers) std::nth_element(buf.begin(), buf.begin() + k, buf.begin() + numbers, Before<T, false>());
  return buf[k];
}

/* Lines are handed to threads by applyDim: each thread reuses its own buffer, so a call
 * allocates per thread, not per line. Inside an enclosing parallel region applyDim runs
 * on the calling thread only. */
template <typename X>
class PerThread {
 public:
  PerThread() : nested_(omp_in_parallel()), buffers_(nested_ ? 1 : omp_get_max_threads()) {}
  std::vector<X> &get() { return buffers_[nested_ ? 0 : omp_get_thread_num()]; }

 private:
  bool nested_;
  std::vector<std::vector<X>> buffers_;
};

/* A reduction's output seen with the reduced dimension (size 1) that keepdim = 0 dropped,
 * so that applyDim can walk it beside the input. */
template <typename T>
class WithDim {
 public:
  WithDim(th::TensorRef<T> r, int dim, bool insert)
      : data_(r.data), size_(r.size, r.size + r.ndim), stride_(r.stride, r.stride + r.ndim) {
    if (insert) {
      size_.insert(size_.begin() + dim, 1);
      stride_.insert(stride_.begin() + dim, 0);
    }
  }
  th::TensorRef<T> ref() const { return {data_, (int)size_.size(), size_.data(), stride_.data()}; }

 private:
  T *data_;
  std::vector<int64_t> size_, stride_;
};

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorSort.cpp"
#include "TH/THGenerateAllTypes.h"
