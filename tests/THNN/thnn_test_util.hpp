// Helpers for the THNN suites: random inputs, plain row-major reads and writes, and
// central-difference gradients. A kernel's backward is checked as
//   loss(x) = sum(gradOutput * forward(x)),  d loss / d x_i ~ (loss(x + eps e_i) - loss(x - eps e_i)) / 2 eps
// against updateGradInput(gradOutput) (and accGradParameters for weights), in double.
#ifndef THNN_TEST_UTIL_HPP
#define THNN_TEST_UTIL_HPP

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "THNN/THNN.h"
#include "TH/THTensor.hpp"

namespace thnnt {

// TH's entry points, tensor type and owning pointer for element type T.
template <typename T>
using Api = th::TH<T>;
template <typename T>
using TensorOf = typename Api<T>::Tensor;
template <typename T>
using Owned = th::Owned<TensorOf<T>>;

// The element type of a TH tensor struct (float for THFloatTensor).
template <typename TensorT>
using ElemOf = std::remove_pointer_t<decltype(std::declval<TensorT &>().storage->data)>;

// THNN declares each kernel once per element type through its generic headers;
// THNN_KERNEL(X, Abs_updateOutput) is THNN_FloatAbs_updateOutput when X is float,
// THFloatTensor or THFloatTensor *, and the Double one for double, so that one test body
// serves both types without a table of kernels.
template <typename X>
constexpr bool isFloat() {
  using Y = std::remove_pointer_t<X>;
  if constexpr (std::is_arithmetic_v<Y>) {
    return std::is_same_v<Y, float>;
  } else {
    return std::is_same_v<ElemOf<Y>, float>;
  }
}
template <typename X, typename FloatKernel, typename DoubleKernel>
constexpr auto pickKernel(FloatKernel f, DoubleKernel d) {
  if constexpr (isFloat<X>()) {
    return f;
  } else {
    return d;
  }
}
#define THNN_KERNEL(X, NAME) ::thnnt::pickKernel<X>(THNN_Float##NAME, THNN_Double##NAME)

// Every element of t in row-major order, whatever its strides.
template <typename TensorT>
std::vector<double> values(TensorT *t) {
  std::vector<double> out;
  out.reserve(th::numel(th::ref(t)));
  using T = std::remove_pointer_t<decltype(t->storage->data)>;
  th::applyInOrder([&](T &x) { out.push_back((double)x); }, th::ref(t));
  return out;
}

template <typename TensorT>
void setValues(TensorT *t, const std::vector<double> &v) {
  size_t i = 0;
  using T = std::remove_pointer_t<decltype(t->storage->data)>;
  th::applyInOrder([&](T &x) { x = (T)v.at(i++); }, th::ref(t));
}

inline std::vector<double> uniform(size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (auto &x : v) x = dist(gen);
  return v;
}

// A tensor of the given sizes filled with uniform values in [lo, hi).
template <typename T = double>
typename th::TH<T>::Tensor *randomTensor(const std::vector<int64_t> &size, unsigned seed, double lo = -1,
                                         double hi = 1) {
  auto *t = th::TH<T>::newWithSize((int)size.size(), size.data(), nullptr);
  setValues(t, uniform(th::numel(th::ref(t)), seed, lo, hi));
  return t;
}

// sum(a * b) over row-major element pairs.
template <typename TensorA, typename TensorB>
double dot(TensorA *a, TensorB *b) {
  auto va = values(a), vb = values(b);
  double s = 0;
  for (size_t i = 0; i < va.size() && i < vb.size(); i++) s += va[i] * vb[i];
  return s;
}

// Central differences of loss() with respect to every element of x (row-major order).
inline std::vector<double> numericalGrad(THDoubleTensor *x, const std::function<double()> &loss, double eps = 1e-6) {
  std::vector<double> grad;
  std::vector<double *> elems;
  th::applyInOrder([&](double &v) { elems.push_back(&v); }, th::ref(x));
  for (double *p : elems) {
    const double saved = *p;
    *p = saved + eps;
    const double plus = loss();
    *p = saved - eps;
    const double minus = loss();
    *p = saved;
    grad.push_back((plus - minus) / (2 * eps));
  }
  return grad;
}

inline double maxAbsDiff(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (size_t i = 0; i < a.size(); i++) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

}  // namespace thnnt

#endif
