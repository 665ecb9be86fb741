/* Included by TH's type generator on behalf of THCGenerateAllTypes.h. */
#if defined(TH_REAL_IS_FLOAT)
#define CReal
#else
#define CReal Real
#endif
#include THC_GENERIC_FILE
#undef CReal
