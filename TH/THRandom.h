/* THRandom: torch7's random number generator (Mersenne Twister MT19937) and its scalar
 * distributions. The same seed gives the same streams as Lua torch7's torch.manualSeed:
 *
 *   THGenerator *g = THGenerator_new();
 *   THRandom_manualSeed(g, 123);
 *   uint32_t r = THRandom_random(g);         // 2991312382, torch.random() after the same seed
 *   double n = THRandom_normal(g, 0, 1);     // Box-Muller; every second call uses a cached value
 *   THGenerator_free(g);
 *
 * A generator is not thread-safe: callers that share one between threads lock around
 * every call (THGenerator_default() included). Any function taking a generator accepts
 * NULL for the default one. */
#ifndef TH_THRANDOM_H
#define TH_THRANDOM_H

#include "TH/THTensor.h"

#define _MERSENNE_STATE_N 624
#define _MERSENNE_STATE_M 397

/* The layout is torch7's THGenerator on 64-bit Linux (5048 bytes), so a state saved by
 * torch7's torch.getRNGState() can be restored here and the other way round. Words of
 * `state` hold 32-bit values. */
typedef struct THGenerator {
  uint64_t the_initial_seed;
  int left;   /* draws left before the state is regenerated, plus one */
  int seeded; /* 1 once seeded */
  uint64_t next;
  uint64_t state[_MERSENNE_STATE_N];
  double normal_x; /* Box-Muller's pair: the second normal value is derived from these */
  double normal_y;
  double normal_rho;
  int normal_is_valid;
} THGenerator;

/* A new generator, seeded from /dev/urandom (THRandom_seed). */
TH_API THGenerator *THGenerator_new(void);
/* self <- from (the whole state, cached normal value included); returns self. */
TH_API THGenerator *THGenerator_copy(THGenerator *self, THGenerator *from);
TH_API void THGenerator_free(THGenerator *self);
/* 1 when the state is one a generator can be in (seeded, positions in range, 32-bit words). */
TH_API int THGenerator_isValid(THGenerator *self);
/* The process-wide generator, seeded from /dev/urandom when first used. */
TH_API THGenerator *THGenerator_default(void);

/* State as bytes: stateSize() bytes, the struct above. getState resizes `state` to a 1-D
 * tensor of that size; setState checks size and contents before changing the generator. */
TH_API size_t THGenerator_stateSize(void);
TH_API void THGenerator_getState(THGenerator *self, THByteTensor *state);
TH_API void THGenerator_setState(THGenerator *self, THByteTensor *state);

/* Seeds from /dev/urandom (the time when that is not readable); returns the seed. */
TH_API uint64_t THRandom_seed(THGenerator *gen);
/* torch7's seeding (MT's init_genrand with the low 32 bits); resets the cached normal value. */
TH_API void THRandom_manualSeed(THGenerator *gen, uint64_t seed);
TH_API uint64_t THRandom_initialSeed(THGenerator *gen);

/* Uniform 32-bit integer. */
TH_API uint32_t THRandom_random(THGenerator *gen);
/* Uniform 64-bit integer from two draws (the first gives the high half). */
TH_API uint64_t THRandom_random64(THGenerator *gen);
/* random() / 2^32 scaled to [a, b). */
TH_API double THRandom_uniform(THGenerator *gen, double a, double b);
/* Box-Muller from two uniforms; the second value of each pair is cached. stdv > 0. */
TH_API double THRandom_normal(THGenerator *gen, double mean, double stdv);
/* lambda > 0 */
TH_API double THRandom_exponential(THGenerator *gen, double lambda);
/* sigma > 0 */
TH_API double THRandom_cauchy(THGenerator *gen, double median, double sigma);
/* exp(normal(mean, stdv)): mean and stdv are those of the underlying normal. */
TH_API double THRandom_logNormal(THGenerator *gen, double mean, double stdv);
/* torch7's geometric: P(k) = (1 - p) p^(k-1) for k >= 1, 0 < p < 1. */
TH_API int THRandom_geometric(THGenerator *gen, double p);
/* uniform() <= p, 0 <= p <= 1 */
TH_API int THRandom_bernoulli(THGenerator *gen, double p);

#endif
