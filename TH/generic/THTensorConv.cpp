#ifndef TH_GENERIC_FILE
#error "include TH/THTensorConv.h instead"
#endif

/* One plane: out (od x oh x ow) += or = the correlation of x (xs[3]) with k (ks[3]); a 2-D
 * plane is one of depth 1. */
static void THTensor_(convPlane)(scalar_t *out, const scalar_t *x, const int64_t *xs, const scalar_t *k,
                                 const int64_t *ks, bool flip, bool full, bool accumulate) {
  int64_t os[3], off[3];
  for (int d = 0; d < 3; d++) {
    os[d] = full ? xs[d] + ks[d] - 1 : xs[d] - ks[d] + 1;
    off[d] = full ? ks[d] - 1 : 0;
  }
  // the kernel offsets a with 0 <= o - off + a < x's size
  auto lo = [&](int d, int64_t o) { return std::max<int64_t>(0, off[d] - o); };
  auto hi = [&](int d, int64_t o) { return std::min<int64_t>(ks[d], xs[d] + off[d] - o); };
  for (int64_t o0 = 0; o0 < os[0]; o0++)
    for (int64_t o1 = 0; o1 < os[1]; o1++)
      for (int64_t o2 = 0; o2 < os[2]; o2++) {
        accreal sum = 0;
        for (int64_t a = lo(0, o0); a < hi(0, o0); a++) {
          const int64_t ka = flip ? ks[0] - 1 - a : a;
          for (int64_t b = lo(1, o1); b < hi(1, o1); b++) {
            const int64_t kb = flip ? ks[1] - 1 - b : b;
            const scalar_t *xrow = x + ((o0 - off[0] + a) * xs[1] + (o1 - off[1] + b)) * xs[2] + (o2 - off[2]);
            const scalar_t *krow = k + (ka * ks[1] + kb) * ks[2];
            for (int64_t c = lo(2, o2); c < hi(2, o2); c++) sum += xrow[c] * krow[flip ? ks[2] - 1 - c : c];
          }
        }
        scalar_t &dst = out[(o0 * os[1] + o1) * os[2] + o2];
        dst = accumulate ? (scalar_t)(dst + sum) : (scalar_t)sum;
      }
}

void THTensor_(conv)(THTensor *r, THTensor *x, THTensor *k, int nd, int flip, char mode) {
  THArgCheck(nd == 2 || nd == 3, 4, "conv: 2 or 3 dimensions expected, got %d", nd);
  THArgCheck(mode == 'V' || mode == 'F', 6, "conv: mode 'V' or 'F' expected, got '%c'", mode);
  const int xdim = x->nDimension, kdim = k->nDimension;
  const bool single = xdim == nd && kdim == nd, planes = xdim == nd + 1 && kdim == nd + 1,
             sums = xdim == nd + 1 && kdim == nd + 2;
  THArgCheck(single || planes || sums, 3,
             "conv: a %dD input and kernel, %dD ones or a %dD kernel expected, got %dD and %dD", nd, nd + 1, nd + 2,
             xdim, kdim);
  const int64_t nIn = single ? 1 : x->size[0];
  if (planes)
    THArgCheck(k->size[0] == nIn, 3, "conv: %lld input planes and %lld kernels", (long long)nIn, (long long)k->size[0]);
  if (sums)
    THArgCheck(k->size[1] == nIn, 3, "conv: %lld input planes and kernels for %lld", (long long)nIn,
               (long long)k->size[1]);
  const bool full = mode == 'F';
  int64_t xs[3] = {1, 1, 1}, ks[3] = {1, 1, 1}, os[3];
  for (int d = 0; d < nd; d++) {
    xs[3 - nd + d] = x->size[xdim - nd + d];
    ks[3 - nd + d] = k->size[kdim - nd + d];
  }
  for (int d = 0; d < 3; d++) {
    THArgCheck(full || xs[d] >= ks[d], 2, "conv: the input (%lld) is smaller than the kernel (%lld) in 'V' mode",
               (long long)xs[d], (long long)ks[d]);
    os[d] = full ? xs[d] + ks[d] - 1 : xs[d] - ks[d] + 1;
  }
  const int64_t nOut = single ? 1 : planes ? nIn : k->size[0];
  th::Owned<THTensor> xc(THTensor_(newContiguous)(x)), kc(THTensor_(newContiguous)(k));
  std::vector<int64_t> sizes;
  if (!single) sizes.push_back(nOut);
  for (int d = 3 - nd; d < 3; d++) sizes.push_back(os[d]);
  th::Owned<THTensor> out(THTensor_(newWithSize)((int)sizes.size(), sizes.data(), nullptr));
  const int64_t xPlane = xs[0] * xs[1] * xs[2], kPlane = ks[0] * ks[1] * ks[2], oPlane = os[0] * os[1] * os[2];
  const scalar_t *xd = THTensor_(data)(xc.get()), *kd = THTensor_(data)(kc.get());
  scalar_t *od = THTensor_(data)(out.get());
  for (int64_t o = 0; o < nOut; o++) {
    if (sums) {
      for (int64_t i = 0; i < nIn; i++)
        THTensor_(convPlane)(od + o * oPlane, xd + i * xPlane, xs, kd + (o * nIn + i) * kPlane, ks, flip, full, i > 0);
    } else {
      THTensor_(convPlane)(od + o * oPlane, xd + o * xPlane, xs, kd + o * kPlane, ks, flip, full, false);
    }
  }
  THTensor_(resizeNd)(r, (int)sizes.size(), sizes.data(), nullptr);
  THTensor_(copy)(r, out.get());
}
