#ifndef TH_THTENSORMATH_H
#define TH_THTENSORMATH_H

#include "TH/THTensor.h"

#endif
