#ifndef THC_TENSOR_MATH_H
#define THC_TENSOR_MATH_H

#include "TH/THPointwiseOps.h"
#include "THC/THCTensor.h"

#define THC_GENERIC_FILE "THC/generic/THCTensorMath.h"
#include "THC/THCGenerateAllTypes.h"

#endif
