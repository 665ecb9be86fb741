// Complex tensors (complex64 and complex128) and the ops that are truly complex.
//
// Note [Complex tensors]: a complex tensor is a TH tensor of its real type (Float for
// ComplexFloat, Double for ComplexDouble) whose storage holds each element as an interleaved
// (re, im) pair. Its header (sizes, strides, offset) counts complex elements, so every view and
// shape op of the core is TH's own code, unchanged; only the storage's size differs from TH's
// count (Storage::size() and Storage::create count elements, TH counts reals). The ops see a
// complex tensor's values through its real view (viewAsReal: sizes + [2], strides * 2 + [1],
// offset * 2), which every real kernel of every device reads: ops that are real-linear (copy,
// fill, add, sum, ...) are the real op on that view, and the truly complex ones (mul, div, exp,
// abs, mm, ...) are written here once, as real ops on the real and imaginary parts. Autograd
// then follows PyTorch's convention by itself: the gradient of a real loss with respect to
// z = x + iy is dL/dx + i dL/dy, which is what the real ops give through the view. An op with
// no complex path finds no kernel for the complex type in its table, and raises PyTorch's
// "... not implemented for 'ComplexFloat'".
//
//   Tensor z = viewAsComplex(randn({3, 2}));  // 3 complex numbers
//   Tensor w = complexBinary(BinaryOp::Mul, z, z, ...);  // through binary(Mul, z, z)
#ifndef TORCH_OPS_COMPLEX_H
#define TORCH_OPS_COMPLEX_H

#include "core/Tensor.h"
#include "core/ops/Pointwise.h"

namespace torch {

// The real view (sizes + [2]) of a complex tensor, sharing its memory; a differentiable view.
Tensor viewAsReal(const Tensor &t);
// The complex view of a real tensor whose last dimension has size 2 and stride 1 (other strides
// even, offset even), sharing its memory; a differentiable view.
Tensor viewAsComplex(const Tensor &t);
Tensor real(const Tensor &t);                            // a view for a complex tensor; t itself for a real one
Tensor imag(const Tensor &t);                            // a view; complex tensors only
Tensor complex(const Tensor &real, const Tensor &imag);  // a new tensor
Tensor polar(const Tensor &abs, const Tensor &angle);
Tensor conj(const Tensor &t);  // a new tensor for a complex t; t itself for a real one
Tensor angle(const Tensor &t);

// The complex paths of the core's pointwise, reduction and matrix ops, which call them for a
// complex type: type is the (complex) type of the result.
Tensor complexBinary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha, ScalarType type);
Tensor complexUnary(UnaryOp op, const Tensor &t);
Tensor complexSum(const Tensor &t, const IntList &dims, bool keepdim, bool mean);
Tensor complexProd(const Tensor &t, const IntList &dims, bool keepdim);                  // all dims when dims is empty
Tensor complexMatmul(const char *op, const Tensor &a, const Tensor &b);                  // mm or bmm
Tensor complexCompare(CompareOp op, const Tensor &a, const Tensor &b, ScalarType type);  // Eq and Ne only
// t ** exponent for a real exponent: the exact forms PyTorch uses for 2, 3, 0.5, -1, -2.
Tensor complexPow(const Tensor &t, Scalar exponent);
Tensor complexIsclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan);

// Element work of Tensor.cpp's copies and fills with a complex side (no autograd).
void complexCopy(const Tensor &dst, const Tensor &src);  // same sizes
void complexFill(const Tensor &t, Scalar v);
Scalar complexRead(const Tensor &t, int64_t offset);  // the element at offset (in elements) from the first

}  // namespace torch

#endif
