#ifndef TH_THTENSORREDUCE_H
#define TH_THTENSORREDUCE_H

#include "TH/THTensor.h"

#endif
