#ifndef THC_TENSOR_H
#define THC_TENSOR_H

#include "TH/THTensor.h"
#include "THC/THCStorage.h"

#define THCTensor TH_CONCAT_3(THCuda, CReal, Tensor)
#define THCTensor_(NAME) TH_CONCAT_4(THCuda, CReal, Tensor_, NAME)

#define THC_GENERIC_FILE "THC/generic/THCTensor.h"
#include "THC/THCGenerateAllTypes.h"

/* The float types also under their regular names, for code generated from the type table. */
typedef THCudaStorage THCudaFloatStorage;
typedef THCudaTensor THCudaFloatTensor;

#define THC_GENERIC_FILE "THC/generic/THCTensorCopy.h"
#include "THC/THCGenerateAllTypes.h"

#endif
