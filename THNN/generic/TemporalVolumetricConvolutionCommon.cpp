#ifndef TH_GENERIC_FILE
#error "compiled through THNN/TemporalVolumetricConvolution.cpp"
#endif

// Per-type helpers of the group, overloaded through THTensor.

// A view of t's storage starting `offset` elements past t's first element.
static th::Owned<THTensor> viewOf(THTensor *t, int64_t offset, std::vector<int64_t> size, std::vector<int64_t> stride) {
  return th::own(
      THTensor_(newWithStorage)(t->storage, t->storageOffset + offset, (int)size.size(), size.data(), stride.data()));
}

static th::Owned<THTensor> contiguousOf(THTensor *t) { return th::own(THTensor_(newContiguous)(t)); }

// t (any layout) as a contiguous rows x cols matrix.
static th::Owned<THTensor> matrixOf(THTensor *t, int64_t rows, int64_t cols) {
  auto c = contiguousOf(t);
  return viewOf(c.get(), 0, {rows, cols}, {cols, 1});
}

static void resizeTo(THTensor *t, const std::vector<int64_t> &size) {
  THTensor_(resizeNd)(t, (int)size.size(), size.data(), nullptr);
}

static scalar_t *dataOf(THTensor *t) { return th::ref(t).data; }
