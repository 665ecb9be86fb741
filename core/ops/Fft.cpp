#include "core/ops/Fft.h"

#include <cmath>

#include "autograd/Autograd.h"
#include "core/ops/Complex.h"
#include "core/ops/FftKernels.h"
#include "core/ops/Pointwise.h"

namespace torch {

FftKernels &fftKernels() {
  static FftKernels *tables = [] {
    auto *t = new FftKernels();  // never destroyed: kernels may run during exit
    cpu::registerFftKernels(*t);
    return t;
  }();
  return *tables;
}

namespace {

// dims wrapped and checked: at least one, none twice.
IntList fftDims(const Tensor &t, const IntList &dims) {
  TORCH_CHECK(!dims.empty(), Runtime, "FFT: at least one dimension to transform is needed");
  IntList wrapped;
  for (int64_t d : dims) {
    int w = wrapDim(d, t.dim());
    for (int64_t seen : wrapped) TORCH_CHECK(seen != w, Runtime, "FFT dims must be unique");
    wrapped.push_back(w);
  }
  return wrapped;
}

// The factor of norm for a signal of sizes (of the transformed dims) signal.
double scaleOf(FftNorm norm, const IntList &sizes, const IntList &dims) {
  double n = 1;
  for (int64_t d : dims) n *= static_cast<double>(sizes[d]);
  switch (norm) {
    case FftNorm::None: return 1;
    case FftNorm::ByRootN: return 1 / std::sqrt(n);
    case FftNorm::ByN: return 1 / n;
  }
  return 1;
}

void checkSignal(const Tensor &t, const IntList &dims) {
  for (int64_t d : dims) {
    TORCH_CHECK(t.size(d) > 0, Runtime, "Invalid number of data points (0) specified");
  }
}

}  // namespace

Tensor fftC2C(const Tensor &t, const IntList &dims, FftNorm norm, bool forward) {
  TORCH_CHECK(isComplex(t.dtype()), Runtime, "fft_c2c expects a complex input tensor, but got %s",
              scalarTypeName(t.dtype()));
  IntList d = fftDims(t, dims);
  checkSignal(t, d);
  RecordScope rec({&t});
  Tensor r = empty(t.sizes(), t.dtype(), t.device());
  fftKernels().c2c(t.device(), toRealType(t.dtype()), r, t, d, forward, scaleOf(norm, t.sizes(), d));
  if (rec) {
    // the transform's adjoint: the opposite direction with the same scale
    record("FftC2CBackward", {t}, {r},
           [d, norm, forward](const TensorList &g) { return TensorList{fftC2C(g[0], d, norm, !forward)}; });
  }
  return r;
}

Tensor fftR2C(const Tensor &t, const IntList &dims, FftNorm norm, bool onesided) {
  TORCH_CHECK(t.dtype() == ScalarType::Float || t.dtype() == ScalarType::Double, Runtime,
              "fft_r2c expects a floating point input tensor, but got %s", scalarTypeName(t.dtype()));
  // both halves: the complex transform of the real signal (its gradient takes the real part)
  if (!onesided) return fftC2C(to(t, toComplexType(t.dtype()), t.device()), dims, norm, true);
  IntList d = fftDims(t, dims);
  checkSignal(t, d);
  RecordScope rec({&t});
  int64_t last = d.back(), n = t.size(last);
  IntList half = t.sizes();
  half[last] = n / 2 + 1;
  Tensor r = empty(half, toComplexType(t.dtype()), t.device());
  fftKernels().r2c(t.device(), t.dtype(), r, t, d, scaleOf(norm, t.sizes(), d));
  if (rec) {
    IntList sizes = t.sizes();
    record("FftR2CBackward", {t}, {r}, [d, norm, sizes, last](const TensorList &g) {
      Tensor grad = g[0];
      if (grad.size(last) < sizes[last]) {
        // the dropped outputs had no gradient: zeros, then the adjoint of the full transform
        Tensor full = empty(sizes, grad.dtype(), grad.device());
        zero_(full);
        copy_(narrow(full, last, 0, grad.size(last)), grad);
        grad = full;
      }
      return TensorList{real(fftC2C(grad, d, norm, false))};
    });
  }
  return r;
}

Tensor fftC2R(const Tensor &t, const IntList &dims, FftNorm norm, int64_t lastDimSize) {
  TORCH_CHECK(isComplex(t.dtype()), Runtime, "fft_c2r expects a complex input tensor, but got %s",
              scalarTypeName(t.dtype()));
  IntList d = fftDims(t, dims);
  int64_t last = d.back();
  TORCH_CHECK(lastDimSize >= 1, Runtime, "Invalid number of data points (%lld) specified",
              static_cast<long long>(lastDimSize));
  TORCH_CHECK(t.size(last) == lastDimSize / 2 + 1, Runtime,
              "fft_c2r: expected %lld values along dimension %lld for an output of %lld, got %lld",
              static_cast<long long>(lastDimSize / 2 + 1), static_cast<long long>(last),
              static_cast<long long>(lastDimSize), static_cast<long long>(t.size(last)));
  checkSignal(t, d);
  RecordScope rec({&t});
  IntList sizes = t.sizes();
  sizes[last] = lastDimSize;
  Tensor r = empty(sizes, toRealType(t.dtype()), t.device());
  // pocketfft's c2r overwrites its input when it transforms several dims: it gets a copy
  Tensor in = d.size() > 1 ? clone(detach(t)) : t;
  fftKernels().c2r(t.device(), r.dtype(), r, in, d, scaleOf(norm, sizes, d));
  if (rec) {
    record("FftC2RBackward", {t}, {r}, [d, norm, last, lastDimSize](const TensorList &g) {
      // each value of the half spectrum but the first (and the last for an even size) stands for
      // itself and its mirror image
      Tensor grad = fftR2C(g[0], d, norm, true);
      int64_t doubled = lastDimSize - grad.size(last);
      if (doubled > 0) {
        Tensor twos = empty({grad.size(last)}, toRealType(grad.dtype()), grad.device());
        fill_(twos, Scalar(1.0));
        fill_(narrow(twos, 0, 1, doubled), Scalar(2.0));
        IntList shape(grad.dim(), 1);
        shape[last] = grad.size(last);
        grad = binary(BinaryOp::Mul, grad, reshape(twos, shape));
      }
      return TensorList{grad};
    });
  }
  return r;
}

}  // namespace torch
