"""Simple layers: affine maps, elementwise parameters, shapes, reductions, ..."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import buffer, check, of_type, thnn

__all__ = [
    "Linear",
    "LinearWeightNorm",
    "Bilinear",
    "Add",
    "CAdd",
    "Mul",
    "CMul",
    "MulConstant",
    "AddConstant",
    "Euclidean",
    "WeightedEuclidean",
    "Cosine",
    "LookupTable",
]


def _size_arg(size):
    """A size given as numbers or as one torch.Size / sequence."""
    return torch.Size(size[0] if len(size) == 1 and not isinstance(size[0], int) else size)


class Linear(utils.OptionalBias, Module):
    """output = input weight^T + bias for an input of inputSize (1-D) or batch x inputSize,
    THNN's Linear kernels; addBuffer holds the batch's ones the bias is added with."""

    def __init__(self, inputSize, outputSize, bias=True):
        super().__init__()
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(outputSize, inputSize, dtype=dtype)
        self.gradWeight = torch.zeros(outputSize, inputSize, dtype=dtype)
        if bias:
            self.bias = torch.empty(outputSize, dtype=dtype)
            self.gradBias = torch.zeros(outputSize, dtype=dtype)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.weight.size(1), self.weight, getattr(self, "bias", None))
        return self

    def _add_buffer(self, input):
        self.addBuffer = buffer(self.__dict__.get("addBuffer"), input)
        return self.addBuffer

    def _check_input(self, input):
        # THNN says which sizes it takes; the number of dimensions is checked here in this
        # package's words
        utils.check_tensor(input, "nn.Linear: input", (1, 2))

    def updateOutput(self, input):
        kernels = thnn(self, input)
        self._check_input(input)
        out = input.new_empty(0)
        kernels.Linear_updateOutput(input, out, self.weight, getattr(self, "bias", None), self._add_buffer(input))
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = thnn(self, input)
        self._check_input(input)
        gi = input.new_empty(0)
        kernels.Linear_updateGradInput(input, gradOutput, gi, self.weight)
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        self._check_input(input)
        bias = getattr(self, "bias", None)
        kernels.Linear_accGradParameters(
            input,
            gradOutput,
            None,
            self.weight,
            bias,
            self.gradWeight,
            self.gradBias if bias is not None else None,
            self._add_buffer(input),
            scale,
        )

    def clearState(self):
        utils.clear(self, "addBuffer")
        return super().clearState()

    def __repr__(self):
        return "nn.Linear(%d -> %d)%s" % (
            self.weight.size(1),
            self.weight.size(0),
            " without bias" if not self._has_bias() else "",
        )


class LinearWeightNorm(Linear):
    """Linear with weight = g * v / ||v|| (one norm per output): the parameters are v, g
    and bias; `weight` holds the weight the last forward used. The gradient of that weight,
    from THNN's Linear kernel, is carried over to v and g."""

    def __init__(self, inputSize, outputSize, bias=True):
        super().__init__(inputSize, outputSize, bias)
        self.v = self.weight.clone()
        self.g = self.v.norm(2, 1, keepdim=True)
        self.gradV = torch.zeros_like(self.v)
        self.gradG = torch.zeros_like(self.g)
        self.__dict__.pop("gradWeight")
        self._update_weight()

    def reset(self, stdv=None):
        super().reset(stdv)
        if "v" in self.__dict__:
            self.v.copy_(self.weight)
            self.g.copy_(self.v.norm(2, 1, keepdim=True))
        return self

    def _norm(self):
        return self.v.norm(2, 1, keepdim=True)

    def _update_weight(self):
        self.weight = self.v * (self.g.reshape(-1, 1) / self._norm())

    def parameters(self):
        if self._has_bias():
            return [self.v, self.g, self.bias], [self.gradV, self.gradG, self.gradBias]
        return [self.v, self.g], [self.gradV, self.gradG]

    def updateOutput(self, input):
        self._check_input(input)
        self._update_weight()
        return super().updateOutput(input)

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, input)
        self._check_input(input)
        bias = getattr(self, "bias", None)
        grad_w = torch.zeros_like(self.v)
        kernels.Linear_accGradParameters(
            input,
            gradOutput,
            None,
            self.weight,
            bias,
            grad_w,
            self.gradBias if bias is not None else None,
            self._add_buffer(input),
            scale,
        )
        norm = self._norm()
        g = self.g.reshape(-1, 1)
        dot = (grad_w * self.v).sum(1, keepdim=True)
        self.gradG.add_((dot / norm).reshape(self.gradG.shape))
        self.gradV.add_((g / norm) * (grad_w - self.v * (dot / (norm * norm))))

    def __repr__(self):
        return "nn.LinearWeightNorm(%d -> %d)%s" % (
            self.v.size(1),
            self.v.size(0),
            " without bias" if not self._has_bias() else "",
        )


class Bilinear(Module):
    """{x1 (batch x inputSize1), x2 (batch x inputSize2)} -> output[b, k] =
    x1[b] weight[k] x2[b] + bias[k], THNN's Bilinear kernels (`buffer`: their scratch)."""

    def __init__(self, inputSize1, inputSize2, outputSize, bias=True):
        super().__init__()
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(outputSize, inputSize1, inputSize2, dtype=dtype)
        self.gradWeight = torch.zeros_like(self.weight)
        if bias:
            self.bias = torch.empty(outputSize, dtype=dtype)
            self.gradBias = torch.zeros_like(self.bias)
        self.gradInput = [torch.empty(0, dtype=dtype), torch.empty(0, dtype=dtype)]
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.weight.size(1), self.weight, getattr(self, "bias", None))
        return self

    def _check(self, input):
        """THNN's kernels for input, a checked [input1, input2]."""
        check(
            isinstance(input, (list, tuple)) and len(input) == 2,
            TypeError,
            "nn.Bilinear: input must be a table of two tensors",
        )
        a, b = input
        utils.check_tensor(a, "nn.Bilinear: input[0]", (2,))
        utils.check_tensor(b, "nn.Bilinear: input[1]", (2,))
        check(
            a.size(0) == b.size(0) and a.size(1) == self.weight.size(1) and b.size(1) == self.weight.size(2),
            RuntimeError,
            "nn.Bilinear(%d, %d -> %d): inputs of sizes %s and %s do not fit",
            self.weight.size(1),
            self.weight.size(2),
            self.weight.size(0),
            tuple(a.shape),
            tuple(b.shape),
        )
        return thnn(self, a)

    def _buffer(self, input):
        self.buffer = buffer(self.__dict__.get("buffer"), input)
        return self.buffer

    def updateOutput(self, input):
        kernels = self._check(input)
        a, b = input
        out = a.new_empty(0)
        kernels.Bilinear_updateOutput(a, b, out, self.weight, getattr(self, "bias", None), self._buffer(a))
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = self._check(input)
        a, b = input
        ga, gb = a.new_empty(0), a.new_empty(0)
        kernels.Bilinear_updateGradInput(a, b, gradOutput, ga, gb, self.weight, self._buffer(a))
        self.gradInput = [ga, gb]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = self._check(input)
        a, b = input
        bias = getattr(self, "bias", None)
        kernels.Bilinear_accGradParameters(
            a, b, gradOutput, self.gradWeight, self.gradBias if bias is not None else None, self._buffer(a), scale
        )

    def clearState(self):
        utils.clear(self, "buffer")
        return super().clearState()

    def __repr__(self):
        return "nn.Bilinear(%d x %d -> %d)%s" % (
            self.weight.size(1),
            self.weight.size(2),
            self.weight.size(0),
            " without bias" if getattr(self, "bias", None) is None else "",
        )


def _reduce_to(grad, shape):
    """grad summed over the dimensions that were broadcast from `shape` (same length)."""
    dims = [d for d, (g, s) in enumerate(zip(grad.shape, shape)) if s == 1 and g != 1]
    return grad.sum(dims, keepdim=True) if dims else grad


def _expanded(param, input, name):
    """(param as it combines with input, input as it combines with param): torch7's CAdd and
    CMul rules. The same number of elements: element by element; the same number of
    dimensions: param broadcast over input; else param repeated over the batch (first)
    dimension of input."""
    if param.numel() == input.numel():
        return param.reshape(input.shape), input
    if param.dim() == input.dim():
        ok = all(p == i or p == 1 for p, i in zip(param.shape, input.shape))
        check(
            ok,
            RuntimeError,
            "%s: a parameter of size %s cannot broadcast over an input of size %s",
            name,
            tuple(param.shape),
            tuple(input.shape),
        )
        return param, input
    check(
        input.dim() >= 1 and input.numel() == input.size(0) * param.numel(),
        RuntimeError,
        "%s: input of size %s must be a batch of %d-element samples (the parameter's size is %s)",
        name,
        tuple(input.shape),
        param.numel(),
        tuple(param.shape),
    )
    return param.reshape(1, -1), input.reshape(input.size(0), -1)


class Add(Module):
    """output = input + bias, bias of inputSize (or one number if scalar), repeated over
    a batch."""

    scalar = False

    def __init__(self, inputSize, scalar=False):
        super().__init__()
        size = 1 if scalar else inputSize
        self.scalar = scalar
        self.bias = torch.empty(size, dtype=torch.get_default_dtype())
        self.gradBias = torch.zeros_like(self.bias)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.bias.size(0), self.bias)
        return self

    def _bias_like(self, input):
        if self.bias.numel() == 1:
            return self.bias.reshape(())
        return _expanded(self.bias, input, "nn.Add")

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Add: input")
        b = self._bias_like(input)
        self.output = input + b if torch.is_tensor(b) else (b[1] + b[0]).reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.Add: input", "gradOutput")
        self.gradInput = gradOutput.clone()
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        utils.same_size(input, gradOutput, "nn.Add: input", "gradOutput")
        if self.bias.numel() == 1:
            self.gradBias.add_(gradOutput.sum().reshape(1), alpha=scale)
        else:
            b, x = _expanded(self.bias, input, "nn.Add")
            self.gradBias.add_(
                _reduce_to(gradOutput.reshape(x.shape), b.shape).reshape(self.gradBias.shape), alpha=scale
            )


class CAdd(Module):
    """output = input + bias, bias of the given size broadcast over input (torch7's rules)."""

    def __init__(self, *size):
        super().__init__()
        self.size = _size_arg(size)
        self.bias = torch.empty(self.size, dtype=torch.get_default_dtype())
        self.gradBias = torch.zeros_like(self.bias)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.bias.numel(), self.bias)
        return self

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.CAdd: input")
        b, x = _expanded(self.bias, input, "nn.CAdd")
        self.output = (x + b).reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.CAdd: input", "gradOutput")
        self.gradInput = gradOutput.clone()
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        utils.same_size(input, gradOutput, "nn.CAdd: input", "gradOutput")
        b, x = _expanded(self.bias, input, "nn.CAdd")
        self.gradBias.add_(_reduce_to(gradOutput.reshape(x.shape), b.shape).reshape(self.gradBias.shape), alpha=scale)


class CMul(Module):
    """output = input * weight, weight of the given size broadcast over input (torch7's rules)."""

    def __init__(self, *size):
        super().__init__()
        self.size = _size_arg(size)
        self.weight = torch.empty(self.size, dtype=torch.get_default_dtype())
        self.gradWeight = torch.zeros_like(self.weight)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.weight.numel(), self.weight)
        return self

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.CMul: input")
        w, x = _expanded(self.weight, input, "nn.CMul")
        self.output = (x * w).reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.CMul: input", "gradOutput")
        w, x = _expanded(self.weight, input, "nn.CMul")
        self.gradInput = (gradOutput.reshape(x.shape) * w).reshape(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        utils.same_size(input, gradOutput, "nn.CMul: input", "gradOutput")
        w, x = _expanded(self.weight, input, "nn.CMul")
        g = _reduce_to(gradOutput.reshape(x.shape) * x, w.shape)
        self.gradWeight.add_(g.reshape(self.gradWeight.shape), alpha=scale)


class Mul(Module):
    """output = weight * input, weight a single learnt number."""

    def __init__(self):
        super().__init__()
        self.weight = torch.empty(1, dtype=torch.get_default_dtype())
        self.gradWeight = torch.zeros(1, dtype=torch.get_default_dtype())
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.weight.size(0), self.weight)
        return self

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Mul: input")
        self.output = input * self.weight.reshape(())
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.Mul: input", "gradOutput")
        self.gradInput = gradOutput * self.weight.reshape(())
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        utils.same_size(input, gradOutput, "nn.Mul: input", "gradOutput")
        self.gradWeight.add_((input * gradOutput).sum().reshape(1), alpha=scale)


class MulConstant(Module):
    """output = constant_scalar * input. inplace: input is scaled in place (and restored by
    updateGradInput, which scales gradOutput in place)."""

    inplace = False

    def __init__(self, constant_scalar, ip=False):
        super().__init__()
        check(isinstance(constant_scalar, (int, float)), TypeError, "nn.MulConstant: the constant must be a number")
        self.constant_scalar = constant_scalar
        self.inplace = ip

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.MulConstant: input")
        self.output = input.mul_(self.constant_scalar) if self.inplace else input * self.constant_scalar
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.MulConstant: input", "gradOutput")
        if self.inplace:
            self.gradInput = gradOutput.mul_(self.constant_scalar)
            input.div_(self.constant_scalar)
        else:
            self.gradInput = gradOutput * self.constant_scalar
        return self.gradInput


class AddConstant(Module):
    """output = input + constant_scalar. inplace: in input (restored by updateGradInput)."""

    inplace = False

    def __init__(self, constant_scalar, ip=False):
        super().__init__()
        check(isinstance(constant_scalar, (int, float)), TypeError, "nn.AddConstant: the constant must be a number")
        self.constant_scalar = constant_scalar
        self.inplace = ip

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.AddConstant: input")
        self.output = input.add_(self.constant_scalar) if self.inplace else input + self.constant_scalar
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.AddConstant: input", "gradOutput")
        if self.inplace:
            self.gradInput = gradOutput
            input.sub_(self.constant_scalar)
        else:
            self.gradInput = gradOutput.clone()
        return self.gradInput


def _batch(name, input, size):
    """input as batch x size (a 1-D input is a batch of one) and whether it was 1-D."""
    utils.check_tensor(input, "%s: input" % name, (1, 2))
    check(
        input.size(-1) == size,
        RuntimeError,
        "%s: input of size %s must have %d elements in its last dimension",
        name,
        tuple(input.shape),
        size,
    )
    return (input.unsqueeze(0), True) if input.dim() == 1 else (input, False)


class Euclidean(Module):
    """output[j] = || input - weight[:, j] ||, weight inputSize x outputSize."""

    def __init__(self, inputSize, outputSize):
        super().__init__()
        self.weight = torch.empty(inputSize, outputSize, dtype=torch.get_default_dtype())
        self.gradWeight = torch.zeros_like(self.weight)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.weight.size(0), self.weight)
        return self

    def _diff(self, input):
        x, single = _batch(self.torch_typename(), input, self.weight.size(0))
        return x.unsqueeze(2) - self.weight.unsqueeze(0), single  # batch x in x out

    def _scaled(self, input, gradOutput):
        diff, single = self._diff(input)
        out = diff.norm(2, 1)
        go = gradOutput.reshape(out.shape)
        factor = torch.where(out > 0, go / out.clamp(min=1e-300), torch.zeros_like(out))
        return diff * factor.unsqueeze(1), single

    def _check_grad(self, input, gradOutput):
        utils.check_tensor(gradOutput, "%s: gradOutput" % self.torch_typename())
        expected = tuple(input.shape[:-1]) + (self.weight.size(1),)
        check(
            tuple(gradOutput.shape) == expected,
            RuntimeError,
            "%s: gradOutput of size %s must have size %s",
            self.torch_typename(),
            tuple(gradOutput.shape),
            expected,
        )

    def updateOutput(self, input):
        diff, single = self._diff(input)
        out = diff.norm(2, 1)
        self.output = out[0] if single else out
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check_grad(input, gradOutput)
        scaled, single = self._scaled(input, gradOutput)
        g = scaled.sum(2)
        self.gradInput = g[0] if single else g
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check_grad(input, gradOutput)
        scaled, _ = self._scaled(input, gradOutput)
        self.gradWeight.add_(scaled.sum(0), alpha=-scale)


class WeightedEuclidean(Euclidean):
    """output[j] = || diagCov[:, j] * (input - weight[:, j]) ||."""

    def __init__(self, inputSize, outputSize):
        super().__init__(inputSize, outputSize)
        self.diagCov = torch.ones_like(self.weight)
        self.gradDiagCov = torch.zeros_like(self.weight)

    def reset(self, stdv=None):
        super().reset(stdv)
        if "diagCov" in self.__dict__:
            self.diagCov.fill_(1)
        return self

    def parameters(self):
        return [self.weight, self.diagCov], [self.gradWeight, self.gradDiagCov]

    def _weighted(self, input, gradOutput=None):
        diff, single = self._diff(input)
        d = diff * self.diagCov.unsqueeze(0)
        out = d.norm(2, 1)
        if gradOutput is None:
            return out, single
        go = gradOutput.reshape(out.shape)
        factor = torch.where(out > 0, go / out.clamp(min=1e-300), torch.zeros_like(out)).unsqueeze(1)
        return diff, d * factor, single

    def updateOutput(self, input):
        out, single = self._weighted(input)
        self.output = out[0] if single else out
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check_grad(input, gradOutput)
        _, dscaled, single = self._weighted(input, gradOutput)
        g = (dscaled * self.diagCov.unsqueeze(0)).sum(2)
        self.gradInput = g[0] if single else g
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check_grad(input, gradOutput)
        diff, dscaled, _ = self._weighted(input, gradOutput)
        self.gradWeight.add_((dscaled * self.diagCov.unsqueeze(0)).sum(0), alpha=-scale)
        self.gradDiagCov.add_((dscaled * diff).sum(0), alpha=scale)


class Cosine(Module):
    """output[j] = cos(input, weight[j]), weight outputSize x inputSize."""

    def __init__(self, inputSize, outputSize):
        super().__init__()
        self.weight = torch.empty(outputSize, inputSize, dtype=torch.get_default_dtype())
        self.gradWeight = torch.zeros_like(self.weight)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, self.weight.size(0), self.weight)
        return self

    def _parts(self, input):
        x, single = _batch("nn.Cosine", input, self.weight.size(1))
        xn = x.norm(2, 1, keepdim=True) + 1e-12  # batch x 1
        wn = self.weight.norm(2, 1) + 1e-12  # out
        cos = torch.mm(x, self.weight.t()) / (xn * wn)
        return x, xn, wn, cos, single

    def _check_grad(self, input, gradOutput):
        utils.check_tensor(gradOutput, "nn.Cosine: gradOutput")
        expected = tuple(input.shape[:-1]) + (self.weight.size(0),)
        check(
            tuple(gradOutput.shape) == expected,
            RuntimeError,
            "nn.Cosine: gradOutput of size %s must have size %s",
            tuple(gradOutput.shape),
            expected,
        )

    def updateOutput(self, input):
        *_, cos, single = self._parts(input)
        self.output = cos[0] if single else cos
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check_grad(input, gradOutput)
        x, xn, wn, cos, single = self._parts(input)
        go = gradOutput.reshape(cos.shape)
        # d cos[b, j] / d x[b] = w[j] / (|x| |w_j|) - cos[b, j] x[b] / |x|^2
        g = torch.mm(go / (xn * wn), self.weight) - (go * cos).sum(1, keepdim=True) * x / (xn * xn)
        self.gradInput = g[0] if single else g
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check_grad(input, gradOutput)
        x, xn, wn, cos, _ = self._parts(input)
        go = gradOutput.reshape(cos.shape)
        g = torch.mm((go / (xn * wn)).t(), x) - (go * cos).sum(0).unsqueeze(1) * self.weight / (wn * wn).unsqueeze(1)
        self.gradWeight.add_(g, alpha=scale)


class LookupTable(Module):
    """Rows of weight (nIndex x nOutput) picked by 0-based indices, THNN's LookupTable
    kernels: an input of size s gives an output of size s x nOutput. Rows whose index is
    paddingValue get no gradient; with maxNorm, rows used are renormalized to at most that
    normType-norm. _count holds the frequencies scaleGradByFreq divides by."""

    paddingValue = -1
    maxNorm = None
    normType = None
    shouldScaleGradByFreq = False

    def __init__(self, nIndex, nOutput, paddingValue=-1, maxNorm=None, normType=None):
        super().__init__()
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(nIndex, nOutput, dtype=dtype)
        self.gradWeight = torch.zeros(nIndex, nOutput, dtype=dtype)
        self.paddingValue = paddingValue
        self.maxNorm = maxNorm
        self.normType = normType
        self.reset()

    def reset(self, stdv=1):
        self.weight.normal_(0, stdv)
        return self

    def scaleGradByFreq(self):
        self.shouldScaleGradByFreq = True
        return self

    def _indices(self, input):
        utils.check_tensor(input, "nn.LookupTable: input", (1, 2))
        if input.dtype is torch.int64:
            return input
        check(
            not input.is_floating_point() or bool((input == input.floor()).all()),
            TypeError,
            "nn.LookupTable: input must hold integer indices",
        )
        return input.long()

    def updateOutput(self, input):
        idx = self._indices(input)
        kernels = thnn(self, self.weight)
        if self.maxNorm is not None:
            kernels.LookupTable_renorm(idx, self.weight, self.maxNorm, 2 if self.normType is None else self.normType)
        out = self.weight.new_empty(0)
        kernels.LookupTable_updateOutput(idx, out, self.weight)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        # indices have no gradient: zeros the size of input, as torch7
        self.gradInput = torch.zeros(input.shape, dtype=self.weight.dtype)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        idx = self._indices(input)
        kernels = thnn(self, self.gradWeight)
        count = self.__dict__.get("_count")
        if not (isinstance(count, torch.Tensor) and count.dtype is torch.int32):
            count = self._count = torch.empty(0, dtype=torch.int32)
        padding = -1 if self.paddingValue is None else int(self.paddingValue)  # -1: no row
        kernels.LookupTable_accGradParameters(
            idx,
            of_type(gradOutput, self.gradWeight),
            self.gradWeight,
            count,
            None,
            None,
            bool(self.shouldScaleGradByFreq),
            padding,
            scale,
        )

    def clearState(self):
        utils.clear(self, "_count")
        return super().clearState()

    def __repr__(self):
        return "nn.LookupTable(%d, %d)" % (self.weight.size(0), self.weight.size(1))
