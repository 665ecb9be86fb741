"""torch.backends.cuda: whether this build has CUDA (THC, when the CUDA toolkit was there);
the matmul switches keep what programs set."""

from torch import _C


def is_built():
    return _C._cuda_is_built


class _MatmulSwitches:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True


matmul = _MatmulSwitches()
