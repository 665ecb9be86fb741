#ifndef TH_GENERIC_FILE
#error "compile TH/indexed/THTensorIndex.cpp instead"
#endif

/* ---- indexSelect, indexCopy, indexAdd, indexFill ---- */

void THTensor_(indexSelect)(THTensor *r, THTensor *src, int dim, THLongTensor *index) {
  checkDim(src, dim, 3);
  checkVector(index, 4);
  const std::vector<int64_t> idx = readIndices(index, src->size[dim], dim);
  auto srcCopy = copyIfOverlapping(src, r);
  if (srcCopy) src = srcCopy.get();
  std::vector<int64_t> size(src->size, src->size + src->nDimension);
  size[dim] = (int64_t)idx.size();
  THTensor_(resizeNd)(r, src->nDimension, size.data(), nullptr);
  if (THTensor_(nElement)(r) == 0) return; /* and r's data may be null: nothing to copy */
  if (THTensor_(isContiguous)(r) && THTensor_(isContiguous)(src)) {
    /* r is outer x n blocks of `inner` consecutive elements; block (o, i) is src's block
     * (o, idx[i]): rows of a matrix when dim is 0. */
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < dim; d++) outer *= size[d];
    for (int d = dim + 1; d < src->nDimension; d++) inner *= size[d];
    const int64_t n = (int64_t)idx.size(), srcDimSize = src->size[dim];
    scalar_t *rp = THTensor_(data)(r);
    const scalar_t *sp = THTensor_(data)(src);
    th::detail::parallelFor(outer * n, TH_OMP_THRESHOLD / (inner > 0 ? inner : 1), [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; k++)
        memcpy(rp + k * inner, sp + ((k / n) * srcDimSize + idx[k % n]) * inner, inner * sizeof(scalar_t));
    });
    return;
  }
  forIndexedSlices([](scalar_t &d, scalar_t &s) { d = s; }, dim, idx, false, th::ref(r), th::ref(src));
}

/* src must have t's sizes except in dim, where it has one entry per index. */
static void THTensor_(checkIndexSource)(THTensor *t, int dim, THLongTensor *index, THTensor *src) {
  bool ok = src->nDimension == t->nDimension && src->size[dim] == THLongTensor_nElement(index);
  for (int d = 0; ok && d < t->nDimension; d++) ok = d == dim || src->size[d] == t->size[d];
  THArgCheck(ok, 4,
             "source sizes %s do not match the destination sizes %s with %lld (the number of indices) in dimension %d",
             sizesOf(src).c_str(), sizesOf(t).c_str(), (long long)THLongTensor_nElement(index), dim);
}

void THTensor_(indexCopy)(THTensor *t, int dim, THLongTensor *index, THTensor *src) {
  checkDim(t, dim, 2);
  checkVector(index, 3);
  THTensor_(checkIndexSource)(t, dim, index, src);
  const std::vector<int64_t> idx = readIndices(index, t->size[dim], dim);
  auto srcCopy = copyIfOverlapping(src, t);
  if (srcCopy) src = srcCopy.get();
  forIndexedSlices([](scalar_t &d, scalar_t &s) { d = s; }, dim, idx, true, th::ref(t), th::ref(src));
}

void THTensor_(indexAdd)(THTensor *t, int dim, THLongTensor *index, THTensor *src) {
  checkDim(t, dim, 2);
  checkVector(index, 3);
  THTensor_(checkIndexSource)(t, dim, index, src);
  const std::vector<int64_t> idx = readIndices(index, t->size[dim], dim);
  auto srcCopy = copyIfOverlapping(src, t);
  if (srcCopy) src = srcCopy.get();
  forIndexedSlices([](scalar_t &d, scalar_t &s) { d += s; }, dim, idx, true, th::ref(t), th::ref(src));
}

void THTensor_(indexFill)(THTensor *t, int dim, THLongTensor *index, scalar_t value) {
  checkDim(t, dim, 2);
  checkVector(index, 3);
  const std::vector<int64_t> idx = readIndices(index, t->size[dim], dim);
  forIndexedSlices([value](scalar_t &d) { d = value; }, dim, idx, true, th::ref(t));
}

/* ---- gather, scatter, scatterAdd, scatterFill ---- */

void THTensor_(gather)(THTensor *r, THTensor *src, int dim, THLongTensor *index) {
  checkDim(src, dim, 3);
  bool ok = index->nDimension == src->nDimension;
  for (int d = 0; ok && d < src->nDimension; d++) ok = d == dim || index->size[d] <= src->size[d];
  THArgCheck(ok, 4,
             "index sizes %s must have as many dimensions as the source sizes %s and be no larger outside dimension %d",
             sizesOf(index).c_str(), sizesOf(src).c_str(), dim);
  checkIndices(index, src->size[dim], dim);
  auto srcCopy = copyIfOverlapping(src, r);
  if (srcCopy) src = srcCopy.get();
  auto indexCopy = copyIfOverlapping(index, r);
  if (indexCopy) index = indexCopy.get();
  THTensor_(resizeNd)(r, index->nDimension, index->size, nullptr);
  std::vector<int64_t> srcSize(index->size, index->size + index->nDimension);
  srcSize[dim] = src->size[dim];
  th::applyDim(
      [](th::DimSlice<scalar_t> r, th::DimSlice<scalar_t> s, th::DimSlice<int64_t> i) {
        for (int64_t k = 0; k < i.size; k++) r[k] = s[i[k] - TH_INDEX_BASE];
      },
      dim, th::ref(r), withSizes(th::ref(src), srcSize), th::ref(index));
}

/* The scatter family: for every position p of index, op(t[p with p[dim] = index[p]], v)
 * with v = src[p], or value when src is null. */
template <typename Op>
static void THTensor_(scatterWith)(THTensor *t, int dim, THLongTensor *index, THTensor *src, scalar_t value, Op op) {
  checkDim(t, dim, 2);
  bool ok = index->nDimension == t->nDimension;
  for (int d = 0; ok && d < t->nDimension; d++) ok = d == dim || index->size[d] <= t->size[d];
  THArgCheck(
      ok, 3,
      "index sizes %s must have as many dimensions as the destination sizes %s and be no larger outside dimension %d",
      sizesOf(index).c_str(), sizesOf(t).c_str(), dim);
  if (src) {
    ok = src->nDimension == index->nDimension;
    for (int d = 0; ok && d < src->nDimension; d++) ok = index->size[d] <= src->size[d];
    THArgCheck(ok, 4, "source sizes %s must have as many dimensions as the index sizes %s and be no smaller",
               sizesOf(src).c_str(), sizesOf(index).c_str());
  }
  checkIndices(index, t->size[dim], dim);
  auto indexCopy = copyIfOverlapping(index, t);
  if (indexCopy) index = indexCopy.get();
  const std::vector<int64_t> indexSize(index->size, index->size + index->nDimension);
  std::vector<int64_t> lines = indexSize;
  lines[dim] = t->size[dim];
  auto dst = withSizes(th::ref(t), lines);
  if (src) {
    auto srcCopy = copyIfOverlapping(src, t);
    if (srcCopy) src = srcCopy.get();
    th::applyDim(
        [op](th::DimSlice<scalar_t> t, th::DimSlice<int64_t> i, th::DimSlice<scalar_t> s) {
          for (int64_t k = 0; k < i.size; k++) op(t[i[k] - TH_INDEX_BASE], s[k]);
        },
        dim, dst, th::ref(index), withSizes(th::ref(src), indexSize));
  } else {
    th::applyDim(
        [op, value](th::DimSlice<scalar_t> t, th::DimSlice<int64_t> i) {
          for (int64_t k = 0; k < i.size; k++) op(t[i[k] - TH_INDEX_BASE], value);
        },
        dim, dst, th::ref(index));
  }
}

void THTensor_(scatter)(THTensor *t, int dim, THLongTensor *index, THTensor *src) {
  THTensor_(scatterWith)(t, dim, index, src, 0, [](scalar_t &d, scalar_t v) { d = v; });
}

void THTensor_(scatterAdd)(THTensor *t, int dim, THLongTensor *index, THTensor *src) {
  THTensor_(scatterWith)(t, dim, index, src, 0, [](scalar_t &d, scalar_t v) { d += v; });
}

void THTensor_(scatterFill)(THTensor *t, int dim, THLongTensor *index, scalar_t value) {
  THTensor_(scatterWith)(t, dim, index, nullptr, value, [](scalar_t &d, scalar_t v) { d = v; });
}

/* ---- maskedFill, maskedCopy, maskedSelect, nonzero ---- */

static void THTensor_(checkMask)(THTensor *t, THByteTensor *mask, int maskArg) {
  THArgCheck(THByteTensor_nElement(mask) == THTensor_(nElement)(t), maskArg,
             "mask sizes %s have %td elements but the tensor sizes %s have %td", sizesOf(mask).c_str(),
             THByteTensor_nElement(mask), sizesOf(t).c_str(), THTensor_(nElement)(t));
}

void THTensor_(maskedFill)(THTensor *t, THByteTensor *mask, scalar_t value) {
  THTensor_(checkMask)(t, mask, 2);
  countMask(mask);
  auto maskCopy = copyIfOverlapping(mask, t);
  if (maskCopy) mask = maskCopy.get();
  th::apply(
      [value](scalar_t &x, uint8_t &m) {
        if (m) x = value;
      },
      th::ref(t), th::ref(mask));
}

void THTensor_(maskedCopy)(THTensor *t, THByteTensor *mask, THTensor *src) {
  THTensor_(checkMask)(t, mask, 2);
  const int64_t ones = countMask(mask);
  THArgCheck(THTensor_(nElement)(src) >= ones, 3, "source has %td elements but the mask selects %lld",
             THTensor_(nElement)(src), (long long)ones);
  auto maskCopy = copyIfOverlapping(mask, t);
  if (maskCopy) mask = maskCopy.get();
  auto srcCopy = copyIfOverlapping(src, t);
  if (srcCopy) src = srcCopy.get();
  th::detail::Cursor<scalar_t> next(th::ref(src));
  serialApply(
      [&](scalar_t &x, uint8_t &m) {
        if (!m) return;
        x = next.get();
        next.next();
      },
      th::ref(t), th::ref(mask));
}

void THTensor_(maskedSelect)(THTensor *r, THTensor *src, THByteTensor *mask) {
  THTensor_(checkMask)(src, mask, 3);
  const int64_t ones = countMask(mask);
  auto srcCopy = copyIfOverlapping(src, r);
  if (srcCopy) src = srcCopy.get();
  auto maskCopy = copyIfOverlapping(mask, r);
  if (maskCopy) mask = maskCopy.get();
  THTensor_(resize1d)(r, ones);
  scalar_t *out = THTensor_(data)(r);
  const int64_t stride = r->stride[0];
  serialApply(
      [&](scalar_t &x, uint8_t &m) {
        if (!m) return;
        *out = x;
        out += stride;
      },
      th::ref(src), th::ref(mask));
}

void THTensor_(nonzero)(THLongTensor *r, THTensor *t) {
  const int64_t count = th::reduceAll(
      th::ref(t), int64_t(0), [](int64_t acc, scalar_t x) { return acc + (x != 0); },
      [](int64_t a, int64_t b) { return a + b; });
  auto tCopy = copyIfOverlapping(t, r);
  if (tCopy) t = tCopy.get();
  const int nd = t->nDimension;
  THLongTensor_resize2d(r, count, nd);
  int64_t *row = THLongTensor_data(r);
  const int64_t rowStride = r->stride[0], colStride = r->stride[1];
  th::detail::Cursor<scalar_t> c(th::ref(t));
  for (ptrdiff_t n = THTensor_(nElement)(t); n > 0; n--, c.next()) {
    if (c.get() == 0) continue;
    for (int d = 0; d < nd; d++) row[d * colStride] = c.index[d] + TH_INDEX_BASE;
    row += rowStride;
  }
}

/* ---- take, put ---- */

void THTensor_(take)(THTensor *r, THTensor *src, THLongTensor *index) {
  const int64_t n = THTensor_(nElement)(src);
  checkFlatIndices(index, n);
  auto srcCopy = copyIfOverlapping(src, r);
  if (srcCopy) src = srcCopy.get();
  auto indexCopy = copyIfOverlapping(index, r);
  if (indexCopy) index = indexCopy.get();
  THTensor_(resizeNd)(r, index->nDimension, index->size, nullptr);
  const auto s = th::ref(src);
  const bool contiguous = th::isContiguous(s);
  th::apply([&](scalar_t &x, int64_t &i) { x = flatElement(s, contiguous, flatIndex(i, n)); }, th::ref(r),
            th::ref(index));
}

void THTensor_(put)(THTensor *t, THLongTensor *index, THTensor *src, int accumulate) {
  THArgCheck(THLongTensor_nElement(index) == THTensor_(nElement)(src), 3,
             "source sizes %s have %td elements but the index sizes %s have %td", sizesOf(src).c_str(),
             THTensor_(nElement)(src), sizesOf(index).c_str(), THLongTensor_nElement(index));
  const int64_t n = THTensor_(nElement)(t);
  checkFlatIndices(index, n);
  auto indexCopy = copyIfOverlapping(index, t);
  if (indexCopy) index = indexCopy.get();
  auto srcCopy = copyIfOverlapping(src, t);
  if (srcCopy) src = srcCopy.get();
  const auto dst = th::ref(t);
  const bool contiguous = th::isContiguous(dst);
  /* one thread, in index order: repeated indices accumulate, or the last one wins */
  serialApply(
      [&](int64_t &i, scalar_t &v) {
        scalar_t &x = flatElement(dst, contiguous, flatIndex(i, n));
        if (accumulate)
          x += v;
        else
          x = v;
      },
      th::ref(index), th::ref(src));
}
