"""Adadelta: steps scaled by the ratio of running RMS of updates to running RMS of gradients."""

import torch

from torch.optim.optimizer import Optimizer, _closure_loss

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    """Adadelta: v = rho*v + (1-rho)*g*g;  d = sqrt(u + eps) / sqrt(v + eps) * g;
    u = rho*u + (1-rho)*d*d;  p -= lr * d."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)

    @torch.no_grad()
    def step(self, closure=None):
        """One Adadelta update of every parameter that has a gradient; returns the closure's loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, square_avgs, acc_deltas = [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["square_avg"] = torch.zeros_like(p)
                    state["acc_delta"] = torch.zeros_like(p)
                state["step"] += 1
                params.append(p)
                square_avgs.append(state["square_avg"])
                acc_deltas.append(state["acc_delta"])
            adadelta(
                params,
                [p.grad for p in params],
                square_avgs,
                acc_deltas,
                lr=group["lr"],
                rho=group["rho"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                maximize=group["maximize"],
            )
        return loss


def adadelta(params, grads, square_avgs, acc_deltas, foreach=None, *, lr, rho, eps, weight_decay, maximize):
    """Functional Adadelta: updates params and both running averages in place."""
    for param, grad, square_avg, acc_delta in zip(params, grads, square_avgs, acc_deltas):
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)
