// What the autograd suites share: Double tensors made from and read back into plain vectors,
// backward in the two forms the binding uses (into .grad, and returning gradients), a check
// that a call raises th::Error with a given phrase, and central differences.
#ifndef TESTS_AUTOGRAD_TEST_UTIL_HPP
#define TESTS_AUTOGRAD_TEST_UTIL_HPP

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "autograd/Autograd.h"
#include "autograd/Engine.h"
#include "core/ops/Factory.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace agt {

using torch::IntList;
using torch::Tensor;
using torch::TensorList;
using Vec = std::vector<double>;

inline int64_t count(const IntList &sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// A contiguous Double tensor holding v, optionally a leaf that requires grad.
inline Tensor tensor(const Vec &v, const IntList &sizes, bool requiresGrad = false) {
  BOOST_REQUIRE_EQUAL(static_cast<int64_t>(v.size()), count(sizes));
  Tensor t = torch::empty(sizes, torch::ScalarType::Double, torch::Device::CPU);
  if (!v.empty()) std::memcpy(t.dataPtr(), v.data(), v.size() * sizeof(double));
  if (requiresGrad) torch::setRequiresGrad(t, true);
  return t;
}

// Values uniform in [lo, hi), from a seeded generator so that a failure reproduces.
inline Vec uniform(int64_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  Vec v(n);
  for (double &x : v) x = d(rng);
  return v;
}

// The elements in row-major order, whatever the tensor's type and strides.
inline Vec values(const Tensor &t) {
  torch::NoGradGuard plain;
  Tensor c = torch::contiguous(torch::toType(t, torch::ScalarType::Double));
  const double *p = reinterpret_cast<const double *>(c.dataPtr());
  return Vec(p, p + c.numel());
}

inline Tensor sumAll(const Tensor &t) { return torch::sum(t, {}, false); }
inline Tensor mul(const Tensor &a, const Tensor &b) { return torch::binary(torch::BinaryOp::Mul, a, b); }
inline Tensor mul(const Tensor &a, double s) { return torch::binary(torch::BinaryOp::Mul, a, torch::Scalar(s)); }
inline Tensor add(const Tensor &a, const Tensor &b) { return torch::binary(torch::BinaryOp::Add, a, b); }
inline Tensor add(const Tensor &a, double s) { return torch::binary(torch::BinaryOp::Add, a, torch::Scalar(s)); }
inline Tensor div(const Tensor &a, const Tensor &b) { return torch::binary(torch::BinaryOp::Div, a, b); }
inline Tensor un(torch::UnaryOp op, const Tensor &t) { return torch::unary(op, t); }

struct Options {
  bool keepGraph = false;
  bool createGraph = false;
  bool allowUnused = false;
};
// retain_graph=True; create_graph=True (which retains too, as in PyTorch); allow_unused=True.
inline constexpr Options kRetain{true, false, false};
inline constexpr Options kCreateGraph{true, true, false};
inline constexpr Options kAllowUnused{false, false, true};
inline torch::BackwardOptions engineOptions(Options o) {
  torch::BackwardOptions b;
  b.keepGraph = o.keepGraph;
  b.createGraph = o.createGraph;
  b.allowUnused = o.allowUnused;
  return b;
}

// root.backward(seed): gradients accumulate into the leaves' .grad.
inline void backward(const Tensor &root, const Tensor &seed = Tensor(), Options o = {}) {
  torch::runBackward({root}, {seed}, {}, engineOptions(o));
}

// torch.autograd.grad(root, inputs): the gradients are returned, no .grad changes.
inline TensorList gradients(const Tensor &root, const TensorList &inputs, Options o = {}) {
  return torch::runBackward({root}, {Tensor()}, inputs, engineOptions(o));
}

// Element-wise closeness with an absolute and a relative part.
inline void checkClose(const Vec &got, const Vec &want, double tolerance = 1e-12) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) {
    BOOST_TEST(std::abs(got[i] - want[i]) <= tolerance * (1 + std::abs(want[i])),
               "element " << i << ": got " << got[i] << ", want " << want[i]);
  }
}

// f() must raise th::Error of kind Runtime whose message contains every phrase.
template <typename F>
void checkRaises(F &&f, const std::vector<std::string> &phrases) {
  try {
    f();
  } catch (const th::Error &e) {
    const std::string message = e.what();
    BOOST_TEST((e.kind() == th::ErrorKind::Runtime), "error kind of: " << message);
    for (const std::string &p : phrases) {
      BOOST_TEST(message.find(p) != std::string::npos, "'" << p << "' not in: " << message);
    }
    return;
  }
  BOOST_ERROR("no th::Error raised; expected one saying '" << phrases.front() << "'");
}

// d f / d inputs[which] by central differences: f runs on fresh tensors (the inputs'
// values with one element moved by +-h) with grad mode off, so the engine is not involved.
inline Vec centralDifferences(const std::function<Tensor(const TensorList &)> &f, const TensorList &inputs,
                              size_t which, double h = 1e-6) {
  std::vector<Vec> v;
  for (const Tensor &t : inputs) v.push_back(values(t));
  auto at = [&](const std::vector<Vec> &vals) {
    torch::NoGradGuard plain;
    TensorList ts;
    for (size_t k = 0; k < inputs.size(); k++) ts.push_back(tensor(vals[k], inputs[k].sizes()));
    return values(f(ts))[0];
  };
  Vec d(v[which].size());
  for (size_t i = 0; i < d.size(); i++) {
    std::vector<Vec> plus = v, minus = v;
    plus[which][i] += h;
    minus[which][i] -= h;
    d[i] = (at(plus) - at(minus)) / (2 * h);
  }
  return d;
}

}  // namespace agt

#endif
