"""torch.nn.functional: the stateless neural-network operations, over THNN's kernels with
autograd. Spatial operations (convolutions, pooling, sampling, padding) live in
_functional_spatial.py; activations, losses, normalizations, dropout, embeddings and linear
maps in _functional_layers.py; multi-head attention in _functional_attention.py."""

from torch.nn._functional_layers import *  # noqa: F401,F403
from torch.nn._functional_spatial import *  # noqa: F401,F403
from torch.nn._functional_attention import *  # noqa: F401,F403
