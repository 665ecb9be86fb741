/* Half: a storage and tensor type with copies only (no arithmetic). */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THGenerateHalfType.h"
#endif
#define Real Half
#define scalar_t THHalf
#define accreal float
#define TH_REAL_IS_HALF
#define TH_REAL_IS_INTEGRAL 0
#define TH_REAL_IS_FLOATING 0
#include "TH/THGenerateOneType.h"
#undef TH_GENERIC_FILE
