"""torch.optim: optimizers (SGD, Adam, ..., LBFGS), learning-rate schedulers (lr_scheduler) and
stochastic weight averaging (swa_utils),
as in PyTorch 1.13. See optimizer.py for the base class and the state_dict format."""

from torch.optim import lr_scheduler  # noqa: F401
from torch.optim import swa_utils  # noqa: F401
from torch.optim.adadelta import Adadelta
from torch.optim.adagrad import Adagrad
from torch.optim.adam import Adam
from torch.optim.adamax import Adamax
from torch.optim.adamw import AdamW
from torch.optim.asgd import ASGD
from torch.optim.lbfgs import LBFGS
from torch.optim.nadam import NAdam
from torch.optim.optimizer import Optimizer
from torch.optim.radam import RAdam
from torch.optim.rmsprop import RMSprop
from torch.optim.rprop import Rprop
from torch.optim.sgd import SGD
from torch.optim.sparse_adam import SparseAdam

__all__ = [
    "Adadelta",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "ASGD",
    "SGD",
    "Rprop",
    "RMSprop",
    "Optimizer",
    "LBFGS",
    "NAdam",
    "RAdam",
    "SparseAdam",
    "lr_scheduler",
    "swa_utils",
]
