/* Spatial convolutions over 3-D (planes x height x width) or 4-D (batch x planes x height x
 * width) inputs: SpatialConvolutionMM, SpatialDilatedConvolution, SpatialFullConvolution,
 * SpatialFullDilatedConvolution, SpatialConvolutionLocal, SpatialDepthwiseConvolution and
 * SpatialSubSampling. See THNN/generic/SpatialConvolution.h for shapes and buffers. */
#ifndef THNN_SPATIALCONVOLUTION_H
#define THNN_SPATIALCONVOLUTION_H

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/SpatialConvolution.h"
#include "TH/THGenerateFloatTypes.h"

#endif
