"""torch.distributed on Gloo, as in PyTorch 1.13: process groups, collectives, stores, the
launcher (python -m torch.distributed.run) and, in torch.nn.parallel, DistributedDataParallel."""

from .distributed_c10d import *  # noqa: F401,F403
from .distributed_c10d import __all__ as _c10d_all
from .rendezvous import register_rendezvous_handler, rendezvous  # noqa: F401

__all__ = list(_c10d_all) + ["rendezvous", "register_rendezvous_handler"]
