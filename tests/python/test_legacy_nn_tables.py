"""torch.legacy.nn table modules and containers: outputs against numpy and
torch.nn.functional, gradients against numerical Jacobians (double), the wiring of
containers (which module sees which input and gradient), parameters, repr and errors."""

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from legacy_helpers import dbl, double_default  # noqa: F401 (double_default: the fixture pytestmark names)
from torch.legacy import nn

PREC = 1e-6
J = nn.Jacobian


pytestmark = pytest.mark.usefixtures("double_default")


def rand(rng, *shape):
    return dbl(rng.normal(size=shape))


# ---------------------------------------------------------------- elementwise tables


@pytest.mark.parametrize(
    "cls, ref",
    [
        (nn.CAddTable, lambda t: t[0] + t[1] + t[2]),
        (nn.CMulTable, lambda t: t[0] * t[1] * t[2]),
    ],
)
def test_three_way_tables(cls, ref, rng):
    table = [rand(rng, 2, 3) for _ in range(3)]
    m = cls()
    np.testing.assert_allclose(m.forward(table).numpy(), ref([t.numpy() for t in table]), rtol=1e-12)
    assert J.testJacobian(m, [torch.empty(2, 3) for _ in range(3)]) < PREC
    with pytest.raises(RuntimeError, match="same size"):
        m.forward([table[0], torch.zeros(3, 2)])
    with pytest.raises(TypeError):
        m.forward(table[0])


@pytest.mark.parametrize("cls, ref", [(nn.CSubTable, np.subtract), (nn.CDivTable, np.divide)])
def test_two_way_tables(cls, ref, rng):
    a, b = rand(rng, 2, 3), dbl(rng.uniform(0.5, 2, (2, 3)))
    m = cls()
    np.testing.assert_allclose(m.forward([a, b]).numpy(), ref(a.numpy(), b.numpy()), rtol=1e-12)
    ar, br = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    go = rand(rng, 2, 3)
    (ar - br if cls is nn.CSubTable else ar / br).backward(go)
    ga, gb = m.backward([a, b], go)
    np.testing.assert_allclose(ga.numpy(), ar.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), br.grad.numpy(), rtol=1e-12)
    assert J.testJacobian(m, [torch.empty(2, 3), torch.empty(2, 3)], 0.5, 2) < PREC
    with pytest.raises(ValueError, match="2 tensors"):
        m.forward([a, b, a])


def test_cadd_table_in_place():
    a, b = torch.ones(3), torch.full((3,), 2.0)
    m = nn.CAddTable(True)
    assert m.forward([a, b]) is a and a.tolist() == [3, 3, 3]
    go = torch.ones(3)
    assert all(g is go for g in m.backward([a, b], go))


@pytest.mark.parametrize(
    "cls, ref",
    [
        (nn.DotProduct, lambda a, b: (a * b).sum(-1)),
        (nn.CosineDistance, lambda a, b: (a * b).sum(-1) / np.linalg.norm(a, axis=-1) / np.linalg.norm(b, axis=-1)),
        (lambda: nn.PairwiseDistance(2), lambda a, b: np.linalg.norm(a - b, axis=-1)),
        (lambda: nn.PairwiseDistance(1), lambda a, b: np.abs(a - b).sum(-1)),
        (lambda: nn.PairwiseDistance(3), lambda a, b: (np.abs(a - b) ** 3).sum(-1) ** (1 / 3)),
    ],
)
@pytest.mark.parametrize("batch", [False, True])
def test_pair_reductions(cls, ref, batch, rng):
    shape = (4, 3) if batch else (3,)
    a, b = rand(rng, *shape), rand(rng, *shape)
    m = cls()
    out = m.forward([a, b])
    expected = np.atleast_1d(ref(a.numpy(), b.numpy()))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)
    # PairwiseDistance's gradient divides by the distance plus 1e-6, as torch7's
    prec = 1e-5 if isinstance(m, nn.PairwiseDistance) else PREC
    assert J.testJacobian(m, [torch.empty(shape), torch.empty(shape)]) < prec


def test_pair_reductions_against_functional(rng):
    a, b = rand(rng, 4, 3), rand(rng, 4, 3)
    go = rand(rng, 4)
    for m, f in [
        (nn.CosineDistance(), lambda x, y: F.cosine_similarity(x, y, 1, 0)),
        (nn.PairwiseDistance(2), lambda x, y: F.pairwise_distance(x, y, 2, 0)),
    ]:
        ar, br = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
        ref = f(ar, br)
        ref.backward(go)
        np.testing.assert_allclose(m.forward([a, b]).numpy(), ref.detach().numpy(), rtol=1e-8)
        ga, gb = m.backward([a, b], go)
        # torch7's PairwiseDistance divides by the distance plus 1e-6: a relative 1e-6 / distance
        np.testing.assert_allclose(ga.numpy(), ar.grad.numpy(), rtol=1e-5, atol=1e-10)
        np.testing.assert_allclose(gb.numpy(), br.grad.numpy(), rtol=1e-5, atol=1e-10)


# ---------------------------------------------------------------- join, split, select, narrow, flatten


@pytest.mark.parametrize(
    "dim, n_input_dims, shapes, axis",
    [
        (0, None, [(2, 3), (4, 3)], 0),
        (1, None, [(2, 3), (2, 1)], 1),
        (-1, None, [(2, 3), (2, 2)], 1),
        (0, 1, [(5, 3), (5, 2)], 1),  # batched: dimension counts past the batch
        (0, 1, [(3,), (2,)], 0),
    ],
)
def test_join_table(dim, n_input_dims, shapes, axis, rng):
    table = [rand(rng, *s) for s in shapes]
    m = nn.JoinTable(dim, n_input_dims)
    np.testing.assert_array_equal(m.forward(table).numpy(), np.concatenate([t.numpy() for t in table], axis))
    assert J.testJacobian(m, [torch.empty(s) for s in shapes]) < PREC


def test_join_table_errors():
    m = nn.JoinTable(0)
    with pytest.raises(RuntimeError, match="does not fit"):
        m.forward([torch.zeros(2, 3), torch.zeros(2, 4)])
    with pytest.raises(IndexError):
        nn.JoinTable(2).forward([torch.zeros(2, 3)])


@pytest.mark.parametrize(
    "dim, n_input_dims, shape, axis",
    [(0, None, (3, 4), 0), (1, None, (3, 4), 1), (0, 1, (5, 3), 1), (-1, None, (2, 3, 4), 2)],
)
def test_split_table(dim, n_input_dims, shape, axis, rng):
    x = rand(rng, *shape)
    m = nn.SplitTable(dim, n_input_dims)
    out = m.forward(x)
    assert len(out) == shape[axis]
    for i, o in enumerate(out):
        np.testing.assert_array_equal(o.numpy(), np.take(x.numpy(), i, axis))
    assert J.testJacobian(m, torch.empty(shape)) < PREC
    # SplitTable then JoinTable of the unsqueezed slices gives the input back
    back = nn.Sequential().add(nn.SplitTable(axis)).add(nn.MapTable(nn.Unsqueeze(axis))).add(nn.JoinTable(axis))
    np.testing.assert_array_equal(back.forward(x).numpy(), x.numpy())


def test_select_narrow_flatten_tables(rng):
    t = [rand(rng, 2), [rand(rng, 3), rand(rng, 1)], rand(rng, 2, 2)]
    s = nn.SelectTable(1)
    assert s.forward(t) is t[1]
    g = s.backward(t, [torch.ones(3), torch.ones(1)])
    assert g[0].tolist() == [0, 0] and g[1][0].tolist() == [1, 1, 1] and g[2].abs().sum() == 0
    assert nn.SelectTable(-1).forward(t) is t[2]
    with pytest.raises(IndexError):
        nn.SelectTable(3).forward(t)
    n = nn.NarrowTable(1, 2)
    assert n.forward(t) == [t[1], t[2]]
    g = n.backward(t, [[torch.ones(3), torch.ones(1)], torch.ones(2, 2)])
    assert g[0].abs().sum() == 0 and g[2].tolist() == [[1, 1], [1, 1]]
    assert nn.NarrowTable(0, -1).forward(t) == t
    with pytest.raises(IndexError):
        nn.NarrowTable(2, 2).forward(t)
    f = nn.FlattenTable()
    flat = f.forward(t)
    assert [x is y for x, y in zip(flat, [t[0], t[1][0], t[1][1], t[2]])] == [True] * 4
    g = f.backward(t, [torch.full(x.shape, float(i)) for i, x in enumerate(flat)])
    assert g[1][1].tolist() == [2.0] and g[2].tolist() == [[3, 3], [3, 3]]
    assert J.testJacobian(f, [torch.empty(2), [torch.empty(3), torch.empty(1)]]) < PREC


@pytest.mark.parametrize("experts_as", ["table", "tensor"])
@pytest.mark.parametrize("batch", [True, False])
def test_mixture_table(experts_as, batch, rng):
    g = dbl(rng.uniform(0, 1, (4, 3) if batch else (3,)))
    experts = [rand(rng, *((4, 2) if batch else (2,))) for _ in range(3)]
    expected = sum((g[..., i : i + 1] if batch else g[i]).numpy() * e.numpy() for i, e in enumerate(experts))
    inp = experts if experts_as == "table" else torch.stack(experts, 1 if batch else 0)
    m = nn.MixtureTable()
    np.testing.assert_allclose(m.forward([g, inp]).numpy(), expected, rtol=1e-12)
    shape = [
        torch.empty(g.shape),
        [torch.empty(e.shape) for e in experts] if experts_as == "table" else torch.empty(inp.shape),
    ]
    assert J.testJacobian(m, shape) < PREC


def test_mixture_table_explicit_dim(rng):
    g = dbl(rng.uniform(0, 1, (4, 3)))
    experts = rand(rng, 4, 2, 3)  # the experts along dimension 2
    m = nn.MixtureTable(2)
    expected = (g.numpy()[:, None, :] * experts.numpy()).sum(2)
    np.testing.assert_allclose(m.forward([g, experts]).numpy(), expected, rtol=1e-12)
    assert J.testJacobian(m, [torch.empty(4, 3), torch.empty(4, 2, 3)]) < PREC
    with pytest.raises(RuntimeError, match="experts"):
        m.forward([g, rand(rng, 4, 3, 2)])


# ---------------------------------------------------------------- containers


def linear(i, o):
    return nn.Linear(i, o)


def test_concat(rng):
    a, b = linear(3, 2), linear(3, 4)
    m = nn.Concat(1).add(a).add(b)
    x = rand(rng, 5, 3)
    expected = np.concatenate([a.forward(x).numpy(), b.forward(x).numpy()], 1)
    np.testing.assert_allclose(m.forward(x).numpy(), expected)
    go = rand(rng, 5, 6)
    m.zeroGradParameters()
    gi = m.backward(x, go)
    np.testing.assert_allclose(
        gi.numpy(), go.numpy()[:, :2] @ a.weight.numpy() + go.numpy()[:, 2:] @ b.weight.numpy(), rtol=1e-12
    )
    np.testing.assert_allclose(b.gradWeight.numpy(), go.numpy()[:, 2:].T @ x.numpy(), rtol=1e-12)
    assert J.testJacobian(m, torch.empty(5, 3)) < PREC
    assert J.testJacobianParameters(m, torch.empty(5, 3), b.weight, b.gradWeight) < PREC
    assert J.testJacobianUpdateParameters(m, torch.empty(5, 3), a.bias) < PREC
    assert str(m) == (
        "nn.Concat {\n  input\n    |`-> (1): nn.Linear(3 -> 2)\n     `-> (2): nn.Linear(3 -> 4)\n     ... -> output\n}"
    )
    with pytest.raises(RuntimeError, match="concatenated"):
        nn.Concat(0).add(linear(3, 2)).add(linear(3, 4)).forward(x)


def test_depth_concat(rng):
    m = nn.DepthConcat(0).add(nn.Identity()).add(nn.Narrow(1, 1, 2))
    x = rand(rng, 2, 4)
    out = m.forward(x)
    expected = np.zeros((4, 4))
    expected[:2] = x.numpy()
    expected[2:, 1:3] = x.numpy()[:, 1:3]  # the narrower output centred
    np.testing.assert_array_equal(out.numpy(), expected)
    assert J.testJacobian(m, torch.empty(2, 4)) < PREC


def test_parallel(rng):
    a, b = linear(3, 2), linear(3, 1)
    m = nn.Parallel(1, 1).add(a).add(b)
    x = rand(rng, 4, 2, 3)  # module i gets x[:, i]
    expected = np.concatenate([a.forward(x[:, 0]).numpy(), b.forward(x[:, 1]).numpy()], 1)
    np.testing.assert_allclose(m.forward(x).numpy(), expected, rtol=1e-12)
    assert J.testJacobian(m, torch.empty(4, 2, 3)) < PREC
    assert J.testJacobianParameters(m, torch.empty(4, 2, 3), a.weight, a.gradWeight) < PREC
    with pytest.raises(RuntimeError, match="slices"):
        m.forward(rand(rng, 4, 3, 3))


def test_concat_table_and_parallel_table(rng):
    a, b = linear(3, 2), nn.Tanh()
    ct = nn.ConcatTable().add(a).add(b)
    x = rand(rng, 4, 3)
    out = ct.forward(x)
    np.testing.assert_allclose(out[1].numpy(), np.tanh(x.numpy()))
    gos = [rand(rng, 4, 2), rand(rng, 4, 3)]
    ct.zeroGradParameters()
    gi = ct.backward(x, gos)
    expected = gos[0].numpy() @ a.weight.numpy() + gos[1].numpy() * (1 - np.tanh(x.numpy()) ** 2)
    np.testing.assert_allclose(gi.numpy(), expected, rtol=1e-12)
    assert J.testJacobian(ct, torch.empty(4, 3)) < PREC
    pt = nn.ParallelTable().add(linear(3, 2)).add(nn.Sigmoid())
    assert J.testJacobian(pt, [torch.empty(4, 3), torch.empty(2, 2)]) < PREC
    assert (
        J.testJacobianParameters(pt, [torch.empty(4, 3), torch.empty(2, 2)], pt.get(0).weight, pt.get(0).gradWeight)
        < PREC
    )
    with pytest.raises(TypeError, match="2 entries"):
        pt.forward([x])
    assert str(pt).startswith("nn.ParallelTable {\n  input\n    |`-> (1): nn.Linear(3 -> 2)")
    # a ConcatTable of table-valued modules adds their table gradients
    nested = nn.ConcatTable().add(nn.Identity()).add(nn.Identity())
    t = [torch.ones(2), torch.ones(3)]
    nested.forward(t)
    g = nested.backward(t, [[torch.ones(2), torch.ones(3)], [torch.ones(2), torch.ones(3)]])
    assert g[0].tolist() == [2, 2] and g[1].tolist() == [2, 2, 2]


def test_map_table_shares_parameters(rng):
    lin = linear(3, 2)
    m = nn.MapTable(lin)
    xs = [rand(rng, 4, 3) for _ in range(3)]
    out = m.forward(xs)
    assert len(m.modules) == 3
    for x, o in zip(xs, out):
        np.testing.assert_allclose(o.numpy(), x.numpy() @ lin.weight.numpy().T + lin.bias.numpy(), rtol=1e-12)
    assert all(c.weight.data_ptr() == lin.weight.data_ptr() for c in m.modules)
    gos = [rand(rng, 4, 2) for _ in range(3)]
    m.zeroGradParameters()
    m.backward(xs, gos)
    expected = sum(g.numpy().T @ x.numpy() for g, x in zip(gos, xs))
    np.testing.assert_allclose(lin.gradWeight.numpy(), expected, rtol=1e-12)
    params, grads = m.parameters()
    assert len(params) == 2  # listed once
    flat, _ = m.getParameters()
    assert flat.numel() == 8
    assert J.testJacobian(m, [torch.empty(2, 3) for _ in range(3)]) < PREC
    assert J.testJacobianParameters(m, [torch.empty(2, 3) for _ in range(2)], lin.weight, lin.gradWeight) < PREC
    m.clearState()
    assert len(m.modules) == 1
    unshared = nn.MapTable(linear(3, 2), False)
    unshared.forward(xs)
    assert unshared.modules[1].weight.data_ptr() != unshared.modules[0].weight.data_ptr()


def test_bottle(rng):
    lin = linear(3, 2)
    m = nn.Bottle(lin)
    x = rand(rng, 4, 5, 3)
    out = m.forward(x)
    assert out.shape == (4, 5, 2)
    np.testing.assert_allclose(out.numpy(), x.numpy() @ lin.weight.numpy().T + lin.bias.numpy(), rtol=1e-12)
    assert J.testJacobian(m, torch.empty(2, 2, 3)) < PREC
    assert J.testJacobianParameters(m, torch.empty(2, 2, 3), lin.weight, lin.gradWeight) < PREC
    assert m.forward(rand(rng, 6, 3)).shape == (6, 2)  # no extra dimensions: passed as is


def test_nested_containers_jacobian_and_get_parameters():
    inner = nn.ConcatTable().add(nn.Linear(4, 3)).add(nn.Sequential().add(nn.Linear(4, 3)).add(nn.Tanh()))
    model = nn.Sequential().add(inner).add(nn.CAddTable()).add(nn.Linear(3, 2))
    x = torch.empty(2, 4)
    assert J.testJacobian(model, x) < PREC
    l2 = inner.get(1).get(0)
    assert J.testJacobianParameters(model, x, l2.weight, l2.gradWeight) < PREC
    flat, gflat = model.getParameters()
    assert flat.numel() == 15 + 15 + 8
    gflat.zero_()
    model.forward(x)
    model.backward(x, torch.ones(2, 2))
    np.testing.assert_array_equal(gflat[15:27].numpy(), l2.gradWeight.numpy().ravel())
    # the wiring through updateGradInput + accGradParameters equals backward
    g_backward = gflat.clone()
    gflat.zero_()
    model.updateGradInput(x, torch.ones(2, 2))
    model.accGradParameters(x, torch.ones(2, 2))
    np.testing.assert_allclose(gflat.numpy(), g_backward.numpy(), rtol=1e-12)


def test_containers_type_and_clone():
    model = nn.Concat(1).add(nn.Linear(3, 2)).add(nn.Linear(3, 2))
    copy = model.clone().float()
    assert all(p.dtype == torch.float32 for p in copy.parameters()[0])
    assert all(p.dtype == torch.float64 for p in model.parameters()[0])
    x = torch.randn(2, 3)
    np.testing.assert_allclose(copy.forward(x.float()).numpy(), model.forward(x).numpy(), rtol=1e-5, atol=1e-6)
