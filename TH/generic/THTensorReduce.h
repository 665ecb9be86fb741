#ifndef TH_GENERIC_FILE
#error "include TH/THTensorReduce.h instead"
#endif

/* Whole-tensor reductions, accumulated in accreal. An empty tensor sums to 0 and
 * multiplies to 1; maxall and minall raise an error on it, and a NaN wins over numbers. */
TH_API accreal THTensor_(sumall)(THTensor *t);
TH_API accreal THTensor_(prodall)(THTensor *t);
TH_API scalar_t THTensor_(maxall)(THTensor *t);
TH_API scalar_t THTensor_(minall)(THTensor *t);
TH_API accreal THTensor_(trace)(THTensor *t);          /* sum of the main diagonal of a matrix */
TH_API int THTensor_(equal)(THTensor *a, THTensor *b); /* 1 when sizes and all elements are equal */

/* Reductions along dim: r gets t's sizes without dim, or with size 1 there when keepdim
 * (a 0-dim t reduces over dim 0 into a 0-dim r). r may be t. */
TH_API void THTensor_(sum)(THTensor *r, THTensor *t, int dim, int keepdim);
TH_API void THTensor_(prod)(THTensor *r, THTensor *t, int dim, int keepdim);
/* Running sum and product along dim; r gets t's sizes. */
TH_API void THTensor_(cumsum)(THTensor *r, THTensor *t, int dim);
TH_API void THTensor_(cumprod)(THTensor *r, THTensor *t, int dim);

/* Construction: r is resized and filled. */
TH_API void THTensor_(zeros)(THTensor *r, int nDimension, const int64_t *size);
TH_API void THTensor_(ones)(THTensor *r, int nDimension, const int64_t *size);
TH_API void THTensor_(eye)(THTensor *r, int64_t n, int64_t m); /* n x m identity; m <= 0 means m = n (torch7) */
/* xmin, xmin + step, ... up to xmax included (torch7's range). */
TH_API void THTensor_(range)(THTensor *r, accreal xmin, accreal xmax, accreal step);
/* start, start + step, ... up to end excluded (PyTorch's arange). */
TH_API void THTensor_(arange)(THTensor *r, accreal start, accreal end, accreal step);

/* Structure. diag: a vector t becomes a square matrix with t on diagonal k (k > 0 above the
 * main one); a matrix t gives the vector of its diagonal k (empty when k is past a corner). */
TH_API void THTensor_(diag)(THTensor *r, THTensor *t, int k);
/* Lower (j - i <= k) and upper (j - i >= k) triangle of a matrix, zeros elsewhere. */
TH_API void THTensor_(tril)(THTensor *r, THTensor *t, int64_t k);
TH_API void THTensor_(triu)(THTensor *r, THTensor *t, int64_t k);
/* Concatenation along dim: the inputs have equal sizes except in dim. 1-D empty tensors
 * (what new() makes) are skipped, as in torch7 and PyTorch's legacy rule. */
TH_API void THTensor_(cat)(THTensor *r, THTensor *a, THTensor *b, int dim);
TH_API void THTensor_(catArray)(THTensor *r, THTensor **inputs, int numInputs, int dim);
/* Cross product of 3-vectors along dim (size 3); dim < 0 takes the first dimension of size 3. */
TH_API void THTensor_(cross)(THTensor *r, THTensor *a, THTensor *b, int dim);

#if TH_REAL_IS_FLOATING
/* Statistics: biased divides by n, else by n - 1; an empty tensor gives NaN. */
TH_API accreal THTensor_(meanall)(THTensor *t);
TH_API accreal THTensor_(varall)(THTensor *t, int biased);
TH_API accreal THTensor_(stdall)(THTensor *t, int biased);
/* p-norm: p = 0 counts the non-zeros, p = inf is the largest |x|, otherwise (sum |x|^p)^(1/p). */
TH_API accreal THTensor_(normall)(THTensor *t, scalar_t p);
TH_API accreal THTensor_(dist)(THTensor *a, THTensor *b, scalar_t p); /* p-norm of a - b */
TH_API void THTensor_(mean)(THTensor *r, THTensor *t, int dim, int keepdim);
TH_API void THTensor_(var)(THTensor *r, THTensor *t, int dim, int biased, int keepdim);
TH_API void THTensor_(std)(THTensor *r, THTensor *t, int dim, int biased, int keepdim);
TH_API void THTensor_(norm)(THTensor *r, THTensor *t, scalar_t p, int dim, int keepdim);
/* n points from a to b, both included; logspace gives 10^x of those points. */
TH_API void THTensor_(linspace)(THTensor *r, scalar_t a, scalar_t b, int64_t n);
TH_API void THTensor_(logspace)(THTensor *r, scalar_t a, scalar_t b, int64_t n);
/* Histogram of t in nbins equal bins over [minvalue, maxvalue] (values outside are not
 * counted); minvalue == maxvalue means the data's own range (torch7). */
TH_API void THTensor_(histc)(THTensor *hist, THTensor *t, int64_t nbins, scalar_t minvalue, scalar_t maxvalue);
/* Each sub-tensor t.select(dim, i) whose p-norm exceeds maxnorm is scaled down to norm maxnorm. */
TH_API void THTensor_(renorm)(THTensor *r, THTensor *t, scalar_t p, int dim, scalar_t maxnorm);
#endif

#if defined(TH_REAL_IS_BYTE)
/* Masks: whether all / any element is non-zero, over the whole tensor (torch7's names) or
 * along dim into a 0/1 ByteTensor. */
TH_API int THTensor_(logicalall)(THTensor *t);
TH_API int THTensor_(logicalany)(THTensor *t);
TH_API void THTensor_(logicalAll)(THTensor *r, THTensor *t, int dim, int keepdim);
TH_API void THTensor_(logicalAny)(THTensor *r, THTensor *t, int dim, int keepdim);
#endif
