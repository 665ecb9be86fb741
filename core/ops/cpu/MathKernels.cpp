// The CPU column of the remaining tensor math: TH's kernels, and loops where TH has none.
#include <algorithm>
#include <cmath>

#include "core/ops/MathKernels.h"

namespace torch::cpu {

namespace {

template <typename T>
void clamp(const Tensor &r, const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max) {
  if (min && max && min->to<T>() > max->to<T>()) {
    // PyTorch's clamp is min(max(x, lo), hi): hi wins when the bounds cross (TH's clamp,
    // torch7's, gives lo). NaN stays NaN.
    TH<T>::cmaxValue(r.th<T>(), t.th<T>(), min->to<T>());
    TH<T>::cminValue(r.th<T>(), r.th<T>(), max->to<T>());
  } else if (min && max) {
    TH<T>::clamp(r.th<T>(), t.th<T>(), min->to<T>(), max->to<T>());
  } else if (min) {
    TH<T>::cmaxValue(r.th<T>(), t.th<T>(), min->to<T>());
  } else {
    TH<T>::cminValue(r.th<T>(), t.th<T>(), max->to<T>());
  }
}
template <typename T>
void addcmul(const Tensor &r, const Tensor &self, Scalar value, const Tensor &t1, const Tensor &t2) {
  TH<T>::addcmul(r.th<T>(), self.th<T>(), value.to<T>(), t1.th<T>(), t2.th<T>());
}
template <typename T>
void addcdiv(const Tensor &r, const Tensor &self, Scalar value, const Tensor &t1, const Tensor &t2) {
  TH<T>::addcdiv(r.th<T>(), self.th<T>(), value.to<T>(), t1.th<T>(), t2.th<T>());
}
template <typename T>
void lerp(const Tensor &r, const Tensor &a, const Tensor &b, Scalar weight) {
  TH<T>::lerp(r.th<T>(), a.th<T>(), b.th<T>(), weight.to<T>());
}
template <typename T>
void where(const Tensor &r, const Tensor &cond, const Tensor &a, const Tensor &b) {
  th::apply([](T &y, const uint8_t &m, const T &x, const T &z) { y = m ? x : z; }, th::ref(r.th<T>()),
            th::ref(cond.th<uint8_t>()), th::ref(a.th<T>()), th::ref(b.th<T>()));
}
template <typename T>
void cross(const Tensor &r, const Tensor &a, const Tensor &b, int dim) {
  TH<T>::cross(r.th<T>(), a.th<T>(), b.th<T>(), dim);
}
template <typename T>
void renorm(const Tensor &r, const Tensor &t, double p, int dim, double maxnorm) {
  TH<T>::renorm(r.th<T>(), t.th<T>(), static_cast<T>(p), dim, static_cast<T>(maxnorm));
}

// PyTorch's bin rule, not TH's (torch7 divides first, which puts an element that sits
// exactly on an inner edge, like 1 of 49 bins over [0, 49], one bin too low):
// bin = (x - min) * bins / (max - min) in the element type, max itself in the last bin.
template <typename T>
void histc(const Tensor &r, const Tensor &t, int64_t bins, double min, double max) {
  Tensor x = contiguous(t);
  const T *p = reinterpret_cast<const T *>(x.dataPtr());
  const int64_t n = x.numel();
  double lo = min, hi = max;
  if (lo == hi && n > 0) {
    lo = hi = p[0];
    for (int64_t i = 0; i < n; i++) {
      if (std::isnan(p[i])) {
        lo = hi = p[i];
        break;
      }
      lo = std::min<double>(lo, p[i]);
      hi = std::max<double>(hi, p[i]);
    }
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  TORCH_CHECK(std::isfinite(lo) && std::isfinite(hi), Runtime, "torch.histc: range of [%g, %g] is not finite", lo, hi);
  TORCH_CHECK(lo < hi, Runtime, "torch.histc: max must be larger than min (got min %g and max %g)", lo, hi);
  resize_(r, {bins});
  TH<T>::zero(r.th<T>());
  const T left = static_cast<T>(lo), right = static_cast<T>(hi);
  T *h = reinterpret_cast<T *>(r.dataPtr());
  for (int64_t i = 0; i < n; i++) {
    const T v = p[i];
    if (!(v >= left && v <= right)) continue;  // outside, or NaN
    int64_t bin = static_cast<int64_t>((v - left) * static_cast<T>(bins) / (right - left));
    h[std::min(bin, bins - 1)] += 1;
  }
}

template <typename T, typename Value>
void fillSequence(const Tensor &r, Value value) {
  const bool toBool = r.dtype() == ScalarType::Bool;
  T *data = reinterpret_cast<T *>(r.dataPtr());
  const int64_t n = r.numel(), stride = r.stride(0);
  th::detail::parallelFor(n, 32768, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) {
      auto v = value(i);
      data[i * stride] = toBool ? static_cast<T>(v != 0) : static_cast<T>(v);
    }
  });
}

template <typename T>
void sequence(const Tensor &r, const Sequence &s) {
  const int64_t n = r.numel();
  switch (s.kind) {
    case Sequence::Kind::Integers:
      fillSequence<T>(r, [start = s.start.i, step = s.step.i](int64_t i) { return start + i * step; });
      break;
    case Sequence::Kind::Steps:
      fillSequence<T>(r, [start = s.start.d, step = s.step.d](int64_t i) { return start + i * step; });
      break;
    case Sequence::Kind::Spaced:
      fillSequence<T>(r, [a = s.a, b = s.b, n](int64_t i) { return spacedPoint(a, b, n, i); });
      break;
    case Sequence::Kind::LogSpaced:
      fillSequence<T>(
          r, [a = s.a, b = s.b, base = s.base, n](int64_t i) { return std::pow(base, spacedPoint(a, b, n, i)); });
      break;
  }
}

}  // namespace

void registerMathKernels(MathKernels &k) {
  fillWithHalf(k.clamp, TORCH_TEMPLATE(clamp));
  fillWithHalf(k.addcmul, TORCH_TEMPLATE(addcmul));
  fillWithHalf(k.addcdiv, TORCH_TEMPLATE(addcdiv));
  fillWithHalf(k.lerp, TORCH_TEMPLATE(lerp));
  fill(k.where, TORCH_TEMPLATE(where));
  fillWithHalf(k.cross, TORCH_TEMPLATE(cross));
  fillWithHalf(k.histc, TORCH_TEMPLATE(histc));
  fillWithHalf(k.renorm, TORCH_TEMPLATE(renorm));
  fillWithHalf(k.sequence, TORCH_TEMPLATE(sequence));
}

}  // namespace torch::cpu
