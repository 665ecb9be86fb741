#ifndef TH_THTENSORLAPACK_H
#define TH_THTENSORLAPACK_H

#include "TH/THTensor.h"

#endif
