/* Reductions (sum, mean, var, norm, ... over a whole tensor or along a dimension), running
 * sums and products, and construction/structure ops (zeros, eye, range, diag, cat, cross,
 * histc, renorm). Dimensions count from 0. */
#ifndef TH_THTENSORREDUCE_H
#define TH_THTENSORREDUCE_H

#include "TH/THTensor.h"

#define TH_GENERIC_FILE "TH/generic/THTensorReduce.h"
#include "TH/THGenerateAllTypes.h"

#endif
