"""Shared helpers of the Python suites: random inputs in several layouts, and comparison
with numpy (the independent reference)."""

import os
import subprocess

import numpy as np
import pytest

import torch

NUMPY_OF = {
    torch.uint8: np.uint8,
    torch.int8: np.int8,
    torch.int16: np.int16,
    torch.int32: np.int32,
    torch.int64: np.int64,
    torch.float16: np.float16,
    torch.float32: np.float32,
    torch.float64: np.float64,
    torch.bool: np.bool_,
}
FLOAT_TYPES = [torch.float32, torch.float64]
INT_TYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
NUMERIC_TYPES = FLOAT_TYPES + INT_TYPES
LAYOUTS = ["contiguous", "transposed", "strided", "expanded"]


def fixtures_dir():
    d = os.environ.get("TH_FIXTURES_DIR") or os.path.join(
        os.path.dirname(__file__), "..", "..", "..", "shared", "fixtures"
    )
    return os.path.abspath(d)


def random_array(shape, dtype, rng, low=-10, high=10):
    """numpy values of the tensor type dtype (unsigned types get non-negative values)."""
    if dtype == torch.bool:
        return rng.random(shape) < 0.5
    if dtype in FLOAT_TYPES or dtype == torch.float16:
        return rng.uniform(low, high, shape).astype(NUMPY_OF[dtype])
    lo = 0 if dtype == torch.uint8 else max(low, -100)
    return rng.integers(lo, high, shape, endpoint=True).astype(NUMPY_OF[dtype])


def make_tensor(shape, dtype, layout, rng, low=-10, high=10):
    """A tensor of the given shape and layout and a numpy array with the same values.
    'transposed' and 'strided' give non-contiguous views, 'expanded' a view with a 0 stride."""
    shape = tuple(shape)
    if layout == "contiguous" or len(shape) == 0:
        a = random_array(shape, dtype, rng, low, high)
        return torch.from_numpy(a.copy()), a
    if layout == "transposed":
        a = random_array(shape[::-1], dtype, rng, low, high)
        t = torch.from_numpy(a.copy()).permute(*reversed(range(len(shape))))
        return t, a.transpose()
    if layout == "strided":
        big = random_array(tuple(s * 2 for s in shape), dtype, rng, low, high)
        t = torch.from_numpy(big.copy())
        return t.as_strided(shape, [s * 2 for s in t.stride()], 0), big[tuple(slice(None, None, 2) for _ in shape)]
    if layout == "expanded":
        first = random_array((1,) + shape[1:], dtype, rng, low, high)
        t = torch.from_numpy(first.copy()).expand(*shape)
        return t, np.broadcast_to(first, shape)
    raise ValueError(layout)


def assert_close(t, expected, rtol=1e-5, atol=1e-6, check_dtype=True):
    """t (a tensor) has expected's shape, element type and values."""
    assert isinstance(t, torch.Tensor), type(t)
    expected = np.asarray(expected)
    got = t.numpy()
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if check_dtype:
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind == "f" or expected.dtype.kind == "f":
        np.testing.assert_allclose(
            got.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True
        )
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.fixture
def rng(request):
    """A numpy generator seeded from the test's name: every run sees the same inputs."""
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(request.node.nodeid))
    return np.random.default_rng(seed)


def real_torch_env():
    """The environment in which /usr/bin/python3 imports Debian's python3-torch, or None."""
    if not os.path.exists("/usr/bin/python3"):
        return None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run(
        ["/usr/bin/python3", "-c", "import torch, sys; sys.stdout.write(torch.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
    )
    # Our own package may be reachable too (a .pth file): only an installed package counts.
    installed = os.sep + "dist-packages" + os.sep in probe.stdout or os.sep + "site-packages" + os.sep in probe.stdout
    if probe.returncode != 0 or not installed:
        return None
    return env


def require_real_torch_env():
    """real_torch_env(), failing the test where it is missing: scripts/setup.sh installs Debian's
    python3-torch, so a machine without it is not set up and the comparison must not be skipped."""
    env = real_torch_env()
    if env is None:
        pytest.fail("Debian's python3-torch is not installed for /usr/bin/python3 (scripts/setup.sh installs it)")
    return env
