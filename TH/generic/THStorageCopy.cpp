#ifndef TH_GENERIC_FILE
#error "compile TH/THStorage.cpp instead"
#endif

void THStorage_(rawCopy)(THStorage *self, const scalar_t *src) {
  if (self->size) memmove(self->data, src, self->size * sizeof(scalar_t));
}

void THStorage_(copy)(THStorage *self, THStorage *src) {
  THArgCheck(self->size == src->size, 2, "storage sizes differ: %td vs %td", self->size, src->size);
  THStorage_(rawCopy)(self, src->data);
}

#define TH_STORAGE_COPY_FROM(SrcReal, ...)                                                               \
  void THStorage_(TH_CONCAT_2(copy, SrcReal))(THStorage * self, TH##SrcReal##Storage * src) {            \
    THArgCheck(self->size == src->size, 2, "storage sizes differ: %td vs %td", self->size, src->size);   \
    using Src = std::remove_pointer_t<decltype(src->data)>;                                              \
    for (ptrdiff_t i = 0; i < self->size; i++) self->data[i] = th::convert<scalar_t, Src>(src->data[i]); \
  }
TH_FORALL_TYPES(TH_STORAGE_COPY_FROM)
#undef TH_STORAGE_COPY_FROM
