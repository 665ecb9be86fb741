#include "THC/THCTensor.h"

#include "THC/THCTensor.hpp"

#define THC_GENERIC_FILE "THC/generic/THCTensor.cpp"
#include "THC/THCGenerateAllTypes.h"
