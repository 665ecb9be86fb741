"""DataParallel splits a batch over GPUs. Without a GPU it runs the wrapped module on the CPU
unchanged, as PyTorch's does when no device is visible; with one device (device_ids of length
1) it moves the module there and the inputs to it, as PyTorch 1.13 does. Replicating the
module over several GPUs is not supported here."""

from itertools import chain

import torch
from torch.nn.modules.module import Module

from ._functions import _device_index, to_device

__all__ = ["DataParallel", "data_parallel"]


def _replication_unsupported(device_ids):
    return RuntimeError(
        "DataParallel over several GPUs (device_ids %s) is not supported: replicating the module is not "
        "implemented; use one device or DistributedDataParallel" % (list(device_ids),)
    )


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.dim = dim
        if not torch.cuda.is_available():
            if device_ids:
                raise RuntimeError("DataParallel: device_ids name GPUs, and no CUDA device is available")
            self.device_ids = []
            self.output_device = None
            return
        if device_ids is None:
            device_ids = list(range(torch.cuda.device_count()))
        if output_device is None:
            output_device = device_ids[0]
        self.device_ids = [_device_index(d) for d in device_ids]
        self.output_device = _device_index(output_device)
        self.src_device_obj = torch.device("cuda", self.device_ids[0])
        if len(self.device_ids) > 1:
            raise _replication_unsupported(self.device_ids)
        self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in chain(self.module.parameters(), self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(
                    "module must have its parameters and buffers on device {} (device_ids[0]) but found one of "
                    "them on device: {}".format(self.src_device_obj, t.device)
                )
        # one device: the whole batch is the one chunk, moved there (differentiably)
        return self.module(*to_device(inputs, self.src_device_obj), **to_device(kwargs, self.src_device_obj))


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    module_kwargs = module_kwargs or {}
    if not torch.cuda.is_available():
        if device_ids:
            raise RuntimeError("data_parallel: device_ids name GPUs, and no CUDA device is available")
        return module(*inputs, **module_kwargs)
    if device_ids is None:
        device_ids = list(range(torch.cuda.device_count()))
    device_ids = [_device_index(d) for d in device_ids]
    if len(device_ids) > 1:
        raise _replication_unsupported(device_ids)
    src = torch.device("cuda", device_ids[0])
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src:
            raise RuntimeError(
                "module must have its parameters and buffers on device {} (device_ids[0]) but found one of "
                "them on device: {}".format(src, t.device)
            )
    return module(*to_device(inputs, src), **to_device(module_kwargs, src))
