"""End to end: a small network trains (the loss falls and the fitted function is right), and
the main job's data reader reads IDX files and reports a missing data set clearly."""

import gzip
import os
import struct
import sys

import numpy as np
import pytest

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
import fashion_mnist  # noqa: E402


def test_tiny_classifier_trains(rng):
    torch.manual_seed(0)
    # Two interleaved half-moons: not linearly separable, so the hidden layer must learn.
    n = 400
    t = rng.uniform(0, np.pi, n)
    labels = rng.integers(0, 2, n)
    x = np.stack([np.cos(t) + labels, np.sin(t) * (1 - 2 * labels) + 0.5 * labels], 1)
    x += rng.normal(0, 0.1, x.shape)
    data = TensorDataset(torch.from_numpy(x.astype(np.float32)), torch.from_numpy(labels.astype(np.int64)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    sched = torch.optim.lr_scheduler.StepLR(opt, 20, 0.5)

    def epoch_loss():
        with torch.no_grad():
            return F.cross_entropy(model(data.tensors[0]), data.tensors[1]).item()

    first = epoch_loss()
    for _ in range(40):
        for xb, yb in loader:
            opt.zero_grad()
            F.cross_entropy(model(xb), yb).backward()
            opt.step()
        sched.step()
    last = epoch_loss()
    assert last < first / 5, (first, last)
    with torch.no_grad():
        accuracy = (model(data.tensors[0]).argmax(1) == data.tensors[1]).float().mean().item()
    assert accuracy > 0.95


def test_small_cnn_loss_falls():
    torch.manual_seed(1)
    # Images whose class is where a bright square sits: a convolution must find it.
    images = torch.zeros(64, 1, 12, 12)
    labels = torch.randint(0, 4, (64,))
    for i in range(64):
        r, c = divmod(int(labels[i]), 2)
        images[i, 0, r * 6 + 1 : r * 6 + 5, c * 6 + 1 : c * 6 + 5] = 1.0
    images += 0.1 * torch.randn(64, 1, 12, 12)
    model = nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1),
        nn.BatchNorm2d(8),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(8 * 6 * 6, 4),
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(30):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.1 * losses[0], losses
    model.eval()
    assert (model(images).argmax(1) == labels).all()


def _write_idx(path, array, code):
    header = bytes([0, 0, code, array.ndim]) + struct.pack(">" + "I" * array.ndim, *array.shape)
    with gzip.open(path, "wb") as f:
        f.write(header + array.astype(array.dtype.newbyteorder(">")).tobytes())


def test_idx_reader_and_dataset(tmp_path, rng):
    images = rng.integers(0, 256, (5, 28, 28)).astype(np.uint8)
    labels = rng.integers(0, 10, 5).astype(np.uint8)
    for prefix in ("train", "t10k"):
        _write_idx(str(tmp_path / ("%s-images-idx3-ubyte.gz" % prefix)), images, 0x08)
        _write_idx(str(tmp_path / ("%s-labels-idx1-ubyte.gz" % prefix)), labels, 0x08)
    np.testing.assert_array_equal(fashion_mnist.read_idx(str(tmp_path / "train-images-idx3-ubyte.gz")), images)
    ds = fashion_mnist.FashionMNIST(str(tmp_path), train=False)
    assert len(ds) == 5
    x, y = ds[3]
    assert x.shape == (1, 28, 28) and y.item() == labels[3]
    expected = (images[3] / 255.0 - ds.MEAN) / ds.STD
    np.testing.assert_allclose(x.numpy()[0], expected, rtol=1e-5, atol=1e-6)
    floats = np.arange(6, dtype=np.float32).reshape(2, 3)
    _write_idx(str(tmp_path / "f.gz"), floats, 0x0D)
    np.testing.assert_array_equal(fashion_mnist.read_idx(str(tmp_path / "f.gz")), floats)


def test_idx_reader_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="dataset-fashion-mnist"):
        fashion_mnist.FashionMNIST(str(tmp_path))
    bad = tmp_path / "bad.gz"
    with gzip.open(str(bad), "wb") as f:
        f.write(b"\x01\x02\x08\x01")
    with pytest.raises(ValueError, match="not an IDX file"):
        fashion_mnist.read_idx(str(bad))
    short = tmp_path / "short.gz"
    with gzip.open(str(short), "wb") as f:
        f.write(bytes([0, 0, 8, 1]) + struct.pack(">I", 10) + b"\x00" * 4)
    with pytest.raises(ValueError, match="truncated"):
        fashion_mnist.read_idx(str(short))
