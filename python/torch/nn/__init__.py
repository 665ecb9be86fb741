"""torch.nn: modules, parameters and functional operations.

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
loss = nn.CrossEntropyLoss()(model(x), y)
"""

from torch.nn.parameter import Parameter, UninitializedBuffer, UninitializedParameter  # noqa: F401
from torch.nn.modules import *  # noqa: F401,F403
from torch.nn import functional  # noqa: F401
from torch.nn import init  # noqa: F401
from torch.nn import utils  # noqa: F401
from torch.nn import parallel  # noqa: F401
from torch.nn.parallel import DataParallel  # noqa: F401
