"""LAPACK-backed functions on empty (0xN, Nx0, 0x0, zero batch) and 0-dim inputs give what
real PyTorch 1.13 gives (the cases are in linalg_empty_cases.py), and never uninitialized
memory (issue 14, finding 4)."""

import json
import os
import subprocess

import numpy as np
import pytest

import linalg_empty_cases
import torch
from conftest import real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))


def test_empty_and_0_dim_inputs_as_pytorch_1_13(tmp_path):
    env = real_torch_env()
    if env is None:
        pytest.skip("Debian's python3-torch is not installed for /usr/bin/python3: no real PyTorch to compare with")
    out = tmp_path / "real.json"
    run = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "linalg_empty_cases.py"), str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    real = json.loads(out.read_text())
    ours = json.loads(json.dumps(linalg_empty_cases.run_all()))
    assert sorted(real) == sorted(ours)
    for key, expected in real.items():
        got = ours[key]
        if isinstance(expected, dict) and "error" in expected:
            # the same exception type; the wording is ours (it names the sizes)
            assert isinstance(got, dict) and got.get("error") == expected["error"], (key, got, expected)
            assert "dimensions" in got["message"], (key, got)
        else:
            assert got == expected, (key, got, expected)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 4, 0), (0, 2, 5)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_svd_of_an_empty_matrix_has_orthogonal_factors(shape, dtype):
    # The SVD of an m x n matrix with m or n zero: U (m x m) and V (n x n) are any orthogonal
    # matrices, S is empty; LAPACK returns without writing them, so they must be filled.
    a = torch.empty(shape, dtype=dtype)
    m, n = shape[-2], shape[-1]
    for u, s, vh in [torch.linalg.svd(a), _old_svd(a)]:
        assert tuple(u.shape) == shape[:-2] + (m, m) and tuple(vh.shape) == shape[:-2] + (n, n)
        assert tuple(s.shape) == shape[:-2] + (min(m, n),)
        for q in (u.numpy(), vh.numpy()):
            eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape)
            np.testing.assert_array_equal(q @ np.swapaxes(q, -1, -2), eye)


def _old_svd(a):
    u, s, v = torch.svd(a, some=False)
    return u, s, v.transpose(-2, -1)
