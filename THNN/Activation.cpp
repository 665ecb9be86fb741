#include "THNN/Activation.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THTensorMath.hpp"

using th::math::checkSameCount;
using th::math::shape;

// The element-wise drivers come first: the other parts use them.
#define TH_GENERIC_FILE "THNN/generic/Activation.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/SoftMax.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/PReLU.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/RReLU.cpp"
#include "TH/THGenerateFloatTypes.h"
