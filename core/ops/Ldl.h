// The LDL^T (Bunch-Kaufman) factorization of real symmetric matrices and its solver, LAPACK's
// sytrf and sytrs through TH, for torch.linalg.ldl_factor(_ex) and ldl_solve:
//
//   std::vector<Tensor> f = torch::ldlFactor(a);   // {LD [*, n, n], pivots Int [*, n], info Int [*]}
//   Tensor x = torch::ldlSolve(f[0], f[1], b);     // a x = b, b [*, n, k] of the same batch
//
// LD holds L (unit diagonal not stored) and the blocks of D in its lower triangle, pivots are
// LAPACK's (1-based, a negative pair for a 2x2 block), as PyTorch 1.13 returns them; only the
// lower triangle of a is read. Float and Double; other devices than the CPU compute on the
// host. Not recorded: PyTorch 1.13 defines no derivative for either.
#ifndef TORCH_OPS_LDL_H
#define TORCH_OPS_LDL_H

#include <vector>

#include "core/Tensor.h"

namespace torch {

// info[i] > 0 where the i-th D is singular (the factorization is complete): never raises for it.
std::vector<Tensor> ldlFactor(const Tensor &a);
// ld [*, n, n], pivots Int [*, n] and b [*, n, k] of one batch shape, ld's type.
Tensor ldlSolve(const Tensor &ld, const Tensor &pivots, const Tensor &b);

}  // namespace torch

#endif
