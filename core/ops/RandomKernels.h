// The kernels of the random ops (Note [Dispatch by device and type] in core/Dispatch.h):
// each fills t (already of its dtype, on its device) from gen, element by element in
// memory order, arguments checked by the op. A device's kernels draw from its own
// generator state (the CPU's: TH's Mersenne twister under the Generator's lock, in
// PyTorch's streams: Note [Two random streams] in core/ops/Random.h).
#ifndef TORCH_OPS_RANDOM_KERNELS_H
#define TORCH_OPS_RANDOM_KERNELS_H

#include "core/Dispatch.h"
#include "core/ops/Random.h"

namespace torch {

using DrawKernel = void(const Tensor &t, Generator &gen, double a, double b);

struct RandomKernels {
  // uniform in [a, b); normal (mean a, std b); exponential (rate a); cauchy (median a,
  // sigma b); log-normal (mean a, std b of the log).
  Kernels<DrawKernel, Types::Floating> uniform{"uniform_"}, normal{"normal_"}, exponential{"exponential_"},
      cauchy{"cauchy_"}, logNormal{"log_normal_"};
  // Trials until the first success of probability p.
  Kernels<void(const Tensor &t, Generator &gen, double p), Types::Arith> geometric{"geometric_"};
  // 1 where a uniform draw is below p (Note [Bernoulli draws]); probs: Double or Float, t's shape.
  Kernels<void(const Tensor &t, Generator &gen, double p), Types::Arith> bernoulli{"bernoulli_"};
  Kernels<void(const Tensor &t, Generator &gen, const Tensor &probs), Types::Arith> bernoulliTensor{"bernoulli_"};
  // Integers in [from, last] (inclusive, as the type can hold).
  Kernels<void(const Tensor &t, Generator &gen, int64_t from, int64_t last), Types::Arith> random{"random_"};
  // t = means + stds * N(0, 1), all of t's shape and type.
  Kernels<void(const Tensor &t, Generator &gen, const Tensor &means, const Tensor &stds), Types::Floating>
      normalTensors{"normal"};
  Kernels<void(const Tensor &t, Generator &gen, const Tensor &rates), Types::Floating> poisson{"poisson"};
  // t (1-D) = a random permutation of 0 .. n - 1.
  Kernels<void(const Tensor &t, Generator &gen, int64_t n), Types::Arith> randperm{"randperm"};
  // r (Long, [rows,] samples) = samples with replacement of the rows of weights.
  Kernels<void(const Tensor &r, Generator &gen, const Tensor &weights, int64_t samples, bool replacement),
          Types::Floating>
      multinomial{"multinomial"};
};

// The tables, with the CPU column registered on first use.
RandomKernels &randomKernels();

namespace cpu {
void registerRandomKernels(RandomKernels &k);  // core/ops/cpu/RandomKernels.cpp
}  // namespace cpu

}  // namespace torch

#endif
