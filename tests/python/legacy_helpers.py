"""Helpers shared by the tests of torch.legacy.nn, load_lua/save_lua and convert_t7:
torch7's fixture files, .t7 bytes in memory, hand-built binary streams, numpy references."""

import io
import os
import struct

import numpy as np
import pytest

import torch
from conftest import fixtures_dir
from torch.utils.serialization import load_lua, save_lua

T7 = os.path.join(fixtures_dir(), "t7")


def fixture(name):
    """The path of a file of ../shared/fixtures/t7; the test fails where it is missing (a
    missing fixture is a broken checkout, not a reason to check less)."""
    path = os.path.join(T7, name)
    if not os.path.exists(path):
        pytest.fail("fixture %s missing" % path)
    return path


def dbl(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


@pytest.fixture
def double_default():
    """Modules built with float64 parameters (a test module makes it autouse by importing
    it and marking it so)."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


def t7_bytes(value):
    """value as save_lua writes it (binary)."""
    buf = io.BytesIO()
    save_lua(value, buf)
    return buf.getvalue()


def load_bytes(data, **kwargs):
    return load_lua(io.BytesIO(data), **kwargs)


def through_file(value):
    """value saved with save_lua and loaded again, as a .t7 file gives it."""
    return load_bytes(t7_bytes(value))


def binary(*parts):
    """A binary .t7 stream built by hand from the format: floats as float64 (Lua numbers),
    bytes as they are, other ints as int32 (type tags, lengths, references)."""
    out = b""
    for p in parts:
        out += struct.pack("<d", p) if isinstance(p, float) else p if isinstance(p, bytes) else struct.pack("<i", p)
    return out


def same_storage(a, b):
    return a.storage()._cdata == b.storage()._cdata


def np_log_softmax(z, axis):
    z = z - z.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def tensors(x):
    """The tensors of x (a tensor or nested lists of them), in order."""
    return [x] if torch.is_tensor(x) else [t for v in x for t in tensors(v)]


def central_differences(x, f, eps=1e-6):
    """d f / d x by central differences, shaped like x: f() gives a float for the current
    values of the tensor x, whose elements are moved by +-eps in turn (and put back)."""
    num = torch.zeros_like(x)
    flat, nflat = x.view(-1), num.view(-1)
    for i in range(flat.numel()):
        v = float(flat[i])
        flat[i] = v + eps
        up = f()
        flat[i] = v - eps
        down = f()
        flat[i] = v
        nflat[i] = (up - down) / (2 * eps)
    return num
