"""parameters_to_vector and vector_to_parameters: all parameters as one flat vector."""

import torch
from torch.nn.modules.module import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters, flattened and concatenated in order."""
    return torch.cat([param.reshape(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Points each parameter's data at its consecutive slice of vec (the inverse of
    parameters_to_vector)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError("expected torch.Tensor, but got: {}".format(_typename(vec)))
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec.narrow(0, pointer, num_param).view_as(param).data
        pointer += num_param
