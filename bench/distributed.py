"""torch.distributed's all_reduce and DistributedDataParallel's step, ours against PyTorch 1.13
(Debian's, /usr/bin/python3; it has Gloo), both on Gloo over loopback, the same script.

For each world size (2 and 3 processes of one thread each) and each contender, in alternating
order, a group of processes runs: all_reduce (SUM, float32) of 1 KB, 1 MB, 16 MB and 256 MB,
timed after a warm-up, the slowest rank's time per op kept; then a training step of a small
CNN (the main job's, batch 64 split over the ranks) under DDP, against the same step in one
process over the whole batch. The best of --rounds rounds is kept. Ratios are ours / PyTorch's
(below 1: ours is faster).

With --backend nccl (a machine with GPUs: one rank per GPU, world sizes from --worlds, 1 by
default) the same runs on CUDA tensors over NCCL, each rank on GPU `rank`, the times taken
after the device finished (torch.cuda.synchronize); the reference is --reference's PyTorch
(default /usr/bin/python3) when it has CUDA and NCCL there, else ours runs alone.

    ~/.cache/torch-monorepo-venv/bin/python bench/distributed.py [--rounds 2] [--worlds 2 3] [--backend nccl]
or from a checkout with the built _C.so copied in: PYTHONPATH=python python3 bench/distributed.py
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import time

REFERENCE_PYTHON = "/usr/bin/python3"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [("1 KB", 1 << 10), ("1 MB", 1 << 20), ("16 MB", 16 << 20), ("256 MB", 256 << 20)]


def worker():
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    import torch.nn.functional as F

    torch.set_num_threads(1)
    backend = os.environ.get("BENCH_BACKEND", "gloo")
    device = torch.device("cpu")
    if backend == "nccl":
        if not torch.cuda.is_available():
            sys.exit("--backend nccl needs a CUDA GPU, and this machine has none")
        torch.cuda.set_device(int(os.environ["RANK"]) % torch.cuda.device_count())
        device = torch.device("cuda", torch.cuda.current_device())
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    results = {}

    def done():  # the device's work finished (NCCL's ops return before)
        if device.type == "cuda":
            torch.cuda.synchronize()

    def slowest(seconds):
        t = torch.tensor([seconds], dtype=torch.float64).to(device)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return float(t)

    for name, nbytes in SIZES:
        t = torch.ones(nbytes // 4, device=device)
        repeats = max(3, min(200, (64 << 20) // nbytes))
        dist.all_reduce(t)  # warm-up: connections, buffers
        best = float("inf")
        for _ in range(3):
            dist.barrier()
            done()
            start = time.perf_counter()
            for _ in range(repeats):
                dist.all_reduce(t)
            done()
            best = min(best, slowest((time.perf_counter() - start) / repeats))
        results[name] = best

    def net():
        return nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(64 * 7 * 7, 128),
            nn.ReLU(),
            nn.Linear(128, 10),
        )

    def step_time(model, batch, together, steps=20):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        x = torch.randn(batch, 1, 28, 28).to(device)
        y = torch.randint(0, 10, (batch,)).to(device)
        best = float("inf")
        for i in range(steps + 3):
            if together:  # the ranks start each step at once
                dist.barrier()
            done()
            start = time.perf_counter()
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
            done()
            if i >= 3:
                best = min(best, time.perf_counter() - start)
        return best

    torch.manual_seed(0)
    device_ids = [device.index] if device.type == "cuda" else None
    ddp = nn.parallel.DistributedDataParallel(net().to(device), device_ids=device_ids)
    results["ddp step"] = slowest(step_time(ddp, 64 // world, True))
    if rank == 0:
        torch.manual_seed(0)
        results["one process step"] = step_time(net().to(device), 64, False)
        print(json.dumps(results), flush=True)
    dist.barrier()
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_group(python, env, world):
    port = free_port()
    procs = []
    for rank in range(world):
        e = dict(
            env,
            RANK=str(rank),
            WORLD_SIZE=str(world),
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(port),
            OMP_NUM_THREADS="1",
            NCCL_SOCKET_IFNAME=env.get("NCCL_SOCKET_IFNAME", "lo"),  # the ranks are on this machine
        )
        procs.append(
            subprocess.Popen(
                [python, os.path.abspath(__file__), "--worker"],
                env=e,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outputs = [p.communicate() for p in procs]
    for p, (out, err) in zip(procs, outputs):
        if p.returncode != 0:
            sys.exit(f"{python} worker failed:\n{err}")
    return json.loads(outputs[0][0].strip().splitlines()[-1])


def main():
    if "--worker" in sys.argv:
        return worker()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--worlds", type=int, nargs="+")
    parser.add_argument("--backend", choices=["gloo", "nccl"], default="gloo")
    parser.add_argument("--reference", default=REFERENCE_PYTHON, help="the Python whose PyTorch is the reference")
    args = parser.parse_args()
    worlds = args.worlds or ([1] if args.backend == "nccl" else [2, 3])
    ours_env = dict(os.environ, BENCH_BACKEND=args.backend)
    ours_env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"), ours_env.get("PYTHONPATH", "")])
    contenders = [("ours", sys.executable, ours_env)]
    ref_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    ref_env["BENCH_BACKEND"] = args.backend
    # the reference's version, when it can run the backend (NCCL needs its CUDA build and a GPU)
    probe = "import torch, torch.distributed as d; print(torch.__version__.split('+')[0])"
    if args.backend == "nccl":
        probe += "; assert torch.cuda.is_available() and d.is_nccl_available()"
    reference = "PyTorch"
    if os.path.exists(args.reference):
        found = subprocess.run([args.reference, "-c", probe], env=ref_env, capture_output=True, text=True)
        if found.returncode == 0:
            reference = "PyTorch " + found.stdout.strip()
            contenders.append((reference, args.reference, ref_env))
    best = {}
    for round_ in range(args.rounds):
        for world in worlds:
            order = contenders if round_ % 2 == 0 else contenders[::-1]
            for name, python, env in order:
                for key, seconds in run_group(python, env, world).items():
                    slot = (world, name, key)
                    best[slot] = min(best.get(slot, float("inf")), seconds)
    keys = [k for k, _ in SIZES] + ["ddp step", "one process step"]
    transport = "NCCL, one GPU per rank" if args.backend == "nccl" else "loopback Gloo"
    print(f"best of {args.rounds} rounds; processes of one thread each, {transport}")
    print(f"{'ranks':>5} {'operation':>17} {'ours':>11} {reference:>13} {'ratio':>7}")
    for world in worlds:
        for key in keys:
            ours = best[(world, "ours", key)]
            ref = best.get((world, reference, key))
            ratio = f"{ours / ref:7.2f}" if ref else "      -"
            label = "all_reduce " + key if key in dict(SIZES) else key
            ref_text = f"{ref * 1e3:10.3f} ms" if ref else "           -"
            print(f"{world:>5} {label:>17} {ours * 1e3:8.3f} ms {ref_text} {ratio}")
        ddp, single = best[(world, "ours", "ddp step")], best[(world, "ours", "one process step")]
        print(f"{world:>5} ours: DDP step over {world} ranks / one process over the whole batch: {ddp / single:.2f}")


if __name__ == "__main__":
    main()
