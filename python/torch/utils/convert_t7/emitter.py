"""emit_python: Python source defining a converted model's class, so that the saved state_dict
loads without the converter; the runtime modules describe their own constructor arguments."""

import inspect
import math

import torch
from torch import nn
from torch.utils.convert_t7.errors import ConversionError
from torch.utils.convert_t7.model_dtype import _model_dtype
from torch.utils.convert_t7.runtime import _T7Module


def _nn_ctor(m):
    """(class expression, args, kwargs) rebuilding the torch.nn module m."""
    t = type(m)
    name = "nn." + t.__name__

    def pair(v):
        return tuple(v) if isinstance(v, (tuple, list)) else v

    if t is nn.Sequential:
        return name, list(m.children()), {}
    if t is nn.Linear:
        return name, [m.in_features, m.out_features], {"bias": m.bias is not None}
    if t in (nn.Conv1d, nn.Conv2d, nn.Conv3d):
        return (
            name,
            [m.in_channels, m.out_channels, pair(m.kernel_size)],
            {
                "stride": pair(m.stride),
                "padding": pair(m.padding),
                "dilation": pair(m.dilation),
                "groups": m.groups,
                "bias": m.bias is not None,
            },
        )
    if t in (nn.ConvTranspose2d, nn.ConvTranspose3d):
        return (
            name,
            [m.in_channels, m.out_channels, pair(m.kernel_size)],
            {
                "stride": pair(m.stride),
                "padding": pair(m.padding),
                "output_padding": pair(m.output_padding),
                "bias": m.bias is not None,
            },
        )
    if t in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d):
        return name, [m.num_features], {"eps": m.eps, "momentum": m.momentum, "affine": m.affine}
    if t in (nn.MaxPool2d, nn.MaxPool3d):
        return (
            name,
            [pair(m.kernel_size)],
            {
                "stride": pair(m.stride),
                "padding": pair(m.padding),
                "dilation": pair(m.dilation),
                "ceil_mode": m.ceil_mode,
            },
        )
    if t is nn.AvgPool2d:
        return (
            name,
            [pair(m.kernel_size)],
            {
                "stride": pair(m.stride),
                "padding": pair(m.padding),
                "ceil_mode": m.ceil_mode,
                "count_include_pad": m.count_include_pad,
            },
        )
    if t is nn.AvgPool3d:
        return (
            name,
            [pair(m.kernel_size)],
            {"stride": pair(m.stride), "padding": pair(m.padding), "ceil_mode": m.ceil_mode},
        )
    if t in (nn.AdaptiveMaxPool2d, nn.AdaptiveAvgPool2d):
        return name, [pair(m.output_size)], {}
    if t is nn.LocalResponseNorm:
        return name, [m.size], {"alpha": m.alpha, "beta": m.beta, "k": m.k}
    if t is nn.Threshold:
        return name, [m.threshold, m.value], {}
    if t is nn.Hardtanh:
        return name, [m.min_val, m.max_val], {}
    if t is nn.LeakyReLU:
        return name, [m.negative_slope], {}
    if t is nn.ELU:
        return name, [m.alpha], {}
    if t is nn.PReLU:
        return name, [m.num_parameters], {}
    if t is nn.Softplus:
        return name, [], {"beta": m.beta, "threshold": m.threshold}
    if t in (nn.Softshrink, nn.Hardshrink):
        return name, [m.lambd], {}
    if t in (nn.Dropout, nn.Dropout2d):
        return name, [m.p], {}
    if t in (nn.Softmax, nn.LogSoftmax):
        return name, [], {"dim": m.dim}
    if t is nn.Flatten:
        return name, [], {"start_dim": m.start_dim, "end_dim": m.end_dim}
    if t is nn.Upsample:
        return name, [], {"scale_factor": m.scale_factor, "mode": m.mode}
    if t in (nn.ZeroPad2d, nn.ReflectionPad2d, nn.ReplicationPad2d):
        return name, [pair(m.padding)], {}
    if t in (nn.ReLU, nn.ReLU6, nn.Tanh, nn.Sigmoid, nn.Softsign, nn.LogSigmoid, nn.Tanhshrink, nn.Identity):
        return name, [], {}
    if t is nn.Embedding:
        return (
            name,
            [m.num_embeddings, m.embedding_dim],
            {
                "padding_idx": m.padding_idx,
                "max_norm": m.max_norm,
                "norm_type": m.norm_type,
                "scale_grad_by_freq": m.scale_grad_by_freq,
            },
        )
    if t is nn.GLU:
        return name, [m.dim], {}
    if t is nn.PixelShuffle:
        return name, [m.upscale_factor], {}
    if t is nn.RReLU:
        return name, [m.lower, m.upper], {}
    if t is nn.ReplicationPad3d:
        return name, [pair(m.padding)], {}
    if t in _LOSS_OPTIONS:
        kwargs = {k: getattr(m, k) for k in _LOSS_OPTIONS[t]}
        if "weight" in kwargs:
            w = kwargs["weight"]
            kwargs["weight"] = None if w is None else _Expr("torch.zeros(%d)" % w.numel())
        if "ignore_index" in kwargs:
            kwargs["ignore_index"] = m.ignore_index
        kwargs["reduction"] = m.reduction
        return name, [], kwargs
    raise ConversionError("emit_python: no constructor known for %s" % t.__name__)


class _Expr(str):
    """Python source written as it is (a constructor argument rebuilt by load_state_dict)."""

    def __repr__(self):
        return str(self)


# torch.nn losses: the constructor arguments each keeps as an attribute of the same name
_LOSS_OPTIONS = {
    nn.MSELoss: (),
    nn.L1Loss: (),
    nn.SmoothL1Loss: (),
    nn.SoftMarginLoss: (),
    nn.KLDivLoss: (),
    nn.BCELoss: ("weight",),
    nn.NLLLoss: ("weight", "ignore_index"),
    nn.CrossEntropyLoss: ("weight", "ignore_index"),
    nn.MultiMarginLoss: ("p", "margin", "weight"),
    nn.MultiLabelMarginLoss: (),
    nn.MultiLabelSoftMarginLoss: ("weight",),
    nn.HingeEmbeddingLoss: ("margin",),
    nn.CosineEmbeddingLoss: ("margin",),
    nn.MarginRankingLoss: ("margin",),
}

# Note [Indices shifted once] (layers.py), written into the emitted source next to each module
_ZERO_BASED = {
    nn.Embedding: "takes 0-based ids: torch7's LookupTable ids less 1",
    nn.NLLLoss: "takes 0-based classes: torch7's targets less 1",
    nn.CrossEntropyLoss: "takes 0-based classes: torch7's targets less 1",
    nn.MultiMarginLoss: "takes 0-based classes: torch7's targets less 1",
    nn.MultiLabelMarginLoss: "takes 0-based classes ended by -1: torch7's targets (ended by 0) less 1",
}


def _index_notes(module):
    notes = []
    for name, m in module.named_modules():
        why = _ZERO_BASED.get(type(m)) or getattr(m, "index_note", None)
        if why:
            notes.append("%s (%s) %s" % (name or "the model", type(m).__name__, why))
    return notes


def _without_defaults(cls, kwargs):
    """kwargs less those equal to cls's defaults (an int default matches a tuple of it)."""
    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return kwargs
    out = {}
    for k, v in kwargs.items():
        default = params[k].default if k in params else inspect.Parameter.empty
        same = v == default or (
            isinstance(v, tuple) and not isinstance(default, tuple) and all(x == default for x in v)
        )
        if not same or isinstance(v, bool) != isinstance(default, bool):
            out[k] = v
    return out


def _ctor(m):
    if isinstance(m, _T7Module):
        args, kwargs = m._t7_args()
        return type(m).__name__, args, _without_defaults(type(m), kwargs)
    cls, args, kwargs = _nn_ctor(m)
    return cls, args, _without_defaults(type(m), kwargs)


def _render(value, indent, helpers):
    if isinstance(value, nn.Module):
        cls, args, kwargs = _ctor(value)
        if not cls.startswith("nn."):
            helpers.add(cls)
        parts = [_render(a, indent + 4, helpers) for a in args]
        parts += ["%s=%s" % (k, _render(v, indent + 4, helpers)) for k, v in kwargs.items()]
        inline = "%s(%s)" % (cls, ", ".join(parts))
        if len(inline) + indent <= 100 and "\n" not in inline:
            return inline
        pad = " " * (indent + 4)
        return "%s(\n%s%s,\n%s)" % (cls, pad, (",\n" + pad).join(parts), " " * indent)
    if isinstance(value, list) and any(isinstance(v, nn.Module) for v in value):
        pad = " " * (indent + 4)
        return "[\n%s%s,\n%s]" % (pad, (",\n" + pad).join(_render(v, indent + 4, helpers) for v in value), " " * indent)
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return "float('%s')" % value
    return repr(value)


def emit_python(module, path=None, class_name="Model"):
    """Python source defining `class <class_name>` whose instances have module's structure, so
    that Model().load_state_dict(module.state_dict()) gives module again. Written to path
    when given; the source is returned."""
    helpers = set()
    cls, args, kwargs = _ctor(module)
    if not cls.startswith("nn."):
        helpers.add(cls)
    parts = [_render(a, 12, helpers) for a in args] + [
        "%s=%s" % (k, _render(v, 12, helpers)) for k, v in kwargs.items()
    ]
    body = ",\n            ".join(parts)
    notes = _index_notes(module)
    doc = '"""%s: converted from a torch7 model by torch.utils.convert_t7.' % class_name
    if notes:
        doc += "\n\nIndices shifted once (torch7 counts from 1, torch.nn from 0):\n" + "".join(
            "- %s\n" % n for n in notes
        )
    lines = [
        doc + '"""',
        "",
        "import torch",
        "from torch import nn",
    ]
    if helpers:
        lines.append("from torch.utils.convert_t7 import %s" % ", ".join(sorted(helpers)))
    lines += [
        "",
        "",
        "class %s(%s):" % (class_name, cls),
        "    def __init__(self):",
        "        super().__init__(" + ("\n            " + body + ",\n        " if parts else "") + ")",
    ]
    names = {}
    for name, m in module.named_modules():
        names.setdefault(id(m), name)
    for name, m in module.named_modules():
        target = m._t7_link() if hasattr(m, "_t7_link") else None
        if target is not None:
            if id(target) not in names:
                raise ConversionError("emit_python: %s is linked to a module outside the model" % name)
            lines.append("        self.get_submodule(%r).link(self.get_submodule(%r))" % (name, names[id(target)]))
    dtype = _model_dtype(module)
    if dtype != torch.float32:  # load_state_dict keeps the module's own element type
        lines.append("        self.to(%s)" % dtype)
    lines += [
        "",
        "",
        "def load(state_dict_path):",
        '    """A %s with the weights saved at state_dict_path (torch.save of its state_dict)."""' % class_name,
        "    model = %s()" % class_name,
        "    model.load_state_dict(torch.load(state_dict_path))",
        "    return model",
        "",
    ]
    source = "\n".join(lines)
    if path is not None:
        with open(path, "w") as f:
            f.write(source)
    return source
