#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorRandom.cpp instead"
#endif

void THTensor_(random)(THTensor *self, THGenerator *gen) {
  // torch7's modulus per type; 2^mantissa + 1 for floats.
  uint64_t modulus;
  if constexpr (TH_REAL_IS_FLOATING)
    modulus = (uint64_t(1) << std::numeric_limits<scalar_t>::digits) + 1;
  else
    modulus = uint64_t(std::numeric_limits<scalar_t>::max()) + 1;
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)(THRandom_random(gen) % modulus); }, th::ref(self));
}

void THTensor_(clampedRandom)(THTensor *self, THGenerator *gen, int64_t min, int64_t max) {
  THArgCheck(max > min, 4, "random: max (%lld) must be greater than min (%lld)", (long long)max, (long long)min);
  if constexpr (TH_REAL_IS_INTEGRAL) {
    THArgCheck(min >= (int64_t)std::numeric_limits<scalar_t>::lowest() &&
                   max - 1 <= (int64_t)std::numeric_limits<scalar_t>::max(),
               3, "random: range [%lld, %lld) does not fit in %s", (long long)min, (long long)max,
               th::TH<scalar_t>::name);
  }
  const uint64_t range = (uint64_t)max - (uint64_t)min;
  const bool wide = range > 0xffffffffULL;
  th::applyInOrder(
      [&](scalar_t &x) {
        uint64_t r = wide ? THRandom_random64(gen) : (uint64_t)THRandom_random(gen);
        x = (scalar_t)(int64_t)(r % range + (uint64_t)min);
      },
      th::ref(self));
}

void THTensor_(cappedRandom)(THTensor *self, THGenerator *gen, int64_t max) {
  THArgCheck(max > 0, 3, "random: max must be positive, got %lld", (long long)max);
  THTensor_(clampedRandom)(self, gen, 0, max);
}

void THTensor_(geometric)(THTensor *self, THGenerator *gen, double p) {
  THArgCheck(p > 0 && p < 1, 3, "geometric: p must be > 0 and < 1, got %g", p);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_geometric(gen, p); }, th::ref(self));
}

void THTensor_(bernoulli)(THTensor *self, THGenerator *gen, double p) {
  THArgCheck(p >= 0 && p <= 1, 3, "bernoulli: p must be >= 0 and <= 1, got %g", p);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_bernoulli(gen, p); }, th::ref(self));
}

void THTensor_(bernoulli_FloatTensor)(THTensor *self, THGenerator *gen, THFloatTensor *p) {
  bernoulliTensor(self, gen, p);
}

void THTensor_(bernoulli_DoubleTensor)(THTensor *self, THGenerator *gen, THDoubleTensor *p) {
  bernoulliTensor(self, gen, p);
}

#if TH_REAL_IS_FLOATING

void THTensor_(bernoulli_Tensor)(THTensor *self, THGenerator *gen, THTensor *p) { bernoulliTensor(self, gen, p); }

void THTensor_(uniform)(THTensor *self, THGenerator *gen, double a, double b) {
  THArgCheck(a <= b, 4, "uniform: lower bound %g must not exceed upper bound %g", a, b);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_uniform(gen, a, b); }, th::ref(self));
}

void THTensor_(normal)(THTensor *self, THGenerator *gen, double mean, double stdv) {
  THArgCheck(stdv > 0, 4, "normal: standard deviation must be strictly positive, got %g", stdv);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_normal(gen, mean, stdv); }, th::ref(self));
}

static void THTensor_(checkStddevs)(THTensor *stddevs, int argNumber) {
  THArgCheck(stddevs != nullptr, argNumber, "normal: stddevs tensor is NULL");
  bool ok = th::reduceAll(
      th::ref(stddevs), true, [](bool acc, scalar_t &s) { return acc && s > 0; },
      [](bool a, bool b) { return a && b; });
  THArgCheck(ok, argNumber, "normal: every standard deviation must be strictly positive");
}

void THTensor_(normal_means)(THTensor *self, THGenerator *gen, THTensor *means, double stddev) {
  THArgCheck(means != nullptr, 3, "normal: means tensor is NULL");
  THArgCheck(stddev > 0, 4, "normal: standard deviation must be strictly positive, got %g", stddev);
  THTensor_(resizeAs)(self, means);
  th::applyInOrder([&](scalar_t &x, scalar_t &m) { x = (scalar_t)THRandom_normal(gen, (double)m, stddev); },
                   th::ref(self), th::ref(means));
}

void THTensor_(normal_stddevs)(THTensor *self, THGenerator *gen, double mean, THTensor *stddevs) {
  THTensor_(checkStddevs)(stddevs, 4);
  THTensor_(resizeAs)(self, stddevs);
  th::applyInOrder([&](scalar_t &x, scalar_t &s) { x = (scalar_t)THRandom_normal(gen, mean, (double)s); },
                   th::ref(self), th::ref(stddevs));
}

void THTensor_(normal_means_stddevs)(THTensor *self, THGenerator *gen, THTensor *means, THTensor *stddevs) {
  THArgCheck(means != nullptr, 3, "normal: means tensor is NULL");
  THTensor_(checkStddevs)(stddevs, 4);
  const ptrdiff_t nm = THTensor_(nElement)(means), ns = THTensor_(nElement)(stddevs);
  THArgCheck(nm == ns, 4, "normal: %td means (sizes %s) but %td standard deviations", nm, THTensor_(sizeDesc)(means),
             ns);
  THTensor_(resizeAs)(self, means);
  th::applyInOrder(
      [&](scalar_t &x, scalar_t &m, scalar_t &s) { x = (scalar_t)THRandom_normal(gen, (double)m, (double)s); },
      th::ref(self), th::ref(means), th::ref(stddevs));
}

void THTensor_(exponential)(THTensor *self, THGenerator *gen, double lambda) {
  THArgCheck(lambda > 0, 3, "exponential: lambda must be strictly positive, got %g", lambda);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_exponential(gen, lambda); }, th::ref(self));
}

void THTensor_(cauchy)(THTensor *self, THGenerator *gen, double median, double sigma) {
  THArgCheck(sigma > 0, 4, "cauchy: sigma must be strictly positive, got %g", sigma);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_cauchy(gen, median, sigma); }, th::ref(self));
}

void THTensor_(logNormal)(THTensor *self, THGenerator *gen, double mean, double stdv) {
  THArgCheck(stdv > 0, 4, "logNormal: standard deviation must be strictly positive, got %g", stdv);
  th::applyInOrder([&](scalar_t &x) { x = (scalar_t)THRandom_logNormal(gen, mean, stdv); }, th::ref(self));
}

void THTensor_(rand)(THTensor *r, THGenerator *gen, int nDimension, const int64_t *size) {
  THTensor_(resizeNd)(r, nDimension, size, nullptr);
  THTensor_(uniform)(r, gen, 0, 1);
}

void THTensor_(randn)(THTensor *r, THGenerator *gen, int nDimension, const int64_t *size) {
  THTensor_(resizeNd)(r, nDimension, size, nullptr);
  THTensor_(normal)(r, gen, 0, 1);
}

#endif
