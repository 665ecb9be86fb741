"""Rprop: resilient backpropagation, sign-based steps with per-coordinate adaptive sizes."""

import torch

from torch.optim.optimizer import Optimizer, _closure_loss

__all__ = ["Rprop", "rprop"]


class Rprop(Optimizer):
    """Rprop: where g*g_prev > 0 the step size grows by etaplus, where < 0 it shrinks by etaminus
    (and that coordinate does not move, g_prev = 0), clamped to step_sizes; p -= size * sign(g)."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("Invalid eta values: {}, {}".format(etas[0], etas[1]))
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)

    @torch.no_grad()
    def step(self, closure=None):
        """One Rprop update of every parameter that has a gradient; returns the closure's loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = []
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["prev"] = torch.zeros_like(p)
                    state["step_size"] = torch.full_like(p.grad, group["lr"])
                state["step"] += 1
                params.append(p)
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            rprop(
                params,
                [p.grad for p in params],
                [self.state[p]["prev"] for p in params],
                [self.state[p]["step_size"] for p in params],
                step_size_min=step_size_min,
                step_size_max=step_size_max,
                etaminus=etaminus,
                etaplus=etaplus,
                maximize=group["maximize"],
            )
        return loss


def rprop(
    params, grads, prevs, step_sizes, foreach=None, maximize=False, *, step_size_min, step_size_max, etaminus, etaplus
):
    """Functional Rprop: updates params, prevs and step_sizes in place."""
    for param, grad, prev, step_size in zip(params, grads, prevs, step_sizes):
        grad = grad if not maximize else -grad
        agreement = grad.mul(prev).sign()
        grew, flipped = agreement.gt(0), agreement.lt(0)
        factor = torch.where(
            grew,
            torch.full_like(grad, etaplus),
            torch.where(flipped, torch.full_like(grad, etaminus), torch.ones_like(grad)),
        )
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        # A coordinate whose gradient changed sign stays put and forgets its gradient, so the
        # next step neither grows nor shrinks its size.
        grad = torch.where(flipped, torch.zeros_like(grad), grad)
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
