/* Affine layers and their relatives: Linear, Bilinear and BatchNormalization (library
 * //THNN:Linear), and the kernels that take indices, built once per TH_INDEX_BASE
 * (//THNN:indexed_Linear_base0/_base1): LookupTable, SparseLinear and IndexLinear.
 * Declarations, with the shapes each kernel takes, are in THNN/generic/Linear.h. */
#ifndef THNN_LINEAR_H
#define THNN_LINEAR_H

#include <stdbool.h>

#include "THNN/THNNGeneral.h"

#define TH_GENERIC_FILE "THNN/generic/Linear.h"
#include "TH/THGenerateFloatTypes.h"

#endif
