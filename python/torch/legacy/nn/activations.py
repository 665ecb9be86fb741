"""Activations: elementwise functions and the softmax family."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module

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


def _check_pointwise(name, input, gradOutput=None):
    utils.check_tensor(input, "%s: input" % name)
    if gradOutput is not None:
        utils.same_size(input, gradOutput, "%s: input" % name, "gradOutput")


class Tanh(Module):
    def updateOutput(self, input):
        _check_pointwise("nn.Tanh", input)
        self.output = torch.tanh(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise("nn.Tanh", input, gradOutput)
        self.gradInput = gradOutput * (1 - self.output * self.output)
        return self.gradInput


class _Pointwise(Module):
    """An elementwise function: _forward(input) -> output and _grad(input, gradOutput) ->
    gradInput, with the size checks done here."""

    def updateOutput(self, input):
        _check_pointwise(self.torch_typename(), input)
        self.output = self._forward(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise(self.torch_typename(), input, gradOutput)
        self.gradInput = self._grad(input, gradOutput)
        return self.gradInput


class Sigmoid(_Pointwise):
    def _forward(self, input):
        return torch.sigmoid(input)

    def _grad(self, input, gradOutput):
        return gradOutput * self.output * (1 - self.output)


class Threshold(Module):
    """output = input where input > threshold, else val. inplace: computed in input (and
    the gradient in gradOutput)."""

    threshold = 1e-6
    val = 0.0
    inplace = False

    def __init__(self, threshold=1e-6, value=0, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.val = value
        self.inplace = inplace

    def updateOutput(self, input):
        _check_pointwise(self.torch_typename(), input)
        below = input <= self.threshold
        if self.inplace:
            self.output = input.masked_fill_(below, self.val)
        else:
            self.output = input.masked_fill(below, self.val)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise(self.torch_typename(), input, gradOutput)
        below = input <= self.threshold
        if self.inplace:
            self.gradInput = gradOutput.masked_fill_(below, 0)
        else:
            self.gradInput = gradOutput.masked_fill(below, 0)
        return self.gradInput

    def __repr__(self):
        return "%s(%g, %g)" % (self.torch_typename(), self.threshold, self.val)


class ReLU(Threshold):
    threshold = 0.0

    def __init__(self, inplace=False):
        super().__init__(0, 0, inplace)

    def __repr__(self):
        return self.torch_typename()


def _softmax_dim(name, input):
    utils.check_tensor(input, "%s: input" % name, (1, 2, 3, 4))
    # torch7's layouts: features, batch x features, features x h x w, batch x features x h x w
    return 0 if input.dim() in (1, 3) else 1


class LogSoftMax(Module):
    def updateOutput(self, input):
        self.output = torch.log_softmax(input, _softmax_dim("nn.LogSoftMax", input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _softmax_dim("nn.LogSoftMax", input)
        _check_pointwise("nn.LogSoftMax", input, gradOutput)
        self.gradInput = gradOutput - torch.exp(self.output) * gradOutput.sum(dim, keepdim=True)
        return self.gradInput


class HardTanh(Module):
    """input clamped to [min_val, max_val]; the gradient passes strictly inside."""

    min_val = -1.0
    max_val = 1.0
    inplace = False

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

    def updateOutput(self, input):
        _check_pointwise(self.torch_typename(), input)
        if self.inplace:
            self.output = input.clamp_(self.min_val, self.max_val)
        else:
            self.output = input.clamp(self.min_val, self.max_val)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise(self.torch_typename(), input, gradOutput)
        outside = (input <= self.min_val) | (input >= self.max_val)
        if self.inplace:
            self.gradInput = gradOutput.masked_fill_(outside, 0)
        else:
            self.gradInput = gradOutput.masked_fill(outside, 0)
        return self.gradInput


class ReLU6(HardTanh):
    # torch7's ReLU6 keeps no bounds: a file's ReLU6 has neither field
    min_val = 0.0
    max_val = 6.0

    def __init__(self, inplace=False):
        super().__init__(0, 6, inplace)


class Clamp(HardTanh):
    def __init__(self, min_value, max_value):
        super().__init__(min_value, max_value)


class LeakyReLU(Module):
    """input where positive, negval * input elsewhere."""

    negval = 1 / 100
    inplace = False

    def __init__(self, negval=1 / 100, ip=False):
        super().__init__()
        self.negval = negval
        self.inplace = ip

    def updateOutput(self, input):
        _check_pointwise("nn.LeakyReLU", input)
        scale = torch.where(input > 0, torch.ones_like(input), torch.full_like(input, self.negval))
        self.output = input.mul_(scale) if self.inplace else input * scale
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise("nn.LeakyReLU", input, gradOutput)
        scale = torch.where(input > 0, torch.ones_like(input), torch.full_like(input, self.negval))
        self.gradInput = gradOutput.mul_(scale) if self.inplace else gradOutput * scale
        return self.gradInput


def _channel_view(weight, input, n_planes):
    """weight shaped to broadcast over input's channel dimension (torch7's PReLU layouts:
    features, batch x features, features x h x w, batch x features x h x w)."""
    if n_planes == 0:
        return weight.reshape(())
    utils.check(
        input.dim() in (1, 2, 3, 4),
        RuntimeError,
        "nn.PReLU: input must have 1 to 4 dimensions, got a tensor of size %s",
        tuple(input.shape),
    )
    dim = 0 if input.dim() in (1, 3) else 1
    utils.check(
        input.size(dim) == n_planes,
        RuntimeError,
        "nn.PReLU: input of size %s must have %d channels in dimension %d",
        tuple(input.shape),
        n_planes,
        dim,
    )
    shape = [1] * input.dim()
    shape[dim] = n_planes
    return weight.reshape(shape)


class PReLU(Module):
    """LeakyReLU with learnt slopes: one shared (nOutputPlane = 0) or one per channel."""

    def __init__(self, nOutputPlane=0):
        super().__init__()
        self.nOutputPlane = nOutputPlane
        dtype = torch.get_default_dtype()
        self.weight = torch.full((max(nOutputPlane, 1),), 0.25, dtype=dtype)
        self.gradWeight = torch.zeros(max(nOutputPlane, 1), dtype=dtype)

    def _planes(self):
        return int(getattr(self, "nOutputPlane", 0))

    def updateOutput(self, input):
        _check_pointwise("nn.PReLU", input)
        w = _channel_view(self.weight, input, self._planes())
        self.output = torch.where(input > 0, input, input * w)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise("nn.PReLU", input, gradOutput)
        w = _channel_view(self.weight, input, self._planes())
        self.gradInput = torch.where(input > 0, gradOutput, gradOutput * w)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        _check_pointwise("nn.PReLU", input, gradOutput)
        w = _channel_view(self.weight, input, self._planes())
        contrib = (input * gradOutput).masked_fill(input > 0, 0)
        if self._planes() == 0:
            self.gradWeight.add_(contrib.sum(), alpha=scale)
        else:
            dims = [d for d in range(input.dim()) if w.size(d) == 1]
            self.gradWeight.add_(contrib.sum(dims).reshape(-1) if dims else contrib.reshape(-1), alpha=scale)

    def __repr__(self):
        return "nn.PReLU(%d)" % self._planes() if self._planes() else "nn.PReLU"


class RReLU(Module):
    """Randomized leaky ReLU: in training, negative inputs are scaled by a slope drawn
    uniformly in [lower, upper] per element (kept in `noise`); in evaluation by their mean."""

    lower = 1 / 8
    upper = 1 / 3
    inplace = False

    def __init__(self, l=1 / 8, u=1 / 3, ip=False):
        super().__init__()
        self.train = True  # a field, as torch7's constructor sets it: Lua nn reads a missing one as false
        utils.check(0 <= l <= u, ValueError, "nn.RReLU: need 0 <= lower (%g) <= upper (%g)", l, u)
        self.lower = l
        self.upper = u
        self.inplace = ip
        self.noise = torch.empty(0, dtype=torch.get_default_dtype())

    def updateOutput(self, input):
        _check_pointwise("nn.RReLU", input)
        if self.train:
            slope = torch.empty_like(input).uniform_(self.lower, self.upper)
        else:
            slope = torch.full_like(input, (self.lower + self.upper) / 2)
        self.noise = torch.where(input > 0, torch.ones_like(input), slope)
        self.output = input.mul_(self.noise) if self.inplace else input * self.noise
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise("nn.RReLU", input, gradOutput)
        utils.check(self.noise.shape == input.shape, RuntimeError, "nn.RReLU: backward needs the forward of this input")
        self.gradInput = gradOutput.mul_(self.noise) if self.inplace else gradOutput * self.noise
        return self.gradInput

    def clearState(self):
        utils.clear(self, "noise")
        return super().clearState()

    def __repr__(self):
        return "nn.RReLU (l:%f, u:%f)" % (self.lower, self.upper)


class ELU(Module):
    """input where positive, alpha * (exp(input) - 1) elsewhere."""

    alpha = 1.0
    inplace = False

    def __init__(self, alpha=1, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def updateOutput(self, input):
        _check_pointwise("nn.ELU", input)
        out = torch.where(input > 0, input, (torch.exp(input.clamp(max=0)) - 1) * self.alpha)
        self.output = input.copy_(out) if self.inplace else out
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise("nn.ELU", input, gradOutput)
        # from the output, as torch7 does (the input may have been overwritten in place)
        grad = torch.where(self.output > 0, gradOutput, gradOutput * (self.output + self.alpha))
        self.gradInput = gradOutput.copy_(grad) if self.inplace else grad
        return self.gradInput

    def __repr__(self):
        return "nn.ELU (alpha:%g)" % self.alpha


class HardShrink(_Pointwise):
    """input where |input| > lambda, else 0."""

    def __init__(self, lam=0.5):
        super().__init__()
        self.__dict__["lambda"] = lam

    def _lambda(self):
        return self.__dict__.get("lambda", 0.5)

    def _forward(self, input):
        return input.masked_fill(input.abs() <= self._lambda(), 0)

    def _grad(self, input, gradOutput):
        return gradOutput.masked_fill(input.abs() <= self._lambda(), 0)


class SoftShrink(HardShrink):
    """input - lambda above lambda, input + lambda below -lambda, else 0."""

    def _forward(self, input):
        lam = self._lambda()
        return torch.where(input > lam, input - lam, torch.where(input < -lam, input + lam, torch.zeros_like(input)))


class SoftPlus(_Pointwise):
    """log(1 + exp(beta * input)) / beta; linear where beta * input > threshold."""

    beta = 1.0
    threshold = 20.0

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def _forward(self, input):
        bx = input * self.beta
        return torch.where(bx > self.threshold, input, torch.log1p(torch.exp(bx)) / self.beta)

    def _grad(self, input, gradOutput):
        # torch7's THNN tests beta * output (not beta * input) against the threshold here
        by = self._forward(input) * self.beta
        return torch.where(by > self.threshold, gradOutput, gradOutput * torch.sigmoid(input * self.beta))


class SoftSign(_Pointwise):
    """input / (1 + |input|)."""

    def _forward(self, input):
        return input / (1 + input.abs())

    def _grad(self, input, gradOutput):
        d = 1 + input.abs()
        return gradOutput / (d * d)


class LogSigmoid(_Pointwise):
    """log(1 / (1 + exp(-input)))."""

    def _forward(self, input):
        # -log(1 + exp(-x)), written so that neither sign of x overflows
        return torch.minimum(input, torch.zeros_like(input)) - torch.log1p(torch.exp(-input.abs()))

    def _grad(self, input, gradOutput):
        return gradOutput * torch.sigmoid(-input)


class SoftMax(Module):
    def updateOutput(self, input):
        self.output = torch.softmax(input, _softmax_dim("nn.SoftMax", input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _softmax_dim("nn.SoftMax", input)
        _check_pointwise("nn.SoftMax", input, gradOutput)
        self.gradInput = self.output * (gradOutput - (gradOutput * self.output).sum(dim, keepdim=True))
        return self.gradInput


class SoftMin(Module):
    """softmax(-input)."""

    def updateOutput(self, input):
        self.output = torch.softmax(-input, _softmax_dim("nn.SoftMin", input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _softmax_dim("nn.SoftMin", input)
        _check_pointwise("nn.SoftMin", input, gradOutput)
        self.gradInput = -self.output * (gradOutput - (gradOutput * self.output).sum(dim, keepdim=True))
        return self.gradInput
