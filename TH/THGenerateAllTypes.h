/* Every arithmetic element type: Byte, Char, Short, Int, Long, Float, Double. */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THGenerateAllTypes.h"
#endif
#define TH_GENERATE_MANY_TYPES
#include "TH/THGenerateIntTypes.h"
#include "TH/THGenerateFloatTypes.h"
#undef TH_GENERATE_MANY_TYPES
#undef TH_GENERIC_FILE
