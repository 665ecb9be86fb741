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

#define TH_GENERIC_FILE "THNN/generic/ActivationSoftMax.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/ActivationPReLU.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/ActivationRReLU.cpp"
#include "TH/THGenerateFloatTypes.h"
