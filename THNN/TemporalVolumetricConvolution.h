/* Temporal (1-d over frames) and volumetric (3-d) convolutions: TemporalConvolution,
 * TemporalSubSampling, TemporalRowConvolution, VolumetricConvolutionMM,
 * VolumetricDilatedConvolution, VolumetricFullConvolution. */
#ifndef THNN_TEMPORALVOLUMETRICCONVOLUTION_H
#define THNN_TEMPORALVOLUMETRICCONVOLUTION_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/TemporalVolumetricConvolution.h"
#include "TH/THGenerateFloatTypes.h"

#endif
