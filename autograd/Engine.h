// Runs a recorded graph backward.
#ifndef TORCH_ENGINE_H
#define TORCH_ENGINE_H

#include "autograd/Autograd.h"

namespace torch {

struct BackwardOptions {
  bool keepGraph = false;    // retain_graph: keep saved tensors for another backward
  bool createGraph = false;  // record the backward computation (double backward)
  bool allowUnused = false;  // autograd.grad: an input the outputs do not depend on gives None
};

// Computes the gradients of roots (seeded with rootGrads; an undefined seed of a
// one-element root means 1). With inputs empty, gradients accumulate into the .grad of
// the leaves (backward()); otherwise the gradients of inputs are returned and no .grad
// changes (autograd.grad()).
TensorList runBackward(const TensorList &roots, const TensorList &rootGrads, const TensorList &inputs,
                       const BackwardOptions &options);

}  // namespace torch

#endif
