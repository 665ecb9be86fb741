"""torch.cpu.amp.autocast: torch.autocast("cpu", ...)."""

import torch
from torch.amp.autocast_mode import autocast as _autocast

__all__ = ["autocast"]


class autocast(_autocast):
    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
