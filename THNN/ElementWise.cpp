// The element-wise activations on the CPU: the entry points of generic/ElementWise.cpp over
// the drivers of THNN/ElementWise.hpp.
#include "THNN/ElementWise.h"

#include "TH/THTensorMath.hpp"
#include "THNN/ElementWise.hpp"

using th::math::checkSameCount;
using thnn::cpu::mapBackward;
using thnn::cpu::mapForward;
using thnn::cpu::mapForwardBuffered;

#define THNN_STATE THNNState
#define THNN_TENSOR THTensor
#define TH_GENERIC_FILE "THNN/generic/ElementWise.cpp"
#include "TH/THGenerateFloatTypes.h"
