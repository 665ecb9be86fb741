// Saved tensor hooks (Note [Saved tensor hooks] in autograd/Autograd.h), on the core alone: while
// a pair is pushed every tensor a node saves goes through pack, and backward reads unpack of
// what pack returned; versions are not checked through them; only the innermost pair acts.
#define BOOST_TEST_MODULE autograd saved tensor hooks
#include "autograd_test_util.hpp"

using namespace agt;
using torch::BinaryOp;
using torch::UnaryOp;

namespace {
// Hooks that keep a clone of each saved tensor and count their calls.
struct CloningHooks {
  int packed = 0, unpacked = 0;
  torch::SavedTensorHooks make() {
    torch::SavedTensorHooks hooks;
    hooks.pack = [this](const Tensor &t) {
      packed++;
      torch::GradMode::setEnabled(false);
      auto copy = std::make_shared<Tensor>(mul(t, 1.0));
      torch::GradMode::setEnabled(true);
      return std::shared_ptr<void>(copy);
    };
    hooks.unpack = [this](const std::shared_ptr<void> &p) {
      unpacked++;
      return *static_cast<Tensor *>(p.get());
    };
    return hooks;
  }
};
}  // namespace

// s = sum(x * c): mul saves only c (x would serve c's gradient, which none wants), as a packed
// copy, so changing c in place afterwards neither raises nor changes x's gradient.
BOOST_AUTO_TEST_CASE(pack_and_unpack_every_saved_tensor) {
  Tensor x = tensor({1, 2, 3}, {3}, true);
  Tensor c = tensor({4, 5, 6}, {3});
  CloningHooks hooks;
  torch::pushSavedTensorHooks(hooks.make());
  Tensor s = sumAll(mul(x, c));
  torch::popSavedTensorHooks();
  BOOST_TEST(hooks.packed == 1);
  torch::binary_(BinaryOp::Mul, c, 2.0);
  backward(s);
  BOOST_TEST(hooks.unpacked == 1);
  checkClose(values(torch::grad(x)), {4, 5, 6});
}

// exp saves its output: its packed copy still gives the derivative exp(x).
BOOST_AUTO_TEST_CASE(a_saved_output_goes_through_the_hooks_too) {
  const Vec xv = {0.5, -1.0};
  Tensor x = tensor(xv, {2}, true);
  CloningHooks hooks;
  torch::pushSavedTensorHooks(hooks.make());
  Tensor s = sumAll(un(UnaryOp::Exp, x));
  torch::popSavedTensorHooks();
  backward(s);
  BOOST_TEST(hooks.packed == 1);
  BOOST_TEST(hooks.unpacked == 1);
  checkClose(values(torch::grad(x)), {std::exp(0.5), std::exp(-1.0)});
}

BOOST_AUTO_TEST_CASE(only_the_innermost_pair_acts) {
  Tensor x = tensor({1, 2}, {2}, true);
  CloningHooks outer, inner;
  torch::pushSavedTensorHooks(outer.make());
  torch::pushSavedTensorHooks(inner.make());
  Tensor s = sumAll(mul(x, x));
  torch::popSavedTensorHooks();
  Tensor t = sumAll(mul(x, x));
  torch::popSavedTensorHooks();
  BOOST_TEST(inner.packed == 2);
  BOOST_TEST(outer.packed == 2);
  backward(add(s, t));
  checkClose(values(torch::grad(x)), {4, 8});
}

BOOST_AUTO_TEST_CASE(disabling_refuses_hooks_and_is_refused_under_them) {
  CloningHooks hooks;
  torch::setSavedTensorHooksDisabled(std::string("no hooks in this feature"));
  checkRaises([&] { torch::pushSavedTensorHooks(hooks.make()); }, {"no hooks in this feature"});
  torch::setSavedTensorHooksDisabled(std::nullopt);
  torch::pushSavedTensorHooks(hooks.make());
  checkRaises([&] { torch::setSavedTensorHooksDisabled(std::string("too late")); }, {"too late"});
  BOOST_TEST(!torch::savedTensorHooksDisabled().has_value());
  torch::popSavedTensorHooks();
  checkRaises([] { torch::popSavedTensorHooks(); }, {"no saved tensors hooks to pop"});
}
