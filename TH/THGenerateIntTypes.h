/* The integer element types: the one list from which every Byte..Long name is made. */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THGenerateIntTypes.h"
#endif

#define Real Byte
#define scalar_t uint8_t
#define accreal int64_t
#define TH_REAL_IS_BYTE
#define TH_REAL_IS_INTEGRAL 1
#define TH_REAL_IS_FLOATING 0
#include "TH/THGenerateOneType.h"

#define Real Char
#define scalar_t int8_t
#define accreal int64_t
#define TH_REAL_IS_CHAR
#define TH_REAL_IS_INTEGRAL 1
#define TH_REAL_IS_FLOATING 0
#include "TH/THGenerateOneType.h"

#define Real Short
#define scalar_t int16_t
#define accreal int64_t
#define TH_REAL_IS_SHORT
#define TH_REAL_IS_INTEGRAL 1
#define TH_REAL_IS_FLOATING 0
#include "TH/THGenerateOneType.h"

#define Real Int
#define scalar_t int32_t
#define accreal int64_t
#define TH_REAL_IS_INT
#define TH_REAL_IS_INTEGRAL 1
#define TH_REAL_IS_FLOATING 0
#include "TH/THGenerateOneType.h"

#define Real Long
#define scalar_t int64_t
#define accreal int64_t
#define TH_REAL_IS_LONG
#define TH_REAL_IS_INTEGRAL 1
#define TH_REAL_IS_FLOATING 0
#include "TH/THGenerateOneType.h"

#ifndef TH_GENERATE_MANY_TYPES
#undef TH_GENERIC_FILE
#endif
