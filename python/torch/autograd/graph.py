"""torch.autograd.graph: hooks on the tensors the graph saves for backward (Note [Saved tensor
hooks] in autograd/Autograd.h), as in PyTorch 1.13."""

import contextlib

import torch
from torch import _C

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]


class saved_tensors_hooks:
    """Inside the block, every tensor an op (or a custom Function's save_for_backward) saves for
    backward is kept as pack_hook(tensor), and backward reads unpack_hook(that), which must give
    a tensor equal to the one packed. Only the innermost pair of nested blocks acts.

        with torch.autograd.graph.saved_tensors_hooks(lambda t: t.numpy().copy(), torch.from_numpy):
            y = x.exp()
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _C._push_saved_tensors_default_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args):
        _C._pop_saved_tensors_default_hooks()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU and moved back to their device for backward (GPU memory
    for compute; a tensor already on the CPU is kept as it is). pin_memory pins the CPU copies
    when CUDA is available."""

    def __init__(self, pin_memory=False):
        def pack_to_cpu(tensor):
            if not pin_memory or not torch.cuda.is_available():
                return (tensor.device, tensor.cpu())
            return (tensor.device, tensor.cpu().pin_memory())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Inside the block, setting saved tensors hooks raises RuntimeError(error_message) (for a
    feature that cannot work with them); entering it while hooks are set raises too."""
    previous = _C._saved_tensors_hooks_get_disabled_error_message()
    _C._saved_tensors_hooks_disable(error_message)
    try:
        yield
    finally:
        if previous is None:
            _C._saved_tensors_hooks_enable()
        else:
            _C._saved_tensors_hooks_disable(previous)
