/* Includes TH_GENERIC_FILE once for the type the includer defined (Real, scalar_t,
 * accreal, TH_REAL_IS_<TYPE>), then forgets that type. Included only by THGenerate*.h. */
#include TH_GENERIC_FILE
#undef Real
#undef scalar_t
#undef accreal
#undef TH_REAL_IS_BYTE
#undef TH_REAL_IS_CHAR
#undef TH_REAL_IS_SHORT
#undef TH_REAL_IS_INT
#undef TH_REAL_IS_LONG
#undef TH_REAL_IS_FLOAT
#undef TH_REAL_IS_DOUBLE
#undef TH_REAL_IS_HALF
#undef TH_REAL_IS_FLOATING
#undef TH_REAL_IS_INTEGRAL
