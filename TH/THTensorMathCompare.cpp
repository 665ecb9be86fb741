#include "TH/THTensorMath.h"

#include "TH/THTensorMath.hpp"

namespace thm = th::math;

#define TH_GENERIC_FILE "TH/generic/THTensorMathCompare.cpp"
#include "TH/THGenerateAllTypes.h"
