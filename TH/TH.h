/* TH: every public header of the CPU tensor library (see THGeneral.h for a worked example). */
#ifndef TH_H
#define TH_H

#include "TH/THGeneral.h"
#include "TH/THAllocator.h"
#include "TH/THStorage.h"
#include "TH/THTensor.h"

#endif
