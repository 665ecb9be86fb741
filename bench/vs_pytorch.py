"""This package against PyTorch 1.13 (Debian's, under /usr/bin/python3), workload by workload.

Each workload (matrix products, element-wise ops and sums from 1e3 to 1e7 elements, the
transcendental functions, softmax and LayerNorm, conv2d forward and forward+backward, an LSTM,
the main job's training step) runs at 1 and 2 threads, first on an idle machine and then while
a busy loop of this benchmark's own holds one core (the case where every OpenMP join waits for
a descheduled thread). Two worker processes, one per contender, take turns round after round,
so a change in the load of this shared machine hits both alike. Each timing is the mean of
enough calls to fill 2 ms; three tables give the best timing of all rounds, their median and
their mean. The best alone hides a contender whose calls are slow more often than not (PyTorch
1.13 pays page faults for most of its large results), and beside the busy core threads that
wait for each other get lucky windows between long stalls: the best and even the median catch
the windows, the mean pays for the stalls, as a program running the op over and over does. A
row prints ours / PyTorch's time (below 1: ours is faster) and, last, ours at 2 threads over
ours at 1 thread with the busy core (above 1: a second thread hurt).

Run after ./scripts/build.sh (which installs torch into the project environment):
    ~/.cache/torch-monorepo-venv/bin/python bench/vs_pytorch.py [--only exp tanh] [--rounds 3]
or from a checkout with the built _C.so copied in: PYTHONPATH=python python3 bench/vs_pytorch.py
--device is kept for a later GPU run: both workers then build their tensors there.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

REFERENCE_PYTHON = "/usr/bin/python3"


def workloads(torch, device):
    """name -> function of no arguments running the work once (tensors built here, once)."""
    import torch.nn as nn
    import torch.nn.functional as F

    torch.manual_seed(0)
    out = {}

    def rand(*shape):
        return torch.rand(*shape, device=device)

    for n in (128, 512, 2048):
        a, b = rand(n, n), rand(n, n)
        out[f"mm {n}"] = lambda a=a, b=b: torch.mm(a, b)
    for n in (1_000, 100_000, 10_000_000):
        x, y = rand(n), rand(n)
        out[f"add {n:.0e}"] = lambda x=x, y=y: x + y
        out[f"sum {n:.0e}"] = lambda x=x: x.sum()
    x, y = rand(10_000_000), rand(10_000_000)
    out["add_ 1e7"] = lambda: x.add_(y)
    for op in ("exp", "tanh", "sigmoid", "log"):
        out[f"{op} 1e7"] = lambda op=op: getattr(x, op)()
    out["pow(x, 3.0) 1e7"] = lambda: x.pow(3.0)
    # activations, forward and backward (the gradient from above given)
    act_in = torch.randn(1_000_000, device=device).requires_grad_()
    act_grad = torch.randn(1_000_000, device=device)
    for name, fn in (
        ("relu", F.relu),
        ("leaky_relu", F.leaky_relu),
        ("gelu", F.gelu),
        ("silu", F.silu),
        ("elu", F.elu),
        ("selu", F.selu),
        ("celu", F.celu),
        ("softplus", F.softplus),
        ("logsigmoid", F.logsigmoid),
        ("mish", F.mish),
        ("hardsigmoid", F.hardsigmoid),
        ("hardswish", F.hardswish),
    ):
        out[f"{name} 1e6 f+b"] = lambda fn=fn: fn(act_in).backward(act_grad)
    m = rand(1000, 10_000)
    out["softmax 1000x10000"] = lambda: m.softmax(1)
    out["log_softmax 1000x10000"] = lambda: m.log_softmax(1)
    ln = nn.LayerNorm(10_000).to(device)
    out["LayerNorm 1000x10000"] = lambda: ln(m)

    def conv(n, c, h, o, k, stride, pad):
        inp = torch.randn(n, c, h, h, device=device, requires_grad=True)
        w = (torch.randn(o, c, k, k, device=device) * 0.1).requires_grad_()
        g = torch.randn(F.conv2d(inp, w, None, stride, pad).shape, device=device)

        def step():
            inp.grad = w.grad = None
            F.conv2d(inp, w, None, stride, pad).backward(g)

        return (lambda: F.conv2d(inp, w, None, stride, pad)), step

    for name, shape in (
        ("conv 3x3 16x64x32x32 64->64", (16, 64, 32, 64, 3, 1, 1)),
        ("conv 3x3 1x64x32x32 64->64", (1, 64, 32, 64, 3, 1, 1)),
        ("conv 3x3 64x64x16x16 64->64", (64, 64, 16, 64, 3, 1, 1)),
        ("conv 3x3 s2 16x128x16x16 ->256", (16, 128, 16, 256, 3, 2, 1)),
        ("conv 1x1 16x64x32x32 ->128", (16, 64, 32, 128, 1, 1, 0)),
        ("conv 1x1 s2 16x128x16x16 ->256", (16, 128, 16, 256, 1, 2, 0)),
        ("conv 3x3 64x3x32x32 ->16", (64, 3, 32, 16, 3, 1, 1)),
    ):
        fwd, step = conv(*shape)
        out[name + " fwd"] = fwd
        out[name + " f+b"] = step

    lstm = nn.LSTM(256, 512).to(device)
    seq = torch.randn(20, 64, 256, device=device)

    def lstm_step():
        lstm.zero_grad()
        y, _ = lstm(seq)
        y.sum().backward()

    out["LSTM 256->512 20x64 f+b"] = lstm_step

    # a Transformer encoder block the size of a small language model's: 8 heads of 32, batch
    # 16 of 64 tokens (dropout off, so both sides compute the same)
    encoder = nn.TransformerEncoderLayer(256, 8, 1024, dropout=0.0).to(device)
    tokens = torch.randn(64, 16, 256, device=device)

    def encoder_step():
        encoder.zero_grad()
        encoder(tokens).sum().backward()

    out["Transformer encoder 256/8 64x16 fwd"] = lambda: encoder(tokens)
    out["Transformer encoder 256/8 64x16 f+b"] = encoder_step

    # the main job's network and its optimiser, one step: the example's own Net, so the two
    # cannot drift apart
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))
    from fashion_mnist import Net

    net = Net().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    images, labels = torch.randn(64, 1, 28, 28, device=device), torch.randint(0, 10, (64,), device=device)

    def train_step():
        opt.zero_grad()
        F.cross_entropy(net(images), labels).backward()
        opt.step()

    out["main job step, batch 64"] = train_step

    mlp = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)).to(device)
    sgd = torch.optim.SGD(mlp.parameters(), lr=0.01)
    flat, targets = torch.randn(128, 784, device=device), torch.randint(0, 10, (128,), device=device)

    def mlp_step():
        sgd.zero_grad()
        F.cross_entropy(mlp(flat), targets).backward()
        sgd.step()

    out["MLP step, batch 128"] = mlp_step
    return out


def worker(device):
    """Answers requests, one JSON line each ([workload, threads, repeat]), with the ms of each
    timing and the threads used."""
    import torch

    jobs = workloads(torch, device)
    print(json.dumps(sorted(jobs)), flush=True)
    calls = {}
    for line in sys.stdin:
        name, threads, repeat = json.loads(line)
        torch.set_num_threads(threads)
        fn = jobs[name]
        fn()
        if name not in calls:  # calls per timing: enough for 2 ms, so fast ops time well
            start, k = time.perf_counter(), 0
            while time.perf_counter() - start < 2e-3:
                fn()
                k += 1
            calls[name] = k
        k = calls[name]
        timings = []
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(k):
                fn()
            if device != "cpu":
                torch.cuda.synchronize()
            timings.append((time.perf_counter() - start) / k * 1e3)
        print(json.dumps([timings, torch.get_num_threads()]), flush=True)


def start(python, env, device):
    proc = subprocess.Popen(
        [python, os.path.abspath(__file__), "--worker", "--device", device],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    return proc, json.loads(proc.stdout.readline())


def ask(proc, request):
    proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    if not answer:
        sys.exit(f"a worker stopped while running {request[0]}")
    return json.loads(answer)


class BusyCore:
    """One core kept busy by a loop of our own, bounded (it stops by itself after an hour)."""

    def __enter__(self):
        code = "import time\nend = time.time() + 3600\nwhile time.time() < end: pass\n"
        self.proc = subprocess.Popen([sys.executable, "-c", code])
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="timings per round, best kept")
    parser.add_argument("--only", nargs="*", help="workloads whose name contains one of these words")
    parser.add_argument("--no-busy", action="store_true", help="skip the runs beside a busy core")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.device)
        return

    repo_python = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")
    ours_env = dict(os.environ, PYTHONPATH=repo_python + os.pathsep + os.environ.get("PYTHONPATH", ""))
    ref_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    (ours, names), (ref, ref_names) = (
        start(sys.executable, ours_env, args.device),
        start(REFERENCE_PYTHON, ref_env, args.device),
    )
    assert names == ref_names, "the workers built different workloads"
    contenders = {"ours": ours, "pytorch": ref}
    if args.only:
        names = [n for n in names if any(w in n for w in args.only)]
    settings = [(1, False), (2, False)] + ([] if args.no_busy else [(1, True), (2, True)])

    def measure(name, threads):
        timings = {c: [] for c in contenders}
        for r in range(args.rounds):
            for c in list(contenders) if r % 2 == 0 else list(reversed(contenders)):
                # the rival's OpenMP threads spin for a while after its last region, and the
                # core's thread sampler looks back 0.1 s for cores other processes kept busy
                # (Note [Threads the machine can give] in TH/THGeneral.cpp): each contender
                # starts once both have passed, as it would in a program of its own
                time.sleep(0.25)
                ms, used = ask(contenders[c], [name, threads, args.repeat])
                if used != threads:
                    sys.exit(f"{c} ran {used} threads, asked for {threads}")
                timings[c] += ms
        return timings["ours"], timings["pytorch"]

    print("load average at start:", load())
    results = {}
    for busy in sorted({b for _, b in settings}):
        context = BusyCore() if busy else None
        if context:
            context.__enter__()
        try:
            for name in names:
                for threads, b in settings:
                    if b == busy:
                        results[name, threads, busy] = measure(name, threads)
        finally:
            if context:
                context.__exit__()
    print("load average at end:", load())

    heads = [f"{t}t{' busy' if b else ''}" for t, b in settings]
    for title, pick in (("best", min), ("median", statistics.median), ("mean", statistics.mean)):
        print(f"\n{title} timing of all rounds")
        print(
            f"{'workload':36}" + "".join(f" | {h:>22}" for h in heads) + ("" if args.no_busy else " | ours 2t/1t busy")
        )
        print(f"{'':36}" + " | ours ms   ref ms  ratio" * len(settings))
        worse = []
        for name in names:
            cells = []
            for threads, busy in settings:
                o, p = (pick(t) for t in results[name, threads, busy])
                cells.append(f" | {o:8.3f} {p:8.3f} {o / p:6.2f}")
                if o > p:
                    worse.append(f"{name} at {threads}t{' busy' if busy else ''}")
            line = f"{name:36}" + "".join(cells)
            if not args.no_busy:
                line += f" | {pick(results[name, 2, True][0]) / pick(results[name, 1, True][0]):6.2f}"
            print(line, flush=True)
        print(f"\nratio = ours / PyTorch 1.13 (below 1: ours is faster); {title} timing of all rounds")
        print("slower than PyTorch:", ", ".join(worse) if worse else "none")
    for proc in contenders.values():
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
