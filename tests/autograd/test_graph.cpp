// Building the graph: which results get a node, what the node points at, when nothing is
// recorded, and the version counters that guard saved tensors against in-place changes.
#define BOOST_TEST_MODULE autograd graph
#include "autograd_test_util.hpp"

using namespace agt;
using torch::AccumulateGrad;
using torch::BinaryOp;
using torch::UnaryOp;

BOOST_AUTO_TEST_CASE(result_node_points_at_its_inputs) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor c = tensor({4, 5, 6}, {3});
  Tensor y = mul(x, c);

  BOOST_TEST(torch::isLeaf(x));
  BOOST_TEST(!torch::gradFn(x));
  BOOST_TEST(torch::requiresGrad(y));
  BOOST_TEST(!torch::isLeaf(y));
  const auto &node = torch::gradFn(y);
  BOOST_REQUIRE(node);
  BOOST_TEST(node->name() == "mul");
  BOOST_TEST(node->outputs.size() == 1u);
  BOOST_TEST(node->outputs[0].sizes == IntList({3}));
  BOOST_TEST((node->outputs[0].dtype == torch::ScalarType::Double));

  // One edge per input: x's gradient sink, and nothing for c, which needs no gradient.
  BOOST_REQUIRE_EQUAL(node->next.size(), 2u);
  auto *sink = dynamic_cast<AccumulateGrad *>(node->next[0].fn.get());
  BOOST_REQUIRE(sink);
  BOOST_TEST(sink->variable.isSameAs(x));
  BOOST_TEST(!node->next[1].valid());

  // A second op on y points at y's node; a second op on x reaches the same sink.
  Tensor z = un(UnaryOp::Sin, y);
  BOOST_TEST(torch::gradFn(z)->name() == "sin");
  BOOST_TEST(torch::gradFn(z)->next[0].fn == node);
  BOOST_TEST(torch::gradFn(z)->sequenceNr > node->sequenceNr);
  Tensor u = un(UnaryOp::Exp, x);
  BOOST_TEST(torch::gradFn(u)->next[0].fn == node->next[0].fn);
}

BOOST_AUTO_TEST_CASE(requires_grad_follows_the_inputs) {
  Tensor x = tensor({1, 2}, {2}, true);
  Tensor c = tensor({3, 4}, {2});
  BOOST_TEST(torch::requiresGrad(add(c, x)));
  BOOST_TEST(torch::requiresGrad(add(x, c)));
  Tensor plain = mul(c, c);
  BOOST_TEST(!torch::requiresGrad(plain));
  BOOST_TEST(!torch::gradFn(plain));
  BOOST_TEST(torch::isLeaf(plain));
  // Through several ops the flag is carried by the chain of nodes.
  Tensor deep = sumAll(un(UnaryOp::Exp, mul(add(c, 1.0), x)));
  BOOST_TEST(torch::requiresGrad(deep));
  BOOST_TEST(torch::gradFn(deep)->name() == "sum");
}

BOOST_AUTO_TEST_CASE(no_grad_mode_records_nothing) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  BOOST_TEST(torch::GradMode::enabled());
  {
    torch::NoGradGuard off;
    BOOST_TEST(!torch::GradMode::enabled());
    Tensor y = mul(un(UnaryOp::Sin, x), 2.0);
    BOOST_TEST(!torch::requiresGrad(y));
    BOOST_TEST(!torch::gradFn(y));
    checkClose(values(y), {2 * std::sin(1.0), 2 * std::sin(2.0), 2 * std::sin(3.0)});
    {
      torch::GradModeGuard on(true);  // torch.enable_grad() inside torch.no_grad()
      BOOST_TEST(torch::requiresGrad(mul(x, 2.0)));
    }
    BOOST_TEST(!torch::GradMode::enabled());
    // An optimizer's update: in place on a leaf that requires grad, allowed without recording.
    torch::binary_(BinaryOp::Sub, x, tensor({1, 1, 1}, {3}));
  }
  BOOST_TEST(torch::GradMode::enabled());
  checkClose(values(x), {0, 1, 2});
  BOOST_TEST(torch::isLeaf(x));
  BOOST_TEST(torch::requiresGrad(x));
}

BOOST_AUTO_TEST_CASE(requires_grad_flag_rules) {
  Tensor x = tensor({1, 2}, {2}, true);
  Tensor y = mul(x, 2.0);
  checkRaises([&] { torch::setRequiresGrad(y, false); }, {"leaf variables"});
  Tensor n = torch::zeros({2}, torch::ScalarType::Long, torch::Device::CPU);
  checkRaises([&] { torch::setRequiresGrad(n, true); }, {"floating point", "Long"});
  BOOST_TEST(!torch::requiresGrad(n));

  // detach: the same memory and version, no history.
  Tensor d = torch::detach(y);
  BOOST_TEST(!torch::requiresGrad(d));
  BOOST_TEST(torch::isLeaf(d));
  BOOST_TEST(d.dataPtr() == y.dataPtr());
  torch::binary_(BinaryOp::Add, d, 1.0);
  BOOST_TEST(torch::version(y) == 1u);
  checkClose(values(y), {3, 5});
}

// An in-place op bumps the version of what it writes; a node that saved that tensor
// compares the version when backward unpacks it.
BOOST_AUTO_TEST_CASE(modifying_a_saved_input_makes_backward_raise) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor c = tensor({4, 5, 6}, {3});
  Tensor s = sumAll(mul(x, c));  // mul saves c for x's gradient
  BOOST_TEST(torch::version(c) == 0u);
  torch::binary_(BinaryOp::Mul, c, 2.0);
  BOOST_TEST(torch::version(c) == 1u);
  checkRaises([&] { backward(s); }, {"modified by an inplace operation", "torch.DoubleTensor [3]", "needed by mul",
                                     "is at version 1; expected version 0"});
  BOOST_TEST(torch::GradMode::enabled());  // the engine's guard restored it on the way out
}

BOOST_AUTO_TEST_CASE(modifying_a_saved_output_makes_backward_raise) {
  Tensor x = tensor({0.5, 1.0}, {2}, true);
  Tensor y = un(UnaryOp::Exp, x);  // exp's backward uses its own result
  Tensor s = sumAll(y);
  torch::binary_(BinaryOp::Add, y, 1.0);
  checkRaises([&] { backward(s); }, {"modified by an inplace operation", "needed by exp"});
}

BOOST_AUTO_TEST_CASE(modifying_an_unsaved_tensor_is_allowed) {
  // add's backward needs neither operand, so changing one afterwards is harmless.
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor c = tensor({4, 5, 6}, {3});
  Tensor s = sumAll(add(x, c));
  torch::binary_(BinaryOp::Mul, c, 2.0);
  BOOST_TEST(torch::version(c) == 1u);
  backward(s);
  checkClose(values(torch::grad(x)), {1, 1, 1});
}

BOOST_AUTO_TEST_CASE(views_share_the_version_counter) {
  Tensor c = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor row = torch::select(c, 0, 1);
  Tensor cols = torch::narrow(c, 1, 1, 2);
  Tensor t = torch::transpose(c, 0, 1);
  BOOST_TEST(torch::version(row) == 0u);
  torch::binary_(BinaryOp::Mul, row, 10.0);
  for (const Tensor &v : {c, row, cols, t}) BOOST_TEST(torch::version(v) == 1u);
  checkClose(values(c), {1, 2, 3, 40, 50, 60});
  torch::binary_(BinaryOp::Add, cols, 1.0);
  for (const Tensor &v : {c, row, cols, t}) BOOST_TEST(torch::version(v) == 2u);

  // So a change through a view is caught when the base was saved.
  Tensor x = tensor({1, 1, 1, 1, 1, 1}, {2, 3}, true);
  Tensor s = sumAll(mul(x, c));
  torch::binary_(BinaryOp::Mul, t, 2.0);
  checkRaises([&] { backward(s); }, {"modified by an inplace operation", "is at version 3; expected version 2"});
}

BOOST_AUTO_TEST_CASE(inplace_on_a_leaf_that_requires_grad_raises) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  checkRaises([&] { torch::binary_(BinaryOp::Add, x, 1.0); }, {"a leaf Variable that requires grad"});
  checkRaises([&] { torch::unary_(UnaryOp::Exp, torch::select(x, 0, 0)); },
              {"a view of a leaf Variable that requires grad"});
  checkClose(values(x), {1, 2, 3});  // checked before anything was written
  BOOST_TEST(torch::isLeaf(x));
}

// In-place ops on a non-leaf record their derivative: y = x * 2, then row 1 of y is
// multiplied by 3 through a view, so d sum(y * y) / dx = 2 y * 2 * (3 on row 1, else 1)
// with y the final values.
BOOST_AUTO_TEST_CASE(inplace_through_a_view_rewrites_the_base_history) {
  const Vec xv = {0.5, -1, 2, 1.5, 0.25, -2};
  Tensor x = tensor(xv, {2, 3}, true);
  Tensor y = mul(x, 2.0);
  torch::binary_(BinaryOp::Mul, torch::select(y, 0, 1), 3.0);
  BOOST_TEST(torch::gradFn(y)->name() == "CopySlices");
  backward(sumAll(mul(y, y)));
  Vec want(6);
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++) {
      double scale = i == 1 ? 3 : 1;
      double yij = 2 * xv[i * 3 + j] * scale;
      want[i * 3 + j] = 2 * yij * 2 * scale;
    }
  }
  checkClose(values(torch::grad(x)), want);
}

// The in-place rules are checked before the version moves: a refused add_ on a leaf
// leaves every graph that saved it usable.
BOOST_AUTO_TEST_CASE(a_refused_inplace_op_leaves_the_version_alone) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor s = sumAll(mul(x, x));
  BOOST_CHECK_THROW(torch::binary_(BinaryOp::Add, x, 1.0), th::Error);
  BOOST_TEST(torch::version(x) == 0u);
  backward(s);
  checkClose(values(torch::grad(x)), {2, 4, 6});
}
