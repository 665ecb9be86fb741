#include "THNN/Activation.h"
#include "THNN/SoftMax.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THTensorMath.hpp"
#include "THNN/ElementWise.hpp"
#include "THNN/SoftMaxChecks.hpp"

using th::math::checkSameCount;
using th::math::shape;

// Elements of a line that LogSoftMax's vector path holds on the stack at once.
static constexpr int64_t kSoftMaxChunk = 256;

#define TH_GENERIC_FILE "THNN/generic/SoftMax.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/PReLU.cpp"
#include "TH/THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "THNN/generic/RReLU.cpp"
#include "TH/THGenerateFloatTypes.h"
