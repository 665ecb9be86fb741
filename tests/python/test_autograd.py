"""Autograd: analytical gradients against central differences (gradcheck, double precision),
against hand-derived formulas, and the engine's behaviour (in-place checks, hooks,
retain_graph, create_graph, no_grad, custom Functions)."""

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck


def leaf(shape, rng, low=-2.0, high=2.0):
    return torch.from_numpy(rng.uniform(low, high, shape)).requires_grad_()


def positive(shape, rng):
    return leaf(shape, rng, 0.5, 2.0)


# ---- pointwise ----

UNARY = {
    "neg": lambda x: -x,
    "abs": torch.abs,
    "exp": torch.exp,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "sin": torch.sin,
    "cos": torch.cos,
    "tan": lambda x: torch.tan(x * 0.3),
    "atan": torch.atan,
    "sinh": torch.sinh,
    "cosh": torch.cosh,
    "frac": lambda x: torch.frac(x) * 1.0,
    "asin": lambda x: torch.asin(x * 0.4),
    "acos": lambda x: torch.acos(x * 0.4),
    "expm1": torch.expm1,
    "erf": torch.erf,
    "erfc": torch.erfc,
}
UNARY_POSITIVE = {
    "log": torch.log,
    "log1p": torch.log1p,
    "sqrt": torch.sqrt,
    "rsqrt": torch.rsqrt,
    "reciprocal": torch.reciprocal,
    "log2": torch.log2,
    "log10": torch.log10,
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradcheck(name, rng):
    x = leaf((3, 4), rng)
    x.data.add_(torch.from_numpy(np.where(np.abs(x.detach().numpy()) < 0.05, 0.2, 0.0)))  # away from kinks
    assert gradcheck(UNARY[name], (x,))


@pytest.mark.parametrize("name", sorted(UNARY_POSITIVE))
def test_unary_positive_gradcheck(name, rng):
    assert gradcheck(UNARY_POSITIVE[name], (positive((4, 3), rng),))


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "add_alpha": lambda a, b: torch.add(a, b, alpha=-2.5),
    "atan2": torch.atan2,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "pow": lambda a, b: a**b,
    "fmod": torch.fmod,
    "remainder": torch.remainder,
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (4,))])
def test_binary_gradcheck_with_broadcasting(name, shapes, rng):
    a, b = positive(shapes[0], rng), positive(shapes[1], rng)
    grads = torch.autograd.grad(BINARY[name](a, b).sum(), (a, b))
    assert grads[0].shape == a.shape and grads[1].shape == b.shape  # summed back over broadcasting
    assert gradcheck(BINARY[name], (a, b))


def test_scalar_operands(rng):
    x = positive((3,), rng)
    for f in (
        lambda x: x * 3,
        lambda x: 2 - x,
        lambda x: 2 / x,
        lambda x: x**2.5,
        lambda x: 2**x,
        lambda x: x + 1,
        lambda x: torch.clamp(x, 0.8, 1.5),
        lambda x: torch.clamp(x, min=1.0),
    ):
        assert gradcheck(f, (x,))


def test_addcmul_addcdiv_lerp_where(rng):
    s, a, b = positive((3, 4), rng), positive((3, 4), rng), positive((4,), rng)
    assert gradcheck(lambda s, a, b: torch.addcmul(s, a, b, value=0.7), (s, a, b))
    assert gradcheck(lambda s, a, b: torch.addcdiv(s, a, b, value=-1.5), (s, a, b))
    assert gradcheck(lambda a, b: torch.lerp(a, b, 0.3), (a, b))
    cond = torch.from_numpy(rng.random((3, 4)) < 0.5)
    assert gradcheck(lambda a, b: torch.where(cond, a, b), (a, b))


def test_hand_derived_gradients(rng):
    x = leaf((5,), rng)
    (x * x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * x.detach().numpy() ** 2, rtol=1e-12)
    y = positive((4,), rng)
    torch.log(y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), 1 / y.detach().numpy(), rtol=1e-12)


# ---- reductions ----

REDUCTIONS = {
    "sum": lambda x: x.sum(),
    "sum_dim": lambda x: x.sum(1),
    "sum_dims_keep": lambda x: x.sum((0, 2), keepdim=True),
    "mean": lambda x: x.mean(),
    "mean_dim": lambda x: x.mean(-1),
    "prod": lambda x: x.prod(),
    "prod_dim": lambda x: x.prod(1),
    "var": lambda x: x.var(),
    "var_dim": lambda x: x.var(1, unbiased=False),
    "std": lambda x: x.std(),
    "std_dim": lambda x: x.std(2, keepdim=True),
    "norm": lambda x: x.norm(),
    "norm_p3_dim": lambda x: x.norm(3, 1),
    "norm_p1": lambda x: x.norm(1),
    "norm_inf": lambda x: x.norm(float("inf")),
    "logsumexp": lambda x: torch.logsumexp(x, 1),
    "max": lambda x: x.max(),
    "min_dim": lambda x: x.min(1)[0],
    "max_dim_keep": lambda x: x.max(2, keepdim=True)[0],
    "amax": lambda x: torch.amax(x, (0, 1)),
    "median_dim": lambda x: x.median(1)[0],
    "kthvalue": lambda x: x.kthvalue(2, 2)[0],
    "sort": lambda x: x.sort(1)[0],
    "topk": lambda x: x.topk(2, 2)[0],
    "cumsum": lambda x: x.cumsum(1),
    "cumprod": lambda x: x.cumprod(2),
    "median": lambda x: x.median(),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reduction_gradcheck(name, rng):
    x = leaf((3, 4, 5), rng)
    if name.startswith("cumprod") or name.startswith("prod"):
        x = positive((3, 4, 5), rng)
    assert gradcheck(REDUCTIONS[name], (x,))


def test_prod_with_zeros(rng):
    x = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.5, 2.0, 4.0]], dtype=torch.float64, requires_grad=True)
    x.prod(1).sum().backward()
    expected = [[0, 6, 0], [0, 0, 0], [8, 6, 3]]
    np.testing.assert_allclose(x.grad.numpy(), expected)


@pytest.mark.parametrize("dim", [0, 1])
def test_cumprod_through_zeros_first_and_second_derivative(dim):
    # One zero, two zeros, a leading and a trailing zero: the gradient after a slice's first
    # zero is 0, but its derivative by that zero is not (checked numerically).
    x = torch.tensor(
        [[2.0, 0.0, 3.0, 0.5], [0.0, 1.5, 0.0, 2.0], [1.0, 1.5, 2.0, 0.0], [0.7, -1.2, 0.4, 1.3]],
        dtype=torch.float64,
        requires_grad=True,
    )
    assert gradcheck(lambda t: torch.cumprod(t, dim), (x,))
    assert gradgradcheck(lambda t: torch.cumprod(t, dim), (x,))


def test_trace_and_ties(rng):
    x = leaf((3, 3), rng)
    assert gradcheck(torch.trace, (x,))
    t = torch.tensor([1.0, 3.0, 3.0, 2.0], dtype=torch.float64, requires_grad=True)
    t.max().backward()
    np.testing.assert_allclose(t.grad.numpy(), [0, 0.5, 0.5, 0])  # ties share


# ---- views ----

VIEWS = {
    "select": lambda x: x.select(1, 2),
    "narrow": lambda x: x.narrow(2, 1, 3),
    "transpose": lambda x: x.transpose(0, 2),
    "t_of_select": lambda x: x.select(0, 1).t(),
    "permute": lambda x: x.permute(2, 0, 1),
    "view": lambda x: x.contiguous().view(12, 5),
    "reshape": lambda x: x.reshape(-1),
    "expand": lambda x: x.select(1, 0).unsqueeze(1).expand(3, 6, 5),
    "squeeze": lambda x: x.narrow(1, 0, 1).squeeze(),
    "unsqueeze": lambda x: x.unsqueeze(1),
    "unfold": lambda x: x.unfold(2, 3, 1),
    "flatten": lambda x: x.flatten(1),
    "chain": lambda x: x.transpose(0, 1).narrow(0, 1, 2).select(2, 4),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_gradcheck(name, rng):
    x = leaf((3, 4, 5), rng)
    assert gradcheck(lambda x: VIEWS[name](x) * 1.5, (x,))


def test_views_share_memory_and_version(rng):
    x = leaf((3, 4), rng)
    y = x * 2
    v = y.select(0, 1)
    assert v._base is y and v.is_view
    before = y._version
    v.add_(1)
    assert y._version == before + 1 and v._version == y._version


# ---- in-place ops ----


def test_inplace_on_view_rewrites_base_history(rng):
    b = leaf((3, 4), rng)
    c = b * 2
    c.select(0, 0).fill_(5)
    c.select(0, 1).narrow(0, 2, 2).mul_(b.select(0, 2).narrow(0, 0, 2))
    c.sum().backward()
    bv = b.detach().numpy()
    expected = np.full((3, 4), 2.0)
    expected[0] = 0
    expected[1, 2:] = 2 * bv[2, :2]
    expected[2, :2] += 2 * bv[1, 2:]
    np.testing.assert_allclose(b.grad.numpy(), expected, rtol=1e-12)
    assert c.grad_fn.name() == "CopySlices"


def test_inplace_gradcheck(rng):
    def f(a, b):
        y = a * 1.0
        y.mul_(b)
        y.select(1, 0).add_(b.select(1, 1))
        y.exp_()
        return y

    assert gradcheck(f, (leaf((3, 3), rng), leaf((3, 3), rng)))


def test_assigning_into_a_plain_tensor_gives_it_history(rng):
    h = leaf((4,), rng)
    out = torch.zeros(3, 4, dtype=torch.float64)
    out.select(0, 1).copy_(h * 3)
    assert out.requires_grad and not out.is_leaf
    out.sum().backward()
    np.testing.assert_allclose(h.grad.numpy(), np.full(4, 3.0))


def test_modified_saved_tensor_raises(rng):
    x = leaf((4,), rng)
    y = x.exp()
    z = (y * y).sum()
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.backward()


def test_inplace_on_leaf_requiring_grad_raises(rng):
    w = leaf((2, 3), rng)
    before = w.detach().numpy().copy()
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w.add_(1)
    with pytest.raises(RuntimeError, match="view of a leaf Variable"):
        w.select(0, 0).mul_(2)
    np.testing.assert_array_equal(w.detach().numpy(), before)
    with torch.no_grad():
        w.add_(1)
    np.testing.assert_array_equal(w.detach().numpy(), before + 1)
    assert w._version >= 1


# ---- engine ----


def test_accumulation_and_zeroing(rng):
    x = leaf((3,), rng)
    (x * 2).sum().backward()
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(3, 5.0))
    x.grad.zero_()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())


def test_retain_graph(rng):
    x = leaf((3,), rng)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    xv = x.detach().numpy()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (np.exp(xv) * (1 + xv)), rtol=1e-12)
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()


def test_backward_needs_scalar_or_gradient(rng):
    x = leaf((3,), rng)
    y = x * 2
    with pytest.raises(RuntimeError, match="scalar outputs"):
        y.backward()
    y.backward(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64))
    np.testing.assert_allclose(x.grad.numpy(), [2, 4, 6])
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.zeros(2).sum().backward()


def test_autograd_grad_and_allow_unused(rng):
    x, z = leaf((3,), rng), leaf((3,), rng)
    y = (x**2).sum()
    (g,) = torch.autograd.grad(y, x, retain_graph=True)
    np.testing.assert_allclose(g.numpy(), 2 * x.detach().numpy())
    assert x.grad is None  # grad() does not accumulate
    with pytest.raises(RuntimeError, match="allow_unused"):
        torch.autograd.grad(y, (x, z), retain_graph=True)
    gx, gz = torch.autograd.grad(y, (x, z), allow_unused=True)
    assert gz is None


def test_double_backward(rng):
    x = leaf((4,), rng)
    y = (x**3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    assert g.requires_grad
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), 6 * x.detach().numpy(), rtol=1e-12)
    assert gradgradcheck(lambda a: (a.sin() * a).sum(), (leaf((3,), rng),))


def test_double_backward_through_saved_outputs(rng):
    # exp, tanh, sigmoid and sqrt differentiate their own result: under create_graph it
    # must keep its history. Closed-form second derivatives.
    xv = np.array([0.5, 1.3, 2.0])
    s = 1 / (1 + np.exp(-xv))
    cases = {
        "exp": np.exp(xv),
        "tanh": -2 * np.tanh(xv) * (1 - np.tanh(xv) ** 2),
        "sigmoid": s * (1 - s) * (1 - 2 * s),
        "sqrt": -0.25 * xv**-1.5,
    }
    for name, want in cases.items():
        x = torch.tensor(xv, requires_grad=True)
        (g,) = torch.autograd.grad(getattr(x, name)().sum(), x, create_graph=True)
        assert g.requires_grad, name
        (h,) = torch.autograd.grad(g.sum(), x)
        np.testing.assert_allclose(h.numpy(), want, rtol=1e-12, err_msg=name)
    # softmax's and log_softmax's backward are THNN kernels; under create_graph they must
    # be recorded formulas instead. Weighted, so that the second derivative is not zero.
    w = torch.tensor(rng.standard_normal((2, 3)))
    assert gradgradcheck(lambda a: (torch.log_softmax(a, 1) * w).pow(2).sum(), (leaf((2, 3), rng),))
    assert gradgradcheck(lambda a: (torch.softmax(a, 0) * w).pow(2).sum(), (leaf((2, 3), rng),))
    assert gradgradcheck(lambda a: (a * a.exp()).sum(), (leaf((3,), rng),))


def test_broadcast_gradient_keeps_its_history_under_create_graph():
    a = torch.tensor([[1.0], [2.0]], requires_grad=True)
    b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
    (ga,) = torch.autograd.grad((a * b).sum(), a, create_graph=True)
    np.testing.assert_allclose(ga.detach().numpy(), [[12.0], [12.0]])
    (gb,) = torch.autograd.grad(ga.sum(), b)
    np.testing.assert_allclose(gb.numpy(), [2.0, 2.0, 2.0])


def test_hook_on_a_leaf_before_its_first_use():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.register_hook(lambda g: g * -1)
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-2.0, -4.0, -6.0])


def test_create_graph_grad_is_not_the_seed():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seed = torch.tensor([5.0, 6.0, 7.0])
    (x + 1).backward(seed, create_graph=True)
    (x * 2).sum().backward()
    np.testing.assert_allclose(x.grad.detach().numpy(), [7.0, 8.0, 9.0])
    np.testing.assert_allclose(seed.numpy(), [5.0, 6.0, 7.0])


def test_second_backward_through_nodes_that_saved_nothing():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = x.sum()
    s.backward()
    s.backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])


def test_no_grad_and_modes(rng):
    x = leaf((3,), rng)
    with torch.no_grad():
        y = x * 2
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            z = x * 2
    assert not y.requires_grad and y.grad_fn is None
    assert z.requires_grad
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad


def test_hooks_and_retain_grad(rng):
    x = leaf((3,), rng)
    y = x * 2
    y.retain_grad()
    seen = []
    handle = y.register_hook(lambda g: seen.append(g.numpy().copy()) or g * 10)
    z = (y * y).sum()
    z.backward(retain_graph=True)
    yv = y.detach().numpy()
    np.testing.assert_allclose(seen[0], 2 * yv)
    np.testing.assert_allclose(x.grad.numpy(), 2 * 10 * 2 * yv)  # the hook's replacement flows on
    np.testing.assert_allclose(y.grad.numpy(), 2 * 10 * yv)
    handle.remove()  # the same graph again, without the hook
    x.grad = None
    z.backward()
    assert len(seen) == 1
    np.testing.assert_allclose(x.grad.numpy(), 2 * 2 * yv)


def test_detach_and_requires_grad_rules(rng):
    x = leaf((3,), rng)
    d = (x * 2).detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    with pytest.raises(RuntimeError, match="floating point"):
        torch.zeros(3, dtype=torch.int64).requires_grad_()
    y = x * 2
    with pytest.raises(RuntimeError, match="leaf variables"):
        y.requires_grad = False
    assert repr(y.grad_fn) == "<MulBackward0 object>"
    assert y.grad_fn.next_functions[0][0].name() == "AccumulateGrad"


def test_variable_wrapper(rng):
    from torch.autograd import Variable

    t = torch.from_numpy(rng.uniform(-1, 1, (3,)))
    v = Variable(t, requires_grad=True)
    (v * v).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), 2 * t.numpy())
    assert v.data.data_ptr() == t.data_ptr()


# ---- custom Functions ----


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x * x * x * scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x * ctx.scale, None


def test_custom_function(rng):
    x = leaf((4,), rng)
    y = Cube.apply(x, 2.0)
    assert y.grad_fn.name() == "CubeBackward"
    assert gradcheck(lambda x: Cube.apply(x, 2.0), (x,))


def test_custom_function_needs_input_grad_and_dirty(rng):
    seen = {}

    class AddOneInPlace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            seen["needs"] = ctx.needs_input_grad
            ctx.mark_dirty(x)
            return x.add_(y)

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    a = leaf((3,), rng) * 1.0
    b = leaf((3,), rng)
    c = torch.ones(3, dtype=torch.float64)
    out = AddOneInPlace.apply(a, b)
    assert seen["needs"] == (True, True)
    out.sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), np.ones(3))
    AddOneInPlace.apply(c, c)
    assert seen["needs"] == (False, False)


def test_custom_function_saved_tensor_modified(rng):
    x = leaf((3,), rng)
    h = x * 1.0
    y = Cube.apply(h, 1.0)
    h.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace"):
        y.sum().backward()


# ---- linear algebra and shape ops ----

LINALG = {
    "mm": (lambda a, b: a @ b, ((3, 4), (4, 2))),
    "mv": (lambda a, b: a @ b, ((3, 4), (4,))),
    "dot": (torch.dot, ((5,), (5,))),
    "outer": (torch.outer, ((3,), (4,))),
    "bmm": (torch.bmm, ((2, 3, 4), (2, 4, 2))),
    "matmul_batched_broadcast": (torch.matmul, ((2, 1, 3, 4), (3, 4, 2))),
    "matmul_vec_batch": (torch.matmul, ((4,), (2, 4, 3))),
    "matmul_transposed": (lambda a, b: a.t() @ b, ((4, 3), (4, 2))),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_products_gradcheck(name, rng):
    f, shapes = LINALG[name]
    assert gradcheck(f, tuple(leaf(s, rng) for s in shapes))


@pytest.mark.parametrize(
    "kind,shapes",
    [
        ("addmm", ((3, 2), (3, 4), (4, 2))),
        ("addmv", ((3,), (3, 4), (4,))),
        ("addr", ((3, 4), (3,), (4,))),
        ("addbmm", ((3, 2), (5, 3, 4), (5, 4, 2))),
        ("baddbmm", ((5, 3, 2), (5, 3, 4), (5, 4, 2))),
        ("addmm_broadcast", ((2,), (3, 4), (4, 2))),
    ],
)
def test_add_products_gradcheck(kind, shapes, rng):
    fn = getattr(torch, kind.split("_")[0])
    xs = tuple(leaf(s, rng) for s in shapes)
    assert gradcheck(lambda s, x, y: fn(s, x, y, beta=0.5, alpha=-1.5), xs)
    assert gradcheck(
        lambda s, x, y: (
            getattr(s * 1.0, kind.split("_")[0] + "_")(x, y, alpha=2.0) if kind != "addmm_broadcast" else fn(s, x, y)
        ),
        xs,
    )


def test_inverse_det_gradcheck(rng):
    a = torch.from_numpy(rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)).requires_grad_()
    assert gradcheck(torch.inverse, (a,))
    assert gradcheck(torch.det, (a,))
    assert gradcheck(torch.logdet, (a,))
    assert gradcheck(lambda a: torch.slogdet(a)[1], (a,))
    b = torch.from_numpy(rng.uniform(-1, 1, (2, 3, 3)) + 3 * np.eye(3)).requires_grad_()
    assert gradcheck(torch.inverse, (b,))


SHAPE_OPS = {
    "cat": lambda a, b: torch.cat([a, b, a], 1),
    "stack": lambda a, b: torch.stack([a, b], 2),
    "flip": lambda a, b: torch.flip(a, (0, 1)) * b,
    "roll": lambda a, b: torch.roll(a, (1, -2), (0, 1)) + b,
    "repeat": lambda a, b: a.repeat(2, 1, 3),
    "tril": lambda a, b: torch.tril(a, -1) + torch.triu(b, 1),
    "diag": lambda a, b: torch.diag(a.select(2, 0)) + torch.diag(torch.diag(b.select(2, 1)), 1).sum(),
    "diagonal": lambda a, b: torch.diagonal(a, 0, 0, 1),
    "cross": lambda a, b: torch.cross(a, b, 1),
    "kron": lambda a, b: torch.kron(a.select(2, 0), b.select(2, 0)),
    "repeat_interleave": lambda a, b: torch.repeat_interleave(a, 2, dim=1),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
def test_shape_ops_gradcheck(name, rng):
    assert gradcheck(SHAPE_OPS[name], (leaf((3, 3, 2), rng), leaf((3, 3, 2), rng)))


def test_tril_inplace_gradcheck(rng):
    assert gradcheck(lambda a: (a * 1.0).tril_(), (leaf((3, 3), rng),))


# ---- what the graph keeps alive ----


def test_graph_keeps_only_what_backward_needs(rng):
    # A tensor made by from_numpy holds a reference to its array for as long as its storage
    # lives: the array's reference count watches the storage.
    import sys

    w = leaf((1000,), rng)
    arr = rng.uniform(-1, 1, 1000)
    base = sys.getrefcount(arr)
    t = torch.from_numpy(arr)
    y = t + w  # add's backward needs neither operand
    z = t * w  # mul's backward needs t (for w's gradient)
    del t
    assert sys.getrefcount(arr) == base + 1  # kept by z's node only
    del z
    assert sys.getrefcount(arr) == base
    t = torch.from_numpy(arr)
    z = (t * w).sum()
    del t
    assert sys.getrefcount(arr) == base + 1
    z.backward()  # without retain_graph the saved tensors go
    assert sys.getrefcount(arr) == base
    np.testing.assert_allclose(w.grad.numpy(), arr)
    y.sum().backward()


# ---- indexing ----

INDEX_READS = {
    "int_slice": lambda x: x[1, ::2],
    "advanced": lambda x: x[[0, 2, 2], 1:],
    "mask": lambda x: x[x > 0.3],
    "mixed": lambda x: x[:, torch.tensor([3, 0, 3])],
    "index_select": lambda x: x.index_select(1, torch.tensor([2, 0, 2])),
    "gather": lambda x: x.gather(1, torch.tensor([[0, 0], [3, 1], [2, 2]])),
    "masked_select": lambda x: x.masked_select(torch.tensor([True, False, True, True])),
    "take": lambda x: x.take(torch.tensor([0, 11, 5, 5])),
}


@pytest.mark.parametrize("name", sorted(INDEX_READS))
def test_index_reads_gradcheck(name, rng):
    assert gradcheck(INDEX_READS[name], (leaf((3, 4), rng),))


def _written(f):
    def run(x, v):
        y = x * 1.0
        f(y, v)
        return y

    return run


INDEX_WRITES = {
    "setitem_advanced": (
        _written(lambda y, v: y.__setitem__(([0, 2], [1, 3]), v.select(0, 0).narrow(0, 0, 2))),
        (2, 4),
    ),
    "setitem_basic": (_written(lambda y, v: y.__setitem__((1, slice(0, 4)), v.select(0, 1))), (2, 4)),
    "setitem_mask": (_written(lambda y, v: y.__setitem__(y > 0.5, 0.0)), (2, 4)),
    "index_put_accumulate": (
        _written(
            lambda y, v: y.index_put_((torch.tensor([0, 0, 2]),), v.narrow(0, 0, 1).expand(3, 4), accumulate=True)
        ),
        (2, 4),
    ),
    "index_copy": (_written(lambda y, v: y.index_copy_(0, torch.tensor([2, 0]), v)), (2, 4)),
    "index_add": (_written(lambda y, v: y.index_add_(0, torch.tensor([2, 2]), v, alpha=1.5)), (2, 4)),
    "index_fill": (_written(lambda y, v: y.index_fill_(1, torch.tensor([1, 3]), -1.0)), (2, 4)),
    "scatter": (_written(lambda y, v: y.scatter_(1, torch.tensor([[3, 0], [1, 2]]), v)), (2, 4)),
    "scatter_add": (_written(lambda y, v: y.scatter_add_(1, torch.tensor([[3, 3], [1, 1]]), v)), (2, 4)),
    "masked_fill": (_written(lambda y, v: y.masked_fill_(torch.tensor([True, False, False, True]), 2.0)), (2, 4)),
    "masked_scatter": (_written(lambda y, v: y.masked_scatter_(torch.tensor([True, False, False, True]), v)), (2, 4)),
    "put": (_written(lambda y, v: y.put_(torch.tensor([1, 7]), v.select(0, 0).narrow(0, 0, 2))), (2, 4)),
    "put_accumulate": (
        _written(lambda y, v: y.put_(torch.tensor([1, 1]), v.select(0, 0).narrow(0, 0, 2), accumulate=True)),
        (2, 4),
    ),
}


@pytest.mark.parametrize("name", sorted(INDEX_WRITES))
def test_index_writes_gradcheck(name, rng):
    f, shape = INDEX_WRITES[name]
    assert gradcheck(f, (leaf((3, 4), rng), leaf(shape, rng)))


def test_rnn_style_assignment(rng):
    h = [leaf((3,), rng) for _ in range(4)]
    out = torch.zeros(4, 3, dtype=torch.float64)
    for i, x in enumerate(h):
        out[i] = x * (i + 1)
    out.sum().backward()
    for i, x in enumerate(h):
        np.testing.assert_allclose(x.grad.numpy(), np.full(3, i + 1.0))


def test_solve_and_cholesky_gradcheck(rng):
    a = torch.from_numpy(rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)).requires_grad_()
    b = leaf((3, 2), rng)
    assert gradcheck(lambda a, b: torch.linalg.solve(a, b), (a, b))
    assert gradcheck(lambda a, b: torch.solve(b, a)[0], (a, b))
    assert gradcheck(lambda a, v: torch.linalg.solve(a, v), (a, leaf((3,), rng)))
    x = leaf((2, 3, 3), rng)

    def spd(x):
        return x @ x.transpose(-1, -2) + 3 * torch.eye(3, dtype=torch.float64)

    assert gradcheck(lambda x: torch.linalg.cholesky(spd(x)), (x,))
    assert gradcheck(lambda x: torch.cholesky(spd(x), upper=True), (x,))


def test_complete_qr_of_a_tall_matrix_has_no_derivative(rng):
    # Q's extra columns are any orthonormal basis of the complement: no function of A.
    a = leaf((5, 3), rng)
    q, r = torch.qr(a, some=False)
    assert q.shape == (5, 5) and r.requires_grad
    with pytest.raises(RuntimeError, match="complete QR of a tall matrix is not unique"):
        r.sum().backward()


def test_wide_qr_gradcheck_and_values(rng):
    x = leaf((3, 5), rng)
    q, r = torch.qr(x)
    with torch.no_grad():
        q0, r0 = torch.qr(x)
    np.testing.assert_allclose(q.detach().numpy(), q0.numpy(), atol=1e-12)
    np.testing.assert_allclose(r.detach().numpy(), r0.numpy(), atol=1e-12)
    assert gradcheck(lambda x: torch.qr(x), (x,))


def test_lstsq_gradcheck(rng):
    for shape in ((5, 3), (3, 5)):
        a, b = leaf(shape, rng), leaf((shape[0], 2), rng)
        with torch.no_grad():
            expected = torch.lstsq(b, a)[0]
        np.testing.assert_allclose(torch.lstsq(b, a)[0].detach().numpy(), expected.numpy(), rtol=1e-8, atol=1e-10)
        assert gradcheck(lambda b, a: torch.lstsq(b, a)[0], (b, a))


def test_eig_gradcheck(rng):
    # A non-symmetric matrix with well separated real eigenvalues.
    p = np.eye(4) + 0.3 * rng.uniform(-1, 1, (4, 4))
    a = torch.from_numpy(p @ np.diag([1.0, 2.0, 3.5, 5.0]) @ np.linalg.inv(p)).requires_grad_()

    def f(a):
        values, vectors = torch.eig(a, eigenvectors=True)
        return values.select(1, 0), vectors * vectors  # squares do not depend on the vectors' signs

    assert gradcheck(f, (a,))
    assert gradcheck(lambda a: torch.eig(a)[0].select(1, 0), (a,))
    rotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="complex eigenvalues"):
        torch.eig(rotation)[0].sum().backward()


@pytest.mark.parametrize("some", [True, False])
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 3)])
def test_svd_gradcheck(shape, some, rng):
    x = leaf(shape, rng)
    k = min(shape[-2:])

    def f(x):
        u, s, v = torch.svd(x, some=some)
        u, v = u.narrow(-1, 0, k), v.narrow(-1, 0, k)
        # Singular vectors are defined up to a common sign per pair: U diag(s') V^T is not.
        return s, u @ torch.diag_embed(s.sqrt()) @ v.transpose(-1, -2)

    assert gradcheck(f, (x,))
    assert gradcheck(lambda x: torch.svd(x, compute_uv=False)[1], (x,))


def test_renorm_gradcheck(rng):
    x = leaf((3, 4), rng)
    assert gradcheck(lambda x: torch.renorm(x, 2, 0, 1.5), (x,))
    assert gradcheck(lambda x: (x * 1.0).renorm_(1, 1, 2.0), (x,))
    with torch.no_grad():
        expected = torch.renorm(x, 2, 0, 1.5)
    np.testing.assert_allclose(torch.renorm(x, 2, 0, 1.5).detach().numpy(), expected.numpy(), rtol=1e-12)


def test_symeig_gradcheck(rng):
    x = leaf((2, 4, 4), rng)

    def f(x):
        values, vectors = torch.symeig(x + x.transpose(-1, -2), eigenvectors=True)
        return values, vectors * vectors  # the square of a vector does not depend on its sign

    assert gradcheck(f, (x,))
    assert gradcheck(lambda x: torch.linalg.eigvalsh(x + x.transpose(-1, -2)), (x,))


def test_cholesky_solve_and_inverse_gradcheck(rng):
    x = leaf((3, 3), rng)
    b = leaf((3, 2), rng)

    def factor(x):
        return torch.linalg.cholesky(x @ x.t() + 3 * torch.eye(3, dtype=torch.float64))

    assert gradcheck(lambda x, b: torch.cholesky_solve(b, factor(x)), (x, b))
    assert gradcheck(lambda x, b: torch.cholesky_solve(b, factor(x).t(), upper=True), (x, b))
    assert gradcheck(lambda x: torch.cholesky_inverse(factor(x)), (x,))
    with torch.no_grad():  # the recorded path gives the kernel's values
        expected = torch.cholesky_solve(b, factor(x))
    np.testing.assert_allclose(torch.cholesky_solve(b, factor(x)).detach().numpy(), expected.numpy(), rtol=1e-10)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 4, 4)])
def test_lu_gradcheck_and_values(shape, rng):
    x = leaf(shape, rng)
    factors, pivots = torch.lu(x)
    with torch.no_grad():
        expected, expected_pivots = torch.lu(x)
    np.testing.assert_allclose(factors.detach().numpy(), expected.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(pivots.numpy(), expected_pivots.numpy())
    assert gradcheck(lambda x: torch.lu(x)[0], (x,))
    assert gradcheck(lambda x: torch.lu_unpack(*torch.lu(x))[1:], (x,))
