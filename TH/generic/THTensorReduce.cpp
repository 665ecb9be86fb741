#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorReduce.cpp instead"
#endif

/* ---- Shared pieces ---- */

/* sizeDesc's buffer is reused by the next call: a copy lets one message name two tensors. */
static std::string THTensor_(sizes)(const THTensor *t) { return THTensor_(sizeDesc)(t); }

/* A 0-dim tensor counts as one dimension of size 1, as in PyTorch. */
static void THTensor_(checkDim)(const THTensor *t, int dim, int argNumber, const char *op) {
  const int n = t->nDimension > 0 ? t->nDimension : 1;
  if (dim < 0 || dim >= n)
    THIndexError("%s: dimension %d (argument %d) is out of range for a tensor of sizes %s (expected 0 to %d)", op, dim,
                 argNumber, THTensor_(sizes)(t).c_str(), n - 1);
}

/* Where an op writes its result: r, or a temporary that tmp owns when r shares storage
 * with an input, so the inputs are read intact; finishOutput then copies it into r.
 * inPlace: r being exactly the view of an input is safe (the op reads an element, or a
 * whole line, before it writes there). */
static THTensor *THTensor_(outputFor)(THTensor *r, th::Owned<THTensor> &tmp, bool inPlace, THTensor *const *inputs,
                                      int n) {
  for (int i = 0; i < n; i++) {
    if (inputs[i]->storage != r->storage) continue;
    if (inPlace && THTensor_(isSetTo)(r, inputs[i])) continue;
    tmp.reset(THTensor_(new)());
    return tmp.get();
  }
  return r;
}

static THTensor *THTensor_(outputFor)(THTensor *r, th::Owned<THTensor> &tmp, bool inPlace,
                                      std::initializer_list<THTensor *> inputs) {
  return THTensor_(outputFor)(r, tmp, inPlace, inputs.begin(), (int)inputs.size());
}

static void THTensor_(finishOutput)(THTensor *r, THTensor *out) {
  if (out == r) return;
  THTensor_(resizeNd)(r, out->nDimension, out->size, nullptr);
  THTensor_(copy)(r, out);
}

static void THTensor_(fillValue)(THTensor *r, scalar_t value) {
  th::apply([value](scalar_t &x) { x = value; }, th::ref(r));
}

/* r <- t reduced along dim: each line of t along dim is folded from init with step(acc, x)
 * and finish(acc, length) gives its element of r. A contiguous line may go to
 * line(data, length, acc) instead, which returns false where it has no kernel. */
template <typename Acc, typename Step, typename Finish, typename Line = NoLineKernel>
static void THTensor_(reduceDim)(THTensor *r, THTensor *t, int dim, int keepdim, const char *name, Acc init, Step step,
                                 Finish finish, Line line = {}) {
  THTensor_(checkDim)(t, dim, 3, name);
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, false, {t});
  const int nd = t->nDimension;
  std::vector<int64_t> size(t->size, t->size + nd);
  if (nd > 0) {
    if (keepdim)
      size[dim] = 1;
    else
      size.erase(size.begin() + dim);
  }
  THTensor_(resizeNd)(out, (int)size.size(), size.data(), nullptr);
  /* out seen with the reduced dimension (size 1) in its place, so that it has t's rank */
  std::vector<int64_t> outSize(out->size, out->size + out->nDimension);
  std::vector<int64_t> outStride(out->stride, out->stride + out->nDimension);
  if (nd > 0 && !keepdim) {
    outSize.insert(outSize.begin() + dim, 1);
    outStride.insert(outStride.begin() + dim, 0);
  }
  th::TensorRef<scalar_t> outRef{THTensor_(data)(out), nd, outSize.data(), outStride.data()};
  const auto src = th::ref(t);
  if (THTensor_(nElement)(t) == 0) {
    /* lines of length 0 (an empty t may have no storage to point into) */
    const scalar_t value = finish(init, 0);
    th::apply([value](scalar_t &o) { o = value; }, outRef);
  } else if (linesAreStrided(src, dim)) {
    const int64_t length = t->size[dim];
    walkPlanes(
        src, outRef, dim, 0, init, [&](Acc &acc, scalar_t &x, scalar_t &) { step(acc, x); },
        [&](Acc &acc, scalar_t &o) { o = finish(acc, length); });
  } else {
    th::applyDim(
        [&](th::DimSlice<scalar_t> o, th::DimSlice<scalar_t> x) {
          Acc acc = init;
          if (x.stride != 1 || !line(x.data, x.size, acc))
            for (int64_t i = 0; i < x.size; i++) step(acc, x[i]);
          o[0] = finish(acc, x.size);
        },
        dim, outRef, src);
  }
  THTensor_(finishOutput)(r, out);
}

/* r <- a running fold of t along dim: element i of a line of r is step(acc, x[i]). */
template <typename Acc, typename Step>
static void THTensor_(scanDim)(THTensor *r, THTensor *t, int dim, const char *name, Acc init, Step step) {
  THTensor_(checkDim)(t, dim, 3, name);
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, true, {t});
  THTensor_(resizeAs)(out, t);
  const auto src = th::ref(t);
  /* an empty t has nothing to scan (and may have no storage to point into) */
  if (THTensor_(nElement)(t) > 0 && linesAreStrided(src, dim)) {
    walkPlanes(
        src, th::ref(out), dim, out->stride[dim], init, [&](Acc &acc, scalar_t &x, scalar_t &o) { o = step(acc, x); },
        [](Acc &, scalar_t &) {});
  } else if (THTensor_(nElement)(t) > 0) {
    th::applyDim(
        [&](th::DimSlice<scalar_t> o, th::DimSlice<scalar_t> x) {
          Acc acc = init;
          for (int64_t i = 0; i < x.size; i++) o[i] = step(acc, x[i]);
        },
        dim, th::ref(out), src);
  }
  THTensor_(finishOutput)(r, out);
}

/* NaN wins, as in torch7: once acc is NaN no number replaces it. */
static scalar_t THTensor_(larger)(scalar_t acc, scalar_t x) {
  if constexpr (TH_REAL_IS_FLOATING) {
    if (std::isnan(x)) return x;
  }
  return x > acc ? x : acc;
}

static scalar_t THTensor_(smaller)(scalar_t acc, scalar_t x) {
  if constexpr (TH_REAL_IS_FLOATING) {
    if (std::isnan(x)) return x;
  }
  return x < acc ? x : acc;
}

/* ---- Whole-tensor reductions ---- */

accreal THTensor_(sumall)(THTensor *t) {
  if constexpr (TH_REAL_IS_FLOATING) {
    double total;
    if (vectorSumAll(th::ref(t), total)) return total;
  }
  return th::reduceAll(
      th::ref(t), accreal(0), [](accreal acc, scalar_t x) { return acc + x; },
      [](accreal a, accreal b) { return a + b; });
}

accreal THTensor_(prodall)(THTensor *t) {
  return th::reduceAll(
      th::ref(t), accreal(1), [](accreal acc, scalar_t x) { return acc * x; },
      [](accreal a, accreal b) { return a * b; });
}

scalar_t THTensor_(maxall)(THTensor *t) {
  THArgCheck(THTensor_(nElement)(t) > 0, 1, "maxall: the tensor is empty (sizes %s)", THTensor_(sizes)(t).c_str());
  return th::reduceAll(th::ref(t), *THTensor_(data)(t), THTensor_(larger), THTensor_(larger));
}

scalar_t THTensor_(minall)(THTensor *t) {
  THArgCheck(THTensor_(nElement)(t) > 0, 1, "minall: the tensor is empty (sizes %s)", THTensor_(sizes)(t).c_str());
  return th::reduceAll(th::ref(t), *THTensor_(data)(t), THTensor_(smaller), THTensor_(smaller));
}

accreal THTensor_(trace)(THTensor *t) {
  THArgCheck(t->nDimension == 2, 1, "trace: expected a matrix, got sizes %s", THTensor_(sizes)(t).c_str());
  int64_t length = std::min(t->size[0], t->size[1]);
  int64_t stride = t->stride[0] + t->stride[1];
  th::TensorRef<scalar_t> diagonal{THTensor_(data)(t), 1, &length, &stride};
  return th::reduceAll(
      diagonal, accreal(0), [](accreal acc, scalar_t x) { return acc + x; },
      [](accreal a, accreal b) { return a + b; });
}

int THTensor_(equal)(THTensor *a, THTensor *b) {
  if (!THTensor_(isSameSizeAs)(a, b)) return 0;
  return foldAll(
      true, [](bool &acc, scalar_t &x, scalar_t &y) { acc = acc && x == y; },
      [](bool &total, bool part) { total = total && part; }, th::ref(a), th::ref(b));
}

/* ---- Reductions along a dimension ---- */

void THTensor_(sum)(THTensor *r, THTensor *t, int dim, int keepdim) {
  const auto kernel = th::vec::sum<scalar_t>();
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "sum", accreal(0), [](accreal &acc, scalar_t x) { acc += x; },
      [](accreal acc, int64_t) { return (scalar_t)acc; },
      [kernel](const scalar_t *x, int64_t n, accreal &acc) {
        if (!kernel) return false;
        acc = kernel(x, n);
        return true;
      });
}

void THTensor_(prod)(THTensor *r, THTensor *t, int dim, int keepdim) {
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "prod", accreal(1), [](accreal &acc, scalar_t x) { acc *= x; },
      [](accreal acc, int64_t) { return (scalar_t)acc; });
}

void THTensor_(cumsum)(THTensor *r, THTensor *t, int dim) {
  THTensor_(scanDim)(r, t, dim, "cumsum", accreal(0), [](accreal &acc, scalar_t x) { return (scalar_t)(acc += x); });
}

void THTensor_(cumprod)(THTensor *r, THTensor *t, int dim) {
  THTensor_(scanDim)(r, t, dim, "cumprod", accreal(1), [](accreal &acc, scalar_t x) { return (scalar_t)(acc *= x); });
}

/* ---- Construction ---- */

static void THTensor_(checkSizes)(int nDimension, const int64_t *size, const char *op) {
  THArgCheck(nDimension >= 0, 2, "%s: the dimension count must be >= 0, got %d", op, nDimension);
  THArgCheck(nDimension == 0 || size != nullptr, 3, "%s: sizes are missing for %d dimensions", op, nDimension);
}

void THTensor_(zeros)(THTensor *r, int nDimension, const int64_t *size) {
  THTensor_(checkSizes)(nDimension, size, "zeros");
  THTensor_(resizeNd)(r, nDimension, size, nullptr);
  THTensor_(fillValue)(r, 0);
}

void THTensor_(ones)(THTensor *r, int nDimension, const int64_t *size) {
  THTensor_(checkSizes)(nDimension, size, "ones");
  THTensor_(resizeNd)(r, nDimension, size, nullptr);
  THTensor_(fillValue)(r, 1);
}

void THTensor_(eye)(THTensor *r, int64_t n, int64_t m) {
  THArgCheck(n >= 0, 2, "eye: n must be >= 0, got %lld", (long long)n);
  if (m <= 0) m = n;
  THTensor_(resize2d)(r, n, m);
  THTensor_(fillValue)(r, 0);
  int64_t length = std::min(n, m);
  int64_t stride = r->stride[0] + r->stride[1];
  th::apply([](scalar_t &x) { x = 1; }, th::TensorRef<scalar_t>{THTensor_(data)(r), 1, &length, &stride});
}

/* r <- n elements, element i (in row-major order) being value(i). As in torch7, r keeps its
 * shape when it has n elements (a non-contiguous view is written through its strides), and
 * becomes a 1-D tensor of n elements otherwise. */
template <typename Value>
static void THTensor_(fillIndexed)(THTensor *r, int64_t n, Value value) {
  if (THTensor_(nElement)(r) != n) THTensor_(resize1d)(r, n);
  if (r->nDimension == 1 || THTensor_(isContiguous)(r)) {
    scalar_t *data = THTensor_(data)(r);
    const int64_t stride = r->nDimension == 1 ? r->stride[0] : 1;
    th::detail::parallelFor(n, TH_OMP_THRESHOLD, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; i++) data[i * stride] = value(i);
    });
    return;
  }
  int64_t i = 0;
  th::applyInOrder([&](scalar_t &x) { x = value(i++); }, th::ref(r));
}

static void THTensor_(checkStep)(accreal from, accreal to, accreal step, const char *op) {
  THArgCheck(std::isfinite((double)from) && std::isfinite((double)to), 2,
             "%s: the bounds must be finite, got %g and %g", op, (double)from, (double)to);
  THArgCheck(step != 0, 4, "%s: step must be non-zero", op);
  THArgCheck((step > 0 && to >= from) || (step < 0 && to <= from), 3,
             "%s: the upper bound %g and lower bound %g are inconsistent with the sign of step %g", op, (double)to,
             (double)from, (double)step);
  /* the element count must fit in int64_t before the allocation can refuse it */
  THArgCheck(((double)to - (double)from) / (double)step < 1e18, 4, "%s: too many elements from %g to %g by step %g", op,
             (double)from, (double)to, (double)step);
}

void THTensor_(range)(THTensor *r, accreal xmin, accreal xmax, accreal step) {
  THTensor_(checkStep)(xmin, xmax, step, "range");
  const int64_t n = (int64_t)((xmax - xmin) / step) + 1;
  THTensor_(fillIndexed)(r, n, [=](int64_t i) { return (scalar_t)(xmin + i * step); });
}

void THTensor_(arange)(THTensor *r, accreal start, accreal end, accreal step) {
  THTensor_(checkStep)(start, end, step, "arange");
  const int64_t n = (int64_t)std::ceil((double)(end - start) / (double)step);
  THTensor_(fillIndexed)(r, n, [=](int64_t i) { return (scalar_t)(start + i * step); });
}

/* ---- Structure ---- */

void THTensor_(diag)(THTensor *r, THTensor *t, int k) {
  THArgCheck(t->nDimension == 1 || t->nDimension == 2, 2, "diag: expected a vector or a matrix, got sizes %s",
             THTensor_(sizes)(t).c_str());
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, false, {t});
  const int64_t offset = k;
  auto copy = [](scalar_t &to, scalar_t &from) { to = from; };
  if (t->nDimension == 1) {
    int64_t length = t->size[0];
    const int64_t side = length + (offset >= 0 ? offset : -offset);
    THTensor_(resize2d)(out, side, side);
    THTensor_(fillValue)(out, 0);
    int64_t stride = out->stride[0] + out->stride[1];
    scalar_t *start = THTensor_(data)(out) + (offset >= 0 ? offset * out->stride[1] : -offset * out->stride[0]);
    th::apply(copy, th::TensorRef<scalar_t>{start, 1, &length, &stride}, th::ref(t));
  } else {
    const int64_t rows = t->size[0], cols = t->size[1];
    int64_t length = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
    if (length < 0) length = 0;
    THTensor_(resize1d)(out, length);
    int64_t stride = t->stride[0] + t->stride[1];
    scalar_t *start = THTensor_(data)(t);
    if (length > 0) start += offset >= 0 ? offset * t->stride[1] : -offset * t->stride[0];
    th::apply(copy, th::ref(out), th::TensorRef<scalar_t>{start, 1, &length, &stride});
  }
  THTensor_(finishOutput)(r, out);
}

/* tril (upper = false) and triu: keeps the elements with j - i <= k, or >= k. */
static void THTensor_(triangle)(THTensor *r, THTensor *t, int64_t k, bool upper, const char *op) {
  THArgCheck(t->nDimension == 2, 2, "%s: expected a matrix, got sizes %s", op, THTensor_(sizes)(t).c_str());
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, true, {t});
  THTensor_(resizeAs)(out, t);
  const int64_t rows = t->size[0], cols = t->size[1];
  const int64_t ts0 = t->stride[0], ts1 = t->stride[1], os0 = out->stride[0], os1 = out->stride[1];
  scalar_t *src = THTensor_(data)(t), *dst = THTensor_(data)(out);
  th::detail::parallelFor(rows, TH_OMP_THRESHOLD / std::max<int64_t>(cols, 1), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++)
      for (int64_t j = 0; j < cols; j++) {
        const bool keep = upper ? j - i >= k : j - i <= k;
        dst[i * os0 + j * os1] = keep ? src[i * ts0 + j * ts1] : 0;
      }
  });
  THTensor_(finishOutput)(r, out);
}

void THTensor_(tril)(THTensor *r, THTensor *t, int64_t k) { THTensor_(triangle)(r, t, k, false, "tril"); }
void THTensor_(triu)(THTensor *r, THTensor *t, int64_t k) { THTensor_(triangle)(r, t, k, true, "triu"); }

void THTensor_(catArray)(THTensor *r, THTensor **inputs, int numInputs, int dim) {
  THArgCheck(numInputs > 0, 3, "cat: expected at least one tensor, got %d", numInputs);
  for (int i = 0; i < numInputs; i++) THArgCheck(inputs[i] != nullptr, 2, "cat: tensor %d is NULL", i);
  auto skipped = [](const THTensor *x) { return x->nDimension == 1 && x->size[0] == 0; };
  THTensor *first = nullptr;
  int64_t total = 0;
  for (int i = 0; i < numInputs; i++) {
    THTensor *x = inputs[i];
    if (skipped(x)) continue;
    if (!first) {
      first = x;
      THArgCheck(x->nDimension > 0, 2, "cat: tensor %d is zero-dimensional and cannot be concatenated", i);
      if (dim < 0 || dim >= x->nDimension)
        THIndexError("cat: dimension %d (argument 4) is out of range for tensors of sizes %s (expected 0 to %d)", dim,
                     THTensor_(sizes)(x).c_str(), x->nDimension - 1);
    }
    bool match = x->nDimension == first->nDimension;
    for (int d = 0; match && d < x->nDimension; d++)
      if (d != dim && x->size[d] != first->size[d]) match = false;
    if (!match)
      THError("cat: sizes of tensors must match except in dimension %d: tensor %d has sizes %s but tensor %d has %s",
              dim, i, THTensor_(sizes)(x).c_str(), (int)(std::find(inputs, inputs + numInputs, first) - inputs),
              THTensor_(sizes)(first).c_str());
    total += x->size[dim];
  }
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, false, inputs, numInputs);
  if (!first) {
    THTensor_(resize1d)(out, 0);
    THTensor_(finishOutput)(r, out);
    return;
  }
  std::vector<int64_t> size(first->size, first->size + first->nDimension);
  size[dim] = total;
  THTensor_(resizeNd)(out, (int)size.size(), size.data(), nullptr);
  int64_t offset = 0;
  for (int i = 0; i < numInputs; i++) {
    THTensor *x = inputs[i];
    if (skipped(x)) continue;
    size[dim] = x->size[dim];
    th::TensorRef<scalar_t> part{THTensor_(data)(out) + offset * out->stride[dim], out->nDimension, size.data(),
                                 out->stride};
    th::apply([](scalar_t &to, scalar_t &from) { to = from; }, part, th::ref(x));
    offset += x->size[dim];
  }
  THTensor_(finishOutput)(r, out);
}

void THTensor_(cat)(THTensor *r, THTensor *a, THTensor *b, int dim) {
  THTensor *inputs[2] = {a, b};
  THTensor_(catArray)(r, inputs, 2, dim);
}

void THTensor_(cross)(THTensor *r, THTensor *a, THTensor *b, int dim) {
  THArgCheck(THTensor_(isSameSizeAs)(a, b), 3, "cross: a and b must have the same sizes, got %s and %s",
             THTensor_(sizes)(a).c_str(), THTensor_(sizes)(b).c_str());
  if (dim < 0) {
    for (int d = 0; d < a->nDimension && dim < 0; d++)
      if (a->size[d] == 3) dim = d;
    THArgCheck(dim >= 0, 4, "cross: no dimension of size 3 in a tensor of sizes %s", THTensor_(sizes)(a).c_str());
  }
  if (dim >= a->nDimension)
    THIndexError("cross: dimension %d (argument 4) is out of range for tensors of sizes %s", dim,
                 THTensor_(sizes)(a).c_str());
  THArgCheck(a->size[dim] == 3, 4, "cross: dimension %d must have size 3, got sizes %s", dim,
             THTensor_(sizes)(a).c_str());
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, true, {a, b});
  THTensor_(resizeAs)(out, a);
  th::applyDim(
      [](th::DimSlice<scalar_t> o, th::DimSlice<scalar_t> x, th::DimSlice<scalar_t> y) {
        /* in accreal: float products are exact in double, so only the difference rounds */
        const accreal x0 = x[0], x1 = x[1], x2 = x[2], y0 = y[0], y1 = y[1], y2 = y[2];
        o[0] = (scalar_t)(x1 * y2 - x2 * y1);
        o[1] = (scalar_t)(x2 * y0 - x0 * y2);
        o[2] = (scalar_t)(x0 * y1 - x1 * y0);
      },
      dim, th::ref(out), th::ref(a), th::ref(b));
  THTensor_(finishOutput)(r, out);
}

#if TH_REAL_IS_FLOATING

/* ---- Statistics and norms (floating types) ---- */

accreal THTensor_(meanall)(THTensor *t) { return THTensor_(sumall)(t) / (accreal)THTensor_(nElement)(t); }

accreal THTensor_(varall)(THTensor *t, int biased) {
  const ptrdiff_t n = THTensor_(nElement)(t);
  if (n == 0) return NAN;
  const accreal mean = THTensor_(meanall)(t);
  /* two passes: sums of squared deviations lose less than sums of squares */
  const accreal squares = th::reduceAll(
      th::ref(t), accreal(0),
      [mean](accreal acc, scalar_t x) {
        const accreal d = x - mean;
        return acc + d * d;
      },
      [](accreal a, accreal b) { return a + b; });
  return squares / (accreal)(biased ? n : n - 1);
}

accreal THTensor_(stdall)(THTensor *t, int biased) { return std::sqrt(THTensor_(varall)(t, biased)); }

accreal THTensor_(normall)(THTensor *t, scalar_t p) {
  return withNorm(p, [t](auto norm) {
    return norm.finish(th::reduceAll(
        th::ref(t), 0.0, [norm](double acc, scalar_t x) { return norm.step(acc, x); },
        [norm](double a, double b) { return norm.combine(a, b); }));
  });
}

accreal THTensor_(dist)(THTensor *a, THTensor *b, scalar_t p) {
  const ptrdiff_t n = THTensor_(nElement)(a);
  THArgCheck(n == THTensor_(nElement)(b), 2, "dist: a and b must have the same number of elements, got sizes %s and %s",
             THTensor_(sizes)(a).c_str(), THTensor_(sizes)(b).c_str());
  return withNorm(p, [a, b](auto norm) {
    return norm.finish(foldAll(
        0.0, [norm](double &acc, scalar_t &x, scalar_t &y) { acc = norm.step(acc, (double)x - (double)y); },
        [norm](double &total, double part) { total = norm.combine(total, part); }, th::ref(a), th::ref(b)));
  });
}

void THTensor_(mean)(THTensor *r, THTensor *t, int dim, int keepdim) {
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "mean", accreal(0), [](accreal &acc, scalar_t x) { acc += x; },
      [](accreal acc, int64_t n) { return (scalar_t)(acc / (accreal)n); });
}

void THTensor_(var)(THTensor *r, THTensor *t, int dim, int biased, int keepdim) {
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "var", Moments{}, [](Moments &m, scalar_t x) { m.add(x); },
      [biased](const Moments &m, int64_t) { return (scalar_t)m.var(biased); });
}

void THTensor_(std)(THTensor *r, THTensor *t, int dim, int biased, int keepdim) {
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "std", Moments{}, [](Moments &m, scalar_t x) { m.add(x); },
      [biased](const Moments &m, int64_t) { return (scalar_t)std::sqrt(m.var(biased)); });
}

void THTensor_(norm)(THTensor *r, THTensor *t, scalar_t p, int dim, int keepdim) {
  withNorm(p, [&](auto norm) {
    THTensor_(reduceDim)(
        r, t, dim, keepdim, "norm", 0.0, [norm](double &acc, scalar_t x) { acc = norm.step(acc, x); },
        [norm](double acc, int64_t) { return (scalar_t)norm.finish(acc); });
  });
}

/* Point i of n evenly spaced from a to b; the second half counts back from b, so that both
 * ends are exact. */
static accreal THTensor_(spacedPoint)(accreal a, accreal b, int64_t n, int64_t i) {
  const accreal step = n > 1 ? (b - a) / (accreal)(n - 1) : 0;
  return i < (n + 1) / 2 ? a + i * step : b - (n - 1 - i) * step;
}

void THTensor_(linspace)(THTensor *r, scalar_t a, scalar_t b, int64_t n) {
  THArgCheck(n >= 0, 4, "linspace: the number of points must be >= 0, got %lld", (long long)n);
  THTensor_(fillIndexed)(r, n, [=](int64_t i) { return (scalar_t)THTensor_(spacedPoint)(a, b, n, i); });
}

void THTensor_(logspace)(THTensor *r, scalar_t a, scalar_t b, int64_t n) {
  THArgCheck(n >= 0, 4, "logspace: the number of points must be >= 0, got %lld", (long long)n);
  THTensor_(fillIndexed)(r, n, [=](int64_t i) { return (scalar_t)std::pow(10.0, THTensor_(spacedPoint)(a, b, n, i)); });
}

void THTensor_(histc)(THTensor *hist, THTensor *t, int64_t nbins, scalar_t minvalue, scalar_t maxvalue) {
  THArgCheck(nbins > 0, 3, "histc: nbins must be > 0, got %lld", (long long)nbins);
  THArgCheck(minvalue <= maxvalue, 4, "histc: minvalue %g must not exceed maxvalue %g", (double)minvalue,
             (double)maxvalue);
  accreal lo = minvalue, hi = maxvalue;
  if (lo == hi && THTensor_(nElement)(t) > 0) {
    lo = THTensor_(minall)(t);
    hi = THTensor_(maxall)(t);
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  if (!std::isfinite(lo) || !std::isfinite(hi))
    THValueError("histc: the range [%g, %g] is not finite", (double)lo, (double)hi);
  const std::vector<int64_t> counts = foldAll(
      std::vector<int64_t>(nbins, 0),
      [lo, hi, nbins](std::vector<int64_t> &c, scalar_t &x) {
        if (x >= lo && x <= hi) c[std::min((int64_t)((x - lo) / (hi - lo) * nbins), nbins - 1)]++;
      },
      [](std::vector<int64_t> &total, const std::vector<int64_t> &part) {
        for (size_t i = 0; i < total.size(); i++) total[i] += part[i];
      },
      th::ref(t));
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(hist, tmp, false, {t});
  THTensor_(resize1d)(out, nbins);
  THTensor_(fillIndexed)(out, nbins, [&](int64_t i) { return (scalar_t)counts[i]; });
  THTensor_(finishOutput)(hist, out);
}

void THTensor_(renorm)(THTensor *r, THTensor *t, scalar_t p, int dim, scalar_t maxnorm) {
  THArgCheck(t->nDimension > 1, 2, "renorm: expected a tensor with at least 2 dimensions, got sizes %s",
             THTensor_(sizes)(t).c_str());
  THTensor_(checkDim)(t, dim, 4, "renorm");
  THArgCheck(p > 0, 3, "renorm: the norm order p must be > 0, got %g", (double)p);
  THArgCheck(maxnorm >= 0, 5, "renorm: maxnorm must be >= 0, got %g", (double)maxnorm);
  th::Owned<THTensor> tmp;
  THTensor *out = THTensor_(outputFor)(r, tmp, true, {t});
  THTensor_(resizeAs)(out, t);
  std::vector<double> scale = withNorm(p, [t, dim](auto norm) {
    std::vector<double> norms = foldAlong(
        th::ref(t), dim, [norm](double acc, scalar_t x) { return norm.step(acc, x); },
        [norm](double a, double b) { return norm.combine(a, b); });
    for (auto &x : norms) x = norm.finish(x);
    return norms;
  });
  /* torch7's small epsilon keeps the scaled norm just under maxnorm */
  for (auto &x : scale) x = x > maxnorm ? maxnorm / (x + 1e-7) : 1.0;
  /* scale seen with t's sizes: stride 1 along dim, 0 elsewhere */
  std::vector<int64_t> scaleStride(t->nDimension, 0);
  scaleStride[dim] = 1;
  th::apply([](scalar_t &o, scalar_t &x, double &s) { o = (scalar_t)(x * s); }, th::ref(out), th::ref(t),
            th::TensorRef<double>{scale.data(), t->nDimension, t->size, scaleStride.data()});
  THTensor_(finishOutput)(r, out);
}

#endif

#if defined(TH_REAL_IS_BYTE)

/* ---- Masks ---- */

/* int accumulators, not bool: reduceAll keeps the threads' parts in a std::vector<Acc>, and
 * std::vector<bool> packs them into shared words. */
int THTensor_(logicalall)(THTensor *t) {
  return th::reduceAll(
      th::ref(t), 1, [](int acc, scalar_t x) { return acc & (x != 0); }, [](int a, int b) { return a & b; });
}

int THTensor_(logicalany)(THTensor *t) {
  return th::reduceAll(
      th::ref(t), 0, [](int acc, scalar_t x) { return acc | (x != 0); }, [](int a, int b) { return a | b; });
}

void THTensor_(logicalAll)(THTensor *r, THTensor *t, int dim, int keepdim) {
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "logicalAll", 1, [](int &acc, scalar_t x) { acc &= (x != 0); },
      [](int acc, int64_t) { return (scalar_t)acc; });
}

void THTensor_(logicalAny)(THTensor *r, THTensor *t, int dim, int keepdim) {
  THTensor_(reduceDim)(
      r, t, dim, keepdim, "logicalAny", 0, [](int &acc, scalar_t x) { acc |= (x != 0); },
      [](int acc, int64_t) { return (scalar_t)acc; });
}

#endif
