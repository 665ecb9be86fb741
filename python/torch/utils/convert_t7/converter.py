"""convert: torch7 modules, as load_lua gives them (torch.legacy.nn objects), to torch.nn
modules with the weights copied; what torch.nn lacks is built from runtime.py, layers.py and
losses.py. _SIMPLE and _CONTAINERS are the table of convertible classes (convertible_classes,
`--list`); NOT_CONVERTIBLE says which torch7 classes never convert, and why."""

import math

import torch
from torch import nn
from torch.utils.convert_t7.errors import ConversionError
from torch.utils.convert_t7.layers import (
    Add,
    Bilinear,
    Bottle,
    CAdd,
    CAddTensorTable,
    CMul,
    Collapse,
    Convert,
    Constant,
    Cosine,
    CosineDistance,
    CReLU,
    DotProduct,
    Euclidean,
    GradientReversal,
    Index,
    Kmeans,
    LinearWeightNorm,
    LocalNormalization,
    FractionalMaxPool,
    IndexLinear,
    MaxUnpool,
    PartialLinear,
    WeightNorm,
    SparseLinear,
    TemporalDynamicKMaxPooling,
    TemporalRowConvolution,
    L1Penalty,
    FeatureLPPooling,
    MapTable,
    MaskedSelect,
    MixtureTable,
    MM,
    Mul,
    MV,
    Normalize,
    PairwiseDistance,
    SpatialConvolutionLocal,
    SpatialConvolutionMap,
    SpatialDepthWiseConvolution,
    SpatialSubSampling,
    SplitTable,
    TemporalConvolution,
    TemporalMaxPooling,
    TemporalSubSampling,
    UpSampling,
    VolumetricFractionalMaxPool,
    UpSamplingBilinear,
    WeightedEuclidean,
    OneHot,
    WhiteNoise,
    ZeroGrad,
    ZipTable,
    ZipTableOneToMany,
)
from torch.utils.convert_t7.losses import (
    AutoCropMSELoss,
    ClassSimplexLoss,
    CriterionTable,
    DistanceRatioLoss,
    L1Cost,
    L1HingeEmbeddingLoss,
    MarginLoss,
    ModuleLoss,
    MultiLoss,
    ParallelLoss,
    TableLoss,
    WeightedMSELoss,
)
from torch.utils.convert_t7.runtime import (
    Affine,
    Concat,
    ConcatTable,
    DepthConcat,
    Dropout,
    FlattenTable,
    Graph,
    JoinTable,
    Narrow,
    NarrowTable,
    Padding,
    Parallel,
    ParallelTable,
    Pointwise,
    Reduce,
    Replicate,
    Reshape,
    Select,
    SelectTable,
    SoftMax,
    Squeeze,
    TableOp,
    Transpose,
    Unsqueeze,
    View,
)


def _typename(m):
    name = getattr(type(m), "torch_typename", None)
    if callable(name) and name() is not None:
        return name()
    return type(m).__name__


def _field(m, name, default=None):
    if isinstance(m, dict):
        return m.get(name, default)
    return getattr(m, name, default)


def _int(m, name, default=None):
    v = _field(m, name, default)
    if v is None:
        raise ConversionError("%s has no field %r" % (_typename(m), name))
    return int(v)


def _opt_int(m, name):
    v = _field(m, name)
    return None if v is None else int(v)


def _tensor(m, name):
    v = _field(m, name)
    return v if torch.is_tensor(v) and v.numel() > 0 else None


def _param(t, shape=None):
    t = t.detach().clone()
    return nn.Parameter(t.reshape(shape) if shape is not None else t)


def _modules_of(m):
    modules = _field(m, "modules") or []
    if isinstance(modules, dict):  # a table with holes: keys 1..n, some missing
        modules = [modules[k] for k in sorted(modules)]
    return list(modules)


def _conv(m, dims, path):
    """SpatialConvolution(MM), SpatialDilatedConvolution, VolumetricConvolution (and cudnn's groups)."""
    n_in, n_out = _int(m, "nInputPlane"), _int(m, "nOutputPlane")
    groups = _int(m, "groups", 1)
    names = "TWH" if dims == 3 else "WH"
    k = [_int(m, "k" + a) for a in names]
    d = [_int(m, "d" + a, 1) for a in names]
    legacy_pad = _field(m, "padding")  # nn before padW/padH: one padding for both
    p = [_int(m, "pad" + a, legacy_pad if legacy_pad is not None else 0) for a in names]
    dil = [_int(m, "dilation" + a, 1) for a in names]
    # torch7 lists W before H; torch.nn wants (H, W) / (T, H, W)
    rev = (lambda v: (v[0], v[2], v[1])) if dims == 3 else (lambda v: (v[1], v[0]))
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    if weight is None:
        raise ConversionError("%s: %s has no weight" % (path, _typename(m)))
    cls = nn.Conv3d if dims == 3 else nn.Conv2d
    out = cls(
        n_in, n_out, rev(k), stride=rev(d), padding=rev(p), dilation=rev(dil), groups=groups, bias=bias is not None
    )
    shape = (n_out, n_in // groups) + rev(k)
    if weight.numel() != math.prod(shape):
        raise ConversionError("%s: weight of %d elements for a %s of %s" % (path, weight.numel(), _typename(m), shape))
    out.weight = _param(weight, shape)  # SpatialConvolutionMM keeps it as (out, in*kH*kW)
    if bias is not None:
        out.bias = _param(bias)
    return out


def _full_conv(m, dims, path):
    n_in, n_out = _int(m, "nInputPlane"), _int(m, "nOutputPlane")
    names = "TWH" if dims == 3 else "WH"
    k = [_int(m, "k" + a) for a in names]
    d = [_int(m, "d" + a, 1) for a in names]
    p = [_int(m, "pad" + a, 0) for a in names]
    adj = [_int(m, "adj" + a, 0) for a in names]
    rev = (lambda v: (v[0], v[2], v[1])) if dims == 3 else (lambda v: (v[1], v[0]))
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    cls = nn.ConvTranspose3d if dims == 3 else nn.ConvTranspose2d
    out = cls(n_in, n_out, rev(k), stride=rev(d), padding=rev(p), output_padding=rev(adj), bias=bias is not None)
    out.weight = _param(weight, (n_in, n_out) + rev(k))
    if bias is not None:
        out.bias = _param(bias)
    return out


def _linear(m, path):
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    if weight is None or weight.dim() != 2:
        raise ConversionError("%s: nn.Linear needs a 2-D weight" % path)
    out = nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None)
    out.weight = _param(weight)
    if bias is not None:
        out.bias = _param(bias)
    return out


def _batch_norm(m, dims, path):
    mean, var = _tensor(m, "running_mean"), _tensor(m, "running_var")
    if mean is None or var is None:
        raise ConversionError("%s: %s without running statistics" % (path, _typename(m)))
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    affine = weight is not None
    cls = {1: nn.BatchNorm1d, 2: nn.BatchNorm2d, 3: nn.BatchNorm3d}[dims]
    out = cls(
        mean.numel(), eps=float(_field(m, "eps", 1e-5)), momentum=float(_field(m, "momentum", 0.1)), affine=affine
    )
    if affine:
        out.weight = _param(weight)
        out.bias = _param(bias) if bias is not None else _param(torch.zeros_like(weight))
    out.running_mean = mean.detach().clone().to(var.dtype)
    out.running_var = var.detach().clone()
    return out


def _pool(m, path, kind):
    k = (_int(m, "kH"), _int(m, "kW"))
    d = (_int(m, "dH", k[0]), _int(m, "dW", k[1]))
    p = (_int(m, "padH", 0), _int(m, "padW", 0))
    ceil = bool(_field(m, "ceil_mode", False))
    if kind == "max":
        return nn.MaxPool2d(k, d, p, ceil_mode=ceil)
    pool = nn.AvgPool2d(k, d, p, ceil_mode=ceil, count_include_pad=bool(_field(m, "count_include_pad", True)))
    if _field(m, "divide", True):
        return pool
    if not pool.count_include_pad:
        raise ConversionError("%s: SpatialAveragePooling with divide=false and count_include_pad=false" % path)
    return nn.Sequential(pool, Affine(scale=float(k[0] * k[1])))


def _pool3d(m, path, kind):
    k = (_int(m, "kT"), _int(m, "kH"), _int(m, "kW"))
    d = (_int(m, "dT", k[0]), _int(m, "dH", k[1]), _int(m, "dW", k[2]))
    p = (_int(m, "padT", 0), _int(m, "padH", 0), _int(m, "padW", 0))
    ceil = bool(_field(m, "ceil_mode", False))
    if kind == "max":
        return nn.MaxPool3d(k, d, p, ceil_mode=ceil)
    return nn.AvgPool3d(k, d, p, ceil_mode=ceil)


def _dim0(m, name, default=0):
    """A dimension or position field: 0-based (load_lua shifted torch7's 1-based ones, Note
    [1-based fields] in torch/legacy/nn/t7fields.py), or negative from the end."""
    return _int(m, name, default)


def _n_input_dims(m, name="nInputDims"):
    return _opt_int(m, name)


def _adaptive_size(m):
    # nn names them W and H; PyTorch 0.4's reader renamed them w and h
    return (
        _int(m, "H") if _field(m, "H") is not None else _int(m, "h"),
        _int(m, "W") if _field(m, "W") is not None else _int(m, "w"),
    )


def _prelu(m, path):
    weight = _tensor(m, "weight")
    out = nn.PReLU(weight.numel())
    out.weight = _param(weight.reshape(-1))
    return out


def _container(cls):
    def build(m, path, conv):
        return cls(*[conv(c, "%s.%d" % (path, i + 1)) for i, c in enumerate(_modules_of(m))])

    return build


def _graph(m, path, conv):
    """nngraph's gModule: its forward nodes in order, inputs found through each node's mapindex."""
    fnodes = list(_field(m, "forwardnodes") or [])
    if not fnodes:
        raise ConversionError("%s: nn.gModule without forwardnodes" % path)
    index = {id(_field(n, "data")): k for k, n in enumerate(fnodes)}
    modules, nodes = [], []
    innode, outnode = _field(m, "innode"), _field(m, "outnode")
    for k, node in enumerate(fnodes):
        data = _field(node, "data")
        mapindex = data.get("mapindex") or {}
        positions = sorted(key for key in mapindex if isinstance(key, float))
        sources = []
        for pos in positions:
            source = index.get(id(mapindex[pos]))
            if source is None:
                raise ConversionError("%s: node %d takes an input from outside the graph" % (path, k))
            sources.append(source)
        module = data.get("module")
        select = data.get("selectindex")
        mod_index = None
        if module is not None:
            modules.append(conv(module, "%s.node%d" % (path, k)))
            mod_index = len(modules) - 1
        nodes.append((mod_index, None if select is None else int(select) - 1, sources))
    try:
        input_node = index[id(_field(innode, "data"))]
        output_node = index[id(_field(outnode, "data"))]
    except (KeyError, TypeError):
        raise ConversionError("%s: gModule's innode or outnode is not among its forwardnodes" % path) from None
    n_inputs = _opt_int(m, "nInputs") or 1
    return Graph(modules, nodes, input_node, output_node, n_inputs)


def _wrapped(m, path, conv):
    """cunn's DataParallelTable and nn.GPU hold the model as their first module."""
    modules = _modules_of(m)
    if not modules:
        raise ConversionError("%s: %s holds no module" % (path, _typename(m)))
    return conv(modules[0], path + ".1")


# class name (without the package) -> builder(m, path) or builder(m, path, conv) for containers
_SIMPLE = {
    "Linear": _linear,
    "SpatialConvolution": lambda m, p: _conv(m, 2, p),
    "SpatialConvolutionMM": lambda m, p: _conv(m, 2, p),
    "SpatialDilatedConvolution": lambda m, p: _conv(m, 2, p),
    "VolumetricConvolution": lambda m, p: _conv(m, 3, p),
    "VolumetricDilatedConvolution": lambda m, p: _conv(m, 3, p),
    "SpatialFullConvolution": lambda m, p: _full_conv(m, 2, p),
    "VolumetricFullConvolution": lambda m, p: _full_conv(m, 3, p),
    "BatchNormalization": lambda m, p: _batch_norm(m, 1, p),
    "SpatialBatchNormalization": lambda m, p: _batch_norm(m, 2, p),
    "VolumetricBatchNormalization": lambda m, p: _batch_norm(m, 3, p),
    "SpatialMaxPooling": lambda m, p: _pool(m, p, "max"),
    "SpatialAveragePooling": lambda m, p: _pool(m, p, "avg"),
    "VolumetricMaxPooling": lambda m, p: _pool3d(m, p, "max"),
    "VolumetricAveragePooling": lambda m, p: _pool3d(m, p, "avg"),
    "SpatialAdaptiveMaxPooling": lambda m, p: nn.AdaptiveMaxPool2d(_adaptive_size(m)),
    "SpatialAdaptiveAveragePooling": lambda m, p: nn.AdaptiveAvgPool2d(_adaptive_size(m)),
    "SpatialCrossMapLRN": lambda m, p: nn.LocalResponseNorm(
        _int(m, "size", 5), float(_field(m, "alpha", 1e-4)), float(_field(m, "beta", 0.75)), float(_field(m, "k", 1.0))
    ),
    "SpatialUpSamplingNearest": lambda m, p: nn.Upsample(scale_factor=float(_field(m, "scale_factor")), mode="nearest"),
    "SpatialZeroPadding": lambda m, p: nn.ZeroPad2d(
        (_int(m, "pad_l"), _int(m, "pad_r"), _int(m, "pad_t"), _int(m, "pad_b"))
    ),
    "SpatialReflectionPadding": lambda m, p: nn.ReflectionPad2d(
        (_int(m, "pad_l"), _int(m, "pad_r"), _int(m, "pad_t"), _int(m, "pad_b"))
    ),
    "SpatialReplicationPadding": lambda m, p: nn.ReplicationPad2d(
        (_int(m, "pad_l"), _int(m, "pad_r"), _int(m, "pad_t"), _int(m, "pad_b"))
    ),
    # activations
    "ReLU": lambda m, p: (
        nn.ReLU()
        if float(_field(m, "threshold", 0)) == 0 and float(_field(m, "val", 0)) == 0
        else nn.Threshold(float(_field(m, "threshold")), float(_field(m, "val")))
    ),
    "Threshold": lambda m, p: nn.Threshold(float(_field(m, "threshold", 1e-6)), float(_field(m, "val", 0))),
    "ReLU6": lambda m, p: nn.ReLU6(),
    "Tanh": lambda m, p: nn.Tanh(),
    "Sigmoid": lambda m, p: nn.Sigmoid(),
    "HardTanh": lambda m, p: nn.Hardtanh(float(_field(m, "min_val", -1)), float(_field(m, "max_val", 1))),
    "Clamp": lambda m, p: nn.Hardtanh(float(_field(m, "min_val")), float(_field(m, "max_val"))),
    "LeakyReLU": lambda m, p: nn.LeakyReLU(float(_field(m, "negval", 0.01))),
    "ELU": lambda m, p: nn.ELU(float(_field(m, "alpha", 1.0))),
    "PReLU": _prelu,
    "SoftPlus": lambda m, p: nn.Softplus(float(_field(m, "beta", 1)), float(_field(m, "threshold", 20))),
    "SoftSign": lambda m, p: nn.Softsign(),
    "LogSigmoid": lambda m, p: nn.LogSigmoid(),
    "SoftShrink": lambda m, p: nn.Softshrink(float(_field(m, "lambda", 0.5))),
    "HardShrink": lambda m, p: nn.Hardshrink(float(_field(m, "lambda", 0.5))),
    "TanhShrink": lambda m, p: nn.Tanhshrink(),
    "SoftMax": lambda m, p: SoftMax(),
    "LogSoftMax": lambda m, p: SoftMax(log=True),
    "SoftMin": lambda m, p: SoftMax(negate=True),
    "SpatialSoftMax": lambda m, p: SoftMax(),
    "SpatialLogSoftMax": lambda m, p: SoftMax(log=True),
    "Abs": lambda m, p: Pointwise("abs"),
    "Exp": lambda m, p: Pointwise("exp"),
    "Log": lambda m, p: Pointwise("log"),
    "Sqrt": lambda m, p: Pointwise("sqrt"),
    "Square": lambda m, p: Pointwise("square"),
    "Power": lambda m, p: Pointwise("pow", float(_field(m, "pow"))),
    "MulConstant": lambda m, p: Affine(scale=float(_field(m, "constant_scalar"))),
    "AddConstant": lambda m, p: Affine(shift=float(_field(m, "constant_scalar"))),
    # regularisation and shapes
    "Dropout": lambda m, p: (
        nn.Dropout(float(_field(m, "p", 0.5)))
        if _field(m, "v2", True)
        else Dropout(float(_field(m, "p", 0.5)), v1=True)
    ),
    "SpatialDropout": lambda m, p: Dropout(float(_field(m, "p", 0.5)), v1=True, spatial=True),
    "VolumetricDropout": lambda m, p: Dropout(float(_field(m, "p", 0.5)), v1=True, spatial=True),
    "Identity": lambda m, p: nn.Identity(),
    "Copy": lambda m, p: nn.Identity(),
    "Contiguous": lambda m, p: nn.Identity(),
    "View": lambda m, p: View(_sizes(m, "size"), _opt_int(m, "numInputDims")),
    "Reshape": lambda m, p: Reshape(_sizes(m, "size"), _field(m, "batchMode")),
    "Padding": lambda m, p: Padding(
        _dim0(m, "dim"), _int(m, "pad"), _opt_int(m, "nInputDim"), float(_field(m, "value", 0)), _int(m, "index", 0)
    ),
    "Narrow": lambda m, p: Narrow(_dim0(m, "dimension"), _int(m, "index"), _int(m, "length", 1)),
    "Select": lambda m, p: Select(_dim0(m, "dimension"), _dim0(m, "index")),
    "Sum": lambda m, p: Reduce(
        "mean" if _field(m, "sizeAverage") else "sum",
        _dim0(m, "dimension"),
        _n_input_dims(m),
        _field(m, "squeeze", True) is not False,
    ),
    "Mean": lambda m, p: Reduce(
        "mean", _dim0(m, "dimension"), _n_input_dims(m), _field(m, "squeeze", True) is not False
    ),
    "Max": lambda m, p: Reduce("max", _dim0(m, "dimension"), _n_input_dims(m)),
    "Min": lambda m, p: Reduce("min", _dim0(m, "dimension"), _n_input_dims(m)),
    "Transpose": lambda m, p: Transpose(*[(int(a), int(b)) for a, b in _field(m, "permutations")]),
    "Replicate": lambda m, p: Replicate(_int(m, "nfeatures"), _dim0(m, "dim"), _opt_int(m, "ndim")),
    "Unsqueeze": lambda m, p: Unsqueeze(_dim0(m, "pos"), _opt_int(m, "numInputDims")),
    "Squeeze": lambda m, p: Squeeze(None if _field(m, "dim") is None else _dim0(m, "dim"), _opt_int(m, "numInputDims")),
    # tables
    "CAddTable": lambda m, p: TableOp("add"),
    "CSubTable": lambda m, p: TableOp("sub"),
    "CMulTable": lambda m, p: TableOp("mul"),
    "CDivTable": lambda m, p: TableOp("div"),
    "CMaxTable": lambda m, p: TableOp("max"),
    "CMinTable": lambda m, p: TableOp("min"),
    "JoinTable": lambda m, p: JoinTable(_dim0(m, "dimension"), _n_input_dims(m)),
    "SelectTable": lambda m, p: SelectTable(_dim0(m, "index")),
    "NarrowTable": lambda m, p: NarrowTable(_int(m, "offset"), _int(m, "length", 1)),
    "FlattenTable": lambda m, p: FlattenTable(),
}

_CONTAINERS = {
    "Sequential": _container(nn.Sequential),
    "ConcatTable": _container(ConcatTable),
    "ParallelTable": _container(ParallelTable),
    "Concat": lambda m, p, conv: Concat(
        _dim0(m, "dimension"), *[conv(c, "%s.%d" % (p, i + 1)) for i, c in enumerate(_modules_of(m))]
    ),
    "DepthConcat": lambda m, p, conv: DepthConcat(
        _dim0(m, "dimension"), *[conv(c, "%s.%d" % (p, i + 1)) for i, c in enumerate(_modules_of(m))]
    ),
    "Parallel": lambda m, p, conv: Parallel(
        _dim0(m, "inputDimension"),
        _dim0(m, "outputDimension"),
        *[conv(c, "%s.%d" % (p, i + 1)) for i, c in enumerate(_modules_of(m))],
    ),
    "gModule": _graph,
    "DataParallelTable": _wrapped,
    "GPU": _wrapped,
}


def _sizes(m, name):
    v = _field(m, name)
    if v is None:
        raise ConversionError("%s has no %r" % (_typename(m), name))
    if torch.is_tensor(v):
        return [int(s) for s in v.tolist()]
    if hasattr(v, "tolist"):  # a LongStorage
        return [int(s) for s in v.tolist()]
    if isinstance(v, (int, float)):
        return [int(v)]
    return [int(s) for s in v]


def _copy_params(out, m, path, *names):
    """out (a runtime module keeping torch7's parameter layout) with m's tensors copied into
    its parameters and buffers of the same names."""
    for name in names:
        have = getattr(out, name)
        t = _tensor(m, name)
        if have is None:
            continue
        if t is None or t.numel() != have.numel():
            raise ConversionError(
                "%s: %s's %s should have %d elements, has %s"
                % (path, _typename(m), name, have.numel(), "none" if t is None else t.numel())
            )
        value = t.detach().clone().reshape(have.shape)
        if isinstance(have, nn.Parameter):
            setattr(out, name, nn.Parameter(value))
        else:
            setattr(out, name, value)
    return out


def _lookup_table(m, path):
    weight = _tensor(m, "weight")
    if weight is None or weight.dim() != 2:
        raise ConversionError("%s: nn.LookupTable needs a 2-D weight" % path)
    max_norm = _field(m, "maxNorm")
    out = nn.Embedding(
        weight.shape[0],
        weight.shape[1],
        padding_idx=_opt_int(m, "paddingValue"),  # load_lua made it 0-based (None for torch7's 0)
        max_norm=None if max_norm is None else float(max_norm),
        norm_type=float(_field(m, "normType") or 2),
        scale_grad_by_freq=bool(_field(m, "shouldScaleGradByFreq", False)),
    )
    out.weight = _param(weight)
    return out


def _table_sizes(m, name):
    v = _field(m, name)
    if torch.is_tensor(v):
        return [int(s) for s in v.shape]
    return _sizes(m, name)


def _criterion_weights(m, name="weights"):
    w = _tensor(m, name)
    return None if w is None else w.detach().clone()


def _reduction(m):
    return "mean" if _field(m, "sizeAverage", True) is not False else "sum"


def _size_average(m):
    return _field(m, "sizeAverage", True) is not False


def _nll(m, p):
    return nn.NLLLoss(weight=_criterion_weights(m), ignore_index=_int(m, "ignoreIndex", -100), reduction=_reduction(m))


def _cross_entropy(m, p):
    nll = _field(m, "nll")
    source = nll if nll is not None else m
    return nn.CrossEntropyLoss(
        weight=_criterion_weights(source), ignore_index=_int(source, "ignoreIndex", -100), reduction=_reduction(source)
    )


def _bce(m, p):
    return nn.BCELoss(weight=_criterion_weights(m), reduction=_reduction(m))


def _multilabel_soft_margin(m, p):
    bce = _field(m, "nll")
    return nn.MultiLabelSoftMarginLoss(weight=None if bce is None else _criterion_weights(bce), reduction="mean")


def _criterions(m, path, conv):
    crits = _field(m, "criterions") or []
    if isinstance(crits, dict):
        crits = [crits[k] for k in sorted(crits)]
    weights = _field(m, "weights") or []
    if isinstance(weights, dict):
        weights = [weights[k] for k in sorted(weights)]
    if torch.is_tensor(weights):
        weights = weights.tolist()
    return [conv(c, "%s.%d" % (path, i + 1)) for i, c in enumerate(crits)], [float(w) for w in weights]


def _local_normalization(m, path, divisive):
    estimator = _field(m, "meanestimator")
    kernel = None if estimator is None else _tensor(estimator, "weight")
    if kernel is None:
        raise ConversionError("%s: %s without its meanestimator's weight" % (path, _typename(m)))
    planes = _int(m, "nInputPlane", 1)
    kernel = kernel.reshape(1, planes, -1, kernel.shape[-1]) if kernel.dim() != 4 else kernel
    out = LocalNormalization(
        planes,
        kernel.shape[2],
        kernel.shape[3],
        divisive=divisive,
        threshold=float(_field(m, "threshold", 1e-4)),
        thresval=float(_field(m, "thresval", 1e-4)),
    )
    out.kernel = kernel.detach().clone()
    return out


def _weight_norm(m, path, conv):
    inner = _decorated(m, path, conv)
    weight = _tensor(m, "weight")
    if weight is None or getattr(inner, "weight", None) is None:
        raise ConversionError("%s: nn.WeightNorm of a module without a weight" % path)
    out = WeightNorm(inner, _dim0(m, "outputDim"), list(weight.shape))
    return _copy_params(out, m, path, "v", "g")


def _partial_linear(m, path):
    try:
        table = _modules_of(_modules_of(_field(m, "network"))[0])[1]
    except (IndexError, TypeError):
        raise ConversionError("%s: nn.PartialLinear without its network's LookupTable" % path) from None
    weight = _tensor(table, "weight")
    bias = _tensor(m, "bias")
    out = PartialLinear(weight.shape[1], weight.shape[0], bias=bias is not None)
    out.weight = _param(weight)
    if bias is not None:
        out.bias = _param(bias.reshape(1, -1))
    partition = _field(m, "partition")  # 0-based since load_lua
    if torch.is_tensor(partition):
        out.set_partition(partition.long())
    return out


def _fractional(m, path):
    samples = _tensor(m, "randomSamples")
    fixed = samples is not None and bool(_field(m, "newRandomPool", False))
    if fixed and samples.dim() == 2:
        samples = samples.unsqueeze(0)
    ratio_w, ratio_h = _field(m, "ratioW"), _field(m, "ratioH")
    out = FractionalMaxPool(
        _int(m, "poolSizeW"),
        _int(m, "poolSizeH"),
        _opt_int(m, "outW"),
        _opt_int(m, "outH"),
        None if ratio_w is None else float(ratio_w),
        None if ratio_h is None else float(ratio_h),
        samples_size=list(samples.shape) if fixed else None,
    )
    if fixed:
        out.samples = samples.detach().clone()
    return out


def _volumetric_fractional(m, path):
    samples = _tensor(m, "randomSamples")
    fixed = samples is not None and bool(_field(m, "newRandomPool", False))
    if fixed and samples.dim() == 2:
        samples = samples.unsqueeze(0)
    ratios = None
    if _field(m, "ratioT") is not None:
        ratios = [float(_field(m, "ratioH")), float(_field(m, "ratioW")), float(_field(m, "ratioT"))]
    out = VolumetricFractionalMaxPool(
        _int(m, "poolSizeT"),
        _int(m, "poolSizeW"),
        _int(m, "poolSizeH"),
        _opt_int(m, "outT"),
        _opt_int(m, "outW"),
        _opt_int(m, "outH"),
        ratios,
        samples_size=list(samples.shape) if fixed else None,
    )
    if fixed:
        out.samples = samples.detach().clone()
    return out


def _index_linear(m, path):
    if _int(m, "normalize", 0):
        raise ConversionError("%s: nn.IndexLinear with normalize is not translated yet (issue 23)" % path)
    weight = _tensor(m, "weight")
    out = IndexLinear(weight.shape[0], weight.shape[1], _int(m, "keysOffset", 0))
    return _copy_params(out, m, path, "weight", "bias")


def _decorated(m, path, conv):
    inner = _field(m, "module")
    if inner is None:
        modules = _modules_of(m)
        if not modules:
            raise ConversionError("%s: %s holds no module" % (path, _typename(m)))
        inner = modules[0]
    return conv(inner, path + ".1")


_SIMPLE.update(
    {
        "LookupTable": _lookup_table,
        "CAdd": lambda m, p: _copy_params(CAdd(_table_sizes(m, "bias")), m, p, "bias"),
        "CMul": lambda m, p: _copy_params(CMul(_table_sizes(m, "weight")), m, p, "weight"),
        "Add": lambda m, p: _copy_params(
            Add(_tensor(m, "bias").numel(), scalar=bool(_field(m, "scalar", False))), m, p, "bias"
        ),
        "Mul": lambda m, p: _copy_params(Mul(), m, p, "weight"),
        "Bilinear": lambda m, p: _copy_params(
            Bilinear(
                *_tensor(m, "weight").shape[1:], _tensor(m, "weight").shape[0], bias=_tensor(m, "bias") is not None
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "TemporalConvolution": lambda m, p: _copy_params(
            TemporalConvolution(_int(m, "inputFrameSize"), _int(m, "outputFrameSize"), _int(m, "kW"), _int(m, "dW", 1)),
            m,
            p,
            "weight",
            "bias",
        ),
        "TemporalMaxPooling": lambda m, p: TemporalMaxPooling(_int(m, "kW"), _int(m, "dW", _int(m, "kW"))),
        "TemporalSubSampling": lambda m, p: _copy_params(
            TemporalSubSampling(_int(m, "inputFrameSize"), _int(m, "kW"), _int(m, "dW", 1)), m, p, "weight", "bias"
        ),
        "SpatialSubSampling": lambda m, p: _copy_params(
            SpatialSubSampling(
                _int(m, "nInputPlane"), _int(m, "kW"), _int(m, "kH"), _int(m, "dW", 1), _int(m, "dH", 1)
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "SpatialDepthWiseConvolution": lambda m, p: _copy_params(
            SpatialDepthWiseConvolution(
                *[
                    _int(m, f, 1 if f[0] == "d" else 0)
                    for f in ("nInputPlane", "nOutputPlane", "kW", "kH", "dW", "dH", "padW", "padH")
                ],
                bias=_tensor(m, "bias") is not None,
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "SpatialConvolutionLocal": lambda m, p: _copy_params(
            SpatialConvolutionLocal(
                *[
                    _int(m, f, 1 if f[0] == "d" else 0)
                    for f in ("nInputPlane", "nOutputPlane", "iW", "iH", "kW", "kH", "dW", "dH", "padW", "padH")
                ]
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "SpatialConvolutionMap": lambda m, p: _copy_params(
            SpatialConvolutionMap(
                [[int(a), int(b)] for a, b in _tensor(m, "connTable").tolist()],  # 0-based since load_lua
                _int(m, "kW"),
                _int(m, "kH"),
                _int(m, "dW", 1),
                _int(m, "dH", 1),
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "SpatialFullConvolutionMap": lambda m, p: _copy_params(
            SpatialConvolutionMap(
                [[int(a), int(b)] for a, b in _tensor(m, "connTable").tolist()],
                _int(m, "kW"),
                _int(m, "kH"),
                _int(m, "dW", 1),
                _int(m, "dH", 1),
                full=True,
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "TemporalRowConvolution": lambda m, p: _copy_params(
            TemporalRowConvolution(
                _int(m, "inputFrameSize"), _int(m, "kW"), _int(m, "dW", 1), bool(_field(m, "featFirst", False))
            ),
            m,
            p,
            "weight",
            "bias",
        ),
        "TemporalDynamicKMaxPooling": lambda m, p: TemporalDynamicKMaxPooling(
            _int(m, "minK"), float(_field(m, "factor") or 0)
        ),
        "LinearWeightNorm": lambda m, p: _copy_params(
            LinearWeightNorm(*reversed(_tensor(m, "v").shape), bias=_tensor(m, "bias") is not None),
            m,
            p,
            "v",
            "g",
            "bias",
        ),
        "Kmeans": lambda m, p: _copy_params(Kmeans(*_tensor(m, "weight").shape), m, p, "weight"),
        "SparseLinear": lambda m, p: _copy_params(
            SparseLinear(*reversed(_tensor(m, "weight").shape)), m, p, "weight", "bias"
        ),
        "Cosine": lambda m, p: _copy_params(Cosine(*reversed(_tensor(m, "weight").shape)), m, p, "weight"),
        "Euclidean": lambda m, p: _copy_params(Euclidean(*_tensor(m, "weight").shape), m, p, "weight"),
        "WeightedEuclidean": lambda m, p: _copy_params(
            WeightedEuclidean(*_tensor(m, "weight").shape), m, p, "weight", "diagCov"
        ),
        "Normalize": lambda m, p: Normalize(float(_field(m, "p")), float(_field(m, "eps", 1e-10))),
        "PairwiseDistance": lambda m, p: PairwiseDistance(float(_field(m, "norm"))),
        "CosineDistance": lambda m, p: CosineDistance(),
        "DotProduct": lambda m, p: DotProduct(),
        "GatedLinearUnit": lambda m, p: nn.GLU(-1 if _field(m, "dim") is None else _dim0(m, "dim")),
        "SplitTable": lambda m, p: SplitTable(_dim0(m, "dimension"), _n_input_dims(m)),
        "SpatialSubtractiveNormalization": lambda m, p: _local_normalization(m, p, False),
        "SpatialDivisiveNormalization": lambda m, p: _local_normalization(m, p, True),
        "Convert": lambda m, p: Convert(
            None if _field(m, "perm") is None else [int(v) for v in _field(m, "perm")],
            _opt_int(m, "flatAt"),
            _int(m, "nFlat", 0),
        ),
        "PartialLinear": _partial_linear,
        "IndexLinear": _index_linear,
        "SpatialFractionalMaxPooling": _fractional,
        "VolumetricFractionalMaxPooling": _volumetric_fractional,
        "CReLU": lambda m, p: CReLU(_int(m, "nInputDims")),
        "Collapse": lambda m, p: Collapse(_int(m, "nInputDim")),
        "Constant": lambda m, p: _copy_params(
            Constant(_tensor(m, "value").shape, _opt_int(m, "nInputDim")), m, p, "value"
        ),
        "Index": lambda m, p: Index(_dim0(m, "dimension")),
        "MaskedSelect": lambda m, p: MaskedSelect(),
        "MM": lambda m, p: MM(bool(_field(m, "transA", False)), bool(_field(m, "transB", False))),
        "MV": lambda m, p: MV(bool(_field(m, "trans", False))),
        "ZipTable": lambda m, p: ZipTable(),
        "ZipTableOneToMany": lambda m, p: ZipTableOneToMany(),
        "CAddTensorTable": lambda m, p: CAddTensorTable(),
        "MixtureTable": lambda m, p: MixtureTable(None if _field(m, "dim") is None else _dim0(m, "dim")),
        "ZeroGrad": lambda m, p: ZeroGrad(),
        "GradientReversal": lambda m, p: GradientReversal(float(_field(m, "lambda", 1))),
        "L1Penalty": lambda m, p: L1Penalty(
            float(_field(m, "l1weight")),
            bool(_field(m, "sizeAverage", False)),
            _field(m, "provideOutput", True) is not False,
        ),
        "OneHot": lambda m, p: OneHot(_int(m, "outputSize")),
        "WhiteNoise": lambda m, p: WhiteNoise(float(_field(m, "mean", 0)), float(_field(m, "std", 0.1))),
        "UpSampling": lambda m, p: UpSampling(
            _opt_int(m, "scale_factor"),
            str(_field(m, "mode", "nearest")),
            _opt_int(m, "odepth"),
            _opt_int(m, "oheight"),
            _opt_int(m, "owidth"),
        ),
        "FeatureLPPooling": lambda m, p: FeatureLPPooling(
            _int(m, "width"), _int(m, "stride"), float(_field(m, "power", 2)), bool(_field(m, "batch_mode", False))
        ),
        "SpatialUpSamplingBilinear": lambda m, p: UpSamplingBilinear(
            _opt_int(m, "scale_factor"), _opt_int(m, "oheight"), _opt_int(m, "owidth")
        ),
        "PixelShuffle": lambda m, p: nn.PixelShuffle(_int(m, "upscaleFactor")),
        "RReLU": lambda m, p: nn.RReLU(float(_field(m, "lower", 1 / 8)), float(_field(m, "upper", 1 / 3))),
        "VolumetricReplicationPadding": lambda m, p: nn.ReplicationPad3d(
            tuple(_int(m, f) for f in ("pleft", "pright", "ptop", "pbottom", "pfront", "pback"))
        ),
        "SpatialDilatedMaxPooling": lambda m, p: nn.MaxPool2d(
            (_int(m, "kH"), _int(m, "kW")),
            (_int(m, "dH"), _int(m, "dW")),
            (_int(m, "padH", 0), _int(m, "padW", 0)),
            dilation=(_int(m, "dilationH", 1), _int(m, "dilationW", 1)),
            ceil_mode=bool(_field(m, "ceil_mode", False)),
        ),
        "VolumetricDilatedMaxPooling": lambda m, p: nn.MaxPool3d(
            (_int(m, "kT"), _int(m, "kH"), _int(m, "kW")),
            (_int(m, "dT"), _int(m, "dH"), _int(m, "dW")),
            (_int(m, "padT", 0), _int(m, "padH", 0), _int(m, "padW", 0)),
            dilation=(_int(m, "dilationT", 1), _int(m, "dilationH", 1), _int(m, "dilationW", 1)),
            ceil_mode=bool(_field(m, "ceil_mode", False)),
        ),
        # criterions: forward(input, target); class targets 0-based (Note [Indices shifted once])
        "MSECriterion": lambda m, p: nn.MSELoss(reduction=_reduction(m)),
        "AbsCriterion": lambda m, p: nn.L1Loss(reduction=_reduction(m)),
        "SmoothL1Criterion": lambda m, p: nn.SmoothL1Loss(reduction=_reduction(m)),
        "SoftMarginCriterion": lambda m, p: nn.SoftMarginLoss(reduction=_reduction(m)),
        "DistKLDivCriterion": lambda m, p: nn.KLDivLoss(reduction=_reduction(m)),
        "BCECriterion": _bce,
        "ClassNLLCriterion": _nll,
        "SpatialClassNLLCriterion": _nll,
        "CrossEntropyCriterion": _cross_entropy,
        "MultiMarginCriterion": lambda m, p: nn.MultiMarginLoss(
            p=_int(m, "p", 1),
            margin=float(_field(m, "margin", 1)),
            weight=_criterion_weights(m),
            reduction=_reduction(m),
        ),
        "MultiLabelMarginCriterion": lambda m, p: nn.MultiLabelMarginLoss(reduction=_reduction(m)),
        "MultiLabelSoftMarginCriterion": _multilabel_soft_margin,
        "HingeEmbeddingCriterion": lambda m, p: nn.HingeEmbeddingLoss(
            margin=float(_field(m, "margin", 1)), reduction=_reduction(m)
        ),
        "CosineEmbeddingCriterion": lambda m, p: TableLoss(
            nn.CosineEmbeddingLoss(margin=float(_field(m, "margin", 0)), reduction=_reduction(m))
        ),
        "MarginRankingCriterion": lambda m, p: TableLoss(
            nn.MarginRankingLoss(margin=float(_field(m, "margin", 1)), reduction=_reduction(m))
        ),
        "MarginCriterion": lambda m, p: MarginLoss(float(_field(m, "margin", 1)), _size_average(m)),
        "L1HingeEmbeddingCriterion": lambda m, p: L1HingeEmbeddingLoss(float(_field(m, "margin", 1))),
        "WeightedMSECriterion": lambda m, p: _copy_params(
            WeightedMSELoss(_tensor(m, "weight").shape, _size_average(m)), m, p, "weight"
        ),
        "SpatialAutoCropMSECriterion": lambda m, p: AutoCropMSELoss(_size_average(m)),
        "L1Cost": lambda m, p: L1Cost(),
        "DistanceRatioCriterion": lambda m, p: DistanceRatioLoss(_size_average(m)),
        "ClassSimplexCriterion": lambda m, p: _copy_params(ClassSimplexLoss(_int(m, "nClasses")), m, p, "simplex"),
    }
)

_CONTAINERS.update(
    {
        "Maxout": _container(nn.Sequential),  # a Sequential in torch7: Linear, View, Max
        "SpatialLPPooling": _container(nn.Sequential),  # a Sequential in torch7: Power, pooling, MulConstant, Power
        "MapTable": lambda m, p, conv: MapTable(_decorated(m, p, conv)),
        "Bottle": lambda m, p, conv: Bottle(_decorated(m, p, conv), _int(m, "nInputDim", 2), _opt_int(m, "nOutputDim")),
        "SpatialMaxUnpooling": lambda m, p, conv: MaxUnpool(2).link(conv(_field(m, "pooling"), p + ".pooling")),
        "VolumetricMaxUnpooling": lambda m, p, conv: MaxUnpool(3).link(conv(_field(m, "pooling"), p + ".pooling")),
        "WeightNorm": _weight_norm,
        "Decorator": _decorated,
        "SpatialContrastiveNormalization": lambda m, p, conv: conv(_field(m, "normalizer"), p + ".normalizer"),
        "DontCast": _decorated,
        "NaN": _decorated,
        "Profile": _decorated,
        "CriterionTable": lambda m, p, conv: CriterionTable(conv(_field(m, "criterion"), p + ".criterion")),
        "ModuleCriterion": lambda m, p, conv: ModuleLoss(
            conv(_field(m, "criterion"), p + ".criterion"),
            None if _field(m, "inputModule") is None else conv(_field(m, "inputModule"), p + ".inputModule"),
            None if _field(m, "targetModule") is None else conv(_field(m, "targetModule"), p + ".targetModule"),
        ),
        "ParallelCriterion": lambda m, p, conv: ParallelLoss(
            *_criterions(m, p, conv), repeat_target=bool(_field(m, "repeatTarget", False))
        ),
        "MultiCriterion": lambda m, p, conv: MultiLoss(*_criterions(m, p, conv)),
    }
)


def convert(legacy_module):
    """The torch.nn.Module computing what the torch7 module (as load_lua returns it) computes,
    with its weights and statistics copied; in evaluation mode when the torch7 module was
    (train = false), else in training mode. Raises ConversionError naming the first module
    (by its path in the model, 1-based as torch7 counts) that cannot be converted."""

    done = {}  # id of a torch7 module -> its conversion: a module held twice stays one module

    def conv(m, path):
        if id(m) in done:
            return done[id(m)][1]
        out = convert_one(m, path)
        done[id(m)] = (m, out)  # m kept alive so that its id is not reused
        return out

    def convert_one(m, path):
        full = _typename(m)
        package, _, name = full.rpartition(".")
        if package not in ("nn", ""):
            raise ConversionError("%s: cannot convert a %s (no torch.nn equivalent known)" % (path, full))
        if name in _CONTAINERS:
            out = _CONTAINERS[name](m, path, conv)
        elif name in _SIMPLE:
            out = _SIMPLE[name](m, path)
        else:
            raise ConversionError("%s: cannot convert a %s (no torch.nn equivalent known)" % (path, full))
        # this module's own mode only: its children keep theirs, as torch7 modules each have one
        out.training = _field(m, "train", True) is not False
        return out

    return conv(legacy_module, "model")


# torch7 nn classes that convert to nothing, by their nature
NOT_CONVERTIBLE = {
    "Module": "abstract base of the modules",
    "Container": "abstract base of the containers",
    "Criterion": "abstract base of the criterions",
    "Jacobian": "a helper that checks gradients, not a module",
    "SparseJacobian": "a helper that checks gradients, not a module",
    "StochasticGradient": "a trainer, not a module",
}

# torch7 nn classes whose forward torch.nn could express but that the converter does not
# convert yet: none. A class added to lua/nn is listed here until it has its converter and
# its case (tests/python/test_convert_t7_classes.py checks that every Lua class is in one of
# the three tables).
NOT_YET = {}


def convertible_classes():
    """{torch7 class name: its builder}, the classes convert() knows, sorted by name; each has
    its case in tests/python/test_convert_t7_classes.py, and --list prints them."""
    out = {}
    for name, build in list(_SIMPLE.items()) + list(_CONTAINERS.items()):
        out[name] = build
    return dict(sorted(out.items()))
