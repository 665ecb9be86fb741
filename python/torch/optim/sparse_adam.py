"""SparseAdam: Adam for parameters whose gradients are sparse (nn.Embedding(sparse=True)).

This package has no sparse tensors yet, so every gradient is dense, and for a dense
gradient PyTorch 1.13's SparseAdam raises; this one does the same, with the same checks
of its arguments, so a program that builds one for dense parameters (as 1.13 requires)
gets 1.13's behaviour. Its sparse update comes with sparse tensors."""

from torch.optim.optimizer import Optimizer, _closure_loss

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if not 0.0 < lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 < eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))

    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:  # dense: the only kind this package makes
                    raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
        return loss
