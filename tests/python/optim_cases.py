"""Optimizer, scheduler and weight-averaging cases run the same way by this package and by
real PyTorch 1.13 (/usr/bin/python3 with Debian's python3-torch): parameters and data come
from seeded numpy generators, and each case returns numpy arrays (parameter trajectories,
learning rates and momenta per step). test_optim_extra.py compares the two runs.

Run directly (`python3 optim_cases.py OUT.npz`) it writes every case's arrays to OUT.npz."""

import sys

import numpy as np


def _problem(torch, seed):
    """Two parameters and a loss with a curved valley: each step's gradient depends on the last."""
    rng = np.random.default_rng(seed)
    w = torch.from_numpy(rng.standard_normal((3, 4))).requires_grad_()
    b = torch.from_numpy(rng.standard_normal(4)).requires_grad_()
    x = torch.from_numpy(rng.standard_normal((5, 3)))
    y = torch.from_numpy(rng.standard_normal((5, 4)))

    def loss():
        out = torch.tanh(x @ w + b)
        return ((out - y) ** 2).sum() + 0.1 * (w**4).sum()

    return [w, b], loss


def _trajectory(torch, make_optimizer, seed, steps=20):
    params, loss_fn = _problem(torch, seed)
    opt = make_optimizer(params)
    losses, trail = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        trail.append(np.concatenate([p.detach().numpy().ravel() for p in params]))
    return [np.array(losses), np.array(trail)]


def nadam(torch, nn, F):
    out = _trajectory(torch, lambda p: torch.optim.NAdam(p), 1)
    out += _trajectory(
        torch, lambda p: torch.optim.NAdam(p, lr=0.01, betas=(0.8, 0.99), weight_decay=0.1, momentum_decay=0.01), 2
    )
    return out


def radam(torch, nn, F):
    # 20 steps with beta2=0.999 stay in the un-rectified phase (rho_t <= 5 until step 6); a
    # small beta2 reaches the rectified one.
    out = _trajectory(torch, lambda p: torch.optim.RAdam(p, lr=0.01), 3)
    out += _trajectory(torch, lambda p: torch.optim.RAdam(p, lr=0.02, betas=(0.9, 0.9), weight_decay=0.05), 4)
    return out


def _lrs(torch, make_scheduler, steps=25, lr=0.1, momentum=True):
    p = torch.zeros(2, requires_grad=True)
    opt = torch.optim.SGD(
        [{"params": [p]}, {"params": [torch.zeros(1, requires_grad=True)], "lr": lr / 2}],
        lr=lr,
        momentum=0.9 if momentum else 0,
    )
    sched = make_scheduler(opt)
    lrs, momenta = [], []
    for _ in range(steps):
        opt.step()
        sched.step()
        lrs.append([g["lr"] for g in opt.param_groups])
        momenta.append([g["momentum"] for g in opt.param_groups])
    return [np.array(lrs), np.array(momenta), np.array(sched.get_last_lr())]


def cyclic_lr(torch, nn, F):
    S = torch.optim.lr_scheduler.CyclicLR
    out = _lrs(torch, lambda o: S(o, 0.01, 0.1, step_size_up=4))
    out += _lrs(torch, lambda o: S(o, [0.01, 0.02], 0.1, step_size_up=3, step_size_down=5, mode="triangular2"))
    out += _lrs(torch, lambda o: S(o, 0.01, 0.1, step_size_up=4, mode="exp_range", gamma=0.9, cycle_momentum=False))
    out += _lrs(
        torch,
        lambda o: S(
            o,
            0.01,
            0.1,
            step_size_up=2,
            scale_fn=lambda x: 0.5**x,
            scale_mode="iterations",
            base_momentum=0.7,
            max_momentum=0.95,
        ),
    )
    return out


def cosine_warm_restarts(torch, nn, F):
    S = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts
    out = _lrs(torch, lambda o: S(o, T_0=5))
    out += _lrs(torch, lambda o: S(o, T_0=3, T_mult=2, eta_min=0.001))
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    sched = S(opt, T_0=4, T_mult=2)
    fractional = []
    for epoch in range(6):
        for i in range(3):
            opt.step()
            sched.step(epoch + i / 3)
            fractional.append(opt.param_groups[0]["lr"])
    return out + [np.array(fractional)]


def polynomial_lr(torch, nn, F):
    S = torch.optim.lr_scheduler.PolynomialLR
    return _lrs(torch, lambda o: S(o, total_iters=8, power=2.0)) + _lrs(torch, lambda o: S(o))


def sequential_and_chained(torch, nn, F):
    L = torch.optim.lr_scheduler
    out = _lrs(
        torch,
        lambda o: L.SequentialLR(
            o, [L.LinearLR(o, start_factor=0.1, total_iters=4), L.ExponentialLR(o, gamma=0.9)], milestones=[5]
        ),
    )
    out += _lrs(
        torch,
        lambda o: L.SequentialLR(
            o,
            [
                L.ConstantLR(o, factor=0.5, total_iters=3),
                L.CosineAnnealingLR(o, T_max=6),
                L.StepLR(o, step_size=2, gamma=0.5),
            ],
            milestones=[4, 12],
        ),
    )
    out += _lrs(
        torch, lambda o: L.ChainedScheduler([L.ConstantLR(o, factor=0.1, total_iters=2), L.ExponentialLR(o, gamma=0.9)])
    )
    return out


def linear_constant_lr(torch, nn, F):
    L = torch.optim.lr_scheduler
    return _lrs(torch, lambda o: L.LinearLR(o, start_factor=0.25, end_factor=0.75, total_iters=6)) + _lrs(
        torch, lambda o: L.ConstantLR(o, factor=0.2, total_iters=4)
    )


def swa(torch, nn, F):
    rng = np.random.default_rng(5)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.standard_normal(tuple(p.shape))))
    averaged = torch.optim.swa_utils.AveragedModel(model)
    ema = torch.optim.swa_utils.AveragedModel(model, avg_fn=lambda a, m, n: 0.9 * a + 0.1 * m, use_buffers=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.5)
    swa_sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=5)
    linear_sched_lrs = []
    xs = [torch.from_numpy(rng.standard_normal((6, 3))) for _ in range(8)]
    lrs = []
    for x in xs:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        averaged.update_parameters(model)
        ema.update_parameters(model)
        swa_sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    torch.optim.swa_utils.update_bn(xs, averaged)
    p = torch.zeros(1, requires_grad=True)
    opt2 = torch.optim.SGD([p], lr=1.0)
    s2 = torch.optim.swa_utils.SWALR(opt2, swa_lr=[0.1], anneal_epochs=3, anneal_strategy="linear")
    for _ in range(6):
        opt2.step()
        s2.step()
        linear_sched_lrs.append(opt2.param_groups[0]["lr"])
    out = [np.array(lrs), np.array(linear_sched_lrs), averaged.n_averaged.numpy()]
    out += [v.detach().numpy() for v in averaged.state_dict().values()]
    out += [v.detach().numpy() for v in ema.state_dict().values()]
    with torch.no_grad():
        out.append(averaged(xs[0]).numpy())
    return out


def sparse_adam(torch, nn, F):
    def error(fn):
        try:
            fn()
        except Exception as exc:  # noqa: BLE001  (the type and message are compared)
            return "%s: %s" % (type(exc).__name__, exc)
        return "ok"

    p = nn.Parameter(torch.ones(3))
    opt = torch.optim.SparseAdam([p], lr=0.1)
    out = [str(opt.step()), str(opt.defaults == dict(lr=0.1, betas=(0.9, 0.999), eps=1e-8, maximize=False))]
    p.grad = torch.ones(3)  # dense, as every gradient here is
    out.append(error(opt.step))
    for kwargs in [dict(lr=0), dict(eps=0), dict(betas=(1.0, 0.9)), dict(betas=(0.9, 1.0))]:
        out.append(error(lambda: torch.optim.SparseAdam([p], **kwargs)))
    out.append(repr(opt))
    return out


CASES = [
    nadam,
    radam,
    cyclic_lr,
    cosine_warm_restarts,
    polynomial_lr,
    sequential_and_chained,
    linear_constant_lr,
    swa,
    sparse_adam,
]


def run_all():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    out = {}
    for case in CASES:
        for i, array in enumerate(case(torch, nn, F)):
            out["%s_%d" % (case.__name__, i)] = np.asarray(array)
    return out


if __name__ == "__main__":
    np.savez(sys.argv[1], **run_all())
