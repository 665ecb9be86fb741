/* SoftMax and LogSoftMax on the CPU (declared once for THNN and THCUNN in
 * generic/SoftMax.h; the kernels are in generic/SoftMax.cpp, built with THNN/Activation.cpp). */
#ifndef THNN_SOFT_MAX_H
#define THNN_SOFT_MAX_H

#include "THNN/THNNGeneral.h"

#define THNN_STATE THNNState
#define THNN_TENSOR THTensor
#define TH_GENERIC_FILE "THNN/generic/SoftMax.h"
#include "TH/THGenerateFloatTypes.h"
#undef THNN_STATE
#undef THNN_TENSOR

#endif
