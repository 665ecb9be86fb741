#ifndef THNN_CRITERION_H
#define THNN_CRITERION_H

#include "THNN/THNNGeneral.h"

#endif
