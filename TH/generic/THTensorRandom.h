#ifndef TH_GENERIC_FILE
#error "include TH/THTensorRandom.h instead"
#endif

/* Integers in torch7's ranges: [0, 255] Byte, [0, 127] Char, [0, 32767] Short,
 * [0, 2^31 - 1] Int, [0, 2^24] Float; torch7 draws 32 bits for every type, so Long and
 * Double get [0, 2^32 - 1]. */
TH_API void THTensor_(random)(THTensor *self, THGenerator *gen);
/* Integers in [min, max) (64-bit draws when the range needs them); min and max - 1 must
 * be representable in the element type. */
TH_API void THTensor_(clampedRandom)(THTensor *self, THGenerator *gen, int64_t min, int64_t max);
/* Integers in [0, max), max > 0. */
TH_API void THTensor_(cappedRandom)(THTensor *self, THGenerator *gen, int64_t max);
/* torch7's geometric: P(k) = (1 - p) p^(k-1), 0 < p < 1. */
TH_API void THTensor_(geometric)(THTensor *self, THGenerator *gen, double p);
/* 1 with probability p (uniform() <= p), else 0; 0 <= p <= 1. */
TH_API void THTensor_(bernoulli)(THTensor *self, THGenerator *gen, double p);
/* Element i is 1 with probability p[i]; p has as many elements as self (any shape), every
 * p[i] in [0, 1]. */
TH_API void THTensor_(bernoulli_FloatTensor)(THTensor *self, THGenerator *gen, struct THFloatTensor *p);
TH_API void THTensor_(bernoulli_DoubleTensor)(THTensor *self, THGenerator *gen, struct THDoubleTensor *p);

/* A random permutation of TH_INDEX_BASE .. n - 1 + TH_INDEX_BASE (torch7's swaps with
 * random() % (n - i)); self becomes 1-D of size n. */
TH_API void THTensor_(randperm)(THTensor *self, THGenerator *gen, int64_t n);

#if TH_REAL_IS_FLOATING
TH_API void THTensor_(bernoulli_Tensor)(THTensor *self, THGenerator *gen, THTensor *p);
/* [a, b), a <= b; the value is computed in double and then rounded to the element type. */
TH_API void THTensor_(uniform)(THTensor *self, THGenerator *gen, double a, double b);
/* stdv > 0 */
TH_API void THTensor_(normal)(THTensor *self, THGenerator *gen, double mean, double stdv);
/* Per-element means and/or standard deviations: self takes the shape of means (of
 * stddevs when there are no means); means and stddevs have as many elements. */
TH_API void THTensor_(normal_means)(THTensor *self, THGenerator *gen, THTensor *means, double stddev);
TH_API void THTensor_(normal_stddevs)(THTensor *self, THGenerator *gen, double mean, THTensor *stddevs);
TH_API void THTensor_(normal_means_stddevs)(THTensor *self, THGenerator *gen, THTensor *means, THTensor *stddevs);
/* lambda > 0 */
TH_API void THTensor_(exponential)(THTensor *self, THGenerator *gen, double lambda);
/* sigma > 0 */
TH_API void THTensor_(cauchy)(THTensor *self, THGenerator *gen, double median, double sigma);
/* exp(normal(mean, stdv)), stdv > 0 */
TH_API void THTensor_(logNormal)(THTensor *self, THGenerator *gen, double mean, double stdv);
/* r is resized to size and filled with uniform [0, 1) (rand) or normal(0, 1) (randn). */
TH_API void THTensor_(rand)(THTensor *r, THGenerator *gen, int nDimension, const int64_t *size);
TH_API void THTensor_(randn)(THTensor *r, THGenerator *gen, int nDimension, const int64_t *size);

/* n_sample category indices (from TH_INDEX_BASE) per distribution: prob_dist is 1-D
 * (one distribution, self becomes 1-D of n_sample) or 2-D (one per row, self becomes
 * rows x n_sample). Probabilities are >= 0, finite, not all zero in a row, and need not
 * sum to one. torch7's algorithm: normalised cumulative distribution, one uniform draw and
 * a binary search per sample; without replacement a drawn category's probability is
 * removed, so n_sample may not exceed the categories of nonzero probability. */
TH_API void THTensor_(multinomial)(struct THLongTensor *self, THGenerator *gen, THTensor *prob_dist, int n_sample,
                                   int with_replacement);
/* Walker's alias method (Vose's setup) for many draws from one distribution: setup gives
 * each of the n categories of probs (>= 0, not all zero, normalised here) a probability q
 * and an alias J (an index from TH_INDEX_BASE); draw fills self, of any shape, with
 * categories (from TH_INDEX_BASE): category i uniform, kept with probability q[i], else
 * J[i]. */
TH_API void THTensor_(multinomialAliasSetup)(THTensor *probs, struct THLongTensor *J, THTensor *q);
TH_API void THTensor_(multinomialAliasDraw)(struct THLongTensor *self, THGenerator *gen, struct THLongTensor *J,
                                            THTensor *q);
#endif
