"""The binding releases the GIL inside kernels (Note [Releasing the GIL] in
python/csrc/Bind.h): while one thread runs a long op, another Python thread keeps running.
Hooks and custom Functions, which the engine calls back without the GIL, take it again."""

import io
import threading
import time

import numpy as np
import pytest

import torch
import torch.utils.serialization


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


def _timed(op):
    t0 = time.perf_counter()
    op()
    return time.perf_counter() - t0


def _scaled(make, seconds=0.1):
    """make(k) -> op; the smallest k (doubling) whose op takes `seconds` here, so the test
    measures one long kernel whatever the machine."""
    k = 1
    while True:
        op = make(k)
        # a second call confirms: the first may pay for page faults or a library's setup
        if k >= 1024 or (_timed(op) >= seconds and _timed(op) >= seconds):
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


def _vector(make):
    """A long op on x, 1e6 k values in [0, 1) (and m, a mask of x's shape): make(x, m) -> op."""
    return lambda k: (lambda x: make(x, x > 0.5))(torch.arange(1_000_000.0 * k).remainder_(7).div_(7))


# Creation functions, random draws, and the ops whose bindings take Python arguments (a
# number, a list of sizes, a dtype) and convert them before the kernel runs.
LONG_OPS.update(
    {
        "zeros": lambda k: lambda: torch.zeros(1_000_000 * k),
        "eye": lambda k: lambda: torch.eye(int(1000 * k**0.5)),
        "rand": lambda k: lambda: torch.rand(1_000_000 * k),
        "normal_": _vector(lambda x, m: lambda: x.normal_()),
        "bernoulli": _vector(lambda x, m: lambda: torch.bernoulli(x)),
        "multinomial": _vector(lambda x, m: lambda: torch.multinomial(x, x.numel(), replacement=True)),
        "cat": _vector(lambda x, m: lambda: torch.cat([x, x])),
        "flip": _vector(lambda x, m: lambda: x.flip(0)),
        "double": _vector(lambda x, m: lambda: x.double()),
        "reshape_copy": _vector(lambda x, m: lambda: x.view(1000, -1).t().reshape(-1)),
        "clamp": _vector(lambda x, m: lambda: x.clamp(0.2, 0.8)),
        "where_number": _vector(lambda x, m: lambda: torch.where(m, x, 0.0)),
        "index_fill": _vector(lambda x, m: lambda: x.index_fill(0, torch.nonzero(m).view(-1), 1.0)),
        "nonzero": _vector(lambda x, m: lambda: torch.nonzero(m)),
        "unique": _vector(lambda x, m: lambda: torch.unique(x)),
        "cumsum_": _vector(lambda x, m: lambda: x.cumsum_(0)),
        "softmax_dtype": _vector(lambda x, m: lambda: torch.softmax(x, 0, dtype=torch.float64)),
        "out": _vector(lambda x, m: (lambda out: lambda: torch.exp(x, out=out))(torch.empty(0))),
        "share_memory_": _vector(lambda x, m: lambda: x.clone().share_memory_()),
        "thnn": _vector(lambda x, m: lambda: torch._C._thnn.Float.Tanh_updateOutput(x, torch.empty(0))),
        "save_lua": _vector(lambda x, m: lambda: torch.utils.serialization.save_lua(x, io.BytesIO())),
    }
)


@pytest.mark.parametrize("name", sorted(LONG_OPS))
def test_other_threads_run_during_a_long_op(name):
    # Holding the GIL for the whole kernel would stop this thread for all of it. On a busy
    # machine an op sized while other work ran may then run much faster: size it again.
    seconds = 0.1
    for _ in range(3):
        pause, duration = _longest_pause_during(_scaled(LONG_OPS[name], seconds))
        if duration > 0.05:
            break
        seconds *= 3
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


def test_threads_drawing_from_one_generator_take_whole_blocks():
    # The generator's own lock, not the GIL, keeps two threads drawing at once apart: each
    # draw is one run of the sequence, as if the two had drawn one after the other.
    n = 2_000_000
    g = torch.Generator().manual_seed(7)
    first, second = torch.rand(n, generator=g), torch.rand(n, generator=g)
    g.manual_seed(7)
    results = [None, None]

    def draw(i):
        results[i] = torch.rand(n, generator=g)

    threads = [threading.Thread(target=draw, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a, b = results
    assert (torch.equal(a, first) and torch.equal(b, second)) or (torch.equal(a, second) and torch.equal(b, first))


# ---- Lua code run from Python (Note [Lua without the GIL] in python/csrc_lua/Bridge.cpp) ----


def test_other_threads_run_while_lua_computes():
    import torch.lua as tl

    rt = tl.Runtime()
    spin = rt.eval("function(n) local s = 0 for i = 1, n do s = s + i % 7 end return s end")
    exp_sum = rt.eval("function(x) return x:exp():sum() end")
    n = 1_000_000
    expected = sum(i % 7 for i in range(1, n + 1))
    for make in (lambda k: lambda: spin(n * k), lambda k: (lambda x: lambda: exp_sum(x))(torch.rand(1_000_000 * k))):
        pause, duration = _longest_pause_during(_scaled(make))
        assert duration > 0.05
        assert pause < duration / 2, (pause, duration)
    assert spin(n) == expected


def test_threads_share_one_lua_state_safely():
    # Calls from several threads take turns on the state; Lua calling back into Python takes
    # the GIL back; LuaObjects freed by one thread while another runs Lua are released later.
    import torch.lua as tl

    rt = tl.Runtime()
    rt.execute(
        """
        counter = 0
        function work(k, callback)
          local t = {}
          for i = 1, 2000 do t[i] = i * k end
          local s = 0
          for i = 1, #t do s = s + t[i] end
          counter = counter + 1
          return s + callback(k)
        end
        """
    )
    work = rt["work"]
    errors, results = [], {}

    def run(k):
        try:
            for j in range(30):
                # the callback calls Lua again, on the same state
                got = work(k, lambda v: rt.eval("%d * 2" % v) + len(rt.eval("{1, 2, 3}")))
                results[(k, j)] = got
                _ = rt["counter"], rt.globals  # LuaObjects made and freed meanwhile
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a thread is stuck (deadlock)"
    assert not errors, errors
    for (k, _), got in results.items():
        assert got == k * 2000 * 2001 // 2 + 2 * k + 3
    assert rt["counter"] == 4 * 30
