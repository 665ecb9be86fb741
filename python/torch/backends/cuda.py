"""torch.backends.cuda: no CUDA in this build (torch.cuda.is_available() is False); the
matmul switches keep what programs set."""


def is_built():
    return False


class _MatmulSwitches:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True


matmul = _MatmulSwitches()
