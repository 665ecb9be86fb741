"""to_t7, one test per torch.nn class: a module built in Python with random weights, written as
a .t7 file by to_t7, loaded by this project's Lua nn (torch.lua.Runtime) and run there; its
forward (a criterion's loss) must equal the Python module's. Every torch.nn module class is
either exported (and has a case here) or refused with a reason that the error names."""

import inspect
import os
import tempfile

import pytest

import torch
import torch.lua as tl
from torch import nn
from torch.utils.convert_t7 import ConversionError, to_t7
from torch.utils.convert_t7.exporter import NO_TORCH7, exportable_classes

D = torch.float64


def r(*shape):
    return torch.randn(*shape, dtype=D)


def plus_one(t):
    """0-based indices as torch7's 1-based ones."""
    return t + 1


def C(make, x, t=None, lua_x=None, lua_t=None, tol=1e-9):
    return dict(make=make, x=x, t=t, lua_x=lua_x, lua_t=lua_t, tol=tol)


_IMG = lambda: r(2, 3, 7, 6)  # noqa: E731
_VOL = lambda: r(2, 2, 5, 6, 5)  # noqa: E731
_VEC = lambda: r(4, 6)  # noqa: E731
_CLASSES = lambda: torch.tensor([0, 2, 5, 1])  # noqa: E731
_SIGNS = lambda: torch.tensor([1.0, -1.0, -1.0, 1.0], dtype=D)  # noqa: E731

CASES = {
    "Sequential": C(lambda: nn.Sequential(nn.Linear(6, 4), nn.Tanh(), nn.Linear(4, 3)), _VEC),
    "Linear": C(lambda: nn.Linear(6, 3), _VEC),
    "DataParallel": C(lambda: nn.DataParallel(nn.Sequential(nn.Linear(6, 4), nn.Tanh())), _VEC),
    "Bilinear": C(lambda: nn.Bilinear(5, 4, 3), lambda: [r(4, 5), r(4, 4)]),
    "Embedding": C(
        lambda: nn.Embedding(7, 3, padding_idx=2), lambda: torch.tensor([[0, 2, 6], [1, 1, 4]]), lua_x=plus_one
    ),
    "Conv2d": C(lambda: nn.Conv2d(3, 4, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2)), _IMG),
    "Conv1d": C(lambda: nn.Conv1d(3, 4, 3, stride=2), lambda: r(2, 3, 9)),
    "MaxPool1d": C(lambda: nn.MaxPool1d(3, 2), lambda: r(2, 3, 9)),
    "Conv3d": C(lambda: nn.Conv3d(2, 3, 3, stride=1, padding=1), _VOL),
    "ConvTranspose2d": C(lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1), _IMG),
    "ConvTranspose3d": C(lambda: nn.ConvTranspose3d(2, 3, 2, stride=2), _VOL),
    "BatchNorm1d": C(lambda: nn.BatchNorm1d(6), _VEC),
    "BatchNorm2d": C(lambda: nn.BatchNorm2d(3), _IMG),
    "BatchNorm3d": C(lambda: nn.BatchNorm3d(2), _VOL),
    "MaxPool2d": C(lambda: nn.MaxPool2d(3, 2, 1, ceil_mode=True), _IMG),
    "AvgPool2d": C(lambda: nn.AvgPool2d(3, 2, 1, count_include_pad=False), _IMG),
    "MaxPool3d": C(lambda: nn.MaxPool3d(2, dilation=2), _VOL),
    "AvgPool3d": C(lambda: nn.AvgPool3d(2), _VOL),
    "AdaptiveMaxPool2d": C(lambda: nn.AdaptiveMaxPool2d((3, 2)), _IMG),
    "AdaptiveAvgPool2d": C(lambda: nn.AdaptiveAvgPool2d((3, 2)), _IMG),
    "LocalResponseNorm": C(lambda: nn.LocalResponseNorm(3, 0.01, 0.75, 2), _IMG),
    "CrossMapLRN2d": C(lambda: nn.CrossMapLRN2d(5, 0.02, 0.6, 1.5), _IMG),
    "Upsample": C(lambda: nn.Upsample(scale_factor=2, mode="nearest"), _IMG),
    "UpsamplingNearest2d": C(lambda: nn.UpsamplingNearest2d(scale_factor=3), _IMG),
    "UpsamplingBilinear2d": C(lambda: nn.UpsamplingBilinear2d(scale_factor=2), _IMG),
    "ZeroPad2d": C(lambda: nn.ZeroPad2d((1, 2, 0, 1)), _IMG),
    "ReflectionPad2d": C(lambda: nn.ReflectionPad2d((1, 2, 0, 1)), _IMG),
    "ReplicationPad2d": C(lambda: nn.ReplicationPad2d((1, 2, 0, 1)), _IMG),
    "ReplicationPad3d": C(lambda: nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)), _VOL),
    "PixelShuffle": C(lambda: nn.PixelShuffle(2), lambda: r(2, 8, 3, 4)),
    "ReLU": C(lambda: nn.ReLU(), _VEC),
    "ReLU6": C(lambda: nn.ReLU6(), lambda: r(4, 6) * 5),
    "Threshold": C(lambda: nn.Threshold(0.2, -1.0), _VEC),
    "Tanh": C(lambda: nn.Tanh(), _VEC),
    "Sigmoid": C(lambda: nn.Sigmoid(), _VEC),
    "Hardtanh": C(lambda: nn.Hardtanh(-0.5, 0.7), _VEC),
    "LeakyReLU": C(lambda: nn.LeakyReLU(0.2), _VEC),
    "ELU": C(lambda: nn.ELU(0.7), _VEC),
    "PReLU": C(lambda: nn.PReLU(3), _IMG),
    "RReLU": C(lambda: nn.RReLU(0.1, 0.3), _VEC),
    "Softplus": C(lambda: nn.Softplus(2.0, 10.0), _VEC),
    "Softsign": C(lambda: nn.Softsign(), _VEC),
    "LogSigmoid": C(lambda: nn.LogSigmoid(), _VEC),
    "Softshrink": C(lambda: nn.Softshrink(0.3), _VEC),
    "Hardshrink": C(lambda: nn.Hardshrink(0.3), _VEC),
    "Tanhshrink": C(lambda: nn.Tanhshrink(), _VEC),
    "GLU": C(lambda: nn.GLU(-1), _VEC),
    "Softmax": C(lambda: nn.Softmax(1), _VEC),
    "LogSoftmax": C(lambda: nn.LogSoftmax(1), _VEC),
    "Softmin": C(lambda: nn.Softmin(1), _VEC),
    "Softmax2d": C(lambda: nn.Softmax2d(), _IMG),
    "Dropout": C(lambda: nn.Dropout(0.3), _VEC),
    "Identity": C(lambda: nn.Identity(), _VEC),
    "Flatten": C(lambda: nn.Flatten(), _IMG),
    "MSELoss": C(lambda: nn.MSELoss(), _VEC, lambda: r(4, 6)),
    "L1Loss": C(lambda: nn.L1Loss(reduction="sum"), _VEC, lambda: r(4, 6)),
    "SmoothL1Loss": C(lambda: nn.SmoothL1Loss(), lambda: r(4, 6) * 2, lambda: r(4, 6)),
    "SoftMarginLoss": C(lambda: nn.SoftMarginLoss(), _VEC, lambda: torch.sign(r(4, 6))),
    "KLDivLoss": C(lambda: nn.KLDivLoss(reduction="sum"), _VEC, lambda: torch.rand(4, 6, dtype=D)),
    "BCELoss": C(
        lambda: nn.BCELoss(weight=torch.rand(6, dtype=D)),
        lambda: torch.rand(4, 6, dtype=D) * 0.8 + 0.1,
        lambda: torch.randint(0, 2, (4, 6)).to(D),
    ),
    "NLLLoss": C(lambda: nn.NLLLoss(weight=torch.rand(6, dtype=D), ignore_index=2), _VEC, _CLASSES, lua_t=plus_one),
    "CrossEntropyLoss": C(lambda: nn.CrossEntropyLoss(weight=torch.rand(6, dtype=D)), _VEC, _CLASSES, lua_t=plus_one),
    "MultiMarginLoss": C(
        lambda: nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.rand(6, dtype=D)), _VEC, _CLASSES, lua_t=plus_one
    ),
    "MultiLabelMarginLoss": C(
        lambda: nn.MultiLabelMarginLoss(),
        _VEC,
        lambda: torch.tensor([[1, 4, -1, 0, 0, 0], [0, -1, 0, 0, 0, 0], [5, 0, 2, -1, 0, 0], [3, 3, -1, 0, 0, 0]]),
        lua_t=lambda t: torch.where(_before_end(t), t + 1, torch.zeros_like(t)),
    ),
    "MultiLabelSoftMarginLoss": C(
        lambda: nn.MultiLabelSoftMarginLoss(), _VEC, lambda: torch.randint(0, 2, (4, 6)).to(D)
    ),
    "HingeEmbeddingLoss": C(lambda: nn.HingeEmbeddingLoss(0.5), _VEC, lambda: torch.sign(r(4, 6))),
    "CosineEmbeddingLoss": C(lambda: nn.CosineEmbeddingLoss(0.2), lambda: [r(4, 5), r(4, 5)], _SIGNS),
    "MarginRankingLoss": C(lambda: nn.MarginRankingLoss(0.3), lambda: [r(4), r(4)], _SIGNS),
}


def _before_end(t):
    """The entries of a MultiLabelMarginLoss target before its first -1."""
    ended = (t == -1).long().cumsum(1) > 0
    return ~ended


LUA_HELPERS = """
function case_clone(v)
   if torch.isTensor(v) then return v:clone() end
   if type(v) == 'table' then local t = {} for k, e in pairs(v) do t[k] = case_clone(e) end return t end
   return v
end
"""


@pytest.fixture(scope="module")
def lua():
    rt = tl.Runtime()
    rt.require("nn")
    rt.execute(LUA_HELPERS)
    return rt


def _flat(v):
    if torch.is_tensor(v):
        return [v]
    if isinstance(v, (int, float)):
        return [torch.tensor(float(v), dtype=D)]
    if isinstance(v, tl.LuaObject):
        v = tl.to_python(v)
    if isinstance(v, dict):
        v = [v[k] for k in sorted(v)]
    return [t for e in v for t in _flat(e)]


def _call(module, x, t):
    if t is None:
        return module(*x) if isinstance(x, list) and not isinstance(module, nn.Sequential) else module(x)
    if isinstance(x, list):
        return module(*x, t)
    return module(x, t)


@pytest.mark.parametrize("name", sorted(CASES))
def test_class_exports(lua, name):
    case = CASES[name]
    torch.manual_seed(sum(map(ord, name)))
    module = case["make"]()
    module = module.to(D).eval()
    for p in module.parameters():
        p.data.copy_(torch.randn_like(p))  # not the initial values: every weight matters
    for b_name, b in module.named_buffers():
        if b_name.endswith("running_var"):
            b.copy_(torch.rand_like(b) + 0.5)
        elif b_name.endswith("running_mean"):
            b.copy_(torch.randn_like(b))
    x = case["x"]()
    t = case["t"]() if case["t"] else None
    with torch.no_grad():
        want = _call(module, x, t)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.t7")
        to_t7(module, path, dtype=D)
        lua.execute("case_m = torch.load(%r); if case_m.evaluate then case_m:evaluate() end" % path)
    lx = case["lua_x"](x) if case["lua_x"] else x
    if t is None:
        got = lua.eval("function(x) return case_clone(case_m:forward(x)) end")(lx)
    else:
        lt = case["lua_t"](t) if case["lua_t"] else t
        got = lua.eval("function(x, t) local loss = case_m:forward(x, t) return loss end")(lx, lt)
    got, want = _flat(got), _flat(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = g.double().reshape(-1), w.double().reshape(-1)
        assert g.numel() == w.numel(), "%s: Lua gives %d elements, Python %d" % (name, g.numel(), w.numel())
        scale = max(1.0, w.abs().max().item())
        assert (g - w).abs().max().item() <= case["tol"] * scale, "%s: Lua's forward differs" % name


def _nn_module_classes():
    return {
        n: v for n, v in vars(nn).items() if inspect.isclass(v) and issubclass(v, nn.Module) and not n.startswith("_")
    }


def test_cases_are_the_exported_classes():
    assert set(CASES) == {c.__name__ for c in exportable_classes()}


def test_every_torch_nn_class_is_exported_or_refused():
    classes = _nn_module_classes()
    accounted = set(exportable_classes()) | set(NO_TORCH7)
    missing = sorted(n for n, c in classes.items() if c not in accounted)
    assert not missing, "torch.nn classes neither exported nor refused: %s" % missing


@pytest.mark.parametrize(
    "module, words",
    [
        (nn.LSTM(3, 4), "LSTM"),
        (nn.LayerNorm(4), "LayerNorm"),
        (nn.Sequential(nn.Linear(2, 2), nn.GELU()), "model.2: torch7 has no counterpart of torch.nn.GELU"),
        (nn.Conv2d(4, 6, 3, groups=2), "groups"),
        (nn.MSELoss(reduction="none"), "reduction='none'"),
    ],
)
def test_refusals_name_the_module(module, words):
    with pytest.raises(ConversionError, match=words.replace("(", r"\(").replace(".", r"\.")):
        to_t7(module)
