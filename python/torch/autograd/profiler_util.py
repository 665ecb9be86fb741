"""torch.autograd.profiler_util: where PyTorch 1.13 keeps the profiler's event classes; they are
torch.autograd.profiler's."""

from torch.autograd.profiler import EventList, FunctionEvent, FunctionEventAvg  # noqa: F401

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg"]
