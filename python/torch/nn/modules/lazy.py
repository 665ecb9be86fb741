"""Lazy modules: layers whose input size is read from their first input.

A lazy module (LazyLinear(out_features), LazyConv2d(out_channels, kernel_size), ...) starts with
UninitializedParameters. Its first forward runs initialize_parameters(input), which gives them
their shapes and PyTorch's initialization, and then the module becomes the plain class
(cls_to_become: Linear, Conv2d, ...), as in PyTorch.
"""

import torch
from torch.nn.parameter import UninitializedBuffer, UninitializedParameter

__all__ = ["LazyModuleMixin"]


def _is_lazy(t):
    return isinstance(t, (UninitializedParameter, UninitializedBuffer))


class LazyModuleMixin:
    """Mixed in before the layer's class: class LazyLinear(LazyModuleMixin, Linear)."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._await_first_input()

    def _await_first_input(self):
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters)

    def has_uninitialized_params(self):
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(_is_lazy(t) for t in tensors)

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError("initialize_parameters is not implemented for {}".format(self.__class__.__name__))

    def _materialize_buffer(self, name, shape):
        buffer = self._buffers.get(name)
        if isinstance(buffer, UninitializedBuffer):
            self._buffers[name] = buffer.materialize(shape)


def _infer_parameters(module, input):
    module.initialize_parameters(*input)
    if module.has_uninitialized_params():
        raise RuntimeError("module {} has not been fully initialized".format(module._get_name()))
    module._initialize_hook.remove()
    del module._initialize_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class _LazyConvMixin(LazyModuleMixin):
    """in_channels from dim 1 of a batched input (dim 0 of an unbatched one)."""

    def _make_lazy(self, out_channels, bias, dtype):
        self._await_first_input()
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        with torch.no_grad():
            self.in_channels = input.shape[1] if input.dim() == self._dims + 2 else input.shape[0]
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups) + tuple(self.kernel_size)
            else:
                shape = (self.out_channels, self.in_channels // self.groups) + tuple(self.kernel_size)
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class _LazyNormMixin(LazyModuleMixin):
    """num_features from the channel dim of the first input."""

    def _make_lazy(self, affine, track_running_stats, dtype):
        self._await_first_input()
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = torch.tensor(0, dtype=torch.long)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        unbatched = getattr(self, "_no_batch_dim", None) == input.dim()
        self.num_features = input.shape[0 if unbatched else 1]
        with torch.no_grad():
            if self.affine:
                self.weight.materialize((self.num_features,))
                self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self._materialize_buffer("running_mean", (self.num_features,))
                self._materialize_buffer("running_var", (self.num_features,))
            self.reset_parameters()
