/* THCUNN: THNN's kernels on the GPU, over THC. The same kernels with the same arguments
 * after a THCState, the same checks and messages, named with Cuda and THC's type name:
 *
 *   THNN_CudaTanh_updateOutput(state, input, output)          Float (THCudaTensor)
 *   THNN_CudaDoubleTanh_updateOutput(state, input, output)    Double
 *   THNN_CudaHalfTanh_updateOutput(state, input, output)      Half, computed in float
 *
 * The tensors of a call live on one device, and the work runs on its current stream.
 * So far: the element-wise activations (THNN/generic/ElementWise.h, written once for both
 * libraries: Note [Element-wise kernels once]). */
#ifndef THCUNN_H
#define THCUNN_H

#include <stdbool.h>

#include "THC/THC.h"

/* THNN_ names THNN's CPU kernels where THNN/THNNGeneral.h is included too */
#pragma push_macro("THNN_")
#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THNN_STATE THCState
#define THNN_TENSOR THCTensor
#define THC_GENERIC_FILE "THNN/generic/ElementWise.h"
#include "THC/THCGenerateFloatTypes.h"
#undef THNN_STATE
#undef THNN_TENSOR
#undef THNN_
#pragma pop_macro("THNN_")

#endif
