#ifndef TH_GENERIC_FILE
#error "compile THNN/Activation.cpp instead"
#endif

static void THNN_(rreluCheck)(const char *fn, accreal lower, accreal upper, bool inplace, int lowerArg) {
  THArgCheck(lower <= upper, lowerArg + 1, "%s: upper (%g) must not be below lower (%g)", fn, upper, lower);
  THArgCheck(!inplace || lower >= 0, lowerArg, "%s: in-place RReLU needs lower >= 0, got %g", fn, lower);
}

void THNN_(RReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *noise, accreal lower,
                               accreal upper, bool train, bool inplace, THGenerator *generator) {
  THNN_(rreluCheck)("RReLU_updateOutput", lower, upper, inplace, 5);
  if (!train) {
    // the fixed slope: LeakyReLU's formula
    thnn::cpu::mapForward<scalar_t>(state, input, output, inplace, thnn::LeakyReLU<scalar_t>((lower + upper) / 2));
    return;
  }
  THTensor_(resizeAs)(noise, input);
  // One draw per x <= 0 in row-major order (applyInOrder): a seed gives the same slopes
  // whatever the layout, and the generator is used from one thread only.
  auto leak = [&](scalar_t x, scalar_t &r) {
    if (x > 0) {
      r = 1;
      return x;
    }
    r = (scalar_t)THRandom_uniform(generator, lower, upper);
    return x * r;
  };
  if (inplace) {
    th::applyInOrder([&](scalar_t &x, scalar_t &r) { x = leak(x, r); }, th::ref(input), th::ref(noise));
    THTensor_(set)(output, input);
  } else {
    THTensor_(resizeAs)(output, input);
    th::applyInOrder([&](scalar_t &y, scalar_t &x, scalar_t &r) { y = leak(x, r); }, th::ref(output), th::ref(input),
                     th::ref(noise));
  }
}

void THNN_(RReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  THTensor *noise, accreal lower, accreal upper, bool train, bool inplace) {
  const char *fn = "RReLU_updateGradInput";
  checkSameCount(fn, input, "input", gradOutput, 3, "gradOutput");
  THNN_(rreluCheck)(fn, lower, upper, inplace, 6);
  // torch7: with (almost) equal bounds the backward uses the fixed slope.
  if (train && upper - lower > 1e-6) {
    checkSameCount(fn, input, "input", noise, 5, "noise");
    thnn::cpu::mapBackward<scalar_t>(state, input, gradOutput, gradInput, inplace, thnn::RReLUNoise<scalar_t>(), noise);
  } else {
    thnn::cpu::mapBackward<scalar_t>(state, input, gradOutput, gradInput, inplace,
                                     thnn::LeakyReLU<scalar_t>((lower + upper) / 2), input);
  }
}
