"""torch.special's Bessel, Airy and Chebyshev functions (special_cases.py): the same values,
dtypes and exceptions as real PyTorch 1.13 (/usr/bin/python3's python3-torch) within the
accuracy of 1.13's own approximations, and this package's double values against mpmath's."""

import os
import subprocess

import numpy as np
import pytest

import special_cases
import torch
from real_pytorch import same_as_pytorch_1_13
from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))

# (rtol, atol) per float type. PyTorch 1.13's float32 kernels round at every step (absolute
# errors of a few 1e-7 near the functions' zeros and at the trigonometric forms of high
# degree). Its double J0, J1, Y0, Y1 and Ai are much less accurate than a double: measured
# against mpmath, off by up to 8e-7 near x = 5 (J and Y) and 2e-6 near x = -2.15 (Ai), where
# its approximations meet; so the unary cases compare at that accuracy, and mpmath (below)
# checks ours to a few units in the last place.
TOLERANCES = {np.float32: (1e-5, 3e-6), np.float64: (1e-11, 1e-13)}
PYTORCH_113_ACCURACY = (1e-5, 3e-6)
CASE_TOLERANCES = {"unary_values": PYTORCH_113_ACCURACY, "unary_forms": PYTORCH_113_ACCURACY}


def _run(args, env):
    run = subprocess.run(["/usr/bin/python3"] + args, capture_output=True, text=True, env=env, cwd="/")
    assert run.returncode == 0, run.stderr


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "special_cases.py",
    special_cases.CASES,
    lambda name, got, want: CASE_TOLERANCES.get(name, TOLERANCES[want.dtype.type]),
)


@pytest.fixture(scope="module")
def mpmath_results(tmp_path_factory):
    env = require_real_torch_env()
    out = str(tmp_path_factory.mktemp("special") / "mpmath.npz")
    _run([os.path.join(HERE, "special_cases.py"), "--mpmath", out], env)
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("name", special_cases.UNARY)
def test_double_values_against_mpmath(name, mpmath_results):
    """Good to a few units in the last place (Note [Special functions from Boost.Math]); Ai's
    Maclaurin series cancels to ~1e-14 near its bound, 2.09."""
    x, want = mpmath_results[name + "::x"], mpmath_results[name]
    got = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    rtol = 2e-14 if name == "airy_ai" else 2e-15
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-300)


def test_chebyshev_polynomials_against_their_definitions():
    """V, W and the shifted polynomials at x = cos(t) against their trigonometric definitions,
    computed in numpy."""
    t = np.linspace(0.1, 3.0, 9)
    x = torch.from_numpy(np.cos(t))
    for n in [0, 1, 2, 5, 9, 20]:
        expect = {
            "chebyshev_polynomial_v": np.cos((n + 0.5) * t) / np.cos(t / 2),
            "chebyshev_polynomial_w": np.sin((n + 0.5) * t) / np.sin(t / 2),
        }
        for name, want in expect.items():
            np.testing.assert_allclose(getattr(torch.special, name)(x, n).numpy(), want, rtol=1e-10, atol=1e-12)
            shifted = getattr(torch.special, "shifted_" + name)((x + 1) / 2, n).numpy()
            np.testing.assert_allclose(shifted, want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(
            torch.special.shifted_chebyshev_polynomial_t((x + 1) / 2, n).numpy(), np.cos(n * t), rtol=1e-10, atol=1e-12
        )
        np.testing.assert_allclose(
            torch.special.shifted_chebyshev_polynomial_u((x + 1) / 2, n).numpy(),
            np.sin((n + 1) * t) / np.sin(t),
            rtol=1e-10,
            atol=1e-12,
        )
