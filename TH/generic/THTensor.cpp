#ifndef TH_GENERIC_FILE
#error "compile TH/THTensor.cpp instead"
#endif

THStorage *THTensor_(storage)(const THTensor *self) { return self->storage; }
ptrdiff_t THTensor_(storageOffset)(const THTensor *self) { return self->storageOffset; }
int THTensor_(nDimension)(const THTensor *self) { return self->nDimension; }

int64_t THTensor_(size)(const THTensor *self, int dim) {
  if (dim < 0 || dim >= self->nDimension)
    THIndexError("dimension %d out of range for a %d-dimensional tensor", dim, self->nDimension);
  return self->size[dim];
}

int64_t THTensor_(stride)(const THTensor *self, int dim) {
  if (dim < 0 || dim >= self->nDimension)
    THIndexError("dimension %d out of range for a %d-dimensional tensor", dim, self->nDimension);
  return self->stride[dim];
}

scalar_t *THTensor_(data)(const THTensor *self) { return self->storage->data + self->storageOffset; }

ptrdiff_t THTensor_(nElement)(const THTensor *self) {
  ptrdiff_t n = 1;
  for (int d = 0; d < self->nDimension; d++) n *= self->size[d];
  return n;
}

void THTensor_(setFlag)(THTensor *self, char flag) { self->flag |= flag; }
void THTensor_(clearFlag)(THTensor *self, char flag) { self->flag &= ~flag; }

/* The shape arrays are owned by the tensor; this only changes the dimension count. */
static void THTensor_(setDims)(THTensor *self, int nDimension) {
  if (nDimension == self->nDimension) return;
  self->size = static_cast<int64_t *>(THRealloc(self->size, sizeof(int64_t) * nDimension));
  self->stride = static_cast<int64_t *>(THRealloc(self->stride, sizeof(int64_t) * nDimension));
  self->nDimension = nDimension;
}

static THTensor *THTensor_(alloc)(THStorage *storage) {
  THTensor *self = static_cast<THTensor *>(THAlloc(sizeof(THTensor)));
  self->size = nullptr;
  self->stride = nullptr;
  self->nDimension = 0;
  self->storage = storage;
  self->storageOffset = 0;
  self->refcount = 1;
  self->flag = TH_TENSOR_REFCOUNTED;
  return self;
}

static void THTensor_(checkShape)(int nDimension, const int64_t *size) {
  THArgCheck(nDimension >= 0, 2, "dimension count must be >= 0, got %d", nDimension);
  int64_t n = 1;
  for (int d = 0; d < nDimension; d++) {
    if (size[d] < 0) THValueError("invalid size %lld in dimension %d: sizes must be >= 0", (long long)size[d], d);
    if (size[d] != 0 && n > PTRDIFF_MAX / size[d]) THError("tensor size overflows: too many elements");
    n *= size[d];
  }
}

/* Sets sizes and strides of self (which keeps its storage and offset). */
static void THTensor_(setShape)(THTensor *self, int nDimension, const int64_t *size, const int64_t *stride) {
  THTensor_(setDims)(self, nDimension);
  for (int d = 0; d < nDimension; d++) self->size[d] = size[d];
  if (stride) {
    for (int d = 0; d < nDimension; d++) self->stride[d] = stride[d];
  } else {
    int64_t s = 1;
    for (int d = nDimension - 1; d >= 0; d--) {
      self->stride[d] = s;
      s *= size[d] > 0 ? size[d] : 1;
    }
  }
}

/* Number of storage elements a view needs past its offset. */
static ptrdiff_t THTensor_(extent)(int nDimension, const int64_t *size, const int64_t *stride) {
  ptrdiff_t extent = 1;
  for (int d = 0; d < nDimension; d++) {
    if (size[d] == 0) return 0;
    extent += (size[d] - 1) * stride[d];
  }
  return extent;
}

THTensor *THTensor_(new)(void) {
  int64_t zero = 0;
  return THTensor_(newWithSize)(1, &zero, nullptr);
}

THTensor *THTensor_(newWithTensor)(THTensor *tensor) {
  THStorage_(retain)(tensor->storage);
  THTensor *self = THTensor_(alloc)(tensor->storage);
  self->storageOffset = tensor->storageOffset;
  THTensor_(setShape)(self, tensor->nDimension, tensor->size, tensor->stride);
  return self;
}

THTensor *THTensor_(newWithStorage)(THStorage *storage, ptrdiff_t storageOffset, int nDimension, const int64_t *size,
                                    const int64_t *stride) {
  THTensor *self = THTensor_(new)();
  try {
    THTensor_(setStorageNd)(self, storage, storageOffset, nDimension, size, stride);
  } catch (...) {
    THTensor_(free)(self);
    throw;
  }
  return self;
}

THTensor *THTensor_(newWithStorage1d)(THStorage *storage, ptrdiff_t storageOffset, int64_t size0, int64_t stride0) {
  return THTensor_(newWithStorage)(storage, storageOffset, 1, &size0, &stride0);
}

THTensor *THTensor_(newWithStorage2d)(THStorage *storage, ptrdiff_t storageOffset, int64_t size0, int64_t stride0,
                                      int64_t size1, int64_t stride1) {
  int64_t size[2] = {size0, size1}, stride[2] = {stride0, stride1};
  return THTensor_(newWithStorage)(storage, storageOffset, 2, size, stride);
}

THTensor *THTensor_(newWithSize)(int nDimension, const int64_t *size, const int64_t *stride) {
  THTensor_(checkShape)(nDimension, size);
  THTensor *self = THTensor_(alloc)(THStorage_(new)());
  try {
    THTensor_(resizeNd)(self, nDimension, size, stride);
  } catch (...) {
    THTensor_(free)(self);
    throw;
  }
  return self;
}

THTensor *THTensor_(newWithSize0d)(void) { return THTensor_(newWithSize)(0, nullptr, nullptr); }
THTensor *THTensor_(newWithSize1d)(int64_t size0) { return THTensor_(newWithSize)(1, &size0, nullptr); }
THTensor *THTensor_(newWithSize2d)(int64_t size0, int64_t size1) {
  int64_t size[2] = {size0, size1};
  return THTensor_(newWithSize)(2, size, nullptr);
}
THTensor *THTensor_(newWithSize3d)(int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3] = {size0, size1, size2};
  return THTensor_(newWithSize)(3, size, nullptr);
}
THTensor *THTensor_(newWithSize4d)(int64_t size0, int64_t size1, int64_t size2, int64_t size3) {
  int64_t size[4] = {size0, size1, size2, size3};
  return THTensor_(newWithSize)(4, size, nullptr);
}

THTensor *THTensor_(newClone)(THTensor *self) {
  auto clone = th::own(THTensor_(newWithSize)(self->nDimension, self->size, nullptr));
  THTensor_(copy)(clone.get(), self);
  return clone.release();
}

THTensor *THTensor_(newContiguous)(THTensor *self) {
  if (THTensor_(isContiguous)(self)) {
    THTensor_(retain)(self);
    return self;
  }
  return THTensor_(newClone)(self);
}

/* The new* view constructors: a fresh header on the same storage, then the in-place op. */
#define TH_NEW_VIEW(CALL)                              \
  auto view = th::own(THTensor_(newWithTensor)(self)); \
  CALL;                                                \
  return view.release();

THTensor *THTensor_(newSelect)(THTensor *self, int dim, int64_t index){
    TH_NEW_VIEW(THTensor_(select)(view.get(), nullptr, dim, index))} THTensor *THTensor_(newNarrow)(THTensor *self,
                                                                                                    int dim,
                                                                                                    int64_t first,
                                                                                                    int64_t size){
    TH_NEW_VIEW(THTensor_(narrow)(view.get(), nullptr, dim, first,
                                  size))} THTensor *THTensor_(newTranspose)(THTensor *self, int dim1, int dim2){
    TH_NEW_VIEW(THTensor_(transpose)(view.get(), nullptr, dim1, dim2))} THTensor *THTensor_(newUnfold)(THTensor *self,
                                                                                                       int dim,
                                                                                                       int64_t size,
                                                                                                       int64_t step){
    TH_NEW_VIEW(THTensor_(unfold)(view.get(), nullptr, dim, size,
                                  step))} THTensor *THTensor_(newView)(THTensor *self, int nDimension,
                                                                       const int64_t *size){
    TH_NEW_VIEW(THTensor_(view)(view.get(), nullptr, nDimension,
                                size))} THTensor *THTensor_(newExpand)(THTensor *self, int nDimension,
                                                                       const int64_t *size) {
  TH_NEW_VIEW(THTensor_(expand)(view.get(), nullptr, nDimension, size))
}
#undef TH_NEW_VIEW

void THTensor_(resizeNd)(THTensor *self, int nDimension, const int64_t *size, const int64_t *stride) {
  THTensor_(checkShape)(nDimension, size);
  /* keeps the strides, as torch7 and PyTorch do; a fresh tensor is 0-dim without storage yet */
  if (!stride && THTensor_(isSize)(self, nDimension, size) &&
      self->storageOffset + THTensor_(extent)(nDimension, size, self->stride) <= self->storage->size)
    return;
  int64_t contiguous[64];
  std::vector<int64_t> contiguousHeap;
  if (!stride) {
    int64_t *s = contiguous;
    if (nDimension > 64) {
      contiguousHeap.resize(nDimension);
      s = contiguousHeap.data();
    }
    int64_t acc = 1;
    for (int d = nDimension - 1; d >= 0; d--) {
      s[d] = acc;
      acc *= size[d] > 0 ? size[d] : 1;
    }
    stride = s;
  }
  for (int d = 0; d < nDimension; d++)
    THArgCheck(stride[d] >= 0, 3, "strides must be >= 0, got %lld in dimension %d", (long long)stride[d], d);
  ptrdiff_t needed = self->storageOffset + THTensor_(extent)(nDimension, size, stride);
  if (needed > self->storage->size) THStorage_(resize)(self->storage, needed);
  THTensor_(setShape)(self, nDimension, size, stride);
}

void THTensor_(resizeAs)(THTensor *self, THTensor *src) {
  if (!THTensor_(isSameSizeAs)(self, src)) THTensor_(resizeNd)(self, src->nDimension, src->size, nullptr);
}

void THTensor_(resize0d)(THTensor *self) { THTensor_(resizeNd)(self, 0, nullptr, nullptr); }
void THTensor_(resize1d)(THTensor *self, int64_t size0) { THTensor_(resizeNd)(self, 1, &size0, nullptr); }
void THTensor_(resize2d)(THTensor *self, int64_t size0, int64_t size1) {
  int64_t size[2] = {size0, size1};
  THTensor_(resizeNd)(self, 2, size, nullptr);
}
void THTensor_(resize3d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3] = {size0, size1, size2};
  THTensor_(resizeNd)(self, 3, size, nullptr);
}
void THTensor_(resize4d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2, int64_t size3) {
  int64_t size[4] = {size0, size1, size2, size3};
  THTensor_(resizeNd)(self, 4, size, nullptr);
}
void THTensor_(resize5d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2, int64_t size3, int64_t size4) {
  int64_t size[5] = {size0, size1, size2, size3, size4};
  THTensor_(resizeNd)(self, 5, size, nullptr);
}

void THTensor_(set)(THTensor *self, THTensor *src) {
  if (self == src) return;
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, src->nDimension, src->size, src->stride);
}

void THTensor_(setStorageNd)(THTensor *self, THStorage *storage, ptrdiff_t storageOffset, int nDimension,
                             const int64_t *size, const int64_t *stride) {
  THTensor_(checkShape)(nDimension, size);
  THArgCheck(storageOffset >= 0, 3, "storage offset must be >= 0, got %td", storageOffset);
  if (stride)
    for (int d = 0; d < nDimension; d++)
      THArgCheck(stride[d] >= 0, 6, "strides must be >= 0, got %lld in dimension %d", (long long)stride[d], d);
  THStorage *newStorage = storage ? storage : THStorage_(new)();
  if (storage) THStorage_(retain)(storage);
  THStorage *old = self->storage;
  self->storage = newStorage;
  self->storageOffset = storageOffset;
  try {
    THTensor_(resizeNd)(self, nDimension, size, stride);
  } catch (...) {
    self->storage = old;
    THStorage_(free)(newStorage);
    throw;
  }
  THStorage_(free)(old);
}

static int THTensor_(wrapDim)(const THTensor *t, int dim, int argNumber, bool allowEnd = false) {
  int n = t->nDimension + (allowEnd ? 1 : 0);
  if (dim < 0 || dim >= n) {
    if (n == 0) THIndexError("dimension %d (argument %d) out of range: the tensor has no dimensions", dim, argNumber);
    THIndexError("dimension %d (argument %d) out of range: expected 0 to %d", dim, argNumber, n - 1);
  }
  return dim;
}

void THTensor_(narrow)(THTensor *self, THTensor *src, int dim, int64_t first, int64_t size) {
  if (!src) src = self;
  THTensor_(wrapDim)(src, dim, 3);
  if (first < 0 || first > src->size[dim])
    THIndexError("narrow: start %lld is out of range for dimension %d of size %lld", (long long)first, dim,
                 (long long)src->size[dim]);
  if (size < 0 || first + size > src->size[dim])
    THIndexError("narrow: length %lld from %lld does not fit in dimension %d of size %lld", (long long)size,
                 (long long)first, dim, (long long)src->size[dim]);
  THTensor_(set)(self, src);
  if (first > 0) self->storageOffset += first * self->stride[dim];
  self->size[dim] = size;
}

void THTensor_(select)(THTensor *self, THTensor *src, int dim, int64_t index) {
  if (!src) src = self;
  THTensor_(wrapDim)(src, dim, 3);
  if (index < 0 || index >= src->size[dim])
    THIndexError("index %lld is out of range for dimension %d of size %lld", (long long)index, dim,
                 (long long)src->size[dim]);
  THTensor_(set)(self, src);
  self->storageOffset += index * self->stride[dim];
  for (int d = dim; d < self->nDimension - 1; d++) {
    self->size[d] = self->size[d + 1];
    self->stride[d] = self->stride[d + 1];
  }
  THTensor_(setDims)(self, self->nDimension - 1);
}

void THTensor_(transpose)(THTensor *self, THTensor *src, int dim1, int dim2) {
  if (!src) src = self;
  THTensor_(wrapDim)(src, dim1, 3);
  THTensor_(wrapDim)(src, dim2, 4);
  THTensor_(set)(self, src);
  std::swap(self->size[dim1], self->size[dim2]);
  std::swap(self->stride[dim1], self->stride[dim2]);
}

void THTensor_(permute)(THTensor *self, THTensor *src, const int *dims) {
  if (!src) src = self;
  const int n = src->nDimension;
  std::vector<char> seen(n, 0);
  for (int d = 0; d < n; d++) {
    if (dims[d] < 0 || dims[d] >= n) THIndexError("permute: dimension %d out of range for %d dimensions", dims[d], n);
    if (seen[dims[d]]) THValueError("permute: dimension %d appears twice", dims[d]);
    seen[dims[d]] = 1;
  }
  std::vector<int64_t> size(n), stride(n);
  for (int d = 0; d < n; d++) {
    size[d] = src->size[dims[d]];
    stride[d] = src->stride[dims[d]];
  }
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, n, size.data(), stride.data());
}

void THTensor_(unfold)(THTensor *self, THTensor *src, int dim, int64_t size, int64_t step) {
  if (!src) src = self;
  const int n = src->nDimension;
  if (n == 0) {
    dim = 0;
  } else {
    THTensor_(wrapDim)(src, dim, 3);
  }
  const int64_t dimSize = n == 0 ? 1 : src->size[dim];
  const int64_t dimStride = n == 0 ? 1 : src->stride[dim];
  if (size < 0 || size > dimSize)
    THValueError("unfold: window size %lld is larger than dimension %d of size %lld", (long long)size, dim,
                 (long long)dimSize);
  THArgCheck(step > 0, 5, "unfold: step must be > 0, got %lld", (long long)step);
  std::vector<int64_t> newSize(src->size, src->size + n), newStride(src->stride, src->stride + n);
  if (n == 0) {
    newSize.push_back(size);
    newStride.push_back(1);
  } else {
    newSize[dim] = (dimSize - size) / step + 1;
    newStride[dim] = step * dimStride;
    newSize.push_back(size);
    newStride.push_back(dimStride);
  }
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, (int)newSize.size(), newSize.data(),
                          newStride.data());
}

void THTensor_(squeeze)(THTensor *self, THTensor *src) {
  if (!src) src = self;
  std::vector<int64_t> size, stride;
  for (int d = 0; d < src->nDimension; d++) {
    if (src->size[d] == 1) continue;
    size.push_back(src->size[d]);
    stride.push_back(src->stride[d]);
  }
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, (int)size.size(), size.data(), stride.data());
}

void THTensor_(squeeze1d)(THTensor *self, THTensor *src, int dim) {
  if (!src) src = self;
  if (src->nDimension == 0 && dim == 0) {
    THTensor_(set)(self, src);
    return;
  }
  THTensor_(wrapDim)(src, dim, 3);
  THTensor_(set)(self, src);
  if (src->size[dim] != 1) return;
  for (int d = dim; d < self->nDimension - 1; d++) {
    self->size[d] = self->size[d + 1];
    self->stride[d] = self->stride[d + 1];
  }
  THTensor_(setDims)(self, self->nDimension - 1);
}

void THTensor_(unsqueeze1d)(THTensor *self, THTensor *src, int dim) {
  if (!src) src = self;
  THTensor_(wrapDim)(src, dim, 3, true);
  const int n = src->nDimension;
  std::vector<int64_t> size(src->size, src->size + n), stride(src->stride, src->stride + n);
  int64_t newStride = dim < n ? src->size[dim] * src->stride[dim] : 1;
  size.insert(size.begin() + dim, 1);
  stride.insert(stride.begin() + dim, newStride);
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, n + 1, size.data(), stride.data());
}

/* Replaces one -1 in `size` by what makes the element count `numel`. */
static std::vector<int64_t> THTensor_(inferSize)(ptrdiff_t numel, int nDimension, const int64_t *size) {
  std::vector<int64_t> out(size, size + nDimension);
  int infer = -1;
  int64_t known = 1;
  for (int d = 0; d < nDimension; d++) {
    if (out[d] == -1) {
      if (infer >= 0) THValueError("only one dimension can be inferred (-1)");
      infer = d;
    } else if (out[d] < 0) {
      THValueError("invalid size %lld in dimension %d", (long long)out[d], d);
    } else {
      known *= out[d];
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      THValueError("shape is invalid for a tensor of %td elements: cannot infer dimension %d", numel, infer);
    out[infer] = numel / known;
    known *= out[infer];
  }
  if (known != numel) {
    std::string desc;
    for (int d = 0; d < nDimension; d++) desc += (d ? ", " : "") + std::to_string(out[d]);
    THValueError("shape [%s] is invalid for a tensor of %td elements", desc.c_str(), numel);
  }
  return out;
}

/* Strides that let a view of shape `size` walk src's elements in src's row-major order,
 * or false when src's strides do not allow it (then only a copy can reshape). Each
 * run of src dimensions that is contiguous among itself can be split or merged freely. */
static bool THTensor_(viewStrides)(const THTensor *src, const std::vector<int64_t> &size,
                                   std::vector<int64_t> &stride) {
  const int n = (int)size.size();
  stride.assign(n, 1);
  ptrdiff_t numel = THTensor_(nElement)(src);
  if (numel == 0) {
    int64_t acc = 1;
    for (int d = n - 1; d >= 0; d--) {
      stride[d] = acc;
      acc *= size[d] > 0 ? size[d] : 1;
    }
    return true;
  }
  if (src->nDimension == 0) return true;  // one element: every view of it has sizes 1, any strides
  int viewDim = n - 1;
  int64_t chunkBaseStride = src->nDimension ? src->stride[src->nDimension - 1] : 1;
  int64_t tensorElems = 1, viewElems = 1;
  for (int d = src->nDimension - 1; d >= 0; d--) {
    tensorElems *= src->size[d];
    // a chunk ends where src is not contiguous between d-1 and d
    if (d == 0 || (src->size[d - 1] != 1 && src->stride[d - 1] != tensorElems * chunkBaseStride)) {
      while (viewDim >= 0 && (viewElems < tensorElems || size[viewDim] == 1)) {
        stride[viewDim] = viewElems * chunkBaseStride;
        viewElems *= size[viewDim];
        viewDim--;
      }
      if (viewElems != tensorElems) return false;
      if (d > 0) {
        chunkBaseStride = src->stride[d - 1];
        tensorElems = 1;
        viewElems = 1;
      }
    }
  }
  return viewDim == -1;
}

void THTensor_(view)(THTensor *self, THTensor *src, int nDimension, const int64_t *size) {
  if (!src) src = self;
  std::vector<int64_t> shape = THTensor_(inferSize)(THTensor_(nElement)(src), nDimension, size);
  std::vector<int64_t> stride;
  if (!THTensor_(viewStrides)(src, shape, stride))
    THError(
        "view size is not compatible with the input tensor's size and stride %s "
        "(at least one dimension spans two contiguous subspaces): use reshape or contiguous first",
        THTensor_(sizeDesc)(src));
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, nDimension, shape.data(), stride.data());
}

void THTensor_(reshape)(THTensor *self, THTensor *src, int nDimension, const int64_t *size) {
  if (!src) src = self;
  std::vector<int64_t> shape = THTensor_(inferSize)(THTensor_(nElement)(src), nDimension, size);
  std::vector<int64_t> stride;
  if (THTensor_(viewStrides)(src, shape, stride)) {
    THTensor_(setStorageNd)(self, src->storage, src->storageOffset, nDimension, shape.data(), stride.data());
    return;
  }
  auto copy = th::own(THTensor_(newClone)(src));
  THTensor_(setStorageNd)(self, copy->storage, copy->storageOffset, nDimension, shape.data(), nullptr);
}

void THTensor_(expand)(THTensor *self, THTensor *src, int nDimension, const int64_t *size) {
  if (!src) src = self;
  const int n = src->nDimension;
  if (nDimension < n)
    THValueError("expand: the number of sizes (%d) must be at least the tensor's dimension count (%d)", nDimension, n);
  std::vector<int64_t> newSize(nDimension), newStride(nDimension);
  for (int d = nDimension - 1; d >= 0; d--) {
    int sd = d - (nDimension - n);
    int64_t want = size[d];
    if (sd >= 0) {
      int64_t have = src->size[sd];
      if (want == -1) want = have;
      if (have == want) {
        newSize[d] = have;
        newStride[d] = src->stride[sd];
      } else if (have == 1 && want >= 0) {
        newSize[d] = want;
        newStride[d] = 0;
      } else {
        THValueError("expand: the size of dimension %d (%lld) must match %lld, or be 1 to be expanded", sd,
                     (long long)have, (long long)want);
      }
    } else {
      if (want < 0) THValueError("expand: size %lld is not allowed for a new leading dimension", (long long)want);
      newSize[d] = want;
      newStride[d] = 0;
    }
  }
  THTensor_(setStorageNd)(self, src->storage, src->storageOffset, nDimension, newSize.data(), newStride.data());
}

int THTensor_(isContiguous)(const THTensor *self) {
  return th::isContiguous(th::TensorRef<scalar_t>{nullptr, self->nDimension, self->size, self->stride});
}

int THTensor_(isSize)(const THTensor *self, int nDimension, const int64_t *size) {
  if (self->nDimension != nDimension) return 0;
  for (int d = 0; d < nDimension; d++)
    if (self->size[d] != size[d]) return 0;
  return 1;
}

int THTensor_(isSameSizeAs)(const THTensor *self, const THTensor *src) {
  return THTensor_(isSize)(self, src->nDimension, src->size);
}

int THTensor_(isSetTo)(const THTensor *self, const THTensor *src) {
  if (self->storage != src->storage || self->storageOffset != src->storageOffset || self->nDimension != src->nDimension)
    return 0;
  for (int d = 0; d < self->nDimension; d++)
    if (self->size[d] != src->size[d] || self->stride[d] != src->stride[d]) return 0;
  return 1;
}

void THTensor_(retain)(THTensor *self) {
  if (self->flag & TH_TENSOR_REFCOUNTED) __atomic_add_fetch(&self->refcount, 1, __ATOMIC_RELAXED);
}

void THTensor_(free)(THTensor *self) {
  if (!self || !(self->flag & TH_TENSOR_REFCOUNTED)) return;
  if (__atomic_sub_fetch(&self->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
    THFree(self->size);
    THFree(self->stride);
    THStorage_(free)(self->storage);
    THFree(self);
  }
}

void THTensor_(freeCopyTo)(THTensor *self, THTensor *dst) {
  if (self != dst) THTensor_(copy)(dst, self);
  THTensor_(free)(self);
}

static scalar_t *THTensor_(elementAt)(const THTensor *self, int n, const int64_t *index) {
  if (self->nDimension != n) THError("a %d-dimensional index was used on a %d-dimensional tensor", n, self->nDimension);
  ptrdiff_t offset = self->storageOffset;
  for (int d = 0; d < n; d++) {
    if (index[d] < 0 || index[d] >= self->size[d])
      THIndexError("index %lld is out of range for dimension %d of size %lld", (long long)index[d], d,
                   (long long)self->size[d]);
    offset += index[d] * self->stride[d];
  }
  return self->storage->data + offset;
}

scalar_t THTensor_(get0d)(const THTensor *self) { return *THTensor_(elementAt)(self, 0, nullptr); }
scalar_t THTensor_(get1d)(const THTensor *self, int64_t x0) { return *THTensor_(elementAt)(self, 1, &x0); }
scalar_t THTensor_(get2d)(const THTensor *self, int64_t x0, int64_t x1) {
  int64_t i[2] = {x0, x1};
  return *THTensor_(elementAt)(self, 2, i);
}
scalar_t THTensor_(get3d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2) {
  int64_t i[3] = {x0, x1, x2};
  return *THTensor_(elementAt)(self, 3, i);
}
scalar_t THTensor_(get4d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3) {
  int64_t i[4] = {x0, x1, x2, x3};
  return *THTensor_(elementAt)(self, 4, i);
}
void THTensor_(set0d)(THTensor *self, scalar_t value) { *THTensor_(elementAt)(self, 0, nullptr) = value; }
void THTensor_(set1d)(THTensor *self, int64_t x0, scalar_t value) { *THTensor_(elementAt)(self, 1, &x0) = value; }
void THTensor_(set2d)(THTensor *self, int64_t x0, int64_t x1, scalar_t value) {
  int64_t i[2] = {x0, x1};
  *THTensor_(elementAt)(self, 2, i) = value;
}
void THTensor_(set3d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, scalar_t value) {
  int64_t i[3] = {x0, x1, x2};
  *THTensor_(elementAt)(self, 3, i) = value;
}
void THTensor_(set4d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3, scalar_t value) {
  int64_t i[4] = {x0, x1, x2, x3};
  *THTensor_(elementAt)(self, 4, i) = value;
}

const char *THTensor_(sizeDesc)(const THTensor *self) {
  static thread_local std::string desc;
  desc = "[";
  for (int d = 0; d < self->nDimension; d++) desc += (d ? ", " : "") + std::to_string(self->size[d]);
  desc += "]";
  return desc.c_str();
}
