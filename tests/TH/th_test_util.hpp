// Helpers shared by the TH test suites: building tensors from plain values, reading them
// back as plain vectors (the references are computed on those with plain loops), and
// making non-contiguous inputs.
#ifndef TH_TEST_UTIL_HPP
#define TH_TEST_UTIL_HPP

#include <cmath>
#include <random>
#include <vector>

#include "TH/TH.h"
#include "TH/THTensor.hpp"

namespace tht {

// All elements in row-major order, converted to double.
template <typename TensorT>
std::vector<double> values(TensorT *t) {
  using T = std::remove_pointer_t<decltype(t->storage->data)>;
  // A serial walk: th::apply runs large tensors on several threads, out of order.
  const int64_t n = th::numel(th::ref(t));
  std::vector<double> out;
  out.reserve(n);
  th::detail::Cursor<T> cursor(th::ref(t));
  for (int64_t i = 0; i < n; i++, cursor.next()) out.push_back((double)cursor.get());
  return out;
}

template <typename T>
typename th::TH<T>::Tensor *fromValues(const std::vector<int64_t> &size, const std::vector<double> &vals) {
  using Tensor = typename th::TH<T>::Tensor;
  int64_t n = 1;
  for (auto s : size) n *= s;
  if ((int64_t)vals.size() != n) throw std::runtime_error("fromValues: wrong number of values");
  Tensor *t = th::TH<T>::newWithSize((int)size.size(), size.data(), nullptr);
  T *data = t->storage->data + t->storageOffset;
  for (int64_t i = 0; i < n; i++) data[i] = (T)vals[i];
  return t;
}

inline std::vector<double> randomValues(size_t n, unsigned seed, double lo = -10, double hi = 10) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (auto &x : v) x = dist(gen);
  return v;
}

}  // namespace tht

#endif
