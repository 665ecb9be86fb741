#ifndef TH_GENERIC_FILE
#error "compile TH/indexed/THTensorSort.cpp instead"
#endif

/* Checks dim (argument dimArg) and returns the length of t's lines along it; a 0-dim
 * tensor has one line of one element, along dim 0. */
static int64_t THTensor_(lineSize)(const char *name, THTensor *t, int dim, int dimArg) {
  if (t->nDimension == 0) {
    if (dim != 0)
      THIndexError("%s: dimension %d (argument %d) out of range: a 0-dim tensor has only dimension 0", name, dim,
                   dimArg);
    return 1;
  }
  if (dim < 0 || dim >= t->nDimension)
    THIndexError("%s: dimension %d (argument %d) out of range: expected 0 to %d", name, dim, dimArg, t->nDimension - 1);
  return t->size[dim];
}

/* The tensor to read: t, or a copy of it when an output shares its storage (the output
 * would be resized or written while t is still read). Values and indices must not share
 * a storage (possible only for Long). */
static THTensor *THTensor_(newSource)(const char *name, THTensor *out, THLongTensor *indices, THTensor *t) {
  if ((void *)out->storage == (void *)indices->storage)
    THArgCheck(false, 2, "%s: the values and indices outputs must not share a storage", name);
  if ((void *)out->storage == (void *)t->storage || (void *)indices->storage == (void *)t->storage)
    return THTensor_(newClone)(t);
  THTensor_(retain)(t);
  return t;
}

/* The frame of max, min, kthvalue, median and mode: checks, output shapes, then
 * pick(line) -> Item (index from 0) on every line along dim. */
template <typename Pick>
static void THTensor_(reduceLines)(const char *name, THTensor *values, THLongTensor *indices, THTensor *t, int dim,
                                   int dimArg, int keepdim, Pick pick) {
  if (THTensor_(lineSize)(name, t, dim, dimArg) == 0)
    THValueError("%s: cannot reduce dimension %d of size 0 (tensor sizes %s)", name, dim, THTensor_(sizeDesc)(t));
  auto src = th::own(THTensor_(newSource)(name, values, indices, t));
  THTensor *s = src.get();
  std::vector<int64_t> size(s->size, s->size + s->nDimension);
  const bool dropped = !keepdim && s->nDimension > 0;
  if (dropped) {
    size.erase(size.begin() + dim);
  } else if (s->nDimension > 0) {
    size[dim] = 1;
  }
  THTensor_(resizeNd)(values, (int)size.size(), size.data(), nullptr);
  THLongTensor_resizeNd(indices, (int)size.size(), size.data(), nullptr);
  const WithDim<scalar_t> v(th::ref(values), dim, dropped);
  const WithDim<int64_t> i(th::ref(indices), dim, dropped);
  th::applyDim(
      [&](th::DimSlice<scalar_t> line, th::DimSlice<scalar_t> value, th::DimSlice<int64_t> index) {
        const Item<scalar_t> best = pick(line);
        value[0] = best.value;
        index[0] = best.index + TH_INDEX_BASE;
      },
      dim, th::ref(s), v.ref(), i.ref());
}

void THTensor_(max)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim) {
  THTensor_(reduceLines)("max", values, indices, t, dim, 4, keepdim,
                         [](const th::DimSlice<scalar_t> &line) { return extreme<true>(line); });
}

void THTensor_(min)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim) {
  THTensor_(reduceLines)("min", values, indices, t, dim, 4, keepdim,
                         [](const th::DimSlice<scalar_t> &line) { return extreme<false>(line); });
}

void THTensor_(kthvalue)(THTensor *values, THLongTensor *indices, THTensor *t, int64_t k, int dim, int keepdim) {
  const int64_t n = THTensor_(lineSize)("kthvalue", t, dim, 5);
  /* an empty dimension is reported by reduceLines */
  THArgCheck(n == 0 || (k >= 1 && k <= n), 4, "kthvalue: k = %lld is out of range 1 to %lld (dimension %d)",
             (long long)k, (long long)n, dim);
  PerThread<Item<scalar_t>> buffers;
  THTensor_(reduceLines)("kthvalue", values, indices, t, dim, 5, keepdim,
                         [&](const th::DimSlice<scalar_t> &line) { return kth(buffers.get(), line, k - 1); });
}

void THTensor_(median)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim) {
  PerThread<Item<scalar_t>> buffers;
  THTensor_(reduceLines)("median", values, indices, t, dim, 4, keepdim, [&](const th::DimSlice<scalar_t> &line) {
    for (int64_t i = 0; i < line.size; i++)
      if (isNan(line[i])) return Item<scalar_t>{line[i], i};
    return kth(buffers.get(), line, (line.size - 1) / 2);
  });
}

void THTensor_(mode)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim) {
  PerThread<Item<scalar_t>> buffers;
  THTensor_(reduceLines)("mode", values, indices, t, dim, 4, keepdim, [&](const th::DimSlice<scalar_t> &line) {
    std::vector<Item<scalar_t>> &buf = buffers.get();
    std::sort(buf.begin(), buf.begin() + load<false>(buf, line).second, Before<scalar_t, false>());
    /* Runs of equal values, ascending, each in index order: the first longest run is the
     * smallest mode and its last item the last occurrence. */
    Item<scalar_t> best = buf[0];
    int64_t bestCount = 0;
    for (int64_t start = 0, end; start < line.size; start = end) {
      for (end = start + 1; end < line.size && sameValue(buf[end].value, buf[start].value); end++) {
      }
      if (end - start > bestCount) {
        bestCount = end - start;
        best = buf[end - 1];
      }
    }
    return best;
  });
}

scalar_t THTensor_(medianall)(THTensor *t) {
  const ptrdiff_t n = THTensor_(nElement)(t);
  if (n == 0) THValueError("medianall: the tensor is empty (sizes %s)", THTensor_(sizeDesc)(t));
  auto contiguous = th::own(THTensor_(newContiguous)(t));
  const scalar_t *data = THTensor_(data)(contiguous.get());
  for (ptrdiff_t i = 0; i < n; i++)
    if (isNan(data[i])) return data[i];
  std::vector<scalar_t> buf(data, data + n);
  std::nth_element(buf.begin(), buf.begin() + (n - 1) / 2, buf.end());
  return buf[(n - 1) / 2];
}

/* rt and ri take t's shape with size k along dim, then lines(line, values, indices) runs
 * on every line. */
template <typename Lines>
static void THTensor_(lineOutputs)(const char *name, THTensor *rt, THLongTensor *ri, THTensor *t, int dim, int64_t k,
                                   Lines lines) {
  auto src = th::own(THTensor_(newSource)(name, rt, ri, t));
  THTensor *s = src.get();
  std::vector<int64_t> size(s->size, s->size + s->nDimension);
  if (s->nDimension > 0) size[dim] = k;
  THTensor_(resizeNd)(rt, (int)size.size(), size.data(), nullptr);
  THLongTensor_resizeNd(ri, (int)size.size(), size.data(), nullptr);
  th::applyDim(lines, dim, th::ref(s), th::ref(rt), th::ref(ri));
}

/* The first k items of buf into a line of the outputs. */
static void THTensor_(writeFirst)(std::vector<Item<scalar_t>> &buf, int64_t k, th::DimSlice<scalar_t> values,
                                  th::DimSlice<int64_t> indices) {
  for (int64_t i = 0; i < k; i++) {
    values[i] = buf[i].value;
    indices[i] = buf[i].index + TH_INDEX_BASE;
  }
}

template <bool Descending>
static void THTensor_(sortLines)(THTensor *rt, THLongTensor *ri, THTensor *t, int dim) {
  PerThread<Item<scalar_t>> buffers;
  THTensor_(lineOutputs)(
      "sort", rt, ri, t, dim, t->nDimension > 0 ? t->size[dim] : 1,
      [&](th::DimSlice<scalar_t> line, th::DimSlice<scalar_t> values, th::DimSlice<int64_t> indices) {
        std::vector<Item<scalar_t>> &buf = buffers.get();
        const auto [first, last] = load<Descending>(buf, line);
        std::sort(buf.begin() + first, buf.begin() + last, Before<scalar_t, Descending>());
        THTensor_(writeFirst)(buf, line.size, values, indices);
      });
}

void THTensor_(sort)(THTensor *rt, THLongTensor *ri, THTensor *t, int dim, int descending) {
  THTensor_(lineSize)("sort", t, dim, 4);
  if (descending) {
    THTensor_(sortLines)<true>(rt, ri, t, dim);
  } else {
    THTensor_(sortLines)<false>(rt, ri, t, dim);
  }
}

template <bool Largest>
static void THTensor_(topkLines)(THTensor *rt, THLongTensor *ri, THTensor *t, int64_t k, int dim, bool sorted) {
  PerThread<Item<scalar_t>> buffers;
  THTensor_(lineOutputs)(
      "topk", rt, ri, t, dim, k,
      [&](th::DimSlice<scalar_t> line, th::DimSlice<scalar_t> values, th::DimSlice<int64_t> indices) {
        if (k == 0) return;
        std::vector<Item<scalar_t>> &buf = buffers.get();
        selectFirst<Largest>(buf, line, k, sorted);
        THTensor_(writeFirst)(buf, k, values, indices);
      });
}

void THTensor_(topk)(THTensor *rt, THLongTensor *ri, THTensor *t, int64_t k, int dim, int dir, int sorted) {
  const int64_t n = THTensor_(lineSize)("topk", t, dim, 5);
  if (t->nDimension == 0) THArgCheck(k == 1, 4, "topk: k = %lld for a 0-dim tensor: expected 1", (long long)k);
  THArgCheck(k >= 0 && k <= n, 4, "topk: k = %lld is out of range 0 to %lld (dimension %d)", (long long)k, (long long)n,
             dim);
  if (dir) {
    THTensor_(topkLines)<true>(rt, ri, t, k, dim, sorted != 0);
  } else {
    THTensor_(topkLines)<false>(rt, ri, t, k, dim, sorted != 0);
  }
}
