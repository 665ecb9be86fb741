"""Training-step speed of torch.legacy.nn against another copy of the package (the pure
Python implementation it replaced, say), in one process, alternating, best of the repeats.

- MLP 784-512-512-10 (ReLU, LogSoftMax), batch 128, float32: forward, ClassNLLCriterion,
  zeroGradParameters, backward, updateParameters.
- Small CNN, 1x28x28 inputs, batch 64, float32: SpatialConvolution 1->16 5x5, ReLU,
  SpatialMaxPooling 2x2, View, Linear 2304->10, LogSoftMax, ClassNLLCriterion; one step as
  above.

The other copy is the torch/legacy folder of another checkout, e.g. of the commit before
the conversion to THNN:

    git worktree add --detach /tmp/legacy-before <commit>
    python3 bench/legacy_nn.py --other /tmp/legacy-before/python/torch/legacy

Both copies run on this checkout's torch._C; each step is timed on its own, and the figure
is the best step of each copy over the repeats, which run the two copies in turn so that
both see the same load on a shared machine. Ratio: other / this (above 1: this is faster).
"""

import argparse
import importlib.util
import os
import sys
import time

import torch


def load_legacy(folder):
    """The torch.legacy package of `folder`, imported under its own name and then taken off
    sys.modules, so that this checkout's torch.legacy imports afterwards as usual."""
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if k.startswith("torch.legacy")}
    try:
        spec = importlib.util.spec_from_file_location(
            "torch.legacy", os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
        )
        package = importlib.util.module_from_spec(spec)
        sys.modules["torch.legacy"] = package
        spec.loader.exec_module(package)
        return package.nn
    finally:
        for k in [k for k in sys.modules if k.startswith("torch.legacy")]:
            del sys.modules[k]
        sys.modules.update(saved)


def mlp(nn):
    model = (
        nn.Sequential()
        .add(nn.Linear(784, 512))
        .add(nn.ReLU())
        .add(nn.Linear(512, 512))
        .add(nn.ReLU())
        .add(nn.Linear(512, 10))
        .add(nn.LogSoftMax())
    )
    return model, torch.randn(128, 784), torch.randint(0, 10, (128,))


def cnn(nn):
    model = (
        nn.Sequential()
        .add(nn.SpatialConvolution(1, 16, 5, 5))
        .add(nn.ReLU())
        .add(nn.SpatialMaxPooling(2, 2, 2, 2))
        .add(nn.View(16 * 12 * 12))
        .add(nn.Linear(16 * 12 * 12, 10))
        .add(nn.LogSoftMax())
    )
    return model, torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))


def stepper(nn, make):
    torch.manual_seed(0)
    model, x, y = make(nn)
    crit = nn.ClassNLLCriterion()

    def step():
        loss = crit.forward(model.forward(x), y)
        model.zeroGradParameters()
        model.backward(x, crit.backward(model.output, y))
        model.updateParameters(0.01)
        return loss

    return step


def best_ms(steps, repeat, per_repeat):
    """{name: best time of one step in ms}, the steps run in turn, per_repeat steps each."""
    best = {name: float("inf") for name in steps}
    for name, step in steps.items():  # warm up: buffers allocated, caches filled
        step()
    for _ in range(repeat):
        for name, step in steps.items():
            for _ in range(per_repeat):
                start = time.perf_counter()
                step()
                best[name] = min(best[name], time.perf_counter() - start)
    return {name: t * 1e3 for name, t in best.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--other", required=True, help="the torch/legacy folder of the other copy")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--per-repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    other = load_legacy(os.path.abspath(args.other))
    from torch.legacy import nn as this

    assert other.Linear is not this.Linear
    print("threads: %d" % torch.get_num_threads())
    for label, make in (("MLP 784-512-512-10, batch 128", mlp), ("CNN conv5x5-relu-maxpool-linear, batch 64", cnn)):
        steps = {"other": stepper(other, make), "this": stepper(this, make)}
        losses = {name: step() for name, step in steps.items()}  # the same model and data give the same loss
        assert abs(losses["other"] - losses["this"]) < 1e-4 * max(1.0, abs(losses["this"])), losses
        ms = best_ms(steps, args.repeat, args.per_repeat)
        print(
            "%-42s other %8.3f ms   this %8.3f ms   other/this %.2f"
            % (label, ms["other"], ms["this"], ms["other"] / ms["this"])
        )


if __name__ == "__main__":
    main()
