#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensor.cpp instead"
#endif

/* Note [CUDA tensors have TH's layout]: everything here that only reads or changes sizes,
 * strides, offsets and reference counts is TH's code run on the same struct. */

THCStorage *THCTensor_(storage)(THCState *, const THCTensor *self) { return self->storage; }
ptrdiff_t THCTensor_(storageOffset)(THCState *, const THCTensor *self) { return self->storageOffset; }
int THCTensor_(nDimension)(THCState *, const THCTensor *self) { return self->nDimension; }
int64_t THCTensor_(size)(THCState *, const THCTensor *self, int dim) { return THTensor_(size)(thc::th(self), dim); }
int64_t THCTensor_(stride)(THCState *, const THCTensor *self, int dim) { return THTensor_(stride)(thc::th(self), dim); }
scalar_t *THCTensor_(data)(THCState *, const THCTensor *self) { return self->storage->data + self->storageOffset; }
ptrdiff_t THCTensor_(nElement)(THCState *, const THCTensor *self) { return THTensor_(nElement)(thc::th(self)); }
int THCTensor_(getDevice)(THCState *, const THCTensor *self) { return thc::device(self); }

static THCTensor *THCTensor_(wrap)(THTensor *t) { return reinterpret_cast<THCTensor *>(t); }

THCTensor *THCTensor_(new)(THCState *state) {
  int64_t zero = 0;
  return THCTensor_(newWithSize)(state, 1, &zero, nullptr);
}

THCTensor *THCTensor_(newWithTensor)(THCState *, THCTensor *tensor) {
  return THCTensor_(wrap)(THTensor_(newWithTensor)(thc::th(tensor)));
}

THCTensor *THCTensor_(newWithStorage)(THCState *, THCStorage *storage, ptrdiff_t storageOffset, int nDimension,
                                      const int64_t *size, const int64_t *stride) {
  return THCTensor_(wrap)(THTensor_(newWithStorage)(thc::th(storage), storageOffset, nDimension, size, stride));
}

THCTensor *THCTensor_(newWithStorage1d)(THCState *state, THCStorage *storage, ptrdiff_t storageOffset, int64_t size0,
                                        int64_t stride0) {
  return THCTensor_(newWithStorage)(state, storage, storageOffset, 1, &size0, &stride0);
}

/* A TH tensor header on a fresh empty CUDA storage, then TH's resize, which grows the
 * storage through its allocator: the caching allocator, on the current device. */
THCTensor *THCTensor_(newWithSize)(THCState *state, int nDimension, const int64_t *size, const int64_t *stride) {
  THCStorage *storage = THCStorage_(new)(state);
  int64_t zero = 0, one = 1;
  THCTensor *self;
  try {
    self = THCTensor_(newWithStorage)(state, storage, 0, 1, &zero, &one);
  } catch (...) {
    THCStorage_(free)(state, storage);
    throw;
  }
  THCStorage_(free)(state, storage);
  try {
    THTensor_(resizeNd)(thc::th(self), nDimension, size, stride);
  } catch (...) {
    THCTensor_(free)(state, self);
    throw;
  }
  return self;
}

THCTensor *THCTensor_(newWithSize0d)(THCState *state) { return THCTensor_(newWithSize)(state, 0, nullptr, nullptr); }
THCTensor *THCTensor_(newWithSize1d)(THCState *state, int64_t size0) {
  return THCTensor_(newWithSize)(state, 1, &size0, nullptr);
}
THCTensor *THCTensor_(newWithSize2d)(THCState *state, int64_t size0, int64_t size1) {
  int64_t size[2] = {size0, size1};
  return THCTensor_(newWithSize)(state, 2, size, nullptr);
}
THCTensor *THCTensor_(newWithSize3d)(THCState *state, int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3] = {size0, size1, size2};
  return THCTensor_(newWithSize)(state, 3, size, nullptr);
}
THCTensor *THCTensor_(newWithSize4d)(THCState *state, int64_t size0, int64_t size1, int64_t size2, int64_t size3) {
  int64_t size[4] = {size0, size1, size2, size3};
  return THCTensor_(newWithSize)(state, 4, size, nullptr);
}

/* On the device of self. */
THCTensor *THCTensor_(newClone)(THCState *state, THCTensor *self) {
  thc::DeviceGuard guard(thc::device(self));
  THCTensor *clone = THCTensor_(newWithSize)(state, self->nDimension, self->size, nullptr);
  try {
    THCTensor_(copy)(state, clone, self);
  } catch (...) {
    THCTensor_(free)(state, clone);
    throw;
  }
  return clone;
}

THCTensor *THCTensor_(newContiguous)(THCState *state, THCTensor *self) {
  if (THCTensor_(isContiguous)(state, self)) {
    THCTensor_(retain)(state, self);
    return self;
  }
  return THCTensor_(newClone)(state, self);
}

THCTensor *THCTensor_(newSelect)(THCState *, THCTensor *self, int dim, int64_t index) {
  return THCTensor_(wrap)(THTensor_(newSelect)(thc::th(self), dim, index));
}
THCTensor *THCTensor_(newNarrow)(THCState *, THCTensor *self, int dim, int64_t first, int64_t size) {
  return THCTensor_(wrap)(THTensor_(newNarrow)(thc::th(self), dim, first, size));
}
THCTensor *THCTensor_(newTranspose)(THCState *, THCTensor *self, int dim1, int dim2) {
  return THCTensor_(wrap)(THTensor_(newTranspose)(thc::th(self), dim1, dim2));
}
THCTensor *THCTensor_(newUnfold)(THCState *, THCTensor *self, int dim, int64_t size, int64_t step) {
  return THCTensor_(wrap)(THTensor_(newUnfold)(thc::th(self), dim, size, step));
}
THCTensor *THCTensor_(newView)(THCState *, THCTensor *self, int nDimension, const int64_t *size) {
  return THCTensor_(wrap)(THTensor_(newView)(thc::th(self), nDimension, size));
}
THCTensor *THCTensor_(newExpand)(THCState *, THCTensor *self, int nDimension, const int64_t *size) {
  return THCTensor_(wrap)(THTensor_(newExpand)(thc::th(self), nDimension, size));
}

/* A storage that grows is reallocated on its own device. */
void THCTensor_(resizeNd)(THCState *, THCTensor *self, int nDimension, const int64_t *size, const int64_t *stride) {
  thc::DeviceGuard guard(thc::device(self));
  THTensor_(resizeNd)(thc::th(self), nDimension, size, stride);
}
void THCTensor_(resizeAs)(THCState *state, THCTensor *self, THCTensor *src) {
  THCTensor_(resizeNd)(state, self, src->nDimension, src->size, nullptr);
}
void THCTensor_(resize0d)(THCState *state, THCTensor *self) { THCTensor_(resizeNd)(state, self, 0, nullptr, nullptr); }
void THCTensor_(resize1d)(THCState *state, THCTensor *self, int64_t size0) {
  THCTensor_(resizeNd)(state, self, 1, &size0, nullptr);
}
void THCTensor_(resize2d)(THCState *state, THCTensor *self, int64_t size0, int64_t size1) {
  int64_t size[2] = {size0, size1};
  THCTensor_(resizeNd)(state, self, 2, size, nullptr);
}
void THCTensor_(resize3d)(THCState *state, THCTensor *self, int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3] = {size0, size1, size2};
  THCTensor_(resizeNd)(state, self, 3, size, nullptr);
}
void THCTensor_(resize4d)(THCState *state, THCTensor *self, int64_t size0, int64_t size1, int64_t size2,
                          int64_t size3) {
  int64_t size[4] = {size0, size1, size2, size3};
  THCTensor_(resizeNd)(state, self, 4, size, nullptr);
}

void THCTensor_(set)(THCState *, THCTensor *self, THCTensor *src) { THTensor_(set)(thc::th(self), thc::th(src)); }
void THCTensor_(setStorageNd)(THCState *, THCTensor *self, THCStorage *storage, ptrdiff_t storageOffset, int nDimension,
                              const int64_t *size, const int64_t *stride) {
  THTensor_(setStorageNd)(thc::th(self), thc::th(storage), storageOffset, nDimension, size, stride);
}
void THCTensor_(narrow)(THCState *, THCTensor *self, THCTensor *src, int dim, int64_t first, int64_t size) {
  THTensor_(narrow)(thc::th(self), src ? thc::th(src) : nullptr, dim, first, size);
}
void THCTensor_(select)(THCState *, THCTensor *self, THCTensor *src, int dim, int64_t index) {
  THTensor_(select)(thc::th(self), src ? thc::th(src) : nullptr, dim, index);
}
void THCTensor_(transpose)(THCState *, THCTensor *self, THCTensor *src, int dim1, int dim2) {
  THTensor_(transpose)(thc::th(self), src ? thc::th(src) : nullptr, dim1, dim2);
}
void THCTensor_(permute)(THCState *, THCTensor *self, THCTensor *src, const int *dims) {
  THTensor_(permute)(thc::th(self), src ? thc::th(src) : nullptr, dims);
}
void THCTensor_(unfold)(THCState *, THCTensor *self, THCTensor *src, int dim, int64_t size, int64_t step) {
  THTensor_(unfold)(thc::th(self), src ? thc::th(src) : nullptr, dim, size, step);
}
void THCTensor_(squeeze)(THCState *, THCTensor *self, THCTensor *src) {
  THTensor_(squeeze)(thc::th(self), src ? thc::th(src) : nullptr);
}
void THCTensor_(squeeze1d)(THCState *, THCTensor *self, THCTensor *src, int dim) {
  THTensor_(squeeze1d)(thc::th(self), src ? thc::th(src) : nullptr, dim);
}
void THCTensor_(unsqueeze1d)(THCState *, THCTensor *self, THCTensor *src, int dim) {
  THTensor_(unsqueeze1d)(thc::th(self), src ? thc::th(src) : nullptr, dim);
}
void THCTensor_(view)(THCState *, THCTensor *self, THCTensor *src, int nDimension, const int64_t *size) {
  THTensor_(view)(thc::th(self), src ? thc::th(src) : nullptr, nDimension, size);
}
void THCTensor_(reshape)(THCState *state, THCTensor *self, THCTensor *src, int nDimension, const int64_t *size) {
  if (!src) src = self;
  THCTensor *contiguous = THCTensor_(newContiguous)(state, src);
  try {
    THTensor_(view)(thc::th(self), thc::th(contiguous), nDimension, size);
  } catch (...) {
    THCTensor_(free)(state, contiguous);
    throw;
  }
  THCTensor_(free)(state, contiguous);
}
void THCTensor_(expand)(THCState *, THCTensor *self, THCTensor *src, int nDimension, const int64_t *size) {
  THTensor_(expand)(thc::th(self), src ? thc::th(src) : nullptr, nDimension, size);
}

int THCTensor_(isContiguous)(THCState *, const THCTensor *self) { return THTensor_(isContiguous)(thc::th(self)); }
int THCTensor_(isSameSizeAs)(THCState *, const THCTensor *self, const THCTensor *src) {
  return THTensor_(isSameSizeAs)(thc::th(self), thc::th(src));
}
int THCTensor_(isSetTo)(THCState *, const THCTensor *self, const THCTensor *src) {
  return THTensor_(isSetTo)(thc::th(self), thc::th(src));
}

void THCTensor_(retain)(THCState *, THCTensor *self) { THTensor_(retain)(thc::th(self)); }
void THCTensor_(free)(THCState *, THCTensor *self) {
  if (self) THTensor_(free)(thc::th(self));
}

/* The storage index of an element, bounds checked. */
static ptrdiff_t THCTensor_(elementIndex)(const THCTensor *self, int n, const int64_t *index) {
  if (self->nDimension != n) THIndexError("a %d-dimensional tensor is indexed with %d indices", self->nDimension, n);
  ptrdiff_t offset = self->storageOffset;
  for (int d = 0; d < n; d++) {
    if (index[d] < 0 || index[d] >= self->size[d])
      THIndexError("index %lld is out of range for dimension %d of size %lld", (long long)index[d], d,
                   (long long)self->size[d]);
    offset += index[d] * self->stride[d];
  }
  return offset;
}

scalar_t THCTensor_(get0d)(THCState *state, const THCTensor *self) {
  return THCStorage_(get)(state, self->storage, THCTensor_(elementIndex)(self, 0, nullptr));
}
scalar_t THCTensor_(get1d)(THCState *state, const THCTensor *self, int64_t x0) {
  return THCStorage_(get)(state, self->storage, THCTensor_(elementIndex)(self, 1, &x0));
}
scalar_t THCTensor_(get2d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1) {
  int64_t index[2] = {x0, x1};
  return THCStorage_(get)(state, self->storage, THCTensor_(elementIndex)(self, 2, index));
}
void THCTensor_(set0d)(THCState *state, THCTensor *self, scalar_t value) {
  THCStorage_(set)(state, self->storage, THCTensor_(elementIndex)(self, 0, nullptr), value);
}
void THCTensor_(set1d)(THCState *state, THCTensor *self, int64_t x0, scalar_t value) {
  THCStorage_(set)(state, self->storage, THCTensor_(elementIndex)(self, 1, &x0), value);
}
void THCTensor_(set2d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1, scalar_t value) {
  int64_t index[2] = {x0, x1};
  THCStorage_(set)(state, self->storage, THCTensor_(elementIndex)(self, 2, index), value);
}

const char *THCTensor_(sizeDesc)(THCState *, const THCTensor *self) { return THTensor_(sizeDesc)(thc::th(self)); }
