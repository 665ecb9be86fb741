/* Matrix products of CUDA tensors through cuBLAS: TH's THTensorBlas (TH/THBlas.h) with the
 * state first, for Float, Double and Half (Half summed in float).
 *
 *   THCudaTensor *c = THCudaTensor_new(state);
 *   THCudaTensor_mm(state, c, a, b);                       // c = a @ b, resized to [m, n]
 *   THCudaTensor_addmm(state, c, 0.5f, c, 2.0f, a, b);     // c = 0.5 c + 2 a @ b, in place
 *   double d = THCudaTensor_dot(state, x, y);              // waits for the stream
 *
 * Note [Layouts cuBLAS reads]: a matrix with one dimension of stride 1 and the other's
 * stride a valid leading dimension (row-major, column-major, transposed or narrowed
 * views) goes to cuBLAS as it is, the transpose flags saying which; a row-major result c
 * is computed as c^T = b^T a^T. Only other layouts (no unit stride, an expanded dimension,
 * a leading dimension past INT_MAX) are copied to contiguous first, and a result in such a
 * layout is computed in a buffer and copied in. A batch goes to one strided-batched call
 * when its matrices share one such layout.
 *
 * Semantics are TH's: sizes must match exactly, t must have the result's shape, r may be
 * t, r is resized, beta == 0 ignores t's values (NaN included), an inner size of 0 gives
 * beta t; errors raise before anything is written. Results live on the operands' device and
 * the work is queued on its current stream. TF32 is used for Float only when
 * THCState_setAllowTF32 allowed it. */
#ifndef THC_TENSOR_MATH_BLAS_H
#define THC_TENSOR_MATH_BLAS_H

#include "THC/THCTensor.h"

#define THC_GENERIC_FILE "THC/generic/THCTensorMathBlas.h"
#include "THC/THCGenerateAllTypes.h"

#endif
