// The CPU column of the reduction kernels: TH's, per element type.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/ops/ReduceKernels.h"

namespace torch::cpu {

namespace {

// A TH result (its accumulation type or the element type) as a Scalar.
template <typename V>
Scalar scalarOf(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return Scalar(static_cast<double>(v));
  } else {
    return Scalar(static_cast<int64_t>(v));
  }
}

template <typename T>
Scalar sumAll(const Tensor &t) {
  return scalarOf(TH<T>::sumall(t.th<T>()));
}
template <typename T>
Scalar prodAll(const Tensor &t) {
  return scalarOf(TH<T>::prodall(t.th<T>()));
}
template <typename T>
Scalar maxAll(const Tensor &t) {
  return scalarOf(TH<T>::maxall(t.th<T>()));
}
template <typename T>
Scalar minAll(const Tensor &t) {
  return scalarOf(TH<T>::minall(t.th<T>()));
}
template <typename T>
Scalar medianAll(const Tensor &t) {
  return scalarOf(TH<T>::medianall(t.th<T>()));
}
template <typename T>
Scalar trace(const Tensor &t) {
  return scalarOf(TH<T>::trace(t.th<T>()));
}
template <typename T>
Scalar meanAll(const Tensor &t) {
  return scalarOf(TH<T>::meanall(t.th<T>()));
}
template <typename T>
Scalar varAll(const Tensor &t, bool biased) {
  return scalarOf(TH<T>::varall(t.th<T>(), biased));
}
template <typename T>
Scalar stdAll(const Tensor &t, bool biased) {
  return scalarOf(TH<T>::stdall(t.th<T>(), biased));
}
template <typename T>
Scalar normAll(const Tensor &t, double p) {
  return scalarOf(TH<T>::normall(t.th<T>(), static_cast<T>(p)));
}
template <typename T>
Scalar dist(const Tensor &a, const Tensor &b, double p) {
  return scalarOf(TH<T>::dist(a.th<T>(), b.th<T>(), static_cast<T>(p)));
}

template <typename T>
void sum(const Tensor &r, const Tensor &t, int dim, bool keepdim) {
  TH<T>::sum(r.th<T>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void prod(const Tensor &r, const Tensor &t, int dim, bool keepdim) {
  TH<T>::prod(r.th<T>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void mean(const Tensor &r, const Tensor &t, int dim, bool keepdim) {
  TH<T>::mean(r.th<T>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void var(const Tensor &r, const Tensor &t, int dim, bool biased, bool keepdim) {
  TH<T>::var(r.th<T>(), t.th<T>(), dim, biased, keepdim);
}
template <typename T>
void std(const Tensor &r, const Tensor &t, int dim, bool biased, bool keepdim) {
  TH<T>::std(r.th<T>(), t.th<T>(), dim, biased, keepdim);
}
template <typename T>
void norm(const Tensor &r, const Tensor &t, double p, int dim, bool keepdim) {
  TH<T>::norm(r.th<T>(), t.th<T>(), static_cast<T>(p), dim, keepdim);
}
template <typename T>
void zeroNonFinite(const Tensor &t) {
  th::apply([](T &v) { v = std::isfinite(v) ? v : T(0); }, th::ref(t.th<T>()));
}

template <typename T>
void max(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
  TH<T>::max(values.th<T>(), indices.th<int64_t>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void min(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
  TH<T>::min(values.th<T>(), indices.th<int64_t>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void median(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
  TH<T>::median(values.th<T>(), indices.th<int64_t>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void mode(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
  TH<T>::mode(values.th<T>(), indices.th<int64_t>(), t.th<T>(), dim, keepdim);
}
template <typename T>
void kthvalue(const Tensor &values, const Tensor &indices, const Tensor &t, int64_t k, int dim, bool keepdim) {
  TH<T>::kthvalue(values.th<T>(), indices.th<int64_t>(), t.th<T>(), k, dim, keepdim);
}
template <typename T>
void sort(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool descending) {
  TH<T>::sort(values.th<T>(), indices.th<int64_t>(), t.th<T>(), dim, descending);
}
template <typename T>
void topk(const Tensor &values, const Tensor &indices, const Tensor &t, int64_t k, int dim, bool largest, bool sorted) {
  TH<T>::topk(values.th<T>(), indices.th<int64_t>(), t.th<T>(), k, dim, largest, sorted);
}

template <typename T>
void uniqueSorted(const Tensor &sorted, const Tensor &perm, const Tensor &values, const Tensor &inverse,
                  const Tensor &counts) {
  // sort's outputs and inverse are contiguous
  const int64_t n = sorted.numel();
  const T *v = reinterpret_cast<const T *>(sorted.dataPtr());
  const int64_t *p = reinterpret_cast<const int64_t *>(perm.dataPtr());
  int64_t *inv = reinterpret_cast<int64_t *>(inverse.dataPtr());
  std::vector<T> distinct;
  std::vector<int64_t> count;
  for (int64_t i = 0; i < n; i++) {
    // NaNs sort last and are each their own value, as in PyTorch
    if (i == 0 || !(v[i] == v[i - 1])) {
      distinct.push_back(v[i]);
      count.push_back(0);
    }
    count.back()++;
    inv[p[i]] = static_cast<int64_t>(distinct.size()) - 1;
  }
  resize_(values, {static_cast<int64_t>(distinct.size())});
  resize_(counts, {static_cast<int64_t>(count.size())});
  std::copy(distinct.begin(), distinct.end(), reinterpret_cast<T *>(values.dataPtr()));
  std::copy(count.begin(), count.end(), reinterpret_cast<int64_t *>(counts.dataPtr()));
}

template <typename T>
void uniqueRows(const Tensor &rows, const Tensor &firsts, const Tensor &inverse, const Tensor &counts) {
  const int64_t n = rows.size(0), m = rows.size(1);
  const T *v = reinterpret_cast<const T *>(rows.dataPtr());
  auto row = [&](int64_t i) { return v + i * m; };
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return std::lexicographical_compare(row(a), row(a) + m, row(b), row(b) + m);
  });
  int64_t *inv = reinterpret_cast<int64_t *>(inverse.dataPtr());
  std::vector<int64_t> first, count;
  for (int64_t k = 0; k < n; k++) {
    const int64_t i = order[k];
    if (k == 0 || !std::equal(row(i), row(i) + m, row(order[k - 1]))) {
      first.push_back(i);
      count.push_back(0);
    }
    count.back()++;
    inv[i] = static_cast<int64_t>(first.size()) - 1;
  }
  resize_(firsts, {static_cast<int64_t>(first.size())});
  resize_(counts, {static_cast<int64_t>(count.size())});
  std::copy(first.begin(), first.end(), reinterpret_cast<int64_t *>(firsts.dataPtr()));
  std::copy(count.begin(), count.end(), reinterpret_cast<int64_t *>(counts.dataPtr()));
}

template <typename T>
void cumsum(const Tensor &r, const Tensor &t, int dim) {
  TH<T>::cumsum(r.th<T>(), t.th<T>(), dim);
}
template <typename T>
void cumprod(const Tensor &r, const Tensor &t, int dim) {
  TH<T>::cumprod(r.th<T>(), t.th<T>(), dim);
}

template <typename T>
bool equal(const Tensor &a, const Tensor &b) {
  return TH<T>::equal(a.th<T>(), b.th<T>()) != 0;
}

template <typename T>
void isclose(const Tensor &r, const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
  th::apply(
      [=](uint8_t &close, const T &x, const T &y) {
        if (x == y) {
          close = 1;  // equal values, infinities included
          return;
        }
        const double dx = static_cast<double>(x), dy = static_cast<double>(y);
        if (std::isnan(dx) || std::isnan(dy)) {
          close = equalNan && std::isnan(dx) && std::isnan(dy);
          return;
        }
        close = std::isfinite(dx) && std::isfinite(dy) && std::fabs(dx - dy) <= atol + rtol * std::fabs(dy);
      },
      th::ref(r.th<uint8_t>()), th::ref(a.th<T>()), th::ref(b.th<T>()));
}

Scalar allAll(const Tensor &mask) { return Scalar(int64_t(TH<uint8_t>::logicalall(mask.th<uint8_t>()))); }
Scalar anyAll(const Tensor &mask) { return Scalar(int64_t(TH<uint8_t>::logicalany(mask.th<uint8_t>()))); }
void all(const Tensor &r, const Tensor &mask, int dim, bool keepdim) {
  TH<uint8_t>::logicalAll(r.th<uint8_t>(), mask.th<uint8_t>(), dim, keepdim);
}
void any(const Tensor &r, const Tensor &mask, int dim, bool keepdim) {
  TH<uint8_t>::logicalAny(r.th<uint8_t>(), mask.th<uint8_t>(), dim, keepdim);
}

}  // namespace

void registerReduceKernels(ReduceKernels &k) {
  fillWithHalf(k.sumAll, TORCH_TEMPLATE(sumAll));
  fillWithHalf(k.prodAll, TORCH_TEMPLATE(prodAll));
  fillWithHalf(k.maxAll, TORCH_TEMPLATE(maxAll));
  fillWithHalf(k.minAll, TORCH_TEMPLATE(minAll));
  fillWithHalf(k.medianAll, TORCH_TEMPLATE(medianAll));
  fillWithHalf(k.trace, TORCH_TEMPLATE(trace));
  fillWithHalf(k.sum, TORCH_TEMPLATE(sum));
  fillWithHalf(k.prod, TORCH_TEMPLATE(prod));
  fillWithHalf(k.meanAll, TORCH_TEMPLATE(meanAll));
  fillWithHalf(k.mean, TORCH_TEMPLATE(mean));
  fillWithHalf(k.varAll, TORCH_TEMPLATE(varAll));
  fillWithHalf(k.stdDevAll, TORCH_TEMPLATE(stdAll));
  fillWithHalf(k.var, TORCH_TEMPLATE(var));
  fillWithHalf(k.stdDev, TORCH_TEMPLATE(std));
  fillWithHalf(k.normAll, TORCH_TEMPLATE(normAll));
  fillWithHalf(k.norm, TORCH_TEMPLATE(norm));
  fillWithHalf(k.dist, TORCH_TEMPLATE(dist));
  fillWithHalf(k.zeroNonFinite, TORCH_TEMPLATE(zeroNonFinite));
  fillWithHalf(k.max, TORCH_TEMPLATE(max));
  fillWithHalf(k.min, TORCH_TEMPLATE(min));
  fillWithHalf(k.median, TORCH_TEMPLATE(median));
  fillWithHalf(k.mode, TORCH_TEMPLATE(mode));
  fillWithHalf(k.kthvalue, TORCH_TEMPLATE(kthvalue));
  fillWithHalf(k.sort, TORCH_TEMPLATE(sort));
  fillWithHalf(k.topk, TORCH_TEMPLATE(topk));
  fill(k.uniqueSorted, TORCH_TEMPLATE(uniqueSorted));
  fill(k.uniqueRows, TORCH_TEMPLATE(uniqueRows));
  fillWithHalf(k.cumsum, TORCH_TEMPLATE(cumsum));
  fillWithHalf(k.cumprod, TORCH_TEMPLATE(cumprod));
  fillWithHalf(k.equal, TORCH_TEMPLATE(equal));
  fillWithHalf(k.isclose, TORCH_TEMPLATE(isclose));
  for (ScalarType mask : {ScalarType::Bool, ScalarType::Byte}) {
    k.allAll.add(Device::CPU, mask, &allAll);
    k.anyAll.add(Device::CPU, mask, &anyAll);
    k.all.add(Device::CPU, mask, &all);
    k.any.add(Device::CPU, mask, &any);
  }
}

}  // namespace torch::cpu
