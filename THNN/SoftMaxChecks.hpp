// SoftMax's argument rules, shared by THNN (generic/SoftMax.cpp) and THCUNN (SoftMax.cu), so
// that both devices accept the same shapes and raise the same messages. Templates over the
// tensor struct: TH's and THC's have one layout.
#ifndef THNN_SOFT_MAX_CHECKS_HPP
#define THNN_SOFT_MAX_CHECKS_HPP

#include <string>

#include "TH/THGeneral.h"

namespace thnn::softmax {

// "[2, 3]"
template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

// torch7's dimension of the classes: 1-D and 3-D (planes x h x w) input start with it,
// 2-D and 4-D carry a batch dimension first.
template <typename TensorT>
int dimOf(const char *fn, const TensorT *input) {
  const int nd = input->nDimension;
  THArgCheck(nd >= 1 && nd <= 4, 2, "%s: 1-D, 2-D, 3-D or 4-D input expected, got sizes %s", fn,
             sizesOf(input).c_str());
  return nd % 2 == 1 ? 0 : 1;
}

// A backward reads whole lines of gradOutput and output next to input's.
template <typename TensorT>
void checkSameShape(const char *fn, const TensorT *input, const TensorT *t, int arg, const char *name) {
  bool same = t->nDimension == input->nDimension;
  for (int d = 0; same && d < input->nDimension; d++) same = t->size[d] == input->size[d];
  THArgCheck(same, arg, "%s: %s of sizes %s must have the sizes of input %s", fn, name, sizesOf(t).c_str(),
             sizesOf(input).c_str());
}

}  // namespace thnn::softmax

#endif
