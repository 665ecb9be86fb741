// Random numbers: generators (TH's MT19937) and the tensor fills that draw from them,
// in PyTorch 1.13's streams (Note [Two random streams]).
//
//   Generator::defaultGenerator().manualSeed(42);
//   Tensor x = empty({1000}, ScalarType::Float);
//   uniform_(x, 0, 1, nullptr);          // nullptr: the default generator
//   Tensor state = Generator::defaultGenerator().getState();
//   normal_(x, 0, 1, nullptr);
//   Generator::defaultGenerator().setState(state);  // the next normal_ repeats the draws
//
// Fills draw in memory order, as PyTorch's TensorIterator walks a result (row-major for a
// contiguous tensor; a transposed one gets the values of its contiguous original). Every function checks its arguments
// before drawing: a bad argument leaves the tensor and the generator unchanged.
//
// Note [Two random streams]: one Mersenne twister (TH/THRandom.cpp, torch7's and PyTorch's
// mt19937 are the same generator: same seeding, same 32-bit draws, 64-bit draws as
// (first << 32) | second), two definitions of what a distribution makes of its draws.
//  - torch7's stream is TH's: THRandom_uniform/normal/... and TH<T>::uniform, ... which Lua
//    calls. A uniform is one 32-bit draw / 2^32 in double; normal is Box-Muller with
//    torch7's cache of (x, rho) in the THGenerator.
//  - PyTorch's stream is the core's (this header; core/ops/cpu/RandomKernels.cpp), which
//    Python calls: float uniforms are 24 bits of one draw, double uniforms 53 bits of a
//    64-bit draw; normal_ of 16 or more contiguous elements fills uniforms and transforms
//    them 16 at a time (pairs j, j + 8, the last block redrawn), smaller or strided ones
//    use the scalar Box-Muller whose second value waits in the Generator's own cache
//    (NormalCache below, not torch7's fields); integers are draws modulo the range, of
//    32 bits unless the range needs 64. The same seed gives the same numbers as PyTorch
//    1.13 on the CPU (tests/python/test_random_streams.py compares them).
// A generator is the same object under both: Lua and Python share TH's default one, and a
// draw through either definition advances the same twister. The state bytes differ by
// stream: THGenerator_getState gives torch7's 5048 bytes, Generator::getState PyTorch's
// 5056 (its legacy layout, which is torch7's struct, plus the float normal cache).
#ifndef TORCH_OPS_RANDOM_H
#define TORCH_OPS_RANDOM_H

#include <memory>
#include <mutex>
#include <optional>

#include "core/Tensor.h"

namespace torch {

// PyTorch's spare Box-Muller values, one per precision (CPUGeneratorImpl's
// next_double_normal_sample and next_float_normal_sample).
struct NormalCache {
  std::optional<double> nextDouble;
  std::optional<float> nextFloat;
};

// A TH generator, PyTorch's normal cache and the lock that makes them safe to share
// between threads.
class Generator {
 public:
  Generator();  // a new generator, seeded from /dev/urandom
  ~Generator();
  Generator(const Generator &) = delete;
  Generator &operator=(const Generator &) = delete;
  // The process-wide generator (TH's THGenerator_default()).
  static Generator &defaultGenerator();

  void manualSeed(uint64_t seed);
  uint64_t seed();  // reseeds from /dev/urandom and returns the new seed
  uint64_t initialSeed();
  // PyTorch's 5056-byte state (CPUGeneratorImplState): torch7's struct with normal_y
  // holding the cached double normal, then the cached float normal and its flag.
  Tensor getState();
  // Takes that state or torch7's 5048 bytes (whose cached normal becomes the double one),
  // as PyTorch's set_state does.
  void setState(const Tensor &state);

  // Runs f(THGenerator*) under the lock.
  template <typename F>
  decltype(auto) with(F &&f) {
    std::lock_guard<std::mutex> hold(mutex_);
    return f(th_);
  }
  // Runs f(THGenerator*, NormalCache&) under the lock.
  template <typename F>
  decltype(auto) withCache(F &&f) {
    std::lock_guard<std::mutex> hold(mutex_);
    return f(th_, cache_);
  }

 private:
  explicit Generator(THGenerator *borrowed) : th_(borrowed), owned_(false) {}
  THGenerator *th_;
  bool owned_;
  NormalCache cache_;
  std::mutex mutex_;
};

// gen == nullptr means the default generator in every function below.

void uniform_(const Tensor &t, double from, double to, Generator *gen);      // floating types
void normal_(const Tensor &t, double mean, double std, Generator *gen);      // floating types
void exponential_(const Tensor &t, double lambd, Generator *gen);            // floating types
void cauchy_(const Tensor &t, double median, double sigma, Generator *gen);  // floating types
void logNormal_(const Tensor &t, double mean, double std, Generator *gen);   // floating types
// Trials until the first success, success probability p (PyTorch's convention; torch7's
// parameter is 1 - p). Any arithmetic type.
void geometric_(const Tensor &t, double p, Generator *gen);
void bernoulli_(const Tensor &t, double p, Generator *gen);
void bernoulli_(const Tensor &t, const Tensor &p, Generator *gen);  // p broadcast to t
Tensor bernoulli(const Tensor &p, Generator *gen);                  // same type as p
// Integers in [from, to); to absent: [from, max] where max is the largest integer of the
// type (2^mantissa for floating types, so every value is representable).
void random_(const Tensor &t, int64_t from, std::optional<int64_t> to, Generator *gen);

// Normal draws with per-element means and/or standard deviations, broadcast together.
Tensor normal(const Tensor &mean, const Tensor &std, Generator *gen);
Tensor normal(const Tensor &mean, double std, Generator *gen);
Tensor normal(double mean, const Tensor &std, Generator *gen);

// Poisson counts with per-element rates (non-negative, finite), same type as rates.
Tensor poisson(const Tensor &rates, Generator *gen);

// r becomes a random permutation of 0 .. n - 1.
void randpermInto(const Tensor &r, int64_t n, Generator *gen);
// numSamples category indices per row of probs (1-D or 2-D, non-negative weights).
Tensor multinomial(const Tensor &probs, int64_t numSamples, bool replacement, Generator *gen);

}  // namespace torch

#endif
