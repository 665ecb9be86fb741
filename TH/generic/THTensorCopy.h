#ifndef TH_GENERIC_FILE
#error "include TH/THTensor.h instead"
#endif

/* self <- src element by element (converted); both must have the same number of elements
 * and may have different shapes (they are walked in their own row-major order). */
TH_API void THTensor_(copy)(THTensor *self, THTensor *src);
TH_API void THTensor_(copyByte)(THTensor *self, struct THByteTensor *src);
TH_API void THTensor_(copyChar)(THTensor *self, struct THCharTensor *src);
TH_API void THTensor_(copyShort)(THTensor *self, struct THShortTensor *src);
TH_API void THTensor_(copyInt)(THTensor *self, struct THIntTensor *src);
TH_API void THTensor_(copyLong)(THTensor *self, struct THLongTensor *src);
TH_API void THTensor_(copyFloat)(THTensor *self, struct THFloatTensor *src);
TH_API void THTensor_(copyDouble)(THTensor *self, struct THDoubleTensor *src);
TH_API void THTensor_(copyHalf)(THTensor *self, struct THHalfTensor *src);
