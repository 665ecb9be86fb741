/* Activations: element-wise non-linearities, PReLU / RReLU, SoftMax and LogSoftMax. */
#ifndef THNN_ACTIVATION_H
#define THNN_ACTIVATION_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/Activation.h"
#include "TH/THGenerateFloatTypes.h"

#endif
