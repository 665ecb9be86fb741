"""Pooling layers: max, average, adaptive, power-average and max-unpooling."""

from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _pair, _single, _triple

__all__ = [
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "LPPool1d",
    "LPPool2d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "FractionalMaxPool2d",
    "FractionalMaxPool3d",
]


class _MaxPoolNd(Module):
    _function = None

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return getattr(F, self._function)(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )

    def extra_repr(self):
        return (
            "kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, "
            "ceil_mode={ceil_mode}".format(**self.__dict__)
        )


class MaxPool1d(_MaxPoolNd):
    """Maximum over sliding windows of (N, C, L) inputs (return_indices for MaxUnpool1d)."""

    _function = "max_pool1d"


class MaxPool2d(_MaxPoolNd):
    """Maximum over sliding windows of (N, C, H, W) inputs (return_indices for MaxUnpool2d)."""

    _function = "max_pool2d"


class MaxPool3d(_MaxPoolNd):
    """Maximum over sliding windows of (N, C, D, H, W) inputs."""

    _function = "max_pool3d"


class _MaxUnpoolNd(Module):
    _function = None
    _ntuple = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        ntuple = type(self)._ntuple
        self.kernel_size = ntuple(kernel_size)
        self.stride = ntuple(stride if stride is not None else kernel_size)
        self.padding = ntuple(padding)

    def forward(self, input, indices, output_size=None):
        return getattr(F, self._function)(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return "kernel_size={}, stride={}, padding={}".format(self.kernel_size, self.stride, self.padding)


class MaxUnpool1d(_MaxUnpoolNd):
    """Puts each value back at the index MaxPool1d took it from; zeros elsewhere."""

    _function = "max_unpool1d"
    _ntuple = staticmethod(_single)


class MaxUnpool2d(_MaxUnpoolNd):
    """Puts each value back at the index MaxPool2d took it from; zeros elsewhere."""

    _function = "max_unpool2d"
    _ntuple = staticmethod(_pair)


class MaxUnpool3d(_MaxUnpoolNd):
    """Puts each value back at the index MaxPool3d took it from; zeros elsewhere."""

    _function = "max_unpool3d"
    _ntuple = staticmethod(_triple)


class _AvgPoolNd(Module):
    def extra_repr(self):
        return "kernel_size={}, stride={}, padding={}".format(self.kernel_size, self.stride, self.padding)


class AvgPool1d(_AvgPoolNd):
    """Average over sliding windows of (N, C, L) inputs."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)


class _AvgPoolDivisor(_AvgPoolNd):
    _function = None

    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return getattr(F, self._function)(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class AvgPool2d(_AvgPoolDivisor):
    """Average over sliding windows of (N, C, H, W) inputs."""

    _function = "avg_pool2d"


class AvgPool3d(_AvgPoolDivisor):
    """Average over sliding windows of (N, C, D, H, W) inputs."""

    _function = "avg_pool3d"


class _LPPoolNd(Module):
    _function = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return getattr(F, self._function)(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return "norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, ceil_mode={ceil_mode}".format(
            **self.__dict__
        )


class LPPool1d(_LPPoolNd):
    """The p-norm of sliding windows: (sum x^p)^(1/p)."""

    _function = "lp_pool1d"


class LPPool2d(_LPPoolNd):
    """The p-norm of sliding windows: (sum x^p)^(1/p)."""

    _function = "lp_pool2d"


class _AdaptiveMaxPoolNd(Module):
    _function = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return getattr(F, self._function)(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return "output_size={}".format(self.output_size)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling whose windows are chosen to give output_size."""

    _function = "adaptive_max_pool1d"


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling whose windows are chosen to give output_size (None keeps a size)."""

    _function = "adaptive_max_pool2d"


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling whose windows are chosen to give output_size (None keeps a size)."""

    _function = "adaptive_max_pool3d"


class _AdaptiveAvgPoolNd(Module):
    _function = None

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return getattr(F, self._function)(input, self.output_size)

    def extra_repr(self):
        return "output_size={}".format(self.output_size)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Average pooling whose windows are chosen to give output_size."""

    _function = "adaptive_avg_pool1d"


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling whose windows are chosen to give output_size (None keeps a size)."""

    _function = "adaptive_avg_pool2d"


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling whose windows are chosen to give output_size (None keeps a size)."""

    _function = "adaptive_avg_pool3d"


class _FractionalMaxPoolNd(Module):
    """Max pooling over windows of kernel_size placed at pseudo-random fractional strides
    (Graham's fractional max-pooling), giving output_size or output_ratio of the input."""

    _function = None
    _dims = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        name = type(self).__name__
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if output_ratio is not None:
            ratios = [output_ratio] * self._dims if isinstance(output_ratio, (int, float)) else list(output_ratio)
            if not all(0 < r < 1 for r in ratios):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)

    def forward(self, input):
        return getattr(F, self._function)(
            input,
            self.kernel_size,
            self.output_size,
            self.output_ratio,
            self.return_indices,
            _random_samples=self._random_samples,
        )


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    _function, _dims = "fractional_max_pool2d", 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    _function, _dims = "fractional_max_pool3d", 3
