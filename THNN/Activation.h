#ifndef THNN_ACTIVATION_H
#define THNN_ACTIVATION_H

#include "THNN/THNNGeneral.h"

#endif
