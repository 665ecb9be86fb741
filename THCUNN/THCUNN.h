/* THCUNN: THNN's kernels on the GPU, over THC. The same kernels with the same arguments
 * after a THCState, the same checks and messages, named with Cuda and THC's type name:
 *
 *   THNN_CudaTanh_updateOutput(state, input, output)          Float (THCudaTensor)
 *   THNN_CudaDoubleTanh_updateOutput(state, input, output)    Double
 *   THNN_CudaHalfTanh_updateOutput(state, input, output)      Half, computed in float
 *
 * The tensors of a call live on one device, and the work runs on its current stream. The
 * declarations are THNN's own generic headers (THNN_STATE, THNN_TENSOR and THNN_INDEX_TENSOR
 * set to THC's types); the kernels so far:
 *   - the element-wise activations (THNN/generic/ElementWise.h, written once for both
 *     libraries: Note [Element-wise kernels once]), ElementWise.cu;
 *   - SoftMax and LogSoftMax (THNN/generic/SoftMax.h), SoftMax.cu;
 *   - the element-wise criterions: Abs, BCE, DistKLDiv, L1Cost, Margin, MSE, SmoothL1,
 *     SoftMargin (THNN/generic/Criterion.h, formulas shared: THNN/CriterionFunctions.hpp),
 *     Criterion.cu;
 *   - ClassNLLCriterion and SpatialClassNLLCriterion, whose targets count from
 *     TH_INDEX_BASE: indexed/Criterion.cu, built once per base (:THCUNN_base0 and
 *     :THCUNN_base1 are the whole library for one base). A target out of range raises
 *     THNN's IndexError on the host (Note [First bad element] in Common.cuh);
 *   - max pooling with indices, spatial and volumetric, dilated or not
 *     (THCUNN/generic/MaxPooling.h), indexed/Pooling.cu, also built once per base.
 * Sums are deterministic (Note [Deterministic sums]). */
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
#define THNN_INDEX_TENSOR THCudaLongTensor
#define THNN_ON_GPU
#define THC_GENERIC_FILE "THNN/generic/ElementWise.h"
#include "THC/THCGenerateFloatTypes.h"
#define THC_GENERIC_FILE "THNN/generic/SoftMax.h"
#include "THC/THCGenerateFloatTypes.h"
#define THC_GENERIC_FILE "THNN/generic/Criterion.h"
#include "THC/THCGenerateFloatTypes.h"
#define THC_GENERIC_FILE "THCUNN/generic/MaxPooling.h"
#include "THC/THCGenerateFloatTypes.h"
#undef THNN_ON_GPU
#undef THNN_STATE
#undef THNN_TENSOR
#undef THNN_INDEX_TENSOR
#undef THNN_
#pragma pop_macro("THNN_")

#endif
