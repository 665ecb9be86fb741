#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorMathBlas.h instead"
#endif

#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE) || defined(TH_REAL_IS_HALF)

/* Matrix products (torch7 argument order; r may be t). Sizes must match exactly:
 * mat [m, k] @ vec [k] -> [m]; m1 [m, k] @ m2 [k, n] -> [m, n];
 * batch1 [b, m, k] @ batch2 [b, k, n] -> [b, m, n] (baddbmm) or summed to [m, n] (addbmm). */

/* Sum of t[i] * src[i] over the elements (same number of elements; shapes may differ).
 * Returns to the host: waits for the stream. */
THC_API accreal THCTensor_(dot)(THCState *state, THCTensor *t, THCTensor *src);
/* r = beta t + alpha mat @ vec */
THC_API void THCTensor_(addmv)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha,
                               THCTensor *mat, THCTensor *vec);
/* r = beta t + alpha vec1 vec2^T (outer product) */
THC_API void THCTensor_(addr)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha,
                              THCTensor *vec1, THCTensor *vec2);
/* r = beta t + alpha m1 @ m2 */
THC_API void THCTensor_(addmm)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha,
                               THCTensor *m1, THCTensor *m2);
/* r = beta t + alpha sum_i batch1[i] @ batch2[i] */
THC_API void THCTensor_(addbmm)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha,
                                THCTensor *batch1, THCTensor *batch2);
/* r[i] = beta t[i] + alpha batch1[i] @ batch2[i] */
THC_API void THCTensor_(baddbmm)(THCState *state, THCTensor *r, scalar_t beta, THCTensor *t, scalar_t alpha,
                                 THCTensor *batch1, THCTensor *batch2);
/* r = a @ b, r = mat @ vec, r[i] = a[i] @ b[i]; r is resized and its old values ignored. */
THC_API void THCTensor_(mm)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b);
THC_API void THCTensor_(mv)(THCState *state, THCTensor *r, THCTensor *mat, THCTensor *vec);
THC_API void THCTensor_(bmm)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b);

#endif
