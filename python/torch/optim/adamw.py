"""AdamW: Adam with decoupled weight decay (the parameter shrinks by lr * weight_decay)."""

import torch

from torch.optim.adam import _AdamFamily, _adam_steps, _check_adam_args, _check_capturable

__all__ = ["AdamW", "adamw"]


class AdamW(_AdamFamily):
    """AdamW: p *= 1 - lr * weight_decay, then the Adam step (the decay never enters the moments)."""

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=1e-2,
        amsgrad=False,
        *,
        maximize=False,
        foreach=None,
        capturable=False,
    ):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    @staticmethod
    def _functional(*args, **kwargs):
        adamw(*args, **kwargs)

    @torch.no_grad()
    def step(self, closure=None):
        """One AdamW update of every parameter that has a gradient; returns the closure's loss."""
        return self._step(closure)


def adamw(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    max_exp_avg_sqs,
    state_steps,
    foreach=None,
    capturable=False,
    *,
    amsgrad,
    beta1,
    beta2,
    lr,
    weight_decay,
    eps,
    maximize,
):
    """Functional AdamW: updates params and the moment buffers in place."""
    _check_capturable(capturable, params, state_steps)
    _adam_steps(
        params,
        grads,
        exp_avgs,
        exp_avg_sqs,
        max_exp_avg_sqs,
        state_steps,
        amsgrad,
        beta1,
        beta2,
        lr,
        weight_decay,
        eps,
        maximize,
        decoupled=True,
        capturable=capturable,
    )
