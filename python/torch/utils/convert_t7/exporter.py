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
    if t is nn.Sequential:
        return _t7_module(
            "Sequential",
            dtype,
            tr,
            modules=[_to_legacy(c, dtype, "%s.%d" % (path, i + 1)) for i, c in enumerate(m.children())],
        )
    if t is nn.Linear:
        return _t7_module("Linear", dtype, tr, **_weights(m, dtype, weight="weight", bias="bias"))
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
        if t is nn.MaxPool2d:
            if _two(m.dilation) != (1, 1) or m.return_indices:
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
    if t is nn.LocalResponseNorm:
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
    raise ConversionError("%s: no torch7 equivalent for %s" % (path, t.__name__))


def _two(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def to_t7(module, path=None, format="binary"):
    """module (Sequential of Linear, Conv2d, ConvTranspose2d, BatchNorm, MaxPool2d, AvgPool2d,
    activations, Softmax/LogSoftmax over dimension 1, Dropout, Flatten, LocalResponseNorm,
    Identity) as torch7 nn objects, with torch7's field names, 1-based where torch7 counts
    and its default buffers; written with save_lua when path is given. Returns the objects."""
    dtype = _model_dtype(module)
    if dtype not in _TYPE_NAMES:
        raise ConversionError("to_t7: parameters of type %s; torch7 models are float or double" % dtype)
    legacy = _to_legacy(module, dtype, "model")
    if path is not None:
        save_lua(legacy, path, format=format)
    return legacy
