// nn.Linear on the GPU (generic/Linear.cu): host code over THC's cuBLAS products, with THNN's
// checks and messages (THNN/generic/Linear.cpp), for the float types.
#include "THCUNN/Linear.h"

#include <string>

#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THC_GENERIC_FILE "THCUNN/generic/Linear.cu"
#include "THC/THCGenerateFloatTypes.h"
