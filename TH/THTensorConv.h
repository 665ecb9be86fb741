/* Convolutions and cross-correlations of whole tensors, as torch7's conv2, conv3, xcorr2 and
 * xcorr3: direct loops for images and kernels of any size (THNN's convolutions are the fast
 * path of networks; these are the plain-math ones). */
#ifndef TH_THTENSORCONV_H
#define TH_THTENSORCONV_H

#include "TH/THTensor.h"

#define TH_GENERIC_FILE "TH/generic/THTensorConv.h"
#include "TH/THGenerateAllTypes.h"

#endif
