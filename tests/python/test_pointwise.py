"""Element-wise ops, operators, broadcasting and type promotion, against numpy."""

import math

import numpy as np
import pytest

import torch
from conftest import FLOAT_TYPES, INT_TYPES, LAYOUTS, NUMPY_OF, NUMERIC_TYPES, assert_close, make_tensor


BINARY = {
    "add": (lambda a, b: a + b, np.add),
    "sub": (lambda a, b: a - b, np.subtract),
    "mul": (lambda a, b: a * b, np.multiply),
    "maximum": (torch.maximum, np.maximum),
    "minimum": (torch.minimum, np.minimum),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_binary_same_type(name, dtype, layout, rng):
    op, ref = BINARY[name]
    a, na = make_tensor((3, 4, 5), dtype, layout, rng)
    b, nb = make_tensor((3, 4, 5), dtype, "transposed", rng)
    with np.errstate(over="ignore"):
        expected = ref(na, nb).astype(NUMPY_OF[dtype])  # integer results wrap, as in C
    assert_close(op(a, b), expected)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_division_and_power_float(dtype, layout, rng):
    a, na = make_tensor((4, 6), dtype, layout, rng, 0.5, 4)
    b, nb = make_tensor((4, 6), dtype, "contiguous", rng, 0.5, 3)
    assert_close(a / b, na / nb)
    assert_close(a**b, na**nb, rtol=1e-4)
    assert_close(torch.fmod(a, b), np.fmod(na, nb), rtol=1e-4, atol=1e-5)
    assert_close(a % b, np.remainder(na, nb), rtol=1e-4, atol=1e-5)
    assert_close(a // b, np.floor_divide(na, nb))
    assert_close(torch.atan2(a, b), np.arctan2(na, nb))


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16])
def test_integer_division_rules(dtype, rng):
    a, na = make_tensor((50,), dtype, "contiguous", rng, -20, 20)
    b, nb = make_tensor((50,), dtype, "contiguous", rng, 1, 7)
    nb = nb * np.where(rng.random(50) < 0.5, -1, 1).astype(nb.dtype)
    b = torch.from_numpy(nb.copy())
    # true division gives the default float type; // floors; % takes the divisor's sign
    assert_close(a / b, (na / nb).astype(np.float32), rtol=1e-6)
    assert_close(a // b, np.floor_divide(na, nb))
    assert_close(a % b, np.remainder(na, nb))
    assert_close(torch.fmod(a, b), np.fmod(na, nb))
    with pytest.raises(RuntimeError):
        a // torch.zeros_like(b) if hasattr(torch, "zeros_like") else a // (b * 0)


@pytest.mark.parametrize(
    "shapes", [((3, 1), (1, 4)), ((5, 1, 3), (4, 1)), ((2, 3), ()), ((), (2, 2)), ((1,), (3, 1, 2)), ((0, 3), (1, 3))]
)
def test_broadcasting(shapes, rng):
    a, na = make_tensor(shapes[0], torch.float64, "contiguous", rng)
    b, nb = make_tensor(shapes[1], torch.float64, "contiguous", rng)
    assert_close(a + b, na + nb)
    assert_close(a * b, na * nb)
    assert_close(torch.maximum(a, b), np.maximum(na, nb))
    assert_close(a < b, na < nb)


def test_broadcasting_errors_leave_inputs_alone(rng):
    a, na = make_tensor((3, 4), torch.float32, "contiguous", rng)
    b, _ = make_tensor((5,), torch.float32, "contiguous", rng)
    with pytest.raises(RuntimeError, match="must match the size"):
        a + b
    with pytest.raises(RuntimeError):
        a.add_(b)
    # in place, the other side may not grow self
    c, _ = make_tensor((3, 1), torch.float32, "contiguous", rng)
    with pytest.raises(RuntimeError):
        c.add_(a)
    assert_close(a, na)


# PyTorch's table (unlike numpy, an integer with float32 stays float32).
@pytest.mark.parametrize(
    "ta,tb,expected",
    [
        (torch.int64, torch.float32, torch.float32),
        (torch.uint8, torch.int8, torch.int16),
        (torch.int32, torch.int64, torch.int64),
        (torch.float32, torch.float64, torch.float64),
        (torch.bool, torch.int16, torch.int16),
        (torch.uint8, torch.int16, torch.int16),
    ],
)
def test_promotion_between_tensors(ta, tb, expected, rng):
    a, na = make_tensor((6,), ta, "contiguous", rng, 0, 9)
    b, nb = make_tensor((6,), tb, "contiguous", rng, 0, 9)
    r = a + b
    assert r.dtype is expected
    assert_close(r, (na.astype(np.float64) + nb.astype(np.float64)).astype(r.numpy().dtype))


def test_promotion_with_numbers_and_zero_dim():
    ints = torch.tensor([1, 2, 3])
    assert ints.dtype == torch.int64
    assert (ints + 1).dtype == torch.int64
    assert (ints + 1.5).dtype == torch.float32
    assert_close(ints + 1.5, np.array([2.5, 3.5, 4.5], np.float32))
    assert (ints * True).dtype == torch.int64
    small = torch.tensor([1, 2], dtype=torch.int16)
    assert (small + 100000).dtype == torch.int16  # a number does not widen within a category
    assert (small + torch.tensor(5)).dtype == torch.int16  # nor does a 0-dim tensor
    assert (small + torch.tensor(5.0, dtype=torch.float64)).dtype == torch.float64  # it raises the category
    floats = torch.tensor([1.0, 2.0])
    assert (floats + torch.tensor([1.0], dtype=torch.float64)).dtype == torch.float64
    assert (floats > 1).dtype == torch.bool
    assert (torch.tensor([True, False]) + torch.tensor([True, True])).tolist() == [True, True]


def test_reflected_operators():
    t = torch.tensor([1.0, 2.0, 4.0])
    n = t.numpy().copy()
    assert_close(2 - t, 2 - n)
    assert_close(2 / t, 2 / n)
    assert_close(2**t, 2**n)
    assert_close(3 % t, np.remainder(3, n))
    assert_close(7 // t, 7 // n)
    assert_close([1.0, 1.0, 1.0] + t, n + 1)


@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
def test_in_place_ops_write_self(dtype, rng):
    a, na = make_tensor((4, 3), dtype, "contiguous", rng, 0, 9)
    b, nb = make_tensor((3,), dtype, "contiguous", rng, 0, 9)
    before = a.data_ptr()
    r = a.add_(b)
    assert r is a and a.data_ptr() == before
    with np.errstate(over="ignore"):
        assert_close(a, (na + nb).astype(na.dtype))
    a *= 2
    with np.errstate(over="ignore"):
        assert_close(a, ((na + nb) * 2).astype(na.dtype))


def test_in_place_on_a_view_changes_the_base(rng):
    a, na = make_tensor((4, 5), torch.float64, "contiguous", rng)
    v = a.t()
    v.mul_(2)
    assert_close(a, na * 2)
    a.narrow(1, 1, 2).fill_(7)
    na = na * 2
    na[:, 1:3] = 7
    assert_close(a, na)


def test_in_place_cast_errors():
    ints = torch.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="can't be cast"):
        ints.add_(1.5)
    with pytest.raises(RuntimeError, match="can't be cast"):
        ints.div_(2)
    with pytest.raises(RuntimeError, match="can't be cast"):
        ints.exp_()
    assert ints.tolist() == [1, 2, 3]
    with pytest.raises(TypeError, match="alpha"):
        ints.add(ints, alpha=0.5)


UNARY = {
    "exp": np.exp,
    "log": np.log,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "tanh": np.tanh,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.round,
    "trunc": np.trunc,
    "frac": lambda x: x - np.trunc(x),
    "reciprocal": lambda x: 1 / x,
    "neg": np.negative,
    "abs": np.abs,
    "sign": np.sign,
    "expm1": np.expm1,
    "log2": np.log2,
    "log10": np.log10,
    "erf": np.vectorize(math.erf),
    "erfc": np.vectorize(math.erfc),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_unary_float(name, dtype, layout, rng):
    low = 0.1 if name in ("log", "log1p", "sqrt", "rsqrt", "log2", "log10") else -3
    a, na = make_tensor((5, 7), dtype, layout, rng, low, 3)
    expected = UNARY[name](na).astype(na.dtype)
    rtol = 1e-5 if dtype == torch.float32 else 1e-12
    assert_close(getattr(a, name)(), expected, rtol=rtol, atol=1e-6)
    assert_close(getattr(torch, name)(a), expected, rtol=rtol, atol=1e-6)
    b = a.clone()
    getattr(b, name + "_")()
    assert_close(b, expected, rtol=rtol, atol=1e-6)


def test_asin_acos():
    x = torch.linspace(-0.9, 0.9, 11) if hasattr(torch, "linspace") else torch.tensor([-0.9, -0.3, 0.0, 0.5, 0.9])
    assert_close(x.asin(), np.arcsin(x.numpy()))
    assert_close(x.acos(), np.arccos(x.numpy()))


def test_round_halves_to_even():
    x = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6])
    assert_close(x.round(), np.round(x.numpy()))


@pytest.mark.parametrize("dtype", INT_TYPES)
def test_unary_on_integers(dtype, rng):
    a, na = make_tensor((10,), dtype, "contiguous", rng, 1, 9)
    assert_close(a.abs(), np.abs(na))
    assert_close(a.sign(), np.sign(na))
    with np.errstate(over="ignore"):
        assert_close(-a, (-na.astype(np.int64)).astype(na.dtype))
    assert a.exp().dtype == torch.float32  # float ops promote integers
    assert_close(a.sqrt(), np.sqrt(na.astype(np.float32)))


@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_comparisons(dtype, layout, rng):
    a, na = make_tensor((6, 5), dtype, layout, rng, 0, 4)
    b, nb = make_tensor((6, 5), dtype, "contiguous", rng, 0, 4)
    for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
        assert_close(getattr(a, op)(b), getattr(na, op)(nb))
        assert_close(getattr(a, op)(2), getattr(na, op)(2))
    assert_close(torch.eq(a, b), na == nb)
    assert_close(a.lt(2.5), na < 2.5)
    c = a.clone()
    c.lt_(b)
    assert_close(c, (na < nb).astype(na.dtype))


def test_logical_ops():
    m = torch.tensor([True, False, True, False])
    n = torch.tensor([True, True, False, False])
    assert (m & n).tolist() == [True, False, False, False]
    assert (m | n).tolist() == [True, True, True, False]
    assert (m ^ n).tolist() == [False, True, True, False]
    assert (~m).tolist() == [False, True, False, True]
    assert torch.logical_not(torch.tensor([0, 3])).tolist() == [True, False]
    assert (~torch.tensor([0, 5], dtype=torch.int32)).tolist() == [-1, -6]
    with pytest.raises(TypeError):
        ~torch.tensor([1.0])
    with pytest.raises(TypeError):
        -m


BITWISE = {
    "bitwise_and": (lambda a, b: a & b, np.bitwise_and),
    "bitwise_or": (lambda a, b: a | b, np.bitwise_or),
    "bitwise_xor": (lambda a, b: a ^ b, np.bitwise_xor),
}


@pytest.mark.parametrize("name", sorted(BITWISE))
@pytest.mark.parametrize("dtype", INT_TYPES + [torch.bool])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_bitwise_ops(name, dtype, layout, rng):
    op, ref = BITWISE[name]
    a, na = make_tensor((3, 4, 5), dtype, layout, rng, -100, 100)
    b, nb = make_tensor((3, 4, 5), dtype, "transposed", rng, -100, 100)
    expected = ref(na, nb)
    assert_close(op(a, b), expected)
    assert_close(getattr(torch, name)(a, b), expected)
    assert_close(getattr(a, name)(b), expected)
    c = a.clone()
    getattr(c, name + "_")(b)
    assert_close(c, expected)
    out = torch.empty(0, dtype=dtype)
    getattr(torch, name)(a, b, out=out)
    assert_close(out, expected)
    if dtype != torch.bool:
        assert_close(op(a, 6), ref(na, np.array(6, dtype=na.dtype)))
        assert_close(op(6, a), ref(np.array(6, dtype=na.dtype), na))  # reflected


@pytest.mark.parametrize("dtype", INT_TYPES)
def test_bitwise_not(dtype, rng):
    a, na = make_tensor((4, 6), dtype, "strided", rng, -100, 100)
    assert_close(~a, np.invert(na))
    assert_close(torch.bitwise_not(a), np.invert(na))
    b = a.clone()
    b.bitwise_not_()
    assert_close(b, np.invert(na))
    m = torch.tensor([True, False])
    assert (~m).tolist() == [False, True] and torch.bitwise_not(m).tolist() == [False, True]
    m.bitwise_not_()
    assert m.tolist() == [False, True]


@pytest.mark.parametrize("dtype", INT_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_shifts(dtype, layout, rng):
    bits = np.iinfo(NUMPY_OF[dtype]).bits
    a, na = make_tensor((5, 6), dtype, layout, rng, -100, 100)
    n, nn = make_tensor((5, 6), dtype, "contiguous", rng, 0, bits - 1)
    # within [0, bits) both agree with C's shifts on the element type (numpy's)
    assert_close(a << n, np.left_shift(na, nn))
    assert_close(a >> n, np.right_shift(na, nn))
    assert_close(torch.bitwise_left_shift(a, n), np.left_shift(na, nn))
    assert_close(a >> 2, np.right_shift(na, np.array(2, dtype=na.dtype)))
    c = a.clone()
    c <<= 1
    assert_close(c, np.left_shift(na, np.array(1, dtype=na.dtype)))
    # counts past the width shift everything out
    wide = torch.tensor([5, -5], dtype=torch.int64)
    assert (wide << 64).tolist() == [0, 0] and (wide >> 64).tolist() == [0, -1]


def test_bitwise_promotion_and_errors():
    assert (torch.tensor([6, 7], dtype=torch.int8) | torch.tensor([1], dtype=torch.int16)).dtype == torch.int16
    assert (torch.tensor([1, 2]) & torch.tensor([True, False])).tolist() == [1, 0]
    assert (torch.tensor([True, False]) << 1).tolist() == [2, 0]
    assert (torch.tensor([3], dtype=torch.int8) << 7).tolist() == [-128]
    f = torch.tensor([1.5, 2.0])
    for call in (
        lambda: f & 1,
        lambda: f | f,
        lambda: f << 1,
        lambda: torch.bitwise_xor(f, f),
        lambda: torch.bitwise_not(f),
    ):
        with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
            call()
    i = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        i & 1.5
    before = i.clone()
    with pytest.raises(RuntimeError):
        i.bitwise_and_(torch.tensor([1.0, 2.0]))
    assert i.tolist() == before.tolist()  # nothing written by a call that fails


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
def test_clamp_addcmul_addcdiv_lerp_where(dtype, rng):
    a, na = make_tensor((4, 5), dtype, "transposed", rng, -5, 5)
    assert_close(a.clamp(-2, 3), np.clip(na, -2, 3))
    assert_close(a.clamp(min=1), np.maximum(na, 1))
    assert_close(torch.clamp(a, max=0), np.minimum(na, 0))
    b = a.clone()
    b.clamp_(-1, 1)
    assert_close(b, np.clip(na, -1, 1))
    with pytest.raises(ValueError):
        a.clamp()
    t1, n1 = make_tensor((4, 5), dtype, "contiguous", rng, 1, 5)
    t2, n2 = make_tensor((5,), dtype, "contiguous", rng, 1, 5)
    assert_close(torch.addcmul(a, t1, t2, value=2), (na + 2 * n1 * n2).astype(na.dtype))
    if dtype in FLOAT_TYPES:
        assert_close(torch.addcdiv(a, t1, t2, value=0.5), na + 0.5 * n1 / n2, rtol=1e-5)
        e, ne = make_tensor((4, 5), dtype, "contiguous", rng)
        assert_close(torch.lerp(a, e, 0.25), na + 0.25 * (ne - na), rtol=1e-5, atol=1e-5)
    cond = a > 0
    assert_close(torch.where(cond, a, t1), np.where(na > 0, na, n1))
    assert_close(torch.where(cond, a, 0), np.where(na > 0, na, 0))


def test_out_argument(rng):
    a, na = make_tensor((3, 3), torch.float64, "contiguous", rng)
    out = torch.DoubleTensor(1)
    r = torch.add(a, 1, out=out)
    assert r is out
    assert_close(out, na + 1)
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.add(a, 1, out=torch.LongTensor(9))


def test_numpy_operands():
    t = torch.tensor([1.0, 2.0])
    n = np.array([10.0, 20.0], dtype=np.float32)
    assert_close(t + n, np.array([11.0, 22.0], np.float32))
    assert_close(t * np.float32(3), np.array([3.0, 6.0], np.float32))
    with pytest.raises(TypeError):
        t + "a"


# ---- property-based: any two broadcastable shapes, any layout ----
from hypothesis import given, settings, strategies as st  # noqa: E402


@st.composite
def broadcastable_pair(draw):
    ndim = draw(st.integers(0, 4))
    shape = [draw(st.integers(0, 4)) for _ in range(ndim)]
    other = []
    for s in shape[draw(st.integers(0, ndim)) :]:
        other.append(draw(st.sampled_from([s, 1])))
    if draw(st.booleans()):
        return shape, other
    return other, shape


@settings(max_examples=200, deadline=None)
@given(broadcastable_pair(), st.sampled_from(["add", "mul", "sub", "maximum"]), st.booleans(), st.integers(0, 2**31))
def test_broadcasting_property(shapes, name, transpose, seed):
    rng = np.random.default_rng(seed)
    na = rng.uniform(-5, 5, shapes[0])
    nb = rng.uniform(-5, 5, shapes[1])
    a, b = torch.from_numpy(na.copy()), torch.from_numpy(nb.copy())
    if transpose and a.dim() >= 2:  # a non-contiguous operand with the same values
        a = torch.from_numpy(np.ascontiguousarray(na.swapaxes(0, 1))).transpose(0, 1)
    op, ref = BINARY[name]
    assert_close(op(a, b), ref(na, nb))
    # in place works exactly when the result has self's shape
    expected_shape = np.broadcast_shapes(na.shape, nb.shape)
    c = a.clone()
    if expected_shape == na.shape:
        getattr(c, name + "_")(b)
        assert_close(c, ref(na, nb))
    else:
        with pytest.raises(RuntimeError):
            getattr(c, name + "_")(b)
        assert_close(c, na)


# ---- integer division at the edges (issue 14, finding 2) ----
_SIGNED = {torch.int8: 8, torch.int16: 16, torch.int32: 32, torch.int64: 64}


def _wrap(v, bits):
    """v as a two's complement integer of the given width (Note [Integer wrap-around])."""
    return (v + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_INT_DIVISIONS = {
    # name: (torch op on (tensor, divisor), Python reference on ints)
    "//": (lambda a, b: a // b, lambda a, b: a // b),
    "floor_divide": (torch.floor_divide, lambda a, b: a // b),
    "div_floor": (lambda a, b: torch.div(a, b, rounding_mode="floor"), lambda a, b: a // b),
    "div_trunc": (lambda a, b: a.div(b, rounding_mode="trunc"), _trunc_div),
    "%": (lambda a, b: a % b, lambda a, b: a % b),
    "remainder": (torch.remainder, lambda a, b: a % b),
    "fmod": (torch.fmod, lambda a, b: a - _trunc_div(a, b) * b),
    "//=": (lambda a, b: a.__ifloordiv__(b), lambda a, b: a // b),
    "div_trunc_": (lambda a, b: a.div_(b, rounding_mode="trunc"), _trunc_div),
    "fmod_": (lambda a, b: a.fmod_(b), lambda a, b: a - _trunc_div(a, b) * b),
}

_EDGE_SCRIPT = r"""
import sys, json
import torch
sys.path.insert(0, sys.argv[1])
import test_pointwise as tp
out = {}
for dtype, bits in tp._SIGNED.items():
    lo, hi = -2 ** (bits - 1), 2 ** (bits - 1) - 1
    values = [lo, lo + 1, -7, -1, 0, 7, hi]
    for divisor in [-1, 1, -3, 3, lo, hi]:
        for name, (op, _) in tp._INT_DIVISIONS.items():
            for form in ["number", "tensor", "0-dim", "strided"]:
                a = torch.tensor(values, dtype=dtype)
                b = {"number": divisor, "tensor": torch.full((7,), divisor, dtype=dtype),
                     "0-dim": torch.tensor(divisor, dtype=dtype),
                     "strided": torch.full((14,), divisor, dtype=dtype)[::2]}[form]
                if form == "strided":
                    a = torch.tensor([v for v in values for _ in (0, 1)], dtype=dtype)[::2]
                out["%s %s %d %s" % (name, dtype, divisor, form)] = op(a, b).tolist()
json.dump(out, sys.stdout)
"""


def test_integer_division_of_the_minimum_by_minus_one_wraps():
    # MIN // -1 traps in hardware (SIGFPE, which kills PyTorch 1.13): run in a child so a
    # regression fails this test instead of killing the run.
    import json
    import os
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", _EDGE_SCRIPT, os.path.dirname(os.path.abspath(__file__))],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    got = json.loads(run.stdout)
    for dtype, bits in _SIGNED.items():
        lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        values = [lo, lo + 1, -7, -1, 0, 7, hi]
        for divisor in [-1, 1, -3, 3, lo, hi]:
            for name, (_, ref) in _INT_DIVISIONS.items():
                expected = [_wrap(ref(v, divisor), bits) for v in values]
                for form in ["number", "tensor", "0-dim", "strided"]:
                    key = "%s %s %d %s" % (name, dtype, divisor, form)
                    assert got[key] == expected, key


@pytest.mark.parametrize("dtype", INT_TYPES)
@pytest.mark.parametrize("name", sorted(_INT_DIVISIONS))
def test_integer_division_by_zero_raises_and_changes_nothing(dtype, name):
    op = _INT_DIVISIONS[name][0]
    for zero in [0, torch.zeros(3, dtype=dtype), torch.tensor([1, 0, 1], dtype=dtype)]:
        a = torch.tensor([5, 6, 7], dtype=dtype)
        with pytest.raises(RuntimeError, match="division by zero"):
            op(a, zero)
        assert a.tolist() == [5, 6, 7]


# ---- torch.div's rounding_mode (issue 14, finding 6) ----
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_div_rounding_modes_on_floats(dtype, layout, rng):
    a, na = make_tensor((4, 5), dtype, layout, rng)
    b, nb = make_tensor((4, 5), dtype, "transposed", rng, 0.5, 3)
    nb = nb * np.where(rng.random((4, 5)) < 0.5, -1, 1).astype(nb.dtype)
    b = torch.from_numpy(nb.copy())
    assert_close(torch.div(a, b), na / nb)
    assert_close(torch.div(a, b, rounding_mode=None), na / nb)
    assert_close(torch.div(a, b, rounding_mode="trunc"), np.trunc(na / nb))
    assert_close(torch.divide(a, b, rounding_mode="floor"), np.floor(na / nb))
    assert_close(a.div(2.5, rounding_mode="trunc"), np.trunc(na / np.asarray(2.5, na.dtype)))
    assert_close(torch.div(a, b, rounding_mode="floor"), np.floor(na / nb))
    out = torch.empty(0, dtype=dtype)
    assert torch.div(a, b, rounding_mode="trunc", out=out) is out
    assert_close(out, np.trunc(na / nb))
    c = a.clone()
    assert c.div_(b, rounding_mode="floor") is c
    assert_close(c, np.floor(na / nb))
    z = torch.tensor([5.0, -5.0, 0.0], dtype=dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for mode in ["trunc", "floor"]:
            assert_close(z.div(0, rounding_mode=mode), np.array([np.inf, -np.inf, np.nan], NUMPY_OF[dtype]))


@pytest.mark.parametrize("dtype", INT_TYPES)
def test_div_rounding_modes_on_integers(dtype, rng):
    a, na = make_tensor((30,), dtype, "strided", rng, -50, 50)
    b, nb = make_tensor((30,), dtype, "contiguous", rng, 1, 9)
    nb = nb % 8 + 1  # no zero divisor
    if dtype != torch.uint8:
        nb = nb * np.where(rng.random(30) < 0.5, -1, 1).astype(nb.dtype)
    b = torch.from_numpy(nb.copy())
    trunc = np.array([_trunc_div(int(x), int(y)) for x, y in zip(na, nb)], na.dtype)
    assert_close(torch.div(a, b, rounding_mode="trunc"), trunc)
    assert_close(a.div(b, rounding_mode="floor"), np.floor_divide(na, nb))
    assert_close(a.divide(3, rounding_mode="trunc"), np.array([_trunc_div(int(x), 3) for x in na], na.dtype))
    assert_close(torch.div(a, b), (na / nb).astype(np.float32), rtol=1e-6)  # true division
    c = a.clone()
    c.div_(b, rounding_mode="trunc")
    assert_close(c, trunc)
    # an integer tensor by a float: floating results, which in-place cannot take
    assert_close(a.div(2.5, rounding_mode="floor"), np.floor(na / 2.5).astype(np.float32))
    for mode in [None, "floor"]:
        before = a.clone()
        with pytest.raises(RuntimeError, match="can't be cast"):
            a.div_(2.5, rounding_mode=mode)
        assert torch.equal(a, before)
    # promotion: int32 tensor and int64 tensor give int64
    assert torch.div(a.int(), b.long(), rounding_mode="trunc").dtype == torch.int64
    # a number first
    assert torch.div(100, torch.tensor([7, -7]), rounding_mode="trunc").tolist() == [14, -14]


def test_div_rounding_mode_errors_and_autograd():
    a = torch.tensor([7.0, -7.0])
    with pytest.raises(RuntimeError, match="rounding_mode to be one of None, 'trunc', or 'floor'"):
        torch.div(a, 2, rounding_mode="bad")
    with pytest.raises(TypeError):
        a.true_divide(2, rounding_mode="floor")
    for mode, grad in [(None, [0.5, 0.5]), ("trunc", [0.0, 0.0]), ("floor", [0.0, 0.0])]:
        x = torch.tensor([7.0, -7.0], requires_grad=True)
        y = torch.div(x, 2, rounding_mode=mode)
        assert y.requires_grad  # as PyTorch: rounded quotients have zero gradients
        y.sum().backward()
        assert x.grad.tolist() == grad
        b = torch.tensor([2.0, 3.0], requires_grad=True)
        torch.div(x.detach(), b, rounding_mode=mode).sum().backward()
        if mode is not None:
            assert b.grad.tolist() == [0.0, 0.0]


# ---- clamp with crossed bounds (issue 14, finding 6) ----
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8])
def test_clamp_with_min_above_max_gives_max(dtype, rng):
    # PyTorch's clamp is min(max(x, min), max): where the bounds cross, max wins.
    a, na = make_tensor((4, 5), dtype, "transposed", rng, 0, 9)
    expected = np.minimum(np.maximum(na, 6), 3).astype(na.dtype)
    assert_close(a.clamp(6, 3), expected)
    assert_close(torch.clamp(a, min=6, max=3), expected)
    assert_close(torch.clip(a, 6, 3), expected)
    b = a.clone()
    b.clamp_(6, 3)
    assert_close(b, expected)
    if dtype in FLOAT_TYPES:
        n = torch.tensor([float("nan"), -1.0, 10.0], dtype=dtype)
        r = n.clamp(2, 1)
        assert math.isnan(r[0].item()) and r[1:].tolist() == [1.0, 1.0]
        x = torch.tensor([0.0, 1.5, 3.0], dtype=dtype, requires_grad=True)
        x.clamp(2, 1).sum().backward()
        assert x.grad.tolist() == [0.0, 0.0, 0.0]
