"""Every torch7 nn class the converter knows, one test each: an instance built at random by this
project's Lua nn (torch.lua.Runtime), run forward (and backward) in Lua, saved as .t7, read
with load_lua, converted, and compared: the forward, and for what has a gradient the gradient
of sum(output * g) with respect to the input and to every parameter (in torch7's parameters()
order). The emitted Python (emit_python) is reloaded and run on the same input too.

CASES is the tested table that `python -m torch.utils.convert_t7 --list` prints from: its
keys must be exactly the converter's classes (less those tested in test_convert_t7.py), and
every class of lua/nn must be either convertible or listed as not convertible with a reason."""

import os
import re
import subprocess
import sys
import tempfile

import pytest

import torch
import torch.lua as tl
from torch.utils.convert_t7 import ConversionError, convert, emit_python, to_t7
from torch.utils.convert_t7.converter import NOT_CONVERTIBLE, NOT_YET, convertible_classes
from torch.utils.serialization import load_lua

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# converted and tested by test_convert_t7.py from hand-built objects: nngraph and cunn are not
# part of this project's Lua packages, so Lua cannot build them here
TESTED_ELSEWHERE = {"gModule", "DataParallelTable", "GPU"}


def minus_one(v):
    """torch7's 1-based indices as the converted module takes them (Note [Indices shifted once])."""
    return (v - 1).long()


def C(
    ctor,
    x,
    t=None,
    grad=True,
    shift_x=None,
    shift_t=None,
    train=False,
    tol=1e-9,
    g=None,
    n_grad_inputs=None,
    shift_y=None,
):
    """A case: the Lua constructor, input and target (Lua expressions), whether to compare
    gradients, how the converted module's input and target differ from torch7's, the
    tolerance (relative to the largest value), the gradient of the output (a Lua expression;
    random by default) and how many input gradients torch7 gives (all by default)."""
    return dict(
        shift_y=shift_y,
        ctor=ctor,
        x=x,
        t=t,
        grad=grad,
        shift_x=shift_x,
        shift_t=shift_t,
        train=train,
        tol=tol,
        g=g,
        n_grad_inputs=n_grad_inputs,
    )


def _shift_second(xs):
    return [xs[0], minus_one(xs[1])]


_IMG = "torch.randn(2, 3, 7, 6)"
_VOL = "torch.randn(2, 2, 5, 6, 5)"
_VEC = "torch.randn(4, 6)"
_POS = "torch.rand(4, 6):add(0.1)"
_PAIR = "{torch.randn(4, 5), torch.randn(4, 5)}"
_SIGNS = "torch.Tensor(4):random(0, 1):mul(2):add(-1)"

CASES = {
    # containers
    "Sequential": C("nn.Sequential():add(nn.Linear(6, 4)):add(nn.Tanh()):add(nn.Linear(4, 3))", _VEC),
    "ConcatTable": C("nn.ConcatTable():add(nn.Linear(6, 2)):add(nn.Identity())", _VEC),
    "ParallelTable": C("nn.ParallelTable():add(nn.Linear(5, 2)):add(nn.Tanh())", _PAIR),
    "Concat": C("nn.Concat(2):add(nn.Linear(6, 2)):add(nn.Linear(6, 3))", _VEC),
    "DepthConcat": C(
        "nn.DepthConcat(2):add(nn.SpatialConvolution(3, 2, 3, 3)):add(nn.SpatialConvolution(3, 4, 1, 1))", _IMG
    ),
    "Parallel": C("nn.Parallel(1, 2):add(nn.Linear(6, 2)):add(nn.Linear(6, 3))", "torch.randn(2, 4, 6)"),
    "Maxout": C("nn.Maxout(6, 3, 2)", _VEC),
    "SpatialLPPooling": C("nn.SpatialLPPooling(3, 2, 2, 2)", "torch.rand(2, 3, 6, 6):add(0.1)"),
    "MapTable": C("nn.MapTable(nn.Linear(5, 3))", _PAIR),
    "Bottle": C("nn.Bottle(nn.Linear(6, 3))", "torch.randn(2, 4, 6)"),
    "Decorator": C("nn.Decorator(nn.Linear(6, 3))", _VEC),
    "DontCast": C("nn.DontCast(nn.Linear(6, 3))", _VEC),
    "NaN": C("nn.NaN(nn.Linear(6, 3))", _VEC),
    "Profile": C("nn.Profile(nn.Linear(6, 3), 1000000)", _VEC),
    # layers with weights
    "Linear": C("nn.Linear(6, 3)", _VEC),
    "LookupTable": C("nn.LookupTable(7, 3)", "torch.LongTensor(2, 5):random(1, 7)", shift_x=minus_one),
    "CAdd": C("nn.CAdd(1, 6)", _VEC),
    "CMul": C("nn.CMul(6)", _VEC),
    "Add": C("nn.Add(6)", _VEC),
    "Mul": C("nn.Mul()", _VEC),
    "Bilinear": C("nn.Bilinear(5, 5, 3)", _PAIR),
    "PReLU": C("nn.PReLU(3)", _IMG),
    "SpatialConvolution": C("nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 1, 0)", _IMG),
    "SpatialConvolutionMM": C("nn.SpatialConvolutionMM(3, 4, 3, 3, 1, 1, 1, 1)", _IMG),
    "SpatialDilatedConvolution": C("nn.SpatialDilatedConvolution(3, 2, 3, 3, 1, 1, 1, 1, 2, 2)", _IMG),
    "SpatialFullConvolution": C("nn.SpatialFullConvolution(3, 2, 3, 3, 2, 2, 1, 1, 1, 1)", _IMG),
    "SpatialDepthWiseConvolution": C("nn.SpatialDepthWiseConvolution(3, 2, 3, 3, 1, 1, 1, 1)", _IMG),
    "SpatialConvolutionLocal": C("nn.SpatialConvolutionLocal(3, 2, 6, 7, 3, 3)", _IMG),
    "SpatialConvolutionMap": C("nn.SpatialConvolutionMap(nn.tables.random(3, 4, 2), 3, 3)", _IMG),
    "SpatialFullConvolutionMap": C("nn.SpatialFullConvolutionMap(nn.tables.random(3, 4, 2), 3, 2, 2, 1)", _IMG),
    "TemporalRowConvolution": C("nn.TemporalRowConvolution(6, 3, 2)", "torch.randn(2, 9, 6)"),
    "TemporalDynamicKMaxPooling": C("nn.TemporalDynamicKMaxPooling(3, 0.5)", "torch.randn(2, 9, 6)"),
    "WeightNorm": C("nn.WeightNorm(nn.SpatialConvolution(3, 4, 3, 2), 2)", _IMG),
    "PartialLinear": C("nn.PartialLinear(6, 5):setPartition(torch.LongTensor{4, 1, 5})", _VEC),
    # its gradients are kept per entry, not as a gradient of the weight: the forward only
    "IndexLinear": C(
        "nn.IndexLinear(8, 3, false, 1)",
        "{{torch.LongTensor{1, 5}, torch.LongTensor{7, 2, 3}}, {torch.Tensor{0.5, -1}, torch.Tensor{2, 1, 0.25}}}",
        grad=False,
        shift_x=lambda xs: [[k - 1 for k in xs[0]], xs[1]],
    ),
    "LinearWeightNorm": C("nn.LinearWeightNorm(6, 3)", _VEC),
    # k-means updates are not gradients: the forward (nearest centres) only
    "Kmeans": C("nn.Kmeans(3, 6)", _VEC, grad=False, shift_y=minus_one),
    # no gradient with respect to the sparse input (doGradInput false): the parameters' only
    "SparseLinear": C(
        "nn.SparseLinear(8, 3)",
        "{torch.Tensor{{2, 0.5}, {7, -1}}, torch.Tensor{{1, 2}, {8, 0.25}, {3, 1}}}",
        shift_x=lambda xs: [torch.stack([r[:, 0] - 1, r[:, 1]], 1) for r in xs],
        n_grad_inputs=0,
    ),
    "SpatialSubSampling": C("nn.SpatialSubSampling(3, 2, 2, 2, 2)", _IMG),
    "VolumetricConvolution": C("nn.VolumetricConvolution(2, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1)", _VOL),
    "VolumetricDilatedConvolution": C(
        "nn.VolumetricDilatedConvolution(2, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 2, 2, 2)", _VOL
    ),
    "VolumetricFullConvolution": C("nn.VolumetricFullConvolution(2, 3, 2, 2, 2, 2, 2, 2)", _VOL),
    "TemporalConvolution": C("nn.TemporalConvolution(6, 4, 3, 2)", "torch.randn(2, 9, 6)"),
    "TemporalSubSampling": C("nn.TemporalSubSampling(6, 3, 2)", "torch.randn(9, 6)"),
    "TemporalMaxPooling": C("nn.TemporalMaxPooling(3, 2)", "torch.randn(2, 9, 6)"),
    "Cosine": C("nn.Cosine(6, 3)", _VEC),
    "Euclidean": C("nn.Euclidean(6, 3)", _VEC),
    "WeightedEuclidean": C("nn.WeightedEuclidean(6, 3)", _VEC),
    "BatchNormalization": C("nn.BatchNormalization(6)", _VEC),
    "SpatialBatchNormalization": C("nn.SpatialBatchNormalization(3)", _IMG),
    "VolumetricBatchNormalization": C("nn.VolumetricBatchNormalization(2)", _VOL),
    # pooling, padding, resizing
    "SpatialMaxPooling": C("nn.SpatialMaxPooling(3, 2, 2, 2, 1, 1):ceil()", _IMG),
    "SpatialDilatedMaxPooling": C("nn.SpatialDilatedMaxPooling(2, 2, 1, 1, 0, 0, 2, 2)", _IMG),
    "SpatialAveragePooling": C("nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1)", _IMG),
    "VolumetricMaxPooling": C("nn.VolumetricMaxPooling(2, 2, 2)", _VOL),
    "VolumetricDilatedMaxPooling": C("nn.VolumetricDilatedMaxPooling(2, 2, 2, 1, 1, 1, 0, 0, 0, 2, 2, 2)", _VOL),
    "VolumetricAveragePooling": C("nn.VolumetricAveragePooling(2, 2, 2)", _VOL),
    # its windows as torch7 fixed them (fixPoolingRegions: the samples of the first forward)
    "SpatialFractionalMaxPooling": C("nn.SpatialFractionalMaxPooling(2, 3, 4, 3):fixPoolingRegions()", _IMG),
    "VolumetricFractionalMaxPooling": C(
        "nn.VolumetricFractionalMaxPooling(2, 2, 2, 3, 3, 2):fixPoolingRegions()", _VOL
    ),
    "SpatialAdaptiveMaxPooling": C("nn.SpatialAdaptiveMaxPooling(3, 2)", _IMG),
    "SpatialAdaptiveAveragePooling": C("nn.SpatialAdaptiveAveragePooling(3, 2)", _IMG),
    "SpatialCrossMapLRN": C("nn.SpatialCrossMapLRN(3, 0.01, 0.75, 2)", _IMG),
    "SpatialUpSamplingNearest": C("nn.SpatialUpSamplingNearest(2)", _IMG),
    "SpatialUpSamplingBilinear": C("nn.SpatialUpSamplingBilinear(2)", _IMG),
    "UpSampling": C("nn.UpSampling(2)", _IMG),
    "FeatureLPPooling": C("nn.FeatureLPPooling(3, 2, 2, true)", "torch.rand(2, 9, 4):add(0.1)"),
    # 1-based class indices in torch7, 0-based in the converted module; indices have no gradient
    "OneHot": C("nn.OneHot(5)", "torch.LongTensor(3, 4):random(1, 5)", grad=False, shift_x=minus_one),
    # in evaluation, x + mean (torch7 defines no gradient there)
    "WhiteNoise": C("nn.WhiteNoise(0.5, 0.2)", _VEC, grad=False),
    "SpatialZeroPadding": C("nn.SpatialZeroPadding(1, 2, 0, 1)", _IMG),
    "SpatialReflectionPadding": C("nn.SpatialReflectionPadding(1, 2, 0, 1)", _IMG),
    "SpatialReplicationPadding": C("nn.SpatialReplicationPadding(1, 2, 0, 1)", _IMG),
    "VolumetricReplicationPadding": C("nn.VolumetricReplicationPadding(1, 0, 2, 1, 0, 1)", _VOL),
    # the unpooling reads the indices of a pooling module of the same model
    "SpatialMaxUnpooling": C(
        "(function() local p = nn.SpatialMaxPooling(2, 2) "
        "return nn.Sequential():add(p):add(nn.Tanh()):add(nn.SpatialMaxUnpooling(p)) end)()",
        "torch.randn(2, 3, 8, 6)",
    ),
    "VolumetricMaxUnpooling": C(
        "(function() local p = nn.VolumetricMaxPooling(2, 2, 2) "
        "return nn.Sequential():add(p):add(nn.Tanh()):add(nn.VolumetricMaxUnpooling(p)) end)()",
        "torch.randn(2, 2, 4, 6, 4)",
    ),
    "PixelShuffle": C("nn.PixelShuffle(2)", "torch.randn(2, 8, 3, 4)"),
    # activations
    "ReLU": C("nn.ReLU()", _VEC),
    "Threshold": C("nn.Threshold(0.2, -1)", _VEC),
    "ReLU6": C("nn.ReLU6()", "torch.randn(4, 6):mul(5)"),
    "Tanh": C("nn.Tanh()", _VEC),
    "Sigmoid": C("nn.Sigmoid()", _VEC),
    "HardTanh": C("nn.HardTanh(-0.5, 0.7)", _VEC),
    "Clamp": C("nn.Clamp(-0.5, 0.7)", _VEC),
    "LeakyReLU": C("nn.LeakyReLU(0.2)", _VEC),
    "RReLU": C("nn.RReLU(0.1, 0.3)", _VEC),
    "ELU": C("nn.ELU(0.7)", _VEC),
    "CReLU": C("nn.CReLU(1)", _VEC),
    "SoftPlus": C("nn.SoftPlus(2)", _VEC),
    "SoftSign": C("nn.SoftSign()", _VEC),
    "LogSigmoid": C("nn.LogSigmoid()", _VEC),
    "SoftShrink": C("nn.SoftShrink(0.3)", _VEC),
    "HardShrink": C("nn.HardShrink(0.3)", _VEC),
    "TanhShrink": C("nn.TanhShrink()", _VEC),
    "GatedLinearUnit": C("nn.GatedLinearUnit()", _VEC),
    "SoftMax": C("nn.SoftMax()", _VEC),
    "LogSoftMax": C("nn.LogSoftMax()", _VEC),
    "SoftMin": C("nn.SoftMin()", _VEC),
    "SpatialSoftMax": C("nn.SpatialSoftMax()", _IMG),
    "SpatialLogSoftMax": C("nn.SpatialLogSoftMax()", _IMG),
    "Abs": C("nn.Abs()", _VEC),
    "Exp": C("nn.Exp()", _VEC),
    "Log": C("nn.Log()", _POS),
    "Sqrt": C("nn.Sqrt()", _POS),
    "Square": C("nn.Square()", _VEC),
    "Power": C("nn.Power(3)", _VEC),
    "MulConstant": C("nn.MulConstant(2.5)", _VEC),
    "AddConstant": C("nn.AddConstant(-1.5)", _VEC),
    "SpatialSubtractiveNormalization": C("nn.SpatialSubtractiveNormalization(3, torch.rand(5, 3):add(0.1))", _IMG),
    "SpatialDivisiveNormalization": C("nn.SpatialDivisiveNormalization(3, torch.rand(5):add(0.1), 0.3, 0.2)", _IMG),
    "SpatialContrastiveNormalization": C("nn.SpatialContrastiveNormalization(3, torch.rand(3, 3):add(0.1))", _IMG),
    "Normalize": C("nn.Normalize(3)", _VEC),
    # regularisation and identities
    "Dropout": C("nn.Dropout(0.3)", _VEC),
    "SpatialDropout": C("nn.SpatialDropout(0.3)", _IMG, grad=False),  # torch7: no backward at evaluation
    "VolumetricDropout": C("nn.VolumetricDropout(0.3)", _VOL, grad=False),  # torch7: no backward at evaluation
    "Identity": C("nn.Identity()", _VEC),
    "Copy": C("nn.Copy('torch.DoubleTensor', 'torch.DoubleTensor')", _VEC),
    "Contiguous": C("nn.Contiguous()", _VEC),
    "GradientReversal": C("nn.GradientReversal(0.5)", _VEC),
    "ZeroGrad": C("nn.ZeroGrad()", _VEC),
    "L1Penalty": C("nn.L1Penalty(0.1)", _VEC),
    # shapes
    "View": C("nn.View(-1):setNumInputDims(2)", "torch.randn(2, 3, 4)"),
    "Reshape": C("nn.Reshape(3, 2, true)", _VEC),
    "Convert": C("nn.Convert('bchw', 'bhwc')", _IMG),
    "Collapse": C("nn.Collapse(2)", "torch.randn(2, 3, 4)"),
    "Padding": C("nn.Padding(1, -2, 1, 0.5)", _VEC),
    "Narrow": C("nn.Narrow(2, 2, 3)", _VEC),
    "Select": C("nn.Select(2, 3)", _VEC),
    "Sum": C("nn.Sum(2)", _VEC),
    "Mean": C("nn.Mean(1)", _VEC),
    "Max": C("nn.Max(2)", _VEC),
    "Min": C("nn.Min(2)", _VEC),
    "Transpose": C("nn.Transpose({1, 2}, {2, 3})", "torch.randn(2, 3, 4)"),
    "Replicate": C("nn.Replicate(3, 2)", _VEC),
    "Unsqueeze": C("nn.Unsqueeze(2)", _VEC),
    "Squeeze": C("nn.Squeeze()", "torch.randn(4, 1, 6)"),
    "Constant": C("nn.Constant(torch.randn(3), 1)", _VEC),
    # tables
    "CAddTable": C("nn.CAddTable()", _PAIR),
    "CSubTable": C("nn.CSubTable()", _PAIR),
    "CMulTable": C("nn.CMulTable()", _PAIR),
    "CDivTable": C("nn.CDivTable()", "{torch.randn(4, 5), torch.rand(4, 5):add(0.5)}"),
    "CMaxTable": C("nn.CMaxTable()", _PAIR),
    "CMinTable": C("nn.CMinTable()", _PAIR),
    "JoinTable": C("nn.JoinTable(1, 1)", _PAIR),
    "SplitTable": C("nn.SplitTable(1, 1)", _VEC),
    "SelectTable": C("nn.SelectTable(-1)", _PAIR),
    "NarrowTable": C("nn.NarrowTable(2, 2)", "{torch.randn(3), torch.randn(4), torch.randn(2)}"),
    "FlattenTable": C("nn.FlattenTable()", "{torch.randn(3), {torch.randn(4), {torch.randn(2)}}}"),
    "ZipTable": C("nn.ZipTable()", "{{torch.randn(3), torch.randn(2)}, {torch.randn(3), torch.randn(2)}}"),
    "ZipTableOneToMany": C("nn.ZipTableOneToMany()", "{torch.randn(3), {torch.randn(2), torch.randn(4)}}"),
    "CAddTensorTable": C("nn.CAddTensorTable()", "{torch.randn(3), {torch.randn(3), torch.randn(3)}}"),
    # torch7's backward divides by the norm plus 1e-6 (its forward has no epsilon)
    "PairwiseDistance": C("nn.PairwiseDistance(3)", _PAIR, tol=1e-5),
    "CosineDistance": C("nn.CosineDistance()", _PAIR),
    "DotProduct": C("nn.DotProduct()", _PAIR),
    "MM": C("nn.MM(false, true)", "{torch.randn(2, 3, 4), torch.randn(2, 5, 4)}"),
    "MV": C("nn.MV(true)", "{torch.randn(2, 4, 3), torch.randn(2, 4)}"),
    "Index": C("nn.Index(1)", "{torch.randn(5, 3), torch.LongTensor{2, 5, 2, 1}}", shift_x=_shift_second),
    "MaskedSelect": C("nn.MaskedSelect()", "{torch.randn(3, 4), torch.ByteTensor(3, 4):random(0, 1)}"),
    "MixtureTable": C(
        "nn.MixtureTable()", "{torch.rand(4, 3), {torch.randn(4, 5), torch.randn(4, 5), torch.randn(4, 5)}}"
    ),
    # criterions: forward(input, target)
    "MSECriterion": C("nn.MSECriterion()", _VEC, "torch.randn(4, 6)"),
    "AbsCriterion": C("nn.AbsCriterion(false)", _VEC, "torch.randn(4, 6)"),
    "SmoothL1Criterion": C("nn.SmoothL1Criterion()", "torch.randn(4, 6):mul(2)", "torch.randn(4, 6)"),
    "SoftMarginCriterion": C("nn.SoftMarginCriterion()", _VEC, "torch.Tensor(4, 6):random(0, 1):mul(2):add(-1)"),
    "DistKLDivCriterion": C("nn.DistKLDivCriterion()", _VEC, "torch.rand(4, 6)"),
    "BCECriterion": C(
        "nn.BCECriterion(torch.rand(6))", "torch.rand(4, 6):mul(0.8):add(0.1)", "torch.Tensor(4, 6):random(0, 1)"
    ),
    "ClassNLLCriterion": C(
        "nn.ClassNLLCriterion(torch.rand(6), true, 3)", _VEC, "torch.LongTensor{1, 3, 6, 2}", shift_t=minus_one
    ),
    "SpatialClassNLLCriterion": C(
        "nn.SpatialClassNLLCriterion()", _IMG, "torch.LongTensor(2, 7, 6):random(1, 3)", shift_t=minus_one
    ),
    "CrossEntropyCriterion": C(
        "nn.CrossEntropyCriterion(torch.rand(6))", _VEC, "torch.LongTensor{1, 3, 6, 2}", shift_t=minus_one
    ),
    "MultiMarginCriterion": C(
        "nn.MultiMarginCriterion(2, torch.rand(6), 0.5)", _VEC, "torch.LongTensor{1, 3, 6, 2}", shift_t=minus_one
    ),
    "MultiLabelMarginCriterion": C(
        "nn.MultiLabelMarginCriterion()",
        _VEC,
        "torch.LongTensor{{2, 5, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {6, 1, 3, 0, 0, 0}, {4, 4, 0, 0, 0, 0}}",
        shift_t=minus_one,
    ),
    "MultiLabelSoftMarginCriterion": C("nn.MultiLabelSoftMarginCriterion()", _VEC, "torch.Tensor(4, 6):random(0, 1)"),
    "HingeEmbeddingCriterion": C(
        "nn.HingeEmbeddingCriterion(0.5)", _VEC, "torch.Tensor(4, 6):random(0, 1):mul(2):add(-1)"
    ),
    "CosineEmbeddingCriterion": C("nn.CosineEmbeddingCriterion(0.2)", _PAIR, _SIGNS),
    "MarginRankingCriterion": C("nn.MarginRankingCriterion(0.3)", "{torch.randn(4), torch.randn(4)}", _SIGNS),
    "MarginCriterion": C("nn.MarginCriterion(0.5)", _VEC, "torch.Tensor(4, 6):random(0, 1):mul(2):add(-1)"),
    "L1HingeEmbeddingCriterion": C("nn.L1HingeEmbeddingCriterion(20)", "{torch.randn(5), torch.randn(5)}", "-1"),
    "WeightedMSECriterion": C("nn.WeightedMSECriterion(torch.rand(6))", _VEC, "torch.randn(4, 6)"),
    "SpatialAutoCropMSECriterion": C("nn.SpatialAutoCropMSECriterion()", "torch.randn(2, 3, 4, 4)", _IMG),
    "L1Cost": C("nn.L1Cost()", _VEC, "torch.randn(4, 6)"),
    "DistanceRatioCriterion": C("nn.DistanceRatioCriterion()", "{torch.rand(4), torch.rand(4)}", "1"),
    "ClassSimplexCriterion": C("nn.ClassSimplexCriterion(6)", _VEC, "torch.LongTensor{1, 3, 6, 2}", shift_t=minus_one),
    "ParallelCriterion": C(
        "nn.ParallelCriterion():add(nn.MSECriterion(), 0.5):add(nn.AbsCriterion())",
        _PAIR,
        "{torch.randn(4, 5), torch.randn(4, 5)}",
    ),
    "MultiCriterion": C(
        "nn.MultiCriterion():add(nn.MSECriterion(), 0.5):add(nn.AbsCriterion())", _VEC, "torch.randn(4, 6)"
    ),
    # a loss as a module: its gradient is the criterion's, for the input only (not the target)
    "CriterionTable": C("nn.CriterionTable(nn.MSECriterion())", _PAIR, g="1", n_grad_inputs=1),
    "ModuleCriterion": C("nn.ModuleCriterion(nn.MSECriterion(), nn.Tanh(), nn.Sigmoid())", _VEC, "torch.randn(4, 6)"),
}

LUA_HELPERS = """
function case_clone(v)
   if torch.isTensor(v) then return v:clone() end
   if type(v) == 'table' then local t = {} for k, e in pairs(v) do t[k] = case_clone(e) end return t end
   return v
end
function case_randlike(v)
   if torch.isTensor(v) then return torch.randn(v:size()) end
   if type(v) == 'number' then return torch.randn(1)[1] end
   local t = {} for k, e in pairs(v) do t[k] = case_randlike(e) end return t
end
"""


@pytest.fixture(scope="module")
def lua():
    rt = tl.Runtime()
    rt.require("nn")
    rt.execute(LUA_HELPERS)
    return rt


def _py(v):
    """A Lua value as Python values (tables as lists, tensors cloned)."""
    if torch.is_tensor(v):
        return v.clone()
    if isinstance(v, tl.LuaObject):
        v = tl.to_python(v)
    if isinstance(v, dict):
        return [_py(v[k]) for k in sorted(v)]
    if isinstance(v, (list, tuple)):
        return [_py(e) for e in v]
    return v


def _flat(v):
    if torch.is_tensor(v):
        return [v]
    if isinstance(v, (int, float)):
        return [torch.tensor(float(v), dtype=torch.float64)]
    return [t for e in v for t in _flat(e)]


def _leaves(v):
    """v with its float tensors made leaves that require grad, and those leaves in order."""
    if torch.is_tensor(v):
        if v.is_floating_point():
            v = v.detach().clone().requires_grad_(True)
            return v, [v]
        return v, []
    out, leaves = [], []
    for e in v:
        e, ls = _leaves(e)
        out.append(e)
        leaves += ls
    return out, leaves


def _assert_close(got, want, tol, what):
    got, want = _flat(got), _flat(want)
    assert len(got) == len(want), "%s: %d tensors, torch7 %d" % (what, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        g = g.detach().double().reshape(-1)
        w = w.detach().double().reshape(-1)
        assert g.numel() == w.numel(), "%s[%d]: %d elements, torch7 %d" % (what, i, g.numel(), w.numel())
        if g.numel():
            scale = max(1.0, w.abs().max().item())
            diff = (g - w).abs().max().item()
            assert diff <= tol * scale, "%s[%d]: differs from torch7 by %g" % (what, i, diff)


def _run_case(lua, name, case, path):
    criterion = case["t"] is not None
    lua.execute(
        """
        torch.manualSeed(%d)
        case_m = %s
        case_x = %s
        case_t = %s
        if not case_m.__typename:gmatch('Criterion$')() and case_m.evaluate and not %s then case_m:evaluate() end
        """
        % (sum(map(ord, name)), case["ctor"], case["x"], case["t"] or "nil", "true" if case["train"] else "false")
    )
    if criterion:
        lua.execute("case_y = case_m:forward(case_x, case_t)")
    else:
        lua.execute("case_y = case_clone(case_m:forward(case_x))")
    lua.execute("torch.save(%r, case_m)" % path)
    return criterion


@pytest.mark.parametrize("name", sorted(CASES))
def test_class_converts(lua, name):
    case = CASES[name]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.t7")
        criterion = _run_case(lua, name, case, path)
        model = convert(load_lua(path))
    model.eval()
    x = _py(lua["case_x"])
    x = case["shift_x"](x) if case["shift_x"] else x
    t = None
    if criterion:
        t = _py(lua["case_t"])
        t = case["shift_t"](t) if case["shift_t"] else t
        if isinstance(t, (int, float)):
            t = torch.tensor(float(t), dtype=torch.float64)
    want = _py(lua["case_y"])
    want = case["shift_y"](want) if case["shift_y"] else want

    xs, leaves = _leaves(x)
    got = model(xs, t) if criterion else model(xs)
    _assert_close(got, want, case["tol"], "%s forward" % name)

    # the emitted source rebuilds the same model
    namespace = {}
    exec(compile(emit_python(model), "<emitted %s>" % name, "exec"), namespace)
    again = namespace["Model"]()
    again.load_state_dict(model.state_dict())
    again.eval()
    with torch.no_grad():
        _assert_close(again(x, t) if criterion else again(x), want, case["tol"], "%s emitted forward" % name)

    if not case["grad"]:
        return
    params = list(model.parameters())
    if criterion:
        lua.execute("case_gi = case_clone(case_m:backward(case_x, case_t))")
        loss = got
    else:
        lua.execute("case_g = %s; case_m:zeroGradParameters()" % (case["g"] or "case_randlike(case_y)"))
        lua.execute("case_gi = case_clone(case_m:backward(case_x, case_g))")
        g = _py(lua["case_g"])
        loss = sum((a * b).sum() for a, b in zip(_flat(got), _flat(g)))
    lua.execute("case_p, case_gp = nil, nil; if case_m.parameters then case_p, case_gp = case_m:parameters() end")
    want_params = _py(lua["case_p"]) if lua["case_p"] is not None else []
    want_grads = _py(lua["case_gp"]) if lua["case_gp"] is not None else []
    wanted_inputs = [t for t, leaf in zip(_flat(_py(lua["case_gi"])), _flat(x)) if leaf.is_floating_point()]
    if case["n_grad_inputs"] is not None:
        leaves = leaves[: case["n_grad_inputs"]]
        wanted_inputs = wanted_inputs[: case["n_grad_inputs"]]
    inputs = leaves + params
    if inputs and loss.requires_grad:
        grads = torch.autograd.grad(loss, inputs, allow_unused=True)
    else:  # nothing the loss depends on requires grad (nn.ZeroGrad): every gradient is zero
        grads = [None] * len(inputs)
    grads = [torch.zeros_like(i) if g is None else g for g, i in zip(grads, inputs)]
    _assert_close(grads[: len(leaves)], wanted_inputs, case["tol"], "%s gradInput" % name)
    _assert_close(params, want_params, case["tol"], "%s parameters" % name)
    _assert_close(grads[len(leaves) :], want_grads, case["tol"], "%s parameter gradients" % name)


def test_cases_are_the_converters_classes():
    assert set(CASES) | TESTED_ELSEWHERE == set(convertible_classes())


def test_every_lua_nn_class_is_accounted_for():
    """A class of lua/nn either converts (and has a case above) or is listed as not convertible."""
    lua_classes = set()
    for f in os.listdir(os.path.join(REPO, "lua", "nn")):
        with open(os.path.join(REPO, "lua", "nn", f)) as src:
            text = src.read()
        for line in text.splitlines():
            if "torch.class('nn." in line:
                lua_classes.add(line.split("torch.class('nn.")[1].split("'")[0])
    missing = sorted(lua_classes - set(convertible_classes()) - set(NOT_CONVERTIBLE) - set(NOT_YET))
    assert not missing, "lua/nn classes neither convertible nor listed as not convertible: %s" % missing
    both = sorted(set(convertible_classes()) & (set(NOT_CONVERTIBLE) | set(NOT_YET)))
    assert not both


def test_list_prints_the_tested_table():
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    out = subprocess.run(
        [sys.executable, "-m", "torch.utils.convert_t7", "--list"], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert "convertible torch7 classes (%d):" % len(set(CASES) | TESTED_ELSEWHERE) in out
    listed = set(out.split("not convertible")[0].split())
    assert set(CASES) <= listed
    for name, why in list(NOT_CONVERTIBLE.items()) + list(NOT_YET.items()):
        assert re.search(r"\n  %s +%s\n" % (name, re.escape(why)), out)


@pytest.mark.parametrize(
    "ctor, x",
    [
        ("nn.Convert('bchw', 'bf')", _IMG),
        ("nn.Convert('bchw', 'bfc')", _IMG),
        ("nn.Convert('bc', 'bcf')", _VEC),
        ("nn.Convert()", _VEC),
        ("nn.WeightNorm(nn.Linear(6, 3))", _VEC),
        ("nn.IndexLinear(8, 3)", "{torch.LongTensor{1, 5, 8}, torch.Tensor{0.5, -1, 2}}"),
        ("nn.IndexLinear(8, 3)", "{torch.LongTensor{1, 5, 8, 2}, torch.Tensor{0.5, -1, 2, 3}, torch.LongTensor{3, 1}}"),
        ("nn.SpatialFractionalMaxPooling(2, 2, 0.7, 0.6):fixPoolingRegions()", "torch.randn(3, 9, 8)"),
        ("nn.VolumetricFractionalMaxPooling(2, 3, 2, 0.7, 0.6, 0.5):fixPoolingRegions()", "torch.randn(2, 8, 9, 7)"),
        ("nn.LookupTable(7, 3, 2, 1.5)", "torch.LongTensor(2, 5):random(1, 7)"),
        ("nn.UpSampling({oheight = 9, owidth = 8}, 'bilinear')", _IMG),
        ("nn.UpSampling(2, 'linear')", _VOL),
        ("nn.UpSampling(2)", _VOL),
        ("nn.UpSampling({odepth = 7, oheight = 8, owidth = 6}, 'trilinear')", _VOL),
        ("nn.FeatureLPPooling(4, 1, 3)", "torch.rand(10, 3):add(0.1)"),
        (
            "nn.Sequential():add(nn.LookupTable(9, 4)):add(nn.TemporalConvolution(4, 3, 2)):add(nn.Max(2))",
            "torch.LongTensor(2, 6):random(1, 9)",
        ),
    ],
)
def test_more_forms_convert(lua, ctor, x):
    """Other forms of some classes (Convert's plans, LookupTable with padding and maxNorm, a
    text model): the forward as torch7 computes it."""
    shift = minus_one if "LookupTable" in ctor else None
    if "IndexLinear" in ctor:
        shift = lambda xs: [xs[0] - 1] + xs[1:]  # noqa: E731  the keys, 1-based in torch7
    case = C(ctor, x, grad=False, shift_x=shift)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.t7")
        _run_case(lua, ctor, case, path)
        model = convert(load_lua(path)).eval()
    x = _py(lua["case_x"])
    with torch.no_grad():
        got = model(shift(x) if shift else x)
    _assert_close(got, _py(lua["case_y"]), 1e-9, ctor)


def test_command_line_converts_a_text_model(lua, tmp_path):
    """The issue's case: a torch7 text model (LookupTable first) through the command line, checked
    against the legacy forward, with emitted source that reloads to the same outputs."""
    t7, pt, py = tmp_path / "text.t7", tmp_path / "text.pt", tmp_path / "text_model.py"
    lua.execute(
        "torch.manualSeed(3); torch.save(%r, nn.Sequential():add(nn.LookupTable(20, 6)):add(nn.TemporalConvolution(6, 5, 3))"
        ":add(nn.Max(2)):add(nn.Linear(5, 4)):add(nn.LogSoftMax()))" % str(t7)
    )
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    run = subprocess.run(
        [sys.executable, "-m", "torch.utils.convert_t7", str(t7), str(pt), "--emit-python", str(py)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert "against the legacy forward" in run.stdout
    source = py.read_text()
    assert "0-based ids" in source
    namespace = {}
    exec(compile(source, str(py), "exec"), namespace)
    model = namespace["load"](str(pt)).eval()
    ids = torch.tensor([[0, 19, 4, 4, 7], [1, 2, 3, 18, 0]])
    forward = lua.eval(
        "function(x) local m = torch.load(%r); m:evaluate(); return case_clone(m:forward(x)) end" % str(t7)
    )
    want = forward(ids + 1)
    with torch.no_grad():
        _assert_close(model(ids), want, 1e-9, "text model")


# converted, but written back by to_t7 as another torch7 class that takes other inputs
ROUND_TRIP_DIFFERS = {
    "SpatialClassNLLCriterion": "NLLLoss is written as ClassNLLCriterion, which takes 2-D input only",
    "VolumetricDropout": "the converted Dropout is written as SpatialDropout, which takes 3-D or 4-D input",
}


@pytest.mark.parametrize("name", sorted(set(CASES) - set(ROUND_TRIP_DIFFERS)))
def test_round_trip_back_to_lua(lua, name):
    """torch7 -> convert -> to_t7 -> torch7: the same forward in Lua, or a refusal that names
    the module to_t7 has no torch7 class for."""
    case = CASES[name]
    with tempfile.TemporaryDirectory() as d:
        path, back = os.path.join(d, "m.t7"), os.path.join(d, "back.t7")
        criterion = _run_case(lua, name, case, path)
        model = convert(load_lua(path)).eval()
        try:
            to_t7(model, back, dtype=torch.float64)
        except ConversionError as e:
            assert re.search(r"(no torch7 equivalent for|has no counterpart of torch\.nn\.)\s*\w+", str(e)), str(e)
            return
        lua.execute(
            "case_b = torch.load(%r); if case_b.evaluate and not %s then case_b:evaluate() end"
            % (back, "true" if criterion else "false")
        )
    if criterion:
        got = lua.eval("function() local loss = case_b:forward(case_x, case_t) return loss end")()
    else:
        got = lua.eval("function() return case_clone(case_b:forward(case_x)) end")()
    _assert_close(_py(got), _py(lua["case_y"]), 1e-9, "%s back in Lua" % name)


def test_round_trips_cover_most_classes(lua):
    """How many converted classes to_t7 writes back (each checked in Lua above): at least the
    111 of issue 23's work, so that a class dropped from to_t7 fails here."""
    written = []
    with tempfile.TemporaryDirectory() as d:
        for name, case in sorted(CASES.items()):
            path = os.path.join(d, "m.t7")
            _run_case(lua, name, case, path)
            try:
                to_t7(convert(load_lua(path)), dtype=torch.float64)
            except ConversionError:
                continue
            written.append(name)
    assert len(written) >= 111, sorted(set(CASES) - set(written))
