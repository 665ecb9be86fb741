"""torch.random: the default CPU generator's seed and state (also reachable as
torch.manual_seed, torch.get_rng_state, ...), and fork_rng."""

import contextlib

import torch
from torch._C import default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state", "fork_rng"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True):
    """Draws inside the block leave the default generator as it was before it. The CUDA
    generators are forked too when there are GPUs; this build has none
    (torch.cuda.is_available() is False), so devices must name none."""
    if not enabled:
        yield
        return
    if devices:
        torch.cuda.init()  # raises: no CUDA in this build
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
