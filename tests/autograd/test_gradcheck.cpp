// Gradients of composite functions against central differences in double precision: the
// engine's answer (backward into .grad) and a numerical one computed with grad mode off.
// Second derivatives are checked the same way, on the function x -> sum(d f / dx).
#define BOOST_TEST_MODULE autograd gradcheck
#include "autograd_test_util.hpp"

using namespace agt;
using torch::UnaryOp;

namespace {

using Function = std::function<Tensor(const TensorList &)>;

// Central differences with h = 1e-6 have an error around h^2 f''' + eps f / h: 1e-8 at
// these sizes, so 1e-6 leaves room without hiding a wrong formula.
constexpr double kTolerance = 1e-6;

void gradcheck(const Function &f, const std::vector<std::pair<Vec, IntList>> &inputs) {
  TensorList leaves;
  for (const auto &[v, sizes] : inputs) leaves.push_back(tensor(v, sizes, true));
  Tensor out = f(leaves);
  BOOST_REQUIRE_EQUAL(out.numel(), 1);
  backward(out);
  for (size_t k = 0; k < leaves.size(); k++) {
    BOOST_TEST_CONTEXT("input " << k) {
      BOOST_REQUIRE(torch::grad(leaves[k]).defined());
      BOOST_TEST(torch::grad(leaves[k]).sizes() == leaves[k].sizes());
      checkClose(values(torch::grad(leaves[k])), centralDifferences(f, leaves, k), kTolerance);
    }
  }
}

// d/dx_k of sum(d f / d x_which), with the inner gradient taken with create_graph.
void gradgradcheck(const Function &f, const std::vector<std::pair<Vec, IntList>> &inputs, size_t which) {
  TensorList leaves;
  for (const auto &[v, sizes] : inputs) leaves.push_back(tensor(v, sizes, true));
  Function sumOfGradient = [&](const TensorList &xs) {
    TensorList ys;
    for (const Tensor &x : xs) ys.push_back(tensor(values(x), x.sizes(), true));
    torch::GradModeGuard on(true);  // centralDifferences calls with grad mode off
    TensorList g = gradients(f(ys), {ys[which]}, kCreateGraph);
    return sumAll(g[0]);
  };
  Tensor first = sumAll(gradients(f(leaves), {leaves[which]}, kCreateGraph)[0]);
  TensorList second = gradients(first, leaves, kAllowUnused);
  for (size_t k = 0; k < leaves.size(); k++) {
    BOOST_TEST_CONTEXT("d/d input " << k << " of sum(d f / d input " << which << ")") {
      Vec numeric = centralDifferences(sumOfGradient, leaves, k, 1e-5);
      // An input the first derivative does not depend on gets no gradient: all zeros.
      Vec analytic = second[k].defined() ? values(second[k]) : Vec(numeric.size(), 0.0);
      checkClose(analytic, numeric, kTolerance * 10);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(sin_times_exp) {
  Function f = [](const TensorList &a) { return sumAll(mul(un(UnaryOp::Sin, a[0]), un(UnaryOp::Exp, a[1]))); };
  gradcheck(f, {{uniform(6, -1, 1, 21), {2, 3}}, {uniform(6, -1, 1, 22), {2, 3}}});
}

// x / (1 + y^2) with y broadcast along x's first dimension, then with y a column.
BOOST_AUTO_TEST_CASE(quotient_with_broadcasting) {
  Function f = [](const TensorList &a) { return sumAll(div(a[0], add(mul(a[1], a[1]), 1.0))); };
  gradcheck(f, {{uniform(12, -2, 2, 31), {3, 4}}, {uniform(4, -2, 2, 32), {4}}});
  gradcheck(f, {{uniform(12, -2, 2, 33), {3, 4}}, {uniform(3, -2, 2, 34), {3, 1}}});
}

// An intermediate used three times: u = sin(x) y, f = sum(u * u * exp(u)) / 2, and a mean.
BOOST_AUTO_TEST_CASE(shared_intermediate_and_reductions) {
  Function f = [](const TensorList &a) {
    Tensor u = mul(un(UnaryOp::Sin, a[0]), a[1]);
    Tensor part = mul(sumAll(mul(mul(u, u), un(UnaryOp::Exp, u))), 0.5);
    return add(part, torch::mean(un(UnaryOp::Tanh, add(a[0], a[1])), {}, false));
  };
  gradcheck(f, {{uniform(8, -1, 1, 41), {2, 4}}, {uniform(4, -1, 1, 42), {4}}});
}

// log1p(x^2) * sigmoid(y) summed over rows, then a sum of square roots: reductions over one
// dimension and positive-only functions.
BOOST_AUTO_TEST_CASE(row_sums_and_square_roots) {
  Function f = [](const TensorList &a) {
    Tensor t = mul(un(UnaryOp::Log1p, mul(a[0], a[0])), un(UnaryOp::Sigmoid, a[1]));
    Tensor rows = torch::sum(t, {1}, false);
    return sumAll(un(UnaryOp::Sqrt, add(rows, 1.0)));
  };
  gradcheck(f, {{uniform(6, -1, 1, 51), {3, 2}}, {uniform(3, -1, 1, 52), {3, 1}}});
}

// Functions whose formulas save only inputs, with operands of one shape: see
// test_known_bugs.cpp for saved outputs (exp) and broadcast operands under create_graph.
BOOST_AUTO_TEST_CASE(second_derivatives) {
  Function f = [](const TensorList &a) {
    return sumAll(mul(mul(un(UnaryOp::Sin, a[0]), un(UnaryOp::Cos, a[1])), a[0]));
  };
  const std::vector<std::pair<Vec, IntList>> xy = {{uniform(4, -1, 1, 61), {4}}, {uniform(4, -1, 1, 62), {4}}};
  gradgradcheck(f, xy, 0);
  gradgradcheck(f, xy, 1);
  Function g = [](const TensorList &a) { return sumAll(div(a[0], add(mul(a[1], a[1]), 1.0))); };
  const std::vector<std::pair<Vec, IntList>> quotient = {{uniform(6, -1, 1, 63), {2, 3}},
                                                         {uniform(6, -1, 1, 64), {2, 3}}};
  gradgradcheck(g, quotient, 0);
  gradgradcheck(g, quotient, 1);
}
