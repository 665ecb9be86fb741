/* Includes TH_GENERIC_FILE once for the type the includer defined (Real, scalar_t,
 * accreal, TH_REAL_IS_<TYPE>), then forgets that type. Included only by THGenerate*.h.
 * TH_IF_<Types>(...) keep their arguments for the types of that class (the Types column of
 * Note [Pointwise op tables] in THPointwiseOps.h), so that a generic file can expand an op
 * table for the rows that exist for its type. */
#if defined(TH_REAL_IS_HALF)
#define TH_IF_All(...)
#else
#define TH_IF_All(...) __VA_ARGS__
#endif
#if TH_REAL_IS_FLOATING
#define TH_IF_Floating(...) __VA_ARGS__
#else
#define TH_IF_Floating(...)
#endif
#if TH_REAL_IS_INTEGRAL
#define TH_IF_Integral(...) __VA_ARGS__
#else
#define TH_IF_Integral(...)
#endif
#include TH_GENERIC_FILE
#undef TH_IF_All
#undef TH_IF_Floating
#undef TH_IF_Integral
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
