"""The main job (examples/fashion_mnist.py: the CNN on Fashion-MNIST with Adam, batch 64) under
this package and under PyTorch 1.13 (Debian's, /usr/bin/python3), the same script and recipe.

Each round runs both contenders one after the other, alternating which goes first, so that
a change in the load of this shared machine hits both alike; the best time of all rounds is
kept. Prints each contender's time for the epochs, its images/s and test accuracy, and the
ratio ours / PyTorch's (below 1: ours is faster).

    ~/.cache/torch-monorepo-venv/bin/python bench/main_job.py [--epochs 3] [--threads 2] [--rounds 1] [--nproc 1]
or from a checkout with the built _C.so copied in: PYTHONPATH=python python3 bench/main_job.py
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

REFERENCE_PYTHON = "/usr/bin/python3"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPOCH_LINE = re.compile(r"epoch (\d+): .*test loss [\d.]+ acc ([\d.]+)% \| (\d+) img/s")


def run(python, env, args, out_dir):
    command = [
        python,
        os.path.join(ROOT, "examples", "fashion_mnist.py"),
        "--epochs",
        str(args.epochs),
        "--threads",
        str(args.threads),
        "--out-dir",
        out_dir,
        "--no-plot",
    ]
    if args.nproc > 1:  # data-parallel: processes of --threads threads each
        command += ["--nproc", str(args.nproc)]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    epochs = EPOCH_LINE.findall(done.stdout)
    if done.returncode != 0 or len(epochs) != args.epochs:
        sys.exit("%s failed (exit %d):\n%s%s" % (" ".join(command), done.returncode, done.stdout, done.stderr))
    rates = [int(rate) for _, _, rate in epochs]
    return seconds, sum(rates) / len(rates), float(epochs[-1][1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--nproc", type=int, default=1, help="DistributedDataParallel processes (both contenders)")
    args = parser.parse_args()
    ours_env = dict(os.environ)
    ours_env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(ROOT, "python"), ours_env.get("PYTHONPATH")) if p)
    reference_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    contenders = [("ours", sys.executable, ours_env), ("PyTorch 1.13", REFERENCE_PYTHON, reference_env)]
    best = {}
    with tempfile.TemporaryDirectory() as out_dir:
        for r in range(args.rounds):
            for name, python, env in contenders if r % 2 == 0 else contenders[::-1]:
                result = run(python, env, args, os.path.join(out_dir, name.split()[0]))
                print(
                    "round %d %-13s %6.1f s  %5.0f img/s  test accuracy %.2f%%" % ((r + 1, name) + result), flush=True
                )
                if name not in best or result[0] < best[name][0]:
                    best[name] = result
    ours, reference = best["ours"][0], best["PyTorch 1.13"][0]
    print(
        "main job, %d epochs, %d process(es) of %d threads: ours %.1f s, PyTorch 1.13 %.1f s, ratio %.2f"
        % (args.epochs, args.nproc, args.threads, ours, reference, ours / reference)
    )


if __name__ == "__main__":
    main()
