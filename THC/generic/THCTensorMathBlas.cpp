#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorMathBlas.cpp instead"
#endif

#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE) || defined(TH_REAL_IS_HALF)

namespace {
template <>
struct BlasOps<scalar_t> {
#if defined(TH_REAL_IS_FLOAT)
  static constexpr auto gemm = &THCudaBlas_Sgemm;
  static constexpr auto gemmBatched = &THCudaBlas_SgemmStridedBatched;
  static constexpr auto gemv = &THCudaBlas_Sgemv;
  static constexpr auto dot = &THCudaBlas_Sdot;
#elif defined(TH_REAL_IS_DOUBLE)
  static constexpr auto gemm = &THCudaBlas_Dgemm;
  static constexpr auto gemmBatched = &THCudaBlas_DgemmStridedBatched;
  static constexpr auto gemv = &THCudaBlas_Dgemv;
  static constexpr auto dot = &THCudaBlas_Ddot;
#else
  static constexpr auto gemm = &THCudaBlas_Hgemm;
  static constexpr auto gemmBatched = &THCudaBlas_HgemmStridedBatched;
  static constexpr auto dot = &THCudaBlas_Hdot;
#endif
  static constexpr auto newWithStorage = &THCTensor_(newWithStorage);
};
}  // namespace

accreal THCTensor_(dot)(THCState *state, THCTensor *t, THCTensor *src) {
  return static_cast<accreal>(dotOf<scalar_t>(state, t, src));
}

void THCTensor_(addmv)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha, THCTensor *mat,
                       THCTensor *vec) {
  checkMv("addmv", mat, 5, vec, 6);
  checkAddend("addmv", t, 3, {mat->size[0]});
  thc::DeviceGuard guard(thc::commonDevice("addmv", r, t, mat, vec));
  intoResult<scalar_t>(state, r, t, beta, {mat->size[0]}, {mat, vec},
                       [&](THCTensor *out) { gemv<scalar_t>(state, out, beta, alpha, mat, vec); });
}

void THCTensor_(mv)(THCState *state, THCTensor *r, THCTensor *mat, THCTensor *vec) {
  checkMv("mv", mat, 2, vec, 3);
  thc::DeviceGuard guard(thc::commonDevice("mv", r, mat, vec));
  const scalar_t zero = constant<scalar_t>(0), one = constant<scalar_t>(1);
  intoResult<scalar_t>(state, r, nullptr, zero, {mat->size[0]}, {mat, vec},
                       [&](THCTensor *out) { gemv<scalar_t>(state, out, zero, one, mat, vec); });
}

/* The outer product is a gemm with an inner size of 1, which takes beta in the same call. */
void THCTensor_(addr)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha, THCTensor *vec1,
                      THCTensor *vec2) {
  checkVector("addr", "vec1", vec1, 5);
  checkVector("addr", "vec2", vec2, 6);
  checkAddend("addr", t, 3, {vec1->size[0], vec2->size[0]});
  thc::DeviceGuard guard(thc::commonDevice("addr", r, t, vec1, vec2));
  intoResult<scalar_t>(state, r, t, beta, {vec1->size[0], vec2->size[0]}, {vec1, vec2}, [&](THCTensor *out) {
    Owned<scalar_t> column(state, newMatrixView<scalar_t>(state, vec1, true));
    Owned<scalar_t> row(state, newMatrixView<scalar_t>(state, vec2, false));
    gemm<scalar_t>(state, out, beta, alpha, column.get(), row.get());
  });
}

void THCTensor_(addmm)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha, THCTensor *m1,
                       THCTensor *m2) {
  checkMm("addmm", m1, 5, m2, 6);
  checkAddend("addmm", t, 3, {m1->size[0], m2->size[1]});
  thc::DeviceGuard guard(thc::commonDevice("addmm", r, t, m1, m2));
  intoResult<scalar_t>(state, r, t, beta, {m1->size[0], m2->size[1]}, {m1, m2},
                       [&](THCTensor *out) { gemm<scalar_t>(state, out, beta, alpha, m1, m2); });
}

void THCTensor_(mm)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b) {
  checkMm("mm", a, 2, b, 3);
  thc::DeviceGuard guard(thc::commonDevice("mm", r, a, b));
  const scalar_t zero = constant<scalar_t>(0), one = constant<scalar_t>(1);
  intoResult<scalar_t>(state, r, nullptr, zero, {a->size[0], b->size[1]}, {a, b},
                       [&](THCTensor *out) { gemm<scalar_t>(state, out, zero, one, a, b); });
}

void THCTensor_(addbmm)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha, THCTensor *batch1,
                        THCTensor *batch2) {
  checkBmm("addbmm", batch1, 5, batch2, 6);
  checkAddend("addbmm", t, 3, {batch1->size[1], batch2->size[2]});
  thc::DeviceGuard guard(thc::commonDevice("addbmm", r, t, batch1, batch2));
  intoResult<scalar_t>(state, r, t, beta, {batch1->size[1], batch2->size[2]}, {batch1, batch2},
                       [&](THCTensor *out) { addbgemm<scalar_t>(state, out, beta, alpha, batch1, batch2); });
}

void THCTensor_(baddbmm)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha, THCTensor *batch1,
                         THCTensor *batch2) {
  checkBmm("baddbmm", batch1, 5, batch2, 6);
  checkAddend("baddbmm", t, 3, {batch1->size[0], batch1->size[1], batch2->size[2]});
  thc::DeviceGuard guard(thc::commonDevice("baddbmm", r, t, batch1, batch2));
  intoResult<scalar_t>(state, r, t, beta, {batch1->size[0], batch1->size[1], batch2->size[2]}, {batch1, batch2},
                       [&](THCTensor *out) { bgemm<scalar_t>(state, out, beta, alpha, batch1, batch2); });
}

void THCTensor_(bmm)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b) {
  checkBmm("bmm", a, 2, b, 3);
  thc::DeviceGuard guard(thc::commonDevice("bmm", r, a, b));
  const scalar_t zero = constant<scalar_t>(0), one = constant<scalar_t>(1);
  intoResult<scalar_t>(state, r, nullptr, zero, {a->size[0], a->size[1], b->size[2]}, {a, b},
                       [&](THCTensor *out) { bgemm<scalar_t>(state, out, zero, one, a, b); });
}

#endif
