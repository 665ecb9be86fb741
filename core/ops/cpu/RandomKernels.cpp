// The CPU column of the random kernels: TH's generator, one draw per element in row-major
// order, so that a seed gives the same values as before and as torch7.
#include <cmath>
#include <limits>

#include "core/ops/RandomKernels.h"

namespace torch::cpu {

namespace {

// x = draw(g) for every element of t, in row-major order.
template <typename T, typename Draw>
void drawEach(const Tensor &t, Generator &gen, Draw draw) {
  gen.with([&](THGenerator *g) { th::applyInOrder([&](T &x) { x = static_cast<T>(draw(g)); }, th::ref(t.th<T>())); });
}

template <typename T>
void uniform(const Tensor &t, Generator &gen, double from, double to) {
  // A double just below `to` may round up to it in float: keep the range half-open.
  const T below = from < to ? std::nextafter(static_cast<T>(to), static_cast<T>(from)) : static_cast<T>(to);
  drawEach<T>(t, gen, [&](THGenerator *g) {
    T x = static_cast<T>(THRandom_uniform(g, from, to));
    return x > below ? below : x;
  });
}
template <typename T>
void normal(const Tensor &t, Generator &gen, double mean, double std) {
  drawEach<T>(t, gen, [&](THGenerator *g) { return THRandom_normal(g, mean, std); });
}
template <typename T>
void exponential(const Tensor &t, Generator &gen, double lambd, double) {
  drawEach<T>(t, gen, [&](THGenerator *g) { return THRandom_exponential(g, lambd); });
}
template <typename T>
void cauchy(const Tensor &t, Generator &gen, double median, double sigma) {
  drawEach<T>(t, gen, [&](THGenerator *g) { return THRandom_cauchy(g, median, sigma); });
}
template <typename T>
void logNormal(const Tensor &t, Generator &gen, double mean, double std) {
  drawEach<T>(t, gen, [&](THGenerator *g) { return THRandom_logNormal(g, mean, std); });
}
template <typename T>
void geometric(const Tensor &t, Generator &gen, double q) {
  gen.with([&](THGenerator *g) { TH<T>::geometric(t.th<T>(), g, q); });
}
template <typename T>
void bernoulli(const Tensor &t, Generator &gen, double p) {
  drawEach<T>(t, gen, [&](THGenerator *g) { return THRandom_uniform(g, 0, 1) < p; });
}
template <typename T>
void bernoulliTensor(const Tensor &t, Generator &gen, const Tensor &probs) {
  gen.with([&](THGenerator *g) {
    th::applyInOrder([&](T &x, double &q) { x = static_cast<T>(THRandom_uniform(g, 0, 1) < q); }, th::ref(t.th<T>()),
                     th::ref(probs.th<double>()));
  });
}
template <typename T>
void random(const Tensor &t, Generator &gen, int64_t from, int64_t last) {
  // Values in [from, last]; the count fits in 64 bits unless it is the whole int64 range.
  const uint64_t count = static_cast<uint64_t>(last) - static_cast<uint64_t>(from) + 1;
  const bool wide = count == 0 || count > 0xffffffffULL;
  drawEach<T>(t, gen, [&](THGenerator *g) {
    uint64_t r = wide ? THRandom_random64(g) : static_cast<uint64_t>(THRandom_random(g));
    if (count != 0) r %= count;
    return static_cast<int64_t>(r + static_cast<uint64_t>(from));
  });
}
template <typename T>
void normalTensors(const Tensor &t, Generator &gen, const Tensor &means, const Tensor &stds) {
  gen.with([&](THGenerator *g) {
    th::applyInOrder([&](T &x, T &m, T &s) { x = static_cast<T>(m + s * THRandom_normal(g, 0, 1)); },
                     th::ref(t.th<T>()), th::ref(means.th<T>()), th::ref(stds.th<T>()));
  });
}

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

template <typename T>
void poisson(const Tensor &t, Generator &gen, const Tensor &rates) {
  gen.with([&](THGenerator *g) {
    th::applyInOrder([&](T &x, T &l) { x = static_cast<T>(poissonDraw(g, l)); }, th::ref(t.th<T>()),
                     th::ref(rates.th<T>()));
  });
}
template <typename T>
void randperm(const Tensor &t, Generator &gen, int64_t n) {
  gen.with([&](THGenerator *g) { TH<T>::randperm(t.th<T>(), g, n); });
}
template <typename T>
void multinomial(const Tensor &r, Generator &gen, const Tensor &weights, int64_t samples, bool replacement) {
  gen.with([&](THGenerator *g) {
    TH<T>::multinomial(r.th<int64_t>(), g, weights.th<T>(), static_cast<int>(samples), replacement ? 1 : 0);
  });
}

}  // namespace

void registerRandomKernels(RandomKernels &k) {
  fill(k.uniform, TORCH_TEMPLATE(uniform));
  fill(k.normal, TORCH_TEMPLATE(normal));
  fill(k.exponential, TORCH_TEMPLATE(exponential));
  fill(k.cauchy, TORCH_TEMPLATE(cauchy));
  fill(k.logNormal, TORCH_TEMPLATE(logNormal));
  fill(k.geometric, TORCH_TEMPLATE(geometric));
  fill(k.bernoulli, TORCH_TEMPLATE(bernoulli));
  fill(k.bernoulliTensor, TORCH_TEMPLATE(bernoulliTensor));
  fill(k.random, TORCH_TEMPLATE(random));
  fill(k.normalTensors, TORCH_TEMPLATE(normalTensors));
  fill(k.poisson, TORCH_TEMPLATE(poisson));
  fill(k.randperm, TORCH_TEMPLATE(randperm));
  fill(k.multinomial, TORCH_TEMPLATE(multinomial));
}

}  // namespace torch::cpu
