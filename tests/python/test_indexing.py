"""Indexing: t[key] and t[key] = value against numpy (and, where PyTorch departs from numpy,
against loops written out here), and the index ops (index_select, gather, scatter,
masked_*, nonzero, take, put, index_put) against numpy or plain Python loops."""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import torch
from conftest import LAYOUTS, NUMPY_OF, assert_close, make_tensor

DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.uint8, torch.bool]
WRITABLE_LAYOUTS = ["contiguous", "transposed", "strided"]  # an expanded view aliases its elements


def shares_memory(a, b):
    return np.shares_memory(a.numpy(), b.numpy())


def writable(n):
    """A writable numpy copy of a make_tensor reference."""
    return np.array(n, copy=True)


# ---- basic indexing: views ----

BASIC_KEYS = [
    0,
    -1,
    3,
    (1, 2),
    (-1, -2, 1),
    (3, 4, 5),
    slice(1, 3),
    slice(None, None, 2),
    slice(-2, None),
    slice(10, 20),
    slice(None, -10),
    slice(3, 1),
    (slice(None), slice(1, None, 3)),
    (slice(1, 4, 2), slice(None), slice(0, 6, 4)),
    (Ellipsis, 1),
    (1, Ellipsis),
    (1, Ellipsis, 2),
    Ellipsis,
    None,
    (None,),
    (None, 1, None),
    (Ellipsis, None),
    (slice(None), None, 0),
    (0, slice(None), Ellipsis, None),
    (),
    (None, Ellipsis, None),
    (np.int64(2), np.int32(-1)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_basic_indexing_matches_numpy_and_shares_storage(dtype, layout, rng):
    t, n = make_tensor((4, 5, 6), dtype, layout, rng)
    for key in BASIC_KEYS:
        r = t[key]
        assert_close(r, n[key])
        assert r is not t
        if r.numel() > 0:
            assert shares_memory(r, t), key


@pytest.mark.parametrize("layout", WRITABLE_LAYOUTS)
def test_writes_through_basic_views_reach_the_base(layout, rng):
    for key in BASIC_KEYS:
        t, n = make_tensor((4, 5, 6), torch.float64, layout, rng)
        n = writable(n)
        v = t[key]
        v.fill_(-3.5)
        n[key] = -3.5
        assert_close(t, n)
        # and writes to the base show in the view
        t.fill_(2.0)
        assert (v.numpy() == 2.0).all()


def test_zero_dim_tensors_and_indices(rng):
    s = torch.tensor(7.5)
    assert s[None].shape == (1,) and s[None].tolist() == [7.5]
    assert s[...].shape == () and s[...].item() == 7.5
    assert s[True].shape == (1,) and s[False].shape == (0,)
    with pytest.raises(IndexError):
        s[0]
    with pytest.raises(IndexError):
        s[:]
    # a 0-dim integer tensor acts as an int: a view, the dimension removed
    t, n = make_tensor((4, 5), torch.float32, "contiguous", rng)
    for idx in [torch.tensor(2), torch.tensor(-1, dtype=torch.int32), np.int64(3)]:
        r = t[idx]
        assert_close(r, n[int(idx)])
        assert shares_memory(r, t)
        assert_close(t[1, idx], n[1, int(idx)])
    # ... also next to advanced indices, where it selects first
    assert_close(t[torch.tensor(1), [0, 2]], n[1, [0, 2]])


def test_python_bools_add_a_dimension(rng):
    t, n = make_tensor((3, 4), torch.int64, "contiguous", rng)
    assert_close(t[True], n[None])
    assert t[False].shape == (0, 3, 4)
    assert_close(t[1, True], n[1][None])
    assert_close(t[:, False, 1], n[:, None, 1][:, :0])
    assert_close(t[torch.tensor(True)], n[None])
    # PyTorch indexes the new dimension with [0]: a copy, placed like an advanced index
    assert not shares_memory(t[True], t)
    assert t[[0, 1], :, True].shape == (2, 4)  # [0, 1] and True broadcast to [2], first


# ---- advanced indexing: copies ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_advanced_indexing_matches_numpy(dtype, layout, rng):
    t, n = make_tensor((4, 5, 6), dtype, layout, rng)
    keys = [
        [0, 2, 2, -1],  # a list
        np.array([3, 0]),  # a numpy int array
        np.array([[0, -1], [2, 3]]),  # a 2-D numpy array is one index
        (slice(None), [1, 3]),
        (Ellipsis, np.array([5, 0, 5])),
        ([0, 1], [4, 3]),  # adjacent: broadcast shape in place
        (slice(None), [[0], [1]], [2, 3, 4]),  # broadcast to [2, 3]
        ([0, 3], slice(None), [1, 5]),  # separated by a slice: broadcast shape first
        ([1, 2], None, slice(1, 3), [[0], [1]]),
        (None, [1, 0], Ellipsis),
        (slice(None, None, 2), np.array([[1, 2]]), slice(1, 4)),
        ([[0, 1], [1, 2]], [[1], [2]], [[0, 5]]),
        [],  # an empty list: no rows
        (slice(None), []),
    ]
    for key in keys:
        if isinstance(key, tuple):
            nkey = tuple(np.asarray(k, dtype=np.int64) if isinstance(k, list) else k for k in key)
        else:
            nkey = np.asarray(key, dtype=np.int64)
        r = t[key]
        assert_close(r, n[nkey])
        if r.numel() > 0:
            assert not shares_memory(r, t), key
    # index tensors of every signed integer type (a uint8 tensor is a mask, below)
    for itype in [torch.int64, torch.int32, torch.int16, torch.int8]:
        idx = torch.tensor([3, 1, 1], dtype=itype)
        assert_close(t[:, idx], n[:, [3, 1, 1]])
    # the index tensors may themselves be non-contiguous
    idx = torch.tensor([[0, 1], [3, 2], [1, 1]]).t()
    assert_close(t[idx], n[np.array([[0, 3, 1], [1, 2, 1]])])
    assert_close(t[idx.expand(2, 3), 2], n[np.array([[0, 3, 1], [1, 2, 1]]), 2])


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.bool])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_mask_indexing_matches_numpy(dtype, layout, rng):
    t, n = make_tensor((4, 5, 6), dtype, layout, rng)
    full = rng.random((4, 5, 6)) < 0.4
    m2 = rng.random((4, 5)) < 0.5
    m1 = np.array([True, False, True, True, False])
    for mask, nkey in [
        (torch.from_numpy(full), full),
        (full, full),  # a numpy bool array
        (torch.from_numpy(full.astype(np.uint8)), full),  # a uint8 tensor is a mask too
        (torch.from_numpy(m2), m2),
        ((slice(None), torch.from_numpy(m1)), (slice(None), m1)),
        ((slice(None), m1.tolist()), (slice(None), m1)),  # a list of bools
        ((Ellipsis, torch.from_numpy(m1), slice(None)), (Ellipsis, m1, slice(None))),
        ((1, torch.from_numpy(m1), slice(2, 4)), (1, m1, slice(2, 4))),
        (torch.zeros(4, 5, 6, dtype=torch.bool), np.zeros((4, 5, 6), bool)),
    ]:
        assert_close(t[mask], n[nkey])
    # a mask next to an index array broadcasts with it: m2 selects k positions
    k = int(m2.sum())
    cols = np.arange(k) % 6
    assert_close(t[torch.from_numpy(m2), torch.from_numpy(cols)], n[m2, cols])


def test_index_semantics_ints_mixed_with_advanced_indices(rng):
    """Note [Index semantics]: an int selects before the advanced indices are applied, so
    `t[0, :, [1, 2]]` has shape [B, 2] (numpy gives [2, B]). References built by loops."""
    A, B, C, D = 3, 4, 5, 6
    t, n = make_tensor((A, B, C, D), torch.int64, "transposed", rng)
    idx = [1, 4, 0]
    r = t[0, :, idx]
    expected = np.empty((B, len(idx), D), np.int64)
    for b in range(B):
        for j, c in enumerate(idx):
            expected[b, j] = n[0, b, c]
    assert_close(r, expected)
    assert n[0, :, idx].shape == (len(idx), B, D)  # numpy's rule, for contrast

    r = t[:, 2, :, [5, 1]]
    expected = np.empty((A, C, 2), np.int64)
    for a in range(A):
        for c in range(C):
            for j, d in enumerate([5, 1]):
                expected[a, c, j] = n[a, 2, c, d]
    assert_close(r, expected)

    # separated advanced indices still go first, after the ints are gone
    r = t[[0, 2], -1, :, [3, 3]]
    expected = np.empty((2, C), np.int64)
    for j, (a, d) in enumerate(zip([0, 2], [3, 3])):
        for c in range(C):
            expected[j, c] = n[a, -1, c, d]
    assert_close(r, expected)

    # an Ellipsis that stands for no dimension does not separate advanced indices (numpy
    # counts it as a separator and would give [2, 1] here)
    s, ns = make_tensor((1, 1), torch.int64, "contiguous", rng)
    assert_close(s[None, [0, 0], ..., [0, 0]], ns[None, [0, 0], [0, 0]])
    assert s[None, [0, 0], ..., [0, 0]].shape == (1, 2)

    # and the same rule in assignments
    t2 = t.clone()
    n2 = n.copy()
    t2[0, :, idx] = torch.arange(B * len(idx) * D).view(B, len(idx), D)
    for b in range(B):
        for j, c in enumerate(idx):
            n2[0, b, c] = np.arange(D) + (b * len(idx) + j) * D
    assert_close(t2, n2)


def test_nested_list_key_is_read_as_a_tuple(rng):
    # PyTorch (and numpy's legacy rule): a short list holding sequences is an index tuple
    t, n = make_tensor((4, 5), torch.float32, "contiguous", rng)
    assert_close(t[[[0, 1], [1, 2]]], n[[0, 1], [1, 2]])
    assert_close(t[[0, slice(1, 3)]], n[0, 1:3])
    assert_close(t[[None, 1]], n[None, 1])
    # inside a tuple, a nested list is one 2-D index
    assert_close(t[([[0, 1], [1, 2]],)], n[np.array([[0, 1], [1, 2]])])
    # a numpy array is never a tuple
    assert_close(t[np.array([[0, 1], [1, 2]])], n[np.array([[0, 1], [1, 2]])])


def test_advanced_results_are_copies(rng):
    t, n = make_tensor((4, 5), torch.float64, "contiguous", rng)
    r = t[[0, 1]]
    r.fill_(99)
    m = t[t > 0]
    m.fill_(-99)
    assert_close(t, n)


# ---- assignment ----

SET_KEYS = [
    0,
    -2,
    (1, 3),
    (2, -1, 0),
    slice(1, 3),
    (slice(None), slice(0, 6, 2)),
    Ellipsis,
    (Ellipsis, 1),
    None,
    (None, 1),
    [0, 3],
    (slice(None), [4, 0]),
    ([1, 2], slice(None), [0, 5]),
    ([0, 1], [2, 3], [4, 5]),
    ([[0], [3]], [1, 2]),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", WRITABLE_LAYOUTS)
def test_setitem_number_matches_numpy(dtype, layout, rng):
    for key in SET_KEYS + ["mask"]:
        t, n = make_tensor((4, 5, 6), dtype, layout, rng)
        n = writable(n)
        if key == "mask":
            key = t > t.numpy().flat[0] if dtype is not torch.bool else t
        nkey = key.numpy() if isinstance(key, torch.Tensor) else key
        for value in [3, True, 1.0]:
            t[key] = value
            n[nkey] = value
            assert_close(t, n)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.uint8, torch.bool])
@pytest.mark.parametrize("layout", WRITABLE_LAYOUTS)
def test_setitem_tensor_list_array_values(dtype, layout, rng):
    for key in SET_KEYS:
        t, n = make_tensor((4, 5, 6), dtype, layout, rng)
        n = writable(n)
        shape = n[key].shape
        # a broadcast value of another dtype (converted), a full-size list, a numpy array
        nrow = random_values(shape[-1:], torch.bool, rng)
        if dtype is not torch.bool:
            nrow = np.asarray(random_values(shape[-1:], torch.float64, rng) + 0.25)
        t[key] = torch.from_numpy(nrow)
        n[key] = nrow.astype(NUMPY_OF[dtype])
        assert_close(t, n)
        full = random_values(shape, dtype, rng)
        t[key] = full.tolist()
        n[key] = full
        assert_close(t, n)
        full = random_values(shape, dtype, rng)
        t[key] = full
        n[key] = full
        assert_close(t, n)


def random_values(shape, dtype, rng):
    if dtype is torch.bool:
        return np.asarray(rng.random(shape) < 0.5)
    return np.asarray(rng.integers(0, 9, shape).astype(NUMPY_OF[dtype]))


def test_setitem_value_rules(rng):
    t, n = make_tensor((3, 4), torch.float32, "contiguous", rng)
    n = writable(n)
    # leading size-1 dimensions of the value are dropped
    t[0] = torch.ones(1, 1, 4) * 5
    n[0] = 5
    assert_close(t, n)
    t[[1, 2]] = torch.full((1, 2, 4), 7.0)
    n[[1, 2]] = 7
    assert_close(t, n)
    # a value overlapping the target is read before it is written
    t[1:] = t[:-1]
    n[1:] = n[:-1].copy()
    assert_close(t, n)
    t[[2, 0]] = t[[0, 2]]
    n[[2, 0]] = n[[0, 2]]
    assert_close(t, n)
    # floats into an integer tensor truncate, numbers into a bool tensor test non-zero
    i = torch.zeros(3, dtype=torch.int64)
    i[0] = 2.7
    i[1:] = torch.tensor([-1.9, 3.2])
    assert i.tolist() == [2, -1, 3]
    b = torch.zeros(3, dtype=torch.bool)
    b[0] = 5
    b[[1, 2]] = torch.tensor([0.0, -2.0])
    assert b.tolist() == [True, False, True]
    # a 0-dim value tensor fills
    t[:, 1] = torch.tensor(-4.0)
    n[:, 1] = -4
    assert_close(t, n)
    # a mask takes one value per selected element (a tensor, a uint8 mask, a numpy mask)
    m = t > 0
    k = int(m.sum())
    t[m] = torch.arange(k, dtype=torch.float64)
    n[n > 0] = np.arange(k)
    assert_close(t, n)
    m = n < 0
    t[torch.from_numpy(m.astype(np.uint8))] = -torch.arange(int(m.sum())).float()
    n[m] = -np.arange(m.sum())
    assert_close(t, n)
    t[m] = torch.tensor(2.5)
    n[m] = 2.5
    assert_close(t, n)
    # repeated indices: the last write wins
    r = torch.zeros(4)
    r[[1, 1, 1]] = torch.tensor([1.0, 2.0, 3.0])
    assert r.tolist() == [0, 3, 0, 0]
    # False selects nothing: nothing is written
    before = t.clone()
    t[False] = 1.0
    assert_close(t, before.numpy())
    t[True] = torch.zeros(3, 4)
    assert (t.numpy() == 0).all()


# ---- errors: the right exception, nothing changed ----


def test_index_errors_leave_the_tensor_unchanged(rng):
    t, n = make_tensor((5, 4), torch.float32, "contiguous", rng)
    with pytest.raises(IndexError, match="index 7 is out of range for dimension 0 with size 5"):
        t[7]
    with pytest.raises(IndexError, match="index -6 is out of range for dimension 0 with size 5"):
        t[-6]
    with pytest.raises(IndexError, match="index 4 is out of range for dimension 1 with size 4"):
        t[0, 4]
    with pytest.raises(IndexError, match="out of range"):
        t[[0, 5]]
    with pytest.raises(IndexError, match="out of range"):
        t[:, torch.tensor([1, -5])]
    with pytest.raises(IndexError, match="too many indices"):
        t[0, 0, 0]
    with pytest.raises(IndexError, match="too many indices"):
        t[:, :, [0]]
    with pytest.raises(IndexError, match="single ellipsis"):
        t[..., ...]
    with pytest.raises(ValueError, match="step must be greater than zero"):
        t[::-1]
    with pytest.raises(ValueError):
        t[::0]
    with pytest.raises(IndexError):
        t[torch.tensor([0.0, 1.0])]  # float tensors are not indices
    with pytest.raises(IndexError, match="shape of the mask"):
        t[torch.ones(4, dtype=torch.bool)]
    with pytest.raises(IndexError, match="shape mismatch"):
        t[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError):
        t["a"]
    with pytest.raises(IndexError):
        t[1.5]
    with pytest.raises(TypeError):
        del t[0]
    assert_close(t, n)

    for key, value, error in [
        (7, 1.0, IndexError),
        ((0, 4), 1.0, IndexError),
        ([0, 9], 1.0, IndexError),
        ([0, 1, 9], torch.ones(3, 4), IndexError),
        (slice(None, None, -1), 1.0, ValueError),
        (0, torch.ones(3), RuntimeError),
        (slice(None), torch.ones(2, 4), RuntimeError),
        ([0, 1], torch.ones(3, 4), RuntimeError),
        ((slice(None), [0, 1]), [[1.0] * 3] * 5, RuntimeError),
        (t > 0, torch.ones(2), RuntimeError),
        (0, "x", TypeError),
        ([0, 1, 2], object(), TypeError),
        ((0, 0, 0), 1.0, IndexError),
    ]:
        with pytest.raises(error):
            t[key] = value
        assert_close(t, n)


# ---- index ops ----


def loop_reference_select(n, dim, index):
    return np.stack([np.take(n, i, axis=dim) for i in index], axis=dim)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.uint8, torch.bool])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_index_select(dtype, layout, rng):
    t, n = make_tensor((4, 5, 3), dtype, layout, rng)
    for dim in [0, 1, 2, -1]:
        size = n.shape[dim]
        index = rng.integers(0, size, 7)
        expected = loop_reference_select(n, dim, index)
        assert_close(t.index_select(dim, torch.from_numpy(index)), expected)
        assert_close(torch.index_select(t, dim, torch.from_numpy(index).int()), expected)
        out = torch.empty(0, dtype=dtype)
        assert torch.index_select(t, dim, torch.from_numpy(index), out=out) is out
        assert_close(out, expected)
    # a non-contiguous index
    idx = torch.tensor([[0, 3], [1, 2]]).t()[0]
    assert_close(t.index_select(0, idx), n[[0, 1]])
    # empty results
    assert t.index_select(1, torch.tensor([], dtype=torch.int64)).shape == (4, 0, 3)
    assert torch.zeros(3, 0, dtype=dtype).index_select(0, torch.tensor([2, 0])).shape == (2, 0)
    assert t[:, [], 1:].shape == (4, 0, 2) and t[torch.zeros(4, 5, 3, dtype=torch.bool)].shape == (0,)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.int16])
@pytest.mark.parametrize("layout", WRITABLE_LAYOUTS)
def test_index_copy_add_fill(dtype, layout, rng):
    t, n = make_tensor((4, 5, 3), dtype, layout, rng)
    n = writable(n)
    index = np.array([4, 0, 2])
    src, nsrc = make_tensor((4, 3, 3), dtype, "transposed", rng)

    expected = n.copy()
    for j, i in enumerate(index):
        expected[:, i] = nsrc[:, j]
    r = t.index_copy(1, torch.from_numpy(index), src)
    assert_close(r, expected)
    assert_close(t, n)  # out of place: t unchanged
    assert_close(torch.index_copy(t, 1, torch.from_numpy(index), src), expected)
    assert t.clone().index_copy_(1, torch.from_numpy(index), src).shape == t.shape

    rep = np.array([1, 1, 3])
    expected = n.copy()
    for j, i in enumerate(rep):
        expected[:, i] += (nsrc[:, j] * 2).astype(expected.dtype)
    u = t.clone()
    assert u.index_add_(1, torch.from_numpy(rep), src, alpha=2) is u
    assert_close(u, expected)
    assert_close(torch.index_add(t, 1, torch.from_numpy(rep), src, alpha=2), expected)
    expected = n.copy()
    np.add.at(expected, (slice(None), rep), nsrc)
    assert_close(t.index_add(1, torch.from_numpy(rep), src), expected)

    expected = n.copy()
    expected[:, :, [0, 2]] = 7
    assert_close(t.index_fill(2, torch.tensor([0, 2]), 7), expected)
    assert_close(t.clone().index_fill_(2, torch.tensor([0, 2]), torch.tensor(7)), expected)
    assert_close(t, n)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_gather(dtype, layout, rng):
    t, n = make_tensor((4, 5, 3), dtype, layout, rng)
    for dim in range(3):
        shape = list(n.shape)
        shape[dim] = 6
        shape[(dim + 1) % 3] -= 1  # no larger than t outside dim
        index = rng.integers(0, n.shape[dim], shape)
        sliced = n[tuple(slice(0, s) if d != dim else slice(None) for d, s in enumerate(shape))]
        expected = np.take_along_axis(sliced, index, axis=dim)
        assert_close(t.gather(dim, torch.from_numpy(index)), expected)
        out = torch.empty(2, dtype=dtype)
        assert torch.gather(t, dim, torch.from_numpy(index), sparse_grad=False, out=out) is out
        assert_close(out, expected)


def scatter_reference(n, dim, index, src, op):
    out = n.copy()
    for pos in itertools.product(*[range(s) for s in index.shape]):
        target = list(pos)
        target[dim] = index[pos]
        v = src[pos] if isinstance(src, np.ndarray) else src
        if op == "set":
            out[tuple(target)] = v
        elif op == "add":
            out[tuple(target)] += v
        else:
            out[tuple(target)] *= v
    return out


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
@pytest.mark.parametrize("layout", WRITABLE_LAYOUTS)
def test_scatter_family(dtype, layout, rng):
    t, n = make_tensor((4, 5), dtype, layout, rng, -3, 3)
    n = writable(n)
    src, nsrc = make_tensor((3, 5), dtype, "transposed", rng, -3, 3)
    # distinct targets per column for plain scatter (repeats would make the winner unspecified)
    index = np.stack([rng.permutation(4)[:2] for _ in range(4)], axis=1)  # [2, 4]
    ti = torch.from_numpy(index)
    for dim, idx, tidx in [(0, index, ti), (1, np.array([[4, 0], [1, 2]]), torch.tensor([[4, 0], [1, 2]]))]:
        expected = scatter_reference(n, dim, idx, nsrc, "set")
        assert_close(t.scatter(dim, tidx, src), expected)
        assert_close(torch.scatter(t, dim, tidx, src), expected)
        u = t.clone()
        assert u.scatter_(dim, tidx, src) is u
        assert_close(u, expected)
        expected = scatter_reference(n, dim, idx, 2, "set")
        assert_close(t.scatter(dim, tidx, 2), expected)
        assert_close(t.scatter(dim, tidx, value=2), expected)
        assert_close(t.clone().scatter_(dim, tidx, src=src).scatter_(dim, tidx, 2), expected)
    # repeated targets: add and multiply accumulate
    rep = rng.integers(0, 4, (3, 5))
    trep = torch.from_numpy(rep)
    for op in ["add", "multiply"]:
        assert_close(t.scatter(0, trep, src, reduce=op), scatter_reference(n, 0, rep, nsrc, op))
        assert_close(t.clone().scatter_(0, trep, 3, reduce=op), scatter_reference(n, 0, rep, 3, op))
    expected = scatter_reference(n, 0, rep, nsrc, "add")
    assert_close(t.scatter_add(0, trep, src), expected)
    assert_close(torch.scatter_add(t, 0, trep, src), expected)
    u = t.clone()
    assert u.scatter_add_(0, trep, src) is u
    assert_close(u, expected)
    out = torch.empty(0, dtype=dtype)
    assert torch.scatter_add(t, 0, trep, src, out=out) is out
    assert_close(out, expected)
    assert_close(t, n)
    with pytest.raises(ValueError):
        t.scatter(0, trep, src, reduce="max")


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.uint8, torch.bool])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_masked_ops(dtype, layout, rng):
    t, n = make_tensor((4, 5), dtype, layout, rng)
    nmask = rng.random((4, 5)) < 0.5
    mask = torch.from_numpy(nmask)
    assert_close(t.masked_select(mask), n[nmask])
    assert_close(torch.masked_select(t, mask.byte()), n[nmask])
    # the mask broadcasts with self
    row = nmask[0]
    assert_close(torch.masked_select(t, torch.from_numpy(row)), n[np.broadcast_to(row, (4, 5))])
    out = torch.empty(0, dtype=dtype)
    assert torch.masked_select(t, mask, out=out) is out
    assert_close(out, n[nmask])

    expected = n.copy()
    expected[nmask] = 1
    assert_close(t.masked_fill(mask, 1), expected)
    assert_close(torch.masked_fill(t, mask, torch.tensor(1)), expected)
    expected = n.copy()
    expected[np.broadcast_to(row, (4, 5))] = 0
    assert_close(t.masked_fill(torch.from_numpy(row), 0), expected)
    # masked_fill broadcasts self up to the mask
    small = t[:1]
    assert_close(small.masked_fill(mask, 1), np.where(nmask, NUMPY_OF[dtype](1), np.broadcast_to(n[:1], (4, 5))))

    src, nsrc = make_tensor((25,), dtype, "contiguous", rng)
    expected = n.copy()
    expected[nmask] = nsrc[: nmask.sum()]
    assert_close(t.masked_scatter(mask, src), expected)
    assert_close(torch.masked_scatter(t, mask, src.view(5, 5)), expected)
    if layout != "expanded":
        u = t.clone()
        v = t  # in place on the original layout
        assert v.masked_scatter_(mask, src) is v
        assert_close(v, expected)
        assert u.masked_fill_(mask, 0) is u
        expected = n.copy()
        expected[nmask] = 0
        assert_close(u, expected)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_nonzero_argwhere(dtype, layout, rng):
    t, n = make_tensor((3, 4, 5), dtype, layout, rng, -1, 1)
    assert_close(t.nonzero(), np.argwhere(n))
    assert_close(torch.nonzero(t), np.argwhere(n))
    assert_close(torch.argwhere(t), np.argwhere(n))
    assert_close(t.argwhere(), np.argwhere(n))
    cols = torch.nonzero(t, as_tuple=True)
    assert isinstance(cols, tuple) and len(cols) == 3
    for c, e in zip(cols, np.nonzero(n)):
        assert_close(c, e)
    out = torch.empty(0, dtype=torch.int64)
    assert torch.nonzero(t, out=out) is out
    assert_close(out, np.argwhere(n))
    assert torch.nonzero(torch.tensor(5)).shape == (1, 0)
    assert torch.nonzero(torch.tensor(0)).shape == (0, 0)
    assert [c.tolist() for c in torch.nonzero(torch.tensor(5), as_tuple=True)] == [[0]]
    assert [c.tolist() for c in torch.zeros(0, 2).nonzero(as_tuple=True)] == [[], []]


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.int16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_take_put(dtype, layout, rng):
    t, n = make_tensor((3, 4), dtype, layout, rng)
    index = rng.integers(-12, 12, (2, 5))
    flat = n.reshape(-1)
    expected = np.array([[flat[i] for i in row] for row in index], dtype=n.dtype)
    assert_close(t.take(torch.from_numpy(index)), expected)
    assert_close(torch.take(t, torch.from_numpy(index)), expected)
    out = torch.empty(0, dtype=dtype)
    assert torch.take(t, torch.from_numpy(index), out=out) is out
    assert_close(out, expected)
    if layout == "expanded":
        return
    src, nsrc = make_tensor((2, 5), dtype, "transposed", rng)
    expected = flat.copy()
    for i, v in zip(index.reshape(-1), nsrc.reshape(-1)):
        expected[i] += v
    assert_close(t.put(torch.from_numpy(index), src, accumulate=True), expected.reshape(3, 4))
    assert_close(torch.put(t, torch.from_numpy(index), src, True), expected.reshape(3, 4))
    unique = np.array([5, -1, 0])
    expected = flat.copy()
    expected[unique] = nsrc.reshape(-1)[:3]
    u = t.clone()
    assert u.put_(torch.from_numpy(unique), src.reshape(-1)[:3]) is u
    assert_close(u, expected.reshape(3, 4))
    assert_close(t, n)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
@pytest.mark.parametrize("layout", WRITABLE_LAYOUTS)
def test_index_put(dtype, layout, rng):
    t, n = make_tensor((4, 5, 3), dtype, layout, rng)
    n = writable(n)
    rows, cols = np.array([0, 3, 3, 1]), np.array([4, 0, 0, 2])
    values, nvalues = make_tensor((4, 3), dtype, "contiguous", rng)
    expected = n.copy()
    if dtype is torch.bool:
        np.logical_or.at(expected, (rows, cols), nvalues)
    else:
        np.add.at(expected, (rows, cols), nvalues)
    key = (torch.from_numpy(rows), torch.from_numpy(cols))
    assert_close(t.index_put(key, values, accumulate=True), expected)
    assert_close(torch.index_put(t, key, values, True), expected)
    assert_close(t, n)
    u = t.clone()
    assert torch.index_put_(u, key, values, accumulate=True) is u
    assert_close(u, expected)
    # None stands for a full slice; a bool tensor is a mask
    expected = n.copy()
    expected[:, [1, 2]] = nvalues[0]
    assert_close(t.index_put((None, torch.tensor([1, 2])), values[0]), expected)
    nmask = rng.random((4, 5)) < 0.5
    expected = n.copy()
    expected[nmask] = nvalues[0]
    u = t.clone()
    assert u.index_put_([torch.from_numpy(nmask)], values[0]) is u
    assert_close(u, expected)


def test_index_op_errors_leave_inputs_unchanged(rng):
    t, n = make_tensor((4, 5), torch.float32, "contiguous", rng)
    src = torch.ones(4, 2)
    i_bad = torch.tensor([0, 5])
    cases = [
        (IndexError, lambda: t.index_select(1, i_bad)),
        (IndexError, lambda: t.index_copy_(1, i_bad, src)),
        (IndexError, lambda: t.index_add_(1, i_bad, src)),
        (IndexError, lambda: t.index_fill_(1, torch.tensor([1, -1]), 0)),
        (IndexError, lambda: t.index_fill_(1, i_bad, 0)),
        # gather and the scatters raise RuntimeError for a bad index, as in PyTorch
        (RuntimeError, lambda: t.gather(0, torch.tensor([[0], [4]]))),
        (RuntimeError, lambda: t.scatter_(0, torch.tensor([[0], [4]]), src)),
        (RuntimeError, lambda: t.scatter_(0, torch.tensor([[0], [4]]), 1.0)),
        (RuntimeError, lambda: t.scatter_add_(0, torch.tensor([[1], [4]]), src)),
        (RuntimeError, lambda: t.scatter_(0, torch.tensor([[1], [4]]), src, reduce="multiply")),
        (IndexError, lambda: t.take(torch.tensor([20]))),
        (IndexError, lambda: t.put_(torch.tensor([1, 20]), torch.ones(2))),
        (IndexError, lambda: t.index_put_((torch.tensor([0, 4]), torch.tensor([1, 5])), torch.ones(2))),
        (IndexError, lambda: t.index_select(2, torch.tensor([0]))),  # no dimension 2
        # wrong index or source types
        (RuntimeError, lambda: t.index_copy_(1, torch.tensor([0, 1]), src.double())),
        (RuntimeError, lambda: t.index_add_(1, torch.tensor([0, 1], dtype=torch.int32), src)),
        (RuntimeError, lambda: t.gather(0, torch.tensor([[0]], dtype=torch.int32))),
        (RuntimeError, lambda: t.scatter_(0, torch.tensor([[0]]), src.long())),
        (RuntimeError, lambda: t.masked_scatter_(t > 0, torch.ones(20, dtype=torch.float64))),
        (RuntimeError, lambda: t.put_(torch.tensor([1]), torch.ones(1, dtype=torch.int64))),
        (RuntimeError, lambda: t.index_put_((torch.tensor([0]),), torch.ones(5, dtype=torch.float64))),
        (RuntimeError, lambda: t.masked_fill_(t, 1.0)),  # a float mask
        # wrong shapes and values
        (RuntimeError, lambda: t.index_copy_(1, torch.tensor([0, 1, 2]), src)),
        (RuntimeError, lambda: t.masked_fill_(torch.ones(3, dtype=torch.bool), 1.0)),
        (RuntimeError, lambda: t.masked_fill_(t > 0, torch.ones(2))),
        (RuntimeError, lambda: t.masked_scatter_(torch.ones(4, 5, dtype=torch.bool), torch.ones(3))),
        (RuntimeError, lambda: t.put_(torch.tensor([1, 2]), torch.ones(3))),
        (RuntimeError, lambda: t.scatter_(0, torch.tensor([[0, 1, 2]]), src)),  # index larger than src
        (RuntimeError, lambda: t.index_put_((torch.tensor([0, 1]),), torch.ones(3, 5))),
        (TypeError, lambda: t.masked_fill_(t > 0, "x")),
        (TypeError, lambda: t.index_put_(5, torch.ones(1))),
    ]
    for error, call in cases:
        with pytest.raises(error):
            call()
        assert_close(t, n)


def test_large_indices_use_threads_safely(rng):
    # more index entries than TH's OpenMP threshold (32768): kernels that split the work
    # must keep each index with its position, and a bad entry anywhere still raises
    t, n = make_tensor((50, 60), torch.float32, "contiguous", rng)
    rows = rng.integers(-50, 50, 40000)
    cols = rng.integers(0, 60, 40000)
    assert_close(t[rows], n[rows])
    assert_close(t[rows, cols], n[rows, cols])
    assert_close(t.index_select(1, torch.from_numpy(cols)), n[:, cols])
    bad = cols.copy()
    bad[-1] = 60
    with pytest.raises(IndexError):
        t[rows, bad] = 1.0
    assert_close(t, n)
    counts = torch.zeros(60)
    counts.index_add_(0, torch.from_numpy(cols), torch.ones(40000))
    assert_close(counts, np.bincount(cols, minlength=60).astype(np.float32))


def test_half_tensors_index_by_views():
    h = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).half()
    assert h[1].float().tolist() == [3.0, 4.0]
    assert h[:, 0].float().tolist() == [1.0, 3.0]
    h[0] = 7.0
    h[1, :] = torch.tensor([5.0, 6.0])
    assert h.float().tolist() == [[7.0, 7.0], [5.0, 6.0]]


# ---- random index tuples against numpy ----


@st.composite
def index_case(draw):
    """A shape and a key of ints, slices, None, Ellipsis and int arrays (all arrays of one
    shape or of shape [1], so that they broadcast)."""
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    array_shape = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2)))
    n_indexed = draw(st.integers(0, ndim))
    kinds = draw(st.lists(st.sampled_from(["slice", "int", "array"]), min_size=n_indexed, max_size=n_indexed))
    ellipsis = draw(st.one_of(st.none(), st.integers(0, n_indexed)))  # its place among the entries
    key = []
    for j, kind in enumerate(kinds):
        d = j if ellipsis is None or j < ellipsis else ndim - n_indexed + j  # the dimension entry j indexes
        size = shape[d]
        if kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-size - 2, size + 2)))
            stop = draw(st.one_of(st.none(), st.integers(-size - 2, size + 2)))
            step = draw(st.one_of(st.none(), st.integers(1, 3)))
            key.append(slice(start, stop, step))
        elif kind == "array":
            ashape = draw(st.sampled_from([array_shape, (1,)]))
            count = int(np.prod(ashape))
            values = draw(st.lists(st.integers(-size, size - 1), min_size=count, max_size=count))
            key.append(np.array(values, dtype=np.int64).reshape(ashape))
        else:
            key.append(draw(st.integers(-size, size - 1)))
    if ellipsis is not None:
        key.insert(ellipsis, Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        key.insert(draw(st.integers(0, len(key))), None)
    form = draw(st.sampled_from(["tensor", "list", "numpy"]))
    return shape, tuple(key), form


def torch_key(key, form):
    out = []
    for k in key:
        if isinstance(k, np.ndarray):
            out.append(torch.from_numpy(k) if form == "tensor" else k.tolist() if form == "list" else k)
        else:
            out.append(k)
    return tuple(out)


def pytorch_rule_in_numpy(n, key):
    """Note [Index semantics] spelled out with numpy: the basic entries first (a view, as
    numpy does them), then the arrays alone on that view, where no int is left to count as
    an advanced index; a 0-d array is an int. Whether arrays are adjacent is decided on
    that view's dimensions (numpy would also count an Ellipsis that stands for no
    dimension as a separator). Returns the two keys; the first always gives a view."""
    key = tuple(int(k) if isinstance(k, np.ndarray) and k.ndim == 0 else k for k in key)
    basic = tuple(slice(None) if isinstance(k, np.ndarray) else k for k in key)
    if not any(k is Ellipsis for k in basic):
        basic += (Ellipsis,)  # a 0-d view rather than a scalar when every dimension gets an int
    rest = [k if isinstance(k, np.ndarray) or k is Ellipsis else slice(None) for k in key if not isinstance(k, int)]
    if Ellipsis in [k for k in rest if not isinstance(k, np.ndarray)]:
        at = next(i for i, k in enumerate(rest) if k is Ellipsis)
        rest[at : at + 1] = [slice(None)] * (n[basic].ndim - (len(rest) - 1))
    return basic, tuple(rest)


@settings(max_examples=60, deadline=None, database=None)
@given(index_case(), st.sampled_from(["contiguous", "transposed", "strided"]))
def test_random_keys_match_numpy(case, layout):
    shape, key, form = case
    rng = np.random.default_rng(len(shape) * 7 + sum(shape))
    t, n = make_tensor(shape, torch.float64, layout, rng)
    basic, rest = pytorch_rule_in_numpy(n, key)
    expected = n[basic][rest]
    has_ints = any(isinstance(k, int) or isinstance(k, np.ndarray) and k.ndim == 0 for k in key)
    has_arrays = any(isinstance(k, np.ndarray) and k.ndim > 0 for k in key)
    if not (has_ints and has_arrays):  # the rule only matters when both are there
        explicit = key
        if Ellipsis in [k for k in key if not isinstance(k, np.ndarray)]:
            at = next(i for i, k in enumerate(key) if k is Ellipsis)
            spanned = len(shape) - sum(1 for k in key if k is not None and k is not Ellipsis)
            explicit = key[:at] + (slice(None),) * spanned + key[at + 1 :]
        np.testing.assert_array_equal(expected, n[explicit])
    r = t[torch_key(key, form)]
    assert_close(r, expected)
    if not has_arrays and r.numel() > 0:
        assert shares_memory(r, t)

    # assignment: a broadcast row, where every target element is written once
    positions = np.arange(n.size).reshape(n.shape)[basic][rest]
    assume(len(np.unique(positions)) == positions.size)
    n2 = writable(n)
    value = rng.uniform(-5, 5, expected.shape[-1:] if expected.ndim else ())
    n2[basic][rest] = value
    t[torch_key(key, form)] = torch.from_numpy(value)
    assert_close(t, n2)
