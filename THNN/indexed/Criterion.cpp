// Class criterions: their targets are class indices counting from TH_INDEX_BASE, so this
// translation unit is built once per base. The kernels are in
// generic/CriterionIndexed.cpp, compiled for Float and Double.
#include "THNN/Criterion.h"

#include <algorithm>
#include <vector>

#include "TH/THTensorMath.h"
#include "THNN/generic/CriterionHelpers.h"

namespace thnn::criterion {

// A 0-dim or 1-dim tensor as one strided line.
template <typename TensorT>
th::DimSlice<Elem<TensorT>> lineOf(TensorT *t) {
  return {th::ref(t).data, t->nDimension ? t->size[0] : 1, t->nDimension ? t->stride[0] : 1};
}

// A vector (seen as one row) or a matrix, with its strides.
template <typename T>
struct Rows {
  T *data;
  int64_t rows, cols, rowStride, colStride;
  T &operator()(int64_t i, int64_t j) const { return data[i * rowStride + j * colStride]; }
};

template <typename TensorT>
Rows<Elem<TensorT>> rowsOf(TensorT *t) {
  auto *data = th::ref(t).data;
  if (t->nDimension == 1) return {data, 1, t->size[0], 0, t->stride[0]};
  return {data, t->size[0], t->size[1], t->stride[0], t->stride[1]};
}

struct BadTarget {
  bool found;
  int64_t value;
};

// Raises THIndexError for a target outside [first, classes + TH_INDEX_BASE) that is not
// *ignore (when given), the first in row-major order. Runs before a kernel writes anything.
inline void checkTargets(THLongTensor *target, int64_t classes, int64_t first, const int64_t *ignore) {
  const int64_t end = classes + TH_INDEX_BASE;
  auto valid = [=](int64_t v) { return (v >= first && v < end) || (ignore && v == *ignore); };
  const BadTarget bad = th::reduceAll(
      th::ref(target), BadTarget{false, 0},
      [&](BadTarget acc, int64_t v) {
        return acc.found || valid(v) ? acc : BadTarget{true, v};
      },
      [](BadTarget a, BadTarget b) { return a.found ? a : b; });
  if (bad.found) raiseBadTarget(bad.value, classes, first, TH_INDEX_BASE);
}

}  // namespace thnn::criterion

namespace criterion = thnn::criterion;

#define TH_GENERIC_FILE "THNN/generic/CriterionIndexed.cpp"
#include "TH/THGenerateFloatTypes.h"
