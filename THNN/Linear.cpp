// Linear, Bilinear, BatchNormalization and LayerNormalization for Float and Double (the index-taking kernels
// of the group are in indexed/Linear.cpp).
#include "THNN/Linear.h"

#include <cmath>
#include <optional>
#include <vector>

#include "THNN/generic/LinearUtil.h"
#include "TH/THTensor.hpp"
#include "TH/THVector.h"

namespace linear = thnn::linear;
using linear::shape;

#define TH_GENERIC_FILE "THNN/generic/Linear.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/BatchNormalization.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/LayerNormalization.cpp"
#include "TH/THGenerateFloatTypes.h"
