"""torch.multiprocessing: Python's multiprocessing, with tensors and storages that travel to
other processes as shared memory (PyTorch 1.13's API).

Everything in multiprocessing is here (Process, Queue, Pool, get_context, set_start_method,
...). What those send to another process (a Queue's messages, a Process's args under the spawn
and forkserver start methods) is pickled by multiprocessing's ForkingPickler, and a tensor or
storage pickled so travels as a handle on shared memory (Note [Tensors through queues] in
reductions.py): the receiver's tensor is a live view of the sender's memory. Under the fork
start method a Process's args are not pickled at all: the child inherits the parent's memory,
and shared memory (share_memory_(), Module.share_memory()) stays shared. Hogwild training
(several processes updating one model's parameters) works with every start method. CUDA
tensors travel as CUDA IPC handles on their device memory (Note [CUDA tensors through queues]
in reductions.py), under spawn and forkserver: a child forked after CUDA started cannot use it.

spawn and start_processes run a function in several processes and report a child's failure
in the parent (spawn.py).
"""

import multiprocessing
from multiprocessing import *  # noqa: F401,F403

from torch.multiprocessing import reductions
from torch.multiprocessing.spawn import (  # noqa: F401
    ProcessContext,
    ProcessExitedException,
    ProcessRaisedException,
    SpawnContext,
    spawn,
    start_processes,
)

__all__ = [
    "set_sharing_strategy",
    "get_sharing_strategy",
    "get_all_sharing_strategies",
    "spawn",
    "start_processes",
    "ProcessContext",
    "ProcessRaisedException",
    "ProcessExitedException",
    "SpawnContext",
] + multiprocessing.__all__

reductions.init_reductions()

# Note [Sharing strategies]
# PyTorch's "file_descriptor" strategy sends each storage's memory as a descriptor over a Unix
# socket; its "file_system" strategy names the memory in /dev/shm instead and needs a daemon to
# remove names that processes killed mid-transfer leave behind. Here shared memory never has a
# name (Note [Tensors through queues] in reductions.py), so both strategies send descriptors:
# "file_system" is accepted, for scripts written for PyTorch that choose it, and changes nothing.
_STRATEGIES = ("file_descriptor", "file_system")
_sharing_strategy = "file_descriptor"


def set_sharing_strategy(new_strategy):
    """Sets the strategy for sharing CPU tensors between processes: one of
    get_all_sharing_strategies() (Note [Sharing strategies])."""
    global _sharing_strategy
    if new_strategy not in _STRATEGIES:
        raise ValueError("invalid sharing strategy %r; expected one of %s" % (new_strategy, ", ".join(_STRATEGIES)))
    _sharing_strategy = new_strategy


def get_sharing_strategy():
    """The current strategy for sharing CPU tensors between processes."""
    return _sharing_strategy


def get_all_sharing_strategies():
    """The sharing strategies this system supports."""
    return set(_STRATEGIES)
