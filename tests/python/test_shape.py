"""Construction and shape ops (cat, stack, diag, tril, cross, histc, flip, roll, repeat,
meshgrid, movedim, ...) against numpy, on contiguous and non-contiguous inputs."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import torch
from conftest import FLOAT_TYPES, LAYOUTS, NUMPY_OF, NUMERIC_TYPES, assert_close, make_tensor

# Ops that only move elements work for every element type, half and bool included.
ALL_TYPES = NUMERIC_TYPES + [torch.float16, torch.bool]


def numpy_promoted(a, b):
    """PyTorch's promotion of two tensor dtypes (as numpy dtypes): a float beats any
    integer (numpy would widen int64 + float32 to float64); otherwise numpy agrees."""
    a, b = np.dtype(a), np.dtype(b)
    if a.kind == "f" and b.kind != "f":
        return a
    if b.kind == "f" and a.kind != "f":
        return b
    return np.promote_types(a, b)


def snapshot(*tensors):
    return [t.numpy().copy() for t in tensors]


def assert_unchanged(tensors, before):
    for t, b in zip(tensors, before):
        np.testing.assert_array_equal(t.numpy(), b)


# ---- cat and stack ----


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_cat(dtype, layout, dim, rng):
    shapes = []
    for n in (2, 3, 1):
        s = [4, 3, 5]
        s[dim] = n
        shapes.append(s)
    pairs = [make_tensor(s, dtype, layout, rng) for s in shapes]
    r = torch.cat([t for t, _ in pairs], dim)
    assert_close(r, np.concatenate([a for _, a in pairs], axis=dim))
    assert r.is_contiguous()
    assert_close(torch.concat(tuple(t for t, _ in pairs), dim=dim), np.concatenate([a for _, a in pairs], axis=dim))


@pytest.mark.parametrize(
    "types",
    [
        (torch.int64, torch.float32),
        (torch.uint8, torch.int8),
        (torch.bool, torch.int32),
        (torch.float16, torch.float64),
        (torch.int16, torch.bool, torch.float32),
        (torch.uint8, torch.uint8, torch.int64),
    ],
)
def test_cat_promotes(types, rng):
    pairs = [make_tensor((2, 3), dt, "transposed", rng) for dt in types]
    expected_type = np.dtype(NUMPY_OF[types[0]])
    for dt in types[1:]:
        expected_type = numpy_promoted(expected_type, NUMPY_OF[dt])
    expected = np.concatenate([a.astype(expected_type) for _, a in pairs], axis=1)
    assert_close(torch.cat([t for t, _ in pairs], 1), expected)
    assert_close(torch.stack([t for t, _ in pairs]), np.stack([a.astype(expected_type) for _, a in pairs]))


def test_cat_skips_legacy_empty(rng):
    x, a = make_tensor((2, 3), torch.int64, "contiguous", rng)
    e = torch.tensor([])  # 1-D, size 0, default float type
    # skipped for the size check, but still part of the type promotion (PyTorch 1.x)
    assert_close(torch.cat([e, x, e], 1), a.astype(np.float32))
    assert_close(torch.cat([x, torch.empty(0, dtype=torch.int64)]), a)
    assert_close(torch.cat([e, e]), np.zeros(0, np.float32))
    # an empty tensor of any other shape takes part in the size check
    assert_close(torch.cat([torch.zeros(0, 3, dtype=torch.int64), x]), a)
    with pytest.raises(RuntimeError):
        torch.cat([torch.zeros(0, 4), x.float()])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cat_out(layout, rng):
    x, a = make_tensor((3, 4), torch.float64, layout, rng)
    y, b = make_tensor((2, 4), torch.int32, layout, rng)
    out = torch.zeros(1, dtype=torch.float64)
    r = torch.cat([x, y], out=out)
    assert r is out
    assert_close(out, np.concatenate([a, b.astype(np.float64)]))
    # out may be one of the inputs: the result is computed before out is written
    z = x.clone()
    torch.cat([z, z], 1, out=z)
    assert_close(z, np.concatenate([a, a], 1))
    bad = torch.zeros(7, 4, dtype=torch.int64)
    before = snapshot(bad)
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.cat([x, y], out=bad)
    assert_unchanged([bad], before)


def test_cat_errors_leave_inputs_unchanged(rng):
    x, _ = make_tensor((2, 3), torch.float32, "contiguous", rng)
    y, _ = make_tensor((2, 4), torch.float32, "transposed", rng)
    before = snapshot(x, y)
    with pytest.raises(RuntimeError, match=r"dimension 0.*Expected size 3 but got size 4.*\[2, 3\].*\[2, 4\]"):
        torch.cat([x, y], 0)
    out = torch.zeros(5)
    with pytest.raises(RuntimeError, match="must match"):
        torch.cat([x, y], out=out)
    assert_close(out, np.zeros(5, np.float32))
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.cat([x, x], 2)
    with pytest.raises(IndexError):
        torch.cat([x, x], -3)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.cat([x, x.select(0, 0)], 0)
    with pytest.raises(RuntimeError, match="zero-dimensional"):
        torch.cat([x.select(0, 0).select(0, 0), x.select(0, 0).select(0, 1)])
    with pytest.raises(RuntimeError, match="non-empty"):
        torch.cat([])
    with pytest.raises(TypeError):
        torch.cat([x, 1])
    with pytest.raises(TypeError):
        torch.cat(x)
    assert_unchanged([x, y], before)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_stack(dtype, layout, dim, rng):
    pairs = [make_tensor((3, 4), dtype, layout, rng) for _ in range(3)]
    assert_close(torch.stack([t for t, _ in pairs], dim), np.stack([a for _, a in pairs], axis=dim))
    out = torch.empty(0, dtype=dtype)
    assert torch.stack([t for t, _ in pairs], dim=dim, out=out) is out
    assert_close(out, np.stack([a for _, a in pairs], axis=dim))


def test_stack_zero_dim_and_errors(rng):
    assert_close(torch.stack([torch.tensor(1.5), torch.tensor(2.5)]), np.array([1.5, 2.5], np.float32))
    x, _ = make_tensor((2, 3), torch.float32, "contiguous", rng)
    with pytest.raises(RuntimeError, match=r"equal size.*\[2, 3\] at entry 0 and \[3, 2\] at entry 1"):
        torch.stack([x, x.t()])
    with pytest.raises(IndexError):
        torch.stack([x, x], 3)
    with pytest.raises(RuntimeError):
        torch.stack([])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_hstack_vstack_dstack_column_stack(layout, rng):
    for shapes in [[(3,), (2,)], [(2, 3), (2, 1)], [(2, 3, 4), (2, 1, 4)], [(), ()]]:
        pairs = [make_tensor(s, torch.int32, layout, rng) for s in shapes]
        assert_close(torch.hstack([t for t, _ in pairs]), np.hstack([a for _, a in pairs]))
    for shapes in [[(3,), (3,)], [(2, 3), (1, 3)], [(), ()], [(2, 2, 2), (1, 2, 2)]]:
        pairs = [make_tensor(s, torch.float64, layout, rng) for s in shapes]
        assert_close(torch.vstack([t for t, _ in pairs]), np.vstack([a for _, a in pairs]))
        assert_close(torch.row_stack([t for t, _ in pairs]), np.vstack([a for _, a in pairs]))
    for shapes in [[(3,), (3,)], [(2, 3), (2, 3)], [(2, 3, 1), (2, 3, 2)], [(), ()]]:
        pairs = [make_tensor(s, torch.int16, layout, rng) for s in shapes]
        assert_close(torch.dstack([t for t, _ in pairs]), np.dstack([a for _, a in pairs]))
    for shapes in [[(3,), (3, 2)], [(), ()], [(4,), (4,), (4, 3)]]:
        pairs = [make_tensor(s, torch.float32, layout, rng) for s in shapes]
        assert_close(torch.column_stack([t for t, _ in pairs]), np.column_stack([a for _, a in pairs]))
    x, a = make_tensor((2, 3), torch.float32, layout, rng)
    out = torch.empty(0)
    assert torch.vstack([x, x], out=out) is out
    assert_close(out, np.vstack([a, a]))
    with pytest.raises(RuntimeError):
        torch.hstack([])


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (1, 2, 3, 4)])
def test_atleast(shape, rng):
    x, a = make_tensor(shape, torch.float64, "strided", rng)
    for fn, ref in [
        (torch.atleast_1d, np.atleast_1d),
        (torch.atleast_2d, np.atleast_2d),
        (torch.atleast_3d, np.atleast_3d),
    ]:
        r = fn(x)
        assert_close(r, ref(a))
        assert r.data_ptr() == x.data_ptr()  # a view (x itself when already big enough)
        pair = fn(x, x)
        assert isinstance(pair, tuple) and len(pair) == 2
        assert_close(pair[1], ref(a))
        assert_close(fn([x])[0], ref(a))


# ---- diagonals and triangles ----


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_diag(dtype, layout, rng):
    v, nv = make_tensor((4,), dtype, layout, rng)
    m, nm = make_tensor((3, 5), dtype, layout, rng)
    for k in range(-6, 7):
        assert_close(torch.diag(v, k), np.diag(nv, k))
        assert_close(v.diag(diagonal=k), np.diag(nv, k))
        d = torch.diag(m, k)
        assert_close(d, np.diag(nm, k))
        assert d.is_contiguous()
    out = torch.empty(0, dtype=dtype)
    assert torch.diag(v, 1, out=out) is out
    assert_close(out, np.diag(nv, 1))
    with pytest.raises(RuntimeError, match="1D or 2D"):
        torch.diag(torch.zeros(2, 2, 2, dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_diagonal_is_a_view(dtype, layout, rng):
    x, a = make_tensor((4, 5, 6), dtype, layout, rng)
    for offset in (-5, -2, 0, 1, 3, 7):
        for d1, d2 in [(0, 1), (1, 0), (0, 2), (2, 1), (-1, -3)]:
            r = torch.diagonal(x, offset, d1, d2)
            assert_close(r, np.diagonal(a, offset, d1, d2))
            assert_close(x.diagonal(offset=offset, dim1=d1, dim2=d2), np.diagonal(a, offset, d1, d2))
    y, b = make_tensor((4, 5), torch.float64, "contiguous", rng)
    d = y.diagonal(1)
    d.fill_(-1)
    b = b.copy()
    b[np.arange(4), np.arange(1, 5)] = -1
    assert_close(y, b)
    with pytest.raises(RuntimeError, match="identical"):
        x.diagonal(0, 1, -2)
    with pytest.raises(IndexError):
        x.diagonal(0, 0, 3)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("args", [(0, -2, -1), (1, -2, -1), (-2, 0, 2), (2, 2, 0), (0, 1, 0), (-1, 0, 1)])
def test_diag_embed(layout, args, rng):
    x, a = make_tensor((2, 3), torch.float32, layout, rng, 1, 5)  # no zeros: the diagonal holds all of it
    offset, d1, d2 = args
    r = torch.diag_embed(x, offset, d1, d2)
    assert r.dim() == 3
    n = 3 + abs(offset)
    assert sorted(r.shape) == sorted([2, n, n])
    np.testing.assert_array_equal(np.diagonal(r.numpy(), offset, d1, d2), a)
    assert np.abs(r.numpy()).sum() == pytest.approx(np.abs(a).sum(), rel=1e-5)
    assert_close(x.diag_embed(offset=offset, dim1=d1, dim2=d2), r.numpy())


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 2, 2)])
def test_diagflat(shape, rng):
    x, a = make_tensor(shape, torch.int64, "transposed", rng)
    for k in (-2, 0, 1):
        assert_close(torch.diagflat(x, k), np.diagflat(a, k))
        assert_close(x.diagflat(offset=k), np.diagflat(a, k))


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_tril_triu(dtype, layout, rng):
    for shape in [(4, 6), (6, 4), (3, 2, 5), (2, 3, 4, 4)]:
        x, a = make_tensor(shape, dtype, layout, rng)
        before = snapshot(x)
        for k in range(-7, 8, 2):
            assert_close(torch.tril(x, k), np.tril(a, k))
            assert_close(x.triu(diagonal=k), np.triu(a, k))
        assert_unchanged([x], before)
    x, a = make_tensor((3, 5), dtype, layout, rng)
    out = torch.zeros(1, dtype=dtype)
    assert torch.triu(x, 1, out=out) is out
    assert_close(out, np.triu(a, 1))


@pytest.mark.parametrize("dtype", [torch.float64, torch.int8, torch.bool, torch.float16])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_tril_triu_in_place(dtype, layout, rng):
    x, a = make_tensor((2, 4, 5), dtype, layout, rng)
    a = a.copy()
    r = x.tril_(-1)
    assert r is x
    assert_close(x, np.tril(a, -1))
    y, b = make_tensor((4, 5), dtype, layout, rng)
    b = b.copy()
    base = y.data_ptr()
    assert y.triu_(2) is y and y.data_ptr() == base
    assert_close(y, np.triu(b, 2))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.zeros(3, dtype=dtype).tril_()


@pytest.mark.parametrize("row,col", [(0, 3), (3, 0), (1, 1), (4, 4), (3, 6), (6, 3)])
def test_tril_triu_indices(row, col):
    for offset in (-7, -1, 0, 2, 8):
        assert_close(torch.tril_indices(row, col, offset), np.stack(np.tril_indices(row, offset, col)).astype(np.int64))
        assert_close(torch.triu_indices(row, col, offset), np.stack(np.triu_indices(row, offset, col)).astype(np.int64))
    assert torch.tril_indices(row, col, dtype=torch.int32).dtype == torch.int32
    with pytest.raises(RuntimeError):
        torch.tril_indices(-1, 3)


# ---- cross, histc, renorm, kron ----


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cross(dtype, layout, rng):
    a, na = make_tensor((4, 3, 5), dtype, layout, rng)
    b, nb = make_tensor((4, 3, 5), dtype, "transposed", rng)
    assert_close(torch.cross(a, b, dim=1), np.cross(na, nb, axis=1).astype(na.dtype))
    assert_close(a.cross(b), np.cross(na, nb, axis=1).astype(na.dtype))  # the first dim of size 3
    c, nc = make_tensor((3, 3), dtype, layout, rng)
    assert_close(torch.cross(c, c.t()), np.cross(nc, nc.T, axis=0).astype(nc.dtype))
    assert_close(torch.cross(c, c.t(), -1), np.cross(nc, nc.T, axis=1).astype(nc.dtype))
    # broadcast over sizes of 1
    d, nd = make_tensor((1, 3), dtype, layout, rng)
    e, ne = make_tensor((4, 3), dtype, layout, rng)
    assert_close(torch.cross(d, e, dim=1), np.cross(nd, ne).astype(nd.dtype))
    out = torch.empty(0, dtype=dtype)
    assert torch.cross(a, b, 1, out=out) is out
    assert_close(out, np.cross(na, nb, axis=1).astype(na.dtype))


def test_cross_errors(rng):
    a, _ = make_tensor((4, 2), torch.float32, "contiguous", rng)
    b, _ = make_tensor((3, 4), torch.float32, "contiguous", rng)
    before = snapshot(a, b)
    with pytest.raises(RuntimeError, match="size 3"):
        torch.cross(a, a)
    with pytest.raises(RuntimeError, match="length 3"):
        torch.cross(b, b, dim=1)
    with pytest.raises(IndexError):
        torch.cross(b, b, dim=2)
    with pytest.raises(RuntimeError):
        torch.cross(b, b.double())
    with pytest.raises(RuntimeError):
        torch.cross(b, b.select(0, 0))
    assert_unchanged([a, b], before)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_histc(dtype, layout, rng):
    x, a = make_tensor((6, 7), dtype, layout, rng, -10, 10)
    for bins, lo, hi in [(10, -10, 10), (7, -3.5, 4), (1, -20, 20), (33, 0, 5)]:
        expected, _ = np.histogram(a.astype(np.float64), bins=bins, range=(lo, hi))
        assert_close(torch.histc(x, bins, lo, hi), expected.astype(a.dtype))
    # min == max: the data's range
    expected, _ = np.histogram(a, bins=5, range=(a.min(), a.max()))
    assert_close(x.histc(bins=5), expected.astype(a.dtype))
    # integer values on inner edges: each in its own bin (where dividing first would not)
    v = torch.arange(49, dtype=dtype)
    assert_close(torch.histc(v, 49, 0, 49), np.ones(49, a.dtype))
    assert_close(torch.histc(torch.tensor([0.0, 1, 1, 2, 3, 3, 3], dtype=dtype), 3, 0, 3), np.array([1, 2, 4], a.dtype))
    assert_close(torch.histc(torch.full((4,), 2.0, dtype=dtype), 4), np.array([0, 0, 4, 0], a.dtype))
    out = torch.empty(0, dtype=dtype)
    assert torch.histc(x, 4, -1, 1, out=out) is out
    assert_close(out, np.histogram(a, bins=4, range=(-1, 1))[0].astype(a.dtype))


def test_histc_errors():
    x = torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="bins"):
        torch.histc(x, 0)
    with pytest.raises(RuntimeError, match="max must be larger than min"):
        torch.histc(x, 3, 2, 1)
    with pytest.raises(RuntimeError, match="not finite"):
        torch.histc(x, 3, 0, float("inf"))
    with pytest.raises(TypeError):
        torch.histc(torch.tensor([1, 2]), 3)


def numpy_renorm(a, p, dim, maxnorm):
    moved = np.moveaxis(a.astype(np.float64), dim, 0)
    flat = moved.reshape(moved.shape[0], -1)
    norms = np.linalg.norm(flat, ord=p, axis=1)
    scale = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    return np.moveaxis(moved * scale.reshape((-1,) + (1,) * (moved.ndim - 1)), 0, dim).astype(a.dtype)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_renorm(dtype, layout, rng):
    x, a = make_tensor((3, 4, 5), dtype, layout, rng)
    for p, dim, maxnorm in [(2, 0, 5.0), (1, 1, 10.0), (3, -1, 4.0), (float("inf"), 2, 6.0), (2, 1, 1000.0)]:
        assert_close(torch.renorm(x, p, dim, maxnorm), numpy_renorm(a, p, dim, maxnorm), rtol=1e-5)
    y = x.clone()
    assert y.renorm_(2, 1, 3.0) is y
    assert_close(y, numpy_renorm(a, 2, 1, 3.0), rtol=1e-5)
    before = snapshot(x)
    with pytest.raises(RuntimeError):
        x.renorm_(0, 0, 1.0)
    with pytest.raises(RuntimeError):
        x.renorm_(2, 0, -1.0)
    with pytest.raises(IndexError):
        x.renorm_(2, 3, 1.0)
    with pytest.raises(RuntimeError):
        x.select(0, 0).select(0, 0).renorm_(2, 0, 1.0)
    with pytest.raises(TypeError):
        torch.renorm(torch.ones(2, 2, dtype=torch.int64), 2, 0, 1)
    assert_unchanged([x], before)


@pytest.mark.parametrize("shapes", [((2, 3), (3, 2)), ((3,), (2,)), ((2, 2), (3,)), ((2,), (2, 1, 3)), ((), (2, 2))])
@pytest.mark.parametrize(
    "types", [(torch.float64, torch.float64), (torch.int64, torch.int64), (torch.int32, torch.float32)]
)
def test_kron(shapes, types, rng):
    a, na = make_tensor(shapes[0], types[0], "transposed", rng)
    b, nb = make_tensor(shapes[1], types[1], "strided", rng)
    expected = np.kron(na, nb).astype(numpy_promoted(na.dtype, nb.dtype))
    assert_close(torch.kron(a, b), expected)
    assert_close(a.kron(b), expected)


# ---- flip, roll, rot90 ----


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_flip(dtype, layout, rng):
    x, a = make_tensor((3, 4, 5), dtype, layout, rng)
    for dims in [(0,), (1,), (2,), (-1,), (0, 2), (2, 0, 1), ()]:
        r = torch.flip(x, dims)
        assert_close(r, np.flip(a, dims) if dims else a)
        assert r.is_contiguous()
    assert_close(x.flip(0, 1), np.flip(a, (0, 1)))
    assert_close(x.flip((1, 2)), np.flip(a, (1, 2)))
    assert_close(x.flip(dims=[2]), np.flip(a, 2))
    assert_close(torch.fliplr(x), np.fliplr(a))
    assert_close(x.flipud(), np.flipud(a))
    assert_close(torch.flip(torch.tensor(3), [0]), np.array(3))
    assert_close(list(reversed(x))[0], a[-1])


def test_flip_errors(rng):
    x, _ = make_tensor((3, 4), torch.float32, "contiguous", rng)
    before = snapshot(x)
    with pytest.raises(RuntimeError, match="multiple times"):
        x.flip(0, -2)
    with pytest.raises(IndexError):
        x.flip(2)
    with pytest.raises(RuntimeError):
        torch.fliplr(x.select(0, 0))
    with pytest.raises(RuntimeError):
        torch.flipud(x.select(0, 0).select(0, 0))
    assert_unchanged([x], before)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_roll(dtype, layout, rng):
    x, a = make_tensor((4, 5, 3), dtype, layout, rng)
    for shifts, dims in [
        (1, 0),
        (-2, 1),
        (7, -1),
        ((1, 2), (0, 1)),
        ((3, -4, 5), (2, 0, 1)),
        ((1, 2), (1, 1)),
        (0, 0),
        (5, 1),
    ]:
        assert_close(torch.roll(x, shifts, dims), np.roll(a, shifts, dims))
    for shift in (0, 3, -8, 61):
        assert_close(x.roll(shift), np.roll(a, shift))  # flattened
    assert_close(x.roll(shifts=2, dims=0), np.roll(a, 2, 0))
    assert_close(torch.roll(torch.zeros(0, 3, dtype=dtype), 1, 1), np.zeros((0, 3), NUMPY_OF[dtype]))
    with pytest.raises(RuntimeError, match="align"):
        torch.roll(x, (1, 2), 0)
    with pytest.raises(IndexError):
        torch.roll(x, 1, 3)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_rot90(layout, rng):
    x, a = make_tensor((3, 4, 2), torch.int32, layout, rng)
    for k in range(-5, 6):
        for dims in [(0, 1), (1, 0), (0, 2), (2, 1), (-1, 0)]:
            assert_close(torch.rot90(x, k, dims), np.rot90(a, k, dims))
    assert_close(x.rot90(), np.rot90(a))
    before = snapshot(x)
    for bad in [(0,), (0, 0), (0, -3), (0, 3), (0, 1, 2)]:
        with pytest.raises(RuntimeError):
            torch.rot90(x, 1, bad)
    with pytest.raises(RuntimeError):
        torch.rot90(x.select(0, 0).select(0, 0))
    assert_unchanged([x], before)


# ---- repeat, tile, repeat_interleave ----


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_repeat_and_tile(dtype, layout, rng):
    x, a = make_tensor((2, 3), dtype, layout, rng)
    for reps in [(1, 1), (2, 3), (3, 1, 2), (2, 0), (1, 2, 1, 2)]:
        assert_close(x.repeat(*reps), np.tile(a, reps))
        assert_close(x.repeat(reps), np.tile(a, reps))
        assert_close(torch.tile(x, reps), np.tile(a, reps))
    assert_close(torch.tile(x, (3,)), np.tile(a, (3,)))
    assert_close(x.tile(2), np.tile(a, 2))
    assert_close(x.tile(dims=(2, 1)), np.tile(a, (2, 1)))
    assert_close(torch.tensor(5).repeat(3), np.array([5, 5, 5]))
    with pytest.raises(RuntimeError, match="can not be smaller"):
        x.repeat(2)
    with pytest.raises(RuntimeError, match="negative"):
        x.repeat(2, -1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.uint8, torch.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_repeat_interleave(dtype, layout, rng):
    x, a = make_tensor((3, 4), dtype, layout, rng)
    for reps in (0, 1, 3):
        assert_close(torch.repeat_interleave(x, reps), np.repeat(a, reps))
        assert_close(x.repeat_interleave(reps, dim=1), np.repeat(a, reps, axis=1))
        assert_close(x.repeat_interleave(reps, -2), np.repeat(a, reps, axis=0))
    counts = np.array([2, 0, 1], np.int64)
    assert_close(torch.repeat_interleave(x, torch.from_numpy(counts), dim=0), np.repeat(a, counts, axis=0))
    counts4 = np.array([1, 3, 0, 2], np.int32)
    assert_close(x.repeat_interleave(torch.from_numpy(counts4), dim=1), np.repeat(a, counts4, axis=1))
    assert_close(x.repeat_interleave(torch.tensor([2]), dim=1), np.repeat(a, 2, axis=1))
    flat_counts = rng.integers(0, 3, 12)
    assert_close(x.repeat_interleave(torch.from_numpy(flat_counts)), np.repeat(a.reshape(-1), flat_counts))
    assert_close(x.repeat_interleave(2, dim=0, output_size=6), np.repeat(a, 2, axis=0))


def test_repeat_interleave_index_form_and_errors(rng):
    r = np.array([3, 0, 2, 1])
    assert_close(torch.repeat_interleave(torch.from_numpy(r)), np.repeat(np.arange(4), r))
    x = torch.arange(6).view(2, 3)
    with pytest.raises(RuntimeError, match="same size"):
        x.repeat_interleave(torch.tensor([1, 2]), dim=1)
    with pytest.raises(RuntimeError, match="negative"):
        x.repeat_interleave(torch.tensor([1, -1]), dim=0)
    with pytest.raises(RuntimeError, match="negative"):
        x.repeat_interleave(-1)
    with pytest.raises(RuntimeError, match="Long or Int"):
        x.repeat_interleave(torch.tensor([1.0, 2.0]), dim=0)
    with pytest.raises(IndexError):
        x.repeat_interleave(2, dim=2)
    assert_close(x, np.arange(6).reshape(2, 3))


# ---- meshgrid ----


@pytest.mark.parametrize("indexing", ["ij", "xy"])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_meshgrid(indexing, count, rng):
    pairs = [make_tensor((n,), torch.float64, "strided", rng) for n in (3, 4, 2)[:count]]
    grids = torch.meshgrid(*[t for t, _ in pairs], indexing=indexing)
    expected = np.meshgrid(*[a for _, a in pairs], indexing=indexing)
    assert isinstance(grids, tuple) and len(grids) == count
    for g, e, (t, _) in zip(grids, expected, pairs):
        assert_close(g, e)
        assert g.data_ptr() == t.data_ptr()  # expanded views of the inputs
    from_list = torch.meshgrid([t for t, _ in pairs], indexing=indexing)
    for g, e in zip(from_list, expected):
        assert_close(g, e)


def test_meshgrid_default_and_errors():
    a, b = torch.arange(3), torch.arange(2)
    with pytest.warns(UserWarning, match="indexing"):
        grids = torch.meshgrid(a, b)
    for g, e in zip(grids, np.meshgrid(np.arange(3), np.arange(2), indexing="ij")):
        assert_close(g, e)
    assert_close(torch.meshgrid(torch.tensor(7), b, indexing="ij")[0], np.full((1, 2), 7))
    with pytest.raises(RuntimeError, match="0D or 1D"):
        torch.meshgrid(torch.zeros(2, 2), b, indexing="ij")
    with pytest.raises(RuntimeError, match="same dtype"):
        torch.meshgrid(a, b.float(), indexing="ij")
    with pytest.raises(RuntimeError, match="indexing"):
        torch.meshgrid(a, b, indexing="ji")


# ---- dimension moves ----


@pytest.mark.parametrize("layout", LAYOUTS)
def test_movedim_swapaxes(layout, rng):
    x, a = make_tensor((2, 3, 4, 5), torch.float32, layout, rng)
    for src, dst in [(0, 3), (-1, 0), ((0, 1), (2, 3)), ((3, 0), (0, 1)), ((1, 2, 3), (-1, 0, 1)), ((), ())]:
        r = torch.movedim(x, src, dst)
        assert_close(r, np.moveaxis(a, src, dst))
        assert r.data_ptr() == x.data_ptr()
        assert_close(x.moveaxis(src, dst), np.moveaxis(a, src, dst))
    for d0, d1 in [(0, 1), (3, -4), (2, 2)]:
        assert_close(torch.swapaxes(x, d0, d1), np.swapaxes(a, d0, d1))
        assert_close(x.swapdims(d0, d1), np.swapaxes(a, d0, d1))
    with pytest.raises(RuntimeError, match="repeated dim"):
        x.movedim((0, 0), (1, 2))
    with pytest.raises(RuntimeError, match="repeated dim"):
        x.movedim((0, 1), (2, 2))
    with pytest.raises(RuntimeError, match="same number"):
        x.movedim((0, 1), 2)
    with pytest.raises(IndexError):
        x.movedim(4, 0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_unflatten_and_narrow_copy(layout, rng):
    x, a = make_tensor((6, 4), torch.int64, layout, rng)
    for dim, sizes in [(0, (2, 3)), (0, (3, -1)), (-1, (2, 2)), (1, (4,)), (1, (1, 4, 1))]:
        r = x.unflatten(dim, sizes)
        expected_shape = list(a.shape)
        d = dim % 2
        split = list(sizes)
        if -1 in split:
            split[split.index(-1)] = a.shape[d] // -np.prod(split)
        expected_shape[d : d + 1] = split
        assert_close(r, a.reshape(expected_shape))
        assert r.data_ptr() == x.data_ptr()
        assert_close(torch.unflatten(x, dim, sizes), a.reshape(expected_shape))
    with pytest.raises(RuntimeError, match="multiply up"):
        x.unflatten(0, (4, 2))
    with pytest.raises(RuntimeError, match="non-empty"):
        x.unflatten(0, ())
    with pytest.raises(IndexError):
        x.unflatten(2, (2, 2))
    n = x.narrow_copy(1, 1, 2)
    assert_close(n, a[:, 1:3])
    assert n.is_contiguous() and not np.shares_memory(n.numpy(), x.numpy())
    assert_close(torch.narrow_copy(x, 0, 2, 3), a[2:5])


def test_in_place_geometry(rng):
    x, a = make_tensor((2, 3, 1), torch.float64, "contiguous", rng)
    ptr = x.data_ptr()
    assert x.transpose_(0, 1) is x
    assert_close(x, np.swapaxes(a, 0, 1))
    assert x.squeeze_() is x
    assert_close(x, np.swapaxes(a, 0, 1).squeeze())
    assert x.unsqueeze_(-1) is x and x.shape == (3, 2, 1)
    assert x.squeeze_(0) is x and x.shape == (3, 2, 1)
    assert x.squeeze_(2) is x and x.shape == (3, 2)
    assert x.t_() is x
    assert_close(x, a[:, :, 0])
    assert x.swapdims_(0, 1) is x and x.swapaxes_(1, 0) is x
    assert_close(x, a[:, :, 0])
    assert x.data_ptr() == ptr
    v = torch.arange(3)
    assert v.t_() is v and v.shape == (3,)
    before = snapshot(x)
    with pytest.raises(IndexError):
        x.transpose_(0, 2)
    with pytest.raises(IndexError):
        x.unsqueeze_(4)
    with pytest.raises(RuntimeError):
        torch.zeros(2, 2, 2).t_()
    assert x.shape == (2, 3)
    assert_unchanged([x], before)


def test_type_as(rng):
    x, a = make_tensor((2, 3), torch.float64, "transposed", rng)
    for dt in ALL_TYPES:
        r = x.type_as(torch.zeros(1, dtype=dt))
        assert r.dtype == dt
        assert_close(r, a.astype(NUMPY_OF[dt]), rtol=1e-3, atol=1e-2)
    assert x.type_as(x) is x


# ---- properties ----


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4), st.integers(0, 2**31), st.data())
def test_roll_flip_cat_properties(shape, seed, data):
    rng = np.random.default_rng(seed)
    x, a = make_tensor(shape, torch.int32, data.draw(st.sampled_from(LAYOUTS)), rng)
    dim = data.draw(st.integers(0, len(shape) - 1))
    shift = data.draw(st.integers(-10, 10))
    # roll by s then by -s is the identity; flip twice too
    assert_close(torch.roll(torch.roll(x, shift, dim), -shift, dim), a)
    assert_close(x.flip(dim).flip(dim), a)
    # cat of a split gives the tensor back
    n = shape[dim]
    cut = data.draw(st.integers(0, n))
    assert_close(torch.cat([x.narrow(dim, 0, cut), x.narrow(dim, cut, n - cut)], dim), a)
    # tril + triu - diagonal part gives the matrix back
    if len(shape) >= 2:
        k = data.draw(st.integers(-5, 5))
        assert_close(torch.tril(x, k) + torch.triu(x, k + 1), a)


@pytest.mark.parametrize("parts", ["chunk", "split", "split_sizes"])
def test_chunk_and_split_are_one_node_whose_gradient_joins_the_parts(parts):
    """chunk/split record one node for all their views, named as PyTorch 1.13 names it; a part
    left out of the loss gets zeros. Checked against the gradient written by hand."""
    x = torch.randn(3, 10, dtype=torch.float64, requires_grad=True)
    if parts == "chunk":
        pieces = x.chunk(4, 1)  # 3, 3, 3, 1
    elif parts == "split":
        pieces = x.split(3, 1)
    else:
        pieces = x.split([3, 3, 3, 1], 1)
    assert [p.shape[1] for p in pieces] == [3, 3, 3, 1]
    assert {p.grad_fn.name() for p in pieces} == {
        "SplitWithSizesBackward0" if parts == "split_sizes" else "SplitBackward0"
    }
    assert len({id(p.grad_fn) for p in pieces}) == 1
    (pieces[0] * 2).sum().backward(retain_graph=True)
    (pieces[3] ** 2).sum().backward()
    want = np.zeros((3, 10))
    want[:, :3] = 2
    want[:, 9] = 2 * x.detach().numpy()[:, 9]
    np.testing.assert_allclose(x.grad.numpy(), want)
    assert torch.autograd.gradgradcheck(lambda t: (t.chunk(4, 1)[1] ** 3).sum(), (x.detach().requires_grad_(),))
    with pytest.raises(RuntimeError, match="split_with_sizes expects split_sizes to sum exactly to 10"):
        x.split([3, 3], 1)


def test_unbind_is_one_node_whose_gradient_stacks_the_slices():
    """unbind records one UnbindBackward0 node (PyTorch 1.13's name) for all its slices, not a
    select each whose backward zero-fills the whole input; a slice left out gets zeros.
    Checked against the gradient written by hand."""
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    rows = x.unbind(1)
    assert len(rows) == 4 and all(r.shape == (3,) for r in rows)
    assert {r.grad_fn.name() for r in rows} == {"UnbindBackward0"}
    assert len({id(r.grad_fn) for r in rows}) == 1
    (rows[0] * 2 + rows[2] ** 2).sum().backward()
    want = np.zeros((3, 4))
    want[:, 0] = 2
    want[:, 2] = 2 * x.detach().numpy()[:, 2]
    np.testing.assert_allclose(x.grad.numpy(), want)
    assert torch.autograd.gradgradcheck(lambda t: (t.unbind(0)[1] ** 3).sum(), (x.detach().requires_grad_(),))
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        torch.tensor(1.0).unbind(0)
    with pytest.raises(IndexError):
        x.unbind(2)
