"""PyTorch 1.13's other names for functions this package already has (torch.arccos is
torch.acos, torch.abs_(x) is x.abs_(), torch.conv2d is nn.functional.conv2d ...), and what real
tensors answer to the questions PyTorch asks of complex, sparse, quantized or named ones.

Each name here is bound to the one implementation it stands for: nothing is computed twice.
"""

import collections

import torch
import torch.nn.functional as F
from torch._C import Tensor
from torch.functional import _check_tensor

# ---- one function, two names (NumPy's and PyTorch's) ----
_SYNONYMS = {
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arctan2": "atan2",
    "arccosh": "acosh",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "fix": "trunc",
    "concatenate": "cat",
}
_METHOD_SYNONYMS = {
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arctan2": "atan2",
    "arccosh": "acosh",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "fix": "trunc",
    "absolute_": "abs_",
    "negative_": "neg_",
    "greater_": "gt_",
    "greater_equal_": "ge_",
    "less_": "lt_",
    "less_equal_": "le_",
    "not_equal_": "ne_",
}
for _new, _old in _SYNONYMS.items():
    setattr(torch, _new, getattr(torch, _old))
for _new, _old in _METHOD_SYNONYMS.items():
    setattr(Tensor, _new, getattr(Tensor, _old))
    if not _new.endswith("_") and hasattr(Tensor, _old + "_"):
        setattr(Tensor, _new + "_", getattr(Tensor, _old + "_"))

# ---- torch.name_(x, ...) is x.name_(...) ----
_IN_PLACE = (
    "abs_ acos_ arccos_ asin_ arcsin_ atan_ arctan_ acosh_ arccosh_ asinh_ arcsinh_ atanh_ arctanh_ ceil_ clamp_ clip_ "
    "clamp_min_ clamp_max_ cos_ cosh_ deg2rad_ rad2deg_ detach_ erf_ erfc_ exp_ exp2_ expm1_ fill_ fix_ floor_ frac_ "
    "gcd_ lcm_ ldexp_ log_ log10_ log1p_ log2_ logit_ nan_to_num_ neg_ negative_ reciprocal_ round_ rsqrt_ sigmoid_ "
    "sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ zero_ i0_ resize_as_"
).split()


def _in_place_function(name):
    def fn(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = name
    fn.__doc__ = "torch.%s(input, ...) is input.%s(...)." % (name, name)
    return fn


for _name in _IN_PLACE:
    setattr(torch, _name, _in_place_function(_name))


def detach(input):
    """input.detach(): the same values, cut from the graph."""
    return input.detach()


def fill(input, value):
    """A copy of input with every element value."""
    return input.clone().fill_(value)


torch.detach = detach
torch.fill = fill


# ---- conjugate and negative bits: torch.conj makes a new tensor here, so none is ever set ----
def _self(input):
    _check_tensor("resolve_conj", "input", 1, input)
    return input


for _name in ("resolve_conj", "resolve_neg"):
    setattr(torch, _name, _self)
    setattr(Tensor, _name, _self)
for _name in ("is_conj", "is_neg"):
    setattr(Tensor, _name, lambda self: False)
    setattr(torch, _name, getattr(Tensor, _name))


# ---- questions about a tensor's kind ----
def is_nonzero(input):
    """Whether the single element of input is not zero."""
    _check_tensor("is_nonzero", "input", 1, input)
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item() != 0)


def is_same_size(input, other):
    return tuple(input.shape) == tuple(other.shape)


def is_signed(input):
    """Whether input's type holds negative numbers."""
    return input.dtype not in (torch.uint8, torch.bool)


def positive(input):
    """input itself (+x), refused for bool tensors as in PyTorch."""
    _check_tensor("positive", "input", 1, input)
    if input.dtype == torch.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def rsub(input, other, *, alpha=1):
    """other - alpha * input."""
    return torch.sub(other, input, alpha=alpha) if isinstance(other, Tensor) else (-alpha) * input + other


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """A 0-dim tensor holding s, of the default float type unless dtype is given."""
    return torch.tensor(s, dtype=dtype or torch.get_default_dtype(), requires_grad=requires_grad)


for _fn in (is_nonzero, is_same_size, is_signed, positive, rsub, scalar_tensor):
    setattr(torch, _fn.__name__, _fn)
    if _fn is not scalar_tensor and _fn is not rsub:
        setattr(Tensor, _fn.__name__, _fn)
# No tensor here is an inference tensor: inference_mode disables recording, as no_grad does.
Tensor.is_inference = lambda self: False
torch.is_inference = Tensor.is_inference

# A CPU tensor of this package is dense, strided, not quantized, not nested, on no accelerator.
for _name in (
    "is_sparse is_sparse_csr is_quantized is_meta is_mkldnn is_nested is_vulkan is_xpu is_ipu is_mps is_ort"
).split():
    setattr(Tensor, _name, property(lambda self: False))
Tensor.is_cpu = property(lambda self: True)


class layout:
    """How a tensor's elements are laid out: torch.strided is the only layout here."""

    __module__ = "torch"

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return self.name


torch.layout = layout
torch.strided = layout("strided")
torch.sparse_coo = layout("sparse_coo")
Tensor.layout = property(lambda self: torch.strided)


# ---- matrix views: the transpose of the last two dims, and the conjugate transpose ----
def _matrix_t(self):
    if self.dim() < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return self.transpose(-2, -1)


def _h(self):
    if self.dim() > 2:
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor." % self.dim())
    return (self.t() if self.dim() == 2 else self).conj()


def adjoint(input):
    """The conjugate transpose of the last two dims (for real numbers, the transpose)."""
    return _matrix_t(input).conj()


Tensor.mT = property(_matrix_t)
Tensor.mH = property(adjoint)
Tensor.H = property(_h)
Tensor.adjoint = adjoint
torch.adjoint = adjoint


# ---- torch.conv2d and the like: the nn.functional implementations under their torch names ----
# (the ones whose arguments come in the same order in both places)
for _name in (
    "conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d pixel_shuffle pixel_unshuffle "
    "cosine_similarity pairwise_distance bilinear binary_cross_entropy_with_logits cosine_embedding_loss "
    "hinge_embedding_loss margin_ranking_loss triplet_margin_loss kl_div poisson_nll_loss ctc_loss "
    "avg_pool1d max_pool1d max_pool2d max_pool3d adaptive_avg_pool1d adaptive_max_pool1d "
    "max_pool1d_with_indices prelu rrelu rrelu_ embedding_bag channel_shuffle native_channel_shuffle"
).split():
    if hasattr(F, _name) and not hasattr(torch, _name):
        setattr(torch, _name, getattr(F, _name))


def dropout(input, p, train):
    return F.dropout(input, p, train)


def dropout_(input, p, train):
    return F.dropout(input, p, train, inplace=True)


def alpha_dropout(input, p, train):
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(input, p, train):
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_dropout(input, p, train):
    """Dropout of whole channels (dim 1) of a batch."""
    return F.dropout2d(input, p, train) if input.dim() != 5 else F.dropout3d(input, p, train)


def feature_alpha_dropout(input, p, train):
    return F.feature_alpha_dropout(input, p, train)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """nn.functional.embedding with the weight first (and no padding index when it is -1)."""
    return F.embedding(
        indices, weight, padding_idx=None if padding_idx == -1 else padding_idx, scale_grad_by_freq=scale_grad_by_freq
    )


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """nn.functional.batch_norm with the affine parameters before the running statistics."""
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


for _fn in (
    dropout,
    dropout_,
    alpha_dropout,
    alpha_dropout_,
    feature_dropout,
    feature_alpha_dropout,
    embedding,
    layer_norm,
    group_norm,
    batch_norm,
    instance_norm,
):
    setattr(torch, _fn.__name__, _fn)


# ---- torch's older names for torch.linalg's functions ----
_triangular_solve = collections.namedtuple("triangular_solve", ["solution", "cloned_coefficient"])
_triangular_solve.__module__ = "torch.return_types"
setattr(torch.return_types, "triangular_solve", _triangular_solve)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """(X, A.clone()) with op(A) X = b, op(A) being A or its transpose: linalg.solve_triangular
    with the arguments in torch.triangular_solve's order."""
    T = A.transpose(-2, -1) if transpose else A
    X = torch.linalg.solve_triangular(T, b, upper=upper != transpose, unitriangular=unitriangular)
    return _triangular_solve(X, A.clone())


def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """linalg.lu_solve with the right-hand side first."""
    return torch.linalg.lu_solve(LU_data, LU_pivots, b)


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    return torch.linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)


def frobenius_norm(input, dim=None, keepdim=False, *, out=None):
    return torch.linalg.vector_norm(input, 2, dim, keepdim)


for _fn in (triangular_solve, lu_solve, nuclear_norm, frobenius_norm):
    setattr(torch, _fn.__name__, _fn)
for _fn in (triangular_solve, lu_solve):
    setattr(Tensor, _fn.__name__, _fn)
torch.matrix_exp = torch.linalg.matrix_exp
Tensor.matrix_exp = torch.linalg.matrix_exp


# ---- splits without views' safety checks, and the *_copy functions (the view ops' results copied) ----
def split_with_sizes(input, split_sizes, dim=0):
    return torch.split(input, list(split_sizes), dim)


torch.split_with_sizes = split_with_sizes
Tensor.split_with_sizes = split_with_sizes
for _new, _old in (
    ("unsafe_split", "split"),
    ("unsafe_chunk", "chunk"),
    ("unsafe_split_with_sizes", "split_with_sizes"),
):
    setattr(torch, _new, getattr(torch, _old))
    setattr(Tensor, _new, getattr(Tensor, _old))


def _copy_of(name):
    def fn(input, *args, **kwargs):
        # looked up when called: view_as_real and view_as_complex come with torch._complex, later
        view = getattr(torch, name) if hasattr(torch, name) else getattr(Tensor, name)
        result = view(input, *args, **kwargs)
        return tuple(r.clone() for r in result) if isinstance(result, (tuple, list)) else result.clone()

    fn.__name__ = name + "_copy"
    fn.__doc__ = "A copy of torch.%s's result (a view), sharing no memory with input." % name
    return fn


for _name in (
    "as_strided detach diagonal expand permute select split split_with_sizes squeeze t transpose unbind unfold "
    "unsqueeze view view_as_real view_as_complex"
).split():
    setattr(torch, _name + "_copy", _copy_of(_name))


def alias_copy(input):
    return input.clone()


def slice_copy(input, dim=0, start=None, end=None, step=1):
    """A copy of input[..., start:end:step, ...] (in dim dim)."""
    return input[(slice(None),) * (dim % input.dim()) + (slice(start, end, step),)].clone()


torch.alias_copy = alias_copy
torch.slice_copy = slice_copy
