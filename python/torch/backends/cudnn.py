"""torch.backends.cudnn: cuDNN is not used by this build's Python package yet, so
is_available() is False and version() None. The switches keep what programs set
(`torch.backends.cudnn.benchmark = True`), for the GPU work to read."""

import contextlib

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None


def is_acceptable(tensor):
    return False


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, deterministic=False, allow_tf32=True):
    """Sets the switches for the block, then puts the old ones back."""
    global_names = ("enabled", "benchmark", "deterministic", "allow_tf32")
    module = globals()
    saved = {name: module[name] for name in global_names}
    module.update(enabled=enabled, benchmark=benchmark, deterministic=deterministic, allow_tf32=allow_tf32)
    try:
        yield
    finally:
        module.update(saved)
