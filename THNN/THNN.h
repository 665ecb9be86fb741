/* THNN: the CPU neural-network kernels, stateless, over TH.
 *
 * Every kernel follows one grammar (torch7's nn):
 *   THNN_<Type><Module>_updateOutput(state, input, output, <parameters>, <buffers>, <options>)
 *   THNN_<Type><Module>_updateGradInput(state, input, gradOutput, gradInput, ...)
 *   THNN_<Type><Module>_accGradParameters(state, input, gradOutput, gradWeight, gradBias, ..., scale)
 * The caller owns every tensor; kernels resize outputs and buffers they are given and
 * allocate nothing that outlives the call. Types: Float and Double.
 *
 *   THFloatTensor *in = ..., *out = THFloatTensor_new();
 *   THNN_FloatTanh_updateOutput(NULL, in, out);
 *
 * Kernels that take or return indices (class targets, max-pooling indices, lookup ids)
 * count from TH_INDEX_BASE, like TH's indexing functions.
 */
#ifndef THNN_H
#define THNN_H

#include "THNN/THNNGeneral.h"

#include "THNN/Activation.h"
#include "THNN/ElementWise.h"
#include "THNN/SoftMax.h"
#include "THNN/Criterion.h"
#include "THNN/Linear.h"
#include "THNN/SpatialConvolution.h"
#include "THNN/TemporalVolumetricConvolution.h"
#include "THNN/Pooling.h"
#include "THNN/Sampling.h"

#endif
