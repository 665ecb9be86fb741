"""The package's handling of CUDA tensors, checked on any machine: cuda_cases.py's programs
run in a child process where host memory stands in for a GPU (torch._C._cuda_use_stand_in,
core/ops/StandInDevice.h), each compared with the same program on the CPU; a second run puts
the composite kernels a GPU uses (core/ops/Composite.h) in front of the CPU's. These check the
bindings, nn, optim and autograd with a second device, not GPU kernels (THC's are checked
on the GPU machine by scripts/device_check.sh, which runs cuda_cases.py there for real)."""

import json
import os
import subprocess
import sys

import pytest

import cuda_cases

HERE = os.path.dirname(os.path.abspath(__file__))


def _run(*flags):
    run = subprocess.run(
        [sys.executable, os.path.join(HERE, "cuda_cases.py"), "--stand-in", *flags],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = run.stdout.strip().splitlines()
    assert lines, "cuda_cases.py printed nothing:\n" + run.stderr[-4000:]
    return json.loads(lines[-1])


@pytest.fixture(scope="module")
def results():
    return _run()


@pytest.fixture(scope="module")
def results_with_composites():
    return _run("--composites")


@pytest.mark.parametrize("name", sorted(cuda_cases.CASES))
def test_case_on_the_stand_in_device(results, name):
    assert name in results, "the case did not run"
    assert results[name] is None, results[name]


# the same programs with the composite kernels (core/ops/Composite.h) that a GPU runs for
# linear, layer norm, embedding and resampling
@pytest.mark.parametrize("name", sorted(cuda_cases.CASES))
def test_case_with_the_composite_kernels(results_with_composites, name):
    assert name in results_with_composites, "the case did not run"
    assert results_with_composites[name] is None, results_with_composites[name]


def test_the_stand_in_refuses_to_hide_a_real_gpu_and_is_off_by_default():
    import torch

    if torch._C._cuda_is_built:
        # this process never asked for the stand-in
        assert not torch._C._cuda_is_stand_in()
        assert torch.cuda.is_available() == (torch.cuda.device_count() > 0)
