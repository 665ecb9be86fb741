"""What DataParallel and DistributedDataParallel share: moving inputs to a device."""

import torch


def _device_index(device):
    """A CUDA device's index from an int, a 'cuda:N' string or a torch.device."""
    if isinstance(device, int):
        return device
    device = torch.device(device)
    if device.type != "cuda":
        raise ValueError("Expected a cuda device, but got: {}".format(device))
    return device.index if device.index is not None else torch.cuda.current_device()


def to_device(obj, device):
    """obj with every tensor in it (through tuples, named tuples, lists and dicts) moved to device,
    differentiably, as PyTorch's scatter/_to_kwargs do for one device."""
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(to_device(o, device) for o in obj))
    if isinstance(obj, (tuple, list)):
        return type(obj)(to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return type(obj)((k, to_device(v, device)) for k, v in obj.items())
    return obj
