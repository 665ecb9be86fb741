"""The same model in Lua nn and in torch.legacy.nn gives the same results.

For every class that both packages define (the intersection is computed here, from the
classes the Lua `nn` table holds and the TorchObject classes of torch.legacy.nn), a module
is built in Lua (a torch.lua.Runtime, double precision, seeded), saved with torch.save and
read with load_lua; both sides then run forward and backward on the same input (class
indices 1-based in Lua, 0-based in Python) and must agree on output, gradInput and the
parameter gradients to 1e-10 (a module whose output holds indices, Kmeans, gives them
1-based in Lua). A few models also go the other way: built with legacy.nn's
constructors, written by save_lua, read by Lua's torch.load.

The module is saved before its first forward so that both sides start from the same state
(forward changes state in some modules: BatchNormalization's running statistics, a
LookupTable with maxNorm renormalizes its rows). A class of the intersection is either in
CASES or in SKIP with the reason.
"""

import zlib

import numpy as np
import pytest

import torch
import torch.lua as tl
from torch.legacy import nn
from torch.legacy.nn import TorchObject
from torch.utils.serialization import load_lua, save_lua

TOL = 1e-10


# ---------------------------------------------------------------------------------------
# input specifications: callables of a numpy Generator, built once per case and handed to
# each side as its own copy


class Idx:
    """Indices, written 0-based: Lua receives them plus one."""

    def __init__(self, value):
        self.value = value


class Both:
    """A value written differently for each side (a sparse input's 1-based feature column)."""

    def __init__(self, lua, python):
        self.lua, self.python = lua, python


def randn(*shape):
    return lambda rng: torch.from_numpy(rng.standard_normal(shape))


def pos(*shape):
    """Away from zero, for Log, Sqrt, Power and divisors."""
    return lambda rng: torch.from_numpy(rng.uniform(0.5, 2.0, shape))


def unit(*shape):
    """Inside (0, 1), for probabilities."""
    return lambda rng: torch.from_numpy(rng.uniform(0.05, 0.95, shape))


def signs(*shape):
    return lambda rng: torch.from_numpy(np.where(rng.random(shape) < 0.5, -1.0, 1.0))


def bits(*shape):
    return lambda rng: torch.from_numpy((rng.random(shape) < 0.5).astype(np.float64))


def logprob(*shape):
    return lambda rng: torch.from_numpy(rng.standard_normal(shape)).log_softmax(-1)


def mask(*shape):
    return lambda rng: torch.from_numpy((rng.random(shape) < 0.5).astype(np.uint8))


def sparse(n, nnz, batch=None):
    """SparseLinear's input: (feature, value) rows of distinct features, per sample."""

    def make(rng):
        def one():
            return np.stack([rng.choice(n, nnz, replace=False).astype(np.float64), rng.standard_normal(nnz)], 1)

        rows = torch.from_numpy(one() if batch is None else np.stack([one() for _ in range(batch)]))
        lua = rows.clone()
        lua[..., 0] += 1
        return Both(lua, rows)

    return make


def sparse_from_lua(rows):
    """(feature, value) rows with 1-based features as Python's 0-based ones."""
    rows = rows.clone()
    rows[..., 0] -= 1
    return rows


def classes(n, *shape):
    return lambda rng: Idx(torch.from_numpy(rng.integers(0, n, shape)))


def fixed(value):
    return lambda rng: value


def noncontig(*shape):
    """A transposed view: Contiguous must copy it."""
    return lambda rng: torch.from_numpy(rng.standard_normal(shape[::-1])).t()


def build(spec, rng):
    if isinstance(spec, (list, tuple)):
        return [build(s, rng) for s in spec]
    return spec(rng)


def copy_of(t):
    """A copy with t's layout (only transposed matrices are made here)."""
    return t.clone() if t.is_contiguous() else t.t().clone().t()


def for_lua(value):
    if isinstance(value, Both):
        return copy_of(value.lua)
    if isinstance(value, Idx):
        v = value.value
        return v + 1 if isinstance(v, int) else (v + 1).clone()
    if isinstance(value, list):
        return [for_lua(v) for v in value]
    return copy_of(value) if isinstance(value, torch.Tensor) else value


def for_python(value):
    if isinstance(value, Both):
        return copy_of(value.python)
    if isinstance(value, Idx):
        return value.value.clone() if isinstance(value.value, torch.Tensor) else value.value
    if isinstance(value, list):
        return [for_python(v) for v in value]
    return copy_of(value) if isinstance(value, torch.Tensor) else value


def from_lua(value):
    """A Lua result as Python values: tables as lists, tensors cloned (Lua reuses buffers)."""
    if isinstance(value, tl.LuaObject):
        value = tl.to_python(value)
    if isinstance(value, list):
        return [from_lua(v) for v in value]
    if isinstance(value, dict):  # an empty Lua table
        assert not value, value
        return []
    return value.clone() if isinstance(value, torch.Tensor) else value


def snapshot(value):
    if isinstance(value, (list, tuple)):
        return [snapshot(v) for v in value]
    return value.clone() if isinstance(value, torch.Tensor) else value


def like(value, rng):
    """A random gradOutput shaped as value."""
    if isinstance(value, list):
        return [like(v, rng) for v in value]
    if not isinstance(value, torch.Tensor):  # a number (CriterionTable's loss)
        return float(rng.standard_normal())
    return torch.from_numpy(rng.standard_normal(tuple(value.shape)))


def assert_same(lua, py, what):
    if isinstance(lua, list) or isinstance(py, list):
        assert isinstance(lua, list) and isinstance(py, list), "%s: %r vs %r" % (what, type(lua), type(py))
        assert len(lua) == len(py), "%s: %d entries in Lua, %d in Python" % (what, len(lua), len(py))
        for i, (a, b) in enumerate(zip(lua, py)):
            assert_same(a, b, "%s[%d]" % (what, i))
        return
    if isinstance(lua, torch.Tensor) or isinstance(py, torch.Tensor):
        assert isinstance(lua, torch.Tensor) and isinstance(py, torch.Tensor), "%s: %r vs %r" % (what, lua, py)
        assert tuple(lua.shape) == tuple(py.shape), "%s: shape %s in Lua, %s in Python" % (
            what,
            tuple(lua.shape),
            tuple(py.shape),
        )
        np.testing.assert_allclose(py.double().numpy(), lua.double().numpy(), rtol=TOL, atol=TOL, err_msg=what)
        return
    assert lua == pytest.approx(py, rel=TOL, abs=TOL), "%s: %r in Lua, %r in Python" % (what, lua, py)


# ---------------------------------------------------------------------------------------
# cases: (Lua constructor, input, [target for criterions]) with options
#   setup: a Lua function(m, input) run before the module is saved
#   fields: fields compared after forward/backward (running statistics)
#   backward: False where torch7 has no backward in that mode (spatial dropouts evaluating)
#   pool: for unpooling modules, an input both sides give their loaded pooling module
#   criterion: a criterion that takes no target (L1Cost)
#   lua_output, lua_grad_input: Lua's output / gradInput written as Python's (indices they
#   carry made 0-based)


def zero_based(indices):
    return indices - 1


class Case:
    def __init__(
        self,
        lua,
        input,
        target=None,
        setup=None,
        fields=(),
        backward=True,
        pool=None,
        criterion=False,
        lua_output=None,
        lua_grad_input=None,
    ):
        self.lua, self.input, self.target, self.setup, self.fields, self.backward, self.pool = (
            lua,
            input,
            target,
            setup,
            fields,
            backward,
            pool,
        )
        self.lua_output, self.lua_grad_input = lua_output, lua_grad_input
        self.criterion = criterion or target is not None

    def __repr__(self):
        return self.lua


EVAL = "function(m) m:evaluate() end"
X34 = randn(3, 4)

CASES = {
    # pointwise
    "Abs": [Case("nn.Abs()", X34)],
    "Exp": [Case("nn.Exp()", X34)],
    "Log": [Case("nn.Log()", pos(3, 4))],
    "Sqrt": [Case("nn.Sqrt()", pos(3, 4)), Case("nn.Sqrt(0.1)", pos(5))],
    "Square": [Case("nn.Square()", X34)],
    "Power": [Case("nn.Power(2)", X34), Case("nn.Power(1.5)", pos(2, 3, 4)), Case("nn.Power(-1)", pos(4))],
    "Tanh": [Case("nn.Tanh()", X34)],
    "Sigmoid": [Case("nn.Sigmoid()", randn(2, 3, 4))],
    "SoftSign": [Case("nn.SoftSign()", X34)],
    "LogSigmoid": [Case("nn.LogSigmoid()", X34)],
    "SoftPlus": [Case("nn.SoftPlus()", X34), Case("nn.SoftPlus(2, 1)", X34)],
    "ReLU": [Case("nn.ReLU()", X34), Case("nn.ReLU(true)", X34)],
    "ReLU6": [Case("nn.ReLU6()", lambda rng: torch.from_numpy(rng.uniform(-3, 9, (3, 4))))],
    "HardTanh": [Case("nn.HardTanh()", X34), Case("nn.HardTanh(-0.5, 0.7)", X34)],
    "Clamp": [Case("nn.Clamp(-0.3, 0.4)", X34)],
    "Threshold": [Case("nn.Threshold(0.1, -2)", X34), Case("nn.Threshold(0.2, 0.1, true)", X34)],
    "LeakyReLU": [Case("nn.LeakyReLU(0.1)", X34), Case("nn.LeakyReLU(0.2, true)", X34)],
    "ELU": [Case("nn.ELU(0.7)", X34), Case("nn.ELU(1.3, true)", X34)],
    "HardShrink": [Case("nn.HardShrink(0.3)", X34)],
    "SoftShrink": [Case("nn.SoftShrink(0.3)", X34)],
    "PReLU": [Case("nn.PReLU()", X34), Case("nn.PReLU(3)", randn(2, 3, 4, 4)), Case("nn.PReLU(4)", X34)],
    "RReLU": [Case("nn.RReLU(0.1, 0.3)", X34, setup=EVAL), Case("nn.RReLU(0.2, 0.2)", X34)],
    "MulConstant": [Case("nn.MulConstant(2.5)", X34)],
    "AddConstant": [Case("nn.AddConstant(1.5)", X34)],
    "GradientReversal": [Case("nn.GradientReversal(0.7)", X34)],
    "Identity": [Case("nn.Identity()", X34), Case("nn.Identity()", [randn(2), randn(3)])],
    "Contiguous": [Case("nn.Contiguous()", noncontig(3, 4))],
    "Copy": [Case("nn.Copy('torch.DoubleTensor', 'torch.DoubleTensor')", X34)],
    "L1Penalty": [Case("nn.L1Penalty(0.1)", X34), Case("nn.L1Penalty(0.2, true)", X34)],
    "Dropout": [
        Case("nn.Dropout(0.4)", X34, setup=EVAL),
        Case("nn.Dropout(0)", X34),
        Case("nn.Dropout(0.3, true)", X34, setup=EVAL),
    ],
    "SpatialDropout": [
        Case("nn.SpatialDropout(0.3)", randn(2, 3, 4, 4), setup=EVAL, backward=False),
        Case("nn.SpatialDropout(0)", randn(2, 3, 4, 4)),
    ],
    "VolumetricDropout": [
        Case("nn.VolumetricDropout(0.3)", randn(2, 2, 3, 3, 3), setup=EVAL, backward=False),
        Case("nn.VolumetricDropout(0)", randn(2, 2, 3, 3, 3)),
    ],
    # softmaxes
    "SoftMax": [
        Case("nn.SoftMax()", randn(5)),
        Case("nn.SoftMax()", randn(3, 5)),
        Case("nn.SoftMax()", randn(3, 4, 4)),
        Case("nn.SoftMax()", randn(2, 3, 4, 4)),
    ],
    "LogSoftMax": [
        Case("nn.LogSoftMax()", randn(5)),
        Case("nn.LogSoftMax()", randn(3, 5)),
        Case("nn.LogSoftMax()", randn(2, 3, 4, 4)),
    ],
    "SoftMin": [Case("nn.SoftMin()", randn(5)), Case("nn.SoftMin()", randn(3, 5))],
    "SpatialSoftMax": [Case("nn.SpatialSoftMax()", randn(3, 4, 4)), Case("nn.SpatialSoftMax()", randn(2, 3, 4, 4))],
    # layers with parameters
    "Linear": [
        Case("nn.Linear(4, 3)", randn(4)),
        Case("nn.Linear(4, 3)", randn(2, 4)),
        Case("nn.Linear(4, 3, false)", randn(2, 4)),
    ],
    "LinearWeightNorm": [Case("nn.LinearWeightNorm(4, 3)", randn(2, 4)), Case("nn.LinearWeightNorm(4, 3)", randn(4))],
    "Bilinear": [
        Case("nn.Bilinear(3, 4, 2)", [randn(5, 3), randn(5, 4)]),
        Case("nn.Bilinear(3, 4, 2, false)", [randn(5, 3), randn(5, 4)]),
    ],
    "Add": [Case("nn.Add(4)", randn(4)), Case("nn.Add(4)", randn(2, 4)), Case("nn.Add(4, true)", randn(2, 4))],
    "CAdd": [Case("nn.CAdd(3, 4)", X34), Case("nn.CAdd(3, 4)", randn(2, 3, 4)), Case("nn.CAdd(1, 4)", randn(3, 4))],
    "CMul": [Case("nn.CMul(3, 4)", X34), Case("nn.CMul(3, 4)", randn(2, 3, 4)), Case("nn.CMul(1, 4)", randn(3, 4))],
    "Mul": [Case("nn.Mul()", X34)],
    "Euclidean": [Case("nn.Euclidean(4, 3)", randn(4)), Case("nn.Euclidean(4, 3)", randn(2, 4))],
    "WeightedEuclidean": [
        Case("nn.WeightedEuclidean(4, 3)", randn(4)),
        Case("nn.WeightedEuclidean(4, 3)", randn(2, 4)),
    ],
    "Cosine": [Case("nn.Cosine(4, 3)", randn(4)), Case("nn.Cosine(4, 3)", randn(2, 4))],
    "Maxout": [Case("nn.Maxout(4, 3, 2)", randn(2, 4)), Case("nn.Maxout(4, 3, 2)", randn(4))],
    "LookupTable": [
        Case("nn.LookupTable(10, 3)", classes(10, 5)),
        Case("nn.LookupTable(10, 3)", classes(10, 2, 5)),
        Case("nn.LookupTable(6, 3, 2)", fixed(Idx(torch.tensor([1, 0, 1, 3, 5])))),
        Case("nn.LookupTable(10, 3, 0, 0.5)", classes(10, 2, 4)),
    ],
    "Normalize": [
        Case("nn.Normalize(2)", randn(3, 5)),
        Case("nn.Normalize(1)", randn(5)),
        Case("nn.Normalize(math.huge)", randn(3, 5)),
        Case("nn.Normalize(3)", randn(3, 5)),
    ],
    "BatchNormalization": [
        Case("nn.BatchNormalization(4)", randn(5, 4), fields=("running_mean", "running_var")),
        Case("nn.BatchNormalization(4, 1e-3, 0.3, false)", randn(5, 4), fields=("running_mean", "running_var")),
        Case(
            "nn.BatchNormalization(4)",
            randn(5, 4),
            setup="function(m) m.running_mean:uniform(); m.running_var:uniform(0.5, 2); m:evaluate() end",
        ),
    ],
    "SpatialBatchNormalization": [
        Case("nn.SpatialBatchNormalization(3)", randn(2, 3, 4, 4), fields=("running_mean", "running_var")),
        Case(
            "nn.SpatialBatchNormalization(3)",
            randn(2, 3, 4, 4),
            setup="function(m) m.running_mean:uniform(); m.running_var:uniform(0.5, 2); m:evaluate() end",
        ),
    ],
    "VolumetricBatchNormalization": [
        Case("nn.VolumetricBatchNormalization(2)", randn(2, 2, 3, 3, 3), fields=("running_mean", "running_var"))
    ],
    # shapes
    "View": [
        Case("nn.View(12)", X34),
        Case("nn.View(4, 3)", randn(12)),
        Case("nn.View(-1, 6)", randn(2, 2, 3, 2)),
        Case("nn.View(12):setNumInputDims(2)", randn(2, 3, 4)),
    ],
    "Reshape": [
        Case("nn.Reshape(12)", X34),
        Case("nn.Reshape(12)", randn(2, 3, 4)),
        Case("nn.Reshape(3, 4, true)", randn(2, 12)),
    ],
    "Select": [Case("nn.Select(1, 2)", X34), Case("nn.Select(2, -1)", randn(2, 3, 4))],
    "Narrow": [
        Case("nn.Narrow(2, 2, 3)", randn(3, 5)),
        Case("nn.Narrow(1, 2)", randn(3, 5)),
        Case("nn.Narrow(2, -3, 2)", randn(3, 5)),
    ],
    "Transpose": [Case("nn.Transpose({1, 2}, {2, 3})", randn(2, 3, 4))],
    "Squeeze": [
        Case("nn.Squeeze()", randn(3, 1, 4, 1)),
        Case("nn.Squeeze(2)", randn(3, 1, 4)),
        Case("nn.Squeeze(1, 2)", randn(2, 1, 4)),
    ],
    "Unsqueeze": [Case("nn.Unsqueeze(2)", X34), Case("nn.Unsqueeze(1, 1)", randn(2, 4))],
    "Replicate": [
        Case("nn.Replicate(3)", randn(4)),
        Case("nn.Replicate(3, 2)", X34),
        Case("nn.Replicate(2, 1, 1)", randn(2, 4)),
    ],
    "Padding": [
        Case("nn.Padding(1, 2)", X34),
        Case("nn.Padding(2, -2, 2, 1.5)", randn(2, 3, 4)),
        Case("nn.Padding(1, 1, 1, 0, 2)", randn(4)),
    ],
    "Index": [Case("nn.Index(1)", [randn(5, 3), classes(5, 4)]), Case("nn.Index(2)", [randn(3, 5), classes(5, 3)])],
    "Sum": [
        Case("nn.Sum(2)", X34),
        Case("nn.Sum(1, 1)", randn(2, 3, 4)),
        Case("nn.Sum(2, nil, true)", X34),
        Case("nn.Sum(2, nil, false, false)", X34),
    ],
    "Mean": [Case("nn.Mean(2)", X34), Case("nn.Mean(1, 1)", randn(2, 3, 4))],
    "Max": [Case("nn.Max(2)", X34), Case("nn.Max(1, 1)", randn(2, 3, 4)), Case("nn.Max(1)", randn(5))],
    "Min": [Case("nn.Min(2)", X34), Case("nn.Min(1, 1)", randn(2, 3, 4))],
    # tables
    "CAddTable": [Case("nn.CAddTable()", [X34, X34, X34])],
    "CSubTable": [Case("nn.CSubTable()", [X34, X34])],
    "CMulTable": [Case("nn.CMulTable()", [X34, X34, X34])],
    "CDivTable": [Case("nn.CDivTable()", [X34, pos(3, 4)])],
    "JoinTable": [
        Case("nn.JoinTable(2)", [randn(3, 2), randn(3, 4)]),
        Case("nn.JoinTable(1, 1)", [randn(2, 3), randn(2, 4)]),
        Case("nn.JoinTable(1)", [randn(2), randn(3)]),
    ],
    "SplitTable": [Case("nn.SplitTable(2)", X34), Case("nn.SplitTable(1, 1)", randn(2, 3, 4))],
    "SelectTable": [
        Case("nn.SelectTable(2)", [randn(2), randn(3), randn(4)]),
        Case("nn.SelectTable(-1)", [randn(2), [randn(3), randn(4)]]),
    ],
    "NarrowTable": [Case("nn.NarrowTable(2, 2)", [randn(1), randn(2), randn(3), randn(4)])],
    "FlattenTable": [Case("nn.FlattenTable()", [randn(2), [randn(3), [randn(4)]], randn(1)])],
    "MixtureTable": [
        Case("nn.MixtureTable()", [unit(2, 3), randn(2, 3, 4)]),
        Case("nn.MixtureTable()", [unit(2, 3), [randn(2, 4), randn(2, 4), randn(2, 4)]]),
    ],
    "MM": [
        Case("nn.MM()", [randn(3, 4), randn(4, 2)]),
        Case("nn.MM()", [randn(2, 3, 4), randn(2, 4, 5)]),
        Case("nn.MM(true, true)", [randn(4, 3), randn(2, 4)]),
    ],
    "MV": [
        Case("nn.MV()", [randn(3, 4), randn(4)]),
        Case("nn.MV()", [randn(2, 3, 4), randn(2, 4)]),
        Case("nn.MV(true)", [randn(4, 3), randn(4)]),
    ],
    "DotProduct": [Case("nn.DotProduct()", [X34, X34]), Case("nn.DotProduct()", [randn(4), randn(4)])],
    "CosineDistance": [Case("nn.CosineDistance()", [X34, X34]), Case("nn.CosineDistance()", [randn(4), randn(4)])],
    "PairwiseDistance": [
        Case("nn.PairwiseDistance(2)", [X34, X34]),
        Case("nn.PairwiseDistance(1)", [randn(4), randn(4)]),
        Case("nn.PairwiseDistance(3)", [X34, X34]),
    ],
    # containers
    "Sequential": [
        Case(
            "nn.Sequential():add(nn.Linear(4, 5)):add(nn.Tanh()):add(nn.Linear(5, 3)):add(nn.LogSoftMax())", randn(2, 4)
        )
    ],
    "Concat": [
        Case("nn.Concat(2):add(nn.Linear(4, 3)):add(nn.Linear(4, 2))", randn(2, 4)),
        Case("nn.Concat(1):add(nn.Linear(4, 3)):add(nn.Tanh())", randn(4)),
    ],
    "DepthConcat": [
        Case(
            "nn.DepthConcat(2):add(nn.SpatialConvolution(2, 3, 3, 3)):add(nn.SpatialConvolution(2, 2, 1, 1))",
            randn(2, 2, 5, 5),
        )
    ],
    "ConcatTable": [Case("nn.ConcatTable():add(nn.Linear(4, 3)):add(nn.Identity())", randn(2, 4))],
    "ParallelTable": [Case("nn.ParallelTable():add(nn.Linear(4, 3)):add(nn.Tanh())", [randn(2, 4), randn(5)])],
    "Parallel": [
        Case("nn.Parallel(1, 1):add(nn.Linear(4, 3)):add(nn.Linear(4, 2))", randn(2, 4)),
        Case("nn.Parallel(2, 1):add(nn.Tanh()):add(nn.Tanh()):add(nn.Tanh())", randn(4, 3)),
    ],
    "MapTable": [Case("nn.MapTable(nn.Linear(4, 3))", [randn(2, 4), randn(2, 4), randn(2, 4)])],
    "Bottle": [
        Case("nn.Bottle(nn.Linear(4, 3))", randn(2, 5, 4)),
        Case("nn.Bottle(nn.SpatialConvolution(2, 3, 3, 3), 4)", randn(2, 2, 2, 5, 5)),
    ],
    # spatial
    "SpatialConvolution": [
        Case("nn.SpatialConvolution(3, 4, 3, 3, 1, 1, 1, 1)", randn(3, 6, 6)),
        Case("nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 0, 1)", randn(2, 3, 7, 6)),
        Case("nn.SpatialConvolution(3, 4, 3, 3):noBias()", randn(2, 3, 5, 5)),
    ],
    "SpatialConvolutionMM": [
        Case("nn.SpatialConvolutionMM(3, 4, 3, 3, 1, 1, 1, 1)", randn(3, 6, 6)),
        Case("nn.SpatialConvolutionMM(3, 4, 2, 3, 2, 1, 1, 0)", randn(2, 3, 7, 6)),
    ],
    "SpatialConvolutionLocal": [
        Case("nn.SpatialConvolutionLocal(3, 4, 6, 6, 3, 3)", randn(3, 6, 6)),
        Case("nn.SpatialConvolutionLocal(3, 2, 6, 5, 3, 2, 1, 1, 1, 0)", randn(2, 3, 5, 6)),
    ],
    "SpatialDilatedConvolution": [
        Case("nn.SpatialDilatedConvolution(3, 4, 3, 3, 1, 1, 2, 2, 2, 2)", randn(3, 6, 6)),
        Case("nn.SpatialDilatedConvolution(2, 3, 2, 3, 2, 1, 0, 1, 2, 1)", randn(2, 2, 7, 6)),
    ],
    "SpatialFullConvolution": [
        Case("nn.SpatialFullConvolution(3, 4, 3, 3, 2, 2, 1, 1, 1, 1)", randn(3, 4, 4)),
        Case("nn.SpatialFullConvolution(2, 3, 2, 3)", randn(2, 2, 4, 5)),
    ],
    "SpatialSubSampling": [
        Case("nn.SpatialSubSampling(3, 2, 2, 2, 2)", randn(3, 6, 6)),
        Case("nn.SpatialSubSampling(2, 3, 2, 1, 2)", randn(2, 2, 6, 6)),
    ],
    "SpatialMaxPooling": [
        Case("nn.SpatialMaxPooling(2, 2, 2, 2)", randn(3, 6, 6)),
        Case("nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1)", randn(2, 3, 7, 7)),
        Case("nn.SpatialMaxPooling(2, 2, 2, 2):ceil()", randn(2, 2, 5, 5)),
    ],
    "SpatialDilatedMaxPooling": [Case("nn.SpatialDilatedMaxPooling(2, 2, 1, 1, 0, 0, 2, 2)", randn(2, 2, 6, 6))],
    "SpatialAveragePooling": [
        Case("nn.SpatialAveragePooling(2, 2, 2, 2)", randn(3, 6, 6)),
        Case("nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1):setCountExcludePad()", randn(2, 2, 7, 7)),
        Case("nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1):ceil()", randn(2, 2, 6, 6)),
    ],
    "SpatialAdaptiveMaxPooling": [Case("nn.SpatialAdaptiveMaxPooling(3, 2)", randn(2, 3, 7, 5))],
    "SpatialAdaptiveAveragePooling": [
        Case("nn.SpatialAdaptiveAveragePooling(3, 2)", randn(2, 3, 7, 5)),
        Case("nn.SpatialAdaptiveAveragePooling(2, 3)", randn(3, 5, 4)),
    ],
    "SpatialLPPooling": [
        Case("nn.SpatialLPPooling(2, 2, 2, 2, 2, 2)", pos(2, 4, 4)),
        Case("nn.SpatialLPPooling(2, 3, 2, 2)", pos(2, 2, 4, 4)),
    ],
    "SpatialFractionalMaxPooling": [
        Case(
            "nn.SpatialFractionalMaxPooling(2, 2, 4, 4)",
            randn(2, 2, 7, 7),
            setup="function(m, x) m:fixPoolingRegions(true); m:forward(x) end",
        ),
        Case(
            "nn.SpatialFractionalMaxPooling(2, 2, 0.6, 0.6)",
            randn(2, 7, 7),
            setup="function(m, x) m:fixPoolingRegions(true); m:forward(x) end",
        ),
    ],
    "SpatialMaxUnpooling": [
        Case(
            "nn.SpatialMaxUnpooling(nn.SpatialMaxPooling(2, 2, 2, 2))",
            randn(2, 2, 3, 3),
            setup="function(m) m.pooling:forward(torch.randn(2, 2, 6, 6)) end",
        )
    ],
    "SpatialReflectionPadding": [
        Case("nn.SpatialReflectionPadding(1, 2, 2, 0)", randn(2, 3, 4)),
        Case("nn.SpatialReflectionPadding(1, 1, 1, 1)", randn(2, 2, 3, 4)),
    ],
    "SpatialReplicationPadding": [
        Case("nn.SpatialReplicationPadding(1, 2, 2, 0)", randn(2, 3, 4)),
        Case("nn.SpatialReplicationPadding(1, 1, 1, 1)", randn(2, 2, 3, 4)),
    ],
    "SpatialZeroPadding": [
        Case("nn.SpatialZeroPadding(1, 2, 2, 0)", randn(2, 3, 4)),
        Case("nn.SpatialZeroPadding(1, -1, 2, -1)", randn(2, 2, 3, 4)),
    ],
    "SpatialUpSamplingNearest": [
        Case("nn.SpatialUpSamplingNearest(2)", randn(2, 3, 4)),
        Case("nn.SpatialUpSamplingNearest(3)", randn(2, 2, 3, 2)),
    ],
    "SpatialUpSamplingBilinear": [
        Case("nn.SpatialUpSamplingBilinear(2)", randn(2, 3, 4)),
        Case("nn.SpatialUpSamplingBilinear({oheight=5, owidth=7})", randn(2, 2, 3, 4)),
    ],
    "SpatialCrossMapLRN": [
        Case("nn.SpatialCrossMapLRN(3, 0.01, 0.75, 1)", randn(5, 4, 4)),
        Case("nn.SpatialCrossMapLRN(5, 0.1, 0.5, 2)", randn(2, 6, 3, 3)),
    ],
    "SpatialSubtractiveNormalization": [
        Case("nn.SpatialSubtractiveNormalization(2, torch.ones(3))", randn(2, 5, 5)),
        Case(
            "nn.SpatialSubtractiveNormalization(2, torch.Tensor({{1, 2, 1}, {2, 4, 2}, {1, 2, 1}}))", randn(2, 2, 5, 6)
        ),
    ],
    "SpatialDivisiveNormalization": [
        Case("nn.SpatialDivisiveNormalization(2, torch.ones(3))", randn(2, 5, 5)),
        Case("nn.SpatialDivisiveNormalization(2, torch.Tensor({{1, 2, 1}, {2, 4, 2}, {1, 2, 1}}))", randn(2, 2, 5, 6)),
    ],
    "SpatialContrastiveNormalization": [
        Case("nn.SpatialContrastiveNormalization(2, torch.ones(3))", randn(2, 5, 5)),
        Case("nn.SpatialContrastiveNormalization(2, torch.ones(3, 3))", randn(2, 2, 5, 6)),
    ],
    # temporal
    "TemporalConvolution": [
        Case("nn.TemporalConvolution(4, 3, 2)", randn(5, 4)),
        Case("nn.TemporalConvolution(4, 3, 3, 2)", randn(2, 7, 4)),
    ],
    "TemporalSubSampling": [
        Case("nn.TemporalSubSampling(4, 2)", randn(5, 4)),
        Case("nn.TemporalSubSampling(4, 3, 2)", randn(7, 4)),
    ],
    "TemporalMaxPooling": [
        Case("nn.TemporalMaxPooling(2)", randn(6, 4)),
        Case("nn.TemporalMaxPooling(3, 1)", randn(2, 6, 4)),
    ],
    # volumetric
    "VolumetricConvolution": [
        Case("nn.VolumetricConvolution(2, 3, 2, 2, 2)", randn(2, 4, 4, 4)),
        Case("nn.VolumetricConvolution(2, 3, 3, 2, 2, 1, 2, 1, 1, 0, 1)", randn(2, 2, 4, 5, 4)),
    ],
    "VolumetricDilatedConvolution": [
        Case("nn.VolumetricDilatedConvolution(2, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 2, 2, 2)", randn(2, 2, 5, 5, 5))
    ],
    "VolumetricFullConvolution": [
        Case("nn.VolumetricFullConvolution(2, 3, 2, 2, 2, 2, 2, 2)", randn(2, 3, 3, 3)),
        Case("nn.VolumetricFullConvolution(2, 2, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1)", randn(2, 2, 2, 3, 2)),
    ],
    "VolumetricMaxPooling": [
        Case("nn.VolumetricMaxPooling(2, 2, 2)", randn(2, 4, 4, 4)),
        Case("nn.VolumetricMaxPooling(3, 3, 3, 2, 2, 2, 1, 1, 1)", randn(2, 2, 5, 5, 5)),
    ],
    "VolumetricDilatedMaxPooling": [
        Case("nn.VolumetricDilatedMaxPooling(2, 2, 2, 1, 1, 1, 0, 0, 0, 2, 2, 2)", randn(2, 2, 5, 5, 5))
    ],
    "VolumetricAveragePooling": [
        Case("nn.VolumetricAveragePooling(2, 2, 2)", randn(2, 4, 4, 4)),
        Case("nn.VolumetricAveragePooling(2, 2, 2, 1, 1, 1)", randn(2, 2, 3, 3, 3)),
    ],
    "VolumetricMaxUnpooling": [
        Case(
            "nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 2, 2))",
            randn(2, 2, 2, 2, 2),
            setup="function(m) m.pooling:forward(torch.randn(2, 2, 4, 4, 4)) end",
        ),
        Case("nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 2, 2))", randn(2, 2, 2, 2), pool=randn(2, 4, 4, 4)),
    ],
    "VolumetricReplicationPadding": [
        Case("nn.VolumetricReplicationPadding(1, 0, 2, 1, 0, 1)", randn(2, 2, 3, 3)),
        Case("nn.VolumetricReplicationPadding(1, 1, 1, 1, 1, 1)", randn(2, 2, 2, 3, 2)),
    ],
    # the extra modules (extra.py, extra_conv.py)
    "CMaxTable": [Case("nn.CMaxTable()", [X34, X34, X34])],
    "CMinTable": [Case("nn.CMinTable()", [X34, X34])],
    "CReLU": [Case("nn.CReLU(3)", randn(2, 3, 4, 2)), Case("nn.CReLU(1)", randn(4))],
    "Collapse": [Case("nn.Collapse(2)", randn(3, 4, 5)), Case("nn.Collapse(1)", X34)],
    "Constant": [Case("nn.Constant(torch.randn(2, 3), 2)", randn(4, 5, 6)), Case("nn.Constant(2.5)", randn(3))],
    "Convert": [
        Case("nn.Convert('bchw', 'bhwc')", randn(2, 3, 4, 5)),
        Case("nn.Convert('bchw', 'hfb')", randn(2, 3, 4, 5)),
        Case("nn.Convert('bf', 'fb')", X34),
    ],
    "GatedLinearUnit": [Case("nn.GatedLinearUnit(2)", randn(3, 4, 5)), Case("nn.GatedLinearUnit()", randn(3, 6))],
    "MaskedSelect": [Case("nn.MaskedSelect()", [X34, mask(3, 4)])],
    "PixelShuffle": [Case("nn.PixelShuffle(2)", randn(2, 8, 3, 3)), Case("nn.PixelShuffle(3)", randn(9, 2, 2))],
    "SpatialLogSoftMax": [
        Case("nn.SpatialLogSoftMax()", randn(2, 3, 4, 4)),
        Case("nn.SpatialLogSoftMax()", randn(3, 4, 5)),
    ],
    "TanhShrink": [Case("nn.TanhShrink()", randn(3, 5))],
    "TemporalDynamicKMaxPooling": [
        Case("nn.TemporalDynamicKMaxPooling(2, 0.5)", randn(2, 7, 3)),
        Case("nn.TemporalDynamicKMaxPooling(3)", randn(7, 3)),
    ],
    "ZeroGrad": [Case("nn.ZeroGrad()", X34)],
    "ZipTable": [Case("nn.ZipTable()", [[randn(2), randn(3)], [randn(2), randn(3)]])],
    "ZipTableOneToMany": [Case("nn.ZipTableOneToMany()", [randn(2), [randn(3), randn(4)]])],
    "CAddTensorTable": [
        Case("nn.CAddTensorTable()", [randn(4), [randn(4), randn(4), randn(4)]]),
        Case("nn.CAddTensorTable()", [X34, [X34]]),
    ],
    "PartialLinear": [
        Case("nn.PartialLinear(4, 6)", randn(3, 4), setup="function(m) m:reset() end"),
        Case(
            "nn.PartialLinear(4, 6)",
            randn(3, 4),
            setup="function(m) m:reset(); m:setPartition(torch.Tensor({5, 2, 3, 2})) end",
        ),
        Case(
            "nn.PartialLinear(4, 6, false)",
            randn(3, 4),
            setup="function(m) m:setPartition(torch.LongTensor({6, 1})) end",
        ),
    ],
    "Kmeans": [
        Case("nn.Kmeans(3, 4)", randn(10, 4), lua_output=zero_based, fields=("loss", "clusterSampleCount")),
        Case(
            "nn.Kmeans(3, 4, 0.5)",
            randn(10, 4),
            setup="function(m, x) m:initRandom(x) end",
            lua_output=zero_based,
            fields=("loss", "clusterSampleCount"),
        ),
        Case(
            "nn.Kmeans(4, 3)",
            randn(12, 3),
            setup="function(m, x) m:initKmeansPlus(x, 0.5) end",
            lua_output=zero_based,
            fields=("loss", "clusterSampleCount"),
        ),
    ],
    "Decorator": [Case("nn.Decorator(nn.Linear(4, 3))", randn(2, 4))],
    "DontCast": [Case("nn.DontCast(nn.Linear(4, 3))", randn(2, 4)), Case("nn.DontCast(nn.Tanh(), true)", X34)],
    "NaN": [Case("nn.NaN(nn.Linear(4, 3), 7)", randn(2, 4))],
    "Profile": [Case("nn.Profile(nn.Linear(4, 3), 1000)", randn(2, 4))],
    "WeightNorm": [
        Case("nn.WeightNorm(nn.Linear(4, 3))", randn(2, 4)),
        Case("nn.WeightNorm(nn.SpatialConvolution(2, 3, 2, 2), 2)", randn(2, 2, 4, 4)),
    ],
    "CriterionTable": [
        Case("nn.CriterionTable(nn.MSECriterion())", [X34, X34]),
        Case("nn.CriterionTable(nn.ClassNLLCriterion())", [logprob(3, 5), classes(5, 3)]),
    ],
    "SpatialConvolutionMap": [
        Case("nn.SpatialConvolutionMap(nn.tables.random(3, 4, 2), 3, 3, 2, 1)", randn(2, 3, 7, 6)),
        Case("nn.SpatialConvolutionMap(nn.tables.oneToOne(3), 2, 2)", randn(3, 5, 5)),
    ],
    "SpatialFullConvolutionMap": [
        Case("nn.SpatialFullConvolutionMap(nn.tables.full(2, 3), 3, 2, 2, 1)", randn(2, 2, 3, 4)),
        Case("nn.SpatialFullConvolutionMap(nn.tables.random(3, 2, 2), 2, 2)", randn(3, 3, 3)),
    ],
    "SpatialDepthWiseConvolution": [
        Case("nn.SpatialDepthWiseConvolution(3, 2, 3, 2, 2, 1, 1, 0)", randn(2, 3, 5, 6)),
        Case("nn.SpatialDepthWiseConvolution(2, 1, 2, 2)", randn(2, 4, 4)),
    ],
    "TemporalRowConvolution": [
        Case("nn.TemporalRowConvolution(4, 3, 2)", randn(2, 9, 4)),
        Case("nn.TemporalRowConvolution(4, 3, 1, true)", randn(4, 6)),
    ],
    "SparseLinear": [
        Case("nn.SparseLinear(6, 3)", sparse(6, 3)),
        Case("nn.SparseLinear(6, 3, true)", sparse(6, 2, 3), lua_grad_input=sparse_from_lua),
    ],
    "IndexLinear": [
        Case(
            "nn.IndexLinear(6, 3, true)",
            [[classes(6, 3), classes(6, 2)], [randn(3), randn(2)]],
            setup="function(m) m.weight:uniform(-1, 1); m.bias:uniform(-1, 1) end",
            lua_grad_input=lambda gi: [[zero_based(k) for k in gi[0]], gi[1]],
        ),
        Case(
            "nn.IndexLinear(6, 3, false, 0, nil, nil, true)",
            [[classes(6, 2), classes(6, 4)], [randn(2), randn(4)]],
            setup="function(m) m.bias:uniform(-1, 1) end",
        ),
    ],
    # criterions
    "MSECriterion": [Case("nn.MSECriterion()", X34, X34), Case("nn.MSECriterion(false)", randn(5), randn(5))],
    "AbsCriterion": [Case("nn.AbsCriterion()", X34, X34), Case("nn.AbsCriterion(false)", X34, X34)],
    "SmoothL1Criterion": [Case("nn.SmoothL1Criterion()", X34, X34), Case("nn.SmoothL1Criterion(false)", X34, X34)],
    "SoftMarginCriterion": [Case("nn.SoftMarginCriterion()", X34, signs(3, 4))],
    "DistKLDivCriterion": [
        Case("nn.DistKLDivCriterion()", logprob(3, 4), unit(3, 4)),
        Case("nn.DistKLDivCriterion(false)", logprob(4), unit(4)),
    ],
    "BCECriterion": [
        Case("nn.BCECriterion()", unit(3, 4), bits(3, 4)),
        Case("nn.BCECriterion(torch.Tensor({1, 2, 0.5, 3}))", unit(3, 4), bits(3, 4)),
        Case("nn.BCECriterion(nil, false)", unit(5), bits(5)),
    ],
    "MarginCriterion": [
        Case("nn.MarginCriterion()", X34, signs(3, 4)),
        Case("nn.MarginCriterion(0.5)", randn(5), signs(5)),
    ],
    "HingeEmbeddingCriterion": [
        Case("nn.HingeEmbeddingCriterion(1.5)", pos(5), signs(5)),
        Case("nn.HingeEmbeddingCriterion(1, false)", pos(3, 4), signs(3, 4)),
    ],
    "ClassNLLCriterion": [
        Case("nn.ClassNLLCriterion()", logprob(3, 5), classes(5, 3)),
        Case("nn.ClassNLLCriterion()", logprob(5), classes(5, 1)),
        Case("nn.ClassNLLCriterion(torch.Tensor({1, 2, 0.5, 1, 3}))", logprob(3, 5), classes(5, 3)),
        Case("nn.ClassNLLCriterion(nil, false)", logprob(3, 5), classes(5, 3)),
        Case("nn.ClassNLLCriterion(nil, true, 2)", logprob(4, 5), fixed(Idx(torch.tensor([1, 0, 1, 4])))),
    ],
    "CrossEntropyCriterion": [
        Case("nn.CrossEntropyCriterion()", randn(3, 5), classes(5, 3)),
        Case("nn.CrossEntropyCriterion(torch.Tensor({1, 2, 0.5, 1, 3}))", randn(5), classes(5, 1)),
    ],
    "ClassSimplexCriterion": [Case("nn.ClassSimplexCriterion(5)", randn(3, 5), classes(5, 3))],
    "MultiMarginCriterion": [
        Case("nn.MultiMarginCriterion()", randn(3, 5), classes(5, 3)),
        Case("nn.MultiMarginCriterion(2)", randn(5), classes(5, 1)),
        Case("nn.MultiMarginCriterion(1, torch.Tensor({1, 2, 0.5, 1, 3}), 0.7)", randn(3, 5), classes(5, 3)),
    ],
    "MultiLabelMarginCriterion": [
        Case("nn.MultiLabelMarginCriterion()", randn(2, 4), fixed(Idx(torch.tensor([[2, 0, -1, 1], [3, -1, -1, -1]])))),
        Case("nn.MultiLabelMarginCriterion()", randn(4), fixed(Idx(torch.tensor([1, 3, -1, -1])))),
    ],
    "MultiLabelSoftMarginCriterion": [
        Case("nn.MultiLabelSoftMarginCriterion()", X34, bits(3, 4)),
        Case("nn.MultiLabelSoftMarginCriterion(torch.Tensor({1, 2, 0.5, 3}))", X34, bits(3, 4)),
    ],
    "CosineEmbeddingCriterion": [
        Case("nn.CosineEmbeddingCriterion(0.2)", [X34, X34], signs(3)),
        Case("nn.CosineEmbeddingCriterion(0, false)", [X34, X34], signs(3)),
    ],
    "MarginRankingCriterion": [
        Case("nn.MarginRankingCriterion(0.5)", [randn(4), randn(4)], signs(4)),
        Case("nn.MarginRankingCriterion(1)", [randn(1), randn(1)], fixed(-1)),
    ],
    "L1HingeEmbeddingCriterion": [
        Case("nn.L1HingeEmbeddingCriterion(2)", [randn(4), randn(4)], fixed(1)),
        Case("nn.L1HingeEmbeddingCriterion(2)", [randn(4), randn(4)], fixed(-1)),
    ],
    "L1Cost": [Case("nn.L1Cost()", X34, criterion=True), Case("nn.L1Cost()", randn(5), criterion=True)],
    "DistanceRatioCriterion": [
        Case("nn.DistanceRatioCriterion()", [pos(8), pos(8)], criterion=True),
        Case("nn.DistanceRatioCriterion(false)", [randn(6, 1), randn(6, 1)], criterion=True),
    ],
    "ModuleCriterion": [
        Case("nn.ModuleCriterion(nn.MSECriterion(), nn.Tanh(), nn.Sigmoid())", X34, X34),
        Case("nn.ModuleCriterion(nn.ClassNLLCriterion(), nn.LogSoftMax())", randn(3, 5), classes(5, 3)),
    ],
    "SpatialAutoCropMSECriterion": [
        Case("nn.SpatialAutoCropMSECriterion()", randn(2, 3, 4, 4), randn(2, 3, 7, 6)),
        Case("nn.SpatialAutoCropMSECriterion(false)", randn(3, 4, 3), randn(3, 5, 6)),
    ],
    "SpatialClassNLLCriterion": [
        Case("nn.SpatialClassNLLCriterion()", randn(2, 4, 3, 3), classes(4, 2, 3, 3)),
        Case(
            "nn.SpatialClassNLLCriterion(torch.Tensor({1, 2, 0.5, 3}), false)", randn(2, 4, 3, 3), classes(4, 2, 3, 3)
        ),
        Case("nn.SpatialClassNLLCriterion(nil, true, 3)", randn(2, 4, 3, 3), classes(4, 2, 3, 3)),
    ],
    "WeightedMSECriterion": [
        Case("nn.WeightedMSECriterion(torch.randn(3, 4))", randn(2, 3, 4), randn(2, 3, 4)),
        Case("nn.WeightedMSECriterion(torch.randn(3, 4), false)", X34, X34),
    ],
    "MultiCriterion": [Case("nn.MultiCriterion():add(nn.MSECriterion(), 0.5):add(nn.AbsCriterion())", X34, X34)],
    "ParallelCriterion": [
        Case(
            "nn.ParallelCriterion():add(nn.MSECriterion(), 0.5):add(nn.ClassNLLCriterion())",
            [randn(3, 5), logprob(3, 5)],
            [randn(3, 5), classes(5, 3)],
        ),
        Case("nn.ParallelCriterion(true):add(nn.MSECriterion()):add(nn.AbsCriterion(), 2)", [X34, X34], X34),
    ],
}

SKIP = {
    "Module": "abstract base class: its updateOutput returns an empty output",
    "Container": "abstract base class (covered through Sequential, Concat, ...)",
    "Criterion": "abstract base class (covered through every criterion)",
    "StochasticGradient": "a trainer, not a module: test_legacy_nn_extra.py's "
    "test_lua_trained_stochastic_gradient_matches trains the same Lua-saved MLP on both sides",
}


def intersection():
    rt = tl.Runtime()
    rt.require("nn")
    names = rt.execute("""
        local out = {}
        for k, v in pairs(nn) do
           local name = type(v) == 'table' and v.__typename
           if name and name == 'nn.' .. k then out[#out + 1] = k end
        end
        return out""")
    lua = set(tl.to_python(names))
    python = {
        n
        for n in dir(nn)
        if isinstance(getattr(nn, n), type)
        and issubclass(getattr(nn, n), TorchObject)
        and getattr(nn, n).torch_typename() == "nn." + n
    }
    return sorted(lua & python)


INTERSECTION = intersection()


def test_every_shared_class_is_compared_or_skipped():
    assert len(INTERSECTION) > 100, INTERSECTION
    missing = [n for n in INTERSECTION if n not in CASES and n not in SKIP]
    assert not missing, "classes of both packages with no equivalence case: %s" % missing
    both = set(CASES) & set(SKIP)
    assert not both, both


# ---------------------------------------------------------------------------------------
# Lua -> Python


@pytest.fixture(scope="module")
def rt():
    r = tl.Runtime()
    r.require("nn")
    r.execute("torch.setdefaulttensortype('torch.DoubleTensor')")
    return r


def lua_run(rt, case, seed, path):
    """Builds case in Lua, saves it to path, runs it; returns (input, target, gradOutput,
    output, gradInput, gradParameters, fields) as Python values (input and target as specs
    for both sides)."""
    rng = np.random.default_rng(seed)
    x = build(case.input, rng)
    target = build(case.target, rng) if case.target is not None else None
    pool = build(case.pool, rng) if case.pool is not None else None
    rt.eval("torch.manualSeed")(seed)
    m = rt.eval(case.lua)
    if case.setup:
        rt.eval(case.setup)(m, for_lua(x))
    rt.eval("torch.save")(path, m)
    if pool is not None:
        m.pooling.forward(for_lua(pool))
    if case.criterion:
        out = m.forward(for_lua(x), for_lua(target))
        out = out[0] if isinstance(out, tuple) else out  # ClassNLLCriterion also returns the total weight
        gi = from_lua(m.backward(for_lua(x), for_lua(target)))
        return x, target, pool, None, out, gi, None, {}
    out = from_lua(m.forward(for_lua(x)))
    if case.lua_output:
        out = case.lua_output(out)
    go = like(out, rng)
    if not case.backward:
        return x, target, pool, None, out, None, None, {}
    m.zeroGradParameters()
    gi = from_lua(m.backward(for_lua(x), for_lua(go)))
    if case.lua_grad_input:
        gi = case.lua_grad_input(gi)
    params = m.parameters()
    grads = from_lua(params[1]) if params else []
    fields = {f: from_lua(m[f]) for f in case.fields}
    return x, target, pool, go, out, gi, grads, fields


def python_grads(m):
    params = m.parameters()
    return snapshot(params[1]) if params else []


def lua_cases():
    for name in INTERSECTION:
        for i, case in enumerate(CASES.get(name, ())):
            yield pytest.param(name, case, id="%s-%d" % (name, i))


@pytest.mark.parametrize("name, case", list(lua_cases()))
def test_lua_module_loaded_in_python_gives_the_same_results(rt, tmp_path, name, case):
    path = str(tmp_path / "m.t7")
    seed = zlib.crc32(case.lua.encode()) % 10000
    x, target, pool, go, out, gi, grads, fields = lua_run(rt, case, seed, path)
    m = load_lua(path)
    assert m.torch_typename() == "nn." + name
    if pool is not None:
        m.pooling.forward(for_python(pool))
    if case.criterion:
        assert_same(out, m.forward(for_python(x), for_python(target)), "loss")
        assert_same(gi, snapshot(m.backward(for_python(x), for_python(target))), "gradInput")
        return
    assert_same(out, snapshot(m.forward(for_python(x))), "output")
    if not case.backward:
        return
    m.zeroGradParameters()
    assert_same(gi, snapshot(m.backward(for_python(x), for_python(go))), "gradInput")
    assert_same(grads, python_grads(m), "gradParameters")
    for f, value in fields.items():
        assert_same(value, getattr(m, f), f)


# ---------------------------------------------------------------------------------------
# Python -> Lua: legacy.nn constructors, save_lua, torch.load in Lua

REVERSE = [
    (
        lambda: nn.Sequential().add(nn.Linear(4, 5)).add(nn.ReLU()).add(nn.Linear(5, 3)).add(nn.LogSoftMax()),
        randn(2, 4),
    ),
    (
        lambda: (
            nn.Sequential()
            .add(nn.SpatialConvolution(2, 3, 3, 3, 1, 1, 1, 1))
            .add(nn.SpatialBatchNormalization(3))
            .add(nn.SpatialMaxPooling(2, 2, 2, 2))
            .add(nn.View(12))
            .add(nn.Linear(12, 2))
        ),
        randn(2, 2, 4, 4),
    ),
    (lambda: nn.Select(1, 0), randn(2, 3, 4)),
    (lambda: nn.Narrow(1, 1, 2), randn(3, 5)),
    (lambda: nn.JoinTable(0), [randn(2, 3), randn(1, 3)]),
    (lambda: nn.SplitTable(1), randn(3, 4)),
    (lambda: nn.Sum(1), randn(3, 4)),
    (lambda: nn.Max(0), randn(3, 4)),
    (lambda: nn.Transpose([0, 2]), randn(2, 3, 4)),
    (lambda: nn.Concat(1).add(nn.Linear(4, 2)).add(nn.Linear(4, 3)), randn(2, 4)),
    (lambda: nn.ConcatTable().add(nn.Identity()).add(nn.Tanh()), randn(3)),
    (lambda: nn.ParallelTable().add(nn.Linear(3, 2)).add(nn.Sigmoid()), [randn(3), randn(2)]),
    (lambda: nn.SelectTable(1), [randn(2), randn(3)]),
    (lambda: nn.NarrowTable(1, 2), [randn(2), randn(3), randn(4)]),
    (lambda: nn.Padding(0, 2, None, 0.5, 1), randn(3)),
    (lambda: nn.Replicate(2, 1), randn(3, 4)),
    (lambda: nn.LookupTable(6, 3, 2), fixed(Idx(torch.tensor([0, 2, 5, 2])))),
    (lambda: nn.Index(0), [randn(5, 2), fixed(Idx(torch.tensor([4, 0, 0])))]),
    (lambda: nn.Squeeze(1), randn(3, 1, 2)),
    (lambda: nn.Unsqueeze(0), randn(3)),
    (lambda: nn.MixtureTable(), [unit(2, 3), randn(2, 3, 4)]),
    (lambda: nn.Parallel(0, 0).add(nn.Linear(4, 3)).add(nn.Linear(4, 2)), randn(2, 4)),
    (lambda: nn.BatchNormalization(3), randn(4, 3)),
    (lambda: nn.Bilinear(2, 3, 2), [randn(4, 2), randn(4, 3)]),
    (lambda: nn.TemporalConvolution(3, 2, 2), randn(4, 3)),
    (lambda: nn.VolumetricConvolution(2, 2, 2, 2, 2), randn(2, 3, 3, 3)),
    (lambda: nn.CAddTensorTable(), [randn(3), [randn(3), randn(3)]]),
    (lambda: nn.PartialLinear(4, 5).reset(), randn(2, 4)),
    (lambda: nn.PartialLinear(4, 5).reset().setPartition(torch.tensor([4, 0, 2])), randn(2, 4)),
]


@pytest.mark.parametrize("i", range(len(REVERSE)))
def test_python_module_loaded_in_lua_gives_the_same_results(rt, tmp_path, i):
    make, spec = REVERSE[i]
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        torch.manual_seed(i)
        m = make()
    finally:
        torch.set_default_dtype(old)
    path = str(tmp_path / "m.t7")
    save_lua(m, path)
    rng = np.random.default_rng(100 + i)
    x = build(spec, rng)
    out = snapshot(m.forward(for_python(x)))
    go = like(out, rng)
    m.zeroGradParameters()
    gi = snapshot(m.backward(for_python(x), for_python(go)))
    lm = rt.eval("torch.load")(path)
    assert tl.typename(lm) == m.torch_typename()
    assert_same(from_lua(lm.forward(for_lua(x))), out, "output")
    lm.zeroGradParameters()
    assert_same(from_lua(lm.backward(for_lua(x), for_lua(go))), gi, "gradInput")
    params = lm.parameters()
    assert_same(from_lua(params[1]) if params else [], python_grads(m), "gradParameters")


# ---------------------------------------------------------------------------------------
# the differences the comparison above found, each against its own referee


def test_divisive_normalization_1d_kernel_is_its_outer_product(rt):
    # torch7 scales a 1-D kernel by sum * sqrt(nInputPlane): applied along both axes it is
    # the 2-D kernel k k^T (scaled by sum * nInputPlane); Lua used nInputPlane for both
    x = torch.randn(2, 3, 5, 6, dtype=torch.float64)
    k = torch.tensor([1.0, 2.0, 1.0], dtype=torch.float64)
    make = rt.eval("function(k) return nn.SpatialDivisiveNormalization(3, k) end")
    one_d, two_d = make(k.clone()), make(torch.outer(k, k))
    assert_same(from_lua(two_d.forward(x)), from_lua(one_d.forward(x)), "Lua")
    assert_same(
        nn.SpatialDivisiveNormalization(3, torch.outer(k, k)).forward(x),
        nn.SpatialDivisiveNormalization(3, k.clone()).forward(x),
        "Python",
    )


def test_pairwise_distance_gradient_has_torch7s_epsilon():
    a, b = torch.randn(3, 4, dtype=torch.float64), torch.randn(3, 4, dtype=torch.float64)
    g = torch.randn(3, dtype=torch.float64)
    gi = nn.PairwiseDistance(2).backward([a, b], g)
    want = (a - b) / ((a - b).norm(dim=1, keepdim=True) + 1e-6) * g.unsqueeze(1)
    assert_same(want, gi[0], "gradInput")
    assert_same(-want, gi[1], "gradInput")


def test_softplus_threshold_is_tested_on_the_output():
    # beta x = 0.9 <= threshold 1 < beta y = 1.34: THNN passes the gradient through unchanged
    x = torch.tensor([0.45, -2.0], dtype=torch.float64)
    g = torch.tensor([0.7, 0.3], dtype=torch.float64)
    gi = nn.SoftPlus(2, 1).backward(x, g)
    assert_same(
        torch.tensor([0.7, 0.3 * torch.sigmoid(torch.tensor(-4.0, dtype=torch.float64)).item()], dtype=torch.float64),
        gi,
        "gradInput",
    )


def test_relu6_without_fields_clamps_to_0_6():
    m = nn.ReLU6.from_fields()
    x = torch.tensor([-1.0, 3.0, 7.0], dtype=torch.float64)
    assert m.forward(x).tolist() == [0.0, 3.0, 6.0]


def test_copy_types_come_from_its_buffers(rt, tmp_path):
    path = str(tmp_path / "copy.t7")
    rt.eval("function(p) torch.save(p, nn.Copy('torch.DoubleTensor', 'torch.FloatTensor')) end")(path)
    m = load_lua(path)
    assert (m.intype, m.outtype) == ("torch.DoubleTensor", "torch.FloatTensor")
    assert m.forward(torch.ones(2, dtype=torch.float64)).dtype == torch.float32


def test_saved_python_modules_have_torch7s_fields(rt, tmp_path):
    path = str(tmp_path / "m.t7")
    save_lua(nn.Sequential().add(nn.View(2, 3)).add(nn.BatchNormalization(3)).add(nn.ConcatTable()), path)
    fields = rt.eval("""function(p)
        local m = torch.load(p)
        return torch.typename(m.modules[1].size), m.modules[2].train, type(m.modules[3].output)
    end""")(path)
    assert fields == ("torch.LongStorage", True, "table")


@pytest.mark.parametrize(
    "pooling",
    [
        "nn.VolumetricMaxPooling(2, 2, 2)",
        "nn.VolumetricMaxPooling(2, 3, 2, 1, 1, 2)",
        "nn.VolumetricDilatedMaxPooling(2, 2, 2, 2, 1, 2, 1, 0, 1, 2, 2, 1)",
    ],
)
def test_volumetric_pooling_indices_saved_by_lua(rt, tmp_path, pooling):
    # both packages keep THNN's flat positions (1-based in Lua and in the file): the indices
    # Lua saved after its forward serve Python's backward and unpooling without a forward
    path = str(tmp_path / "pool.t7")
    x = torch.randn(2, 2, 5, 6, 5, dtype=torch.float64)
    lm = rt.eval(pooling)
    y = from_lua(lm.forward(x.clone()))
    lidx = from_lua(lm.indices)
    rt.eval("torch.save")(path, lm)
    g = torch.randn(y.shape, dtype=torch.float64)
    gi = from_lua(lm.backward(x.clone(), g.clone()))
    m = load_lua(path)
    assert_same(lidx - 1, m.indices, "indices")
    assert_same(gi, m.updateGradInput(x.clone(), g.clone()), "gradInput")
    # the referee: each gradOutput value goes to where the window's maximum is
    flat = m.indices.reshape(2, 2, -1)
    assert_same(torch.gather(x.reshape(2, 2, -1), 2, flat).reshape(y.shape), y, "x at the indices")


@pytest.mark.parametrize("direction", ["lua to python", "python to lua"])
def test_volumetric_unpooling_from_either_sides_indices(rt, tmp_path, direction):
    path = str(tmp_path / "unpool.t7")
    x = torch.randn(2, 2, 4, 6, 4, dtype=torch.float64)
    y = torch.randn(2, 2, 2, 3, 2, dtype=torch.float64)
    if direction == "lua to python":
        saved = rt.eval("nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 2, 2))")
        saved.pooling.forward(x.clone())
        rt.eval("torch.save")(path, saved)
        out = from_lua(saved.forward(y.clone()))
        got = load_lua(path).forward(y.clone())
    else:
        saved = nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 2, 2)).double()
        saved.pooling.forward(x.clone())
        save_lua(saved, path)
        out = saved.forward(y.clone())
        got = from_lua(rt.eval("torch.load")(path).forward(y.clone()))
    assert_same(out, got, "output")
    # the referee: y placed at the maximum of each 2x2x2 block of x, zeros elsewhere
    blocks = x.reshape(2, 2, 2, 2, 3, 2, 2, 2).permute(0, 1, 2, 4, 6, 3, 5, 7).reshape(2, 2, 2, 3, 2, 8)
    at_max = blocks == blocks.max(-1, keepdim=True).values
    want = (at_max * y.unsqueeze(-1)).reshape(2, 2, 2, 3, 2, 2, 2, 2).permute(0, 1, 2, 5, 3, 6, 4, 7)
    assert_same(want.reshape(x.shape), got, "output")
