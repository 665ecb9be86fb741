"""Activations, losses, normalizations, dropout, embeddings and linear maps of torch.nn.functional (see functional.py).

The kernels are torch._C._nn's (THNN's, with autograd); this module supplies PyTorch 1.13's
signatures, defaults, argument checks and warnings, and composes the operations that are
simple expressions of other tensor operations, as PyTorch's own functional.py does.
"""

import math
import warnings

import torch
from torch import _C
from torch.amp.autocast_mode import float32_under_autocast
from torch.overrides import (  # noqa: F401  (PyTorch's functional.py has these names)
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)

_nn = _C._nn

__all__ = [
    # linear maps
    "linear",
    "bilinear",
    # activations
    "threshold",
    "threshold_",
    "relu",
    "relu_",
    "relu6",
    "hardtanh",
    "hardtanh_",
    "leaky_relu",
    "leaky_relu_",
    "prelu",
    "rrelu",
    "rrelu_",
    "elu",
    "elu_",
    "selu",
    "selu_",
    "celu",
    "celu_",
    "gelu",
    "logsigmoid",
    "hardshrink",
    "tanhshrink",
    "softsign",
    "softplus",
    "softmin",
    "softmax",
    "log_softmax",
    "gumbel_softmax",
    "softshrink",
    "tanh",
    "sigmoid",
    "hardsigmoid",
    "silu",
    "mish",
    "hardswish",
    "glu",
    # losses
    "l1_loss",
    "mse_loss",
    "smooth_l1_loss",
    "huber_loss",
    "soft_margin_loss",
    "kl_div",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "nll_loss",
    "cross_entropy",
    "poisson_nll_loss",
    "hinge_embedding_loss",
    "multilabel_soft_margin_loss",
    "multilabel_margin_loss",
    "multi_margin_loss",
    "cosine_embedding_loss",
    "margin_ranking_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "gaussian_nll_loss",
    "ctc_loss",
    # normalizations
    "batch_norm",
    "instance_norm",
    "layer_norm",
    "group_norm",
    "local_response_norm",
    "normalize",
    # dropout
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "alpha_dropout",
    "feature_alpha_dropout",
    # embeddings and distances
    "embedding",
    "embedding_bag",
    "one_hot",
    "cosine_similarity",
    "pairwise_distance",
    "pdist",
    # the __torch_function__ helpers PyTorch's functional module exposes
    "handle_torch_function",
    "has_torch_function",
    "has_torch_function_unary",
    "has_torch_function_variadic",
]


# ---- argument helpers ----


def _legacy_reduction(size_average, reduce, emit_warning=True):
    """The reduction that the deprecated size_average / reduce pair stands for."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        reduction = "mean"
    elif reduce:
        reduction = "sum"
    else:
        reduction = "none"
    if emit_warning:
        warnings.warn(
            "size_average and reduce args will be deprecated, please use reduction='{}' instead.".format(reduction),
            stacklevel=3,
        )
    return reduction


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return reduction


def _apply_reduction(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    return loss.sum()


def _broadcast_shape(a, b):
    a, b = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}".format(
                    x, y, i
                )
            )
        out.append(y if x == 1 else x)
    return torch.Size(out)


def _broadcast(a, b):
    """a and b expanded to their common shape (views)."""
    if a.shape == b.shape:
        return a, b
    shape = _broadcast_shape(a.shape, b.shape)
    return a.expand(*shape), b.expand(*shape)


def _warn_size_mismatch(input, target):
    if target.size() != input.size():
        warnings.warn(
            "Using a target size ({}) that is different to the input size ({}). This will likely lead to "
            "incorrect results due to broadcasting. Please ensure they have the same size.".format(
                target.size(), input.size()
            ),
            stacklevel=3,
        )


def _as_lengths(lengths):
    return lengths if isinstance(lengths, torch.Tensor) else torch.tensor(lengths, dtype=torch.int64)


# ---- linear maps ----


def linear(input, weight, bias=None):
    return _nn.linear(input, weight, bias)


def bilinear(input1, input2, weight, bias=None):
    return _nn.bilinear(input1, input2, weight, bias)


# ---- activations ----


def threshold(input, threshold, value, inplace=False):
    return _nn.threshold_(input, threshold, value) if inplace else _nn.threshold(input, threshold, value)


threshold_ = _nn.threshold_


def relu(input, inplace=False):
    return _nn.relu_(input) if inplace else _nn.relu(input)


relu_ = _nn.relu_


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _nn.hardtanh_(input, min_val, max_val) if inplace else _nn.hardtanh(input, min_val, max_val)


hardtanh_ = _nn.hardtanh_


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _nn.leaky_relu_(input, negative_slope) if inplace else _nn.leaky_relu(input, negative_slope)


leaky_relu_ = _nn.leaky_relu_


def prelu(input, weight):
    return _nn.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    return _nn.rrelu_(input, lower, upper, training) if inplace else _nn.rrelu(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _nn.rrelu_(input, lower, upper, training)


def elu(input, alpha=1.0, inplace=False):
    return _nn.elu_(input, alpha) if inplace else _nn.elu(input, alpha)


elu_ = _nn.elu_


def selu(input, inplace=False):
    return _nn.selu_(input) if inplace else _nn.selu(input)


selu_ = _nn.selu_


def celu(input, alpha=1.0, inplace=False):
    return _nn.celu_(input, alpha) if inplace else _nn.celu(input, alpha)


celu_ = _nn.celu_


def gelu(input, approximate="none"):
    return _nn.gelu(input, approximate)


def logsigmoid(input):
    return _nn.log_sigmoid(input)


def hardshrink(input, lambd=0.5):
    return _nn.hardshrink(input, lambd)


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def softplus(input, beta=1, threshold=20):
    return _nn.softplus(input, beta, threshold)


def _softmax_dim(name, ndim, stacklevel):
    warnings.warn(
        "Implicit dimension choice for {} has been deprecated. Change the call to include dim=X as an argument.".format(
            name
        ),
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return _nn.softmax(-input, dim, dtype)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return _nn.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _nn.log_softmax(input, dim, dtype)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + Gumbel noise) / tau) along dim: a differentiable sample of a
    categorical distribution; with hard, the one-hot sample with the soft sample's gradient."""
    gumbels = -torch.empty_like(logits).exponential_().log()
    soft = softmax((logits + gumbels) / tau, dim)
    if not hard:
        return soft
    index = soft.max(dim, keepdim=True)[1]
    one_hot = torch.zeros_like(logits).scatter_(dim, index, 1.0)
    return one_hot - soft.detach() + soft


def softshrink(input, lambd=0.5):
    return _nn.softshrink(input, lambd)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def hardsigmoid(input, inplace=False):
    return _nn.hardsigmoid_(input) if inplace else _nn.hardsigmoid(input)


def silu(input, inplace=False):
    return _nn.silu_(input) if inplace else _nn.silu(input)


def mish(input, inplace=False):
    return _nn.mish_(input) if inplace else _nn.mish(input)


def hardswish(input, inplace=False):
    return _nn.hardswish_(input) if inplace else _nn.hardswish(input)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if not -input.dim() <= dim < input.dim():
        raise IndexError(
            "Dimension out of range (expected to be in range of [{}, {}], but got {})".format(
                -input.dim(), input.dim() - 1, dim
            )
        )
    dim = dim % input.dim()
    n = input.size(dim)
    if n % 2:
        raise RuntimeError("Halving dimension must be even, but dimension {} is size {}".format(dim, n))
    return input.narrow(dim, 0, n // 2) * input.narrow(dim, n // 2, n // 2).sigmoid()


# ---- losses ----


@float32_under_autocast
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size_mismatch(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _nn.l1_loss(*_broadcast(input, target), reduction)


@float32_under_autocast
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size_mismatch(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _nn.mse_loss(*_broadcast(input, target), reduction)


@float32_under_autocast
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size_mismatch(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _nn.smooth_l1_loss(*_broadcast(input, target), reduction, beta)


@float32_under_autocast
def huber_loss(input, target, reduction="mean", delta=1.0):
    _warn_size_mismatch(input, target)
    reduction = _reduction(None, None, reduction)
    return _nn.huber_loss(*_broadcast(input, target), reduction, delta)


@float32_under_autocast
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _nn.soft_margin_loss(*_broadcast(input, target), reduction)


@float32_under_autocast
def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        kernel_reduction = _legacy_reduction(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                stacklevel=2,
            )
        kernel_reduction = "sum" if reduction == "batchmean" else _reduction(None, None, reduction)
    input, target = _broadcast(input, target)
    if log_target:
        loss = _apply_reduction(target.exp() * (target - input), kernel_reduction)
    else:
        loss = _nn.kl_div(input, target, kernel_reduction)
    if reduction == "batchmean" and input.dim() != 0:
        loss = loss / input.size(0)
    return loss


@float32_under_autocast
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            "Using a target size ({}) that is different to the input size ({}) is deprecated. Please "
            "ensure they have the same size.".format(target.size(), input.size())
        )
    if weight is not None:
        weight = weight.expand(*_broadcast_shape(target.size(), weight.size()))
    return _nn.binary_cross_entropy(input, target, weight, reduction)


@float32_under_autocast
def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None
):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError("Target size ({}) must be the same as input size ({})".format(target.size(), input.size()))
    log_sigmoid = logsigmoid(input)
    if pos_weight is not None:
        # pos_weight scales the positive part: log sigmoid(x) counts (pos_weight - 1) y + 1 times
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * input - log_sigmoid
    if weight is not None:
        loss = loss * weight
    return _apply_reduction(loss, reduction)


@float32_under_autocast
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _nn.nll_loss(input, target, weight, reduction, ignore_index)


def _class_view(weight, ndim, class_dim):
    """weight [C] shaped to broadcast along class_dim of an ndim-dimensional input."""
    shape = [1] * ndim
    shape[class_dim] = weight.numel()
    return weight.reshape(shape)


@float32_under_autocast
def cross_entropy(
    input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean", label_smoothing=0.0
):
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError("label_smoothing must be between 0.0 and 1.0. Got: {}".format(label_smoothing))
    if input.dim() == 0:
        raise RuntimeError("Expected 1 or more dimensions (got 0)")
    class_dim = 0 if input.dim() == 1 else 1
    classes = input.size(class_dim)
    logp = log_softmax(input, class_dim)
    if target.is_floating_point():
        return _cross_entropy_probabilities(logp, target, weight, reduction, label_smoothing, class_dim)
    loss = _nn.nll_loss(logp, target, weight, reduction, ignore_index)
    if label_smoothing == 0.0:
        return loss
    # The smoothing term: the (weighted) mean of -log p over the classes of each counted target.
    per_class = -logp if weight is None else -logp * _class_view(weight, logp.dim(), class_dim)
    smooth = per_class.sum(class_dim)
    counted = target != ignore_index
    smooth = torch.where(counted, smooth, torch.zeros((), dtype=smooth.dtype))
    if reduction == "mean":
        if weight is None:
            denominator = counted.sum()
        else:
            with torch.no_grad():  # the summed weights of the counted targets
                denominator = _nn.nll_loss(
                    -torch.ones(logp.shape, dtype=logp.dtype, device=logp.device), target, weight, "sum", ignore_index
                )
        smooth = smooth.sum() / denominator
    elif reduction == "sum":
        smooth = smooth.sum()
    return loss * (1 - label_smoothing) + smooth * (label_smoothing / classes)


def _cross_entropy_probabilities(logp, target, weight, reduction, label_smoothing, class_dim):
    if target.shape != logp.shape:
        raise RuntimeError(
            "Expected floating point target of cross_entropy to have the same size as input {}, got {}".format(
                list(logp.shape), list(target.shape)
            )
        )
    classes = logp.size(class_dim)
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(
            "cross_entropy: weight tensor should be defined either for all {} classes or no classes "
            "but got weight tensor of shape: {}".format(classes, list(weight.shape))
        )
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    product = logp * target
    if weight is not None:
        product = product * _class_view(weight, logp.dim(), class_dim)
    if reduction == "none":
        return -product.sum(class_dim)
    if reduction == "sum":
        return -product.sum()
    samples = logp.numel() // classes if classes else 0
    return -product.sum() / samples if samples else product.sum() * float("nan")


@float32_under_autocast
def poisson_nll_loss(
    input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"
):
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        # Stirling's approximation of log(target!), for targets above 1
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + torch.where(target > 1, stirling, torch.zeros((), dtype=stirling.dtype))
    return _apply_reduction(loss, reduction)


@float32_under_autocast
def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    zero = torch.zeros((), dtype=input.dtype)
    from_margin = torch.where(target != 1, (margin - input).clamp(min=0), zero)
    from_input = torch.where(target != -1, input, zero)
    return _apply_reduction(from_margin + from_input, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.size(class_dim)
    return _apply_reduction(loss, reduction)


@float32_under_autocast
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _nn.multilabel_margin_loss(input, target, reduction)


@float32_under_autocast
def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _nn.multi_margin_loss(input, target, p, margin, weight, reduction)


@float32_under_autocast
def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if target.dim() not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dim() == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(
            "1D target tensor expects 2D input tensors, but found inputs with sizes {} and {}.".format(
                list(input1.shape), list(input2.shape)
            )
        )
    if target.dim() == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(
            "0D target tensor expects 1D input tensors, but found inputs with sizes {} and {}.".format(
                list(input1.shape), list(input2.shape)
            )
        )
    dim = target.dim()
    eps = 1e-12
    cos = (input1 * input2).sum(dim) / (((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)).sqrt()
    zero = torch.zeros((), dtype=cos.dtype)
    loss = torch.where(target == 1, 1 - cos, zero) + torch.where(target == -1, (cos - margin).clamp(min=0), zero)
    return _apply_reduction(loss, reduction)


@float32_under_autocast
def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            "input1: {}, input2: {}, target: {} ".format(input1.size(), input2.size(), target.size())
        )
    return _apply_reduction((-target * (input1 - input2) + margin).clamp(min=0), reduction)


@float32_under_autocast
def triplet_margin_loss(
    anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"
):
    reduction = _reduction(size_average, reduce, reduction)
    if not anchor.dim() == positive.dim() == negative.dim():
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            "dimensions, but got: anchor {}D, positive {}D, and negative {}D inputs".format(
                anchor.dim(), positive.dim(), negative.dim()
            )
        )
    distance_positive = pairwise_distance(anchor, positive, p, eps)
    distance_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        distance_negative = torch.minimum(distance_negative, pairwise_distance(positive, negative, p, eps))
    return _apply_reduction((margin + distance_positive - distance_negative).clamp(min=0), reduction)


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction="mean"
):
    """triplet_margin_loss with any distance (pairwise_distance by default)."""
    if margin <= 0:
        raise ValueError(
            "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {} instead".format(margin)
        )
    reduction = _reduction(None, None, reduction)
    distance = pairwise_distance if distance_function is None else distance_function
    distance_positive = distance(anchor, positive)
    distance_negative = distance(anchor, negative)
    if swap:
        distance_negative = torch.minimum(distance_negative, distance(positive, negative))
    return _apply_reduction((margin + distance_positive - distance_negative).clamp(min=0), reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of target under normal distributions of mean input and
    variance var (clamped to at least eps, with the gradient of the unclamped variance)."""
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif not (input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var + (var.clamp(min=eps) - var).detach()
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _apply_reduction(loss, reduction)


@float32_under_autocast
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    reduction = _reduction(None, None, reduction)
    return _nn.ctc_loss(
        log_probs, targets, _as_lengths(input_lengths), _as_lengths(target_lengths), blank, reduction, zero_infinity
    )


# ---- normalizations ----


def _verify_batch_size(size):
    values = size[0]
    for s in size[2:]:
        values *= s
    if values == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))


def _verify_spatial_size(size):
    values = 1
    for s in size[2:]:
        values *= s
    if values == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size {}".format(size))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(input.size())
    return _nn.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


def _channel_view(t, ndim):
    """t [C] shaped to broadcast along dimension 1 of an ndim-dimensional input."""
    return t.reshape([1, t.numel()] + [1] * (ndim - 2))


def instance_norm(
    input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1, eps=1e-5
):
    if use_input_stats:
        _verify_spatial_size(input.size())
    if input.dim() < 2:
        raise RuntimeError(
            "instance_norm: expected input of at least 2 dimensions [N, C, ...], got {}".format(list(input.shape))
        )
    n, c = input.size(0), input.size(1)
    # Each (sample, channel) pair is a channel of a one-sample batch norm; the running
    # statistics move by the average over the samples.
    folded = input.reshape([1, n * c] + list(input.shape[2:]))
    mean = running_mean.repeat(n) if running_mean is not None else None
    var = running_var.repeat(n) if running_var is not None else None
    out = _nn.batch_norm(folded, None, None, mean, var, use_input_stats, momentum, eps).reshape(input.shape)
    if use_input_stats:
        with torch.no_grad():
            if running_mean is not None:
                running_mean.copy_(mean.reshape(n, c).mean(0))
            if running_var is not None:
                running_var.copy_(var.reshape(n, c).mean(0))
    if weight is not None:
        out = out * _channel_view(weight, input.dim())
    if bias is not None:
        out = out + _channel_view(bias, input.dim())
    return out


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if input.dim() < k or tuple(input.shape[input.dim() - k :]) != shape:
        raise RuntimeError(
            "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}".format(
                list(shape), ", ".join(str(s) for s in shape), list(input.shape)
            )
        )
    if weight is not None and tuple(weight.shape) != shape or bias is not None and tuple(bias.shape) != shape:
        # weight and bias broadcast against the normalized dimensions (PyTorch accepts that)
        out = _nn.layer_norm(input, list(shape), None, None, eps)
        if weight is not None:
            out = out * weight
        if bias is not None:
            out = out + bias
        return out
    return _nn.layer_norm(input, list(shape), weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received {}".format(input.dim()))
    n, c = input.size(0), input.size(1)
    if num_groups <= 0 or c % num_groups != 0:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of "
            "shape {} and num_groups={}".format(list(input.shape), num_groups)
        )
    _verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))
    grouped = input.reshape(n, num_groups, -1)
    mean = grouped.mean(2, keepdim=True)
    var = grouped.var(2, unbiased=False, keepdim=True)
    out = ((grouped - mean) * (var + eps).rsqrt()).reshape(input.shape)
    if weight is not None:
        out = out * _channel_view(weight, input.dim())
    if bias is not None:
        out = out + _channel_view(bias, input.dim())
    return out


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    if input.dim() < 3:
        raise ValueError("Expected 3D or higher dimensionality input (got {} dimensions)".format(input.dim()))
    if input.numel() == 0:
        return input
    # The mean of x^2 over a window of `size` channels (zeros beyond the edges), the window
    # of channel c running from c - size // 2 to c + (size - 1) // 2.
    square = input * input
    channels = input.size(1)
    window = torch.zeros(input.shape, dtype=input.dtype, device=input.device)
    for offset in range(-(size // 2), (size - 1) // 2 + 1):
        length = channels - abs(offset)
        if length <= 0:
            continue
        window.narrow(1, max(-offset, 0), length).add_(square.narrow(1, max(offset, 0), length))
    return input / (window * (alpha / size) + k) ** beta


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denominator = input.norm(p, dim, keepdim=True).clamp(min=eps).expand_as(input)
    if out is None:
        return input / denominator
    return torch.div(input, denominator, out=out)


# ---- dropout ----

_SELU_ALPHA_SCALED = 1.7580993408473766  # selu's scale * alpha: alpha dropout's value for a dropped unit is -this


def _check_probability(p):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))


def _dropout(input, p, training, inplace, feature=False, alpha=False):
    """Element-wise (or, with feature, channel-wise) dropout with the default generator."""
    _check_probability(p)
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = torch.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    shape = list(input.shape[:2]) + [1] * (input.dim() - 2) if feature else list(input.shape)
    # drawn from the CPU generator whatever the device (its stream is PyTorch 1.13's), then moved
    keep = torch.empty(shape, dtype=input.dtype).bernoulli_(1 - p).to(input.device)
    if not alpha:
        scale = keep.div_(1 - p)
        return input.mul_(scale) if inplace else input * scale
    # Alpha dropout sets dropped units to selu's negative saturation and rescales so that
    # mean and variance are kept: out = a (x keep + alpha' (keep - 1)) + a alpha' p.
    a = 1.0 / math.sqrt((_SELU_ALPHA_SCALED**2 * p + 1) * (1 - p))
    shift = (keep - 1).mul_(_SELU_ALPHA_SCALED * a).add_(_SELU_ALPHA_SCALED * a * p)
    scale = keep.mul_(a)
    return input.mul_(scale).add_(shift) if inplace else input * scale + shift


def dropout(input, p=0.5, training=True, inplace=False):
    return _dropout(input, p, training, inplace)


def _channel_dropout(input, p, training, inplace, batched_dims):
    """dropout1d / dropout3d: unbatched input gets a batch dimension for the duration."""
    _check_probability(p)
    batched = input.dim() == batched_dims
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _dropout(input, p, training, inplace, feature=True)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            "dropout1d: Expected 2D or 3D input, but received a {}D input. Note that dropout1d exists "
            "to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
            "and an optional batch dimension (i.e. 2D or 3D inputs).".format(input.dim())
        )
    return _channel_dropout(input, p, training, inplace, 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    dims = input.dim()
    if dims not in (3, 4):
        warnings.warn(
            "dropout2d: Received a {}-D input to dropout2d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).".format(dims),
            stacklevel=2,
        )
    if dims == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
            "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
            "will change in a future release to interpret the input as one without a batch dimension, i.e. "
            "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
            "dropout1d instead.",
            stacklevel=2,
        )
    return _dropout(input, p, training, inplace, feature=True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    dims = input.dim()
    if dims not in (4, 5):
        warnings.warn(
            "dropout3d: Received a {}-D input to dropout3d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).".format(dims),
            stacklevel=2,
        )
    return _channel_dropout(input, p, training, inplace, 5)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _dropout(input, p, training, inplace, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _dropout(input, p, training, inplace, feature=True, alpha=True)


# ---- embeddings and distances ----


def _padding_index(padding_idx, rows):
    if padding_idx is None:
        return -1
    if padding_idx > 0:
        assert padding_idx < rows, "Padding_idx must be within num_embeddings"
    elif padding_idx < 0:
        assert padding_idx >= -rows, "Padding_idx must be within num_embeddings"
        padding_idx = rows + padding_idx
    return padding_idx


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    padding_idx = _padding_index(padding_idx, weight.size(0))
    if max_norm is not None:
        with torch.no_grad():
            _nn.embedding_renorm_(weight, input, max_norm, norm_type)
    return _nn.embedding(weight, input, padding_idx, scale_grad_by_freq)


def embedding_bag(
    input,
    weight,
    offsets=None,
    max_norm=None,
    norm_type=2,
    scale_grad_by_freq=False,
    mode="mean",
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=None,
):
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn(
            "Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, input, "
            "...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
            stacklevel=2,
        )
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            "embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as "
            "the input ({})".format(per_sample_weights.shape, input.shape)
        )
    if weight.dim() != 2:
        raise ValueError("weight has to be a 2D Tensor, but got Tensor of dimension {}".format(weight.dim()))
    if input.dim() == 2 and offsets is not None:
        raise ValueError(
            "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
            "length sequences. However, found offsets of type {}".format(type(offsets).__name__)
        )
    if input.dim() == 1 and offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            "supported for mode='sum' (got mode='{}'). Please open a feature request on GitHub.".format(mode)
        )
    padding_idx = _padding_index(padding_idx, weight.size(0))
    if max_norm is not None:
        with torch.no_grad():
            _nn.embedding_renorm_(weight, input, max_norm, norm_type)
    return _nn.embedding_bag(
        weight, input, offsets, mode, per_sample_weights, include_last_offset, padding_idx, scale_grad_by_freq
    )


def one_hot(tensor, num_classes=-1):
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor.")
    if tensor.numel() == 0:
        if num_classes < 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if int(tensor.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = int(tensor.max()) + 1
        elif int(tensor.max()) >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == torch.arange(num_classes, device=tensor.device)).long()


pdist = torch.pdist


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    innermost = max(x1.dim(), x2.dim()) - 1
    return (x1 - x2 + eps).norm(p, innermost, keepdim=keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    x1, x2 = _broadcast(x1, x2)
    norms = x1.norm(2, dim).clamp(min=eps) * x2.norm(2, dim).clamp(min=eps)
    return (x1 * x2).sum(dim) / norms
