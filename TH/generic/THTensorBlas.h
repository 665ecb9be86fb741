#ifndef TH_GENERIC_FILE
#error "include TH/THBlas.h instead"
#endif

/* Matrix products (torch7 argument order; r may be t). Sizes must match exactly:
 * mat [m, k] @ vec [k] -> [m]; m1 [m, k] @ m2 [k, n] -> [m, n];
 * batch1 [b, m, k] @ batch2 [b, k, n] -> [b, m, n] (baddbmm) or summed to [m, n] (addbmm). */

/* Sum of t[i] * src[i] over the elements (same number of elements; shapes may differ). */
TH_API accreal THTensor_(dot)(THTensor *t, THTensor *src);
/* r = beta t + alpha mat @ vec */
TH_API void THTensor_(addmv)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *mat, THTensor *vec);
/* r = beta t + alpha vec1 vec2^T (outer product) */
TH_API void THTensor_(addr)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *vec1, THTensor *vec2);
/* r = beta t + alpha m1 @ m2 */
TH_API void THTensor_(addmm)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *m1, THTensor *m2);
/* r = beta t + alpha sum_i batch1[i] @ batch2[i] */
TH_API void THTensor_(addbmm)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *batch1,
                              THTensor *batch2);
/* r[i] = beta t[i] + alpha batch1[i] @ batch2[i] */
TH_API void THTensor_(baddbmm)(THTensor *r, scalar_t beta, THTensor *t, scalar_t alpha, THTensor *batch1,
                               THTensor *batch2);
/* r = a @ b, r = mat @ vec, r[i] = a[i] @ b[i]; r is resized and its old values ignored. */
TH_API void THTensor_(mm)(THTensor *r, THTensor *a, THTensor *b);
TH_API void THTensor_(mv)(THTensor *r, THTensor *mat, THTensor *vec);
TH_API void THTensor_(bmm)(THTensor *r, THTensor *a, THTensor *b);
