"""torch.utils.serialization.load_lua / save_lua over legacy/'s .t7 reader and writer,
against files written by the original Lua torch7 (../shared/fixtures/t7, see its README),
numpy recomputations of the stored model outputs, and round trips."""

import io

import numpy as np
import pytest

import torch
from conftest import LAYOUTS, NUMERIC_TYPES, NUMPY_OF, make_tensor
from legacy_helpers import binary, fixture, same_storage, t7_bytes
from torch.legacy import nn as legacy_nn
from torch.utils.serialization import load_lua, save_lua


def rng_streams():
    """rng.txt: torch7's random streams after manualSeed(123), as text (%.17g)."""
    streams = {}
    with open(fixture("rng.txt")) as f:
        for line in f:
            name, *values = line.split()
            streams[name] = np.array([float(v) for v in values])
    return streams


# ---------------------------------------------------------------- tensors.t7


def test_tensors_fixture_values():
    t = load_lua(fixture("tensors.t7"))
    assert isinstance(t, dict)
    assert set(t) == {
        "double_3x4",
        "float_2x3x4",
        "long_123",
        "byte_2x5",
        "transposed_5x3",
        "shared_a",
        "shared_a_narrow",
        "misc",
    }
    # double_3x4 = torch.randn(3, 4) right after manualSeed(123): the first 12 values of rng.txt's normal stream
    d = t["double_3x4"]
    assert d.dtype == torch.float64 and d.shape == (3, 4) and d.is_contiguous()
    np.testing.assert_array_equal(d.numpy().ravel(), rng_streams()["normal"][:12])
    f = t["float_2x3x4"]
    assert f.dtype == torch.float32 and f.shape == (2, 3, 4) and f.is_contiguous()
    assert np.all(np.isfinite(f.numpy())) and f.numpy().std() > 0.3
    assert t["long_123"].dtype == torch.int64
    assert t["long_123"].tolist() == [1, 2, 3]  # contents kept as written
    b = t["byte_2x5"]
    assert b.dtype == torch.uint8
    np.testing.assert_array_equal(b.numpy(), [[0, 1, 2, 127, 128], [200, 250, 253, 254, 255]])


def test_tensors_fixture_layout_and_sharing():
    t = load_lua(fixture("tensors.t7"))
    tr = t["transposed_5x3"]
    assert tr.shape == (5, 3) and tr.stride() == (1, 5) and tr.storage_offset() == 0
    assert not tr.is_contiguous() and len(tr.storage()) == 15
    # the view's values are its storage read with those strides
    np.testing.assert_array_equal(tr.numpy(), np.array(tr.storage().tolist()).reshape(3, 5).T)
    a, n = t["shared_a"], t["shared_a_narrow"]
    assert a.shape == (4, 3) and a.stride() == (3, 1) and len(a.storage()) == 12
    assert n.shape == (2, 3) and n.stride() == (3, 1) and n.storage_offset() == 3  # 4 in Lua (1-based)
    assert same_storage(a, n)
    np.testing.assert_array_equal(n.numpy(), a.numpy()[1:3])
    n[0, 0] = 123.5  # one memory: a write through one view shows in the other
    assert a[1, 0].item() == 123.5


def test_tensors_fixture_misc_table():
    misc = load_lua(fixture("tensors.t7"))["misc"]
    assert misc == {
        "str": "hello t7",
        "num": 3.25,
        "int": 42.0,
        "neg": -7.0,
        "flag": True,
        "off": False,
        "arr": [10.0, 20.0, 30.0],
    }
    assert all(type(misc[k]) is float for k in ("num", "int", "neg"))  # Lua numbers are doubles
    assert type(misc["flag"]) is bool


# ---------------------------------------------------------------- models


def numpy_mlp(mlp, x):
    l1, tanh, l3, lsm = mlp.modules
    assert [m.torch_typename() for m in mlp.modules] == ["nn.Linear", "nn.Tanh", "nn.Linear", "nn.LogSoftMax"]
    h = np.tanh(x @ l1.weight.numpy().T + l1.bias.numpy())
    z = h @ l3.weight.numpy().T + l3.bias.numpy()
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("name", ["mlp.t7", "mlp_ascii.t7"])
def test_mlp_fixture(name):
    mlp = load_lua(fixture(name))
    assert isinstance(mlp, legacy_nn.Sequential) and isinstance(mlp, legacy_nn.Module)
    assert mlp.torch_typename() == "nn.Sequential"
    assert isinstance(mlp.modules, list) and len(mlp.modules) == 4
    assert isinstance(mlp.modules[0], legacy_nn.Linear) and type(mlp.modules[0]) is type(mlp.modules[2])
    l1, l3 = mlp.modules[0], mlp.modules[2]
    assert set(vars(l1)) == {"weight", "bias", "gradWeight", "gradBias", "output", "gradInput", "_type"}
    assert set(vars(mlp.modules[1])) == {"output", "gradInput", "_type"}
    assert l1._type == "torch.DoubleTensor"
    assert l1.weight.shape == (20, 10) and l1.bias.shape == (20,) and l1.weight.dtype == torch.float64
    assert l3.weight.shape == (5, 20) and l3.bias.shape == (5,)
    # nn's default init: uniform in +-1/sqrt(fan_in)
    assert np.abs(l1.weight.numpy()).max() <= 1 / np.sqrt(10) and np.abs(l3.weight.numpy()).max() <= 1 / np.sqrt(20)
    assert not l1.gradWeight.numpy().any() and not l3.gradBias.numpy().any()
    assert l1.output.numel() == 0 and mlp.gradInput.numel() == 0  # torch7's empty tensors

    io_ = load_lua(fixture("mlp_io.t7"))
    np.testing.assert_allclose(numpy_mlp(mlp, io_["input"].numpy()), io_["output"].numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        numpy_mlp(mlp, io_["input_single"].numpy()), io_["output_single"].numpy(), rtol=0, atol=1e-12
    )


def test_mlp_ascii_and_binary_agree():
    a, b = load_lua(fixture("mlp.t7")), load_lua(fixture("mlp_ascii.t7"))
    for ma, mb in zip(a.modules, b.modules):
        assert type(ma) is type(mb)
        for field in ("weight", "bias"):
            if hasattr(ma, field):
                np.testing.assert_array_equal(getattr(ma, field).numpy(), getattr(mb, field).numpy())


def test_mlp_gradients_from_fixture():
    mlp = load_lua(fixture("mlp.t7"))
    io_ = load_lua(fixture("mlp_io.t7"))
    l1, l3 = mlp.modules[0], mlp.modules[2]
    x, go = io_["input"].numpy(), io_["gradOutput"].numpy()
    h = np.tanh(x @ l1.weight.numpy().T + l1.bias.numpy())
    out = io_["output"].numpy()
    gz = go - np.exp(out) * go.sum(axis=1, keepdims=True)  # LogSoftMax backward
    np.testing.assert_allclose(gz.T @ h, io_["gradWeight3"].numpy(), atol=1e-12)
    np.testing.assert_allclose(gz.sum(0), io_["gradBias3"].numpy(), atol=1e-12)
    gh = (gz @ l3.weight.numpy()) * (1 - h * h)
    np.testing.assert_allclose(gh.T @ x, io_["gradWeight1"].numpy(), atol=1e-12)
    np.testing.assert_allclose(gh @ l1.weight.numpy(), io_["gradInput"].numpy(), atol=1e-12)


def numpy_cnn(cnn, x):
    conv, relu, pool, bn, view, lin, lsm = cnn.modules
    w, b = conv.weight.numpy().astype(np.float64), conv.bias.numpy().astype(np.float64)
    n, c, hgt, wid = x.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, w.shape[0], hgt, wid))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i : i + hgt, j : j + wid], w[:, :, i, j])
    y += b[None, :, None, None]
    y = np.maximum(y, 0)
    y = y.reshape(n, y.shape[1], hgt // 2, 2, wid // 2, 2).max(axis=(3, 5))
    rm, rv = bn.running_mean.numpy(), bn.running_var.numpy()
    y = (y - rm[None, :, None, None]) / np.sqrt(rv[None, :, None, None] + bn.eps)
    y = y * bn.weight.numpy()[None, :, None, None] + bn.bias.numpy()[None, :, None, None]
    z = y.reshape(n, -1) @ lin.weight.numpy().T.astype(np.float64) + lin.bias.numpy()
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def test_cnn_fixture():
    cnn = load_lua(fixture("cnn.t7"))
    names = [m.torch_typename() for m in cnn.modules]
    assert names == [
        "nn.SpatialConvolution",
        "nn.ReLU",
        "nn.SpatialMaxPooling",
        "nn.SpatialBatchNormalization",
        "nn.View",
        "nn.Linear",
        "nn.LogSoftMax",
    ]
    conv, pool, bn = cnn.modules[0], cnn.modules[2], cnn.modules[3]
    assert conv.weight.dtype == torch.float32 and conv.weight.shape == (8, 3, 3, 3)
    assert (conv.kW, conv.kH, conv.padW, conv.nInputPlane, conv.nOutputPlane) == (3.0, 3.0, 1.0, 3.0, 8.0)
    assert all(m.train is False for m in cnn.modules[1:])
    assert conv.output.shape == (4, 8, 8, 8) and conv.finput.shape == (4, 27, 64)
    # max-pool indices come back 0-based (torch7 wrote them 1-based; Note [1-based fields])
    assert pool.indices.dtype == torch.int64 and pool.indices.shape == (4, 8, 4, 4)
    # (flat positions in each 8x8 input plane): the pooled outputs are the ReLU outputs there
    relu_out = cnn.modules[1].output.numpy().reshape(4, 8, 64)
    idx = pool.indices.numpy().reshape(4, 8, 16)
    assert idx.min() >= 0 and idx.max() <= 63
    np.testing.assert_array_equal(np.take_along_axis(relu_out, idx, axis=2), pool.output.numpy().reshape(4, 8, 16))
    assert bn.eps == 1e-5 and bn.momentum == 0.1 and bn.affine is True
    io_ = load_lua(fixture("cnn_io.t7"))
    np.testing.assert_array_equal(bn.running_mean.numpy(), io_["bn_running_mean"].numpy())
    np.testing.assert_array_equal(bn.running_var.numpy(), io_["bn_running_var"].numpy())
    np.testing.assert_allclose(numpy_cnn(cnn, io_["input"].numpy()), io_["output"].numpy(), atol=2e-5)


def test_load_from_file_object_and_long_size():
    with open(fixture("mlp.t7"), "rb") as f:
        data = f.read()
    a = load_lua(io.BytesIO(data))
    b = load_lua(fixture("mlp.t7"), long_size=8)
    np.testing.assert_array_equal(a.modules[0].weight.numpy(), b.modules[0].weight.numpy())
    with pytest.raises(ValueError):
        load_lua(fixture("mlp.t7"), long_size=3)


# ---------------------------------------------------------------- save_lua


@pytest.mark.parametrize("dtype", NUMERIC_TYPES + [torch.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("fmt", ["binary", "ascii"])
def test_round_trip_tensors(dtype, layout, fmt, rng, tmp_path):
    t, expected = make_tensor((3, 4), dtype, layout, rng)
    path = tmp_path / "t.t7"
    save_lua({"t": t, "s": t.storage()}, str(path), format=fmt)
    back = load_lua(str(path))
    assert back["t"].dtype == dtype and back["t"].shape == (3, 4)
    np.testing.assert_array_equal(back["t"].numpy(), np.asarray(expected, dtype=NUMPY_OF[dtype]))
    # the view and the storage written once: they come back sharing memory
    assert same_storage(back["t"], back["t"]) and back["s"]._cdata == back["t"].storage()._cdata
    assert back["t"].stride() == t.stride()


def test_round_trip_values_and_sharing(tmp_path):
    base = torch.arange(12, dtype=torch.float64).reshape(4, 3)
    inner = {"x": 1.5}
    obj = {
        "a": base,
        "b": base[1:3],
        "c": base,
        "n": None,
        "s": "text",
        "bytes": b"\xff\x00",
        "flag": False,
        "i": 7,
        "l": [1, "two", [3.0]],
        "tup": (4, 5),
        "t1": inner,
        "t2": inner,
        3: "int key",
        2.5: "float key",
        True: "bool key",
        "np": np.float64(0.25),
        "npi": np.int32(9),
    }
    path = tmp_path / "v.t7"
    save_lua(obj, str(path))
    back = load_lua(str(path))
    assert "n" not in back  # a nil field does not exist in a Lua table
    assert back["s"] == "text" and back["bytes"] == b"\xff\x00" and back["flag"] is False and back["i"] == 7.0
    assert back["l"] == [1.0, "two", [3.0]] and back["tup"] == [4.0, 5.0]
    assert back[3.0] == "int key" and back[2.5] == "float key" and back[True] == "bool key"
    assert back["np"] == 0.25 and back["npi"] == 9.0
    assert back["t1"] is back["t2"]
    assert back["a"] is back["c"]
    assert same_storage(back["a"], back["b"]) and back["b"].storage_offset() == 3
    np.testing.assert_array_equal(back["b"].numpy(), base.numpy()[1:3])


def test_round_trip_model_objects(tmp_path):
    mlp = load_lua(fixture("mlp.t7"))
    path = tmp_path / "mlp.t7"
    save_lua(mlp, str(path))
    back = load_lua(str(path))
    assert type(back) is legacy_nn.Sequential
    assert [type(m) for m in back.modules] == [type(m) for m in mlp.modules]
    for ma, mb in zip(mlp.modules, back.modules):
        assert set(vars(ma)) == set(vars(mb))
        for k, v in vars(ma).items():
            if torch.is_tensor(v):
                assert v.shape == getattr(mb, k).shape
                np.testing.assert_array_equal(v.numpy(), getattr(mb, k).numpy())
            else:
                assert v == getattr(mb, k)
    # the saved bytes are what torch7's reader expects: legacy's reader loads them the same either way
    save_lua(mlp, str(path), format="ascii")
    again = load_lua(str(path))
    np.testing.assert_array_equal(again.modules[2].weight.numpy(), mlp.modules[2].weight.numpy())


def test_cnn_round_trip_keeps_buffers(tmp_path):
    cnn = load_lua(fixture("cnn.t7"))
    save_lua(cnn, str(tmp_path / "cnn.t7"))
    back = load_lua(str(tmp_path / "cnn.t7"))
    np.testing.assert_array_equal(back.modules[2].indices.numpy(), cnn.modules[2].indices.numpy())
    assert back.modules[3].train is False


def test_save_to_file_object():
    buf = io.BytesIO()
    save_lua([1.0, 2.0], buf)
    assert load_lua(io.BytesIO(buf.getvalue())) == [1.0, 2.0]


def test_save_errors(tmp_path):
    path = tmp_path / "bad.t7"
    with pytest.raises(TypeError):
        save_lua({"f": object()}, str(path))
    with pytest.raises(TypeError):
        save_lua({(1, 2): 1.0}, str(path))
    with pytest.raises(ValueError):
        save_lua(2**60 + 1, str(path))
    with pytest.raises(ValueError):
        save_lua(1.0, str(path), format="json")
    with pytest.raises(TypeError):
        save_lua(legacy_nn.class_for("nn.Foo")(weight=torch.zeros(2), f=print), str(path))
    # types torch7 lacks would be written as another type's bits
    for dtype in (torch.bfloat16, torch.complex64):
        with pytest.raises(TypeError, match="torch7 has no"):
            save_lua({"t": torch.ones(2, dtype=dtype)}, str(path))
        with pytest.raises(TypeError, match="torch7 has no"):
            save_lua(torch.ones(2, dtype=dtype).storage(), str(path))
    assert not path.exists()  # nothing written when the value cannot be saved


def test_cycles_round_trip():
    loop = [1.0]
    loop.append(loop)
    back = load_lua(io.BytesIO(t7_bytes(loop)))
    assert back[0] == 1.0 and back[1] is back
    parent = legacy_nn.class_for("nn.Sequential")(modules=[])
    child = legacy_nn.class_for("nn.Linear")(weight=torch.ones(2, 2), parent=parent)
    parent.modules.append(child)
    back = load_lua(io.BytesIO(t7_bytes({"net": parent, "again": child})))
    assert back["net"].modules[0] is back["again"] and back["again"].parent is back["net"]
    assert back["again"].weight.tolist() == [[1.0, 1.0], [1.0, 1.0]]


# ---------------------------------------------------------------- corrupt input


def test_truncated_files_raise(tmp_path):
    with open(fixture("mlp.t7"), "rb") as f:
        data = f.read()
    for cut in [0, 1, 3, 4, 10, 50, len(data) // 2, len(data) - 1]:
        with pytest.raises(RuntimeError, match="byte"):
            load_lua(io.BytesIO(data[:cut]))


def test_mutated_files_never_crash():
    rng = np.random.default_rng(7)
    sources = []
    for name in ("tensors.t7", "mlp.t7", "mlp_ascii.t7"):
        with open(fixture(name), "rb") as f:
            sources.append(f.read())
    for i in range(300):
        data = bytearray(sources[i % len(sources)])
        for _ in range(rng.integers(1, 4)):
            data[rng.integers(0, len(data))] = rng.integers(0, 256)
        try:
            load_lua(io.BytesIO(bytes(data)))
        except (RuntimeError, MemoryError):
            pass


def test_missing_file():
    with pytest.raises(OSError):
        load_lua("/nonexistent/file.t7")


def test_long_size_four_detected(tmp_path):
    t = torch.arange(6, dtype=torch.int64).reshape(2, 3)
    path = tmp_path / "win.t7"
    save_lua({"t": t, "s": "x"}, str(path), long_size=4)
    with open(path, "rb") as f:
        data4 = f.read()
    data8 = t7_bytes({"t": t, "s": "x"})
    assert len(data4) < len(data8)  # sizes, strides, offset and the LongStorage's elements in 4 bytes
    for back in (load_lua(str(path)), load_lua(str(path), long_size=4)):
        assert back["t"].tolist() == t.tolist() and back["s"] == "x"


def test_special_tensors_round_trip():
    b = torch.tensor([True, False, True])
    back = load_lua(io.BytesIO(t7_bytes([b, torch.tensor(2.5), torch.zeros(0)])))
    assert back[0].dtype == torch.uint8 and back[0].tolist() == [1, 0, 1]  # torch7 has no bool tensors
    assert back[1].shape == (1,) and back[1].item() == 2.5  # torch7 has no 0-dim tensors
    assert back[2].numel() == 0


def test_hand_written_table_with_cycle():
    # t = {1, 'a', t}: table #1 of 3 entries whose third value refers back to table #1
    data = binary(3, 1, 3, 1, 1.0, 1, 1.0, 1, 2.0, 2, 1, b"a", 1, 3.0, 3, 1)
    back = load_lua(io.BytesIO(data))
    assert isinstance(back, list) and back[:2] == [1.0, "a"] and back[2] is back
    # tables whose keys are not exactly 1..n are dicts
    back = load_lua(io.BytesIO(binary(3, 1, 2, 1, 1.0, 5, 1, 1, 3.0, 5, 0)))
    assert back == {1.0: True, 3.0: False}
    with pytest.raises(RuntimeError, match="byte"):
        load_lua(io.BytesIO(binary(3, 1, 2, 1, 1.0, 5, 1)))  # second entry missing
    with pytest.raises(RuntimeError):
        load_lua(io.BytesIO(binary(99)))  # unknown type tag


def test_hand_written_object_referring_to_itself():
    # an nn.Foo object #1 whose content table #2 has field self = object #1 (a module pointing at itself)
    data = binary(4, 1, 3, b"V 1", 6, b"nn.Foo", 3, 2, 2, 2, 4, b"self", 4, 1, 2, 4, b"size", 1, 2.0)
    foo = load_lua(io.BytesIO(data))
    assert foo.torch_typename() == "nn.Foo" and isinstance(foo, legacy_nn.Module)
    assert foo.self is foo and foo.size == 2.0
    assert type(foo) is legacy_nn.class_for("nn.Foo")


@pytest.mark.parametrize("name", ["tensors.t7", "mlp.t7", "mlp_ascii.t7", "mlp_io.t7", "cnn.t7", "cnn_io.t7", "rng.t7"])
def test_fixtures_save_back_byte_for_byte(name):
    # load_lua keeps the file's entry order (dicts and object fields), numbers as doubles and
    # sharing; torch7 wrote arrays in key order: so save_lua writes what torch7 wrote
    with open(fixture(name), "rb") as f:
        original = f.read()
    buf = io.BytesIO()
    save_lua(load_lua(io.BytesIO(original)), buf, format="ascii" if "ascii" in name else "binary")
    assert buf.getvalue() == original


def test_lua_functions_kept_opaque():
    # a function (tag 8, reference #1): 4 bytes of bytecode, then its upvalues, an empty table #2
    data = binary(8, 1, 4, b"\x1bLJ\x02", 3, 2, 0)
    f = load_lua(io.BytesIO(data))
    assert isinstance(f, torch._C._t7_Function) and f.bytecode == b"\x1bLJ\x02" and f.tag == 8
    assert t7_bytes(f) == data
    back = load_lua(io.BytesIO(t7_bytes({"f": f, "g": f})))
    assert back["f"] is back["g"] and back["f"].bytecode == f.bytecode


def test_old_batch_norm_running_std_becomes_running_var():
    var = np.array([0.5, 2.0, 1.25])
    eps = 1e-3
    old = legacy_nn.class_for("nn.SpatialBatchNormalization")(
        running_mean=torch.zeros(3, dtype=torch.float64), eps=eps, running_std=torch.from_numpy(1 / np.sqrt(var + eps))
    )
    bn = load_lua(io.BytesIO(t7_bytes(old)))
    assert "running_std" not in vars(bn)
    np.testing.assert_allclose(bn.running_var.numpy(), var, rtol=1e-12)
    # a current file is left alone
    cnn = load_lua(fixture("cnn.t7"))
    assert "running_std" not in vars(cnn.modules[3]) and cnn.modules[3].running_var.shape == (8,)


# Note [Refusing functions] in t7/t7.h: a .t7 file that holds a Lua function, written by
# hand from the format: {f = <function>, n = 3} as torch7 writes it (type tags: 1 number,
# 2 string, 3 table, 6 a function written in full, 8 a referenced function; the function's
# bytecode, then its upvalues as a table).
def _with_function(tag):
    head = binary(3, 1, 2, 2, 1, b"n", 1, 3.0, 2, 1, b"f")  # table #1 of 2 entries: n = 3, then "f"
    bytecode = b"\x1bLJ\x02\x0a"
    record = binary(tag) + (binary(2) if tag == 8 else b"") + binary(len(bytecode), bytecode, 3, 3, 0)
    return head, head + record


@pytest.mark.parametrize("tag", [6, 8])
def test_allow_functions_false_refuses_a_file_with_functions(tag):
    head, data = _with_function(tag)
    loaded = load_lua(io.BytesIO(data))
    assert loaded["n"] == 3.0 and isinstance(loaded["f"], torch._C._t7_Function)
    assert loaded["f"].bytecode == b"\x1bLJ\x02\x0a"
    with pytest.raises(RuntimeError) as e:
        load_lua(io.BytesIO(data), allow_functions=False)
    message = str(e.value)
    assert "a Lua function at byte %d" % len(head) in message, message
    assert "functions are refused" in message, message


def test_allow_functions_false_reads_data_files_alike():
    for name in ("tensors.t7", "mlp.t7", "mlp_ascii.t7"):
        with open(fixture(name), "rb") as f:
            data = f.read()
        a = load_lua(io.BytesIO(data))
        b = load_lua(io.BytesIO(data), allow_functions=False)
        assert t7_bytes(a) == t7_bytes(b), name


def test_allow_functions_takes_a_bool():
    with pytest.raises(ValueError, match="allow_functions must be True or False"):
        load_lua(io.BytesIO(binary(0)), allow_functions="no")
