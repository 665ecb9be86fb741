#include "TH/THTensorConv.h"

#include <algorithm>
#include <vector>

#include "TH/THTensor.hpp"

#define TH_GENERIC_FILE "TH/generic/THTensorConv.cpp"
#include "TH/THGenerateAllTypes.h"
