#ifndef TH_GENERIC_FILE
#error "include TH/THStorage.h instead"
#endif

/* One layout for every build of the library and every binding: plain data, a size in
 * elements, an atomic reference count and the allocator that owns the memory. */
typedef struct THStorage {
  scalar_t *data;
  ptrdiff_t size;
  int refcount; /* changed only with atomic operations */
  char flag;
  THAllocator *allocator;
  void *allocatorContext;
} THStorage;

TH_API scalar_t *THStorage_(data)(const THStorage *self);
TH_API ptrdiff_t THStorage_(size)(const THStorage *self);
TH_API size_t THStorage_(elementSize)(void);

TH_API void THStorage_(set)(THStorage *self, ptrdiff_t index, scalar_t value);
TH_API scalar_t THStorage_(get)(const THStorage *self, ptrdiff_t index);

TH_API THStorage *THStorage_(new)(void);
TH_API THStorage *THStorage_(newWithSize)(ptrdiff_t size);
TH_API THStorage *THStorage_(newWithSize1)(scalar_t v0);
TH_API THStorage *THStorage_(newWithSize2)(scalar_t v0, scalar_t v1);
TH_API THStorage *THStorage_(newWithSize3)(scalar_t v0, scalar_t v1, scalar_t v2);
TH_API THStorage *THStorage_(newWithSize4)(scalar_t v0, scalar_t v1, scalar_t v2, scalar_t v3);
TH_API THStorage *THStorage_(newWithAllocator)(ptrdiff_t size, THAllocator *allocator, void *allocatorContext);
/* Maps a file (flags: TH_ALLOCATOR_MAPPED_*). size 0 maps the whole existing file. */
TH_API THStorage *THStorage_(newWithMapping)(const char *filename, ptrdiff_t size, int flags);
/* Takes ownership of `data`, which must come from THAlloc. */
TH_API THStorage *THStorage_(newWithData)(scalar_t *data, ptrdiff_t size);
TH_API THStorage *THStorage_(newWithDataAndAllocator)(scalar_t *data, ptrdiff_t size, THAllocator *allocator,
                                                      void *allocatorContext);

TH_API void THStorage_(setFlag)(THStorage *self, char flag);
TH_API void THStorage_(clearFlag)(THStorage *self, char flag);
TH_API void THStorage_(retain)(THStorage *self);
TH_API void THStorage_(free)(THStorage *self);
/* Moves the content of src into self (keeping both objects alive). */
TH_API void THStorage_(swap)(THStorage *self, THStorage *src);

TH_API void THStorage_(resize)(THStorage *self, ptrdiff_t size);
TH_API void THStorage_(fill)(THStorage *self, scalar_t value);
