#include <string.h>

#include "TH/THTensor.hpp"

#define TH_GENERIC_FILE "TH/generic/THTensorCopy.cpp"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensorCopy.cpp"
#include "TH/THGenerateHalfType.h"
