"""torch.fft: discrete Fourier transforms, as PyTorch 1.13's module.

Every transform is one of three primitives of the core (torch._C._fft_c2c, _fft_r2c, _fft_c2r,
pocketfft underneath, with their gradients), called the way PyTorch's own spectral ops call
them: `n`/`s` trim or zero-pad the signal first, `norm` is "backward" (the default: no scaling
forward, 1/n back), "ortho" (1/sqrt(n) both ways) or "forward" (1/n forward, none back).
"""

import sys  # noqa: F401  (a public name of PyTorch's module)

import torch
from torch import Tensor, _C  # noqa: F401
from torch.amp.autocast_mode import float32_under_autocast

common_args = {
    "input": "input (Tensor): the input tensor.",
    "generator": "generator (:class:`torch.Generator`, optional): a pseudorandom number generator for sampling",
    "out": "out (Tensor, optional): the output tensor.",
    "memory_format": "memory_format (:class:`torch.memory_format`, optional): the desired memory format of\n"
    "        returned tensor. Default: ``torch.preserve_format``.",
}
factory_common_args = dict(
    common_args,
    dtype="dtype (:class:`torch.dtype`, optional): the desired data type of returned tensor.\n"
    "        Default: if ``None``, uses a global default (see :func:`torch.set_default_tensor_type`).",
    layout="layout (:class:`torch.layout`, optional): the desired layout of returned Tensor.\n"
    "        Default: ``torch.strided``.",
    device="device (:class:`torch.device`, optional): the desired device of returned tensor.\n"
    "        Default: if ``None``, uses the current device for the default tensor type\n"
    "        (see :func:`torch.set_default_tensor_type`). :attr:`device` will be the CPU\n"
    "        for CPU tensor types and the current CUDA device for CUDA tensor types.",
    requires_grad="requires_grad (bool, optional): If autograd should record operations on the\n"
    "        returned tensor. Default: ``False``.",
    pin_memory="pin_memory (bool, optional): If set, returned tensor would be allocated in\n"
    "        the pinned memory. Works only for CPU tensors. Default: ``False``.",
)

# the primitives' normalization argument
_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _norm(norm, forward):
    """The primitive's scaling for norm, in the transform's direction."""
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError('Invalid normalization mode: "%s"' % (norm,))


def _check(input, name):
    if not isinstance(input, Tensor):
        raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s" % (name, type(input).__name__))


def _promote(x, require_complex=False):
    """Integers compute in the default float type; real inputs become complex where needed."""
    if not x.is_complex():
        if not x.is_floating_point():
            x = x.to(torch.get_default_dtype())
        elif x.dtype not in (torch.float32, torch.float64):
            raise RuntimeError("Unsupported dtype %s" % str(x.dtype).replace("torch.", "").capitalize())
        if require_complex:
            x = x.to(torch.complex128 if x.dtype == torch.float64 else torch.complex64)
    return x


def _resize(x, dims, sizes):
    """x trimmed or zero-padded at the end of each of dims to sizes."""
    for d, n in zip(dims, sizes):
        have = x.shape[d]
        if have > n:
            x = x.narrow(d, 0, n)
        elif have < n:
            pad_shape = list(x.shape)
            pad_shape[d] = n - have
            x = torch.cat([x, torch.zeros(pad_shape, dtype=x.dtype)], d)
    return x


def _wrap(d, ndim):
    if not -ndim <= d < max(ndim, 1):
        raise IndexError(
            "Dimension out of range (expected to be in range of [%d, %d], but got %d)" % (-ndim, ndim - 1, d)
        )
    return d % ndim if ndim else 0


def _shape_and_dims(input, s, dim):
    """PyTorch's canonical (sizes, dims) of an n-dimensional transform's s= and dim=."""
    ndim = input.dim()
    if dim is not None:
        dim = [dim] if isinstance(dim, int) else list(dim)
        dims = [_wrap(d, ndim) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = [s] if isinstance(s, int) else list(s)
        if dim is not None:
            if len(s) != len(dims):
                raise RuntimeError("When given, dim and shape arguments must have the same length")
        else:
            if len(s) > ndim:
                raise RuntimeError("Got shape with %d values but input tensor only has %d dimensions." % (len(s), ndim))
            dims = list(range(ndim - len(s), ndim))
        sizes = [input.shape[d] if n == -1 else n for d, n in zip(dims, s)]
        for n in sizes:
            if n <= 0:
                raise RuntimeError("Invalid number of data points (%d) specified" % n)
    else:
        if dim is None:
            dims = list(range(ndim))
        sizes = [input.shape[d] for d in dims]
    return sizes, dims


def _out(result, out):
    if out is None:
        return result
    return out.resize_(result.shape).copy_(result)


# ---- one-dimensional ----


def _c2c(name, input, n, dim, norm, forward):
    if not input.is_complex():
        raise RuntimeError("%s expects a complex input tensor, but got %s" % (name, input.dtype))
    dim = _wrap(dim, input.dim())
    x = input if n is None else _resize(input, [dim], [_length(n)])
    return _C._fft_c2c(x, [dim], _norm(norm, forward), forward)


def _r2c(name, input, n, dim, norm, forward, onesided):
    if input.is_complex():
        raise RuntimeError("%s expects a real input tensor, but got %s" % (name, input.dtype))
    x = _promote(input)
    dim = _wrap(dim, x.dim())
    if n is not None:
        x = _resize(x, [dim], [_length(n)])
    r = _C._fft_r2c(x, [dim], _norm(norm, forward), onesided)
    return r if forward else r.conj()


def _c2r(name, input, n, dim, norm, forward):
    x = _promote(input, require_complex=True)
    dim = _wrap(dim, x.dim())
    n = 2 * (x.shape[dim] - 1) if n is None else n
    if n < 1:
        raise RuntimeError("Invalid number of data points (%d) specified" % n)
    x = _resize(x, [dim], [n // 2 + 1])
    if forward:
        x = x.conj()
    return _C._fft_c2r(x, [dim], _norm(norm, forward), n)


def _length(n):
    if n < 1:
        raise RuntimeError("Invalid number of data points (%d) specified" % n)
    return n


@float32_under_autocast
def fft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional discrete Fourier transform of input."""
    _check(input, "fft_fft")
    if input.is_complex():
        return _out(_c2c("fft_fft", input, n, dim, norm, True), out)
    return _out(_r2c("fft_fft", input, n, dim, norm, True, False), out)


@float32_under_autocast
def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional inverse discrete Fourier transform of input."""
    _check(input, "fft_ifft")
    if input.is_complex():
        return _out(_c2c("fft_ifft", input, n, dim, norm, False), out)
    return _out(_r2c("fft_ifft", input, n, dim, norm, False, False), out)


@float32_under_autocast
def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional Fourier transform of real input: the n // 2 + 1 non-negative frequencies."""
    _check(input, "fft_rfft")
    return _out(_r2c("rfft", input, n, dim, norm, True, True), out)


@float32_under_autocast
def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of rfft: a real signal of n points (default 2 * (input.size(dim) - 1))."""
    _check(input, "fft_irfft")
    return _out(_c2r("irfft", input, n, dim, norm, False), out)


@float32_under_autocast
def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The transform of a Hermitian-symmetric signal given by its first half: a real result."""
    _check(input, "fft_hfft")
    return _out(_c2r("hfft", input, n, dim, norm, True), out)


@float32_under_autocast
def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of hfft: the first half of the Hermitian spectrum of a real signal."""
    _check(input, "fft_ihfft")
    return _out(_r2c("ihfft", input, n, dim, norm, False, True), out)


# ---- n-dimensional ----


def _fftn(name, input, s, dim, norm, forward):
    x = _promote(input, require_complex=True)
    sizes, dims = _shape_and_dims(x, s, dim)
    x = _resize(x, dims, sizes)
    if not dims:
        return x.clone()
    return _C._fft_c2c(x, dims, _norm(norm, forward), forward)


@float32_under_autocast
def fftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional discrete Fourier transform over dim (all dimensions by default)."""
    _check(input, "fft_fftn")
    return _out(_fftn("fftn", input, s, dim, norm, True), out)


@float32_under_autocast
def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional inverse discrete Fourier transform."""
    _check(input, "fft_ifftn")
    return _out(_fftn("ifftn", input, s, dim, norm, False), out)


@float32_under_autocast
def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional discrete Fourier transform."""
    _check(input, "fft_fft2")
    return _out(_fftn("fft2", input, s, dim, norm, True), out)


@float32_under_autocast
def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional inverse discrete Fourier transform."""
    _check(input, "fft_ifft2")
    return _out(_fftn("ifft2", input, s, dim, norm, False), out)


def _rfftn(name, input, s, dim, norm):
    if input.is_complex():
        raise RuntimeError("%s expects a real-valued input tensor, but got %s" % (name, input.dtype))
    x = _promote(input)
    sizes, dims = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError("%s must transform at least one axis" % name)
    x = _resize(x, dims, sizes)
    return _C._fft_r2c(x, dims, _norm(norm, True), True)


def _last_dim_size(x, s, dims, sizes):
    """The real signal's length along the last dim: s's, or 2 * (size - 1)."""
    n = sizes[-1] if s is not None else 2 * (x.shape[dims[-1]] - 1)
    if n < 1:
        raise RuntimeError("Invalid number of data points (%d) specified" % n)
    return n


def _one_sided(name, input, s, dim):
    """The complex input of a transform to a real signal of n points along the last of dims,
    cut or padded to the n // 2 + 1 points it reads there: (input, dims, n)."""
    x = _promote(input, require_complex=True)
    sizes, dims = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError("%s must transform at least one axis" % name)
    n = _last_dim_size(x, s, dims, sizes)
    return _resize(x, dims, sizes[:-1] + [n // 2 + 1]), dims, n


def _irfftn(name, input, s, dim, norm):
    x, dims, n = _one_sided(name, input, s, dim)
    return _C._fft_c2r(x, dims, _norm(norm, False), n)


@float32_under_autocast
def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional Fourier transform of real input, the last dim one-sided."""
    _check(input, "fft_rfftn")
    return _out(_rfftn("rfftn", input, s, dim, norm), out)


@float32_under_autocast
def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of rfftn."""
    _check(input, "fft_irfftn")
    return _out(_irfftn("irfftn", input, s, dim, norm), out)


@float32_under_autocast
def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional Fourier transform of real input."""
    _check(input, "fft_rfft2")
    return _out(_rfftn("rfftn", input, s, dim, norm), out)


@float32_under_autocast
def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The inverse of rfft2."""
    _check(input, "fft_irfft2")
    return _out(_irfftn("irfftn", input, s, dim, norm), out)


def _hfftn(name, input, s, dim, norm):
    x, dims, n = _one_sided(name, input, s, dim)
    scaling = _norm(norm, True)
    if len(dims) > 1:
        x = _C._fft_c2c(x, dims[:-1], scaling, True)
    return _C._fft_c2r(x.conj(), dims[-1:], scaling, n)


def _ihfftn(name, input, s, dim, norm):
    if input.is_complex():
        raise RuntimeError("%s expects a real-valued input tensor, but got %s" % (name, input.dtype))
    x = _promote(input)
    sizes, dims = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError("%s must transform at least one axis" % name)
    x = _resize(x, dims, sizes)
    scaling = _norm(norm, False)
    r = _C._fft_r2c(x, dims[-1:], scaling, True).conj()
    if len(dims) > 1:
        r = _C._fft_c2c(r, dims[:-1], scaling, False)
    return r


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional transform of a Hermitian-symmetric signal given by its last dim's first half."""
    _check(input, "fft_hfftn")
    return _out(_hfftn("hfftn", input, s, dim, norm), out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of hfftn."""
    _check(input, "fft_ihfftn")
    return _out(_ihfftn("ihfftn", input, s, dim, norm), out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional hfftn."""
    _check(input, "fft_hfft2")
    return _out(_hfftn("hfftn", input, s, dim, norm), out)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional ihfftn."""
    _check(input, "fft_ihfft2")
    return _out(_ihfftn("ihfftn", input, s, dim, norm), out)


# ---- frequencies and shifts ----


def _freq_options(dtype, device):
    return dict(dtype=dtype or torch.get_default_dtype(), device=device)


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an n-point fft with sample spacing d: [0, 1, ..., -2, -1] / (d * n)."""
    r = torch.arange(n, **_freq_options(dtype, device))
    r[(n + 1) // 2 :] -= n
    r.mul_(1.0 / (n * d))  # a product with the reciprocal, as PyTorch rounds it
    return _out(r, out).requires_grad_(requires_grad)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an n-point rfft: [0, 1, ..., n // 2] / (d * n)."""
    r = torch.arange(n // 2 + 1, **_freq_options(dtype, device))
    r.mul_(1.0 / (n * d))
    return _out(r, out).requires_grad_(requires_grad)


def _shift(input, dim, inverse):
    dims = list(range(input.dim())) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    dims = [_wrap(d, input.dim()) for d in dims]
    shifts = [(input.shape[d] + (1 if inverse else 0)) // 2 for d in dims]
    if input.is_complex():  # rolled as the real view, whose last dim stays where it is
        return torch.view_as_complex(torch.view_as_real(input).roll(shifts, dims).contiguous())
    return input.roll(shifts, dims)


def fftshift(input, dim=None):
    """input rolled so that the zero frequency is in the middle of each of dim (all by default)."""
    _check(input, "fft_fftshift")
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    """The inverse of fftshift."""
    _check(input, "fft_ifftshift")
    return _shift(input, dim, True)
