#ifndef THNN_POOLING_H
#define THNN_POOLING_H

#include "THNN/THNNGeneral.h"

#endif
