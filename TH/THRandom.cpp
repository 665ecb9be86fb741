#include "TH/THRandom.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>

#include "TH/THTensor.hpp"

namespace {

constexpr int kN = _MERSENNE_STATE_N;
constexpr int kM = _MERSENNE_STATE_M;
constexpr uint64_t kMatrixA = 0x9908b0dfULL;
constexpr uint64_t kUpperMask = 0x80000000ULL;
constexpr uint64_t kLowerMask = 0x7fffffffULL;

THGenerator *orDefault(THGenerator *gen) { return gen ? gen : THGenerator_default(); }

uint64_t twist(uint64_t u, uint64_t v) {
  return ((((u & kUpperMask) | (v & kLowerMask)) >> 1) ^ ((v & 1) ? kMatrixA : 0));
}

// Regenerates all kN words at once (Cokus's formulation, as torch7 does).
void nextState(THGenerator *gen) {
  uint64_t *s = gen->state;
  for (int j = 0; j < kN - kM; j++) s[j] = s[j + kM] ^ twist(s[j], s[j + 1]);
  for (int j = kN - kM; j < kN - 1; j++) s[j] = s[j + kM - kN] ^ twist(s[j], s[j + 1]);
  s[kN - 1] = s[kM - 1] ^ twist(s[kN - 1], s[0]);
  gen->left = kN;
  gen->next = 0;
}

// [0, 1) with 32 bits of randomness: torch7's uniform, which every distribution uses.
double uniform01(THGenerator *gen) { return THRandom_random(gen) * (1.0 / 4294967296.0); }

uint64_t entropySeed() {
  uint64_t seed = 0;
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd >= 0) {
    ssize_t got = read(fd, &seed, sizeof(seed));
    close(fd);
    if (got == (ssize_t)sizeof(seed)) return seed;
  }
  return (uint64_t)std::chrono::high_resolution_clock::now().time_since_epoch().count();
}

}  // namespace

THGenerator *THGenerator_new(void) {
  THGenerator *self = static_cast<THGenerator *>(THAlloc(sizeof(THGenerator)));
  THRandom_seed(self);
  return self;
}

THGenerator *THGenerator_copy(THGenerator *self, THGenerator *from) {
  THArgCheck(self != nullptr, 1, "generator is NULL");
  THArgCheck(from != nullptr, 2, "generator is NULL");
  memmove(self, from, sizeof(THGenerator));
  return self;
}

void THGenerator_free(THGenerator *self) { THFree(self); }

int THGenerator_isValid(THGenerator *self) {
  if (!self || self->seeded != 1) return 0;
  // random() reads state[next .. next + left - 2] before it regenerates the state.
  if (self->left < 1 || self->left > kN || self->next > (uint64_t)(kN + 1 - self->left)) return 0;
  if (self->normal_is_valid != 0 && self->normal_is_valid != 1) return 0;
  for (int j = 0; j < kN; j++)
    if (self->state[j] >> 32) return 0;
  return 1;
}

THGenerator *THGenerator_default(void) {
  static THGenerator *gen = THGenerator_new();
  return gen;
}

size_t THGenerator_stateSize(void) { return sizeof(THGenerator); }

void THGenerator_getState(THGenerator *self, THByteTensor *state) {
  self = orDefault(self);
  THArgCheck(state != nullptr, 2, "state tensor is NULL");
  THByteTensor_resize1d(state, sizeof(THGenerator));
  const uint8_t *bytes = reinterpret_cast<const uint8_t *>(self);
  uint8_t *dst = THByteTensor_data(state);
  const int64_t stride = state->stride[0];
  for (size_t i = 0; i < sizeof(THGenerator); i++) dst[i * stride] = bytes[i];
}

void THGenerator_setState(THGenerator *self, THByteTensor *state) {
  self = orDefault(self);
  THArgCheck(state != nullptr, 2, "state tensor is NULL");
  const ptrdiff_t n = THByteTensor_nElement(state);
  THArgCheck(n == (ptrdiff_t)sizeof(THGenerator), 2, "RNG state has %td bytes, expected %zu", n, sizeof(THGenerator));
  THGenerator candidate;
  uint8_t *bytes = reinterpret_cast<uint8_t *>(&candidate);
  size_t i = 0;
  th::detail::Cursor<uint8_t> c(th::ref(state));
  for (; i < sizeof(THGenerator); i++, c.next()) bytes[i] = c.get();
  THArgCheck(THGenerator_isValid(&candidate), 2,
             "invalid RNG state (not seeded, position out of range or state words wider than 32 bits)");
  *self = candidate;
}

uint64_t THRandom_seed(THGenerator *gen) {
  uint64_t seed = entropySeed();
  THRandom_manualSeed(gen, seed);
  return seed;
}

void THRandom_manualSeed(THGenerator *gen, uint64_t seed) {
  gen = orDefault(gen);
  memset(gen, 0, sizeof(THGenerator));
  gen->the_initial_seed = seed;
  gen->state[0] = seed & 0xffffffffULL;
  for (int j = 1; j < kN; j++) {
    uint64_t prev = gen->state[j - 1];
    gen->state[j] = (1812433253ULL * (prev ^ (prev >> 30)) + j) & 0xffffffffULL;
  }
  gen->left = 1;  // the first draw regenerates the state
  gen->seeded = 1;
}

uint64_t THRandom_initialSeed(THGenerator *gen) { return orDefault(gen)->the_initial_seed; }

uint32_t THRandom_random(THGenerator *gen) {
  gen = orDefault(gen);
  if (--gen->left == 0) nextState(gen);
  uint64_t y = gen->state[gen->next++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680ULL;
  y ^= (y << 15) & 0xefc60000ULL;
  y ^= (y >> 18);
  return (uint32_t)y;
}

uint64_t THRandom_random64(THGenerator *gen) {
  uint64_t hi = THRandom_random(gen);
  uint64_t lo = THRandom_random(gen);
  return (hi << 32) | lo;
}

double THRandom_uniform(THGenerator *gen, double a, double b) {
  THArgCheck(a <= b, 2, "uniform: lower bound %g must not exceed upper bound %g", a, b);
  return uniform01(orDefault(gen)) * (b - a) + a;
}

double THRandom_normal(THGenerator *gen, double mean, double stdv) {
  THArgCheck(stdv > 0, 3, "normal: standard deviation must be strictly positive, got %g", stdv);
  gen = orDefault(gen);
  if (!gen->normal_is_valid) {
    gen->normal_x = uniform01(gen);
    gen->normal_y = uniform01(gen);
    gen->normal_rho = std::sqrt(-2. * std::log(1.0 - gen->normal_y));
    gen->normal_is_valid = 1;
    return gen->normal_rho * std::cos(2. * M_PI * gen->normal_x) * stdv + mean;
  }
  gen->normal_is_valid = 0;
  return gen->normal_rho * std::sin(2. * M_PI * gen->normal_x) * stdv + mean;
}

double THRandom_exponential(THGenerator *gen, double lambda) {
  THArgCheck(lambda > 0, 2, "exponential: lambda must be strictly positive, got %g", lambda);
  return -1. / lambda * std::log(1 - uniform01(orDefault(gen)));
}

double THRandom_cauchy(THGenerator *gen, double median, double sigma) {
  THArgCheck(sigma > 0, 3, "cauchy: sigma must be strictly positive, got %g", sigma);
  return median + sigma * std::tan(M_PI * (uniform01(orDefault(gen)) - 0.5));
}

double THRandom_logNormal(THGenerator *gen, double mean, double stdv) {
  THArgCheck(stdv > 0, 3, "logNormal: standard deviation must be strictly positive, got %g", stdv);
  return std::exp(THRandom_normal(gen, mean, stdv));
}

int THRandom_geometric(THGenerator *gen, double p) {
  THArgCheck(p > 0 && p < 1, 2, "geometric: p must be > 0 and < 1, got %g", p);
  double k = std::log(1 - uniform01(orDefault(gen))) / std::log(p);
  return k < INT_MAX - 1 ? (int)k + 1 : INT_MAX;  // p near 1 can overflow an int
}

int THRandom_bernoulli(THGenerator *gen, double p) {
  THArgCheck(p >= 0 && p <= 1, 2, "bernoulli: p must be >= 0 and <= 1, got %g", p);
  return uniform01(orDefault(gen)) <= p;
}
