/* The floating-point element types. */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THGenerateFloatTypes.h"
#endif

#define Real Float
#define scalar_t float
#define accreal double
#define TH_REAL_IS_FLOAT
#define TH_REAL_IS_INTEGRAL 0
#define TH_REAL_IS_FLOATING 1
#include "TH/THGenerateOneType.h"

#define Real Double
#define scalar_t double
#define accreal double
#define TH_REAL_IS_DOUBLE
#define TH_REAL_IS_INTEGRAL 0
#define TH_REAL_IS_FLOATING 1
#include "TH/THGenerateOneType.h"

#ifndef TH_GENERATE_MANY_TYPES
#undef TH_GENERIC_FILE
#endif
