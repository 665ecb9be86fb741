"""ASGD: averaged stochastic gradient descent (Polyak-Juditsky averaging, Bottou's schedule)."""

import torch

from torch.optim.optimizer import Optimizer, _closure_loss

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    """ASGD: p *= 1 - lambd*eta;  p -= eta*g;  ax += mu*(p - ax) (ax = p while mu == 1);
    then eta = lr / (1 + lambd*lr*t)^alpha and mu = 1 / max(1, t - t0). The average is state['ax']."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(
            lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach, maximize=maximize
        )
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
        values = list(self.state.values())
        if values and not torch.is_tensor(values[0]["step"]):
            for s in values:
                s["step"] = torch.tensor(float(s["step"]))
        if values and not torch.is_tensor(values[0]["eta"]):
            for s in values:
                s["eta"] = torch.tensor(s["eta"])
        if values and not torch.is_tensor(values[0]["mu"]):
            for s in values:
                s["mu"] = torch.tensor(float(s["mu"]))

    @torch.no_grad()
    def step(self, closure=None):
        """One ASGD update of every parameter that has a gradient; returns the closure's loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = []
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    # eta and mu are 0-dim tensors of the default dtype, as in PyTorch 1.13.
                    state["step"] = torch.tensor(0.0)
                    state["eta"] = torch.tensor(group["lr"])
                    state["mu"] = torch.tensor(1.0)
                    state["ax"] = torch.zeros_like(p)
                params.append(p)
            states = [self.state[p] for p in params]
            asgd(
                params,
                [p.grad for p in params],
                [s["ax"] for s in states],
                [s["mu"] for s in states],
                [s["eta"] for s in states],
                [s["step"] for s in states],
                lambd=group["lambd"],
                lr=group["lr"],
                t0=group["t0"],
                alpha=group["alpha"],
                weight_decay=group["weight_decay"],
                maximize=group["maximize"],
            )
        return loss


def asgd(
    params, grads, axs, mus, etas, state_steps, foreach=None, maximize=False, *, lambd, lr, t0, alpha, weight_decay
):
    """Functional ASGD: updates params, averages and the eta/mu/step tensors in place."""
    for param, grad, ax, mu, eta, step_t in zip(params, grads, axs, mus, etas, state_steps):
        grad = grad if not maximize else -grad
        step_t += 1
        step = step_t.item()
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        param.mul_(1 - lambd * eta.item())
        param.add_(grad, alpha=-eta.item())
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul(mu))
        else:
            ax.copy_(param)
        eta.copy_(torch.tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(torch.tensor(1 / max(1, step - t0)))
