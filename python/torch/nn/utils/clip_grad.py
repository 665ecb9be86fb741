"""Gradient clipping: clip_grad_norm_ and clip_grad_value_."""

import math
import warnings

import torch

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales the gradients of parameters in place so that their total norm (the norm of the
    vector of all gradient entries) is at most max_norm. Returns the total norm before."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return torch.tensor(0.0)
    device = grads[0].device  # the total lives with the first gradient, as in PyTorch 1.13
    with torch.no_grad():
        if norm_type == math.inf:
            norms = [g.detach().abs().max().to(device) for g in grads]
            total_norm = norms[0] if len(norms) == 1 else torch.max(torch.stack(norms))
        else:
            total_norm = torch.norm(
                torch.stack([torch.norm(g.detach(), norm_type).to(device) for g in grads]), norm_type
            )
        # read back (a device sync) only when asked to check it
        if error_if_nonfinite and not math.isfinite(total_norm.item()):
            raise RuntimeError(
                "The total norm of order {} for gradients from `parameters` is non-finite, so it "
                "cannot be clipped. To disable this error and scale the gradients by the non-finite "
                "norm anyway, set `error_if_nonfinite=False`".format(norm_type)
            )
        clip_coef = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
        for g in grads:
            g.detach().mul_(clip_coef.to(g.device, g.dtype))
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Deprecated name of clip_grad_norm_."""
    warnings.warn(
        "torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_.", stacklevel=2
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    """Clamps every gradient entry to [-clip_value, clip_value] in place."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)
