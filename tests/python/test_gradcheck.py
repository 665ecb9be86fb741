"""torch.autograd.gradcheck itself: the ~150 gradient tests rely on it, so it must fail where
PyTorch 1.13's fails (no input requiring grad, a detached output of a function that depends on
its inputs, a wrong backward, a non-deterministic one, one not linear in grad_output) and accept
PyTorch's options. The outcomes of gradcheck_cases.py are compared line for line with real
PyTorch 1.13 (/usr/bin/python3)."""

import os
import subprocess

import pytest

import gradcheck_cases
import torch
from conftest import require_real_torch_env
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.gradcheck import GradcheckError

HERE = os.path.dirname(os.path.abspath(__file__))


def test_same_outcomes_as_pytorch_1_13(tmp_path):
    run = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "gradcheck_cases.py")],
        capture_output=True,
        text=True,
        env=require_real_torch_env(),
        cwd=str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    real = dict(line.split("\t", 1) for line in run.stdout.splitlines())
    assert sorted(real) == sorted(gradcheck_cases.CASES)
    # the reference really exercised the failure paths, so the comparison is not all "True"
    assert sum(v.startswith("returned True") for v in real.values()) < len(real) / 2
    for name in gradcheck_cases.CASES:
        assert gradcheck_cases.outcome(name) == real[name], name


def _x(*shape):
    return (torch.rand(*shape, dtype=torch.float64) + 0.5).requires_grad_()


def test_no_input_requiring_grad_raises():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        gradcheck(torch.exp, (_x(3).detach(),))


def test_a_detached_output_fails_where_the_function_depends_on_its_input():
    with pytest.raises(GradcheckError, match="expected to be zero"):
        gradcheck(lambda a: a.exp().detach(), (_x(3),))
    assert gradcheck(lambda a: a.exp().detach(), (_x(3),), raise_exception=False) is False


def test_the_failure_names_the_output_and_the_input():
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 1 with respect to input 1"):
        gradcheck(lambda a, b: (a * b, a * gradcheck_cases.BadBackward.apply(b)), (_x(2), _x(2)))


def test_eps_atol_rtol_are_used():
    cube = lambda a: a**3  # noqa: E731  central differences of x^3 are off by eps^2
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradcheck(cube, (_x(3),), eps=0.1)
    assert gradcheck(cube, (_x(3),), eps=0.1, atol=0.05)
    assert gradcheck(cube, (_x(3),), eps=0.1, atol=0, rtol=0.05)


def test_fast_mode_catches_a_wrong_backward():
    assert gradcheck(lambda a, b: a * b.sin(), (_x(2, 3), _x(2, 3)), fast_mode=True)
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradcheck(gradcheck_cases.BadBackward.apply, (_x(4),), fast_mode=True)


def test_gradgradcheck_checks_the_second_derivative():
    assert gradgradcheck(lambda a: a.sin() * a, (_x(3),))
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradgradcheck(lambda a: a * gradcheck_cases.BadBackward.apply(a), (_x(3),))


@pytest.mark.parametrize("option", ["check_batched_grad", "check_forward_ad"])
def test_options_without_machinery_say_so(option):
    with pytest.raises(NotImplementedError, match=option):
        gradcheck(torch.exp, (_x(3),), **{option: True})
