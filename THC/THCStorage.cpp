#include "THC/THCStorage.h"

#include "THC/THCTensor.hpp"

#define THC_GENERIC_FILE "THC/generic/THCStorage.cpp"
#include "THC/THCGenerateAllTypes.h"
