#include "TH/THTensorRandom.h"

#include <cmath>
#include <limits>

#include "TH/THTensor.hpp"

namespace {

// Checks that p has self's element count and holds probabilities in [0, 1].
template <typename Self, typename P>
void checkProbabilities(Self *self, P *p, int argNumber) {
  using T = std::remove_pointer_t<decltype(p->storage->data)>;
  THArgCheck(p != nullptr, argNumber, "probability tensor is NULL");
  const int64_t n = th::numel(th::ref(self)), np = th::numel(th::ref(p));
  THArgCheck(n == np, argNumber, "bernoulli: %lld probabilities given for %lld elements", (long long)np, (long long)n);
  bool ok = th::reduceAll(
      th::ref(p), true, [](bool acc, T &q) { return acc && q >= 0 && q <= 1; }, [](bool a, bool b) { return a && b; });
  THArgCheck(ok, argNumber, "bernoulli: every probability must be >= 0 and <= 1");
}

template <typename Self, typename P>
void bernoulliTensor(Self *self, THGenerator *gen, P *p) {
  using S = std::remove_pointer_t<decltype(self->storage->data)>;
  using T = std::remove_pointer_t<decltype(p->storage->data)>;
  checkProbabilities(self, p, 3);
  th::applyInOrder([&](S &x, T &q) { x = (S)THRandom_bernoulli(gen, (double)q); }, th::ref(self), th::ref(p));
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorRandom.cpp"
#include "TH/THGenerateAllTypes.h"
