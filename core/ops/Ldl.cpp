#include "core/ops/Ldl.h"

namespace torch {
namespace {

// t [*, rows, cols] as a contiguous host tensor [batch, rows, cols].
Tensor batched(const Tensor &t, ScalarType dtype) {
  const int d = t.dim();
  int64_t batch = 1;
  for (int i = 0; i < d - 2; i++) batch *= t.size(i);
  return reshape(contiguous(to(t, dtype, Device::CPU)), {batch, t.size(d - 2), t.size(d - 1)});
}

std::vector<int64_t> batchShape(const Tensor &t, int trailing) {
  const IntList sizes = t.sizes();
  return std::vector<int64_t>(sizes.begin(), sizes.end() - trailing);
}

Tensor sized(const Tensor &flat, std::vector<int64_t> shape, Device device) {
  Tensor r = reshape(flat, shape);
  return device == Device::CPU ? r : to(r, r.dtype(), device);
}

}  // namespace

std::vector<Tensor> ldlFactor(const Tensor &a) {
  TORCH_CHECK(a.dim() >= 2 && a.size(a.dim() - 1) == a.size(a.dim() - 2), Value,
              "ldl_factor: A must be batches of square matrices, got sizes %s", a.sizeString().c_str());
  const int64_t n = a.size(a.dim() - 1);
  Tensor flat = batched(a, a.dtype());
  const int64_t batch = flat.size(0);
  Tensor ld = empty({batch, n, n}, a.dtype(), Device::CPU);
  Tensor pivots = empty({batch, n}, ScalarType::Int, Device::CPU);
  Tensor info = empty({batch}, ScalarType::Int, Device::CPU);
  int32_t *infos = reinterpret_cast<int32_t *>(info.dataPtr());
  dispatchFloating(a.dtype(), "ldl_factor", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < batch; i++) {
      Tensor m = select(flat, 0, i), f = select(ld, 0, i), p = select(pivots, 0, i);
      infos[i] = n ? TH<T>::sytrf(f.th<T>(), p.th<int32_t>(), m.th<T>()) : 0;
    }
  });
  std::vector<int64_t> shape = batchShape(a, 2), matrices = shape, vectors = shape;
  matrices.insert(matrices.end(), {n, n});
  vectors.push_back(n);
  return {sized(ld, matrices, a.device()), sized(pivots, vectors, a.device()), sized(info, shape, a.device())};
}

Tensor ldlSolve(const Tensor &ld, const Tensor &pivots, const Tensor &b) {
  TORCH_CHECK(ld.dim() >= 2 && b.dim() == ld.dim() && pivots.dim() == ld.dim() - 1, Value,
              "ldl_solve: LD %s, pivots %s and B %s are not of one batch shape", ld.sizeString().c_str(),
              pivots.sizeString().c_str(), b.sizeString().c_str());
  const int64_t n = ld.size(ld.dim() - 1), k = b.size(b.dim() - 1);
  Tensor factors = batched(ld, ld.dtype()), rhs = batched(b, ld.dtype());
  Tensor pivotRows = reshape(contiguous(to(pivots, ScalarType::Int, Device::CPU)), {factors.size(0), n});
  const int64_t batch = factors.size(0);
  TORCH_CHECK(rhs.size(0) == batch && pivotRows.size(0) == batch, Value,
              "ldl_solve: LD %s, pivots %s and B %s are not of one batch shape", ld.sizeString().c_str(),
              pivots.sizeString().c_str(), b.sizeString().c_str());
  Tensor x = empty({batch, n, k}, ld.dtype(), Device::CPU);
  dispatchFloating(ld.dtype(), "ldl_solve", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (n == 0 || k == 0) return;
    for (int64_t i = 0; i < batch; i++) {
      Tensor f = select(factors, 0, i), p = select(pivotRows, 0, i), r = select(rhs, 0, i), s = select(x, 0, i);
      TH<T>::sytrs(s.th<T>(), r.th<T>(), f.th<T>(), p.th<int32_t>());
    }
  });
  return sized(x, batchShape(b, 0), b.device());
}

}  // namespace torch
