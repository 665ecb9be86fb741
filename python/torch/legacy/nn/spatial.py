"""Convolutions, pooling, unpooling, resampling and padding over time (Temporal*), images
(Spatial*) and volumes (Volumetric*), with torch7's constructor arguments, field names and
weight layouts. Inputs are batch x planes x ... or, without the batch dimension, planes x
... (Temporal: [batch x] frames x features).

The modules call THNN's kernels as Lua nn's do (Note [Modules over THNN] in utils.py);
SpatialLPPooling is torch7's composite over the average pooling kernels, SpatialZeroPadding
tensor code (F.pad), as in torch7.

Max pooling's `indices` are 0-based flat positions in each input plane (load_lua shifts
torch7's 1-based ones, Note [1-based fields]).
"""

import math
import weakref

import torch
import torch.nn.functional as F
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import buffer, check, thnn

__all__ = [
    "SpatialConvolution",
    "SpatialConvolutionMM",
    "SpatialConvolutionLocal",
    "SpatialFullConvolution",
    "SpatialDilatedConvolution",
    "SpatialSubSampling",
    "SpatialMaxPooling",
    "SpatialDilatedMaxPooling",
    "SpatialAveragePooling",
    "SpatialAdaptiveMaxPooling",
    "SpatialAdaptiveAveragePooling",
    "SpatialFractionalMaxPooling",
    "SpatialMaxUnpooling",
    "SpatialLPPooling",
    "SpatialUpSamplingNearest",
    "SpatialUpSamplingBilinear",
    "SpatialZeroPadding",
    "SpatialReflectionPadding",
    "SpatialReplicationPadding",
    "TemporalConvolution",
    "TemporalMaxPooling",
    "TemporalSubSampling",
    "VolumetricConvolution",
    "VolumetricFullConvolution",
    "VolumetricDilatedConvolution",
    "VolumetricMaxPooling",
    "VolumetricDilatedMaxPooling",
    "VolumetricAveragePooling",
    "VolumetricMaxUnpooling",
    "VolumetricReplicationPadding",
]


def _ints(*values):
    """Numbers as ints (numbers loaded from a .t7 file are floats: Lua's numbers)."""
    return tuple(int(v) for v in values)


def _bias_free_repr(module, s):
    return s + ")" if getattr(module, "bias", None) is not None else s + ") without bias"


def _conv_repr(module, kernel, groups):
    """torch7's convolution summary 'nn.X(nIn -> nOut, kWxkH[, dW,dH[, padW,padH[, ...]]])':
    groups holds (values, default) pairs, each shown when it or a later one is off its
    default."""
    s = "%s(%d -> %d, %s" % (
        module.torch_typename(),
        module.nInputPlane,
        module.nOutputPlane,
        "x".join("%d" % k for k in kernel),
    )
    off = [any(v != default for v in values) for values, default in groups]
    for i, (values, _) in enumerate(groups):
        if any(off[i:]):
            s += ", " + ",".join("%d" % v for v in values)
    return _bias_free_repr(module, s)


# ================================================================ convolutions


class _ConvBase(utils.OptionalBias, Module):
    """Shared by the convolutions: optional bias (noBias), torch7's uniform reset, and the
    column buffers finput / fgradInput that THNN's kernels keep between calls (Note
    [Convolution buffers] in THNN/generic/TemporalVolumetricConvolution.h: accGradParameters
    reads the columns its forward left there)."""

    def _fan_in(self):
        raise NotImplementedError

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self._fan_in(), self.weight, getattr(self, "bias", None))
        return self

    def _make_params(self, weight_shape, n_bias):
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(weight_shape, dtype=dtype)
        self.gradWeight = torch.zeros(weight_shape, dtype=dtype)
        self.bias = torch.empty(n_bias, dtype=dtype)
        self.gradBias = torch.zeros(n_bias, dtype=dtype)
        self.reset()

    def _bias(self):
        """(bias, gradBias), None for a module without bias."""
        if self._has_bias():
            return self.bias, self.gradBias
        return None, None

    def _buffers(self, input):
        self.finput = buffer(self.__dict__.get("finput"), input)
        self.fgradInput = buffer(self.__dict__.get("fgradInput"), input)
        return self.finput, self.fgradInput

    def clearState(self):
        utils.clear(self, "finput", "fgradInput")
        return super().clearState()


class SpatialConvolution(_ConvBase):
    """2-D convolution: weight nOutputPlane x nInputPlane x kH x kW (or torch7's older
    nOutputPlane x (nInputPlane kH kW)), bias nOutputPlane; THNN's SpatialConvolutionMM
    kernels: oneDNN for float (`finput` is then its scratch), im2col for double, which keeps
    the input's columns in `finput`."""

    padW = 0
    padH = 0

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=None):
        super().__init__()
        self.nInputPlane, self.nOutputPlane = nInputPlane, nOutputPlane
        self.kW, self.kH, self.dW, self.dH = kW, kH, dW, dH
        self.padW = padW
        self.padH = padW if padH is None else padH
        self._make_params(self._weight_shape(), nOutputPlane)
        self.finput = torch.empty(0, dtype=self.weight.dtype)
        self.fgradInput = torch.empty(0, dtype=self.weight.dtype)

    def _weight_shape(self):
        return (self.nOutputPlane, self.nInputPlane, self.kH, self.kW)

    def _fan_in(self):
        return self.kW * self.kH * self.nInputPlane

    def _window(self):
        return self.kW, self.kH, self.dW, self.dH, self.padW, self.padH

    def updateOutput(self, input):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        out = input.new_empty(0)
        kernels.SpatialConvolutionMM_updateOutput(
            input, out, self.weight, self._bias()[0], finput, fgradInput, *self._window()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        gi = input.new_empty(0)
        kernels.SpatialConvolutionMM_updateGradInput(
            input, gradOutput, gi, self.weight, finput, fgradInput, *self._window()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        kernels.SpatialConvolutionMM_accGradParameters(
            input, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *self._window(), scale
        )

    def __repr__(self):
        return _conv_repr(self, (self.kW, self.kH), [((self.dW, self.dH), 1), ((self.padW, self.padH), 0)])


class SpatialConvolutionMM(SpatialConvolution):
    """SpatialConvolution with torch7's 2-D weight, nOutputPlane x (nInputPlane kH kW)
    (4-D weights, as some files hold, work too)."""

    def _weight_shape(self):
        return (self.nOutputPlane, self.nInputPlane * self.kH * self.kW)


class SpatialDilatedConvolution(SpatialConvolution):
    """SpatialConvolution with taps every dilationW, dilationH input elements (THNN's
    SpatialDilatedConvolution kernels; `finput` holds one sample's columns)."""

    dilationW = 1
    dilationH = 1

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=0, dilationW=1, dilationH=1):
        super().__init__(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
        self.dilationW, self.dilationH = dilationW, dilationH

    def _dilated_window(self):
        return self._window() + (self.dilationW, self.dilationH)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        out = input.new_empty(0)
        kernels.SpatialDilatedConvolution_updateOutput(
            input, out, self.weight, self._bias()[0], finput, fgradInput, *self._dilated_window()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        finput, _ = self._buffers(input)
        gi = input.new_empty(0)
        kernels.SpatialDilatedConvolution_updateGradInput(
            input, gradOutput, gi, self.weight, finput, *self._dilated_window()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        kernels.SpatialDilatedConvolution_accGradParameters(
            input, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *self._dilated_window(), scale
        )

    def __repr__(self):
        s = "%s(%d -> %d, %dx%d, %d,%d, %d,%d, %d,%d" % (
            self.torch_typename(),
            self.nInputPlane,
            self.nOutputPlane,
            *self._dilated_window(),
        )
        return _bias_free_repr(self, s)


class SpatialConvolutionLocal(SpatialConvolution):
    """A convolution whose filters differ at every output position (no weight sharing):
    weight oH x oW x nOutputPlane x nInputPlane x kH x kW, bias nOutputPlane x oH x oW, for
    inputs of exactly iH x iW; THNN's SpatialConvolutionLocal kernels."""

    def __init__(self, nInputPlane, nOutputPlane, iW, iH, kW, kH, dW=1, dH=1, padW=0, padH=None):
        self.iW, self.iH = iW, iH
        padH = padW if padH is None else padH
        self.oW = (iW + 2 * padW - kW) // dW + 1
        self.oH = (iH + 2 * padH - kH) // dH + 1
        check(
            self.oW >= 1 and self.oH >= 1,
            RuntimeError,
            "nn.SpatialConvolutionLocal: input of %dx%d is smaller than the kernel %dx%d",
            iW,
            iH,
            kW,
            kH,
        )
        super().__init__(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
        dtype = self.weight.dtype
        self.bias = torch.empty(nOutputPlane, self.oH, self.oW, dtype=dtype)
        self.gradBias = torch.zeros(nOutputPlane, self.oH, self.oW, dtype=dtype)
        self.reset()

    def _weight_shape(self):
        return (self.oH, self.oW, self.nOutputPlane, self.nInputPlane, self.kH, self.kW)

    def _bias(self):
        # the kernels take a bias; a module without one (noBias) adds zeros
        if self._has_bias():
            return self.bias, self.gradBias
        zeros = self.weight.new_zeros(int(self.nOutputPlane), int(self.oH), int(self.oW))
        return zeros, zeros.clone()

    def _check_input(self, input):
        utils.check_tensor(input, "nn.SpatialConvolutionLocal: input", (3, 4))
        check(
            tuple(input.shape[-3:]) == (int(self.nInputPlane), int(self.iH), int(self.iW)),
            RuntimeError,
            "nn.SpatialConvolutionLocal: input of size %s must be %d x %d x %d in its last three dimensions",
            tuple(input.shape),
            self.nInputPlane,
            self.iH,
            self.iW,
        )

    def _sizes(self):
        return *self._window(), self.iW, self.iH, self.oW, self.oH

    def updateOutput(self, input):
        kernels = thnn(self, input)
        self._check_input(input)
        finput, fgradInput = self._buffers(input)
        out = input.new_empty(0)
        kernels.SpatialConvolutionLocal_updateOutput(
            input, out, self.weight, self._bias()[0], finput, fgradInput, *self._sizes()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        self._check_input(input)
        finput, fgradInput = self._buffers(input)
        gi = input.new_empty(0)
        kernels.SpatialConvolutionLocal_updateGradInput(
            input, gradOutput, gi, self.weight, finput, fgradInput, *self._sizes()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        self._check_input(input)
        finput, fgradInput = self._buffers(input)
        kernels.SpatialConvolutionLocal_accGradParameters(
            input, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *self._sizes(), scale
        )

    def __repr__(self):
        s = "%s(%d -> %d, %dx%d, %dx%d" % (
            self.torch_typename(),
            self.nInputPlane,
            self.nOutputPlane,
            self.iW,
            self.iH,
            self.kW,
            self.kH,
        )
        return _bias_free_repr(self, s)


class VolumetricConvolution(_ConvBase):
    """3-D convolution: weight nOutputPlane x nInputPlane x kT x kH x kW; THNN's
    VolumetricConvolutionMM kernels (vol2col columns in `finput`)."""

    padT = padW = padH = 0

    def __init__(self, nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=0, padH=0):
        super().__init__()
        self.nInputPlane, self.nOutputPlane = nInputPlane, nOutputPlane
        self.kT, self.kW, self.kH, self.dT, self.dW, self.dH = kT, kW, kH, dT, dW, dH
        self.padT, self.padW, self.padH = padT, padW, padH
        self._make_params((nOutputPlane, nInputPlane, kT, kH, kW), nOutputPlane)
        self.finput = torch.empty(0, dtype=self.weight.dtype)
        self.fgradInput = torch.empty(0, dtype=self.weight.dtype)

    def _fan_in(self):
        return self.kT * self.kW * self.kH * self.nInputPlane

    def _window(self):
        # THNN's order: kT, kW, kH (width before height)
        return self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH

    def updateOutput(self, input):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        out = input.new_empty(0)
        kernels.VolumetricConvolutionMM_updateOutput(
            input, out, self.weight, self._bias()[0], finput, fgradInput, *self._window()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        gi = input.new_empty(0)
        kernels.VolumetricConvolutionMM_updateGradInput(
            input, gradOutput, gi, self.weight, finput, fgradInput, *self._window()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        kernels.VolumetricConvolutionMM_accGradParameters(
            input, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *self._window(), scale
        )

    def __repr__(self):
        return _conv_repr(
            self,
            (self.kT, self.kW, self.kH),
            [((self.dT, self.dW, self.dH), 1), ((self.padT, self.padW, self.padH), 0)],
        )


class VolumetricDilatedConvolution(VolumetricConvolution):
    """VolumetricConvolution with dilated taps, THNN's VolumetricDilatedConvolution kernels."""

    dilationT = dilationW = dilationH = 1

    def __init__(
        self,
        nInputPlane,
        nOutputPlane,
        kT,
        kW,
        kH,
        dT=1,
        dW=1,
        dH=1,
        padT=0,
        padW=0,
        padH=0,
        dilationT=1,
        dilationW=1,
        dilationH=1,
    ):
        super().__init__(nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH)
        self.dilationT, self.dilationW, self.dilationH = dilationT, dilationW, dilationH

    def _dilated_window(self):
        return self._window() + (self.dilationT, self.dilationW, self.dilationH)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        out = input.new_empty(0)
        kernels.VolumetricDilatedConvolution_updateOutput(
            input, out, self.weight, self._bias()[0], finput, fgradInput, *self._dilated_window()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        finput, _ = self._buffers(input)
        gi = input.new_empty(0)
        kernels.VolumetricDilatedConvolution_updateGradInput(
            input, gradOutput, gi, self.weight, finput, *self._dilated_window()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        finput, fgradInput = self._buffers(input)
        kernels.VolumetricDilatedConvolution_accGradParameters(
            input, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *self._dilated_window(), scale
        )


def _adj(size, k, pad, stride):
    """The adjustment that makes a transposed convolution's output `size` long."""
    return (size + 2 * int(pad) - int(k)) % int(stride)


class SpatialFullConvolution(_ConvBase):
    """Transposed 2-D convolution: weight nInputPlane x nOutputPlane x kH x kW; adjW, adjH
    add columns and rows at the end of the output (less than the stride). The input may also
    be torch7's table [input, target]: the adjustments then give the output the target's
    height and width, and the target's gradient is zeros. THNN's SpatialFullConvolution
    kernels (`finput`: one sample's columns)."""

    padW = padH = adjW = adjH = 0

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=0, adjW=0, adjH=0):
        super().__init__()
        self.nInputPlane, self.nOutputPlane = nInputPlane, nOutputPlane
        self.kW, self.kH, self.dW, self.dH = kW, kH, dW, dH
        self.padW, self.padH, self.adjW, self.adjH = padW, padH, adjW, adjH
        self._make_params((nInputPlane, nOutputPlane, kH, kW), nOutputPlane)
        self.finput = torch.empty(0, dtype=self.weight.dtype)
        self.fgradInput = torch.empty(0, dtype=self.weight.dtype)

    def _fan_in(self):
        return self.kW * self.kH * self.nInputPlane

    def _unpack(self, input):
        """(the input tensor, the window's sizes with the adjustments)."""
        adj = self.adjW, self.adjH
        if isinstance(input, (list, tuple)):
            check(
                len(input) == 2 and torch.is_tensor(input[0]) and torch.is_tensor(input[1]) and input[1].dim() >= 2,
                TypeError,
                "%s: a table input must be [input, target] with a target of at least 2 dimensions",
                self.torch_typename(),
            )
            target = input[1]
            adj = (
                _adj(target.size(-1), self.kW, self.padW, self.dW),
                _adj(target.size(-2), self.kH, self.padH, self.dH),
            )
            input = input[0]
        return input, (self.kW, self.kH, self.dW, self.dH, self.padW, self.padH) + adj

    def updateOutput(self, input):
        x, window = self._unpack(input)
        kernels = thnn(self, x)
        finput, fgradInput = self._buffers(x)
        out = x.new_empty(0)
        kernels.SpatialFullConvolution_updateOutput(x, out, self.weight, self._bias()[0], finput, fgradInput, *window)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        x, window = self._unpack(input)
        kernels = thnn(self, x)
        finput, _ = self._buffers(x)
        gi = x.new_empty(0)
        kernels.SpatialFullConvolution_updateGradInput(x, gradOutput, gi, self.weight, finput, *window)
        self.gradInput = [gi, torch.zeros_like(input[1])] if isinstance(input, (list, tuple)) else gi
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, window = self._unpack(input)
        kernels = thnn(self, x)
        finput, fgradInput = self._buffers(x)
        kernels.SpatialFullConvolution_accGradParameters(
            x, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *window, scale
        )

    def __repr__(self):
        return _conv_repr(
            self,
            (self.kW, self.kH),
            [((self.dW, self.dH), 1), ((self.padW, self.padH), 0), ((self.adjW, self.adjH), 0)],
        )


class VolumetricFullConvolution(_ConvBase):
    """Transposed 3-D convolution: weight nInputPlane x nOutputPlane x kT x kH x kW; THNN's
    VolumetricFullConvolution kernels."""

    padT = padW = padH = adjT = adjW = adjH = 0

    def __init__(
        self, nInputPlane, nOutputPlane, kT, kW, kH, dT=1, dW=1, dH=1, padT=0, padW=0, padH=0, adjT=0, adjW=0, adjH=0
    ):
        super().__init__()
        self.nInputPlane, self.nOutputPlane = nInputPlane, nOutputPlane
        self.kT, self.kW, self.kH, self.dT, self.dW, self.dH = kT, kW, kH, dT, dW, dH
        self.padT, self.padW, self.padH, self.adjT, self.adjW, self.adjH = padT, padW, padH, adjT, adjW, adjH
        self._make_params((nInputPlane, nOutputPlane, kT, kH, kW), nOutputPlane)
        self.finput = torch.empty(0, dtype=self.weight.dtype)
        self.fgradInput = torch.empty(0, dtype=self.weight.dtype)

    def _fan_in(self):
        return self.kT * self.kW * self.kH * self.nInputPlane

    def _unpack(self, input):
        adj = self.adjT, self.adjW, self.adjH
        if isinstance(input, (list, tuple)):
            check(
                len(input) == 2 and torch.is_tensor(input[0]) and torch.is_tensor(input[1]) and input[1].dim() >= 3,
                TypeError,
                "%s: a table input must be [input, target] with a target of at least 3 dimensions",
                self.torch_typename(),
            )
            target = input[1]
            adj = (
                _adj(target.size(-3), self.kT, self.padT, self.dT),
                _adj(target.size(-1), self.kW, self.padW, self.dW),
                _adj(target.size(-2), self.kH, self.padH, self.dH),
            )
            input = input[0]
        window = (self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH)
        return input, window + adj

    def updateOutput(self, input):
        x, window = self._unpack(input)
        kernels = thnn(self, x)
        finput, fgradInput = self._buffers(x)
        out = x.new_empty(0)
        kernels.VolumetricFullConvolution_updateOutput(
            x, out, self.weight, self._bias()[0], finput, fgradInput, *window
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        x, window = self._unpack(input)
        kernels = thnn(self, x)
        finput, fgradInput = self._buffers(x)
        gi = x.new_empty(0)
        kernels.VolumetricFullConvolution_updateGradInput(x, gradOutput, gi, self.weight, finput, fgradInput, *window)
        self.gradInput = [gi, torch.zeros_like(input[1])] if isinstance(input, (list, tuple)) else gi
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, window = self._unpack(input)
        kernels = thnn(self, x)
        finput, fgradInput = self._buffers(x)
        kernels.VolumetricFullConvolution_accGradParameters(
            x, gradOutput, self.gradWeight, self._bias()[1], finput, fgradInput, *window, scale
        )


class SpatialSubSampling(_ConvBase):
    """Per plane: weight[k] * (sum of each kW x kH window) + bias[k]; THNN's
    SpatialSubSampling kernels."""

    def __init__(self, nInputPlane, kW, kH, dW=1, dH=1):
        super().__init__()
        self.nInputPlane, self.kW, self.kH, self.dW, self.dH = nInputPlane, kW, kH, dW, dH
        self._make_params((nInputPlane,), nInputPlane)

    def _fan_in(self):
        return self.kW * self.kH

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.SpatialSubSampling_updateOutput(input, out, self.weight, self.bias, self.kW, self.kH, self.dW, self.dH)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SpatialSubSampling_updateGradInput(
            input, gradOutput, gi, self.weight, self.kW, self.kH, self.dW, self.dH
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        kernels.SpatialSubSampling_accGradParameters(
            input, gradOutput, self.gradWeight, self.gradBias, self.kW, self.kH, self.dW, self.dH, scale
        )


# ================================================================ temporal


class TemporalConvolution(_ConvBase):
    """1-D convolution over frames: input nInputFrame x inputFrameSize (or batch x ...),
    weight outputFrameSize x (kW inputFrameSize) (frame-major, as torch7), bias
    outputFrameSize; THNN's TemporalConvolution kernels."""

    def __init__(self, inputFrameSize, outputFrameSize, kW, dW=1):
        super().__init__()
        self.inputFrameSize, self.outputFrameSize, self.kW, self.dW = inputFrameSize, outputFrameSize, kW, dW
        self._make_params((outputFrameSize, inputFrameSize * kW), outputFrameSize)

    def _fan_in(self):
        return self.kW * self.inputFrameSize

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.TemporalConvolution_updateOutput(
            input, out, self.weight, self.bias, self.kW, self.dW, self.inputFrameSize, self.outputFrameSize
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.TemporalConvolution_updateGradInput(input, gradOutput, gi, self.weight, self.kW, self.dW)
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        kernels.TemporalConvolution_accGradParameters(
            input, gradOutput, self.gradWeight, self.gradBias, self.kW, self.dW, scale
        )


class TemporalSubSampling(_ConvBase):
    """Per feature: weight[f] * (sum over kW frames) + bias[f], every dW frames; THNN's
    TemporalSubSampling kernels."""

    def __init__(self, inputFrameSize, kW, dW=1):
        super().__init__()
        self.inputFrameSize, self.kW, self.dW = inputFrameSize, kW, dW
        self._make_params((inputFrameSize,), inputFrameSize)

    def _fan_in(self):
        return self.kW

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.TemporalSubSampling_updateOutput(
            input, out, self.weight, self.bias, self.kW, self.dW, self.inputFrameSize
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.TemporalSubSampling_updateGradInput(input, gradOutput, gi, self.weight, self.kW, self.dW)
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        kernels.TemporalSubSampling_accGradParameters(
            input, gradOutput, self.gradWeight, self.gradBias, self.kW, self.dW, scale
        )


class TemporalMaxPooling(Module):
    """The max of every kW frames, every dW frames, per feature; THNN's TemporalMaxPooling
    kernels. `indices` holds, as in torch7, the 0-based offset of the max inside its window."""

    def __init__(self, kW, dW=None):
        super().__init__()
        self.kW, self.dW = kW, kW if dW is None else dW
        self.indices = torch.empty(0, dtype=torch.int64)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out, indices = input.new_empty(0), torch.empty(0, dtype=torch.int64)
        kernels.TemporalMaxPooling_updateOutput(input, out, indices, self.kW, self.dW)
        self.output, self.indices = out, indices
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.TemporalMaxPooling_updateGradInput(input, gradOutput, gi, self.indices, self.kW, self.dW)
        self.gradInput = gi
        return gi

    def clearState(self):
        utils.clear(self, "indices")
        return super().clearState()


# ================================================================ pooling
#
# Max pooling keeps the position of each max in `indices` (Note [Max pooling indices] in
# THNN/generic/Pooling.h: 0-based flat positions in each input plane); like the output,
# they are a new tensor at every forward, so that an unpooling module or a caller holding
# them keeps what it read.


class _CeilMode:
    """ceil() / floor(): how pooling with a stride rounds its output size."""

    __slots__ = ()

    def ceil(self):
        self.ceil_mode = True
        return self

    def floor(self):
        self.ceil_mode = False
        return self


class _MaxPooling(Module):
    def clearState(self):
        utils.clear(self, "indices")
        return super().clearState()


def _set_window(module, names, kernel, stride, pad):
    """Sets the fields k<X>, d<X> (the kernel where None) and pad<X> for X in names, in that
    order (the order a saved file lists them in), and ceil_mode off."""
    for x, k in zip(names, kernel):
        setattr(module, "k" + x, k)
    for x, k, d in zip(names, kernel, stride):
        setattr(module, "d" + x, k if d is None else d)
    for x, p in zip(names, pad):
        setattr(module, "pad" + x, p)
    module.ceil_mode = False


def _pool2d_repr(module):
    s = "%s(%dx%d, %d,%d" % (module.torch_typename(), module.kW, module.kH, module.dW, module.dH)
    if module.padW != 0 or module.padH != 0:
        s += ", %d,%d" % (module.padW, module.padH)
    return s + ")"


class SpatialMaxPooling(_CeilMode, _MaxPooling):
    """Max over kW x kH windows every dW, dH (padding padW, padH; ceil() for ceil mode);
    THNN's SpatialMaxPooling kernels. `indices`: the 0-based flat position (row * width +
    column) of each max in its plane; iheight, iwidth: the last input's plane size."""

    padW = 0
    padH = 0
    ceil_mode = False

    def __init__(self, kW, kH, dW=None, dH=None, padW=0, padH=0):
        super().__init__()
        _set_window(self, "WH", (kW, kH), (dW, dH), (padW, padH))
        self.indices = torch.empty(0, dtype=torch.int64)

    def _window(self):
        return self.kW, self.kH, self.dW, self.dH, self.padW, self.padH

    def _pool(self, kernels, input, out, indices):
        kernels.SpatialMaxPooling_updateOutput(input, out, indices, *self._window(), bool(self.ceil_mode))

    def _unpool_grad(self, kernels, input, gradOutput, gi):
        kernels.SpatialMaxPooling_updateGradInput(
            input, gradOutput, gi, self.indices, *self._window(), bool(self.ceil_mode)
        )

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out, indices = input.new_empty(0), torch.empty(0, dtype=torch.int64)
        self._pool(kernels, input, out, indices)
        self.iheight, self.iwidth = input.size(-2), input.size(-1)
        self.output, self.indices = out, indices
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        self._unpool_grad(kernels, input, gradOutput, gi)
        self.gradInput = gi
        return gi

    __repr__ = _pool2d_repr


class SpatialDilatedMaxPooling(SpatialMaxPooling):
    """SpatialMaxPooling over windows of every dilationW-th, dilationH-th element."""

    dilationW = 1
    dilationH = 1

    def __init__(self, kW, kH, dW=None, dH=None, padW=0, padH=0, dilationW=1, dilationH=1):
        super().__init__(kW, kH, dW, dH, padW, padH)
        self.dilationW, self.dilationH = dilationW, dilationH

    def _dilated_window(self):
        return self._window() + (self.dilationW, self.dilationH, bool(self.ceil_mode))

    def _pool(self, kernels, input, out, indices):
        kernels.SpatialDilatedMaxPooling_updateOutput(input, out, indices, *self._dilated_window())

    def _unpool_grad(self, kernels, input, gradOutput, gi):
        kernels.SpatialDilatedMaxPooling_updateGradInput(input, gradOutput, gi, self.indices, *self._dilated_window())


class SpatialAveragePooling(_CeilMode, Module):
    """Mean over kW x kH windows every dW, dH (default 1, as torch7); THNN's
    SpatialAveragePooling kernels. count_include_pad (default) divides by the window size
    including padding; ceil() for ceil mode. Files of old nn versions with divide = false
    give window sums."""

    padW = 0
    padH = 0
    ceil_mode = False
    count_include_pad = True
    divide = True

    def __init__(self, kW, kH, dW=1, dH=1, padW=0, padH=0):
        super().__init__()
        _set_window(self, "WH", (kW, kH), (dW, dH), (padW, padH))
        self.count_include_pad = True

    def setCountIncludePad(self):
        self.count_include_pad = True
        return self

    def setCountExcludePad(self):
        self.count_include_pad = False
        return self

    def _window(self):
        return self.kW, self.kH, self.dW, self.dH, self.padW, self.padH

    def _modes(self):
        return bool(self.ceil_mode), bool(self.count_include_pad)

    def _sums(self, t):
        """Window means as torch7's old `divide = false` sums."""
        if not self.divide:
            t.mul_(int(self.kW) * int(self.kH))
        return t

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.SpatialAveragePooling_updateOutput(input, out, *self._window(), *self._modes())
        self.output = self._sums(out)
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SpatialAveragePooling_updateGradInput(input, gradOutput, gi, *self._window(), *self._modes())
        self.gradInput = self._sums(gi)
        return gi

    __repr__ = _pool2d_repr


class VolumetricAveragePooling(SpatialAveragePooling):
    """Mean over kT x kW x kH windows, THNN's VolumetricAveragePooling kernels."""

    padT = 0

    def __init__(self, kT, kW, kH, dT=None, dW=None, dH=None, padT=0, padW=0, padH=0):
        Module.__init__(self)
        _set_window(self, "TWH", (kT, kW, kH), (dT, dW, dH), (padT, padW, padH))
        self.count_include_pad = True

    def _window(self):
        return self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.VolumetricAveragePooling_updateOutput(input, out, *self._window(), *self._modes())
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.VolumetricAveragePooling_updateGradInput(input, gradOutput, gi, *self._window(), *self._modes())
        self.gradInput = gi
        return gi

    def __repr__(self):
        return "%s(%dx%dx%d, %d,%d,%d)" % (self.torch_typename(), self.kT, self.kW, self.kH, self.dT, self.dW, self.dH)


class SpatialLPPooling(Module):
    """(sum over each window of x^p)^(1/p), torch7's Power -> SpatialAveragePooling ->
    MulConstant -> Power chain, the window sums and their adjoint from THNN's
    SpatialAveragePooling kernels (inputs where x^p is defined: x >= 0 unless p is an
    integer). The backward reads the forward's output."""

    def __init__(self, nInputPlane, pnorm, kW, kH, dW=None, dH=None):
        super().__init__()
        self.nInputPlane, self.pnorm, self.kW, self.kH = nInputPlane, pnorm, kW, kH
        self.dW = kW if dW is None else dW
        self.dH = kH if dH is None else dH

    def _window(self):
        # average pooling without padding, ceil mode or count_include_pad's question
        return self.kW, self.kH, self.dW, self.dH, 0, 0, False, True

    def updateOutput(self, input):
        kernels = thnn(self, input)
        p = float(self.pnorm)
        sums = input.new_empty(0)
        kernels.SpatialAveragePooling_updateOutput(input.pow(p), sums, *self._window())
        self.output = sums.mul_(int(self.kW) * int(self.kH)).pow_(1 / p)
        return self.output

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        p = float(self.pnorm)
        utils.same_size(self.output, gradOutput, "%s: output" % self.torch_typename(), "gradOutput")
        # d out / d x = x^(p-1) * out^(1-p) for every window holding x
        spread = input.new_empty(0)
        kernels.SpatialAveragePooling_updateGradInput(
            input, gradOutput * self.output.pow(1 - p), spread, *self._window()
        )
        self.gradInput = spread.mul_(int(self.kW) * int(self.kH)).mul_(input.pow(p - 1))
        return self.gradInput


class SpatialAdaptiveMaxPooling(_MaxPooling):
    """Max over windows that tile the input into an H x W output (W, H: torch7's order);
    THNN's SpatialAdaptiveMaxPooling kernels."""

    def __init__(self, W, H):
        super().__init__()
        self.W, self.H = W, H
        self.indices = torch.empty(0, dtype=torch.int64)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out, indices = input.new_empty(0), torch.empty(0, dtype=torch.int64)
        kernels.SpatialAdaptiveMaxPooling_updateOutput(input, out, indices, self.W, self.H)
        self.output, self.indices = out, indices
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SpatialAdaptiveMaxPooling_updateGradInput(input, gradOutput, gi, self.indices)
        self.gradInput = gi
        return gi


class SpatialAdaptiveAveragePooling(Module):
    """Means over windows that tile the input into an H x W output; THNN's
    SpatialAdaptiveAveragePooling kernels."""

    def __init__(self, W, H):
        super().__init__()
        self.W, self.H = W, H

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.SpatialAdaptiveAveragePooling_updateOutput(input, out, self.W, self.H)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SpatialAdaptiveAveragePooling_updateGradInput(input, gradOutput, gi)
        self.gradInput = gi
        return gi


class SpatialFractionalMaxPooling(_MaxPooling):
    """Fractional max pooling (Graham 2014) as torch7: poolSizeW x poolSizeH windows at
    pseudo-random positions giving an outW x outH output (or ratioW, ratioH of the input
    size); THNN's SpatialFractionalMaxPooling kernels. One pair of samples in [0, 1) per
    batch element and plane (`randomSamples`, new at every forward unless
    fixPoolingRegions()) places the windows."""

    newRandomPool = False
    outW = outH = ratioW = ratioH = None
    randomSamples = None

    def __init__(self, poolSizeW, poolSizeH, arg1, arg2):
        super().__init__()
        check(
            poolSizeW >= 2 and poolSizeH >= 2,
            ValueError,
            "nn.SpatialFractionalMaxPooling: the pooling size must be at least 2, got %sx%s",
            poolSizeW,
            poolSizeH,
        )
        self.poolSizeW, self.poolSizeH = poolSizeW, poolSizeH
        if arg1 >= 1 and arg2 >= 1:
            self.outW, self.outH = int(arg1), int(arg2)
        else:
            check(
                0 < arg1 < 1 and 0 < arg2 < 1,
                ValueError,
                "nn.SpatialFractionalMaxPooling: ratios must be in (0, 1), got %s, %s",
                arg1,
                arg2,
            )
            self.ratioW, self.ratioH = arg1, arg2
        self.newRandomPool = False
        self.indices = torch.empty(0, dtype=torch.int64)

    def fixPoolingRegions(self, val=True):
        # torch7's name reads backwards: newRandomPool true keeps the samples between calls
        self.newRandomPool = val
        return self

    def _output_size(self, input):
        """(outW, outH) for input, checked."""
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (3, 4))
        if self.outW is not None:
            oW, oH = int(self.outW), int(self.outH)
        else:
            oW, oH = int(input.size(-1) * self.ratioW), int(input.size(-2) * self.ratioH)
        check(
            oW >= 1 and oH >= 1,
            RuntimeError,
            "%s: empty output for input %s",
            self.torch_typename(),
            tuple(input.shape),
        )
        return oW, oH

    def _samples(self, input):
        size = (1 if input.dim() == 3 else input.size(0), input.size(-3), 2)
        samples = self.randomSamples
        if (
            not self.newRandomPool
            or not torch.is_tensor(samples)
            or tuple(samples.shape) != size
            or samples.dtype != input.dtype
        ):
            samples = self.randomSamples = torch.rand(size, dtype=input.dtype)
        return samples

    def _sizes(self, input):
        return self._output_size(input) + (self.poolSizeW, self.poolSizeH)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        sizes = self._sizes(input)
        out, indices = input.new_empty(0), torch.empty(0, dtype=torch.int64)
        kernels.SpatialFractionalMaxPooling_updateOutput(input, out, *sizes, indices, self._samples(input))
        self.output, self.indices = out, indices
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SpatialFractionalMaxPooling_updateGradInput(input, gradOutput, gi, *self._sizes(input), self.indices)
        self.gradInput = gi
        return gi

    def clearState(self):
        utils.clear(self, "randomSamples")
        return super().clearState()


class SpatialMaxUnpooling(Module):
    """The inverse of its SpatialMaxPooling module `pooling` (kernel = stride): each value
    goes back where the pooling found its max, zeros elsewhere; THNN's SpatialMaxUnpooling
    kernels over the pooling's indices."""

    def __init__(self, poolingModule):
        super().__init__()
        check(
            isinstance(poolingModule, SpatialMaxPooling),
            TypeError,
            "nn.SpatialMaxUnpooling: the argument must be a nn.SpatialMaxPooling module, got %s",
            type(poolingModule).__name__,
        )
        check(
            poolingModule.kH == poolingModule.dH and poolingModule.kW == poolingModule.dW,
            ValueError,
            "nn.SpatialMaxUnpooling: the pooling module's kernel must equal its stride",
        )
        self.pooling = poolingModule

    def setParams(self):
        self.indices = self.pooling.indices
        self.oheight = self.pooling.iheight
        self.owidth = self.pooling.iwidth

    def updateOutput(self, input):
        kernels = thnn(self, input)
        self.setParams()
        out = input.new_empty(0)
        kernels.SpatialMaxUnpooling_updateOutput(input, out, self.indices, self.owidth, self.oheight)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        self.setParams()
        gi = input.new_empty(0)
        kernels.SpatialMaxUnpooling_updateGradInput(input, gradOutput, gi, self.indices, self.owidth, self.oheight)
        self.gradInput = gi
        return gi

    def __repr__(self):
        return "%s associated to %r" % (self.torch_typename(), self.pooling)


# the indices tensors a VolumetricMaxPooling forward made (id -> weak reference): flat
# positions that need no check
_FLAT_INDICES = {}


def _mark_flat(indices):
    key = id(indices)
    _FLAT_INDICES[key] = weakref.ref(indices, lambda _, key=key: _FLAT_INDICES.pop(key, None))


def _is_marked_flat(indices):
    ref = _FLAT_INDICES.get(id(indices))
    return ref is not None and ref() is indices


class VolumetricMaxPooling(_CeilMode, _MaxPooling):
    """Max over kT x kW x kH windows, THNN's VolumetricMaxPooling kernels. `indices`: the
    0-based flat position (t * height + h) * width + w of each max in its volume, as this
    project's THNN keeps it (1-based in a .t7 file; see Note [1-based fields] in t7fields).
    A file torch7 wrote holds its packed window offsets instead: they are recognised and
    read (_flat_indices) until the next forward recomputes them."""

    padT = padW = padH = 0
    ceil_mode = False

    def __init__(self, kT, kW, kH, dT=None, dW=None, dH=None, padT=0, padW=0, padH=0):
        super().__init__()
        _set_window(self, "TWH", (kT, kW, kH), (dT, dW, dH), (padT, padW, padH))
        self.indices = torch.empty(0, dtype=torch.int64)

    def _geometry(self):
        """kernel, stride, padding and dilation, (T, H, W) each."""
        return (
            _ints(self.kT, self.kH, self.kW),
            _ints(self.dT, self.dH, self.dW),
            _ints(self.padT, self.padH, self.padW),
            _ints(getattr(self, "dilationT", 1), getattr(self, "dilationH", 1), getattr(self, "dilationW", 1)),
        )

    def _window(self):
        return self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH

    def _pool(self, kernels, input, out, indices):
        kernels.VolumetricMaxPooling_updateOutput(input, out, indices, *self._window(), bool(self.ceil_mode))

    def _unpool_grad(self, kernels, input, gradOutput, gi, indices):
        kernels.VolumetricMaxPooling_updateGradInput(
            input, gradOutput, gi, indices, *self._window(), bool(self.ceil_mode)
        )

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out, indices = input.new_empty(0), torch.empty(0, dtype=torch.int64)
        self._pool(kernels, input, out, indices)
        _mark_flat(indices)
        self.itime, self.iheight, self.iwidth = input.size(-3), input.size(-2), input.size(-1)
        self.output, self.indices = out, indices
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        indices = self._flat_indices(tuple(input.shape[-3:]))
        gi = input.new_empty(0)
        self._unpool_grad(kernels, input, gradOutput, gi, indices)
        self.gradInput = gi
        return gi

    def _window_offsets(self, position, in_size, out_size):
        """Per axis, (position's coordinate - its window's start) for each output cell."""
        k, s, p, d = self._geometry()
        coords = (position // (in_size[1] * in_size[2]), (position // in_size[2]) % in_size[1], position % in_size[2])
        shapes = ((-1, 1, 1), (-1, 1), (-1,))
        return [coords[i] - (torch.arange(out_size[i]) * s[i] - p[i]).reshape(shapes[i]) for i in range(3)]

    def _flat_indices(self, in_size):
        """`indices` as flat positions in volumes of in_size (T, H, W)."""
        idx = self.indices
        if _is_marked_flat(idx):
            return idx
        name = self.torch_typename()
        check(idx.dim() >= 3 and idx.numel() > 0, RuntimeError, "%s: run forward first", name)
        k, s, p, d = self._geometry()
        out_size, volume = tuple(idx.shape[-3:]), math.prod(in_size)
        inside = (idx >= 0) & (idx < volume)
        for i, off in enumerate(self._window_offsets(idx, in_size, out_size)):
            inside &= (off >= 0) & (off <= (k[i] - 1) * d[i]) & (off % d[i] == 0)
        if bool(inside.all()):
            return idx
        # torch7 wrote the offsets (t, h, w) of the max inside its unclipped window as the
        # bytes of a number: t | h << 8 | w << 16 (0-based; load_lua took one off it)
        packed = (idx + 1) % (1 << 32)
        offsets = [(packed // (1 << (8 * i))) % 256 for i in range(3)]
        starts = [torch.arange(out_size[i]) * s[i] - p[i] for i in range(3)]
        shapes = ((-1, 1, 1), (-1, 1), (-1,))
        coords = [offsets[i] * d[i] + starts[i].reshape(shapes[i]) for i in range(3)]
        ok = packed // (1 << 24) == 0
        for i in range(3):
            ok &= (offsets[i] < k[i]) & (coords[i] >= 0) & (coords[i] < in_size[i])
        check(
            bool(ok.all()),
            RuntimeError,
            "%s: `indices` are neither positions of the input of size %s inside their windows nor torch7's "
            "packed window offsets; run forward on this input first",
            name,
            tuple(in_size),
        )
        return (coords[0] * in_size[1] + coords[1]) * in_size[2] + coords[2]

    def __repr__(self):
        s = "%s(%dx%dx%d, %d,%d,%d" % (self.torch_typename(), self.kT, self.kW, self.kH, self.dT, self.dW, self.dH)
        if (self.padT, self.padW, self.padH) != (0, 0, 0):
            s += ", %d,%d,%d" % (self.padT, self.padW, self.padH)
        return s + ")"


class VolumetricDilatedMaxPooling(VolumetricMaxPooling):
    """VolumetricMaxPooling over windows of every dilationT/W/H-th element."""

    dilationT = dilationW = dilationH = 1

    def __init__(
        self, kT, kW, kH, dT=None, dW=None, dH=None, padT=0, padW=0, padH=0, dilationT=1, dilationW=1, dilationH=1
    ):
        super().__init__(kT, kW, kH, dT, dW, dH, padT, padW, padH)
        self.dilationT, self.dilationW, self.dilationH = dilationT, dilationW, dilationH

    def _dilated_window(self):
        return self._window() + (self.dilationT, self.dilationW, self.dilationH, bool(self.ceil_mode))

    def _pool(self, kernels, input, out, indices):
        kernels.VolumetricDilatedMaxPooling_updateOutput(input, out, indices, *self._dilated_window())

    def _unpool_grad(self, kernels, input, gradOutput, gi, indices):
        kernels.VolumetricDilatedMaxPooling_updateGradInput(input, gradOutput, gi, indices, *self._dilated_window())


class VolumetricMaxUnpooling(Module):
    """The inverse of its VolumetricMaxPooling module `pooling`, THNN's
    VolumetricMaxUnpooling kernels over the pooling's indices."""

    def __init__(self, poolingModule):
        super().__init__()
        check(
            isinstance(poolingModule, VolumetricMaxPooling),
            TypeError,
            "nn.VolumetricMaxUnpooling: the argument must be a nn.VolumetricMaxPooling module, got %s",
            type(poolingModule).__name__,
        )
        check(
            poolingModule.kT == poolingModule.dT
            and poolingModule.kH == poolingModule.dH
            and poolingModule.kW == poolingModule.dW,
            ValueError,
            "nn.VolumetricMaxUnpooling: the pooling module's kernel must equal its stride",
        )
        self.pooling = poolingModule

    def setParams(self):
        pool = self.pooling
        check(
            getattr(pool, "itime", None) is not None,
            RuntimeError,
            "nn.VolumetricMaxUnpooling: the pooling module has not run forward yet",
        )
        self.indices = pool.indices
        self.otime, self.oheight, self.owidth = pool.itime, pool.iheight, pool.iwidth
        self.dT, self.dH, self.dW = pool.dT, pool.dH, pool.dW
        self.padT, self.padH, self.padW = pool.padT, pool.padH, pool.padW

    def _args(self):
        """The pooling's indices as flat positions, and the sizes and window THNN takes."""
        flat = self.pooling._flat_indices(_ints(self.otime, self.oheight, self.owidth))
        sizes = (self.otime, self.owidth, self.oheight, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH)
        return flat, sizes

    def updateOutput(self, input):
        kernels = thnn(self, input)
        self.setParams()
        flat, sizes = self._args()
        out = input.new_empty(0)
        kernels.VolumetricMaxUnpooling_updateOutput(input, out, flat, *sizes)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        self.setParams()
        flat, sizes = self._args()
        gi = input.new_empty(0)
        kernels.VolumetricMaxUnpooling_updateGradInput(input, gradOutput, gi, flat, *sizes)
        self.gradInput = gi
        return gi


# ================================================================ resampling


class SpatialUpSamplingNearest(Module):
    """Each pixel repeated scale x scale times; THNN's SpatialUpSamplingNearest kernels."""

    def __init__(self, scale):
        super().__init__()
        check(
            int(scale) == scale and scale >= 1,
            ValueError,
            "nn.SpatialUpSamplingNearest: the scale must be a positive integer, got %r",
            scale,
        )
        self.scale_factor = int(scale)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (3, 4))
        out = input.new_empty(0)
        kernels.SpatialUpSamplingNearest_updateOutput(input, out, self.scale_factor)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (3, 4))
        gi = input.new_empty(0)
        kernels.SpatialUpSamplingNearest_updateGradInput(input, gradOutput, gi, self.scale_factor)
        self.gradInput = gi
        return gi


class SpatialUpSamplingBilinear(Module):
    """Bilinear upsampling with aligned corners: an H x W input becomes
    (H scale) x (W scale) as torch/nn's code computes it (its comment's (H - 1) scale + 1 was
    an older version's), or oheight x owidth when given as a table
    {'oheight': ..., 'owidth': ...}; THNN's SpatialUpSamplingBilinear kernels."""

    scale_factor = None
    oheight = owidth = None

    def __init__(self, params):
        super().__init__()
        if isinstance(params, dict):
            self.oheight, self.owidth = int(params["oheight"]), int(params["owidth"])
            check(
                self.oheight >= 1 and self.owidth >= 1,
                ValueError,
                "nn.SpatialUpSamplingBilinear: output sizes must be positive, got %s",
                params,
            )
        else:
            check(
                int(params) == params and params >= 1,
                ValueError,
                "nn.SpatialUpSamplingBilinear: the scale must be a positive integer, got %r",
                params,
            )
            self.scale_factor = int(params)

    def _sizes(self, input):
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (3, 4))
        h, w = input.size(-2), input.size(-1)
        if self.scale_factor is not None:
            s = int(self.scale_factor)
            return h * s, w * s
        return int(self.oheight), int(self.owidth)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        oh, ow = self._sizes(input)
        out = input.new_empty(0)
        kernels.SpatialUpSamplingBilinear_updateOutput(input, out, oh, ow)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        oh, ow = self._sizes(input)
        expected = tuple(input.shape[:-2]) + (oh, ow)
        check(
            torch.is_tensor(gradOutput) and tuple(gradOutput.shape) == expected,
            RuntimeError,
            "%s: gradOutput of size %s must be %s",
            self.torch_typename(),
            tuple(gradOutput.shape) if torch.is_tensor(gradOutput) else type(gradOutput).__name__,
            expected,
        )
        n = input.size(0) if input.dim() == 4 else 1
        gi = input.new_empty(0)
        kernels.SpatialUpSamplingBilinear_updateGradInput(
            gradOutput, gi, n, input.size(-3), input.size(-2), input.size(-1), oh, ow
        )
        self.gradInput = gi
        return gi


# ================================================================ padding


class SpatialZeroPadding(Module):
    """Pads the last two dimensions with zeros (pad_l columns on the left, pad_r on the
    right, pad_t rows on top, pad_b below; each defaults to pad_l); a negative pad crops."""

    def __init__(self, pad_l, pad_r=None, pad_t=None, pad_b=None):
        super().__init__()
        self.pad_l = pad_l
        self.pad_r = pad_l if pad_r is None else pad_r
        self.pad_t = pad_l if pad_t is None else pad_t
        self.pad_b = pad_l if pad_b is None else pad_b

    def _pads(self):
        """F.pad's list: (left, right, top, bottom)."""
        return list(_ints(self.pad_l, self.pad_r, self.pad_t, self.pad_b))

    def _check(self, input):
        name = self.torch_typename()
        utils.check_tensor(input, "%s: input" % name, (3, 4))
        pads = self._pads()
        for i in range(2):
            check(
                input.size(input.dim() - 1 - i) + pads[2 * i] + pads[2 * i + 1] >= 1,
                RuntimeError,
                "%s: padding %s leaves nothing of an input of size %s",
                name,
                pads,
                tuple(input.shape),
            )
        return pads

    def updateOutput(self, input):
        self.output = F.pad(input, self._check(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        pads = self._check(input)
        expected = list(input.shape)
        expected[-1] += pads[0] + pads[1]
        expected[-2] += pads[2] + pads[3]
        utils.check_tensor(gradOutput, "%s: gradOutput" % self.torch_typename())
        check(
            list(gradOutput.shape) == expected,
            RuntimeError,
            "%s: gradOutput of size %s must be %s",
            self.torch_typename(),
            tuple(gradOutput.shape),
            tuple(expected),
        )
        self.gradInput = F.pad(gradOutput, [-p for p in pads])
        return self.gradInput

    def __repr__(self):
        return "%s(l=%d, r=%d, t=%d, b=%d)" % (self.torch_typename(), self.pad_l, self.pad_r, self.pad_t, self.pad_b)


class SpatialReflectionPadding(SpatialZeroPadding):
    """Pads by the mirror image without repeating the edge (d c b | a b c d | c b a), each
    pad smaller than the padded size; THNN's SpatialReflectionPadding kernels."""

    _kernel = "SpatialReflectionPadding"

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        getattr(kernels, self._kernel + "_updateOutput")(input, out, *self._pads())
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        getattr(kernels, self._kernel + "_updateGradInput")(input, gradOutput, gi, *self._pads())
        self.gradInput = gi
        return gi


class SpatialReplicationPadding(SpatialReflectionPadding):
    """Pads by repeating the edge (a a | a b c d | d d); THNN's SpatialReplicationPadding
    kernels."""

    _kernel = "SpatialReplicationPadding"


class VolumetricReplicationPadding(Module):
    """Pads the last three dimensions by repeating the edge: pleft / pright columns, ptop /
    pbottom rows, pfront / pback frames (each defaults to pleft); THNN's
    VolumetricReplicationPadding kernels."""

    def __init__(self, pleft, pright=None, ptop=None, pbottom=None, pfront=None, pback=None):
        super().__init__()
        self.pleft = pleft
        self.pright = pleft if pright is None else pright
        self.ptop = pleft if ptop is None else ptop
        self.pbottom = pleft if pbottom is None else pbottom
        self.pfront = pleft if pfront is None else pfront
        self.pback = pleft if pback is None else pback

    def _pads(self):
        return self.pleft, self.pright, self.ptop, self.pbottom, self.pfront, self.pback

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.VolumetricReplicationPadding_updateOutput(input, out, *self._pads())
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.VolumetricReplicationPadding_updateGradInput(input, gradOutput, gi, *self._pads())
        self.gradInput = gi
        return gi
