/* Includes THC_GENERIC_FILE once for each of the eight element types, with TH's macros
 * (Real, scalar_t, accreal, TH_REAL_IS_<TYPE>, TH_IF_<Types>) and CReal, the part of the
 * THC name that names the type: empty for Float (THCudaTensor), Real otherwise
 * (THCudaDoubleTensor), as in cutorch. */
#ifndef THC_GENERIC_FILE
#error "define THC_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif
#define TH_GENERIC_FILE "THC/THCGenerateOneType.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "THC/THCGenerateOneType.h"
#include "TH/THGenerateHalfType.h"
#undef THC_GENERIC_FILE
