// Hooks: tensor hooks (register_hook) on non-leaves and leaves, node hooks (the binding's
// Node.register_hook), and retain_grad. A hook sees the gradient the formulas give and may
// replace it; what it returns is what flows on.
#define BOOST_TEST_MODULE autograd hooks
#include "autograd_test_util.hpp"

using namespace agt;
using torch::UnaryOp;

// y = 3x, s = sum(y * y): the gradient arriving at y is 2y; a hook multiplying it by 10
// makes x's gradient 3 * 10 * 2y.
BOOST_AUTO_TEST_CASE(tensor_hook_sees_and_replaces_the_gradient) {
  const Vec xv = {1, -2, 0.5};
  Tensor x = tensor(xv, {3}, true);
  Tensor y = mul(x, 3.0);
  std::vector<Vec> seen;
  torch::registerHook(y, [&](const Tensor &g) {
    seen.push_back(values(g));
    return mul(g, 10.0);
  });
  int kept = 0;
  torch::registerHook(y, [&](const Tensor &g) {  // runs second: sees the replacement
    seen.push_back(values(g));
    kept++;
    return Tensor();  // undefined: keep the gradient
  });
  backward(sumAll(mul(y, y)));
  BOOST_REQUIRE_EQUAL(seen.size(), 2u);
  Vec twoY, hooked, gx;
  for (double v : xv) {
    twoY.push_back(2 * 3 * v);
    hooked.push_back(10 * 2 * 3 * v);
    gx.push_back(3 * 10 * 2 * 3 * v);
  }
  checkClose(seen[0], twoY);
  checkClose(seen[1], hooked);
  BOOST_TEST(kept == 1);
  checkClose(values(torch::grad(x)), gx);
}

BOOST_AUTO_TEST_CASE(hook_on_a_leaf_changes_what_accumulates) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor s = sumAll(mul(x, x));
  Vec seen;
  torch::registerHook(x, [&](const Tensor &g) {
    seen = values(g);
    return mul(g, -1.0);
  });
  backward(s);
  checkClose(seen, {2, 4, 6});
  checkClose(values(torch::grad(x)), {-2, -4, -6});
}

BOOST_AUTO_TEST_CASE(retain_grad_keeps_a_non_leaf_gradient_after_hooks) {
  const Vec xv = {0.5, 1.5};
  Tensor x = tensor(xv, {2}, true);
  Tensor y = un(UnaryOp::Sin, x);
  torch::retainGrad(y);
  torch::registerHook(y, [](const Tensor &g) { return mul(g, 2.0); });
  backward(sumAll(mul(y, 4.0)));
  checkClose(values(torch::grad(y)), {8, 8});  // 4 from the sum, doubled by the hook
  checkClose(values(torch::grad(x)), {8 * std::cos(xv[0]), 8 * std::cos(xv[1])});
  // Without retain_grad a non-leaf keeps nothing.
  Tensor z = mul(x, 2.0);
  backward(sumAll(z));
  BOOST_TEST(!torch::grad(z).defined());
}

// A node hook sees the node's output gradients and the input gradients its formula made,
// and may replace the latter. Here mul(x, w) with seed G: the formula gives G w and G x;
// the hook halves x's part.
BOOST_AUTO_TEST_CASE(node_hook_sees_both_sides_and_replaces_input_gradients) {
  const Vec xv = {1, 2, 3}, wv = {-1, 0.5, 4}, gv = {0.25, -2, 1};
  Tensor x = tensor(xv, {3}, true), w = tensor(wv, {3}, true);
  Tensor y = mul(x, w);
  std::vector<Vec> inputsSeen, outputsSeen;
  torch::gradFn(y)->postHooks.push_back([&](TensorList &gradInputs, const TensorList &gradOutputs) {
    for (const Tensor &g : gradInputs) inputsSeen.push_back(values(g));
    for (const Tensor &g : gradOutputs) outputsSeen.push_back(values(g));
    gradInputs[0] = mul(gradInputs[0], 0.5);
  });
  backward(y, tensor(gv, {3}));
  BOOST_REQUIRE_EQUAL(inputsSeen.size(), 2u);
  BOOST_REQUIRE_EQUAL(outputsSeen.size(), 1u);
  Vec gx(3), gw(3), halfGx(3);
  for (int i = 0; i < 3; i++) {
    gx[i] = gv[i] * wv[i];
    gw[i] = gv[i] * xv[i];
    halfGx[i] = gx[i] / 2;
  }
  checkClose(outputsSeen[0], gv);
  checkClose(inputsSeen[0], gx);
  checkClose(inputsSeen[1], gw);
  checkClose(values(torch::grad(x)), halfGx);
  checkClose(values(torch::grad(w)), gw);
}

BOOST_AUTO_TEST_CASE(node_pre_hook_replaces_an_output_gradient) {
  // What register_hook on a tensor does, attached by hand to the node's output 0.
  Tensor x = tensor({2, 3}, {2}, true);
  Tensor y = un(UnaryOp::Exp, x);
  torch::gradFn(y)->preHooks.emplace_back(0, [](const Tensor &g) { return add(g, 1.0); });
  backward(y, tensor({1, 2}, {2}));
  checkClose(values(torch::grad(x)), {2 * std::exp(2.0), 3 * std::exp(3.0)});
}

BOOST_AUTO_TEST_CASE(hooks_on_tensors_without_grad_are_refused) {
  Tensor c = tensor({1, 2}, {2});
  checkRaises([&] { torch::registerHook(c, [](const Tensor &g) { return g; }); }, {"doesn't require gradient"});
  checkRaises([&] { torch::retainGrad(c); }, {"requires_grad=False"});
}

// A leaf keeps its hooks itself: its AccumulateGrad lives only while a graph uses the leaf,
// so a hook registered before the first op must still run.
BOOST_AUTO_TEST_CASE(hook_on_a_leaf_registered_before_its_first_use) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  int calls = 0;
  torch::registerHook(x, [&](const Tensor &g) {
    calls++;
    return mul(g, -1.0);
  });
  backward(sumAll(mul(x, x)));
  BOOST_TEST(calls == 1);
  checkClose(values(torch::grad(x)), {-2, -4, -6});
}
