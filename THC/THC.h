/* The whole THC C API (see THCGeneral.h for a worked example). */
#ifndef THC_H
#define THC_H

#include "THC/THCCachingAllocator.h"
#include "THC/THCCachingHostAllocator.h"
#include "THC/THCGeneral.h"
#include "THC/THCStorage.h"
#include "THC/THCTensor.h"
#include "THC/THCTensorMath.h"
#include "THC/THCBlas.h"
#include "THC/THCTensorMathBlas.h"
#include "THC/THCTensorLapack.h"
#include "THC/THCTensorReduce.h"
#include "THC/THCTensorRandom.h"
#include "THC/THCTensorSort.h"
#include "THC/THCTensorIndex.h"

#endif
