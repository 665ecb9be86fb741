#include "core/ops/NNLayers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "THNN/THNN.h"
#include "autograd/Autograd.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Random.h"
#include "core/ops/Reduce.h"

namespace torch::nn {

namespace {

// NN<T>: THNN's kernels of element type T as static members (THNN_FloatThreshold_updateOutput
// for T = float), as TH<T> does for TH.
template <typename T>
struct NN;

// clang-format off
#define TORCH_NN_FNS(_, R)                                                                                     \
  _(R, Threshold_updateOutput) _(R, Threshold_updateGradInput) _(R, HardTanh_updateOutput)                     \
  _(R, HardTanh_updateGradInput) _(R, LeakyReLU_updateOutput) _(R, LeakyReLU_updateGradInput)                  \
  _(R, PReLU_updateOutput) _(R, PReLU_updateGradInput) _(R, PReLU_accGradParameters) _(R, RReLU_updateOutput)  \
  _(R, RReLU_updateGradInput) _(R, ELU_updateOutput) _(R, ELU_updateGradInput) _(R, SoftPlus_updateOutput)     \
  _(R, SoftPlus_updateGradInput) _(R, SoftShrink_updateOutput) _(R, SoftShrink_updateGradInput)                \
  _(R, HardShrink_updateOutput) _(R, HardShrink_updateGradInput) _(R, LogSigmoid_updateOutput)                 \
  _(R, LogSigmoid_updateGradInput) _(R, SoftMax_updateOutput) _(R, SoftMax_updateGradInput)                    \
  _(R, LogSoftMax_updateOutput) _(R, LogSoftMax_updateGradInput) _(R, AbsCriterion_updateOutput)               \
  _(R, AbsCriterion_updateGradInput) _(R, MSECriterion_updateOutput) _(R, MSECriterion_updateGradInput)        \
  _(R, SmoothL1Criterion_updateOutput) _(R, SmoothL1Criterion_updateGradInput)                                 \
  _(R, SoftMarginCriterion_updateOutput) _(R, SoftMarginCriterion_updateGradInput)                             \
  _(R, DistKLDivCriterion_updateOutput) _(R, DistKLDivCriterion_updateGradInput)                               \
  _(R, ClassNLLCriterion_updateOutput) _(R, ClassNLLCriterion_updateGradInput)                                 \
  _(R, SpatialClassNLLCriterion_updateOutput) _(R, SpatialClassNLLCriterion_updateGradInput)                   \
  _(R, MultiLabelMarginCriterion_updateOutput) _(R, MultiLabelMarginCriterion_updateGradInput)                 \
  _(R, MultiMarginCriterion_updateOutput) _(R, MultiMarginCriterion_updateGradInput) _(R, Linear_updateOutput) \
  _(R, Linear_updateGradInput) _(R, Linear_accGradParameters) _(R, Bilinear_updateOutput)                      \
  _(R, Bilinear_updateGradInput) _(R, Bilinear_accGradParameters) _(R, BatchNormalization_updateOutput)        \
  _(R, BatchNormalization_backward) _(R, LookupTable_updateOutput) _(R, LookupTable_accGradParameters)         \
  _(R, LookupTable_renorm)
// clang-format on

#define TORCH_NN_MEMBER(R, name) static constexpr auto name = &THNN_##R##name;
template <>
struct NN<float> {
  TORCH_NN_FNS(TORCH_NN_MEMBER, Float)
};
template <>
struct NN<double> {
  TORCH_NN_FNS(TORCH_NN_MEMBER, Double)
};
#undef TORCH_NN_MEMBER
#undef TORCH_NN_FNS

constexpr int64_t kParallelGrain = 32768;  // TH's OpenMP threshold

// THNN resizes the tensors it is handed; this is one to hand it.
Tensor blank(ScalarType dtype) { return empty({0}, dtype); }

// The TH tensor of t, or NULL for an undefined (optional) tensor.
template <typename T>
typename TH<T>::Tensor *thOrNull(const Tensor &t) {
  return t.defined() ? t.th<T>() : nullptr;
}

template <typename T>
T *dataOf(const Tensor &t) {
  return reinterpret_cast<T *>(t.dataPtr());
}

Tensor zerosOf(const IntList &sizes, ScalarType dtype) {
  Tensor z = empty(sizes, dtype);
  zero_(z);
  return z;
}

void checkSameType(const Tensor &x, const Tensor &other, const char *op, const char *what) {
  if (!other.defined()) return;
  TORCH_CHECK(other.dtype() == x.dtype(), Runtime, "%s: expected %s to have scalar type %s but found %s", op, what,
              scalarTypeName(x.dtype()), scalarTypeName(other.dtype()));
}

void checkFloating(const Tensor &x, const char *op) {
  TORCH_CHECK(x.dtype() == ScalarType::Float || x.dtype() == ScalarType::Double, Type,
              "%s is only implemented for floating point tensors (got %s)", op, scalarTypeName(x.dtype()));
}

// Integer class targets as a Long tensor.
Tensor longTargets(const Tensor &target, const char *op) {
  TORCH_CHECK(isIntegral(target.dtype()), Runtime, "%s: expected target of scalar type Long but found %s", op,
              scalarTypeName(target.dtype()));
  return toType(target, ScalarType::Long);
}

// A one-element view of a reduced loss's gradient, as THNN's criterions take it.
Tensor asOneElement(const Tensor &g) { return reshape(contiguous(g), {1}); }

int64_t productOf(const IntList &sizes, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to && i < sizes.size(); i++) n *= sizes[i];
  return n;
}

// Which inputs need a gradient (read while recording).
std::vector<bool> needs(std::initializer_list<const Tensor *> inputs) {
  std::vector<bool> r;
  for (const Tensor *t : inputs) r.push_back(t->defined() && requiresGrad(*t));
  return r;
}

// ---- element-wise maps of our own (for the activations THNN lacks) ----

// f applied to every element of x (Float or Double), into a new contiguous tensor.
template <typename F>
Tensor mapUnary(const char *op, const Tensor &x, F f) {
  return dispatchFloating(x.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor c = contiguous(x);
    Tensor r = empty(x.sizes(), x.dtype());
    const T *in = dataOf<T>(c);
    T *out = dataOf<T>(r);
    const int64_t n = x.numel();
#pragma omp parallel for if (n > kParallelGrain)
    for (int64_t i = 0; i < n; i++) out[i] = f(in[i]);
    return r;
  });
}

// f(a[i], b[i]) for a and b of one shape; b is converted to a's type.
template <typename F>
Tensor mapBinary(const char *op, const Tensor &a, const Tensor &b, F f) {
  return dispatchFloating(a.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor ca = contiguous(a), cb = contiguous(toType(b, a.dtype()));
    Tensor r = empty(a.sizes(), a.dtype());
    const T *pa = dataOf<T>(ca);
    const T *pb = dataOf<T>(cb);
    T *out = dataOf<T>(r);
    const int64_t n = a.numel();
#pragma omp parallel for if (n > kParallelGrain)
    for (int64_t i = 0; i < n; i++) out[i] = f(pa[i], pb[i]);
    return r;
  });
}

// An activation y = f(x) with derivative df(x), both generic over the element type.
template <typename F, typename DF>
Tensor pointwiseActivation(const char *name, const Tensor &x, F f, DF df) {
  RecordScope rec({&x});
  Tensor y = mapUnary(name, x, f);
  if (rec) {
    record(name, {x}, {y}, [name, saved = SavedTensor(x, false), df](const TensorList &g) {
      Tensor xs = saved.unpack(name);
      return TensorList{mapBinary(name, toType(g[0], xs.dtype()), xs, [df](auto go, auto v) { return go * df(v); })};
    });
  }
  return y;
}

// ---- THNN element-wise activations ----

// y = fwd(tag, x, y); the backward calls bwd(tag, x, y, gradOutput, gradInput), with y
// NULL unless keepOutput.
template <typename Fwd, typename Bwd>
Tensor thnnActivation(const char *name, const Tensor &x, bool keepOutput, Fwd fwd, Bwd bwd) {
  checkFloating(x, name);
  RecordScope rec({&x});
  Tensor y = blank(x.dtype());
  dispatchFloating(x.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fwd(tag, x.th<T>(), y.th<T>());
  });
  if (rec) {
    SavedTensor savedX(x, false), savedY = keepOutput ? SavedTensor(y, true) : SavedTensor();
    record(name, {x}, {y}, [=](const TensorList &g) {
      Tensor xs = savedX.unpack(name);
      Tensor ys = keepOutput ? savedY.unpack(name) : Tensor();
      Tensor go = toType(g[0], xs.dtype());
      Tensor gi = blank(xs.dtype());
      dispatchFloating(xs.dtype(), name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        bwd(tag, xs.th<T>(), thOrNull<T>(ys), go.th<T>(), gi.th<T>());
      });
      return TensorList{gi};
    });
  }
  return y;
}

// Note [In-place activations]: op computes the new value of x out of place.
void activationInPlace(const Tensor &x, const std::function<Tensor(const Tensor &)> &op) {
  if (needsRecording({&x})) {
    checkInplace(x);
    bumpVersion(x);
    inplaceWithHistory(x, op);
    return;
  }
  Tensor r = op(x);
  bumpVersion(x);
  copyValues_(x, r);
}

// ---- softmax ----

// x seen as [outer, size(dim), inner, 1]: THNN's 4-D (Log)SoftMax runs along dimension 1.
IntList softmaxShape(const Tensor &x, int d) {
  IntList s = x.sizes();
  if (x.dim() == 0) return {1, 1, 1, 1};
  return {productOf(s, 0, d), s[d], productOf(s, d + 1, s.size()), 1};
}

Tensor softmaxImpl(const char *name, const Tensor &x, int64_t dim, bool log) {
  checkFloating(x, name);
  int d = x.dim() == 0 ? (wrapDim(dim, 1), 0) : wrapDim(dim, x.dim());
  RecordScope rec({&x});
  IntList shape4 = softmaxShape(x, d);
  Tensor x4 = reshape(x, shape4);
  Tensor y4 = empty(shape4, x.dtype());
  if (x.numel() > 0) {
    dispatchFloating(x.dtype(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      (log ? NN<T>::LogSoftMax_updateOutput : NN<T>::SoftMax_updateOutput)(nullptr, x4.th<T>(), y4.th<T>());
    });
  }
  Tensor y = reshape(y4, x.sizes());
  if (rec) {
    record(name, {x}, {y}, [name, log, shape4, saved = SavedTensor(y, true)](const TensorList &g) {
      Tensor ys = saved.unpack(name);
      Tensor y4s = reshape(ys, shape4);
      Tensor g4 = reshape(contiguous(toType(g[0], ys.dtype())), shape4);
      Tensor gi = empty(shape4, ys.dtype());
      if (ys.numel() == 0) return TensorList{reshape(gi, ys.sizes())};
      dispatchFloating(ys.dtype(), name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        (log ? NN<T>::LogSoftMax_updateGradInput : NN<T>::SoftMax_updateGradInput)(nullptr, y4s.th<T>(), g4.th<T>(),
                                                                                   gi.th<T>(), y4s.th<T>());
      });
      return TensorList{reshape(gi, ys.sizes())};
    });
  }
  return y;
}

// ---- losses ----

bool reduces(Reduction r) { return r != Reduction::None; }

// A reduced loss as a 0-dim tensor; per-element losses as they are.
Tensor lossResult(const Tensor &out, Reduction r, const IntList &noneShape) {
  return reduces(r) ? reshape(out, {}) : reshape(out, noneShape);
}

// The gradient of the reduced loss spread over n per-element losses: a scalar for Sum and
// Mean, g itself for None.
Tensor perElementScale(const Tensor &g, Reduction r, int64_t n) {
  if (r == Reduction::Mean) return binary(BinaryOp::Div, g, Scalar(static_cast<double>(n)));
  return g;
}

void checkSameShape(const Tensor &input, const Tensor &target, const char *op) {
  TORCH_CHECK(input.isSameSizeAs(target), Runtime, "%s: the size of target %s must match the size of input %s", op,
              target.sizeString().c_str(), input.sizeString().c_str());
}

enum class TargetGrad { None, Negated, KLDiv };

// How a loss is made from a THNN criterion K: outScale * K(input / inputScale, target /
// inputScale), whose gradient is gradScale * K' (SmoothL1's beta, see smoothL1Loss).
struct Scaling {
  double input = 1, out = 1, grad = 1;
};

// The updateOutput and updateGradInput kernels of THNN's element-wise criterion K for the
// element type of tag (they share one signature).
#define TORCH_NN_CRITERION(K)                                                   \
  [](auto tag) {                                                                \
    using T = typename decltype(tag)::type;                                     \
    return std::make_pair(NN<T>::K##_updateOutput, NN<T>::K##_updateGradInput); \
  }

// An element-wise THNN criterion; kernels(tag) gives its kernels (TORCH_NN_CRITERION).
template <typename Kernels>
Tensor pointwiseCriterion(const char *name, const Tensor &input, const Tensor &target, Reduction reduction,
                          TargetGrad targetGrad, Scaling scaling, Kernels kernels) {
  checkFloating(input, name);
  TORCH_CHECK(isFloating(target.dtype()), Runtime, "%s: expected a floating point target, got %s", name,
              scalarTypeName(target.dtype()));
  checkSameShape(input, target, name);
  RecordScope rec({&input, &target});
  ScalarType type = promoteTypes(input.dtype(), target.dtype());
  Tensor x = toType(input, type), y = toType(target, type);
  if (scaling.input != 1) {
    x = binary(BinaryOp::Div, x, Scalar(scaling.input));
    y = binary(BinaryOp::Div, y, Scalar(scaling.input));
  }
  const double outScale = scaling.out, gradScale = scaling.grad;
  bool sizeAverage = reduction == Reduction::Mean, reduce = reduces(reduction);
  Tensor out = blank(type);
  dispatchFloating(type, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels(tag).first(nullptr, x.th<T>(), y.th<T>(), out.th<T>(), sizeAverage, reduce);
    if (outScale != 1) TH<T>::mul(out.th<T>(), out.th<T>(), static_cast<T>(outScale));
  });
  Tensor loss = lossResult(out, reduction, input.sizes());
  if (rec) {
    std::vector<bool> need = needs({&input, &target});
    SavedTensor sx(x, false), sy(y, false);
    record(name, {input, target}, {loss}, [=](const TensorList &g) -> TensorList {
      Tensor xs = sx.unpack(name), ys = sy.unpack(name);
      Tensor go = reduce ? asOneElement(toType(g[0], xs.dtype())) : toType(g[0], xs.dtype());
      Tensor gi = blank(xs.dtype());
      dispatchFloating(xs.dtype(), name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        kernels(tag).second(nullptr, xs.th<T>(), ys.th<T>(), go.th<T>(), gi.th<T>(), sizeAverage, reduce);
        if (gradScale != 1) TH<T>::mul(gi.th<T>(), gi.th<T>(), static_cast<T>(gradScale));
      });
      gi = reshape(gi, xs.sizes());
      Tensor gt;
      if (need[1] && targetGrad == TargetGrad::Negated) gt = unary(UnaryOp::Neg, gi);
      if (need[1] && targetGrad == TargetGrad::KLDiv) {
        // d/dy y (log y - x) = log y + 1 - x where y > 0
        Tensor d = binary(BinaryOp::Sub, binary(BinaryOp::Add, unary(UnaryOp::Log, ys), Scalar(1.0)), xs);
        Tensor zero = scalarTensor(Scalar(0.0), d.dtype());
        d = where(compare(CompareOp::Gt, ys, Scalar(0.0)), d, zero);
        gt = binary(BinaryOp::Mul, d, perElementScale(toType(g[0], d.dtype()), reduction, xs.numel()));
      }
      return {need[0] ? gi : Tensor(), gt};
    });
  }
  return loss;
}

// Checks class targets against C classes (ignoreIndex aside) before a kernel sees them.
void checkClassTargets(const Tensor &target, int64_t classes, std::optional<int64_t> ignoreIndex) {
  Tensor t = contiguous(target);
  const int64_t *p = dataOf<int64_t>(t);
  for (int64_t i = 0; i < t.numel(); i++) {
    if (ignoreIndex && p[i] == *ignoreIndex) continue;
    TORCH_CHECK(p[i] >= 0 && p[i] < classes, Index, "Target %lld is out of bounds.", static_cast<long long>(p[i]));
  }
}

void checkClassWeight(const Tensor &weight, int64_t classes, const Tensor &input, const char *op) {
  if (!weight.defined()) return;
  TORCH_CHECK(weight.dim() == 1 && weight.numel() == classes, Runtime,
              "%s: weight tensor should be defined either for all %lld classes or no classes but got weight tensor "
              "of shape: %s",
              op, static_cast<long long>(classes), weight.sizeString().c_str());
  checkSameType(input, weight, op, "weight");
}

// ---- CTC ----

double logAdd(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// One sample of the CTC loss: lp(t, c) reads its log-probabilities, labels its target.
// Returns -log p(target | input); when grad is given (a [T, C] block, stride C between
// steps), adds factor * d loss / d lp(t, c) to it.
template <typename LP>
double ctcSample(const LP &lp, const int64_t *labels, int64_t steps, int64_t length, int64_t blank, int64_t classes,
                 double *grad, int64_t gradStepStride, double factor) {
  if (steps == 0) return length == 0 ? 0 : INFINITY;
  const int64_t S = 2 * length + 1;  // the target with blanks around every label
  auto label = [&](int64_t s) { return s % 2 == 0 ? blank : labels[s / 2]; };
  // A path may skip the blank between s - 2 and s when their labels differ.
  auto canSkip = [&](int64_t s) { return s % 2 == 1 && s >= 2 && label(s) != label(s - 2); };
  std::vector<double> alpha(steps * S, -INFINITY);
  alpha[0] = lp(0, blank);
  if (S > 1) alpha[1] = lp(0, label(1));
  for (int64_t t = 1; t < steps; t++) {
    for (int64_t s = 0; s < S; s++) {
      double a = alpha[(t - 1) * S + s];
      if (s >= 1) a = logAdd(a, alpha[(t - 1) * S + s - 1]);
      if (canSkip(s)) a = logAdd(a, alpha[(t - 1) * S + s - 2]);
      alpha[t * S + s] = a == -INFINITY ? a : a + lp(t, label(s));
    }
  }
  double logLikelihood = alpha[(steps - 1) * S + S - 1];
  if (S > 1) logLikelihood = logAdd(logLikelihood, alpha[(steps - 1) * S + S - 2]);
  const double nll = -logLikelihood;
  if (!grad) return nll;

  std::vector<double> beta(steps * S, -INFINITY);
  beta[(steps - 1) * S + S - 1] = lp(steps - 1, blank);
  if (S > 1) beta[(steps - 1) * S + S - 2] = lp(steps - 1, label(S - 2));
  for (int64_t t = steps - 2; t >= 0; t--) {
    for (int64_t s = 0; s < S; s++) {
      double b = beta[(t + 1) * S + s];
      if (s + 1 < S) b = logAdd(b, beta[(t + 1) * S + s + 1]);
      if (s + 2 < S && canSkip(s + 2)) b = logAdd(b, beta[(t + 1) * S + s + 2]);
      beta[t * S + s] = b == -INFINITY ? b : b + lp(t, label(s));
    }
  }
  // alpha_t(s) beta_t(s) counts lp(t, label(s)) twice: the paths through label c at time t
  // have probability exp(lcab(c) - lp(t, c)), and d nll / d lp(t, c) is minus that over p.
  std::vector<double> lcab(classes);
  for (int64_t t = 0; t < steps; t++) {
    std::fill(lcab.begin(), lcab.end(), -INFINITY);
    for (int64_t s = 0; s < S; s++) {
      lcab[label(s)] = logAdd(lcab[label(s)], alpha[t * S + s] + beta[t * S + s]);
    }
    for (int64_t c = 0; c < classes; c++) {
      if (lcab[c] == -INFINITY) continue;
      grad[t * gradStepStride + c] -= factor * std::exp(lcab[c] + nll - lp(t, c));
    }
  }
  return nll;
}

// Where each sample's labels start in the targets, checked against the lengths.
struct CtcLayout {
  Tensor targets;  // Long, contiguous
  std::vector<int64_t> start, inputLengths, targetLengths;
};

CtcLayout ctcLayout(const Tensor &logProbs, const Tensor &targets, const Tensor &inputLengths,
                    const Tensor &targetLengths, int64_t batch, int64_t blank) {
  const int64_t T = logProbs.size(0), C = logProbs.size(2);
  TORCH_CHECK(blank >= 0 && blank < C, Runtime, "blank must be in label range");
  CtcLayout layout;
  layout.targets = contiguous(longTargets(targets, "ctc_loss"));
  auto lengths = [&](const Tensor &t, const char *what) {
    TORCH_CHECK(isIntegral(t.dtype()) && t.dim() <= 1 && t.numel() == batch, Runtime, "%s must be of size batch_size",
                what);
    Tensor c = contiguous(toType(t, ScalarType::Long));
    return std::vector<int64_t>(dataOf<int64_t>(c), dataOf<int64_t>(c) + batch);
  };
  layout.inputLengths = lengths(inputLengths, "input_lengths");
  layout.targetLengths = lengths(targetLengths, "target_lengths");
  int64_t maxTarget = 0, total = 0;
  for (int64_t b = 0; b < batch; b++) {
    int64_t in = layout.inputLengths[b], tl = layout.targetLengths[b];
    TORCH_CHECK(in >= 0 && in <= T, Runtime,
                "Expected input_lengths to have value at most %lld, but got value %lld (while checking arguments "
                "for ctc_loss)",
                static_cast<long long>(T), static_cast<long long>(in));
    TORCH_CHECK(tl >= 0, Runtime, "Expected target_lengths to be non-negative, but got value %lld",
                static_cast<long long>(tl));
    maxTarget = std::max(maxTarget, tl);
    layout.start.push_back(total);
    total += tl;
  }
  const Tensor &tg = layout.targets;
  if (tg.dim() == 1) {
    TORCH_CHECK(tg.size(0) >= total, Runtime,
                "Expected tensor to have size at least %lld at dimension 0, but got size %lld for argument #2 "
                "'targets' (while checking arguments for ctc_loss)",
                static_cast<long long>(total), static_cast<long long>(tg.size(0)));
  } else {
    TORCH_CHECK(tg.dim() == 2 && tg.size(0) == batch, Runtime,
                "ctc_loss: targets must be [batch_size, max_target_length] or 1-D, got %s for batch_size %lld",
                tg.sizeString().c_str(), static_cast<long long>(batch));
    TORCH_CHECK(tg.size(1) >= maxTarget, Runtime,
                "Expected tensor to have size at least %lld at dimension 1, but got size %lld for argument #2 "
                "'targets' (while checking arguments for ctc_loss)",
                static_cast<long long>(maxTarget), static_cast<long long>(tg.size(1)));
    for (int64_t b = 0; b < batch; b++) layout.start[b] = b * tg.size(1);
  }
  const int64_t *labels = dataOf<int64_t>(tg);
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < layout.targetLengths[b]; i++) {
      int64_t v = labels[layout.start[b] + i];
      TORCH_CHECK(v >= 0 && v < C, Index, "ctc_loss: target %lld is out of range for %lld classes",
                  static_cast<long long>(v), static_cast<long long>(C));
    }
  }
  return layout;
}

// Per-sample losses (double) of logProbs [T, N, C]; with grad ([T, N, C] doubles, zeroed),
// the gradient of sum_b factors[b] * loss_b is added there.
std::vector<double> ctcRun(const Tensor &logProbs, const CtcLayout &layout, int64_t blank, double *grad,
                           const std::vector<double> &factors) {
  const int64_t N = logProbs.size(1), C = logProbs.size(2);
  std::vector<double> losses(N);
  dispatchFloating(logProbs.dtype(), "ctc_loss", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor lpc = contiguous(logProbs);
    const T *p = dataOf<T>(lpc);
    const int64_t *labels = dataOf<int64_t>(layout.targets);
#pragma omp parallel for if (N > 1)
    for (int64_t b = 0; b < N; b++) {
      auto lp = [&](int64_t t, int64_t c) { return static_cast<double>(p[(t * N + b) * C + c]); };
      losses[b] = ctcSample(lp, labels + layout.start[b], layout.inputLengths[b], layout.targetLengths[b], blank, C,
                            grad ? grad + b * C : nullptr, N * C, grad ? factors[b] : 0);
    }
  });
  return losses;
}

// ---- embedding bags ----

struct Bags {
  std::vector<int64_t> begin, end;  // entry ranges of each bag in the flattened indices
};

}  // namespace

Reduction reductionOf(const std::string &name) {
  if (name == "none") return Reduction::None;
  if (name == "mean") return Reduction::Mean;
  if (name == "sum") return Reduction::Sum;
  fail(th::ErrorKind::Value, "%s is not a valid value for reduction", name.c_str());
}

// ---- linear maps ----

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) {
  TORCH_CHECK(input.dim() >= 1 && weight.dim() >= 1, Runtime,
              "both arguments to linear need to be at least 1D, but they are %dD and %dD", input.dim(), weight.dim());
  TORCH_CHECK(weight.dim() == 2, Runtime, "linear(): weight must be 2-D [out_features, in_features], got %s",
              weight.sizeString().c_str());
  const int64_t in = input.size(input.dim() - 1), out = weight.size(0);
  const int64_t rows = input.dim() == 1 ? 1 : productOf(input.sizes(), 0, input.dim() - 1);
  TORCH_CHECK(in == weight.size(1), Runtime, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
              static_cast<long long>(rows), static_cast<long long>(in), static_cast<long long>(weight.size(1)),
              static_cast<long long>(out));
  TORCH_CHECK(input.dtype() == weight.dtype(), Runtime, "mat1 and mat2 must have the same dtype");
  checkFloating(input, "linear");
  if (bias.defined()) {
    TORCH_CHECK(bias.numel() == out && bias.dim() <= 1, Runtime,
                "linear(): bias must have out_features (%lld) elements, got sizes %s", static_cast<long long>(out),
                bias.sizeString().c_str());
    checkSameType(input, bias, "linear", "bias");
  }
  RecordScope rec({&input, &weight, &bias});
  Tensor x2 = input.dim() <= 2 ? input : reshape(input, {rows, in});
  Tensor b1 = bias.defined() ? reshape(bias, {out}) : Tensor();
  Tensor y2 = blank(input.dtype());
  dispatchFloating(input.dtype(), "linear", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor buffer = blank(input.dtype());
    NN<T>::Linear_updateOutput(nullptr, x2.th<T>(), y2.th<T>(), weight.th<T>(), thOrNull<T>(b1), buffer.th<T>());
  });
  IntList outSizes = input.sizes();
  outSizes.back() = out;
  Tensor y = reshape(y2, outSizes);
  if (rec) {
    std::vector<bool> need = needs({&input, &weight, &bias});
    SavedTensor sx(x2, false), sw(weight, false);
    IntList inSizes = input.sizes(), y2Sizes = y2.sizes();
    record("linear", {input, weight, bias}, {y}, [=](const TensorList &g) -> TensorList {
      Tensor xs = sx.unpack("linear"), ws = sw.unpack("linear");
      Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), y2Sizes);
      Tensor gi, gw, gb;
      dispatchFloating(xs.dtype(), "linear", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (need[0]) {
          gi = blank(xs.dtype());
          NN<T>::Linear_updateGradInput(nullptr, xs.th<T>(), go.th<T>(), gi.th<T>(), ws.th<T>());
        }
        if (need[1] || need[2]) {
          gw = zerosOf(ws.sizes(), ws.dtype());
          gb = zerosOf({ws.size(0)}, ws.dtype());
          Tensor buffer = blank(xs.dtype());
          NN<T>::Linear_accGradParameters(nullptr, xs.th<T>(), go.th<T>(), nullptr, ws.th<T>(), gb.th<T>(), gw.th<T>(),
                                          gb.th<T>(), buffer.th<T>(), 1.0);
        }
      });
      return {need[0] ? reshape(gi, inSizes) : Tensor(), need[1] ? gw : Tensor(), need[2] ? gb : Tensor()};
    });
  }
  return y;
}

Tensor bilinear(const Tensor &input1, const Tensor &input2, const Tensor &weight, const Tensor &bias) {
  TORCH_CHECK(input1.dim() == input2.dim(), Runtime, "bilinear(): input dimensions do not match: got %d and %d",
              input1.dim(), input2.dim());
  TORCH_CHECK(input1.dim() >= 1, Runtime, "bilinear(): inputs must have at least one dimension");
  for (int d = 0; d + 1 < input1.dim(); d++) {
    TORCH_CHECK(input1.size(d) == input2.size(d), Runtime,
                "bilinear(): input batch dimensions do not match: got %s and %s", input1.sizeString().c_str(),
                input2.sizeString().c_str());
  }
  TORCH_CHECK(weight.dim() == 3, Runtime, "bilinear(): weight must be 3-D [out, in1, in2], got %s",
              weight.sizeString().c_str());
  const int64_t in1 = input1.size(input1.dim() - 1), in2 = input2.size(input2.dim() - 1), out = weight.size(0);
  TORCH_CHECK(in1 == weight.size(1), Runtime,
              "bilinear(): input1 size does not match weight size: got %lld but expected %lld",
              static_cast<long long>(in1), static_cast<long long>(weight.size(1)));
  TORCH_CHECK(in2 == weight.size(2), Runtime,
              "bilinear(): input2 size does not match weight size: got %lld but expected %lld",
              static_cast<long long>(in2), static_cast<long long>(weight.size(2)));
  if (bias.defined()) {
    TORCH_CHECK(bias.numel() == out && bias.dim() <= 1, Runtime,
                "bilinear(): bias size does not match weight size: got %lld but expected %lld",
                static_cast<long long>(bias.numel()), static_cast<long long>(out));
  }
  checkFloating(input1, "bilinear");
  checkSameType(input1, input2, "bilinear", "input2");
  checkSameType(input1, weight, "bilinear", "weight");
  checkSameType(input1, bias, "bilinear", "bias");
  RecordScope rec({&input1, &input2, &weight, &bias});
  const int64_t rows = productOf(input1.sizes(), 0, input1.dim() - 1);
  Tensor x1 = reshape(input1, {rows, in1}), x2 = reshape(input2, {rows, in2});
  Tensor b1 = bias.defined() ? reshape(bias, {out}) : Tensor();
  Tensor y2 = blank(input1.dtype());
  dispatchFloating(input1.dtype(), "bilinear", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor buffer = blank(input1.dtype());
    NN<T>::Bilinear_updateOutput(nullptr, x1.th<T>(), x2.th<T>(), y2.th<T>(), weight.th<T>(), thOrNull<T>(b1),
                                 buffer.th<T>());
  });
  IntList outSizes = input1.sizes();
  outSizes.back() = out;
  Tensor y = reshape(y2, outSizes);
  if (rec) {
    std::vector<bool> need = needs({&input1, &input2, &weight, &bias});
    SavedTensor s1(x1, false), s2(x2, false), sw(weight, false);
    IntList sizes1 = input1.sizes(), sizes2 = input2.sizes();
    record("bilinear", {input1, input2, weight, bias}, {y}, [=](const TensorList &g) -> TensorList {
      Tensor a = s1.unpack("bilinear"), b = s2.unpack("bilinear"), w = sw.unpack("bilinear");
      Tensor go = reshape(contiguous(toType(g[0], a.dtype())), {a.size(0), w.size(0)});
      Tensor g1 = need[0] ? blank(a.dtype()) : Tensor(), g2 = need[1] ? blank(a.dtype()) : Tensor();
      Tensor gw, gb;
      dispatchFloating(a.dtype(), "bilinear", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor buffer = blank(a.dtype());
        if (need[0] || need[1]) {
          NN<T>::Bilinear_updateGradInput(nullptr, a.th<T>(), b.th<T>(), go.th<T>(), thOrNull<T>(g1), thOrNull<T>(g2),
                                          w.th<T>(), buffer.th<T>());
        }
        if (need[2] || need[3]) {
          gw = zerosOf(w.sizes(), w.dtype());
          gb = zerosOf({w.size(0)}, w.dtype());
          NN<T>::Bilinear_accGradParameters(nullptr, a.th<T>(), b.th<T>(), go.th<T>(), gw.th<T>(), gb.th<T>(),
                                            buffer.th<T>(), 1.0);
        }
      });
      return {need[0] ? reshape(g1, sizes1) : Tensor(), need[1] ? reshape(g2, sizes2) : Tensor(),
              need[2] ? gw : Tensor(), need[3] ? gb : Tensor()};
    });
  }
  return y;
}

// ---- activations ----

Tensor threshold(const Tensor &x, double threshold, double value) {
  return thnnActivation(
      "threshold", x, false,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::Threshold_updateOutput(nullptr, in, out, threshold, value, false);
      },
      [=](auto tag, auto *in, auto *, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::Threshold_updateGradInput(nullptr, in, go, gi, threshold, value, false);
      });
}

void threshold_(const Tensor &x, double th, double value) {
  activationInPlace(x, [=](const Tensor &b) { return threshold(b, th, value); });
}

Tensor relu(const Tensor &x) {
  if (!isFloating(x.dtype())) {
    TORCH_CHECK(x.dtype() != ScalarType::Bool, Runtime, "\"relu\" not implemented for 'Bool'");
    return clamp(x, Scalar(int64_t(0)), std::nullopt);
  }
  return thnnActivation(
      "relu", x, false,
      [](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::Threshold_updateOutput(nullptr, in, out, 0, 0, false);
      },
      [](auto tag, auto *in, auto *, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::Threshold_updateGradInput(nullptr, in, go, gi, 0, 0, false);
      });
}

void relu_(const Tensor &x) {
  if (!isFloating(x.dtype())) {
    TORCH_CHECK(x.dtype() != ScalarType::Bool, Runtime, "\"relu\" not implemented for 'Bool'");
    clamp_(x, Scalar(int64_t(0)), std::nullopt);
    return;
  }
  activationInPlace(x, [](const Tensor &b) { return relu(b); });
}

Tensor hardtanh(const Tensor &x, double minVal, double maxVal) {
  TORCH_CHECK(minVal < maxVal, Value, "hardtanh: max_val (%g) must be larger than min_val (%g)", maxVal, minVal);
  return thnnActivation(
      "hardtanh", x, false,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::HardTanh_updateOutput(nullptr, in, out, minVal, maxVal, false);
      },
      [=](auto tag, auto *in, auto *, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::HardTanh_updateGradInput(nullptr, in, go, gi, minVal, maxVal, false);
      });
}

void hardtanh_(const Tensor &x, double minVal, double maxVal) {
  activationInPlace(x, [=](const Tensor &b) { return hardtanh(b, minVal, maxVal); });
}

Tensor leakyRelu(const Tensor &x, double negativeSlope) {
  return thnnActivation(
      "leaky_relu", x, false,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::LeakyReLU_updateOutput(nullptr, in, out, negativeSlope, false);
      },
      [=](auto tag, auto *in, auto *, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::LeakyReLU_updateGradInput(nullptr, in, go, gi, negativeSlope, false);
      });
}

void leakyRelu_(const Tensor &x, double negativeSlope) {
  activationInPlace(x, [=](const Tensor &b) { return leakyRelu(b, negativeSlope); });
}

Tensor prelu(const Tensor &x, const Tensor &weight) {
  checkFloating(x, "prelu");
  checkSameType(x, weight, "prelu", "weight");
  TORCH_CHECK(x.dim() > 0, Runtime, "Not allow zero-dim input tensor.");
  const int64_t slopes = weight.numel();
  const int64_t channels = x.dim() > 1 ? x.size(1) : 1;
  TORCH_CHECK(slopes == 1 || slopes == channels, Runtime,
              "Mismatch of parameter numbers and input channel size. Found parameter numbers = %lld and channel "
              "size = %lld.",
              static_cast<long long>(slopes), static_cast<long long>(channels));
  RecordScope rec({&x, &weight});
  // THNN's channel dimension is 1 for 2-D and 4-D input: [N, C, rest, 1] puts PyTorch's there.
  IntList shape = x.dim() <= 2 ? x.sizes() : IntList{x.size(0), x.size(1), productOf(x.sizes(), 2, x.dim()), 1};
  Tensor xs = reshape(x, shape), w = reshape(weight, {slopes});
  Tensor y = blank(x.dtype());
  dispatchFloating(x.dtype(), "prelu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    NN<T>::PReLU_updateOutput(nullptr, xs.th<T>(), y.th<T>(), w.th<T>());
  });
  y = reshape(y, x.sizes());
  if (rec) {
    std::vector<bool> need = needs({&x, &weight});
    SavedTensor sx(xs, false), sw(w, false);
    IntList sizes = x.sizes(), wSizes = weight.sizes();
    record("prelu", {x, weight}, {y}, [=](const TensorList &g) -> TensorList {
      Tensor in = sx.unpack("prelu"), ws = sw.unpack("prelu");
      Tensor go = reshape(contiguous(toType(g[0], in.dtype())), in.sizes());
      Tensor gi, gw;
      dispatchFloating(in.dtype(), "prelu", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (need[0]) {
          gi = blank(in.dtype());
          NN<T>::PReLU_updateGradInput(nullptr, in.th<T>(), go.th<T>(), gi.th<T>(), ws.th<T>());
        }
        if (need[1]) {
          gw = zerosOf(ws.sizes(), ws.dtype());
          NN<T>::PReLU_accGradParameters(nullptr, in.th<T>(), go.th<T>(), nullptr, ws.th<T>(), gw.th<T>(), 1.0);
        }
      });
      return {need[0] ? reshape(gi, sizes) : Tensor(), need[1] ? reshape(gw, wSizes) : Tensor()};
    });
  }
  return y;
}

Tensor rrelu(const Tensor &x, double lower, double upper, bool training) {
  checkFloating(x, "rrelu");
  TORCH_CHECK(lower <= upper, Value, "Lower bound should be less than or equal to the upper bound");
  RecordScope rec({&x});
  Tensor y = blank(x.dtype()), noise = blank(x.dtype());
  dispatchFloating(x.dtype(), "rrelu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Generator::defaultGenerator().with([&](THGenerator *gen) {
      NN<T>::RReLU_updateOutput(nullptr, x.th<T>(), y.th<T>(), noise.th<T>(), lower, upper, training, false, gen);
    });
  });
  if (rec) {
    record("rrelu_with_noise", {x}, {y}, [=, sx = SavedTensor(x, false)](const TensorList &g) {
      Tensor in = sx.unpack("rrelu_with_noise");
      Tensor go = toType(g[0], in.dtype());
      Tensor gi = blank(in.dtype());
      dispatchFloating(in.dtype(), "rrelu", [&](auto tag) {
        using T = typename decltype(tag)::type;
        NN<T>::RReLU_updateGradInput(nullptr, in.th<T>(), go.th<T>(), gi.th<T>(), noise.th<T>(), lower, upper, training,
                                     false);
      });
      return TensorList{gi};
    });
  }
  return y;
}

void rrelu_(const Tensor &x, double lower, double upper, bool training) {
  activationInPlace(x, [=](const Tensor &b) { return rrelu(b, lower, upper, training); });
}

Tensor elu(const Tensor &x, double alpha) {
  return thnnActivation(
      "elu", x, true,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::ELU_updateOutput(nullptr, in, out, alpha, false);
      },
      [=](auto tag, auto *in, auto *out, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::ELU_updateGradInput(nullptr, in, go, gi, out, alpha, false);
      });
}

void elu_(const Tensor &x, double alpha) {
  activationInPlace(x, [=](const Tensor &b) { return elu(b, alpha); });
}

namespace {
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSqrtHalf = 0.70710678118654752440, kInvSqrt2Pi = 0.39894228040143267794;
constexpr double kSqrt2OverPi = 0.79788456080286535588, kGeluCubic = 0.044715;
}  // namespace

Tensor selu(const Tensor &x) {
  return pointwiseActivation(
      "selu", x,
      [](auto v) {
        using T = decltype(v);
        return static_cast<T>(kSeluScale * (v > 0 ? v : kSeluAlpha * std::expm1(v)));
      },
      [](auto v) {
        using T = decltype(v);
        return static_cast<T>(v > 0 ? kSeluScale : kSeluScale * kSeluAlpha * std::exp(v));
      });
}

void selu_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return selu(b); });
}

Tensor celu(const Tensor &x, double alpha) {
  TORCH_CHECK(alpha != 0, Runtime, "ZeroDivisionError: celu's alpha must not be 0");
  return pointwiseActivation(
      "celu", x,
      [alpha](auto v) {
        using T = decltype(v);
        return v > 0 ? v : static_cast<T>(alpha * std::expm1(v / alpha));
      },
      [alpha](auto v) {
        using T = decltype(v);
        return v > 0 ? T(1) : static_cast<T>(std::exp(v / alpha));
      });
}

void celu_(const Tensor &x, double alpha) {
  activationInPlace(x, [=](const Tensor &b) { return celu(b, alpha); });
}

Tensor gelu(const Tensor &x, bool tanhApproximation) {
  if (tanhApproximation) {
    return pointwiseActivation(
        "gelu", x,
        [](auto v) {
          using T = decltype(v);
          double u = kSqrt2OverPi * (v + kGeluCubic * v * v * v);
          return static_cast<T>(0.5 * v * (1 + std::tanh(u)));
        },
        [](auto v) {
          using T = decltype(v);
          double u = kSqrt2OverPi * (v + kGeluCubic * v * v * v), t = std::tanh(u);
          double du = kSqrt2OverPi * (1 + 3 * kGeluCubic * v * v);
          return static_cast<T>(0.5 * (1 + t) + 0.5 * v * (1 - t * t) * du);
        });
  }
  return pointwiseActivation(
      "gelu", x,
      [](auto v) {
        using T = decltype(v);
        return static_cast<T>(0.5 * v * (1 + std::erf(v * kSqrtHalf)));
      },
      [](auto v) {
        using T = decltype(v);
        return static_cast<T>(0.5 * (1 + std::erf(v * kSqrtHalf)) + v * kInvSqrt2Pi * std::exp(-0.5 * v * v));
      });
}

namespace {
template <typename T>
T sigmoidOf(T v) {
  return T(1) / (T(1) + std::exp(-v));
}
// log(1 + exp(v)) without overflow.
template <typename T>
T softplusOf(T v) {
  return v > T(20) ? v : std::log1p(std::exp(v));
}
}  // namespace

Tensor silu(const Tensor &x) {
  return pointwiseActivation(
      "silu", x, [](auto v) { return v * sigmoidOf(v); },
      [](auto v) {
        auto s = sigmoidOf(v);
        return s * (1 + v * (1 - s));
      });
}

void silu_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return silu(b); });
}

Tensor mish(const Tensor &x) {
  return pointwiseActivation(
      "mish", x, [](auto v) { return v * std::tanh(softplusOf(v)); },
      [](auto v) {
        auto t = std::tanh(softplusOf(v));
        return t + v * sigmoidOf(v) * (1 - t * t);
      });
}

void mish_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return mish(b); });
}

Tensor hardsigmoid(const Tensor &x) {
  return pointwiseActivation(
      "hardsigmoid", x,
      [](auto v) {
        using T = decltype(v);
        return v <= T(-3) ? T(0) : v >= T(3) ? T(1) : v / T(6) + T(0.5);
      },
      [](auto v) {
        using T = decltype(v);
        return v > T(-3) && v < T(3) ? T(1) / T(6) : T(0);
      });
}

void hardsigmoid_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return hardsigmoid(b); });
}

Tensor hardswish(const Tensor &x) {
  return pointwiseActivation(
      "hardswish", x,
      [](auto v) {
        using T = decltype(v);
        return v <= T(-3) ? T(0) : v >= T(3) ? v : v * (v + T(3)) / T(6);
      },
      [](auto v) {
        using T = decltype(v);
        return v < T(-3) ? T(0) : v <= T(3) ? v / T(3) + T(0.5) : T(1);
      });
}

void hardswish_(const Tensor &x) {
  activationInPlace(x, [](const Tensor &b) { return hardswish(b); });
}

Tensor softplus(const Tensor &x, double beta, double threshold) {
  return thnnActivation(
      "softplus", x, true,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::SoftPlus_updateOutput(nullptr, in, out, beta, threshold);
      },
      [=](auto tag, auto *in, auto *out, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::SoftPlus_updateGradInput(nullptr, in, go, gi, out, beta, threshold);
      });
}

Tensor softshrink(const Tensor &x, double lambda) {
  TORCH_CHECK(lambda >= 0, Runtime, "lambda must be greater or equal to 0, but found to be %g.", lambda);
  return thnnActivation(
      "softshrink", x, false,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::SoftShrink_updateOutput(nullptr, in, out, lambda);
      },
      [=](auto tag, auto *in, auto *, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::SoftShrink_updateGradInput(nullptr, in, go, gi, lambda);
      });
}

Tensor hardshrink(const Tensor &x, double lambda) {
  return thnnActivation(
      "hardshrink", x, false,
      [=](auto tag, auto *in, auto *out) {
        NN<typename decltype(tag)::type>::HardShrink_updateOutput(nullptr, in, out, lambda);
      },
      [=](auto tag, auto *in, auto *, auto *go, auto *gi) {
        NN<typename decltype(tag)::type>::HardShrink_updateGradInput(nullptr, in, go, gi, lambda);
      });
}

Tensor logSigmoid(const Tensor &x) {
  checkFloating(x, "log_sigmoid");
  RecordScope rec({&x});
  Tensor y = blank(x.dtype()), buffer = blank(x.dtype());
  dispatchFloating(x.dtype(), "log_sigmoid", [&](auto tag) {
    using T = typename decltype(tag)::type;
    NN<T>::LogSigmoid_updateOutput(nullptr, x.th<T>(), y.th<T>(), buffer.th<T>());
  });
  if (rec) {
    record("log_sigmoid", {x}, {y}, [buffer, sx = SavedTensor(x, false)](const TensorList &g) {
      Tensor in = sx.unpack("log_sigmoid");
      Tensor go = toType(g[0], in.dtype());
      Tensor gi = blank(in.dtype());
      dispatchFloating(in.dtype(), "log_sigmoid", [&](auto tag) {
        using T = typename decltype(tag)::type;
        NN<T>::LogSigmoid_updateGradInput(nullptr, in.th<T>(), go.th<T>(), gi.th<T>(), buffer.th<T>());
      });
      return TensorList{gi};
    });
  }
  return y;
}

Tensor softmax(const Tensor &x, int64_t dim) { return softmaxImpl("softmax", x, dim, false); }

Tensor logSoftmax(const Tensor &x, int64_t dim) { return softmaxImpl("log_softmax", x, dim, true); }

// ---- losses ----

Tensor l1Loss(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("l1_loss", input, target, reduction, TargetGrad::Negated, Scaling{},
                            TORCH_NN_CRITERION(AbsCriterion));
}

Tensor mseLoss(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("mse_loss", input, target, reduction, TargetGrad::Negated, Scaling{},
                            TORCH_NN_CRITERION(MSECriterion));
}

// THNN's SmoothL1 has beta = 1. With d = x - y, beta S1(d / beta) is the loss for beta, so
// the kernel runs on input / beta and target / beta; Huber's loss is delta times that.
Tensor smoothL1Loss(const Tensor &input, const Tensor &target, Reduction reduction, double beta) {
  TORCH_CHECK(beta >= 0, Runtime, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0) return l1Loss(input, target, reduction);
  return pointwiseCriterion("smooth_l1_loss", input, target, reduction, TargetGrad::Negated, Scaling{beta, beta, 1},
                            TORCH_NN_CRITERION(SmoothL1Criterion));
}

Tensor huberLoss(const Tensor &input, const Tensor &target, Reduction reduction, double delta) {
  TORCH_CHECK(delta > 0, Runtime, "huber_loss does not support non-positive values for delta.");
  return pointwiseCriterion("huber_loss", input, target, reduction, TargetGrad::Negated,
                            Scaling{delta, delta * delta, delta}, TORCH_NN_CRITERION(SmoothL1Criterion));
}

Tensor softMarginLoss(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("soft_margin_loss", input, target, reduction, TargetGrad::None, Scaling{},
                            TORCH_NN_CRITERION(SoftMarginCriterion));
}

Tensor klDiv(const Tensor &input, const Tensor &target, Reduction reduction) {
  return pointwiseCriterion("kl_div", input, target, reduction, TargetGrad::KLDiv, Scaling{},
                            TORCH_NN_CRITERION(DistKLDivCriterion));
}

namespace {

// Whether every element lies in [0, 1] (NaN does not).
bool allProbabilities(const Tensor &x) {
  return dispatchFloating(x.dtype(), "binary_cross_entropy", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor c = contiguous(x);
    const T *p = dataOf<T>(c);
    for (int64_t i = 0; i < c.numel(); i++) {
      if (!(p[i] >= 0 && p[i] <= 1)) return false;
    }
    return true;
  });
}

}  // namespace

// Note [BCE at 0 and 1]: THNN's BCECriterion is torch7's, log(x + 1e-12); PyTorch clamps
// each log at -100 instead, so a saturated probability (sigmoid(20) is 1 in float) costs
// 100, not 27.6. This follows PyTorch, with its gradient (x - y) / max(x (1 - x), 1e-12).
Tensor binaryCrossEntropy(const Tensor &input, const Tensor &target, const Tensor &weight, Reduction reduction) {
  checkFloating(input, "binary_cross_entropy");
  checkSameShape(input, target, "binary_cross_entropy");
  checkSameType(input, target, "binary_cross_entropy", "target");
  if (weight.defined()) {
    TORCH_CHECK(weight.isSameSizeAs(input), Runtime,
                "binary_cross_entropy: weight of size %s must have the size of input %s", weight.sizeString().c_str(),
                input.sizeString().c_str());
    checkSameType(input, weight, "binary_cross_entropy", "weight");
  }
  TORCH_CHECK(allProbabilities(input), Runtime, "all elements of input should be between 0 and 1");
  RecordScope rec({&input});
  Tensor losses = mapBinary("binary_cross_entropy", input, target, [](auto x, auto y) {
    using T = decltype(x);
    T logX = std::max(std::log(x), T(-100)), log1mX = std::max(std::log(1 - x), T(-100));
    return -(y * logX + (1 - y) * log1mX);
  });
  if (weight.defined()) losses = binary(BinaryOp::Mul, losses, weight);
  Tensor loss = reduction == Reduction::None  ? losses
                : reduction == Reduction::Sum ? sum(losses, {}, false)
                                              : mean(losses, {}, false);
  if (rec) {
    SavedTensor sx(input, false), sy(target, false);
    const int64_t n = input.numel();
    Tensor w = weight;
    record("binary_cross_entropy", {input}, {loss}, [=](const TensorList &g) {
      Tensor xs = sx.unpack("binary_cross_entropy"), ys = sy.unpack("binary_cross_entropy");
      Tensor d = mapBinary("binary_cross_entropy", xs, ys, [](auto x, auto y) {
        using T = decltype(x);
        return (x - y) / std::max((1 - x) * x, T(1e-12));
      });
      if (w.defined()) d = binary(BinaryOp::Mul, d, w);
      return TensorList{binary(BinaryOp::Mul, d, perElementScale(toType(g[0], d.dtype()), reduction, n))};
    });
  }
  return loss;
}

Tensor nllLoss(const Tensor &input, const Tensor &target, const Tensor &weight, Reduction reduction,
               int64_t ignoreIndex) {
  checkFloating(input, "nll_loss");
  TORCH_CHECK(input.dim() >= 1, Runtime, "Expected 1 or more dimensions (got 0)");
  TORCH_CHECK(isIntegral(target.dtype()), Runtime, "expected scalar type Long but found %s",
              scalarTypeName(target.dtype()));
  const int nd = input.dim();
  if (nd >= 2) {
    TORCH_CHECK(target.dim() >= 1, Runtime, "0D or 1D target tensor expected, multi-target not supported");
    TORCH_CHECK(input.size(0) == target.size(0), Value,
                "Expected input batch_size (%lld) to match target batch_size (%lld).",
                static_cast<long long>(input.size(0)), static_cast<long long>(target.size(0)));
  }
  const int64_t classes = nd == 1 ? input.size(0) : input.size(1);
  IntList noneShape;        // the shape of per-sample losses
  IntList inShape, tShape;  // what THNN sees
  if (nd == 1) {
    TORCH_CHECK(target.dim() <= 1 && target.numel() == 1, Runtime,
                "0D or 1D target tensor expected, multi-target not supported");
    noneShape = target.sizes();
    inShape = input.sizes();
    tShape = {1};
  } else if (nd == 2) {
    TORCH_CHECK(target.dim() == 1, Runtime, "0D or 1D target tensor expected, multi-target not supported");
    noneShape = target.sizes();
    inShape = input.sizes();
    tShape = target.sizes();
  } else {
    IntList sizes = input.sizes();
    IntList spatial(sizes.begin() + 2, sizes.end());
    IntList expected = spatial;
    expected.insert(expected.begin(), input.size(0));
    TORCH_CHECK(target.hasSizes(expected), Runtime, "Expected target size %s, got %s", shapeString(expected).c_str(),
                target.sizeString().c_str());
    const int64_t pixels = productOf(spatial, 0, spatial.size());
    noneShape = expected;
    inShape = {input.size(0), classes, pixels, 1};
    tShape = {input.size(0), pixels, 1};
  }
  checkClassWeight(weight, classes, input, "nll_loss");
  Tensor t = reshape(contiguous(toType(target, ScalarType::Long)), tShape);
  checkClassTargets(t, classes, ignoreIndex);
  RecordScope rec({&input});
  Tensor x = reshape(input, inShape);
  const bool spatialKernel = nd > 2, reduce = reduces(reduction);
  Tensor out = blank(input.dtype()), total = blank(input.dtype());
  dispatchFloating(input.dtype(), "nll_loss", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto kernel = spatialKernel ? NN<T>::SpatialClassNLLCriterion_updateOutput : NN<T>::ClassNLLCriterion_updateOutput;
    // Summed here and divided below, so that a mean over no counted target is 0 / 0 = nan.
    kernel(nullptr, x.th<T>(), t.th<int64_t>(), out.th<T>(), false, thOrNull<T>(weight), total.th<T>(), ignoreIndex,
           reduce);
    if (reduction == Reduction::Mean) TH<T>::div(out.th<T>(), out.th<T>(), *TH<T>::data(total.th<T>()));
  });
  Tensor loss = lossResult(out, reduction, noneShape);
  if (rec) {
    IntList outShape = out.sizes(), inSizes = input.sizes();
    record("nll_loss", {input}, {loss}, [=, sx = SavedTensor(x, false)](const TensorList &g) {
      Tensor xs = sx.unpack("nll_loss");
      Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), outShape);
      Tensor gi = blank(xs.dtype()), tw = blank(xs.dtype());
      dispatchFloating(xs.dtype(), "nll_loss", [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto kernel =
            spatialKernel ? NN<T>::SpatialClassNLLCriterion_updateGradInput : NN<T>::ClassNLLCriterion_updateGradInput;
        kernel(nullptr, xs.th<T>(), t.th<int64_t>(), go.th<T>(), gi.th<T>(), reduction == Reduction::Mean,
               thOrNull<T>(weight), tw.th<T>(), ignoreIndex, reduce);
      });
      return TensorList{reshape(gi, inSizes)};
    });
  }
  return loss;
}

Tensor multilabelMarginLoss(const Tensor &input, const Tensor &target, Reduction reduction) {
  checkFloating(input, "multilabel_margin_loss");
  TORCH_CHECK((input.dim() == 2 && input.size(1) != 0) || (input.dim() == 1 && input.size(0) != 0) || input.dim() == 0,
              Runtime, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
              input.sizeString().c_str());
  Tensor t = longTargets(target, "multilabel_margin_loss");
  TORCH_CHECK(t.numel() == input.numel() && t.dim() == input.dim() && (input.dim() == 0 || t.isSameSizeAs(input)),
              Runtime, "inconsistent target size: %s for input of size: %s", t.sizeString().c_str(),
              input.sizeString().c_str());
  RecordScope rec({&input});
  IntList shape = input.dim() == 0 ? IntList{1} : input.sizes();
  Tensor x = reshape(input, shape);
  t = reshape(t, shape);
  IntList noneShape = input.dim() == 2 ? IntList{input.size(0)} : IntList{};
  const bool reduce = reduces(reduction), sizeAverage = reduction == Reduction::Mean;
  Tensor out = blank(input.dtype());
  dispatchFloating(input.dtype(), "multilabel_margin_loss", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor isTarget = blank(input.dtype());
    NN<T>::MultiLabelMarginCriterion_updateOutput(nullptr, x.th<T>(), t.th<int64_t>(), out.th<T>(), isTarget.th<T>(),
                                                  sizeAverage, reduce);
  });
  Tensor loss = lossResult(out, reduction, noneShape);
  if (rec) {
    IntList outShape = out.sizes(), inSizes = input.sizes();
    record("multilabel_margin_loss", {input}, {loss}, [=, sx = SavedTensor(x, false)](const TensorList &g) {
      Tensor xs = sx.unpack("multilabel_margin_loss");
      Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), outShape);
      Tensor gi = blank(xs.dtype());
      dispatchFloating(xs.dtype(), "multilabel_margin_loss", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor isTarget = blank(xs.dtype());
        NN<T>::MultiLabelMarginCriterion_updateGradInput(nullptr, xs.th<T>(), t.th<int64_t>(), go.th<T>(), gi.th<T>(),
                                                         isTarget.th<T>(), sizeAverage, reduce);
      });
      return TensorList{reshape(gi, inSizes)};
    });
  }
  return loss;
}

Tensor multiMarginLoss(const Tensor &input, const Tensor &target, int p, double margin, const Tensor &weight,
                       Reduction reduction) {
  checkFloating(input, "multi_margin_loss");
  TORCH_CHECK(p == 1 || p == 2, Value, "only p == 1 and p == 2 supported");
  TORCH_CHECK((input.dim() == 2 && input.size(1) != 0) || (input.dim() == 1 && input.size(0) != 0) || input.dim() == 0,
              Runtime, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
              input.sizeString().c_str());
  const int64_t rows = input.dim() == 2 ? input.size(0) : 1;
  const int64_t classes = input.dim() == 0 ? 1 : input.size(input.dim() - 1);
  Tensor t = longTargets(target, "multi_margin_loss");
  TORCH_CHECK(t.dim() <= 1 && t.numel() == rows, Runtime, "inconsistent target size, expected %lld but got %s",
              static_cast<long long>(rows), t.sizeString().c_str());
  if (weight.defined()) {
    TORCH_CHECK(weight.dim() <= 1 && weight.numel() == classes, Runtime,
                "inconsistent weight size, expected %lld but got %s", static_cast<long long>(classes),
                weight.sizeString().c_str());
    checkSameType(input, weight, "multi_margin_loss", "weight");
  }
  t = reshape(contiguous(t), {rows});
  checkClassTargets(t, classes, std::nullopt);
  RecordScope rec({&input});
  Tensor x = input.dim() == 2 ? input : reshape(input, {classes});
  Tensor w = weight.defined() ? reshape(weight, {classes}) : Tensor();
  IntList noneShape = input.dim() == 2 ? IntList{rows} : target.sizes();
  const bool reduce = reduces(reduction), sizeAverage = reduction == Reduction::Mean;
  Tensor out = blank(input.dtype());
  dispatchFloating(input.dtype(), "multi_margin_loss", [&](auto tag) {
    using T = typename decltype(tag)::type;
    NN<T>::MultiMarginCriterion_updateOutput(nullptr, x.th<T>(), t.th<int64_t>(), out.th<T>(), sizeAverage, p,
                                             thOrNull<T>(w), margin, reduce);
  });
  Tensor loss = lossResult(out, reduction, noneShape);
  if (rec) {
    IntList outShape = out.sizes(), inSizes = input.sizes();
    record("multi_margin_loss", {input}, {loss}, [=, sx = SavedTensor(x, false)](const TensorList &g) {
      Tensor xs = sx.unpack("multi_margin_loss");
      Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), outShape);
      Tensor gi = blank(xs.dtype());
      dispatchFloating(xs.dtype(), "multi_margin_loss", [&](auto tag) {
        using T = typename decltype(tag)::type;
        NN<T>::MultiMarginCriterion_updateGradInput(nullptr, xs.th<T>(), t.th<int64_t>(), go.th<T>(), gi.th<T>(),
                                                    sizeAverage, p, thOrNull<T>(w), margin, reduce);
      });
      return TensorList{reshape(gi, inSizes)};
    });
  }
  return loss;
}

Tensor ctcLoss(const Tensor &logProbs, const Tensor &targets, const Tensor &inputLengths, const Tensor &targetLengths,
               int64_t blank, Reduction reduction, bool zeroInfinity) {
  checkFloating(logProbs, "ctc_loss");
  TORCH_CHECK(logProbs.dim() == 3 || logProbs.dim() == 2, Runtime,
              "ctc_loss: log_probs must be [T, N, C] (or [T, C] unbatched), got %s", logProbs.sizeString().c_str());
  const bool unbatched = logProbs.dim() == 2;
  RecordScope rec({&logProbs});
  Tensor lp = unbatched ? unsqueeze(logProbs, 1) : logProbs;
  Tensor tg = unbatched && targets.dim() == 1 ? unsqueeze(targets, 0) : targets;
  Tensor il = unbatched ? reshape(inputLengths, {1}) : inputLengths;
  Tensor tl = unbatched ? reshape(targetLengths, {1}) : targetLengths;
  const int64_t N = lp.size(1);
  CtcLayout layout = ctcLayout(lp, tg, il, tl, N, blank);
  std::vector<double> losses = ctcRun(lp, layout, blank, nullptr, {});
  std::vector<bool> zeroed(N, false);
  for (int64_t b = 0; b < N; b++) {
    if (zeroInfinity && std::isinf(losses[b])) {
      losses[b] = 0;
      zeroed[b] = true;
    }
  }
  // Mean: each loss over its target length (at least 1), then the batch average.
  std::vector<double> weights(N, 1.0);
  if (reduction == Reduction::Mean) {
    for (int64_t b = 0; b < N; b++) weights[b] = 1.0 / (std::max<int64_t>(layout.targetLengths[b], 1) * N);
  }
  Tensor loss;
  if (reduces(reduction)) {
    double total = 0;
    for (int64_t b = 0; b < N; b++) total += weights[b] * losses[b];
    loss = scalarTensor(Scalar(total), lp.dtype());
  } else {
    loss = empty({N}, lp.dtype());
    dispatchFloating(lp.dtype(), "ctc_loss", [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < N; b++) dataOf<T>(loss)[b] = static_cast<T>(losses[b]);
    });
    if (unbatched) loss = reshape(loss, {});
  }
  if (rec) {
    record("ctc_loss", {logProbs}, {loss}, [=, sx = SavedTensor(lp, false)](const TensorList &g) {
      Tensor lps = sx.unpack("ctc_loss");
      Tensor go = contiguous(toType(g[0], ScalarType::Double));
      const double *gp = dataOf<double>(go);
      std::vector<double> factors(N);
      for (int64_t b = 0; b < N; b++) factors[b] = zeroed[b] ? 0 : weights[b] * (go.numel() == 1 ? gp[0] : gp[b]);
      Tensor grad = zerosOf(lps.sizes(), ScalarType::Double);
      ctcRun(lps, layout, blank, dataOf<double>(grad), factors);
      Tensor gi = toType(grad, lps.dtype());
      return TensorList{unbatched ? squeeze(gi, 1) : gi};
    });
  }
  return loss;
}

// ---- normalization ----

Tensor batchNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &runningMean,
                 const Tensor &runningVar, bool training, double momentum, double eps) {
  checkFloating(input, "batch_norm");
  TORCH_CHECK(input.dim() >= 2, Runtime, "batch_norm: expected input of at least 2 dimensions [N, C, ...], got %s",
              input.sizeString().c_str());
  const int64_t C = input.size(1);
  auto checkChannels = [&](const Tensor &t, const char *what) {
    if (!t.defined()) return;
    TORCH_CHECK(t.numel() == C, Runtime, "%s should contain %lld elements not %lld", what, static_cast<long long>(C),
                static_cast<long long>(t.numel()));
    checkSameType(input, t, "batch_norm", what);
  };
  checkChannels(weight, "weight");
  checkChannels(bias, "bias");
  checkChannels(runningMean, "running_mean");
  checkChannels(runningVar, "running_var");
  TORCH_CHECK(training || (runningMean.defined() && runningVar.defined()), Runtime,
              "running_mean and running_var must be defined in evaluation mode");
  RecordScope rec({&input, &weight, &bias});
  Tensor out = blank(input.dtype()), saveMean = blank(input.dtype()), saveStd = blank(input.dtype());
  dispatchFloating(input.dtype(), "batch_norm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    NN<T>::BatchNormalization_updateOutput(nullptr, input.th<T>(), out.th<T>(), thOrNull<T>(weight), thOrNull<T>(bias),
                                           thOrNull<T>(runningMean), thOrNull<T>(runningVar), saveMean.th<T>(),
                                           saveStd.th<T>(), training, momentum, eps);
  });
  if (training && runningMean.defined()) bumpVersion(runningMean);
  if (training && runningVar.defined()) bumpVersion(runningVar);
  if (rec) {
    std::vector<bool> need = needs({&input, &weight, &bias});
    // Evaluation reads the running statistics, which later training steps overwrite: a copy.
    Tensor rm = training ? Tensor() : clone(runningMean), rv = training ? Tensor() : clone(runningVar);
    SavedTensor sx(input, false), sw(weight, false);
    const bool hasWeight = weight.defined();
    IntList wSizes = weight.defined() ? weight.sizes() : IntList{}, bSizes = bias.defined() ? bias.sizes() : IntList{};
    record("native_batch_norm", {input, weight, bias}, {out}, [=](const TensorList &g) -> TensorList {
      Tensor xs = sx.unpack("native_batch_norm");
      Tensor ws = hasWeight ? sw.unpack("native_batch_norm") : Tensor();
      Tensor go = toType(g[0], xs.dtype());
      Tensor gi = need[0] ? blank(xs.dtype()) : Tensor();
      Tensor gw = need[1] ? zerosOf({C}, xs.dtype()) : Tensor();
      Tensor gb = need[2] ? zerosOf({C}, xs.dtype()) : Tensor();
      dispatchFloating(xs.dtype(), "batch_norm", [&](auto tag) {
        using T = typename decltype(tag)::type;
        NN<T>::BatchNormalization_backward(nullptr, xs.th<T>(), go.th<T>(), thOrNull<T>(gi), thOrNull<T>(gw),
                                           thOrNull<T>(gb), thOrNull<T>(ws), thOrNull<T>(rm), thOrNull<T>(rv),
                                           saveMean.th<T>(), saveStd.th<T>(), training, 1.0, eps);
      });
      return {gi, need[1] ? reshape(gw, wSizes) : Tensor(), need[2] ? reshape(gb, bSizes) : Tensor()};
    });
  }
  return out;
}

// ---- embeddings ----

namespace {

Tensor embeddingIndices(const Tensor &indices, const char *op) {
  TORCH_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int, Runtime,
              "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but "
              "got %s instead (while checking arguments for %s)",
              scalarTypeName(indices.dtype()), op);
  return contiguous(toType(indices, ScalarType::Long));
}

void checkRows(const Tensor &idx, int64_t rows) {
  const int64_t *p = dataOf<int64_t>(idx);
  for (int64_t i = 0; i < idx.numel(); i++) {
    TORCH_CHECK(p[i] >= 0 && p[i] < rows, Index, "index out of range in self");
  }
}

}  // namespace

Tensor embedding(const Tensor &weight, const Tensor &indices, int64_t paddingIdx, bool scaleGradByFreq) {
  TORCH_CHECK(weight.dim() == 2, Runtime, "'weight' must be 2-D");
  checkFloating(weight, "embedding");
  Tensor idx = embeddingIndices(indices, "embedding");
  checkRows(idx, weight.size(0));
  RecordScope rec({&weight});
  Tensor out = blank(weight.dtype());
  dispatchFloating(weight.dtype(), "embedding", [&](auto tag) {
    using T = typename decltype(tag)::type;
    NN<T>::LookupTable_updateOutput(nullptr, idx.th<int64_t>(), out.th<T>(), weight.th<T>());
  });
  if (rec) {
    IntList wSizes = weight.sizes();
    ScalarType type = weight.dtype();
    record("embedding", {weight}, {out}, [=](const TensorList &g) {
      Tensor go = contiguous(toType(g[0], type));
      Tensor gw = zerosOf(wSizes, type), count = blank(ScalarType::Int);
      dispatchFloating(type, "embedding", [&](auto tag) {
        using T = typename decltype(tag)::type;
        NN<T>::LookupTable_accGradParameters(nullptr, idx.th<int64_t>(), go.th<T>(), gw.th<T>(), count.th<int32_t>(),
                                             nullptr, nullptr, scaleGradByFreq, static_cast<int>(paddingIdx), 1.0);
      });
      return TensorList{gw};
    });
  }
  return out;
}

void embeddingRenorm_(const Tensor &weight, const Tensor &indices, double maxNorm, double normType) {
  TORCH_CHECK(weight.dim() == 2, Runtime, "'weight' must be 2-D");
  checkFloating(weight, "embedding_renorm_");
  Tensor idx = embeddingIndices(indices, "embedding_renorm_");
  checkRows(idx, weight.size(0));
  dispatchFloating(weight.dtype(), "embedding_renorm_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    NN<T>::LookupTable_renorm(nullptr, idx.th<int64_t>(), weight.th<T>(), maxNorm, normType);
  });
  bumpVersion(weight);
}

Tensor embeddingBag(const Tensor &weight, const Tensor &indices, const Tensor &offsets, BagMode mode,
                    const Tensor &perSampleWeights, bool includeLastOffset, int64_t paddingIdx, bool scaleGradByFreq) {
  TORCH_CHECK(weight.dim() == 2, Runtime, "'weight' must be 2-D");
  checkFloating(weight, "embedding_bag");
  TORCH_CHECK(indices.dim() == 1 || indices.dim() == 2, Value,
              "input has to be 1D or 2D Tensor, but got Tensor of dimension %d", indices.dim());
  Tensor idx = reshape(embeddingIndices(indices, "embedding_bag"), {indices.numel()});
  const int64_t rows = weight.size(0), D = weight.size(1), n = idx.numel();
  checkRows(idx, rows);
  Bags bags;
  if (indices.dim() == 2) {
    TORCH_CHECK(!offsets.defined(), Value,
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length "
                "sequences. However, found offsets of type Tensor");
    const int64_t L = indices.size(1);
    for (int64_t b = 0; b < indices.size(0); b++) {
      bags.begin.push_back(b * L);
      bags.end.push_back((b + 1) * L);
    }
  } else {
    TORCH_CHECK(offsets.defined(), Value, "offsets has to be a 1D Tensor but got None");
    TORCH_CHECK(offsets.dim() == 1, Value, "offsets has to be a 1D Tensor");
    Tensor off = embeddingIndices(offsets, "embedding_bag");
    const int64_t *o = dataOf<int64_t>(off);
    const int64_t count = off.numel();
    const int64_t B = includeLastOffset ? count - 1 : count;
    TORCH_CHECK(B >= 0, Runtime, "embedding_bag: include_last_offset needs at least one offset");
    TORCH_CHECK(count == 0 || o[0] == 0, Value,
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
                "However, got %lld",
                static_cast<long long>(count ? o[0] : 0));
    for (int64_t b = 0; b < B; b++) {
      int64_t e = b + 1 < count ? o[b + 1] : n;
      TORCH_CHECK(o[b] <= e && e <= n, Runtime,
                  "embedding_bag: offsets must be non-decreasing and at most the number of indices (%lld), got %lld "
                  "after %lld",
                  static_cast<long long>(n), static_cast<long long>(e), static_cast<long long>(o[b]));
      bags.begin.push_back(o[b]);
      bags.end.push_back(e);
    }
  }
  Tensor psw;
  if (perSampleWeights.defined()) {
    TORCH_CHECK(mode == BagMode::Sum, Runtime,
                "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum'");
    TORCH_CHECK(perSampleWeights.isSameSizeAs(indices), Value,
                "embedding_bag: If per_sample_weights (%s) is not None, then it must have the same shape as the input "
                "(%s)",
                perSampleWeights.sizeString().c_str(), indices.sizeString().c_str());
    checkSameType(weight, perSampleWeights, "embedding_bag", "per_sample_weights");
    psw = perSampleWeights;
  }
  RecordScope rec({&weight, &perSampleWeights});
  const int64_t B = static_cast<int64_t>(bags.begin.size());
  Tensor out = zerosOf({B, D}, weight.dtype());
  Tensor argmax = mode == BagMode::Max ? empty({B, D}, ScalarType::Long) : Tensor();
  Tensor pswc = psw.defined() ? contiguous(reshape(psw, {n})) : Tensor();
  std::vector<int64_t> counts(B, 0);
  const int64_t *ip = dataOf<int64_t>(idx);
  dispatchFloating(weight.dtype(), "embedding_bag", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor wc = contiguous(weight);
    const T *w = dataOf<T>(wc);
    const T *sw = pswc.defined() ? dataOf<T>(pswc) : nullptr;
    T *o = dataOf<T>(out);
    int64_t *am = argmax.defined() ? dataOf<int64_t>(argmax) : nullptr;
#pragma omp parallel for if (n * D > kParallelGrain)
    for (int64_t b = 0; b < B; b++) {
      T *row = o + b * D;
      if (am) std::fill(am + b * D, am + (b + 1) * D, int64_t(-1));
      for (int64_t i = bags.begin[b]; i < bags.end[b]; i++) {
        if (ip[i] == paddingIdx) continue;
        const T *src = w + ip[i] * D;
        if (mode == BagMode::Max) {
          for (int64_t d = 0; d < D; d++) {
            if (am[b * D + d] < 0 || src[d] > row[d]) {
              row[d] = src[d];
              am[b * D + d] = ip[i];
            }
          }
        } else {
          const T s = sw ? sw[i] : T(1);
          for (int64_t d = 0; d < D; d++) row[d] += s * src[d];
        }
        counts[b]++;
      }
      if (mode == BagMode::Mean && counts[b] > 0) {
        for (int64_t d = 0; d < D; d++) row[d] /= static_cast<T>(counts[b]);
      }
    }
  });
  if (rec) {
    std::vector<bool> need = needs({&weight, &perSampleWeights});
    SavedTensor sw(weight, false), sp(pswc, false);
    IntList wSizes = weight.sizes(), pSizes = psw.defined() ? psw.sizes() : IntList{};
    const ScalarType type = weight.dtype();
    const bool weighted = psw.defined();
    std::vector<int64_t> freq;
    if (scaleGradByFreq) {
      freq.assign(rows, 0);
      for (int64_t i = 0; i < n; i++) freq[ip[i]]++;
    }
    record("embedding_bag", {weight, perSampleWeights}, {out}, [=](const TensorList &g) -> TensorList {
      Tensor go = contiguous(toType(g[0], type));
      Tensor gw = need[0] ? zerosOf(wSizes, type) : Tensor();
      Tensor gp = need[1] ? zerosOf({n}, type) : Tensor();
      Tensor ws = need[1] ? contiguous(sw.unpack("embedding_bag")) : Tensor();
      Tensor ps = weighted ? sp.unpack("embedding_bag") : Tensor();
      const int64_t *ids = dataOf<int64_t>(idx);
      dispatchFloating(type, "embedding_bag", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T *gop = dataOf<T>(go);
        for (int64_t b = 0; b < B; b++) {
          const T *grow = gop + b * D;
          if (need[0] && mode == BagMode::Max) {
            const int64_t *am = dataOf<int64_t>(argmax) + b * D;
            T *gwp = dataOf<T>(gw);
            for (int64_t d = 0; d < D; d++) {
              if (am[d] >= 0) gwp[am[d] * D + d] += freq.empty() ? grow[d] : grow[d] / static_cast<T>(freq[am[d]]);
            }
            continue;
          }
          for (int64_t i = bags.begin[b]; i < bags.end[b]; i++) {
            if (ids[i] == paddingIdx) continue;
            if (need[0]) {
              T s = ps.defined() ? dataOf<T>(ps)[i] : T(1);
              if (mode == BagMode::Mean) s /= static_cast<T>(counts[b]);
              if (!freq.empty()) s /= static_cast<T>(freq[ids[i]]);
              T *dst = dataOf<T>(gw) + ids[i] * D;
              for (int64_t d = 0; d < D; d++) dst[d] += s * grow[d];
            }
            if (need[1]) {
              const T *src = dataOf<T>(ws) + ids[i] * D;
              T dot = 0;
              for (int64_t d = 0; d < D; d++) dot += src[d] * grow[d];
              dataOf<T>(gp)[i] = dot;
            }
          }
        }
      });
      return {gw, need[1] ? reshape(gp, pSizes) : Tensor()};
    });
  }
  return out;
}

}  // namespace torch::nn
