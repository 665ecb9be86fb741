/* Criterions: losses of an input against a target (declared once for THNN and THCUNN in
 * THNN/generic/Criterion.h). */
#ifndef THNN_CRITERION_H
#define THNN_CRITERION_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define THNN_STATE THNNState
#define THNN_TENSOR THTensor
#define THNN_INDEX_TENSOR THLongTensor
#define TH_GENERIC_FILE "THNN/generic/Criterion.h"
#include "TH/THGenerateFloatTypes.h"
#undef THNN_STATE
#undef THNN_TENSOR
#undef THNN_INDEX_TENSOR

#endif
