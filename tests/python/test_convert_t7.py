"""torch.utils.convert_t7: torch7 models to torch.nn modules (and back), against the outputs
torch7 itself recorded (../shared/fixtures/t7: mlp_io.t7, cnn_io.t7) and against numpy
recomputations of each torch7 module's definition, on structures built as the placeholder
objects load_lua gives (saved and loaded again, so numbers are Lua doubles as in a file)."""

import io
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import torch
from legacy_helpers import fixture, np_log_softmax, through_file
from test_load_lua_mapping import build_gmodule, rename_classes
from torch import nn
from torch.legacy import nn as legacy_nn
from torch.utils import convert_t7
from torch.utils.convert_t7 import ConversionError, check, convert, emit_python, to_t7
from torch.utils.serialization import load_lua, save_lua

PYTHON_DIR = os.path.dirname(os.path.dirname(torch.__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def obj(typename, **fields):
    """A torch7 object with its fields as torch7 writes them (dimensions and positions
    1-based), turned 0-based as load_lua turns them (Note [1-based fields])."""
    made = legacy_nn.class_for(typename)(**fields)
    legacy_nn.t7fields.from_torch7(made, {})
    return made


def run(module, x):
    with torch.no_grad():
        return module(x)


def rand(*shape, dtype=torch.float64, seed=0):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)).to(dtype)


def linear(w, b=None, **extra):
    fields = dict(weight=w, gradWeight=torch.zeros_like(w), **extra)
    if b is not None:
        fields.update(bias=b, gradBias=torch.zeros_like(b))
    return obj("nn.Linear", **fields)


# ---------------------------------------------------------------- numpy references


def np_conv2d(x, w, b, stride=(1, 1), pad=(0, 0), groups=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    ho, wo = (h + 2 * pad[0] - kh) // stride[0] + 1, (wd + 2 * pad[1] - kw) // stride[1] + 1
    out = np.zeros((n, o, ho, wo))
    og = o // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                patch = xp[
                    :, g * cg : (g + 1) * cg, i : i + stride[0] * ho : stride[0], j : j + stride[1] * wo : stride[1]
                ]
                out[:, g * og : (g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og : (g + 1) * og, :, i, j])
    return out + (0 if b is None else b[None, :, None, None])


def np_full_conv2d(x, w, b, stride, pad, adj):
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    full = np.zeros((n, o, (h - 1) * stride[0] + kh + adj[0], (wd - 1) * stride[1] + kw + adj[1]))
    for i in range(kh):
        for j in range(kw):
            full[:, :, i : i + stride[0] * h : stride[0], j : j + stride[1] * wd : stride[1]] += np.einsum(
                "nchw,co->nohw", x, w[:, :, i, j]
            )
    ho = (h - 1) * stride[0] - 2 * pad[0] + kh + adj[0]
    wo = (wd - 1) * stride[1] - 2 * pad[1] + kw + adj[1]
    return full[:, :, pad[0] : pad[0] + ho, pad[1] : pad[1] + wo] + b[None, :, None, None]


def np_pool(x, k, s, p, ceil, kind, count_include_pad=True):
    """THNN's pooling: torch7's output size rule (in ceil mode the last window must start
    inside the input or its left padding), windows clipped to input + padding."""
    n, c, h, w = x.shape

    def out_size(length, k, s, p):
        o = (math.ceil if ceil else math.floor)((length + 2 * p - k) / s) + 1
        if ceil and (o - 1) * s >= length + p:
            o -= 1
        return o

    ho, wo = out_size(h, k[0], s[0], p[0]), out_size(w, k[1], s[1], p[1])
    out = np.zeros((n, c, ho, wo))
    for i in range(ho):
        for j in range(wo):
            h0, w0 = i * s[0] - p[0], j * s[1] - p[1]
            h1, w1 = min(h0 + k[0], h + p[0]), min(w0 + k[1], w + p[1])
            hs, ws, he, we = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            win = x[:, :, hs:he, ws:we]
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                count = (h1 - h0) * (w1 - w0) if count_include_pad else (he - hs) * (we - ws)
                out[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return out


# ---------------------------------------------------------------- torch7's own outputs


@pytest.mark.parametrize("name", ["mlp.t7", "mlp_ascii.t7"])
def test_mlp_fixture_matches_torch7(name):
    mlp = load_lua(fixture(name))
    io_ = load_lua(fixture("mlp_io.t7"))
    model = convert(mlp)
    assert isinstance(model, nn.Sequential) and len(model) == 4
    assert isinstance(model[0], nn.Linear) and isinstance(model[1], nn.Tanh)
    assert model[0].weight.dtype == torch.float64
    np.testing.assert_array_equal(model[0].weight.detach().numpy(), mlp.modules[0].weight.numpy())
    assert model[0].weight.storage()._cdata != mlp.modules[0].weight.storage()._cdata  # a copy
    out = run(model, io_["input"])
    np.testing.assert_allclose(out.numpy(), io_["output"].numpy(), rtol=0, atol=1e-6)
    np.testing.assert_allclose(run(model, io_["input_single"]).numpy(), io_["output_single"].numpy(), rtol=0, atol=1e-6)
    # a non-contiguous view of the same input gives the same
    xt = io_["input"].t().contiguous().t()
    np.testing.assert_allclose(run(model, xt).numpy(), io_["output"].numpy(), rtol=0, atol=1e-6)
    diff, tol, how = check(mlp, model, io_["input"], io_["output"])
    assert how == "recorded output" and diff <= 1e-6 and diff <= tol


def test_cnn_fixture_matches_torch7():
    cnn = load_lua(fixture("cnn.t7"))
    io_ = load_lua(fixture("cnn_io.t7"))
    model = convert(cnn)
    assert not model.training and not model[3].training  # saved after cnn:evaluate()
    assert isinstance(model[0], nn.Conv2d) and model[0].padding == (1, 1)
    np.testing.assert_array_equal(model[3].running_mean.numpy(), io_["bn_running_mean"].numpy())
    np.testing.assert_array_equal(model[3].running_var.numpy(), io_["bn_running_var"].numpy())
    out = run(model, io_["input"])
    assert out.dtype == torch.float32 and out.shape == (2, 10)
    np.testing.assert_allclose(out.numpy(), io_["output"].numpy(), rtol=0, atol=1e-4)


# ---------------------------------------------------------------- command line


def cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    return subprocess.run(
        [sys.executable, "-m", "torch.utils.convert_t7", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def printed_difference(stdout):
    match = re.search(r"max difference (\S+)", stdout)
    assert match, stdout
    return float(match.group(1))


def test_cli_converts_checks_and_emits_python(tmp_path):
    out, src, whole = tmp_path / "cnn.pt", tmp_path / "cnn_model.py", tmp_path / "whole.pt"
    r = cli(
        fixture("cnn.t7"),
        str(out),
        "--reference",
        fixture("cnn_io.t7"),
        "--emit-python",
        str(src),
        "--save-module",
        str(whole),
    )
    assert r.returncode == 0, r.stderr
    assert printed_difference(r.stdout) <= 1e-4
    assert out.exists() and src.exists() and whole.exists()
    state = torch.load(str(out))
    assert set(state) >= {"0.weight", "0.bias", "3.running_mean", "3.running_var", "5.weight"}
    # the emitted class, in a fresh interpreter, with the saved weights: torch7's output
    script = (
        "import importlib.util, sys, torch\n"
        "from torch.utils.serialization import load_lua\n"
        "spec = importlib.util.spec_from_file_location('cnn_model', sys.argv[1])\n"
        "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "model = mod.load(sys.argv[2]).eval()\n"
        "io_ = load_lua(sys.argv[3])\n"
        "with torch.no_grad():\n"
        "    print((model(io_['input']) - io_['output']).abs().max().item())\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", script, str(src), str(out), fixture("cnn_io.t7")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=PYTHON_DIR),
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert float(r.stdout.split()[-1]) <= 1e-4


def test_cli_refuses_a_tampered_model(tmp_path):
    mlp = load_lua(fixture("mlp.t7"))
    io_ = load_lua(fixture("mlp_io.t7"))
    mlp.modules[2].bias[1] += 0.5  # shifts one log-probability logit
    bad = tmp_path / "bad.t7"
    save_lua(mlp, str(bad))
    out = tmp_path / "bad.pt"
    r = cli(str(bad), str(out), "--reference", fixture("mlp_io.t7"))
    assert r.returncode == 1
    assert "refusing" in r.stderr and not out.exists()
    # the printed difference is the real one: numpy's forward of the tampered weights
    l1, l3 = mlp.modules[0], mlp.modules[2]
    h = np.tanh(io_["input"].numpy() @ l1.weight.numpy().T + l1.bias.numpy())
    expected = np.abs(np_log_softmax(h @ l3.weight.numpy().T + l3.bias.numpy(), 1) - io_["output"].numpy()).max()
    assert printed_difference(r.stdout) == pytest.approx(expected, rel=1e-3)
    # a tolerance above it accepts
    r = cli(str(bad), str(out), "--reference", fixture("mlp_io.t7"), "--tolerance", str(expected * 2))
    assert r.returncode == 0 and out.exists()


def test_cli_errors(tmp_path):
    r = cli(str(tmp_path / "missing.t7"), str(tmp_path / "o.pt"))
    assert r.returncode == 2 and "missing.t7" in r.stderr
    model = obj("nn.Sequential", modules=[linear(torch.ones(2, 3)), obj("nn.FancyLayer", size=3)])
    save_lua(model, str(tmp_path / "fancy.t7"))
    r = cli(str(tmp_path / "fancy.t7"), str(tmp_path / "o.pt"))
    assert r.returncode == 2 and "nn.FancyLayer" in r.stderr and "model.2" in r.stderr
    save_lua({"input": torch.ones(2)}, str(tmp_path / "io.t7"))
    r = cli(fixture("mlp.t7"), str(tmp_path / "o.pt"), "--reference", str(tmp_path / "io.t7"))
    assert r.returncode == 2 and "output" in r.stderr
    assert not (tmp_path / "o.pt").exists()


class _NoForward:
    """A stand-in for a legacy module that cannot run."""


class _NumpyLegacy:
    """A stand-in for a legacy module whose forward is numpy's Linear + Tanh."""

    def __init__(self, w, b):
        self.w, self.b = w, b

    def forward(self, x):
        return torch.from_numpy(np.tanh(x.numpy() @ self.w.T + self.b))


def test_check_reference_choice():
    w, b = rand(3, 4).numpy(), rand(3, seed=1).numpy()
    model = nn.Sequential(nn.Linear(4, 3), nn.Tanh()).double()
    model[0].weight = nn.Parameter(torch.from_numpy(w.copy()))
    model[0].bias = nn.Parameter(torch.from_numpy(b.copy()))
    x = rand(5, 4, seed=2)
    assert check(_NoForward(), model, x) == (None, None, "no reference")
    diff, tol, how = check(_NumpyLegacy(w, b), model, x)
    assert how == "legacy forward" and diff <= 1e-12 and tol == pytest.approx(1e-8)
    diff, _, _ = check(_NumpyLegacy(w, b + 0.25), model, x)
    assert diff == pytest.approx(np.abs(np.tanh(x.numpy() @ w.T + b) - np.tanh(x.numpy() @ w.T + b + 0.25)).max())


# ---------------------------------------------------------------- structures built by hand


def residual_block(w1, b1, w2, b2):
    return obj(
        "nn.Sequential",
        modules=[
            obj(
                "nn.ConcatTable",
                modules=[
                    obj("nn.Sequential", modules=[linear(w1, b1), obj("nn.ReLU", threshold=0, val=0), linear(w2, b2)]),
                    obj("nn.Identity"),
                ],
            ),
            obj("nn.CAddTable"),
            obj("nn.ReLU", threshold=0, val=0),
        ],
    )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_residual_block(dtype):
    w1, b1, w2, b2 = (
        rand(6, 6, dtype=dtype),
        rand(6, dtype=dtype, seed=1),
        rand(6, 6, dtype=dtype, seed=2),
        rand(6, dtype=dtype, seed=3),
    )
    model = convert(through_file(residual_block(w1, b1, w2, b2)))
    x = rand(4, 6, dtype=dtype, seed=4)
    xn = x.numpy().astype(np.float64)
    inner = np.maximum(xn @ w1.numpy().T + b1.numpy(), 0) @ w2.numpy().T + b2.numpy()
    expected = np.maximum(inner + xn, 0)
    out = run(model, x)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), expected, rtol=0, atol=1e-5 if dtype == torch.float32 else 1e-12)


def test_concat_parallel_and_tables():
    wa, wb = rand(3, 4), rand(2, 4, seed=1)
    concat = through_file(obj("nn.Concat", dimension=2, modules=[linear(wa), linear(wb)]))
    x = rand(5, 4, seed=2)
    np.testing.assert_allclose(
        run(convert(concat), x).numpy(),
        np.concatenate([x.numpy() @ wa.numpy().T, x.numpy() @ wb.numpy().T], 1),
        atol=1e-12,
    )
    # Parallel(2, 2): module i on input:select(2, i), outputs joined along dimension 2
    ws = [rand(2, 4, seed=s) for s in range(3)]
    par = through_file(obj("nn.Parallel", inputDimension=2, outputDimension=2, modules=[linear(w) for w in ws]))
    x = rand(5, 3, 4, seed=3)
    expected = np.concatenate([x.numpy()[:, i] @ ws[i].numpy().T for i in range(3)], 1)
    np.testing.assert_allclose(run(convert(par), x).numpy(), expected, atol=1e-12)
    # ParallelTable then JoinTable(1, 1) on a batch: joined along the feature dimension
    seq = through_file(
        obj(
            "nn.Sequential",
            modules=[
                obj("nn.ParallelTable", modules=[linear(wa), obj("nn.Identity")]),
                obj("nn.JoinTable", dimension=1, nInputDims=1),
            ],
        )
    )
    a, b = rand(5, 4, seed=4), rand(5, 2, seed=5)
    np.testing.assert_allclose(
        run(convert(seq), [a, b]).numpy(), np.concatenate([a.numpy() @ wa.numpy().T, b.numpy()], 1), atol=1e-12
    )
    # the same JoinTable on one sample (no batch): dimension 1 is the features
    np.testing.assert_allclose(
        run(convert(seq), [a[0], b[0]]).numpy(), np.concatenate([a.numpy()[0] @ wa.numpy().T, b.numpy()[0]]), atol=1e-12
    )
    tables = [a, b, rand(5, 1, seed=6)]
    assert run(convert(through_file(obj("nn.SelectTable", index=-1))), tables) is tables[2]
    assert run(convert(through_file(obj("nn.SelectTable", index=2))), tables) is tables[1]
    got = run(convert(through_file(obj("nn.NarrowTable", offset=2, length=2))), tables)
    assert got[0] is tables[1] and got[1] is tables[2] and len(got) == 2
    prod = run(convert(through_file(obj("nn.CMulTable"))), [a, a])
    np.testing.assert_allclose(prod.numpy(), a.numpy() ** 2, atol=1e-12)


def test_nngraph_graphs():
    wa, ba, wb, bb = rand(4, 4), rand(4, seed=1), rand(4, 4, seed=2), rand(4, seed=3)
    spec = [
        ("in", None, [], {}),
        ("a", linear(wa, ba), ["in"], {}),
        ("b", linear(wb, bb), ["in"], {}),
        ("sum", obj("nn.CAddTable"), ["a", "b"], {}),
        ("tanh", obj("nn.Tanh"), ["sum"], {}),
    ]
    g = convert(through_file(build_gmodule(spec, ["tanh"])))
    assert isinstance(g, convert_t7.Graph) and len(g.layers) == 4
    x = rand(3, 4, seed=4)
    xn = x.numpy()
    np.testing.assert_allclose(
        run(g, x).numpy(), np.tanh(xn @ wa.numpy().T + ba.numpy() + xn @ wb.numpy().T + bb.numpy()), atol=1e-12
    )
    # two inputs through nngraph's split node, two outputs
    spec = [
        ("in", None, [], {}),
        ("split", None, ["in"], {"nSplitOutputs": 2.0}),
        ("x1", None, ["split"], {"selectindex": 1.0}),
        ("x2", None, ["split"], {"selectindex": 2.0}),
        ("a", linear(wa, ba), ["x1"], {}),
        ("join", obj("nn.JoinTable", dimension=1, nInputDims=1), ["a", "x2"], {}),
        ("neg", obj("nn.MulConstant", constant_scalar=-2.0), ["x2"], {}),
    ]
    g = convert(through_file(build_gmodule(spec, ["join", "neg"], n_inputs=2)))
    x1, x2 = rand(3, 4, seed=5), rand(3, 2, seed=6)
    join, neg = run(g, [x1, x2])
    np.testing.assert_allclose(
        join.numpy(), np.concatenate([x1.numpy() @ wa.numpy().T + ba.numpy(), x2.numpy()], 1), atol=1e-12
    )
    np.testing.assert_allclose(neg.numpy(), -2 * x2.numpy(), atol=1e-12)
    # emitted source rebuilds the graph: same outputs with the same state_dict
    ns = {}
    exec(compile(emit_python(g), "<emitted>", "exec"), ns)
    again = ns["Model"]()
    again.load_state_dict(g.state_dict())
    join2, neg2 = run(again, [x1, x2])
    np.testing.assert_array_equal(join2.numpy(), join.numpy())


def test_view_and_reshape_batch_semantics():
    view = convert(through_file(obj("nn.View", size=torch.tensor([128]).storage(), numElements=128)))
    assert run(view, torch.zeros(4, 8, 4, 4)).shape == (4, 128)
    assert run(view, torch.zeros(8, 4, 4)).shape == (128,)
    view = convert(through_file(obj("nn.View", size=torch.tensor([-1]).storage(), numElements=1, numInputDims=3)))
    assert run(view, torch.zeros(5, 2, 3, 4)).shape == (5, 24)
    assert run(view, torch.zeros(2, 3, 4)).shape == (24,)
    view = convert(through_file(obj("nn.View", size=torch.tensor([2, 6]).storage(), numElements=12)))
    x = rand(3, 12)
    np.testing.assert_array_equal(run(view, x).numpy(), x.numpy().reshape(3, 2, 6))
    reshape = convert(through_file(obj("nn.Reshape", size=torch.tensor([6]).storage(), nelement=6)))
    assert run(reshape, torch.zeros(4, 2, 3)).shape == (4, 6)  # batch: more elements than 6
    assert run(reshape, torch.zeros(2, 3)).shape == (6,)
    assert run(reshape, torch.zeros(1, 6)).shape == (1, 6)  # a first dimension of 1 is a batch
    forced = convert(through_file(obj("nn.Reshape", size=torch.tensor([3, 2]).storage(), nelement=6, batchMode=False)))
    assert run(forced, torch.zeros(1, 6)).shape == (3, 2)


def test_shape_modules():
    x = rand(2, 5, 3)
    xn = x.numpy()
    narrow = convert(through_file(obj("nn.Narrow", dimension=2, index=2, length=-2)))
    np.testing.assert_array_equal(run(narrow, x).numpy(), xn[:, 1:4])  # up to one before the end
    select = convert(through_file(obj("nn.Select", dimension=-1, index=-1)))
    np.testing.assert_array_equal(run(select, x).numpy(), xn[:, :, -1])
    select = convert(through_file(obj("nn.Select", dimension=2, index=3)))
    np.testing.assert_array_equal(run(select, x).numpy(), xn[:, 2])
    # Padding(dim 1, 2 before, nInputDim 2): on a batch of 2-D samples, dimension 2 of the tensor
    pad = convert(through_file(obj("nn.Padding", dim=1, pad=-2, nInputDim=2, value=7.0, index=1)))
    np.testing.assert_array_equal(run(pad, x).numpy(), np.concatenate([np.full((2, 2, 3), 7.0), xn], 1))
    pad_after = convert(through_file(obj("nn.Padding", dim=2, pad=1, value=0.0, index=1)))
    np.testing.assert_array_equal(run(pad_after, x).numpy(), np.concatenate([xn, np.zeros((2, 1, 3))], 1))
    mean = convert(through_file(obj("nn.Mean", dimension=1, nInputDims=2, sizeAverage=True)))
    np.testing.assert_allclose(run(mean, x).numpy(), xn.mean(1), atol=1e-12)  # batch: the sample's first dim
    total = convert(through_file(obj("nn.Sum", dimension=2)))
    np.testing.assert_allclose(run(total, x).numpy(), xn.sum(1), atol=1e-12)
    mul = convert(through_file(obj("nn.MulConstant", constant_scalar=2.5)))
    np.testing.assert_array_equal(run(mul, x).numpy(), xn * 2.5)
    tr = convert(through_file(obj("nn.Transpose", permutations=[[1, 3]])))
    np.testing.assert_array_equal(run(tr, x).numpy(), xn.transpose(2, 1, 0))


def test_softmax_dimension_follows_torch7():
    sm = convert(through_file(obj("nn.LogSoftMax")))
    for shape, axis in [((5,), 0), ((3, 5), 1), ((4, 3, 2), 0), ((2, 4, 3, 2), 1)]:
        x = rand(*shape)
        np.testing.assert_allclose(run(sm, x).numpy(), np_log_softmax(x.numpy(), axis), atol=1e-12)
    x = rand(3, 5)
    np.testing.assert_allclose(
        run(convert(through_file(obj("nn.SoftMin"))), x).numpy(), np.exp(np_log_softmax(-x.numpy(), 1)), atol=1e-12
    )


@pytest.mark.parametrize("groups,mm", [(1, False), (2, False), (1, True)])
def test_convolutions(groups, mm):
    w, b = rand(6, 4 // groups, 3, 2, seed=1), rand(6, seed=2)
    fields = dict(
        nInputPlane=4,
        nOutputPlane=6,
        kW=2,
        kH=3,
        dW=2,
        dH=1,
        padW=1,
        padH=0,
        bias=b,
        weight=w.reshape(6, -1) if mm else w,
    )
    if groups != 1:
        fields["groups"] = groups
    conv = convert(through_file(obj("nn.SpatialConvolutionMM" if mm else "nn.SpatialConvolution", **fields)))
    assert conv.groups == groups and conv.stride == (1, 2) and conv.padding == (0, 1)
    x = rand(2, 4, 5, 6, seed=3)
    np.testing.assert_allclose(
        run(conv, x).numpy(), np_conv2d(x.numpy(), w.numpy(), b.numpy(), (1, 2), (0, 1), groups), atol=1e-12
    )
    # a non-contiguous input
    xt = x.transpose(2, 3).contiguous().transpose(2, 3)
    np.testing.assert_allclose(run(conv, xt).numpy(), run(conv, x).numpy(), atol=1e-12)


def test_full_convolution():
    w, b = rand(3, 2, 3, 3), rand(2, seed=1)
    conv = convert(
        through_file(
            obj(
                "nn.SpatialFullConvolution",
                nInputPlane=3,
                nOutputPlane=2,
                kW=3,
                kH=3,
                dW=2,
                dH=2,
                padW=1,
                padH=1,
                adjW=1,
                adjH=0,
                weight=w,
                bias=b,
            )
        )
    )
    x = rand(2, 3, 4, 5, seed=2)
    np.testing.assert_allclose(
        run(conv, x).numpy(), np_full_conv2d(x.numpy(), w.numpy(), b.numpy(), (2, 2), (1, 1), (0, 1)), atol=1e-12
    )


@pytest.mark.parametrize(
    "kind,ceil,count_pad",
    [("max", False, True), ("max", True, True), ("avg", True, True), ("avg", True, False), ("avg", False, False)],
)
def test_pooling(kind, ceil, count_pad):
    name = "nn.SpatialMaxPooling" if kind == "max" else "nn.SpatialAveragePooling"
    fields = dict(kW=3, kH=2, dW=2, dH=2, padW=1, padH=0, ceil_mode=ceil)
    if kind == "avg":
        fields.update(count_include_pad=count_pad, divide=True)
    pool = convert(through_file(obj(name, **fields)))
    x = rand(2, 3, 7, 8)
    np.testing.assert_allclose(
        run(pool, x).numpy(), np_pool(x.numpy(), (2, 3), (2, 2), (0, 1), ceil, kind, count_pad), atol=1e-12
    )


def test_batch_norm_dropout_and_lrn():
    mean, var = rand(3).abs(), rand(3, seed=1).abs() + 0.5
    bn = convert(
        through_file(
            obj(
                "nn.SpatialBatchNormalization",
                running_mean=mean,
                running_var=var,
                eps=1e-3,
                momentum=0.1,
                affine=False,
                train=False,
            )
        )
    )
    assert bn.weight is None and not bn.training
    x = rand(2, 3, 4, 4, seed=2)
    expected = (x.numpy() - mean.numpy()[None, :, None, None]) / np.sqrt(var.numpy()[None, :, None, None] + 1e-3)
    np.testing.assert_allclose(run(bn, x).numpy(), expected, atol=1e-12)
    bn1 = convert(
        through_file(
            obj(
                "nn.BatchNormalization",
                running_mean=mean,
                running_var=var,
                eps=1e-5,
                momentum=0.1,
                affine=True,
                weight=rand(3, seed=3),
                bias=rand(3, seed=4),
                train=False,
            )
        )
    )
    assert isinstance(bn1, nn.BatchNorm1d)
    # torch7's older dropouts scale at evaluation
    for name, fields in [("nn.Dropout", dict(p=0.25, v2=False)), ("nn.SpatialDropout", dict(p=0.25))]:
        drop = convert(through_file(obj(name, train=False, **fields)))
        np.testing.assert_allclose(run(drop, x).numpy(), 0.75 * x.numpy(), atol=1e-12)
    drop = convert(through_file(obj("nn.Dropout", p=0.25, v2=True, train=False)))
    np.testing.assert_array_equal(run(drop, x).numpy(), x.numpy())
    spatial = convert(through_file(obj("nn.SpatialDropout", p=0.5, train=True)))
    kept = run(spatial, torch.ones(4, 6, 3, 3)).numpy()
    assert all(len(np.unique(plane)) == 1 for plane in kept.reshape(24, 9))  # whole maps dropped or kept
    lrn = convert(through_file(obj("nn.SpatialCrossMapLRN", size=3, alpha=0.2, beta=0.75, k=2.0)))
    xs = rand(2, 5, 2, 2, seed=5).numpy()
    sq = np.pad(xs**2, ((0, 0), (1, 1), (0, 0), (0, 0)))
    scale = 2.0 + 0.2 / 3 * (sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:])
    np.testing.assert_allclose(run(lrn, torch.from_numpy(xs)).numpy(), xs * scale**-0.75, atol=1e-12)


def test_activations():
    x = rand(3, 4) * 3
    xn = x.numpy()
    cases = [
        (obj("nn.ReLU", threshold=0.0, val=0.0), np.maximum(xn, 0)),
        (obj("nn.Threshold", threshold=0.5, val=-1.0), np.where(xn > 0.5, xn, -1.0)),
        (obj("nn.HardTanh", min_val=-1.0, max_val=2.0), np.clip(xn, -1, 2)),
        (obj("nn.Clamp", min_val=0.0, max_val=6.0), np.clip(xn, 0, 6)),
        (obj("nn.LeakyReLU", negval=0.1), np.where(xn > 0, xn, 0.1 * xn)),
        (obj("nn.ELU", alpha=1.5), np.where(xn > 0, xn, 1.5 * (np.exp(xn) - 1))),
        (obj("nn.Sigmoid"), 1 / (1 + np.exp(-xn))),
        (obj("nn.SoftPlus", beta=2.0, threshold=20.0), np.log1p(np.exp(2 * xn)) / 2),
        (
            obj("nn.PReLU", weight=torch.tensor([0.25], dtype=torch.float64), nOutputPlane=0),
            np.where(xn > 0, xn, 0.25 * xn),
        ),
        (obj("nn.Square"), xn**2),
        (obj("nn.Abs"), np.abs(xn)),
        (obj("nn.AddConstant", constant_scalar=1.5), xn + 1.5),
    ]
    for legacy, expected in cases:
        np.testing.assert_allclose(
            run(convert(through_file(legacy)), x).numpy(), expected, atol=1e-12, err_msg=legacy.torch_typename()
        )


def test_linear_without_bias_and_gpu_saved_model():
    w = rand(3, 5)
    lin = convert(through_file(linear(w)))
    assert lin.bias is None
    x = rand(4, 5, seed=1)
    np.testing.assert_allclose(run(lin, x).numpy(), x.numpy() @ w.numpy().T, atol=1e-12)
    # a model as a GPU saves it (cudnn classes, CudaTensor) converts like its nn twin
    cw, cb = rand(4, 3, 3, 3, dtype=torch.float32), rand(4, dtype=torch.float32, seed=2)
    model = obj(
        "nn.Sequential",
        modules=[
            obj(
                "cudnn.SpatialConvolution",
                nInputPlane=3,
                nOutputPlane=4,
                kW=3,
                kH=3,
                dW=1,
                dH=1,
                padW=1,
                padH=1,
                groups=1,
                weight=cw,
                bias=cb,
                iSize=torch.tensor([2, 3, 4, 4]).storage(),
                _type="torch.CudaTensor",
            ),
            obj("cudnn.ReLU", inplace=True, mode="CUDNN_ACTIVATION_RELU"),
            obj("cudnn.SpatialMaxPooling", kW=2, kH=2, dW=2, dH=2, padW=0, padH=0, ceil_mode=False),
            obj("cudnn.SoftMax", mode="CUDNN_SOFTMAX_MODE_INSTANCE"),
        ],
    )
    buf = io.BytesIO()
    save_lua(model, buf)
    data = rename_classes(
        buf.getvalue(), {"torch.FloatTensor": "torch.CudaTensor", "torch.FloatStorage": "torch.CudaStorage"}
    )
    converted = convert(load_lua(io.BytesIO(data)))
    x = rand(2, 3, 4, 4, dtype=torch.float32, seed=3)
    y = np.maximum(np_conv2d(x.numpy().astype(np.float64), cw.numpy(), cb.numpy(), pad=(1, 1)), 0)
    y = np.exp(np_log_softmax(np_pool(y, (2, 2), (2, 2), (0, 0), False, "max"), 1))
    np.testing.assert_allclose(run(converted, x).numpy(), y, atol=1e-5)


def test_conversion_errors():
    with pytest.raises(ConversionError, match="model.2.1: .*nn.Unheard"):
        convert(
            through_file(
                obj("nn.Sequential", modules=[obj("nn.Identity"), obj("nn.Sequential", modules=[obj("nn.Unheard")])])
            )
        )
    with pytest.raises(ConversionError, match="mypkg.Layer"):
        convert(obj("mypkg.Layer"))
    with pytest.raises(ConversionError, match="weight"):
        convert(
            through_file(
                obj("nn.SpatialConvolution", nInputPlane=2, nOutputPlane=3, kW=3, kH=3, weight=torch.zeros(3, 2, 2, 2))
            )
        )


# ---------------------------------------------------------------- torch.nn -> torch7


def torch_model(dtype):
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 4, 3, stride=1, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2, ceil_mode=True),
        nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False),
        nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1),
        nn.Tanh(),
        nn.Flatten(),
        nn.Linear(2 * 8 * 8, 6),
        nn.Dropout(0.3),
        nn.Sigmoid(),
        nn.Linear(6, 5, bias=False),
        nn.LogSoftmax(dim=1),
    )
    with torch.no_grad():
        model[1].running_mean.copy_(torch.randn(4))
        model[1].running_var.copy_(torch.rand(4) + 0.5)
    return model.to(dtype).eval()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_to_t7_round_trip(dtype, tmp_path):
    model = torch_model(dtype)
    path = tmp_path / "model.t7"
    to_t7(model, str(path))
    legacy = load_lua(str(path))
    names = [m.torch_typename() for m in legacy.modules]
    assert names == [
        "nn.SpatialConvolution",
        "nn.SpatialBatchNormalization",
        "nn.ReLU",
        "nn.SpatialMaxPooling",
        "nn.SpatialAveragePooling",
        "nn.SpatialFullConvolution",
        "nn.Tanh",
        "nn.Reshape",
        "nn.Linear",
        "nn.Dropout",
        "nn.Sigmoid",
        "nn.Linear",
        "nn.LogSoftMax",
    ]
    conv, bn = legacy.modules[0], legacy.modules[1]
    type_name = "torch.FloatTensor" if dtype == torch.float32 else "torch.DoubleTensor"
    assert conv._type == type_name and conv.weight.dtype == dtype and conv.train is False
    assert (conv.nInputPlane, conv.nOutputPlane, conv.kW, conv.padW) == (3.0, 4.0, 3.0, 1.0)
    assert not conv.gradWeight.numpy().any() and conv.output.numel() == 0
    np.testing.assert_array_equal(bn.running_var.numpy(), model[1].running_var.numpy())
    assert legacy.modules[3].ceil_mode is True and legacy.modules[4].count_include_pad is False
    assert legacy.modules[5].adjW == 1.0 and "bias" not in vars(legacy.modules[11])
    assert legacy.modules[9].v2 is True and legacy.modules[9].p == pytest.approx(0.3)
    back = convert(legacy)
    x = rand(2, 3, 8, 8, dtype=dtype, seed=5)
    atol = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(run(back, x).numpy(), run(model, x).numpy(), atol=atol)


def test_to_t7_refuses_what_torch7_lacks():
    for module in (
        nn.Sequential(nn.Conv2d(4, 4, 3, groups=2)),
        nn.Softmax(dim=0),
        nn.GRU(3, 4),
        nn.Flatten(2),
        nn.BatchNorm2d(3, track_running_stats=False),
    ):
        with pytest.raises(ConversionError):
            to_t7(module)


def test_to_t7_read_by_lua_torch(tmp_path):
    th = os.path.join(REPO, "bazel-bin", "lua", "th")
    if not os.path.exists(th):
        pytest.fail("Lua th not built (bazel build //lua:th; scripts/build.sh builds it)")
    path = tmp_path / "model.t7"
    to_t7(torch_model(torch.float64), str(path))
    script = tmp_path / "read.lua"
    script.write_text(
        "local m = torch.load('%s')\n"
        "print(torch.typename(m), #m.modules, torch.typename(m.modules[1].weight), "
        "m.modules[1].weight:size(1), m.modules[12].weight:size(2), m.modules[1].train)\n" % path
    )
    r = subprocess.run([th, str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["nn.Sequential", "13", "torch.DoubleTensor", "4", "6", "false"]


def test_each_module_keeps_its_own_mode():
    model = convert(
        through_file(
            obj(
                "nn.Sequential",
                train=True,
                modules=[obj("nn.Dropout", p=0.5, v2=True, train=False), obj("nn.Identity", train=True)],
            )
        )
    )
    assert model.training and not model[0].training and model[1].training
    x = rand(4, 6)
    np.testing.assert_array_equal(run(model, x).numpy(), x.numpy())  # the dropout is in evaluation mode
