"""segment_reduce, batch_norm_update_stats and the other functions of native_extra_cases.py:
the same values, gradients and exceptions as real PyTorch 1.13."""

import os
import subprocess

import numpy as np
import pytest

import native_extra_cases
import torch
from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCES = {np.float32: (1e-5, 1e-6), np.float64: (1e-12, 1e-12)}


@pytest.fixture(scope="module")
def real_results(tmp_path_factory):
    env = require_real_torch_env()
    out = str(tmp_path_factory.mktemp("native_extra") / "real.npz")
    run = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "native_extra_cases.py"), out],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
    )
    assert run.returncode == 0, run.stderr
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("name", sorted(native_extra_cases.CASES))
def test_same_as_pytorch_1_13(name, real_results):
    theirs = {k: v for k, v in real_results.items() if k.split("::")[0] == name}
    assert theirs and (name + "::failed") not in theirs, str(theirs.get(name + "::failed"))
    ours = native_extra_cases.run_case(torch, name)
    assert (name + "::failed") not in ours, str(ours.get(name + "::failed"))
    assert sorted(ours) == sorted(theirs)
    for key in sorted(theirs, key=lambda k: int(k.split("::")[1])):
        want, got = theirs[key], ours[key]
        if want.dtype.kind in "US" or got.dtype.kind in "US":
            assert str(got) == str(want), key
            continue
        assert got.shape == want.shape and got.dtype == want.dtype, (key, got.shape, want.shape, got.dtype, want.dtype)
        if want.dtype.kind == "f":
            rtol, atol = TOLERANCES[want.dtype.type]
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=key)
        else:
            np.testing.assert_array_equal(got, want, err_msg=key)
