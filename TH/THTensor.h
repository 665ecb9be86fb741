#ifndef TH_TENSOR_H
#define TH_TENSOR_H

#include "TH/THStorage.h"

#define THTensor TH_CONCAT_3(TH, Real, Tensor)
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)

/* Note [Empty versus 0-dim]: a tensor with nDimension == 0 is a scalar holding one
 * element (as in PyTorch >= 0.4). An empty tensor has a size-0 dimension; new() makes
 * one of size {0}. torch7's "0-dimensional empty tensor" is the Lua binding's view of a
 * tensor with no elements. Every tensor has a storage (never NULL). */

#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#include "TH/THGenerateHalfType.h"

#define TH_GENERIC_FILE "TH/generic/THTensorCopy.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensorCopy.h"
#include "TH/THGenerateHalfType.h"

#endif
