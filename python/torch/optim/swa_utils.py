"""Stochastic weight averaging (Izmailov et al., 2018), as in PyTorch 1.13:

swa_model = AveragedModel(model)
swa_scheduler = SWALR(optimizer, swa_lr=0.05)
for epoch in range(epochs):
    train(model, optimizer)
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_scheduler.step()
update_bn(loader, swa_model)     # batch-norm statistics of the averaged weights
"""

import itertools
import math
from copy import deepcopy

import torch
from torch.nn import Module
from torch.nn.modules.batchnorm import _BatchNorm
from torch.optim.lr_scheduler import _LRScheduler

__all__ = ["AveragedModel", "update_bn", "SWALR"]


def _running_mean(averaged, current, num_averaged):
    return averaged + (current - averaged) / (num_averaged + 1)


class AveragedModel(Module):
    """A copy of model whose parameters (and buffers, with use_buffers) are the average of the
    model's at each update_parameters(model) call, by avg_fn(averaged, current, n_averaged)
    (the running mean unless given); n_averaged is a buffer, so it is in the state_dict."""

    def __init__(self, model, device=None, avg_fn=None, use_buffers=False):
        super().__init__()
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn if avg_fn is not None else _running_mean
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        for p_avg, p_model in zip(mine, theirs):
            current = p_model.detach().to(p_avg.device)
            if self.n_averaged == 0:
                p_avg.detach().copy_(current)
            else:
                p_avg.detach().copy_(self.avg_fn(p_avg.detach(), current, self.n_averaged.to(p_avg.device)))
        self.n_averaged += 1


@torch.no_grad()
def update_bn(loader, model, device=None):
    """Recomputes the running statistics of every batch norm of model as the plain average over
    one pass of loader (its batches, or the first element of each)."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.running_mean = torch.zeros_like(module.running_mean)
            module.running_var = torch.ones_like(module.running_var)
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        # momentum None: a cumulative average over the batches seen.
        module.momentum = None
        module.num_batches_tracked *= 0
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(_LRScheduler):
    """Anneals each group's lr to swa_lr over anneal_epochs steps (cosine or linear), then holds it."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        for lr, group in zip(self._format_param(optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must by one of 'cos' or 'linear', instead got {anneal_strategy}")
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _format_param(optimizer, swa_lrs):
        if isinstance(swa_lrs, (list, tuple)):
            if len(swa_lrs) != len(optimizer.param_groups):
                raise ValueError(
                    "swa_lr must have the same length as "
                    f"optimizer.param_groups: swa_lr has {len(swa_lrs)}, "
                    f"optimizer.param_groups has {len(optimizer.param_groups)}"
                )
            return swa_lrs
        return [swa_lrs] * len(optimizer.param_groups)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        self._warn_if_outside_step()
        # The lr before annealing is recovered from the current one, so that other schedulers
        # may have changed it in between.
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha) for group in self.optimizer.param_groups
        ]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]
