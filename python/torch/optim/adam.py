"""Adam (and its AMSGrad variant) with L2 weight decay added to the gradient."""

import math

import torch

from torch.optim.optimizer import Optimizer, _closure_loss, _use_grad_for_differentiable

__all__ = ["Adam", "adam"]


def _check_adam_args(lr, betas, eps, weight_decay):
    if not 0.0 <= lr:
        raise ValueError("Invalid learning rate: {}".format(lr))
    if not 0.0 <= eps:
        raise ValueError("Invalid epsilon value: {}".format(eps))
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    if not 0.0 <= weight_decay:
        raise ValueError("Invalid weight_decay value: {}".format(weight_decay))


def _check_cpu_capable(optimizer):
    # capturable/fused exist for CUDA graphs and fused CUDA kernels; with CPU tensors
    # PyTorch refuses them, and so do we. On CUDA parameters both keep 'step' on the device
    # and update without reading it back (fused runs the same arithmetic as capturable).
    if optimizer.defaults.get("fused"):
        if optimizer.defaults.get("differentiable"):
            raise RuntimeError("`fused` cannot be `differentiable`")
        if not all(p.is_cuda and torch.is_floating_point(p) for g in optimizer.param_groups for p in g["params"]):
            raise RuntimeError("FusedAdam requires all the params to be CUDA, floating point")


def _step_tensors_to_float(optimizer):
    """Checkpoints from before PyTorch 1.12 hold 'step' as a number; it is a tensor now."""
    values = list(optimizer.state.values())
    if values and "step" in values[0] and not torch.is_tensor(values[0]["step"]):
        for s in values:
            s["step"] = torch.tensor(float(s["step"]))


def _adam_state(optimizer, p, amsgrad):
    state = optimizer.state[p]
    if len(state) == 0:
        # PyTorch 1.13: on the host unless capturable/fused, which count on the device
        on_device = optimizer.defaults.get("capturable") or optimizer.defaults.get("fused")
        state["step"] = torch.zeros((1,), dtype=torch.float, device=p.device) if on_device else torch.tensor(0.0)
        state["exp_avg"] = torch.zeros_like(p)
        state["exp_avg_sq"] = torch.zeros_like(p)
        if amsgrad:
            state["max_exp_avg_sq"] = torch.zeros_like(p)
    return state


def _adam_group(optimizer, group):
    """The parameters of group that have a gradient, with their gradients and Adam state
    (moments, max second moments when amsgrad, steps), as the functional forms take them."""
    params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = [], [], [], [], [], []
    for p in group["params"]:
        if p.grad is None:
            continue
        params.append(p)
        grads.append(p.grad)
        state = _adam_state(optimizer, p, group["amsgrad"])
        exp_avgs.append(state["exp_avg"])
        exp_avg_sqs.append(state["exp_avg_sq"])
        if group["amsgrad"]:
            max_exp_avg_sqs.append(state["max_exp_avg_sq"])
        steps.append(state["step"])
    return params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps


class _AdamFamily(Optimizer):
    """What Adam and AdamW share: the group keys old checkpoints lack, and the step over each
    group's parameters that have a gradient; a subclass names its functional form."""

    _group_defaults = dict(amsgrad=False, maximize=False, foreach=None, capturable=False)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, value in self._group_defaults.items():
                group.setdefault(key, value)
        _step_tensors_to_float(self)

    def _step(self, closure):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = _adam_group(self, group)
            beta1, beta2 = group["betas"]
            self._functional(
                params,
                grads,
                exp_avgs,
                exp_avg_sqs,
                max_exp_avg_sqs,
                steps,
                amsgrad=group["amsgrad"],
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                capturable=group["capturable"] or bool(group.get("fused")),
            )
        return loss


class Adam(_AdamFamily):
    """Adam: m = b1*m + (1-b1)*g;  v = b2*v + (1-b2)*g*g;
    p -= lr/(1-b1^t) * m / (sqrt(v or max(v_max, v)) / sqrt(1-b2^t) + eps)."""

    _group_defaults = dict(_AdamFamily._group_defaults, differentiable=False, fused=False)

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        amsgrad=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
        fused=False,
    ):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)
        _check_cpu_capable(self)

    @staticmethod
    def _functional(*args, **kwargs):
        adam(*args, **kwargs)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adam update of every parameter that has a gradient; returns the closure's loss."""
        return self._step(closure)


def _check_capturable(capturable, params, state_steps):
    if capturable and not all(p.is_cuda and step.is_cuda for p, step in zip(params, state_steps)):
        raise RuntimeError("If capturable=True, params and state_steps must be CUDA tensors.")


def adam(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    max_exp_avg_sqs,
    state_steps,
    foreach=None,
    capturable=False,
    differentiable=False,
    fused=False,
    *,
    amsgrad,
    beta1,
    beta2,
    lr,
    weight_decay,
    eps,
    maximize,
):
    """Functional Adam: updates params and the moment buffers in place, steps counted in state_steps."""
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
        decoupled=False,
        capturable=capturable,
    )


def _adam_steps(
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
    decoupled,
    capturable=False,
):
    """The per-parameter loop of Adam (weight decay added to the gradient) and AdamW
    (decoupled: the parameter shrinks by lr * weight_decay; the decay never enters the moments)."""
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        step_t += 1
        if decoupled:
            param.mul_(1 - lr * weight_decay)
        elif weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        max_exp_avg_sq = max_exp_avg_sqs[i] if amsgrad else None
        if capturable:
            _adam_update_on_device(param, exp_avg, exp_avg_sq, max_exp_avg_sq, step_t, beta1, beta2, lr, eps)
        else:
            _adam_update(param, exp_avg, exp_avg_sq, max_exp_avg_sq, step_t.item(), beta1, beta2, lr, eps)


def _adam_update(param, exp_avg, exp_avg_sq, max_exp_avg_sq, step, beta1, beta2, lr, eps):
    """The bias-corrected step shared by Adam and AdamW."""
    bias_correction1 = 1 - beta1**step
    bias_correction2_sqrt = math.sqrt(1 - beta2**step)
    step_size = lr / bias_correction1
    if max_exp_avg_sq is not None:
        torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
        denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    else:
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-step_size)


def _adam_update_on_device(param, exp_avg, exp_avg_sq, max_exp_avg_sq, step, beta1, beta2, lr, eps):
    """_adam_update with the step a tensor on the parameter's device, never read by the host
    (capturable, fused): PyTorch 1.13's arithmetic for it."""
    bias_correction1 = 1 - torch.pow(beta1, step)
    bias_correction2_sqrt = (1 - torch.pow(beta2, step)).sqrt()
    step_size_neg = (lr / bias_correction1).neg()
    second = exp_avg_sq if max_exp_avg_sq is None else torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
    denom = (second.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
    param.addcdiv_(exp_avg, denom)
