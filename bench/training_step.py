"""Training-step speed of the Python package, with references measured in the same run.

- MLP 784-512-512-10, batch 128, float32: one step (forward, cross-entropy, backward, SGD
  update) with torch.nn / autograd / torch.optim, against the same step written by hand in
  numpy (matrix products through numpy's BLAS).
- Small CNN (conv 1->32 3x3, relu, maxpool 2, conv 32->64 3x3, relu, maxpool 2, linear
  1600->10) on 28x28 inputs, batch 64, float32: one training step.
- Autograd overhead: microseconds per `(x * y).sum().backward()` on 1-element tensors,
  against the same forward without autograd.

Run after ./scripts/build.sh (which installs torch into the project environment):
    ~/.cache/torch-monorepo-venv/bin/python bench/training_step.py [--threads N]
--threads sets both sides: torch.set_num_threads, and numpy's BLAS through OPENBLAS_NUM_THREADS
(and OMP_/MKL_NUM_THREADS), which a BLAS reads when it loads, so the script starts itself again
with them set. The thread count each side really uses is printed.
"""

import argparse
import ctypes
import os
import sys
import time

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F


def best_ms(fn, repeat, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def mlp_torch(batch):
    model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(batch, 784), torch.randint(0, 10, (batch,))

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()

    return step


def mlp_numpy(batch):
    rng = np.random.default_rng(0)
    ws = [rng.standard_normal((o, i)).astype(np.float32) * 0.05 for i, o in ((784, 512), (512, 512), (512, 10))]
    bs = [np.zeros(o, np.float32) for o in (512, 512, 10)]
    x = rng.standard_normal((batch, 784)).astype(np.float32)
    y = rng.integers(0, 10, batch)

    def step():
        h1 = np.maximum(x @ ws[0].T + bs[0], 0)
        h2 = np.maximum(h1 @ ws[1].T + bs[1], 0)
        logits = h2 @ ws[2].T + bs[2]
        shifted = logits - logits.max(1, keepdims=True)
        p = np.exp(shifted)
        p /= p.sum(1, keepdims=True)
        g = p
        g[np.arange(batch), y] -= 1
        g /= batch
        grads = [None] * 3
        grads[2] = (g.T @ h2, g.sum(0))
        g2 = (g @ ws[2]) * (h2 > 0)
        grads[1] = (g2.T @ h1, g2.sum(0))
        g1 = (g2 @ ws[1]) * (h1 > 0)
        grads[0] = (g1.T @ x, g1.sum(0))
        for k in range(3):
            ws[k] -= 0.01 * grads[k][0]
            bs[k] -= 0.01 * grads[k][1]

    return step


def cnn_torch(batch):
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(1600, 10),
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(batch, 1, 28, 28), torch.randint(0, 10, (batch,))

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()

    return step


BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def numpy_blas_threads():
    """Threads of the OpenBLAS numpy loaded (its wheel's or the system's), or None if unknown."""
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    candidates = [os.path.join(libs, f) for f in sorted(os.listdir(libs))] if os.path.isdir(libs) else []
    for path in candidates + ["libopenblas.so.0"]:
        if "openblas" not in os.path.basename(path):
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads"):
            if hasattr(lib, name):
                return getattr(lib, name)()
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    if args.threads:
        wanted = str(args.threads)
        if any(os.environ.get(v) != wanted for v in BLAS_THREAD_VARS):
            env = dict(os.environ, **{v: wanted for v in BLAS_THREAD_VARS})
            os.execve(sys.executable, [sys.executable] + sys.argv, env)
        torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    print("threads: torch %d, numpy's BLAS %s" % (torch.get_num_threads(), numpy_blas_threads()))

    ours = best_ms(mlp_torch(128), 30)
    ref = best_ms(mlp_numpy(128), 30)
    print(
        "MLP 784-512-512-10, batch 128, one SGD step: torch %.2f ms, numpy by hand %.2f ms, ratio %.2fx"
        % (ours, ref, ours / ref)
    )
    cnn = best_ms(cnn_torch(64), 10)
    print("small CNN (28x28, batch 64), one SGD step: %.2f ms (%.0f images/s)" % (cnn, 64 / cnn * 1e3))

    x = torch.ones(1, requires_grad=True)
    y = torch.ones(1)
    n = 20000

    def with_grad():
        for _ in range(n):
            (x * y).sum().backward()

    def forward_only():
        with torch.no_grad():
            for _ in range(n):
                (x * y).sum()

    per_backward = best_ms(with_grad, 3, 1) * 1e3 / n
    per_forward = best_ms(forward_only, 3, 1) * 1e3 / n
    print(
        "autograd: %.2f us per (x * y).sum().backward() on 1-element tensors; the forward alone without "
        "autograd %.2f us" % (per_backward, per_forward)
    )


if __name__ == "__main__":
    main()
