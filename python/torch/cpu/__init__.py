"""torch.cpu: the CPU's counterpart of torch.cuda's amp module."""

from torch.cpu import amp

__all__ = ["amp"]
