/* Indexing ops: indexSelect/indexCopy/indexAdd/indexFill, gather/scatter, masked*,
 * nonzero, take/put. Every index they take or return counts from TH_INDEX_BASE (the
 * declarations are the same for both bases; the library linked decides the base). */
#ifndef TH_THTENSORINDEX_H
#define TH_THTENSORINDEX_H

#include "TH/THTensor.h"

#define TH_GENERIC_FILE "TH/generic/THTensorIndex.h"
#include "TH/THGenerateAllTypes.h"

#endif
