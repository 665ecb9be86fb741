"""Padding layers over F.pad: constant, zero, reflection and replication."""

from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _ntuple, _pair, _quadruple

__all__ = [
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ZeroPad2d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
]

_sextuple = _ntuple(6, "_sextuple")


class _ConstantPadNd(Module):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return "padding={}, value={}".format(self.padding, self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dimension with `value`: padding (left, right) or one int for both."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _pair(padding)


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two dimensions with `value`: (left, right, top, bottom) or one int."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _quadruple(padding)


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three dimensions with `value`: (left, right, top, bottom, front, back)."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sextuple(padding)


class ZeroPad2d(ConstantPad2d):
    """Pads the last two dimensions with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return "{}".format(self.padding)


class _ModePadNd(Module):
    _mode = None
    _ntuple = None

    def __init__(self, padding):
        super().__init__()
        self.padding = type(self)._ntuple(padding)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return "{}".format(self.padding)


class ReflectionPad1d(_ModePadNd):
    """Pads the last dimension with its reflection (the border element not repeated)."""

    _mode = "reflect"
    _ntuple = staticmethod(_pair)


class ReflectionPad2d(_ModePadNd):
    """Pads the last two dimensions with their reflection."""

    _mode = "reflect"
    _ntuple = staticmethod(_quadruple)


class ReflectionPad3d(_ModePadNd):
    """Pads the last three dimensions with their reflection."""

    _mode = "reflect"
    _ntuple = staticmethod(_sextuple)


class ReplicationPad1d(_ModePadNd):
    """Pads the last dimension by repeating its border elements."""

    _mode = "replicate"
    _ntuple = staticmethod(_pair)


class ReplicationPad2d(_ModePadNd):
    """Pads the last two dimensions by repeating their border elements."""

    _mode = "replicate"
    _ntuple = staticmethod(_quadruple)


class ReplicationPad3d(_ModePadNd):
    """Pads the last three dimensions by repeating their border elements."""

    _mode = "replicate"
    _ntuple = staticmethod(_sextuple)
