"""torch.nn: modules, parameters and functional operations.

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
loss = nn.CrossEntropyLoss()(model(x), y)
"""

from torch.nn.parameter import Parameter, UninitializedBuffer, UninitializedParameter  # noqa: F401
from torch.nn.modules import *  # noqa: F401,F403
from torch.nn import functional  # noqa: F401
from torch.nn import grad  # noqa: F401
from torch.nn import common_types  # noqa: F401
from torch.nn import init  # noqa: F401
from torch.nn import utils  # noqa: F401
from torch.nn import parallel  # noqa: F401
from torch.nn.parallel import DataParallel  # noqa: F401


def factory_kwargs(kwargs):
    """kwargs' factory arguments (device, dtype, memory_format, and those of an explicit
    factory_kwargs dict) as one dict for torch.empty and friends; TypeError for anything else
    or for one given twice."""
    if kwargs is None:
        return {}
    simple = {"device", "dtype", "memory_format"}
    allowed = simple | {"factory_kwargs"}
    if not kwargs.keys() <= allowed:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - allowed}")
    result = dict(kwargs.get("factory_kwargs", {}))
    for key in simple:
        if key in kwargs:
            if key in result:
                raise TypeError(f"{key} specified twice, in **kwargs and in factory_kwargs")
            result[key] = kwargs[key]
    return result
