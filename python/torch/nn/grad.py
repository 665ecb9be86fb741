"""Gradients of the convolutions with respect to their input and their weight (PyTorch 1.13's
torch.nn.grad): what a hand-written backward or a custom autograd.Function of a convolution
calls. Each differentiates the convolution itself, so the result is its exact gradient."""

import torch
import torch.nn.functional as F

__all__ = [
    "conv1d_input",
    "conv1d_weight",
    "conv2d_input",
    "conv2d_weight",
    "conv3d_input",
    "conv3d_weight",
]


def _input_grad(conv, n, input_size, weight, grad_output, stride, padding, dilation, groups):
    input_size = list(input_size)
    if len(input_size) != n + 2:
        raise ValueError("input_size must have {} elements (got {})".format(n + 2, len(input_size)))
    with torch.enable_grad():
        x = torch.zeros(input_size, dtype=grad_output.dtype, requires_grad=True)
        out = conv(x, weight.detach(), None, stride, padding, dilation, groups)
        if tuple(out.shape) != tuple(grad_output.shape):
            raise ValueError(
                "requested an input grad size of {}, but valid sizes range give an output of {}, not {}".format(
                    input_size, list(out.shape), list(grad_output.shape)
                )
            )
        (g,) = torch.autograd.grad(out, x, grad_output)
    return g


def _weight_grad(conv, input, weight_size, grad_output, stride, padding, dilation, groups):
    with torch.enable_grad():
        w = torch.zeros(list(weight_size), dtype=input.dtype, requires_grad=True)
        out = conv(input.detach(), w, None, stride, padding, dilation, groups)
        (g,) = torch.autograd.grad(out, w, grad_output)
    return g


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _input_grad(F.conv1d, 1, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _weight_grad(F.conv1d, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _input_grad(F.conv2d, 2, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _weight_grad(F.conv2d, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _input_grad(F.conv3d, 3, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _weight_grad(F.conv3d, input, weight_size, grad_output, stride, padding, dilation, groups)
