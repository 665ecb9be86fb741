#ifndef TH_GENERIC_FILE
#error "compile TH/THStorage.cpp instead"
#endif

scalar_t *THStorage_(data)(const THStorage *self) { return self->data; }
ptrdiff_t THStorage_(size)(const THStorage *self) { return self->size; }
size_t THStorage_(elementSize)(void) { return sizeof(scalar_t); }

void THStorage_(set)(THStorage *self, ptrdiff_t index, scalar_t value) {
  if (index < 0 || index >= self->size)
    THIndexError("index %td is out of range for a storage of size %td", index, self->size);
  self->data[index] = value;
}

scalar_t THStorage_(get)(const THStorage *self, ptrdiff_t index) {
  if (index < 0 || index >= self->size)
    THIndexError("index %td is out of range for a storage of size %td", index, self->size);
  return self->data[index];
}

THStorage *THStorage_(newWithAllocator)(ptrdiff_t size, THAllocator *allocator, void *allocatorContext) {
  THArgCheck(size >= 0, 1, "a storage size must be >= 0, got %td", size);
  if (size > PTRDIFF_MAX / (ptrdiff_t)sizeof(scalar_t))
    THError("a storage of %td elements of %zu bytes overflows the address space", size, sizeof(scalar_t));
  scalar_t *data = static_cast<scalar_t *>(allocator->malloc(allocatorContext, size * sizeof(scalar_t)));
  THStorage *self = static_cast<THStorage *>(THAlloc(sizeof(THStorage)));
  self->data = data;
  self->size = size;
  self->refcount = 1;
  self->flag = TH_STORAGE_REFCOUNTED | TH_STORAGE_RESIZABLE | TH_STORAGE_FREEMEM;
  self->allocator = allocator;
  self->allocatorContext = allocatorContext;
  return self;
}

THStorage *THStorage_(new)(void) { return THStorage_(newWithSize)(0); }

THStorage *THStorage_(newWithSize)(ptrdiff_t size) {
  return THStorage_(newWithAllocator)(size, &THDefaultAllocator, nullptr);
}

THStorage *THStorage_(newWithSize1)(scalar_t v0) {
  THStorage *self = THStorage_(newWithSize)(1);
  self->data[0] = v0;
  return self;
}

THStorage *THStorage_(newWithSize2)(scalar_t v0, scalar_t v1) {
  THStorage *self = THStorage_(newWithSize)(2);
  self->data[0] = v0;
  self->data[1] = v1;
  return self;
}

THStorage *THStorage_(newWithSize3)(scalar_t v0, scalar_t v1, scalar_t v2) {
  THStorage *self = THStorage_(newWithSize)(3);
  self->data[0] = v0;
  self->data[1] = v1;
  self->data[2] = v2;
  return self;
}

THStorage *THStorage_(newWithSize4)(scalar_t v0, scalar_t v1, scalar_t v2, scalar_t v3) {
  THStorage *self = THStorage_(newWithSize)(4);
  self->data[0] = v0;
  self->data[1] = v1;
  self->data[2] = v2;
  self->data[3] = v3;
  return self;
}

THStorage *THStorage_(newWithMapping)(const char *filename, ptrdiff_t size, int flags) {
  THMapAllocatorContext *ctx = THMapAllocatorContext_new(filename, flags);
  THStorage *self;
  try {
    self = THStorage_(newWithAllocator)(size, &THMapAllocator, ctx);
  } catch (...) {
    THMapAllocatorContext_free(ctx);
    throw;
  }
  if (size == 0) self->size = THMapAllocatorContext_size(ctx) / (ptrdiff_t)sizeof(scalar_t);
  self->flag &= ~TH_STORAGE_RESIZABLE;
  return self;
}

THStorage *THStorage_(newWithData)(scalar_t *data, ptrdiff_t size) {
  return THStorage_(newWithDataAndAllocator)(data, size, &THDefaultAllocator, nullptr);
}

THStorage *THStorage_(newWithDataAndAllocator)(scalar_t *data, ptrdiff_t size, THAllocator *allocator,
                                               void *allocatorContext) {
  THArgCheck(size >= 0, 2, "a storage size must be >= 0, got %td", size);
  THStorage *self = static_cast<THStorage *>(THAlloc(sizeof(THStorage)));
  self->data = data;
  self->size = size;
  self->refcount = 1;
  self->flag = TH_STORAGE_REFCOUNTED | TH_STORAGE_FREEMEM | (allocator->realloc ? TH_STORAGE_RESIZABLE : 0);
  self->allocator = allocator;
  self->allocatorContext = allocatorContext;
  return self;
}

void THStorage_(setFlag)(THStorage *self, char flag) { self->flag |= flag; }
void THStorage_(clearFlag)(THStorage *self, char flag) { self->flag &= ~flag; }

void THStorage_(retain)(THStorage *self) {
  if (self && (self->flag & TH_STORAGE_REFCOUNTED)) __atomic_add_fetch(&self->refcount, 1, __ATOMIC_RELAXED);
}

void THStorage_(free)(THStorage *self) {
  if (!self || !(self->flag & TH_STORAGE_REFCOUNTED)) return;
  if (__atomic_sub_fetch(&self->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
    if (self->flag & TH_STORAGE_FREEMEM) self->allocator->free(self->allocatorContext, self->data);
    THFree(self);
  }
}

void THStorage_(swap)(THStorage *self, THStorage *src) {
  THStorage tmp = *self;
  *self = *src;
  *src = tmp;
  // reference counts belong to the objects, not to the memory
  int rc = self->refcount;
  self->refcount = src->refcount;
  src->refcount = rc;
}

void THStorage_(resize)(THStorage *self, ptrdiff_t size) {
  THArgCheck(size >= 0, 2, "a storage size must be >= 0, got %td", size);
  if (size == self->size) return;
  if (!(self->flag & TH_STORAGE_RESIZABLE) || !self->allocator->realloc)
    THError("this storage (size %td) cannot be resized to %td: it is not resizable (mapped or foreign memory)",
            self->size, size);
  if (size > PTRDIFF_MAX / (ptrdiff_t)sizeof(scalar_t))
    THError("a storage of %td elements overflows the address space", size);
  self->data = static_cast<scalar_t *>(
      self->allocator->realloc(self->allocatorContext, self->data, size * (ptrdiff_t)sizeof(scalar_t)));
  self->size = size;
}

void THStorage_(fill)(THStorage *self, scalar_t value) {
  for (ptrdiff_t i = 0; i < self->size; i++) self->data[i] = value;
}
