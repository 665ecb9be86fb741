// Random numbers: generators (TH's MT19937) and the tensor fills that draw from them.
//
//   Generator::defaultGenerator().manualSeed(42);
//   Tensor x = empty({1000}, ScalarType::Float);
//   uniform_(x, 0, 1, nullptr);          // nullptr: the default generator
//   Tensor state = Generator::defaultGenerator().getState();
//   normal_(x, 0, 1, nullptr);
//   Generator::defaultGenerator().setState(state);  // the next normal_ repeats the draws
//
// Fills draw in row-major order whatever the layout, so the same seed gives the same
// values for a contiguous and a transposed result. Every function checks its arguments
// before drawing: a bad argument leaves the tensor and the generator unchanged.
#ifndef TORCH_OPS_RANDOM_H
#define TORCH_OPS_RANDOM_H

#include <memory>
#include <mutex>
#include <optional>

#include "core/Tensor.h"

namespace torch {

// A TH generator and the lock that makes it safe to share between threads.
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
  Tensor getState();  // a Byte tensor holding the whole state
  void setState(const Tensor &state);

  // Runs f(THGenerator*) under the lock.
  template <typename F>
  decltype(auto) with(F &&f) {
    std::lock_guard<std::mutex> hold(mutex_);
    return f(th_);
  }

 private:
  explicit Generator(THGenerator *borrowed) : th_(borrowed), owned_(false) {}
  THGenerator *th_;
  bool owned_;
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
