#ifndef THNN_LINEAR_H
#define THNN_LINEAR_H

#include "THNN/THNNGeneral.h"

#endif
