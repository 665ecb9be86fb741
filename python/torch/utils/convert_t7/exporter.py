"""to_t7: torch.nn modules to torch7 nn objects (the reverse of convert), written with save_lua."""

import torch
from torch import nn
from torch.utils.convert_t7.errors import ConversionError
from torch.utils.convert_t7.model_dtype import _model_dtype
from torch.utils.serialization import save_lua


def _empty(dtype):
    return torch.empty(0, dtype=dtype)


def _t7_module(name, dtype, training, **fields):
    from torch.legacy import nn as legacy_nn

    base = {"output": _empty(dtype), "gradInput": _empty(dtype), "_type": _TYPE_NAMES[dtype], "train": training}
    base.update(fields)
    return legacy_nn.class_for("nn." + name)(**base)


_TYPE_NAMES = {torch.float32: "torch.FloatTensor", torch.float64: "torch.DoubleTensor"}


def _weights(m, dtype, **names):
    """Copies of m's parameters under their torch7 names, with zero gradients."""
    out = {}
    for t7_name, attr in names.items():
        p = getattr(m, attr)
        if p is None:
            continue
        out[t7_name] = p.detach().clone().to(dtype)
        out["grad" + t7_name[0].upper() + t7_name[1:]] = torch.zeros_like(out[t7_name])
    return out


def _to_legacy(m, dtype, path):
    t = type(m)
    tr = m.training
    if t in _WRAPPERS:  # a data-parallel wrapper: torch7 gets the model it runs
        return _to_legacy(m.module, dtype, path)
    if t is nn.Sequential:
        return _t7_module(
            "Sequential",
            dtype,
            tr,
            modules=[_to_legacy(c, dtype, "%s.%d" % (path, i + 1)) for i, c in enumerate(m.children())],
        )
    if t is nn.Linear:
        return _t7_module("Linear", dtype, tr, **_weights(m, dtype, weight="weight", bias="bias"))
    if t is nn.Conv2d and m.groups != 1 and m.groups == m.in_channels and m.out_channels % m.groups == 0:
        if m.padding_mode != "zeros" or isinstance(m.padding, str) or _two(m.dilation) != (1, 1):
            raise ConversionError(
                "%s: torch7's depthwise convolution has no dilation, string padding or padding_mode" % path
            )
        return _depthwise(m, dtype, tr, path)
    if t is nn.Conv2d:
        if m.groups != 1 or m.padding_mode != "zeros" or isinstance(m.padding, str):
            raise ConversionError("%s: torch7 has no convolution with groups, string padding or padding_mode" % path)
        kh, kw = m.kernel_size
        fields = dict(
            nInputPlane=m.in_channels,
            nOutputPlane=m.out_channels,
            kW=kw,
            kH=kh,
            dW=m.stride[1],
            dH=m.stride[0],
            padW=m.padding[1],
            padH=m.padding[0],
            **_weights(m, dtype, weight="weight", bias="bias"),
        )
        if m.dilation != (1, 1):
            return _t7_module(
                "SpatialDilatedConvolution", dtype, tr, dilationW=m.dilation[1], dilationH=m.dilation[0], **fields
            )
        return _t7_module("SpatialConvolution", dtype, tr, finput=_empty(dtype), fgradInput=_empty(dtype), **fields)
    if t is nn.ConvTranspose2d:
        if m.groups != 1 or m.dilation != (1, 1):
            raise ConversionError("%s: torch7 has no full convolution with groups or dilation" % path)
        kh, kw = m.kernel_size
        return _t7_module(
            "SpatialFullConvolution",
            dtype,
            tr,
            nInputPlane=m.in_channels,
            nOutputPlane=m.out_channels,
            kW=kw,
            kH=kh,
            dW=m.stride[1],
            dH=m.stride[0],
            padW=m.padding[1],
            padH=m.padding[0],
            adjW=m.output_padding[1],
            adjH=m.output_padding[0],
            finput=_empty(dtype),
            fgradInput=_empty(dtype),
            **_weights(m, dtype, weight="weight", bias="bias"),
        )
    if t in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d):
        if not m.track_running_stats or m.momentum is None:
            raise ConversionError("%s: torch7's batch normalization keeps running statistics with a momentum" % path)
        name = {
            nn.BatchNorm1d: "BatchNormalization",
            nn.BatchNorm2d: "SpatialBatchNormalization",
            nn.BatchNorm3d: "VolumetricBatchNormalization",
        }[t]
        return _t7_module(
            name,
            dtype,
            tr,
            eps=m.eps,
            momentum=m.momentum,
            affine=m.affine,
            running_mean=m.running_mean.detach().clone().to(dtype),
            running_var=m.running_var.detach().clone().to(dtype),
            save_mean=_empty(dtype),
            save_std=_empty(dtype),
            **_weights(m, dtype, weight="weight", bias="bias"),
        )
    if t in (nn.MaxPool2d, nn.AvgPool2d):
        k, s, p = (_two(v) for v in (m.kernel_size, m.stride or m.kernel_size, m.padding))
        fields = dict(kW=k[1], kH=k[0], dW=s[1], dH=s[0], padW=p[1], padH=p[0], ceil_mode=bool(m.ceil_mode))
        if t is nn.MaxPool2d and _two(m.dilation) != (1, 1):
            return _dilated_max_pool2d(m, dtype, tr, path)
        if t is nn.MaxPool2d:
            if m.return_indices:
                raise ConversionError("%s: torch7's SpatialMaxPooling has no dilation nor returned indices" % path)
            return _t7_module("SpatialMaxPooling", dtype, tr, indices=_empty(torch.int64), **fields)
        if m.divisor_override is not None:
            raise ConversionError("%s: torch7's SpatialAveragePooling has no divisor_override" % path)
        return _t7_module(
            "SpatialAveragePooling", dtype, tr, count_include_pad=bool(m.count_include_pad), divide=True, **fields
        )
    if t is nn.ReLU:
        return _t7_module("ReLU", dtype, tr, threshold=0.0, val=0.0, inplace=False)
    if t is nn.Threshold:
        return _t7_module("Threshold", dtype, tr, threshold=float(m.threshold), val=float(m.value), inplace=False)
    if t is nn.ReLU6:
        return _t7_module("ReLU6", dtype, tr, inplace=False)
    if t in (nn.Tanh, nn.Sigmoid, nn.Softsign, nn.LogSigmoid, nn.Tanhshrink, nn.Identity):
        name = {
            nn.Tanh: "Tanh",
            nn.Sigmoid: "Sigmoid",
            nn.Softsign: "SoftSign",
            nn.LogSigmoid: "LogSigmoid",
            nn.Tanhshrink: "TanhShrink",
            nn.Identity: "Identity",
        }[t]
        if t is nn.Tanhshrink:  # torch7's TanhShrink computes through a Tanh it holds
            return _t7_module(name, dtype, tr, tanh=_t7_module("Tanh", dtype, tr))
        return _t7_module(name, dtype, tr)
    if t is nn.LeakyReLU:
        return _t7_module("LeakyReLU", dtype, tr, negval=float(m.negative_slope), inplace=False)
    if t is nn.ELU:
        return _t7_module("ELU", dtype, tr, alpha=float(m.alpha), inplace=False)
    if t is nn.Hardtanh:
        return _t7_module("HardTanh", dtype, tr, min_val=float(m.min_val), max_val=float(m.max_val), inplace=False)
    if t is nn.Softplus:
        return _t7_module("SoftPlus", dtype, tr, beta=float(m.beta), threshold=float(m.threshold))
    if t in (nn.Softmax, nn.LogSoftmax):
        if m.dim not in (1, -1):
            raise ConversionError(
                "%s: torch7's SoftMax works over dimension 1 of a batch; dim=%r cannot be kept" % (path, m.dim)
            )
        return _t7_module("SoftMax" if t is nn.Softmax else "LogSoftMax", dtype, tr)
    if t is nn.Dropout:
        return _t7_module("Dropout", dtype, tr, p=float(m.p), v2=True, inplace=False, noise=_empty(dtype))
    if t is nn.Flatten:
        if m.start_dim != 1 or m.end_dim != -1:
            raise ConversionError("%s: only Flatten(1, -1) has a torch7 equivalent (nn.Reshape(-1, true))" % path)
        return _t7_module(
            "Reshape",
            dtype,
            tr,
            size=torch.tensor([-1]).storage(),
            batchMode=True,
            nelement=-1.0,
            batchsize=torch.tensor([1, -1]).storage(),
            _input=_empty(dtype),
            _gradOutput=_empty(dtype),
        )
    if t in (nn.LocalResponseNorm, nn.CrossMapLRN2d):
        return _t7_module(
            "SpatialCrossMapLRN",
            dtype,
            tr,
            size=m.size,
            alpha=float(m.alpha),
            beta=float(m.beta),
            k=float(m.k),
            scale=_empty(dtype),
        )
    export = _EXPORTERS.get(t) or _runtime_exporters().get(t)
    if export is not None:
        return export(m, dtype, tr, path)
    why = NO_TORCH7.get(t)
    if why is not None:
        raise ConversionError("%s: torch7 has no counterpart of torch.nn.%s: %s" % (path, t.__name__, why))
    raise ConversionError("%s: no torch7 equivalent for %s" % (path, t.__name__))


def _three(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v, v)


def _frames(inner, dtype, tr):
    """inner (a torch7 temporal module, frames as rows) between two transposes, so that it takes
    torch.nn's [N, C, L] and gives [N, C', L']."""
    swap = lambda: _t7_module("Transpose", dtype, tr, permutations=[[1, 2]])  # noqa: E731  0-based here
    return _t7_module("Sequential", dtype, tr, modules=[swap(), inner, swap()])


def _conv1d(m, dtype, tr, path):
    if m.groups != 1 or _tuple1(m.dilation) != 1 or _tuple1(m.padding) != 0 or m.padding_mode != "zeros":
        raise ConversionError("%s: torch7's TemporalConvolution has no groups, dilation or padding" % path)
    k = _tuple1(m.kernel_size)
    # frame t of a window laid end to end: weight[o, t * in + c] = conv weight[o, c, t]
    weight = m.weight.detach().permute(0, 2, 1).reshape(m.out_channels, k * m.in_channels).contiguous().to(dtype)
    fields = dict(weight=weight, gradWeight=torch.zeros_like(weight))
    if m.bias is None:
        raise ConversionError("%s: torch7's TemporalConvolution always has a bias" % path)
    fields.update(bias=m.bias.detach().clone().to(dtype), gradBias=torch.zeros_like(m.bias, dtype=dtype))
    inner = _t7_module(
        "TemporalConvolution",
        dtype,
        tr,
        inputFrameSize=m.in_channels,
        outputFrameSize=m.out_channels,
        kW=k,
        dW=_tuple1(m.stride),
        **fields,
    )
    return _frames(inner, dtype, tr)


def _max_pool1d(m, dtype, tr, path):
    if m.return_indices or _tuple1(m.dilation) != 1 or _tuple1(m.padding) != 0 or m.ceil_mode:
        raise ConversionError("%s: torch7's TemporalMaxPooling has no padding, dilation, ceil_mode or indices" % path)
    k = _tuple1(m.kernel_size)
    inner = _t7_module("TemporalMaxPooling", dtype, tr, kW=k, dW=_tuple1(m.stride or m.kernel_size))
    return _frames(inner, dtype, tr)


def _tuple1(v):
    return v[0] if isinstance(v, (tuple, list)) else v


def _conv3d(m, dtype, tr, path):
    if m.groups != 1 or m.padding_mode != "zeros" or isinstance(m.padding, str):
        raise ConversionError(
            "%s: torch7 has no volumetric convolution with groups, string padding or padding_mode" % path
        )
    k, d, p, dil = m.kernel_size, m.stride, m.padding, m.dilation
    fields = dict(
        nInputPlane=m.in_channels,
        nOutputPlane=m.out_channels,
        kT=k[0],
        kH=k[1],
        kW=k[2],
        dT=d[0],
        dH=d[1],
        dW=d[2],
        padT=p[0],
        padH=p[1],
        padW=p[2],
        finput=_empty(dtype),
        fgradInput=_empty(dtype),
        **_weights(m, dtype, weight="weight", bias="bias"),
    )
    if tuple(dil) != (1, 1, 1):
        return _t7_module(
            "VolumetricDilatedConvolution", dtype, tr, dilationT=dil[0], dilationH=dil[1], dilationW=dil[2], **fields
        )
    return _t7_module("VolumetricConvolution", dtype, tr, **fields)


def _depthwise(m, dtype, tr, path):
    """Conv2d with groups = in_channels: torch7's SpatialDepthWiseConvolution, whose output plane
    i * multiplier + o uses weight[o][i]."""
    n_in, mult = m.in_channels, m.out_channels // m.in_channels
    kh, kw = m.kernel_size
    weight = m.weight.detach().reshape(n_in, mult, kh, kw).transpose(0, 1).contiguous().to(dtype)
    bias = None if m.bias is None else m.bias.detach().reshape(n_in, mult).t().contiguous().to(dtype)
    fields = dict(weight=weight, gradWeight=torch.zeros_like(weight))
    if bias is not None:
        fields.update(bias=bias, gradBias=torch.zeros_like(bias))
    return _t7_module(
        "SpatialDepthWiseConvolution",
        dtype,
        tr,
        nInputPlane=n_in,
        nOutputPlane=mult,
        kW=kw,
        kH=kh,
        dW=m.stride[1],
        dH=m.stride[0],
        padW=m.padding[1],
        padH=m.padding[0],
        finput=_empty(dtype),
        fgradInput=_empty(dtype),
        **fields,
    )


def _conv_transpose3d(m, dtype, tr, path):
    if m.groups != 1 or _three(m.dilation) != (1, 1, 1):
        raise ConversionError("%s: torch7 has no full convolution with groups or dilation" % path)
    k, d, p, a = m.kernel_size, m.stride, m.padding, m.output_padding
    return _t7_module(
        "VolumetricFullConvolution",
        dtype,
        tr,
        nInputPlane=m.in_channels,
        nOutputPlane=m.out_channels,
        kT=k[0],
        kH=k[1],
        kW=k[2],
        dT=d[0],
        dH=d[1],
        dW=d[2],
        padT=p[0],
        padH=p[1],
        padW=p[2],
        adjT=a[0],
        adjH=a[1],
        adjW=a[2],
        finput=_empty(dtype),
        fgradInput=_empty(dtype),
        **_weights(m, dtype, weight="weight", bias="bias"),
    )


def _pool3d(m, dtype, tr, path):
    k, s, p = (_three(v) for v in (m.kernel_size, m.stride or m.kernel_size, m.padding))
    fields = dict(kT=k[0], kH=k[1], kW=k[2], dT=s[0], dH=s[1], dW=s[2], padT=p[0], padH=p[1], padW=p[2])
    fields["ceil_mode"] = bool(m.ceil_mode)
    if isinstance(m, nn.AvgPool3d):
        if m.divisor_override is not None:
            raise ConversionError("%s: torch7's VolumetricAveragePooling has no divisor_override" % path)
        return _t7_module("VolumetricAveragePooling", dtype, tr, count_include_pad=bool(m.count_include_pad), **fields)
    if m.return_indices:
        raise ConversionError("%s: torch7's VolumetricMaxPooling returns no indices" % path)
    dil = _three(m.dilation)
    if dil != (1, 1, 1):
        return _t7_module(
            "VolumetricDilatedMaxPooling",
            dtype,
            tr,
            dilationT=dil[0],
            dilationH=dil[1],
            dilationW=dil[2],
            indices=_empty(torch.int64),
            **fields,
        )
    return _t7_module("VolumetricMaxPooling", dtype, tr, indices=_empty(torch.int64), **fields)


def _dilated_max_pool2d(m, dtype, tr, path):
    if m.return_indices:
        raise ConversionError("%s: torch7's SpatialMaxPooling returns no indices" % path)
    k, s, p, dil = (_two(v) for v in (m.kernel_size, m.stride or m.kernel_size, m.padding, m.dilation))
    return _t7_module(
        "SpatialDilatedMaxPooling",
        dtype,
        tr,
        kW=k[1],
        kH=k[0],
        dW=s[1],
        dH=s[0],
        padW=p[1],
        padH=p[0],
        dilationW=dil[1],
        dilationH=dil[0],
        ceil_mode=bool(m.ceil_mode),
        indices=_empty(torch.int64),
    )


def _adaptive(m, dtype, tr, path):
    size = _two(m.output_size)
    if None in size:
        raise ConversionError("%s: torch7's adaptive pooling needs both output sizes" % path)
    if isinstance(m, nn.AdaptiveMaxPool2d):
        if m.return_indices:
            raise ConversionError("%s: torch7's SpatialAdaptiveMaxPooling returns no indices" % path)
        return _t7_module("SpatialAdaptiveMaxPooling", dtype, tr, W=size[1], H=size[0], indices=_empty(torch.int64))
    return _t7_module("SpatialAdaptiveAveragePooling", dtype, tr, W=size[1], H=size[0])


def _upsample(m, dtype, tr, path):
    scale = m.scale_factor
    if m.size is not None or scale is None:
        raise ConversionError("%s: torch7's up-sampling modules take a scale factor, not a size" % path)
    scales = set(_two(scale))
    if len(scales) != 1 or float(next(iter(scales))) != int(next(iter(scales))):
        raise ConversionError("%s: torch7's up-sampling needs one integer scale factor, got %r" % (path, scale))
    scale = int(next(iter(scales)))
    if m.mode == "nearest":
        return _t7_module(
            "SpatialUpSamplingNearest",
            dtype,
            tr,
            scale_factor=scale,
            inputSize=torch.LongStorage(4),
            outputSize=torch.LongStorage(4),
        )
    if m.mode == "bilinear" and m.align_corners:
        return _t7_module(
            "SpatialUpSamplingBilinear",
            dtype,
            tr,
            scale_factor=scale,
            inputSize=torch.LongStorage(4),
            outputSize=torch.LongStorage(4),
        )
    raise ConversionError(
        "%s: torch7 up-samples nearest, or bilinear with corners aligned; not mode=%r align_corners=%r"
        % (path, m.mode, m.align_corners)
    )


def _pad2d(name):
    def export(m, dtype, tr, path):
        left, right, top, bottom = m.padding
        return _t7_module(name, dtype, tr, pad_l=left, pad_r=right, pad_t=top, pad_b=bottom)

    return export


def _replication_pad3d(m, dtype, tr, path):
    left, right, top, bottom, front, back = m.padding
    return _t7_module(
        "VolumetricReplicationPadding",
        dtype,
        tr,
        pleft=left,
        pright=right,
        ptop=top,
        pbottom=bottom,
        pfront=front,
        pback=back,
    )


def _prelu(m, dtype, tr, path):
    n = m.num_parameters
    return _t7_module("PReLU", dtype, tr, nOutputPlane=0 if n == 1 else n, **_weights(m, dtype, weight="weight"))


def _embedding(m, dtype, tr, path):
    if m.sparse:
        raise ConversionError("%s: torch7's LookupTable has no sparse gradients" % path)
    return _t7_module(
        "LookupTable",
        dtype,
        tr,
        # torch7 counts ids from 1 and says "no padding" with 0 (Note [1-based fields]: save_lua adds the 1)
        paddingValue=m.padding_idx if m.padding_idx is not None else None,
        maxNorm=m.max_norm,
        normType=float(m.norm_type),
        shouldScaleGradByFreq=bool(m.scale_grad_by_freq),
        _count=_empty(torch.int64),
        _input=_empty(torch.int64),
        **_weights(m, dtype, weight="weight"),
    )


def _glu(m, dtype, tr, path):
    if m.dim >= 0:
        raise ConversionError(
            "%s: GLU(dim=%d) counts the batch dimension; torch7's GatedLinearUnit needs dim counted from the end"
            % (path, m.dim)
        )
    if m.dim != -1:
        raise ConversionError(
            "%s: torch7's GatedLinearUnit works on the last dimension only (dim=-1), not %d" % (path, m.dim)
        )
    return _t7_module("GatedLinearUnit", dtype, tr)


def _criterion(name, dtype, **fields):
    from torch.legacy import nn as legacy_nn

    base = {"output": 0.0, "gradInput": _empty(dtype)}
    base.update(fields)
    return legacy_nn.class_for("nn." + name)(**base)


def _size_average(m, path):
    if m.reduction not in ("mean", "sum"):
        raise ConversionError(
            "%s: torch7's criterions sum or average; reduction=%r has no counterpart" % (path, m.reduction)
        )
    return m.reduction == "mean"


def _loss_weights(m, dtype):
    w = getattr(m, "weight", None)
    return None if w is None else w.detach().clone().to(dtype)


def _class_loss_index(m, path):
    if m.ignore_index >= 0:
        return m.ignore_index  # save_lua makes it 1-based (Note [1-based fields])
    return -100 if m.ignore_index == -100 else m.ignore_index


def _nll_criterion(m, dtype, tr, path):
    fields = dict(
        sizeAverage=_size_average(m, path),
        ignoreIndex=_class_loss_index(m, path),
        output_tensor=torch.zeros(1, dtype=dtype),
        total_weight_tensor=torch.ones(1, dtype=dtype),
    )
    w = _loss_weights(m, dtype)
    if w is not None:
        fields["weights"] = w
    return _criterion("ClassNLLCriterion", dtype, **fields)


def _cross_entropy_criterion(m, dtype, tr, path):
    if m.label_smoothing:
        raise ConversionError("%s: torch7's CrossEntropyCriterion has no label smoothing" % path)
    nll = _nll_criterion(m, dtype, tr, path)
    lsm = _t7_module("LogSoftMax", dtype, tr)
    return _criterion("CrossEntropyCriterion", dtype, lsm=lsm, nll=nll, sizeAverage=nll.sizeAverage)


def _simple_criterion(name, **extra):
    def export(m, dtype, tr, path):
        fields = {"sizeAverage": _size_average(m, path)}
        for t7_name, attr in extra.items():
            fields[t7_name] = float(getattr(m, attr))
        return _criterion(name, dtype, **fields)

    return export


def _bce_criterion(m, dtype, tr, path):
    fields = {"sizeAverage": _size_average(m, path)}
    w = _loss_weights(m, dtype)
    if w is not None:
        fields["weights"] = w
    return _criterion("BCECriterion", dtype, **fields)


def _multi_margin_criterion(m, dtype, tr, path):
    fields = {"sizeAverage": _size_average(m, path), "p": m.p, "margin": float(m.margin)}
    w = _loss_weights(m, dtype)
    if w is not None:
        fields["weights"] = w
    return _criterion("MultiMarginCriterion", dtype, **fields)


def _multilabel_soft_margin_criterion(m, dtype, tr, path):
    if m.reduction != "mean":
        raise ConversionError("%s: torch7's MultiLabelSoftMarginCriterion averages; reduction=%r" % (path, m.reduction))
    bce = _bce_criterion(m, dtype, tr, path)
    return _criterion("MultiLabelSoftMarginCriterion", dtype, lsm=_t7_module("Sigmoid", dtype, tr), nll=bce)


def _kl_div_criterion(m, dtype, tr, path):
    if m.log_target:
        raise ConversionError("%s: torch7's DistKLDivCriterion takes targets as probabilities, not log_target" % path)
    return _simple_criterion("DistKLDivCriterion")(m, dtype, tr, path)


def _smooth_l1_criterion(m, dtype, tr, path):
    if m.beta != 1.0:
        raise ConversionError("%s: torch7's SmoothL1Criterion has beta 1, not %r" % (path, m.beta))
    return _simple_criterion("SmoothL1Criterion")(m, dtype, tr, path)


def _plain(name, **fields):
    return lambda m, dtype, tr, path: _t7_module(name, dtype, tr, **fields)


_EXPORTERS = {
    nn.Conv1d: _conv1d,
    nn.MaxPool1d: _max_pool1d,
    nn.Conv3d: _conv3d,
    nn.ConvTranspose3d: _conv_transpose3d,
    nn.MaxPool3d: _pool3d,
    nn.AvgPool3d: _pool3d,
    nn.AdaptiveMaxPool2d: _adaptive,
    nn.AdaptiveAvgPool2d: _adaptive,
    nn.Upsample: _upsample,
    nn.UpsamplingNearest2d: _upsample,
    nn.UpsamplingBilinear2d: _upsample,
    nn.ZeroPad2d: _pad2d("SpatialZeroPadding"),
    nn.ReflectionPad2d: _pad2d("SpatialReflectionPadding"),
    nn.ReplicationPad2d: _pad2d("SpatialReplicationPadding"),
    nn.ReplicationPad3d: _replication_pad3d,
    nn.PReLU: _prelu,
    nn.Softshrink: lambda m, dtype, tr, path: _t7_module("SoftShrink", dtype, tr, **{"lambda": float(m.lambd)}),
    nn.Hardshrink: lambda m, dtype, tr, path: _t7_module("HardShrink", dtype, tr, **{"lambda": float(m.lambd)}),
    nn.Softmin: lambda m, dtype, tr, path: _softmax_dim(m, path) or _t7_module("SoftMin", dtype, tr),
    nn.Softmax2d: _plain("SpatialSoftMax"),
    nn.RReLU: lambda m, dtype, tr, path: _t7_module(
        "RReLU", dtype, tr, lower=float(m.lower), upper=float(m.upper), inplace=False, noise=_empty(dtype)
    ),
    nn.GLU: _glu,
    nn.PixelShuffle: lambda m, dtype, tr, path: _t7_module(
        "PixelShuffle", dtype, tr, upscaleFactor=m.upscale_factor, upscaleFactorSquared=m.upscale_factor**2
    ),
    nn.Embedding: _embedding,
    nn.Bilinear: lambda m, dtype, tr, path: _t7_module(
        "Bilinear",
        dtype,
        tr,
        gradInput=[_empty(dtype), _empty(dtype)],
        **_weights(m, dtype, weight="weight", bias="bias"),
    ),
    nn.MSELoss: _simple_criterion("MSECriterion"),
    nn.L1Loss: _simple_criterion("AbsCriterion"),
    nn.SmoothL1Loss: _smooth_l1_criterion,
    nn.SoftMarginLoss: _simple_criterion("SoftMarginCriterion"),
    nn.KLDivLoss: _kl_div_criterion,
    nn.BCELoss: _bce_criterion,
    nn.NLLLoss: _nll_criterion,
    nn.CrossEntropyLoss: _cross_entropy_criterion,
    nn.MultiMarginLoss: _multi_margin_criterion,
    nn.MultiLabelMarginLoss: lambda m, dtype, tr, path: _criterion(
        "MultiLabelMarginCriterion", dtype, sizeAverage=_size_average(m, path), isTarget=_empty(dtype)
    ),
    nn.MultiLabelSoftMarginLoss: _multilabel_soft_margin_criterion,
    nn.HingeEmbeddingLoss: _simple_criterion("HingeEmbeddingCriterion", margin="margin"),
    nn.CosineEmbeddingLoss: _simple_criterion("CosineEmbeddingCriterion", margin="margin"),
    nn.MarginRankingLoss: _simple_criterion("MarginRankingCriterion", margin="margin"),
}


def _softmax_dim(m, path):
    if m.dim not in (1, -1, None):
        raise ConversionError(
            "%s: torch7's SoftMin works over dimension 1 of a batch; dim=%r cannot be kept" % (path, m.dim)
        )


_NO_NN = "torch7's nn has no such module"
_FRAMES = "torch7's temporal modules take frames as rows ([T, F]), not channels ([C, L]); not written yet (issue 23)"
# torch.nn modules with no torch7 nn counterpart, and why
NO_TORCH7 = {
    nn.SyncBatchNorm: "torch7 had no multi-process training; load its state_dict into an nn.BatchNorm*d",
    nn.Container: "the deprecated base class of containers holds no computation",
    nn.AdaptiveLogSoftmaxWithLoss: "torch7's nn had no adaptive softmax (a criterion and a module in one)",
    nn.FractionalMaxPool2d: "torch7's SpatialFractionalMaxPooling draws its windows from torch7's stream",
    nn.FractionalMaxPool3d: "torch7's VolumetricFractionalMaxPooling draws its windows from torch7's stream",
    nn.LSTM: "recurrent layers live in torch7's rnn package, not in nn",
    nn.GRU: "recurrent layers live in torch7's rnn package, not in nn",
    nn.RNN: "recurrent layers live in torch7's rnn package, not in nn",
    nn.LSTMCell: "recurrent layers live in torch7's rnn package, not in nn",
    nn.GRUCell: "recurrent layers live in torch7's rnn package, not in nn",
    nn.RNNCell: "recurrent layers live in torch7's rnn package, not in nn",
    nn.LayerNorm: _NO_NN,
    nn.GroupNorm: _NO_NN,
    nn.InstanceNorm1d: _NO_NN,
    nn.InstanceNorm2d: _NO_NN,
    nn.InstanceNorm3d: _NO_NN,
    nn.GELU: _NO_NN,
    nn.MultiheadAttention: "attention was never part of torch7's nn",
    nn.modules.linear.NonDynamicallyQuantizableLinear: "attention was never part of torch7's nn",
    nn.Transformer: "attention was never part of torch7's nn",
    nn.TransformerEncoder: "attention was never part of torch7's nn",
    nn.TransformerDecoder: "attention was never part of torch7's nn",
    nn.TransformerEncoderLayer: "attention was never part of torch7's nn",
    nn.TransformerDecoderLayer: "attention was never part of torch7's nn",
    nn.SiLU: _NO_NN,
    nn.Mish: _NO_NN,
    nn.SELU: _NO_NN,
    nn.CELU: _NO_NN,
    nn.Hardswish: _NO_NN,
    nn.Hardsigmoid: _NO_NN,
    nn.AlphaDropout: _NO_NN,
    nn.FeatureAlphaDropout: _NO_NN,
    nn.Dropout1d: "torch7's feature dropouts scale at evaluation, not in training",
    nn.Dropout2d: "torch7's SpatialDropout scales at evaluation, not in training",
    nn.Dropout3d: "torch7's VolumetricDropout scales at evaluation, not in training",
    nn.EmbeddingBag: _NO_NN,
    nn.Fold: _NO_NN,
    nn.Unfold: _NO_NN,
    nn.PixelUnshuffle: _NO_NN,
    nn.ChannelShuffle: _NO_NN,
    # a lazy module has no parameters before its first forward, and becomes the plain class after it
    **{
        getattr(nn, "Lazy" + name): "a lazy module has no parameters yet: run a forward pass through it first"
        for name in (
            "Linear Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d BatchNorm1d BatchNorm2d "
            "BatchNorm3d InstanceNorm1d InstanceNorm2d InstanceNorm3d"
        ).split()
    },
    nn.Unflatten: _NO_NN,
    nn.CosineSimilarity: "torch7's CosineDistance takes a table and another epsilon",
    nn.PairwiseDistance: "torch7's PairwiseDistance takes a table and has no epsilon",
    nn.BCEWithLogitsLoss: _NO_NN,
    nn.CTCLoss: _NO_NN,
    nn.GaussianNLLLoss: _NO_NN,
    nn.HuberLoss: _NO_NN,
    nn.PoissonNLLLoss: _NO_NN,
    nn.TripletMarginLoss: _NO_NN,
    nn.TripletMarginWithDistanceLoss: _NO_NN,
    nn.NLLLoss2d: "use NLLLoss (torch7's SpatialClassNLLCriterion reads as NLLLoss)",
    nn.MaxUnpool1d: "torch7's unpooling modules need their pooling module",
    nn.MaxUnpool2d: "torch7's unpooling modules need their pooling module",
    nn.MaxUnpool3d: "torch7's unpooling modules need their pooling module",
    nn.ModuleDict: "a container without a forward",
    nn.ModuleList: "a container without a forward",
    nn.ParameterDict: "a container without a forward",
    nn.ParameterList: "a container without a forward",
    nn.Module: "a base class",
    nn.ConvTranspose1d: _FRAMES,
    nn.AvgPool1d: _FRAMES,
    nn.AdaptiveMaxPool1d: _NO_NN,
    nn.AdaptiveAvgPool1d: _NO_NN,
    nn.AdaptiveMaxPool3d: _NO_NN,
    nn.AdaptiveAvgPool3d: _NO_NN,
    nn.LPPool1d: _NO_NN,
    nn.LPPool2d: "torch7's SpatialLPPooling is a Sequential of four modules; not written yet (issue 23)",
    nn.ConstantPad1d: "torch7's nn.Padding pads one dimension a module; not written yet (issue 23)",
    nn.ConstantPad2d: "torch7's nn.Padding pads one dimension a module; not written yet (issue 23)",
    nn.ConstantPad3d: "torch7's nn.Padding pads one dimension a module; not written yet (issue 23)",
    nn.ReflectionPad1d: _NO_NN,
    nn.ReflectionPad3d: _NO_NN,
    nn.ReplicationPad1d: _NO_NN,
    nn.RNNBase: "a base class",
    nn.RNNCellBase: "a base class",
}


def _children(m, dtype, path):
    return [_to_legacy(c, dtype, "%s.%d" % (path, i + 1)) for i, c in enumerate(m.children())]


def _storage(values):
    return torch.tensor([int(v) for v in values], dtype=torch.int64).storage()


def _runtime_exporters():
    """The converter's runtime modules (a converted torch7 model is made of them) back to the
    torch7 classes they stand for; dimensions stay 0-based here (save_lua makes them 1-based,
    Note [1-based fields])."""
    from torch.utils.convert_t7 import layers, runtime

    def view(m, dtype, tr, path):
        fields = dict(size=_storage(m.sizes), numElements=m.num_elements)
        if m.num_input_dims is not None:
            fields["numInputDims"] = m.num_input_dims
        return _t7_module("View", dtype, tr, **fields)

    def reshape(m, dtype, tr, path):
        fields = dict(size=_storage(m.sizes), nelement=m.num_elements, batchsize=_storage([1] + m.sizes))
        if m.batch_mode is not None:
            fields["batchMode"] = bool(m.batch_mode)
        return _t7_module("Reshape", dtype, tr, **fields)

    def softmax(m, dtype, tr, path):
        if m.log and m.negate:
            raise ConversionError("%s: torch7 has no log-softmin" % path)
        return _t7_module("LogSoftMax" if m.log else "SoftMin" if m.negate else "SoftMax", dtype, tr)

    def dropout(m, dtype, tr, path):
        if m.spatial:
            return _t7_module("SpatialDropout", dtype, tr, p=float(m.p), noise=_empty(dtype))
        return _t7_module("Dropout", dtype, tr, p=float(m.p), v2=not m.v1, inplace=False, noise=_empty(dtype))

    def affine(m, dtype, tr, path):
        mul = _t7_module("MulConstant", dtype, tr, constant_scalar=float(m.scale), inplace=False)
        add = _t7_module("AddConstant", dtype, tr, constant_scalar=float(m.shift), inplace=False)
        if m.shift == 0.0:
            return mul
        if m.scale == 1.0:
            return add
        return _t7_module("Sequential", dtype, tr, modules=[mul, add])

    def pointwise(m, dtype, tr, path):
        if m.fn == "pow":
            return _t7_module("Power", dtype, tr, pow=float(m.arg))
        return _t7_module(m.fn.capitalize(), dtype, tr)

    def table_op(m, dtype, tr, path):
        name = "C%sTable" % m.op.capitalize()
        if m.op in ("max", "min"):  # torch7's CMinTable is a CMaxTable comparing the other way
            return _t7_module(name, dtype, tr, gradInput=[], sign=1 if m.op == "max" else -1)
        return _t7_module(name, dtype, tr, gradInput=[], inplace=False)

    def container(name):
        return lambda m, dtype, tr, path: _t7_module(
            name, dtype, tr, modules=_children(m, dtype, path), output=[], gradInput=[]
        )

    def concat(m, dtype, tr, path):
        name = "DepthConcat" if isinstance(m, runtime.DepthConcat) else "Concat"
        return _t7_module(name, dtype, tr, dimension=m.dim, modules=_children(m, dtype, path))

    def reduce(m, dtype, tr, path):
        fields = dict(dimension=m.dim)
        if m.n_input_dims is not None:
            fields["nInputDims"] = m.n_input_dims
        if m.op in ("sum", "mean"):
            fields["squeeze"] = bool(m.squeeze)
            return _t7_module("Sum" if m.op == "sum" else "Mean", dtype, tr, sizeAverage=m.op == "mean", **fields)
        return _t7_module(m.op.capitalize(), dtype, tr, **fields)

    def with_params(name, *names, **extra):
        def export(m, dtype, tr, path):
            fields = {k: getattr(m, a) for k, a in extra.items()}
            return _t7_module(name, dtype, tr, **fields, **_weights(m, dtype, **{n: n for n in names}))

        return export

    return {
        runtime.View: view,
        runtime.Reshape: reshape,
        runtime.SoftMax: softmax,
        runtime.Dropout: dropout,
        runtime.Affine: affine,
        runtime.Pointwise: pointwise,
        runtime.TableOp: table_op,
        runtime.ConcatTable: container("ConcatTable"),
        runtime.ParallelTable: container("ParallelTable"),
        runtime.Concat: concat,
        runtime.DepthConcat: concat,
        runtime.JoinTable: lambda m, dtype, tr, path: _t7_module(
            "JoinTable",
            dtype,
            tr,
            dimension=m.dim,
            **({} if m.n_input_dims is None else {"nInputDims": m.n_input_dims}),
        ),
        runtime.SelectTable: lambda m, dtype, tr, path: _t7_module("SelectTable", dtype, tr, index=m.index),
        runtime.Narrow: lambda m, dtype, tr, path: _t7_module(
            "Narrow", dtype, tr, dimension=m.dim, index=m.offset, length=m.length
        ),
        runtime.Select: lambda m, dtype, tr, path: _t7_module("Select", dtype, tr, dimension=m.dim, index=m.index),
        runtime.Transpose: lambda m, dtype, tr, path: _t7_module(
            "Transpose", dtype, tr, permutations=[list(p) for p in m.pairs]
        ),
        runtime.Reduce: reduce,
        runtime.Unsqueeze: lambda m, dtype, tr, path: _t7_module(
            "Unsqueeze",
            dtype,
            tr,
            pos=m.dim,
            **({} if m.num_input_dims is None else {"numInputDims": m.num_input_dims}),
        ),
        layers.CAdd: with_params("CAdd", "bias"),
        layers.CMul: with_params("CMul", "weight"),
        layers.Mul: with_params("Mul", "weight"),
        layers.Add: with_params("Add", "bias", scalar="scalar"),
        layers.TemporalConvolution: with_params(
            "TemporalConvolution", "weight", "bias", inputFrameSize="n_in", outputFrameSize="n_out", kW="kw", dW="dw"
        ),
        layers.Cosine: with_params("Cosine", "weight"),
        layers.Euclidean: with_params("Euclidean", "weight"),
    }


# the classes _to_legacy's own branches export, before _EXPORTERS
# Modules that only run another (m.module) on several devices or processes.
_WRAPPERS = (nn.DataParallel, nn.parallel.DistributedDataParallel)

_BRANCHES = (
    nn.Sequential,
    nn.Linear,
    nn.Conv2d,
    nn.ConvTranspose2d,
    nn.BatchNorm1d,
    nn.BatchNorm2d,
    nn.BatchNorm3d,
    nn.MaxPool2d,
    nn.AvgPool2d,
    nn.ReLU,
    nn.Threshold,
    nn.ReLU6,
    nn.Tanh,
    nn.Sigmoid,
    nn.Softsign,
    nn.LogSigmoid,
    nn.Tanhshrink,
    nn.Identity,
    nn.LeakyReLU,
    nn.ELU,
    nn.Hardtanh,
    nn.Softplus,
    nn.Softmax,
    nn.LogSoftmax,
    nn.Dropout,
    nn.Flatten,
    nn.LocalResponseNorm,
    nn.CrossMapLRN2d,
)


def exportable_classes():
    """The torch.nn classes to_t7 writes (each tested against Lua nn in
    tests/python/test_convert_t7_to_t7.py); NO_TORCH7 says why the others are refused."""
    # DistributedDataParallel unwraps as DataParallel does (it needs a process group to exist)
    return list(_BRANCHES) + list(_EXPORTERS) + [nn.DataParallel]


def _two(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def to_t7(module, path=None, format="binary", dtype=None):
    """module as torch7 nn objects, with torch7's field names, 1-based where torch7 counts
    and its default buffers; written with save_lua when path is given. Returns the objects.
    exportable_classes() lists the torch.nn classes it writes; any other module raises
    ConversionError naming it (NO_TORCH7 says why). The element type is the parameters'
    (float or double), or dtype for a model without parameters (default float32)."""
    if dtype is None or any(True for _ in module.parameters()):
        dtype = _model_dtype(module)
    if dtype not in _TYPE_NAMES:
        raise ConversionError("to_t7: parameters of type %s; torch7 models are float or double" % dtype)
    legacy = _to_legacy(module, dtype, "model")
    if path is not None:
        save_lua(legacy, path, format=format)
    return legacy
