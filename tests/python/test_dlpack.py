"""DLPack exchange with numpy (its own DLPack producer and consumer, an independent
implementation of the ABI): values, dtypes, strides, shared memory both ways, capsules
consumed once, and memory kept alive by whichever side still holds it."""

import gc

import numpy as np
import pytest

import torch
from torch.utils.dlpack import from_dlpack, to_dlpack

DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8]


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_to_tensor_shares_memory(dtype):
    a = np.arange(24).reshape(4, 6).astype(dtype)[1:, ::2]
    t = torch.from_dlpack(a)
    np.testing.assert_array_equal(t.numpy(), a)
    assert t.stride() == tuple(s // a.itemsize for s in a.strides)
    t[0, 0] = 9
    assert a[0, 0] == 9


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensor_to_numpy_shares_memory(dtype):
    x = torch.from_numpy(np.arange(12).astype(dtype)).reshape(3, 4).t()
    b = np.from_dlpack(x)
    assert b.dtype == dtype and b.strides == tuple(s * b.itemsize for s in x.stride())
    np.testing.assert_array_equal(b, x.numpy())
    x[1, 2] = 5
    assert b[1, 2] == 5


def test_round_trip_through_a_capsule_and_tensor_methods():
    x = torch.arange(6.0).reshape(2, 3)
    y = from_dlpack(to_dlpack(x))
    y[1, 1] = -1
    assert x[1, 1] == -1
    assert x.__dlpack_device__() == (1, 0)
    assert torch.from_dlpack(x).data_ptr() == x.data_ptr()


def test_memory_outlives_the_producer_object():
    a = np.arange(5.0)
    t = torch.from_dlpack(a)
    del a
    gc.collect()
    np.testing.assert_array_equal(t.numpy(), np.arange(5.0))
    x = torch.arange(4.0)
    b = np.from_dlpack(x)
    del x
    gc.collect()
    np.testing.assert_array_equal(b, np.arange(4.0))


def test_empty_and_zero_dim():
    assert torch.from_dlpack(np.zeros((0, 3))).shape == (0, 3)
    assert torch.from_dlpack(np.array(2.5)).item() == 2.5


def test_errors_as_pytorch_1_13():
    capsule = to_dlpack(torch.arange(3))
    from_dlpack(capsule)
    with pytest.raises(RuntimeError, match="consumed only once"):
        from_dlpack(capsule)
    with pytest.raises(RuntimeError, match="Bool type is not supported by dlpack"):
        to_dlpack(torch.tensor([True]))
    with pytest.raises(RuntimeError, match="require gradient"):
        torch.ones(2, requires_grad=True).__dlpack__()
    with pytest.raises(TypeError):
        from_dlpack(5)


def test_an_unconsumed_capsule_releases_its_tensor():
    x = torch.arange(3.0)
    capsule = to_dlpack(x)
    del capsule
    gc.collect()
    np.testing.assert_array_equal(x.numpy(), [0.0, 1.0, 2.0])
