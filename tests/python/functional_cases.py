"""Cases of torch/functional.py's functions, run the same way by this package and by real
PyTorch 1.13 (Debian's python3-torch): each case builds its inputs from numpy, calls the
functions and returns a list of results: numpy arrays (values and gradients), or strings
(dtypes, reprs, the names of the exceptions that bad input raises). test_functional.py
compares the two runs case by case.

Run directly (`python3 functional_cases.py OUT.npz`) it writes every case's results to
OUT.npz, with the `torch` that interpreter imports; a case that raises is written as the
string 'CASE FAILED: ...' so that the other cases still compare."""

import math

import numpy as np

import case_runner

CASES, case = case_runner.registry()


# Values where the functions' edges are: NaN, both infinities, both zeros, the ends of logit's
# domain and numbers of both signs and several magnitudes.
EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 2.5, -3.75, 1e-8, 100.0, 0.9])


def edge_pairs():
    a, b = np.meshgrid(EDGES, EDGES, indexing="ij")
    return a.reshape(-1), b.reshape(-1)


def randn(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def tensor(torch, a, dtype):
    return torch.from_numpy(np.array(a, dtype=np.float64)).to(dtype)


def with_grad(torch, fn, arrays, dtype, seed=0):
    """fn applied to leaves of the given dtype made from arrays (numpy arrays or plain values
    passed as they are); returns the outputs and the leaves' gradients for a random weighting
    of the outputs ('none' where no gradient arrived)."""
    leaves = [tensor(torch, a, dtype).requires_grad_() if isinstance(a, np.ndarray) else a for a in arrays]
    out = fn(*leaves)
    outs = list(out) if isinstance(out, tuple) else [out]
    rng = np.random.default_rng(seed)
    total = None
    for o in outs:
        w = torch.from_numpy(rng.standard_normal(tuple(o.shape))).to(o.dtype)
        term = (o * w).sum()
        total = term if total is None else total + term
    if total.requires_grad:  # results that do not depend on the leaves have no graph
        total.backward()
    result = [o.detach().numpy() for o in outs]
    for leaf in leaves:
        if isinstance(leaf, torch.Tensor):
            result.append("none" if leaf.grad is None else leaf.grad.numpy())
    return result


def error_name(fn):
    """The name of the exception fn() raises, or 'ok'."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001  (the type is what is compared)
        return type(exc).__name__
    return "ok"


def values(t):
    """A tensor's values and its dtype's name."""
    return [t.numpy(), str(t.dtype)]


def float_types(torch):
    return [torch.float32, torch.float64]


# ---------------------------------------------------------------------------------------------
# constants and dtype rules
# ---------------------------------------------------------------------------------------------


@case
def constants(torch):
    return [np.array([torch.inf, -torch.inf, torch.pi, torch.e]), np.array(math.isnan(torch.nan))]


def all_dtypes(torch):
    return [
        torch.bool,
        torch.uint8,
        torch.int8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.float16,
        torch.float32,
        torch.float64,
    ]


@case
def dtype_info(torch):
    out = []
    for dt in [torch.float16, torch.float32, torch.float64]:
        f = torch.finfo(dt)
        out += [np.array([f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution]), f.dtype, repr(f)]
    out.append(repr(torch.finfo()))
    out.append(str(torch.finfo(torch.float32) == torch.finfo(torch.float32)))
    for dt in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
        i = torch.iinfo(dt)
        out += [np.array([i.bits, i.max, i.min], dtype=np.float64), str(type(i.max).__name__), i.dtype, repr(i)]
    return out


@case
def dtype_info_errors(torch):
    return [
        error_name(lambda: torch.finfo(torch.int32)),
        error_name(lambda: torch.finfo(torch.bool)),
        error_name(lambda: torch.finfo("float")),
        error_name(lambda: torch.iinfo(torch.float32)),
        error_name(lambda: torch.iinfo(torch.bool)),
        error_name(lambda: torch.iinfo(3)),
        error_name(lambda: torch.iinfo()),
        error_name(lambda: hash(torch.finfo(torch.float32))),
    ]


@case
def promote_and_cast(torch):
    names = []
    for a in all_dtypes(torch):
        for b in all_dtypes(torch):
            names.append("%s %s %s" % (torch.promote_types(a, b), torch.can_cast(a, b), torch.promote_types(b, a)))
    return names


@case
def result_types(torch):
    operands = [True, 3, 2.5]
    for dt in all_dtypes(torch):
        operands.append(torch.zeros(2, dtype=dt))
        operands.append(torch.zeros((), dtype=dt))
    names = []
    for a in operands:
        for b in operands:
            if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
                names.append(str(torch.result_type(a, b)))
    names.append(str(torch.result_type(1, 2.0)))
    return names


@case
def dtype_rule_errors(torch):
    t = torch.zeros(2)
    return [
        error_name(lambda: torch.promote_types(torch.int8, 3)),
        error_name(lambda: torch.can_cast(torch.int8, "int")),
        error_name(lambda: torch.result_type(t, "a")),
        error_name(lambda: torch.result_type(t, None)),
        error_name(lambda: torch.is_complex(3)),
        str(torch.is_complex(t)),
        str(t.is_complex()),
    ]


# ---------------------------------------------------------------------------------------------
# tests of values
# ---------------------------------------------------------------------------------------------


@case
def value_tests(torch):
    out = []
    for dt in float_types(torch) + [torch.float16]:
        x = torch.from_numpy(np.concatenate([EDGES, [-np.nan, 7e4]])).to(dt)
        for fn in [torch.isnan, torch.isinf, torch.isfinite, torch.isposinf, torch.isneginf, torch.signbit]:
            out += values(fn(x))
        out += values(x.reshape(4, 4).t().signbit())
    for dt in [torch.bool, torch.uint8, torch.int8, torch.int64]:
        x = torch.tensor([0, 1, 3, 1], dtype=dt) if dt == torch.bool else torch.tensor([0, 1, 3, 5], dtype=dt)
        if dt in (torch.int8, torch.int64):
            x = x - 2
        for fn in [torch.isnan, torch.isinf, torch.isfinite, torch.isposinf, torch.isneginf, torch.signbit]:
            out += values(fn(x))
    out += values(torch.isnan(torch.zeros(0, 3)))
    return out


@case
def nan_to_num_values(torch):
    out = []
    for dt in float_types(torch) + [torch.float16]:
        x = torch.from_numpy(EDGES).to(dt)
        out += values(torch.nan_to_num(x))
        out += values(torch.nan_to_num(x, nan=1.5, posinf=2.0, neginf=-3.0))
        out += values(x.nan_to_num(neginf=0.0))
    for dt in float_types(torch):
        out += with_grad(torch, lambda v: torch.nan_to_num(v, 2.0), [EDGES], dt)
    out += values(torch.nan_to_num(torch.tensor([1, -2])))
    out += values(torch.nan_to_num(torch.tensor([True, False])))
    return out


# ---------------------------------------------------------------------------------------------
# element-wise
# ---------------------------------------------------------------------------------------------


@case
def unary_values_and_grads(torch):
    out = []
    fns = [
        torch.square,
        torch.deg2rad,
        torch.rad2deg,
        torch.logit,
        lambda v: torch.logit(v, 0.1),
        lambda v: torch.logit(v, eps=0.25),
        lambda v: torch.clamp_min(v, 0.5),
        lambda v: torch.clamp_max(v, -0.5),
    ]
    # -0.0 left out: PyTorch's logit gradient there is +inf or -inf by the element's position
    # (scalar or vectorised kernel)
    edges = np.array([x for x in EDGES if not (x == 0 and math.copysign(1, x) < 0)])
    # and NaN for logit with eps: there PyTorch's scalar kernel gives NaN, its vectorised one 0
    inside = edges[~np.isnan(edges)]
    for dt in float_types(torch):
        out += values(torch.sgn(torch.from_numpy(EDGES).to(dt)))
        for i, fn in enumerate(fns):
            out += with_grad(torch, fn, [inside if i in (4, 5) else edges], dt, seed=i)
            out += with_grad(torch, fn, [randn(i, 3, 4) * 0.5 + 0.5], dt, seed=i)
    return out


@case
def unary_dtypes(torch):
    out = []
    for dt in [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16]:
        x = torch.tensor([0, 1, 1, 0], dtype=dt) if dt == torch.bool else torch.tensor([0, 1, 3, 7], dtype=dt)
        for fn in [
            torch.square,
            torch.sgn,
            torch.deg2rad,
            torch.rad2deg,
            torch.logit,
            lambda v: torch.clamp_min(v, 2),
            lambda v: torch.clamp_min(v, 2.5),
            lambda v: torch.clamp_max(v, 2.5),
        ]:
            if dt == torch.bool and fn in (torch.sgn,):
                continue
            try:
                r = fn(x)
            except Exception as exc:  # noqa: BLE001
                out.append(type(exc).__name__)
                continue
            out += [r.float().numpy(), str(r.dtype)]
    out += values(torch.square(torch.empty(0, 2)))
    return out


BINARY = {
    "xlogy": lambda torch: torch.xlogy,
    "hypot": lambda torch: torch.hypot,
    "logaddexp": lambda torch: torch.logaddexp,
    "logaddexp2": lambda torch: torch.logaddexp2,
    "copysign": lambda torch: torch.copysign,
    "float_power": lambda torch: torch.float_power,
    "fmax": lambda torch: torch.fmax,
    "fmin": lambda torch: torch.fmin,
    "clamp_min": lambda torch: torch.clamp_min,
    "clamp_max": lambda torch: torch.clamp_max,
}


def binary_case(name):
    def run(torch):
        fn = BINARY[name](torch)
        a, b = edge_pairs()
        out = []
        for dt in float_types(torch):
            out += with_grad(torch, fn, [a, b], dt, seed=1)
            out += with_grad(torch, fn, [randn(2, 3, 1, 4), randn(3, 5, 4) * 2], dt, seed=2)
            out += with_grad(torch, fn, [randn(4, 4, 4).T, np.abs(randn(5, 4))], dt, seed=3)
            out += with_grad(torch, fn, [randn(6, 2), np.array(0.75)], dt, seed=4)
            out += with_grad(torch, fn, [np.zeros((0, 3)), randn(7, 3)[:1]], dt, seed=5)
        # mixed dtypes: the result's dtype follows PyTorch's promotion
        x32 = torch.tensor([0.5, 2.0, -1.0])
        x64 = torch.tensor([1.5, 0.25, 3.0], dtype=torch.float64)
        out += values(fn(x32, x64))
        out += values(fn(x32, torch.tensor(2.0, dtype=torch.float64)))
        out += values(fn(x64, x32[:1]))
        return out

    run.__name__ = "binary_" + name
    return run


for _name in BINARY:
    case(binary_case(_name))


@case
def binary_dtypes(torch):
    """Integer, bool and number operands: each function's promotion, or the error it raises."""
    i = torch.tensor([1, 0, -3, 4])
    b = torch.tensor([True, False, True, True])
    f = torch.tensor([0.5, 2.0, 0.0, -1.0])
    h = torch.tensor([0.5, 2.0, 0.0, -1.0], dtype=torch.float16)
    operands = [
        ("i", i),
        ("b", b),
        ("f", f),
        ("h", h),
        ("2", 2),
        ("1.5", 1.5),
        ("True", True),
        ("f0", torch.tensor(2.0, dtype=torch.float64)),
        ("i0", torch.tensor(3, dtype=torch.int32)),
    ]
    out = []
    for name in sorted(BINARY) + ["heaviside"]:
        fn = getattr(torch, name)
        for _, x in operands:
            for _, y in operands:
                try:
                    r = fn(x, y)
                except Exception as exc:  # noqa: BLE001
                    out.append(type(exc).__name__)
                    continue
                out += [r.numpy(), str(r.dtype)]
    return out


@case
def heaviside_values(torch):
    out = []
    x = torch.from_numpy(EDGES)
    for dt in float_types(torch):
        out += values(torch.heaviside(x.to(dt), torch.tensor(0.5, dtype=dt)))
        out += values(torch.heaviside(x.to(dt).reshape(2, 1, 7), torch.arange(7.0).to(dt)))
    out += values(torch.heaviside(torch.tensor([-2, 0, 3]), torch.tensor([7])))
    xg = torch.tensor([1.0, 0.0], requires_grad=True)
    out.append(error_name(lambda: torch.heaviside(xg, torch.tensor([0.5])).sum().backward()))
    return out


@case
def xlogy_scalars(torch):
    out = []
    for dt in float_types(torch):
        out += with_grad(torch, lambda y: torch.xlogy(2, y), [EDGES], dt)
        out += with_grad(torch, lambda y: torch.xlogy(0, y), [EDGES], dt)
        out += with_grad(torch, lambda x: torch.xlogy(x, 3.0), [EDGES], dt)
        out += with_grad(torch, lambda x: torch.float_power(x, 2), [EDGES], dt)
        out += with_grad(torch, lambda x: torch.float_power(2.5, x), [EDGES], dt)
        out += with_grad(torch, lambda x: torch.copysign(x, -0.0), [EDGES], dt)
    return out


@case
def elementwise_errors(torch):
    f = torch.tensor([1.0, 2.0])
    i = torch.tensor([1, 2])
    return [
        error_name(lambda: torch.hypot(f, 2.0)),
        error_name(lambda: torch.hypot(i, i)),
        error_name(lambda: torch.logaddexp(i, i)),
        error_name(lambda: torch.logaddexp2(f, 1)),
        error_name(lambda: torch.fmax(f, 1.0)),
        error_name(lambda: torch.heaviside(i, f)),
        error_name(lambda: torch.heaviside(f, 0.5)),
        error_name(lambda: torch.xlogy(2, 3)),
        error_name(lambda: torch.xlogy(f, "a")),
        error_name(lambda: torch.float_power(2, 3)),
        error_name(lambda: torch.copysign(f, torch.ones(3))),
        error_name(lambda: torch.square([1, 2])),
        error_name(lambda: torch.logit(f, "a")),
        error_name(lambda: torch.clamp_min(f, "a")),
        error_name(lambda: torch.isnan(1.0)),
        error_name(lambda: torch.nan_to_num(f, nan="a")),
    ]


@case
def out_arguments(torch):
    """out=: written and resized; refused (and left as it was) for a type it cannot hold or
    for inputs that record gradients."""
    out = []
    x = torch.tensor([0.5, 2.0, -1.0])
    for fn in [
        lambda **k: torch.square(x, **k),
        lambda **k: torch.xlogy(x, x, **k),
        lambda **k: torch.hypot(x, x, **k),
        lambda **k: torch.logaddexp(x, x, **k),
        lambda **k: torch.fmax(x, x, **k),
        lambda **k: torch.clamp_min(x, 0.0, **k),
        lambda **k: torch.nan_to_num(x, **k),
        lambda **k: torch.logit(x, **k),
        lambda **k: torch.deg2rad(x, **k),
    ]:
        o = torch.zeros(5)
        r = fn(out=o)
        out += [o.numpy(), str(r is o)]
        bad = torch.full((2,), 7, dtype=torch.int64)
        out += [error_name(lambda: fn(out=bad)), bad.numpy()]
    o64 = torch.zeros(3, dtype=torch.float64)
    out += [torch.float_power(x, 2, out=o64).numpy()]
    bad32 = torch.zeros(3)
    out += [error_name(lambda: torch.float_power(x, 2, out=bad32)), bad32.numpy()]
    ob = torch.zeros(3, dtype=torch.bool)
    out += values(torch.signbit(x, out=ob))
    xg = x.clone().requires_grad_()
    keep = torch.zeros(3)
    out += [error_name(lambda: torch.square(xg, out=keep)), keep.numpy()]
    return out


# ---------------------------------------------------------------------------------------------
# Tensor methods and in-place variants
# ---------------------------------------------------------------------------------------------


@case
def tensor_methods(torch):
    x = torch.tensor([0.5, -2.0, float("nan"), 0.25])
    y = torch.tensor([1.0, 3.0, -1.0, 0.5])
    out = []
    for name in ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "nan_to_num", "square", "sgn"]:
        out += values(getattr(x, name)())
    for name in ["deg2rad", "rad2deg", "logit", "ravel", "msort", "nansum", "nanmean"]:
        out += values(getattr(x, name)())
    for name in ["xlogy", "hypot", "logaddexp", "logaddexp2", "copysign", "heaviside", "fmax", "fmin"]:
        out += values(getattr(x, name)(y))
    for name in ["clamp_min", "clamp_max", "float_power"]:
        out += values(getattr(x, name)(0.3))
    out += values(x.inner(y))
    out += values(x.diff())
    out += values(x.broadcast_to((2, 4)))
    out += values(y.aminmax().max)
    out += values(x.take_along_dim(torch.tensor([3, 0]), 0))
    out.append(str(x.is_complex()))
    for name, arg in [
        ("nan_to_num_", ()),
        ("square_", ()),
        ("sgn_", ()),
        ("deg2rad_", ()),
        ("rad2deg_", ()),
        ("logit_", ()),
        ("xlogy_", (y,)),
        ("hypot_", (y,)),
        ("copysign_", (y,)),
        ("heaviside_", (y,)),
        ("clamp_min_", (0.3,)),
        ("clamp_max_", (y,)),
    ]:
        z = x.clone()
        r = getattr(z, name)(*arg)
        out += [z.numpy(), str(r is z)]
    d = x.double()
    out += [d.float_power_(2).numpy()]
    i = torch.tensor([1, 2, 3])
    for name, arg in [("deg2rad_", ()), ("logit_", ()), ("xlogy_", (i,)), ("clamp_min_", (1.5,))]:
        out += [error_name(lambda: getattr(i, name)(*arg)), i.numpy()]
    out += [error_name(lambda: x.clone().float_power_(2))]
    out += [error_name(lambda: x.clone().xlogy_(torch.ones(2, 4)))]
    return out


# ---------------------------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------------------------


def with_nans(seed, *shape):
    a = randn(seed, *shape)
    a[np.random.default_rng(seed + 100).random(shape) < 0.3] = np.nan
    return a


@case
def nan_reductions(torch):
    out = []
    a = with_nans(1, 3, 4, 5)
    for dt in float_types(torch):
        for fn in [
            torch.nansum,
            torch.nanmean,
            lambda v: torch.nansum(v, 1),
            lambda v: torch.nanmean(v, (0, 2), keepdim=True),
            lambda v: torch.nansum(v, dim=[-1, 0]),
            lambda v: torch.nanmean(v, -1),
            lambda v: torch.nansum(v, 2, True),
        ]:
            out += with_grad(torch, fn, [a], dt, seed=3)
        out += with_grad(torch, lambda v: torch.nanmean(v, 1), [np.full((2, 3), np.nan)], dt)
        out += with_grad(torch, torch.nansum, [np.zeros((0, 3))], dt)
        out += with_grad(torch, torch.nanmean, [np.array(np.nan)], dt)
    out += values(torch.nansum(torch.from_numpy(a), 0, dtype=torch.float32))
    out += values(torch.nansum(torch.tensor([[1, 2], [3, 4]], dtype=torch.int32), 1))
    out += values(torch.nansum(torch.tensor([True, True, False])))
    out.append(error_name(lambda: torch.nanmean(torch.tensor([1, 2]))))
    out.append(error_name(lambda: torch.nansum(torch.zeros(2, 3), 2)))
    out.append(error_name(lambda: torch.nansum(torch.zeros(2, 3), (0, 0))))
    return out


@case
def variance_and_mean(torch):
    out = []
    a = randn(4, 3, 4, 2)
    a[1, :, 0] = 2.0  # a constant slice: its standard deviation is 0, and so is its gradient
    for dt in float_types(torch):
        for fn in [torch.std_mean, torch.var_mean]:
            for call in [
                lambda v: fn(v),
                lambda v: fn(v, 1),
                lambda v: fn(v, (0, 2)),
                lambda v: fn(v, 1, False),
                lambda v: fn(v, False),
                lambda v: fn(v, dim=-1, keepdim=True),
                lambda v: fn(v, 1, unbiased=True, keepdim=True),
                lambda v: fn(v, dim=(1,), correction=0),
                lambda v: fn(v, dim=2, correction=2),
                lambda v: fn(v, [0, 1, 2]),
            ]:
                out += with_grad(torch, call, [a], dt, seed=7)
            out += with_grad(torch, lambda v: fn(v, 0), [randn(5, 1, 3)[:1]], dt)
            out += with_grad(torch, lambda v: fn(v), [np.array(1.5)], dt)
    out.append(error_name(lambda: torch.std_mean(torch.tensor([1, 2]))))
    out.append(error_name(lambda: torch.var_mean(torch.zeros(2, 3), 3)))
    out.append(error_name(lambda: torch.var_mean([1.0, 2.0])))
    out.append(error_name(lambda: torch.std_mean(torch.zeros(2, 3), 1, True, correction=1)))
    return out


def minmax_with_grad(torch, v, **kwargs):
    try:
        result = tuple(torch.aminmax(v, **kwargs))
        torch.autograd.grad(result[0].sum() + result[1].sum(), v, retain_graph=True)
        return result
    except RuntimeError:  # real PyTorch 1.13; test_functional.py checks that ours does not raise
        if "dim" not in kwargs:
            return torch.amin(v), torch.amax(v)
        return torch.amin(v, kwargs["dim"], kwargs.get("keepdim", False)), torch.amax(
            v, kwargs["dim"], kwargs.get("keepdim", False)
        )


@case
def aminmax_values(torch):
    out = []
    a = np.round(randn(5, 3, 4) * 2)  # rounded: ties, among which the gradient is shared
    for dt in float_types(torch):
        for kwargs in [{}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"keepdim": True}, {"dim": 0}]:
            out += [r.numpy() for r in torch.aminmax(tensor(torch, a, dt), **kwargs)]
        out += with_grad(torch, lambda v: torch.msort(v), [a], dt, seed=8)
        out += [r.numpy() for r in torch.aminmax(tensor(torch, [1.0, np.nan, -2.0], dt))]
        out += [r.numpy() for r in torch.aminmax(tensor(torch, 3.0, dt), dim=0)]
        out += [r.numpy() for r in tensor(torch, a, dt).aminmax(dim=0)]
    # PyTorch 1.13 has no derivative for aminmax (it raises); its gradient is amin's and amax's
    for dt in float_types(torch):
        for kwargs in [{}, {"dim": 1}, {"dim": -1, "keepdim": True}]:
            out += with_grad(torch, lambda v: minmax_with_grad(torch, v, **kwargs), [a], dt, seed=8)
    r = torch.aminmax(torch.tensor([[3, -1], [2, 7]]), dim=1)
    out += values(r.min) + values(r.max) + [type(r).__name__, str(type(r).__module__), str(len(r)), str(r[1] is r.max)]
    out += values(torch.aminmax(torch.tensor([True, False])).min)
    out += values(torch.msort(torch.tensor([[3, 1], [-2, 5], [0, 0]])))
    out += values(torch.msort(torch.tensor([2.0, np.nan, -1.0])))
    lo, hi = torch.zeros(1), torch.zeros(1)
    r = torch.aminmax(torch.tensor([[1.0, 5.0], [-2.0, 3.0]]), dim=0, out=(lo, hi))
    out += [lo.numpy(), hi.numpy(), str(r.min is lo)]
    out.append(error_name(lambda: torch.aminmax(torch.zeros(0))))
    out.append(error_name(lambda: torch.aminmax(torch.zeros(2, 0), dim=1)))
    out.append(error_name(lambda: torch.aminmax(torch.zeros(2, 3), dim=2)))
    out.append(error_name(lambda: torch.aminmax(torch.zeros(2, 3), 1)))
    return out


# ---------------------------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------------------------


@case
def clone_ravel_broadcast(torch):
    out = []
    base = torch.arange(12.0).reshape(3, 4)
    c = torch.clone(base.t())
    c[0, 0] = 100.0
    out += [base.numpy(), c.numpy()]
    out += values(torch.ravel(base.t()))
    out += values(torch.ravel(torch.tensor(5)))
    out += [str(torch.broadcast_shapes((3, 1), (1, 4), (2, 1, 1))), str(torch.broadcast_shapes(5, (1,)))]
    out += [str(torch.broadcast_shapes()), str(torch.broadcast_shapes((0, 1), (3,))), str(torch.broadcast_shapes([]))]
    a, b, s = torch.broadcast_tensors(torch.ones(3, 1), torch.arange(4.0), torch.tensor(2.0))
    out += [a.numpy(), b.numpy(), s.numpy(), str(a.shape)]
    out += values(torch.broadcast_to(torch.arange(3), (2, 3)))
    out += values(torch.broadcast_to(torch.arange(3), (2, -1)))
    for dt in float_types(torch):
        out += with_grad(torch, lambda u, v: torch.broadcast_tensors(u, v), [randn(1, 3), randn(4, 1)], dt)
        out += with_grad(torch, lambda u: torch.broadcast_to(u, (2, 3, 4)), [randn(3, 1)], dt)
        out += with_grad(torch, lambda u: torch.ravel(u.t()), [randn(3, 4)], dt)
        out += with_grad(torch, lambda u: torch.clone(u) * 2, [randn(3, 4)], dt)
    out.append(error_name(lambda: torch.broadcast_shapes((3,), (4,))))
    out.append(error_name(lambda: torch.broadcast_shapes((2, 3), (3, 3, 3))))
    out.append(error_name(lambda: torch.broadcast_shapes("ab")))
    out.append(error_name(lambda: torch.broadcast_tensors(torch.ones(2), torch.ones(3))))
    out.append(error_name(lambda: torch.broadcast_tensors(torch.ones(2), [1.0])))
    out.append(error_name(lambda: torch.broadcast_to(torch.ones(2, 3), (3,))))
    out.append(error_name(lambda: torch.clone([1])))
    return out


@case
def products_and_combinations(torch):
    out = []
    out += values(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
    out += values(torch.cartesian_prod(torch.tensor([1.0, 2.0]), torch.tensor([0.5]), torch.tensor([7.0, 8.0])))
    out += values(torch.cartesian_prod(torch.tensor([1, 2, 3])))
    out += values(torch.cartesian_prod(torch.tensor([1.0, 2.0]), torch.zeros(0)))
    x = torch.tensor([4, 1, 9, 6])
    for r in [0, 1, 2, 3, 4, 5]:
        for rep in [False, True]:
            out += values(torch.combinations(x, r, rep))
    out += values(torch.combinations(torch.zeros(0)))
    for dt in float_types(torch):
        out += with_grad(torch, lambda u, v: torch.cartesian_prod(u, v), [randn(1, 3), randn(2, 2)], dt)
        out += with_grad(torch, lambda u: torch.combinations(u, 3, with_replacement=True), [randn(5, 4)], dt)
        out += with_grad(torch, lambda u: torch.combinations(u), [randn(6, 5)], dt)
    out.append(error_name(lambda: torch.cartesian_prod(torch.ones(2, 2), torch.ones(2))))
    out.append(error_name(lambda: torch.cartesian_prod(torch.ones(2), torch.tensor([1, 2]))))
    out.append(error_name(lambda: torch.combinations(torch.ones(2, 2))))
    out.append(error_name(lambda: torch.combinations(x, -1)))
    out.append(error_name(lambda: torch.combinations(x, 1.5)))
    return out


@case
def block_diagonals(torch):
    out = []
    out += values(torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor(5), torch.tensor([6, 7, 8])))
    out += values(torch.block_diag(torch.ones(2, 1), torch.tensor([[2.5]], dtype=torch.float64), torch.zeros(0, 2)))
    out += values(torch.block_diag(torch.ones(1, 2)))
    out += values(torch.block_diag())
    out += values(torch.block_diag(torch.zeros(2, 0), torch.ones(0, 3)))
    for dt in float_types(torch):
        out += with_grad(
            torch, lambda a, b, c: torch.block_diag(a, b, c), [randn(1, 2, 3), randn(2, 4), np.array(1.5)], dt
        )
    out.append(error_name(lambda: torch.block_diag(torch.ones(1, 1, 1))))
    out.append(error_name(lambda: torch.block_diag(torch.ones(1), [1])))
    return out


@case
def contractions(torch):
    out = []
    a, b = randn(1, 2, 3, 4), randn(2, 3, 4, 5)
    c = randn(3, 3, 4, 3)
    for dt in float_types(torch):
        out += with_grad(torch, lambda u, v: torch.tensordot(u, v), [a, b], dt)
        out += with_grad(torch, lambda u, v: torch.tensordot(u, v, dims=1), [b.transpose(2, 1, 0), randn(20, 3, 2)], dt)
        out += with_grad(torch, lambda u, v: torch.tensordot(u, v, 0), [randn(4, 2), randn(5, 3)], dt)
        out += with_grad(torch, lambda u, v: torch.tensordot(u, v, ([0, 2], [1, 0])), [c, randn(6, 3, 3, 2)], dt)
        out += with_grad(torch, lambda u, v: torch.tensordot(u, v, dims=([-1], [0])), [c, randn(7, 3, 5)], dt)
        out += with_grad(torch, lambda u, v: torch.inner(u, v), [randn(8, 2, 3), randn(9, 4, 3)], dt)
        out += with_grad(torch, lambda u, v: torch.inner(u, v), [randn(8, 3), randn(9, 3)], dt)
        out += with_grad(torch, lambda u, v: torch.inner(u, v), [randn(10, 2, 3), np.array(2.5)], dt)
        out += with_grad(torch, lambda u, v: torch.inner(u, v), [np.zeros((2, 0)), np.zeros((3, 0))], dt)
    out += values(torch.tensordot(torch.arange(6).reshape(2, 3), torch.arange(6).reshape(3, 2), 1))
    out += values(torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), torch.tensor(1)))
    out += values(torch.inner(torch.tensor([1, 2]), torch.tensor([3, 4])))
    o = torch.zeros(1)
    torch.inner(torch.ones(2, 3), torch.ones(4, 3), out=o)
    out += [o.numpy()]
    out.append(error_name(lambda: torch.tensordot(torch.ones(2, 3), torch.ones(4, 3), 1)))
    out.append(error_name(lambda: torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), -1)))
    out.append(error_name(lambda: torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), 3)))
    out.append(error_name(lambda: torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), ([0, 1], [1]))))
    out.append(error_name(lambda: torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), ([5], [0]))))
    out.append(error_name(lambda: torch.inner(torch.ones(2, 3), torch.ones(2, 4))))
    out.append(error_name(lambda: torch.inner(torch.ones(2, 3), [1.0])))
    return out


@case
def take_along(torch):
    out = []
    a = randn(11, 3, 4)
    idx = torch.tensor([[0, 2, 3], [1, 1, 0], [3, 3, 3]])
    for dt in float_types(torch):
        out += with_grad(torch, lambda u: torch.take_along_dim(u, idx, 1), [a], dt)
        out += with_grad(torch, lambda u: torch.take_along_dim(u, torch.tensor([5, 0, 11, 5])), [a], dt)
        out += with_grad(torch, lambda u: torch.take_along_dim(u, torch.tensor([[2], [0]]), dim=0), [a], dt)
        out += with_grad(torch, lambda u: torch.take_along_dim(u, torch.tensor([[0, 0]]), -1), [randn(12, 3, 1)], dt)
        out += with_grad(
            torch, lambda u: torch.take_along_dim(u, torch.argsort(u, dim=1), dim=1), [randn(13, 3, 4)], dt
        )
    out += values(torch.take_along_dim(torch.arange(6).reshape(2, 3), torch.tensor([[2, 0]]), 1))
    out.append(error_name(lambda: torch.take_along_dim(torch.ones(3), torch.tensor([0], dtype=torch.int32))))
    out.append(error_name(lambda: torch.take_along_dim(torch.ones(3, 2), torch.tensor([0]), 0)))
    out.append(error_name(lambda: torch.take_along_dim(torch.ones(3, 2), torch.tensor([[0]]), 2)))
    out.append(error_name(lambda: torch.take_along_dim(torch.ones(3, 2), torch.tensor([[0, 1]] * 2), 0)))
    out.append(error_name(lambda: torch.take_along_dim(torch.ones(3), torch.tensor([7]))))
    return out


@case
def differences(torch):
    out = []
    a = randn(14, 3, 6)
    for dt in float_types(torch):
        for call in [
            lambda u: torch.diff(u),
            lambda u: torch.diff(u, 2),
            lambda u: torch.diff(u, n=3, dim=0),
            lambda u: torch.diff(u, 0),
            lambda u: torch.diff(u, 7),
            lambda u: torch.diff(u, dim=0, prepend=u[:1] * 2, append=u[-1:]),
            lambda u: torch.diff(u, 2, -1, append=u[:, :2]),
        ]:
            out += with_grad(torch, call, [a], dt, seed=9)
    out += values(torch.diff(torch.tensor([1, 4, 9, 16, 25]), 2))
    out += values(torch.diff(torch.tensor([True, False, False, True])))
    out += values(torch.diff(torch.tensor([True, False, False, True]), 2))
    out += values(torch.diff(torch.tensor([1, 3], dtype=torch.uint8), prepend=torch.tensor([5], dtype=torch.uint8)))
    out += values(torch.diff(torch.zeros(0)))
    out.append(error_name(lambda: torch.diff(torch.tensor(3.0))))
    out.append(error_name(lambda: torch.diff(torch.ones(3), -1)))
    out.append(error_name(lambda: torch.diff(torch.ones(3, 2), prepend=torch.ones(2))))
    out.append(error_name(lambda: torch.diff(torch.ones(3), dim=1)))
    return out


@case
def vandermonde(torch):
    out = []
    out += values(torch.vander(torch.tensor([1, 2, 3, 5])))
    out += values(torch.vander(torch.tensor([1, 2, 3]), N=5, increasing=True))
    out += values(torch.vander(torch.tensor([True, False]), 3))
    out += values(torch.vander(torch.tensor([2, 3], dtype=torch.int8)))
    out += values(torch.vander(torch.tensor([1.5, -2.0]), 0))
    out += values(torch.vander(torch.zeros(0)))
    for dt in float_types(torch):
        out += values(torch.vander(tensor(torch, [0.0, 1.5, -2.0, 0.5], dt)))
        out += values(torch.vander(tensor(torch, [0.0, -1.0, 3.0, np.nan, np.inf], dt), 3, True))
    out.append(error_name(lambda: torch.vander(torch.ones(2, 2))))
    out.append(error_name(lambda: torch.vander(torch.ones(2), -1)))
    return out


@case
def trapezoids(torch):
    out = []
    y = randn(15, 3, 5)
    xs = np.sort(randn(16, 5))
    x2 = np.sort(randn(17, 3, 5), axis=1)
    for dt in float_types(torch):
        for call in [
            lambda u, v: torch.trapezoid(u),
            lambda u, v: torch.trapezoid(u, dx=0.5),
            lambda u, v: torch.trapezoid(u, v),
            lambda u, v: torch.trapezoid(u, dim=0),
            lambda u, v: torch.trapz(u, v),
            lambda u, v: torch.trapz(u, dx=2.0, dim=0),
            lambda u, v: torch.trapz(u),
        ]:
            out += with_grad(torch, call, [y, xs], dt, seed=10)
        out += with_grad(torch, lambda u, v: torch.trapezoid(u, v, dim=1), [y, x2], dt)
        out += with_grad(torch, lambda u, v: torch.trapezoid(u, v.t(), dim=0), [y.T, xs[None, :].repeat(3, 0)], dt)
        out += with_grad(torch, lambda u: torch.trapezoid(u), [np.zeros((2, 0))], dt)
        out += with_grad(torch, lambda u: torch.trapezoid(u), [np.ones((2, 1))], dt)
    out += values(torch.trapezoid(torch.tensor([1, 2, 4])))
    out += values(torch.trapezoid(torch.tensor([1, 2, 4]), torch.tensor([0, 1, 3])))
    out += values(torch.trapz(torch.tensor([1, 2, 4]), dx=2))
    out.append(error_name(lambda: torch.trapezoid(torch.ones(3), torch.ones(4))))
    out.append(error_name(lambda: torch.trapezoid(torch.ones(3), 2.0)))
    out.append(error_name(lambda: torch.trapezoid(torch.ones(3), dim=1)))
    out.append(error_name(lambda: torch.trapezoid(torch.ones(3), torch.ones(3), dx=2)))
    return out


# ---------------------------------------------------------------------------------------------
# searching, counting, order statistics, distances, contractions
# ---------------------------------------------------------------------------------------------


@case
def cumulative_extremes(torch):
    out = []
    a = np.round(randn(18, 3, 7) * 2)  # rounded: ties, where the later index wins
    a[1, 2] = np.nan
    a[2, 5] = np.nan
    for dt in float_types(torch):
        for call in [
            lambda v: tuple(torch.cummax(v, 1)),
            lambda v: tuple(torch.cummin(v, -1)),
            lambda v: tuple(torch.cummax(v, 0)),
            lambda v: tuple(v.cummin(dim=0)),
        ]:
            out += with_grad(torch, lambda v: call(v)[0], [a], dt, seed=11)
            out.append(call(tensor(torch, a, dt))[1].numpy())
        out += with_grad(torch, lambda v: torch.cummax(v, 0)[0], [np.array(2.0)], dt)
        out += with_grad(torch, lambda v: torch.cummin(v, 0)[0], [np.zeros(0)], dt)
        out += with_grad(torch, lambda v: torch.cummax(v, 0)[0], [np.array([np.inf, 1.0, -np.inf, np.inf])], dt)
    r = torch.cummax(torch.tensor([[1, 3, 3, 2], [5, -1, 7, 7]]), 1)
    out += values(r.values) + values(r.indices) + [type(r).__name__]
    out += values(torch.cummin(torch.tensor([True, False, True]), 0).indices)
    out.append(error_name(lambda: torch.cummax(torch.ones(2), 1)))
    out.append(error_name(lambda: torch.cummax(torch.ones(2))))
    return out


@case
def searching(torch):
    out = []
    seq = torch.tensor([1.0, 3.0, 3.0, 5.0, 7.0, 9.0, np.nan])
    vals = torch.tensor([[-1.0, 3.0, 4.0], [9.0, 10.0, np.nan]])
    for kwargs in [{}, {"right": True}, {"side": "right"}, {"side": "left"}, {"out_int32": True}]:
        out += values(torch.searchsorted(seq, vals, **kwargs))
    out += values(torch.searchsorted(seq, 3.0))
    out += values(torch.searchsorted(seq, 3, right=True))
    batched = torch.tensor([[1, 2, 3, 4], [10, 20, 30, 40]])
    out += values(torch.searchsorted(batched, torch.tensor([[0, 2, 5], [25, 40, 45]])))
    out += values(torch.searchsorted(batched, torch.tensor([[0, 2, 5], [25, 40, 45]]), right=True))
    unsorted = torch.tensor([5.0, 1.0, 9.0, 3.0])
    out += values(torch.searchsorted(unsorted, torch.tensor([2.0, 9.0]), sorter=torch.argsort(unsorted)))
    out += values(torch.searchsorted(torch.zeros(0), torch.tensor([1.0, 2.0])))
    out += values(torch.searchsorted(torch.tensor([1, 3, 5]), torch.tensor([2.5, 3.0])))
    big = torch.arange(1000) * 2
    out += values(torch.searchsorted(big, torch.tensor([-5, 0, 1, 777, 1998, 1999, 5000])))
    for kwargs in [{}, {"right": True}, {"out_int32": True}]:
        out += values(torch.bucketize(vals, torch.tensor([0.0, 3.0, 9.0]), **kwargs))
    out += values(torch.bucketize(4, torch.tensor([1, 5])))
    o = torch.zeros(1, dtype=torch.int64)
    torch.searchsorted(seq, vals, out=o)
    out += [o.numpy()]
    out.append(error_name(lambda: torch.searchsorted(seq, vals, right=True, side="left")))
    out.append(error_name(lambda: torch.searchsorted(batched, torch.tensor([1, 2]))))
    out.append(error_name(lambda: torch.searchsorted(seq, vals, sorter=torch.tensor([0, 1]))))
    out.append(error_name(lambda: torch.bucketize(vals, torch.ones(2, 2))))
    out.append(error_name(lambda: torch.searchsorted([1, 2], vals)))
    return out


@case
def counting(torch):
    out = []
    x = torch.tensor([0, 1, 1, 3, 7, 1])
    out += values(torch.bincount(x))
    out += values(torch.bincount(x, minlength=10))
    out += values(torch.bincount(x, torch.tensor([0.5, 1.0, 2.0, 1.5, 1.0, 0.25])))
    out += values(torch.bincount(x, torch.tensor([0.5, 1.0, 2.0, 1.5, 1.0, 0.25], dtype=torch.float64)))
    out += values(torch.bincount(x, torch.tensor([1, 2, 3, 4, 5, 6])))
    out += values(torch.bincount(torch.tensor([], dtype=torch.int64)))
    out += values(torch.bincount(torch.tensor([], dtype=torch.int64), minlength=3))
    out += values(torch.bincount(torch.tensor([2, 0], dtype=torch.uint8)))
    out += values(x.bincount(minlength=2))
    out.append(error_name(lambda: torch.bincount(torch.tensor([-1, 2]))))
    out.append(error_name(lambda: torch.bincount(torch.tensor([[1, 2]]))))
    out.append(error_name(lambda: torch.bincount(torch.tensor([1.0, 2.0]))))
    out.append(error_name(lambda: torch.bincount(x, torch.ones(2))))
    out.append(error_name(lambda: torch.bincount(x, minlength=-1)))
    return out


@case
def quantiles(torch):
    out = []
    a = randn(19, 3, 6)
    b = a.copy()
    b[0, 1] = np.nan
    b[2] = np.nan
    for dt in float_types(torch):
        q = tensor(torch, [0.0, 0.1, 0.5, 0.75, 1.0], dt)
        for fn in [torch.quantile, torch.nanquantile]:
            for call in [
                lambda v: fn(v, 0.3),
                lambda v: fn(v, q),
                lambda v: fn(v, q, dim=1),
                lambda v: fn(v, 0.25, 0, keepdim=True),
                lambda v: fn(v, q, dim=-1, keepdim=True),
                lambda v: fn(v, q, keepdim=True),
                lambda v: fn(v, tensor(torch, 0.6, dt), 1),
            ]:
                out += with_grad(torch, call, [a], dt, seed=12)
                out += values(call(tensor(torch, b, dt)))
            for mode in ["lower", "higher", "midpoint", "nearest", "linear"]:
                out += with_grad(torch, lambda v: fn(v, q, 1, interpolation=mode), [a], dt, seed=13)
                out += values(fn(tensor(torch, b, dt), q, 1, interpolation=mode))
            out += with_grad(torch, lambda v: fn(v, 0.5), [np.array(2.5)], dt)
            out += with_grad(torch, lambda v: fn(v, 0.5, 0), [np.array(2.5)], dt)
    x = torch.tensor([1.0, 2.0])
    for fn in [torch.quantile, torch.nanquantile]:
        out.append(error_name(lambda: fn(x, 1.5)))
        out.append(error_name(lambda: fn(x, torch.tensor([0.5], dtype=torch.float64))))
        out.append(error_name(lambda: fn(torch.tensor([1, 2]), 0.5)))
        out.append(error_name(lambda: fn(torch.zeros(0), 0.5)))
        out.append(error_name(lambda: fn(x, torch.ones(1, 1) * 0.5)))
        out.append(error_name(lambda: fn(x, 0.5, interpolation="cubic")))
        out.append(error_name(lambda: fn(x, 0.5, dim=1)))
    return out


@case
def distances(torch):
    out = []
    x1 = randn(20, 2, 5, 3)
    x2 = randn(21, 4, 3)
    x2[0] = x1[0, 0]  # a zero distance, where the gradient is 0
    for dt in float_types(torch):
        for p in [2.0, 1.0, 0.0, 3.0, 0.5, np.inf]:
            out += with_grad(torch, lambda u, v: torch.cdist(u, v, p=p), [x1, x2], dt, seed=14)
        out += with_grad(torch, lambda u, v: torch.cdist(u, v), [randn(22, 30, 3), randn(23, 4, 3)], dt)
        out += with_grad(torch, lambda u, v: torch.cdist(u, v, compute_mode="use_mm_for_euclid_dist"), [x1, x2], dt)
        out += with_grad(
            torch,
            lambda u, v: torch.cdist(u, v, compute_mode="donot_use_mm_for_euclid_dist"),
            [randn(22, 30, 3), randn(23, 4, 3)],
            dt,
        )
        out += with_grad(torch, lambda u, v: torch.cdist(u, v), [np.zeros((0, 3)), randn(24, 2, 3)], dt)
    out.append(error_name(lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 4))))
    out.append(error_name(lambda: torch.cdist(torch.ones(3), torch.ones(2, 3))))
    out.append(error_name(lambda: torch.cdist(torch.ones(2, 3, dtype=torch.int64), torch.ones(2, 3))))
    out.append(error_name(lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3), p=-1)))
    out.append(error_name(lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3), compute_mode="fast")))
    return out


@case
def einsums(torch):
    out = []
    a, b, c = randn(25, 3, 4), randn(26, 4, 5), randn(27, 5)
    sq = randn(28, 4, 4)
    batch = randn(29, 2, 3, 4)
    calls = [
        ("ij,jk->ik", [a, b]),
        ("ij,jk", [a, b]),
        ("ij,jk,k->i", [a, b, c]),
        ("ii->i", [sq]),
        ("ii", [sq]),
        ("ij->ji", [a]),
        ("ij->", [a]),
        ("i,j->ij", [c, c]),
        ("bij,bjk->bik", [batch, randn(30, 2, 4, 3)]),
        ("...ij,...jk->...ik", [batch, randn(31, 4, 2)]),
        ("...j,j->...", [batch, randn(32, 4)]),
        ("b...,b->...", [batch, randn(33, 2)]),
        ("ij,ij->i", [a, a * 2]),
        ("i,i", [c, c]),
        ("iij->j", [randn(34, 3, 3, 2)]),
        ("ab,cd->abcd", [randn(35, 2, 1), randn(36, 1, 3)]),
        ("ij,kj->ik", [a, randn(37, 2, 4)]),
        ("...", [a]),
        (" i j , j k -> i k ", [a, b]),
    ]
    for dt in float_types(torch):
        for eq, ops in calls:
            out += with_grad(torch, lambda *ts: torch.einsum(eq, *ts), ops, dt, seed=15)
        out += with_grad(torch, lambda u, v: torch.einsum("ij,jk->ik", [u, v]), [a, b], dt)
    out += values(torch.einsum("ij,j->i", torch.arange(6).reshape(2, 3), torch.tensor([1, 0, 2])))
    out += values(torch.einsum("ij,jk->ik", torch.zeros(2, 0), torch.zeros(0, 3)))
    t = torch.ones(2, 3)
    out.append(error_name(lambda: torch.einsum("ij,jk->ik", t)))
    out.append(error_name(lambda: torch.einsum("ij,jk->ik", t, torch.ones(4, 2))))
    out.append(error_name(lambda: torch.einsum("ijk", t)))
    out.append(error_name(lambda: torch.einsum("ij->ii", t)))
    out.append(error_name(lambda: torch.einsum("ij->k", t)))
    out.append(error_name(lambda: torch.einsum("i1", t)))
    out.append(error_name(lambda: torch.einsum("ii", t)))
    out.append(error_name(lambda: torch.einsum("ij,jk", t, torch.ones(3, 2, dtype=torch.float64))))
    return out


if __name__ == "__main__":
    case_runner.main(CASES)
