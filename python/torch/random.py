"""torch.random: the default CPU generator's seed and state (also reachable as
torch.manual_seed, torch.get_rng_state, ...), and fork_rng."""

import contextlib

import torch
from torch._C import default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state", "fork_rng"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True):
    """Draws inside the block leave the default generator as it was before it, and the GPU
    generator too when devices names a GPU."""
    if not enabled:
        yield
        return
    gpu_states = []
    if devices:
        torch.cuda.init()  # raises without a GPU
        gpu_states = torch.cuda.get_rng_state_all()
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
        if gpu_states:
            torch.cuda.set_rng_state_all(gpu_states)
