#ifndef TH_GENERIC_FILE
#error "include TH/THTensor.h instead"
#endif

/* A view: storage + offset + sizes + strides (in elements). Any strides are legal,
 * 0 for expanded dimensions. Sizes, strides and dimensions count from 0. */
typedef struct THTensor {
  int64_t *size;
  int64_t *stride;
  int nDimension;
  THStorage *storage;
  ptrdiff_t storageOffset;
  int refcount; /* changed only with atomic operations */
  char flag;
} THTensor;

#define TH_TENSOR_REFCOUNTED 1

/* Access */
TH_API THStorage *THTensor_(storage)(const THTensor *self);
TH_API ptrdiff_t THTensor_(storageOffset)(const THTensor *self);
TH_API int THTensor_(nDimension)(const THTensor *self);
TH_API int64_t THTensor_(size)(const THTensor *self, int dim);
TH_API int64_t THTensor_(stride)(const THTensor *self, int dim);
TH_API scalar_t *THTensor_(data)(const THTensor *self);
TH_API ptrdiff_t THTensor_(nElement)(const THTensor *self);
TH_API void THTensor_(setFlag)(THTensor *self, char flag);
TH_API void THTensor_(clearFlag)(THTensor *self, char flag);

/* Creation. newWithStorage*: a NULL stride means contiguous; a NULL storage a new one. */
TH_API THTensor *THTensor_(new)(void);
TH_API THTensor *THTensor_(newWithTensor)(THTensor *tensor);
TH_API THTensor *THTensor_(newWithStorage)(THStorage *storage, ptrdiff_t storageOffset, int nDimension,
                                           const int64_t *size, const int64_t *stride);
TH_API THTensor *THTensor_(newWithStorage1d)(THStorage *storage, ptrdiff_t storageOffset, int64_t size0,
                                             int64_t stride0);
TH_API THTensor *THTensor_(newWithStorage2d)(THStorage *storage, ptrdiff_t storageOffset, int64_t size0,
                                             int64_t stride0, int64_t size1, int64_t stride1);
TH_API THTensor *THTensor_(newWithSize)(int nDimension, const int64_t *size, const int64_t *stride);
TH_API THTensor *THTensor_(newWithSize0d)(void);
TH_API THTensor *THTensor_(newWithSize1d)(int64_t size0);
TH_API THTensor *THTensor_(newWithSize2d)(int64_t size0, int64_t size1);
TH_API THTensor *THTensor_(newWithSize3d)(int64_t size0, int64_t size1, int64_t size2);
TH_API THTensor *THTensor_(newWithSize4d)(int64_t size0, int64_t size1, int64_t size2, int64_t size3);

TH_API THTensor *THTensor_(newClone)(THTensor *self);
TH_API THTensor *THTensor_(newContiguous)(THTensor *self); /* self retained if contiguous */
TH_API THTensor *THTensor_(newSelect)(THTensor *self, int dim, int64_t index);
TH_API THTensor *THTensor_(newNarrow)(THTensor *self, int dim, int64_t first, int64_t size);
TH_API THTensor *THTensor_(newTranspose)(THTensor *self, int dim1, int dim2);
TH_API THTensor *THTensor_(newUnfold)(THTensor *self, int dim, int64_t size, int64_t step);
TH_API THTensor *THTensor_(newView)(THTensor *self, int nDimension, const int64_t *size);
TH_API THTensor *THTensor_(newExpand)(THTensor *self, int nDimension, const int64_t *size);

/* Shape changes in place. resize keeps the storage when it is large enough. */
TH_API void THTensor_(resizeNd)(THTensor *self, int nDimension, const int64_t *size, const int64_t *stride);
TH_API void THTensor_(resizeAs)(THTensor *self, THTensor *src);
TH_API void THTensor_(resize0d)(THTensor *self);
TH_API void THTensor_(resize1d)(THTensor *self, int64_t size0);
TH_API void THTensor_(resize2d)(THTensor *self, int64_t size0, int64_t size1);
TH_API void THTensor_(resize3d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2);
TH_API void THTensor_(resize4d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2, int64_t size3);
TH_API void THTensor_(resize5d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2, int64_t size3,
                                int64_t size4);

/* self becomes a view: of src, of a storage, or of a part of src. */
TH_API void THTensor_(set)(THTensor *self, THTensor *src);
TH_API void THTensor_(setStorageNd)(THTensor *self, THStorage *storage, ptrdiff_t storageOffset, int nDimension,
                                    const int64_t *size, const int64_t *stride);
TH_API void THTensor_(narrow)(THTensor *self, THTensor *src, int dim, int64_t first, int64_t size);
TH_API void THTensor_(select)(THTensor *self, THTensor *src, int dim, int64_t index);
TH_API void THTensor_(transpose)(THTensor *self, THTensor *src, int dim1, int dim2);
TH_API void THTensor_(permute)(THTensor *self, THTensor *src, const int *dims);
TH_API void THTensor_(unfold)(THTensor *self, THTensor *src, int dim, int64_t size, int64_t step);
TH_API void THTensor_(squeeze)(THTensor *self, THTensor *src);
TH_API void THTensor_(squeeze1d)(THTensor *self, THTensor *src, int dim);
TH_API void THTensor_(unsqueeze1d)(THTensor *self, THTensor *src, int dim);
/* view: no copy, an error when the strides do not allow it; one size may be -1. */
TH_API void THTensor_(view)(THTensor *self, THTensor *src, int nDimension, const int64_t *size);
/* reshape: a view when possible, else a contiguous copy. */
TH_API void THTensor_(reshape)(THTensor *self, THTensor *src, int nDimension, const int64_t *size);
/* expand: size-1 dimensions grow with stride 0; new leading dimensions may be added; -1 keeps a size. */
TH_API void THTensor_(expand)(THTensor *self, THTensor *src, int nDimension, const int64_t *size);

/* Predicates */
TH_API int THTensor_(isContiguous)(const THTensor *self);
TH_API int THTensor_(isSameSizeAs)(const THTensor *self, const THTensor *src);
TH_API int THTensor_(isSetTo)(const THTensor *self, const THTensor *src);
TH_API int THTensor_(isSize)(const THTensor *self, int nDimension, const int64_t *size);

/* Reference counting */
TH_API void THTensor_(retain)(THTensor *self);
TH_API void THTensor_(free)(THTensor *self);
TH_API void THTensor_(freeCopyTo)(THTensor *self, THTensor *dst);

/* Element access (indices count from 0 here, whatever TH_INDEX_BASE) */
TH_API scalar_t THTensor_(get0d)(const THTensor *self);
TH_API scalar_t THTensor_(get1d)(const THTensor *self, int64_t x0);
TH_API scalar_t THTensor_(get2d)(const THTensor *self, int64_t x0, int64_t x1);
TH_API scalar_t THTensor_(get3d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2);
TH_API scalar_t THTensor_(get4d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3);
TH_API void THTensor_(set0d)(THTensor *self, scalar_t value);
TH_API void THTensor_(set1d)(THTensor *self, int64_t x0, scalar_t value);
TH_API void THTensor_(set2d)(THTensor *self, int64_t x0, int64_t x1, scalar_t value);
TH_API void THTensor_(set3d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, scalar_t value);
TH_API void THTensor_(set4d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3, scalar_t value);

/* A short description for error messages, e.g. "[2, 3]". Valid until the next call on the same thread. */
TH_API const char *THTensor_(sizeDesc)(const THTensor *self);
