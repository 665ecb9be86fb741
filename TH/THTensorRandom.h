#ifndef TH_THTENSORRANDOM_H
#define TH_THTENSORRANDOM_H

#include "TH/THTensor.h"

#endif
