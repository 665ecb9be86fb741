"""torch.autograd.graph's saved tensors hooks (saved_hooks_cases.py): the same hook calls,
gradients and exceptions as real PyTorch 1.13, and the messages and state after errors."""

import numpy as np
import pytest

import saved_hooks_cases
import torch
from real_pytorch import same_as_pytorch_1_13


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "saved_hooks_cases.py", saved_hooks_cases.CASES, lambda name, got, want: (1e-12, 1e-12)
)


def test_messages_and_memory():
    graph = torch.autograd.graph
    x = torch.ones(3, requires_grad=True)
    with graph.saved_tensors_hooks(lambda t: "packed", lambda p: p):
        y = (x * x).sum()
    with pytest.raises(TypeError, match="unpack_hook expected to be a Tensor but got result of type str"):
        y.backward()
    with pytest.raises(RuntimeError, match="^no hooks here$"):
        with graph.disable_saved_tensors_hooks("no hooks here"):
            with graph.saved_tensors_hooks(lambda t: t, lambda p: p):
                pass
    # a saved output is packed detached, so identity hooks make no reference cycle through it
    seen = []
    with graph.saved_tensors_hooks(lambda t: seen.append(t.grad_fn) or t, lambda p: p):
        torch.exp(x).sum().backward()
    assert seen == [None]
    np.testing.assert_allclose(x.grad.numpy(), np.exp(np.ones(3)))


def test_version_check_without_hooks_still_raises():
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * 2

    x = torch.ones(2, requires_grad=True)
    y = x * 1
    z = Twice.apply(y)
    with torch.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match="TwiceBackward, is at version 1; expected version 0"):
        z.sum().backward()


def test_hooks_belong_to_their_thread():
    """Each thread has its own hooks; pack runs (taking the GIL) from ops that release it."""
    import threading

    counts = {}

    def work(name, rounds):
        seen = []
        x = torch.randn(64, 64, requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append(name) or t, lambda p: p):
            for _ in range(rounds):
                (x @ x).sum().backward()
        counts[name] = seen

    threads = [threading.Thread(target=work, args=(name, 20)) for name in ("a", "b")]
    for t in threads:
        t.start()
    work("main", 10)
    for t in threads:
        t.join()
    assert counts["a"] == ["a"] * 40 and counts["b"] == ["b"] * 40 and counts["main"] == ["main"] * 20
