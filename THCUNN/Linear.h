/* THCUNN's Linear kernels (generic/Linear.h), declared apart from THCUNN.h:
 *
 *   THNN_CudaLinear_updateOutput(state, input, output, weight, bias, addBuffer)
 *
 * for Float, Double and Half (THNN_CudaDoubleLinear_..., THNN_CudaHalfLinear_...). */
#ifndef THCUNN_LINEAR_H
#define THCUNN_LINEAR_H

#include "THC/THC.h"

#pragma push_macro("THNN_")
#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THC_GENERIC_FILE "THCUNN/generic/Linear.h"
#include "THC/THCGenerateFloatTypes.h"
#undef THNN_
#pragma pop_macro("THNN_")

#endif
