/* TH: every public header of the CPU tensor library (see THGeneral.h for a worked example). */
#ifndef TH_H
#define TH_H

#include "TH/THGeneral.h"
#include "TH/THAllocator.h"
#include "TH/THStorage.h"
#include "TH/THTensor.h"
#include "TH/THTensorMath.h"
#include "TH/THTensorReduce.h"
#include "TH/THTensorConv.h"
#include "TH/THBlas.h"
#include "TH/THTensorLapack.h"
#include "TH/THRandom.h"
#include "TH/THTensorRandom.h"
#include "TH/THTensorIndex.h"
#include "TH/THTensorSort.h"

#endif
