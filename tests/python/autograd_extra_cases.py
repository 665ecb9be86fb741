"""Cases of torch.autograd.functional, torch.utils.checkpoint, weight_norm, spectral_norm,
parametrize, torch.testing.assert_close, anomaly detection and how a leaf's first gradient
is stored, run the same way by this
package and by real PyTorch 1.13 (/usr/bin/python3 with Debian's python3-torch). Inputs and
weights come from seeded numpy generators; each case returns numpy arrays (values, gradients,
messages). test_autograd_extra.py compares the two runs.

Run directly (`python3 autograd_extra_cases.py OUT.npz`) it writes every case's arrays to OUT.npz."""

import sys
import warnings

import numpy as np


def _t(torch, seed, shape, requires_grad=False):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)).requires_grad_(requires_grad)


def _np(tensors):
    if isinstance(tensors, (tuple, list)):
        return [a for t in tensors for a in _np(t)]
    return [tensors.detach().numpy()]


def _message(fn):
    try:
        fn()
    except Exception as e:  # the message and the type are compared
        return np.array(type(e).__name__ + ": " + str(e))
    return np.array("no error")


def jacobian_and_hessian(torch, nn, F):
    AF = torch.autograd.functional
    x, y = _t(torch, 1, (3,)), _t(torch, 2, (2, 3))

    def f(a, b):
        return torch.tanh(b @ a) * a.sum(), (a * a).sum()

    def scalar(a, b):
        return (torch.sin(b) * a).sum() + (a**3).sum()

    out = _np(AF.jacobian(f, (x, y)))
    out += _np(AF.jacobian(lambda a: a.exp() * a.sum(), x))
    out += _np(AF.hessian(scalar, (x, y)))
    out += _np(AF.hessian(lambda a: (a**4).sum() * a.prod(), x))
    out += _np(AF.jacobian(lambda a: a * 2, x, vectorize=True))
    # create_graph: the jacobian is itself differentiable.
    xg = x.clone().requires_grad_()
    jac = AF.jacobian(lambda a: a.sin() * a.sum(), xg, create_graph=True)
    jac.sum().backward()
    out += [xg.grad.numpy(), np.array(jac.requires_grad)]
    # A function independent of one input: zeros, or strict mode's error.
    out += _np(AF.jacobian(lambda a, b: a * 2, (x, y)))
    out.append(_message(lambda: AF.jacobian(lambda a, b: a * 2, (x, y), strict=True)))
    out.append(_message(lambda: AF.hessian(lambda a: a.sum(), x, strict=True)))
    out.append(_message(lambda: AF.hessian(lambda a: a * 2, x)))
    out.append(_message(lambda: AF.jacobian(lambda a: a, [x])))
    return out


def products(torch, nn, F):
    AF = torch.autograd.functional
    x, y = _t(torch, 3, (4,)), _t(torch, 4, (4,))
    v, w = _t(torch, 5, (4,)), _t(torch, 6, (2,))

    def f(a):
        return torch.stack([(a * a).sum(), a.sin().prod()])

    def g(a, b):
        return (a * b.exp()).sum() + (a**2 * b).sum()

    out = _np(AF.vjp(f, x, w))
    out += _np(AF.jvp(f, x, v))
    out += _np(AF.vhp(g, (x, y), (v, w.repeat(2))))
    out += _np(AF.hvp(g, (x, y), (v, w.repeat(2))))
    out += _np(AF.vjp(lambda a: (a**3).sum(), x))
    out += _np(AF.hvp(lambda a: (a**3).sum(), x, v))
    xg = x.clone().requires_grad_()
    _, h = AF.hvp(lambda a: (a**3).sum(), xg, v, create_graph=True)
    h.sum().backward()
    out.append(xg.grad.numpy())
    out.append(_message(lambda: AF.vjp(f, x)))
    out.append(_message(lambda: AF.jvp(f, x, w)))
    out.append(_message(lambda: AF.vhp(f, x, v)))
    out.append(_message(lambda: AF.vjp(lambda a: a.detach() * 2, x, v, strict=True)))
    return out


def checkpointing(torch, nn, F):
    from torch.utils.checkpoint import checkpoint, checkpoint_sequential

    lin = nn.Linear(4, 5).double()
    with torch.no_grad():
        lin.weight.copy_(_t(torch, 7, (5, 4)))
        lin.bias.copy_(_t(torch, 8, (5,)))
    x = _t(torch, 9, (3, 4), True)
    calls = []

    def block(a, scale):
        calls.append(1)
        return torch.tanh(lin(a)) * scale, a.sum()

    out, total = checkpoint(block, x, 2.0)
    (out.pow(2).sum() + total).backward()
    seq = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 3), nn.Sigmoid()).double()
    with torch.no_grad():
        for i, p in enumerate(seq.parameters()):
            p.copy_(_t(torch, 20 + i, tuple(p.shape)))
    z = _t(torch, 30, (2, 4), True)
    s = checkpoint_sequential(seq, 2, z)
    s.sum().backward()
    return [
        out.detach().numpy(),
        x.grad.numpy(),
        lin.weight.grad.numpy(),
        np.array(len(calls)),
        s.detach().numpy(),
        z.grad.numpy(),
    ] + [p.grad.numpy() for p in seq.parameters()]


def weight_and_spectral_norm(torch, nn, F):
    from torch.nn.utils import remove_weight_norm, spectral_norm, weight_norm

    conv = weight_norm(nn.Conv2d(2, 3, 2).double(), dim=1)
    lin = weight_norm(nn.Linear(3, 2).double(), dim=None)
    sn = spectral_norm(nn.Linear(4, 3).double(), n_power_iterations=2)
    for i, module in enumerate((conv, lin, sn)):
        with torch.no_grad():
            for j, (name, t) in enumerate(sorted(list(module.named_parameters()) + list(module.named_buffers()))):
                t.copy_(_t(torch, 40 + 10 * i + j, tuple(t.shape)))
    x = _t(torch, 70, (2, 2, 3, 3), True)
    y = conv(x)
    y.pow(2).sum().backward()
    out = [
        y.detach().numpy(),
        x.grad.numpy(),
        conv.weight_g.grad.numpy(),
        conv.weight_v.grad.numpy(),
        np.array(list(conv.state_dict())),
    ]
    z = lin(_t(torch, 71, (4, 3)))
    z.sum().backward()
    out += [z.detach().numpy(), lin.weight_g.grad.numpy(), lin.weight_v.grad.numpy()]
    remove_weight_norm(lin)
    out += [lin.weight.detach().numpy(), np.array(list(lin.state_dict()))]
    a = _t(torch, 72, (5, 4))
    for _ in range(3):
        r = sn(a)
    r.pow(2).sum().backward()
    out += [r.detach().numpy(), sn.weight_orig.grad.numpy(), sn.weight_u.numpy(), sn.weight_v.numpy()]
    sn.eval()
    out += [sn(a).detach().numpy(), np.array(list(sn.state_dict()))]
    return out


def parametrizations(torch, nn, F):
    from torch.nn.utils import parametrize

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(0, 1)

    class Scale(nn.Module):
        def forward(self, X):
            return X * 3

        def right_inverse(self, X):
            return X / 3

    layer = nn.Linear(3, 3).double()
    with torch.no_grad():
        layer.weight.copy_(_t(torch, 80, (3, 3)))
        layer.bias.copy_(_t(torch, 81, (3,)))
    parametrize.register_parametrization(layer, "weight", Scale())
    parametrize.register_parametrization(layer, "weight", Symmetric())
    x = _t(torch, 82, (2, 3))
    y = layer(x)
    y.pow(2).sum().backward()
    out = [
        y.detach().numpy(),
        layer.weight.detach().numpy(),
        layer.parametrizations.weight.original.grad.numpy(),
        np.array(type(layer).__name__),
        np.array(list(layer.state_dict())),
        np.array(parametrize.is_parametrized(layer, "weight")),
        np.array(parametrize.is_parametrized(layer, "bias")),
    ]
    with parametrize.cached():
        same = layer.weight is layer.weight
    out.append(np.array(same))
    parametrize.remove_parametrizations(layer, "weight")
    out += [layer.weight.detach().numpy(), np.array(type(layer).__name__), np.array(list(layer.state_dict()))]
    plain = nn.Linear(2, 2).double()
    with torch.no_grad():
        plain.weight.copy_(_t(torch, 83, (2, 2)))
    parametrize.register_parametrization(plain, "weight", Scale())
    with torch.no_grad():
        plain.weight = _t(torch, 84, (2, 2))
    out += [plain.parametrizations.weight.original.detach().numpy(), plain.weight.detach().numpy()]
    return out


def assert_close_messages(torch, nn, F):
    from torch.testing import assert_close

    def check(*args, **kwargs):
        return _message(lambda: assert_close(*args, **kwargs))

    T = torch.tensor
    return [
        check(T([1.0, 2.0, 3.0]), T([1.0, 2.5, 3.0])),
        check(T([1.0, 2.0], dtype=torch.float64), T([1.0, 2.0000002], dtype=torch.float64)),
        check(T([1.0, 2.0], dtype=torch.float64), T([1.0, 2.00000001], dtype=torch.float64)),
        check(T([1.0, 2.0]), T([1.0, 2.00001])),
        check(T([[1, 2], [3, 4]]), T([[1, 2], [3, 5]])),
        check(T(1.0), T(1.5)),
        check(T([1.0]), T([1.0], dtype=torch.float64)),
        check(T([1.0]), T([1.0, 2.0])),
        check({"a": [T([1.0]), 2]}, {"a": [T([1.0]), 3]}),
        check({"a": 1}, {"b": 1}),
        check([1, 2], [1]),
        check(1, 1.0),
        check(1.0, 1.0 + 1e-8),
        check(1.0, 1.1),
        check(T([1.0]), 1.0),
        check(None, 1),
        check(True, False),
        check(T([float("nan")]), T([float("nan")])),
        check(T([float("nan")]), T([float("nan")]), equal_nan=True),
        check(T([1.0, 2.0]), T([1.0, 2.1]), rtol=0.1, atol=0),
        check(T([1.0, 2.0]), T([1.0, 2.1]), rtol=0.01),
        check(T([1.0, 2.0]), T([1.0, 3.0]), msg="custom"),
        check(T([1.0, 2.0]), T([1.0, 3.0]), msg=lambda m: "wrapped: " + m),
        check(np.array([1.0, 2.0]), np.array([1.0, 2.0001])),
        check(T([1, 2]), T([1.0, 2.0]), check_dtype=False),
        check(T([1.0, 0.0]), T([1.5, 0.1])),
        check(torch.ones(2, 2).t(), torch.ones(2, 2), check_stride=True),
        check(T([True, False]), T([True, True])),
        check(T([1.0, 2.0, 3.0, 4.0]).reshape(2, 2), T([1.0, 2.0, 3.0, 4.5]).reshape(2, 2)),
    ]


def anomaly_detection(torch, nn, F):
    x = torch.tensor([0.0, 4.0], dtype=torch.float64, requires_grad=True)
    out = [np.array(torch.is_anomaly_enabled())]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            out.append(np.array(torch.is_anomaly_enabled()))
            y = (x.sqrt() * 0).sum()
            out.append(_message(y.backward))
    out.append(np.array(any("Anomaly Detection has been enabled" in str(w.message) for w in caught)))
    out.append(np.array(any("Error detected in SqrtBackward0" in str(w.message) for w in caught)))
    out.append(np.array(torch.is_anomaly_enabled()))
    with torch.autograd.set_detect_anomaly(True):
        z = (x.sqrt() * 0).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append(_message(lambda: torch.autograd.grad(z, x)))
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (g,) = torch.autograd.grad((x.sqrt() * 0).sum(), x)
    out.append(g.numpy())
    # Without anomaly detection the NaN goes through.
    (g,) = torch.autograd.grad((x.sqrt() * 0).sum(), x)
    out.append(g.numpy())
    return out


def inference_mode(torch, nn, F):
    x = _t(torch, 90, (3,), True)
    with torch.inference_mode():
        y = x * 2
        inside = torch.is_inference_mode_enabled()
        with torch.inference_mode(False):
            z = x * 2

    @torch.inference_mode()
    def f(a):
        return a * 3

    return [
        np.array(y.requires_grad),
        np.array(inside),
        np.array(torch.is_inference_mode_enabled()),
        np.array(z.requires_grad),
        np.array(f(x).requires_grad),
        np.array(torch.is_grad_enabled()),
    ]


def first_gradient_storage(torch, nn, F):
    """A leaf's first gradient is stored as it is when nothing else holds it (no copy), and as a
    copy when something does: a hook's or a Function's reference, or create_graph."""
    addresses, held = [], []

    class Fresh(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            r = g * 2
            addresses.append(r.data_ptr())
            return r

    class Kept(Fresh):
        @staticmethod
        def backward(ctx, g):
            r = g * 3
            held.append(r)
            return r

    w = _t(torch, 91, (4,), True)
    Fresh.apply(w).sum().backward()
    v = _t(torch, 92, (4,), True)
    Kept.apply(v).sum().backward()
    held[0].add_(100)  # .grad is a copy: unchanged
    seen = []
    u = _t(torch, 93, (2, 3), True)
    u.register_hook(lambda g: seen.append(g))
    (u * 5).sum().backward()
    seen[0].add_(1)
    x = _t(torch, 94, (3,), True)
    (x * x).sum().backward(create_graph=True)
    return [
        np.array(w.grad.data_ptr() == addresses[0]),
        w.grad.detach().numpy(),
        np.array(v.grad.data_ptr() == held[0].data_ptr()),
        v.grad.detach().numpy(),
        u.grad.detach().numpy(),
        np.array(x.grad.requires_grad),
        x.grad.detach().numpy(),
    ]


CASES = [
    jacobian_and_hessian,
    products,
    checkpointing,
    weight_and_spectral_norm,
    parametrizations,
    assert_close_messages,
    anomaly_detection,
    inference_mode,
    first_gradient_storage,
]


def run_all():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    out = {}
    for case in CASES:
        for i, array in enumerate(case(torch, nn, F)):
            out["%s_%d" % (case.__name__, i)] = np.asarray(array)
    return out


if __name__ == "__main__":
    np.savez(sys.argv[1], **run_all())
