"""PyTorch 1.13's tensor functions that are compositions of the native ones: dtype rules and
information, tests of values, element-wise maths, nan-aware reductions and shape helpers.

Each function checks its arguments first (so a failing call changes nothing the caller owns)
and then composes torch ops, so autograd runs through it. Where a plain composition would
give another gradient than PyTorch's at an edge (a tie, a zero, an infinity), the function is
a _Formula: the value is composed without recording and the backward is PyTorch's own
derivative formula, again written in torch ops.
"""

import builtins
import collections
import math
import numbers
import operator
import warnings

import torch
from torch._C import Tensor
from torch.amp.autocast_mode import float32_under_autocast

__all__ = [
    # constants and dtype rules
    "inf",
    "nan",
    "pi",
    "e",
    "finfo",
    "iinfo",
    "is_complex",
    "result_type",
    "promote_types",
    "can_cast",
    # tests of values
    "isnan",
    "isinf",
    "isfinite",
    "isposinf",
    "isneginf",
    "signbit",
    "nan_to_num",
    # element-wise
    "square",
    "sgn",
    "deg2rad",
    "rad2deg",
    "exp2",
    "logit",
    "xlogy",
    "hypot",
    "logaddexp",
    "logaddexp2",
    "copysign",
    "heaviside",
    "float_power",
    "fmax",
    "fmin",
    "clamp_min",
    "clamp_max",
    # reductions
    "nansum",
    "nanmean",
    "std_mean",
    "var_mean",
    "aminmax",
    "msort",
    # shapes and memory formats
    "memory_format",
    "contiguous_format",
    "preserve_format",
    "channels_last",
    "channels_last_3d",
    "clone",
    "ravel",
    "broadcast_tensors",
    "broadcast_to",
    "broadcast_shapes",
    "cartesian_prod",
    "combinations",
    "block_diag",
    "tensordot",
    "inner",
    "take_along_dim",
    "diff",
    "vander",
    "trapezoid",
    "trapz",
    # searching, counting, order statistics, distances, contractions
    "cummax",
    "cummin",
    "searchsorted",
    "bucketize",
    "bincount",
    "quantile",
    "nanquantile",
    "cdist",
    "einsum",
    "isin",
    "pdist",
    # inverse hyperbolic functions, integer and exponent arithmetic
    "acosh",
    "asinh",
    "atanh",
    "gcd",
    "lcm",
    "ldexp",
    "frexp",
    # scans, statistics of variables, nan-aware order statistics
    "logcumsumexp",
    "cumulative_trapezoid",
    "cov",
    "corrcoef",
    "nanmedian",
    # splitting and run lengths
    "tensor_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "unique_consecutive",
    # creation: windows, arrays and buffers
    "hann_window",
    "hamming_window",
    "blackman_window",
    "bartlett_window",
    "kaiser_window",
    "asarray",
    "frombuffer",
    # histograms, differences and floating point neighbours
    "histogram",
    "gradient",
    "nextafter",
    # scatters into copies
    "select_scatter",
    "slice_scatter",
    "diagonal_scatter",
    "as_strided_scatter",
    "histogramdd",
]

inf = math.inf
nan = math.nan
pi = math.pi
e = math.e

# ---------------------------------------------------------------------------------------------
# dtype rules
# ---------------------------------------------------------------------------------------------

# The names PyTorch's messages give the element types ("result type Float can't be cast ...").
_TYPE_NAME = {
    torch.bool: "Bool",
    torch.uint8: "Byte",
    torch.int8: "Char",
    torch.int16: "Short",
    torch.int32: "Int",
    torch.int64: "Long",
    torch.float16: "Half",
    torch.float32: "Float",
    torch.float64: "Double",
    torch.bfloat16: "BFloat16",
}
_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_INTS = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
_BITS = {
    torch.bool: 8,
    torch.uint8: 8,
    torch.int8: 8,
    torch.int16: 16,
    torch.int32: 32,
    torch.int64: 64,
    torch.float16: 16,
    torch.bfloat16: 16,
    torch.float32: 32,
    torch.float64: 64,
}


def _is_float(dt):
    return dt in _FLOATS


def _complex_of(dt):
    """The complex type whose parts are dt (complex128 for float64, complex64 otherwise)."""
    return torch.complex128 if dt in (torch.float64, torch.complex128) else torch.complex64


def _real_of(dt):
    return {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dt, dt)


def _type_name(value):
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, torch.dtype):
        return "torch.dtype"
    return type(value).__name__


def _check_dtype_arg(fname, argname, pos, value):
    if not isinstance(value, torch.dtype):
        raise TypeError(
            "%s(): argument '%s' (position %d) must be torch.dtype, not %s" % (fname, argname, pos, _type_name(value))
        )


def _check_tensor(fname, argname, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(
            "%s(): argument '%s' (position %d) must be Tensor, not %s" % (fname, argname, pos, _type_name(value))
        )


def _is_number(value):
    return isinstance(value, numbers.Number) and not isinstance(value, complex)


def _promote(a, b):
    """promote_types on two dtypes; None stands for 'no operand of this kind'."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    if a == torch.bool:
        return b
    if b == torch.bool:
        return a
    if a.is_complex or b.is_complex:
        return _complex_of(_promote(_real_of(a), _real_of(b)))
    if _is_float(a) or _is_float(b):
        if _is_float(a) and _is_float(b):
            if {a, b} == {torch.float16, torch.bfloat16}:
                return torch.float32  # the one that holds both
            return a if _BITS[a] >= _BITS[b] else b
        return a if _is_float(a) else b
    # two integer types: uint8 holds no negative values, so with a signed type it needs the
    # next wider signed type (int8 with uint8 is int16)
    if torch.uint8 in (a, b):
        other = b if a == torch.uint8 else a
        return torch.int16 if other == torch.int8 else other
    return a if _BITS[a] >= _BITS[b] else b


def promote_types(type1, type2):
    """The smallest dtype to which both type1 and type2 can be converted without losing their kind."""
    _check_dtype_arg("promote_types", "type1", 1, type1)
    _check_dtype_arg("promote_types", "type2", 2, type2)
    return _promote(type1, type2)


def can_cast(from_, to, /):
    """Whether PyTorch's casting rules allow an operation's result of type from_ to be written
    into a tensor of type to: never floating point into integers, nor numbers into bool."""
    _check_dtype_arg("can_cast", "from", 1, from_)
    _check_dtype_arg("can_cast", "to", 2, to)
    if from_.is_complex and not to.is_complex:
        return False
    if _is_float(from_) and not (_is_float(to) or to.is_complex):
        return False
    return not (from_ != torch.bool and to == torch.bool)


def _scalar_dtype(value):
    if isinstance(value, builtins.bool):
        return torch.bool
    if isinstance(value, numbers.Integral):
        return torch.int64
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        return _complex_of(torch.get_default_dtype())
    return torch.get_default_dtype()


def _combine_categories(higher, lower):
    # A lower-priority operand decides the type only when it is of a higher kind
    # (a float scalar with an integer tensor) or when the higher one is bool.
    if higher is None:
        return lower
    if higher.is_complex:
        return higher
    if lower is not None and lower.is_complex:  # a complex operand of lower priority: its kind, higher's precision
        return _complex_of(higher) if _is_float(higher) else lower
    if _is_float(higher):
        return higher
    if higher == torch.bool or (lower is not None and _is_float(lower)):
        return _promote(higher, lower)
    return higher


def _result_type(*operands):
    """PyTorch's type promotion: tensors with dimensions take priority over zero-dimensional
    tensors, which take priority over Python numbers, except that an operand of a higher kind
    (bool < integer < floating point) always lifts the result to its kind."""
    dim = zero = wrapped = None
    for op in operands:
        if isinstance(op, Tensor):
            if op.dim() > 0:
                dim = _promote(dim, op.dtype)
            else:
                zero = _promote(zero, op.dtype)
        else:
            wrapped = _promote(wrapped, _scalar_dtype(op))
    return _combine_categories(dim, _combine_categories(zero, wrapped))


def result_type(tensor1, tensor2, /):
    """The dtype of an arithmetic operation on tensor1 and tensor2 (tensors or numbers)."""
    for v in (tensor1, tensor2):
        if not (isinstance(v, Tensor) or _is_number(v)):
            raise TypeError(
                "result_type() received an invalid combination of arguments - got (%s, %s), but expected one of:\n"
                " * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n"
                " * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)"
                % (_type_name(tensor1), _type_name(tensor2))
            )
    return _result_type(tensor1, tensor2)


def is_complex(input):
    """Whether input holds complex numbers (complex64 or complex128)."""
    _check_tensor("is_complex", "input", 1, input)
    return input.dtype.is_complex


def _format_g(value):
    return "%g" % value


class finfo:
    """Machine limits of a floating point dtype (the default dtype when none is given)."""

    # bits, eps, max, tiny (the smallest normal number), resolution
    _LIMITS = {
        torch.float16: (16, 2.0**-10, 65504.0, 2.0**-14, 0.001),
        torch.bfloat16: (16, 2.0**-7, (2.0 - 2.0**-7) * 2.0**127, 2.0**-126, 0.01),
        torch.float32: (32, 2.0**-23, (2.0 - 2.0**-23) * 2.0**127, 2.0**-126, 1e-06),
        torch.float64: (64, 2.0**-52, (2.0 - 2.0**-52) * 2.0**1023, 2.0**-1022, 1e-15),
    }

    def __init__(self, type=None):
        if type is None:
            type = torch.get_default_dtype()
        _check_dtype_arg("finfo", "type", 1, type)
        type = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(type, type)  # its parts'
        if type not in self._LIMITS:
            raise TypeError(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'"
            )
        self.bits, self.eps, self.max, self.tiny, self.resolution = self._LIMITS[type]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = str(type).replace("torch.", "")

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    __hash__ = None

    def __repr__(self):
        return "finfo(resolution=%s, min=%s, max=%s, eps=%s, smallest_normal=%s, tiny=%s, dtype=%s)" % (
            _format_g(self.resolution),
            _format_g(self.min),
            _format_g(self.max),
            _format_g(self.eps),
            _format_g(self.smallest_normal),
            _format_g(self.tiny),
            self.dtype,
        )

    __str__ = __repr__


class iinfo:
    """Machine limits of an integer dtype."""

    def __init__(self, type):
        _check_dtype_arg("iinfo", "type", 1, type)
        if type == torch.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type not in _INTS:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.bits = _BITS[type]
        if type == torch.uint8:
            self.min, self.max = 0, 255
        else:
            self.min, self.max = -(2 ** (self.bits - 1)), 2 ** (self.bits - 1) - 1
        self.dtype = str(type).replace("torch.", "")

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    __hash__ = None

    def __repr__(self):
        return "iinfo(min=%s, max=%s, dtype=%s)" % (_format_g(self.min), _format_g(self.max), self.dtype)

    __str__ = __repr__


# ---------------------------------------------------------------------------------------------
# helpers: out=, in-place variants, formulas with PyTorch's derivative
# ---------------------------------------------------------------------------------------------


def _needs_grad(*values):
    return torch.is_grad_enabled() and any(isinstance(v, Tensor) and v.requires_grad for v in values)


def _check_out(fname, out, dtype, inputs):
    """Checks out= before anything is written: a tensor, into which the result's dtype may be
    cast, and no input that records gradients (out= is not differentiable)."""
    if not isinstance(out, Tensor):
        raise TypeError("%s(): argument 'out' must be Tensor, not %s" % (fname, _type_name(out)))
    if _needs_grad(out, *inputs):
        raise RuntimeError(
            "%s(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad." % fname
        )
    if not can_cast(dtype, out.dtype):
        raise RuntimeError(
            "result type %s can't be cast to the desired output type %s" % (_TYPE_NAME[dtype], _TYPE_NAME[out.dtype])
        )


def _write_out(out, result):
    with torch.no_grad():
        if tuple(out.shape) != tuple(result.shape):
            out.resize_(result.shape)
        out.copy_(result)
    return out


def _finish(fname, out, compute, dtype, inputs):
    """compute() (as dtype: float16 results are computed in float32) or, with out=, compute()
    written into out after out's checks."""

    def result():
        r = compute()
        return r if r.dtype == dtype else r.to(dtype)

    if out is None:
        return result()
    _check_out(fname, out, dtype, inputs)
    with torch.no_grad():
        return _write_out(out, result())


def _inplace(fname, self, result):
    """self.<fname>_(...): the result written back into self, which must be able to hold its type."""
    if not can_cast(result.dtype, self.dtype):
        raise RuntimeError(
            "result type %s can't be cast to the desired output type %s"
            % (_TYPE_NAME[result.dtype], _TYPE_NAME[self.dtype])
        )
    if tuple(result.shape) != tuple(self.shape):
        raise RuntimeError(
            "output with shape %s doesn't match the broadcast shape %s" % (list(self.shape), list(result.shape))
        )
    return self.copy_(result)


class _Formula(torch.autograd.Function):
    """A value computed without recording and a backward written in torch ops.

    value(*inputs) gives the result; grads(grad, result, *inputs) gives one gradient per input
    (inputs already broadcast to the result's shape and converted to its dtype)."""

    @staticmethod
    def forward(ctx, value, grads, *inputs):
        result = value(*inputs)
        ctx.grads = grads
        ctx.save_for_backward(result, *inputs)
        return result

    @staticmethod
    def backward(ctx, grad):
        result, *inputs = ctx.saved_tensors
        return (None, None) + tuple(ctx.grads(grad, result, *inputs))


def _formula(value, grads, *inputs):
    if _needs_grad(*inputs):
        return _Formula.apply(value, grads, *inputs)
    return value(*inputs)


def _work_dtype(dtype):
    # no 16-bit floating arithmetic on the CPU; PyTorch too computes float16 and bfloat16 in
    # float32 and rounds the result
    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


def _upcast(x):
    return x.to(torch.float32) if x.dtype in (torch.float16, torch.bfloat16) else x


def _binary(fname, input, other, input_may_be_number=False, other_may_be_number=True, floating=False):
    """input and other as tensors of their common dtype, broadcast to one shape.

    floating: integer and bool operands compute in the default floating point dtype, as
    PyTorch's floating point functions (xlogy, copysign, ...) do."""
    if not (isinstance(input, Tensor) or (input_may_be_number and _is_number(input) and isinstance(other, Tensor))):
        _check_tensor(fname, "input", 1, input)
    if not (isinstance(other, Tensor) or (other_may_be_number and _is_number(other))):
        _check_tensor(fname, "other", 2, other)
    dtype = _result_type(input, other)
    if floating and not _is_float(dtype):
        dtype = torch.get_default_dtype()
    work = _work_dtype(dtype)
    device = input.device if isinstance(input, Tensor) else other.device  # a number joins the tensor
    a = input.to(work) if isinstance(input, Tensor) else torch.tensor(input, dtype=work, device=device)
    b = other.to(work) if isinstance(other, Tensor) else torch.tensor(other, dtype=work, device=device)
    shape = broadcast_shapes(a.shape, b.shape)
    return a.expand(shape), b.expand(shape), dtype


def _floating_only(fname, dtype):
    # as PyTorch 1.13's CPU kernels, which have no float16 version either
    if not _is_float(dtype) or dtype == torch.float16:
        raise RuntimeError('"%s_cpu" not implemented for \'%s\'' % (fname, _TYPE_NAME[dtype]))


# ---------------------------------------------------------------------------------------------
# tests of values
# ---------------------------------------------------------------------------------------------


def _comparable(x):
    # TH has no comparison kernels for 16-bit floats: float32 holds every one of their values exactly
    return x.float() if x.dtype in (torch.float16, torch.bfloat16) else x


def isnan(input):
    """True where input is NaN."""
    _check_tensor("isnan", "input", 1, input)
    x = _comparable(input)
    return x != x


def isinf(input):
    """True where input is +inf or -inf."""
    _check_tensor("isinf", "input", 1, input)
    if not input.is_floating_point():
        return input != input
    return _comparable(input).abs() == inf


def isfinite(input):
    """True where input is neither NaN nor infinite."""
    _check_tensor("isfinite", "input", 1, input)
    if not input.is_floating_point():
        return input == input
    return _comparable(input).abs() < inf


def isposinf(input, *, out=None):
    """True where input is +inf."""
    _check_tensor("isposinf", "input", 1, input)
    return _finish(
        "isposinf",
        out,
        lambda: _comparable(input) == inf if input.is_floating_point() else input != input,
        torch.bool,
        (),
    )


def isneginf(input, *, out=None):
    """True where input is -inf."""
    _check_tensor("isneginf", "input", 1, input)
    return _finish(
        "isneginf",
        out,
        lambda: _comparable(input) == -inf if input.is_floating_point() else input != input,
        torch.bool,
        (),
    )


# The integer type of the same width as each floating point type: the sign is the top bit.
_SAME_WIDTH_INT = {
    torch.float16: torch.int16,
    torch.bfloat16: torch.int16,
    torch.float32: torch.int32,
    torch.float64: torch.int64,
}


def signbit(input, *, out=None):
    """True where input's sign bit is set: negative numbers, -0.0 and NaNs with the sign set."""
    _check_tensor("signbit", "input", 1, input)

    def compute():
        if input.is_floating_point():
            return input.detach().contiguous().view(_SAME_WIDTH_INT[input.dtype]) < 0
        if input.dtype in (torch.bool, torch.uint8):
            return input != input
        return input < 0

    return _finish("signbit", out, compute, torch.bool, ())


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """input with NaN, +inf and -inf replaced by nan, posinf and neginf (by default the
    largest and the lowest finite value of input's dtype). The gradient passes where input
    is finite."""
    _check_tensor("nan_to_num", "input", 1, input)
    for name, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if value is not None and not _is_number(value):
            raise TypeError("nan_to_num(): argument '%s' must be float, not %s" % (name, _type_name(value)))

    def compute():
        if not input.is_floating_point():
            return input.clone()
        limits = finfo(input.dtype)
        hi = limits.max if posinf is None else posinf
        lo = limits.min if neginf is None else neginf
        # the replacements as tensors of input's dtype: a float64 limit must not pass through float32
        x = _upcast(input)
        hi, lo, fill = (torch.tensor(v, dtype=x.dtype, device=x.device) for v in (hi, lo, nan))
        result = torch.where(x == inf, hi, x)
        result = torch.where(x == -inf, lo, result)
        return torch.where(x != x, fill, result)

    return _finish("nan_to_num", out, compute, input.dtype, (input,))


# ---------------------------------------------------------------------------------------------
# element-wise
# ---------------------------------------------------------------------------------------------


def square(input, *, out=None):
    """input ** 2 (bool squares to int64, as in PyTorch)."""
    _check_tensor("square", "input", 1, input)
    dtype = torch.int64 if input.dtype == torch.bool else input.dtype
    return _finish("square", out, lambda: torch.pow(_upcast(input), 2), dtype, (input,))


def sgn(input, *, out=None):
    """The sign of input: z / |z| for complex numbers (0 for 0), torch.sign for real ones."""
    _check_tensor("sgn", "input", 1, input)

    def compute():
        if input.is_complex():
            magnitude = input.abs()
            unit = input / torch.where(magnitude == 0, torch.ones_like(magnitude), magnitude)
            return torch.where(magnitude == 0, torch.zeros_like(input), unit)
        return torch.sign(_upcast(input))

    return _finish("sgn", out, compute, input.dtype, (input,))


def _as_floating(input):
    return input if input.is_floating_point() else input.to(torch.get_default_dtype())


def deg2rad(input, *, out=None):
    """input converted from degrees to radians."""
    _check_tensor("deg2rad", "input", 1, input)
    x = _as_floating(input)
    return _finish("deg2rad", out, lambda: _upcast(x) * (math.pi / 180.0), x.dtype, (input,))


def exp2(input, *, out=None):
    """2 ** input (integer inputs give the default float type)."""
    _check_tensor("exp2", "input", 1, input)
    x = _as_floating(input)
    return _finish("exp2", out, lambda: torch.pow(2.0, _upcast(x)), x.dtype, (input,))


def rad2deg(input, *, out=None):
    """input converted from radians to degrees."""
    _check_tensor("rad2deg", "input", 1, input)
    x = _as_floating(input)
    return _finish("rad2deg", out, lambda: _upcast(x) * (180.0 / math.pi), x.dtype, (input,))


def _logit_grads(eps):
    def grads(grad, result, x):
        # PyTorch's logit_backward (its vectorised form, which most elements take): grad / (x (1 - x)),
        # NaN outside [0, 1] without eps, 0 outside [eps, 1 - eps] with it
        inside = grad / (x * (1 - x))
        if eps is None:
            return (torch.where((x < 0) | (x > 1), nan, inside),)
        return (torch.where((x < eps) | (x > 1 - eps), 0.0, inside),)

    return grads


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), with p = input clamped to [eps, 1 - eps] when eps is given."""
    _check_tensor("logit", "input", 1, input)
    if eps is not None and not _is_number(eps):
        raise TypeError("logit(): argument 'eps' (position 2) must be float, not %s" % _type_name(eps))
    x = _as_floating(input)
    if x.dtype == torch.float16:
        raise RuntimeError('"logit_cpu" not implemented for \'Half\'')

    def value(x):
        z = x if eps is None else torch.clamp(x, eps, 1 - eps)
        return torch.log(z / (1 - z))

    return _finish("logit", out, lambda: _formula(value, _logit_grads(eps), x), x.dtype, (input,))


def _xlogy_value(x, y):
    return torch.where((x == 0) & (y == y), 0.0, x * torch.log(y))


def xlogy(input, other, *, out=None):
    """input * log(other), 0 where input is 0 (and other is not NaN)."""
    x, y, dtype = _binary("xlogy", input, other, input_may_be_number=True, floating=True)

    def grads(g, r, x, y):
        # PyTorch's: xlogy(grad, other), but 0 where input is 0 and other is not positive
        return (torch.where((x == 0) & (y <= 0), 0.0, _xlogy_value(g, y)), g * x / y)

    return _finish("xlogy", out, lambda: _formula(_xlogy_value, grads, x, y), dtype, (input, other))


def _hypot_value(x, y):
    ax, ay = x.abs(), y.abs()
    big, small = torch.maximum(ax, ay), torch.minimum(ax, ay)
    # scaled by the larger magnitude, so that squares of large numbers do not overflow
    ratio = torch.where(big == 0, 0.0, small / torch.where(big == 0, 1.0, big))
    result = big * torch.sqrt(1 + ratio * ratio)
    return torch.where((ax == inf) | (ay == inf), inf, result)


def hypot(input, other, *, out=None):
    """sqrt(input ** 2 + other ** 2), without overflow for large values."""
    x, y, dtype = _binary("hypot", input, other, other_may_be_number=False)
    _floating_only("hypot", dtype)
    grads = lambda g, r, x, y: (g * x / r, g * y / r)  # noqa: E731
    return _finish("hypot", out, lambda: _formula(_hypot_value, grads, x, y), dtype, (input, other))


def _logaddexp(fname, input, other, out, base2):
    x, y, dtype = _binary(fname, input, other, other_may_be_number=False)
    _floating_only(fname, dtype)
    scale = math.log(2.0) if base2 else 1.0

    def value(x, y):
        big = torch.maximum(x, y)
        gap = -(x - y).abs()
        tail = torch.log1p(torch.pow(2.0, gap)) / scale if base2 else torch.log1p(torch.exp(gap))
        # equal infinities: the formula would give inf - inf
        return torch.where((big.abs() == inf) & (x == y), x, big + tail)

    def grads(g, r, x, y):
        if base2:
            return (g / (1 + torch.pow(2.0, y - x)), g / (1 + torch.pow(2.0, x - y)))
        return (g / (1 + torch.exp(y - x)), g / (1 + torch.exp(x - y)))

    return _finish(fname, out, lambda: _formula(value, grads, x, y), dtype, (input, other))


def logaddexp(input, other, *, out=None):
    """log(exp(input) + exp(other)), computed without overflow."""
    return _logaddexp("logaddexp", input, other, out, base2=False)


def logaddexp2(input, other, *, out=None):
    """log2(2 ** input + 2 ** other), computed without overflow."""
    return _logaddexp("logaddexp2", input, other, out, base2=True)


def copysign(input, other, *, out=None):
    """The magnitude of input with the sign (bit) of other."""
    x, y, dtype = _binary("copysign", input, other, floating=True)

    def value(x, y):
        return torch.where(signbit(y), -x.abs(), x.abs())

    def grads(g, r, x, y):
        # PyTorch: grad * result / input, 0 where input is 0; nothing flows to other
        return (torch.where(x == 0, 0.0, g * r / x), torch.zeros_like(y))

    return _finish("copysign", out, lambda: _formula(value, grads, x, y), dtype, (input, other))


def _no_derivative(name):
    def grads(*args):
        raise RuntimeError("the derivative for '%s' is not implemented." % name)

    return grads


def heaviside(input, values, *, out=None):
    """The step function: 0 where input < 0, values where input == 0, 1 where input > 0."""
    _check_tensor("heaviside", "input", 1, input)
    _check_tensor("heaviside", "values", 2, values)
    if input.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    shape = broadcast_shapes(input.shape, values.shape)
    x, v = _upcast(input).expand(shape), _upcast(values).expand(shape)

    def value(x, v):
        return torch.where(x == 0, v, (x > 0).to(x.dtype))

    return _finish(
        "heaviside", out, lambda: _formula(value, _no_derivative("heaviside"), x, v), input.dtype, (input, values)
    )


def float_power(input, exponent, *, out=None):
    """input ** exponent computed in float64."""
    if not (isinstance(input, Tensor) or isinstance(exponent, Tensor)):
        _check_tensor("float_power", "input", 1, input)
    for pos, (name, v) in enumerate((("input", input), ("exponent", exponent)), 1):
        if not (isinstance(v, Tensor) or _is_number(v)):
            _check_tensor("float_power", name, pos, v)
    if out is not None and isinstance(out, Tensor) and out.dtype != torch.float64:
        raise RuntimeError(
            "the output given to float_power has dtype %s but the operation's result requires dtype Double"
            % _TYPE_NAME[out.dtype]
        )
    device = input.device if isinstance(input, Tensor) else exponent.device
    base, power = (
        v.to(torch.float64) if isinstance(v, Tensor) else torch.tensor(v, dtype=torch.float64, device=device)
        for v in (input, exponent)
    )
    shape = broadcast_shapes(base.shape, power.shape)
    base, power = base.expand(shape), power.expand(shape)

    def grads(g, r, x, p):
        # PyTorch's pow derivatives: 0 for the base where the exponent is 0, and 0 for the
        # exponent where the base is 0 and the exponent is not negative
        return (
            torch.where(p == 0, 0.0, g * p * torch.pow(x, p - 1)),
            torch.where((x == 0) & (p >= 0), 0.0, g * r * torch.log(x)),
        )

    return _finish(
        "float_power", out, lambda: _formula(torch.pow, grads, base, power), torch.float64, (input, exponent)
    )


def _fminmax(fname, input, other, out, take_input):
    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "other", 2, other)
    x, y, dtype = _binary(fname, input, other, other_may_be_number=False)

    def compute():
        # NaN loses to a number; ties go to input, and so does the gradient (PyTorch's)
        keep = take_input(x, y) | (y != y)
        return torch.where(keep, x, y)

    return _finish(fname, out, compute, dtype, (input, other))


def fmax(input, other, *, out=None):
    """The element-wise maximum, ignoring NaN where the other operand is a number."""
    return _fminmax("fmax", input, other, out, lambda x, y: x >= y)


def fmin(input, other, *, out=None):
    """The element-wise minimum, ignoring NaN where the other operand is a number."""
    return _fminmax("fmin", input, other, out, lambda x, y: x <= y)


def _clamp_one(fname, input, bound, out, upper):
    _check_tensor(fname, "input", 1, input)
    if not (isinstance(bound, Tensor) or _is_number(bound)):
        raise TypeError(
            "%s() received an invalid combination of arguments - got (Tensor, %s), but expected one of:\n"
            " * (Tensor input, Tensor %s)\n * (Tensor input, Number %s)"
            % (fname, _type_name(bound), "max" if upper else "min", "max" if upper else "min")
        )
    if not isinstance(bound, Tensor):
        dtype = _result_type(input, bound)
        if dtype in (torch.bool, torch.float16):  # as PyTorch 1.13's CPU kernel
            raise RuntimeError('"%s_cpu" not implemented for \'%s\'' % (fname, _TYPE_NAME[dtype]))
        x = input.to(dtype)
        kwargs = {"max": bound} if upper else {"min": bound}
        return _finish(fname, out, lambda: torch.clamp(x, **kwargs), dtype, (input,))
    x, b, dtype = _binary(fname, input, bound, other_may_be_number=False)
    # PyTorch's: input's gradient where input is within the bound, the bound's where input is
    # beyond it (so NaNs give neither a gradient)
    keep = (lambda x, b: x <= b) if upper else (lambda x, b: x >= b)
    beyond = (lambda x, b: x > b) if upper else (lambda x, b: x < b)

    def value(x, b):
        # NaN in either operand gives NaN, as torch.maximum / torch.minimum
        return torch.minimum(x, b) if upper else torch.maximum(x, b)

    def grads(g, r, x, b):
        return (torch.where(keep(x, b), g, 0.0), torch.where(beyond(x, b), g, 0.0))

    return _finish(fname, out, lambda: _formula(value, grads, x, b), dtype, (input, bound))


def clamp_min(input, min, *, out=None):
    """input with values below min raised to min (min a number or a broadcastable tensor)."""
    return _clamp_one("clamp_min", input, min, out, upper=False)


def clamp_max(input, max, *, out=None):
    """input with values above max lowered to max (max a number or a broadcastable tensor)."""
    return _clamp_one("clamp_max", input, max, out, upper=True)


# ---------------------------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------------------------


def _dims(fname, input, dim):
    """dim (None, an int or a sequence of ints) as a sorted tuple of non-negative dims."""
    n = input.dim()
    if dim is None:
        return tuple(range(n))
    items = (dim,) if isinstance(dim, numbers.Integral) else tuple(dim)
    result = []
    for d in items:
        if isinstance(d, builtins.bool) or not isinstance(d, numbers.Integral):
            raise TypeError("%s(): argument 'dim' must be tuple of ints, not %s" % (fname, _type_name(d)))
        lo, hi = (-builtins.max(n, 1), builtins.max(n, 1) - 1)
        if not lo <= d <= hi:
            raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)" % (lo, hi, d))
        d = d % builtins.max(n, 1)
        if d in result:
            raise RuntimeError("dim %d appears multiple times in the list of dims" % d)
        result.append(d)
    return tuple(sorted(result))


def _reduce(t, fn, dims, keepdim, **kwargs):
    if t.dim() == 0:
        return fn(t, **kwargs)
    return fn(t, dims, keepdim=keepdim, **kwargs)


def _zero_nans(x):
    return torch.where(x != x, 0.0, x)


def _nan_mask_grad(g, r, x):
    # a product, as PyTorch's nansum backward: an infinite gradient gives NaN at the NaNs
    return (g * (x == x).to(g.dtype),)


def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The sum with NaN counted as zero."""
    _check_tensor("nansum", "input", 1, input)
    dims = _dims("nansum", input, dim)
    kwargs = {} if dtype is None else {"dtype": dtype}

    def compute():
        x = _formula(_zero_nans, _nan_mask_grad, _upcast(input)) if input.is_floating_point() else input
        if dim is None and not keepdim:
            return x.sum(**kwargs)
        return _reduce(x, torch.sum, dims, keepdim, **kwargs)

    result_dtype = dtype or (input.dtype if input.is_floating_point() else torch.int64)
    return _finish("nansum", out, compute, result_dtype, (input,))


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The mean of the elements that are not NaN."""
    _check_tensor("nanmean", "input", 1, input)
    if not input.is_floating_point():
        raise RuntimeError(
            "nanmean(): expected input to have floating point dtype but got %s" % _TYPE_NAME[input.dtype]
        )
    dims = _dims("nanmean", input, dim)

    def compute():
        count = _reduce((input == input), torch.sum, dims, keepdim)
        return nansum(input, dim, keepdim, dtype=dtype) / count

    return _finish("nanmean", out, compute, dtype or input.dtype, (input,))


class _Sqrt(torch.autograd.Function):
    """sqrt whose gradient is 0 where the result is 0, as PyTorch's std backward."""

    @staticmethod
    def forward(ctx, var):
        result = torch.sqrt(var)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return torch.where(result == 0, 0.0, grad / (2 * result))


def _var_mean(fname, input, dim, unbiased, keepdim, correction):
    _check_tensor(fname, "input", 1, input)
    if isinstance(dim, builtins.bool):  # var_mean(input, unbiased)
        if unbiased is not None:
            raise TypeError("%s(): argument 'dim' must be tuple of ints, not bool" % fname)
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError("%s() received an invalid combination of arguments: both unbiased and correction" % fname)
    if not input.is_floating_point():
        raise RuntimeError("%s only support floating point and complex dtypes" % fname)
    dims = _dims(fname, input, dim)
    if correction is None:
        correction = 0 if unbiased is False else 1
    count = 1
    for d in dims:
        count *= input.shape[d]
    divisor = builtins.max(0, count - correction)
    with torch.no_grad():
        mean = _reduce(input, torch.mean, dims, True)
    kept_shape = mean.shape

    def value(x):
        centred = x - mean
        return _reduce(centred * centred, torch.sum, dims, keepdim) / divisor

    def grads(g, r, x):
        # PyTorch's var_backward: 2 / (N - correction) * grad * (x - mean); for a
        # zero-dimensional input with no degree of freedom, an infinite gradient
        if x.dim() == 0 and not divisor:
            return (g * inf,)
        scale = 2.0 / divisor if divisor else inf
        return (scale * g.reshape(kept_shape) * (x - mean),)

    var = _formula(value, grads, input)
    return var, _reduce(input, torch.mean, dims, True).reshape(var.shape)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(variance, mean) over dim; unbiased (Bessel's correction) unless unbiased=False, or
    with the given correction (divisor N - correction)."""
    return _var_mean("var_mean", input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(standard deviation, mean) over dim; the arguments as var_mean's."""
    var, mean = _var_mean("std_mean", input, dim, unbiased, keepdim, correction)
    return (_Sqrt.apply(var) if _needs_grad(var) else torch.sqrt(var)), mean


_aminmax_type = collections.namedtuple("aminmax", ["min", "max"])
_aminmax_type.__module__ = "torch.return_types"
torch.return_types.aminmax = _aminmax_type


def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(min, max) of input, over dim when given; the gradient splits evenly among ties."""
    _check_tensor("aminmax", "input", 1, input)
    if input.dtype == torch.float16:  # as PyTorch 1.13's CPU kernel
        raise RuntimeError('"aminmax_cpu" not implemented for \'Half\'')
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
            )
    else:
        (d,) = _dims("aminmax", input, dim)
        if input.dim() > 0 and input.shape[d] == 0:
            raise IndexError("aminmax: Expected reduction dim %d to have non-zero size." % d)
    if out is not None:
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError("aminmax(): argument 'out' must be tuple of Tensors, not %s" % _type_name(out))
        for o in out:
            _check_out("aminmax", o, input.dtype, (input,))

    def reduce(fn):
        if dim is None:
            r = fn(input)
            return r.reshape([1] * input.dim()) if keepdim else r
        if input.dim() == 0:
            return fn(input)
        return fn(input, dim, keepdim=keepdim)

    if out is None:
        return _aminmax_type(reduce(torch.amin), reduce(torch.amax))
    with torch.no_grad():
        lo, hi = reduce(torch.amin), reduce(torch.amax)
    return _aminmax_type(_write_out(out[0], lo), _write_out(out[1], hi))


def msort(input, *, out=None):
    """input sorted along its first dimension."""
    _check_tensor("msort", "input", 1, input)
    return _finish("msort", out, lambda: torch.sort(_upcast(input), 0).values, input.dtype, (input,))


# ---------------------------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------------------------


class memory_format:
    """How a tensor's elements are laid out (torch.contiguous_format, ...). Tensors here are
    laid out by their strides alone: a format is accepted where PyTorch takes one, and
    contiguous_format asks for row-major order."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name

    def __reduce__(self):
        return self._name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def _check_memory_format(fname, value):
    if value is not None and not isinstance(value, memory_format):
        raise TypeError(
            "%s(): argument 'memory_format' must be torch.memory_format, not %s" % (fname, _type_name(value))
        )


_plain_clone = Tensor.clone


def _dense_order(t):
    """The dimensions of t from outermost to innermost when t's elements fill one dense block
    in some order of its dimensions (a transpose or permutation of a contiguous tensor); None
    otherwise."""
    order = sorted(range(t.dim()), key=lambda d: -t.stride(d))
    expected = 1
    for d in reversed(order):
        if t.size(d) != 1 and t.stride(d) != expected:
            return None
        expected *= t.size(d)
    return order


def clone(input, *, memory_format=None):
    """A copy of input with its own storage; the gradient flows back to input. preserve_format
    (the default) keeps the order of input's strides where its elements are dense, as PyTorch
    does (a clone of a transpose is a transpose); contiguous_format gives row-major order."""
    _check_tensor("clone", "input", 1, input)
    _check_memory_format("clone", memory_format)
    if memory_format is contiguous_format or input.is_contiguous():
        return _plain_clone(input)
    if memory_format in (None, preserve_format):
        order = _dense_order(input)
        if order is not None:
            inverse = sorted(range(len(order)), key=order.__getitem__)
            return _plain_clone(input.permute(*order)).permute(*inverse)
    return _plain_clone(input)


def ravel(input):
    """input as a one-dimensional tensor (a view where input is contiguous)."""
    _check_tensor("ravel", "input", 1, input)
    return input.contiguous().view(-1)


def _shape_of(arg):
    if isinstance(arg, numbers.Integral) and not isinstance(arg, builtins.bool):
        return (builtins.int(arg),)
    if isinstance(arg, (tuple, list, torch.Size)):
        return tuple(torch.Size(arg))
    raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list of ints, got %r" % (arg,))


def broadcast_shapes(*shapes):
    """The shape that tensors of the given shapes broadcast to, without making tensors."""
    shapes = [_shape_of(s) for s in shapes]
    ndim = builtins.max([len(s) for s in shapes], default=0)
    result = [1] * ndim
    for s in shapes:
        for i, size in enumerate(s):
            if size < 0:
                raise RuntimeError("Trying to create tensor with negative dimension %d: %s" % (size, list(s)))
            j = ndim - len(s) + i
            if size == result[j] or size == 1:
                continue
            if result[j] == 1:
                result[j] = size
            else:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape")
    return torch.Size(result)


def broadcast_tensors(*tensors):
    """The tensors expanded (as views) to their common shape."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(
                "broadcast_tensors(): argument 'tensors' (position 1) must be tuple of Tensors, "
                "but found element of type %s at pos %d" % (_type_name(t), i)
            )
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


def broadcast_to(input, shape):
    """input expanded (as a view) to shape."""
    _check_tensor("broadcast_to", "input", 1, input)
    return input.expand(tuple(shape) if not isinstance(shape, numbers.Integral) else (shape,))


def cartesian_prod(*tensors):
    """Every combination of one element from each one-dimensional tensor, one per row."""
    for i, t in enumerate(tensors):
        _check_tensor("cartesian_prod", "tensors", 1, t)
        if t.dim() != 1:
            raise RuntimeError("Expect a 1D vector, but got shape %s" % list(t.shape))
    if len(tensors) == 0:
        raise RuntimeError("cartesian_prod expects at least one tensor")
    if len(tensors) == 1:
        return tensors[0]
    if builtins.any(t.dtype != tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """The combinations of r elements of a one-dimensional tensor, as itertools.combinations
    (or combinations_with_replacement) gives them, one per row."""
    _check_tensor("combinations", "input", 1, input)
    if input.dim() != 1:
        raise RuntimeError("Expect a 1D vector, but got shape %s" % list(input.shape))
    if isinstance(r, builtins.bool) or not isinstance(r, numbers.Integral):
        raise TypeError("combinations(): argument 'r' (position 2) must be int, not %s" % _type_name(r))
    if r < 0:
        raise RuntimeError("Expect a non-negative number, but got %d" % r)
    if r == 0:
        return input.new_empty((0,))
    n = input.shape[0]
    index = torch.arange(n, device=input.device)
    grids = torch.meshgrid(*([index] * r), indexing="ij")
    keep = torch.ones(grids[0].shape, dtype=torch.bool, device=input.device)
    for left, right in zip(grids[:-1], grids[1:]):
        keep = keep & ((left <= right) if with_replacement else (left < right))
    chosen = [g[keep] for g in grids]
    return torch.stack([input[c] for c in chosen], 1)


def block_diag(*tensors):
    """The tensors (each at most two-dimensional) as blocks along the diagonal of a matrix."""
    blocks = []
    for i, t in enumerate(tensors):
        _check_tensor("block_diag", "tensors", 1, t)
        if t.dim() > 2:
            raise RuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions"
                % (i, t.dim())
            )
        blocks.append(t.reshape(1, -1) if t.dim() < 2 else t)
    if not blocks:
        return torch.empty(1, 0)
    dtype = blocks[0].dtype
    for b in blocks[1:]:
        dtype = _promote(dtype, b.dtype)
    cols = builtins.sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        h, w = b.shape
        rows.append(
            torch.cat(
                [
                    torch.zeros(h, left, dtype=dtype, device=b.device),
                    b.to(dtype),
                    torch.zeros(h, cols - left - w, dtype=dtype, device=b.device),
                ],
                1,
            )
        )
        left += w
    return torch.cat(rows, 0)


def _dim_list(fname, value, ndim):
    items = [value] if isinstance(value, numbers.Integral) else list(value)
    result = []
    for d in items:
        if isinstance(d, Tensor):
            d = d.item()
        if isinstance(d, builtins.bool) or not isinstance(d, numbers.Integral):
            raise TypeError("%s(): dims must be ints, not %s" % (fname, _type_name(d)))
        if not -ndim <= d < builtins.max(ndim, 1):
            raise IndexError(
                "Dimension out of range (expected to be in range of [%d, %d], but got %d)"
                % (-builtins.max(ndim, 1), builtins.max(ndim, 1) - 1, d)
            )
        result.append(d % builtins.max(ndim, 1))
    return result


def tensordot(a, b, dims=2, out=None):
    """The sum of products of a's and b's elements over the given dimensions: dims an int
    (a's last dims against b's first) or a pair of dim lists."""
    _check_tensor("tensordot", "a", 1, a)
    _check_tensor("tensordot", "b", 2, b)
    if isinstance(dims, Tensor):
        dims = dims.item() if dims.numel() == 1 else dims.tolist()
    if isinstance(dims, numbers.Integral) and not isinstance(dims, builtins.bool):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims=%d" % dims)
        if dims > a.dim() or dims > b.dim():
            n = builtins.min(a.dim(), b.dim())
            raise IndexError(
                "Dimension out of range (expected to be in range of [%d, %d], but got %d)" % (-n, n - 1, -dims)
            )
        dims_a, dims_b = list(range(a.dim() - dims, a.dim())), list(range(dims))
    elif isinstance(dims, (tuple, list)) and len(dims) == 2:
        dims_a = _dim_list("tensordot", dims[0], a.dim())
        dims_b = _dim_list("tensordot", dims[1], b.dim())
    else:
        raise RuntimeError("tensordot expects dims to be an int or a pair of lists of dims, got %r" % (dims,))
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    for da, db in zip(dims_a, dims_b):
        if a.shape[da] != b.shape[db]:
            raise RuntimeError(
                "contracted dimensions need to match, but first has size %d in dim %d and second has size %d in dim %d"
                % (a.shape[da], da, b.shape[db], db)
            )
    if a.dtype != b.dtype:
        raise RuntimeError("expected scalar type %s but found %s" % (_TYPE_NAME[a.dtype], _TYPE_NAME[b.dtype]))
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    m = math.prod(a.shape[d] for d in free_a)
    k = math.prod(a.shape[d] for d in dims_a)
    n = math.prod(b.shape[d] for d in free_b)
    shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]

    def compute():
        left = a.permute(*(free_a + dims_a)).reshape(m, k)
        right = b.permute(*(dims_b + free_b)).reshape(k, n)
        return torch.mm(left, right).reshape(shape)

    if out is None:
        return compute()  # in mm's type (bfloat16 under autocast)
    return _finish("tensordot", out, compute, a.dtype, (a, b))


def inner(input, other, *, out=None):
    """The sum of products over the last dimension of both (a product where one is a scalar)."""
    _check_tensor("inner", "input", 1, input)
    _check_tensor("inner", "other", 2, other)
    if input.dim() == 0 or other.dim() == 0:
        return _finish("inner", out, lambda: input * other, _result_type(input, other), (input, other))
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes %s and %s"
            % (list(input.shape), list(other.shape))
        )
    return tensordot(input, other, ([input.dim() - 1], [other.dim() - 1]), out=out)


def _check_indices(input, indices, dim):
    if indices.numel() == 0:
        return
    if dim is None:
        d, size = 0, input.numel()
    else:
        (d,) = _dims("take_along_dim", input, dim)
        size = input.shape[d] if input.dim() else 1
    for bad in (indices.max().item(), indices.min().item()):
        if not 0 <= bad < size:
            raise RuntimeError("index %d is out of bounds for dimension %d with size %d" % (bad, d, size))


def take_along_dim(input, indices, dim=None, *, out=None):
    """The elements of input at indices along dim (of the flattened input without dim);
    input and indices broadcast in the other dimensions."""
    _check_tensor("take_along_dim", "input", 1, input)
    _check_tensor("take_along_dim", "indices", 2, indices)
    if indices.dtype != torch.int64:
        raise RuntimeError(
            "torch.take_along_dim(): dtype of indices should be Long but got %s" % _TYPE_NAME[indices.dtype]
        )
    _check_indices(input, indices, dim)
    if dim is None:
        return _finish(
            "take_along_dim",
            out,
            lambda: input.reshape(-1).gather(0, indices.reshape(-1)),
            input.dtype,
            (input,),
        )
    if input.dim() != indices.dim():
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, "
            "but got %d dimensions for input, and %d dimensions for indices" % (input.dim(), indices.dim())
        )
    (d,) = _dims("take_along_dim", input, dim)
    in_shape, idx_shape = list(input.shape), list(indices.shape)
    in_shape[d] = idx_shape[d] = 1
    common = list(broadcast_shapes(in_shape, idx_shape))
    in_target, idx_target = list(common), list(common)
    in_target[d], idx_target[d] = input.shape[d], indices.shape[d]

    def compute():
        return input.expand(in_target).gather(d, indices.expand(idx_target))

    return _finish("take_along_dim", out, compute, input.dtype, (input,))


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along dim, after prepend and append are joined to input
    (for bool tensors, exclusive or of neighbours)."""
    _check_tensor("diff", "input", 1, input)
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if isinstance(n, builtins.bool) or not isinstance(n, numbers.Integral):
        raise TypeError("diff(): argument 'n' (position 2) must be int, not %s" % _type_name(n))
    (d,) = _dims("diff", input, dim)
    parts = []
    for name, extra in (("prepend", prepend), (None, input), ("append", append)):
        if extra is None:
            continue
        if name is not None:
            _check_tensor("diff", name, 4 if name == "prepend" else 5, extra)
            if extra.dim() != input.dim():
                raise RuntimeError("diff expects prepend or append to be the same dimension as input")
            for i in range(input.dim()):
                if i != d and extra.shape[i] != input.shape[i]:
                    raise RuntimeError(
                        "diff expects the shape of tensor to prepend or append to match that of input except "
                        "along the differencing dimension; input.size(%d) = %d, but got tensor.size(%d) = %d"
                        % (i, input.shape[i], i, extra.shape[i])
                    )
        parts.append(extra)
    x = torch.cat(parts, d) if len(parts) > 1 else input
    dtype = x.dtype
    x = _upcast(x)
    for _ in range(builtins.max(0, builtins.min(n, x.shape[d]))):
        size = x.shape[d]
        later, earlier = x.narrow(d, 1, size - 1), x.narrow(d, 0, size - 1)
        x = torch.logical_xor(later, earlier) if x.dtype == torch.bool else later - earlier
    return x if x.dtype == dtype else x.to(dtype)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a one-dimensional x: columns x ** (N-1), ..., x ** 0
    (the other way round when increasing)."""
    _check_tensor("vander", "x", 1, x)
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is None:
        N = x.shape[0]
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = _promote(x.dtype, torch.int64)
    powers = torch.arange(N, dtype=dtype, device=x.device)
    if not increasing:
        powers = powers.flip(0)
    return torch.pow(x.to(dtype).unsqueeze(1), powers)


def _no_samples(y, d):
    # PyTorch gives fresh zeros, with no graph behind them
    return torch.zeros([s for i, s in enumerate(y.shape) if i != d], dtype=y.dtype, device=y.device)


def _trapezoid_dx(y, dx, d):
    if y.shape[d] == 0:
        return _no_samples(y, d)
    ends = y.select(d, 0) + y.select(d, -1)
    return (y.sum(d) - ends * 0.5) * dx


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The integral of y along dim by the trapezoidal rule, with sample points x (a tensor)
    or a constant spacing dx (1 by default)."""
    _check_tensor("trapezoid", "y", 1, y)
    if x is not None and dx is not None:
        raise TypeError("trapezoid() received both x and dx: pass one of them")
    if y.dim() == 0:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got %d)" % dim)
    (d,) = _dims("trapezoid", y, dim)
    if x is None:
        if dx is not None and not _is_number(dx):
            raise TypeError("trapezoid(): argument 'dx' must be Number, not %s" % _type_name(dx))
        return _trapezoid_dx(y, 1 if dx is None else dx, d)
    _check_tensor("trapezoid", "x", 2, x)
    if y.shape[d] == 0:
        return _no_samples(y, d)
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError(
                "trapezoid: There must be one `x` value for each sample point. Got %d x values, "
                "but y has %d samples along dim %d" % (x.shape[0], y.shape[d], d)
            )
        shape = [1] * y.dim()
        shape[d] = x.shape[0] - 1
        spacing = diff(x).reshape(shape)
    else:
        spacing = diff(x, dim=dim)
    size = y.shape[d]
    pairs = y.narrow(d, 1, size - 1) + y.narrow(d, 0, size - 1)
    return (spacing * pairs).sum(d) / 2.0


def trapz(y, x=None, *, dx=None, dim=-1):
    """trapezoid's older name."""
    return trapezoid(y, x, dx=dx, dim=dim)


# ---------------------------------------------------------------------------------------------
# searching, counting, order statistics, distances, contractions
# ---------------------------------------------------------------------------------------------

_cummax_type = collections.namedtuple("cummax", ["values", "indices"])
_cummin_type = collections.namedtuple("cummin", ["values", "indices"])
for _t in (_cummax_type, _cummin_type):
    _t.__module__ = "torch.return_types"
    setattr(torch.return_types, _t.__name__, _t)


def _running_indices(x, later_wins):
    """Along the last dim, the index of the running extreme (a Hillis-Steele scan: log2(n)
    vectorised steps). A NaN wins from where it appears; ties go to the later element."""
    n = x.shape[-1]
    best = x
    index = torch.arange(n, device=x.device).expand(x.shape)
    shift = 1
    while shift < n:
        early_v, late_v = best[..., : n - shift], best[..., shift:]
        early_i, late_i = index[..., : n - shift], index[..., shift:]
        take_late = (late_v != late_v) | ((early_v == early_v) & later_wins(late_v, early_v))
        best = torch.cat([best[..., :shift], torch.where(take_late, late_v, early_v)], -1)
        index = torch.cat([index[..., :shift], torch.where(take_late, late_i, early_i)], -1)
        shift *= 2
    return index


def _cumulative_extreme(fname, kind, input, dim, out, later_wins):
    _check_tensor(fname, "input", 1, input)
    (d,) = _dims(fname, input, dim)
    if input.dim() == 0:
        result = kind(input.clone(), torch.zeros((), dtype=torch.int64, device=input.device))
    else:
        with torch.no_grad():
            moved = _upcast(input.detach()).movedim(d, -1)
            index = _running_indices(moved, later_wins).movedim(-1, d).contiguous()
        # values gathered from input, so the gradient goes back to the chosen elements
        result = kind(input.gather(d, index), index)
    if out is None:
        return result
    _check_out(fname, out[0], input.dtype, (input,))
    _check_out(fname, out[1], torch.int64, ())
    return kind(_write_out(out[0], result.values), _write_out(out[1], result.indices))


def cummax(input, dim, *, out=None):
    """The running maximum along dim and the index where each was reached (the later index on
    ties; NaN propagates)."""
    return _cumulative_extreme("cummax", _cummax_type, input, dim, out, lambda late, early: late >= early)


def cummin(input, dim, *, out=None):
    """The running minimum along dim and the index where each was reached (the later index on
    ties; NaN propagates)."""
    return _cumulative_extreme("cummin", _cummin_type, input, dim, out, lambda late, early: late <= early)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, out=None, sorter=None):
    """For each value, the index in sorted_sequence's innermost dimension where it would be
    inserted to keep it sorted: before equal elements, or after them with right=True or
    side='right'. A binary search of log2(n) vectorised steps."""
    _check_tensor("searchsorted", "sorted_sequence", 1, sorted_sequence)
    scalar = not isinstance(values, Tensor)
    if scalar and not _is_number(values):
        _check_tensor("searchsorted", "values", 2, values)
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got %s" % side)
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"
            )
        right = side == "right"
    seq = sorted_sequence
    vals = torch.tensor(values, dtype=seq.dtype, device=seq.device) if scalar else values
    if vals.device.type != seq.device.type:
        raise RuntimeError(
            "torch.searchsorted(): boundaries and input value tensors should have same device type, but we got "
            "boundaries tensor device type %s and input value tensor device type %s"
            % (seq.device.type, vals.device.type)
        )
    if seq.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions")
    if seq.dim() > 1 and (vals.dim() != seq.dim() or tuple(vals.shape[:-1]) != tuple(seq.shape[:-1])):
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
            "tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s"
            % (list(seq.shape), list(vals.shape))
        )
    if sorter is not None:
        _check_tensor("searchsorted", "sorter", 5, sorter)
        if sorter.dtype != torch.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got %s" % sorter.dtype)
        if tuple(sorter.shape) != tuple(seq.shape):
            raise RuntimeError(
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor %s "
                "and got sorter tensor %s" % (list(seq.shape), list(sorter.shape))
            )
    dtype = torch.int32 if out_int32 else torch.int64
    work = _promote(seq.dtype, vals.dtype)
    work = torch.float32 if work == torch.float16 else work

    def compute():
        with torch.no_grad():
            s = seq.detach().to(work)
            if sorter is not None:
                s = s.gather(-1, sorter)
            v = vals.detach().to(work)
            n = s.shape[-1]
            flat_s = s.reshape(-1, n) if s.dim() > 1 else s.reshape(1, n)
            flat_v = v.reshape(flat_s.shape[0], -1) if s.dim() > 1 else v.reshape(1, -1)
            lo = torch.zeros(flat_v.shape, dtype=torch.int64, device=flat_v.device)
            hi = torch.full(flat_v.shape, n, dtype=torch.int64, device=flat_v.device)
            for _ in range(n.bit_length()):
                active = lo < hi
                mid = (lo + hi) // 2
                at = flat_s.gather(1, mid.clamp(max=n - 1))
                # as PyTorch: "not (element >= value)" goes right, so that NaNs sort last
                after = ~(at > flat_v) if right else ~(at >= flat_v)
                lo = torch.where(after & active, mid + 1, lo)
                hi = torch.where(~after & active, mid, hi)
            return lo.reshape(v.shape).to(dtype)

    return _finish("searchsorted", out, compute, dtype, ())


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """For each element of input, the index of the bucket of the sorted one-dimensional
    boundaries it falls in (searchsorted(boundaries, input, right=right))."""
    _check_tensor("bucketize", "boundaries", 2, boundaries)
    if boundaries.dim() != 1:
        raise RuntimeError("boundaries tensor must be 1 dimension, but got dim(%d)" % boundaries.dim())
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


def bincount(input, weights=None, minlength=0):
    """How often each value occurs in a one-dimensional tensor of non-negative integers (the
    sum of the weights at its positions, when weights are given)."""
    _check_tensor("bincount", "input", 1, input)
    if input.dtype not in _INTS or input.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None:
        _check_tensor("bincount", "weights", 2, weights)
        if weights.dim() != 1 or weights.shape[0] != input.shape[0]:
            raise RuntimeError("weights should be 1-d and have the same length as input")
    if input.numel() and input.min().item() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    size = builtins.max(minlength, input.max().item() + 1 if input.numel() else 0)
    index = input.to(torch.int64)
    with torch.no_grad():
        if weights is None:
            return torch.zeros(size, dtype=torch.int64, device=index.device).index_add_(
                0, index, torch.ones_like(index)
            )
        dtype = torch.float32 if weights.dtype == torch.float32 else torch.float64
        return torch.zeros(size, dtype=dtype, device=index.device).index_add_(0, index, weights.detach().to(dtype))


def _lerp(start, end, weight):
    # PyTorch's lerp: from the nearer end, so that weight 1 gives end exactly
    return torch.where(weight < 0.5, start + weight * (end - start), end - (end - start) * (1 - weight))


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(fname, input, q, dim, keepdim, interpolation, out, ignore_nan):
    _check_tensor(fname, "input", 1, input)
    if input.dtype not in (torch.float32, torch.float64):
        raise RuntimeError("%s() input tensor must be either float or double dtype" % fname)
    if input.numel() == 0:
        raise RuntimeError("%s() input tensor must be non-empty" % fname)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            "%s() interpolation must be one of linear, lower, higher, midpoint or nearest. Got %s"
            % (fname, interpolation)
        )
    if isinstance(q, Tensor):
        if q.dim() > 1:
            raise RuntimeError("%s() q must be a scalar or 1D tensor" % fname)
        if q.dtype != input.dtype:
            raise RuntimeError("%s() q tensor must be same dtype as the input tensor" % fname)
        if q.device != input.device:
            raise RuntimeError("%s() q tensor must be on the same device as the input tensor" % fname)
        qs = q.detach()
    elif _is_number(q):
        qs = torch.tensor(builtins.float(q), dtype=input.dtype, device=input.device)
    else:
        raise TypeError("%s(): argument 'q' must be Tensor or float, not %s" % (fname, _type_name(q)))
    if qs.numel() and not bool(((qs >= 0) & (qs <= 1)).all()):
        raise RuntimeError("%s() q values must be in the range [0, 1]" % fname)
    if dim is None:
        x, d = input.reshape(-1), 0
    else:
        (d,) = _dims(fname, input, dim)
        x = input.unsqueeze(0) if input.dim() == 0 else input
    sorted_x = torch.sort(x, d).values.movedim(d, -1)  # NaNs sort last
    n = sorted_x.shape[-1]
    nans = (sorted_x != sorted_x).sum(-1, keepdim=True)
    if ignore_nan:
        last = (n - nans - 1).to(input.dtype)  # an all-NaN slice gives -1: its result is NaN
    else:
        last = torch.full(nans.shape, n - 1, dtype=input.dtype, device=input.device)
    flat_q = qs.reshape(-1)
    rank = flat_q.reshape(-1, *([1] * sorted_x.dim())) * last.unsqueeze(0)  # (Q, ..., 1)
    if not ignore_nan:
        # PyTorch points every rank of a slice with a NaN at its last element (a NaN)
        rank = torch.where((nans > 0).unsqueeze(0), last.unsqueeze(0), rank)
    if interpolation == "lower":
        rank = rank.floor()
    elif interpolation == "higher":
        rank = rank.ceil()
    elif interpolation == "nearest":
        rank = rank.round()
    invalid = rank < 0
    lo = rank.floor().clamp(min=0).to(torch.int64)
    hi = rank.ceil().clamp(min=0).to(torch.int64)
    values = sorted_x.unsqueeze(0).expand(rank.shape[:-1] + (n,))
    below = values.gather(-1, lo)
    above = values.gather(-1, hi)
    if interpolation == "midpoint":
        weight = torch.where(rank == rank.floor(), 0.0, 0.5).to(input.dtype)
    else:
        weight = rank - rank.floor()
    result = torch.where(invalid, nan, _lerp(below, above, weight)).squeeze(-1)  # (Q, ...)
    if dim is None:
        result = result.reshape([-1] + ([1] * input.dim() if keepdim else []))
    elif keepdim and input.dim() > 0:
        result = result.unsqueeze(d + 1)
    if not isinstance(q, Tensor) or q.dim() == 0:
        result = result.squeeze(0)
    return _finish(fname, out, lambda: result, input.dtype, (input,))


@float32_under_autocast
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The q-th quantiles of input (over all elements, or along dim), interpolated between the
    two nearest order statistics; NaN where the slice holds a NaN."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, out, ignore_nan=False)


@float32_under_autocast
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """quantile, ignoring NaNs (NaN only where a slice holds nothing else)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, out, ignore_nan=True)


def _cdist_value(p):
    def value(a, b):
        diff = a.unsqueeze(-2) - b.unsqueeze(-3)
        if p == 0:
            return (diff != 0).sum(-1).to(a.dtype)
        if p == inf:
            return diff.abs().amax(-1) if diff.shape[-1] else diff.sum(-1)
        if p == 1:
            return diff.abs().sum(-1)
        if p == 2:
            return torch.sqrt((diff * diff).sum(-1))
        return torch.pow(torch.pow(diff.abs(), p).sum(-1), 1.0 / p)

    return value


def _cdist_grads(p):
    def grads(g, dist, a, b):
        # PyTorch's _cdist_backward: the derivative of each distance by each coordinate difference
        diff = a.unsqueeze(-2) - b.unsqueeze(-3)
        d = dist.unsqueeze(-1)
        if p == 0:
            per = torch.zeros_like(diff)
        elif p == 1:
            per = torch.sign(diff)
        elif p == 2:
            per = torch.where(d == 0, 0.0, diff / d)
        elif p == inf:
            per = torch.sign(diff) * (diff.abs() == d).to(diff.dtype)
        else:
            ratio = torch.pow(diff.abs(), p - 1) / torch.pow(d, p - 1)
            per = torch.sign(diff) * ratio
            zero = (d == 0) | ((diff == 0) & (p < 1))
            per = torch.where(zero, 0.0, per)
        weighted = g.unsqueeze(-1) * per
        return weighted.sum(-2), -weighted.sum(-3)

    return grads


@float32_under_autocast
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 (..., P, M) and each row of x2 (..., R, M):
    a (..., P, R) tensor."""
    _check_tensor("cdist", "x1", 1, x1)
    _check_tensor("cdist", "x2", 2, x2)
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.is_floating_point() or t.dtype == torch.float16:
            raise RuntimeError("cdist only supports floating-point dtypes, %s got: %s" % (name, _TYPE_NAME[t.dtype]))
        if t.dim() < 2:
            raise RuntimeError("cdist only supports at least 2D tensors, %s got: %dD" % (name, t.dim()))
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            "X1 and X2 must have the same number of columns. X1: %d X2: %d" % (x1.shape[-1], x2.shape[-1])
        )
    if not _is_number(p) or p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    modes = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")
    if compute_mode not in modes:
        raise ValueError("%s is not a valid value for compute_mode" % compute_mode)
    dtype = _promote(x1.dtype, x2.dtype)
    batch = list(broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
    a = x1.to(dtype).expand(batch + list(x1.shape[-2:]))
    b = x2.to(dtype).expand(batch + list(x2.shape[-2:]))
    P, R = a.shape[-2], b.shape[-2]
    use_mm = p == 2 and (
        compute_mode == "use_mm_for_euclid_dist"
        or (compute_mode == "use_mm_for_euclid_dist_if_necessary" and (P > 25 or R > 25))
    )
    if use_mm and P and R:
        # PyTorch's _euclidean_dist: |a|^2 + |b|^2 - 2 a.b through one matrix product
        # (differentiated as the composition it is)
        a_norm = (a * a).sum(-1, keepdim=True)
        b_norm = (b * b).sum(-1, keepdim=True)
        a_pad = torch.cat([-2 * a, a_norm, torch.ones_like(a_norm)], -1)
        b_pad = torch.cat([b, torch.ones_like(b_norm), b_norm], -1)
        return torch.matmul(a_pad, b_pad.transpose(-1, -2)).clamp(min=1e-30).sqrt()
    return _formula(_cdist_value(p), _cdist_grads(p), a, b)


def _einsum_parse(equation, operands):
    """The subscripts of each operand and of the output as lists of labels; '...' becomes one
    label per broadcast dimension (numbers, which no letter can be)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if len(operands) > len(terms)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    ellipsis_dims = 0
    parsed = []
    for i, (term, op) in enumerate(zip(terms, operands)):
        if term.count("...") > 1 or term.replace("...", "").count(".") > 0:
            raise RuntimeError("einsum(): found '.' for operand %d that is not part of any ellipsis" % i)
        letters = term.replace("...", "")
        for c in letters:
            if not c.isalpha():
                raise RuntimeError(
                    "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]"
                    % eq.index(c)
                )
        if "..." in term:
            n = op.dim() - len(letters)
            if n < 0:
                raise RuntimeError(
                    "einsum(): the number of subscripts in the equation (%d) is more than the number of "
                    "dimensions (%d) for operand %d" % (len(letters), op.dim(), i)
                )
            ellipsis_dims = builtins.max(ellipsis_dims, n)
        elif len(letters) != op.dim():
            raise RuntimeError(
                "einsum(): the number of subscripts in the equation (%d) does not match the number of "
                "dimensions (%d) for operand %d and no ellipsis was given" % (len(letters), op.dim(), i)
            )
        parsed.append(term)
    labels = []
    for term, op in zip(parsed, operands):
        before, dots, after = term.partition("...")
        n = op.dim() - len(before) - len(after) if dots else 0
        labels.append(list(before) + list(range(ellipsis_dims - n, ellipsis_dims)) + list(after))
    if arrow:
        if rhs.count("...") > 1:
            raise RuntimeError("einsum(): found more than one ellipsis in the output")
        before, dots, after = rhs.partition("...")
        output = list(before) + (list(range(ellipsis_dims)) if dots else []) + list(after)
        seen = set()
        for c in before + after:
            if c in seen:
                raise RuntimeError("einsum(): output subscript %s appears more than once in the output" % c)
            if not builtins.any(c in t for t in parsed):
                raise RuntimeError(
                    "einsum(): output subscript %s does not appear in the equation for any input operand" % c
                )
            seen.add(c)
    else:
        counts = collections.Counter(c for t in labels for c in t if isinstance(c, str))
        output = list(range(ellipsis_dims)) + sorted(c for c, k in counts.items() if k == 1)
    return labels, output


def _einsum_diagonal(t, labels):
    """A repeated label within one operand ('ii') takes the diagonal."""
    while True:
        for i, c in enumerate(labels):
            if c in labels[i + 1 :]:
                j = labels.index(c, i + 1)
                if t.shape[i] != t.shape[j]:
                    raise RuntimeError(
                        "einsum(): subscript %s is repeated for operand but the sizes don't match, %d != %d"
                        % (c, t.shape[i], t.shape[j])
                    )
                t = torch.diagonal(t, 0, i, j)
                labels = [x for k, x in enumerate(labels) if k not in (i, j)] + [c]
                break
        else:
            return t, labels


def _einsum_pair(a, la, b, lb, keep):
    """Contracts two operands over their shared labels not in keep, by one batched matrix product."""
    sizes = {}
    for t, ls in ((a, la), (b, lb)):
        for c, s in zip(ls, t.shape):
            if sizes.get(c, 1) != 1 and s != 1 and sizes[c] != s:
                raise RuntimeError("einsum(): operands do not broadcast with remapped shapes (original->remapped)")
            sizes[c] = s if sizes.get(c, 1) == 1 else sizes[c]
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    free_a = [c for c in la if c not in lb]
    free_b = [c for c in lb if c not in la]

    def arranged(t, ls, order):
        t = t.permute(*[ls.index(c) for c in order])
        return t.expand([sizes[c] for c in order])

    left = arranged(a, la, batch + free_a + summed)
    right = arranged(b, lb, batch + summed + free_b)
    nb = math.prod(sizes[c] for c in batch)
    nfa = math.prod(sizes[c] for c in free_a)
    nk = math.prod(sizes[c] for c in summed)
    nfb = math.prod(sizes[c] for c in free_b)
    product = torch.bmm(left.reshape(nb, nfa, nk), right.reshape(nb, nk, nfb))
    return product.reshape([sizes[c] for c in batch + free_a + free_b]), batch + free_a + free_b


def einsum(*args):
    """Sums of products of the operands' elements over the labels an Einstein summation
    equation gives them ('ij,jk->ik' is a matrix product); operands may be passed as a list."""
    if not args or not isinstance(args[0], str):
        raise TypeError("einsum(): must specify the equation string and at least one operand")
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    for op in operands:
        _check_tensor("einsum", "operands", 2, op)
    dtype = operands[0].dtype
    for op in operands[1:]:
        if op.dtype != dtype:
            raise RuntimeError("expected scalar type %s but found %s" % (_TYPE_NAME[dtype], _TYPE_NAME[op.dtype]))
    labels, output = _einsum_parse(equation, operands)
    terms = [_einsum_diagonal(op, list(ls)) for op, ls in zip(operands, labels)]
    # labels that no later operand and not the output need are summed out before any product
    t, ls = terms[0]
    for i in range(len(terms)):
        if i:
            keep = set(output).union(*[set(l2) for _, l2 in terms[i + 1 :]])
            t, ls = _einsum_pair(t, ls, terms[i][0], terms[i][1], keep)
        needed = set(output).union(*[set(l2) for _, l2 in terms[i + 1 :]])
        gone = [k for k, c in enumerate(ls) if c not in needed]
        if gone:
            t = t.sum(gone) if t.dim() else t
            ls = [c for c in ls if c in needed]
    missing = [c for c in output if c not in ls]
    if missing:
        raise RuntimeError(
            "einsum(): output subscript %s does not appear in the equation for any input operand" % missing[0]
        )
    return t.permute(*[ls.index(c) for c in output]) if ls else t


# ---------------------------------------------------------------------------------------------
# inverse hyperbolic functions, integer and exponent arithmetic
# ---------------------------------------------------------------------------------------------

_LN2 = math.log(2.0)
_HUGE = 1e8  # beyond it x ** 2 + 1 is x ** 2 in float64, and x ** 2 may overflow


def _acosh_value(x):
    t = x - 1
    near = torch.log1p(t + torch.sqrt(2 * t + t * t))
    return torch.where(x > _HUGE, torch.log(x) + _LN2, near)


def _asinh_value(x):
    a = x.abs()
    near = torch.log1p(a + a * a / (1 + torch.sqrt(1 + a * a)))
    r = torch.where(a > _HUGE, torch.log(a) + _LN2, near)
    return torch.where(torch.signbit(x), -r, r)


def _atanh_value(x):
    return 0.5 * torch.log1p(2 * x / (1 - x))


_HYPERBOLIC = {
    "acosh": (_acosh_value, lambda g, r, x: (g * torch.rsqrt(x * x - 1),)),
    "asinh": (_asinh_value, lambda g, r, x: (g * torch.rsqrt(x * x + 1),)),
    "atanh": (_atanh_value, lambda g, r, x: (g / (1 - x * x),)),
}


def _hyperbolic(fname, input, out):
    _check_tensor(fname, "input", 1, input)
    x = _as_floating(input)
    value, grads = _HYPERBOLIC[fname]
    return _finish(fname, out, lambda: _formula(value, grads, _upcast(x)), x.dtype, (input,))


def acosh(input, *, out=None):
    """The inverse hyperbolic cosine, log(x + sqrt(x ** 2 - 1)), NaN below 1."""
    return _hyperbolic("acosh", input, out)


def asinh(input, *, out=None):
    """The inverse hyperbolic sine, log(x + sqrt(x ** 2 + 1))."""
    return _hyperbolic("asinh", input, out)


def atanh(input, *, out=None):
    """The inverse hyperbolic tangent, log((1 + x) / (1 - x)) / 2, NaN outside [-1, 1]."""
    return _hyperbolic("atanh", input, out)


def _integers(fname, input, other):
    a, b, dtype = _binary(fname, input, other, other_may_be_number=False)
    if dtype not in _INTS:
        raise RuntimeError('"%s_cpu" not implemented for \'%s\'' % (fname, _TYPE_NAME[dtype]))
    return a, b, dtype


def _gcd_value(a, b):
    a, b = a.abs(), b.abs()
    while bool((b != 0).any()):
        nonzero = b != 0
        a, b = torch.where(nonzero, b, a), torch.where(nonzero, torch.remainder(a, torch.where(nonzero, b, 1)), 0)
    return a


def gcd(input, other, *, out=None):
    """The greatest common divisor of integers (non-negative; gcd(0, 0) is 0)."""
    a, b, dtype = _integers("gcd", input, other)
    return _finish("gcd", out, lambda: _gcd_value(a, b), dtype, (input, other))


def lcm(input, other, *, out=None):
    """The least common multiple of integers (non-negative; 0 when either is 0)."""
    a, b, dtype = _integers("lcm", input, other)

    def compute():
        g = _gcd_value(a, b)
        return torch.where(g == 0, 0, (a // torch.where(g == 0, 1, g) * b).abs())

    return _finish("lcm", out, compute, dtype, (input, other))


def ldexp(input, other, *, out=None):
    """input * 2 ** other."""
    _check_tensor("ldexp", "input", 1, input)
    _check_tensor("ldexp", "other", 2, other)
    dtype = _result_type(input, other)
    dtype = dtype if _is_float(dtype) else torch.get_default_dtype()
    return _finish("ldexp", out, lambda: input * exp2(other.to(dtype)), dtype, (input, other))


_frexp_type = collections.namedtuple("frexp", ["mantissa", "exponent"])
_frexp_type.__module__ = "torch.return_types"
setattr(torch.return_types, "frexp", _frexp_type)


def frexp(input, *, out=None):
    """input as mantissa * 2 ** exponent with 1/2 <= |mantissa| < 1 (0, infinities and NaN have
    exponent 0 and are their own mantissa)."""
    _check_tensor("frexp", "input", 1, input)
    if not _is_float(input.dtype):
        raise RuntimeError(
            "torch.frexp() only supports floating-point dtypes, but got %s" % str(input.dtype).replace("torch.", "")
        )
    x = input.detach().to(torch.float64)
    finite = torch.isfinite(x) & (x != 0)
    e = torch.where(finite, torch.floor(torch.log2(torch.where(finite, x.abs(), 1.0))) + 1, 0.0)

    def scaled(e):
        # in two halves, so that neither power of two overflows at the ends of the range
        half = torch.floor(e / 2)
        return x * torch.pow(2.0, -half) * torch.pow(2.0, half - e)

    m = scaled(e)
    # log2 rounds: move the exponent by one where the mantissa left [1/2, 1)
    e = torch.where(finite & (m.abs() >= 1), e + 1, torch.where(finite & (m.abs() < 0.5), e - 1, e))
    m = torch.where(finite, scaled(e), x)
    result = _frexp_type(m.to(input.dtype), e.to(torch.int32))
    if out is None:
        return result
    return _frexp_type(_write_out(out[0], result.mantissa), _write_out(out[1], result.exponent))


# ---------------------------------------------------------------------------------------------
# scans, statistics of variables and nan-aware order statistics
# ---------------------------------------------------------------------------------------------


def logcumsumexp(input, dim, *, out=None):
    """log(cumsum(exp(input))) along dim, without overflow: a running logaddexp."""
    _check_tensor("logcumsumexp", "input", 1, input)
    (d,) = _dims("logcumsumexp", input, dim)
    x = _as_floating(input)

    def compute():
        if x.dim() == 0 or x.shape[d] == 0:
            return x.clone()
        running = []
        for part in x.unbind(d):
            running.append(part if not running else logaddexp(running[-1], part))
        return torch.stack(running, d)

    return _finish("logcumsumexp", out, compute, x.dtype, (input,))


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running integral of y along dim by the trapezoidal rule (one fewer element than y),
    with sample points x or a constant spacing dx (1 by default)."""
    _check_tensor("cumulative_trapezoid", "y", 1, y)
    if x is not None and dx is not None:
        raise TypeError("cumulative_trapezoid() received both x and dx: pass one of them")
    if y.dim() == 0:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got %d)" % dim)
    (d,) = _dims("cumulative_trapezoid", y, dim)
    size = y.shape[d]
    if size == 0:
        return y.clone()
    pairs = y.narrow(d, 1, size - 1) + y.narrow(d, 0, size - 1)
    if x is None:
        return (pairs * ((1 if dx is None else dx) / 2.0)).cumsum(d)
    _check_tensor("cumulative_trapezoid", "x", 2, x)
    if x.dim() == 1:
        if x.shape[0] != size:
            raise RuntimeError(
                "cumulative_trapezoid: There must be one `x` value for each sample point. Got %d x values, "
                "but y has %d samples along dim %d" % (x.shape[0], size, d)
            )
        shape = [1] * y.dim()
        shape[d] = size - 1
        spacing = diff(x).reshape(shape)
    else:
        spacing = diff(x, dim=dim)
    return (spacing * pairs / 2.0).cumsum(d)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in input's rows (one variable: a 0-dim tensor),
    with frequency and observation weights, divided by the weights' total minus correction."""
    _check_tensor("cov", "input", 1, input)
    if input.dim() > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with %d dimensions" % input.dim()
        )
    x = input if input.dim() == 2 else input.reshape(1, -1)
    x = _as_floating(x)
    n = x.shape[1]
    w = None
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is None:
            continue
        _check_tensor("cov", name, 1, weights)
        if weights.dim() > 1:
            raise RuntimeError(
                "cov(): expected %s to have one or fewer dimensions but got %s with %d dimensions"
                % (name, name, weights.dim())
            )
        if weights.numel() != n:
            raise RuntimeError(
                "cov(): expected %s to have the same numel as there are observations in the input but got %d != %d"
                % (name, weights.numel(), n)
            )
        if name == "fweights" and _is_float(weights.dtype):
            raise RuntimeError(
                "cov(): expected fweights to have integral dtype but got fweights with %s dtype"
                % _TYPE_NAME[weights.dtype]
            )
        if bool((weights < 0).any()):
            raise RuntimeError("cov(): %s cannot be negative" % name)
        w = weights if w is None else w * weights
    if w is None:
        total = torch.tensor(float(n), dtype=x.dtype, device=x.device)
        mean = x.mean(1, keepdim=True)
    else:
        w = w.to(x.dtype)
        total = w.sum()
        mean = (x * w).sum(1, keepdim=True) / total
    if w is None or correction == 0:
        norm = total - correction
    elif aweights is None:
        norm = total - correction
    else:
        norm = total - correction * (w * aweights.to(x.dtype)).sum() / total
    norm = norm.clamp(min=0)
    centred = x - mean
    c = torch.mm(centred if w is None else centred * w, centred.t()) / norm
    return c.squeeze() if input.dim() < 2 else c


def corrcoef(input):
    """The Pearson correlation coefficients of the variables in input's rows, clipped to [-1, 1]."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    std = torch.sqrt(torch.diagonal(c))
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    return c.clamp(-1, 1)


_nanmedian_type = collections.namedtuple("nanmedian", ["values", "indices"])
_nanmedian_type.__module__ = "torch.return_types"
setattr(torch.return_types, "nanmedian", _nanmedian_type)


def nanmedian(input, dim=None, keepdim=False, *, out=None):
    """The lower median of the values that are not NaN (NaN when all are); with dim, the
    medians along it and their indices."""
    _check_tensor("nanmedian", "input", 1, input)
    if dim is None:
        flat = input.reshape(-1)
        if flat.numel() == 0:
            return torch.tensor(nan, dtype=input.dtype, device=input.device)
        order = torch.sort(_comparable(flat)).indices
        count = builtins.int((flat == flat).sum().item())
        return flat[order[builtins.max(count - 1, 0) // 2]]
    (d,) = _dims("nanmedian", input, dim)
    x = input if input.dim() else input.reshape(1)
    if x.shape[d] == 0:
        raise IndexError("nanmedian(): Expected reduction dim %d to have non-zero size." % d)
    order = torch.sort(_comparable(x), d).indices
    count = (x == x).sum(d, keepdim=True)
    at = torch.gather(order, d, ((count - 1).clamp(min=0) // 2))
    values, indices = torch.gather(x, d, at), at
    if not keepdim or input.dim() == 0:
        values, indices = values.squeeze(d), indices.squeeze(d)
    if input.dim() == 0:
        values, indices = values.reshape(()), indices.reshape(())
    result = _nanmedian_type(values, indices)
    if out is None:
        return result
    return _nanmedian_type(_write_out(out[0], values.detach()), _write_out(out[1], indices))


# ---------------------------------------------------------------------------------------------
# splitting and run lengths
# ---------------------------------------------------------------------------------------------


def _split_at(input, bounds, d):
    size = input.shape[d]
    cuts = [builtins.min(builtins.max(b, 0), size) for b in bounds]
    starts, ends = [0] + cuts, cuts + [size]
    return tuple(input.narrow(d, s, builtins.max(e - s, 0)) for s, e in zip(starts, ends))


def tensor_split(input, indices_or_sections, dim=0):
    """input split along dim into n nearly equal parts (the first size % n one longer), or at
    the given indices."""
    _check_tensor("tensor_split", "input", 1, input)
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    (d,) = _dims("tensor_split", input, dim)
    split = indices_or_sections
    if isinstance(split, Tensor):
        if split.dtype != torch.int64 or split.dim() > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                "one-dimensional tensor, but got a tensor with %d dims" % split.dim()
            )
        split = split.item() if split.dim() == 0 else split.tolist()
    if isinstance(split, numbers.Integral):
        if split <= 0:
            raise RuntimeError("number of sections must be larger than 0, got %d" % split)
        size = input.shape[d]
        small, extra = divmod(size, split)
        bounds, at = [], 0
        for i in range(split - 1):
            at += small + (1 if i < extra else 0)
            bounds.append(at)
        return _split_at(input, bounds, d)
    return _split_at(input, [operator.index(b) for b in split], d)


def _split_by(fname, input, split, d, least):
    _check_tensor(fname, "input", 1, input)
    if input.dim() < least:
        raise RuntimeError(
            "torch.%s requires a tensor with at least %d dimension%s, but got a tensor with %d dimensions!"
            % (fname, least, "" if least == 1 else "s", input.dim())
        )
    if isinstance(split, numbers.Integral) and not isinstance(split, builtins.bool):
        if split == 0 or input.shape[d] % split:
            raise RuntimeError(
                "torch.%s attempted to split along dimension %d, but the size of the dimension %d is not "
                "divisible by the split_size %d!" % (fname, d, input.shape[d], split)
            )
    return tensor_split(input, split, d)


def hsplit(input, indices_or_sections):
    """tensor_split along dim 1 (dim 0 of a one-dimensional tensor); sections must divide it."""
    return _split_by("hsplit", input, indices_or_sections, 1 if input.dim() > 1 else 0, 1)


def vsplit(input, indices_or_sections):
    """tensor_split along dim 0 of a tensor of two or more dims; sections must divide it."""
    return _split_by("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """tensor_split along dim 2 of a tensor of three or more dims; sections must divide it."""
    return _split_by("dsplit", input, indices_or_sections, 2, 3)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """input with each run of equal consecutive elements (slices along dim) kept once, and
    optionally where each element went and how long each run is."""
    _check_tensor("unique_consecutive", "input", 1, input)
    if dim is None:
        x = input.reshape(-1)
        d = 0
    else:
        (d,) = _dims("unique_consecutive", input, dim)
        x = input
    size = x.shape[d] if x.dim() else 1
    if size == 0:
        starts = torch.zeros(0, dtype=torch.bool, device=x.device)
    else:
        rest = x.movedim(d, 0).reshape(size, -1)
        differs = (
            (rest[1:] != rest[:-1]).any(1)
            if rest.shape[1]
            else torch.zeros(size - 1, dtype=torch.bool, device=x.device)
        )
        starts = torch.cat([torch.ones(1, dtype=torch.bool, device=x.device), differs])
    positions = starts.nonzero().reshape(-1)
    output = x.index_select(d, positions) if x.dim() else x
    result = [output]
    if return_inverse:
        inverse = starts.to(torch.int64).cumsum(0) - 1
        result.append(inverse.reshape(input.shape) if dim is None else inverse)
    if return_counts:
        result.append(diff(positions, append=torch.tensor([size], device=positions.device)))
    return result[0] if len(result) == 1 else tuple(result)


# ---------------------------------------------------------------------------------------------
# membership and pairwise distances
# ---------------------------------------------------------------------------------------------


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each element of elements is one of test_elements (the opposite with invert)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        _check_tensor("isin", "elements", 1, elements)
    device = elements.device if isinstance(elements, Tensor) else test_elements.device
    e = elements if isinstance(elements, Tensor) else torch.tensor(elements, device=device)
    t = test_elements if isinstance(test_elements, Tensor) else torch.tensor(test_elements, device=device)
    e, t = _comparable(e), _comparable(t).reshape(-1)
    found = (e.unsqueeze(-1) == t).any(-1) if t.numel() else torch.zeros(e.shape, dtype=torch.bool, device=e.device)
    return ~found if invert else found


def pdist(input, p=2):
    """The p-norm distances between the rows of a two-dimensional input, for each pair i < j in
    row-major order."""
    _check_tensor("pdist", "input", 1, input)
    if input.dim() != 2:
        raise RuntimeError("pdist only supports 2D tensors, got: %dD" % input.dim())
    if not _is_float(input.dtype):
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input.shape[0]
    rows, cols = torch.triu_indices(n, n, 1, device=input.device)
    if n < 2:
        return torch.zeros(0, dtype=input.dtype, device=input.device)
    return (input[rows] - input[cols]).norm(p, dim=1) if p != 0 else (input[rows] != input[cols]).sum(1).to(input.dtype)


# ---------------------------------------------------------------------------------------------
# creation: windows, arrays and buffers
# ---------------------------------------------------------------------------------------------


def _window(fname, window_length, periodic, dtype, terms, device=None):
    """sum_k c_k cos(k 2 pi n / (N - 1)) for n < window_length, with N = window_length + 1 when
    periodic (one period of a periodic signal), as a tensor of dtype."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    if not _is_float(dtype):
        raise RuntimeError("%s expects floating point dtypes, got: %s" % (fname, _TYPE_NAME[dtype]))
    if window_length < 0:
        raise RuntimeError("%s requires non-negative window_length, got window_length=%d" % (fname, window_length))
    if window_length <= 1:
        return torch.ones(window_length, dtype=dtype, device=device)
    n = torch.arange(window_length, dtype=torch.float64, device=device)
    step = 2 * math.pi / (window_length if periodic else window_length - 1)
    return terms(n * step, n, window_length if periodic else window_length - 1).to(dtype)


def _cosine_sum(*coefficients):
    return lambda phase, n, m: sum(c * torch.cos(k * phase) for k, c in enumerate(coefficients))


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """0.5 - 0.5 cos(2 pi n / (N - 1))."""
    w = _window("hann_window", window_length, periodic, dtype, _cosine_sum(0.5, -0.5), device)
    return w.requires_grad_(requires_grad)


def hamming_window(
    window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None, requires_grad=False
):
    """alpha - beta cos(2 pi n / (N - 1))."""
    w = _window("hamming_window", window_length, periodic, dtype, _cosine_sum(alpha, -beta), device)
    return w.requires_grad_(requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))."""
    w = _window("blackman_window", window_length, periodic, dtype, _cosine_sum(0.42, -0.5, 0.08), device)
    return w.requires_grad_(requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The triangle 1 - |2 n / (N - 1) - 1|."""
    w = _window(
        "bartlett_window", window_length, periodic, dtype, lambda phase, n, m: 1 - (2 * n / m - 1).abs(), device
    )
    return w.requires_grad_(requires_grad)


def kaiser_window(
    window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None, requires_grad=False
):
    """i0(beta sqrt(1 - (2 n / (N - 1) - 1) ^ 2)) / i0(beta)."""

    def terms(phase, n, m):
        r = 2 * n / m - 1
        return torch.special.i0(beta * torch.sqrt((1 - r * r).clamp(min=0))) / torch.special.i0(
            torch.tensor(float(beta), dtype=torch.float64)
        )

    return _window("kaiser_window", window_length, periodic, dtype, terms, device).requires_grad_(requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """obj as a tensor, sharing memory with a tensor or numpy array when dtype allows and copy is not True."""
    if isinstance(obj, Tensor):
        t = obj if dtype is None or dtype == obj.dtype else obj.to(dtype)
        t = t.clone() if copy and t is obj else t
    else:
        try:
            import numpy

            shares = isinstance(obj, numpy.ndarray) and not copy
        except ImportError:
            shares = False
        t = torch.from_numpy(obj) if shares else torch.tensor(obj)
        if dtype is not None and t.dtype != dtype:
            t = t.to(dtype)
    if device is not None:
        t = t.to(device)  # itself when it is there already
    return t.requires_grad_(requires_grad) if requires_grad else t


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A one-dimensional tensor over the memory of an object with the buffer protocol (no copy)."""
    import numpy

    np_types = {
        torch.uint8: numpy.uint8,
        torch.int8: numpy.int8,
        torch.int16: numpy.int16,
        torch.int32: numpy.int32,
        torch.int64: numpy.int64,
        torch.float16: numpy.float16,
        torch.float32: numpy.float32,
        torch.float64: numpy.float64,
        torch.bool: numpy.bool_,
    }
    array = numpy.frombuffer(buffer, dtype=np_types[dtype], count=count, offset=offset)
    if not array.flags.writeable:
        warnings.warn(
            "The given buffer is not writable, and PyTorch does not support non-writable tensors. This means "
            "you can write to the underlying (supposedly non-writable) buffer using the tensor."
        )
        array.flags.writeable = True if array.base is None else array.flags.writeable
    t = torch.from_numpy(array) if array.flags.writeable else torch.from_numpy(array.copy())
    return t.requires_grad_(requires_grad) if requires_grad else t


# ---------------------------------------------------------------------------------------------
# histograms, differences and floating point neighbours
# ---------------------------------------------------------------------------------------------

_histogram_type = collections.namedtuple("histogram", ["hist", "bin_edges"])
_histogram_type.__module__ = "torch.return_types"
setattr(torch.return_types, "histogram", _histogram_type)


def histogram(input, bins, *, range=None, weight=None, density=False, out=None):
    """The counts (or summed weights) of input's elements in bins: given edges, or that many
    equal bins over range (input's min and max by default); each bin holds its left edge, the
    last one its right edge too; elements outside are not counted."""
    _check_tensor("histogram", "input", 1, input)
    if not _is_float(input.dtype):
        raise RuntimeError('"histogram_cpu" not implemented for \'%s\'' % _TYPE_NAME[input.dtype])
    x = input.detach().reshape(-1)
    if isinstance(bins, Tensor):
        edges = bins.detach().to(input.dtype)
    else:
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
        elif x.numel():
            lo, hi = x.min().item(), x.max().item()
        else:
            lo, hi = 0.0, 0.0
        if lo > hi:
            raise RuntimeError("torch.histogram(): max must be larger than min")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = torch.linspace(lo, hi, bins + 1, dtype=input.dtype)
    count = edges.numel() - 1
    where = torch.searchsorted(edges, x, right=True) - 1
    where = torch.where(x == edges[-1], count - 1, where)
    inside = (where >= 0) & (where < count) & (x >= edges[0]) & (x <= edges[-1])
    w = torch.ones_like(x) if weight is None else weight.detach().reshape(-1).to(input.dtype)
    hist = torch.zeros(count, dtype=input.dtype).index_add_(0, where[inside], w[inside])
    if density:
        hist = hist / (hist.sum() * (edges[1:] - edges[:-1]))
    if out is not None:
        return _histogram_type(_write_out(out[0], hist), _write_out(out[1], edges))
    return _histogram_type(hist, edges)


_histogramdd_type = collections.namedtuple("histogramdd", ["hist", "bin_edges"])
_histogramdd_type.__module__ = "torch.return_types"
torch.return_types.histogramdd = _histogramdd_type


def histogramdd(input, bins, *, range=None, weight=None, density=False, out=None):
    """The D-dimensional histogram of the points input (..., D): bins an int, D ints or D
    tensors of edges; range [min_0, max_0, ..., min_{D-1}, max_{D-1}] (the points' own by
    default). Each dimension's bins are histogram's; a point outside any is not counted."""
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if not _is_float(input.dtype):
        raise RuntimeError('"histogramdd" not implemented for \'%s\'' % _TYPE_NAME[input.dtype])
    D = input.shape[-1]
    points = input.detach().reshape(-1, D)
    if isinstance(bins, int):
        bins = [bins] * D
    if len(bins) < D:
        raise RuntimeError("torch.histogram(): bins must be > 0, but got 0 for dimension %d" % len(bins))
    bins = list(bins)[:D]  # (PyTorch 1.13 ignores any beyond the D it needs)
    if range is not None and len(range) != 2 * D:
        raise RuntimeError(
            "torch.histogramdd: for a %d-dimensional histogram range should have %d elements, but got %d"
            % (D, 2 * D, len(range))
        )
    edges, places, inside = [], [], torch.ones(points.shape[0], dtype=torch.bool)
    for d in builtins.range(D):
        r = None if range is None else (range[2 * d], range[2 * d + 1])
        b = bins[d]
        e = histogram(points[:, d], b if isinstance(b, Tensor) else int(b), range=r).bin_edges
        x = points[:, d]
        count = e.numel() - 1
        where = torch.searchsorted(e, x, right=True) - 1
        where = torch.where(x == e[-1], count - 1, where)
        inside = inside & (where >= 0) & (where < count) & (x >= e[0]) & (x <= e[-1])
        edges.append(e)
        places.append(where)
    sizes = [e.numel() - 1 for e in edges]
    flat = torch.zeros(points.shape[0], dtype=torch.int64)
    for where, size in zip(places, sizes):
        flat = flat * size + where.clamp(0, max(size - 1, 0))
    w = (
        torch.ones(points.shape[0], dtype=input.dtype)
        if weight is None
        else weight.detach().reshape(-1).to(input.dtype)
    )
    total = 1
    for size in sizes:
        total *= size
    hist = torch.zeros(total, dtype=input.dtype).index_add_(0, flat[inside], w[inside]).reshape(sizes)
    if density:
        volume = torch.ones(sizes, dtype=input.dtype)
        for d, e in enumerate(edges):
            shape = [1] * D
            shape[d] = -1
            volume = volume * (e[1:] - e[:-1]).reshape(shape)
        hist = hist / (hist.sum() * volume)
    if out is not None:
        _write_out(out[0], hist)
        return _histogramdd_type(out[0], tuple(edges))
    return _histogramdd_type(hist, tuple(edges))


def _gradient_along(f, d, coords, h, edge_order):
    n = f.shape[d]
    if n < edge_order + 1:
        raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1, but got %d" % n)

    def at(lo, length):
        return f.narrow(d, lo, length)

    shape = [1] * f.dim()
    shape[d] = -1
    if coords is None:
        interior = (at(2, n - 2) - at(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first, last = (at(1, 1) - at(0, 1)) / h, (at(n - 1, 1) - at(n - 2, 1)) / h
        else:
            first = (-1.5 * at(0, 1) + 2 * at(1, 1) - 0.5 * at(2, 1)) / h
            last = (0.5 * at(n - 3, 1) - 2 * at(n - 2, 1) + 1.5 * at(n - 1, 1)) / h
        return torch.cat([first, interior, last], d)
    dx = (coords[1:] - coords[:-1]).to(f.dtype if _is_float(f.dtype) else torch.get_default_dtype())
    hd, hs = dx[:-1].reshape(shape), dx[1:].reshape(shape)
    interior = (hd * hd * at(2, n - 2) - hs * hs * at(0, n - 2) + (hs * hs - hd * hd) * at(1, n - 2)) / (
        hs * hd * (hd + hs)
    )
    if edge_order == 1:
        first = (at(1, 1) - at(0, 1)) / dx[0]
        last = (at(n - 1, 1) - at(n - 2, 1)) / dx[-1]
    else:
        a1, a2 = dx[0], dx[1]
        first = (
            -(2 * a1 + a2) / (a1 * (a1 + a2)) * at(0, 1)
            + (a1 + a2) / (a1 * a2) * at(1, 1)
            - a1 / (a2 * (a1 + a2)) * at(2, 1)
        )
        b1, b2 = dx[-2], dx[-1]
        last = (
            b2 / (b1 * (b1 + b2)) * at(n - 3, 1)
            - (b1 + b2) / (b1 * b2) * at(n - 2, 1)
            + (2 * b2 + b1) / (b2 * (b1 + b2)) * at(n - 1, 1)
        )
    return torch.cat([first, interior, last], d)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """The derivative of input along each dim by central differences (one-sided ones of order
    edge_order at the ends), for unit or scalar spacings or sample coordinates; a tuple, one
    tensor per dim."""
    _check_tensor("gradient", "input", 1, input)
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, numbers.Integral) else list(dim))
    dims = [d % input.dim() for d in dims]
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            raise RuntimeError(
                "torch.gradient expected spacing to be unspecified, a scalar or a list of length equal to "
                "'self.dim() = %d', since dim argument was not given, but got a list of length %d"
                % (len(dims), len(spacing))
            )
        spacings = list(spacing)
    else:
        spacings = [spacing] * len(dims)
    f = input if _is_float(input.dtype) else input.to(torch.get_default_dtype())
    results = []
    for d, s in zip(dims, spacings):
        if isinstance(s, Tensor) and s.dim() == 1:
            results.append(_gradient_along(f, d, s, None, edge_order))
        else:
            h = s.item() if isinstance(s, Tensor) else s
            results.append(_gradient_along(f, d, None, h, edge_order))
    return tuple(results)


def nextafter(input, other, *, out=None):
    """The next floating point number after input in the direction of other."""
    x, y, dtype = _binary("nextafter", input, other, other_may_be_number=False)
    if not _is_float(dtype):
        raise RuntimeError('"nextafter_cpu" not implemented for \'%s\'' % _TYPE_NAME[dtype])
    import numpy

    def compute():
        # a bit-level operation: numpy's, on the values (nextafter has no derivative)
        a, b = (v.detach().to(dtype).cpu().contiguous().numpy() for v in (x, y))  # on the host, then back
        return torch.from_numpy(numpy.nextafter(a, b)).to(x.device)

    return _finish("nextafter", out, compute, dtype, (input, other))


# ---------------------------------------------------------------------------------------------
# writing a tensor into a slice of a copy: select, slice and diagonal scatters
# ---------------------------------------------------------------------------------------------


def _check_embedded(fname, src, expected):
    if tuple(src.shape) != tuple(expected):
        raise RuntimeError(
            "%s: src must have shape %s (the shape of the slice it replaces), got %s"
            % (fname, list(expected), list(src.shape))
        )


def select_scatter(input, src, dim, index):
    """A copy of input with input.select(dim, index) replaced by src."""
    d = dim % input.dim()
    _check_embedded("select_scatter", src, input.select(d, index).shape)
    i = index % input.shape[d]
    parts = [input.narrow(d, 0, i), src.unsqueeze(d).to(input.dtype), input.narrow(d, i + 1, input.shape[d] - i - 1)]
    return torch.cat(parts, d)


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of input with input[..., start:end:step, ...] (in dim dim) replaced by src."""
    d = dim % input.dim()
    positions = builtins.range(input.shape[d])[slice(start, end, step)]
    index = torch.tensor(list(positions), dtype=torch.int64, device=input.device)
    expected = list(input.shape)
    expected[d] = len(positions)
    _check_embedded("slice_scatter", src, expected)
    return input.index_copy(d, index, src.to(input.dtype))


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of input with input.diagonal(offset, dim1, dim2) replaced by src."""
    _check_embedded("diagonal_scatter", src, input.diagonal(offset, dim1, dim2).shape)
    d1, d2 = dim1 % input.dim(), dim2 % input.dim()
    embedded = torch.diag_embed(src.to(input.dtype), offset, d1, d2)
    mask = torch.diag_embed(torch.ones(src.shape, dtype=torch.bool, device=src.device), offset, d1, d2)
    # diag_embed makes the two dims as long as the diagonal plus |offset|: cut or pad them to input's
    for d in (d1, d2):
        have, want = embedded.shape[d], input.shape[d]
        if have >= want:
            embedded, mask = embedded.narrow(d, 0, want), mask.narrow(d, 0, want)
        else:
            extra = list(embedded.shape)
            extra[d] = want - have
            embedded = torch.cat([embedded, torch.zeros(extra, dtype=embedded.dtype, device=src.device)], d)
            mask = torch.cat([mask, torch.zeros(extra, dtype=torch.bool, device=src.device)], d)
    return torch.where(mask, embedded, input)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of input with input.as_strided(size, stride, storage_offset) replaced by src
    (the strides counted in input's contiguous layout)."""
    size, stride = list(size), list(stride)
    if list(src.shape) != size:
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = %s, slice size = %s"
            % (list(src.shape), size)
        )
    offset = input.storage_offset() if storage_offset is None else storage_offset
    positions = torch.full(size, offset, dtype=torch.int64)
    for d, (n, st) in enumerate(zip(size, stride)):
        view = [1] * len(size)
        view[d] = n
        positions = positions + torch.arange(n).view(view) * st
    flat = input.contiguous().reshape(-1)
    if positions.numel() and (int(positions.max()) >= flat.numel() or int(positions.min()) < 0):
        raise RuntimeError("setStorage: sizes %s, strides %s, storage offset %d out of bounds" % (size, stride, offset))
    out = flat.index_put((positions.reshape(-1),), src.reshape(-1).to(input.dtype))
    return out.reshape(input.shape)


# ---------------------------------------------------------------------------------------------
# Tensor methods of the same names (PyTorch has them for these functions, not for the others)
# ---------------------------------------------------------------------------------------------


def _clone_method(self, *, memory_format=None):
    return clone(self, memory_format=memory_format)


_clone_method.__doc__ = clone.__doc__
Tensor.clone = _clone_method

for _name in (
    "is_complex isnan isinf isfinite isposinf isneginf signbit nan_to_num square sgn exp2 deg2rad rad2deg logit "
    "xlogy hypot logaddexp logaddexp2 copysign heaviside float_power fmax fmin clamp_min clamp_max nansum "
    "nanmean aminmax msort ravel broadcast_to inner take_along_dim diff cummax cummin bincount quantile nanquantile "
    "acosh asinh atanh gcd lcm ldexp frexp logcumsumexp cov corrcoef nanmedian tensor_split hsplit vsplit dsplit "
    "unique_consecutive histogram nextafter select_scatter slice_scatter diagonal_scatter as_strided_scatter"
).split():
    setattr(Tensor, _name, globals()[_name])


def _make_inplace(name):
    fn = globals()[name]

    def method(self, *args, **kwargs):
        return _inplace(name, self, fn(self, *args, **kwargs))

    method.__name__ = name + "_"
    method.__doc__ = "In-place torch.%s: the result written into self." % name
    return method


for _name in (
    "nan_to_num square sgn exp2 deg2rad rad2deg logit xlogy hypot copysign heaviside clamp_min clamp_max acosh asinh "
    "atanh gcd lcm ldexp nextafter"
).split():
    setattr(Tensor, _name + "_", _make_inplace(_name))


def _float_power_(self, exponent):
    if self.dtype != torch.float64:
        raise RuntimeError(
            "the base given to float_power_ has dtype %s but the operation's result requires dtype Double"
            % _TYPE_NAME[self.dtype]
        )
    return _inplace("float_power", self, float_power(self, exponent))


Tensor.float_power_ = _float_power_
del _name
