"""Per-call overhead of the Python binding, against numpy in the same run.

Prints microseconds per call for small-tensor ops (where the binding's fixed cost is all
there is) and the cost of the numpy bridge at several sizes (it must not grow with size).
Run after ./scripts/build.sh (which installs torch into the project environment):
    ~/.cache/torch-monorepo-venv/bin/python bench/python_overhead.py
"""

import timeit

import numpy as np

import torch


def best_us(stmt, env, number):
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=7)) / number * 1e6


def main():
    rows = [
        ("a + b (1 element)", "x + y", "nx + ny"),
        ("a.add_(b) / np.add(a, b, out=a)", "x.add_(y)", "np.add(nx, ny, out=nx)"),
        ("a * 2.0", "x * 2.0", "nx * 2.0"),
        ("a[0]", "x[0]", "nx[0]"),
        ("a.sum()", "x.sum()", "nx.sum()"),
        ("a.exp()", "x.exp()", "np.exp(nx)"),
    ]
    print("per-call overhead, 1-element float32 (best of 7)")
    print("%-34s %10s %10s %8s" % ("op", "torch us", "numpy us", "ratio"))
    for label, ours, ref in rows:
        # fresh operands per row: in-place rows must not push the next one into overflow
        env = dict(
            x=torch.FloatTensor([1.0]),
            y=torch.FloatTensor([1e-9]),
            nx=np.ones(1, np.float32),
            ny=np.full(1, 1e-9, np.float32),
            np=np,
            torch=torch,
        )
        try:
            t = best_us(ours, env, 100000)
        except Exception as e:  # an op not bound yet shows as missing, the rest still runs
            print("%-34s %10s (%s)" % (label, "n/a", type(e).__name__))
            continue
        r = best_us(ref, env, 100000)
        print("%-34s %10.3f %10.3f %7.2fx" % (label, t, r, t / r))

    print("\nnumpy bridge: cost per call by size (must not grow with size)")
    print("%-12s %14s %18s %16s" % ("elements", "t.numpy() us", "from_numpy(a) us", "memcpy-ish copy us"))
    for n in (1, 1000, 1000000, 10000000):
        a = np.ones(n, np.float32)
        t = torch.from_numpy(a)
        env2 = dict(a=a, t=t, torch=torch)
        to_np = best_us("t.numpy()", env2, 2000)
        from_np = best_us("torch.from_numpy(a)", env2, 2000)
        copy = best_us("a.copy()", env2, 20 if n > 100000 else 2000)
        print("%-12d %14.3f %18.3f %16.3f" % (n, to_np, from_np, copy))


if __name__ == "__main__":
    main()
