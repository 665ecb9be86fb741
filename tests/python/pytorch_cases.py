"""Cases run the same way by this package and by real PyTorch 1.13 (Debian's python3-torch,
when installed): each case builds its inputs from a seeded numpy generator, runs PyTorch
code, and returns numpy arrays. test_against_pytorch.py compares the two runs.

Run directly (`python3 pytorch_cases.py OUT.npz`) it writes every case's arrays to OUT.npz,
with the `torch` that interpreter imports."""

import sys

import numpy as np


def _inputs(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float64) for s in shapes]


def conv_pool_net(torch, nn, F):
    (x,) = _inputs(1, (2, 3, 9, 9))
    x = torch.from_numpy(x).requires_grad_()
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1, stride=2),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2, ceil_mode=True),
        nn.Conv2d(4, 2, 2, dilation=1, groups=2),
        nn.Flatten(),
        nn.Linear(8, 3),
    ).double()
    weights = [np.random.default_rng(10 + i).standard_normal(tuple(p.shape)) for i, p in enumerate(net.parameters())]
    with torch.no_grad():
        for p, w in zip(net.parameters(), weights):
            p.copy_(torch.from_numpy(w))
    out = net(x)
    out.sum().backward()
    return [out.detach().numpy(), x.grad.numpy(), net[1].running_mean.numpy(), net[1].running_var.numpy()]


def sampling(torch, nn, F):
    (x,) = _inputs(2, (1, 2, 5, 6))
    t = torch.from_numpy(x)
    theta = torch.tensor([[[0.8, -0.2, 0.1], [0.3, 0.9, -0.1]]], dtype=torch.float64)
    grid = F.affine_grid(theta, (1, 2, 4, 3), align_corners=False)
    return [
        F.interpolate(t, size=(7, 9), mode="bilinear", align_corners=False).numpy(),
        F.interpolate(t, scale_factor=2, mode="nearest").numpy(),
        F.interpolate(t, size=(3, 4), mode="bicubic", align_corners=True).numpy(),
        F.avg_pool2d(t, 3, 2, 1, ceil_mode=True, count_include_pad=False).numpy(),
        F.adaptive_avg_pool2d(t, (2, 4)).numpy(),
        F.adaptive_max_pool2d(t, (3, 2)).numpy(),
        F.pad(t, (1, 2, 2, 1), mode="reflect").numpy(),
        F.pad(t, (1, 2, 0, 1), mode="replicate").numpy(),
        grid.numpy(),
        F.grid_sample(t, grid, align_corners=False).numpy(),
        F.unfold(t, (2, 3), padding=1, stride=2).numpy(),
        F.pixel_shuffle(t.reshape(1, 4, 5, 3), 2).numpy(),
    ]


def losses(torch, nn, F):
    logits, probs_raw, reg, reg_target = _inputs(3, (5, 4), (5, 4), (5, 3), (5, 3))
    logits = torch.from_numpy(logits).requires_grad_()
    target = torch.tensor([0, 3, 1, 1, 2])
    weight = torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64)
    probs = torch.sigmoid(torch.from_numpy(probs_raw))
    y = torch.from_numpy(reg)
    yt = torch.from_numpy(reg_target)
    values = [
        F.cross_entropy(logits, target, weight=weight, label_smoothing=0.1),
        F.cross_entropy(logits, target, ignore_index=1, reduction="sum"),
        F.nll_loss(F.log_softmax(logits, 1), target, weight=weight),
        F.binary_cross_entropy(probs, (probs > 0.5).double()),
        F.binary_cross_entropy_with_logits(
            y, torch.sigmoid(yt), pos_weight=torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
        ),
        F.kl_div(F.log_softmax(y, 1), F.softmax(yt, 1), reduction="batchmean"),
        F.smooth_l1_loss(y, yt, beta=0.5),
        F.huber_loss(y, yt, delta=0.7),
        F.mse_loss(y, yt),
        F.l1_loss(y, yt),
        F.multi_margin_loss(logits, target, p=2, margin=0.5),
        F.soft_margin_loss(y, torch.sign(yt)),
        F.cosine_embedding_loss(y, yt, torch.tensor([1, -1, 1, -1, 1])),
        F.triplet_margin_loss(y, yt, y * 0.5),
        F.poisson_nll_loss(y, yt.abs()),
        F.hinge_embedding_loss(y, torch.sign(yt)),
        F.multilabel_soft_margin_loss(y, (yt > 0).double()),
    ]
    total = sum(values)
    total.backward()
    return [np.array([v.item() for v in values]), logits.grad.numpy()]


def activations(torch, nn, F):
    (x,) = _inputs(4, (3, 7))
    t = torch.from_numpy(x)
    fs = [
        F.relu,
        F.relu6,
        lambda v: F.leaky_relu(v, 0.2),
        F.elu,
        F.selu,
        F.celu,
        F.gelu,
        lambda v: F.gelu(v, approximate="tanh"),
        F.silu,
        F.mish,
        F.hardsigmoid,
        F.hardswish,
        F.softplus,
        F.softshrink,
        F.hardshrink,
        F.hardtanh,
        F.tanhshrink,
        F.logsigmoid,
        F.softsign,
        lambda v: F.softmax(v, 1),
        lambda v: F.log_softmax(v, 0),
        lambda v: F.softmin(v, 1),
        lambda v: F.layer_norm(v, (7,)),
        lambda v: F.layer_norm(
            v, (7,), torch.linspace(0.5, 2, 7, dtype=v.dtype), torch.linspace(-1, 1, 7, dtype=v.dtype), eps=1e-3
        ),
        lambda v: F.group_norm(v.reshape(3, 7, 1), 7),
        lambda v: F.normalize(v, p=3, dim=1),
        lambda v: F.glu(v[:, :6], 1),
    ]
    return [f(t).numpy() for f in fs]


def optimizers(torch, nn, F):
    results = []
    configs = [
        (torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
        (torch.optim.SGD, dict(lr=0.1, momentum=0.5, dampening=0.3)),
        (torch.optim.Adam, dict(lr=0.05, amsgrad=True, weight_decay=0.1)),
        (torch.optim.AdamW, dict(lr=0.05, weight_decay=0.1)),
        (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01)),
        (torch.optim.Adadelta, dict(lr=1.0)),
        (torch.optim.RMSprop, dict(lr=0.01, centered=True, momentum=0.9)),
        (torch.optim.Adamax, dict(lr=0.05)),
        (torch.optim.ASGD, dict(lr=0.05, t0=2)),
        (torch.optim.Rprop, dict(lr=0.05)),
    ]
    (start,) = _inputs(5, (6,))
    for cls, kwargs in configs:
        w = torch.from_numpy(start.copy()).requires_grad_()
        opt = cls([w], **kwargs)
        for _ in range(8):
            opt.zero_grad()
            ((w - 1) ** 4 + w * w).sum().backward()
            opt.step()
        results.append(w.detach().numpy())
    w = torch.from_numpy(start.copy()).requires_grad_()
    opt = torch.optim.LBFGS([w], lr=1, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ((w - 1) ** 4 + w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    results.append(w.detach().numpy())
    return results


def schedulers(torch, nn, F):
    def run(make, steps=12):
        opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.5, momentum=0.9)
        sched = make(opt)
        lrs = []
        for _ in range(steps):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr()[0])
        return np.array(lrs)

    sch = torch.optim.lr_scheduler
    return [
        run(lambda o: sch.CosineAnnealingLR(o, 5, eta_min=0.01)),
        run(lambda o: sch.StepLR(o, 3, 0.5)),
        run(lambda o: sch.OneCycleLR(o, 1.0, total_steps=13)),
        run(lambda o: sch.MultiStepLR(o, [2, 5], 0.3)),
        run(lambda o: sch.ExponentialLR(o, 0.9)),
        run(lambda o: sch.LinearLR(o, 0.2, 1.0, 4)),
    ]


def rnns(torch, nn, F):
    (x,) = _inputs(6, (2, 5, 3))
    results = []
    for cls in (nn.LSTM, nn.GRU, nn.RNN):
        torch.manual_seed(0)
        m = cls(3, 4, num_layers=2, bidirectional=True, batch_first=True).double()
        for i, p in enumerate(m.parameters()):
            with torch.no_grad():
                p.copy_(torch.from_numpy(np.random.default_rng(20 + i).uniform(-0.5, 0.5, tuple(p.shape))))
        t = torch.from_numpy(x).requires_grad_()
        out, _ = m(t)
        out.sum().backward()
        results += [out.detach().numpy(), t.grad.numpy()]
    return results


def tensor_ops(torch, nn, F):
    a, b, m = _inputs(7, (4, 5), (5, 3), (4, 4))
    ta, tb, tm = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(m)
    spd = tm @ tm.t() + 4 * torch.eye(4, dtype=torch.float64)
    return [
        (ta @ tb).numpy(),
        torch.linalg.solve(spd, ta).numpy(),
        torch.linalg.cholesky(spd).numpy(),
        torch.linalg.det(tm).reshape(1).numpy(),
        torch.svd(ta)[1].numpy(),
        torch.logsumexp(ta, 1).numpy(),
        torch.cumprod(ta, 1).numpy(),
        ta.var(1).numpy(),
        ta.std(0, unbiased=False).numpy(),
        ta.norm(3, 1).numpy(),
        ta.median(1)[0].numpy(),
        ta.topk(2, 1)[0].numpy(),
        torch.sort(ta, 0)[1].numpy(),
        ta[[0, 2], 1:].numpy(),
        torch.where(ta > 0, ta, tb.t()[:, :4].t().reshape(4, 3).sum(1, keepdim=True)).numpy(),
        torch.remainder(ta, 0.7).numpy(),
        torch.fmod(ta, -0.7).numpy(),
        (ta // 0.3).numpy(),
        torch.histc(ta, 5, -1, 1).numpy(),
        torch.cross(ta[:3, :3], tm[:3, :3], dim=1).numpy(),
        torch.roll(ta, (1, -2), (0, 1)).numpy(),
        torch.diag_embed(ta[:2], 1).numpy(),
        torch.kron(ta[:2, :2], tm[:2, :3]).numpy(),
        torch.round(ta * 2.5).numpy(),
    ]


def bitwise_ops(torch, nn, F):
    rng = np.random.default_rng(11)
    out = []
    for dtype, bits in ((torch.uint8, 8), (torch.int8, 8), (torch.int16, 16), (torch.int32, 32), (torch.int64, 64)):
        a = torch.from_numpy(rng.integers(-100, 100, 12).astype(np.int64)).to(dtype)
        b = torch.from_numpy(rng.integers(-100, 100, 12).astype(np.int64)).to(dtype)
        n = torch.from_numpy(rng.integers(0, bits, 12).astype(np.int64)).to(dtype)
        out += [
            (a & b).numpy(),
            (a | b).numpy(),
            (a ^ b).numpy(),
            (~a).numpy(),
            (a << n).numpy(),
            (a >> n).numpy(),
            torch.bitwise_and(a, 6).numpy(),
            (5 | a).numpy(),
            (a >> 2).numpy(),
            torch.bitwise_not(b).numpy(),
        ]
    m = torch.tensor([True, False, True, False])
    k = torch.tensor([True, True, False, False])
    out += [
        (m & k).numpy(),
        (m | k).numpy(),
        (m ^ k).numpy(),
        (~m).numpy(),
        (m << 1).numpy(),
        (torch.tensor([6, 7], dtype=torch.int8) | torch.tensor([1], dtype=torch.int16)).numpy(),
        (torch.tensor([1, 2]) & torch.tensor([True, False])).numpy(),
    ]
    x = torch.from_numpy(rng.standard_normal(8))
    out += [
        torch.expm1(x).numpy(),
        torch.log2(x.abs()).numpy(),
        torch.log10(x.abs()).numpy(),
        torch.erf(x).numpy(),
        torch.erfc(x).numpy(),
    ]
    return out


def dtype_inference(torch, nn, F):
    values = [
        np.float64(1.5),
        np.float32(1.5),
        np.int32(3),
        [np.float64(1.5)],
        [1.0, np.float32(2)],
        [np.int32(1), 2.5],
        [np.bool_(True), False],
        [np.int16(1), 3],
        [[1, 2], [3, 4]],
        [],
        [True, 1.5],
        [torch.tensor(1.5, dtype=torch.float64), 2.0],
        7,
        2.5,
        True,
        np.arange(3, dtype=np.uint8),
    ]
    return [np.array([str(torch.tensor(v).dtype) for v in values] + [str(torch.as_tensor(v).dtype) for v in values])]


def gradients_cut_off(torch, nn, F):
    """An infinite upstream gradient reaches only the elements an op lets through: clamp,
    maximum/minimum, max() and masked_fill select, never multiply by 0. (amax and norm(inf)
    select too, where PyTorch 1.13 multiplies and gives NaN: not compared.)"""
    inf = float("inf")
    x = torch.tensor([-2.0, 0.5, 3.0, 0.5], dtype=torch.float64)
    other = torch.tensor([0.0, 0.5, 1.0, 2.0], dtype=torch.float64)
    upstream = torch.full((4,), inf, dtype=torch.float64)
    mask = torch.tensor([True, False, True, False])
    ops = [
        lambda t: t.clamp(0, 1),
        lambda t: t.clip(max=1),
        lambda t: torch.max(t, other),
        lambda t: torch.minimum(t, other),
        lambda t: t.masked_fill(mask, 0.0),
        lambda t: t.clone().masked_fill_(mask, 1.0),
        lambda t: t.max().expand(4),
    ]
    out = []
    for op in ops:
        t = x.clone().requires_grad_()
        op(t).backward(upstream)
        out.append(t.grad.numpy())
    return out


def surface(torch, nn, F):
    """Odd corners of the API: where(cond), stable argsort, a hook's handle, unique(dim=), and
    which in-place ops refuse a destination whose elements share memory (an expanded tensor)."""
    x = torch.tensor([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    out = [t.numpy() for t in torch.where(x > 0)]
    v = torch.tensor([2, 1, 2, 1, 0, 1, 2, 0] * 4)
    out += [torch.argsort(v, stable=True).numpy(), torch.argsort(v, descending=True, stable=True).numpy()]
    w = torch.ones(3, requires_grad=True)
    handle = w.register_hook(lambda g: g * 10)
    (w * 2).sum().backward()
    out.append(w.grad.numpy().copy())
    handle.remove()
    w.grad = None
    (w * 2).sum().backward()
    out.append(w.grad.numpy())
    writes = {
        "add_": lambda t: t.add_(1),
        "mul_": lambda t: t.mul_(2),
        "exp_": lambda t: t.exp_(),
        "clamp_": lambda t: t.clamp_(0, 1),
        "copy_": lambda t: t.copy_(torch.ones(2, 3)),
        "fill_": lambda t: t.fill_(1),
        "zero_": lambda t: t.zero_(),
        "addcmul_": lambda t: t.addcmul_(torch.ones(2, 3), torch.ones(2, 3)),
        "lerp_": lambda t: t.lerp_(torch.ones(2, 3), 0.5),
        "relu_": lambda t: t.relu_(),
        "div_": lambda t: t.div_(2),
        "eq_": lambda t: t.eq_(0),
        "iadd": lambda t: t.__iadd__(1),
        "setitem": lambda t: t.__setitem__(0, 5.0),
        "scatter_": lambda t: t.scatter_(1, torch.zeros(2, 1, dtype=torch.long), 1.0),
        "index_add_": lambda t: t.index_add_(1, torch.tensor([0]), torch.ones(2, 1)),
        "out=": lambda t: torch.add(torch.ones(2, 3), 1, out=t),
        "uniform_": lambda t: t.uniform_(),
        "masked_scatter_": lambda t: t.masked_scatter_(torch.ones(2, 3, dtype=torch.bool), torch.ones(6)),
    }
    rng = np.random.default_rng(3)
    ints = torch.from_numpy(rng.integers(0, 2, (6, 3, 2)))
    floats = torch.from_numpy(rng.integers(0, 3, (5, 2)).astype(np.float64) / 2)
    for t, dim in ((ints, 0), (ints, 1), (ints, 2), (floats, 0), (floats, 1), (ints[:0], 0)):
        values, inverse, counts = torch.unique(t, dim=dim, return_inverse=True, return_counts=True)
        out += [values.numpy(), inverse.numpy(), counts.numpy()]
    verdicts = []
    for name, write in writes.items():
        try:
            write(torch.zeros(1, 3).expand(2, 3))
            verdicts.append(name + ": ok")
        except RuntimeError as e:
            verdicts.append(name + ": " + str(e))
    out.append(np.array(verdicts))
    return out


def corner_fixes(torch, nn, F):
    """Corners found by running PyTorch programs: cumprod's gradient through zeros, a Python
    number in where, tensor weights and bounds in lerp and clamp, exp2, clone's memory formats,
    and out= with inputs that record gradients."""
    out = []
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 5))
    x[0, 1] = 0.0
    x[1, 1] = x[1, 3] = 0.0
    x[2, 4] = 0.0
    for dim in (0, 1):
        t = torch.from_numpy(x).requires_grad_()
        g = torch.from_numpy(rng.standard_normal((3, 5)))
        (torch.cumprod(t, dim) * g).sum().backward()
        out.append(t.grad.numpy())
    cond = torch.tensor([True, False, True])
    for a, b in (
        (0.1, torch.zeros(3, dtype=torch.float64)),
        (torch.ones(3, dtype=torch.int32), 2.5),
        (1, torch.zeros(3)),
    ):
        r = torch.where(cond, a, b)
        out += [r.numpy(), np.array(str(r.dtype))]
    a, b = (torch.from_numpy(v).requires_grad_() for v in rng.standard_normal((2, 4)))
    w = torch.tensor([-0.5, 0.25, 0.75, 1.0], dtype=torch.float64, requires_grad=True)
    r = torch.lerp(a, b, w)
    r.backward(torch.arange(1.0, 5.0, dtype=torch.float64))
    out += [r.detach().numpy(), a.grad.numpy(), b.grad.numpy(), w.grad.numpy()]
    t = torch.from_numpy(rng.standard_normal((3, 4))).requires_grad_()
    low = torch.full((4,), -0.3, dtype=torch.float64, requires_grad=True)
    high = torch.from_numpy(rng.uniform(-0.5, 1.0, (3, 1))).requires_grad_()
    r = torch.clamp(t, low, high)
    (r * torch.arange(12.0, dtype=torch.float64).reshape(3, 4)).sum().backward()
    out += [r.detach().numpy(), t.grad.numpy(), low.grad.numpy(), high.grad.numpy()]
    out += [
        torch.clamp(torch.arange(6), min=torch.tensor(2), max=4).numpy(),
        torch.arange(5.0).clamp(max=torch.tensor([1.0])).numpy(),
    ]
    y = torch.arange(5.0).clamp_(torch.tensor([3.0, 0, 0, 0, 0]))
    out.append(y.numpy())
    out += [torch.exp2(torch.tensor([-1.0, 0.5, 3.0])).numpy(), torch.exp2(torch.arange(4)).numpy()]
    base = torch.arange(24.0).reshape(2, 3, 4)
    for view in (base.transpose(0, 2), base.permute(1, 2, 0), base[:, ::2]):
        for fmt in (None, torch.preserve_format, torch.contiguous_format):
            c = view.clone() if fmt is None else view.clone(memory_format=fmt)
            out += [np.array(c.stride()), c.numpy()]
    try:
        torch.mul(torch.ones(3, requires_grad=True), 2, out=torch.empty(3))
        out.append(np.array("no error"))
    except RuntimeError as e:
        out.append(np.array(str(e).split("(): ", 1)[-1]))
    with torch.no_grad():
        out.append(torch.mul(torch.ones(3, requires_grad=True), 2, out=torch.empty(3)).numpy())
    return out


def half_arithmetic(torch, nn, F):
    """Half on the CPU (computed in float, rounded once per op): the ops PyTorch 1.13 has for
    Half, bit for bit (the arrays are compared as raw 16-bit patterns)."""
    rng = np.random.default_rng(5)
    a = torch.from_numpy((rng.standard_normal((4, 6)) * 3).astype(np.float16))
    b = torch.from_numpy((rng.standard_normal((4, 6)) + 0.5).astype(np.float16))
    idx = torch.tensor([2, 0, 5])
    x = a.clone().requires_grad_()
    (x * x + x / 3).sum().backward()
    results = [
        a + b,
        a - 2.5 * b,
        a * b,
        a / b,
        -a,
        a**2,
        a.abs(),
        a < b,
        a == a[0, 0],
        a.sum(),
        a.sum(1),
        a.mean(0),
        a.max(),
        a.max(1)[0],
        a.argmax(1),
        a.min(0)[1],
        a.sort(1)[0],
        a.sort(0)[1],
        a.index_select(1, idx),
        a.gather(1, idx.expand(4, 3)),
        torch.zeros(4, 6, dtype=torch.float16).scatter_(1, idx.expand(4, 3), b[:, :3]),
        a.masked_fill(a > 0, 1.5),
        torch.where(a > 0, a, b),
        torch.cat([a, b]),
        a.t().contiguous(),
        a.clone().add_(b),
        a.clone().mul_(3),
        a.sign(),
        torch.fmod(a, 1.5),
        torch.remainder(a, 1.5),
        torch.maximum(a, b),
        (a > 1).nonzero(),
        a[a > 0],
        a.norm(),
        a.std(),
        a.var(1),
        (a.float() / 3).half(),
        torch.arange(0, 3, 0.3, dtype=torch.float16),
        x.grad,
    ]
    return [r.numpy().view(np.uint16) if r.dtype == torch.float16 else r.numpy() for r in results]


# Random streams are not compared: the generator follows torch7's (Note: TH's THRandom), whose
# draws differ from PyTorch's.
CASES = [
    conv_pool_net,
    sampling,
    losses,
    activations,
    optimizers,
    schedulers,
    rnns,
    tensor_ops,
    bitwise_ops,
    dtype_inference,
    gradients_cut_off,
    surface,
    corner_fixes,
    half_arithmetic,
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
