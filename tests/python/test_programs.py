"""Complete small training programs, written as users write them (tests/python/programs/),
run unchanged under this package and under real PyTorch 1.13: with the same seeds they draw
the same numbers, so every printed loss must agree to float precision.

Each program prints one JSON object of figures (losses per step, final values)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = sorted(f for f in os.listdir(os.path.join(HERE, "programs")) if f.endswith(".py"))


def run(python, env, program):
    done = subprocess.run(
        [python, os.path.join(HERE, "programs", program)], capture_output=True, text=True, env=env, cwd="/", timeout=300
    )
    assert done.returncode == 0, f"{python} {program}:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_matches_pytorch(program):
    theirs = run("/usr/bin/python3", require_real_torch_env(), program)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(HERE, "..", "..", "python"), env.get("PYTHONPATH", "")])
    ours = run(sys.executable, env, program)
    assert ours.keys() == theirs.keys()
    # float32 sums in another order drift by a few ulps per step; a different draw or formula
    # shows at once as a difference of order one. A program in lower precision says its own
    # ("rtol": bfloat16 carries 8 significant bits).
    rtol = theirs.get("rtol", 2e-5)
    for key in theirs:
        if isinstance(theirs[key], list) and theirs[key] and isinstance(theirs[key][0], str):
            assert ours[key] == theirs[key], f"{program}: {key}"
            continue
        np.testing.assert_allclose(
            np.asarray(ours[key]), np.asarray(theirs[key]), rtol=rtol, atol=1e-6, err_msg=f"{program}: {key}"
        )
