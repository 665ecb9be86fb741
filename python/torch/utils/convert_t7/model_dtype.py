"""The element type of a torch.nn model: the checker's random inputs, the emitted class's
`self.to`, the torch7 tensor type to_t7 writes and the command line's input all follow it."""

import torch


def _model_dtype(model):
    for p in list(model.parameters()) + list(model.buffers()):
        if p.is_floating_point():
            return p.dtype
    return torch.float32
