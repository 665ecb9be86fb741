"""Adagrad: per-coordinate steps scaled by the root of the accumulated squared gradients."""

import torch

from torch.optim.optimizer import Optimizer, _closure_loss

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    """Adagrad: clr = lr / (1 + (t-1) * lr_decay);  sum += g*g;  p -= clr * g / (sqrt(sum) + eps)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay=0,
        weight_decay=0,
        initial_accumulator_value=0,
        eps=1e-10,
        foreach=None,
        *,
        maximize=False,
    ):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= lr_decay:
            raise ValueError("Invalid lr_decay value: {}".format(lr_decay))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: {}".format(initial_accumulator_value))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
        )
        super().__init__(params, defaults)
        # Unlike the other optimizers, the accumulators exist from the start (share_memory() needs
        # them). They start at the constructor's initial_accumulator_value even in a group that
        # gives its own: PyTorch 1.13 does the same.
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = torch.tensor(0.0)
                state["sum"] = torch.full_like(p, initial_accumulator_value)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
        values = list(self.state.values())
        if values and not torch.is_tensor(values[0]["step"]):
            for s in values:
                s["step"] = torch.tensor(float(s["step"]))

    def share_memory(self):
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    @torch.no_grad()
    def step(self, closure=None):
        """One Adagrad update of every parameter that has a gradient; returns the closure's loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            adagrad(
                params,
                [p.grad for p in params],
                [self.state[p]["sum"] for p in params],
                [self.state[p]["step"] for p in params],
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                lr_decay=group["lr_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
            )
        return loss


def adagrad(
    params,
    grads,
    state_sums,
    state_steps,
    has_sparse_grad=None,
    foreach=None,
    *,
    lr,
    weight_decay,
    lr_decay,
    eps,
    maximize,
):
    """Functional Adagrad: updates params and the accumulators in place."""
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = step_t.item()
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
