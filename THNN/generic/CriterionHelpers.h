// Not a generic file: type-independent checks shared by THNN/Criterion.cpp and
// THNN/indexed/Criterion.cpp (templates over the tensor struct).
#ifndef THNN_CRITERION_HELPERS_H
#define THNN_CRITERION_HELPERS_H

#include <string>
#include <type_traits>
#include <utility>

#include "TH/THTensor.hpp"

namespace thnn::criterion {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT *>()->storage->data)>;

template <typename TensorT>
int64_t count(TensorT *t) {
  return th::numel(th::ref(t));
}

// "[2, 3]", owned by the caller (sizeDesc's buffer would be shared by two calls in one message).
template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

// The factor of a reduced loss's gradient (Note [Criterion reduction]): gradOutput's one
// element, 1 for NULL.
template <typename TensorT>
double reducedGradOutput(TensorT *gradOutput, int argNumber) {
  if (!gradOutput) return 1;
  THArgCheck(count(gradOutput) == 1, argNumber, "gradOutput of a reduced loss must have one element, got sizes %s",
             sizesOf(gradOutput).c_str());
  return (double)*th::ref(gradOutput).data;
}

// gradOutput of an unreduced loss: one value per loss.
template <typename TensorT>
void checkLossGradOutput(TensorT *gradOutput, int64_t losses, int argNumber) {
  THArgCheck(gradOutput != nullptr, argNumber, "gradOutput is required without reduce (%lld losses)",
             (long long)losses);
  THArgCheck(count(gradOutput) == losses, argNumber, "gradOutput must have one value per loss (%lld), got sizes %s",
             (long long)losses, sizesOf(gradOutput).c_str());
}

}  // namespace thnn::criterion

#endif
