/* Activations: PReLU and RReLU (the element-wise ones are in THNN/ElementWise.h, SoftMax and
 * LogSoftMax in THNN/SoftMax.h). */
#ifndef THNN_ACTIVATION_H
#define THNN_ACTIVATION_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/Activation.h"
#include "TH/THGenerateFloatTypes.h"

#endif
