#ifndef TH_THTENSORINDEX_H
#define TH_THTENSORINDEX_H

#include "TH/THTensor.h"

#endif
