"""Complex tensors and torch.fft: every case of complex_cases.py gives what real PyTorch 1.13
gives; the transforms agree with numpy.fft; their gradients agree with numerical ones; and
torch.save files of complex tensors load both ways between this package and PyTorch 1.13."""

import os

import numpy as np
import pytest

import complex_cases
import torch
from real_pytorch import assert_case_matches, real_results, run_real_python

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def theirs(tmp_path_factory):
    return real_results("complex_cases.py", tmp_path_factory.mktemp("complex"))


@pytest.mark.parametrize("case", complex_cases.CASES, ids=lambda c: c.__name__)
def test_case_as_pytorch_1_13(case, theirs):
    ours = [np.asarray(a) for a in case(torch)]
    # float32 results (complex64 included) agree to float32's rounding
    assert_case_matches(case, ours, theirs, rtol=2e-5, atol=1e-6)


# ---- against numpy.fft, an independent implementation ----

_X = np.random.default_rng(0).standard_normal((5, 6))
_Z = _X + 1j * np.random.default_rng(1).standard_normal((5, 6))

NUMPY_CASES = [
    ("fft", _Z, dict(), dict()),
    ("fft", _X, dict(n=8, dim=0), dict(n=8, axis=0)),
    ("ifft", _Z, dict(n=3), dict(n=3)),
    ("rfft", _X, dict(), dict()),
    ("irfft", _Z, dict(n=11), dict(n=11)),
    ("hfft", _Z, dict(), dict()),
    ("ihfft", _X, dict(dim=0), dict(axis=0)),
    ("fft2", _Z, dict(s=(4, 7)), dict(s=(4, 7))),
    ("ifft2", _Z, dict(), dict()),
    ("fftn", _X, dict(), dict()),
    ("ifftn", _Z, dict(dim=(1,)), dict(axes=(1,))),
    ("rfft2", _X, dict(), dict()),
    ("irfft2", _Z, dict(s=(5, 9)), dict(s=(5, 9))),
    ("rfftn", _X, dict(s=(3, 3)), dict(s=(3, 3), axes=(0, 1))),
    ("irfftn", _Z, dict(), dict()),
]


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("name,data,ours_kw,numpy_kw", NUMPY_CASES, ids=[c[0] for c in NUMPY_CASES])
def test_fft_as_numpy(name, data, ours_kw, numpy_kw, norm):
    got = getattr(torch.fft, name)(torch.from_numpy(data), norm=norm, **ours_kw)
    want = getattr(np.fft, name)(data, norm=norm, **numpy_kw)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)


def test_fft_helpers_as_numpy():
    np.testing.assert_allclose(torch.fft.fftfreq(9, 0.1).numpy(), np.fft.fftfreq(9, 0.1), rtol=1e-6)
    np.testing.assert_allclose(torch.fft.rfftfreq(10).numpy(), np.fft.rfftfreq(10), rtol=1e-6)
    np.testing.assert_array_equal(torch.fft.fftshift(torch.from_numpy(_Z)).numpy(), np.fft.fftshift(_Z))
    np.testing.assert_array_equal(
        torch.fft.ifftshift(torch.from_numpy(_X), dim=(0,)).numpy(), np.fft.ifftshift(_X, axes=(0,))
    )


# ---- products against numpy (Debian's PyTorch 1.13 gives 0 for complex dot and vdot: its BLAS's
# complex-return convention, so numpy is the reference here) ----


def test_products_as_numpy():
    a, b = _Z[0], _Z[1]
    m = _Z[:, :5]
    ta, tb, tm = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(m)
    np.testing.assert_allclose(torch.dot(ta, tb).numpy(), np.dot(a, b), rtol=1e-12)
    np.testing.assert_allclose(torch.vdot(ta, tb).numpy(), np.vdot(a, b), rtol=1e-12)
    np.testing.assert_allclose((ta @ tb).numpy(), a @ b, rtol=1e-12)
    np.testing.assert_allclose(torch.outer(ta, tb).numpy(), np.outer(a, b), rtol=1e-12)
    np.testing.assert_allclose(torch.mv(tm, ta[:5]).numpy(), m @ a[:5], rtol=1e-12)
    np.testing.assert_allclose((tm @ tm.mH).numpy(), m @ m.conj().T, rtol=1e-12)


# ---- gradients against finite differences ----


def _numerical_grad(loss, x, eps=1e-6):
    """dL/dx by central differences; for complex x, dL/dRe + i dL/dIm (PyTorch's convention)."""
    flat = x.reshape(-1)
    grad = np.zeros(flat.shape, dtype=x.dtype)
    for i in range(flat.size):
        for unit in [1.0, 1j] if np.iscomplexobj(x) else [1.0]:
            up, down = flat.copy(), flat.copy()
            up[i] += eps * unit
            down[i] -= eps * unit
            slope = (loss(up.reshape(x.shape)) - loss(down.reshape(x.shape))) / (2 * eps)
            grad[i] += slope * unit
    return grad.reshape(x.shape)


GRADIENT_CASES = [
    ("rfft_abs", _X, lambda t: torch.fft.rfft(t).abs().sum()),
    ("fft_real_ortho", _X, lambda t: (torch.fft.fft(t, norm="ortho").real * torch.arange(6.0)).sum()),
    ("rfft_padded", _X, lambda t: torch.view_as_real(torch.fft.rfft(t, n=9)).pow(2).sum()),
    ("irfft_of_rfft", _X, lambda t: torch.fft.irfft(torch.fft.rfft(t) * (1 + 2j), n=6).pow(3).sum()),
    ("rfft2_forward", _X, lambda t: torch.fft.rfft2(t, norm="forward").abs().sum()),
    ("ifft_complex", _Z, lambda t: torch.fft.ifft(t).abs().sum()),
    ("irfft_complex", _Z, lambda t: (torch.fft.irfft(t) * torch.arange(10.0)).sum()),
    ("hfft_complex", _Z, lambda t: torch.fft.hfft(t, n=7).pow(2).sum()),
    ("ihfftn", _X, lambda t: torch.fft.ihfftn(t).imag.sum()),
    ("complex_ops", _Z, lambda t: ((t * t / (t + 3)).exp().real + t.abs() + t.angle()).sum()),
]


@pytest.mark.parametrize("name,data,loss", GRADIENT_CASES, ids=[c[0] for c in GRADIENT_CASES])
def test_gradient_as_finite_differences(name, data, loss):
    x = torch.from_numpy(data).requires_grad_()
    (got,) = torch.autograd.grad(loss(x), x)
    with torch.no_grad():
        want = _numerical_grad(lambda a: loss(torch.from_numpy(a)).item(), data)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


# ---- memory sharing ----


def test_views_share_memory():
    z = torch.zeros(3, dtype=torch.cfloat)
    torch.view_as_real(z)[1, 0] = 2.0
    z.imag[2] = -1.0
    n = z.numpy()
    n[0] = 5 + 5j
    assert z.tolist() == [5 + 5j, 2 + 0j, -1j]
    back = torch.from_numpy(n)
    back[1] = 7j
    assert complex(z[1]) == 7j


# ---- torch.save / torch.load across this package and PyTorch 1.13 ----

_SAVE = """
import sys, torch
z = torch.tensor([[1 + 2j, -3j], [0.5, 4 - 1j]])
torch.save({"c64": z, "c128": z.to(torch.complex128)[1:], "real": z.real.clone()}, sys.argv[1])
"""
_LOAD = """
import sys, torch
d = torch.load(sys.argv[1])
print(repr(d["c64"]), repr(d["c128"]), repr(d["real"]), d["c64"].dtype, d["c128"].dtype)
"""


def test_save_load_with_pytorch_1_13(tmp_path):
    ours_file, theirs_file = str(tmp_path / "ours.pt"), str(tmp_path / "theirs.pt")
    z = torch.tensor([[1 + 2j, -3j], [0.5, 4 - 1j]])
    torch.save({"c64": z, "c128": z.to(torch.complex128)[1:], "real": z.real.clone()}, ours_file)
    run_real_python(_SAVE, theirs_file)
    real_load = run_real_python(_LOAD, ours_file)
    d = torch.load(theirs_file)
    ours_text = "%r %r %r %s %s\n" % (d["c64"], d["c128"], d["real"], d["c64"].dtype, d["c128"].dtype)
    assert ours_text == real_load
