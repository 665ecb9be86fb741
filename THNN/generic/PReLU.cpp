#ifndef TH_GENERIC_FILE
#error "compile THNN/Activation.cpp instead"
#endif

/* The dimension of input that weight's slopes run along: -1 for one shared slope, else
 * torch7's channel dimension (0 for 1-D and 3-D input, 1 for batched 2-D and 4-D), whose
 * size must be weight's element count. */
static int THNN_(preluChannelDim)(const char *fn, THTensor *input, THTensor *weight, int weightArg) {
  const int64_t slopes = THTensor_(nElement)(weight);
  THArgCheck(slopes >= 1, weightArg, "%s: weight of sizes %s holds no slope", fn, shape(weight).c_str());
  if (slopes == 1) return -1;
  const int nd = input->nDimension;
  THArgCheck(nd >= 1 && nd <= 4, 2, "%s: %lld slopes (one per channel) need 1-D to 4-D input, got sizes %s", fn,
             (long long)slopes, shape(input).c_str());
  const int dim = nd % 2 == 1 ? 0 : 1;
  THArgCheck(input->size[dim] == slopes, weightArg,
             "%s: weight has %lld elements but input of sizes %s has %lld channels (dimension %d)", fn,
             (long long)slopes, shape(input).c_str(), (long long)input->size[dim], dim);
  return dim;
}

/* The contiguous weight w viewed with input's sizes, stride 0 but along the channel
 * dimension, so that th::apply hands every element its slope. */
static THTensor *THNN_(newSlopes)(THTensor *input, THTensor *w, int dim) {
  std::vector<int64_t> stride(input->nDimension, 0);
  if (dim >= 0) stride[dim] = 1;
  return THTensor_(newWithStorage)(w->storage, w->storageOffset, input->nDimension, input->size, stride.data());
}

/* Contiguous float or double tensors as runs of lines, each of one channel (the whole tensor
 * one line for a shared slope), handed to body(out, x, slope, count, other) line by line,
 * a simd loop without branches (Note [Selects without branches] in TH/THScalarMath.hpp);
 * lines over the threads. other (gradOutput; null in the forward) is handed at the line's
 * start. False when the layout
 * or type is not such: the caller walks with th::apply. */
template <typename Body>
static bool THNN_(preluLines)(THTensor *input, THTensor *w, int dim, THTensor *out, THTensor *other, Body body) {
  if constexpr (!std::is_floating_point_v<scalar_t>) {
    return false;
  } else {
    if (!THTensor_(isContiguous)(input) || !THTensor_(isContiguous)(out) || (other && !THTensor_(isContiguous)(other)))
      return false;
    const int64_t n = THTensor_(nElement)(input), channels = THTensor_(nElement)(w);
    int64_t line = n;
    if (dim >= 0) {
      line = 1;
      for (int d = dim + 1; d < input->nDimension; d++) line *= input->size[d];
    }
    if (line == 0) return true;
    const scalar_t *x = THTensor_(data)(input), *a = THTensor_(data)(w);
    scalar_t *o = THTensor_(data)(out);
    const scalar_t *g = other ? THTensor_(data)(other) : nullptr;
    th::detail::parallelFor(n / line, TH_OMP_THRESHOLD / line, [&](int64_t begin, int64_t end) {
      for (int64_t l = begin; l < end; l++) {
        const int64_t at = l * line;
        body(o + at, x + at, a + l % channels, line, g ? g + at : nullptr);
      }
    });
    return true;
  }
}

void THNN_(PReLU_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *weight) {
  const int dim = THNN_(preluChannelDim)("PReLU_updateOutput", input, weight, 4);
  auto w = th::own(THTensor_(newContiguous)(weight));
  auto slopes = th::own(THNN_(newSlopes)(input, w.get(), dim));
  THTensor_(resizeAs)(output, input);
  auto contiguous = [](scalar_t *y, const scalar_t *x, const scalar_t *a, int64_t n, const scalar_t *) {
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = th::math::pick(x[i] > 0, x[i], *a * x[i]);
  };
  if (!THNN_(preluLines)(input, w.get(), dim, output, nullptr, contiguous))
    th::apply([](scalar_t &y, scalar_t &x, scalar_t &a) { y = x > 0 ? x : a * x; }, th::ref(output), th::ref(input),
              th::ref(slopes.get()));
}

void THNN_(PReLU_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  THTensor *weight) {
  checkSameCount("PReLU_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  const int dim = THNN_(preluChannelDim)("PReLU_updateGradInput", input, weight, 5);
  auto w = th::own(THTensor_(newContiguous)(weight));
  auto slopes = th::own(THNN_(newSlopes)(input, w.get(), dim));
  THTensor_(resizeAs)(gradInput, input);
  auto contiguous = [](scalar_t *gi, const scalar_t *x, const scalar_t *a, int64_t n, const scalar_t *g) {
#pragma omp simd
    for (int64_t i = 0; i < n; i++) gi[i] = th::math::pick(x[i] > 0, g[i], *a * g[i]);
  };
  if (!THNN_(preluLines)(input, w.get(), dim, gradInput, gradOutput, contiguous))
    th::apply([](scalar_t &gi, scalar_t &g, scalar_t &x, scalar_t &a) { gi = x > 0 ? g : a * g; }, th::ref(gradInput),
              th::ref(gradOutput), th::ref(input), th::ref(slopes.get()));
}

/* Contiguous input is a run of lines of `line` elements, line l belonging to channel
 * l % channels. Each piece (Note [Pieces, not halves]) sums a stretch of it into its own row
 * of partial sums, on the threads the machine can give; the rows are added in piece order, so
 * the result depends on neither timing nor the machine's load. */
void THNN_(PReLU_accGradParameters)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *, THTensor *weight,
                                    THTensor *gradWeight, accreal scale) {
  const char *fn = "PReLU_accGradParameters";
  checkSameCount(fn, input, "input", gradOutput, 3, "gradOutput");
  const int dim = THNN_(preluChannelDim)(fn, input, weight, 5);
  const int64_t channels = THTensor_(nElement)(weight);
  THArgCheck(THTensor_(nElement)(gradWeight) == channels, 6,
             "%s: gradWeight of sizes %s must have as many elements as weight of sizes %s", fn,
             shape(gradWeight).c_str(), shape(weight).c_str());
  auto x = th::own(THTensor_(newContiguous)(input));
  auto g = th::own(THTensor_(newContiguous)(gradOutput));
  const scalar_t *xd = THTensor_(data)(x.get()), *gd = THTensor_(data)(g.get());
  const int64_t n = THTensor_(nElement)(input);
  int64_t line = 1;
  for (int d = dim + 1; d < input->nDimension; d++) line *= input->size[d];

  const int64_t pieces = n > TH_OMP_THRESHOLD ? th::detail::pieceCount(n) : 1;
  std::vector<accreal> partial((size_t)pieces * channels, 0);
  th::detail::parallelPieces(n, pieces, [&](int64_t piece, int64_t begin, int64_t end) {
    accreal *acc = &partial[(size_t)piece * channels];
    for (int64_t i = begin; i < end;) {
      const int64_t l = i / line, stop = std::min(end, (l + 1) * line);
      accreal s = 0;
      for (; i < stop; i++)
        if (xd[i] <= 0) s += (accreal)xd[i] * gd[i];
      acc[l % channels] += s;
    }
  });
  int64_t c = 0;
  th::applyInOrder(
      [&](scalar_t &gw) {
        accreal s = 0;
        for (int64_t piece = 0; piece < pieces; piece++) s += partial[(size_t)piece * channels + c];
        gw += (scalar_t)(scale * s);
        c++;
      },
      th::ref(gradWeight));
}
