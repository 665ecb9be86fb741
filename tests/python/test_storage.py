"""Typed storages (torch.FloatStorage, ...): construction, elements, views, conversions, files,
shared memory, against numpy and plain Python."""

import gc
import multiprocessing
import os

import numpy as np
import pytest

import torch
from conftest import NUMPY_OF, random_array

STORAGE_OF = {
    torch.uint8: torch.ByteStorage,
    torch.int8: torch.CharStorage,
    torch.int16: torch.ShortStorage,
    torch.int32: torch.IntStorage,
    torch.int64: torch.LongStorage,
    torch.float16: torch.HalfStorage,
    torch.float32: torch.FloatStorage,
    torch.float64: torch.DoubleStorage,
    torch.bool: torch.BoolStorage,
}
ALL_TYPES = list(STORAGE_OF)
CONVERSIONS = {
    "byte": torch.uint8,
    "char": torch.int8,
    "short": torch.int16,
    "int": torch.int32,
    "long": torch.int64,
    "half": torch.float16,
    "float": torch.float32,
    "double": torch.float64,
    "bool": torch.bool,
}


def values_of(storage):
    """The storage's elements as a numpy array (a copy)."""
    return np.array(storage._tensor().numpy())


def python_values(array):
    return [v.item() for v in array]


def make_storage(dtype, n, rng):
    a = random_array((n,), dtype, rng)
    return STORAGE_OF[dtype](python_values(a)), a


# ---- construction, elements ----
@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_sizes_and_element_size(dtype):
    cls = STORAGE_OF[dtype]
    s = cls(5)
    assert isinstance(s, cls) and torch.is_storage(s) and not torch.is_storage(torch.zeros(1))
    assert len(s) == s.size() == 5 and s.dtype is dtype
    assert s.element_size() == np.dtype(NUMPY_OF[dtype]).itemsize and s.nbytes() == 5 * s.element_size()
    assert len(cls()) == 0 and len(cls(0)) == 0
    assert s.type() == "torch." + cls.__name__
    with pytest.raises(RuntimeError):
        cls(-1)
    with pytest.raises(TypeError):
        cls(2.5)
    with pytest.raises(TypeError):
        cls(torch.zeros(2))
    with pytest.raises(TypeError):
        cls(1, 2)


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_from_sequence_and_tolist(dtype, rng):
    s, a = make_storage(dtype, 9, rng)
    assert len(s) == 9
    values = s.tolist()
    assert values == python_values(a)
    assert all(type(v) is type(a[0].item()) for v in values)
    assert list(s) == values  # iteration
    assert [s[i] for i in range(9)] == values
    assert STORAGE_OF[dtype](range(3)).tolist() == [type(values[0])(v) for v in range(3)]


def test_from_sequence_converts_like_a_tensor():
    assert torch.IntStorage([1.9, -1.9, 3]).tolist() == [1, -1, 3]  # truncation toward zero
    assert torch.FloatStorage([1, True]).tolist() == [1.0, 1.0]
    assert torch.ByteStorage((255, 0)).tolist() == [255, 0]
    with pytest.raises(TypeError):
        torch.FloatStorage([1.0, "a"])


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_indexing_and_assignment(dtype, rng):
    s, a = make_storage(dtype, 6, rng)
    n = len(a)
    for i in range(-n, n):
        assert s[i] == a[i].item()
    new, _ = make_storage(dtype, 6, rng)
    expected = a.copy()
    for i, v in zip([0, 5, -1, -6, 2], new.tolist()):
        s[i] = v
        expected[i] = v
    assert s.tolist() == python_values(expected)
    for bad in (6, -7, 100):
        with pytest.raises(IndexError):
            s[bad]
        with pytest.raises(IndexError):
            s[bad] = 1
    for bad in (1.0, "0", None):
        with pytest.raises(TypeError):
            s[bad]
        with pytest.raises(TypeError):
            s[bad] = 1
    with pytest.raises(TypeError):
        s[0] = "text"
    assert s.tolist() == python_values(expected)  # failed calls changed nothing
    assert s[np.int64(1)] == expected[1].item()  # numpy integers index too


def test_assignment_converts_to_the_element_type():
    s = torch.IntStorage(2)
    s[0] = 7.9
    s[1] = -7.9
    assert s.tolist() == [7, -7]
    h = torch.HalfStorage(1)
    h[0] = 0.1
    assert h[0] == float(np.float16(0.1))


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_fill_zero_copy(dtype, rng):
    s, a = make_storage(dtype, 7, rng)
    assert s.fill_(1) is s and s.tolist() == python_values(np.ones(7, NUMPY_OF[dtype]))
    assert s.zero_() is s and s.tolist() == python_values(np.zeros(7, NUMPY_OF[dtype]))
    other, b = make_storage(dtype, 7, rng)
    assert s.copy_(other) is s and s.tolist() == python_values(b)
    assert s.data_ptr() != other.data_ptr()
    # copy_ from another element type converts, as numpy's astype does
    doubles = torch.DoubleStorage([1.5, -2.5, 0, 3, 4, 5, 100])
    s.copy_(doubles)
    with np.errstate(invalid="ignore"):
        assert s.tolist() == python_values(values_of(doubles).astype(NUMPY_OF[dtype]))
    before = s.tolist()
    with pytest.raises(RuntimeError, match="size"):
        s.copy_(STORAGE_OF[dtype](3))
    with pytest.raises(TypeError):
        s.copy_([1, 2, 3, 4, 5, 6, 7])
    assert s.tolist() == before


# ---- storages of tensors ----
@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_tensor_storage_shares_memory(dtype, rng):
    a = random_array((4, 5), dtype, rng)
    t = torch.from_numpy(a.copy())
    s = t.storage()
    assert isinstance(s, STORAGE_OF[dtype]) and t.storage_type() is STORAGE_OF[dtype]
    assert len(s) == 20 and s.data_ptr() == t.data_ptr() and s._cdata == t.storage()._cdata
    assert s.tolist() == python_values(a.ravel())
    one = random_array((1,), dtype, rng)[0].item()
    s[7] = one  # row 1, column 2
    assert t.numpy()[1, 2] == one
    col = t.t().narrow(0, 3, 1)  # column 3: a view at offset 3
    assert col.storage_offset() == 3 and col.storage()._cdata == s._cdata
    assert col.data_ptr() == s.data_ptr() + 3 * s.element_size()
    t.fill_(0)
    assert s.tolist() == python_values(np.zeros(20, NUMPY_OF[dtype]))


def test_storage_keeps_memory_alive_after_the_tensor_goes():
    t = torch.arange(6, dtype=torch.float64)
    s = t.storage()
    del t
    gc.collect()
    assert s.tolist() == [0, 1, 2, 3, 4, 5]


def test_resize():
    s = torch.FloatStorage([1, 2, 3])
    assert s.resize_(5) is s and len(s) == 5 and s.tolist()[:3] == [1, 2, 3]
    s.resize_(2)
    assert s.tolist() == [1, 2]
    s.resize_(0)
    assert len(s) == 0
    with pytest.raises((RuntimeError, ValueError)):
        s.resize_(-1)
    assert len(s) == 0


# ---- slices ----
def test_slices_are_views():
    s = torch.DoubleStorage([float(i) for i in range(10)])
    v = s[2:6]
    assert isinstance(v, torch.DoubleStorage) and len(v) == 4 and v.tolist() == [2, 3, 4, 5]
    assert v.data_ptr() == s.data_ptr() + 2 * 8
    v[0] = -1
    s[5] = -5
    assert s[2] == -1 and v[3] == -5
    assert s[-3:].tolist() == [7, 8, 9] and s[:2].tolist() == [0, 1] and len(s[6:2]) == 0
    assert s[:].data_ptr() == s.data_ptr() and len(s[:]) == 10
    vv = v[1:3]  # a view of a view
    vv.fill_(42)
    assert s.tolist()[:6] == [0, 1, -1, 42, 42, -5]
    s[7:9] = 8  # slice assignment fills
    assert s.tolist()[6:] == [6, 8, 8, 9]
    s[8:10] = torch.DoubleStorage([-8, -9])  # or copies a storage (or a tensor) of the slice's size
    s[6:7] = torch.tensor([-6.0], dtype=torch.float64)
    assert s.tolist()[6:] == [-6, 8, -8, -9]
    with pytest.raises(RuntimeError):
        s[0:2] = torch.DoubleStorage([1, 2, 3])
    assert s.tolist()[:2] == [0, 1]
    with pytest.raises(RuntimeError, match="step"):
        s[::2]
    # a view keeps its parent's memory alive
    del s, vv
    gc.collect()
    assert v.tolist() == [-1, 42, 42, -5]


def test_a_viewed_storage_cannot_move_its_memory():
    s = torch.FloatStorage([1, 2, 3, 4])
    t = torch.tensor([], dtype=torch.float32).set_(s, 0, (4,), (1,))
    v = s[1:3]
    with pytest.raises(RuntimeError):
        s.resize_(100)
    with pytest.raises(RuntimeError):
        t.resize_(100)  # through a tensor too: TH refuses to reallocate it
    with pytest.raises(RuntimeError, match="view"):
        s.share_memory_()
    with pytest.raises(RuntimeError, match="view"):
        t.share_memory_()
    assert not s.is_shared() and s.tolist() == [1, 2, 3, 4] and v.tolist() == [2, 3]
    del v
    gc.collect()
    s.resize_(6)  # without views it may move again
    assert len(s) == 6 and s.tolist()[:4] == [1, 2, 3, 4]
    s.share_memory_()
    assert s.is_shared()


# ---- conversions ----
@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("method", sorted(CONVERSIONS))
def test_type_conversions(dtype, method, rng):
    s, a = make_storage(dtype, 8, rng)
    target = CONVERSIONS[method]
    out = getattr(s, method)()
    assert type(out) is STORAGE_OF[target] and out.dtype is target
    with np.errstate(invalid="ignore", over="ignore"):
        expected = a.astype(NUMPY_OF[target])
    assert out.tolist() == python_values(expected)
    # always a copy, even to the same type (PyTorch 1.13)
    assert out._cdata != s._cdata and out.data_ptr() != s.data_ptr()
    out.fill_(0)
    assert s.tolist() == python_values(a)
    by_name = s.type("torch." + STORAGE_OF[target].__name__)
    by_class = s.type(STORAGE_OF[target])
    assert by_name.tolist() == by_class.tolist() == python_values(expected)
    assert type(by_name) is type(by_class) is STORAGE_OF[target]
    if target is dtype:  # type() to its own type is the storage itself
        assert by_name is s and by_class is s


def test_type_errors():
    s = torch.FloatStorage(2)
    with pytest.raises(ValueError, match="torch.FloatStorage"):
        s.type("torch.NoSuchStorage")
    with pytest.raises(TypeError):
        s.type(3)
    assert s.cpu() is s and s.device == torch.device("cpu") and not s.is_cuda


def test_from_buffer():
    raw = np.array([1, -2, 300], dtype="<i4").tobytes()
    assert torch.IntStorage.from_buffer(raw, "little").tolist() == [1, -2, 300]
    assert torch.IntStorage.from_buffer(np.array([1, -2], ">i4").tobytes(), "big").tolist() == [1, -2]
    assert torch.ByteStorage.from_buffer(b"\x01\x02\x03", offset=1).tolist() == [2, 3]
    with pytest.raises(ValueError):
        torch.IntStorage.from_buffer(b"\x01\x02\x03")
    with pytest.raises(ValueError):
        torch.IntStorage.from_buffer(raw, "middle")


# ---- files and shared memory ----
def test_from_file_shared_writes_reach_the_file(tmp_path):
    path = tmp_path / "floats.bin"
    s = torch.FloatStorage.from_file(str(path), shared=True, size=6)
    assert len(s) == 6 and path.stat().st_size == 6 * 4
    s.copy_(torch.FloatStorage([0.5, 1, 2, 3, 4, 5]))
    assert np.fromfile(path, "<f4").tolist() == [0.5, 1, 2, 3, 4, 5]
    # a second mapping of the file is the same memory
    again = torch.FloatStorage.from_file(path, shared=True, size=0)
    again[0] = -9
    assert s[0] == -9 and np.fromfile(path, "<f4")[0] == -9


def test_from_file_private_mapping(tmp_path):
    path = tmp_path / "doubles.bin"
    np.arange(5, dtype="<f8").tofile(path)
    s = torch.DoubleStorage.from_file(str(path), shared=False, size=5)
    assert s.tolist() == [0, 1, 2, 3, 4]
    s[1] = 100  # copy on write: the file keeps its values
    assert s[1] == 100 and np.fromfile(path, "<f8").tolist() == [0, 1, 2, 3, 4]
    assert len(torch.DoubleStorage.from_file(str(path), False, 0)) == 5  # 0: the whole file
    with pytest.raises(RuntimeError):
        torch.DoubleStorage.from_file(str(path), shared=False, size=6)  # longer than the file
    with pytest.raises(RuntimeError):
        torch.DoubleStorage.from_file(str(tmp_path / "missing.bin"), shared=False, size=1)


def _shm_names():
    return (
        {n for n in os.listdir("/dev/shm") if n.startswith("torch_%d_" % os.getpid())}
        if os.path.isdir("/dev/shm")
        else set()
    )


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_share_memory_keeps_data_and_views(dtype, rng):
    a = random_array((3, 4), dtype, rng)
    t = torch.from_numpy(a.copy())
    view = t.t()
    storage = t.storage()
    names_before = _shm_names()
    assert not t.is_shared() and not storage.is_shared()
    assert t.share_memory_() is t
    assert t.is_shared() and view.is_shared() and storage.is_shared() and t.storage().is_shared()
    assert t.numpy().tolist() == a.tolist() and view.numpy().tolist() == a.T.tolist()
    assert storage.data_ptr() == t.data_ptr() == view.data_ptr()
    ptr = t.data_ptr()
    t.share_memory_()  # already shared: nothing moves
    assert t.data_ptr() == ptr
    t.fill_(1)
    assert view.numpy().tolist() == np.ones((4, 3), NUMPY_OF[dtype]).tolist()
    c = t.clone()  # the tensor still works as a source and as a destination
    c.copy_(view.t())
    assert c.numpy().tolist() == np.ones((3, 4), NUMPY_OF[dtype]).tolist()
    # nothing is left behind in /dev/shm
    assert _shm_names() == names_before


def _mapping_of(address):
    """The path /proc/self/maps gives for the mapping holding address."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            low, high = (int(x, 16) for x in fields[0].split("-"))
            if low <= address < high:
                return fields[5].strip() if len(fields) > 5 else ""
    raise AssertionError("no mapping holds %#x" % address)


def test_share_memory_never_names_a_segment():
    # The memory has no name at any moment (a memfd), so a process killed inside
    # share_memory_() cannot leave a segment in /dev/shm; a segment made by name and unlinked
    # at once would show here as "/dev/shm/... (deleted)".
    t = torch.arange(1000.0)
    t.share_memory_()
    path = _mapping_of(t.data_ptr())
    assert path.startswith("/memfd:"), path
    assert t.tolist() == list(map(float, range(1000)))


def test_share_memory_of_storages():
    s = torch.LongStorage([1, 2, 3])
    assert s.share_memory_() is s and s.is_shared() and s.tolist() == [1, 2, 3]
    empty = torch.FloatStorage(0).share_memory_()
    assert empty.is_shared() and len(empty) == 0
    fresh = torch.DoubleStorage._new_shared(4)
    assert fresh.is_shared() and len(fresh) == 4


def _child_reads_after_parent_writes(t, ready, written, out):
    ready.set()
    written.wait(10)
    out.put(t.tolist())
    t.fill_(-3)  # and a write the parent should see


@pytest.mark.parametrize("share", [True, False])
def test_forked_child_sees_writes_after_sharing(share):
    ctx = multiprocessing.get_context("fork")
    t = torch.zeros(4, dtype=torch.float64)
    if share:
        t.share_memory_()
    ready, written, out = ctx.Event(), ctx.Event(), ctx.Queue()
    child = ctx.Process(target=_child_reads_after_parent_writes, args=(t, ready, written, out))
    child.start()
    try:
        assert ready.wait(10)
        t.copy_(torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64))  # after the fork
        written.set()
        seen = out.get(timeout=10)
    finally:
        child.join(10)
    assert child.exitcode == 0
    if share:
        assert seen == [1, 2, 3, 4] and t.tolist() == [-3, -3, -3, -3]
    else:  # the control: private memory is copied at the fork, each side keeps its own writes
        assert seen == [0, 0, 0, 0] and t.tolist() == [1, 2, 3, 4]


# ---- printing ----
@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_repr_like_pytorch_1_13(dtype, rng):
    s, a = make_storage(dtype, 3, rng)
    lines = [" " + str(v.item()) for v in a]
    expected = "\n".join(lines) + "\n[torch.storage.TypedStorage(dtype=%s, device=cpu) of size 3]" % dtype
    assert repr(s) == str(s) == expected
    assert repr(STORAGE_OF[dtype](0)) == " \n[torch.storage.TypedStorage(dtype=%s, device=cpu) of size 0]" % dtype
