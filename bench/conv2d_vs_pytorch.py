"""conv2d speed of this package against PyTorch 1.13 (Debian's, under /usr/bin/python3).

For each shape and thread count: F.conv2d forward on inputs that require grad, and forward +
backward (the input, weight and bias gradients), best of several timings per round. Two worker
processes, one per contender, take turns round after round, so a change in the load of this
shared machine hits both alike; the best time of all rounds is kept.

Run after ./scripts/build.sh (which installs torch into the project environment):
    ~/.cache/torch-monorepo-venv/bin/python bench/conv2d_vs_pytorch.py [--threads 1 2] [--rounds 5]
or from a checkout with the built _C.so copied in: PYTHONPATH=python python3 bench/conv2d_vs_pytorch.py
THNN_CONV_IM2COL=1 in the environment makes ours run THNN's im2col path instead of oneDNN.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# (batch, in channels, height = width, out channels, kernel, stride, padding)
SHAPES = [
    (16, 64, 32, 64, 3, 1, 1),
    (64, 3, 32, 16, 3, 1, 1),
    (1, 64, 56, 64, 3, 1, 1),
    (64, 16, 28, 32, 3, 1, 1),
    (16, 256, 8, 256, 3, 1, 1),
    (16, 128, 16, 256, 3, 2, 1),
    (1, 3, 224, 64, 3, 2, 1),
    (16, 64, 32, 128, 1, 1, 0),
    (64, 32, 16, 64, 1, 2, 0),
    (1, 256, 14, 256, 1, 1, 0),
]

REFERENCE_PYTHON = "/usr/bin/python3"


def shape_name(s):
    n, c, h, o, k, st, p = s
    return f"{n}x{c}x{h}x{h} {c}->{o} {k}x{k} s{st} p{p}"


def worker():
    """Reads one JSON request a line ([shape, threads, mode, repeat]), answers the best ms."""
    import torch
    import torch.nn.functional as F

    cache = {}
    for line in sys.stdin:
        shape, threads, mode, repeat = json.loads(line)
        torch.set_num_threads(threads)
        key = tuple(shape)
        if key not in cache:
            n, c, h, o, k, st, p = shape
            torch.manual_seed(0)
            x = torch.randn(n, c, h, h, requires_grad=True)
            w = (torch.randn(o, c, k, k) * 0.1).requires_grad_()
            b = torch.randn(o, requires_grad=True)
            g = torch.randn(F.conv2d(x, w, b, st, p).shape)
            cache[key] = (x, w, b, g, st, p)
        x, w, b, g, st, p = cache[key]

        def forward():
            return F.conv2d(x, w, b, st, p)

        def step():
            x.grad = w.grad = b.grad = None
            forward().backward(g)

        fn = forward if mode == "fwd" else step
        fn()
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        print(json.dumps([best * 1e3, torch.get_num_threads()]), flush=True)


def start(python, env):
    return subprocess.Popen(
        [python, os.path.abspath(__file__), "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def ask(proc, request):
    proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="timings per round, best kept")
    parser.add_argument("--shapes", type=int, nargs="*", help="indices into SHAPES (default all)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return

    repo_python = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")
    ours_env = dict(os.environ, PYTHONPATH=repo_python + os.pathsep + os.environ.get("PYTHONPATH", ""))
    ref_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "THNN_CONV_IM2COL")}
    contenders = {"ours": start(sys.executable, ours_env), "pytorch": start(REFERENCE_PYTHON, ref_env)}
    shapes = [SHAPES[i] for i in args.shapes] if args.shapes else SHAPES
    with open("/proc/loadavg") as f:
        print("load average at start:", " ".join(f.read().split()[:3]))
    print(
        f"{'shape':34} thr | {'fwd ours':>9} {'pytorch':>9} {'ratio':>6} | {'f+b ours':>9} {'pytorch':>9} {'ratio':>6}"
    )
    for threads in args.threads:
        for shape in shapes:
            row = []
            for mode in ("fwd", "step"):
                best = {name: float("inf") for name in contenders}
                for r in range(args.rounds):
                    order = list(contenders) if r % 2 == 0 else list(reversed(contenders))
                    for name in order:
                        ms, used = ask(contenders[name], [shape, threads, mode, args.repeat])
                        if used != threads:
                            sys.exit(f"{name} ran {used} threads, asked for {threads}")
                        best[name] = min(best[name], ms)
                row.append((best["ours"], best["pytorch"]))
            cells = " | ".join(f"{o:9.2f} {p:9.2f} {p / o:6.2f}" for o, p in row)
            print(f"{shape_name(shape):34} {threads:3} | {cells}", flush=True)
    with open("/proc/loadavg") as f:
        print("load average at end:", " ".join(f.read().split()[:3]))
    print("times in ms, best of all rounds; ratio = pytorch / ours (above 1: ours is faster)")
    for proc in contenders.values():
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
