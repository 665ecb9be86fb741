#include "TH/THTensorMath.h"

#include "TH/THTensorMath.hpp"

namespace thm = th::math;
namespace thv = th::vec;  // the op tables' macros take a parameter named th

#define TH_GENERIC_FILE "TH/generic/THTensorMath.cpp"
#include "TH/THGenerateAllTypes.h"
