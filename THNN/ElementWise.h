/* The element-wise activations on the CPU (declared once for THNN and THCUNN in
 * generic/ElementWise.h). */
#ifndef THNN_ELEMENT_WISE_H
#define THNN_ELEMENT_WISE_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define THNN_STATE THNNState
#define THNN_TENSOR THTensor
#define TH_GENERIC_FILE "THNN/generic/ElementWise.h"
#include "TH/THGenerateFloatTypes.h"
#undef THNN_STATE
#undef THNN_TENSOR

#endif
