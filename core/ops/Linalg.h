// Linear algebra with PyTorch 1.x semantics over TH's BLAS and LAPACK wrappers.
//
//   Tensor a = ..., b = ...;                     // [2, 3] and [3, 4] Float
//   Tensor c = mm(a, b);                         // [2, 4]
//   Tensor d = matmul(x, y);                     // [5, 2, 3] @ [3, 4] -> [5, 2, 4]
//   Tensor e = addmm(c, a, b, Scalar(0.5), Scalar(2.0));  // 0.5 c + 2 a b
//   auto [q, r] = qr(a, true);                   // a = q r
//
// Note [BLAS types]: the products (dot, mv, mm, bmm, matmul, addmm, ...) run on every
// element type but Half and Bool, through TH's loops for integers and OpenBLAS for Float
// and Double. Their operands must have one element type ("expected scalar type Float but
// found Double"); outer/ger promote like element-wise ops (PyTorch's outer is a product).
// Strided operands go to BLAS as they are when TH can describe them to it (a transposed
// matrix is a row-major one): no copies.
//
// Note [beta zero]: with beta == 0 the input of addmm & co. is not read, so NaNs and
// infinities in it do not reach the result (BLAS's rule, which PyTorch follows).
//
// Note [LAPACK batches]: the decompositions take a matrix or a batch [*, m, n] and run
// TH's LAPACK wrapper once per matrix; Float and Double only. An error in one matrix of a
// batch names the matrix ("(Batch element 3)").
//
// Note [Singular LU]: TH's getrf refuses a matrix with an exactly zero pivot. det, logdet
// and slogdet take that refusal as the answer (the determinant is 0); lu raises it, where
// PyTorch 1.13 would return the factors and a positive info.
#ifndef TORCH_OPS_LINALG_H
#define TORCH_OPS_LINALG_H

#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "core/Tensor.h"

namespace torch {

// ---- products (Note [BLAS types]) ----
Tensor dot(const Tensor &a, const Tensor &b);  // 1-D, same size: 0-dim of their type
Tensor mv(const Tensor &mat, const Tensor &vec);
Tensor mm(const Tensor &a, const Tensor &b);
Tensor bmm(const Tensor &a, const Tensor &b);  // [b, n, m] @ [b, m, p]
// PyTorch's matmul: dot, mv, mm, and batched products whose batch dims broadcast; a 1-D
// operand is a row (left) or a column (right) vector whose dimension is dropped again.
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor outer(const Tensor &a, const Tensor &b);  // a [n], b [m] -> [n, m]
// The matrices of a chain product, 2-D except a 1-D first or last (linalg.multi_dot),
// multiplied in the order that needs the fewest multiplications.
Tensor multiDot(const std::vector<Tensor> &tensors);

// beta * self + alpha * product (Note [beta zero]); self broadcasts to the product's shape.
enum class AddProduct {
  Mm,    // mat1 [n, m] @ mat2 [m, p]            (addmm)
  Mv,    // mat [n, m] @ vec [m]                 (addmv)
  R,     // vec1 [n] outer vec2 [p]              (addr)
  Bmm,   // sum over i of batch1[i] @ batch2[i]  (addbmm)
  Bbmm,  // batch1[i] @ batch2[i] for each i     (baddbmm)
};
Tensor addProduct(AddProduct kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha);
// In place: self must already have the product's shape.
void addProduct_(AddProduct kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha);
const char *addProductName(AddProduct kind);  // "addmm", ...

// ---- inverses and determinants (Note [LAPACK batches]) ----
Tensor inverse(const Tensor &a);
Tensor det(const Tensor &a);
Tensor logdet(const Tensor &a);                      // nan for a negative determinant, -inf for 0
std::pair<Tensor, Tensor> slogdet(const Tensor &a);  // (sign, log |det|)
Tensor matrixPower(const Tensor &a, int64_t n);      // n < 0 inverts first
Tensor pinverse(const Tensor &a, double rcond);      // singular values <= rcond * max dropped

// ---- systems of equations ----
// a x = b for square a [*, n, n] and b [*, n, k], batch dims broadcast: (x, LU of a).
std::pair<Tensor, Tensor> solve(const Tensor &b, const Tensor &a);
// linalg.solve(a, b): b may also be a vector [*, n]; only x.
Tensor linalgSolve(const Tensor &a, const Tensor &b);
// Least squares for a [m, n] of full rank, b [m, k] or [m]: (x [n, k], QR of a as LAPACK's
// gels leaves it). PyTorch 1.x gives x max(m, n) rows, the last m - n of which hold
// residual terms; here x has its n rows only.
std::pair<Tensor, Tensor> lstsq(const Tensor &b, const Tensor &a);

// ---- Cholesky ----
Tensor cholesky(const Tensor &a, bool upper);
Tensor choleskySolve(const Tensor &b, const Tensor &factor, bool upper);  // b [*, n, k]
Tensor choleskyInverse(const Tensor &factor, bool upper);

// ---- decompositions ----
// Symmetric a, reading one triangle: eigenvalues ascending, eigenvectors as columns (an
// empty tensor when not asked for).
std::pair<Tensor, Tensor> symeig(const Tensor &a, bool eigenvectors, bool upper);
// General square a (2-D): eigenvalues [n, 2] (real, imaginary), eigenvectors as LAPACK
// packs complex pairs (an empty tensor when not asked for).
std::pair<Tensor, Tensor> eig(const Tensor &a, bool eigenvectors);
// a = U diag(S) V^T, S descending. some: U [*, m, k], V [*, n, k] (k = min(m, n)), else
// square U and V; without computeUv U and V are zero [*, m, m] and [*, n, n].
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor &a, bool some, bool computeUv);
// a = Q R: some gives Q [*, m, k], R [*, k, n]; otherwise Q [*, m, m], R [*, m, n].
std::pair<Tensor, Tensor> qr(const Tensor &a, bool some);
// LU with partial pivoting: (L and U packed in one matrix, pivots Int [*, k] 1-based).
std::pair<Tensor, Tensor> lu(const Tensor &a);
// The permutation, unit lower and upper factors of lu's result: A = P L U.
std::tuple<Tensor, Tensor, Tensor> luUnpack(const Tensor &lu, const Tensor &pivots);

}  // namespace torch

#endif
