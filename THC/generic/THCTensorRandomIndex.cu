#ifndef THC_GENERIC_FILE
#error "compile THC/indexed/THCTensorRandomIndex.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)

void THCTensor_(randperm)(THCState *state, THCTensor *self, int64_t n) {
  THArgCheck(n >= 0, 3, "randperm: n must be >= 0, got %lld", (long long)n);
  // The largest value must be exact in the element type.
#if TH_REAL_IS_FLOATING
  const double largest = std::ldexp(1.0, std::numeric_limits<scalar_t>::digits);
#else
  const double largest = (double)std::numeric_limits<scalar_t>::max();
#endif
  THArgCheck((double)(n - 1 + TH_INDEX_BASE) <= largest, 3, "randperm: n = %lld is too large for %s", (long long)n,
             th::TH<scalar_t>::name);
  thc::DeviceGuard guard(thc::device(self));
  THCTensor_(resize1d)(state, self, n);
  thc::fillPermutation(state, self);
}

#if TH_REAL_IS_FLOATING

void THCTensor_(multinomial)(THCState *state, THCudaLongTensor *self, THCTensor *prob_dist, int n_sample,
                             int with_replacement) {
  THArgCheck(self != nullptr, 2, "multinomial: result tensor is NULL");
  THArgCheck(prob_dist != nullptr, 3, "multinomial: prob_dist is NULL");
  const int nd = prob_dist->nDimension;
  THArgCheck(nd == 1 || nd == 2, 3, "multinomial: prob_dist must be 1-D or 2-D, got %d dimensions", nd);
  const int64_t nDist = nd == 1 ? 1 : prob_dist->size[0];
  const int64_t nCat = prob_dist->size[nd - 1];
  THArgCheck(nCat > 0, 3, "multinomial: prob_dist %s has no categories", thc::shapeOf(prob_dist).c_str());
  THArgCheck(nCat <= INT_MAX, 3, "multinomial: prob_dist %s has more than %d categories",
             thc::shapeOf(prob_dist).c_str(), INT_MAX);
  THArgCheck(n_sample > 0, 4, "multinomial: n_sample must be positive, got %d", n_sample);
  THArgCheck(with_replacement || n_sample <= nCat, 4,
             "multinomial: cannot sample n_sample = %d > %lld categories without replacement", n_sample,
             (long long)nCat);

  thc::DeviceGuard guard(thc::commonDevice("multinomial", self, prob_dist));
  cudaStream_t stream = THCState_getCurrentStream(state);
  const auto dist = thc::distributionsOf(prob_dist);
  thc::DeviceBuffer cum(with_replacement ? nDist * nCat * sizeof(double) : 0, stream);
  thc::DeviceBuffer stats(nDist * sizeof(thc::RowStats), stream);
  std::vector<thc::RowStats> rows;
  if (nDist > 0) rows = thc::statsOf(dist, cum.as<double>(), stats.as<thc::RowStats>(), stream);
  for (int64_t i = 0; i < nDist; i++) {
    const thc::RowStats &r = rows[i];
    if (r.firstInvalid < nCat) {
      const double p = nd == 1 ? (double)THCTensor_(get1d)(state, prob_dist, r.firstInvalid)
                               : (double)THCTensor_(get2d)(state, prob_dist, i, r.firstInvalid);
      THArgCheck(false, 3,
                 "multinomial: invalid distribution %lld: probability %g of category %lld (must be finite and >= 0)",
                 (long long)i, p, (long long)(r.firstInvalid + TH_INDEX_BASE));
    }
    THArgCheck(r.total > 0 && std::isfinite(r.total), 3,
               "multinomial: invalid distribution %lld: probabilities sum to %g", (long long)i, r.total);
    THArgCheck(with_replacement || r.nonzero >= n_sample, 4,
               "multinomial: cannot sample %d categories without replacement from distribution %lld, which has "
               "only %lld of nonzero probability",
               n_sample, (long long)i, (long long)r.nonzero);
  }

  if (nd == 1)
    THCudaLongTensor_resize1d(state, self, n_sample);
  else
    THCudaLongTensor_resize2d(state, self, nDist, n_sample);
  if (nDist == 0) return;
  const thc::Samples out{self->storage->data + self->storageOffset, nd == 1 ? 0 : self->stride[0], self->stride[nd - 1],
                         n_sample};
  if (with_replacement)
    thc::sampleWith(state, dist, cum.as<double>(), stats.as<thc::RowStats>(), out, stream);
  else
    thc::sampleWithout(state, dist, out, stream);
}

#endif
#endif
