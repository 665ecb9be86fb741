"""Convolutions: Conv1d/2d/3d and ConvTranspose1d/2d/3d."""

import math

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.lazy import _LazyConvMixin
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _pair, _reverse_repeat_tuple, _single, _triple
from torch.nn.parameter import Parameter

__all__ = [
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
]

_CONV = {1: "conv1d", 2: "conv2d", 3: "conv3d"}
_CONV_TRANSPOSE = {1: "conv_transpose1d", 2: "conv_transpose2d", 3: "conv_transpose3d"}
_NTUPLE = {1: _single, 2: _pair, 3: _triple}


class _ConvNd(Module):
    """What every convolution holds: the weight (out, in/groups, *kernel) or, transposed,
    (in, out/groups, *kernel), the bias, and the geometry."""

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        transposed,
        output_padding,
        groups,
        bias,
        padding_mode,
        device=None,
        dtype=None,
    ):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(
                    "Invalid padding string {!r}, should be one of {}".format(padding, valid_padding_strings)
                )
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                "padding_mode must be one of {}, but got padding_mode='{}'".format(valid_padding_modes, padding_mode)
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's order (last dimension first, left then right) for non-zero padding modes
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        if transposed:
            shape = (in_channels, out_channels // groups) + tuple(kernel_size)
        else:
            shape = (out_channels, in_channels // groups) + tuple(kernel_size)
        self.weight = Parameter(torch.empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"


class _ConvForward(_ConvNd):
    _dims = 0

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        ntuple = _NTUPLE[self._dims]
        super().__init__(
            in_channels,
            out_channels,
            ntuple(kernel_size),
            ntuple(stride),
            padding if isinstance(padding, str) else ntuple(padding),
            ntuple(dilation),
            False,
            ntuple(0),
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def _conv_forward(self, input, weight, bias):
        conv = getattr(F, _CONV[self._dims])
        if self.padding_mode != "zeros":
            return conv(
                F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                weight,
                bias,
                self.stride,
                _NTUPLE[self._dims](0),
                self.dilation,
                self.groups,
            )
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_ConvForward):
    """1-D convolution over (N, C_in, L) or (C_in, L) inputs."""

    _dims = 1


class Conv2d(_ConvForward):
    """2-D convolution over (N, C_in, H, W) or (C_in, H, W) inputs."""

    _dims = 2


class Conv3d(_ConvForward):
    """3-D convolution over (N, C_in, D, H, W) or (C_in, D, H, W) inputs."""

    _dims = 3


class _ConvTransposeNd(_ConvNd):
    _dims = 0

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(self.__class__.__name__))
        ntuple = _NTUPLE[self._dims]
        super().__init__(
            in_channels,
            out_channels,
            ntuple(kernel_size),
            ntuple(stride),
            ntuple(padding),
            ntuple(dilation),
            True,
            ntuple(output_padding),
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None):
        """The output_padding that gives the requested output_size (or the module's own)."""
        if output_size is None:
            return _single(self.output_padding)
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        output_size = list(output_size)
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                "ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})".format(
                    num_spatial_dims,
                    input.dim(),
                    num_spatial_dims,
                    num_non_spatial_dims + num_spatial_dims,
                    len(output_size),
                )
            )
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = (
                (input.size(d + num_non_spatial_dims) - 1) * stride[d]
                - 2 * padding[d]
                + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1)
                + 1
            )
            min_sizes.append(dim_size)
            max_sizes.append(dim_size + stride[d] - 1)
        for size, min_size, max_size in zip(output_size, min_sizes, max_sizes):
            if size < min_size or size > max_size:
                raise ValueError(
                    "requested an output size of {}, but valid sizes range from {} to {} (for an input of {})".format(
                        output_size, min_sizes, max_sizes, input.size()[2:]
                    )
                )
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]

    def forward(self, input, output_size=None):
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for {}".format(self.__class__.__name__))
        output_padding = self._output_padding(
            input, output_size, self.stride, self.padding, self.kernel_size, self._dims, self.dilation
        )
        return getattr(F, _CONV_TRANSPOSE[self._dims])(
            input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups, self.dilation
        )


class ConvTranspose1d(_ConvTransposeNd):
    """The gradient of Conv1d with respect to its input, as a layer ("deconvolution")."""

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """The gradient of Conv2d with respect to its input, as a layer ("deconvolution")."""

    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    """The gradient of Conv3d with respect to its input, as a layer ("deconvolution")."""

    _dims = 3


# ---- lazy convolutions: in_channels read from the first input (see lazy.py) ----
def _lazy_conv(conv):
    def __init__(
        self,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        conv.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode)
        self._make_lazy(out_channels, bias, dtype)

    doc = "A %s whose in_channels is the channel dim of its first input." % conv.__name__
    return type(
        "Lazy" + conv.__name__, (_LazyConvMixin, conv), {"__init__": __init__, "cls_to_become": conv, "__doc__": doc}
    )


def _lazy_conv_transpose(conv):
    def __init__(
        self,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        conv.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation, padding_mode)
        self._make_lazy(out_channels, bias, dtype)

    doc = "A %s whose in_channels is the channel dim of its first input." % conv.__name__
    return type(
        "Lazy" + conv.__name__, (_LazyConvMixin, conv), {"__init__": __init__, "cls_to_become": conv, "__doc__": doc}
    )


LazyConv1d = _lazy_conv(Conv1d)
LazyConv2d = _lazy_conv(Conv2d)
LazyConv3d = _lazy_conv(Conv3d)
LazyConvTranspose1d = _lazy_conv_transpose(ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv_transpose(ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv_transpose(ConvTranspose3d)
for _cls in (LazyConv1d, LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d):
    _cls.__module__ = __name__
