#ifndef THC_GENERIC_FILE
#error "include THC/THCTensor.h instead"
#endif

/* Note [CUDA tensors have TH's layout]: a CUDA tensor is TH's tensor struct whose storage
 * holds device memory. Views (narrow, select, transpose, unfold, view, expand, ...) only
 * change sizes, strides and the offset, so THC runs TH's own code for them, written once;
 * what touches elements (creation, copies, math) is THC's. */
typedef struct THCTensor {
  int64_t *size;
  int64_t *stride;
  int nDimension;
  THCStorage *storage;
  ptrdiff_t storageOffset;
  int refcount;
  char flag;
} THCTensor;

/* Access */
THC_API THCStorage *THCTensor_(storage)(THCState *state, const THCTensor *self);
THC_API ptrdiff_t THCTensor_(storageOffset)(THCState *state, const THCTensor *self);
THC_API int THCTensor_(nDimension)(THCState *state, const THCTensor *self);
THC_API int64_t THCTensor_(size)(THCState *state, const THCTensor *self, int dim);
THC_API int64_t THCTensor_(stride)(THCState *state, const THCTensor *self, int dim);
THC_API scalar_t *THCTensor_(data)(THCState *state, const THCTensor *self); /* a device pointer */
THC_API ptrdiff_t THCTensor_(nElement)(THCState *state, const THCTensor *self);
/* The device of the data; -1 for a tensor without memory yet. */
THC_API int THCTensor_(getDevice)(THCState *state, const THCTensor *self);

/* Creation, on the current device. */
THC_API THCTensor *THCTensor_(new)(THCState *state);
THC_API THCTensor *THCTensor_(newWithTensor)(THCState *state, THCTensor *tensor);
THC_API THCTensor *THCTensor_(newWithStorage)(THCState *state, THCStorage *storage, ptrdiff_t storageOffset,
                                              int nDimension, const int64_t *size, const int64_t *stride);
THC_API THCTensor *THCTensor_(newWithStorage1d)(THCState *state, THCStorage *storage, ptrdiff_t storageOffset,
                                                int64_t size0, int64_t stride0);
THC_API THCTensor *THCTensor_(newWithSize)(THCState *state, int nDimension, const int64_t *size, const int64_t *stride);
THC_API THCTensor *THCTensor_(newWithSize0d)(THCState *state);
THC_API THCTensor *THCTensor_(newWithSize1d)(THCState *state, int64_t size0);
THC_API THCTensor *THCTensor_(newWithSize2d)(THCState *state, int64_t size0, int64_t size1);
THC_API THCTensor *THCTensor_(newWithSize3d)(THCState *state, int64_t size0, int64_t size1, int64_t size2);
THC_API THCTensor *THCTensor_(newWithSize4d)(THCState *state, int64_t size0, int64_t size1, int64_t size2,
                                             int64_t size3);

THC_API THCTensor *THCTensor_(newClone)(THCState *state, THCTensor *self);
THC_API THCTensor *THCTensor_(newContiguous)(THCState *state, THCTensor *self); /* self retained if contiguous */
THC_API THCTensor *THCTensor_(newSelect)(THCState *state, THCTensor *self, int dim, int64_t index);
THC_API THCTensor *THCTensor_(newNarrow)(THCState *state, THCTensor *self, int dim, int64_t first, int64_t size);
THC_API THCTensor *THCTensor_(newTranspose)(THCState *state, THCTensor *self, int dim1, int dim2);
THC_API THCTensor *THCTensor_(newUnfold)(THCState *state, THCTensor *self, int dim, int64_t size, int64_t step);
THC_API THCTensor *THCTensor_(newView)(THCState *state, THCTensor *self, int nDimension, const int64_t *size);
THC_API THCTensor *THCTensor_(newExpand)(THCState *state, THCTensor *self, int nDimension, const int64_t *size);

/* Shape changes in place; resize keeps the storage when it is large enough. */
THC_API void THCTensor_(resizeNd)(THCState *state, THCTensor *self, int nDimension, const int64_t *size,
                                  const int64_t *stride);
THC_API void THCTensor_(resizeAs)(THCState *state, THCTensor *self, THCTensor *src);
THC_API void THCTensor_(resize0d)(THCState *state, THCTensor *self);
THC_API void THCTensor_(resize1d)(THCState *state, THCTensor *self, int64_t size0);
THC_API void THCTensor_(resize2d)(THCState *state, THCTensor *self, int64_t size0, int64_t size1);
THC_API void THCTensor_(resize3d)(THCState *state, THCTensor *self, int64_t size0, int64_t size1, int64_t size2);
THC_API void THCTensor_(resize4d)(THCState *state, THCTensor *self, int64_t size0, int64_t size1, int64_t size2,
                                  int64_t size3);

THC_API void THCTensor_(set)(THCState *state, THCTensor *self, THCTensor *src);
THC_API void THCTensor_(setStorageNd)(THCState *state, THCTensor *self, THCStorage *storage, ptrdiff_t storageOffset,
                                      int nDimension, const int64_t *size, const int64_t *stride);
THC_API void THCTensor_(narrow)(THCState *state, THCTensor *self, THCTensor *src, int dim, int64_t first, int64_t size);
THC_API void THCTensor_(select)(THCState *state, THCTensor *self, THCTensor *src, int dim, int64_t index);
THC_API void THCTensor_(transpose)(THCState *state, THCTensor *self, THCTensor *src, int dim1, int dim2);
THC_API void THCTensor_(permute)(THCState *state, THCTensor *self, THCTensor *src, const int *dims);
THC_API void THCTensor_(unfold)(THCState *state, THCTensor *self, THCTensor *src, int dim, int64_t size, int64_t step);
THC_API void THCTensor_(squeeze)(THCState *state, THCTensor *self, THCTensor *src);
THC_API void THCTensor_(squeeze1d)(THCState *state, THCTensor *self, THCTensor *src, int dim);
THC_API void THCTensor_(unsqueeze1d)(THCState *state, THCTensor *self, THCTensor *src, int dim);
THC_API void THCTensor_(view)(THCState *state, THCTensor *self, THCTensor *src, int nDimension, const int64_t *size);
/* A view when src is contiguous, else a contiguous copy. */
THC_API void THCTensor_(reshape)(THCState *state, THCTensor *self, THCTensor *src, int nDimension, const int64_t *size);
THC_API void THCTensor_(expand)(THCState *state, THCTensor *self, THCTensor *src, int nDimension, const int64_t *size);

THC_API int THCTensor_(isContiguous)(THCState *state, const THCTensor *self);
THC_API int THCTensor_(isSameSizeAs)(THCState *state, const THCTensor *self, const THCTensor *src);
THC_API int THCTensor_(isSetTo)(THCState *state, const THCTensor *self, const THCTensor *src);

THC_API void THCTensor_(retain)(THCState *state, THCTensor *self);
THC_API void THCTensor_(free)(THCState *state, THCTensor *self);

/* Element access from the host (indices count from 0; waits for the current stream). */
THC_API scalar_t THCTensor_(get0d)(THCState *state, const THCTensor *self);
THC_API scalar_t THCTensor_(get1d)(THCState *state, const THCTensor *self, int64_t x0);
THC_API scalar_t THCTensor_(get2d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1);
THC_API void THCTensor_(set0d)(THCState *state, THCTensor *self, scalar_t value);
THC_API void THCTensor_(set1d)(THCState *state, THCTensor *self, int64_t x0, scalar_t value);
THC_API void THCTensor_(set2d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1, scalar_t value);

THC_API const char *THCTensor_(sizeDesc)(THCState *state, const THCTensor *self);
