#ifndef TH_GENERIC_FILE
#error "compile TH/indexed/THTensorRandomIndex.cpp instead"
#endif

void THTensor_(randperm)(THTensor *self, THGenerator *gen, int64_t n) {
  THArgCheck(n >= 0, 3, "randperm: n must be >= 0, got %lld", (long long)n);
  // The largest value must be exact in the element type.
  double largest = (double)std::numeric_limits<scalar_t>::max();
  if constexpr (TH_REAL_IS_FLOATING) largest = std::ldexp(1.0, std::numeric_limits<scalar_t>::digits);
  THArgCheck((double)(n - 1 + TH_INDEX_BASE) <= largest, 3, "randperm: n = %lld is too large for %s", (long long)n,
             th::TH<scalar_t>::name);
  THTensor_(resize1d)(self, n);
  scalar_t *data = THTensor_(data)(self);
  const int64_t stride = self->stride[0];
  for (int64_t i = 0; i < n; i++) data[i * stride] = (scalar_t)(i + TH_INDEX_BASE);
  for (int64_t i = 0; i + 1 < n; i++) {
    const uint64_t span = (uint64_t)(n - i);
    // torch7 draws 32 bits; 64 only where the span needs them.
    const uint64_t r = span > 0xffffffffULL ? THRandom_random64(gen) : (uint64_t)THRandom_random(gen);
    const int64_t z = i + (int64_t)(r % span);
    scalar_t saved = data[i * stride];
    data[i * stride] = data[z * stride];
    data[z * stride] = saved;
  }
}

#if TH_REAL_IS_FLOATING

void THTensor_(multinomial)(THLongTensor *self, THGenerator *gen, THTensor *prob_dist, int n_sample,
                            int with_replacement) {
  THArgCheck(self != nullptr, 1, "multinomial: result tensor is NULL");
  THArgCheck(prob_dist != nullptr, 3, "multinomial: prob_dist is NULL");
  const int nd = prob_dist->nDimension;
  THArgCheck(nd == 1 || nd == 2, 3, "multinomial: prob_dist must be 1-D or 2-D, got %d dimensions", nd);
  const int64_t nDist = nd == 1 ? 1 : prob_dist->size[0];
  const int64_t nCat = prob_dist->size[nd - 1];
  THArgCheck(nCat > 0, 3, "multinomial: prob_dist %s has no categories", THTensor_(sizeDesc)(prob_dist));
  THArgCheck(n_sample > 0, 4, "multinomial: n_sample must be positive, got %d", n_sample);
  THArgCheck(with_replacement || n_sample <= nCat, 4,
             "multinomial: cannot sample n_sample = %d > %lld categories without replacement", n_sample,
             (long long)nCat);
  const scalar_t *probs = THTensor_(data)(prob_dist);
  const int64_t rowStride = nd == 1 ? 0 : prob_dist->stride[0];
  const int64_t catStride = prob_dist->stride[nd - 1];
  auto prob = [&](int64_t i, int64_t j) { return (double)probs[i * rowStride + j * catStride]; };

  for (int64_t i = 0; i < nDist; i++) {
    double sum = 0;
    int64_t nonzero = 0;
    for (int64_t j = 0; j < nCat; j++) {
      const double p = prob(i, j);
      THArgCheck(p >= 0 && std::isfinite(p), 3,
                 "multinomial: invalid distribution %lld: probability %g of category %lld (must be finite and >= 0)",
                 (long long)i, p, (long long)(j + TH_INDEX_BASE));
      sum += p;
      nonzero += p > 0;
    }
    THArgCheck(sum > 0 && std::isfinite(sum), 3, "multinomial: invalid distribution %lld: probabilities sum to %g",
               (long long)i, sum);
    THArgCheck(with_replacement || nonzero >= n_sample, 4,
               "multinomial: cannot sample %d categories without replacement from distribution %lld, which has "
               "only %lld of nonzero probability",
               n_sample, (long long)i, (long long)nonzero);
  }

  if (nd == 1)
    THLongTensor_resize1d(self, n_sample);
  else
    THLongTensor_resize2d(self, nDist, n_sample);
  int64_t *out = THLongTensor_data(self);
  const int64_t outRowStride = nd == 1 ? 0 : self->stride[0];
  const int64_t outStride = self->stride[nd - 1];

  std::vector<double> remaining(nCat), cum(nCat);
  for (int64_t i = 0; i < nDist; i++) {
    for (int64_t j = 0; j < nCat; j++) remaining[j] = prob(i, j);
    for (int s = 0; s < n_sample; s++) {
      // Without replacement the cumulative distribution is rebuilt from the remaining
      // probabilities (torch7 updates it in place): a drawn category keeps exactly zero
      // mass, and the last bucket is exactly 1.
      if (s == 0 || !with_replacement) {
        double acc = 0;
        for (int64_t j = 0; j < nCat; j++) cum[j] = acc += remaining[j];
        for (int64_t j = 0; j < nCat; j++) cum[j] /= acc;
      }
      const double u = THRandom_uniform(gen, 0, 1);
      int64_t left = 0, right = nCat;  // first bucket with cum >= u
      while (left < right) {
        const int64_t mid = left + (right - left) / 2;
        if (cum[mid] < u)
          left = mid + 1;
        else
          right = mid;
      }
      // Only u == 0 can land on leading categories of zero probability.
      while (remaining[left] == 0) left++;
      out[i * outRowStride + s * outStride] = left + TH_INDEX_BASE;
      if (!with_replacement) remaining[left] = 0;
    }
  }
}

void THTensor_(multinomialAliasSetup)(THTensor *probs, THLongTensor *J, THTensor *q) {
  THArgCheck(probs->nDimension == 1, 1, "multinomialAliasSetup: probs must be 1-D, got %d dimensions",
             probs->nDimension);
  const int64_t n = probs->size[0];
  THArgCheck(n > 0, 1, "multinomialAliasSetup: probs has no categories");
  double total = 0;
  for (int64_t i = 0; i < n; i++) {
    const double p = (double)THTensor_(get1d)(probs, i);
    THArgCheck(std::isfinite(p) && p >= 0, 1, "multinomialAliasSetup: probability %g of category %lld is invalid", p,
               (long long)i);
    total += p;
  }
  THArgCheck(total > 0, 1, "multinomialAliasSetup: the probabilities sum to 0");
  std::vector<double> scaled(n);
  std::vector<int64_t> alias(n), small, large;
  for (int64_t i = 0; i < n; i++) {
    scaled[i] = (double)THTensor_(get1d)(probs, i) * n / total;
    alias[i] = i;
    (scaled[i] < 1 ? small : large).push_back(i);
  }
  while (!small.empty() && !large.empty()) {
    const int64_t s = small.back(), l = large.back();
    small.pop_back();
    alias[s] = l;
    scaled[l] -= 1 - scaled[s];
    if (scaled[l] < 1) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // what is left is 1 up to rounding
  for (int64_t i : small) scaled[i] = 1;
  for (int64_t i : large) scaled[i] = 1;
  THLongTensor_resize1d(J, n);
  THTensor_(resize1d)(q, n);
  for (int64_t i = 0; i < n; i++) {
    THLongTensor_set1d(J, i, alias[i] + TH_INDEX_BASE);
    THTensor_(set1d)(q, i, (scalar_t)scaled[i]);
  }
}

void THTensor_(multinomialAliasDraw)(THLongTensor *self, THGenerator *gen, THLongTensor *J, THTensor *q) {
  THArgCheck(q->nDimension == 1 && q->size[0] > 0, 4, "multinomialAliasDraw: q must be a non-empty vector");
  THArgCheck(J->nDimension == 1 && J->size[0] == q->size[0], 3,
             "multinomialAliasDraw: J and q must have as many elements");
  const int64_t n = q->size[0];
  auto Jc = th::own(THLongTensor_newContiguous(J));
  auto qc = th::own(THTensor_(newContiguous)(q));
  const int64_t *alias = THLongTensor_data(Jc.get());
  const scalar_t *keep = THTensor_(data)(qc.get());
  th::applyInOrder(
      [&](int64_t &x) {
        const int64_t i = std::min<int64_t>((int64_t)(THRandom_uniform(gen, 0, 1) * n), n - 1);
        x = THRandom_uniform(gen, 0, 1) < (double)keep[i] ? i + TH_INDEX_BASE : alias[i];
      },
      th::ref(self));
}

#endif
