#ifndef TH_THRANDOM_H
#define TH_THRANDOM_H

#include "TH/THTensor.h"

#endif
