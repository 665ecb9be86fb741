"""parameters_to_vector and vector_to_parameters: all parameters as one flat vector."""

import torch
from torch.nn.modules.module import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param, old_param_device):
    """PyTorch 1.13's check that all parameters are on one device (-1: the CPU)."""
    device = param.get_device() if param.is_cuda else -1
    if old_param_device is not None and device != old_param_device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return device


def parameters_to_vector(parameters):
    """The parameters, flattened and concatenated in order."""
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.reshape(-1))
    return torch.cat(vec)


def vector_to_parameters(vec, parameters):
    """Points each parameter's data at its consecutive slice of vec (the inverse of
    parameters_to_vector)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError("expected torch.Tensor, but got: {}".format(_typename(vec)))
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec.narrow(0, pointer, num_param).view_as(param).data
        pointer += num_param
