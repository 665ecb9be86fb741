"""torch.nn: modules, parameters and functional operations."""

from torch.nn import functional  # noqa: F401
