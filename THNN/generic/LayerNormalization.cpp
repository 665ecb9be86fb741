#ifndef TH_GENERIC_FILE
#error "compile THNN/Linear.cpp instead"
#endif

/* ---- LayerNormalization -------------------------------------------------------------
 * input is walked as [rows, D] with D = normalized; each row is normalised on its own, so
 * rows are spread over threads, and a row's statistics are two passes (its sum, through
 * Note [Vector kernels], then its squared deviations from the mean) over memory the cache
 * still holds. */

// The rows of input; input (and weight, bias where given) contiguous, D elements a row.
static int64_t THNN_(LayerNormalization_rows)(const char *fn, THTensor *input, int64_t normalized, THTensor *weight,
                                              THTensor *bias) {
  const int64_t n = linear::numel(input);
  THArgCheck(normalized > 0 && n % normalized == 0, 2,
             "%s: input of sizes %s does not hold rows of %lld normalized elements", fn, shape(input).c_str(),
             (long long)normalized);
  THArgCheck(THTensor_(isContiguous)(input), 2, "%s: input must be contiguous", fn);
  for (THTensor *t : {weight, bias})
    THArgCheck(!t || (linear::numel(t) == normalized && THTensor_(isContiguous)(t)), t == weight ? 4 : 5,
               "%s: %s must be contiguous with %lld elements, got %s", fn, t == weight ? "weight" : "bias",
               (long long)normalized, shape(t).c_str());
  return n / normalized;
}

void THNN_(LayerNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                            THTensor *bias, THTensor *save_mean, THTensor *save_invstd,
                                            int64_t normalized, double eps) {
  const char *fn = "LayerNormalization_updateOutput";
  const int64_t rows = THNN_(LayerNormalization_rows)(fn, input, normalized, weight, bias);
  const int64_t D = normalized;
  THTensor_(resizeAs)(output, input);
  THArgCheck(THTensor_(isContiguous)(output), 3, "%s: output must be contiguous", fn);
  THTensor_(resize1d)(save_mean, rows);
  THTensor_(resize1d)(save_invstd, rows);
  const scalar_t *x = THTensor_(data)(input), *w = weight ? THTensor_(data)(weight) : nullptr,
                 *b = bias ? THTensor_(data)(bias) : nullptr;
  scalar_t *y = THTensor_(data)(output), *means = THTensor_(data)(save_mean), *invstds = THTensor_(data)(save_invstd);
  const auto sum = th::vec::sum<scalar_t>();
  th::detail::parallelFor(rows, TH_OMP_THRESHOLD / D, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; r++) {
      const scalar_t *xr = x + r * D;
      scalar_t *yr = y + r * D;
      accreal total = 0, deviations = 0;
      if (sum) {
        total = sum(xr, D);
      } else {
        for (int64_t i = 0; i < D; i++) total += xr[i];
      }
      const accreal mean = total / D;
      {
        // four accumulators, so that consecutive additions do not wait on each other
        accreal lane[4] = {0, 0, 0, 0};
        int64_t i = 0;
        for (; i + 4 <= D; i += 4)
          for (int k = 0; k < 4; k++) lane[k] += (xr[i + k] - mean) * (xr[i + k] - mean);
        for (; i < D; i++) lane[0] += (xr[i] - mean) * (xr[i] - mean);
        deviations = (lane[0] + lane[1]) + (lane[2] + lane[3]);
      }
      const accreal invstd = 1 / std::sqrt(deviations / D + eps);
      means[r] = (scalar_t)mean;
      invstds[r] = (scalar_t)invstd;
      const scalar_t m = (scalar_t)mean, s = (scalar_t)invstd;
      for (int64_t i = 0; i < D; i++) yr[i] = (xr[i] - m) * s * (w ? w[i] : 1) + (b ? b[i] : 0);
    }
  });
}

void THNN_(LayerNormalization_backward)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                        THTensor *gradWeight, THTensor *gradBias, THTensor *weight, THTensor *save_mean,
                                        THTensor *save_invstd, int64_t normalized, double scale) {
  const char *fn = "LayerNormalization_backward";
  const int64_t rows = THNN_(LayerNormalization_rows)(fn, input, normalized, weight, nullptr);
  const int64_t D = normalized;
  THArgCheck(THTensor_(isContiguous)(gradOutput) && linear::numel(gradOutput) == rows * D, 3,
             "%s: gradOutput must be contiguous with the sizes of input %s, got %s", fn, shape(input).c_str(),
             shape(gradOutput).c_str());
  for (THTensor *t : {save_mean, save_invstd})
    THArgCheck(THTensor_(isContiguous)(t) && linear::numel(t) == rows, t == save_mean ? 8 : 9,
               "%s: the saved statistics must hold %lld rows, got %s", fn, (long long)rows, shape(t).c_str());
  for (THTensor *t : {gradWeight, gradBias})
    THArgCheck(!t || (THTensor_(isContiguous)(t) && linear::numel(t) == D), t == gradWeight ? 5 : 6,
               "%s: %s must be contiguous with %lld elements, got %s", fn, t == gradWeight ? "gradWeight" : "gradBias",
               (long long)D, shape(t).c_str());
  const scalar_t *x = THTensor_(data)(input), *g = THTensor_(data)(gradOutput),
                 *w = weight ? THTensor_(data)(weight) : nullptr, *means = THTensor_(data)(save_mean),
                 *invstds = THTensor_(data)(save_invstd);
  if (gradInput) {
    // dx = invstd (dy w - mean(dy w) - xhat mean(dy w xhat)), xhat = (x - mean) invstd
    THTensor_(resizeAs)(gradInput, input);
    THArgCheck(THTensor_(isContiguous)(gradInput), 4, "%s: gradInput must be contiguous", fn);
    scalar_t *gi = THTensor_(data)(gradInput);
    th::detail::parallelFor(rows, TH_OMP_THRESHOLD / D, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; r++) {
        const scalar_t *xr = x + r * D, *gr = g + r * D;
        const scalar_t m = means[r], s = invstds[r];
        accreal a = 0, c = 0;
        for (int64_t i = 0; i < D; i++) {
          const accreal gw = (accreal)gr[i] * (w ? w[i] : 1);
          a += gw;
          c += gw * (xr[i] - m) * s;
        }
        const scalar_t meanA = (scalar_t)(a / D), meanC = (scalar_t)(c / D);
        scalar_t *gir = gi + r * D;  // may be gr: each element is read before it is written
        for (int64_t i = 0; i < D; i++) gir[i] = s * (gr[i] * (w ? w[i] : 1) - meanA - (xr[i] - m) * s * meanC);
      }
    });
  }
  if (gradWeight || gradBias) {
    // columns spread over threads: each column's sums are its own
    scalar_t *gw = gradWeight ? THTensor_(data)(gradWeight) : nullptr;
    scalar_t *gb = gradBias ? THTensor_(data)(gradBias) : nullptr;
    th::detail::parallelFor(D, TH_OMP_THRESHOLD / std::max<int64_t>(rows, 1), [&](int64_t begin, int64_t end) {
      std::vector<accreal> sumW(end - begin, 0), sumB(end - begin, 0);
      for (int64_t r = 0; r < rows; r++) {
        const scalar_t *xr = x + r * D, *gr = g + r * D;
        const scalar_t m = means[r], s = invstds[r];
        for (int64_t i = begin; i < end; i++) {
          sumW[i - begin] += (accreal)gr[i] * (xr[i] - m) * s;
          sumB[i - begin] += gr[i];
        }
      }
      for (int64_t i = begin; i < end; i++) {
        if (gw) gw[i] += (scalar_t)(scale * sumW[i - begin]);
        if (gb) gb[i] += (scalar_t)(scale * sumB[i - begin]);
      }
    });
  }
}
