"""torch.nn.functional: the stateless neural-network operations, over THNN's kernels with
autograd. Spatial operations (convolutions, pooling, sampling, padding) live in
_functional_spatial.py; activations, losses, normalizations, dropout, embeddings and linear
maps in _functional_layers.py; multi-head attention in _functional_attention.py."""

# What 1.13's module imports, which programs reach through it (F.torch, F.Tensor, F.math, ...).
import math  # noqa: F401
import warnings  # noqa: F401
from typing import TYPE_CHECKING, Callable, List, Optional, Tuple, Union  # noqa: F401

import torch
from torch import Tensor  # noqa: F401
from torch._jit_internal import BroadcastingList1, BroadcastingList2, BroadcastingList3  # noqa: F401
from torch._jit_internal import boolean_dispatch  # noqa: F401
from torch._torch_docs import reproducibility_notes, sparse_support_notes, tf32_notes  # noqa: F401
from torch.nn.modules import utils  # noqa: F401

from torch.nn._functional_layers import *  # noqa: F401,F403
from torch.nn._functional_spatial import *  # noqa: F401,F403
from torch.nn._functional_attention import *  # noqa: F401,F403

DType = int  # 1.13's annotation of dtype arguments (TorchScript passes dtypes as ints)

# grid_sample's modes as the numbers torch.grid_sampler takes
GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def conv_tbc(input, weight, bias, pad=0):
    """A 1-d convolution over (time, batch, channels) input: torch.conv_tbc."""
    return torch.conv_tbc(input, weight, bias, pad)


def assert_int_or_pair(arg, arg_name, message):
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)


from torch.nn import grad  # noqa: E402,F401  (the convolutions' gradients, as F.grad)
