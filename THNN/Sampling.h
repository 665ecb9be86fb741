/* Resampling kernels: nearest and (bi/tri)linear upsampling, reflection and replication
 * padding, bilinear grid sampling (see THNN/generic/Sampling.h). */
#ifndef THNN_SAMPLING_H
#define THNN_SAMPLING_H

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/Sampling.h"
#include "TH/THGenerateFloatTypes.h"

#endif
