// Not a generic file: the criterions' argument checks and messages, shared by THNN
// (THNN/Criterion.cpp, THNN/indexed/Criterion.cpp) and THCUNN (Criterion.cu,
// indexed/Criterion.cu), so that both devices raise the same errors. Templates over the
// tensor struct (TH's and THC's have one layout); only reducedGradOutput reads elements.
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
int64_t count(const TensorT *t) {
  int64_t n = 1;
  for (int d = 0; d < t->nDimension; d++) n *= t->size[d];
  return n;
}

// "[2, 3]", owned by the caller (sizeDesc's buffer would be shared by two calls in one message).
template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

/* ---- element-wise criterions ---- */

// target (and weights, when given: argument weightsArg) pair with input element by element.
// (weights' type is not deduced, so that it may be a bare nullptr.)
template <typename TensorT>
void checkPointwise(const TensorT *input, const TensorT *target, const std::common_type_t<TensorT> *weights,
                    int weightsArg) {
  const int64_t n = count(input);
  THArgCheck(count(target) == n, 3, "target must have as many elements as input %s, got sizes %s",
             sizesOf(input).c_str(), sizesOf(target).c_str());
  if (weights)
    THArgCheck(count(weights) == n, weightsArg, "weights must have as many elements as input %s, got sizes %s",
               sizesOf(input).c_str(), sizesOf(weights).c_str());
}

// BCECriterion's input value that lies outside [0, 1] (the first in row-major order).
inline void raiseBadProbability(double value) {
  THArgCheck(false, 2, "BCECriterion input values must lie in [0, 1], got %g", value);
}

// gradOutput of a reduced loss (Note [Criterion reduction]): one element, or NULL.
template <typename TensorT>
void checkReducedGradOutput(const TensorT *gradOutput, int argNumber) {
  if (gradOutput)
    THArgCheck(count(gradOutput) == 1, argNumber, "gradOutput of a reduced loss must have one element, got sizes %s",
               sizesOf(gradOutput).c_str());
}

// The factor of a reduced loss's gradient on the CPU: gradOutput's one element, 1 for NULL.
template <typename TensorT>
double reducedGradOutput(TensorT *gradOutput, int argNumber) {
  checkReducedGradOutput(gradOutput, argNumber);
  return gradOutput ? (double)*th::ref(gradOutput).data : 1.0;
}

// gradOutput of an unreduced loss: one value per loss.
template <typename TensorT>
void checkLossGradOutput(const TensorT *gradOutput, int64_t losses, int argNumber) {
  THArgCheck(gradOutput != nullptr, argNumber, "gradOutput is required without reduce (%lld losses)",
             (long long)losses);
  THArgCheck(count(gradOutput) == losses, argNumber, "gradOutput must have one value per loss (%lld), got sizes %s",
             (long long)losses, sizesOf(gradOutput).c_str());
}

/* ---- class criterions (targets count from `base`, the caller's TH_INDEX_BASE) ---- */

template <typename TensorT>
void checkClassWeights(const TensorT *weights, int64_t classes, int argNumber) {
  if (weights)
    THArgCheck(count(weights) == classes, argNumber, "weights must have one element per class (%lld), got sizes %s",
               (long long)classes, sizesOf(weights).c_str());
}

// Raises THIndexError for a target that lies outside [first, classes + base): the first bad
// one in row-major order. first < base for multi-label lists, which end at base - 1.
inline void raiseBadTarget(int64_t value, int64_t classes, int64_t first, int base) {
  const int64_t end = classes + base;
  if (first < base)
    THIndexError("target %lld is out of range for %lld classes (expected %d to %lld, or %lld to end the list)",
                 (long long)value, (long long)classes, base, (long long)(end - 1), (long long)first);
  THIndexError("target %lld is out of range for %lld classes (expected %d to %lld)", (long long)value,
               (long long)classes, base, (long long)(end - 1));
}

// ClassNLLCriterion's shapes: a vector input with a one-element target, or a batch with a
// vector of targets; weights (argument weightsArg) one per class.
template <typename TensorT, typename IndexTensorT>
void checkClassNLLShapes(const TensorT *input, const IndexTensorT *target, const TensorT *weights, int weightsArg) {
  THArgCheck(input->nDimension == 1 || input->nDimension == 2, 2,
             "input must be a vector (classes) or a matrix (batch x classes), got sizes %s", sizesOf(input).c_str());
  if (input->nDimension == 1)
    THArgCheck(target->nDimension <= 1 && count(target) == 1, 3,
               "target of a vector input must have one element, got sizes %s", sizesOf(target).c_str());
  else
    THArgCheck(target->nDimension == 1 && target->size[0] == input->size[0], 3,
               "target must be a vector of %lld class indices, got sizes %s", (long long)input->size[0],
               sizesOf(target).c_str());
  checkClassWeights(weights, input->size[input->nDimension - 1], weightsArg);
}

template <typename TensorT, typename IndexTensorT>
void checkSpatialClassNLLShapes(const TensorT *input, const IndexTensorT *target, const TensorT *weights,
                                int weightsArg) {
  THArgCheck(input->nDimension == 4, 2, "input must be 4-D (batch x classes x height x width), got sizes %s",
             sizesOf(input).c_str());
  THArgCheck(target->nDimension == 3 && target->size[0] == input->size[0] && target->size[1] == input->size[2] &&
                 target->size[2] == input->size[3],
             3, "target must be %lld x %lld x %lld for input %s, got sizes %s", (long long)input->size[0],
             (long long)input->size[2], (long long)input->size[3], sizesOf(input).c_str(), sizesOf(target).c_str());
  checkClassWeights(weights, input->size[1], weightsArg);
}

// SpatialClassNLLCriterion's gradOutput without reduce: one value per pixel, target's sizes.
template <typename TensorT, typename IndexTensorT>
void checkSpatialLossGradOutput(const TensorT *gradOutput, const IndexTensorT *target) {
  THArgCheck(gradOutput && gradOutput->nDimension == 3 && gradOutput->size[0] == target->size[0] &&
                 gradOutput->size[1] == target->size[1] && gradOutput->size[2] == target->size[2],
             4, "gradOutput must have target's sizes %s without reduce, got %s", sizesOf(target).c_str(),
             gradOutput ? sizesOf(gradOutput).c_str() : "NULL");
}

}  // namespace thnn::criterion

#endif
