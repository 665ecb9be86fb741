"""Differential test: the cases of pytorch_cases.py (networks, sampling, losses,
activations, optimizers, schedulers, RNNs, tensor ops) give the same arrays here and under
real PyTorch 1.13, where Debian's python3-torch is installed for /usr/bin/python3."""

import os
import subprocess

import numpy as np

import pytorch_cases
from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))


def test_same_results_as_pytorch_1_13(tmp_path):
    env = require_real_torch_env()
    out = str(tmp_path / "real.npz")
    run = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "pytorch_cases.py"), out],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    real = np.load(out)
    ours = pytorch_cases.run_all()
    assert sorted(real.files) == sorted(ours)
    for key in real.files:
        assert real[key].shape == ours[key].shape, key
        if real[key].dtype.kind in "US":
            np.testing.assert_array_equal(ours[key], real[key], err_msg=key)
        else:
            np.testing.assert_allclose(ours[key], real[key], rtol=1e-6, atol=1e-8, equal_nan=True, err_msg=key)
