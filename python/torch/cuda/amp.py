"""torch.cuda.amp: autocast and GradScaler exist so that mixed-precision programs run, doing
what PyTorch's do when CUDA is unavailable: they warn once and turn themselves off (autocast
computes in the inputs' types; GradScaler scales nothing and steps the optimizer as it is).
On a GPU they do the same for now, saying that mixed precision is not supported yet."""

import functools
import warnings

import torch
from torch.amp.autocast_mode import autocast as _autocast

__all__ = ["autocast", "GradScaler", "custom_fwd", "custom_bwd"]


class autocast(_autocast):
    """torch.autocast("cuda", ...): without a GPU it warns and disables itself, as PyTorch's."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler:
    """Loss scaling for float16 gradients; disabled (a pass-through) without CUDA."""

    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True):
        if enabled:
            warnings.warn(
                "torch.cuda.amp.GradScaler: loss scaling is not supported yet (autocast computes in full "
                "precision). Disabling."
                if torch.cuda.is_available()
                else "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."
            )
        self._enabled = False

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Decorator for a custom Function's forward under autocast: without it, the function itself."""
    if fwd is None:
        return functools.partial(custom_fwd, cast_inputs=cast_inputs)
    return fwd


def custom_bwd(bwd):
    return bwd
