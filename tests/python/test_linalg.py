"""Linear algebra against numpy: products on every element type and layout, matmul's
broadcasting rules, addmm & co., and the LAPACK decompositions checked by their defining
properties (A = Q R, U S V^T = A, A v = lambda v, L L^T = A)."""

import numpy as np
import pytest

import torch
import torch.linalg
from conftest import FLOAT_TYPES, INT_TYPES, NUMERIC_TYPES, NUMPY_OF, assert_close, make_tensor

MATRIX_LAYOUTS = ["contiguous", "transposed", "strided"]


def tol(dtype):
    return dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-10, atol=1e-10)


def int_product(f, *arrays, dtype):
    """f over the arrays in int64, wrapped to dtype as arithmetic in dtype wraps."""
    return f(*(a.astype(np.int64) for a in arrays)).astype(NUMPY_OF[dtype])


def product_ref(f, *arrays, dtype):
    if dtype in FLOAT_TYPES:
        return f(*(a.astype(np.float64) for a in arrays)).astype(NUMPY_OF[dtype])
    return int_product(f, *arrays, dtype=dtype)


def product_range(dtype):
    return (-3, 3) if dtype == torch.int8 else (0, 4) if dtype == torch.uint8 else (-10, 10)


def with_layout(a, layout):
    """A tensor holding the numpy array a (2-D or more) in the given memory layout."""
    a = np.asarray(a)
    if layout == "contiguous":
        return torch.from_numpy(a.copy())
    if layout == "transposed":
        t = torch.from_numpy(np.ascontiguousarray(np.swapaxes(a, -1, -2)))
        return t.transpose(-1, -2)
    if layout == "strided":
        big = np.zeros(a.shape[:-1] + (a.shape[-1] * 2,), a.dtype)
        big[..., ::2] = a
        strides = [s // big.itemsize for s in big.strides]
        strides[-1] = 2
        return torch.from_numpy(big).as_strided(a.shape, strides, 0)
    raise ValueError(layout)


def well_conditioned(rng, shape, dtype=np.float64):
    n = shape[-1]
    return (rng.standard_normal(shape) + n * np.eye(n)).astype(dtype)


def spd(rng, shape, dtype=np.float64):
    x = rng.standard_normal(shape)
    return (x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


# ---------------------------------------------------------------- products


@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "expanded"])
def test_dot_and_vdot(dtype, layout, rng):
    lo, hi = product_range(dtype)
    a, na = make_tensor((17,), dtype, layout, rng, lo, hi)
    b, nb = make_tensor((17,), dtype, "strided", rng, lo, hi)
    expected = product_ref(np.dot, na, nb, dtype=dtype)
    r = torch.dot(a, b)
    assert r.dim() == 0 and r.dtype is dtype
    assert_close(r, expected, **tol(dtype))
    assert_close(a.dot(b), expected, **tol(dtype))
    assert_close(torch.vdot(a, b), expected, **tol(dtype))
    assert_close(a @ b, expected, **tol(dtype))


@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS + ["expanded"])
def test_mm_every_type_and_layout(dtype, layout, rng):
    lo, hi = product_range(dtype)
    a, na = make_tensor((5, 7), dtype, layout, rng, lo, hi)
    b, nb = make_tensor((7, 3), dtype, "transposed", rng, lo, hi)
    expected = product_ref(np.matmul, na, nb, dtype=dtype)
    assert_close(torch.mm(a, b), expected, **tol(dtype))
    assert_close(a.mm(b), expected, **tol(dtype))
    assert_close(a @ b, expected, **tol(dtype))
    assert_close(torch.matmul(a, b), expected, **tol(dtype))
    c, nc = make_tensor((7, 3), dtype, layout, rng, lo, hi)
    assert_close(torch.mm(a, c), product_ref(np.matmul, na, nc, dtype=dtype), **tol(dtype))


@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_mv_and_bmm(dtype, layout, rng):
    lo, hi = product_range(dtype)
    m, nm = make_tensor((6, 4), dtype, layout, rng, lo, hi)
    v, nv = make_tensor((4,), dtype, "strided", rng, lo, hi)
    assert_close(torch.mv(m, v), product_ref(np.matmul, nm, nv, dtype=dtype), **tol(dtype))
    assert_close(m.mv(v), product_ref(np.matmul, nm, nv, dtype=dtype), **tol(dtype))
    x, nx = make_tensor((3, 4, 5), dtype, layout, rng, lo, hi)
    y, ny = make_tensor((3, 5, 2), dtype, "transposed", rng, lo, hi)
    assert_close(torch.bmm(x, y), product_ref(np.matmul, nx, ny, dtype=dtype), **tol(dtype))
    assert_close(x.bmm(y), product_ref(np.matmul, nx, ny, dtype=dtype), **tol(dtype))


def test_float_products_against_float64(rng):
    # a larger product, so that BLAS's blocking is exercised on both layouts
    a, na = make_tensor((70, 90), torch.float32, "transposed", rng, -1, 1)
    b, nb = make_tensor((90, 50), torch.float32, "contiguous", rng, -1, 1)
    assert_close(a @ b, (na.astype(np.float64) @ nb).astype(np.float32), rtol=1e-4, atol=1e-4)
    assert_close(a.t() @ a, (na.T.astype(np.float64) @ na).astype(np.float32), rtol=1e-4, atol=1e-4)


MATMUL_SHAPES = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)),
    ((5, 2, 3), (3,)),
    ((3,), (5, 3, 4)),
    ((2, 3), (5, 3, 4)),
    ((5, 2, 3), (5, 3, 4)),
    ((1, 2, 3), (5, 3, 4)),
    ((4, 1, 2, 3), (5, 3, 4)),
    ((2, 1, 2, 3), (1, 3, 3, 4)),
    ((6, 2, 3), (1, 3, 1)),
    ((0, 2, 3), (3, 4)),
    ((2, 0), (0, 3)),
    ((3, 2, 0), (3, 0, 4)),
    ((2, 3, 4, 5), (5,)),
    ((5,), (2, 3, 5, 4)),
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_matmul_cases_and_broadcasting(shapes, layout, rng):
    a, na = make_tensor(shapes[0], torch.float64, layout, rng)
    b, nb = make_tensor(shapes[1], torch.float64, "contiguous", rng)
    expected = np.matmul(na, nb)
    assert_close(torch.matmul(a, b), expected, rtol=1e-12, atol=1e-12)
    assert_close(a.matmul(b), expected, rtol=1e-12, atol=1e-12)
    assert_close(a @ b, expected, rtol=1e-12, atol=1e-12)
    out = torch.zeros(1, dtype=torch.float64)
    assert torch.matmul(a, b, out=out) is out
    assert_close(out, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", INT_TYPES)
def test_batched_matmul_integers(dtype, rng):
    lo, hi = product_range(dtype)
    a, na = make_tensor((2, 1, 3, 4), dtype, "transposed", rng, lo, hi)
    b, nb = make_tensor((5, 4, 2), dtype, "strided", rng, lo, hi)
    assert_close(a @ b, int_product(np.matmul, na, nb, dtype=dtype))


def test_matmul_operators(rng):
    a, na = make_tensor((3, 4), torch.float32, "contiguous", rng)
    b, nb = make_tensor((4, 2), torch.float32, "contiguous", rng)
    assert_close(b.__rmatmul__(a), na @ nb, rtol=1e-5, atol=1e-5)
    assert a.__matmul__([1, 2]) is NotImplemented
    c = a
    c @= b  # no in-place matmul: Python rebinds c to a @ b
    assert c is not a and c.shape == (3, 2)
    assert_close(c, na @ nb, rtol=1e-5, atol=1e-5)
    assert_close(a, na)
    with pytest.raises(TypeError):
        a @ 2


ADD_PRODUCTS = {
    # name: (shapes of x and y, self shape, numpy product)
    "addmm": ((4, 5), (5, 3), (4, 3), np.matmul),
    "addmv": ((4, 5), (5,), (4,), np.matmul),
    "addr": ((4,), (3,), (4, 3), np.outer),
    "addbmm": ((2, 4, 5), (2, 5, 3), (4, 3), lambda x, y: np.matmul(x, y).sum(0)),
    "baddbmm": ((2, 4, 5), (2, 5, 3), (2, 4, 3), np.matmul),
}


@pytest.mark.parametrize("name", sorted(ADD_PRODUCTS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int16])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_add_products(name, dtype, layout, rng):
    xs, ys, ss, f = ADD_PRODUCTS[name]
    lo, hi = product_range(dtype)
    x, nx = make_tensor(xs, dtype, layout, rng, lo, hi)
    y, ny = make_tensor(ys, dtype, "transposed", rng, lo, hi)
    s, ns = make_tensor(ss, dtype, layout, rng, lo, hi)
    beta, alpha = (0.5, -2.0) if dtype in FLOAT_TYPES else (3, -2)
    expected = product_ref(lambda s_, x_, y_: beta * s_ + alpha * f(x_, y_), ns, nx, ny, dtype=dtype)
    op = getattr(torch, name)
    assert_close(op(s, x, y, beta=beta, alpha=alpha), expected, **tol(dtype))
    assert_close(getattr(s, name)(x, y, beta=beta, alpha=alpha), expected, **tol(dtype))
    plain = product_ref(lambda s_, x_, y_: s_ + f(x_, y_), ns, nx, ny, dtype=dtype)
    assert_close(op(s, x, y), plain, **tol(dtype))
    out = torch.zeros(2, dtype=dtype)
    assert op(s, x, y, beta=beta, alpha=alpha, out=out) is out
    assert_close(out, expected, **tol(dtype))
    # the deprecated positional forms: f(beta, input, alpha, x, y), input.f(beta, alpha, x, y)
    assert_close(op(beta, s, alpha, x, y), expected, **tol(dtype))
    assert_close(getattr(s, name)(beta, alpha, x, y), expected, **tol(dtype))
    beta_only = product_ref(lambda s_, x_, y_: beta * s_ + f(x_, y_), ns, nx, ny, dtype=dtype)
    assert_close(op(beta, s, x, y), beta_only, **tol(dtype))
    assert_close(getattr(s, name)(beta, x, y), beta_only, **tol(dtype))
    assert_close(s, ns)
    # in place, on a possibly non-contiguous self: its view is kept and written through
    t = s.clone() if layout == "contiguous" else s
    stride_before = t.stride()
    r = getattr(t, name + "_")(x, y, beta=beta, alpha=alpha)
    assert r is t and t.stride() == stride_before
    assert_close(t, expected, **tol(dtype))


@pytest.mark.parametrize("name", sorted(ADD_PRODUCTS))
def test_add_products_broadcast_input_and_beta_zero(name, rng):
    xs, ys, ss, f = ADD_PRODUCTS[name]
    x, nx = make_tensor(xs, torch.float64, "contiguous", rng)
    y, ny = make_tensor(ys, torch.float64, "contiguous", rng)
    row, nrow = make_tensor(ss[-1:], torch.float64, "contiguous", rng)
    op = getattr(torch, name)
    assert_close(op(row, x, y), nrow + f(nx, ny), rtol=1e-12, atol=1e-12)
    # beta = 0: the input is not read, so its NaNs do not reach the result
    nan = torch.full(ss, float("nan"), dtype=torch.float64)
    assert_close(op(nan, x, y, beta=0), f(nx, ny), rtol=1e-12, atol=1e-12)
    getattr(nan, name + "_")(x, y, beta=0, alpha=2)
    assert_close(nan, 2 * f(nx, ny), rtol=1e-12, atol=1e-12)


def test_add_products_errors_leave_inputs_alone(rng):
    s, ns = make_tensor((4, 3), torch.float32, "contiguous", rng)
    m1, _ = make_tensor((4, 5), torch.float32, "contiguous", rng)
    m2, _ = make_tensor((6, 3), torch.float32, "contiguous", rng)
    with pytest.raises(RuntimeError, match=r"4x5 and 6x3"):
        s.addmm_(m1, m2)
    good, _ = make_tensor((5, 3), torch.float32, "contiguous", rng)
    with pytest.raises(RuntimeError, match=r"expected scalar type Float but found Double"):
        s.addmm_(m1, good.double())
    with pytest.raises(RuntimeError, match=r"expected scalar type"):
        s.double().addmm_(m1, good)
    with pytest.raises(RuntimeError, match=r"sizes \[4, 3\]"):
        torch.zeros(3, 3).addmm_(m1, good)
    with pytest.raises(RuntimeError, match=r"broadcast"):
        torch.addmm(torch.zeros(2), m1, good)
    with pytest.raises(RuntimeError, match=r"more than one element"):
        torch.zeros(3).expand(4, 3).addmm_(m1, good)
    ints = torch.zeros(4, 3, dtype=torch.int64)
    with pytest.raises(RuntimeError, match=r"alpha must not be a floating point"):
        ints.addmm_(m1.long(), good.long(), alpha=0.5)
    assert_close(s, ns)
    assert ints.tolist() == [[0] * 3] * 4


def test_outer_and_ger(rng):
    a, na = make_tensor((4,), torch.float32, "strided", rng)
    b, nb = make_tensor((3,), torch.float32, "contiguous", rng)
    assert_close(torch.outer(a, b), np.outer(na, nb), rtol=1e-6)
    assert_close(a.ger(b), np.outer(na, nb), rtol=1e-6)
    # outer promotes like element-wise multiplication
    i, ni = make_tensor((3,), torch.int64, "contiguous", rng)
    r = torch.outer(a, i)
    assert r.dtype is torch.float32
    assert_close(r, np.outer(na, ni).astype(np.float32), rtol=1e-6)
    bools = torch.tensor([True, False, True])
    assert torch.outer(bools, bools).tolist() == np.outer([1, 0, 1], [1, 0, 1]).astype(bool).tolist()
    with pytest.raises(RuntimeError, match="1-D"):
        torch.outer(a.unsqueeze(0), b)


def test_multi_dot_and_chain_matmul(rng):
    shapes = [(4, 10), (10, 3), (3, 8), (8, 2)]
    ts, ns = zip(*(make_tensor(s, torch.float64, "transposed", rng) for s in shapes))
    assert_close(torch.linalg.multi_dot(list(ts)), np.linalg.multi_dot(ns), rtol=1e-12, atol=1e-12)
    assert_close(torch.chain_matmul(*ts), np.linalg.multi_dot(ns), rtol=1e-12, atol=1e-12)
    v, nv = make_tensor((4,), torch.float64, "contiguous", rng)
    w, nw = make_tensor((2,), torch.float64, "contiguous", rng)
    r = torch.linalg.multi_dot([v] + list(ts) + [w])
    assert r.dim() == 0
    assert_close(r, np.linalg.multi_dot([nv] + list(ns) + [nw]), rtol=1e-12, atol=1e-12)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        torch.linalg.multi_dot([ts[0], ts[2]])
    with pytest.raises(RuntimeError, match="2D"):
        torch.linalg.multi_dot([ts[0], v, ts[1]])


def test_product_errors_leave_inputs_alone(rng):
    a, na = make_tensor((2, 3), torch.float32, "contiguous", rng)
    b, nb = make_tensor((4, 5), torch.float32, "contiguous", rng)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"):
        torch.mm(a, b)
    with pytest.raises(RuntimeError, match=r"2x3 and 4x5"):
        a @ b
    with pytest.raises(RuntimeError, match=r"expected scalar type Float but found Double"):
        torch.mm(a, torch.zeros(3, 2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"expected scalar type Float but found Double"):
        torch.dot(a.select(0, 0), torch.zeros(3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"\[3\] and src \[4\]"):
        torch.dot(a.select(0, 0), torch.zeros(4))
    with pytest.raises(RuntimeError, match="1D tensors expected"):
        torch.dot(a, a)
    with pytest.raises(RuntimeError, match="size mismatch"):
        torch.mv(a, torch.zeros(4))
    with pytest.raises(RuntimeError, match="3D"):
        torch.bmm(a, a)
    with pytest.raises(RuntimeError, match=r"\[2, 3\] but got: \[2, 4\]"):
        torch.bmm(torch.zeros(2, 5, 3), torch.zeros(2, 4, 5))
    with pytest.raises(RuntimeError, match="at least 1D"):
        torch.matmul(torch.tensor(2.0), a)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        torch.matmul(torch.zeros(5, 2, 3), torch.zeros(5, 4, 2))
    with pytest.raises(RuntimeError, match="must match"):
        torch.matmul(torch.zeros(5, 2, 3), torch.zeros(4, 3, 2))
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.mm(torch.zeros(2, 2, dtype=torch.bool), torch.zeros(2, 2, dtype=torch.bool))
    with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
        torch.mm(torch.zeros(2, 2).half(), torch.zeros(2, 2).half())
    assert_close(a, na)
    assert_close(b, nb)


# ---------------------------------------------------------------- inverses and determinants


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_inverse(dtype, layout, rng):
    na = well_conditioned(rng, (5, 5), NUMPY_OF[dtype])
    a = with_layout(na, layout)
    expected = np.linalg.inv(na.astype(np.float64)).astype(na.dtype)
    assert_close(torch.inverse(a), expected, **tol(dtype))
    assert_close(a.inverse(), expected, **tol(dtype))
    assert_close(torch.linalg.inv(a), expected, **tol(dtype))
    out = torch.zeros(1, dtype=dtype)
    assert torch.inverse(a, out=out) is out
    assert_close(out, expected, **tol(dtype))
    assert_close(a, na)


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_inverse_batched(layout, rng):
    na = well_conditioned(rng, (2, 3, 4, 4))
    assert_close(torch.inverse(with_layout(na, layout)), np.linalg.inv(na), rtol=1e-10, atol=1e-10)
    assert torch.inverse(torch.zeros(0, 3, 3, dtype=torch.float64)).shape == (0, 3, 3)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_det_logdet_slogdet(dtype, layout, rng):
    na = rng.standard_normal((3, 5, 5)).astype(NUMPY_OF[dtype])
    na[0] = np.abs(na[0]) + 5 * np.eye(5)  # a positive determinant
    a = with_layout(na, layout)
    sign, logabs = np.linalg.slogdet(na.astype(np.float64))
    t = tol(dtype)
    assert_close(torch.det(a), np.linalg.det(na.astype(np.float64)).astype(na.dtype), **t)
    assert_close(torch.linalg.det(a), np.linalg.det(na.astype(np.float64)).astype(na.dtype), **t)
    r = torch.slogdet(a)
    assert_close(r.sign, sign.astype(na.dtype))
    assert_close(r.logabsdet, logabs.astype(na.dtype), **t)
    s2, l2 = torch.linalg.slogdet(a)
    assert_close(s2, sign.astype(na.dtype))
    assert_close(l2, logabs.astype(na.dtype), **t)
    expected_logdet = np.where(sign > 0, logabs, np.nan).astype(na.dtype)
    assert_close(torch.logdet(a), expected_logdet, **t)
    assert_close(a.select(0, 0).det(), np.linalg.det(na[0].astype(np.float64)).astype(na.dtype), **t)


def test_determinants_of_singular_and_empty_matrices():
    singular = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    assert torch.det(singular).item() == 0
    assert torch.logdet(singular).item() == -np.inf
    sign, logabs = torch.slogdet(singular)
    assert sign.item() == 0 and logabs.item() == -np.inf
    zero_batch = torch.zeros(2, 3, 3)
    assert torch.det(zero_batch).tolist() == [0.0, 0.0]
    assert torch.det(torch.zeros(0, 0, dtype=torch.float64)).item() == 1
    # a permutation matrix: the row interchanges set the sign
    p = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert torch.det(p).item() == -1


def test_determinants_of_a_broadcast_batch(rng):
    na = rng.standard_normal((2, 3, 4, 4))
    a = torch.from_numpy(na[:, :1]).expand(2, 3, 4, 4)
    ref = na[:, :1].repeat(3, axis=1)
    assert_close(torch.det(a), np.linalg.det(ref), rtol=1e-10, atol=1e-10)
    sign, logabs = torch.slogdet(a)
    ref_sign, ref_logabs = np.linalg.slogdet(ref)
    assert_close(sign, ref_sign)
    assert_close(logabs, ref_logabs, rtol=1e-10, atol=1e-10)
    assert torch.det(torch.zeros(0, 4, 4, dtype=torch.float64)).shape == (0,)
    assert torch.slogdet(torch.zeros(2, 0, 0, dtype=torch.float64)).sign.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="square"):
        torch.slogdet(torch.zeros(2, 3, 4))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -3])
def test_matrix_power(n, rng):
    na = well_conditioned(rng, (2, 4, 4)) / 4
    a = with_layout(na, "transposed")
    assert_close(torch.matrix_power(a, n), np.linalg.matrix_power(na, n), rtol=1e-9, atol=1e-9)
    assert_close(a.matrix_power(n), np.linalg.matrix_power(na, n), rtol=1e-9, atol=1e-9)
    assert_close(torch.linalg.matrix_power(a, n), np.linalg.matrix_power(na, n), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_matrix_power_integers(dtype, rng):
    a, na = make_tensor((3, 3), dtype, "contiguous", rng, -3, 3)
    for n in (0, 1, 2, 3, 4):
        assert_close(torch.matrix_power(a, n), int_product(lambda x: np.linalg.matrix_power(x, n), na, dtype=dtype))
    with pytest.raises(RuntimeError):
        torch.matrix_power(a, -1)
    with pytest.raises(RuntimeError, match="square"):
        torch.matrix_power(torch.zeros(2, 3), 2)


@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (2, 5, 3)])
def test_pinverse(shape, rng):
    na = rng.standard_normal(shape)
    a = with_layout(na, "transposed")
    assert_close(torch.pinverse(a), np.linalg.pinv(na), rtol=1e-9, atol=1e-9)
    assert_close(torch.linalg.pinv(a), np.linalg.pinv(na), rtol=1e-9, atol=1e-9)
    # rank-deficient: the zero singular value is dropped
    low = np.outer(rng.standard_normal(5), rng.standard_normal(4))
    assert_close(torch.from_numpy(low).pinverse(), np.linalg.pinv(low, rcond=1e-15), rtol=1e-8, atol=1e-8)


def test_pinverse_of_batches_empty_matrices_and_bad_shapes(rng):
    na = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
    expected = np.linalg.pinv(na.astype(np.float64)).astype(np.float32)
    assert_close(torch.pinverse(torch.from_numpy(na)), expected, rtol=1e-4, atol=1e-4)
    # rcond above the ratio of the smallest singular value to the largest: it is dropped
    s = np.linalg.svd(na[0, 0].astype(np.float64), compute_uv=False)
    rcond = (s[-1] / s[0] + s[-2] / s[0]) / 2
    expected = np.linalg.pinv(na[0, 0].astype(np.float64), rcond=rcond).astype(np.float32)
    assert_close(torch.pinverse(torch.from_numpy(na[0, 0]), rcond), expected, rtol=1e-4, atol=1e-4)
    for shape in [(0, 3), (3, 0), (2, 0, 0)]:
        r = torch.pinverse(torch.zeros(shape, dtype=torch.float64))
        assert r.shape == shape[:-2] + (shape[-1], shape[-2]) and r.numel() == 0
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.pinverse(torch.zeros(3, dtype=torch.float64))


# ---------------------------------------------------------------- systems of equations


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_solve(dtype, layout, rng):
    na = well_conditioned(rng, (4, 4), NUMPY_OF[dtype])
    nb = rng.standard_normal((4, 3)).astype(na.dtype)
    a, b = with_layout(na, layout), with_layout(nb, layout)
    x, lu = torch.solve(b, a)
    assert_close(x, np.linalg.solve(na.astype(np.float64), nb).astype(na.dtype), **tol(dtype))
    # LU is the packed factorization of A, as torch.lu gives it
    assert_close(lu, torch.lu(a)[0].numpy(), **tol(dtype))
    r = b.solve(a)
    assert_close(r.solution, x.numpy())
    assert_close(torch.linalg.solve(a, b), x.numpy(), **tol(dtype))
    v = torch.from_numpy(nb[:, 0].copy())
    assert_close(
        torch.linalg.solve(a, v), np.linalg.solve(na.astype(np.float64), nb[:, 0]).astype(na.dtype), **tol(dtype)
    )
    # the 0.1-era name
    assert_close(torch.gesv(b, a)[0], x.numpy())
    assert_close(a, na)
    assert_close(b, nb)


def test_solve_batched_broadcasting(rng):
    na = well_conditioned(rng, (3, 1, 4, 4))
    nb = rng.standard_normal((2, 4, 2))
    x, lu = torch.solve(torch.from_numpy(nb), with_layout(na, "transposed"))
    assert x.shape == (3, 2, 4, 2) and lu.shape == (3, 2, 4, 4)
    assert_close(x, np.linalg.solve(na, nb), rtol=1e-10, atol=1e-10)
    vb = rng.standard_normal((3, 1, 4))
    ref = np.linalg.solve(na, vb[..., None])[..., 0]
    assert_close(torch.linalg.solve(torch.from_numpy(na), torch.from_numpy(vb)), ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("shape", [(6, 3), (3, 3), (3, 5)])
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_lstsq(shape, layout, rng):
    m, n = shape
    na = rng.standard_normal(shape)
    nb = rng.standard_normal((m, 2))
    x, qr = torch.lstsq(with_layout(nb, layout), with_layout(na, layout))
    # 1.x returns max(m, n) rows; here the n rows of the solution (documented)
    assert x.shape == (n, 2) and qr.shape == (m, n)
    assert_close(x, np.linalg.lstsq(na, nb, rcond=None)[0], rtol=1e-9, atol=1e-9)
    assert_close(torch.gels(torch.from_numpy(nb), torch.from_numpy(na))[0], x.numpy())
    with pytest.raises(RuntimeError, match="rows"):
        torch.lstsq(torch.zeros(m + 1, 2, dtype=torch.float64), torch.from_numpy(na))


# ---------------------------------------------------------------- Cholesky


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_cholesky(dtype, layout, rng):
    na = spd(rng, (2, 5, 5), NUMPY_OF[dtype])
    a = with_layout(na, layout)
    t = tol(dtype)
    low = torch.cholesky(a)
    assert_close(low, np.linalg.cholesky(na.astype(np.float64)).astype(na.dtype), **t)
    assert_close(low @ low.transpose(-1, -2), na, **t)  # L L^T = A
    up = a.cholesky(upper=True)
    assert_close(up.transpose(-1, -2) @ up, na, **t)  # U^T U = A
    assert (np.tril(up.numpy(), -1) == 0).all()
    assert_close(torch.linalg.cholesky(a), low.numpy(), **t)
    assert_close(torch.linalg.cholesky(a, upper=True), up.numpy(), **t)
    # the 0.1-era potrf is upper by default
    assert_close(torch.potrf(a.select(0, 0)), up.numpy()[0], **t)
    assert_close(a, na)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_and_inverse(upper, rng):
    na = spd(rng, (3, 4, 4))
    nb = rng.standard_normal((3, 4, 2))
    factor = torch.cholesky(torch.from_numpy(na), upper=upper)
    b = with_layout(nb, "transposed")
    assert_close(torch.cholesky_solve(b, factor, upper=upper), np.linalg.solve(na, nb), rtol=1e-10, atol=1e-10)
    assert_close(b.cholesky_solve(factor, upper), np.linalg.solve(na, nb), rtol=1e-10, atol=1e-10)
    assert_close(torch.cholesky_inverse(factor, upper=upper), np.linalg.inv(na), rtol=1e-10, atol=1e-10)
    f0 = factor.select(0, 0)
    if upper:  # the 0.1-era names, upper by default
        assert_close(torch.potrs(b.select(0, 0), f0), np.linalg.solve(na[0], nb[0]), rtol=1e-10, atol=1e-10)
        assert_close(torch.potri(f0), np.linalg.inv(na[0]), rtol=1e-10, atol=1e-10)
    else:
        assert_close(torch.potrs(b.select(0, 0), f0, False), np.linalg.solve(na[0], nb[0]), rtol=1e-10, atol=1e-10)
        assert_close(f0.potri(upper=False), np.linalg.inv(na[0]), rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------- decompositions


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_symeig(dtype, layout, rng):
    x = rng.standard_normal((2, 5, 5))
    na = (x + np.swapaxes(x, -1, -2)).astype(NUMPY_OF[dtype])
    t = tol(dtype)
    w, v = torch.symeig(with_layout(na, layout), eigenvectors=True)
    assert_close(w, np.linalg.eigvalsh(na.astype(np.float64)).astype(na.dtype), **t)
    # A v = lambda v, and V is orthonormal
    nv, nw = v.numpy().astype(np.float64), w.numpy().astype(np.float64)
    np.testing.assert_allclose(na @ nv, nv * nw[..., None, :], **t)
    np.testing.assert_allclose(np.swapaxes(nv, -1, -2) @ nv, np.broadcast_to(np.eye(5), (2, 5, 5)), **t)
    only = torch.symeig(with_layout(na, layout))
    assert only.eigenvectors.numel() == 0
    assert_close(only.eigenvalues, w.numpy(), **t)
    # upper=False reads only the lower triangle
    junk = np.tril(na) + np.triu(np.full_like(na, 1e3), 1)
    assert_close(torch.symeig(torch.from_numpy(junk), upper=False)[0], w.numpy(), **t)
    le, lv = torch.linalg.eigh(torch.from_numpy(junk))
    assert_close(le, w.numpy(), **t)
    assert_close(torch.linalg.eigvalsh(torch.from_numpy(junk)), w.numpy(), **t)
    assert_close(torch.linalg.eigvalsh(torch.from_numpy(np.swapaxes(junk, -1, -2).copy()), UPLO="U"), w.numpy(), **t)


def test_eig(rng):
    # real eigenvalues: a triangular matrix, A v = lambda v
    nt = np.triu(rng.standard_normal((4, 4))) + np.diag([1.0, 2.0, 3.0, 4.0])
    e, v = torch.eig(with_layout(nt, "transposed"), eigenvectors=True)
    assert e.shape == (4, 2)
    assert_close(e.select(1, 1), np.zeros(4))
    lam = e.select(1, 0).numpy()
    assert_close(torch.from_numpy(np.sort(lam)), np.sort(np.diag(nt)), rtol=1e-10)
    np.testing.assert_allclose(nt @ v.numpy(), v.numpy() * lam, rtol=1e-9, atol=1e-9)
    # a rotation has a complex pair
    na = rng.standard_normal((5, 5))
    e, v = torch.eig(torch.from_numpy(na))
    assert v.numel() == 0
    got = e.numpy()[:, 0] + 1j * e.numpy()[:, 1]
    expected = np.linalg.eigvals(na)
    np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(expected), rtol=1e-9, atol=1e-9)
    with pytest.raises(RuntimeError, match="square"):
        torch.eig(torch.zeros(2, 3))
    with pytest.raises(RuntimeError, match="NaN"):
        torch.eig(torch.full((3, 3), float("nan")))


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 4)])
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_svd(shape, layout, rng):
    na = rng.standard_normal(shape)
    a = with_layout(na, layout)
    m, n = shape[-2:]
    k = min(m, n)
    u, s, v = torch.svd(a)
    assert u.shape == shape[:-2] + (m, k) and s.shape == shape[:-2] + (k,) and v.shape == shape[:-2] + (n, k)
    assert_close(s, np.linalg.svd(na, compute_uv=False), rtol=1e-10, atol=1e-10)
    nu, ns, nv = u.numpy(), s.numpy(), v.numpy()
    assert_close(torch.from_numpy((nu * ns[..., None, :]) @ np.swapaxes(nv, -1, -2)), na, rtol=1e-10, atol=1e-10)
    eye_k = np.broadcast_to(np.eye(k), shape[:-2] + (k, k))
    np.testing.assert_allclose(np.swapaxes(nu, -1, -2) @ nu, eye_k, atol=1e-10)
    np.testing.assert_allclose(np.swapaxes(nv, -1, -2) @ nv, eye_k, atol=1e-10)
    fu, fs, fv = torch.svd(a, some=False)
    assert fu.shape == shape[:-2] + (m, m) and fv.shape == shape[:-2] + (n, n)
    nfu, nfv = fu.numpy(), fv.numpy()
    np.testing.assert_allclose(np.swapaxes(nfu, -1, -2) @ nfu, np.broadcast_to(np.eye(m), nfu.shape), atol=1e-10)
    np.testing.assert_allclose(np.swapaxes(nfv, -1, -2) @ nfv, np.broadcast_to(np.eye(n), nfv.shape), atol=1e-10)
    zu, zs, zv = torch.svd(a, compute_uv=False)
    assert_close(zs, ns, rtol=1e-12, atol=1e-12)
    assert_close(zu, np.zeros(shape[:-2] + (m, m)))
    assert_close(zv, np.zeros(shape[:-2] + (n, n)))
    lu_, ls, lvh = torch.linalg.svd(a, full_matrices=False)
    assert_close(torch.from_numpy((lu_.numpy() * ls.numpy()[..., None, :]) @ lvh.numpy()), na, rtol=1e-10, atol=1e-10)
    assert torch.linalg.svd(a).U.shape == shape[:-2] + (m, m)
    assert_close(torch.linalg.svdvals(a), ns, rtol=1e-12, atol=1e-12)
    assert_close(a, na)


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5), (3, 5, 2)])
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_qr(shape, layout, rng):
    na = rng.standard_normal(shape)
    a = with_layout(na, layout)
    m, n = shape[-2:]
    k = min(m, n)
    batch = shape[:-2]
    for some, rows in ((True, k), (False, m)):
        q, r = torch.qr(a, some=some)
        assert q.shape == batch + (m, rows) and r.shape == batch + (rows, n)
        nq, nr = q.numpy(), r.numpy()
        np.testing.assert_allclose(nq @ nr, na, rtol=1e-10, atol=1e-10)  # A = Q R
        np.testing.assert_allclose(
            np.swapaxes(nq, -1, -2) @ nq, np.broadcast_to(np.eye(rows), batch + (rows, rows)), atol=1e-10
        )
        assert_close(torch.from_numpy(np.tril(nr, -1)), np.zeros(nr.shape))  # R upper triangular
        # R is unique up to the signs of its rows
        ref_r = np.linalg.qr(na, mode="reduced" if some else "complete")[1]
        np.testing.assert_allclose(np.abs(nr), np.abs(ref_r), rtol=1e-9, atol=1e-9)
    lq, lr = torch.linalg.qr(a, mode="complete")
    assert lq.shape == batch + (m, m)
    np.testing.assert_allclose(lq.numpy() @ lr.numpy(), na, rtol=1e-10, atol=1e-10)
    rq, rr = torch.linalg.qr(a, mode="r")
    assert rq.numel() == 0
    assert_close(rr, torch.qr(a)[1].numpy())
    with pytest.raises(ValueError, match="mode"):
        torch.linalg.qr(a, mode="full")


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_lu_and_unpack(shape, layout, rng):
    na = rng.standard_normal(shape)
    a = with_layout(na, layout)
    m, n = shape[-2:]
    k = min(m, n)
    factors, pivots = torch.lu(a)
    assert pivots.dtype is torch.int32 and pivots.shape == shape[:-2] + (k,)
    piv = pivots.numpy()
    # LAPACK's pivots: 1-based, row i swapped with a row at or below it
    assert (piv >= np.arange(1, k + 1)).all() and (piv <= m).all()
    p, l, u = torch.lu_unpack(factors, pivots)
    assert p.shape == shape[:-2] + (m, m) and l.shape == shape[:-2] + (m, k) and u.shape == shape[:-2] + (k, n)
    np.testing.assert_allclose(p.numpy() @ l.numpy() @ u.numpy(), na, rtol=1e-10, atol=1e-10)  # A = P L U
    np.testing.assert_allclose(np.diagonal(l.numpy(), axis1=-2, axis2=-1), 1)
    assert_close(torch.from_numpy(np.triu(l.numpy(), 1)), np.zeros(l.shape))
    assert_close(torch.from_numpy(np.tril(u.numpy(), -1)), np.zeros(u.shape))
    # partial pivoting: |L| <= 1
    assert np.abs(l.numpy()).max() <= 1 + 1e-12
    f2, p2, infos = a.lu(get_infos=True)
    assert_close(f2, factors.numpy())
    assert infos.dtype is torch.int32 and infos.shape == shape[:-2] and (infos.numpy() == 0).all()
    with pytest.raises(RuntimeError, match="without pivoting"):
        torch.lu(a, pivot=False)
    lf = torch.linalg.lu_factor(a)
    assert_close(lf.LU, factors.numpy())
    assert_close(lf.pivots, piv)


def test_lu_unpack_of_empty_and_broadcast_batches_and_bad_pivots(rng):
    na = rng.standard_normal((3, 1, 4, 4))
    factors, pivots = torch.lu(torch.from_numpy(na).expand(3, 2, 4, 4))
    p, l, u = torch.lu_unpack(factors, pivots)
    np.testing.assert_allclose(p.numpy() @ l.numpy() @ u.numpy(), na.repeat(2, axis=1), rtol=1e-10, atol=1e-10)
    p, l, u = torch.lu_unpack(torch.zeros(0, 3, 2), torch.zeros(0, 2, dtype=torch.int32))
    assert p.shape == (0, 3, 3) and l.shape == (0, 3, 2) and u.shape == (0, 2, 2)
    p, l, u = torch.lu_unpack(torch.zeros(2, 0, 0), torch.zeros(2, 0, dtype=torch.int32))
    assert p.shape == l.shape == u.shape == (2, 0, 0)
    with pytest.raises(RuntimeError, match="do not fit"):
        torch.lu_unpack(torch.eye(3), torch.ones(2, dtype=torch.int32))
    # the first pivot out of range is named, counting over the whole batch
    with pytest.raises(RuntimeError, match=r"pivot 4 is 0, out of the range \[1, 3\]"):
        torch.lu_unpack(torch.eye(3).expand(2, 3, 3), torch.tensor([[1, 2, 3], [2, 0, 4]], dtype=torch.int32))


# ---------------------------------------------------------------- LAPACK errors


def test_singular_and_indefinite_matrices_raise_and_leave_inputs_alone():
    singular = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
    before = singular.numpy().copy()
    with pytest.raises(RuntimeError, match="singular"):
        torch.inverse(singular)
    with pytest.raises(RuntimeError, match="singular"):
        torch.solve(torch.ones(2, 1), singular)
    with pytest.raises(RuntimeError, match="singular"):
        torch.linalg.solve(singular, torch.ones(2))
    with pytest.raises(RuntimeError, match="positive definite"):
        torch.cholesky(singular - 3 * torch.eye(2))
    batch = torch.zeros(2, 2, 2)
    batch.select(0, 0).copy_(torch.eye(2))
    batch.select(0, 1).copy_(singular)
    with pytest.raises(RuntimeError, match=r"Batch element 1"):
        torch.inverse(batch)
    assert_close(singular, before)


def test_lapack_argument_errors():
    with pytest.raises(RuntimeError, match="floating point"):
        torch.inverse(torch.eye(3).long())
    with pytest.raises(RuntimeError, match="floating point"):
        torch.det(torch.eye(3).half())
    with pytest.raises(RuntimeError, match="square"):
        torch.inverse(torch.zeros(2, 3))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.det(torch.zeros(3))
    with pytest.raises(RuntimeError, match="expected scalar type"):
        torch.solve(torch.zeros(3, 1, dtype=torch.float64), torch.eye(3))
    with pytest.raises(RuntimeError, match="3 by 3 but each B matrix is 4 by 1"):
        torch.solve(torch.zeros(4, 1), torch.eye(3))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.cholesky_solve(torch.zeros(3), torch.eye(3))
    with pytest.raises(RuntimeError, match="Int"):
        torch.lu_unpack(torch.eye(3), torch.ones(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="out of the range"):
        torch.lu_unpack(torch.eye(3), torch.tensor([1, 5, 3], dtype=torch.int32))
    with pytest.raises(ValueError, match="UPLO"):
        torch.linalg.eigh(torch.eye(3), UPLO="X")


def test_return_types_are_named_tuples():
    a = torch.eye(3, dtype=torch.float64)
    assert type(torch.svd(a)) is torch.return_types.svd
    assert type(torch.qr(a)) is torch.return_types.qr
    assert type(torch.symeig(a)) is torch.return_types.symeig
    assert type(torch.slogdet(a)) is torch.return_types.slogdet
    assert torch.qr(a)._fields == ("Q", "R")
    assert torch.linalg.svd(a)._fields == ("U", "S", "Vh")
    outs = (torch.zeros(1, dtype=torch.float64), torch.zeros(1, dtype=torch.float64))
    r = torch.qr(a, out=outs)
    assert r.Q is outs[0] and r.R is outs[1]
    assert_close(outs[0] @ outs[1], np.eye(3), atol=1e-12)
