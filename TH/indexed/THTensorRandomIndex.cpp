// Random ops that return indices (randperm, multinomial): compiled once per TH_INDEX_BASE.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THTensorRandom.h"

#define TH_GENERIC_FILE "TH/generic/THTensorRandomIndex.cpp"
#include "TH/THGenerateAllTypes.h"
