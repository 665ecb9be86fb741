"""Tensor objects: typed classes, geometry, views sharing storage, copies, conversions and
the numpy bridge (shared memory both ways)."""

import numpy as np
import pytest

import torch
from conftest import NUMPY_OF, NUMERIC_TYPES, assert_close, make_tensor


def test_typed_classes_and_default_type():
    t = torch.FloatTensor(2, 3)
    assert t.dtype is torch.float32 and t.shape == (2, 3) and isinstance(t.shape, torch.Size)
    assert isinstance(t, torch.FloatTensor) and isinstance(t, torch.Tensor)
    assert not isinstance(t, torch.DoubleTensor)
    assert t.type() == "torch.FloatTensor"
    assert torch.LongTensor([1, 2]).type() == "torch.LongTensor"
    assert torch.Tensor(4).dtype is torch.float32
    assert torch.Tensor().shape == (0,)
    assert torch.DoubleTensor(torch.Size([2, 2])).shape == (2, 2)
    assert torch.ByteTensor([1, 2, 255]).tolist() == [1, 2, 255]
    with pytest.raises(TypeError):
        torch.FloatTensor(2, dtype=torch.float64)
    with pytest.raises(RuntimeError):
        torch.FloatTensor(-1)


def test_type_conversions():
    t = torch.DoubleTensor([1.7, -2.2, 3.0])
    assert t.float().dtype is torch.float32
    assert t.long().tolist() == [1, -2, 3]  # truncation toward zero
    assert t.int().dtype is torch.int32
    assert t.type(torch.int16).dtype is torch.int16
    assert t.type("torch.ByteTensor").dtype is torch.uint8
    assert t.to(torch.float32).dtype is torch.float32
    assert t.to(torch.float64) is t  # no copy when nothing changes, as in PyTorch
    assert t.to(torch.float64, copy=True) is not t
    assert t.bool().tolist() == [True, True, True]
    assert t.half().float().tolist() == pytest.approx([1.7, -2.2, 3.0], rel=1e-3)
    assert str(torch.float32) == "torch.float32" and torch.float is torch.float32 and torch.long is torch.int64
    with pytest.raises(ValueError):
        t.type("torch.NoSuchTensor")


def test_geometry_queries():
    t = torch.FloatTensor(2, 3, 4)
    assert t.size() == torch.Size([2, 3, 4]) and t.size(1) == 3 and t.size(-1) == 4
    assert t.stride() == (12, 4, 1) and t.stride(0) == 12
    assert t.dim() == 3 == t.ndim and t.numel() == 24 == t.nelement() and len(t) == 2
    assert t.element_size() == 4 and t.storage_offset() == 0 and t.is_contiguous()
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.size(3)
    with pytest.raises(TypeError):
        len(torch.FloatTensor(1).squeeze())


@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
def test_views_share_storage(dtype, rng):
    t, n = make_tensor((4, 6), dtype, "contiguous", rng, 0, 9)
    n = n.copy()
    views = {
        "view": (t.view(6, 4), n.reshape(6, 4)),
        "view-1": (t.view(-1, 3), n.reshape(-1, 3)),
        "reshape": (t.reshape(2, 12), n.reshape(2, 12)),
        "transpose": (t.transpose(0, 1), n.T),
        "t": (t.t(), n.T),
        "permute": (t.view(2, 2, 6).permute(2, 0, 1), n.reshape(2, 2, 6).transpose(2, 0, 1)),
        "narrow": (t.narrow(1, 2, 3), n[:, 2:5]),
        "select": (t.select(0, 2), n[2]),
        "select-neg": (t.select(1, -1), n[:, -1]),
        "unfold": (t.unfold(1, 2, 2), np.stack([n[:, 0:2], n[:, 2:4], n[:, 4:6]], axis=1)),
        "unsqueeze": (t.unsqueeze(1), n[:, None]),
        "squeeze": (t.view(4, 1, 6).squeeze(), n),
        "squeeze1": (t.view(4, 1, 6).squeeze(1), n),
        "expand": (t.narrow(0, 0, 1).expand(3, 6), np.broadcast_to(n[:1], (3, 6))),
        "flatten": (t.flatten(), n.ravel()),
        "as_strided": (
            t.as_strided((3, 2), (1, 6)),
            np.lib.stride_tricks.as_strided(n, (3, 2), (n.itemsize, 6 * n.itemsize)),
        ),
    }
    for name, (v, expected) in views.items():
        assert_close(v, expected), name
        assert v.data_ptr() >= t.data_ptr(), name
    # a write through a view is seen in the base
    t.t().narrow(0, 1, 1).fill_(5)
    n[:, 1] = 5
    assert_close(t, n)


def test_view_errors_leave_tensor_alone():
    t = torch.FloatTensor(4, 6).fill_(1)
    with pytest.raises(RuntimeError, match="invalid for input of size 24"):
        t.view(5, 5)
    with pytest.raises(RuntimeError):
        t.t().view(24)  # not stride-compatible: view refuses, reshape copies
    r = t.t().reshape(24)
    assert r.shape == (24,)
    with pytest.raises(IndexError):
        t.select(0, 4)
    with pytest.raises(IndexError):
        t.narrow(1, 4, 3)
    with pytest.raises(IndexError):
        t.transpose(0, 2)
    with pytest.raises(RuntimeError):
        t.permute(0, 0)
    with pytest.raises(RuntimeError):
        t.expand(3, 6)
    assert t.shape == (4, 6) and t.tolist() == [[1.0] * 6] * 4


def test_chunk_split_unbind(rng):
    t, n = make_tensor((7, 3), torch.float64, "contiguous", rng)
    parts = t.chunk(3)
    assert [p.shape[0] for p in parts] == [3, 3, 1]
    for p, e in zip(parts, np.array_split(n, [3, 6])):
        assert_close(p, e)
    parts = torch.split(t, [2, 5])
    assert_close(parts[1], n[2:])
    parts = t.split(2, dim=0)
    assert [p.shape[0] for p in parts] == [2, 2, 2, 1]
    rows = t.unbind(1)
    assert len(rows) == 3 and all(r.shape == (7,) for r in rows)
    assert_close(rows[2], n[:, 2])
    with pytest.raises(RuntimeError):
        t.split([2, 2])


@pytest.mark.parametrize("dtype", list(NUMPY_OF))
def test_numpy_shares_memory_both_ways(dtype, rng):
    t, n = make_tensor((3, 4), dtype, "contiguous", rng, 0, 5)
    a = t.numpy()
    assert a.dtype == NUMPY_OF[dtype] and a.shape == (3, 4)
    assert a.ctypes.data == t.data_ptr()
    t.fill_(1)
    assert (a == 1).all()
    a[0, 0] = 0
    assert t.select(0, 0).select(0, 0).item() == 0
    b = np.zeros((5, 2), NUMPY_OF[dtype])
    u = torch.from_numpy(b)
    assert u.dtype is dtype and u.data_ptr() == b.ctypes.data
    u.fill_(1)
    assert (b == 1).all()
    b[4, 1] = 0
    assert u.tolist()[4][1] == 0


def test_numpy_views_and_lifetime():
    base = np.arange(24, dtype=np.float64).reshape(4, 6)
    view = base[1:, ::2].T  # non-contiguous, offset, transposed
    t = torch.from_numpy(view)
    assert t.shape == (3, 3) and t.stride() == (2, 6)
    assert t.tolist() == view.tolist()
    del base, view  # the tensor keeps the array's memory alive
    assert t.tolist() == np.arange(24.0).reshape(4, 6)[1:, ::2].T.tolist()
    # the array returned by numpy() keeps the tensor's memory alive
    a = torch.DoubleTensor([1, 2, 3]).numpy()
    assert a.tolist() == [1, 2, 3]
    z = np.zeros((0, 3), np.float32)
    assert torch.from_numpy(z).shape == (0, 3)


def test_from_numpy_errors():
    with pytest.raises(ValueError, match="negative"):
        torch.from_numpy(np.arange(5.0)[::-1])
    with pytest.raises(TypeError, match="can't convert"):
        torch.from_numpy(np.array(["a"]))
    with pytest.raises(TypeError, match="can't convert"):
        torch.from_numpy(np.zeros(2, np.uint16))
    with pytest.raises(TypeError):
        torch.from_numpy([1, 2])


def test_copy_fill_zero_resize(rng):
    t, n = make_tensor((3, 4), torch.float32, "transposed", rng)
    d = torch.DoubleTensor(3, 4)
    assert d.copy_(t) is d
    assert_close(d, n.astype(np.float64))
    d.copy_(torch.FloatTensor([1, 2, 3, 4]))  # broadcast source
    assert_close(d, np.tile(np.array([1, 2, 3, 4.0]), (3, 1)))
    with pytest.raises(RuntimeError):
        d.copy_(torch.FloatTensor(5))
    assert d.zero_() is d
    assert d.tolist() == [[0.0] * 4] * 3
    d.fill_(2.5)
    assert_close(d, np.full((3, 4), 2.5))
    d.resize_(2, 2)
    assert d.shape == (2, 2)
    d.resize_(10, 10)
    assert d.shape == (10, 10)
    c = t.clone()  # preserve_format: a clone of a transpose is a transpose, as in PyTorch
    assert c.data_ptr() != t.data_ptr() and c.stride() == t.stride()
    assert_close(c, n)
    c = t.clone(memory_format=torch.contiguous_format)
    assert c.data_ptr() != t.data_ptr() and c.is_contiguous()
    assert_close(c, n)
    assert t.contiguous() is not t and t.contiguous().is_contiguous()
    assert c.contiguous() is c


def test_python_conversions():
    assert float(torch.FloatTensor([2.5])) == 2.5
    assert int(torch.LongTensor([7])) == 7
    assert bool(torch.FloatTensor([0])) is False
    assert torch.LongTensor([3]).item() == 3 and isinstance(torch.LongTensor([3]).item(), int)
    assert [1, 2, 3][torch.LongTensor([1]).squeeze()] == 2
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(torch.FloatTensor([1, 2]))
    with pytest.raises(ValueError):
        torch.FloatTensor([1, 2]).item()
    assert torch.DoubleTensor([[1, 2], [3, 4]]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert np.asarray(torch.LongTensor([1, 2])).tolist() == [1, 2]


# ---- small differences from PyTorch 1.13 (issue 14, finding 6) ----
def test_numpy_refuses_a_tensor_that_requires_grad():
    x = torch.ones(3, requires_grad=True)
    message = r"Can't call numpy\(\) on Tensor that requires grad. Use tensor.detach\(\).numpy\(\) instead."
    with pytest.raises(RuntimeError, match=message):
        x.numpy()
    with pytest.raises(RuntimeError, match=message):
        np.asarray(x)
    y = x * 2  # a non-leaf too
    with pytest.raises(RuntimeError, match=message):
        y.numpy()
    np.testing.assert_array_equal(y.detach().numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(x.data.numpy(), [1.0, 1.0, 1.0])
    with torch.no_grad():  # as PyTorch: allowed where autograd is off
        np.testing.assert_array_equal(x.numpy(), [1.0, 1.0, 1.0])


def test_size_takes_ints_only():
    for bad, name in [(torch.float32, "torch.dtype"), (1.5, "float"), (None, "NoneType"), ("a", "str")]:
        with pytest.raises(TypeError, match=r"torch.Size\(\) takes an iterable of 'int' \(item 1 is '%s'\)" % name):
            torch.Size([2, bad])
    with pytest.raises(TypeError, match="item 0 is 'Tensor'"):
        torch.Size([torch.tensor([1, 2])])
    with pytest.raises(TypeError, match="item 0 is 'Tensor'"):
        torch.Size([torch.tensor(1.5)])
    # what has __index__ becomes an int, as in PyTorch
    s = torch.Size([True, torch.tensor(3), np.int64(4), 5])
    assert s == (1, 3, 4, 5) and type(s[0]) is int and type(s[1]) is int
    assert repr(s) == "torch.Size([1, 3, 4, 5])"
    assert torch.zeros(s).shape == s
    assert torch.Size() == () and torch.Size(range(3)) == (0, 1, 2)


def test_device_index_checks():
    assert torch.device("cpu", 0).index == 0 and torch.device("cpu:1").index == 1
    assert torch.device("cpu", torch.tensor(1)).index == 1
    assert torch.device("cpu").index is None and torch.device("cpu", None).index is None
    assert str(torch.device(2)) == "cuda:2"
    for index in [2**70, 2**63]:
        with pytest.raises(RuntimeError, match="Overflow when unpacking long"):
            torch.device("cpu", index)
    for index in [-1, -2]:
        with pytest.raises(RuntimeError, match="Device index must not be negative"):
            torch.device("cpu", index)
    with pytest.raises(RuntimeError):
        torch.device("cpu", 2**31)
    for bad in [1.5, "1", True]:
        with pytest.raises(TypeError, match=r"Device\(\): argument 'index' \(position 2\) must be int"):
            torch.device("cpu", bad)
    for text in ["cpu:-1", "cpu:x", "cpu:01", "cpu:", "cpu:1.0"]:
        with pytest.raises(RuntimeError, match="Invalid device string: '%s'" % text):
            torch.device(text)
    with pytest.raises(RuntimeError):
        torch.device("cpu:99999999999999999999")
    with pytest.raises(RuntimeError, match="must not include an index because index was passed explicitly"):
        torch.device("cpu:1", 2)
