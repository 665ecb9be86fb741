#include "TH/THTensor.h"

#include <algorithm>
#include <string>
#include <vector>

#include "TH/THTensor.hpp"

#define TH_GENERIC_FILE "TH/generic/THTensor.cpp"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensor.cpp"
#include "TH/THGenerateHalfType.h"
