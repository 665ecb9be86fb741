// Max pooling and unpooling: indices count from TH_INDEX_BASE, so this file is compiled
// once per base. The kernels are in generic/PoolingMax.cpp, compiled for Float and Double.
#include "THNN/Pooling.h"

#include <cmath>

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

}  // namespace

#define TH_GENERIC_FILE "THNN/generic/PoolingMax.cpp"
#include "TH/THGenerateFloatTypes.h"
