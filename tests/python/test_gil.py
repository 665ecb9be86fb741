"""The binding releases the GIL inside kernels (Note [Releasing the GIL] in
python/csrc/Bind.h): while one thread runs a long op, another Python thread keeps running.
Hooks and custom Functions, which the engine calls back without the GIL, take it again."""

import threading
import time

import numpy as np
import pytest

import torch


def _longest_pause_during(op):
    """(longest time this thread's Python loop stood still while another thread ran op, the
    op's duration)."""
    started, done = threading.Event(), threading.Event()
    span, errors = [], []

    def worker():
        started.set()
        try:
            t0 = time.perf_counter()
            op()
            span.extend([t0, time.perf_counter()])
        except Exception as e:  # reported by the test, not lost in the thread
            errors.append(e)
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    started.wait()
    stamps = []
    while not done.is_set():
        stamps.append(time.perf_counter())
    t.join()
    assert not errors, errors
    t0, t1 = span
    inside = [t0] + [s for s in stamps if t0 < s < t1] + [t1]
    return max(b - a for a, b in zip(inside, inside[1:])), t1 - t0


def _scaled(make, seconds=0.2):
    """make(k) -> op; the smallest k (doubling) whose op takes `seconds` here, so the test
    measures one long kernel whatever the machine."""
    k = 1
    while True:
        op = make(k)
        t0 = time.perf_counter()
        op()
        if time.perf_counter() - t0 >= seconds or k >= 1024:
            return op
        k *= 2


def _backward(k):
    a = torch.rand(128 * k, 128 * k, dtype=torch.float64)
    w = torch.rand(128 * k, 128 * k, dtype=torch.float64, requires_grad=True)
    loss = (w @ a).sum()
    return lambda: loss.backward(retain_graph=True)


def _conv(k):
    x, w = torch.rand(k, 16, 64, 64), torch.rand(32, 16, 3, 3)
    return lambda: torch.nn.functional.conv2d(x, w, padding=1)


# One long kernel each (the loop of the other thread may only run between Python statements
# if the GIL is held); sizes grow with k.
LONG_OPS = {
    "matmul": lambda k: (lambda a: lambda: a @ a)(torch.rand(128 * k, 128 * k, dtype=torch.float64)),
    "addmm": lambda k: (lambda a: lambda: torch.addmm(a, a, a, beta=0.5))(torch.rand(128 * k, 128 * k)),
    "add": lambda k: (lambda x: lambda: x + x)(torch.rand(1_000_000 * k)),
    "exp_": lambda k: (lambda x: lambda: x.exp_())(torch.rand(1_000_000 * k)),
    "sum_dim": lambda k: (lambda x: lambda: x.sum(1))(torch.rand(1000, 1000 * k)),
    "conv2d": _conv,
    "svd": lambda k: (lambda a: lambda: torch.linalg.svd(a))(torch.rand(32 * k, 32 * k, dtype=torch.float64)),
    "backward": _backward,
    "linalg_qr": lambda k: (lambda a: lambda: torch.linalg.qr(a))(torch.rand(32 * k, 32 * k, dtype=torch.float64)),
    "linalg_lu_factor": lambda k: (lambda a: lambda: torch.linalg.lu_factor(a))(
        torch.rand(32 * k, 32 * k, dtype=torch.float64)
    ),
    "getitem_advanced": lambda k: (lambda x, i: lambda: x[i])(
        torch.rand(1_000_000 * k), torch.randint(0, 1_000_000 * k, (1_000_000 * k,))
    ),
    "setitem_advanced": lambda k: (lambda x, i, v: lambda: x.__setitem__(i, v))(
        torch.rand(1_000_000 * k), torch.randint(0, 1_000_000 * k, (1_000_000 * k,)), torch.rand(1_000_000 * k)
    ),
    "setitem_mask_number": lambda k: (lambda x, m: lambda: x.__setitem__(m, 0.5))(
        torch.rand(1_000_000 * k), torch.rand(1_000_000 * k) > 0.5
    ),
}


@pytest.mark.parametrize("name", sorted(LONG_OPS))
def test_other_threads_run_during_a_long_op(name):
    # Holding the GIL for the whole kernel would stop this thread for all of it.
    pause, duration = _longest_pause_during(_scaled(LONG_OPS[name]))
    assert duration > 0.05
    assert pause < duration / 2, (pause, duration)


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
