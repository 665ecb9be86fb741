"""NAdam: Adam with Nesterov momentum and a momentum schedule (Dozat, 2016)."""

import torch

from torch.optim.adam import _check_adam_args
from torch.optim.optimizer import Optimizer, _closure_loss

__all__ = ["NAdam", "nadam"]


class NAdam(Optimizer):
    """NAdam: mu_t = b1 * (1 - 0.96^(t*momentum_decay) / 2); m and v as in Adam;
    p -= lr * ((1-mu_t)/(1-prod mu) * g + mu_{t+1}/(1-prod mu * mu_{t+1}) * m) / (sqrt(v/(1-b2^t)) + eps)."""

    def __init__(
        self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3, foreach=None
    ):
        _check_adam_args(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError("Invalid momentum_decay value: {}".format(momentum_decay))
        defaults = dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay, foreach=foreach
        )
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
        for s in self.state.values():
            # Checkpoints from before PyTorch 1.12 hold numbers; tensors now.
            if "step" in s and not torch.is_tensor(s["step"]):
                s["step"] = torch.tensor(float(s["step"]))
            if "mu_product" in s and not torch.is_tensor(s["mu_product"]):
                s["mu_product"] = torch.tensor(s["mu_product"])

    @torch.no_grad()
    def step(self, closure=None):
        """One NAdam update of every parameter that has a gradient; returns the closure's loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.tensor(0.0)
                    state["mu_product"] = torch.tensor(1.0)
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
            beta1, beta2 = group["betas"]
            nadam(
                params,
                [p.grad for p in params],
                [self.state[p]["exp_avg"] for p in params],
                [self.state[p]["exp_avg_sq"] for p in params],
                [self.state[p]["mu_product"] for p in params],
                [self.state[p]["step"] for p in params],
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                momentum_decay=group["momentum_decay"],
                eps=group["eps"],
            )
        return loss


def nadam(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    mu_products,
    state_steps,
    foreach=None,
    *,
    beta1,
    beta2,
    lr,
    weight_decay,
    momentum_decay,
    eps,
):
    """Functional NAdam: updates params, moments and the running product of mu in place."""
    for param, grad, exp_avg, exp_avg_sq, mu_product, step_t in zip(
        params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps
    ):
        step_t += 1
        step = step_t.item()
        bias_correction2 = 1 - beta2**step
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu
        mu_product_next = mu_product * mu * mu_next
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        param.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product.item()))
        param.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1.0 - mu_product_next.item()))
