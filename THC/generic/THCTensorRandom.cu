#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorRandom.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)

void THCTensor_(random)(THCState *state, THCTensor *self) {
  // TH's modulus per type; 2^mantissa + 1 for floats.
#if TH_REAL_IS_FLOATING
  const uint64_t modulus = (uint64_t(1) << std::numeric_limits<scalar_t>::digits) + 1;
#else
  const uint64_t modulus = uint64_t(std::numeric_limits<scalar_t>::max()) + 1;
#endif
  thc::randomFill<thc::Bits32>(state, "random", thc::RandomOp<scalar_t>{modulus}, self);
}

void THCTensor_(clampedRandom)(THCState *state, THCTensor *self, int64_t min, int64_t max) {
  THArgCheck(max > min, 4, "random: max (%lld) must be greater than min (%lld)", (long long)max, (long long)min);
#if TH_REAL_IS_INTEGRAL
  THArgCheck(min >= (int64_t)std::numeric_limits<scalar_t>::lowest() &&
                 max - 1 <= (int64_t)std::numeric_limits<scalar_t>::max(),
             3, "random: range [%lld, %lld) does not fit in %s", (long long)min, (long long)max,
             th::TH<scalar_t>::name);
#endif
  const uint64_t range = (uint64_t)max - (uint64_t)min;
  const thc::ClampedRandomOp<scalar_t> op{range, min};
  if (range > 0xffffffffULL)
    thc::randomFill<thc::Bits64>(state, "random", op, self);
  else
    thc::randomFill<thc::Bits32>(state, "random", op, self);
}

void THCTensor_(cappedRandom)(THCState *state, THCTensor *self, int64_t max) {
  THArgCheck(max > 0, 3, "random: max must be positive, got %lld", (long long)max);
  THCTensor_(clampedRandom)(state, self, 0, max);
}

void THCTensor_(geometric)(THCState *state, THCTensor *self, double p) {
  THArgCheck(p > 0 && p < 1, 3, "geometric: p must be > 0 and < 1, got %g", p);
  thc::randomFill<thc::Uniform32>(state, "geometric", thc::GeometricOp<scalar_t>{std::log(p)}, self);
}

void THCTensor_(bernoulli)(THCState *state, THCTensor *self, double p) {
  THArgCheck(p >= 0 && p <= 1, 3, "bernoulli: p must be >= 0 and <= 1, got %g", p);
  thc::randomFill<thc::Uniform32>(state, "bernoulli", thc::BernoulliOp<scalar_t>{p}, self);
}

void THCTensor_(bernoulli_FloatTensor)(THCState *state, THCTensor *self, THCudaTensor *p) {
  thc::checkProbabilities(state, self, p, 3);
  thc::randomFill<thc::Uniform32>(state, "bernoulli", thc::BernoulliTensorOp<scalar_t>{}, self, p);
}

void THCTensor_(bernoulli_DoubleTensor)(THCState *state, THCTensor *self, THCudaDoubleTensor *p) {
  thc::checkProbabilities(state, self, p, 3);
  thc::randomFill<thc::Uniform32>(state, "bernoulli", thc::BernoulliTensorOp<scalar_t>{}, self, p);
}

#if TH_REAL_IS_FLOATING

void THCTensor_(bernoulli_Tensor)(THCState *state, THCTensor *self, THCTensor *p) {
  thc::checkProbabilities(state, self, p, 3);
  thc::randomFill<thc::Uniform32>(state, "bernoulli", thc::BernoulliTensorOp<scalar_t>{}, self, p);
}

void THCTensor_(uniform)(THCState *state, THCTensor *self, double a, double b) {
  THArgCheck(a <= b, 4, "uniform: lower bound %g must not exceed upper bound %g", a, b);
  thc::randomFill<thc::UniformDraw<scalar_t>>(state, "uniform", thc::UniformOp<scalar_t>{a, b}, self);
}

void THCTensor_(normal)(THCState *state, THCTensor *self, double mean, double stdv) {
  THArgCheck(stdv > 0, 4, "normal: standard deviation must be strictly positive, got %g", stdv);
  thc::randomFill<thc::NormalDraw<scalar_t>>(state, "normal", thc::NormalOp<scalar_t>{mean, stdv}, self);
}

void THCTensor_(normal_means)(THCState *state, THCTensor *self, THCTensor *means, double stddev) {
  THArgCheck(means != nullptr, 3, "normal: means tensor is NULL");
  THArgCheck(stddev > 0, 4, "normal: standard deviation must be strictly positive, got %g", stddev);
  thc::DeviceGuard guard(thc::commonDevice("normal", self, means));
  THCTensor_(resizeAs)(state, self, means);
  thc::randomFill<thc::NormalDraw<scalar_t>>(state, "normal", thc::NormalMeansOp<scalar_t>{stddev}, self, means);
}

void THCTensor_(normal_stddevs)(THCState *state, THCTensor *self, double mean, THCTensor *stddevs) {
  thc::checkStddevs(state, stddevs, 4);
  thc::DeviceGuard guard(thc::commonDevice("normal", self, stddevs));
  THCTensor_(resizeAs)(state, self, stddevs);
  thc::randomFill<thc::NormalDraw<scalar_t>>(state, "normal", thc::NormalStddevsOp<scalar_t>{mean}, self, stddevs);
}

void THCTensor_(normal_means_stddevs)(THCState *state, THCTensor *self, THCTensor *means, THCTensor *stddevs) {
  THArgCheck(means != nullptr, 3, "normal: means tensor is NULL");
  thc::checkStddevs(state, stddevs, 4);
  const int64_t nm = thc::numel(means), ns = thc::numel(stddevs);
  THArgCheck(nm == ns, 4, "normal: %lld means (sizes %s) but %lld standard deviations", (long long)nm,
             thc::shapeOf(means).c_str(), (long long)ns);
  thc::DeviceGuard guard(thc::commonDevice("normal", self, means, stddevs));
  THCTensor_(resizeAs)(state, self, means);
  thc::randomFill<thc::NormalDraw<scalar_t>>(state, "normal", thc::NormalMeansStddevsOp<scalar_t>{}, self, means,
                                             stddevs);
}

void THCTensor_(exponential)(THCState *state, THCTensor *self, double lambda) {
  THArgCheck(lambda > 0, 3, "exponential: lambda must be strictly positive, got %g", lambda);
  thc::randomFill<thc::UniformDraw<scalar_t>>(state, "exponential", thc::ExponentialOp<scalar_t>{lambda}, self);
}

void THCTensor_(cauchy)(THCState *state, THCTensor *self, double median, double sigma) {
  THArgCheck(sigma > 0, 4, "cauchy: sigma must be strictly positive, got %g", sigma);
  thc::randomFill<thc::UniformDraw<scalar_t>>(state, "cauchy", thc::CauchyOp<scalar_t>{median, sigma}, self);
}

void THCTensor_(logNormal)(THCState *state, THCTensor *self, double mean, double stdv) {
  THArgCheck(stdv > 0, 4, "logNormal: standard deviation must be strictly positive, got %g", stdv);
  thc::randomFill<thc::NormalDraw<scalar_t>>(state, "logNormal", thc::LogNormalOp<scalar_t>{mean, stdv}, self);
}

void THCTensor_(rand)(THCState *state, THCTensor *r, int nDimension, const int64_t *size) {
  THCTensor_(resizeNd)(state, r, nDimension, size, nullptr);
  THCTensor_(uniform)(state, r, 0, 1);
}

void THCTensor_(randn)(THCState *state, THCTensor *r, int nDimension, const int64_t *size) {
  THCTensor_(resizeNd)(state, r, nDimension, size, nullptr);
  THCTensor_(normal)(state, r, 0, 1);
}

#endif
#endif
