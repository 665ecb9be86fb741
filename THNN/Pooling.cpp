// Average pooling (sliding and adaptive, spatial and volumetric) and Lp pooling across
// features: no indices. The kernels are in generic/Pooling.cpp, compiled for Float and Double.
#include "THNN/Pooling.h"

#include <cmath>

#include "THNN/generic/PoolingHelpers.h"

using thnn::pooling::Axis;
using thnn::pooling::Planes;
using thnn::pooling::Result;
using thnn::pooling::SlidingSpec;
using thnn::pooling::Window;

#define TH_GENERIC_FILE "THNN/generic/Pooling.cpp"
#include "TH/THGenerateFloatTypes.h"
