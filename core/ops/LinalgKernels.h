// The kernels of linear algebra (Note [Dispatch by device and type] in core/Dispatch.h):
// BLAS products and LAPACK factorizations of one matrix (the op loops over a batch).
// Results are resized and filled; a LAPACK kernel raises TH's error for a singular or
// non-converging input, which the op turns into PyTorch's message.
#ifndef TORCH_OPS_LINALG_KERNELS_H
#define TORCH_OPS_LINALG_KERNELS_H

#include "core/Dispatch.h"

namespace torch {

// r = beta t + alpha (x y), the product by kind: mm, mv, outer (r), batched summed (bmm
// into a matrix) or batched (baddbmm). r may share memory with x or y; t is unread when
// beta is 0.
using AddProductKernel = void(const Tensor &r, Scalar beta, const Tensor &t, Scalar alpha, const Tensor &x,
                              const Tensor &y);
using MatrixKernel = void(const Tensor &r, const Tensor &a);
using TriangularKernel = void(const Tensor &r, const Tensor &a, bool upper);

struct LinalgKernels {
  Kernels<AddProductKernel, Types::Arith> addmm{"addmm"}, addmv{"addmv"}, addr{"addr"}, addbmm{"addbmm"},
      baddbmm{"baddbmm"};
  // Integers accumulate in int64 (the op's cast wraps the sum as arithmetic in the type would).
  Kernels<Scalar(const Tensor &a, const Tensor &b), Types::Arith> dot{"dot"};
  Kernels<MatrixKernel, Types::Floating> inverse{"inverse"};
  // lu (Floating) and pivots (Int, 1-based) of a; raises "getrf: a is singular" (Note [Singular LU]).
  Kernels<void(const Tensor &lu, const Tensor &pivots, const Tensor &a), Types::Floating> luFactor{"lu"};
  // x = a^-1 b, with a's LU factors in lu.
  Kernels<void(const Tensor &x, const Tensor &lu, const Tensor &b, const Tensor &a), Types::Floating> solve{"solve"};
  // x = least-squares solution of a x = b, qr = a's factors.
  Kernels<void(const Tensor &x, const Tensor &qr, const Tensor &b, const Tensor &a), Types::Floating> lstsq{"lstsq"};
  Kernels<TriangularKernel, Types::Floating> cholesky{"cholesky"}, choleskyInverse{"cholesky_inverse"};
  // x = (f f^T)^-1 b for the Cholesky factor f.
  Kernels<void(const Tensor &x, const Tensor &b, const Tensor &f, bool upper), Types::Floating> choleskySolve{
      "cholesky_solve"};
  // Eigenvalues e (ascending) and, when wanted, eigenvectors v of the symmetric a.
  Kernels<void(const Tensor &e, const Tensor &v, const Tensor &a, bool eigenvectors, bool upper), Types::Floating>
      symeig{"symeig"};
  // Eigenvalues e ([n, 2]: real, imaginary) and, when wanted, eigenvectors v of a.
  Kernels<void(const Tensor &e, const Tensor &v, const Tensor &a, bool eigenvectors), Types::Floating> eig{"eig"};
  // a = u diag(s) v^T; job "S" (reduced), "A" (full) or "N" (s alone).
  Kernels<void(const Tensor &u, const Tensor &s, const Tensor &v, const Tensor &a, const char *job), Types::Floating>
      svd{"svd"};
  Kernels<void(const Tensor &q, const Tensor &r, const Tensor &a), Types::Floating> qr{"qr"};

  // ---- after a factorization ----
  // The determinant of the square matrix whose factors luFactor gave (lu, pivots), into
  // three 0-dim tensors: its sign, the log of its absolute value, and the value.
  Kernels<void(const Tensor &sign, const Tensor &logAbs, const Tensor &value, const Tensor &lu, const Tensor &pivots),
          Types::Floating>
      luDeterminant{"det"};
  // r [n, k] = v [n, k] (svd's V, reduced) with column j divided by s[j], or zero where
  // s[j] <= rcond s[0]: the pseudo-inverse is r u^T.
  Kernels<void(const Tensor &r, const Tensor &v, const Tensor &s, double rcond), Types::Floating> pinverseFactor{
      "pinverse"};
  // p [m, m], l [m, k], u [k, n] (contiguous, filled: A = P L U) from the packed factors lu
  // [m, n] and pivots [k] (Int, 1-based, in range; both contiguous) of one matrix.
  Kernels<void(const Tensor &p, const Tensor &l, const Tensor &u, const Tensor &lu, const Tensor &pivots),
          Types::Floating>
      luUnpack{"lu_unpack"};
};

// The tables, with the CPU column registered on first use.
LinalgKernels &linalgKernels();

namespace cpu {
void registerLinalgKernels(LinalgKernels &k);  // core/ops/cpu/LinalgKernels.cpp
// x @ y of BFloat16 matrices (or batches of them: 3-D) as a new Float tensor, the products
// read in bfloat16 by oneDNN (Note [bfloat16 products on oneDNN] in THNN/dnnl/Matmul.cpp);
// undefined where oneDNN declines.
Tensor bfloat16ProductInFloat(const Tensor &x, const Tensor &y);
}  // namespace cpu

}  // namespace torch

#endif
