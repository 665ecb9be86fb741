#include "TH/THTensorRandom.h"

#include <cmath>
#include <limits>

#include "TH/THTensor.hpp"

namespace {

// th::apply without its OpenMP split: a fill visits elements one at a time in row-major
// order, because the generator's stream order defines the result.
template <typename Op, typename T0, typename... T>
void applySerial(Op &&op, th::TensorRef<T0> r0, th::TensorRef<T>... rs) {
  constexpr size_t N = 1 + sizeof...(T);
  const int64_t n = th::numel(r0);
  if (n == 0) return;
  if (th::isContiguous(r0) && (th::isContiguous(rs) && ...)) {
    for (int64_t i = 0; i < n; i++) op(r0.data[i], rs.data[i]...);
    return;
  }
  [[maybe_unused]] auto sameAs0 = [&](auto &r) {
    if (r.ndim != r0.ndim) return false;
    for (int d = 0; d < r0.ndim; d++)
      if (r.size[d] != r0.size[d]) return false;
    return true;
  };
  if ((sameAs0(rs) && ...)) {
    const int64_t *strides[N] = {r0.stride, rs.stride...};
    auto L = th::detail::collapse<N>(r0.ndim, r0.size, strides);
    th::detail::stridedRange(L, 0, n, op, std::make_index_sequence<N>{}, r0.data, rs.data...);
    return;
  }
  th::detail::Cursor<T0> c0(r0);
  std::tuple<th::detail::Cursor<T>...> cs{th::detail::Cursor<T>(rs)...};
  for (int64_t i = 0; i < n; i++) {
    std::apply([&](auto &...c) { op(c0.get(), c.get()...); }, cs);
    c0.next();
    std::apply([&](auto &...c) { (c.next(), ...); }, cs);
  }
}

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
  applySerial([&](S &x, T &q) { x = (S)THRandom_bernoulli(gen, (double)q); }, th::ref(self), th::ref(p));
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorRandom.cpp"
#include "TH/THGenerateAllTypes.h"
