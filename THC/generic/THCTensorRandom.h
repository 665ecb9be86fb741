#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorRandom.h instead"
#endif

#if !defined(TH_REAL_IS_HALF)

/* Integers in TH's ranges: [0, 255] Byte, [0, 127] Char, [0, 32767] Short, [0, 2^31 - 1]
 * Int, [0, 2^24] Float, [0, 2^32 - 1] Long and Double (32-bit draws, as TH). */
THC_API void THCTensor_(random)(THCState *state, THCTensor *self);
/* Integers in [min, max) (64-bit draws when the range needs them); min and max - 1 must be
 * representable in the element type. */
THC_API void THCTensor_(clampedRandom)(THCState *state, THCTensor *self, int64_t min, int64_t max);
/* Integers in [0, max), max > 0. */
THC_API void THCTensor_(cappedRandom)(THCState *state, THCTensor *self, int64_t max);
/* TH's geometric: P(k) = (1 - p) p^(k-1) for k >= 1, 0 < p < 1. */
THC_API void THCTensor_(geometric)(THCState *state, THCTensor *self, double p);
/* 1 with probability p, else 0; 0 <= p <= 1 (p = 0 never gives 1, p = 1 always does). */
THC_API void THCTensor_(bernoulli)(THCState *state, THCTensor *self, double p);
/* Element i is 1 with probability p[i]; p has as many elements as self (any shape), every
 * p[i] in [0, 1]. */
THC_API void THCTensor_(bernoulli_FloatTensor)(THCState *state, THCTensor *self, THCudaTensor *p);
THC_API void THCTensor_(bernoulli_DoubleTensor)(THCState *state, THCTensor *self, THCudaDoubleTensor *p);

/* A random permutation of TH_INDEX_BASE .. n - 1 + TH_INDEX_BASE; self becomes 1-D of size
 * n. (The order of n random 64-bit keys.) */
THC_API void THCTensor_(randperm)(THCState *state, THCTensor *self, int64_t n);

#if TH_REAL_IS_FLOATING
THC_API void THCTensor_(bernoulli_Tensor)(THCState *state, THCTensor *self, THCTensor *p);
/* [a, b), a <= b: computed in double, rounded to the element type, and never b (a value
 * that rounds up to b becomes the largest one below it). */
THC_API void THCTensor_(uniform)(THCState *state, THCTensor *self, double a, double b);
/* stdv > 0; Box-Muller, in double. */
THC_API void THCTensor_(normal)(THCState *state, THCTensor *self, double mean, double stdv);
/* Per-element means and/or standard deviations: self takes the shape of means (of stddevs
 * when there are no means); means and stddevs have as many elements, every stddev > 0. */
THC_API void THCTensor_(normal_means)(THCState *state, THCTensor *self, THCTensor *means, double stddev);
THC_API void THCTensor_(normal_stddevs)(THCState *state, THCTensor *self, double mean, THCTensor *stddevs);
THC_API void THCTensor_(normal_means_stddevs)(THCState *state, THCTensor *self, THCTensor *means, THCTensor *stddevs);
/* lambda > 0 */
THC_API void THCTensor_(exponential)(THCState *state, THCTensor *self, double lambda);
/* sigma > 0 */
THC_API void THCTensor_(cauchy)(THCState *state, THCTensor *self, double median, double sigma);
/* exp(normal(mean, stdv)), stdv > 0 */
THC_API void THCTensor_(logNormal)(THCState *state, THCTensor *self, double mean, double stdv);
/* r is resized to size and filled with uniform [0, 1) (rand) or normal(0, 1) (randn). */
THC_API void THCTensor_(rand)(THCState *state, THCTensor *r, int nDimension, const int64_t *size);
THC_API void THCTensor_(randn)(THCState *state, THCTensor *r, int nDimension, const int64_t *size);

/* n_sample category indices (from TH_INDEX_BASE) per distribution: prob_dist is 1-D (one
 * distribution, self becomes 1-D of n_sample) or 2-D (one per row, self becomes rows x
 * n_sample). Probabilities are >= 0, finite, not all zero in a row, and need not sum to
 * one. With replacement: one uniform draw per sample and a binary search of the row's
 * cumulative distribution (in double). Without replacement: the categories in increasing
 * order of E_j / p_j, E_j exponential draws (an exponential race, which draws as TH's
 * one-at-a-time removal does), so n_sample may not exceed the categories of nonzero
 * probability. */
THC_API void THCTensor_(multinomial)(THCState *state, THCudaLongTensor *self, THCTensor *prob_dist, int n_sample,
                                     int with_replacement);
#endif

#endif
