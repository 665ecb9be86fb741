#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorCopy.cpp instead"
#endif

/* Converting copy from a tensor of any type; called through the copy<Type> entry points. */
template <typename Src>
static void THTensor_(copyFrom)(THTensor *self, Src *src) {
  const ptrdiff_t n = THTensor_(nElement)(self);
  using SrcT = std::remove_pointer_t<decltype(src->storage->data)>;
  const ptrdiff_t srcN = th::numel(th::ref(src));
  if (n != srcN)
    THError("copy: the destination has %td elements and the source %td (sizes %s)", n, srcN, THTensor_(sizeDesc)(self));
  if (n == 0) return;  // an empty tensor may have no memory: memmove must not see its null pointer
  if constexpr (std::is_same_v<SrcT, scalar_t>) {
    if ((void *)self == (void *)src) return;
    if (THTensor_(isContiguous)(self) && th::isContiguous(th::ref(src))) {
      scalar_t *dst = THTensor_(data)(self);
      const scalar_t *from = src->storage->data + src->storageOffset;
      th::detail::parallelFor(n, 1 << 20, [&](int64_t begin, int64_t end) {
        memmove(dst + begin, from + begin, (end - begin) * sizeof(scalar_t));
      });
      return;
    }
  }
  th::apply([](scalar_t &d, SrcT &s) { d = th::convert<scalar_t, SrcT>(s); }, th::ref(self), th::ref(src));
}

void THTensor_(copy)(THTensor *self, THTensor *src) { THTensor_(copyFrom)(self, src); }

#define TH_TENSOR_COPY_FROM(SrcReal, ...)                                                  \
  void THTensor_(TH_CONCAT_2(copy, SrcReal))(THTensor * self, TH##SrcReal##Tensor * src) { \
    THTensor_(copyFrom)(self, src);                                                        \
  }
TH_FORALL_TYPES(TH_TENSOR_COPY_FROM)
#undef TH_TENSOR_COPY_FROM
