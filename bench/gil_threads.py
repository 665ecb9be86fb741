"""Two Python threads computing at once: the binding releases the GIL inside kernels (Note
[Releasing the GIL] in python/csrc/Bind.h), so two threads running large ops take about half
the time of the same work run twice in one thread, as with PyTorch (and numpy, measured in
the same run as the reference).

Each kernel is kept to one OpenMP/OpenBLAS thread, so the parallelism measured is the
threads' own. Needs two free cores to show 0.5; a busy machine shows more. Out-of-place ops
also measure the allocator: outside the main thread glibc hands each fresh 32 MB result out
as new pages, which fault in (the kernel zeroing them) under the process's memory-map lock,
so two threads running `x + y` took 1.7 times one thread's time. TH now keeps freed large
blocks for the next op (Note [Large-block cache] in TH/THGeneral.cpp; TH_BLOCK_CACHE_MB=0
turns that off, to compare).
Run:  PYTHONPATH=python python3 bench/gil_threads.py [--repeat N]
"""

import os

# Before the kernels' libraries load: one thread per kernel.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import torch  # noqa: E402
import torch.lua  # noqa: E402


def jobs(repeat):
    """name -> (torch job, numpy job): each a function that runs the work once."""
    a, b = torch.rand(1024, 1024), torch.rand(1024, 1024)
    x, y = torch.rand(8_000_000), torch.rand(8_000_000)
    na, nb, nx, ny = a.numpy(), b.numpy(), x.numpy(), y.numpy()
    mine = threading.local()

    def own(make):
        """This thread's own make() (a random generator)."""
        if make not in mine.__dict__:
            mine.__dict__[make] = make()
        return mine.__dict__[make]

    lua_exp_sum = torch.lua.Runtime().eval("function(x) return x:exp():sum() end")

    def loop(f):
        def run():
            for _ in range(repeat):
                f()

        return run

    return {
        "matmul 1024x1024 float32": (loop(lambda: a @ b), loop(lambda: na @ nb)),
        "add 8M float32": (loop(lambda: x + y), loop(lambda: nx + ny)),
        "add_ in place 8M float32": (loop(lambda: x.add_(y)), loop(lambda: np.add(nx, ny, out=nx))),
        "sum + exp 8M float32": (loop(lambda: x.exp().sum()), loop(lambda: np.exp(nx).sum())),
        # a generator per thread: threads sharing one take turns on its lock (numpy's too)
        "rand 8M float32": (
            loop(lambda: torch.rand(8_000_000, generator=own(torch.Generator))),
            loop(lambda: own(np.random.default_rng).random(8_000_000, np.float32)),
        ),
        "cat 2 x 8M float32": (loop(lambda: torch.cat([x, y])), loop(lambda: np.concatenate([nx, ny]))),
        # Lua code through torch.lua (Note [Lua without the GIL]); numpy runs the same math
        "Lua x:exp():sum() 8M": (loop(lambda: lua_exp_sum(x)), loop(lambda: np.exp(nx).sum())),
    }


def sequential(job):
    start = time.perf_counter()
    job()
    job()
    return time.perf_counter() - start


def two_threads(job):
    threads = [threading.Thread(target=job) for _ in range(2)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def best(f, job, tries=3):
    return min(f(job) for _ in range(tries))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10, help="ops per job")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("two threads vs. the same work run twice in one thread (best of 3, seconds)")
    print("cores: %d, kernel threads: %d" % (os.cpu_count(), torch.get_num_threads()))
    print(
        "%-28s %9s %9s %7s   %9s %9s %7s" % ("job", "1 thread", "2 threads", "ratio", "np 1 thr", "np 2 thr", "ratio")
    )
    for name, (ours, ref) in jobs(args.repeat).items():
        ours(), ref()  # warm up
        s1, s2 = best(sequential, ours), best(two_threads, ours)
        r1, r2 = best(sequential, ref), best(two_threads, ref)
        print("%-28s %9.3f %9.3f %7.2f   %9.3f %9.3f %7.2f" % (name, s1, s2, s2 / s1, r1, r2, r2 / r1))


if __name__ == "__main__":
    main()
