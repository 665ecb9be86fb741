"""torch.legacy.nn: torch7's nn modules over torch tensors, with torch7's API.

    import torch
    from torch.legacy import nn
    mlp = nn.Sequential().add(nn.Linear(10, 20)).add(nn.Tanh()).add(nn.Linear(20, 5)).add(nn.LogSoftMax())
    crit = nn.ClassNLLCriterion()
    x, y = torch.randn(3, 10), torch.tensor([0, 4, 2])
    loss = crit.forward(mlp.forward(x), y)
    mlp.zeroGradParameters()
    mlp.backward(x, crit.backward(mlp.output, y))
    mlp.updateParameters(0.1)

Modules compute their gradients themselves (no autograd; their methods run without
recording history): as Lua nn's, they call THNN's kernels (torch._C._thnn) where THNN has
one, so the two packages compute the same (Note [Modules over THNN] in utils.py). Indices
are 0-based (class targets, lookup ids, dimensions, pooling indices). Objects read by
torch.utils.serialization.load_lua are instances of these classes made without __init__
(see _object.py); class_for(typename) gives the class standing for any torch7 class name.
"""

from torch.legacy.nn._object import TorchObject, class_for
from torch.legacy.nn.module import Module
from torch.legacy.nn.criterion import Criterion
from torch.legacy.nn.containers import *  # noqa: F401,F403
from torch.legacy.nn.layers import *  # noqa: F401,F403
from torch.legacy.nn.activations import *  # noqa: F401,F403
from torch.legacy.nn.shape import *  # noqa: F401,F403
from torch.legacy.nn.mathops import *  # noqa: F401,F403
from torch.legacy.nn.misc import *  # noqa: F401,F403
from torch.legacy.nn.tables import *  # noqa: F401,F403
from torch.legacy.nn.criterions import *  # noqa: F401,F403
from torch.legacy.nn.jacobian import Jacobian

from torch.legacy.nn import (
    containers as _containers,
    layers as _layers,
    activations as _activations,
    shape as _shape,
    mathops as _mathops,
    misc as _misc,
    tables as _tables,
    criterions as _criterions,
)

__all__ = (
    ["TorchObject", "class_for", "Module", "Criterion", "Jacobian"]
    + _containers.__all__
    + _layers.__all__
    + _activations.__all__
    + _shape.__all__
    + _mathops.__all__
    + _misc.__all__
    + _tables.__all__
    + _criterions.__all__
)

# spatial, temporal and volumetric layers, normalizations, nngraph's gModule
from torch.legacy.nn.spatial import *  # noqa: F401,F403,E402
from torch.legacy.nn.normalization import *  # noqa: F401,F403,E402
from torch.legacy.nn.graph import gModule, Node  # noqa: F401,E402
from torch.legacy.nn import spatial as _spatial, normalization as _normalization, t7fields  # noqa: E402

__all__ = __all__ + _spatial.__all__ + _normalization.__all__ + ["gModule", "Node", "t7fields"]

# more of torch7's nn: extra layers, decorators, criterions, the StochasticGradient trainer
from torch.legacy.nn.extra import *  # noqa: F401,F403,E402
from torch.legacy.nn.extra_conv import *  # noqa: F401,F403,E402
from torch.legacy.nn.extra_layers import *  # noqa: F401,F403,E402
from torch.legacy.nn import extra as _extra, extra_conv as _extra_conv, extra_layers as _extra_layers  # noqa: E402

__all__ = __all__ + _extra.__all__ + _extra_conv.__all__ + _extra_layers.__all__
