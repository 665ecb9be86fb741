#ifndef TH_GENERIC_FILE
#error "compile THNN/Activation.cpp instead"
#endif

/* ---- Drivers: each element-wise kernel is a scalar function handed to these ---- */

/* output = f(x) for every x of input; in place (Note [In-place activations]) input is
 * rewritten and output becomes a view of it. */
template <typename F>
static void THNN_(mapForward)(THTensor *input, THTensor *output, bool inplace, F f) {
  if (inplace) {
    th::apply([&f](scalar_t &x) { x = f(x); }, th::ref(input));
    THTensor_(set)(output, input);
  } else {
    THTensor_(resizeAs)(output, input);
    th::apply([&f](scalar_t &y, scalar_t &x) { y = f(x); }, th::ref(output), th::ref(input));
  }
}

/* gradInput = f(g, a...) for every element g of gradOutput and the matching elements a of
 * the tensors `with` (input, output, a buffer); gradInput takes like's sizes. In place,
 * gradOutput is rewritten and gradInput becomes a view of it. The caller has checked the
 * element counts. */
template <typename F, typename... With>
static void THNN_(mapBackward)(THTensor *like, THTensor *gradOutput, THTensor *gradInput, bool inplace, F f,
                               With *...with) {
  if (inplace) {
    th::apply([&f](scalar_t &g, auto &...a) { g = f(g, a...); }, th::ref(gradOutput), th::ref(with)...);
    THTensor_(set)(gradInput, gradOutput);
  } else {
    THTensor_(resizeAs)(gradInput, like);
    th::apply([&f](scalar_t &gi, scalar_t &g, auto &...a) { gi = f(g, a...); }, th::ref(gradInput), th::ref(gradOutput),
              th::ref(with)...);
  }
}

/* ---- Kernels ---- */

void THNN_(Abs_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  THNN_(mapForward)(input, output, false, [](scalar_t x) { return std::abs(x); });
}

void THNN_(Abs_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput) {
  checkSameCount("Abs_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false, [](scalar_t g, scalar_t x) { return x >= 0 ? g : -g; }, input);
}

void THNN_(ELU_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal alpha, bool inplace) {
  THArgCheck(!inplace || alpha >= 0, 4, "ELU_updateOutput: in-place ELU needs alpha >= 0, got %g", alpha);
  const scalar_t a = (scalar_t)alpha;
  THNN_(mapForward)(input, output, inplace, [a](scalar_t x) { return x > 0 ? x : a * std::expm1(x); });
}

void THNN_(ELU_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                THTensor *output, accreal alpha, bool inplace) {
  checkSameCount("ELU_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("ELU_updateGradInput", input, "input", output, 5, "output");
  THArgCheck(!inplace || alpha >= 0, 6, "ELU_updateGradInput: in-place ELU needs alpha >= 0, got %g", alpha);
  const scalar_t a = (scalar_t)alpha;
  // alpha * exp(x) = y + alpha where x <= 0
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, inplace,
      [a](scalar_t g, scalar_t x, scalar_t y) { return x > 0 ? g : g * (y + a); }, input, output);
}

void THNN_(HardShrink_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal lambda) {
  const scalar_t l = (scalar_t)lambda;
  THNN_(mapForward)(input, output, false, [l](scalar_t x) { return x > l || x < -l ? x : scalar_t(0); });
}

void THNN_(HardShrink_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                       accreal lambda) {
  checkSameCount("HardShrink_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  const scalar_t l = (scalar_t)lambda;
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false, [l](scalar_t g, scalar_t x) { return x > l || x < -l ? g : scalar_t(0); },
      input);
}

void THNN_(HardTanh_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal min_val, accreal max_val,
                                  bool inplace) {
  THArgCheck(min_val < max_val, 5, "HardTanh_updateOutput: max_val (%g) must be larger than min_val (%g)", max_val,
             min_val);
  const scalar_t lo = (scalar_t)min_val, hi = (scalar_t)max_val;
  THNN_(mapForward)(input, output, inplace, [lo, hi](scalar_t x) { return x < lo ? lo : (x > hi ? hi : x); });
}

void THNN_(HardTanh_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                     accreal min_val, accreal max_val, bool inplace) {
  checkSameCount("HardTanh_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THArgCheck(min_val < max_val, 6, "HardTanh_updateGradInput: max_val (%g) must be larger than min_val (%g)", max_val,
             min_val);
  const scalar_t lo = (scalar_t)min_val, hi = (scalar_t)max_val;
  // In place, x is the clamped value: it sits on a bound exactly where the input was beyond.
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, inplace,
      [lo, hi](scalar_t g, scalar_t x) { return x <= lo || x >= hi ? scalar_t(0) : g; }, input);
}

void THNN_(LeakyReLU_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal negval, bool inplace) {
  THArgCheck(!inplace || negval >= 0, 4, "LeakyReLU_updateOutput: in-place LeakyReLU needs negval >= 0, got %g",
             negval);
  const scalar_t s = (scalar_t)negval;
  THNN_(mapForward)(input, output, inplace, [s](scalar_t x) { return x > 0 ? x : s * x; });
}

void THNN_(LeakyReLU_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                      accreal negval, bool inplace) {
  checkSameCount("LeakyReLU_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THArgCheck(!inplace || negval >= 0, 5, "LeakyReLU_updateGradInput: in-place LeakyReLU needs negval >= 0, got %g",
             negval);
  const scalar_t s = (scalar_t)negval;
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, inplace, [s](scalar_t g, scalar_t x) { return x > 0 ? g : s * g; }, input);
}

/* log sigmoid(x) = min(x, 0) - log(1 + e) with e = exp(-|x|) <= 1: no overflow, and no
 * cancellation. */
void THNN_(LogSigmoid_updateOutput)(THNNState *, THTensor *input, THTensor *output, THTensor *buffer) {
  THTensor_(resizeAs)(output, input);
  THTensor_(resizeAs)(buffer, input);
  th::apply(
      [](scalar_t &y, scalar_t &x, scalar_t &e) {
        e = std::exp(-std::abs(x));
        y = std::min(x, scalar_t(0)) - std::log1p(e);
      },
      th::ref(output), th::ref(input), th::ref(buffer));
}

void THNN_(LogSigmoid_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                       THTensor *buffer) {
  checkSameCount("LogSigmoid_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("LogSigmoid_updateGradInput", input, "input", buffer, 5, "buffer");
  // d/dx log sigmoid(x) = sigmoid(-x), from the forward's e = exp(-|x|)
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false,
      [](scalar_t g, scalar_t x, scalar_t e) { return g * (x >= 0 ? e : scalar_t(1)) / (1 + e); }, input, buffer);
}

void THNN_(Sigmoid_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  THNN_(mapForward)(input, output, false, [](scalar_t x) { return scalar_t(1) / (1 + std::exp(-x)); });
}

void THNN_(Sigmoid_updateGradInput)(THNNState *, THTensor *gradOutput, THTensor *gradInput, THTensor *output) {
  checkSameCount("Sigmoid_updateGradInput", output, "output", gradOutput, 2, "gradOutput");
  THNN_(mapBackward)
  (
      output, gradOutput, gradInput, false, [](scalar_t g, scalar_t y) { return g * (1 - y) * y; }, output);
}

void THNN_(SoftPlus_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal beta, accreal threshold) {
  const scalar_t b = (scalar_t)beta, t = (scalar_t)threshold;
  THNN_(mapForward)
  (input, output, false, [b, t](scalar_t x) { return x * b > t ? x : std::log1p(std::exp(x * b)) / b; });
}

void THNN_(SoftPlus_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                     THTensor *output, accreal beta, accreal threshold) {
  checkSameCount("SoftPlus_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("SoftPlus_updateGradInput", input, "input", output, 5, "output");
  const scalar_t b = (scalar_t)beta, t = (scalar_t)threshold;
  // sigmoid(beta x) = 1 - exp(-beta y)
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false,
      [b, t](scalar_t g, scalar_t y) { return y * b > t ? g : -g * std::expm1(-y * b); }, output);
}

void THNN_(SoftShrink_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal lambda) {
  const scalar_t l = (scalar_t)lambda;
  THNN_(mapForward)(input, output, false, [l](scalar_t x) { return x > l ? x - l : (x < -l ? x + l : scalar_t(0)); });
}

void THNN_(SoftShrink_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                       accreal lambda) {
  checkSameCount("SoftShrink_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  const scalar_t l = (scalar_t)lambda;
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false, [l](scalar_t g, scalar_t x) { return x > l || x < -l ? g : scalar_t(0); },
      input);
}

void THNN_(Sqrt_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal eps) {
  const scalar_t e = (scalar_t)eps;
  THNN_(mapForward)(input, output, false, [e](scalar_t x) { return std::sqrt(x + e); });
}

void THNN_(Sqrt_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                 THTensor *output) {
  checkSameCount("Sqrt_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  checkSameCount("Sqrt_updateGradInput", input, "input", output, 5, "output");
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false,
      [](scalar_t g, scalar_t y) { return y == 0 ? scalar_t(0) : scalar_t(0.5) * (g / y); }, output);
}

void THNN_(Square_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  THNN_(mapForward)(input, output, false, [](scalar_t x) { return x * x; });
}

void THNN_(Square_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput) {
  checkSameCount("Square_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, false, [](scalar_t g, scalar_t x) { return 2 * x * g; }, input);
}

void THNN_(Tanh_updateOutput)(THNNState *, THTensor *input, THTensor *output) {
  THNN_(mapForward)(input, output, false, [](scalar_t x) { return std::tanh(x); });
}

void THNN_(Tanh_updateGradInput)(THNNState *, THTensor *gradOutput, THTensor *gradInput, THTensor *output) {
  checkSameCount("Tanh_updateGradInput", output, "output", gradOutput, 2, "gradOutput");
  THNN_(mapBackward)
  (
      output, gradOutput, gradInput, false, [](scalar_t g, scalar_t y) { return g * (1 - y * y); }, output);
}

void THNN_(Threshold_updateOutput)(THNNState *, THTensor *input, THTensor *output, accreal threshold, accreal val,
                                   bool inplace) {
  THArgCheck(!inplace || val <= threshold, 5,
             "Threshold_updateOutput: in-place Threshold needs val (%g) <= threshold (%g)", val, threshold);
  const scalar_t t = (scalar_t)threshold, v = (scalar_t)val;
  THNN_(mapForward)(input, output, inplace, [t, v](scalar_t x) { return x > t ? x : v; });
}

void THNN_(Threshold_updateGradInput)(THNNState *, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                      accreal threshold, accreal val, bool inplace) {
  checkSameCount("Threshold_updateGradInput", input, "input", gradOutput, 3, "gradOutput");
  THArgCheck(!inplace || val <= threshold, 6,
             "Threshold_updateGradInput: in-place Threshold needs val (%g) <= threshold (%g)", val, threshold);
  const scalar_t t = (scalar_t)threshold;
  THNN_(mapBackward)
  (
      input, gradOutput, gradInput, inplace, [t](scalar_t g, scalar_t x) { return x > t ? g : scalar_t(0); }, input);
}
