/* Order statistics along a dimension: max/min with their indices, sort, topk, kthvalue,
 * median, mode. Returned indices count from TH_INDEX_BASE; k of kthvalue counts from 1
 * whatever the base (torch7's rule). See TH/generic/THTensorSort.h. */
#ifndef TH_THTENSORSORT_H
#define TH_THTENSORSORT_H

#include "TH/THTensor.h"

#define TH_GENERIC_FILE "TH/generic/THTensorSort.h"
#include "TH/THGenerateAllTypes.h"

#endif
