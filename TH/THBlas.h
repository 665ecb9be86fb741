/* BLAS for every arithmetic type, at two levels.
 *
 * THBlas_(...): raw BLAS on pointers, column-major as in Fortran BLAS (torch7's THBlas).
 * Float and Double call OpenBLAS; integer types run plain loops with the same meaning.
 *
 * THTensor_(...): matrix products on tensors of any strides, result first:
 *
 *   THFloatTensor *c = THFloatTensor_new();
 *   THFloatTensor_mm(c, a, b);                       // c = a @ b, resized to [m, n]
 *   THFloatTensor_addmm(c, 0.5f, c, 2.0f, a, b);     // c = 0.5 c + 2 a @ b, in place
 *
 * Matrices that BLAS can read as they are (row- or column-major, transposed views
 * included) go to it without a copy; other layouts are copied to contiguous first.
 * beta == 0 ignores the values of t (NaNs included), as BLAS does.
 */
#ifndef TH_THBLAS_H
#define TH_THBLAS_H

#include "TH/THTensor.h"

#define THBlas_(NAME) TH_CONCAT_4(TH, Real, Blas_, NAME)

#define TH_GENERIC_FILE "TH/generic/THBlas.h"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "TH/generic/THTensorBlas.h"
#include "TH/THGenerateAllTypes.h"

#endif
