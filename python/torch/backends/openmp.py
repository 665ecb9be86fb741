"""torch.backends.openmp: the CPU kernels use OpenMP threads (torch.set_num_threads)."""


def is_available():
    return True
