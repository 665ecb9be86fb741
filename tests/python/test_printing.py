"""repr()/str() of tensors and torch.set_printoptions, against PyTorch 1.13's output.

The literal strings below are what PyTorch 1.13 prints for these tensors (from its documentation
and from working its layout rules by hand); element digits are checked independently against
NumPy's float formatting, and the bracket structure against the shape.
"""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch
from conftest import LAYOUTS, make_tensor

NAN, INF = float("nan"), float("inf")
TOKEN = re.compile(r"-?\d+(?:\.\d*)?(?:e[+-]\d+)?|nan|-?inf|True|False|\.\.\.")


@pytest.fixture(autouse=True)
def default_print_options():
    torch.set_printoptions(profile="default")
    yield
    torch.set_printoptions(profile="default")


def arr(values, dtype=None):
    return torch.tensor(values, dtype=dtype)


LITERALS = [
    # layout of rows and columns
    (lambda: arr([[1.0, 2.5], [3.0, 4.0]]), "tensor([[1.0000, 2.5000],\n        [3.0000, 4.0000]])"),
    (lambda: arr([[1.0, -1.0], [1.0, -1.0]]), "tensor([[ 1., -1.],\n        [ 1., -1.]])"),
    (
        lambda: arr([[0.1, 1.2], [2.2, 3.1], [4.9, 5.2]]),
        "tensor([[0.1000, 1.2000],\n        [2.2000, 3.1000],\n        [4.9000, 5.2000]])",
    ),
    (lambda: arr([-1.5, 2.25]), "tensor([-1.5000,  2.2500])"),
    (lambda: arr([0.5, 400.25]), "tensor([  0.5000, 400.2500])"),
    # integers and bools: width of the longest str()
    (lambda: arr([1, 2, 3]), "tensor([1, 2, 3])"),
    (lambda: arr([-1, 10, 100]), "tensor([ -1,  10, 100])"),
    (lambda: arr([True, False]), "tensor([ True, False])"),
    (lambda: arr([True]), "tensor([True])"),
    (lambda: arr([False, True]), "tensor([False,  True])"),
    # 0-dim
    (lambda: arr(3.5), "tensor(3.5000)"),
    (lambda: arr(3), "tensor(3)"),
    (lambda: arr(True), "tensor(True)"),
    (lambda: arr(2.0), "tensor(2.)"),
    (lambda: arr(-0.0), "tensor(-0.)"),
    (lambda: arr(NAN), "tensor(nan)"),
    (lambda: arr(1e-5), "tensor(1.0000e-05)"),
    (lambda: arr(3.5, torch.float64), "tensor(3.5000, dtype=torch.float64)"),
    # dtype suffix: not for the default float type, int64 or bool
    (lambda: arr([1.5], torch.float64), "tensor([1.5000], dtype=torch.float64)"),
    (lambda: arr([1, 2], torch.int32), "tensor([1, 2], dtype=torch.int32)"),
    (lambda: arr([-3, 7], torch.int16), "tensor([-3,  7], dtype=torch.int16)"),
    (lambda: arr([-3, 7], torch.int8), "tensor([-3,  7], dtype=torch.int8)"),
    (lambda: arr([0, 255], torch.uint8), "tensor([  0, 255], dtype=torch.uint8)"),
    (lambda: arr([0.5, 2.0], torch.float16), "tensor([0.5000, 2.0000], dtype=torch.float16)"),
    (lambda: arr([[1, 2], [3, 4]], torch.int32), "tensor([[1, 2],\n        [3, 4]], dtype=torch.int32)"),
    # empty tensors spell out the shape (unless 1-d) and any type but the default float type
    (lambda: torch.empty(0), "tensor([])"),
    (lambda: torch.empty(0, 3), "tensor([], size=(0, 3))"),
    (lambda: torch.empty(2, 0, 4), "tensor([], size=(2, 0, 4))"),
    (lambda: arr([], torch.int64), "tensor([], dtype=torch.int64)"),
    (lambda: arr([], torch.bool), "tensor([], dtype=torch.bool)"),
    (lambda: arr([], torch.float64), "tensor([], dtype=torch.float64)"),
    (lambda: torch.zeros(2, 0, dtype=torch.int32), "tensor([], size=(2, 0), dtype=torch.int32)"),
    # scientific notation
    (lambda: arr([1.0, 1e5]), "tensor([1.0000e+00, 1.0000e+05])"),
    (lambda: arr([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
    (lambda: arr([0.5, 1000.5]), "tensor([5.0000e-01, 1.0005e+03])"),
    (lambda: arr([1e9]), "tensor([1.0000e+09])"),
    (lambda: arr([1e8]), "tensor([100000000.])"),
    (lambda: arr([-2.5e-6, 3e-6]), "tensor([-2.5000e-06,  3.0000e-06])"),
    (lambda: arr([3e-4, 0.1]), "tensor([0.0003, 0.1000])"),
    (lambda: arr([5e-5, 0.01]), "tensor([5.0000e-05, 1.0000e-02])"),
    (lambda: arr([1.0, 1000.0]), "tensor([   1., 1000.])"),
    (lambda: arr([1.0, 1001.0]), "tensor([1.0000e+00, 1.0010e+03])"),
    # integral floats
    (lambda: arr([-3.0, 10.0]), "tensor([-3., 10.])"),
    (lambda: arr([-1.0, 100.0]), "tensor([ -1., 100.])"),
    # nan, inf and zeros do not size the columns
    (lambda: arr([1.5, NAN]), "tensor([1.5000,    nan])"),
    (lambda: arr([1.5, INF]), "tensor([1.5000,    inf])"),
    (lambda: arr([INF, -INF, 1.0]), "tensor([inf, -inf, 1.])"),
    (lambda: arr([0.0, NAN, INF]), "tensor([0., nan, inf])"),
    (lambda: arr([-0.0, 0.0]), "tensor([-0., 0.])"),
    (lambda: arr([0.0, 0.0]), "tensor([0., 0.])"),
    # more dimensions: a blank line per extra dimension between blocks
    (
        lambda: torch.arange(8).reshape(2, 2, 2),
        "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])",
    ),
    (lambda: torch.arange(2).reshape(2, 1, 1, 1), "tensor([[[[0]]],\n\n\n        [[[1]]]])"),
    (
        lambda: torch.ones(2, 3, 4),
        "tensor([[[1., 1., 1., 1.],\n         [1., 1., 1., 1.],\n         [1., 1., 1., 1.]],\n\n"
        "        [[1., 1., 1., 1.],\n         [1., 1., 1., 1.],\n         [1., 1., 1., 1.]]])",
    ),
    # wrapping at 80 characters: 18 two-character integers fit after 'tensor(['
    (
        lambda: torch.arange(20),
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n        18, 19])",
    ),
    # a suffix that does not fit on the last line goes on its own line
    (
        lambda: torch.arange(14, dtype=torch.float64),
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.],\n       dtype=torch.float64)",
    ),
    (lambda: torch.arange(3, dtype=torch.float64), "tensor([0., 1., 2.], dtype=torch.float64)"),
    # the last line is counted two characters long: this one would fit in exactly 80
    (
        lambda: arr(list(range(10)) + list(range(8)), torch.int8),
        "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7],\n       dtype=torch.int8)",
    ),
    # summarized: more than 1000 elements, 3 at each end
    (lambda: torch.arange(10000), "tensor([   0,    1,    2,  ..., 9997, 9998, 9999])"),
    (lambda: torch.arange(1001), "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
    (
        lambda: torch.arange(2000).reshape(2, 1000),
        "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n        [1000, 1001, 1002,  ..., 1997, 1998, 1999]])",
    ),
    (
        lambda: torch.ones(100, 100),
        "tensor([[1., 1., 1.,  ..., 1., 1., 1.],\n"
        + "        [1., 1., 1.,  ..., 1., 1., 1.],\n" * 2
        + "        ...,\n"
        + "        [1., 1., 1.,  ..., 1., 1., 1.],\n" * 2
        + "        [1., 1., 1.,  ..., 1., 1., 1.]])",
    ),
]


@pytest.mark.parametrize("build,expected", LITERALS, ids=[e for _, e in LITERALS])
def test_literal_output(build, expected):
    t = build()
    assert repr(t) == expected
    assert str(t) == expected


def test_rows_wrap_inside_their_bracket():
    # '1.' is 2 wide: (80 - 8) // 4 = 18 per line in a row of a 2-d tensor
    line = ", ".join(["1."] * 18)
    row = "[" + line + ",\n         " + line + ",\n         " + ", ".join(["1."] * 4) + "]"
    assert repr(torch.ones(2, 40)) == "tensor([" + row + ",\n        " + row + "])"


def test_hidden_elements_do_not_size_the_columns():
    a = np.zeros(2000, dtype=np.float32)
    a[1000] = 123456.5  # hidden in the middle: neither the width nor the mode may see it
    assert repr(torch.from_numpy(a)) == "tensor([0., 0., 0.,  ..., 0., 0., 0.])"
    a[1] = 0.5
    assert repr(torch.from_numpy(a)) == "tensor([0.0000, 0.5000, 0.0000,  ..., 0.0000, 0.0000, 0.0000])"


def test_exactly_threshold_elements_are_not_summarized():
    text = repr(torch.arange(1000))
    assert "..." not in text
    assert [int(v) for v in TOKEN.findall(text)] == list(range(1000))


# ---- independent references for the digits and the structure ----


def skeleton(shape):
    """The brackets and commas of a printed tensor of this shape, each element an 'x'."""
    if not shape:
        return "x"
    return "[" + ",".join([skeleton(shape[1:])] * shape[0]) + "]"


def body(text):
    """The element part of repr(): between 'tensor(' and the last ']' (suffixes hold digits)."""
    start = text.index("(") + 1
    return text[start : text.rindex("]") + 1] if "]" in text else text[start : text.rindex(")")]


def fixed(v):
    return np.format_float_positional(v, precision=4, unique=False, fractional=True, trim="k")


def sci(v):
    return np.format_float_scientific(v, precision=4, unique=False, exp_digits=2)


def check_columns_aligned(text):
    """Every element field has the same width: the commas of all full rows sit in the same columns."""
    lines = text.split("\n")
    commas = [[m.start() for m in re.finditer(",", line[: line.rindex("]")])] for line in lines]
    assert all(c == commas[0] for c in commas), text


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_float_layouts_print_logical_order(layout, dtype, rng):
    t, a = make_tensor((3, 4, 2), dtype, layout, rng, 1, 9)  # 1..9: fixed mode, never integral
    text = repr(t)
    assert text == repr(t.contiguous())
    assert TOKEN.findall(body(text)) == [fixed(v) for v in a.ravel()]
    assert re.sub(TOKEN, "x", body(text)).replace(" ", "").replace("\n", "") == skeleton((3, 4, 2))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool])
def test_integer_layouts_print_logical_order(layout, dtype, rng):
    t, a = make_tensor((4, 5), dtype, layout, rng, -150, 150)
    text = repr(t)
    assert text == repr(t.contiguous())
    assert TOKEN.findall(body(text)) == [str(v) for v in a.ravel().tolist()]
    check_columns_aligned(text)
    assert text.endswith("])" if dtype in (torch.int64, torch.bool) else "], dtype=%s)" % dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_summarized_layouts(layout, rng):
    t, a = make_tensor((40, 30), torch.float32, layout, rng, 1, 9)
    text = repr(t)
    assert text == repr(t.contiguous())
    rows = list(range(3)) + list(range(37, 40))
    expected = []
    for i, r in enumerate(rows):
        expected += [fixed(v) for v in a[r, :3]] + ["..."] + [fixed(v) for v in a[r, -3:]]
        if i == 2:
            expected.append("...")
    assert TOKEN.findall(body(text)) == expected
    assert text.count("\n") == 6


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=60))
def test_fixed_digits_match_numpy(numerators):
    # k / 7 is never a rounding tie; the extra 1/7 keeps the tensor out of int mode
    values = np.array(numerators + [1], dtype=np.float64) / 7
    text = repr(torch.from_numpy(values))
    magnitudes = np.abs(values[values != 0])
    if magnitudes.max() / magnitudes.min() > 1000:
        tokens = [sci(v) for v in values]
    else:
        tokens = [fixed(v) for v in values]
    assert TOKEN.findall(body(text)) == tokens
    width = max(len(s) for s in tokens)
    fields = re.findall(r"(?:(?<=\[)|(?<=, )|(?<=^ {8}))( *\S+?)(?=,|\])", body(text), re.M)
    assert [len(f) for f in fields] == [width] * len(tokens)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(10**12), 10**12), min_size=1, max_size=40))
def test_integers_print_as_python_ints(values):
    text = repr(torch.tensor(values))
    assert TOKEN.findall(body(text)) == [str(v) for v in values]


# ---- suffixes ----


class AddBackward0:
    """Stands in for an autograd node: only its type's name is printed."""


def test_requires_grad_suffix(monkeypatch):
    monkeypatch.setattr(torch.Tensor, "requires_grad", True, raising=False)
    monkeypatch.setattr(torch.Tensor, "grad_fn", None, raising=False)
    assert repr(arr([1.0, 2.0])) == "tensor([1., 2.], requires_grad=True)"
    assert repr(arr(3.5)) == "tensor(3.5000, requires_grad=True)"
    assert repr(arr([1.0, 2.0], torch.float64)) == "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"


def test_grad_fn_suffix_replaces_requires_grad(monkeypatch):
    monkeypatch.setattr(torch.Tensor, "requires_grad", True, raising=False)
    monkeypatch.setattr(torch.Tensor, "grad_fn", AddBackward0(), raising=False)
    assert repr(arr([1.0, 2.0])) == "tensor([1., 2.], grad_fn=<AddBackward0>)"


def test_requires_grad_suffix_real():
    assert repr(arr([1.0, 2.0]).requires_grad_()) == "tensor([1., 2.], requires_grad=True)"


def test_subclass_prefix_and_str_uses_its_repr():
    class Mine(torch.Tensor):
        pass

    class Custom(torch.Tensor):
        def __repr__(self):
            return "custom"

    assert repr(Mine(arr([1.0, 2.0]))) == "Mine([1., 2.])"
    assert str(Custom(arr([1.0, 2.0]))) == "custom"


def test_default_dtype_decides_the_float_suffix():
    old = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        assert repr(torch.tensor([1.5])) == "tensor([1.5000])"
        assert repr(torch.tensor([1.5], dtype=torch.float32)) == "tensor([1.5000], dtype=torch.float32)"
        assert repr(torch.tensor([], dtype=torch.float32)) == "tensor([], dtype=torch.float32)"
        assert repr(torch.tensor([1])) == "tensor([1])"
    finally:
        torch.set_default_dtype(old)


# ---- set_printoptions ----


def test_precision():
    torch.set_printoptions(precision=2)
    assert repr(arr([1.12345])) == "tensor([1.12])"
    assert repr(arr([1.0, 1e5])) == "tensor([1.00e+00, 1.00e+05])"
    torch.set_printoptions(precision=0)
    assert repr(arr([1.5, 2.25])) == "tensor([2, 2])"  # round half to even, as '%.0f'
    torch.set_printoptions(profile="default")
    assert repr(arr([1.12345])) == "tensor([1.1235])"


def test_threshold_and_edgeitems():
    torch.set_printoptions(threshold=5)
    assert repr(torch.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    assert repr(torch.arange(5)) == "tensor([0, 1, 2, 3, 4])"
    torch.set_printoptions(threshold=5, edgeitems=1)
    assert repr(torch.arange(12).reshape(3, 4)) == "tensor([[ 0,  ...,  3],\n        ...,\n        [ 8,  ..., 11]])"
    torch.set_printoptions(threshold=5, edgeitems=0)
    assert repr(torch.arange(10)) == "tensor([...])"
    torch.set_printoptions(profile="default")
    assert repr(torch.arange(10)) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"


def test_linewidth():
    torch.set_printoptions(linewidth=20)
    assert repr(torch.arange(10)) == "tensor([0, 1, 2, 3,\n        4, 5, 6, 7,\n        8, 9])"
    torch.set_printoptions(linewidth=1)
    assert repr(torch.arange(3)) == "tensor([0,\n        1,\n        2])"  # at least one per line


def test_profiles():
    torch.set_printoptions(profile="short")
    assert repr(arr([1.12345, 2.0])) == "tensor([1.12, 2.00])"
    assert repr(torch.arange(2000)) == "tensor([   0,    1,  ..., 1998, 1999])"
    torch.set_printoptions(profile="full")
    text = repr(torch.arange(2000))
    assert "..." not in text and [int(v) for v in TOKEN.findall(text)] == list(range(2000))
    torch.set_printoptions(profile="short", precision=3)  # an explicit option overrides the profile
    assert repr(arr([1.12345])) == "tensor([1.123])"


def test_sci_mode_option():
    torch.set_printoptions(sci_mode=True)
    assert repr(arr([1.5, 2.0])) == "tensor([1.5000e+00, 2.0000e+00])"
    assert repr(arr([0.0, 0.0])) == "tensor([0., 0.])"  # nothing to scale: the option is not used
    torch.set_printoptions(sci_mode=False)
    assert repr(arr([1e-5, 1.0])) == "tensor([    0.0000,     1.0000])"  # widths stay those of sci mode
    assert repr(arr([1.0, 1e5])) == "tensor([        1.,    100000.])"
    torch.set_printoptions(precision=2)  # every call resets sci_mode
    assert repr(arr([1.0, 1e5])) == "tensor([1.00e+00, 1.00e+05])"


def test_options_round_trip():
    before = torch._tensor_str.get_printoptions()
    assert before == dict(precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None)
    torch.set_printoptions(precision=6, threshold=10, edgeitems=1, linewidth=40, sci_mode=True)
    assert torch._tensor_str.get_printoptions() == dict(
        precision=6, threshold=10, edgeitems=1, linewidth=40, sci_mode=True
    )
    torch.set_printoptions(profile="full")
    assert torch._tensor_str.get_printoptions() == dict(
        precision=4, threshold=math.inf, edgeitems=3, linewidth=80, sci_mode=None
    )
    torch.set_printoptions(profile="unknown")  # PyTorch ignores a profile it does not know
    assert torch._tensor_str.get_printoptions()["threshold"] == math.inf
    torch.set_printoptions(profile="default")
    assert torch._tensor_str.get_printoptions() == before


def test_printing_leaves_the_tensor_unchanged(rng):
    t, a = make_tensor((50, 40), torch.float32, "transposed", rng)
    stride, offset = t.stride(), t.storage_offset()
    repr(t)
    assert t.stride() == stride and t.storage_offset() == offset
    np.testing.assert_array_equal(t.numpy(), a)
