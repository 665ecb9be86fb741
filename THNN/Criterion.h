/* Criterions: losses of an input against a target (see THNN/generic/Criterion.h). */
#ifndef THNN_CRITERION_H
#define THNN_CRITERION_H

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/Criterion.h"
#include "TH/THGenerateFloatTypes.h"

#endif
