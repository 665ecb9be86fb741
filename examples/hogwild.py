"""Hogwild training: several processes update one model's parameters in shared memory, without
locks, as PyTorch's mnist_hogwild example does.

    python3 examples/hogwild.py --num-processes 2 --epochs 2 --start-method spawn

The data is synthetic: points in 20 dimensions labelled by a fixed random "teacher" network, so
the example needs no download. The parent builds the model, moves its parameters to shared
memory (model.share_memory()), starts the workers with the model as an argument, waits for them,
and then shows that its own copy of the model has learned: every worker trained the parent's
parameters, not a copy of them, whichever start method started it.
"""

import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

FEATURES, CLASSES = 20, 4


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(FEATURES, 64)
        self.fc2 = nn.Linear(64, CLASSES)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def make_data(n, seed):
    """n labelled points; the labels come from one teacher shared by every call."""
    teacher = torch.Generator().manual_seed(1234)
    w = torch.randn(FEATURES, CLASSES, generator=teacher)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, FEATURES, generator=g)
    return x, (x @ w).argmax(dim=1)


def train(rank, args, model):
    torch.manual_seed(args.seed + rank)
    x, y = make_data(args.samples, seed=args.seed + 1 + rank)  # each worker its own shard
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(len(x))
        total = 0.0
        for start in range(0, len(x), args.batch_size):
            batch = order[start : start + args.batch_size]
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x[batch]), y[batch])
            loss.backward()
            optimizer.step()  # writes straight into the shared parameters
            total += loss.item() * len(batch)
        print("worker %d  epoch %d  loss %.4f" % (rank, epoch, total / len(x)), flush=True)


def evaluate(model, x, y):
    with torch.no_grad():
        out = model(x)
        return F.cross_entropy(out, y).item(), (out.argmax(dim=1) == y).float().mean().item()


def main():
    parser = argparse.ArgumentParser(description="Hogwild training of one shared model")
    parser.add_argument("--num-processes", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=2048, help="training points per worker")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--momentum", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start-method", choices=["fork", "spawn", "forkserver"], default="spawn")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = Net()
    model.share_memory()  # gradients are per process; the parameters are one memory
    x_test, y_test = make_data(1000, seed=0)
    loss0, acc0 = evaluate(model, x_test, y_test)
    print("before: test loss %.4f  accuracy %.3f" % (loss0, acc0), flush=True)

    mp.start_processes(train, args=(args, model), nprocs=args.num_processes, start_method=args.start_method)

    loss1, acc1 = evaluate(model, x_test, y_test)
    print("after:  test loss %.4f  accuracy %.3f" % (loss1, acc1))
    if not loss1 < loss0:
        raise SystemExit("the parent's model did not learn: the workers trained copies of it")
    print("the parent's model learned from %d workers (%s)" % (args.num_processes, args.start_method))


if __name__ == "__main__":
    main()
