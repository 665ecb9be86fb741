"""torch.cpu.amp: autocast on the CPU (bfloat16)."""

from torch.cpu.amp.autocast_mode import autocast

__all__ = ["autocast"]
