/* Pooling: average, adaptive, fractional and max pooling over time, space and volume, and
 * max unpooling. The max kernels return indices (THLongTensor, counting from
 * TH_INDEX_BASE) and live in THNN/indexed/Pooling.cpp; the average kernels in
 * THNN/Pooling.cpp. */
#ifndef THNN_POOLING_H
#define THNN_POOLING_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/Pooling.h"
#include "TH/THGenerateFloatTypes.h"

#endif
