"""NAdam, RAdam, the schedulers CyclicLR, CosineAnnealingWarmRestarts, PolynomialLR,
SequentialLR and ChainedScheduler, and optim.swa_utils against real PyTorch 1.13: the cases of
optim_cases.py (20-step trajectories, learning rates and momenta per step, averaged weights
and batch-norm statistics) give the same arrays under both packages."""

import copy

import numpy as np
import pytest

import optim_cases
import torch
import torch.nn as nn
import torch.nn.functional as F
from real_pytorch import assert_case_matches, real_results


@pytest.fixture(scope="module")
def theirs(tmp_path_factory):
    return real_results("optim_cases.py", tmp_path_factory.mktemp("optim"))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", optim_cases.CASES, ids=lambda c: c.__name__)
def test_same_as_pytorch_1_13(case, theirs):
    assert_case_matches(case, case(torch, nn, F), theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("make", [lambda p: torch.optim.NAdam(p, lr=0.01), lambda p: torch.optim.RAdam(p, lr=0.01)])
def test_resuming_from_state_dict_continues_the_trajectory(make):
    params, loss_fn = optim_cases._problem(torch, 9)
    opt = make(params)

    def step(opt):
        opt.zero_grad()
        loss_fn().backward()
        opt.step()

    for _ in range(4):
        step(opt)
    saved_params = [p.detach().clone() for p in params]
    saved_state = copy.deepcopy(opt.state_dict())
    for _ in range(3):
        step(opt)
    expected = [p.detach().clone() for p in params]
    with torch.no_grad():
        for p, s in zip(params, saved_params):
            p.copy_(s)
    resumed = make(params)
    resumed.load_state_dict(saved_state)
    for _ in range(3):
        step(resumed)
    for p, e in zip(params, expected):
        # (mu_product is cast to the parameters' dtype on loading, as PyTorch does: float64 here)
        np.testing.assert_allclose(p.detach().numpy(), e.numpy(), rtol=1e-9, atol=1e-11)


def _sgd():
    return torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)


@pytest.mark.filterwarnings("ignore:The epoch parameter")
def test_scheduler_state_dicts_resume():
    L = torch.optim.lr_scheduler
    for make in (
        lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=3, scale_fn=lambda x: 0.5**x),
        lambda o: L.SequentialLR(o, [L.ConstantLR(o, total_iters=2), L.ExponentialLR(o, 0.5)], milestones=[3]),
        lambda o: L.ChainedScheduler([L.StepLR(o, 2), L.ExponentialLR(o, 0.9)]),
        lambda o: L.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2),
    ):
        opt = _sgd()
        sched = make(opt)
        for _ in range(4):
            opt.step()
            sched.step()
        state = sched.state_dict()
        expected = []
        for _ in range(4):
            opt.step()
            sched.step()
            expected.append(opt.param_groups[0]["lr"])
        opt2 = _sgd()
        sched2 = make(opt2)
        sched2.load_state_dict(state)
        opt2.param_groups[0]["lr"] = state.get("_last_lr", sched.get_last_lr())[0]
        got = []
        for _ in range(4):
            opt2.step()
            sched2.step()
            got.append(opt2.param_groups[0]["lr"])
        assert got == pytest.approx(expected), make


def test_messages_are_pytorchs():
    L = torch.optim.lr_scheduler
    opt = _sgd()
    with pytest.raises(ValueError, match="number of schedulers 2 and the number of milestones to be equal to 2"):
        L.SequentialLR(opt, [L.ConstantLR(opt), L.ConstantLR(opt)], milestones=[1, 2])
    with pytest.raises(ValueError, match="Expected positive integer T_0, but got 0"):
        L.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="mode is invalid and scale_fn is None"):
        L.CyclicLR(opt, 0.1, 1.0, mode="sawtooth")
    adam = torch.optim.Adam([torch.zeros(1, requires_grad=True)])
    with pytest.raises(ValueError, match="optimizer must support momentum with `cycle_momentum` option enabled"):
        L.CyclicLR(adam, 0.1, 1.0)
    with pytest.raises(ValueError, match="Invalid momentum_decay value: -1"):
        torch.optim.NAdam([torch.zeros(1, requires_grad=True)], momentum_decay=-1)
    with pytest.raises(ValueError, match="anneal_strategy must by one of 'cos' or 'linear', instead got step"):
        torch.optim.swa_utils.SWALR(opt, 0.1, anneal_strategy="step")
