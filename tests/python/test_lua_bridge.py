"""torch.lua, the in-process Lua bridge: tensors cross as views of one memory (writes seen on
both sides, geometry kept, memory alive while either side holds it), plain values round trip,
Lua errors become LuaError with the traceback, indices are shifted only where asked, and
torch7's own files read through the Lua side equal load_lua's."""

import ctypes
import gc
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch
from conftest import NUMPY_OF, fixtures_dir, make_tensor

import torch.lua as tl  # scripts/build.sh builds the bridge: where it is missing, the suite fails

T7 = os.path.join(fixtures_dir(), "t7")
BRIDGED_TYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64]
LUA_NAME = {
    torch.uint8: "Byte",
    torch.int8: "Char",
    torch.int16: "Short",
    torch.int32: "Int",
    torch.int64: "Long",
    torch.float32: "Float",
    torch.float64: "Double",
}
CTYPE = {
    torch.uint8: ctypes.c_uint8,
    torch.int8: ctypes.c_int8,
    torch.int16: ctypes.c_int16,
    torch.int32: ctypes.c_int32,
    torch.int64: ctypes.c_int64,
    torch.float32: ctypes.c_float,
    torch.float64: ctypes.c_double,
}


@pytest.fixture(scope="module")
def rt():
    return tl.Runtime()


def fixture(name):
    path = os.path.join(T7, name)
    if not os.path.exists(path):
        pytest.fail("fixture %s missing" % path)
    return path


def at_address(dtype, address):
    """The element at a raw address, read without going through either binding."""
    return CTYPE[dtype].from_address(address).value


# ---------------------------------------------------------------- tensors: one memory

FILL_2D = """function(t)
  for i = 1, t:size(1) do
    for j = 1, t:size(2) do t[{i, j}] = (i * 7 + j * 3) % 100 end
  end
  return t
end"""


@pytest.mark.parametrize("dtype", BRIDGED_TYPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_lua_writes_into_a_python_tensor(rt, rng, dtype, layout):
    x, _ = make_tensor((3, 4), dtype, layout, rng)
    base = x.storage().tolist()
    ret = rt.eval(FILL_2D)(x)
    i, j = np.meshgrid(np.arange(1, 4), np.arange(1, 5), indexing="ij")
    expected = ((i * 7 + j * 3) % 100).astype(NUMPY_OF[dtype])
    np.testing.assert_array_equal(x.numpy(), expected)
    # only the view's elements of the storage changed
    touched = {x.storage_offset() + a * x.stride(0) + b * x.stride(1) for a in range(3) for b in range(4)}
    after = x.storage().tolist()
    assert [after[k] for k in range(len(base)) if k not in touched] == [
        base[k] for k in range(len(base)) if k not in touched
    ]
    # the returned tensor is the same memory with the same geometry
    assert ret.data_ptr() == x.data_ptr() and ret.stride() == x.stride() and ret.shape == x.shape
    assert ret.storage()._cdata == x.storage()._cdata
    assert at_address(dtype, x.data_ptr() + (2 * x.stride(0) + 3 * x.stride(1)) * x.element_size()) == expected[2, 3]


@pytest.mark.parametrize("dtype", BRIDGED_TYPES)
def test_python_writes_into_a_lua_tensor(dtype):
    rt = tl.Runtime()
    rt.execute("T = torch.%sTensor(3, 4):fill(1)" % LUA_NAME[dtype])
    y = rt["T"]
    assert y.dtype == dtype and y.shape == (3, 4) and y.stride() == (4, 1)
    assert y.storage()._cdata == rt.eval("T:storage():cdata()")
    y[1, 2] = 42
    y[2].fill_(5)
    assert rt.eval("T[{2, 3}]") == 42
    assert rt.eval("T[{3, 1}], T[{3, 4}], T[{1, 1}]") == (5, 5, 1)
    assert at_address(dtype, y.data_ptr() + (1 * 4 + 2) * y.element_size()) == 42
    # a second crossing of the same Lua tensor is the same memory again
    assert rt["T"].data_ptr() == y.data_ptr()


def test_python_tensor_geometry_seen_from_lua(rt, rng):
    geometry = rt.eval("function(t) return t:size():totable(), t:stride():totable(), t:storageOffset() end")
    for layout in ["contiguous", "transposed", "strided", "expanded"]:
        x, ref = make_tensor((2, 3, 4), torch.float64, layout, rng)
        x = x.narrow(2, 1, 3)
        sizes, strides, offset = geometry(x)
        assert tl.to_python(sizes) == list(x.shape) and tl.to_python(strides) == list(x.stride())
        assert offset == x.storage_offset() + 1  # torch7's storage offsets are 1-based
        assert (
            rt.eval("function(t) return t[{2, 3, 1}] end")(x) == ref[1, 2, 1]
        )  # narrowed: element 0 of dim 2 is ref's 1


def test_lua_views_keep_their_geometry(rt):
    rt.execute("B = torch.range(1, 24):resize(4, 6)")
    base = np.arange(1, 25, dtype=np.float64).reshape(4, 6)
    t, n, s, u = rt.eval("B:t(), B:narrow(1, 2, 2), B:select(2, 3), B:narrow(2, 2, 4):unfold(2, 2, 2)")
    assert t.stride() == (1, 6) and t.storage_offset() == 0
    np.testing.assert_array_equal(t.numpy(), base.T)
    assert n.stride() == (6, 1) and n.storage_offset() == 6
    np.testing.assert_array_equal(n.numpy(), base[1:3])
    assert s.shape == (4,) and s.stride() == (6,) and s.storage_offset() == 2
    np.testing.assert_array_equal(s.numpy(), base[:, 2])
    assert u.shape == (4, 2, 2) and u.stride() == (6, 2, 1) and u.storage_offset() == 1
    np.testing.assert_array_equal(u.numpy(), base[:, 1:5].reshape(4, 2, 2))
    for v in (t, n, s, u):
        assert v.storage()._cdata == t.storage()._cdata
    n[0, 0] = -1  # one storage behind every view, on both sides
    assert t[0, 1].item() == -1 and rt.eval("B[{2, 1}]") == -1


def test_round_trip_of_a_view_is_the_same_view(rt, rng):
    same = rt.eval("function(t) return t end")
    for dtype in BRIDGED_TYPES:
        for layout in ["contiguous", "transposed", "strided", "expanded"]:
            x, _ = make_tensor((3, 5), dtype, layout, rng)
            y = same(x)
            assert (y.dtype, y.shape, y.stride(), y.storage_offset(), y.data_ptr()) == (
                x.dtype,
                x.shape,
                x.stride(),
                x.storage_offset(),
                x.data_ptr(),
            )


def test_bool_scalar_and_half_tensors(rt):
    b = torch.tensor([True, False, True])
    out = rt.eval("function(t) t[2] = 1; return torch.typename(t) end")(b)
    assert out == "torch.ByteTensor" and b.tolist() == [True, True, True]
    s = torch.tensor(2.5)  # torch7 has no 0-d tensors: a 1-element 1-d view
    assert rt.eval("function(t) t[1] = t[1] * 2; return t:nDimension(), t:size(1) end")(s) == (1, 1)
    assert s.item() == 5.0
    assert rt.eval("torch.Tensor()").shape == (0,)
    with pytest.raises(TypeError, match="float16"):
        rt.eval("function(t) return t end")(torch.zeros(2, dtype=torch.float16))
    # bfloat16 sits in a Half storage here (Note [BFloat16 on Half's storage]): it must not
    # reach Lua as one
    with pytest.raises(TypeError, match="bfloat16"):
        rt.eval("function(t) return t end")(torch.zeros(2, dtype=torch.bfloat16))


def test_storages_cross_both_ways(rt):
    s = torch.FloatStorage([1, 2, 3])
    assert rt.eval("function(s) s[2] = 20; return torch.typename(s), s:size() end")(s) == ("torch.FloatStorage", 3)
    assert s.tolist() == [1, 20, 3]
    ls = rt.eval("torch.LongStorage(4):fill(9)")
    assert isinstance(ls, torch.LongStorage) and ls.tolist() == [9] * 4
    ls[0] = 1
    rt["S"] = ls
    assert rt.eval("S[1]") == 1


# ---------------------------------------------------------------- lifetime


def test_tensor_outlives_its_runtime():
    rt = tl.Runtime()
    y = rt.eval("torch.range(1, 1000)")
    v = rt.eval("torch.Tensor(5):fill(3):narrow(1, 2, 3)")
    del rt
    gc.collect()
    np.testing.assert_array_equal(y.numpy(), np.arange(1, 1001))
    y.mul_(2)
    assert y[-1].item() == 2000 and v.tolist() == [3, 3, 3]


def test_python_tensor_kept_by_lua_outlives_python_reference():
    rt = tl.Runtime()
    x = torch.arange(6, dtype=torch.float64)
    rt["X"] = x
    del x
    gc.collect()
    assert rt.eval("X:sum()") == 15
    rt.execute("X = nil; collectgarbage()")


def storage_refcount(t):
    """The TH storage's reference count, read from its plain struct (data, size, refcount)."""
    return ctypes.c_int.from_address(t.storage()._cdata + 2 * ctypes.sizeof(ctypes.c_void_p)).value


def test_each_side_holds_and_drops_its_own_reference():
    rt = tl.Runtime()
    x = torch.zeros(4)
    before = storage_refcount(x)
    rt["X"] = x
    assert storage_refcount(x) == before + 1  # the Lua tensor's reference
    rt.execute("X = nil; collectgarbage(); collectgarbage()")
    assert storage_refcount(x) == before
    rt.execute("Y = torch.zeros(3)")
    y = rt["Y"]
    assert storage_refcount(y) == 2  # Lua's tensor and Python's view
    rt.execute("Y = nil; collectgarbage(); collectgarbage()")
    assert storage_refcount(y) == 1


def test_proxy_keeps_its_state_alive():
    rt = tl.Runtime()
    f = rt.eval("function(a) return a + 1 end")
    del rt
    gc.collect()
    assert f(1) == 2


# ---------------------------------------------------------------- plain values

# Lua tables cannot hold nil, so None appears only outside containers
plain = st.recursive(
    st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, min_size=1, max_size=4)
        | st.dictionaries(st.text(min_size=1), children, min_size=1, max_size=4)
    ),
    max_leaves=10,
)


@settings(max_examples=50, deadline=None)
@given(st.none() | plain)
def test_plain_values_round_trip(value):
    rt = _shared_runtime()
    out = tl.to_python(rt.eval("function(v) return v end")(value))
    assert out == value
    assert type(out) is type(value) or isinstance(value, (int, float))


_RT = []


def _shared_runtime():
    if not _RT:
        _RT.append(tl.Runtime())
    return _RT[0]


def test_numbers_strings_and_tables(rt):
    assert rt.eval("1 + 2") == 3 and type(rt.eval("1 + 2")) is int
    assert rt.eval("1 / 4") == 0.25 and type(rt.eval("2.5")) is float
    assert rt.eval("'h\\195\\169'") == "h\u00e9" and rt.eval("'\\255'") == b"\xff"
    assert rt.eval("function(s) return #s end")("h\u00e9") == 3  # UTF-8 bytes
    assert rt.eval("function(b) return b end")(b"\x00\xff") == b"\x00\xff"
    assert rt.eval("true, false, nil") == (True, False, None)
    with pytest.raises(ValueError, match="exact"):
        rt.eval("function(v) return v end")(2**53 + 1)
    shared = [1, 2]
    t = rt.eval("function(t) return t end")({"a": shared, "b": shared, 3: "three"})
    assert rt.eval("function(t) return rawequal(t.a, t.b), t[3] end")(t) == (True, "three")


def test_table_proxies(rt):
    t = rt.eval("{10, 20, 30, name = 'x'}")
    assert isinstance(t, tl.LuaObject) and tl.typename(t) == "table"
    assert len(t) == 3 and t[1] == 10 and t["name"] == "x" and t.name == "x" and t[7] is None
    assert sorted(map(str, t)) == ["1", "2", "3", "name"]
    assert "name" in t and "other" not in t
    t[4] = [1, {"k": True}]
    t.name = "y"
    assert rt.eval("function(t) return #t, t[4][2].k, t.name end")(t) == (4, True, "y")
    assert tl.to_python(t) == {1: 10, 2: 20, 3: 30, 4: [1, {"k": True}], "name": "y"}
    with pytest.raises(AttributeError):
        t.missing
    same = rt.eval("function(t) return t end")(t)
    assert same == t and hash(same) == hash(t) and t != rt.eval("{}")
    assert repr(t).startswith("<Lua table: 0x")
    cyclic = rt.eval("(function() local c = {1}; c[2] = c; return c end)()")
    plain_cycle = tl.to_python(cyclic)
    assert plain_cycle[0] == 1 and plain_cycle[1] is plain_cycle


def test_multiple_returns(rt):
    f = rt.eval("function(a, b) return b, a, a + b end")
    assert f(1, 2) == (2, 1, 3)
    assert rt.eval("function() end")() is None
    assert rt.eval("function() return nil, 5 end")() == (None, 5)
    assert rt.execute("local a = 1") is None and rt.execute("return 'x', 4") == ("x", 4)


def test_globals_and_independent_runtimes():
    a, b = tl.Runtime(), tl.Runtime()
    a["shared"] = 5
    assert a["shared"] == 5 and b["shared"] is None and a.globals.shared == 5
    a.globals.other = "o"
    assert a.eval("other") == "o"
    with pytest.raises(ValueError, match="another Runtime"):
        b.eval("function(t) return t end")(a.eval("{}"))


def test_function_defined_with_execute(rt):
    rt.execute("""
function scaled_sum(t, k)
  local s = 0
  for i = 1, t:size(1) do s = s + t[i] * k end
  return s, t:size(1)
end""")
    x = torch.arange(5, dtype=torch.float32)
    assert rt["scaled_sum"](x, 3) == (30, 5)
    assert rt.globals.scaled_sum(x, 0.5) == (5, 5)


def test_methods_bind_self():
    rt = tl.Runtime()
    rt.execute("""
local Counter = torch.class('Counter')
function Counter:__init(n) self.n = n; self.plain = function(a) return a end end
function Counter:add(k) self.n = self.n + k; return self end""")
    c = rt.eval("Counter(5)")
    assert tl.typename(c) == "Counter" and repr(c) == "<Lua Counter>"
    assert c.add(2) == c and c.n == 7  # c:add(2) returns c itself, the same Lua object
    assert c["add"](c, 1) == c and c.n == 8  # item access: the raw (unbound) function
    assert c.plain("p") == "p"  # a function in the object's own table is not a method
    c.n = 0
    assert rt.eval("function(c) return c.n end")(c) == 0
    assert rt.globals.torch.typename(c) == "Counter"  # torch's functions are plain fields
    with pytest.raises(TypeError, match="bound"):
        rt.eval("function(f) return f end")(c.add)


def test_python_functions_called_from_lua(rt):
    # an optim-style loop in Lua driving a Python closure: f(x) = |x - 3|^2, gradient 2(x - 3)
    calls = []

    def feval(x):
        calls.append(x.data_ptr())
        return float(((x - 3) ** 2).sum()), 2 * (x - 3)

    descend = rt.eval("""function(feval, x, lr, steps)
  for i = 1, steps do
    local fx, dfdx = feval(x)
    x:add(-lr, dfdx)
  end
  return type(feval), x
end""")
    x = torch.zeros(4, dtype=torch.float64)
    kind, out = descend(feval, x, 0.25, 30)
    assert kind == "function" and out.data_ptr() == x.data_ptr()
    np.testing.assert_allclose(x.numpy(), 3 - 3 * 0.5**30)
    assert set(calls) == {x.data_ptr()}  # Python saw Lua's argument as a view of x, every time
    assert rt.eval("function(f) return f() end")(lambda: None) is None
    assert rt.eval("function(f) return select('#', f()) end")(lambda: (1, None, 3)) == 3
    nested = rt.eval("function(f) return f(10) end")(lambda k: rt.eval("function(a) return a * 2 end")(k) + 1)
    assert nested == 21


def test_python_errors_inside_lua_become_lua_errors(rt):
    with pytest.raises(tl.LuaError) as info:
        rt.eval("function(f) local ok = f(0) end")(lambda v: 1 / v)
    assert "ZeroDivisionError" in str(info.value) and "stack traceback" in str(info.value)
    caught = rt.eval("function(f) local ok, err = pcall(f); return ok, err end")(lambda: [][1])
    assert caught[0] is False and "IndexError" in caught[1]


# ---------------------------------------------------------------- errors


def test_lua_errors_carry_the_traceback(rt):
    rt.execute("""
local function inner(x) error('inner failed with ' .. x) end
function outer(x) inner(x) end""")
    with pytest.raises(tl.LuaError) as info:
        rt["outer"](7)
    msg = str(info.value)
    assert "inner failed with 7" in msg and "stack traceback" in msg
    assert "in function 'inner'" in msg and "execute:2" in msg and "execute:3" in msg
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(tl.LuaError, match="attempt to call"):
        rt.eval("function() local f; f() end")()
    with pytest.raises(tl.LuaError, match="expected"):
        rt.eval("1 +")
    with pytest.raises(tl.LuaError, match="table error"):
        rt.execute("error(setmetatable({}, {__tostring = function() return 'table error' end}))")
    assert rt.eval("1 + 1") == 2  # the state is usable after errors


def test_errors_leave_inputs_unchanged(rt):
    x = torch.ones(2, 3)
    with pytest.raises(tl.LuaError):
        rt.eval("function(a, b) a:cmul(b) end")(x, torch.ones(4))  # sizes do not match
    assert x.tolist() == [[1] * 3] * 2
    with pytest.raises(TypeError, match="object"):
        rt.eval("function(a, b) a:fill(0) end")(x, object())  # rejected before Lua runs
    assert x.tolist() == [[1] * 3] * 2
    with pytest.raises(TypeError, match="keyword"):
        rt.eval("function() end")(a=1)


# ---------------------------------------------------------------- indices


def test_indices_stay_as_they_are_unless_asked(rt, rng):
    x = torch.from_numpy(rng.permutation(12).astype(np.float64).reshape(3, 4))
    raw_values, raw_idx = rt.eval("torch.max")(x, 2)  # Lua's dimension 2, Lua's 1-based indices
    np.testing.assert_array_equal(raw_idx.numpy().ravel(), x.numpy().argmax(1) + 1)
    lua_max = tl.indexed(rt.eval("torch.max"), args=(1,), results=(1,))
    for dim in (0, 1):
        values, idx = lua_max(x, dim)
        np.testing.assert_array_equal(idx.numpy().ravel(), x.numpy().argmax(dim))
        np.testing.assert_array_equal(values.numpy().ravel(), x.numpy().max(dim))
    sort = tl.indexed(rt.eval("function(t, d) S, I = torch.sort(t, d); return S, I end"), args=(1,), results=(1,))
    _, order = sort(x, 1)
    np.testing.assert_array_equal(order.numpy(), np.argsort(x.numpy(), axis=1))
    # Lua's memory keeps its own convention: the indices tensor Lua holds is still 1-based
    np.testing.assert_array_equal(rt["I"].numpy(), np.argsort(x.numpy(), axis=1) + 1)


def test_index_arguments_shifted_into_lua(rt):
    x = torch.arange(10, dtype=torch.float64).reshape(5, 2)
    idx = torch.tensor([4, 0, 2])
    select = tl.indexed(rt.eval("function(t, d, i) return t:indexSelect(d, i) end"), args=(1, 2))
    np.testing.assert_array_equal(select(x, 0, idx).numpy(), x.numpy()[[4, 0, 2]])
    assert idx.tolist() == [4, 0, 2]  # the caller's index tensor is not shifted in place
    assert tl.to_lua_index([0, torch.tensor([1])])[1].tolist() == [2] and tl.from_lua_index(3) == 2
    with pytest.raises(TypeError, match="integer tensor"):
        tl.to_lua_index(torch.zeros(2))


# ---------------------------------------------------------------- torch7 files through the Lua side


def test_tensors_fixture_through_lua_equals_load_lua(rt):
    from torch.utils.serialization import load_lua

    path = fixture("tensors.t7")
    via_lua = rt.eval("function(p) return torch.load(p) end")(path)
    reference = load_lua(path)
    assert tl.typename(via_lua) == "table"
    for key, ref in reference.items():
        got = via_lua[key]
        if isinstance(ref, torch.Tensor):
            assert got.dtype == ref.dtype and got.shape == ref.shape and got.stride() == ref.stride()
            assert got.storage_offset() == ref.storage_offset()
            np.testing.assert_array_equal(got.numpy(), ref.numpy())
    assert tl.to_python(via_lua["misc"]) == reference["misc"]
    a, n = via_lua["shared_a"], via_lua["shared_a_narrow"]
    assert a.storage()._cdata == n.storage()._cdata  # one Lua storage, seen once from Python


def test_lua_optim_steps_a_python_tensor_with_a_python_closure(rng):
    rt = tl.Runtime()
    optim = rt.require("optim")
    a, b = rng.standard_normal((5, 3)), rng.standard_normal(5)
    A, B = torch.from_numpy(a), torch.from_numpy(b)

    def feval(x):  # f(x) = |Ax - b|^2 / 2
        r = A @ x - B
        return float(r @ r) / 2, A.t() @ r

    x = torch.zeros(3, dtype=torch.float64)
    config = rt.eval("{learningRate = 0.05, momentum = 0.9}")  # a Lua table: optim keeps its state there
    ref, v = np.zeros(3), None
    for step in range(20):
        new_x, fs = optim.sgd(feval, x, config)
        assert new_x.data_ptr() == x.data_ptr()  # updated in place, in Python's memory
        g = a.T @ (a @ ref - b)
        v = g if v is None else 0.9 * v + 0.1 * g  # torch7's sgd: dampening defaults to the momentum
        ref = ref - 0.05 * v
    np.testing.assert_allclose(x.numpy(), ref, rtol=1e-12, atol=1e-12)
    assert config.evalCounter == 20 and len(fs) == 1


def _nn_runtime():
    rt = tl.Runtime()
    rt.require("nn")
    return rt


@pytest.mark.parametrize("model, io, batch", [("mlp.t7", "mlp_io.t7", "input"), ("cnn.t7", "cnn_io.t7", "input")])
def test_fixture_models_through_the_bridge(model, io, batch):
    from torch.utils.serialization import load_lua

    rt = _nn_runtime()
    net = rt.eval("function(p) return torch.load(p) end")(fixture(model))
    data = load_lua(fixture(io))
    assert tl.typename(net) == "nn.Sequential"
    out = net.forward(data[batch])
    np.testing.assert_allclose(out.numpy(), data["output"].numpy(), rtol=1e-5, atol=1e-6)


def test_load_requires_the_package_of_its_classes():
    # a fresh state with only torch: torch.load requires nn for nn.Sequential, as torch7's
    # users expect of this project's packages
    rt = tl.Runtime()
    net = rt.eval("function(p) return torch.load(p) end")(fixture("mlp.t7"))
    assert tl.typename(net) == "nn.Sequential"
    assert rt.eval("nn ~= nil") is True


def test_load_of_an_unknown_class_raises_torch7s_error(tmp_path):
    rt = tl.Runtime()
    path = str(tmp_path / "box.t7")
    rt.eval("function(p) torch.class('bridgetest.Box'); torch.save(p, bridgetest.Box()) end")(path)
    with pytest.raises(tl.LuaError, match=r"unknown Torch class <bridgetest.Box>"):
        tl.Runtime().eval("function(p) return torch.load(p) end")(path)


# ---------------------------------------------------------------- heap tracking

MB = 1 << 20


def resident_bytes():
    """The process's resident size, as the kernel counts it (independent of either binding)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_growth(turn, n, limit):
    """Runs turn(i) n times; the largest growth of the resident size seen, stopping once it
    passes limit (so that a failure does not take the machine's memory)."""
    gc.collect()
    base, peak = resident_bytes(), 0
    for i in range(n):
        turn(i)
        if i % 10 == 0:
            peak = max(peak, resident_bytes() - base)
            if peak > limit:
                break
    return peak


def test_lua_tensors_dropped_in_a_loop_are_collected():
    # Note [Heap tracking] in lua/csrc/common.h: a fresh 1 MB Lua tensor per turn, returned to
    # Python and dropped; Lua's collector learns of TH's memory and frees them
    rt = tl.Runtime()
    make = rt.eval("function(i) return torch.DoubleTensor(131072):fill(i) end")

    def turn(i):
        t = make(i)
        assert t[0].item() == i

    growth = peak_growth(turn, 3000, 200 * MB)
    assert growth < 200 * MB, "3000 dropped 1 MB tensors: grew by %d MB" % (growth // MB)


def test_python_tensors_handed_to_lua_are_collected():
    # the memory of a Python tensor that Lua holds is counted too (noteForeignBytes)
    rt = tl.Runtime()
    first = rt.eval("function(t) return t[1] end")

    def turn(i):
        assert first(torch.full((131072,), float(i), dtype=torch.float64)) == i

    growth = peak_growth(turn, 3000, 200 * MB)
    assert growth < 200 * MB, "3000 1 MB tensors handed to Lua: grew by %d MB" % (growth // MB)


def test_without_heap_tracking_lua_keeps_dropped_tensors():
    # the counterpart: with tracking off the same loop keeps its tensors until Lua's collector
    # happens to run, so the bound above measures the tracking
    # (counted by the Lua side's TH: the resident size may not grow at first, as malloc reuses
    # what earlier tests freed)
    rt = tl.Runtime()
    heapsize = rt.eval("torch._C.heapsize")
    make = rt.eval("function(i) return torch.DoubleTensor(131072):fill(i) end")
    rt.execute("collectgarbage(); collectgarbage()")
    base = heapsize()
    rt.execute("torch.setheaptracking(false)")
    try:
        for i in range(150):
            make(i)
        held = heapsize() - base
    finally:
        rt.execute("torch.setheaptracking(true); collectgarbage(); collectgarbage()")
    assert held > 140 * MB, "150 untracked 1 MB tensors: the Lua side's TH holds %d MB" % (held // MB)
    assert heapsize() - base < MB
