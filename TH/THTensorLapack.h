/* LAPACK on Float and Double tensors (OpenBLAS's LAPACK), torch7's argument order:
 * results first, then inputs, then options ("U"/"L", "N"/"V", ...).
 *
 *   THDoubleTensor *x = THDoubleTensor_new(), *lu = THDoubleTensor_new();
 *   THDoubleTensor_gesv(x, lu, b, a);                // a @ x = b
 *
 * Inputs are never modified (LAPACK works on copies), so a result may be an input. As in
 * torch7, an input passed as NULL stands for the result in its place (gesv(b, a, NULL,
 * NULL) solves in place; syev's a stands for rv). Results are
 * resized as documented below; a failure (singular matrix, matrix not positive definite,
 * no convergence) raises an error and leaves every tensor unchanged.
 */
#ifndef TH_THTENSORLAPACK_H
#define TH_THTENSORLAPACK_H

#include "TH/THTensor.h"

#define TH_GENERIC_FILE "TH/generic/THTensorLapack.h"
#include "TH/THGenerateFloatTypes.h"

#endif
