"""torch.amp: automatic mixed precision (Note [Autocast] in core/Autocast.h)."""

from torch.amp.autocast_mode import autocast, float32_under_autocast

__all__ = ["autocast"]
