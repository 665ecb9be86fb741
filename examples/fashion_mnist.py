"""Trains a small CNN on Fashion-MNIST, the way a PyTorch 1.x user would write it.

    python3 examples/fashion_mnist.py --epochs 3 --batch-size 64 --threads 2

Reads the IDX files that Debian's package `dataset-fashion-mnist` installs (or --data-dir),
trains with Adam and a cosine learning-rate schedule, shows a progress bar, evaluates on the
10,000 test images after each epoch, saves the weights (`torch.save(model.state_dict())`),
reloads them into a fresh model to check the accuracy is the same, and plots the loss and
accuracy curves to a PNG file.

    python3 examples/fashion_mnist.py --device cuda
trains on the GPU (the default when torch.cuda.is_available(), as the usual
`'cuda' if torch.cuda.is_available() else 'cpu'` picks it; --device cpu keeps the CPU):
batches go from pinned memory to the GPU, the model and optimizer live there.
    python3 examples/fashion_mnist.py --nproc 2

trains data-parallel instead: it starts 2 copies of itself (one thread each, as
`python -m torch.distributed.run --nproc_per_node 2` would), wraps the model in DistributedDataParallel over Gloo and
gives each process its share of every batch (DistributedSampler); rank 0 reports.
"""

import argparse
import gzip
import os
import struct
import sys
import time

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, Dataset, DistributedSampler

DEFAULT_DATA_DIR = "/usr/share/datasets/fashion-mnist"
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]


def read_idx(path):
    """An IDX file (optionally gzipped) as a numpy array: magic 0 0 <type> <ndim>, then ndim
    big-endian uint32 sizes, then the data."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0:
        raise ValueError("%s is not an IDX file (bad magic number)" % path)
    types = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
    if data[2] not in types:
        raise ValueError("%s: unknown IDX element type 0x%02x" % (path, data[2]))
    ndim = data[3]
    sizes = struct.unpack(">" + "I" * ndim, data[4 : 4 + 4 * ndim])
    array = np.frombuffer(data, dtype=types[data[2]], offset=4 + 4 * ndim)
    expected = int(np.prod(sizes))
    if array.size != expected:
        raise ValueError(
            "%s: expected %d elements for sizes %s, found %d (truncated file?)" % (path, expected, sizes, array.size)
        )
    return array.reshape(sizes)


class FashionMNIST(Dataset):
    """The 60,000 training or 10,000 test images as normalized float tensors [1, 28, 28]."""

    FILES = {
        True: ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
        False: ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
    }
    MEAN, STD = 0.2860, 0.3530

    def __init__(self, root=DEFAULT_DATA_DIR, train=True):
        paths = [os.path.join(root, name) for name in self.FILES[train]]
        for p in paths:
            if not os.path.exists(p) and not os.path.exists(p[:-3]):
                raise FileNotFoundError(
                    "Fashion-MNIST file %s is missing: install Debian's package 'dataset-fashion-mnist' "
                    "(apt-get install dataset-fashion-mnist) or pass --data-dir" % p
                )
        paths = [p if os.path.exists(p) else p[:-3] for p in paths]
        images, labels = read_idx(paths[0]), read_idx(paths[1])
        if images.shape[0] != labels.shape[0]:
            raise ValueError("%d images but %d labels" % (images.shape[0], labels.shape[0]))
        normalized = (images.astype(np.float32) / 255.0 - self.MEAN) / self.STD
        self.images = torch.from_numpy(np.ascontiguousarray(normalized[:, None, :, :]))
        self.labels = torch.from_numpy(labels.astype(np.int64))

    def __len__(self):
        return self.labels.shape[0]

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1),
            nn.BatchNorm2d(64),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10)
        )

    def forward(self, x):
        return self.classifier(self.features(x))


class ProgressBar:
    def __init__(self, total, prefix):
        self.total, self.prefix, self.start = total, prefix, time.time()
        self.tty = sys.stdout.isatty()
        self.last_print = 0.0

    def update(self, done, **figures):
        now = time.time()
        if self.tty and done < self.total and now - self.last_print < 0.2:
            return
        if not self.tty and done < self.total and now - self.last_print < 10:
            return
        self.last_print = now
        width = 30
        filled = int(width * done / self.total)
        text = " ".join("%s %s" % (k, v) for k, v in figures.items())
        line = "%s [%s%s] %d/%d %s" % (self.prefix, "#" * filled, "." * (width - filled), done, self.total, text)
        print(("\r" if self.tty else "") + line, end="" if self.tty and done < self.total else "\n", flush=True)


def summed(*values):
    """The values summed over the data-parallel processes (as they are in one process)."""
    if not dist.is_initialized():
        return values
    t = torch.tensor(values, dtype=torch.float64)
    dist.all_reduce(t)
    return tuple(t.tolist())


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    loss_sum = 0.0
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device, non_blocking=True), labels.to(device, non_blocking=True)
            logits = model(images)
            loss_sum += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += (logits.argmax(1) == labels).sum().item()
            total += labels.shape[0]
    loss_sum, correct, total = summed(loss_sum, correct, total)
    return loss_sum / total, correct / total


def train_epoch(model, loader, optimizer, epoch, epochs, device, report=True):
    model.train()
    bar = ProgressBar(len(loader), "epoch %d/%d" % (epoch, epochs)) if report else None
    seen = correct = 0
    loss_sum = 0.0
    start = time.time()
    losses = []
    for step, (images, labels) in enumerate(loader, 1):
        images, labels = images.to(device, non_blocking=True), labels.to(device, non_blocking=True)
        optimizer.zero_grad()
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        n = labels.shape[0]
        seen += n
        loss_sum += loss.item() * n
        correct += (logits.argmax(1) == labels).sum().item()
        losses.append(loss.item())
        if bar is None:
            continue
        bar.update(
            step,
            loss="%.4f" % (loss_sum / seen),
            acc="%.2f%%" % (100.0 * correct / seen),
            img_s="%.0f" % (seen / max(time.time() - start, 1e-9)),
        )
    elapsed = time.time() - start
    loss_sum, correct, seen = summed(loss_sum, correct, seen)
    return loss_sum / seen, correct / seen, losses, seen / elapsed


def plot(history, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(11, 4))
    steps = np.arange(1, len(history["step_loss"]) + 1) / history["steps_per_epoch"]
    ax_loss.plot(steps, history["step_loss"], alpha=0.3, label="train (per batch)")
    epochs = np.arange(1, len(history["test_loss"]) + 1)
    ax_loss.plot(epochs, history["train_loss"], "o-", label="train (epoch mean)")
    ax_loss.plot(epochs, history["test_loss"], "s-", label="test")
    ax_loss.set_xlabel("epoch")
    ax_loss.set_ylabel("cross-entropy loss")
    ax_loss.legend()
    ax_acc.plot(epochs, [100 * a for a in history["train_acc"]], "o-", label="train")
    ax_acc.plot(epochs, [100 * a for a in history["test_acc"]], "s-", label="test")
    ax_acc.set_xlabel("epoch")
    ax_acc.set_ylabel("accuracy (%)")
    ax_acc.legend()
    fig.suptitle("Fashion-MNIST, small CNN")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def launch_workers(nproc, argv):
    """nproc copies of this script with the environment init_process_group's env:// reads, as
    `python -m torch.distributed.run --standalone --nproc_per_node N` would start them (that
    launcher works too); when one fails the others are stopped."""
    import signal
    import socket
    import subprocess

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    workers = []
    for rank in range(nproc):
        env = dict(
            os.environ,
            RANK=str(rank),
            LOCAL_RANK=str(rank),
            WORLD_SIZE=str(nproc),
            LOCAL_WORLD_SIZE=str(nproc),
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(port),
        )
        workers.append(subprocess.Popen([sys.executable, os.path.abspath(__file__)] + argv, env=env))
    while True:
        codes = [w.poll() for w in workers]
        failed = [r for r, c in enumerate(codes) if c not in (None, 0)]
        if failed:
            for w in workers:
                if w.poll() is None:
                    w.send_signal(signal.SIGTERM)
            print("rank %d failed with exit code %d" % (failed[0], codes[failed[0]]), file=sys.stderr)
            return 1
        if all(c == 0 for c in codes):
            return 0
        time.sleep(0.2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", default=DEFAULT_DATA_DIR)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument(
        "--threads", type=int, default=None, help="threads per process (default: all the CPUs, or 1 with --nproc)"
    )
    parser.add_argument("--nproc", type=int, default=1, help="data-parallel processes (DistributedDataParallel)")
    parser.add_argument("--workers", type=int, default=0, help="DataLoader worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--device", default=None, help="cpu or cuda (default: cuda when torch.cuda.is_available(), else cpu)"
    )
    parser.add_argument("--out-dir", default="runs/fashion_mnist")
    parser.add_argument("--limit", type=int, default=0, help="use only this many training images (smoke tests)")
    parser.add_argument("--no-plot", action="store_true", help="skip the curves (bench/main_job.py; no matplotlib)")
    args = parser.parse_args(argv)
    if args.nproc > 1 and "RANK" not in os.environ:  # start the processes; each runs main()
        return launch_workers(args.nproc, list(sys.argv[1:] if argv is None else argv))
    parallel = args.nproc > 1
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    if parallel and device.type != "cpu":
        parser.error("--nproc trains over Gloo on the CPU: add --device cpu")
    if parallel:
        dist.init_process_group("gloo")
    rank, world = (dist.get_rank(), dist.get_world_size()) if parallel else (0, 1)
    report = rank == 0
    threads = args.threads or (1 if parallel else os.cpu_count())
    if args.batch_size % world:
        parser.error("--batch-size %d is not divisible by --nproc %d" % (args.batch_size, world))

    torch.manual_seed(args.seed)
    torch.set_num_threads(threads)
    pin = device.type == "cuda"  # batches copied to the GPU from page-locked memory
    os.makedirs(args.out_dir, exist_ok=True)
    train_set, test_set = FashionMNIST(args.data_dir, True), FashionMNIST(args.data_dir, False)
    if args.limit:
        train_set = torch.utils.data.Subset(train_set, range(args.limit))
    if parallel:  # each process takes its share of each batch, and of the test set
        sampler = DistributedSampler(train_set, shuffle=True, seed=args.seed, drop_last=True)
        train_loader = DataLoader(
            train_set, batch_size=args.batch_size // world, sampler=sampler, drop_last=True, num_workers=args.workers
        )
        test_loader = DataLoader(test_set, batch_size=500, sampler=DistributedSampler(test_set, shuffle=False))
    else:
        sampler = None
        train_loader = DataLoader(
            train_set,
            batch_size=args.batch_size,
            shuffle=True,
            drop_last=True,
            num_workers=args.workers,
            pin_memory=pin,
        )
        test_loader = DataLoader(test_set, batch_size=500, pin_memory=pin)
    if report:
        print(
            "Fashion-MNIST: %d training and %d test images; %s, %d threads, batch %d%s"
            % (
                len(train_set),
                len(test_set),
                device,
                threads,
                args.batch_size,
                ", %d processes (DistributedDataParallel over Gloo)" % world if parallel else "",
            )
        )

    net = Net().to(device)
    model = DistributedDataParallel(net) if parallel else net
    if report:
        print(net)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    history = {k: [] for k in ("train_loss", "train_acc", "test_loss", "test_acc", "step_loss")}
    history["steps_per_epoch"] = len(train_loader)
    started = time.time()
    for epoch in range(1, args.epochs + 1):
        if sampler is not None:
            sampler.set_epoch(epoch)
        train_loss, train_acc, losses, rate = train_epoch(
            model, train_loader, optimizer, epoch, args.epochs, device, report
        )
        test_loss, test_acc = evaluate(model, test_loader, device)
        scheduler.step()
        for key, value in (
            ("train_loss", train_loss),
            ("train_acc", train_acc),
            ("test_loss", test_loss),
            ("test_acc", test_acc),
        ):
            history[key].append(value)
        history["step_loss"].extend(losses)
        if not report:
            continue
        print(
            "epoch %d: train loss %.4f acc %.2f%% | test loss %.4f acc %.2f%% | %.0f img/s | lr %.2e | %.0f s"
            % (
                epoch,
                train_loss,
                100 * train_acc,
                test_loss,
                100 * test_acc,
                rate,
                scheduler.get_last_lr()[0],
                time.time() - started,
            )
        )

    # Rank 0 saves; every process reloads the file and evaluates its share of the test set,
    # so the accuracy compared is the one each epoch reported.
    checkpoint = os.path.join(args.out_dir, "model.pt")
    if report:
        torch.save(net.state_dict(), checkpoint)
    if parallel:
        dist.barrier()
    reloaded = Net().to(device)
    reloaded.load_state_dict(torch.load(checkpoint, map_location=device))
    _, reloaded_acc = evaluate(reloaded, test_loader, device)
    if parallel:  # all together, so that no process leaves while another still talks to it
        dist.barrier()
        dist.destroy_process_group()
    if not report:
        return 0
    print(
        "checkpoint %s reloaded: test accuracy %.2f%% (%s)"
        % (checkpoint, 100 * reloaded_acc, "same" if reloaded_acc == history["test_acc"][-1] else "DIFFERENT")
    )
    if not args.no_plot:
        figure = os.path.join(args.out_dir, "curves.png")
        plot(history, figure)
        print("curves written to %s; total %.0f s" % (figure, time.time() - started))
    if reloaded_acc != history["test_acc"][-1]:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
