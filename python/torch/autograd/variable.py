"""torch.autograd.variable: where pre-0.4 programs import Variable from (a tensor now)."""

from torch.autograd import Variable

__all__ = ["Variable"]
