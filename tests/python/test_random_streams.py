"""Differential test of the random streams: the cases of random_stream_cases.py (rand, randn,
randint, randperm, the in-place fills, bernoulli, multinomial, dropout masks, nn.init and
default layer initialisation, torch.Generator, get_rng_state) give the same bits here and
under real PyTorch 1.13 (Debian's python3-torch for /usr/bin/python3), and a state saved by
either continues the same stream in the other."""

import os
import subprocess
import sys

import numpy as np
import pytest

import random_stream_cases
import torch
from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    env = require_real_torch_env()
    out = str(tmp_path_factory.mktemp("real") / "real.npz")
    run = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "random_stream_cases.py"), out],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.path.dirname(out),
    )
    assert run.returncode == 0, run.stderr
    return dict(np.load(out))


@pytest.fixture(scope="module")
def ours():
    return random_stream_cases.run_all(torch)


@pytest.mark.parametrize("case", [c.__name__ for c in random_stream_cases.CASES])
def test_same_bits_as_pytorch_1_13(real, ours, case):
    keys = sorted(random_stream_cases.run_all.__globals__[case](torch).keys())
    assert keys
    for key in (k.replace("torch.", "") for k in keys):
        assert real[key].dtype == ours[key].dtype, key
        np.testing.assert_array_equal(ours[key], real[key], err_msg=key)


def test_state_is_pytorchs_5056_bytes(real):
    torch.manual_seed(5)
    state = torch.get_rng_state()
    assert state.dtype == torch.uint8 and state.shape == (5056,)
    assert bytes(state.numpy()) == bytes(real["state_seeded"])


def test_state_saved_by_pytorch_continues_its_stream(real):
    torch.manual_seed(999)
    torch.set_rng_state(torch.from_numpy(real["state_after"]))
    np.testing.assert_array_equal(torch.randn(3, dtype=torch.float64).numpy(), real["continued"])
    np.testing.assert_array_equal(torch.get_rng_state().numpy(), real["state_continued"])
    g = torch.Generator()
    g.set_state(torch.from_numpy(real["state_after"]))
    np.testing.assert_array_equal(torch.randn(3, dtype=torch.float64, generator=g).numpy(), real["continued"])


def test_torch7_state_is_accepted():
    # A 5048-byte state (torch7's and PyTorch's legacy layout): its (x, rho) cache becomes the
    # cached double normal, as PyTorch's set_state does.
    torch.manual_seed(3)
    torch.randn(1, dtype=torch.float64)
    full = torch.get_rng_state()
    legacy = full[:5048].clone()
    torch.set_rng_state(legacy)
    after = torch.get_rng_state()
    assert after.shape == (5056,)
    np.testing.assert_array_equal(after[:5016].numpy(), full[:5016].numpy())  # the twister
    with pytest.raises(RuntimeError, match="size"):
        torch.set_rng_state(torch.zeros(100, dtype=torch.uint8))


def test_new_generators_start_from_pytorchs_seed():
    # A torch.Generator nobody seeds starts from c10's default seed, 67280421310721, as in
    # PyTorch (whose default generator, like ours, is seeded from /dev/urandom at import).
    env = require_real_torch_env()
    script = (
        "import torch, sys; g = torch.Generator(); "
        "sys.stdout.write(repr((g.initial_seed(), torch.randn(2, generator=g).tolist(), "
        "torch.randperm(7, generator=g).tolist())))"
    )
    real = subprocess.run(["/usr/bin/python3", "-c", script], capture_output=True, text=True, env=env, cwd="/")
    assert real.returncode == 0, real.stderr
    python = os.path.join(os.path.dirname(HERE), "..", "python")
    ours_env = dict(os.environ, PYTHONPATH=os.path.abspath(python))
    mine = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=ours_env, cwd="/")
    assert mine.returncode == 0, mine.stderr
    assert mine.stdout == real.stdout
    assert real.stdout.startswith("(67280421310721,")
