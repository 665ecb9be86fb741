#ifndef TH_THTENSORMATH_H
#define TH_THTENSORMATH_H

#include "TH/THPointwiseOps.h"
#include "TH/THTensor.h"

/* Element-wise math and comparisons (torch7's THTensorMath): r = f(t, ...), r resized to
 * t's shape and allowed to be t or any other operand. */
#define TH_GENERIC_FILE "TH/generic/THTensorMath.h"
#include "TH/THGenerateAllTypes.h"

#endif
