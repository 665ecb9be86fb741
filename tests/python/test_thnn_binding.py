"""torch._C._thnn: THNN's kernels for Float and Double, called without the state, over the
core's tensors, with index base 0; against numpy, THNN's headers and the Lua binding's list."""

import glob
import os
import re

import numpy as np
import pytest

import torch
import torch.lua as tl

THNN = torch._C._thnn
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def declared_kernels():
    """Every `THNN_(name)(...)` declaration of THNN's generic headers, read here on its own."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "THNN", "generic", "*.h")):
        with open(path) as f:
            names |= set(re.findall(r"TH_API\s+void\s+THNN_\((\w+)\)", f.read()))
    return names


def kernels(backend):
    return {n for n in dir(backend) if not n.startswith("_")}


def test_every_declared_kernel_is_bound_for_float_and_double():
    declared = declared_kernels()
    assert len(declared) > 150
    assert kernels(THNN.Float) == declared
    assert kernels(THNN.Double) == declared


def test_python_and_lua_bind_the_same_list():
    rt = tl.Runtime()
    names = rt.execute("""
        local out = {}
        for k in pairs(torch._C.THNN.Double) do out[#out + 1] = k end
        return out""")
    assert set(tl.to_python(names)) == kernels(THNN.Double)


def test_docstring_names_the_parameters():
    assert "Linear_updateOutput(input, output, weight, bias, addBuffer)" in THNN.Float.Linear_updateOutput.__doc__


@pytest.mark.parametrize("dtype, backend", [(torch.float32, THNN.Float), (torch.float64, THNN.Double)])
def test_linear_against_numpy(dtype, backend):
    rng = np.random.default_rng(0)
    x, w, b = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal(5)
    go = rng.standard_normal((3, 5))
    t = [torch.from_numpy(a).to(dtype) for a in (x, w, b, go)]
    out, gi, gw, gb, buf = (torch.empty(0, dtype=dtype) for _ in range(5))
    gw.resize_(5, 4).zero_()
    gb.resize_(5).zero_()
    backend.Linear_updateOutput(t[0], out, t[1], t[2], buf)
    backend.Linear_updateGradInput(t[0], t[3], gi, t[1])
    backend.Linear_accGradParameters(t[0], t[3], None, t[1], t[2], gw, gb, buf, 0.5)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), x @ w.T + b, rtol=tol, atol=tol)
    np.testing.assert_allclose(gi.numpy(), go @ w, rtol=tol, atol=tol)
    np.testing.assert_allclose(gw.numpy(), 0.5 * go.T @ x, rtol=tol, atol=tol)
    np.testing.assert_allclose(gb.numpy(), 0.5 * go.sum(0), rtol=tol, atol=tol)


def test_non_contiguous_arguments():
    x = torch.randn(4, 3, dtype=torch.float64).t()
    out = torch.empty(0, dtype=torch.float64)
    THNN.Double.Tanh_updateOutput(x, out)
    np.testing.assert_allclose(out.numpy(), np.tanh(x.numpy()), rtol=1e-14)


def test_indices_count_from_zero():
    x = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3]], dtype=torch.float64).log()
    out, total = torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.float64)
    THNN.Double.ClassNLLCriterion_updateOutput(x, torch.tensor([1, 0]), out, True, None, total, -100, True)
    assert out.item() == pytest.approx(-(np.log(0.7) + np.log(0.5)) / 2, rel=1e-12)
    assert total.item() == 2
    # max pooling gives 0-based flat positions in the plane
    plane = torch.tensor([[[1.0, 5.0], [3.0, 2.0]]], dtype=torch.float64)
    idx = torch.empty(0, dtype=torch.long)
    THNN.Double.SpatialMaxPooling_updateOutput(plane, out, idx, 2, 2, 2, 2, 0, 0, False)
    assert out.tolist() == [[[5.0]]] and idx.tolist() == [[[1]]]


def test_none_only_where_the_kernel_accepts_null():
    x, w = torch.randn(2, 3, dtype=torch.float64), torch.randn(4, 3, dtype=torch.float64)
    out = torch.empty(0, dtype=torch.float64)
    THNN.Double.Linear_updateOutput(x, out, w, None, torch.empty(0, dtype=torch.float64))  # bias is optional
    np.testing.assert_allclose(out.numpy(), x.numpy() @ w.numpy().T, rtol=1e-12)
    with pytest.raises(TypeError, match=r"argument 2 \(output\): torch.DoubleTensor expected, got NoneType"):
        THNN.Double.Tanh_updateOutput(x, None)
    with pytest.raises(TypeError, match=r"argument 3 \(weight\)"):
        THNN.Double.Linear_updateOutput(x, out, None, None, out)


def test_wrong_arguments_raise_type_errors_and_write_nothing():
    x = torch.randn(2, 3, dtype=torch.float64)
    out = torch.full((2, 3), 7.0, dtype=torch.float64)
    calls = [
        (
            lambda: THNN.Double.Tanh_updateOutput(x.float(), out),
            r"argument 1 \(input\): torch.DoubleTensor expected, "
            r"got torch.FloatTensor",
        ),
        (lambda: THNN.Float.Tanh_updateOutput(x, out), r"torch.FloatTensor expected"),
        (lambda: THNN.Double.Tanh_updateOutput(x, 3), r"got int"),
        (lambda: THNN.Double.Tanh_updateOutput(x.tolist(), out), r"got list"),
        (lambda: THNN.Double.Tanh_updateOutput(x), r"2 arguments expected \(input, output\), got 1"),
        (lambda: THNN.Double.Tanh_updateOutput(x, out, out), r"got 3"),
        (lambda: THNN.Double.Threshold_updateOutput(x, out, 0, 0, 1), r"argument 5 \(inplace\): bool expected"),
        (lambda: THNN.Double.Threshold_updateOutput(x, out, "0", 0, False), r"argument 3 \(threshold\): a number"),
        (lambda: THNN.Double.Threshold_updateOutput(x, out, True, 0, False), r"a number"),
        (lambda: THNN.Double.LookupTable_updateOutput(torch.tensor([0.0]), out, x), r"torch.LongTensor expected"),
        (
            lambda: THNN.Double.RReLU_updateOutput(x, out, out.clone(), 0.1, 0.3, True, False, torch.Generator()),
            r"argument 8 \(generator\): None",
        ),
    ]
    for call, message in calls:
        with pytest.raises(TypeError, match=message):
            call()
        assert out.tolist() == [[7.0] * 3] * 2


def test_integer_arguments_take_integral_floats():
    # Lua numbers read by load_lua are floats: 2.0 is the int 2, 2.5 is refused
    x = torch.randn(1, 4, 4, dtype=torch.float64)
    a, b = torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.float64)
    ia, ib = torch.empty(0, dtype=torch.long), torch.empty(0, dtype=torch.long)
    THNN.Double.SpatialMaxPooling_updateOutput(x, a, ia, 2, 2, 2, 2, 0, 0, False)
    THNN.Double.SpatialMaxPooling_updateOutput(x, b, ib, 2.0, 2.0, 2.0, 2.0, 0.0, 0.0, False)
    assert torch.equal(a, b) and torch.equal(ia, ib)
    for bad in (2.5, "2", None, 2**40):
        with pytest.raises(TypeError, match=r"argument 4 \(kW\): an int expected"):
            THNN.Double.SpatialMaxPooling_updateOutput(x, b, ib, bad, 2, 2, 2, 0, 0, False)


def test_kernel_errors_name_the_kernel_and_write_nothing():
    x, w = torch.randn(2, 3, dtype=torch.float64), torch.randn(4, 5, dtype=torch.float64)
    out = torch.full((2, 4), 7.0, dtype=torch.float64)
    with pytest.raises(RuntimeError, match=r"Linear_updateOutput: .*\[2, 3\].*\[4, 5\]"):
        THNN.Double.Linear_updateOutput(x, out, w, None, torch.empty(0, dtype=torch.float64))
    assert out.tolist() == [[7.0] * 4] * 2
    loss, total = torch.full((1,), 7.0, dtype=torch.float64), torch.full((1,), 7.0, dtype=torch.float64)
    with pytest.raises(IndexError, match="ClassNLLCriterion_updateOutput: target 3 is out of range"):
        THNN.Double.ClassNLLCriterion_updateOutput(x, torch.tensor([0, 3]), loss, True, None, total, -100, True)
    assert loss.tolist() == [7.0] and total.tolist() == [7.0]


def test_generator_is_the_default_one():
    x = torch.randn(50, dtype=torch.float64) - 0.5
    noise = [torch.empty(0, dtype=torch.float64) for _ in range(2)]
    out = torch.empty(0, dtype=torch.float64)
    for n in noise:
        torch.manual_seed(3)
        THNN.Double.RReLU_updateOutput(x, out, n, 0.1, 0.3, True, False, None)
    assert torch.equal(noise[0], noise[1])
    neg = x.numpy() <= 0
    assert ((noise[0].numpy()[neg] >= 0.1) & (noise[0].numpy()[neg] < 0.3)).all()
    assert (noise[0].numpy()[~neg] == 1).all()
    np.testing.assert_allclose(out.numpy(), x.numpy() * noise[0].numpy(), rtol=1e-15)


def test_tensors_requiring_grad_are_read_without_recording():
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    out = torch.empty(0, dtype=torch.float64)
    THNN.Double.Sigmoid_updateOutput(x, out)
    assert out.grad_fn is None and not out.requires_grad
    np.testing.assert_allclose(out.numpy(), 1 / (1 + np.exp(-x.detach().numpy())), rtol=1e-14)
