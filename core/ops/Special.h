// The special functions of torch.special that have no expression in the core's other ops:
// the Bessel functions of the first and second kinds, the modified Bessel functions of the
// second kind (plain and scaled) and Airy's Ai, each a function of one real argument.
//
//   Tensor j0 = torch::specialFunction(torch::SpecialFunction::BesselJ0, x);  // x Float or Double
//
// Note [Special functions from Boost.Math]: the values come from Boost.Math (Debian's
// libboost-dev, header-only), a well-kept library whose rational approximations are good to
// a few units in the last place of a double. Each element is computed in double and rounded
// once to the tensor's type; PyTorch 1.13's Cephes-style float kernels round at every step, so
// Float results agree with it to a few units in the last place (in absolute terms near the
// functions' zeros). Where 1.13 gives a value that is not the function's limit (NaN at the
// infinities, as its asymptotic forms take the cosine of infinity) its value is kept: the
// table below says so per function.
#ifndef TORCH_OPS_SPECIAL_H
#define TORCH_OPS_SPECIAL_H

#include "core/Tensor.h"

namespace torch {

// _(Name, torch.special name)
#define TORCH_FORALL_SPECIAL_FUNCTIONS(_)                \
  _(BesselJ0, "bessel_j0")                               \
  _(BesselJ1, "bessel_j1")                               \
  _(BesselY0, "bessel_y0")                               \
  _(BesselY1, "bessel_y1")                               \
  _(ModifiedBesselK0, "modified_bessel_k0")              \
  _(ModifiedBesselK1, "modified_bessel_k1")              \
  _(ScaledModifiedBesselK0, "scaled_modified_bessel_k0") \
  _(ScaledModifiedBesselK1, "scaled_modified_bessel_k1") \
  _(AiryAi, "airy_ai")

enum class SpecialFunction : uint8_t {
#define TORCH_SPECIAL_ENUM(Name, name) Name,
  TORCH_FORALL_SPECIAL_FUNCTIONS(TORCH_SPECIAL_ENUM)
#undef TORCH_SPECIAL_ENUM
};

const char *specialFunctionName(SpecialFunction f);
// The function named name (torch.special's name); raises for an unknown name.
SpecialFunction specialFunctionNamed(const std::string &name);

// f of every element of x (Float or Double, any strides, any device: other devices than the CPU
// compute on the host) as a new contiguous tensor of x's type on x's device. Not recorded:
// PyTorch 1.13 defines no derivative for these functions.
Tensor specialFunction(SpecialFunction f, const Tensor &x);

}  // namespace torch

#endif
