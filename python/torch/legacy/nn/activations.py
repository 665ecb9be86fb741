"""Activations: elementwise functions and the softmax family, over THNN's kernels (Note
[Modules over THNN] in utils.py) but SoftSign, which torch7 writes with tensor ops too."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import buffer, check_grad_output, thnn

__all__ = [
    "Tanh",
    "Sigmoid",
    "Threshold",
    "ReLU",
    "ReLU6",
    "HardTanh",
    "Clamp",
    "LeakyReLU",
    "PReLU",
    "RReLU",
    "ELU",
    "HardShrink",
    "SoftShrink",
    "SoftPlus",
    "SoftSign",
    "LogSigmoid",
    "SoftMax",
    "LogSoftMax",
    "SoftMin",
]


class Tanh(Module):
    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.Tanh_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.Tanh_updateGradInput(gradOutput, gi, self.output)
        self.gradInput = gi
        return gi


class Sigmoid(Module):
    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.Sigmoid_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.Sigmoid_updateGradInput(gradOutput, gi, self.output)
        self.gradInput = gi
        return gi


class _InPlace(Module):
    """An activation that may compute in its input (and its gradient in gradOutput), Note
    [In-place activations] in THNN/generic/Activation.h: _forward(kernels, input, output)
    and _backward(kernels, input, gradOutput, gradInput) call the kernel, handed the input
    (gradOutput) itself as the result when in place, so that the output is the input."""

    inplace = False

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input if self.inplace else input.new_empty(0)
        self._forward(kernels, input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = gradOutput if self.inplace else input.new_empty(0)
        self._backward(kernels, input, gradOutput, gi)
        self.gradInput = gi
        return gi


class Threshold(_InPlace):
    """output = input where input > threshold, else val. inplace: computed in input (and
    the gradient in gradOutput); val must not exceed threshold then."""

    threshold = 1e-6
    val = 0.0

    def __init__(self, threshold=1e-6, value=0, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.val = value
        self.inplace = inplace

    def _forward(self, kernels, input, out):
        kernels.Threshold_updateOutput(input, out, self.threshold, self.val, bool(self.inplace))

    def _backward(self, kernels, input, gradOutput, gi):
        kernels.Threshold_updateGradInput(input, gradOutput, gi, self.threshold, self.val, bool(self.inplace))

    def __repr__(self):
        return "%s(%g, %g)" % (self.torch_typename(), self.threshold, self.val)


class ReLU(Threshold):
    threshold = 0.0

    def __init__(self, inplace=False):
        super().__init__(0, 0, inplace)

    def __repr__(self):
        return self.torch_typename()


def _holds_result_of(t, input):
    """Whether t (a module's output or buffer) may hold what a forward of input left."""
    return isinstance(t, torch.Tensor) and t.dtype is input.dtype and t.shape == input.shape


def _check_softmax_input(module, input):
    utils.check_tensor(input, "%s: input" % module.torch_typename(), (1, 2, 3, 4))


class LogSoftMax(Module):
    """log(softmax) over torch7's dimension: 0 for 1-D and 3-D input, 1 for 2-D and 4-D."""

    def updateOutput(self, input):
        _check_softmax_input(self, input)
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.LogSoftMax_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.LogSoftMax_updateGradInput(input, gradOutput, gi, self.output)
        self.gradInput = gi
        return gi


class HardTanh(_InPlace):
    """input clamped to [min_val, max_val]; the gradient passes strictly inside."""

    min_val = -1.0
    max_val = 1.0

    def __init__(self, min_value=-1, max_value=1, inplace=False):
        super().__init__()
        utils.check(
            max_value > min_value,
            ValueError,
            "%s: max_value (%g) must be larger than min_value (%g)",
            self.torch_typename(),
            max_value,
            min_value,
        )
        self.min_val = min_value
        self.max_val = max_value
        self.inplace = inplace

    def _forward(self, kernels, input, out):
        kernels.HardTanh_updateOutput(input, out, self.min_val, self.max_val, bool(self.inplace))

    def _backward(self, kernels, input, gradOutput, gi):
        kernels.HardTanh_updateGradInput(input, gradOutput, gi, self.min_val, self.max_val, bool(self.inplace))


class ReLU6(HardTanh):
    # torch7's ReLU6 keeps no bounds: a file's ReLU6 has neither field
    min_val = 0.0
    max_val = 6.0

    def __init__(self, inplace=False):
        super().__init__(0, 6, inplace)


class Clamp(HardTanh):
    def __init__(self, min_value, max_value):
        super().__init__(min_value, max_value)


class LeakyReLU(_InPlace):
    """input where positive, negval * input elsewhere."""

    negval = 1 / 100

    def __init__(self, negval=1 / 100, ip=False):
        super().__init__()
        self.negval = negval
        self.inplace = ip

    def _forward(self, kernels, input, out):
        kernels.LeakyReLU_updateOutput(input, out, self.negval, bool(self.inplace))

    def _backward(self, kernels, input, gradOutput, gi):
        kernels.LeakyReLU_updateGradInput(input, gradOutput, gi, self.negval, bool(self.inplace))


class PReLU(Module):
    """LeakyReLU with learnt slopes: one shared (nOutputPlane = 0) or one per channel
    (dimension 0 of 1-D and 3-D input, 1 of 2-D and 4-D input)."""

    def __init__(self, nOutputPlane=0):
        super().__init__()
        self.nOutputPlane = nOutputPlane
        dtype = torch.get_default_dtype()
        self.weight = torch.full((max(nOutputPlane, 1),), 0.25, dtype=dtype)
        self.gradWeight = torch.zeros(max(nOutputPlane, 1), dtype=dtype)

    def _planes(self):
        return int(getattr(self, "nOutputPlane", 0))

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.PReLU_updateOutput(input, out, self.weight)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.PReLU_updateGradInput(input, gradOutput, gi, self.weight)
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        check_grad_output(self, input, gradOutput)
        thnn(self, input).PReLU_accGradParameters(input, gradOutput, None, self.weight, self.gradWeight, scale)

    def __repr__(self):
        return "nn.PReLU(%d)" % self._planes() if self._planes() else "nn.PReLU"


class RReLU(_InPlace):
    """Randomized leaky ReLU: in training, negative inputs are scaled by a slope drawn
    uniformly in [lower, upper) per element (kept in `noise`); in evaluation by their mean."""

    lower = 1 / 8
    upper = 1 / 3

    def __init__(self, l=1 / 8, u=1 / 3, ip=False):
        super().__init__()
        self.train = True  # a field, as torch7's constructor sets it: Lua nn reads a missing one as false
        utils.check(0 <= l <= u, ValueError, "nn.RReLU: need 0 <= lower (%g) <= upper (%g)", l, u)
        self.lower = l
        self.upper = u
        self.inplace = ip
        self.noise = torch.empty(0, dtype=torch.get_default_dtype())

    def _forward(self, kernels, input, out):
        self.noise = input.new_empty(0)
        kernels.RReLU_updateOutput(
            input, out, self.noise, self.lower, self.upper, bool(self.train), bool(self.inplace), None
        )

    def _backward(self, kernels, input, gradOutput, gi):
        kernels.RReLU_updateGradInput(
            input, gradOutput, gi, self.noise, self.lower, self.upper, bool(self.train), bool(self.inplace)
        )

    def clearState(self):
        utils.clear(self, "noise")
        return super().clearState()

    def __repr__(self):
        return "nn.RReLU (l:%f, u:%f)" % (self.lower, self.upper)


class ELU(_InPlace):
    """input where positive, alpha * (exp(input) - 1) elsewhere; the gradient is read off
    the output (the input may have been overwritten in place)."""

    alpha = 1.0

    def __init__(self, alpha=1, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def _forward(self, kernels, input, out):
        kernels.ELU_updateOutput(input, out, self.alpha, bool(self.inplace))

    def _backward(self, kernels, input, gradOutput, gi):
        kernels.ELU_updateGradInput(input, gradOutput, gi, self.output, self.alpha, bool(self.inplace))

    def __repr__(self):
        return "nn.ELU (alpha:%g)" % self.alpha


class HardShrink(Module):
    """input where |input| > lambda, else 0."""

    def __init__(self, lam=0.5):
        super().__init__()
        self.__dict__["lambda"] = lam

    def _lambda(self):
        return self.__dict__.get("lambda", 0.5)

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.HardShrink_updateOutput(input, out, self._lambda())
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.HardShrink_updateGradInput(input, gradOutput, gi, self._lambda())
        self.gradInput = gi
        return gi


class SoftShrink(HardShrink):
    """input - lambda above lambda, input + lambda below -lambda, else 0."""

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.SoftShrink_updateOutput(input, out, self._lambda())
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SoftShrink_updateGradInput(input, gradOutput, gi, self._lambda())
        self.gradInput = gi
        return gi


class SoftPlus(Module):
    """log(1 + exp(beta * input)) / beta; linear where beta * input > threshold (the
    backward tests beta * output against it, as torch7's THNN). The backward computes the
    output it reads when no forward of this input ran."""

    beta = 1.0
    threshold = 20.0

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.SoftPlus_updateOutput(input, out, self.beta, self.threshold)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        if not _holds_result_of(self.output, input):
            self.updateOutput(input)
        gi = input.new_empty(0)
        kernels.SoftPlus_updateGradInput(input, gradOutput, gi, self.output, self.beta, self.threshold)
        self.gradInput = gi
        return gi


class SoftSign(Module):
    """input / (1 + |input|)."""

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.SoftSign: input")
        self.output = input / (1 + input.abs())
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        d = 1 + input.abs()
        self.gradInput = gradOutput / (d * d)
        return self.gradInput


class LogSigmoid(Module):
    """log(1 / (1 + exp(-input))); `buffer` keeps exp(-|input|) for the backward, which
    computes it when no forward of this input ran."""

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out, buf = input.new_empty(0), buffer(self.__dict__.get("buffer"), input)
        kernels.LogSigmoid_updateOutput(input, out, buf)
        self.output, self.buffer = out, buf
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        if not _holds_result_of(self.__dict__.get("buffer"), input):
            self.updateOutput(input)
        gi = input.new_empty(0)
        kernels.LogSigmoid_updateGradInput(input, gradOutput, gi, self.buffer)
        self.gradInput = gi
        return gi

    def clearState(self):
        utils.clear(self, "buffer")
        return super().clearState()


class SoftMax(Module):
    """softmax over torch7's dimension: 0 for 1-D and 3-D input, 1 for 2-D and 4-D."""

    def updateOutput(self, input):
        _check_softmax_input(self, input)
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.SoftMax_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SoftMax_updateGradInput(input, gradOutput, gi, self.output)
        self.gradInput = gi
        return gi


class SoftMin(Module):
    """softmax(-input); `mininput` keeps -input for the backward."""

    def updateOutput(self, input):
        _check_softmax_input(self, input)
        kernels = thnn(self, input)
        neg = torch.neg(input, out=buffer(self.__dict__.get("mininput"), input))
        out = input.new_empty(0)
        kernels.SoftMax_updateOutput(neg, out)
        self.output, self.mininput = out, neg
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.SoftMax_updateGradInput(self.mininput, gradOutput, gi, self.output)
        gi.neg_()
        self.gradInput = gi
        return gi

    def clearState(self):
        utils.clear(self, "mininput")
        return super().clearState()
