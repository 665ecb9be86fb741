"""nn.Lazy*: modules whose input size is read from their first input, as in PyTorch 1.13.

Note [Materialising a lazy module]: before its first forward a lazy module holds
UninitializedParameter/UninitializedBuffer placeholders. The first call builds the eager
module (LazyLinear -> Linear, ...) with the input's size, exactly as the user would have with
the size known, so its initialisation draws the same random numbers PyTorch's lazy module
does; then the placeholders take that module's data in place (an optimizer made before the
first call keeps working), its attributes are adopted, and the module becomes an instance of
the eager class. Loading a state_dict into a lazy module materialises it from the saved
shapes instead.
"""

import torch
from torch.nn.parameter import UninitializedBuffer, UninitializedParameter

from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .module import Module

__all__ = [
    "UninitializedParameter",
    "UninitializedBuffer",
    "LazyModuleMixin",
    "LazyLinear",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]


def _module_internals():
    """The attributes every Module has (its registries, hooks and mode)."""
    if not hasattr(_module_internals, "keys"):
        _module_internals.keys = frozenset(vars(Module()))
    return _module_internals.keys


def is_lazy(t):
    return isinstance(t, (UninitializedParameter, UninitializedBuffer))


class LazyModuleMixin:
    """Subclasses set cls_to_become and define _input_size(input) and
    _size_from_state(prefix, state_dict); their __init__ calls _lazy_init(args, kwargs)."""

    cls_to_become = None

    def _lazy_init(self, parameters, buffers, args, kwargs):
        Module.__init__(self)
        self._lazy_args, self._lazy_kwargs = args, kwargs
        dtype, device = kwargs.get("dtype"), kwargs.get("device")
        for name in parameters:
            self.register_parameter(name, UninitializedParameter(device=device, dtype=dtype))
        for name in buffers:
            self.register_buffer(name, UninitializedBuffer(device=device, dtype=dtype))
        self._lazy_hook = self.register_forward_pre_hook(LazyModuleMixin._infer_parameters)

    def has_uninitialized_params(self):
        return any(is_lazy(t) for t in (*self._parameters.values(), *self._buffers.values()) if t is not None)

    def initialize_parameters(self, *inputs):
        self._materialize(self._input_size(inputs[0]))

    def _infer_parameters(self, inputs):
        # once: materialising removes this hook (a module without parameters, such as
        # LazyInstanceNorm2d(), still learns its size and becomes the eager class)
        self.initialize_parameters(*inputs)

    def _materialize(self, size):
        """Note [Materialising a lazy module]."""
        eager = self.cls_to_become(size, *self._lazy_args, **self._lazy_kwargs)
        for name, value in eager._parameters.items():
            mine = self._parameters.get(name)
            if isinstance(mine, UninitializedParameter) and value is not None:
                # on the placeholder's device and in its type (.cuda()/.double() before the first call)
                mine.materialize(value.shape, dtype=mine.dtype)
                with torch.no_grad():
                    mine.copy_(value)
                mine.requires_grad_(value.requires_grad)
            else:
                self._parameters[name] = value
        for name, value in eager._buffers.items():
            mine = self._buffers.get(name)
            if isinstance(mine, UninitializedBuffer) and value is not None:
                self._buffers[name] = value.to(mine.device, mine.dtype if value.is_floating_point() else value.dtype)
            elif name not in self._buffers or mine is None:
                self._buffers[name] = value
        internals = _module_internals()
        for key, value in vars(eager).items():
            if key not in internals:  # in_features, padding, ... (not the registries and hooks)
                self.__dict__[key] = value
        self._lazy_hook.remove()
        for key in ("_lazy_args", "_lazy_kwargs", "_lazy_hook"):
            self.__dict__.pop(key, None)
        self.__class__ = self.cls_to_become

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        if self.has_uninitialized_params():
            size = self._size_from_state(prefix, state_dict)
            if size is not None:
                self._materialize(size)
        return Module._load_from_state_dict(
            self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )

    def extra_repr(self):
        return "(uninitialized)"


class LazyLinear(LazyModuleMixin, Linear):
    """Linear with in_features read from the first input's last dimension."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        self._lazy_init(
            ["weight"] + (["bias"] if bias else []), [], (out_features, bias), {"device": device, "dtype": dtype}
        )
        self.out_features = out_features
        if not bias:
            self.register_parameter("bias", None)

    def _input_size(self, input):
        return input.shape[-1]

    def _size_from_state(self, prefix, state_dict):
        w = state_dict.get(prefix + "weight")
        return None if w is None else w.shape[1]


class _LazyConvMixin(LazyModuleMixin):
    """Conv*d and ConvTranspose*d with in_channels read from the first input."""

    _dims = 2
    _transposed = False

    def __init__(self, out_channels, kernel_size, *args, bias=True, **kwargs):
        self._lazy_init(
            ["weight"] + (["bias"] if bias else []), [], (out_channels, kernel_size, *args), dict(kwargs, bias=bias)
        )
        self.out_channels = out_channels
        if not bias:
            self.register_parameter("bias", None)

    def _input_size(self, input):
        # a batch (N, C, ...) or one unbatched sample (C, ...)
        return input.shape[1] if input.dim() == self._dims + 2 else input.shape[0]

    def _size_from_state(self, prefix, state_dict):
        w = state_dict.get(prefix + "weight")
        if w is None:
            return None
        groups = self._lazy_kwargs.get("groups", 1)
        return w.shape[0] if self._transposed else w.shape[1] * groups


class LazyConv1d(_LazyConvMixin, Conv1d):
    cls_to_become, _dims = Conv1d, 1


class LazyConv2d(_LazyConvMixin, Conv2d):
    cls_to_become, _dims = Conv2d, 2


class LazyConv3d(_LazyConvMixin, Conv3d):
    cls_to_become, _dims = Conv3d, 3


class LazyConvTranspose1d(_LazyConvMixin, ConvTranspose1d):
    cls_to_become, _dims, _transposed = ConvTranspose1d, 1, True


class LazyConvTranspose2d(_LazyConvMixin, ConvTranspose2d):
    cls_to_become, _dims, _transposed = ConvTranspose2d, 2, True


class LazyConvTranspose3d(_LazyConvMixin, ConvTranspose3d):
    cls_to_become, _dims, _transposed = ConvTranspose3d, 3, True


class _LazyNormMixin(LazyModuleMixin):
    """BatchNorm*d and InstanceNorm*d with num_features read from the first input. Both default
    to affine=True and track_running_stats=True, the lazy instance norms too (PyTorch 1.13's
    LazyInstanceNorm*d do, unlike InstanceNorm*d)."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        track = track_running_stats
        self._lazy_init(
            ["weight", "bias"] if affine else [],
            ["running_mean", "running_var"] if track else [],
            (eps, momentum, affine, track),
            {"device": device, "dtype": dtype},
        )
        self.eps, self.momentum, self.affine, self.track_running_stats = eps, momentum, affine, track
        if track:
            self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long, device=device))

    def _input_size(self, input):
        return input.shape[1] if input.dim() > 1 else input.shape[0]

    def _size_from_state(self, prefix, state_dict):
        for name in ("weight", "running_mean"):
            t = state_dict.get(prefix + name)
            if t is not None:
                return t.shape[0]
        return None


class LazyBatchNorm1d(_LazyNormMixin, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormMixin, BatchNorm2d):
    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormMixin, BatchNorm3d):
    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormMixin, InstanceNorm1d):
    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormMixin, InstanceNorm2d):
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormMixin, InstanceNorm3d):
    cls_to_become = InstanceNorm3d
