"""DataParallel splits a batch over GPUs; with no GPU (this build has no CUDA tensors) it
runs the wrapped module on the CPU unchanged, as PyTorch's does when no device is visible."""

from torch.nn.modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if device_ids:
            raise RuntimeError("DataParallel: device_ids name GPUs, and this build has no CUDA devices")
        self.module = module
        self.device_ids = []
        self.output_device = None
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    if device_ids:
        raise RuntimeError("data_parallel: device_ids name GPUs, and this build has no CUDA devices")
    if not isinstance(inputs, tuple):
        inputs = (inputs,)
    return module(*inputs, **(module_kwargs or {}))
