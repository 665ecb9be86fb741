"""torch.save / torch.load: files written by PyTorch 1.13 (fixtures), round trips in both
written layouts, the pre-0.4 tar layout, map_location, pickling, corrupt files, and (where
Debian's python3-torch is installed) real PyTorch reading what we write.

serialization_reference.py reads and writes the layouts with zipfile/pickle/numpy alone: it is
the independent reference for our loader (on the fixtures) and for our writer (round trips)."""

import copy
import io
import json
import os
import pathlib
import pickle
import subprocess
import sys
import tarfile
import zipfile
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import serialization_reference as ref
import torch
from conftest import LAYOUTS, NUMPY_OF, fixtures_dir, make_tensor, random_array, require_real_torch_env

PT = os.path.join(fixtures_dir(), "pt")
ALL_TYPES = list(NUMPY_OF)
TORCH_OF_STORAGE = {
    "ByteStorage": torch.uint8,
    "CharStorage": torch.int8,
    "ShortStorage": torch.int16,
    "IntStorage": torch.int32,
    "LongStorage": torch.int64,
    "HalfStorage": torch.float16,
    "FloatStorage": torch.float32,
    "DoubleStorage": torch.float64,
    "BoolStorage": torch.bool,
}
WRITTEN = {"zip": {}, "legacy": {"_use_new_zipfile_serialization": False}}


def fixture_bytes(name):
    with open(os.path.join(PT, name), "rb") as f:
        return f.read()


def same_storage(a, b):
    return a.storage()._cdata == b.storage()._cdata


def exact(t, expected):
    """t holds exactly the values (bit for bit) and the element type of the numpy array expected."""
    assert torch.is_tensor(t), type(t)
    got = t.numpy()
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (
        got.dtype,
        got.shape,
        expected.dtype,
        expected.shape,
    )
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(expected).tobytes(), (got, expected)


def assert_matches_reference(got, want, storages_seen=None):
    """got (what torch.load returned) has the structure, types and values of want (what the
    reference reader made of the same bytes), and shares storages exactly where want does."""
    top = storages_seen is None
    if top:
        storages_seen = {}
    if isinstance(want, ref.RefTensor):
        assert torch.is_tensor(got), type(got)
        assert got.dtype is TORCH_OF_STORAGE[want.storage.type_name]
        assert tuple(got.shape) == want.size and tuple(got.stride()) == want.stride
        assert got.storage_offset() == want.offset
        exact(got, want.array())
        storage = got.storage()
        assert len(storage) == want.storage.numel
        assert storages_seen.setdefault(want.storage.key, storage._cdata) == storage._cdata, "sharing lost"
    elif isinstance(want, ref.RefStorage):
        assert torch.is_storage(got) and got.dtype is TORCH_OF_STORAGE[want.type_name]
        exact(got._tensor(), want.data)
        assert storages_seen.setdefault(want.key, got._cdata) == got._cdata, "sharing lost"
    elif isinstance(want, dict):
        assert type(got) is type(want), (type(got), type(want))
        assert list(got) == list(want)
        for k in want:
            assert_matches_reference(got[k], want[k], storages_seen)
    elif isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_matches_reference(g, w, storages_seen)
    else:
        assert type(got) is type(want) and got == want, (got, want)
    if top:
        assert len(set(storages_seen.values())) == len(storages_seen), "two storages of the file became one"


# ---- files written by PyTorch 1.13 ----
@pytest.mark.parametrize("name", ["tensors_zip.pt", "tensors_legacy.pt", "cnn_state_dict.pt", "cnn_io.pt"])
def test_fixture_loads_like_the_reference_reader(name):
    data = fixture_bytes(name)
    want, _, layout = ref.read(data)
    assert layout == ("legacy" if "legacy" in name else "zip")
    path = os.path.join(PT, name)
    assert_matches_reference(torch.load(path), want)
    assert_matches_reference(torch.load(pathlib.Path(path)), want)
    assert_matches_reference(torch.load(io.BytesIO(data)), want)


@pytest.mark.parametrize("name", ["tensors_zip.pt", "tensors_legacy.pt"])
def test_tensor_fixtures_hold_what_gen_pt_wrote(name):
    d = torch.load(os.path.join(PT, name))
    assert list(d) == [
        "float_2x3",
        "double_4",
        "long_5",
        "int32_3",
        "uint8_4",
        "bool_3",
        "int16_2",
        "int8_2",
        "half_3",
        "transposed",
        "shared_base",
        "shared_view",
        "scalar",
        "nested",
    ]
    exact(d["long_5"], np.arange(5, dtype=np.int64))
    exact(d["int32_3"], np.array([1, -2, 3], np.int32))
    exact(d["uint8_4"], np.array([0, 1, 128, 255], np.uint8))
    exact(d["bool_3"], np.array([True, False, True]))
    exact(d["int16_2"], np.array([7, -7], np.int16))
    exact(d["int8_2"], np.array([5, -5], np.int8))
    exact(d["half_3"], np.array([0.5, -1.25, 2.0], np.float16))
    exact(d["shared_base"], np.arange(12, dtype=np.float32).reshape(3, 4))
    exact(d["shared_view"], np.arange(2, 8, dtype=np.float32))
    exact(d["scalar"], np.float32(3.5))
    assert d["scalar"].dim() == 0
    assert d["float_2x3"].dtype is torch.float32 and d["float_2x3"].shape == (2, 3)
    assert d["double_4"].dtype is torch.float64 and d["double_4"].shape == (4,)
    # randn(3, 4).t(): the file keeps the transposed geometry over a 12-element storage
    t = d["transposed"]
    assert t.shape == (4, 3) and t.stride() == (1, 4) and not t.is_contiguous() and len(t.storage()) == 12
    exact(t, t.storage()._tensor().numpy().reshape(3, 4).T)
    nested = d["nested"]
    assert list(nested) == ["list", "tuple"]
    ones, seven, text = nested["list"]
    exact(ones, np.ones(2, np.float32))
    assert seven == 7 and text == "text" and type(nested["tuple"]) is tuple
    assert nested["tuple"][0] == 1.5
    exact(nested["tuple"][1], np.zeros(1, np.float32))


def test_zip_and_legacy_fixtures_agree_bit_for_bit():
    z = torch.load(os.path.join(PT, "tensors_zip.pt"))
    legacy = torch.load(os.path.join(PT, "tensors_legacy.pt"))
    for key in ["float_2x3", "double_4", "transposed"]:
        exact(legacy[key], z[key].numpy())
        assert legacy[key].stride() == z[key].stride()


@pytest.mark.parametrize("name", ["tensors_zip.pt", "tensors_legacy.pt"])
def test_fixture_shared_base_and_view_are_one_storage(name):
    d = torch.load(os.path.join(PT, name))
    base, view = d["shared_base"], d["shared_view"]
    assert same_storage(base, view) and len(base.storage()) == 12
    assert base.storage().data_ptr() == view.storage().data_ptr() == base.data_ptr()
    assert view.storage_offset() == 2 and view.data_ptr() == base.data_ptr() + 2 * 4
    view.narrow(0, 0, 1).fill_(-1)  # element 2 of the storage: row 0, column 2 of base
    assert base.numpy()[0, 2] == -1
    base.select(0, 1).fill_(100)  # storage elements 4..7: view[2:6]
    exact(view, np.array([-1, 3, 100, 100, 100, 100], np.float32))
    # the other tensors have storages of their own
    assert not same_storage(base, d["float_2x3"])


def _numpy_forward(sd, x):
    """The fixture's network in float64: Conv2d(1,4,3,padding=1), BatchNorm2d(4) in eval mode,
    ReLU, MaxPool2d(2), Flatten, Linear(64,10)."""
    p = {k: v.numpy().astype(np.float64) for k, v in sd.items() if v.dtype is torch.float32}
    n, _, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, 4, h, w))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", padded[:, :, i : i + h, j : j + w], p["0.weight"][:, :, i, j])
    y += p["0.bias"][None, :, None, None]
    scale = p["1.weight"] / np.sqrt(p["1.running_var"] + 1e-5)
    y = (y - p["1.running_mean"][None, :, None, None]) * scale[None, :, None, None] + p["1.bias"][None, :, None, None]
    y = np.maximum(y, 0)
    y = y.reshape(n, 4, h // 2, 2, w // 2, 2).max(axis=(3, 5)).reshape(n, -1)
    return y @ p["5.weight"].T + p["5.bias"]


def test_cnn_state_dict_and_io():
    sd = torch.load(os.path.join(PT, "cnn_state_dict.pt"))
    assert type(sd) is OrderedDict
    shapes = [
        ("0.weight", (4, 1, 3, 3)),
        ("0.bias", (4,)),
        ("1.weight", (4,)),
        ("1.bias", (4,)),
        ("1.running_mean", (4,)),
        ("1.running_var", (4,)),
        ("1.num_batches_tracked", ()),
        ("5.weight", (10, 64)),
        ("5.bias", (10,)),
    ]
    assert [(k, tuple(v.shape)) for k, v in sd.items()] == shapes
    steps = sd["1.num_batches_tracked"]
    assert steps.dtype is torch.int64 and steps.dim() == 0 and steps.item() == 1  # one training forward
    assert all(v.dtype is torch.float32 for k, v in sd.items() if k != "1.num_batches_tracked")
    # after one batch the running statistics have moved off their initial 0 and 1
    assert (sd["1.running_mean"].numpy() != 0).all() and (sd["1.running_var"].numpy() != 1).all()

    io_pt = torch.load(os.path.join(PT, "cnn_io.pt"))
    with np.load(os.path.join(PT, "cnn_io.npz")) as npz:
        exact(io_pt["input"], npz["input"])
        exact(io_pt["output"], npz["output"])
        # the loaded weights, run through the network in numpy, give the output PyTorch computed
        np.testing.assert_allclose(
            _numpy_forward(sd, npz["input"].astype(np.float64)), npz["output"], rtol=1e-5, atol=1e-5
        )


# ---- round trips ----
def _save_and_load(obj, layout, dest, tmp_path, **load_args):
    """Saves obj through dest ('str', 'pathlib', 'bytesio', 'file'), loads it back; returns the
    loaded object and the file's bytes."""
    save_args = WRITTEN[layout]
    path = tmp_path / ("obj_%s.pt" % layout)
    if dest == "bytesio":
        buffer = io.BytesIO()
        torch.save(obj, buffer, **save_args)
        data = buffer.getvalue()
        buffer.seek(0)
        loaded = torch.load(buffer, **load_args)
    elif dest == "file":
        with open(path, "wb") as f:
            torch.save(obj, f, **save_args)
        with open(path, "rb") as f:
            loaded = torch.load(f, **load_args)
        data = path.read_bytes()
    else:
        target = str(path) if dest == "str" else path
        torch.save(obj, target, **save_args)
        loaded = torch.load(target, **load_args)
        data = path.read_bytes()
    return loaded, data


def _many_tensors(rng):
    """Tensors of every element type and layout, with the numpy arrays of their values."""
    tensors, arrays = {}, {}
    for dtype in ALL_TYPES:
        for layout in LAYOUTS:
            key = "%s_%s" % (str(dtype).split(".")[1], layout)
            tensors[key], arrays[key] = make_tensor((3, 4), dtype, layout, rng)
        key = "%s_0dim" % str(dtype).split(".")[1]
        arrays[key] = np.asarray(random_array((), dtype, rng))
        tensors[key] = torch.from_numpy(arrays[key].copy())
        key = "%s_empty" % str(dtype).split(".")[1]
        tensors[key], arrays[key] = make_tensor((0, 3), dtype, "contiguous", rng)
    return tensors, arrays


@pytest.mark.parametrize("layout", sorted(WRITTEN))
@pytest.mark.parametrize("dest", ["str", "pathlib", "bytesio", "file"])
def test_round_trip_every_type_and_layout(layout, dest, tmp_path, rng):
    tensors, arrays = _many_tensors(rng)
    loaded, data = _save_and_load(tensors, layout, dest, tmp_path)
    assert list(loaded) == list(tensors)
    for key, t in tensors.items():
        got = loaded[key]
        exact(got, arrays[key])
        # the geometry over the storage survives, and the whole storage comes back
        assert got.stride() == t.stride() and got.storage_offset() == t.storage_offset(), key
        assert len(got.storage()) == len(t.storage())
        assert got.data_ptr() != t.data_ptr()
    # what we wrote is the layout PyTorch reads: the reference reader agrees
    want, _, written = ref.read(data)
    assert written == layout
    assert_matches_reference(loaded, want)


@pytest.mark.parametrize("layout", sorted(WRITTEN))
def test_round_trip_keeps_storage_sharing(layout, tmp_path):
    base = torch.arange(20, dtype=torch.float32)
    other = torch.arange(3)
    obj = {
        "matrix": base.view(4, 5),
        "narrow": base.narrow(0, 3, 10),
        "transposed": base.view(4, 5).t(),
        "storage": base.storage(),
        "again": [base, base],  # the same tensor object twice
        "other": other,
        "other_storage": other.storage(),
    }
    loaded, data = _save_and_load(obj, layout, "bytesio", tmp_path)
    m, n, t, s = loaded["matrix"], loaded["narrow"], loaded["transposed"], loaded["storage"]
    assert same_storage(m, n) and same_storage(m, t) and s._cdata == m.storage()._cdata
    assert isinstance(s, torch.FloatStorage) and len(s) == 20
    assert n.storage_offset() == 3 and n.data_ptr() == m.data_ptr() + 12 and t.stride() == (1, 5)
    assert loaded["again"][0] is loaded["again"][1]
    assert loaded["other_storage"]._cdata == loaded["other"].storage()._cdata
    assert not same_storage(m, loaded["other"])
    assert_matches_reference(loaded, ref.read(data)[0])
    s[4] = -7  # one write, seen by every view
    assert m.numpy()[0, 4] == -7 and n.numpy()[1] == -7 and t.numpy()[4, 0] == -7
    exact(loaded["other"], np.arange(3))
    # a narrow view saved alone still carries its whole storage, as in PyTorch
    alone, _ = _save_and_load(base.narrow(0, 5, 2), layout, "bytesio", tmp_path)
    assert len(alone.storage()) == 20 and alone.storage_offset() == 5
    exact(alone, np.array([5, 6], np.float32))


@pytest.mark.parametrize("layout", sorted(WRITTEN))
@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_round_trip_storages_alone(layout, dtype, tmp_path, rng):
    values, array = make_tensor((7,), dtype, "contiguous", rng)
    storage = values.storage()
    loaded, _ = _save_and_load(storage, layout, "bytesio", tmp_path)
    assert type(loaded) is type(storage) and loaded._cdata != storage._cdata
    exact(loaded._tensor(), array)
    empty, _ = _save_and_load(type(storage)(0), layout, "bytesio", tmp_path)
    assert type(empty) is type(storage) and len(empty) == 0


@pytest.mark.parametrize("layout", sorted(WRITTEN))
def test_round_trip_storage_slices_and_their_tensors(layout, tmp_path):
    root = torch.DoubleStorage([float(i) for i in range(10)])
    part = root[2:7]
    on_part = torch.tensor([], dtype=torch.float64).set_(part, 1, (2, 2), (1, 2))
    loaded, _ = _save_and_load({"root": root, "part": part, "tensor": on_part}, layout, "bytesio", tmp_path)
    assert loaded["root"].tolist() == list(range(10)) and loaded["part"].tolist() == [2, 3, 4, 5, 6]
    t = loaded["tensor"]
    exact(t, np.array([[3, 5], [4, 6]], np.float64))
    # the tensor comes back on the root storage, so a write through it reaches the root
    assert t.storage()._cdata == loaded["root"]._cdata
    t.fill_(-1)
    assert loaded["root"].tolist() == [0, 1, 2, -1, -1, -1, -1, 7, 8, 9]


def test_round_trip_nested_containers_and_plain_values(tmp_path):
    obj = OrderedDict(
        [("b", (1, 2.5, "s", None, True, b"raw")), ("a", {"x": [torch.ones(2, 2), {3}]}), ("size", torch.Size([2, 3]))]
    )
    for layout in WRITTEN:
        loaded, _ = _save_and_load(obj, layout, "bytesio", tmp_path)
        assert type(loaded) is OrderedDict and list(loaded) == ["b", "a", "size"]
        assert loaded["b"] == (1, 2.5, "s", None, True, b"raw")
        exact(loaded["a"]["x"][0], np.ones((2, 2), np.float32))
        assert loaded["a"]["x"][1] == {3}
        assert type(loaded["size"]) is torch.Size and loaded["size"] == (2, 3)


def test_zip_layout_details(tmp_path):
    t = torch.arange(6, dtype=torch.float64)
    _, data = _save_and_load({"t": t, "u": torch.ones(3)}, "zip", "bytesio", tmp_path)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
        assert names[0] == "archive/data.pkl" and "archive/version" in names
        assert archive.read("archive/version") == b"3\n"
        assert archive.read("archive/byteorder") == sys.byteorder.encode()
        assert sorted(n for n in names if n.startswith("archive/data/")) == ["archive/data/0", "archive/data/1"]
        for info in archive.infolist():
            assert info.compress_type == zipfile.ZIP_STORED
            if info.filename.startswith("archive/data/"):
                # records start on 64-byte boundaries so that they can be mapped in place
                local_header = data[info.header_offset : info.header_offset + 30]
                start = (
                    info.header_offset
                    + 30
                    + int.from_bytes(local_header[26:28], "little")
                    + int.from_bytes(local_header[28:30], "little")
                )
                assert start % 64 == 0, (info.filename, start)
        assert archive.read("archive/data/0") == np.arange(6, dtype="<f8").tobytes()


class _ReadOnlyStream:
    """A stream that can only be read forward (a pipe, a socket)."""

    def __init__(self, data):
        self._data = io.BytesIO(data)

    def read(self, n=-1):
        return self._data.read(n)


@pytest.mark.parametrize("layout", sorted(WRITTEN))
def test_files_at_an_offset_and_streams_that_cannot_seek(layout):
    t = torch.arange(5, dtype=torch.int16).view(5, 1).t()
    buffer = io.BytesIO()
    buffer.write(b"header!")
    torch.save({"t": t}, buffer, **WRITTEN[layout])
    buffer.seek(7)
    exact(torch.load(buffer)["t"], np.arange(5, dtype=np.int16).reshape(1, 5))
    data = buffer.getvalue()[7:]
    exact(torch.load(_ReadOnlyStream(data))["t"], np.arange(5, dtype=np.int16).reshape(1, 5))


@st.composite
def _views_of_one_storage(draw):
    """A dtype, a storage length, and views (offset, size, stride) that fit in it."""
    dtype = draw(st.sampled_from(ALL_TYPES))
    length = draw(st.integers(1, 24))
    views = []
    for _ in range(draw(st.integers(1, 4))):
        ndim = draw(st.integers(0, 3))
        size = [draw(st.integers(0, 4)) for _ in range(ndim)]
        stride = [draw(st.integers(0, 6)) for _ in range(ndim)]
        reach = sum((n - 1) * s for n, s in zip(size, stride)) if 0 not in size else 0
        if reach >= length:
            continue
        views.append((draw(st.integers(0, length - 1 - reach)), size, stride))
    return dtype, length, views


@settings(max_examples=40, deadline=None)
@given(case=_views_of_one_storage(), layout=st.sampled_from(sorted(WRITTEN)))
def test_property_views_of_one_storage_round_trip(case, layout):
    dtype, length, views = case
    values = random_array((length,), dtype, np.random.default_rng(length))
    base = torch.from_numpy(values.copy())
    tensors = [base.as_strided(size, stride, offset) for offset, size, stride in views]
    buffer = io.BytesIO()
    torch.save([base.storage()] + tensors, buffer, **WRITTEN[layout])
    storage, *loaded = torch.load(io.BytesIO(buffer.getvalue()))
    assert storage.tolist() == values.tolist()
    for (offset, size, stride), t in zip(views, loaded):
        expected = np.lib.stride_tricks.as_strided(values[offset:], size, [s * values.itemsize for s in stride])
        exact(t, expected)
        assert t.storage()._cdata == storage._cdata and t.storage_offset() == offset and list(t.stride()) == stride


# ---- map_location ----
def _mapped_file(location):
    t = ref.TensorRef(ref.storage_pid("FloatStorage", "0", 4, location), 1, (3,), (1,))
    return ref.write_zip({"t": t}, {"0": ("FloatStorage", np.array([1, 2, 3, 4], np.float32))})


@pytest.mark.parametrize("layout", sorted(WRITTEN))
@pytest.mark.parametrize(
    "map_location",
    [
        None,
        "cpu",
        torch.device("cpu"),
        {"cpu": "cpu"},
        {"cuda:0": "cpu"},
        lambda storage, location: storage,
        lambda storage, location: None,
    ],
)
def test_map_location_forms_keep_tensors_on_the_cpu(layout, map_location, tmp_path):
    base = torch.arange(8, dtype=torch.float32)
    obj = {"a": base.view(2, 4), "b": base.narrow(0, 1, 3)}
    loaded, _ = _save_and_load(obj, layout, "bytesio", tmp_path, map_location=map_location)
    exact(loaded["a"], np.arange(8, dtype=np.float32).reshape(2, 4))
    assert same_storage(loaded["a"], loaded["b"]) and loaded["a"].device == torch.device("cpu")


def test_map_location_callable_sees_each_storage_once_and_may_replace_it():
    seen = []

    def relocate(storage, location):
        seen.append((type(storage).__name__, len(storage), location))
        return storage.clone().fill_(5)

    buffer = io.BytesIO()
    base = torch.arange(6, dtype=torch.float64)
    torch.save([base, base.view(2, 3), torch.ones(2, dtype=torch.int32)], buffer)
    buffer.seek(0)
    a, b, c = torch.load(buffer, map_location=relocate)
    assert seen == [("DoubleStorage", 6, "cpu"), ("IntStorage", 2, "cpu")]
    exact(a, np.full(6, 5.0))
    exact(b, np.full((2, 3), 5.0))
    exact(c, np.full(2, 5, np.int32))
    assert same_storage(a, b)
    with pytest.raises(TypeError, match="map_location"):
        torch.load(io.BytesIO(buffer.getvalue()), map_location=lambda s, loc: "not a storage")
    with pytest.raises(TypeError, match="map_location"):
        torch.load(io.BytesIO(buffer.getvalue()), map_location=3)


def test_cuda_locations_need_a_map_location():
    data = _mapped_file("cuda:0")
    with pytest.raises(RuntimeError, match="map_location"):
        torch.load(io.BytesIO(data))
    with pytest.raises(RuntimeError, match="CUDA"):
        torch.load(io.BytesIO(_mapped_file("cpu")), map_location="cuda:0")
    for where in ["cpu", torch.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s]:
        exact(torch.load(io.BytesIO(data), map_location=where)["t"], np.array([2, 3, 4], np.float32))


# ---- pickle and copy ----
@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_pickle_dumps_loads_copies_tensors(dtype, layout, rng):
    t, n = make_tensor((3, 4), dtype, layout, rng)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(t, protocol=protocol))
        exact(back, n)
        assert back.data_ptr() != t.data_ptr() and back.stride() == t.stride()
    back.zero_()
    exact(t, n)  # a copy: the original is untouched


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_pickle_and_copy_of_storages(dtype, rng):
    t, n = make_tensor((5,), dtype, "contiguous", rng)
    s = t.storage()
    for back in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
        assert type(back) is type(s) and back._cdata != s._cdata
        exact(back._tensor(), n)
        back.fill_(0)
        exact(t, n)


def test_deepcopy_keeps_views_views():
    base = torch.arange(6.0)
    a, b = copy.deepcopy([base.view(2, 3), base.narrow(0, 2, 2)])
    assert same_storage(a, b) and not same_storage(a, base)
    b.fill_(9)
    assert a.numpy()[0, 2] == 9 and base.numpy()[2] == 2


# ---- bad input ----
def _sample_file(layout):
    buffer = io.BytesIO()
    base = torch.arange(12, dtype=torch.float32)
    torch.save(
        {"a": base.view(3, 4), "b": base.narrow(0, 2, 5), "c": torch.ones(3, dtype=torch.int64), "d": [1, "two"]},
        buffer,
        **WRITTEN[layout],
    )
    return buffer.getvalue()


@pytest.mark.parametrize("layout", sorted(WRITTEN))
def test_truncated_files_raise_clear_errors(layout):
    data = _sample_file(layout)
    for cut in range(0, len(data), 7):
        with pytest.raises((RuntimeError, ValueError)):
            torch.load(io.BytesIO(data[:cut]))
    torch.load(io.BytesIO(data))


@pytest.mark.parametrize("layout", sorted(WRITTEN))
def test_corrupt_bytes_never_crash(layout, rng):
    # scripts/fuzz.sh runs many more (PT_FUZZ_CASES per layout)
    data = _sample_file(layout)
    for _ in range(int(os.environ.get("PT_FUZZ_CASES", "300"))):
        corrupt = bytearray(data)
        for position in rng.integers(0, len(data), rng.integers(1, 4)):
            corrupt[position] = int(rng.integers(0, 256))
        try:
            torch.load(io.BytesIO(bytes(corrupt)))
        except (RuntimeError, ValueError, AttributeError, ImportError):
            pass  # a clear error (an unknown global name reads as AttributeError/ImportError, as with pickle)


def test_not_a_torch_file():
    for data in [b"", b"hello world", pickle.dumps({"a": 1}), b"PK\x03\x04garbage"]:
        with pytest.raises(RuntimeError):
            torch.load(io.BytesIO(data))
    with pytest.raises(FileNotFoundError):
        torch.load("/nonexistent/file.pt")


@pytest.mark.parametrize("layout", sorted(WRITTEN))
def test_failed_save_writes_nothing(layout, tmp_path):
    bad = {"t": torch.ones(3), "f": lambda: 0}  # a lambda cannot be pickled
    fresh = tmp_path / "fresh.pt"
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        torch.save(bad, fresh, **WRITTEN[layout])
    assert not fresh.exists()
    existing = tmp_path / "existing.pt"
    torch.save(torch.arange(3), existing)
    before = existing.read_bytes()
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        torch.save(bad, existing, **WRITTEN[layout])
    assert existing.read_bytes() == before
    buffer = io.BytesIO()
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        torch.save(bad, buffer, **WRITTEN[layout])
    assert buffer.getvalue() == b""
    with pytest.raises(AttributeError):
        torch.save(torch.ones(1), 42)


def test_weights_only_refuses_arbitrary_globals():
    buffer = io.BytesIO()
    torch.save({"t": torch.ones(2), "od": OrderedDict(a=1)}, buffer)
    loaded = torch.load(io.BytesIO(buffer.getvalue()), weights_only=True)
    exact(loaded["t"], np.ones(2, np.float32))
    buffer = io.BytesIO()
    torch.save({"t": torch.ones(2), "path": pathlib.PurePosixPath("/x")}, buffer)
    with pytest.raises(pickle.UnpicklingError, match="weights_only"):
        torch.load(io.BytesIO(buffer.getvalue()), weights_only=True)
    assert torch.load(io.BytesIO(buffer.getvalue()))["path"] == pathlib.PurePosixPath("/x")


def test_requires_grad_flag_in_a_file_loads():
    t = ref.TensorRef(ref.storage_pid("FloatStorage", "0", 2), 0, (2,), (1,), requires_grad=True)
    data = ref.write_zip([t], {"0": ("FloatStorage", np.array([1.5, 2.5], np.float32))})
    (loaded,) = torch.load(io.BytesIO(data))
    assert loaded.requires_grad
    exact(loaded.detach(), np.array([1.5, 2.5], np.float32))


def test_geometry_outside_the_storage_is_refused():
    for offset, size, stride in [
        (2, (3,), (1,)),
        (0, (2, 2), (3, 1)),
        (0, (2**40, 2**40), (2**40, 1)),
        (-1, (1,), (1,)),
        (0, (-1,), (1,)),
    ]:
        t = ref.TensorRef(ref.storage_pid("FloatStorage", "0", 4), offset, size, stride)
        data = ref.write_zip([t], {"0": ("FloatStorage", np.zeros(4, np.float32))})
        with pytest.raises(RuntimeError):
            torch.load(io.BytesIO(data))


# ---- the tar layout of PyTorch before 0.4 ----
def _tar_file(little_endian):
    storages = {
        101: ("FloatStorage", np.arange(10, dtype=np.float32) * 1.5),
        102: ("LongStorage", np.array([-(2**40), 7, 2**62], np.int64)),
        103: ("DoubleStorage", np.zeros(0)),
    }
    views = [(104, 101, 2, 5)]  # storage 104 is elements 2..6 of storage 101
    tensors = {
        1: (101, (2, 5), (5, 1), 0),
        2: (101, (5, 2), (1, 5), 0),
        3: (104, (3,), (1,), 1),
        4: (102, (), (), 2),
        5: (103, (0,), (1,), 0),
    }
    obj = {
        "matrix": ref.Persistent("1"),
        "transposed": ref.Persistent("2"),
        "on_view": ref.Persistent("3"),
        "scalar": ref.Persistent("4"),
        "empty": ref.Persistent("5"),
        "storage": ref.Persistent("101"),
        "container_class": ref.Persistent((OrderedDict, None, None)),
        "plain": [1, "x"],
    }
    return ref.write_tar(obj, storages, tensors, views, little_endian)


@pytest.mark.parametrize("little_endian", [True, False])
def test_tar_layout_loads(little_endian, tmp_path):
    data = _tar_file(little_endian)
    assert data[257:262] == b"ustar"
    path = tmp_path / "old.pt"
    path.write_bytes(data)
    for source in (str(path), path, io.BytesIO(data)):
        d = torch.load(source)
        values = np.arange(10, dtype=np.float32) * 1.5
        exact(d["matrix"], values.reshape(2, 5))
        exact(d["transposed"], values.reshape(2, 5).T)
        exact(d["on_view"], values[3:6])
        exact(d["scalar"], np.int64(2**62))
        assert d["scalar"].dim() == 0
        exact(d["empty"], np.zeros(0))
        assert d["container_class"] is OrderedDict and d["plain"] == [1, "x"]
        storage = d["storage"]
        assert isinstance(storage, torch.FloatStorage) and storage.tolist() == values.tolist()
        # the view storage and both tensors are one piece of memory
        m = d["matrix"]
        assert same_storage(m, d["transposed"]) and m.storage()._cdata == storage._cdata
        assert d["on_view"].data_ptr() == m.data_ptr() + 3 * 4
        d["on_view"].fill_(0)
        assert storage.tolist()[2:7] == [3.0, 0.0, 0.0, 0.0, 9.0]


@pytest.mark.parametrize("little_endian", [True, False])
def test_tar_layout_loads_with_weights_only(little_endian):
    # The tar layout names each tensor's class (torch.FloatTensor): a safe global, as the
    # storage classes are (issue 14, finding 6).
    d = torch.load(io.BytesIO(_tar_file(little_endian)), weights_only=True)
    values = np.arange(10, dtype=np.float32) * 1.5
    exact(d["matrix"], values.reshape(2, 5))
    exact(d["transposed"], values.reshape(2, 5).T)
    exact(d["on_view"], values[3:6])
    assert d["container_class"] is OrderedDict and d["plain"] == [1, "x"]
    assert same_storage(d["matrix"], d["transposed"])


def test_tar_layout_with_weights_only_still_refuses_other_globals():
    storages = {1: ("FloatStorage", np.zeros(2, np.float32))}
    for obj in [{"x": ref.Persistent("1"), "bad": _Evil()}, ref.Persistent((_Evil, None, None))]:
        data = ref.write_tar(obj, storages, {}, [])
        with pytest.raises(pickle.UnpicklingError, match="weights_only load refuses the global"):
            torch.load(io.BytesIO(data), weights_only=True)


class _Evil:
    def __reduce__(self):
        return (os.system, ("true",))


def test_truncated_tar_raises():
    data = _tar_file(True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        end = max(m.offset_data + m.size for m in tar.getmembers())  # the zero blocks after it are padding
    for cut in list(range(0, end, 97)) + [end - 1]:
        with pytest.raises((RuntimeError, ValueError)):
            torch.load(io.BytesIO(data[:cut]))


# ---- real PyTorch reads what we write ----
# Run by another interpreter: loads each file named on the command line and writes, beside
# argv[1], the arrays (.npz) and each entry's type and geometry (.json) that it saw.
_LOADER_SCRIPT = r"""
import json, sys
import numpy as np
import torch
arrays, report = {}, {}
for name in sys.argv[2:]:
    obj = torch.load(name)
    entries = {}
    for key, t in obj.items():
        if torch.is_storage(t):
            arrays[name + "/" + key] = np.array(t.tolist(), dtype=str(t.dtype).split(".")[1])
            entries[key] = {"storage": t.data_ptr(), "dtype": str(t.dtype)}
            continue
        arrays[name + "/" + key] = t.numpy()
        entries[key] = {"dtype": str(t.dtype), "shape": list(t.shape), "stride": list(t.stride()),
                        "offset": t.storage_offset(), "storage": t.storage().data_ptr()}
    report[name] = entries
np.savez(sys.argv[1] + ".npz", **arrays)
with open(sys.argv[1] + ".json", "w") as f:
    json.dump({"torch": torch.__file__, "files": report}, f)
"""


def _check_another_loader(python, env, tmp_path, rng):
    """Saves tensors of every type and layout, views of one storage and the storage itself in
    both layouts, has `python` load them, and compares what it saw with what we saved.
    Returns the path of the torch package that loaded them."""
    tensors, _ = _many_tensors(rng)
    base = torch.arange(10, dtype=torch.float64)
    tensors["shared_a"], tensors["shared_b"] = base.view(2, 5), base.narrow(0, 4, 3)
    tensors["storage"] = base.storage()
    names = []
    for layout, args in WRITTEN.items():
        name = str(tmp_path / ("ours_%s.pt" % layout))
        torch.save(tensors, name, **args)
        names.append(name)
    out = str(tmp_path / "seen")
    script = tmp_path / "load_them.py"
    script.write_text(_LOADER_SCRIPT)
    run = subprocess.run([python, str(script), out] + names, capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr
    with open(out + ".json") as f:
        report = json.load(f)
    with np.load(out + ".npz") as seen:
        for name in names:
            entries = report["files"][name]
            assert list(entries) == list(tensors)
            for key, t in tensors.items():
                if torch.is_storage(t):
                    exact(t._tensor(), seen[name + "/" + key])
                    continue
                exact(t, seen[name + "/" + key])
                assert entries[key]["dtype"] == str(t.dtype)
                assert entries[key]["stride"] == list(t.stride()) and entries[key]["offset"] == t.storage_offset()
            shared = {entries[k]["storage"] for k in ("shared_a", "shared_b", "storage")}
            assert len(shared) == 1, "the views came back as separate storages"
    return report["torch"]


def test_real_pytorch_loads_our_files(tmp_path, rng):
    env = require_real_torch_env()
    loader = _check_another_loader("/usr/bin/python3", env, tmp_path, rng)
    assert loader != torch.__file__


def test_the_loader_check_itself_with_our_torch(tmp_path, rng):
    # The harness above, run with this package in a fresh process: it can pass, and it compares.
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(torch.__file__)))
    assert _check_another_loader(sys.executable, env, tmp_path, rng) == torch.__file__
