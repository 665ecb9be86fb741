// Element-wise criterions (no indices): the kernels are in generic/Criterion.cpp,
// compiled for Float and Double, their formulas in THNN/CriterionFunctions.hpp.
#include "THNN/Criterion.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "TH/THTensorMath.h"
#include "THNN/CriterionFunctions.hpp"
#include "THNN/generic/CriterionHelpers.h"

namespace thnn::criterion {

// sum over i of f(a_i, b_i, ...) in double, elements paired in row-major order, over
// contiguous copies (the tensors themselves when contiguous), threaded when large.
template <typename F, typename... TensorT>
double sumOf(F f, TensorT *...ts) {
  auto owned = std::make_tuple(th::own(th::TH<Elem<TensorT>>::newContiguous(ts))...);
  const int64_t n = count(std::get<0>(owned).get());
  const auto data = std::apply([](auto &...o) { return std::make_tuple(th::ref(o.get()).data...); }, owned);
  return th::detail::parallelSum(
      n, TH_OMP_THRESHOLD, [&](int64_t i) { return std::apply([&](auto *...p) { return (double)f(p[i]...); }, data); });
}

}  // namespace thnn::criterion

namespace criterion = thnn::criterion;

#define TH_GENERIC_FILE "THNN/generic/Criterion.cpp"
#include "TH/THGenerateFloatTypes.h"
