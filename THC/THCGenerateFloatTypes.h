/* Includes THC_GENERIC_FILE for Float, Double and Half, the types THCUNN's kernels exist
 * for, with the macros of THCGenerateAllTypes.h. */
#ifndef THC_GENERIC_FILE
#error "define THC_GENERIC_FILE before including THCGenerateFloatTypes.h"
#endif
#define TH_GENERIC_FILE "THC/THCGenerateOneType.h"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "THC/THCGenerateOneType.h"
#include "TH/THGenerateHalfType.h"
#undef THC_GENERIC_FILE
