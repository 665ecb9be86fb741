"""Complex tensors and torch.fft, run the same way by this package and by real PyTorch 1.13
(Debian's python3-torch for /usr/bin/python3); test_complex.py compares the two runs case by
case. Each case builds its inputs from a seeded numpy generator and returns numpy arrays
(complex ones too), strings (reprs, dtypes) or the name of the exception a call raises.

Run directly (`python3 complex_cases.py OUT.npz`) it writes every case's arrays to OUT.npz,
with the `torch` that interpreter imports."""

import sys

import numpy as np


def _real(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def _complex(seed, *shape):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _error(f):
    try:
        f()
    except Exception as e:  # the exception's type is compared, its wording is ours
        return np.array(type(e).__name__)
    return np.array("no error")


def literals_and_dtypes(torch):
    a = torch.tensor([1 + 2j, 3 - 1j, -0.5j])
    b = torch.tensor([[1, 2j], [3.5, 4]], dtype=torch.complex128)
    return [
        a.numpy(),
        b.numpy(),
        np.array(str(a.dtype)),
        np.array(str(b.dtype)),
        np.array(str(torch.cfloat) + str(torch.cdouble)),
        np.array([torch.complex64.is_complex, torch.float32.is_complex, a.is_complex(), torch.is_complex(a)]),
        np.array([a.element_size(), b.element_size(), a.is_floating_point()]),
        np.array(complex(a[0].item())),
        np.array(a.tolist()),
        np.array(str(torch.finfo(torch.cfloat).eps) + str(torch.finfo(torch.cdouble).max)),
    ]


def promotion(torch):
    f = torch.ones(2)
    d = torch.ones(2, dtype=torch.float64)
    c = torch.ones(2, dtype=torch.cfloat)
    i = torch.ones(2, dtype=torch.int64)
    z0 = torch.tensor(1j)
    return [
        np.array(str((f + c).dtype)),
        np.array(str((d + c).dtype)),
        np.array(str((i * c).dtype)),
        np.array(str((f + 1j).dtype)),
        np.array(str((d * 1j).dtype)),
        np.array(str((i + 1j).dtype)),
        np.array(str((d + z0).dtype)),
        np.array(str((f + z0.to(torch.complex128)).dtype)),
        np.array(str(torch.tensor([1, 2.5, 1j]).dtype)),
        np.array(str(torch.result_type(c, d))),
    ]


def arithmetic(torch):
    x, y = _complex(1, 3, 4), _complex(2, 3, 4)
    r = _real(3, 4)
    a, b, t = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(r)
    c = a.clone()
    c += b
    c *= 2j
    d = a.clone()
    d.sub_(t, alpha=2)
    return [
        (a + b).numpy(),
        (a - b).numpy(),
        (a * b).numpy(),
        (a / b).numpy(),
        (a * t).numpy(),
        (t / a).numpy(),
        (a + 2).numpy(),
        (3 - 1j * a).numpy(),
        (-a).numpy(),
        c.numpy(),
        d.numpy(),
        torch.add(a, b, alpha=3).numpy(),
        (a.to(torch.complex64) * b.to(torch.complex64)).numpy(),
    ]


def elementwise(torch):
    z = torch.from_numpy(_complex(4, 2, 5))
    return [
        z.abs().numpy(),
        torch.abs(z.to(torch.cfloat)).numpy(),
        z.angle().numpy(),
        torch.angle(torch.tensor([-1.0, 2.0, 0.0])).numpy(),
        z.conj().resolve_conj().numpy(),
        torch.conj_physical(z).numpy(),
        z.exp().numpy(),
        z.log().numpy(),
        z.sqrt().numpy(),
        z.reciprocal().numpy(),
        z.sin().numpy(),
        z.cos().numpy(),
        torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -3.0])).numpy(),
        torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([[3.0], [4.0]])).numpy(),
        torch.isreal(torch.tensor([1 + 0j, 1j])).numpy(),
        torch.sgn(z).numpy(),
        z.sgn().numpy(),
    ]


def reductions_and_products(torch):
    a = torch.from_numpy(_complex(5, 3, 4))
    b = torch.from_numpy(_complex(6, 4, 2))
    v = torch.from_numpy(_complex(7, 4))
    batch = torch.from_numpy(_complex(8, 2, 3, 4))
    return [
        a.sum().numpy(),
        a.sum(0).numpy(),
        a.sum(-1, keepdim=True).numpy(),
        a.mean().numpy(),
        a.mean(1).numpy(),
        (a @ b).numpy(),
        torch.mm(a, b).numpy(),
        (a @ v).numpy(),
        torch.bmm(batch, batch.transpose(1, 2)).numpy(),
        torch.linalg.vector_norm(a).numpy(),
        torch.linalg.vector_norm(a, 3, dim=1).numpy(),
        torch.linalg.vector_norm(a, float("inf"), dim=0, keepdim=True).numpy(),
        torch.matmul(batch, b).numpy(),
        _error(lambda: a.real.float() @ b.to(torch.cfloat)),
        _error(lambda: a @ b.to(torch.cfloat)),
    ]


def views_and_shapes(torch):
    z = torch.from_numpy(_complex(9, 3, 4))
    r = torch.view_as_real(z)
    back = torch.view_as_complex(r)
    t = z.t()
    w = z.clone()
    w.real = torch.zeros(3, 4, dtype=torch.float64)
    w.imag[0] = 5.0
    u = torch.zeros(2, dtype=torch.cfloat)
    torch.view_as_real(u)[1, 1] = 7.0
    return [
        r.numpy(),
        np.array(list(r.shape) + list(r.stride()) + [r.storage_offset()]),
        np.array(back.data_ptr() == z.data_ptr()),
        z.real.numpy(),
        z.imag.numpy(),
        np.array(list(z.real.stride()) + list(z.imag.stride()) + [z.imag.storage_offset()]),
        t.numpy(),
        torch.view_as_real(z[1:, ::2]).numpy(),
        z.reshape(2, 6).numpy(),
        z.view(-1).numpy(),
        z.unsqueeze(0).expand(2, 3, 4).numpy(),
        z[1].numpy(),
        z.select(1, 2).numpy(),
        z.narrow(1, 1, 2).contiguous().numpy(),
        w.numpy(),
        u.numpy(),
        torch.view_as_real(torch.view_as_complex(torch.arange(12.0).reshape(3, 2, 2))[:, 1]).numpy(),
        _error(lambda: torch.view_as_complex(torch.arange(6.0).reshape(2, 3))),
        _error(lambda: torch.view_as_complex(torch.arange(8.0).reshape(2, 4)[:, ::2])),
        _error(lambda: torch.view_as_real(torch.ones(2))),
        _error(lambda: torch.ones(2).imag),
    ]


def factories_and_conversions(torch):
    torch.manual_seed(3)
    rn = torch.randn(2, 3, dtype=torch.cfloat)
    rd = torch.rand(4, dtype=torch.cdouble)
    return [
        torch.zeros(2, 2, dtype=torch.cfloat).numpy(),
        torch.ones(3, dtype=torch.complex128).numpy(),
        torch.full((2,), 1 - 2j).numpy(),
        np.array(str(torch.full((2,), 1 - 2j).dtype)),
        np.array(list(torch.empty(2, 3, dtype=torch.cfloat).shape)),
        torch.tensor([1.5, 2.0]).cfloat().numpy(),
        torch.tensor([1, 2]).cdouble().numpy(),
        torch.tensor([1.5, 2.0]).to(torch.complex64).numpy(),
        torch.tensor([1 + 1j]).to(torch.complex128).numpy(),
        torch.zeros_like(rn).numpy(),
        torch.ones_like(rd).numpy(),
        rn.numpy(),
        rd.numpy(),
        torch.tensor([1 + 2j, 3j]).real.double().numpy(),
    ]


def numpy_bridge(torch):
    n = _complex(10, 2, 3).astype(np.complex64)
    t = torch.from_numpy(n)
    t[0, 0] = 9 - 9j  # shares memory with n
    back = t.numpy()
    d = torch.from_numpy(_complex(11, 4))
    return [n, np.array(str(t.dtype)), np.array(back.dtype.str), d.numpy(), torch.tensor(np.complex128(2 - 3j)).numpy()]


def printing(torch):
    cases = [
        torch.tensor([1 + 2j, 3 - 1j]),
        torch.tensor([[1.5 + 2j, -3 - 1e-5j], [0j, 100 + 1j]]),
        torch.tensor(2 + 3j),
        torch.tensor([1j, -0.25], dtype=torch.complex128),
        torch.zeros(0, dtype=torch.cfloat),
        torch.tensor([1e10 + 1j, -0.0 - 0.0j]),
        torch.complex(torch.arange(2000.0), torch.ones(2000)),
        torch.tensor([[1 + 1j]], requires_grad=True),
    ]
    z = torch.tensor([1 + 1j, 2 - 0.5j], requires_grad=True)
    cases += [torch.fft.fft(z), torch.fft.irfft(z), torch.fft.rfft(z.real.detach().requires_grad_()), z.abs()]
    cases += [torch.view_as_real(z)]
    return [np.array(repr(t)) for t in cases]


def indexing_and_selection(torch):
    z = torch.from_numpy(_complex(20, 3, 4))
    mask = torch.from_numpy(_real(21, 3, 4) > 0)
    return [
        z[:, [0, 2]].numpy(),
        z[mask].numpy(),
        z[torch.tensor([True, False, True])].numpy(),
        z[..., 1].numpy(),
        z[[2, 0], 1:3].numpy(),
        z.index_select(1, torch.tensor([3, 0])).numpy(),
        z.flip(0).numpy(),
        z.roll(1, 1).numpy(),
        z.gather(1, torch.tensor([[0], [3], [1]])).numpy(),
        torch.where(z.real > 0, z, torch.zeros_like(z)).numpy(),
        torch.where(mask, z, 2j).numpy(),
        torch.cat([z, z[:1]]).numpy(),
        torch.stack([z, z], -1).numpy(),
        z.cumsum(1).numpy(),
        z.mH.resolve_conj().numpy(),
        z.adjoint().resolve_conj().numpy(),
        (z == z[0]).numpy(),
        (z != 1j).numpy(),
        np.array(torch.equal(z, z.clone())),
        torch.isclose(z, z + 1e-9j).numpy(),
        np.array(torch.allclose(z, z * (1 + 1e-3))),
        (z**2).numpy(),
        (z**3).numpy(),
        (z**-1).numpy(),
        (z**0.5).numpy(),
        (z**1.7).numpy(),
        (z ** torch.tensor(2.5j)).numpy(),
        torch.pow(torch.zeros(2, dtype=torch.complex128), 2.5).numpy(),
    ]


def hyperbolic_products_and_addmm(torch):
    z = torch.from_numpy(_complex(20, 3, 4))
    # large real parts, where sinh and cosh overflow and tanh must not
    big = torch.tensor([30 + 1j, -40 - 0.5j, 400 + 2j, 0.5 + 700j, 1e-8 + 1e-8j], dtype=torch.complex128)
    m = torch.from_numpy(_complex(21, 3, 3))
    batch = torch.from_numpy(_complex(22, 2, 3, 3))
    v = torch.from_numpy(_complex(23, 3))
    leaf = torch.from_numpy(_complex(24, 4)).requires_grad_()
    out = [
        z.tanh().numpy(),
        z.sinh().numpy(),
        z.cosh().numpy(),
        z.tan().numpy(),
        torch.sigmoid(z).numpy(),
        big.tanh().numpy(),
        z.prod().numpy(),
        z.prod(0).numpy(),
        z.prod(1, keepdim=True).numpy(),
        z[:, :0].prod(1).numpy(),
        torch.addmm(m, m, m).numpy(),
        torch.addmm(m, m, m, beta=0.5, alpha=2j).numpy(),
        torch.addmm(m, m, m, beta=0).numpy(),
        torch.baddbmm(batch, batch, batch, alpha=0.25).numpy(),
        torch.addbmm(m, batch, batch).numpy(),
        torch.addmv(v, m, v, beta=2).numpy(),
        torch.addr(m, v, v).numpy(),
    ]
    (leaf.tanh().abs().sum() + leaf.prod().abs()).backward()
    return out + [leaf.grad.numpy()]


def unsupported(torch):
    a = torch.tensor([1 + 2j, 3 - 1j])
    return [
        _error(lambda: a < a),
        _error(lambda: a.max()),
        _error(lambda: a.sort()),
        _error(lambda: torch.clamp(a, 0, 1)),
        _error(lambda: torch.ones(2).add_(a)),
        _error(lambda: torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))),
        _error(lambda: torch.ones(2).fill_(1j)),
        _error(lambda: torch.ones(2).mul_(1j)),
    ]


def fft_functions(torch):
    x = torch.from_numpy(_real(12, 4, 6))
    z = torch.from_numpy(_complex(13, 4, 6))
    f = x.float()
    out = []
    for norm in [None, "backward", "ortho", "forward"]:
        out += [
            torch.fft.fft(z, norm=norm).resolve_conj().numpy(),
            torch.fft.fft(x, n=9, dim=0, norm=norm).resolve_conj().numpy(),
            torch.fft.ifft(z, n=4, norm=norm).resolve_conj().numpy(),
            torch.fft.ifft(x, norm=norm).resolve_conj().numpy(),
            torch.fft.rfft(x, norm=norm).resolve_conj().numpy(),
            torch.fft.rfft(f, n=7, dim=0, norm=norm).resolve_conj().numpy(),
            torch.fft.irfft(z, norm=norm).resolve_conj().numpy(),
            torch.fft.irfft(z, n=5, dim=0, norm=norm).resolve_conj().numpy(),
            torch.fft.hfft(z, norm=norm).resolve_conj().numpy(),
            torch.fft.hfft(z, n=7, norm=norm).resolve_conj().numpy(),
            torch.fft.ihfft(x, norm=norm).resolve_conj().numpy(),
            torch.fft.fft2(z, norm=norm).resolve_conj().numpy(),
            torch.fft.ifft2(x, s=(3, 8), norm=norm).resolve_conj().numpy(),
            torch.fft.fftn(z, norm=norm).resolve_conj().numpy(),
            torch.fft.ifftn(z, s=(5,), dim=(0,), norm=norm).resolve_conj().numpy(),
            torch.fft.rfft2(x, norm=norm).resolve_conj().numpy(),
            torch.fft.irfft2(z, norm=norm).resolve_conj().numpy(),
            torch.fft.rfftn(x, s=(2, 5), norm=norm).resolve_conj().numpy(),
            torch.fft.irfftn(z, s=(4, 9), norm=norm).resolve_conj().numpy(),
            torch.fft.hfft2(z, norm=norm).resolve_conj().numpy(),
            torch.fft.ihfft2(x, norm=norm).resolve_conj().numpy(),
            torch.fft.hfftn(z, s=(3, 6), norm=norm).resolve_conj().numpy(),
            torch.fft.ihfftn(x, norm=norm).resolve_conj().numpy(),
        ]
    out += [
        torch.fft.fft(torch.arange(5)).numpy(),
        np.array(str(torch.fft.fft(f).dtype)),
        np.array(str(torch.fft.rfft(x).dtype)),
        torch.fft.fftfreq(7).numpy(),
        torch.fft.fftfreq(8, d=0.3, dtype=torch.float64).numpy(),
        torch.fft.rfftfreq(9, 2.0).numpy(),
        torch.fft.fftshift(z).numpy(),
        torch.fft.fftshift(x, dim=1).numpy(),
        torch.fft.ifftshift(z, dim=(0,)).numpy(),
        torch.fft.ifftshift(torch.arange(7)).numpy(),
        _error(lambda: torch.fft.fft(x, norm="bad")),
        _error(lambda: torch.fft.rfft(z)),
        _error(lambda: torch.fft.fft(x, n=0)),
        _error(lambda: torch.fft.fftn(x, s=(2, 3), dim=(0,))),
        _error(lambda: torch.fft.fftn(x, dim=(0, 0))),
        _error(lambda: torch.fft.fft(x, dim=2)),
    ]
    return out


def fft_gradients(torch):
    """Real losses of the transforms' outputs, back to real and complex inputs."""
    xs = _real(14, 3, 8)
    zs = _complex(15, 3, 5)
    w = torch.from_numpy(_real(16, 3, 5))
    out = []
    losses = [
        lambda x: torch.fft.rfft(x).abs().sum(),
        lambda x: (torch.fft.fft(x, norm="ortho").real * torch.arange(8.0)).sum(),
        lambda x: torch.view_as_real(torch.fft.rfft(x, n=10)).pow(2).sum(),
        lambda x: torch.fft.irfft(torch.fft.rfft(x) * 2j, n=8).pow(3).sum(),
        lambda x: torch.fft.fft2(x).abs().pow(2).sum(),
        lambda x: torch.fft.ihfft(x).imag.sum(),
        lambda x: torch.fft.rfftn(x, norm="forward").abs().mean(),
    ]
    for loss in losses:
        x = torch.from_numpy(xs).requires_grad_()
        (g,) = torch.autograd.grad(loss(x), x)
        out.append(g.resolve_conj().numpy())
    complex_losses = [
        lambda z: (torch.fft.irfft(z) * torch.arange(8.0)).sum(),
        lambda z: torch.fft.hfft(z, n=9).pow(2).sum(),
        lambda z: torch.fft.ifft(z).abs().sum(),
        lambda z: (torch.fft.fft(z * z).real * w).sum(),
        lambda z: torch.view_as_real(torch.fft.fftn(z.conj().resolve_conj())).sum(),
        lambda z: torch.fft.irfft2(z, s=(3, 6)).abs().sum(),
        lambda z: (z.abs() + z.angle()).sum(),
        lambda z: (z / (z + 3)).real.sum(),
        lambda z: (z.exp().imag + z.log().real + z.sqrt().imag + z.reciprocal().real).sum(),
        lambda z: (z.sin().real + z.cos().imag).sum(),
    ]
    for loss in complex_losses:
        z = torch.from_numpy(zs).requires_grad_()
        loss(z).backward()
        out.append(z.grad.resolve_conj().numpy())
    return out


def stft_istft(torch):
    import warnings

    x = torch.from_numpy(_real(17, 2, 50))
    w = torch.hann_window(16, dtype=torch.float64)
    s = torch.stft(x, 16, window=w, return_complex=True)
    xr = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(torch.stft(xr, 16, window=w, return_complex=True).abs().sum(), xr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        legacy = torch.stft(x, 16)
    return [
        torch.stft(x, 16, return_complex=True).numpy(),
        torch.stft(
            x[0],
            16,
            hop_length=5,
            win_length=12,
            window=torch.hann_window(12).double(),
            normalized=True,
            return_complex=True,
        ).numpy(),
        torch.stft(x, 16, center=False, window=w, onesided=False, return_complex=True).numpy(),
        torch.stft(x.to(torch.complex128), 16, window=w, return_complex=True, pad_mode="constant").numpy(),
        x[0].stft(8, return_complex=True).numpy(),
        legacy.numpy(),
        s.numpy(),
        torch.istft(s, 16, window=w).numpy(),
        torch.istft(s, 16, window=w, length=45).numpy(),
        s.istft(16, window=w, length=60).numpy(),
        torch.istft(
            torch.stft(x, 16, window=w, onesided=False, return_complex=True), 16, window=w, return_complex=True
        ).numpy(),
        g.numpy(),
        _error(lambda: torch.stft(x, 60, center=False, return_complex=True)),
        _error(lambda: torch.stft(x, 8, win_length=9, return_complex=True)),
        _error(lambda: torch.stft(x, 8, window=torch.ones(5), return_complex=True)),
        _error(lambda: torch.istft(s, 16, window=torch.zeros(16, dtype=torch.float64))),
        _error(lambda: torch.istft(s, 16, window=w, return_complex=True)),
    ]


def eig(torch):
    a = torch.from_numpy(_real(18, 4, 4))
    batch = torch.from_numpy(_real(19, 2, 3, 3)).float()
    rotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
    w, v = torch.linalg.eig(a)
    return [
        w.numpy(),
        v.numpy(),
        torch.linalg.eigvals(a).numpy(),
        torch.linalg.eig(batch).eigenvalues.numpy(),
        torch.linalg.eig(batch).eigenvectors.numpy(),
        torch.linalg.eig(rotation).eigenvectors.numpy(),
        np.array(str(torch.linalg.eigvals(rotation).dtype)),
        torch.linalg.eigvals(torch.diag(torch.tensor([3.0, 1.0, 2.0]))).numpy(),
        _error(lambda: torch.linalg.eig(torch.ones(2, 3))),
        _error(lambda: torch.linalg.eig(torch.tensor([[float("nan"), 1.0], [1.0, 1.0]]))),
        _error(lambda: torch.linalg.eigvals(torch.ones(2, 2, dtype=torch.int64))),
    ]


CASES = [
    literals_and_dtypes,
    promotion,
    arithmetic,
    elementwise,
    reductions_and_products,
    views_and_shapes,
    factories_and_conversions,
    numpy_bridge,
    printing,
    indexing_and_selection,
    hyperbolic_products_and_addmm,
    unsupported,
    fft_functions,
    fft_gradients,
    stft_istft,
    eig,
]


def run_all():
    import torch
    import torch.fft  # noqa: F401

    out = {}
    for case in CASES:
        for i, array in enumerate(case(torch)):
            out["%s_%d" % (case.__name__, i)] = np.asarray(array)
    return out


if __name__ == "__main__":
    np.savez(sys.argv[1], **run_all())
