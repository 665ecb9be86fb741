"""torch.cuda, torch.backends, torch.version and torch.random on a machine without a GPU
(Note [CUDA in the bindings] in python/csrc/Bind.h), compared with Debian's PyTorch 1.13, a
build without CUDA: the same values where a machine without a GPU answers alike whatever the
build. For errors, a build without the CUDA toolkit raises what PyTorch 1.13 without CUDA
raises (AssertionError "Torch not compiled with CUDA enabled"); a build with it raises what
PyTorch built with CUDA raises on a machine without a GPU, RuntimeError("No CUDA GPUs are
available"), with the CUDA runtime's reason."""

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import torch
from conftest import require_real_torch_env

BUILT = torch._C._cuda_is_built
NO_CUDA = "No CUDA GPUs are available" if BUILT else "Torch not compiled with CUDA enabled"
NO_CUDA_KIND = RuntimeError if BUILT else AssertionError
# what the build says, which PyTorch 1.13 without CUDA cannot be the reference for
BUILD_ANSWERS = {"version_cuda", "backends_cuda"}

# name -> expression, run here and under PyTorch 1.13 (`torch` and `t`, a CPU tensor, in scope)
CALLS = {
    "is_available": "torch.cuda.is_available()",
    "device_count": "torch.cuda.device_count()",
    "is_initialized": "torch.cuda.is_initialized()",
    "get_arch_list": "torch.cuda.get_arch_list()",
    "memory_allocated": "torch.cuda.memory_allocated()",
    "max_memory_allocated": "torch.cuda.max_memory_allocated()",
    "memory_reserved": "torch.cuda.memory_reserved()",
    "empty_cache": "torch.cuda.empty_cache()",
    "manual_seed": "torch.cuda.manual_seed(1)",
    "manual_seed_all": "torch.cuda.manual_seed_all(1)",
    "seed": "torch.cuda.seed()",
    "current_device": "torch.cuda.current_device()",
    "get_device_name": "torch.cuda.get_device_name(0)",
    "synchronize": "torch.cuda.synchronize()",
    "get_rng_state": "torch.cuda.get_rng_state()",
    "initial_seed": "torch.cuda.initial_seed()",
    "current_stream": "torch.cuda.current_stream()",
    "mem_get_info": "torch.cuda.mem_get_info()",
    "device_context": "torch.cuda.device(0).__enter__()",
    "tensor.cuda": "t.cuda()",
    "tensor.to": "t.to('cuda')",
    "tensor.to_device": "t.to(torch.device('cuda', 0))",
    "zeros_device": "torch.zeros(2, device='cuda')",
    "rand_device": "torch.rand(2, device='cuda:0')",
    "is_cuda": "t.is_cuda",
    "get_device": "t.get_device()",
    "FloatTensor": "torch.cuda.FloatTensor(2)",
    "isinstance": "isinstance(t, torch.cuda.FloatTensor)",
    "cudnn": "(torch.backends.cudnn.is_available(), torch.backends.cudnn.version(), torch.backends.cudnn.enabled,"
    " torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)",
    "backends_cuda": "torch.backends.cuda.is_built()",
    "mps": "torch.backends.mps.is_available()",
    "openmp": "torch.backends.openmp.is_available()",
    "version_cuda": "torch.version.cuda",
    "version_ge": "(torch.__version__ >= '1.6', torch.__version__ >= (1, 13), torch.__version__ < '2.0',"
    " torch.__version__ > (1, 13, 0, 1))",
}

RUN = r"""
import json, sys, warnings
import torch
warnings.simplefilter("ignore")
t = torch.zeros(2)
out = {}
for name, expr in json.loads(sys.argv[1]).items():
    try:
        v = eval(expr)
        out[name] = ["value", repr(v.tolist() if isinstance(v, torch.Tensor) else v)]
    except BaseException as e:
        out[name] = [type(e).__name__, str(e)]
print(json.dumps(out))
"""


def _run_here():
    return json.loads(
        subprocess.run(
            [sys.executable, "-c", RUN, json.dumps(CALLS)],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ),
        ).stdout
    )


def test_the_same_answers_and_errors_as_pytorch_without_cuda():
    env = require_real_torch_env()
    real = json.loads(
        subprocess.run(
            ["/usr/bin/python3", "-c", RUN, json.dumps(CALLS)], capture_output=True, text=True, check=True, env=env
        ).stdout
    )
    ours = _run_here()
    for name in CALLS:
        kind, text = ours[name]
        real_kind, real_text = real[name]
        if name == "version_ge":  # the same verdicts for this package's API level, 1.13
            assert text == "(True, True, True, False)"
            continue
        if name in BUILD_ANSWERS:
            assert kind == "value"
            continue
        if real_kind != "value" and BUILT:
            assert kind == "RuntimeError" and text.startswith(NO_CUDA), (name, ours[name])
            continue
        assert kind == real_kind, (name, ours[name], real[name])
        if kind == "value":
            assert text == real_text, (name, text, real_text)
        else:
            assert text.startswith(real_text.rstrip(".")), (name, text, real_text)


@pytest.mark.parametrize(
    "call",
    [
        lambda: torch.cuda.set_device(0),
        lambda: torch.cuda.Stream(),
        lambda: torch.cuda.Event(enable_timing=True),
        lambda: torch.zeros(2).pin_memory(),
        lambda: torch.cuda.get_device_properties(0),
        lambda: torch.random.fork_rng(devices=[0]).__enter__(),
    ],
)
def test_what_needs_a_gpu_says_so(call):
    # PyTorch 1.13 without CUDA answers these with an AttributeError, a TypeError or a
    # NotImplementedError about its dispatcher; here they say what is missing.
    with pytest.raises(NO_CUDA_KIND, match=NO_CUDA):
        call()


def test_what_the_build_says():
    assert torch.backends.cuda.is_built() == BUILT
    if BUILT:
        # the toolkit THC was compiled with, as "major.minor"
        major, minor = torch.version.cuda.split(".")
        assert int(major) >= 11 and minor.isdigit()
    else:
        assert torch.version.cuda is None


def test_a_program_choosing_its_device_runs_on_the_cpu():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    torch.backends.cudnn.benchmark = True
    model = torch.nn.Linear(3, 2).to(device)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler = torch.cuda.amp.GradScaler()
        with torch.cuda.amp.autocast():
            loss = model(torch.ones(4, 3, device=device)).pow(2).sum()
    assert any("CUDA is not available" in str(w.message) for w in caught)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    before = model.weight.detach().clone()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    # the step a plain loss.backward(); opt.step() takes: the scaler scales nothing
    expected = before - 0.1 * model.weight.grad
    np.testing.assert_allclose(model.weight.detach().numpy(), expected.numpy(), rtol=1e-6)
    assert torch.cuda.memory_allocated() == 0 and model.weight.device.type == "cpu"


def test_fork_rng_puts_the_state_back():
    torch.manual_seed(5)
    expected = torch.rand(3)
    torch.manual_seed(5)
    with torch.random.fork_rng():
        torch.rand(10)
    np.testing.assert_array_equal(torch.rand(3).numpy(), expected.numpy())


def test_cudnn_flags_restore_the_switches():
    cudnn = torch.backends.cudnn
    saved = (cudnn.enabled, cudnn.benchmark, cudnn.deterministic)
    with cudnn.flags(enabled=False, benchmark=True, deterministic=True):
        assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic) == (False, True, True)
    assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic) == saved


def test_version_is_a_string_that_compares_as_a_version():
    v = torch.__version__
    assert isinstance(v, str) and v.startswith("1.13.0")
    assert v >= "1.10.2" and v < "1.13.1" and v >= (1, 9) and not v >= "1.14"
    assert torch.version.__version__ == v
