"""The layers of torch.nn, one file per family as in PyTorch."""

from torch.nn.modules.module import Module  # noqa: F401
from torch.nn.modules.activation import *  # noqa: F401,F403
from torch.nn.modules.adaptive import *  # noqa: F401,F403
from torch.nn.modules.batchnorm import *  # noqa: F401,F403
from torch.nn.modules.container import *  # noqa: F401,F403
from torch.nn.modules.conv import *  # noqa: F401,F403
from torch.nn.modules.distance import *  # noqa: F401,F403
from torch.nn.modules.dropout import *  # noqa: F401,F403
from torch.nn.modules.flatten import *  # noqa: F401,F403
from torch.nn.modules.fold import *  # noqa: F401,F403
from torch.nn.modules.instancenorm import *  # noqa: F401,F403
from torch.nn.modules.lazy import *  # noqa: F401,F403
from torch.nn.modules.linear import *  # noqa: F401,F403
from torch.nn.modules.loss import *  # noqa: F401,F403
from torch.nn.modules.normalization import *  # noqa: F401,F403
from torch.nn.modules.padding import *  # noqa: F401,F403
from torch.nn.modules.pixelshuffle import *  # noqa: F401,F403
from torch.nn.modules.pooling import *  # noqa: F401,F403
from torch.nn.modules.rnn import *  # noqa: F401,F403
from torch.nn.modules.sparse import *  # noqa: F401,F403
from torch.nn.modules.transformer import *  # noqa: F401,F403
from torch.nn.modules.upsampling import *  # noqa: F401,F403

from torch.nn.modules import (
    activation,
    adaptive,
    batchnorm,
    container,
    conv,
    distance,
    dropout,
    flatten,  # noqa: E402
    fold,
    instancenorm,
    lazy,
    linear,
    loss,
    normalization,
    padding,
    pixelshuffle,
    pooling,
    rnn,
    sparse,
    transformer,
    upsampling,
)

__all__ = ["Module"] + [
    name
    for family in (
        activation,
        adaptive,
        batchnorm,
        container,
        conv,
        distance,
        dropout,
        flatten,
        fold,
        instancenorm,
        lazy,
        linear,
        loss,
        normalization,
        padding,
        pixelshuffle,
        pooling,
        rnn,
        sparse,
        transformer,
        upsampling,
    )
    for name in family.__all__
]
