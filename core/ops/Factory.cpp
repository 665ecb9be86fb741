#include "core/ops/Factory.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/ops/MathKernels.h"

namespace torch {

Tensor full(const IntList &sizes, Scalar value, ScalarType dtype, Device device) {
  Tensor t = empty(sizes, dtype, device);
  fill_(t, value);
  return t;
}

Tensor zeros(const IntList &sizes, ScalarType dtype, Device device) {
  return full(sizes, Scalar(int64_t(0)), dtype, device);
}
Tensor ones(const IntList &sizes, ScalarType dtype, Device device) {
  return full(sizes, Scalar(int64_t(1)), dtype, device);
}

Tensor emptyLikePreserve(const Tensor &t, ScalarType dtype) {
  if (t.isContiguous()) return emptyLike(t, dtype);
  // Dense when, visiting dimensions from the smallest stride up, each stride equals the
  // product of the sizes visited before it (size-1 dimensions may have any stride).
  std::vector<int> order(t.dim());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return t.stride(a) < t.stride(b); });
  int64_t expected = 1;
  for (int d : order) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return emptyLike(t, dtype);
    expected *= t.size(d);
  }
  // The same dimension order, with strides recomputed so size-1 dimensions stay consistent.
  IntList strides(t.dim());
  expected = 1;
  for (int d : order) {
    strides[d] = expected;
    expected *= std::max<int64_t>(t.size(d), 1);
  }
  return fromStorage(Storage::create(dtype, t.numel(), t.device()), 0, t.sizes(), strides);
}

void eyeInto(const Tensor &r, int64_t n, int64_t m) {
  TORCH_CHECK(n >= 0, Runtime, "n must be greater or equal to 0, got %lld", static_cast<long long>(n));
  TORCH_CHECK(m >= 0, Runtime, "m must be greater or equal to 0, got %lld", static_cast<long long>(m));
  resize_(r, {n, m});
  zero_(r);
  // The diagonal as a 1-D view: one step down and one step right per element.
  Tensor diagonal = asStrided(r, {std::min(n, m)}, {r.stride(0) + r.stride(1)}, r.storageOffset());
  fill_(diagonal, Scalar(int64_t(1)));
}

Tensor eye(int64_t n, std::optional<int64_t> m, ScalarType dtype, Device device) {
  Tensor r = empty({0}, dtype, device);
  eyeInto(r, n, m.value_or(n));
  return r;
}

namespace {

bool allIntegral(Scalar a, Scalar b, Scalar c) { return !a.isFloating() && !b.isFloating() && !c.isFloating(); }

// Writes the n elements of sequence into the 1-D tensor r, converted to r's element type.
// Half and BFloat16 go through a float tensor.
void fillSequence(const Tensor &r, int64_t n, const Sequence &sequence) {
  // complex sequences are not provided: refused rather than computed on the real parts
  TORCH_CHECK(!sequence.start.isComplex() && !sequence.step.isComplex() && !isComplex(r.dtype()), Runtime,
              "sequences of complex numbers (arange, linspace, logspace) are not implemented");
  resize_(r, {n});
  if (isReducedFloat(r.dtype())) {
    Tensor f = empty({n}, ScalarType::Float, r.device());
    fillSequence(f, n, sequence);
    copy_(r, f);
    return;
  }
  mathKernels().sequence(r.device(), r.dtype(), r, sequence);
}

void checkStep(Scalar start, Scalar end, Scalar step, const char *op) {
  TORCH_CHECK(std::isfinite(start.d) && std::isfinite(end.d), Runtime, "%s: unsupported range: %s -> %s", op,
              start.str().c_str(), end.str().c_str());
  TORCH_CHECK(std::isfinite(step.d) && step.d != 0, Runtime, "%s: step must be nonzero and finite, got %s", op,
              step.str().c_str());
  TORCH_CHECK((step.d > 0 && end.d >= start.d) || (step.d < 0 && end.d <= start.d), Runtime,
              "%s: upper bound and larger bound inconsistent with step sign (start %s, end %s, step %s)", op,
              start.str().c_str(), end.str().c_str(), step.str().c_str());
}

}  // namespace

ScalarType arangeType(Scalar start, Scalar end, Scalar step) {
  return allIntegral(start, end, step) ? ScalarType::Long : defaultFloatType();
}

void arangeInto(const Tensor &r, Scalar start, Scalar end, Scalar step) {
  checkStep(start, end, step, "arange");
  if (allIntegral(start, end, step)) {
    // Exact integer arithmetic: ceil((end - start) / step) with the signs agreeing.
    int64_t distance = end.i - start.i, s = step.i;
    int64_t n = s > 0 ? (distance + s - 1) / s : (distance + s + 1) / s;
    fillSequence(r, n, Sequence{Sequence::Kind::Integers, start, step});
  } else {
    double n = std::ceil((end.d - start.d) / step.d);
    TORCH_CHECK(n < 9.2e18, Runtime, "arange: too many elements (%g)", n);
    fillSequence(r, static_cast<int64_t>(n), Sequence{Sequence::Kind::Steps, start, step});
  }
}

Tensor arange(Scalar start, Scalar end, Scalar step, std::optional<ScalarType> dtype, Device device) {
  Tensor r = empty({0}, dtype.value_or(arangeType(start, end, step)), device);
  arangeInto(r, start, end, step);
  return r;
}

void rangeInto(const Tensor &r, Scalar start, Scalar end, Scalar step) {
  checkStep(start, end, step, "range");
  double n = std::floor((end.d - start.d) / step.d) + 1;
  fillSequence(r, static_cast<int64_t>(n), Sequence{Sequence::Kind::Steps, start, step});
}

void linspaceInto(const Tensor &r, Scalar start, Scalar end, int64_t steps) {
  TORCH_CHECK(steps >= 0, Runtime, "linspace: number of steps must be non-negative, got %lld",
              static_cast<long long>(steps));
  fillSequence(r, steps, Sequence{Sequence::Kind::Spaced, start, end, start.d, end.d});
}

void logspaceInto(const Tensor &r, Scalar start, Scalar end, int64_t steps, double base) {
  TORCH_CHECK(steps >= 0, Runtime, "logspace: number of steps must be non-negative, got %lld",
              static_cast<long long>(steps));
  fillSequence(r, steps, Sequence{Sequence::Kind::LogSpaced, start, end, start.d, end.d, base});
}

}  // namespace torch
