#ifndef THNN_SAMPLING_H
#define THNN_SAMPLING_H

#include "THNN/THNNGeneral.h"

#endif
