// Running backward: seeds, accumulation on leaves, broadcasting, retain_graph, double
// backward, autograd.grad's form, and the errors of a bad call. Each expected gradient is
// written out from the hand-derived formula with a plain loop.
#define BOOST_TEST_MODULE autograd backward
#include "autograd_test_util.hpp"

using namespace agt;
using torch::BinaryOp;
using torch::UnaryOp;

BOOST_AUTO_TEST_CASE(backward_of_a_scalar) {
  const Vec xv = {0.5, -1.5, 2.0, 3.0};
  Tensor x = tensor(xv, {4}, true);
  backward(sumAll(mul(x, x)));  // d sum(x^2) / dx = 2x
  Vec want;
  for (double v : xv) want.push_back(2 * v);
  checkClose(values(torch::grad(x)), want);
  BOOST_TEST(torch::grad(x).hasSizes({4}));
  BOOST_TEST(!torch::requiresGrad(torch::grad(x)));
}

BOOST_AUTO_TEST_CASE(backward_with_a_given_gradient) {
  const Vec xv = uniform(6, -1, 1, 1), wv = uniform(6, -1, 1, 2), gv = uniform(6, -1, 1, 3);
  Tensor x = tensor(xv, {2, 3}, true), w = tensor(wv, {2, 3}, true);
  Tensor y = mul(x, w);
  backward(y, tensor(gv, {2, 3}));  // y.backward(G): dx = G w, dw = G x
  Vec gx(6), gw(6);
  for (int i = 0; i < 6; i++) {
    gx[i] = gv[i] * wv[i];
    gw[i] = gv[i] * xv[i];
  }
  checkClose(values(torch::grad(x)), gx);
  checkClose(values(torch::grad(w)), gw);
}

BOOST_AUTO_TEST_CASE(a_float_seed_for_a_double_root_is_converted) {
  Tensor x = tensor({1, 2}, {2}, true);
  Tensor seed = torch::full({2}, torch::Scalar(0.5), torch::ScalarType::Float, torch::Device::CPU);
  backward(mul(x, 3.0), seed);
  BOOST_TEST((torch::grad(x).dtype() == torch::ScalarType::Double));
  checkClose(values(torch::grad(x)), {1.5, 1.5});
}

// Several roots in one call: their gradients meet at the shared leaf.
// d/dx [sum(x^2) + 5 sum(3x)] = 2x + 15, the second root seeded with 5.
BOOST_AUTO_TEST_CASE(several_roots_in_one_call) {
  const Vec xv = {1, -2, 0.5};
  Tensor x = tensor(xv, {3}, true);
  torch::runBackward({sumAll(mul(x, x)), sumAll(mul(x, 3.0))}, {Tensor(), tensor({5}, {})}, {}, {});
  Vec want;
  for (double v : xv) want.push_back(2 * v + 15);
  checkClose(values(torch::grad(x)), want);
}

// A Float leaf in a Double computation: the gradient comes back as Float.
BOOST_AUTO_TEST_CASE(gradient_takes_the_type_of_its_input) {
  Tensor x = torch::full({2}, torch::Scalar(1.5), torch::ScalarType::Float, torch::Device::CPU);
  torch::setRequiresGrad(x, true);
  Tensor c = tensor({2, -4}, {2});
  Tensor y = mul(x, c);
  BOOST_TEST((y.dtype() == torch::ScalarType::Double));
  backward(sumAll(y));
  BOOST_TEST((torch::grad(x).dtype() == torch::ScalarType::Float));
  checkClose(values(torch::grad(x)), {2, -4});
}

BOOST_AUTO_TEST_CASE(gradients_accumulate_across_backward_calls) {
  const Vec xv = {1, -2, 0.5};
  Tensor x = tensor(xv, {3}, true);
  backward(sumAll(mul(x, x)));
  backward(sumAll(mul(x, 3.0)));
  Vec want;
  for (double v : xv) want.push_back(2 * v + 3);
  checkClose(values(torch::grad(x)), want);
  // Zeroing .grad (what optimizers do) starts the sum afresh.
  torch::zero_(torch::grad(x));
  backward(sumAll(mul(x, 3.0)));
  checkClose(values(torch::grad(x)), {3, 3, 3});
}

// A value used on several paths of different lengths: its node runs once, after every
// path has delivered its part. z = sum(y*y + y + exp(y)) with y = sin(x):
// dz/dx = (2y + 1 + e^y) cos x.
BOOST_AUTO_TEST_CASE(a_value_used_on_several_paths_gets_the_sum) {
  const Vec xv = {0.3, -0.7, 1.2};
  Tensor x = tensor(xv, {3}, true);
  Tensor y = un(UnaryOp::Sin, x);
  backward(sumAll(add(add(mul(y, y), y), un(UnaryOp::Exp, y))));
  Vec want;
  for (double v : xv) want.push_back((2 * std::sin(v) + 1 + std::exp(std::sin(v))) * std::cos(v));
  checkClose(values(torch::grad(x)), want);
}

// y[i][j] = x[i][j] b[j] + c[i] s with x [2, 3], b [3], c [2, 1], s 0-dim: each gradient is
// summed over the dimensions its input was broadcast along and keeps the input's shape.
BOOST_AUTO_TEST_CASE(broadcast_gradients_are_summed_to_the_input_shape) {
  const Vec xv = uniform(6, -1, 1, 11), bv = uniform(3, -1, 1, 12), cv = uniform(2, -1, 1, 13),
            gv = uniform(6, -1, 1, 14);
  const double sv = 0.75;
  Tensor x = tensor(xv, {2, 3}, true), b = tensor(bv, {3}, true), c = tensor(cv, {2, 1}, true),
         s = tensor({sv}, {}, true);
  Tensor y = add(mul(x, b), mul(c, s));
  BOOST_TEST(y.hasSizes({2, 3}));
  backward(y, tensor(gv, {2, 3}));
  Vec gx(6), gb(3, 0.0), gc(2, 0.0);
  double gs = 0;
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++) {
      double g = gv[i * 3 + j];
      gx[i * 3 + j] = g * bv[j];
      gb[j] += g * xv[i * 3 + j];
      gc[i] += g * sv;
      gs += g * cv[i];
    }
  }
  BOOST_TEST(torch::grad(x).hasSizes({2, 3}));
  BOOST_TEST(torch::grad(b).hasSizes({3}));
  BOOST_TEST(torch::grad(c).hasSizes({2, 1}));
  BOOST_TEST(torch::grad(s).hasSizes({}));
  checkClose(values(torch::grad(x)), gx);
  checkClose(values(torch::grad(b)), gb);
  checkClose(values(torch::grad(c)), gc);
  checkClose(values(torch::grad(s)), {gs});
}

BOOST_AUTO_TEST_CASE(retain_graph_allows_a_second_backward) {
  const Vec xv = {0.2, -0.4, 1.1};
  Tensor x = tensor(xv, {3}, true);
  Tensor y = sumAll(mul(un(UnaryOp::Exp, x), x));  // d/dx e^x x = e^x (1 + x)
  backward(y, Tensor(), kRetain);
  backward(y);
  Vec want;
  for (double v : xv) want.push_back(2 * std::exp(v) * (1 + v));
  checkClose(values(torch::grad(x)), want);
  checkRaises([&] { backward(y); }, {"backward through the graph a second time", "retain_graph=True"});
}

BOOST_AUTO_TEST_CASE(a_second_backward_without_retain_graph_raises) {
  Tensor x = tensor({1, 2}, {2}, true);
  Tensor y = sumAll(mul(x, x));
  backward(y);
  checkRaises([&] { backward(y); }, {"backward through the graph a second time"});
  checkClose(values(torch::grad(x)), {2, 4});  // the failed call added nothing
  BOOST_TEST(torch::GradMode::enabled());
}

// Backward without retain_graph frees saved tensors; a node that saved none keeps working,
// as in PyTorch, which raises only when a freed tensor is needed: twice through sum(x).
BOOST_AUTO_TEST_CASE(second_backward_through_nodes_that_saved_nothing) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor s = sumAll(x);
  backward(s);
  backward(s);
  checkClose(values(torch::grad(x)), {2, 2, 2});
}

// d/dx sum(x^3) = 3x^2 with create_graph records a graph of its own: its gradient is
// d/dx sum(3x^2) = 6x, and once more d/dx sum(6x) = 6.
BOOST_AUTO_TEST_CASE(double_backward_of_a_cube) {
  const Vec xv = {0.5, -1.0, 2.0, 1.5};
  for (bool viaPow : {false, true}) {
    BOOST_TEST_CONTEXT("x^3 computed " << (viaPow ? "with pow" : "as x * x * x")) {
      Tensor x = tensor(xv, {4}, true);
      Tensor cube = viaPow ? torch::binary(BinaryOp::Pow, x, torch::Scalar(3.0)) : mul(mul(x, x), x);
      TensorList g = gradients(sumAll(cube), {x}, kCreateGraph);
      BOOST_REQUIRE_EQUAL(g.size(), 1u);
      BOOST_TEST(torch::requiresGrad(g[0]));
      BOOST_TEST(!torch::grad(x).defined());  // autograd.grad's form leaves .grad alone
      TensorList h = gradients(sumAll(g[0]), {x}, kCreateGraph);
      TensorList third = gradients(sumAll(h[0]), {x});
      Vec first, second;
      for (double v : xv) {
        first.push_back(3 * v * v);
        second.push_back(6 * v);
      }
      checkClose(values(g[0]), first);
      checkClose(values(h[0]), second);
      checkClose(values(third[0]), {6, 6, 6, 6});
    }
  }
}

// backward(create_graph=True) leaves a .grad that itself has history.
BOOST_AUTO_TEST_CASE(create_graph_gives_grad_a_history) {
  const Vec xv = {0.3, 0.9};
  Tensor x = tensor(xv, {2}, true);
  backward(sumAll(un(UnaryOp::Sin, x)), Tensor(), kCreateGraph);
  Tensor gx = torch::grad(x);  // cos x
  BOOST_TEST(torch::requiresGrad(gx));
  checkClose(values(gx), {std::cos(xv[0]), std::cos(xv[1])});
  TensorList h = gradients(sumAll(gx), {x});  // -sin x
  checkClose(values(h[0]), {-std::sin(xv[0]), -std::sin(xv[1])});
}

BOOST_AUTO_TEST_CASE(gradients_of_chosen_inputs_and_unused_ones) {
  const Vec xv = {1, 2, 3};
  Tensor x = tensor(xv, {3}, true), unused = tensor({0, 0}, {2}, true);
  Tensor y = sumAll(mul(x, x));
  checkRaises([&] { gradients(y, {x, unused}, kRetain); }, {"allow_unused=True"});
  TensorList g = gradients(y, {x, unused}, kAllowUnused);
  checkClose(values(g[0]), {2, 4, 6});
  BOOST_TEST(!g[1].defined());
  BOOST_TEST(!torch::grad(x).defined());
}

// The gradient with respect to an intermediate: d sum(y^2) / dy = 2y for y = 3x; the
// leaf below it gets nothing.
BOOST_AUTO_TEST_CASE(gradient_of_an_intermediate) {
  const Vec xv = {1, -0.5};
  Tensor x = tensor(xv, {2}, true);
  Tensor y = mul(x, 3.0);
  TensorList g = gradients(sumAll(mul(y, y)), {y});
  checkClose(values(g[0]), {6 * xv[0], 6 * xv[1]});
  BOOST_TEST(!torch::grad(x).defined());
}

BOOST_AUTO_TEST_CASE(bad_calls_raise_and_leave_the_graph_usable) {
  Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, true);
  Tensor y = mul(x, 2.0);
  checkRaises([&] { backward(y); }, {"grad can be implicitly created only for scalar outputs"});
  checkRaises(
      [&] {
        backward(y, tensor({1, 1, 1}, {3}));
      },
      {"Mismatch in shape", "grad_output[0] has a shape of [3]", "output[0] has a shape of [2, 3]"});
  Tensor plain = tensor({1, 2}, {2});
  checkRaises([&] { backward(sumAll(plain)); }, {"does not require grad"});
  checkRaises([&] { torch::runBackward({y}, {}, {}, {}); }, {"got 1 tensors and 0 gradients"});
  checkRaises([&] { gradients(sumAll(y), {plain}); }, {"does not require grad"});
  // None of that used up the graph.
  backward(y, tensor({1, 2, 3, 4, 5, 6}, {2, 3}));
  checkClose(values(torch::grad(x)), {2, 4, 6, 8, 10, 12});
  BOOST_TEST(torch::GradMode::enabled());
}

BOOST_AUTO_TEST_CASE(an_op_that_fails_while_recording_restores_grad_mode) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  BOOST_CHECK_THROW(add(x, tensor({1, 2}, {2})), th::Error);  // shapes [3] and [2] do not broadcast
  BOOST_TEST(torch::GradMode::enabled());
  BOOST_TEST(torch::requiresGrad(mul(x, 2.0)));
}

// With create_graph, .grad is a (recorded) copy of an arriving gradient that someone else
// holds: add passes the caller's seed through unchanged, and a later backward without
// create_graph adds into .grad in place, which must not change the seed.
BOOST_AUTO_TEST_CASE(create_graph_grad_does_not_alias_the_seed) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor seed = tensor({5, 6, 7}, {3});
  backward(add(x, tensor({1, 1, 1}, {3})), seed, kCreateGraph);
  BOOST_TEST(!torch::grad(x).isSameAs(seed));
  backward(sumAll(mul(x, 2.0)));
  checkClose(values(torch::grad(x)), {7, 8, 9});
  checkClose(values(seed), {5, 6, 7});
}

// Note [Saved outputs]: under create_graph, formulas that use their own result get it with
// its history. Second derivatives against closed forms: (e^x)'' = e^x,
// (tanh x)'' = -2 tanh x (1 - tanh^2 x), (sigmoid x)'' = s (1 - s) (1 - 2 s),
// (sqrt x)'' = -x^(-3/2) / 4.
BOOST_AUTO_TEST_CASE(double_backward_through_a_saved_output) {
  const Vec xv = {0.5, 1.3, 2.0};
  struct Case {
    UnaryOp op;
    double (*second)(double);
  };
  const Case cases[] = {
      {UnaryOp::Exp, [](double x) { return std::exp(x); }},
      {UnaryOp::Tanh, [](double x) { return -2 * std::tanh(x) * (1 - std::tanh(x) * std::tanh(x)); }},
      {UnaryOp::Sigmoid,
       [](double x) {
         double s = 1 / (1 + std::exp(-x));
         return s * (1 - s) * (1 - 2 * s);
       }},
      {UnaryOp::Sqrt, [](double x) { return -0.25 * std::pow(x, -1.5); }},
  };
  for (const Case &c : cases) {
    Tensor x = tensor(xv, {3}, true);
    TensorList g = gradients(sumAll(un(c.op, x)), {x}, kCreateGraph);
    BOOST_REQUIRE(torch::requiresGrad(g[0]));
    TensorList h = gradients(sumAll(g[0]), {x});
    Vec want;
    for (double v : xv) want.push_back(c.second(v));
    checkClose(values(h[0]), want);
  }
}

// Under create_graph, the sum that brings a broadcast operand's gradient back to its shape
// is recorded too. f = sum(a * b), a [2, 1], b [3]: df/da_i = sum_j b_j, and
// d/db_j sum_i df/da_i = 2.
BOOST_AUTO_TEST_CASE(double_backward_through_broadcasting) {
  Tensor a = tensor({1, 2}, {2, 1}, true), b = tensor({3, 4, 5}, {3}, true);
  TensorList g = gradients(sumAll(mul(a, b)), {a}, kCreateGraph);
  checkClose(values(g[0]), {12, 12});
  BOOST_REQUIRE(torch::requiresGrad(g[0]));
  TensorList h = gradients(sumAll(g[0]), {b});
  checkClose(values(h[0]), {2, 2, 2});
}
