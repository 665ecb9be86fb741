/* What every THNN header needs: TH, the state type and the name macro. */
#ifndef THNN_GENERAL_H
#define THNN_GENERAL_H

#include "TH/TH.h"

/* Unused on the CPU (NULL); kept so the grammar matches the CUDA kernels'. */
typedef void THNNState;

/* THNN_(Abs_updateOutput) is THNN_FloatAbs_updateOutput in a generic file for Float. */
#define THNN_(NAME) TH_CONCAT_3(THNN_, Real, NAME)

#endif
