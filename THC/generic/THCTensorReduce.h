#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorReduce.h instead"
#endif

#if !defined(TH_REAL_IS_HALF)

/* Whole-tensor reductions, accumulated in accreal. An empty tensor sums to 0 and
 * multiplies to 1; maxall and minall raise an error on it, and a NaN wins over numbers. */
THC_API accreal THCTensor_(sumall)(THCState *state, THCTensor *t);
THC_API accreal THCTensor_(prodall)(THCState *state, THCTensor *t);
THC_API scalar_t THCTensor_(maxall)(THCState *state, THCTensor *t);
THC_API scalar_t THCTensor_(minall)(THCState *state, THCTensor *t);
THC_API accreal THCTensor_(trace)(THCState *state, THCTensor *t);           /* sum of the main diagonal */
THC_API int THCTensor_(equal)(THCState *state, THCTensor *a, THCTensor *b); /* same sizes and elements */

/* Reductions along dim: r gets t's sizes without dim, or with size 1 there when keepdim
 * (a 0-dim t reduces over dim 0 into a 0-dim r). r may be t. */
THC_API void THCTensor_(sum)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim);
THC_API void THCTensor_(prod)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim);
/* Running sum and product along dim; r gets t's sizes. */
THC_API void THCTensor_(cumsum)(THCState *state, THCTensor *r, THCTensor *t, int dim);
THC_API void THCTensor_(cumprod)(THCState *state, THCTensor *r, THCTensor *t, int dim);

/* Construction: r is resized and filled. */
THC_API void THCTensor_(zeros)(THCState *state, THCTensor *r, int nDimension, const int64_t *size);
THC_API void THCTensor_(ones)(THCState *state, THCTensor *r, int nDimension, const int64_t *size);
THC_API void THCTensor_(eye)(THCState *state, THCTensor *r, int64_t n, int64_t m); /* m <= 0 means m = n */
/* xmin, xmin + step, ... up to xmax included (torch7's range). */
THC_API void THCTensor_(range)(THCState *state, THCTensor *r, accreal xmin, accreal xmax, accreal step);
/* start, start + step, ... up to end excluded (PyTorch's arange). */
THC_API void THCTensor_(arange)(THCState *state, THCTensor *r, accreal start, accreal end, accreal step);

/* Structure: diag (a vector to a matrix with it on diagonal k, a matrix to its diagonal k),
 * tril and triu (j - i <= k, >= k kept), cat (1-D empty inputs skipped) and cross (of
 * 3-vectors along dim; dim < 0 takes the first dimension of size 3), as TH's. */
THC_API void THCTensor_(diag)(THCState *state, THCTensor *r, THCTensor *t, int k);
THC_API void THCTensor_(tril)(THCState *state, THCTensor *r, THCTensor *t, int64_t k);
THC_API void THCTensor_(triu)(THCState *state, THCTensor *r, THCTensor *t, int64_t k);
THC_API void THCTensor_(cat)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b, int dim);
THC_API void THCTensor_(catArray)(THCState *state, THCTensor *r, THCTensor **inputs, int numInputs, int dim);
THC_API void THCTensor_(cross)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b, int dim);

#if TH_REAL_IS_FLOATING
/* Statistics: biased divides by n, else by n - 1; an empty tensor gives NaN. */
THC_API accreal THCTensor_(meanall)(THCState *state, THCTensor *t);
THC_API accreal THCTensor_(varall)(THCState *state, THCTensor *t, int biased);
THC_API accreal THCTensor_(stdall)(THCState *state, THCTensor *t, int biased);
/* p-norm: p = 0 counts the non-zeros, p = inf is the largest |x|, otherwise (sum |x|^p)^(1/p). */
THC_API accreal THCTensor_(normall)(THCState *state, THCTensor *t, scalar_t p);
THC_API accreal THCTensor_(dist)(THCState *state, THCTensor *a, THCTensor *b, scalar_t p); /* p-norm of a - b */
THC_API void THCTensor_(mean)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim);
THC_API void THCTensor_(var)(THCState *state, THCTensor *r, THCTensor *t, int dim, int biased, int keepdim);
THC_API void THCTensor_(std)(THCState *state, THCTensor *r, THCTensor *t, int dim, int biased, int keepdim);
THC_API void THCTensor_(norm)(THCState *state, THCTensor *r, THCTensor *t, scalar_t p, int dim, int keepdim);
/* n points from a to b, both included; logspace gives 10^x of those points. */
THC_API void THCTensor_(linspace)(THCState *state, THCTensor *r, scalar_t a, scalar_t b, int64_t n);
THC_API void THCTensor_(logspace)(THCState *state, THCTensor *r, scalar_t a, scalar_t b, int64_t n);
/* Histogram of t in nbins equal bins over [minvalue, maxvalue]; minvalue == maxvalue means
 * the data's own range. */
THC_API void THCTensor_(histc)(THCState *state, THCTensor *hist, THCTensor *t, int64_t nbins, scalar_t minvalue,
                               scalar_t maxvalue);
/* Each sub-tensor t.select(dim, i) whose p-norm exceeds maxnorm is scaled down to maxnorm. */
THC_API void THCTensor_(renorm)(THCState *state, THCTensor *r, THCTensor *t, scalar_t p, int dim, scalar_t maxnorm);
#endif

#if defined(TH_REAL_IS_BYTE)
/* Masks: whether all / any element is non-zero, over the whole tensor or along dim. */
THC_API int THCTensor_(logicalall)(THCState *state, THCTensor *t);
THC_API int THCTensor_(logicalany)(THCState *state, THCTensor *t);
THC_API void THCTensor_(logicalAll)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim);
THC_API void THCTensor_(logicalAny)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim);
#endif

#ifdef __cplusplus
namespace thc {
template <>
struct ReduceOps<scalar_t> {
#define THC_REDUCE_MEMBER(name) static constexpr auto name = &THCTensor_(name);
  THC_REDUCE_FNS(THC_REDUCE_MEMBER)
#if TH_REAL_IS_FLOATING
  THC_REDUCE_FLOATING_FNS(THC_REDUCE_MEMBER)
#endif
#if defined(TH_REAL_IS_BYTE)
  THC_REDUCE_BYTE_FNS(THC_REDUCE_MEMBER)
#endif
#undef THC_REDUCE_MEMBER
};
}  // namespace thc
#endif

#endif
