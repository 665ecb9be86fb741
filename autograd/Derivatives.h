// Derivative formulas, one per differentiable op, all in Derivatives.cpp so that they can be
// read side by side. Each function records the node of one op call: the op has computed
// `result` from its inputs inside a RecordScope (Note [Recording scope]) and found that it
// must record. Formulas are written with the core ops, so they record a graph of their own
// when the engine runs them with create_graph.
//
//   Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha) {
//     RecordScope rec({&a, &b});
//     Tensor r = ...;                                     // the kernels
//     if (rec) derivatives::binary(op, a, b, alpha, r);
//     return r;
//   }
//
// Gradients are returned in the result's shape when an input was broadcast: the engine
// sums them back to the input's shape (and converts them to its type).
#ifndef TORCH_DERIVATIVES_H
#define TORCH_DERIVATIVES_H

#include "autograd/Autograd.h"
#include "core/ops/Pointwise.h"

namespace torch::derivatives {

void binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha, const Tensor &result);
void binary(BinaryOp op, const Tensor &a, Scalar b, Scalar alpha, const Tensor &result);
void unary(UnaryOp op, const Tensor &t, const Tensor &result);
void clamp(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max, const Tensor &result);
void addcop(bool divide, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value, const Tensor &result);
void lerp(const Tensor &a, const Tensor &b, Scalar weight, const Tensor &result);
void where(const Tensor &cond, const Tensor &a, const Tensor &b, const Tensor &result);

// Reductions over dims (sorted, distinct; all of t's dims when it reduces everything).
void sum(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void mean(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void prod(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void varOrStd(const Tensor &t, const std::vector<int> &dims, bool unbiased, bool keepdim, bool isStd,
              const Tensor &result);
void norm(const Tensor &t, double p, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void logsumexp(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
// max/min/amax/amin without indices: the gradient is shared evenly by the tied extremes.
void extreme(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
// Ops returning values picked at indices along dim (max/min/median/mode/kthvalue with dim,
// sort, topk): the gradient goes back to the picked positions.
void picked(const char *name, const Tensor &t, int dim, bool keepdim, const Tensor &values, const Tensor &indices);
void cumsum(const Tensor &t, int dim, const Tensor &result);
void cumprod(const Tensor &t, int dim, const Tensor &result);
void trace(const Tensor &t, const Tensor &result);

// ---- linear algebra ----
// beta * self + alpha * product(x, y) (self undefined for plain products); kind is one of
// Linalg.h's AddProduct values as an int (Mm, Mv, R, Bmm, Bbmm).
void product(int kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha,
             const Tensor &result);
void dot(const Tensor &a, const Tensor &b, const Tensor &result);
void inverse(const Tensor &a, const Tensor &result);
// d log|det A| / dA = A^-T (det and logdet follow from it).
void logAbsDet(const char *name, const Tensor &a, const Tensor &result, bool timesResult);

void solve(const Tensor &b, const Tensor &a, const Tensor &solution);  // solution = a^-1 b
void cholesky(const Tensor &a, bool upper, const Tensor &factor);
// A = V diag(values) V^T for symmetric A; vectors are an output of the op or, when the user
// asked for eigenvalues only, computed for the backward alone.
void symeig(const Tensor &a, const Tensor &values, const Tensor &vectors, bool vectorsAreOutput);
// A = U diag(s) V^T; u and v are outputs, or computed for the backward alone when the user
// asked for singular values only. Full U or V (some=False) count by their first k columns:
// the others span an arbitrary basis that A does not depend on.
void svd(const Tensor &a, const Tensor &u, const Tensor &s, const Tensor &v, bool uvAreOutputs);
// A = Q R, reduced, A [m, n] with m >= n.
void qr(const Tensor &a, const Tensor &q, const Tensor &r);
// A = V diag(values) V^-1 with real eigenvalues (torch.eig's [n, 2] values: real and
// imaginary parts); vectors as for symeig. Complex eigenvalues have no real gradient.
void eig(const Tensor &a, const Tensor &values, const Tensor &vectors, bool vectorsAreOutput);
// P A = L U of a square A, packed in factors (L's unit diagonal left out).
void lu(const Tensor &a, const Tensor &factors, const Tensor &pivots);
// Results that do not depend differentiably on the input (why says why): they carry history,
// and a backward through them raises with that reason instead of giving a wrong gradient.
void notDifferentiable(const char *name, const char *why, const TensorList &inputs, const TensorList &outputs);

// ---- rearrangements ----
// An op that only moves, repeats or drops elements of t (views such as unfold, and copies
// such as flip, roll, repeat): f applied to t's element numbers says where each element of
// the result comes from; the gradients of repeated elements add up.
std::function<Tensor(const Tensor &)> rearrangementBackward(const Tensor &t, std::function<Tensor(const Tensor &)> f);
void rearranged(const char *name, const Tensor &t, const Tensor &result, std::function<Tensor(const Tensor &)> f);
// grad's elements added into a new tensor of the given sizes at positions (Long, grad's
// shape, flat element numbers; negative entries are skipped).
Tensor accumulateAt(const Tensor &grad, const Tensor &positions, const IntList &sizes);
// Note [Index writes]: an in-place op that writes source's elements (or a value, source
// undefined) into some elements of self. write(dst, src) runs the op's kernel on any type
// (src of dst's type). additiveSourceGrad: for ops that add (index_add_, scatter_add_, ...)
// the gradient of source given the result's; null for ops that overwrite, whose gradients
// are found by running write on element numbers.
void indexWrite(const char *name, const Tensor &self, const Tensor &source,
                const std::function<void(const Tensor &dst, const Tensor &src)> &write,
                const std::function<Tensor(const Tensor &grad)> &additiveSourceGrad);
// cat and stack: input i gets its slice of the gradient along dim (stack: its index).
void cat(const TensorList &inputs, int dim, const Tensor &result);
void stack(const TensorList &inputs, int dim, const Tensor &result);
void triangle(bool upper, const Tensor &t, int64_t offset, const Tensor &result);
void cross(const Tensor &a, const Tensor &b, int dim, const Tensor &result);

}  // namespace torch::derivatives

#endif
