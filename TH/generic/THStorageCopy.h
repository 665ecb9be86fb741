#ifndef TH_GENERIC_FILE
#error "include TH/THStorage.h instead"
#endif

/* Element-wise copies with conversion; sizes must match. */
TH_API void THStorage_(rawCopy)(THStorage *self, const scalar_t *src);
TH_API void THStorage_(copy)(THStorage *self, THStorage *src);
TH_API void THStorage_(copyByte)(THStorage *self, struct THByteStorage *src);
TH_API void THStorage_(copyChar)(THStorage *self, struct THCharStorage *src);
TH_API void THStorage_(copyShort)(THStorage *self, struct THShortStorage *src);
TH_API void THStorage_(copyInt)(THStorage *self, struct THIntStorage *src);
TH_API void THStorage_(copyLong)(THStorage *self, struct THLongStorage *src);
TH_API void THStorage_(copyFloat)(THStorage *self, struct THFloatStorage *src);
TH_API void THStorage_(copyDouble)(THStorage *self, struct THDoubleStorage *src);
TH_API void THStorage_(copyHalf)(THStorage *self, struct THHalfStorage *src);
