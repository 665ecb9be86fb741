#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorBlas.cpp instead"
#endif

namespace {
template <>
struct BlasOps<scalar_t> {
  static constexpr auto gemm = &THBlas_(gemm);
  static constexpr auto gemv = &THBlas_(gemv);
  static constexpr auto ger = &THBlas_(ger);
};
}  // namespace

/* Makes r the result: compute(out) writes it into out, a tensor of the given sizes that
 * holds t's values when beta != 0 (t == NULL stands for beta == 0). r may be t. When r
 * shares memory with another operand, out is a temporary copied into r at the end, so no
 * operand is overwritten before it is read. */
template <typename Compute>
static void THTensor_(intoResult)(THTensor *r, THTensor *t, scalar_t beta, std::initializer_list<int64_t> sizes,
                                  std::initializer_list<THTensor *> operands, Compute &&compute) {
  const int nd = (int)sizes.size();
  const int64_t *size = sizes.begin();
  bool shared = t && t != r && t->storage == r->storage;
  for (THTensor *x : operands) shared = shared || x->storage == r->storage;
  const bool useT = t && beta != 0;
  if (!shared) {
    THTensor_(resizeNd)(r, nd, size, nullptr);
    if (useT && t != r) THTensor_(copy)(r, t);
    compute(r);
    return;
  }
  auto out = th::own(THTensor_(newWithSize)(nd, size, nullptr));
  if (useT) THTensor_(copy)(out.get(), t);
  compute(out.get());
  THTensor_(resizeNd)(r, nd, size, nullptr);
  THTensor_(copy)(r, out.get());
}

accreal THTensor_(dot)(THTensor *t, THTensor *src) {
  const ptrdiff_t n = THTensor_(nElement)(t);
  THArgCheck(n == THTensor_(nElement)(src), 2, "dot: t has %td elements and src %td (sizes %s and %s)", n,
             THTensor_(nElement)(src), shape(t).c_str(), shape(src).c_str());
  // A strided vector goes to BLAS as it is; other layouts are made contiguous first.
  auto line = [n](THTensor *x, OwnedTensor<scalar_t> &holder) {
    if (x->nDimension == 1 && vecOf(x).blasReadable()) return vecOf(x);
    holder = th::own(THTensor_(newContiguous)(x));
    return Vec<scalar_t>{THTensor_(data)(holder.get()), n, 1};
  };
  OwnedTensor<scalar_t> holdT, holdSrc;
  Vec<scalar_t> a = line(t, holdT), b = line(src, holdSrc);
  return THBlas_(dot)(n, a.data, a.inc(), b.data, b.inc());
}

static void THTensor_(checkMv)(const char *fn, THTensor *mat, int matArg, THTensor *vec, int vecArg) {
  checkMatrix(fn, "mat", mat, matArg);
  checkVector(fn, "vec", vec, vecArg);
  THArgCheck(mat->size[1] == vec->size[0], vecArg, "%s: size mismatch, mat %s cannot multiply vec %s", fn,
             shape(mat).c_str(), shape(vec).c_str());
}

void THTensor_(addmv)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *mat, THTensor *vec) {
  THTensor_(checkMv)("addmv", mat, 5, vec, 6);
  checkAddend("addmv", t, 3, {mat->size[0]});
  THTensor_(intoResult)(r, t, beta, {mat->size[0]}, {mat, vec},
                        [&](THTensor *out) { gemvMat(vecOf(out), beta, alpha, matOf(mat), vecOf(vec)); });
}

void THTensor_(mv)(THTensor *r, THTensor *mat, THTensor *vec) {
  THTensor_(checkMv)("mv", mat, 2, vec, 3);
  THTensor_(intoResult)(r, nullptr, 0, {mat->size[0]}, {mat, vec},
                        [&](THTensor *out) { gemvMat<scalar_t>(vecOf(out), 0, 1, matOf(mat), vecOf(vec)); });
}

void THTensor_(addr)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *vec1, THTensor *vec2) {
  checkVector("addr", "vec1", vec1, 5);
  checkVector("addr", "vec2", vec2, 6);
  checkAddend("addr", t, 3, {vec1->size[0], vec2->size[0]});
  THTensor_(intoResult)(r, t, beta, {vec1->size[0], vec2->size[0]}, {vec1, vec2}, [&](THTensor *out) {
    scaleRef(th::ref(out), beta);
    gerMat(matOf(out), alpha, vecOf(vec1), vecOf(vec2));
  });
}

static void THTensor_(checkMm)(const char *fn, THTensor *m1, int m1Arg, THTensor *m2, int m2Arg) {
  checkMatrix(fn, "m1", m1, m1Arg);
  checkMatrix(fn, "m2", m2, m2Arg);
  THArgCheck(m1->size[1] == m2->size[0], m2Arg, "%s: size mismatch, m1 %s cannot multiply m2 %s", fn, shape(m1).c_str(),
             shape(m2).c_str());
}

void THTensor_(addmm)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *m1, THTensor *m2) {
  THTensor_(checkMm)("addmm", m1, 5, m2, 6);
  checkAddend("addmm", t, 3, {m1->size[0], m2->size[1]});
  THTensor_(intoResult)(r, t, beta, {m1->size[0], m2->size[1]}, {m1, m2},
                        [&](THTensor *out) { gemmMat(matOf(out), beta, alpha, matOf(m1), matOf(m2)); });
}

void THTensor_(mm)(THTensor *r, THTensor *a, THTensor *b) {
  THTensor_(checkMm)("mm", a, 2, b, 3);
  THTensor_(intoResult)(r, nullptr, 0, {a->size[0], b->size[1]}, {a, b},
                        [&](THTensor *out) { gemmMat<scalar_t>(matOf(out), 0, 1, matOf(a), matOf(b)); });
}

static void THTensor_(checkBmm)(const char *fn, THTensor *b1, int b1Arg, THTensor *b2, int b2Arg) {
  checkBatch(fn, "batch1", b1, b1Arg);
  checkBatch(fn, "batch2", b2, b2Arg);
  THArgCheck(b1->size[0] == b2->size[0] && b1->size[2] == b2->size[1], b2Arg,
             "%s: size mismatch, batch1 %s cannot multiply batch2 %s", fn, shape(b1).c_str(), shape(b2).c_str());
}

void THTensor_(addbmm)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *batch1, THTensor *batch2) {
  THTensor_(checkBmm)("addbmm", batch1, 5, batch2, 6);
  checkAddend("addbmm", t, 3, {batch1->size[1], batch2->size[2]});
  THTensor_(intoResult)(r, t, beta, {batch1->size[1], batch2->size[2]}, {batch1, batch2}, [&](THTensor *out) {
    const int64_t count = batch1->size[0];
    if (count == 0) scaleRef(th::ref(out), beta);
    for (int64_t i = 0; i < count; i++)
      gemmMat(matOf(out), i == 0 ? beta : scalar_t(1), alpha, batchMatOf(batch1, i), batchMatOf(batch2, i));
  });
}

static void THTensor_(bmmInto)(THTensor *out, scalar_t beta, scalar_t alpha, THTensor *batch1, THTensor *batch2) {
  for (int64_t i = 0; i < batch1->size[0]; i++)
    gemmMat(batchMatOf(out, i), beta, alpha, batchMatOf(batch1, i), batchMatOf(batch2, i));
}

void THTensor_(baddbmm)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *batch1, THTensor *batch2) {
  THTensor_(checkBmm)("baddbmm", batch1, 5, batch2, 6);
  checkAddend("baddbmm", t, 3, {batch1->size[0], batch1->size[1], batch2->size[2]});
  THTensor_(intoResult)(r, t, beta, {batch1->size[0], batch1->size[1], batch2->size[2]}, {batch1, batch2},
                        [&](THTensor *out) { THTensor_(bmmInto)(out, beta, alpha, batch1, batch2); });
}

void THTensor_(bmm)(THTensor *r, THTensor *a, THTensor *b) {
  THTensor_(checkBmm)("bmm", a, 2, b, 3);
  THTensor_(intoResult)(r, nullptr, 0, {a->size[0], a->size[1], b->size[2]}, {a, b},
                        [&](THTensor *out) { THTensor_(bmmInto)(out, 0, 1, a, b); });
}
