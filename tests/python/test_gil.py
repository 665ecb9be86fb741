"""The binding releases the GIL inside kernels (Note [Releasing the GIL] in
python/csrc/Bind.h): while one thread runs a long op, another Python thread keeps running.
Hooks and custom Functions, which the engine calls back without the GIL, take it again."""

import threading

import numpy as np
import pytest

import torch


def _python_steps_during(op):
    """How many times a Python loop in this thread advanced while another thread ran op."""
    started, done = threading.Event(), threading.Event()
    errors = []

    def worker():
        started.set()
        try:
            op()
        except Exception as e:  # reported by the test, not lost in the thread
            errors.append(e)
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    started.wait()
    steps = 0
    while not done.is_set():
        steps += 1
    t.join()
    assert not errors, errors
    return steps


a = torch.rand(700, 700, dtype=torch.float64)
x = torch.rand(3_000_000, dtype=torch.float64)
LONG_OPS = {
    "matmul": lambda: [a @ a for _ in range(4)],
    "mm": lambda: [torch.mm(a, a) for _ in range(4)],
    "addmm": lambda: [torch.addmm(a, a, a, beta=0.5) for _ in range(4)],
    "add": lambda: [x + x for _ in range(20)],
    "exp_": lambda: [x.clone().exp_() for _ in range(10)],
    "sum_dim": lambda: [x.view(1000, 3000).sum(1) for _ in range(20)],
    "conv2d": lambda: [
        torch.nn.functional.conv2d(torch.rand(8, 16, 64, 64), torch.rand(32, 16, 3, 3), padding=1) for _ in range(3)
    ],
    "svd": lambda: torch.linalg.svd(a),
    "backward": lambda: [(a.clone().requires_grad_() @ a).exp().sum().backward() for _ in range(3)],
}


@pytest.mark.parametrize("name", sorted(LONG_OPS))
def test_other_threads_run_during_a_long_op(name):
    # With the GIL held for the whole op the loop could only step between the op's Python
    # statements (a handful of times); without it, it runs all along (millions of steps).
    steps = _python_steps_during(LONG_OPS[name])
    assert steps > 5000, steps


def test_hooks_and_custom_functions_run_in_backward_without_the_gil():
    seen = []

    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t * t

        @staticmethod
        def backward(ctx, g):
            (t,) = ctx.saved_tensors
            return 2 * t * g

    def run(k):
        w = torch.full((50, 50), float(k), dtype=torch.float64, requires_grad=True)
        y = Square.apply(w @ torch.eye(50, dtype=torch.float64))
        y.register_hook(lambda g: seen.append(k) or g * 3)
        y.sum().backward()
        np.testing.assert_allclose(w.grad.numpy(), np.full((50, 50), 6.0 * k))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == list(range(1, 9))


def test_threads_give_the_same_results_as_one():
    rng = np.random.default_rng(0)
    mats = [rng.standard_normal((200, 200)) for _ in range(8)]
    results = [None] * len(mats)

    def run(i):
        t = torch.from_numpy(mats[i])
        results[i] = ((t @ t).exp().sum(0) + t.mean()).numpy()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(mats))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for m, r in zip(mats, results):
        np.testing.assert_allclose(r, np.exp(m @ m).sum(0) + m.mean(), rtol=1e-12)
