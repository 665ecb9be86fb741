"""torch.bfloat16: every case of bfloat16_cases.py gives what real PyTorch 1.13 gives (bit for
bit where 1.13 rounds once per element, within bfloat16's precision where it rounds in steps);
the rounding from float32 agrees with a plain reference on every float32 exponent; and
torch.save files of bfloat16 tensors load both ways between this package and PyTorch 1.13."""

import os

import numpy as np
import pytest

import bfloat16_cases
import torch
from real_pytorch import run_real_python, same_as_pytorch_1_13

HERE = os.path.dirname(os.path.abspath(__file__))

# 1.13 rounds the steps of its composite bfloat16 kernels (a softmax's exp, sum and division
# each), this package computes them in float and rounds once: a few units of bfloat16's last
# place (2^-8 relative) apart, more where a sum cancels.
COMPOSITE = (3e-2, 3e-2)


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "bfloat16_cases.py",
    bfloat16_cases.CASES,
    lambda name, got, want: (0, 0) if name in bfloat16_cases.EXACT else COMPOSITE,
)


def _reference_bits(values):
    """Round-to-nearest-even of float32 values to their upper 16 bits, written as the definition
    says, in Python integers (NaN: the quiet NaN 0x7FC0)."""
    out = []
    for v in values:
        if np.isnan(v):
            out.append(0x7FC0)
            continue
        u = int(np.array(v, dtype=np.float32).view(np.uint32))
        upper, lower = u >> 16, u & 0xFFFF
        if lower > 0x8000 or (lower == 0x8000 and upper & 1):
            upper += 1  # past the halfway point, or a tie to an odd upper half
        out.append(upper & 0xFFFF)
    return np.array(out, dtype=np.uint16)


def test_rounding_against_a_plain_reference():
    rng = np.random.default_rng(7)
    patterns = rng.integers(0, 2**32, size=30000, dtype=np.uint64).astype(np.uint32)
    # every bfloat16 value's neighbourhood: its exact value, the ties above it and one ulp of
    # float32 either side of the tie
    upper = np.arange(0, 2**16, dtype=np.uint32) << 16
    ties = upper | 0x8000
    values = np.concatenate([patterns, upper, ties, ties - 1, ties + 1]).view(np.float32)
    got = (torch.from_numpy(values).bfloat16().float().numpy().view(np.uint32) >> 16).astype(np.uint16)
    want = _reference_bits(values)
    nan = np.isnan(values)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    # a NaN stays a NaN (any payload rounds to a NaN, never to an infinity)
    assert np.isnan(torch.from_numpy(values[nan]).bfloat16().float().numpy()).all()


def test_every_bfloat16_value_widens_exactly():
    patterns = np.arange(0, 2**16, dtype=np.uint32)
    as_float = (patterns << 16).view(np.float32)
    t = torch.from_numpy(as_float).bfloat16()
    widened = t.float().numpy()
    finite = ~np.isnan(as_float)
    np.testing.assert_array_equal(widened[finite].view(np.uint32), (patterns << 16)[finite])
    assert np.isnan(widened[~finite]).all()


def test_in_place_ops_on_views_leave_the_rest_alone():
    base = torch.arange(12, dtype=torch.bfloat16).reshape(3, 4)
    before = base.clone()
    base[1].mul_(2).add_(0.5)
    expect = before.float().numpy()
    expect[1] = expect[1] * 2 + 0.5
    np.testing.assert_array_equal(base.float().numpy(), expect)
    # an op whose output is one of its inputs
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.bfloat16)
    torch.add(x, x, out=x)
    np.testing.assert_array_equal(x.float().numpy(), [2.0, 4.0, 6.0])


def test_bad_input_gets_clear_errors():
    x = torch.ones(3, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="BFloat16"):
        x.numpy()
    with pytest.raises(RuntimeError):
        torch.linalg.det(torch.ones(2, 2, dtype=torch.bfloat16))  # as 1.13: no LU in bfloat16
    before = x.clone()
    with pytest.raises(RuntimeError):
        x.add_(torch.ones(4))
    assert torch.equal(x, before)


# ---- torch.save / torch.load across this package and PyTorch 1.13 ----

_SAVE = """
import sys, torch
a = torch.tensor([[1.0, -2.5e-3], [3.3333, 1e30]], dtype=torch.bfloat16)
torch.save({"a": a, "row": a[1], "f": a.float()}, sys.argv[1])
"""
_LOAD = """
import sys, torch
d = torch.load(sys.argv[1])
print(repr(d["a"]), repr(d["row"]), repr(d["f"]), d["a"].dtype, type(d["a"].storage()).__name__)
"""


def test_save_load_with_pytorch_1_13(tmp_path):
    ours_file, theirs_file = str(tmp_path / "ours.pt"), str(tmp_path / "theirs.pt")
    a = torch.tensor([[1.0, -2.5e-3], [3.3333, 1e30]], dtype=torch.bfloat16)
    torch.save({"a": a, "row": a[1], "f": a.float()}, ours_file)
    run_real_python(_SAVE, theirs_file)
    real_load = run_real_python(_LOAD, ours_file)
    d = torch.load(theirs_file)
    assert torch.equal(d["a"], a) and d["a"].dtype == torch.bfloat16
    # the row saved as a view still shares the matrix's storage
    d["row"][0] = 7
    assert d["a"][1, 0].item() == 7
    real_lines = real_load.rsplit(" ", 2)
    assert "%r %r %r" % (a, a[1], a.float()) == real_lines[0]
    assert real_lines[1:] == ["torch.bfloat16", "TypedStorage\n"]


def test_half_conversions_against_numpy():
    # float16 takes the same bulk path (F16C where the processor has it): numpy's float16 is
    # an independent rounding to nearest even
    rng = np.random.default_rng(11)
    values = np.concatenate(
        [
            rng.integers(0, 2**32, size=40000, dtype=np.uint64).astype(np.uint32).view(np.float32),
            rng.standard_normal(5000).astype(np.float32) * 1e-5,  # half's subnormals
            np.array([65504.0, 65520.0, 65519.996, 6.1e-5, 5.96e-8, 2.98e-8, 2.99e-8], dtype=np.float32),
        ]
    )
    got = torch.from_numpy(values).half().numpy()
    want = values.astype(np.float16)
    nan = np.isnan(values)
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16))
    assert np.isnan(got[nan]).all()
    every = np.arange(0, 2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    widened = torch.from_numpy(every).float().numpy()
    finite = ~np.isnan(every)
    np.testing.assert_array_equal(widened[finite], every[finite].astype(np.float32))
    assert np.isnan(widened[~finite]).all()


def _ulps_apart(a, b):
    """Distance in bfloat16 units in the last place between two bfloat16 tensors (same sign)."""
    ia = (a.float().numpy().view(np.int32) >> 16).astype(np.int64)
    ib = (b.float().numpy().view(np.int32) >> 16).astype(np.int64)
    return np.abs(ia - ib)


@pytest.mark.parametrize("layout", ["plain", "transposed", "strided", "batched"])
def test_products_on_onednn_against_float(layout):
    # Note [bfloat16 products on oneDNN]: the product read in bfloat16, summed in float, rounded
    # once; the reference computes the same in float32 (another summation order: at most one
    # unit apart after rounding)
    g = torch.Generator().manual_seed(3)
    x = torch.randn(37, 64, generator=g).bfloat16()
    y = torch.randn(64, 29, generator=g).bfloat16()
    t = torch.randn(37, 29, generator=g).bfloat16()
    if layout == "transposed":
        x, y = x.t().contiguous().t(), y.t().contiguous().t()
    if layout == "strided":
        x = torch.randn(37, 128, generator=g).bfloat16()[:, ::2]
    if layout == "batched":
        xb, yb, tb = x.expand(3, 37, 64) * 0.5, y.expand(3, 64, 29), t.expand(3, 37, 29)
        got = [torch.baddbmm(tb, xb, yb, beta=0.5, alpha=2), torch.bmm(xb, yb)]
        want = [
            (0.5 * tb.float() + 2 * torch.bmm(xb.float(), yb.float())).bfloat16(),
            torch.bmm(xb.float(), yb.float()).bfloat16(),
        ]
    else:
        got = [torch.addmm(t, x, y, beta=0.5, alpha=2), x @ y, torch.nn.functional.linear(x, y.t(), t[0])]
        want = [
            (0.5 * t.float() + 2 * (x.float() @ y.float())).bfloat16(),
            (x.float() @ y.float()).bfloat16(),
            (x.float() @ y.float() + t[0].float()).bfloat16(),
        ]
    for a, b in zip(got, want):
        assert a.dtype == torch.bfloat16 and a.shape == b.shape
        assert _ulps_apart(a, b).max() <= 1


@pytest.mark.parametrize("geometry", [dict(), dict(padding=1), dict(stride=2, padding=2, dilation=2), dict(groups=2)])
def test_convolutions_on_onednn_against_float(geometry):
    # the same for oneDNN's bfloat16 convolution (groups take the float path)
    g = torch.Generator().manual_seed(5)
    x = torch.randn(2, 4, 11, 9, generator=g).bfloat16()
    w = torch.randn(6, 4 // geometry.get("groups", 1), 3, 3, generator=g).bfloat16()
    b = torch.randn(6, generator=g).bfloat16()
    F = torch.nn.functional
    got = F.conv2d(x, w, b, **geometry)
    want = F.conv2d(x.float(), w.float(), b.float(), **geometry).bfloat16()
    assert got.dtype == torch.bfloat16 and got.shape == want.shape
    assert _ulps_apart(got, want).max() <= 1
