"""Normalizations over planes: batch normalization (plain, spatial, volumetric), local
response and local contrast normalizations, the softmax over planes, and the dropouts
that drop whole planes. torch7's fields and conventions; gradients written out."""

import torch
import torch.nn.functional as F
from torch.legacy.nn import utils
from torch.legacy.nn.containers import Sequential
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import buffer, check, check_grad_output, thnn

__all__ = [
    "BatchNormalization",
    "SpatialBatchNormalization",
    "VolumetricBatchNormalization",
    "SpatialCrossMapLRN",
    "SpatialSubtractiveNormalization",
    "SpatialDivisiveNormalization",
    "SpatialContrastiveNormalization",
    "SpatialSoftMax",
    "SpatialDropout",
    "VolumetricDropout",
]


# ================================================================ batch normalization


class BatchNormalization(Module):
    """y = (x - mean) / sqrt(var + eps) * weight + bias per feature (dimension 1), THNN's
    BatchNormalization kernels. In training the batch's statistics are used and the running
    ones updated: running = (1 - momentum) running + momentum batch (the variance unbiased);
    save_mean and save_std (1 / sqrt(biased var + eps)) keep the batch's for the backward
    pass. In evaluation the running statistics are used, and inputs without the batch
    dimension are accepted."""

    nDim = 2
    eps = 1e-5
    momentum = 0.1

    def __init__(self, nOutput, eps=1e-5, momentum=0.1, affine=True):
        super().__init__()
        self.train = True  # a field, as torch7's constructor sets it: Lua nn reads a missing one as false
        check(
            nOutput > 0,
            ValueError,
            "%s: the number of features must be positive, got %r",
            self.torch_typename(),
            nOutput,
        )
        dtype = torch.get_default_dtype()
        self.eps, self.momentum, self.affine = eps, momentum, bool(affine)
        self.running_mean = torch.zeros(nOutput, dtype=dtype)
        self.running_var = torch.ones(nOutput, dtype=dtype)
        if self.affine:
            self.weight = torch.empty(nOutput, dtype=dtype)
            self.bias = torch.empty(nOutput, dtype=dtype)
            self.gradWeight = torch.zeros(nOutput, dtype=dtype)
            self.gradBias = torch.zeros(nOutput, dtype=dtype)
        self.save_mean = torch.empty(0, dtype=dtype)
        self.save_std = torch.empty(0, dtype=dtype)
        self.reset()

    def _affine(self):
        # files of older nn versions have no `affine`: the weight tells
        return getattr(self, "weight", None) is not None

    def reset(self, stdv=None):
        if self._affine():
            self.weight.uniform_()
            self.bias.zero_()
        self.running_mean.zero_()
        self.running_var.fill_(1)
        return self

    def _check_input(self, input):
        name = self.torch_typename()
        utils.check_tensor(input, "%s: input" % name)
        nd = int(self.nDim)
        ok = input.dim() == nd or (input.dim() == nd - 1 and not self.train)
        check(
            ok,
            RuntimeError,
            "%s: expected a %dD input%s, got size %s",
            name,
            nd,
            " (or %dD in evaluation mode)" % (nd - 1) if nd > 1 else "",
            tuple(input.shape),
        )
        x = input if input.dim() == nd else input.unsqueeze(0)
        n = self.running_mean.numel()
        check(
            x.size(1) == n,
            RuntimeError,
            "%s: expected %d features in dimension %d, got size %s",
            name,
            n,
            1 if input.dim() == nd else 0,
            tuple(input.shape),
        )
        return x

    def _stats(self, input):
        """weight, bias, running_mean, running_var as the kernels take them: None without
        affine, and in input's element type (a module built under another default type
        computes in its input's type; its running statistics are written back)."""
        weight = getattr(self, "weight", None) if self._affine() else None
        bias = getattr(self, "bias", None) if self._affine() else None
        return [t if t is None or t.dtype is input.dtype else t.to(input.dtype) for t in (weight, bias)] + [
            self.running_mean if self.running_mean.dtype is input.dtype else self.running_mean.to(input.dtype),
            self.running_var if self.running_var.dtype is input.dtype else self.running_var.to(input.dtype),
        ]

    def updateOutput(self, input):
        kernels = thnn(self, input)
        x = self._check_input(input)
        if self.train:
            check(
                x.numel() // x.size(1) > 1,
                RuntimeError,
                "%s: training needs more than one value per feature, got input size %s",
                self.torch_typename(),
                tuple(input.shape),
            )
        weight, bias, running_mean, running_var = self._stats(x)
        self.save_mean = buffer(self.__dict__.get("save_mean"), x)
        self.save_std = buffer(self.__dict__.get("save_std"), x)
        out = x.new_empty(0)
        kernels.BatchNormalization_updateOutput(
            x,
            out,
            weight,
            bias,
            running_mean,
            running_var,
            self.save_mean,
            self.save_std,
            bool(self.train),
            float(self.momentum),
            float(self.eps),
        )
        if self.train and running_mean is not self.running_mean:
            self.running_mean.copy_(running_mean)
            self.running_var.copy_(running_var)
        self.output = out if input.dim() == x.dim() else out[0]
        return self.output

    def _backward(self, input, gradOutput, scale, gradInput, gradWeight, gradBias):
        kernels = thnn(self, input)
        x = self._check_input(input)
        utils.same_size(input, gradOutput, "%s: input" % self.torch_typename(), "gradOutput")
        if self.train:
            check(
                isinstance(self.__dict__.get("save_mean"), torch.Tensor) and self.save_mean.numel() == x.size(1),
                RuntimeError,
                "%s: backward in training mode needs a forward first",
                self.torch_typename(),
            )
        g = gradOutput if input.dim() == x.dim() else gradOutput.unsqueeze(0)
        weight, _, running_mean, running_var = self._stats(x)
        kernels.BatchNormalization_backward(
            x,
            g,
            gradInput,
            gradWeight,
            gradBias,
            weight,
            running_mean,
            running_var,
            self.save_mean,
            self.save_std,
            bool(self.train),
            scale,
            float(self.eps),
        )

    def backward(self, input, gradOutput, scale=1):
        # one kernel call for both, as torch7's
        gi = input.new_empty(0)
        affine = self._affine()
        self._backward(
            input, gradOutput, scale, gi, self.gradWeight if affine else None, self.gradBias if affine else None
        )
        self.gradInput = gi.view(input.shape)
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        gi = input.new_empty(0)
        self._backward(input, gradOutput, 1, gi, None, None)
        self.gradInput = gi.view(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if not self._affine():
            return
        self._backward(input, gradOutput, scale, None, self.gradWeight, self.gradBias)

    def parameters(self):
        if self._affine():
            return [self.weight, self.bias], [self.gradWeight, self.gradBias]
        return None

    def clearState(self):
        utils.clear(self, "save_mean", "save_std")
        return super().clearState()

    def __repr__(self):
        return "%s (%dD) (%d)" % (self.torch_typename(), self.nDim, self.running_mean.numel())


class SpatialBatchNormalization(BatchNormalization):
    """BatchNormalization of batch x planes x h x w inputs, per plane."""

    nDim = 4


class VolumetricBatchNormalization(BatchNormalization):
    nDim = 5


# ================================================================ local response normalization


def _channel_window_sum(x, size):
    """Per channel c (dimension 1): the sum of x over channels c - (size - 1) // 2 ..
    c + (size - 1) // 2 (torch7's window: centred, so an even size covers size - 1 planes)."""
    out = torch.zeros_like(x)
    c = x.size(1)
    half = (size - 1) // 2
    for offset in range(-half, half + 1):
        length = c - abs(offset)
        if length > 0:
            out.narrow(1, max(-offset, 0), length).add_(x.narrow(1, max(offset, 0), length))
    return out


class SpatialCrossMapLRN(Module):
    """y = x / (k + alpha / size * sum of x^2 over the neighbouring planes)^beta, the window
    centred on each plane: c - (size - 1) // 2 .. c + (size - 1) // 2 as in torch7 (an even
    size sums size - 1 planes, still divided by size). `scale` keeps the denominator
    before the power."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        check(
            int(size) == size and size >= 1,
            ValueError,
            "nn.SpatialCrossMapLRN: size must be a positive integer, got %r",
            size,
        )
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.scale = torch.empty(0, dtype=torch.get_default_dtype())

    def _input(self, input):
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (3, 4))
        return input.unsqueeze(0) if input.dim() == 3 else input

    def updateOutput(self, input):
        x = self._input(input)
        size = int(self.size)
        scale = _channel_window_sum(x * x, size) * (float(self.alpha) / size) + float(self.k)
        out = x * scale.pow(-float(self.beta))
        self.scale = scale if input.dim() == 4 else scale[0]
        self.output = out if input.dim() == 4 else out[0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        x = self._input(input)
        utils.same_size(input, gradOutput, "%s: input" % self.torch_typename(), "gradOutput")
        g = gradOutput if input.dim() == 4 else gradOutput.unsqueeze(0)
        size, alpha, beta = int(self.size), float(self.alpha), float(self.beta)
        scale = _channel_window_sum(x * x, size) * (alpha / size) + float(self.k)
        out = x * scale.pow(-beta)
        # the window is symmetric, so summing g y / scale over the windows that hold c is
        # summing over c's own window
        gi = g * scale.pow(-beta) - (2 * alpha * beta / size) * x * _channel_window_sum(g * out / scale, size)
        self.gradInput = gi if input.dim() == 4 else gi[0]
        return self.gradInput

    def clearState(self):
        utils.clear(self, "scale")
        return super().clearState()

    def __repr__(self):
        return "%s(%d, %g, %g, %g)" % (self.torch_typename(), self.size, self.alpha, self.beta, self.k)


# ================================================================ local contrast normalization


class _LocalNormalization(Module):
    """The weighted local sums of torch7's subtractive/divisive normalizations: a kernel
    (2-D, or 1-D applied along both axes) over every plane, summed over planes, zero padded
    to keep the size. `kernel` is normalized as torch7 does; the computation normalizes it
    again (to sum 1 / nInputPlane), so a file's already normalized kernel gives the same."""

    _name = "nn.SpatialNormalization"

    def _init_kernel(self, nInputPlane, kernel, one_d_norm):
        name = self.torch_typename()
        self.nInputPlane = nInputPlane
        kernel = torch.ones(9, 9, dtype=torch.get_default_dtype()) if kernel is None else kernel
        utils.check_tensor(kernel, "%s: kernel" % name, (1, 2))
        check(
            all(s % 2 == 1 for s in kernel.shape),
            ValueError,
            "%s: the averaging kernel must have odd sizes, got %s",
            name,
            tuple(kernel.shape),
        )
        # torch7 divides in place the kernel it was given
        if kernel.dim() == 2:
            kernel.div_(kernel.sum().item() * nInputPlane)
        else:
            kernel.div_(kernel.sum().item() * one_d_norm(nInputPlane))
        self.kernel = kernel

    def _weight(self, dtype):
        k = self.kernel.to(dtype)
        k2 = torch.outer(k, k) if k.dim() == 1 else k
        c = int(self.nInputPlane)
        k2 = k2 / (k2.sum() * c)
        return k2.reshape((1, 1) + tuple(k2.shape)).expand((1, c) + tuple(k2.shape)).contiguous()

    def _input(self, input):
        name = self.torch_typename()
        utils.check_tensor(input, "%s: input" % name, (3, 4))
        x = input.unsqueeze(0) if input.dim() == 3 else input
        check(
            x.size(1) == int(self.nInputPlane),
            RuntimeError,
            "%s: expected %d planes, got an input of size %s",
            name,
            int(self.nInputPlane),
            tuple(input.shape),
        )
        w = self._weight(x.dtype)
        pad = (w.size(2) // 2, w.size(3) // 2)
        coef = F.conv2d(torch.ones((1,) + tuple(x.shape[1:]), dtype=x.dtype), w, None, 1, pad)
        return x, w, pad, coef

    @staticmethod
    def _sums(x, w, pad):
        return F.conv2d(x, w, None, 1, pad)  # batch x 1 x h x w

    @staticmethod
    def _sums_adjoint(g, w, pad):
        return F.conv_transpose2d(g, w, None, 1, pad)  # batch x planes x h x w

    def _out(self, t, input):
        return t if input.dim() == 4 else t[0]


class SpatialSubtractiveNormalization(_LocalNormalization):
    """y = x - (weighted local mean over every plane), the mean's weights summing to 1
    near the borders too (divided by `coef`, the same sums of ones)."""

    def __init__(self, nInputPlane=1, kernel=None):
        super().__init__()
        self._init_kernel(nInputPlane, kernel, lambda c: c)

    def updateOutput(self, input):
        x, w, pad, coef = self._input(input)
        self.coef = coef[0]
        self.localsums = self._sums(x, w, pad)
        self.adjustedsums = self.localsums / coef
        self.output = self._out(x - self.adjustedsums, input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, w, pad, coef = self._input(input)
        utils.same_size(input, gradOutput, "%s: input" % self.torch_typename(), "gradOutput")
        g = gradOutput if input.dim() == 4 else gradOutput.unsqueeze(0)
        gi = g - self._sums_adjoint(g.sum(1, keepdim=True) / coef, w, pad)
        self.gradInput = self._out(gi, input)
        return self.gradInput


class SpatialDivisiveNormalization(_LocalNormalization):
    """y = x / max(weighted local standard deviation over every plane), where deviations
    at or below `threshold` are replaced by `thresval`."""

    threshold = 1e-4
    thresval = 1e-4

    def __init__(self, nInputPlane=1, kernel=None, threshold=1e-4, thresval=1e-4):
        super().__init__()
        self._init_kernel(nInputPlane, kernel, lambda c: c**0.5)
        self.threshold, self.thresval = threshold, thresval

    def _stds(self, x, w, pad, coef):
        localstds = self._sums(x * x, w, pad).sqrt()
        adjusted = localstds / coef
        keep = adjusted > float(self.threshold)
        return localstds, adjusted, keep, torch.where(keep, adjusted, torch.full_like(adjusted, float(self.thresval)))

    def updateOutput(self, input):
        x, w, pad, coef = self._input(input)
        self.coef = coef[0]
        self.localstds, self.adjustedstds, _, self.thresholdedstds = self._stds(x, w, pad, coef)
        self.output = self._out(x / self.thresholdedstds, input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, w, pad, coef = self._input(input)
        utils.same_size(input, gradOutput, "%s: input" % self.torch_typename(), "gradOutput")
        g = gradOutput if input.dim() == 4 else gradOutput.unsqueeze(0)
        localstds, adjusted, keep, t = self._stds(x, w, pad, coef)
        g_t = -(g * x).sum(1, keepdim=True) / (t * t)
        g_s = torch.where(keep, g_t, torch.zeros_like(g_t)) / coef
        safe = torch.where(localstds > 0, localstds, torch.ones_like(localstds))
        g_u = torch.where(localstds > 0, g_s / (2 * safe), torch.zeros_like(g_s))
        gi = g / t + self._sums_adjoint(g_u, w, pad) * 2 * x
        self.gradInput = self._out(gi, input)
        return self.gradInput


class SpatialContrastiveNormalization(Module):
    """SpatialSubtractiveNormalization then SpatialDivisiveNormalization (in `normalizer`)."""

    def __init__(self, nInputPlane=1, kernel=None, threshold=1e-4, thresval=1e-4):
        super().__init__()
        kernel = torch.ones(9, 9, dtype=torch.get_default_dtype()) if kernel is None else kernel
        self.nInputPlane, self.kernel, self.threshold, self.thresval = nInputPlane, kernel, threshold, thresval
        self.normalizer = Sequential()
        self.normalizer.add(SpatialSubtractiveNormalization(nInputPlane, kernel))
        self.normalizer.add(SpatialDivisiveNormalization(nInputPlane, kernel, threshold, thresval))

    def updateOutput(self, input):
        self.output = self.normalizer.updateOutput(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self.normalizer.updateGradInput(input, gradOutput)
        return self.gradInput


# ================================================================ softmax and dropout over planes


class SpatialSoftMax(Module):
    """The softmax over planes at every position: dimension 0 of planes x h x w (or of a
    1-D input), dimension 1 of batch x planes x h x w (or of a 2-D input), THNN's SoftMax."""

    def updateOutput(self, input):
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (1, 2, 3, 4))
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


class SpatialDropout(Module):
    """In training, zeroes whole planes with probability p (`noise`: the mask, one value per
    batch element and plane) without rescaling; in evaluation multiplies by 1 - p (as
    torch7), unless stochastic_inference keeps the dropping."""

    p = 0.5
    stochastic_inference = False
    _spatial = 2

    def __init__(self, p=0.5, stochasticInference=False):
        super().__init__()
        self.train = True  # a field, as torch7's constructor sets it: Lua nn reads a missing one as false
        check(0 <= p < 1, ValueError, "%s: p must be in [0, 1), got %r", self.torch_typename(), p)
        self.p = p
        self.stochastic_inference = bool(stochasticInference)
        self.noise = torch.empty(0, dtype=torch.get_default_dtype())

    def _check(self, input):
        n = self._spatial
        utils.check_tensor(input, "%s: input" % self.torch_typename(), (n + 1, n + 2))

    def updateOutput(self, input):
        self._check(input)
        p = float(self.p)
        if self.train or self.stochastic_inference:
            shape = list(input.shape[: input.dim() - self._spatial]) + [1] * self._spatial
            self.noise = torch.bernoulli(torch.full(shape, 1 - p, dtype=input.dtype))
            self.output = input * self.noise
        else:
            self.output = input * (1 - p)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check(input)
        utils.same_size(input, gradOutput, "%s: input" % self.torch_typename(), "gradOutput")
        if self.train or self.stochastic_inference:
            self.gradInput = gradOutput * self.noise
        else:
            self.gradInput = gradOutput * (1 - float(self.p))
        return self.gradInput

    def clearState(self):
        utils.clear(self, "noise")
        return super().clearState()

    def __repr__(self):
        return "%s(%g)" % (self.torch_typename(), self.p)


class VolumetricDropout(SpatialDropout):
    _spatial = 3
