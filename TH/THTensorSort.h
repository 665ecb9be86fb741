#ifndef TH_THTENSORSORT_H
#define TH_THTENSORSORT_H

#include "TH/THTensor.h"

#endif
