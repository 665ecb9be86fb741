"""torch.nn.functional: the stateless neural-network operations, over THNN's kernels with
autograd. Spatial operations (convolutions, pooling, sampling, padding) live in
_functional_spatial.py; activations, losses, normalizations, dropout, embeddings and linear
maps in _functional_layers.py; multi-head attention in _functional_attention.py."""

from torch.nn._functional_layers import *  # noqa: F401,F403
from torch.nn._functional_spatial import *  # noqa: F401,F403
from torch.nn._functional_attention import *  # noqa: F401,F403

# grid_sample's modes as the numbers torch.grid_sampler takes
GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def conv_tbc(input, weight, bias, pad=0):
    """A 1-d convolution over (time, batch, channels) input: torch.conv_tbc."""
    import torch

    return torch.conv_tbc(input, weight, bias, pad)


def assert_int_or_pair(arg, arg_name, message):
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)


from torch.nn import grad  # noqa: E402,F401  (the convolutions' gradients, as F.grad)
