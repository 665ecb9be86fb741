#include "core/ops/Random.h"

#include <cmath>
#include <limits>

#include "core/ops/Pointwise.h"

namespace torch {

// ---- Generator ----

Generator::Generator() : th_(THGenerator_new()), owned_(true) {}

Generator::~Generator() {
  if (owned_) THGenerator_free(th_);
}

Generator &Generator::defaultGenerator() {
  static Generator *instance = new Generator(THGenerator_default());  // lives as long as TH's
  return *instance;
}

void Generator::manualSeed(uint64_t seed) {
  with([&](THGenerator *g) { THRandom_manualSeed(g, seed); });
}

uint64_t Generator::seed() {
  return with([&](THGenerator *g) { return THRandom_seed(g); });
}

uint64_t Generator::initialSeed() {
  return with([&](THGenerator *g) { return THRandom_initialSeed(g); });
}

Tensor Generator::getState() {
  Tensor state = empty({0}, ScalarType::Byte);
  with([&](THGenerator *g) { THGenerator_getState(g, state.th<uint8_t>()); });
  return state;
}

void Generator::setState(const Tensor &state) {
  TORCH_CHECK(state.dtype() == ScalarType::Byte, Type, "RNG state must be a torch.ByteTensor, got a %s tensor",
              scalarTypeName(state.dtype()));
  with([&](THGenerator *g) { THGenerator_setState(g, state.th<uint8_t>()); });
}

namespace {

Generator &orDefault(Generator *gen) { return gen ? *gen : Generator::defaultGenerator(); }

// Runs fill(tensor) on t, through a Float tensor when t is Half (which has no kernels).
template <typename Fill>
void viaFloat(const Tensor &t, Fill fill) {
  if (t.dtype() != ScalarType::Half) return fill(t);
  Tensor f = empty(t.sizes(), ScalarType::Float);
  fill(f);
  copy_(t, f);
}

// x = draw(gen) for every element of t, in row-major order (float and double only).
template <typename Draw>
void drawFloating(const Tensor &t, const char *op, Generator *gen, Draw draw) {
  dispatchFloating(t.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    orDefault(gen).with(
        [&](THGenerator *g) { th::applyInOrder([&](T &x) { x = static_cast<T>(draw(g)); }, th::ref(t.th<T>())); });
  });
}

std::string str(double v) { return Scalar(v).str(); }

}  // namespace

void uniform_(const Tensor &t, double from, double to, Generator *gen) {
  TORCH_CHECK(from <= to, Runtime, "uniform_ expects to return a [from, to) range, but found from=%s > to=%s",
              str(from).c_str(), str(to).c_str());
  TORCH_CHECK(std::isfinite(from) && std::isfinite(to), Runtime, "uniform_: from and to must be finite");
  dispatchFloating(t.dtype(), "uniform_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    // A double just below `to` may round up to it in float: keep the range half-open.
    const T below = from < to ? std::nextafter(static_cast<T>(to), static_cast<T>(from)) : static_cast<T>(to);
    orDefault(gen).with([&](THGenerator *g) {
      th::applyInOrder(
          [&](T &x) {
            x = static_cast<T>(THRandom_uniform(g, from, to));
            if (x > below) x = below;
          },
          th::ref(t.th<T>()));
    });
  });
}

void normal_(const Tensor &t, double mean, double std, Generator *gen) {
  TORCH_CHECK(std >= 0, Runtime, "normal_ expects std >= 0.0, but found std %s", str(std).c_str());
  if (std == 0) {
    dispatchFloating(t.dtype(), "normal_", [](auto) {});
    fill_(t, Scalar(mean));
    return;
  }
  drawFloating(t, "normal_", gen, [&](THGenerator *g) { return THRandom_normal(g, mean, std); });
}

void exponential_(const Tensor &t, double lambd, Generator *gen) {
  TORCH_CHECK(lambd > 0, Runtime, "exponential_ expects lambda > 0.0, but found lambda=%s", str(lambd).c_str());
  drawFloating(t, "exponential_", gen, [&](THGenerator *g) { return THRandom_exponential(g, lambd); });
}

void cauchy_(const Tensor &t, double median, double sigma, Generator *gen) {
  TORCH_CHECK(sigma > 0, Runtime, "cauchy_ expects sigma > 0.0, but found sigma=%s", str(sigma).c_str());
  drawFloating(t, "cauchy_", gen, [&](THGenerator *g) { return THRandom_cauchy(g, median, sigma); });
}

void logNormal_(const Tensor &t, double mean, double std, Generator *gen) {
  TORCH_CHECK(std > 0, Runtime, "log_normal_ expects std > 0.0, but found std=%s", str(std).c_str());
  drawFloating(t, "log_normal_", gen, [&](THGenerator *g) { return THRandom_logNormal(g, mean, std); });
}

void geometric_(const Tensor &t, double p, Generator *gen) {
  TORCH_CHECK(p > 0 && p < 1, Runtime, "geometric_ expects p to be in (0, 1), but got p=%s", str(p).c_str());
  TORCH_CHECK(t.dtype() != ScalarType::Bool, Type, "geometric_ is not implemented for Bool tensors");
  viaFloat(t, [&](const Tensor &u) {
    dispatchArith(u.dtype(), "geometric_", [&](auto tag) {
      using T = typename decltype(tag)::type;
      // torch7's geometric counts trials until the first event of probability 1 - p.
      orDefault(gen).with([&](THGenerator *g) { TH<T>::geometric(u.th<T>(), g, 1 - p); });
    });
  });
}

// Note [Bernoulli draws]: 1 when uniform < p, as PyTorch does. torch7's `uniform <= p`
// gives 1 for p = 0 once in 2^32 draws; the strict test makes p = 0 never and p = 1
// always succeed, and draws the same values otherwise.
void bernoulli_(const Tensor &t, double p, Generator *gen) {
  TORCH_CHECK(p >= 0 && p <= 1, Runtime, "bernoulli_ expects p to be in [0, 1], but got p=%s", str(p).c_str());
  viaFloat(t, [&](const Tensor &u) {
    dispatchArith(u.dtype(), "bernoulli_", [&](auto tag) {
      using T = typename decltype(tag)::type;
      orDefault(gen).with([&](THGenerator *g) {
        th::applyInOrder([&](T &x) { x = static_cast<T>(THRandom_uniform(g, 0, 1) < p); }, th::ref(u.th<T>()));
      });
    });
  });
}

void bernoulli_(const Tensor &t, const Tensor &p, Generator *gen) {
  TORCH_CHECK(isBroadcastableTo(p.sizes(), t.sizes()), Runtime,
              "bernoulli_: probabilities of shape %s cannot be broadcast to the shape %s", p.sizeString().c_str(),
              t.sizeString().c_str());
  Tensor probs = expand(toType(p, ScalarType::Double), t.sizes());
  bool valid = true;
  th::applyInOrder([&](double &q) { valid = valid && q >= 0 && q <= 1; }, th::ref(probs.th<double>()));
  TORCH_CHECK(valid, Runtime, "bernoulli_ expects all elements of p to be in [0, 1]");
  viaFloat(t, [&](const Tensor &u) {
    dispatchArith(u.dtype(), "bernoulli_", [&](auto tag) {
      using T = typename decltype(tag)::type;
      orDefault(gen).with([&](THGenerator *g) {
        th::applyInOrder([&](T &x, double &q) { x = static_cast<T>(THRandom_uniform(g, 0, 1) < q); },
                         th::ref(u.th<T>()), th::ref(probs.th<double>()));
      });
    });
  });
}

Tensor bernoulli(const Tensor &p, Generator *gen) {
  TORCH_CHECK(isFloating(p.dtype()), Type, "bernoulli expects a floating point tensor of probabilities, got %s",
              scalarTypeName(p.dtype()));
  Tensor r = empty(p.sizes(), p.dtype());
  bernoulli_(r, p, gen);
  return r;
}

void random_(const Tensor &t, int64_t from, std::optional<int64_t> to, Generator *gen) {
  dispatchArith(t.dtype(), "random_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    // The largest value of the type that random_ may produce.
    int64_t top;
    if (t.dtype() == ScalarType::Bool) {
      top = 1;
    } else if constexpr (std::is_floating_point_v<T>) {
      top = int64_t(1) << std::numeric_limits<T>::digits;
    } else {
      top = static_cast<int64_t>(std::numeric_limits<T>::max());
    }
    int64_t bottom = t.dtype() == ScalarType::Bool ? 0
                     : std::is_floating_point_v<T> ? -top
                                                   : static_cast<int64_t>(std::numeric_limits<T>::lowest());
    int64_t last = to ? *to - 1 : top;  // inclusive
    TORCH_CHECK(!to || from < *to, Runtime, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                static_cast<long long>(from), static_cast<long long>(*to));
    TORCH_CHECK(from >= bottom && last <= top, Runtime,
                "random_: the range [%lld, %lld] does not fit in %s (whose values are [%lld, %lld])",
                static_cast<long long>(from), static_cast<long long>(last), scalarTypeName(t.dtype()),
                static_cast<long long>(bottom), static_cast<long long>(top));
    TORCH_CHECK(from <= last, Runtime, "random_: from=%lld is above the largest value %lld of %s",
                static_cast<long long>(from), static_cast<long long>(last), scalarTypeName(t.dtype()));
    // Values in [from, last]; the count fits in 64 bits unless it is the whole int64 range.
    const uint64_t count = static_cast<uint64_t>(last) - static_cast<uint64_t>(from) + 1;
    const bool wide = count == 0 || count > 0xffffffffULL;
    orDefault(gen).with([&](THGenerator *g) {
      th::applyInOrder(
          [&](T &x) {
            uint64_t r = wide ? THRandom_random64(g) : static_cast<uint64_t>(THRandom_random(g));
            if (count != 0) r %= count;
            x = static_cast<T>(static_cast<int64_t>(r + static_cast<uint64_t>(from)));
          },
          th::ref(t.th<T>()));
    });
  });
}

namespace {

// mean + std * N(0, 1) per element, means and standard deviations broadcast together.
Tensor normalTensors(const Tensor &mean, const Tensor &std, Generator *gen) {
  ScalarType type = promoteTypes(mean.dtype(), std.dtype());
  TORCH_CHECK(isFloating(type) && type != ScalarType::Half, Type,
              "normal expects floating point means and standard deviations, got %s and %s",
              scalarTypeName(mean.dtype()), scalarTypeName(std.dtype()));
  IntList shape = broadcastShapes(mean.sizes(), std.sizes());
  Tensor means = expand(toType(mean, type), shape), stds = expand(toType(std, type), shape);
  Tensor r = empty(shape, type);
  dispatchFloating(type, "normal", [&](auto tag) {
    using T = typename decltype(tag)::type;
    bool valid = true;
    th::applyInOrder([&](T &s) { valid = valid && s >= 0; }, th::ref(stds.th<T>()));
    TORCH_CHECK(valid, Runtime, "normal expects all elements of std >= 0.0");
    orDefault(gen).with([&](THGenerator *g) {
      th::applyInOrder([&](T &x, T &m, T &s) { x = static_cast<T>(m + s * THRandom_normal(g, 0, 1)); },
                       th::ref(r.th<T>()), th::ref(means.th<T>()), th::ref(stds.th<T>()));
    });
  });
  return r;
}

}  // namespace

Tensor normal(const Tensor &mean, const Tensor &std, Generator *gen) { return normalTensors(mean, std, gen); }

Tensor normal(const Tensor &mean, double std, Generator *gen) {
  ScalarType type = isFloating(mean.dtype()) ? mean.dtype() : defaultFloatType();
  TORCH_CHECK(std >= 0, Runtime, "normal expects std >= 0.0, but found std %s", str(std).c_str());
  return normalTensors(mean, scalarTensor(Scalar(std), type), gen);
}

Tensor normal(double mean, const Tensor &std, Generator *gen) {
  ScalarType type = isFloating(std.dtype()) ? std.dtype() : defaultFloatType();
  return normalTensors(scalarTensor(Scalar(mean), type), std, gen);
}

namespace {

// One Poisson count of mean lambda. Small means multiply uniforms until the product falls
// below exp(-lambda) (Knuth); from 10 on, whose cost that would grow with lambda, Hormann's
// transformed rejection (PTRS, 1993) takes a bounded number of draws on average.
double poissonDraw(THGenerator *g, double lambda) {
  if (lambda == 0) return 0;
  if (lambda < 10) {
    const double limit = std::exp(-lambda);
    double product = THRandom_uniform(g, 0, 1);
    double k = 0;
    while (product > limit) {
      product *= THRandom_uniform(g, 0, 1);
      k++;
    }
    return k;
  }
  const double root = std::sqrt(lambda), logLambda = std::log(lambda);
  const double b = 0.931 + 2.53 * root;
  const double a = -0.059 + 0.02483 * b;
  const double inverseAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = THRandom_uniform(g, 0, 1) - 0.5;
    const double v = THRandom_uniform(g, 0, 1);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inverseAlpha) - std::log(a / (us * us) + b) <=
        -lambda + k * logLambda - std::lgamma(k + 1)) {
      return k;
    }
  }
}

}  // namespace

Tensor poisson(const Tensor &rates, Generator *gen) {
  Tensor r;
  dispatchFloating(rates.dtype(), "poisson", [&](auto tag) {
    using T = typename decltype(tag)::type;
    bool valid = true;
    th::applyInOrder([&](T &l) { valid = valid && l >= 0 && std::isfinite(l); }, th::ref(rates.th<T>()));
    TORCH_CHECK(valid, Runtime, "poisson expects every rate to be finite and non-negative");
    r = empty(rates.sizes(), rates.dtype());
    orDefault(gen).with([&](THGenerator *g) {
      th::applyInOrder([&](T &x, T &l) { x = static_cast<T>(poissonDraw(g, l)); }, th::ref(r.th<T>()),
                       th::ref(rates.th<T>()));
    });
  });
  return r;
}

void randpermInto(const Tensor &r, int64_t n, Generator *gen) {
  TORCH_CHECK(n >= 0, Runtime, "randperm: n must be non-negative, got %lld", static_cast<long long>(n));
  TORCH_CHECK(r.dtype() != ScalarType::Bool || n <= 2, Runtime, "randperm: n=%lld is too large for Bool",
              static_cast<long long>(n));
  viaFloat(r, [&](const Tensor &u) {
    dispatchArith(u.dtype(), "randperm", [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        TORCH_CHECK(n == 0 || n - 1 <= static_cast<int64_t>(std::numeric_limits<T>::max()), Runtime,
                    "randperm: n=%lld is too large for %s", static_cast<long long>(n), scalarTypeName(r.dtype()));
      }
      orDefault(gen).with([&](THGenerator *g) { TH<T>::randperm(u.th<T>(), g, n); });
    });
  });
}

Tensor multinomial(const Tensor &probs, int64_t numSamples, bool replacement, Generator *gen) {
  TORCH_CHECK(probs.dim() == 1 || probs.dim() == 2, Runtime, "multinomial: prob_dist must be 1 or 2 dim, got %d",
              probs.dim());
  TORCH_CHECK(numSamples > 0, Runtime, "multinomial: cannot sample n_sample <= 0 samples (got %lld)",
              static_cast<long long>(numSamples));
  TORCH_CHECK(replacement || numSamples <= probs.size(probs.dim() - 1), Runtime,
              "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  TORCH_CHECK(numSamples <= std::numeric_limits<int>::max(), Runtime, "multinomial: too many samples");
  ScalarType type = probs.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  TORCH_CHECK(isFloating(probs.dtype()), Type, "multinomial only supports floating-point dtypes for input, got: %s",
              scalarTypeName(probs.dtype()));
  Tensor weights = toType(probs, type);
  Tensor r = empty({0}, ScalarType::Long);
  dispatchFloating(type, "multinomial", [&](auto tag) {
    using T = typename decltype(tag)::type;
    orDefault(gen).with([&](THGenerator *g) {
      TH<T>::multinomial(r.th<int64_t>(), g, weights.th<T>(), static_cast<int>(numSamples), replacement ? 1 : 0);
    });
  });
  return r;
}

}  // namespace torch
