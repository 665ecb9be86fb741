"""Complex tensors (torch.complex64 / cfloat and torch.complex128 / cdouble): their own
functions and methods, over the core's (Note [Complex tensors] in core/ops/Complex.h).

`.real` and `.imag` are views that share memory and can be assigned to, as in PyTorch;
`conj()` makes a new tensor (PyTorch's lazy conjugate bit is not kept: `is_conj()` is False).
"""

import builtins

import torch
from torch import _C
from torch._C import Tensor
from torch.functional import _check_tensor
from torch.amp.autocast_mode import float32_under_autocast

complex64 = cfloat = _C.complex64
complex128 = cdouble = _C.complex128


def view_as_real(input):
    """The (..., 2) real view of a complex tensor: its real and imaginary parts, same memory."""
    _check_tensor("view_as_real", "input", 1, input)
    return _C._view_as_real(input)


def view_as_complex(input):
    """The complex view of a (..., 2) float or double tensor, same memory."""
    _check_tensor("view_as_complex", "input", 1, input)
    return _C._view_as_complex(input)


def real(input):
    """The real parts: a view of a complex tensor, the tensor itself for a real one."""
    _check_tensor("real", "input", 1, input)
    return _C._real(input)


def imag(input):
    """The imaginary parts of a complex tensor, as a view."""
    _check_tensor("imag", "input", 1, input)
    return _C._imag(input)


def _out(result, out):
    if out is None:
        return result
    return out.resize_(result.shape).copy_(result)


def complex(real, imag, *, out=None):
    """real + i imag, from two float (or two double) tensors, broadcast."""
    _check_tensor("complex", "real", 1, real)
    _check_tensor("complex", "imag", 2, imag)
    return _out(_C._complex(real, imag), out)


@float32_under_autocast
def polar(abs, angle, *, out=None):
    """abs * (cos(angle) + i sin(angle))."""
    _check_tensor("polar", "abs", 1, abs)
    _check_tensor("polar", "angle", 2, angle)
    return _out(_C._polar(abs, angle), out)


def conj(input):
    """The complex conjugate (a new tensor); a real tensor is its own conjugate."""
    _check_tensor("conj", "input", 1, input)
    return _C._conj(input)


def conj_physical(input, *, out=None):
    """The complex conjugate, always as new memory."""
    _check_tensor("conj_physical", "input", 1, input)
    r = _C._conj(input)
    return _out(r.clone() if r is input else r, out)


def angle(input, *, out=None):
    """The argument of each number, in radians (pi for negative reals, 0 for the others)."""
    _check_tensor("angle", "input", 1, input)
    return _out(_C._angle(input), out)


def isreal(input):
    """Whether each element is real: its imaginary part is zero (always, for real tensors)."""
    _check_tensor("isreal", "input", 1, input)
    if input.is_complex():
        return _C._imag(input) == 0
    return torch.ones(input.shape, dtype=torch.bool)


def _set_real(self, value):
    real(self).copy_(value)


def _set_imag(self, value):
    imag(self).copy_(value)


for _name, _fn in {
    "view_as_real": view_as_real,
    "view_as_complex": view_as_complex,
    "real": real,
    "imag": imag,
    "complex": complex,
    "polar": polar,
    "conj": conj,
    "conj_physical": conj_physical,
    "angle": angle,
    "isreal": isreal,
}.items():
    setattr(torch, _name, _fn)
for _name, _fn in {"conj": conj, "conj_physical": conj_physical, "angle": angle, "isreal": isreal}.items():
    setattr(Tensor, _name, _fn)
Tensor.real = property(real, _set_real)
Tensor.imag = property(imag, _set_imag)
Tensor.conj_physical_ = torch.conj_physical_ = lambda self: self.copy_(conj(self))
Tensor.__complex__ = lambda self: builtins.complex(self.item())
Tensor.cfloat = lambda self: self.to(complex64)
Tensor.cdouble = lambda self: self.to(complex128)
