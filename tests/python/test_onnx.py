"""torch.onnx.export: each model is exported, checked by onnx.checker, run by onnxruntime and
compared with this package's own forward; dynamic axes are run at another batch size; a
torch7 model goes .t7 -> convert_t7 -> ONNX and is compared with the output torch7 recorded."""

import io

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import torch
from legacy_helpers import fixture
from torch import nn
from torch.utils.convert_t7 import convert
from torch.utils.serialization import load_lua


def _session(data):
    return ort.InferenceSession(data, providers=["CPUExecutionProvider"])


def _export(model, args, **kw):
    f = io.BytesIO()
    torch.onnx.export(model, args, f, **kw)
    data = f.getvalue()
    onnx.checker.check_model(onnx.load_from_string(data))
    return data


def _ours(model, args):
    with torch.no_grad():
        out = model(*args)
    if not isinstance(out, (tuple, list)):
        return [out]
    flat = []
    for o in out:
        flat += list(o) if isinstance(o, (tuple, list)) else [o]
    return flat


def _compare(model, args, tol=1e-5, **kw):
    model.eval()
    args = args if isinstance(args, tuple) else (args,)
    session = _session(_export(model, args, **kw))
    feeds = {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)}
    got = session.run(None, feeds)
    want = _ours(model, args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == tuple(w.shape)
        np.testing.assert_allclose(g, w.numpy(), rtol=tol, atol=tol)
    return session


def _img(*shape):
    return torch.randn(*shape)


MODELS = {
    "cnn": lambda: (
        nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 6, 3, stride=2, padding=1, dilation=1, groups=2),
            nn.AvgPool2d(2, ceil_mode=True, count_include_pad=False),
            nn.Flatten(),
            nn.Linear(6 * 1 * 1, 5),
            nn.LogSoftmax(1),
        ),
        _img(2, 3, 8, 8),
    ),
    "mlp_activations": lambda: (
        nn.Sequential(
            nn.Linear(6, 8),
            nn.ELU(0.7),
            nn.Linear(8, 8),
            nn.LeakyReLU(0.2),
            nn.Hardtanh(-0.5, 0.8),
            nn.SELU(),
            nn.CELU(0.8),
            nn.GELU(),
            nn.SiLU(),
            nn.Mish(),
            nn.Softplus(2.0, 5.0),
            nn.Softsign(),
            nn.Tanhshrink(),
            nn.Softshrink(0.1),
            nn.Hardshrink(0.05),
            nn.LogSigmoid(),
            nn.Threshold(-0.6, 2.0),
            nn.ReLU6(),
            nn.Hardsigmoid(),
            nn.Hardswish(),
            nn.Sigmoid(),
            nn.Tanh(),
            nn.Dropout(0.5),
            nn.Identity(),
            nn.Softmin(1),
            nn.Softmax(-1),
        ),
        torch.randn(4, 6) * 3,
    ),
    "conv1d_3d": lambda: (
        nn.Sequential(nn.Conv1d(3, 4, 3, padding=2, dilation=2), nn.BatchNorm1d(4), nn.MaxPool1d(2), nn.AvgPool1d(2)),
        torch.randn(2, 3, 12),
    ),
    "volumetric": lambda: (
        nn.Sequential(
            nn.Conv3d(2, 3, 3, padding=1),
            nn.BatchNorm3d(3),
            nn.MaxPool3d(2),
            nn.ConvTranspose3d(3, 2, 2, stride=2),
            nn.AvgPool3d(2),
        ),
        torch.randn(2, 2, 4, 6, 4),
    ),
    "transposed_and_pads": lambda: (
        nn.Sequential(
            nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1),
            nn.PReLU(4),
            nn.ZeroPad2d((1, 2, 0, 1)),
            nn.ReflectionPad2d((1, 0, 2, 1)),
            nn.ReplicationPad2d(1),
            nn.ConstantPad2d((1, 1, 0, 0), 0.5),
            nn.LocalResponseNorm(3, 0.01, 0.75, 2.0),
            nn.AdaptiveAvgPool2d((4, 2)),
            nn.Upsample(scale_factor=2, mode="nearest"),
            nn.PixelShuffle(2),
            nn.AdaptiveMaxPool2d(1),
        ),
        _img(2, 3, 5, 3),
    ),
    "embedding": lambda: (
        nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2)),
        torch.tensor([[1, 5, 9], [0, 0, 3]]),
    ),
    "lstm": lambda: (nn.LSTM(5, 4, num_layers=2, bidirectional=True, batch_first=True), torch.randn(3, 6, 5)),
    "gru": lambda: (nn.GRU(5, 4, num_layers=2), torch.randn(6, 3, 5)),
    "bilinear": lambda: (nn.Bilinear(4, 3, 5), (torch.randn(2, 4), torch.randn(2, 3))),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_export_runs_in_onnxruntime(name):
    torch.manual_seed(0)
    model, args = MODELS[name]()
    for b in model.buffers():  # running statistics other than 0 and 1
        if b.is_floating_point():
            b.copy_(torch.rand_like(b) + 0.5)
    _compare(model, args, tol=2e-5)


def test_names_opset_and_dynamic_axes():
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 3))
    x = torch.randn(2, 3, 6, 6)
    session = _compare(
        model,
        x,
        opset_version=17,
        input_names=["image"],
        output_names=["scores"],
        dynamic_axes={"image": {0: "batch"}, "scores": {0: "batch"}},
    )
    assert [i.name for i in session.get_inputs()] == ["image"]
    assert [o.name for o in session.get_outputs()] == ["scores"]
    assert session.get_inputs()[0].shape == ["batch", 3, 6, 6]
    proto = onnx.load_from_string(_export(model, (x,), opset_version=17))
    assert proto.opset_import[0].version == 17
    x5 = torch.randn(5, 3, 6, 6)
    got = session.run(None, {"image": x5.numpy()})[0]
    np.testing.assert_allclose(got, model(x5).detach().numpy(), rtol=1e-5, atol=1e-5)


def test_export_writes_a_file(tmp_path):
    model = nn.Sequential(nn.Linear(3, 2), nn.Tanh()).eval()
    x = torch.randn(4, 3)
    path = tmp_path / "m.onnx"
    torch.onnx.export(model, x, str(path))
    onnx.checker.check_model(onnx.load(str(path)))
    got = _session(str(path)).run(None, {"input_0": x.numpy()})[0]
    np.testing.assert_allclose(got, model(x).detach().numpy(), rtol=1e-6, atol=1e-6)


def test_torch7_model_to_onnx():
    """.t7 -> convert -> ONNX, against the output torch7 itself recorded for the fixture's input."""
    model = convert(load_lua(fixture("cnn.t7"))).eval().float()
    io_ = load_lua(fixture("cnn_io.t7"))
    x = io_["input"].float()
    session = _session(_export(model, (x,), input_names=["x"], dynamic_axes={"x": {0: "n"}}))
    got = session.run(None, {"x": x.numpy()})[0]
    np.testing.assert_allclose(got, io_["output"].double().numpy(), rtol=1e-4, atol=1e-4)


class _Custom(nn.Module):
    def forward(self, x):
        return x * 2


@pytest.mark.parametrize(
    "model, args, words",
    [
        (_Custom(), torch.randn(2), "_Custom"),
        (nn.Sequential(nn.Linear(2, 2), nn.LayerNorm(2)), torch.randn(3, 2), r"model\.1 \(LayerNorm\)"),
        (nn.Linear(2, 2), [1, 2], "tensor"),
        (nn.Linear(2, 2), torch.randn(3, 2), "opset_version 9"),
    ],
)
def test_bad_exports_say_why(model, args, words):
    kw = {"opset_version": 9} if "opset" in words else {}
    with pytest.raises(ValueError, match=words):
        torch.onnx.export(model, args, io.BytesIO(), **kw)


def test_torch7_tables_to_onnx(tmp_path):
    """A torch7 model with tables (ConcatTable, CAddTable, Concat, ParallelTable, JoinTable,
    SelectTable), built and run by Lua nn, converted, exported, run by onnxruntime."""
    import torch.lua as tl

    lua = tl.Runtime()
    lua.require("nn")
    path = str(tmp_path / "tables.t7")
    lua.execute(
        """
        torch.manualSeed(5)
        local m = nn.Sequential()
           :add(nn.ConcatTable():add(nn.Linear(6, 4)):add(nn.Linear(6, 4)):add(nn.Identity()))
           :add(nn.ParallelTable():add(nn.Tanh()):add(nn.Sigmoid()):add(nn.Linear(6, 4)))
           :add(nn.ConcatTable():add(nn.CAddTable()):add(nn.CMaxTable()):add(nn.SelectTable(2)))
           :add(nn.JoinTable(1, 1))
           :add(nn.Concat(2):add(nn.Linear(12, 3)):add(nn.Tanh()))
        case_x = torch.randn(5, 6)
        case_y = m:forward(case_x):clone()
        torch.save(%r, m)
        """
        % path
    )
    model = convert(load_lua(path)).eval().float()
    x = lua["case_x"].float()
    session = _session(_export(model, (x,)))
    got = session.run(None, {"input_0": x.numpy()})[0]
    np.testing.assert_allclose(got, lua["case_y"].numpy(), rtol=1e-5, atol=1e-5)
