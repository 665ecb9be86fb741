#ifndef TH_THBLAS_H
#define TH_THBLAS_H

#include "TH/THTensor.h"

#endif
