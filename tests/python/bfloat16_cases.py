"""Cases of torch.bfloat16 (core/BFloat16.h, Note [Half through Float] in core/Dispatch.h), run
the same way by this package and by real PyTorch 1.13 (Debian's python3-torch): each case
builds its inputs from numpy, calls the functions and returns a list of results. A bfloat16
tensor is returned as its 16-bit patterns (`bits`, exact: bfloat16 is float32's upper half),
so that ops PyTorch rounds once per element compare bit for bit; composite ops (reductions,
products, layers, gradients) return float values compared within bfloat16's precision
(test_bfloat16.py, EXACT below names the bit-for-bit cases).

Run directly (`python3 bfloat16_cases.py OUT.npz`) it writes every case's results to OUT.npz,
with the `torch` that interpreter imports."""

import numpy as np

import case_runner

from functional_cases import error_name

CASES = {}
# the cases whose every result must be the same bits (or the same integers) as 1.13's
EXACT = set()


def case(exact=False):
    def register(fn):
        CASES[fn.__name__] = fn
        if exact:
            EXACT.add(fn.__name__)
        return fn

    return register


def bits(t):
    """A bfloat16 tensor's bit patterns as uint16 (widening to float32 is exact), every NaN as
    0x7FC0: 1.13's vectorised kernels write 0xFFFF for a NaN, its scalar ones 0x7FC0."""
    f = t.float().numpy()
    b = (f.view(np.uint32) >> 16).astype(np.uint16)
    b[np.isnan(f)] = 0x7FC0
    return b


def floats(t):
    return t.detach().float().numpy()


def from_np(torch, a):
    return torch.from_numpy(np.asarray(a, dtype=np.float32)).to(torch.bfloat16)


# float32 values around every kind of rounding: ties to even both ways, just past ties, the
# largest finite values and past them (to infinity), subnormals, signed zeros, NaN, infinities
SPECIAL = np.array(
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.00390625,  # 1 + 2^-8: a tie, rounds down to even
        1.01171875,  # 1 + 3 * 2^-8: a tie, rounds up to even
        1.0039063,  # just past the tie
        3.3333,
        1e30,
        -7.1e-3,
        3.38953139e38,  # bfloat16's largest
        3.3961e38,  # rounds to infinity
        np.finfo(np.float32).max,
        1e-40,  # a float32 subnormal
        -1e-45,
        1.1754944e-38,
        np.inf,
        -np.inf,
        np.nan,
        65504.0,
        0.1,
        1 / 3,
    ],
    dtype=np.float32,
)


def random_floats(n, seed):
    """n float32 values of every exponent: random bit patterns that are not NaN."""
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return v[~np.isnan(v)]


def ordinary(n, seed, scale=4.0):
    return (np.random.default_rng(seed).standard_normal(n) * scale).astype(np.float32)


# ---- the type itself ----


@case(exact=True)
def rounding_from_float(torch):
    values = np.concatenate([SPECIAL, random_floats(20000, 1)])
    t = torch.from_numpy(values)
    return [bits(t.to(torch.bfloat16)), bits(t.bfloat16()), bits(t.double().to(torch.bfloat16))]


@case(exact=True)
def conversions(torch):
    x = from_np(torch, np.concatenate([SPECIAL[np.isfinite(SPECIAL) & (np.abs(SPECIAL) < 1e4)], ordinary(50, 2)]))
    out = []
    for dt in [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.int16, torch.bool]:
        y = x.to(dt)
        out += [y.numpy(), str(y.dtype)]
    ints = torch.tensor([0, 1, -3, 255, 257, 1000001, -(2**40)])
    out += [bits(ints.to(torch.bfloat16)), bits(torch.tensor([True, False]).to(torch.bfloat16))]
    out += [bits(torch.tensor([1.5, 2.0009766, 65504.0], dtype=torch.float16).to(torch.bfloat16))]
    return out


@case(exact=True)
def dtype_properties(torch):
    bf = torch.bfloat16
    fi = torch.finfo(bf)
    x = torch.ones(2, dtype=bf)
    return [
        str(bf),
        np.array([bf.is_floating_point, bf.is_complex, bf.is_signed, x.is_floating_point()]),
        np.array([x.element_size(), fi.bits]),
        np.array([fi.eps, fi.max, fi.min, fi.tiny, fi.resolution]),
        str(torch.promote_types(bf, torch.float16)),
        str(torch.promote_types(bf, torch.float32)),
        str(torch.promote_types(bf, torch.float64)),
        str(torch.promote_types(bf, torch.int64)),
        str(torch.promote_types(bf, torch.bool)),
        str((x + torch.ones(2, dtype=torch.float16)).dtype),
        str((x + torch.ones(2, dtype=torch.int32)).dtype),
        str((x + 1.5).dtype),
        str((x * torch.tensor(2.0)).dtype),
        x.type(),
        str(x.storage().dtype),
        type(torch.BFloat16Tensor([1.0])).__name__,
        str(torch.BFloat16Tensor([1.0]).dtype),
    ]


@case(exact=True)
def printing_and_python(torch):
    a = from_np(torch, [1.0, 2.5, 3.3333, 1e30, -7.1e-3])
    b = torch.tensor([[0.1, 0.2], [1.5, -3.0]], dtype=torch.bfloat16)
    s = torch.tensor(1.5, dtype=torch.bfloat16)
    return [
        repr(a),
        repr(b),
        repr(s),
        str(s.item()),
        str(a.tolist()),
        str(b.tolist()),
        error_name(lambda: a.numpy()),
        repr(torch.zeros(3, dtype=torch.bfloat16)),
    ]


@case(exact=True)
def factories(torch):
    bf = torch.bfloat16
    torch.manual_seed(3)
    return [
        bits(torch.zeros(2, 3, dtype=bf)),
        bits(torch.ones(4, dtype=bf)),
        bits(torch.full((3,), 3.3, dtype=bf)),
        bits(torch.arange(0, 1, 0.3, dtype=bf)),
        bits(torch.arange(5, dtype=bf)),
        bits(torch.tensor([0.1, 1e-3, 7.0], dtype=bf)),
        np.array(torch.empty(2, 5, dtype=bf).shape),
        bits(torch.randn(5, dtype=bf)),  # fewer than 16: drawn in double, rounded
        bits(torch.randn(37, dtype=bf)),  # 1.13's normal_fill in bfloat16 arithmetic
        bits(torch.empty(40, dtype=bf).normal_(1.5, 0.3)),
        bits(torch.rand(50, dtype=bf)),  # 8 random bits each
        bits(torch.empty(9, dtype=bf).uniform_(-2, 3)),
        bits(torch.nn.functional.dropout(torch.ones(40, dtype=bf), 0.3)),
        bits(torch.bernoulli(torch.full((30,), 0.4, dtype=bf))),
        bits(torch.randperm(9, dtype=bf)),
        bits(torch.zeros_like(torch.ones(2), dtype=bf)),
        bits(torch.ones(3).new_full((2,), 0.7).bfloat16()),
    ]


@case(exact=True)
def half_streams(torch):
    """float16's own streams (Note [16-bit streams]): 11 random bits per uniform, normal_fill
    in half's arithmetic."""
    h = torch.float16
    torch.manual_seed(4)
    draws = [torch.rand(20, dtype=h), torch.empty(9, dtype=h).uniform_(-1, 2), torch.randn(5, dtype=h)]
    draws += [torch.randn(37, dtype=h), torch.empty(16, dtype=h).normal_(2.0, 0.5)]
    return [d.float().numpy() for d in draws]


# ---- ops that round once per element: bit for bit ----

BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "fmod", "remainder", "atan2", "pow"]
UNARY_EXACT = ["neg", "abs", "sqrt", "floor", "ceil", "trunc", "round", "sign", "reciprocal", "frac"]


@case(exact=True)
def binary_ops(torch):
    a = from_np(torch, ordinary(200, 4))
    b = from_np(torch, ordinary(200, 5) + 0.5)
    out = []
    for name in BINARY:
        out.append(bits(getattr(torch, name)(a, b)))
    out += [bits(a + 1.5), bits(a * 3), bits(a / 7), bits(2.0 - a), bits(a.add(b, alpha=2))]
    out += [bits(a.clamp(-1, 1)), bits(torch.where(a > b, a, b)), (a > b).numpy(), (a == a).numpy()]
    out += [bits(a.lerp(b, 0.25)), bits(torch.addcmul(a, a, b, value=0.5)), bits(torch.addcdiv(a, a, b))]
    c = a.clone()
    c.add_(b).mul_(0.5)
    out.append(bits(c))
    return out


@case(exact=True)
def unary_ops(torch):
    a = from_np(torch, np.concatenate([ordinary(200, 6), [0.0, -0.0, 0.5, 1.5, 2.5, -2.5]]))
    out = []
    for name in UNARY_EXACT:
        out.append(bits(getattr(torch, name)(a.abs() if name == "sqrt" else a)))
    return out


@case(exact=True)
def memory_ops(torch):
    a = from_np(torch, ordinary(60, 7)).reshape(3, 4, 5)
    idx = torch.tensor([2, 0])
    out = [bits(a.t() if a.dim() == 2 else a.transpose(0, 2)), bits(a.flip(1)), bits(torch.cat([a, a], 1))]
    out += [bits(a[1, ::2]), bits(a.index_select(2, idx)), bits(a.contiguous().view(12, 5))]
    out += [bits(torch.stack([a[0], a[1]])), bits(a.masked_fill(a > 0, 0.5)), bits(a.gather(2, idx.expand(3, 4, 2)))]
    b = torch.zeros(3, 4, 5, dtype=torch.bfloat16)
    b[:, 1:3] = a[:, :2]
    out.append(bits(b))
    s, i = a.sort(2)
    out += [bits(s), i.numpy(), bits(a.max(1)[0]), a.argmax(2).numpy()]
    return out


# ---- ops computed in float and rounded at the end (or in steps, in 1.13): within tolerance ----


@case()
def transcendental(torch):
    a = from_np(torch, ordinary(200, 8, 2.0))
    out = []
    for name in ["exp", "tanh", "sigmoid", "sin", "cos", "erf", "expm1"]:
        out.append(floats(getattr(torch, name)(a)))
    for name in ["log", "log1p", "rsqrt", "log2"]:
        out.append(floats(getattr(torch, name)(a.abs() + 0.1)))
    return out


@case()
def reductions(torch):
    a = from_np(torch, ordinary(240, 9, 1.0)).reshape(6, 40)
    out = [floats(a.sum()), floats(a.sum(1)), floats(a.mean(0)), floats(a.max()), floats(a.min(0)[0])]
    out += [floats(a.std(1)), floats(a.var()), floats(a.norm()), floats(a.cumsum(1)), str(a.sum().dtype)]
    out += [floats(a.logsumexp(1)), floats(a.median())]
    # 1.13 steps through linspace in bfloat16, this package in float
    out += [
        floats(torch.linspace(0, 1, 7, dtype=torch.bfloat16)),
        floats(torch.linspace(-3, 5, 50, dtype=torch.bfloat16)),
    ]
    return out


@case()
def products(torch):
    a = from_np(torch, ordinary(48, 10, 1.0)).reshape(6, 8)
    b = from_np(torch, ordinary(40, 11, 1.0)).reshape(8, 5)
    v = from_np(torch, ordinary(8, 12, 1.0))
    batch = from_np(torch, ordinary(2 * 6 * 8, 13, 1.0)).reshape(2, 6, 8)
    out = [
        floats(a @ b),
        floats(a.mm(b)),
        floats(a.mv(v)),
        floats(v.dot(v)),
        floats(torch.bmm(batch, b.expand(2, 8, 5))),
    ]
    out += [floats(torch.addmm(a[:, :5], a, b, beta=0.5)), floats(torch.outer(v, v)), floats(torch.matmul(batch, v))]
    out += [str((a @ b).dtype)]
    return out


@case()
def layers(torch):
    F = torch.nn.functional
    x = from_np(torch, ordinary(2 * 3 * 8 * 8, 14, 1.0)).reshape(2, 3, 8, 8)
    w = from_np(torch, ordinary(4 * 3 * 3 * 3, 15, 0.3)).reshape(4, 3, 3, 3)
    bias = from_np(torch, [0.1, -0.2, 0.3, 0.0])
    h = F.conv2d(x, w, bias, padding=1)
    flat = from_np(torch, ordinary(4 * 10, 16, 1.0)).reshape(4, 10)
    lw = from_np(torch, ordinary(6 * 10, 17, 0.3)).reshape(6, 10)
    out = [floats(h), str(h.dtype), floats(F.max_pool2d(h, 2)), floats(F.avg_pool2d(h, 2)), floats(F.relu(h))]
    out += [floats(F.linear(flat, lw)), floats(F.linear(flat, lw, bias[:1].expand(6).contiguous()))]
    out += [floats(F.softmax(flat, 1)), floats(F.log_softmax(flat, 1)), floats(F.gelu(flat)), floats(F.silu(flat))]
    out += [floats(F.layer_norm(flat, (10,))), floats(F.batch_norm(h, None, None, training=True))]
    out += [floats(F.cross_entropy(flat, torch.tensor([1, 0, 9, 3]))), floats(F.dropout(flat, 0.0))]
    out += [floats(F.embedding(torch.tensor([1, 3]), lw)), floats(F.conv1d(flat[None], lw[:, :, None][:, :4]))]
    return out


@case()
def gradients(torch):
    F = torch.nn.functional
    x = from_np(torch, ordinary(4 * 10, 18, 1.0)).reshape(4, 10).requires_grad_()
    w1 = from_np(torch, ordinary(8 * 10, 19, 0.3)).reshape(8, 10).requires_grad_()
    b1 = from_np(torch, ordinary(8, 20, 0.1)).requires_grad_()
    w2 = from_np(torch, ordinary(3 * 8, 21, 0.3)).reshape(3, 8).requires_grad_()
    loss = F.cross_entropy(F.linear(torch.tanh(F.linear(x, w1, b1)), w2), torch.tensor([0, 2, 1, 1]))
    loss.backward()
    out = [floats(loss), str(loss.dtype)]
    for p in (x, w1, b1, w2):
        out += [floats(p.grad), str(p.grad.dtype)]
    img = from_np(torch, ordinary(1 * 2 * 5 * 5, 22, 1.0)).reshape(1, 2, 5, 5).requires_grad_()
    k = from_np(torch, ordinary(3 * 2 * 3 * 3, 23, 0.3)).reshape(3, 2, 3, 3).requires_grad_()
    (F.conv2d(img, k) ** 2).sum().backward()
    out += [floats(img.grad), floats(k.grad), str(k.grad.dtype)]
    return out


@case()
def modules(torch):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.from_numpy(ordinary(p.numel(), 30 + i, 0.4)).reshape(p.shape))
    model = model.to(torch.bfloat16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = from_np(torch, ordinary(8 * 6, 40, 1.0)).reshape(8, 6)
    y = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return [np.array(losses), str(next(model.parameters()).dtype)] + [floats(p) for p in model.parameters()]


# ---- torch.autocast("cpu") (Note [Autocast] in core/Autocast.h) ----


# op name -> fn(x) for x a 4x4 float32 or bfloat16 matrix; the dtype of the result under
# autocast is compared (lower precision, float32 or the inputs' type, as 1.13's lists say)
def _autocast_ops(torch):
    F = torch.nn.functional
    img = torch.from_numpy(ordinary(72, 50, 1.0)).reshape(1, 2, 6, 6)
    w = torch.from_numpy(ordinary(36, 51, 0.3)).reshape(2, 2, 3, 3)
    f32 = torch.from_numpy(ordinary(16, 52, 1.0)).reshape(4, 4)
    labels = torch.tensor([0, 1, 2, 3])
    return {
        "mm": lambda x: torch.mm(x, x),
        "matmul": lambda x: x @ x,
        "bmm": lambda x: torch.bmm(x[None], x[None]),
        "addmm": lambda x: torch.addmm(x, x, x),
        "baddbmm": lambda x: torch.baddbmm(x[None], x[None], x[None]),
        "addbmm": lambda x: torch.addbmm(x, x[None], x[None]),
        "linear": lambda x: F.linear(x, x),
        "einsum": lambda x: torch.einsum("ij,jk->ik", x, x),
        "tensordot": lambda x: torch.tensordot(x, x),
        "multi_dot": lambda x: torch.linalg.multi_dot([x, x]),
        "matrix_power": lambda x: torch.matrix_power(x, 2),
        "conv2d": lambda x: F.conv2d(img.to(x.dtype), w.to(x.dtype)),
        "conv1d": lambda x: F.conv1d(x[None], x[:, :, None]),
        "conv_transpose2d": lambda x: F.conv_transpose2d(img.to(x.dtype), w.to(x.dtype)),
        "mv": lambda x: x.mv(x[0]),
        "dot": lambda x: x[0].dot(x[0]),
        "addmv": lambda x: torch.addmv(x[0], x, x[0]),
        "addr": lambda x: torch.addr(x, x[0], x[0]),
        "outer": lambda x: torch.outer(x[0], x[0]),
        "softmax": lambda x: F.softmax(x, 1),
        "log_softmax": lambda x: F.log_softmax(x, 1),
        "relu": F.relu,
        "gelu": F.gelu,
        "tanh": torch.tanh,
        "sum": torch.sum,
        "add": lambda x: x + x,
        "layer_norm": lambda x: F.layer_norm(x, (4,)),
        "batch_norm": lambda x: F.batch_norm(x, None, None, training=True),
        "max_pool2d": lambda x: F.max_pool2d(img.to(x.dtype), 2),
        "cumsum": lambda x: x.cumsum(0),
        "std": torch.std,
        "sort": lambda x: x.sort()[0],
        "embedding": lambda x: F.embedding(torch.tensor([1]), x),
        "mse_loss": lambda x: F.mse_loss(x, x),
        "l1_loss": lambda x: F.l1_loss(x, x),
        "smooth_l1_loss": lambda x: F.smooth_l1_loss(x, x),
        "huber_loss": lambda x: F.huber_loss(x, x),
        "nll_loss": lambda x: F.nll_loss(x, labels),
        "cross_entropy": lambda x: F.cross_entropy(x, labels),
        "binary_cross_entropy": lambda x: F.binary_cross_entropy(x.sigmoid(), x.sigmoid()),
        "bce_with_logits": lambda x: F.binary_cross_entropy_with_logits(x, x.sigmoid()),
        "kl_div": lambda x: F.kl_div(x, x, reduction="batchmean"),
        "soft_margin_loss": lambda x: F.soft_margin_loss(x, x),
        "margin_ranking_loss": lambda x: F.margin_ranking_loss(x, x, x),
        "hinge_embedding_loss": lambda x: F.hinge_embedding_loss(x, x),
        "poisson_nll_loss": lambda x: F.poisson_nll_loss(x, x),
        "cosine_embedding_loss": lambda x: F.cosine_embedding_loss(x, x, torch.ones(4)),
        "triplet_margin_loss": lambda x: F.triplet_margin_loss(x, x, x),
        "multi_margin_loss": lambda x: F.multi_margin_loss(x, labels),
        "avg_pool3d": lambda x: F.avg_pool3d(img.to(x.dtype)[None], 2),
        "max_pool3d": lambda x: F.max_pool3d(img.to(x.dtype)[None], 2),
        "adaptive_avg_pool3d": lambda x: F.adaptive_avg_pool3d(img.to(x.dtype)[None], 2),
        "reflect_pad": lambda x: F.pad(img.to(x.dtype), (1, 1, 1, 1), mode="reflect"),
        "replicate_pad": lambda x: F.pad(img.to(x.dtype), (1, 1, 1, 1), mode="replicate"),
        "constant_pad": lambda x: F.pad(img.to(x.dtype), (1, 1, 1, 1)),
        "grid_sample": lambda x: F.grid_sample(img.to(x.dtype), x[:2, :4].reshape(1, 2, 2, 2) / 9, align_corners=False),
        "cdist": lambda x: torch.cdist(x, x),
        "quantile": lambda x: torch.quantile(x, 0.5),
        "fft": lambda x: torch.fft.fft(x),
        "rfft": lambda x: torch.fft.rfft(x),
        "irfft": lambda x: torch.fft.irfft(x),
        "linalg_cholesky": lambda x: torch.linalg.cholesky(x @ x.t() + 4 * torch.eye(4).to(x.dtype)),
        "linalg_svd": lambda x: torch.linalg.svd(x)[0],
        "linalg_qr": lambda x: torch.linalg.qr(x)[0],
        "linalg_inv": lambda x: torch.linalg.inv(x @ x.t() + 4 * torch.eye(4).to(x.dtype)),
        "linalg_eigh": lambda x: torch.linalg.eigh(x @ x.t())[0],
        "linalg_matrix_norm": lambda x: torch.linalg.matrix_norm(x),
        "polar": lambda x: torch.polar(x.abs(), x),
        "stft": lambda x: torch.stft(x.flatten(), 4, return_complex=True),
        "cat": lambda x: torch.cat([x, f32]),
        "stack": lambda x: torch.stack([x, f32]),
        "cat_double": lambda x: torch.cat([x, f32.double()]),
        "mm_double": lambda x: torch.mm(x.double(), x.double()),
    }


@case(exact=True)
def autocast_dtypes(torch):
    x = torch.from_numpy(ordinary(16, 53, 1.0)).reshape(4, 4)
    out = []
    for name, fn in _autocast_ops(torch).items():
        for inp in (x, x.bfloat16()):
            with torch.autocast("cpu"):
                out.append(name + " " + str(fn(inp).dtype))
    return out


@case(exact=True)
def autocast_switches(torch):
    out = [str(torch.is_autocast_cpu_enabled()), str(torch.get_autocast_cpu_dtype())]
    with torch.autocast("cpu"):
        out += [str(torch.is_autocast_cpu_enabled()), str(torch.is_autocast_cache_enabled())]
        with torch.autocast("cpu", enabled=False):
            out += [str(torch.is_autocast_cpu_enabled()), str(torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype)]
        out.append(str(torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype))
    with torch.cpu.amp.autocast():
        out.append(str(torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype))

    @torch.autocast("cpu")
    def decorated(a):
        return a @ a

    out += [str(decorated(torch.ones(2, 2)).dtype), str(torch.is_autocast_cpu_enabled())]
    out.append(error_name(lambda: torch.autocast("tpu")))
    out.append(error_name(lambda: torch.set_autocast_cpu_dtype(torch.float16)))
    return out


@case()
def autocast_training(torch):
    F = torch.nn.functional
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(2, 3, 3)
    fc = torch.nn.Linear(3 * 4 * 4, 4)
    with torch.no_grad():
        for i, p in enumerate(list(conv.parameters()) + list(fc.parameters())):
            p.copy_(torch.from_numpy(ordinary(p.numel(), 60 + i, 0.3)).reshape(p.shape))
    x = torch.from_numpy(ordinary(2 * 2 * 6 * 6, 70, 1.0)).reshape(2, 2, 6, 6)
    with torch.autocast("cpu"):
        h = F.relu(conv(x))
        logits = fc(h.flatten(1))
        loss = F.cross_entropy(logits, torch.tensor([1, 3]))
    loss.backward()
    out = [floats(h), str(h.dtype), floats(logits), str(logits.dtype), floats(loss), str(loss.dtype)]
    for p in list(conv.parameters()) + list(fc.parameters()):
        out += [p.grad.numpy(), str(p.grad.dtype)]
    return out


if __name__ == "__main__":
    case_runner.main(CASES)
