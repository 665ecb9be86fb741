"""SGD with optional momentum, dampening, Nesterov momentum and L2 weight decay."""

from torch.optim.optimizer import Optimizer, _closure_loss, _use_grad_for_differentiable, required

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    """Stochastic gradient descent (PyTorch's formulation of momentum):

    g = grad (+ weight_decay * p);  b = g at the first step, else momentum * b + (1 - dampening) * g
    d = g + momentum * b (nesterov) or b;  p -= lr * d      (p += lr * d with maximize)
    """

    def __init__(
        self,
        params,
        lr=required,
        momentum=0,
        dampening=0,
        weight_decay=0,
        nesterov=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
    ):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads, bufs = [], [], []
            for p in group["params"]:
                if p.grad is not None:
                    params.append(p)
                    grads.append(p.grad)
                    bufs.append(self.state[p].get("momentum_buffer"))
            sgd(
                params,
                grads,
                bufs,
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                lr=group["lr"],
                dampening=group["dampening"],
                nesterov=group["nesterov"],
                maximize=group["maximize"],
            )
            # Stored even when None (momentum 0), as PyTorch does, so state_dicts look alike.
            for p, buf in zip(params, bufs):
                self.state[p]["momentum_buffer"] = buf
        return loss


def sgd(
    params,
    d_p_list,
    momentum_buffer_list,
    *,
    weight_decay,
    momentum,
    lr,
    dampening,
    nesterov,
    maximize,
    foreach=None,
    has_sparse_grad=None,
):
    """Functional SGD: updates params in place; fills new momentum buffers into momentum_buffer_list."""
    for i, param in enumerate(params):
        d_p = d_p_list[i] if not maximize else -d_p_list[i]
        if weight_decay != 0:
            d_p = d_p.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = d_p.clone().detach()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
            d_p = d_p.add(buf, alpha=momentum) if nesterov else buf
        param.add_(d_p, alpha=-lr)
