"""torch.legacy.nn criterions: losses against numpy formulas and torch.nn.functional,
gradInput against central differences of the loss (double) and F's autograd, 0-based
class targets, sizeAverage, weights, composite criterions and error cases."""

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from legacy_helpers import central_differences, tensors
from torch.legacy import nn


def dbl(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def numerical_grad(crit, input, target, h=1e-6):
    """d loss / d input by central differences, shaped like input (tables too)."""
    grads = [central_differences(t, lambda: crit.forward(input, target), h) for t in tensors(input)]
    crit.forward(input, target)  # output as for the unperturbed input again
    return grads


def check_grad(crit, input, target, tol=1e-6):
    analytical = [g.clone() for g in tensors(crit.backward(input, target))]
    for a, n in zip(analytical, numerical_grad(crit, input, target)):
        np.testing.assert_allclose(a.numpy(), n.numpy(), atol=tol, rtol=0)


def with_autograd(f, *inputs):
    leaves = [x.clone().requires_grad_(True) for x in inputs]
    loss = f(*leaves)
    loss.backward()
    return loss.item(), [x.grad for x in leaves]


# ---------------------------------------------------------------- elementwise criterions


def _np_bce(x, y):
    return -(y * np.log(x) + (1 - y) * np.log(1 - x))


ELEMENTWISE = {
    # name: (criterion(sizeAverage), numpy loss per element, functional(x, y, reduction) or None, target kind)
    "MSE": (nn.MSECriterion, lambda x, y: (x - y) ** 2, F.mse_loss, "real"),
    "Abs": (nn.AbsCriterion, lambda x, y: np.abs(x - y), F.l1_loss, "real"),
    "SmoothL1": (
        nn.SmoothL1Criterion,
        lambda x, y: np.where(np.abs(x - y) < 1, 0.5 * (x - y) ** 2, np.abs(x - y) - 0.5),
        F.smooth_l1_loss,
        "real",
    ),
    "DistKLDiv": (
        nn.DistKLDivCriterion,
        lambda x, y: y * (np.log(y) - x),
        lambda x, y, reduction: F.kl_div(x, y, reduction="sum") / (x.numel() if reduction == "mean" else 1),
        "prob",
    ),
    "SoftMargin": (nn.SoftMarginCriterion, lambda x, y: np.log1p(np.exp(-x * y)), F.soft_margin_loss, "sign"),
    "Margin": (lambda s: nn.MarginCriterion(0.7, s), lambda x, y: np.maximum(0, 0.7 - x * y), None, "sign"),
    "HingeEmbedding": (
        lambda s: nn.HingeEmbeddingCriterion(0.8, s),
        lambda x, y: np.where(y > 0, x, np.maximum(0, 0.8 - x)),
        lambda x, y, reduction: F.hinge_embedding_loss(x, y, 0.8, reduction=reduction),
        "sign",
    ),
    "BCE": (lambda s: nn.BCECriterion(None, s), _np_bce, F.binary_cross_entropy, "binary"),
    "MultiLabelSoftMargin": (
        lambda s: nn.MultiLabelSoftMarginCriterion(None, s),
        lambda x, y: _np_bce(1 / (1 + np.exp(-x)), y),
        None,
        "binary",
    ),
}


def make_pair(kind, rng, shape=(3, 4)):
    if kind == "binary":
        return dbl(rng.uniform(0.05, 0.95, shape)), dbl(rng.integers(0, 2, shape))
    x = dbl(rng.normal(size=shape))
    if kind == "real":
        return x, dbl(rng.normal(size=shape))
    if kind == "prob":
        return x, dbl(rng.uniform(0.1, 1, shape))
    return x, dbl(rng.choice([-1.0, 1.0], shape))


@pytest.mark.parametrize("size_average", [True, False])
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_criterions(name, size_average, rng):
    make, per_element, functional, kind = ELEMENTWISE[name]
    crit = make(size_average)
    x, y = make_pair(kind, rng)
    if name == "MultiLabelSoftMargin":
        x = dbl(rng.normal(size=(3, 4)))
    expected = per_element(x.numpy(), y.numpy()).sum() / (x.numel() if size_average else 1)
    assert crit.forward(x, y) == pytest.approx(expected, rel=1e-10)
    check_grad(crit, x, y)
    if functional is not None:
        loss, (gx,) = with_autograd(lambda a: functional(a, y, reduction="mean" if size_average else "sum"), x)
        assert crit.output == pytest.approx(loss, rel=1e-10)
        np.testing.assert_allclose(crit.backward(x, y).numpy(), gx.numpy(), rtol=1e-8, atol=1e-12)
    with pytest.raises(RuntimeError, match="number of elements"):
        crit.forward(x, y[:2])


def test_multilabel_soft_margin_against_functional(rng):
    x, y = dbl(rng.normal(size=(3, 4))), dbl(rng.integers(0, 2, (3, 4)))
    w = dbl(rng.uniform(0.5, 2, 4))
    crit = nn.MultiLabelSoftMarginCriterion(w)
    loss, (gx,) = with_autograd(lambda a: F.multilabel_soft_margin_loss(a, y, weight=w), x)
    assert crit.forward(x, y) == pytest.approx(loss, rel=1e-10)
    np.testing.assert_allclose(crit.backward(x, y).numpy(), gx.numpy(), rtol=1e-8)
    check_grad(crit, x, y)


def test_bce_weights(rng):
    x, y = make_pair("binary", rng)
    w = dbl(rng.uniform(0.5, 2, 4))
    crit = nn.BCECriterion(w)
    loss, (gx,) = with_autograd(lambda a: F.binary_cross_entropy(a, y, weight=w.expand(3, 4)), x)
    assert crit.forward(x, y) == pytest.approx(loss, rel=1e-8)
    np.testing.assert_allclose(crit.backward(x, y).numpy(), gx.numpy(), rtol=1e-6)
    with pytest.raises(RuntimeError, match="weights"):
        nn.BCECriterion(dbl([1.0, 2.0])).forward(x, y)


# ---------------------------------------------------------------- class criterions


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("size_average", [True, False])
def test_cross_entropy(weighted, size_average, rng):
    x = dbl(rng.normal(size=(5, 4)))
    t = torch.from_numpy(rng.integers(0, 4, 5))
    w = dbl(rng.uniform(0.5, 2, 4)) if weighted else None
    crit = nn.CrossEntropyCriterion(w, size_average)
    loss, (gx,) = with_autograd(
        lambda a: F.cross_entropy(a, t, weight=w, reduction="mean" if size_average else "sum"), x
    )
    assert crit.forward(x, t) == pytest.approx(loss, rel=1e-10)
    np.testing.assert_allclose(crit.backward(x, t).numpy(), gx.numpy(), rtol=1e-8, atol=1e-14)
    check_grad(crit, x, t)
    single = nn.CrossEntropyCriterion(w, size_average)
    logp = x.numpy()[1] - np.log(np.exp(x.numpy()[1]).sum())
    wt = w.numpy()[int(t[1])] if weighted else 1.0
    expected = -logp[int(t[1])] * (1 if size_average else wt)
    assert single.forward(x[1], int(t[1])) == pytest.approx(expected, rel=1e-10)


def multi_margin_numpy(x, t, p, margin, w, size_average):
    n, c = x.shape
    total = 0.0
    for i in range(n):
        for j in range(c):
            if j != t[i]:
                z = max(0.0, margin - x[i, t[i]] + x[i, j])
                total += w[t[i]] * z**p / c
    return total / (n if size_average else 1)


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("size_average", [True, False])
def test_multi_margin(p, weighted, size_average, rng):
    x = dbl(rng.normal(size=(5, 4)))
    t = torch.from_numpy(rng.integers(0, 4, 5))
    w = dbl(rng.uniform(0.5, 2, 4)) if weighted else None
    crit = nn.MultiMarginCriterion(p, w, 0.9, size_average)
    expected = multi_margin_numpy(x.numpy(), t.numpy(), p, 0.9, w.numpy() if weighted else np.ones(4), size_average)
    assert crit.forward(x, t) == pytest.approx(expected, rel=1e-10)
    check_grad(crit, x, t)
    loss, (gx,) = with_autograd(
        lambda a: F.multi_margin_loss(a, t, p, 0.9, w, reduction="mean" if size_average else "sum"), x
    )
    assert crit.output == pytest.approx(loss, rel=1e-10)
    np.testing.assert_allclose(crit.backward(x, t).numpy(), gx.numpy(), rtol=1e-8, atol=1e-14)
    assert nn.MultiMarginCriterion(p, w, 0.9).forward(x[2], int(t[2])) == pytest.approx(
        multi_margin_numpy(x.numpy()[2:3], t.numpy()[2:3], p, 0.9, w.numpy() if weighted else np.ones(4), True)
    )
    with pytest.raises(IndexError):
        crit.forward(x, torch.tensor([0, 1, 2, 3, 4]))


def test_multi_label_margin(rng):
    x = dbl(rng.normal(size=(3, 5)))
    t = torch.tensor([[3, 0, -1, 1, 1], [4, -1, 0, 0, 0], [0, 1, 2, 3, 4]])  # -1 ends each list
    crit = nn.MultiLabelMarginCriterion()
    total = 0.0
    for r, labels in enumerate([[3, 0], [4], [0, 1, 2, 3, 4]]):
        for j in labels:
            for i in set(range(5)) - set(labels):
                total += max(0.0, 1 - (x[r, j] - x[r, i]).item()) / 5
    assert crit.forward(x, t) == pytest.approx(total / 3, rel=1e-10)
    check_grad(crit, x, t)
    loss, (gx,) = with_autograd(lambda a: F.multilabel_margin_loss(a, t), x)
    assert crit.output == pytest.approx(loss, rel=1e-10)
    np.testing.assert_allclose(crit.backward(x, t).numpy(), gx.numpy(), rtol=1e-8, atol=1e-14)
    with pytest.raises(IndexError):
        crit.forward(x, torch.tensor([[5, -1, 0, 0, 0]] * 3))
    with pytest.raises(RuntimeError, match="size"):
        crit.forward(x, t[:, :4])


# ---------------------------------------------------------------- pair criterions


@pytest.mark.parametrize("size_average", [True, False])
def test_cosine_embedding(size_average, rng):
    a, b = dbl(rng.normal(size=(6, 3))), dbl(rng.normal(size=(6, 3)))
    y = dbl([1, -1, 1, -1, -1, 1])
    crit = nn.CosineEmbeddingCriterion(0.1, size_average)
    cos = (a.numpy() * b.numpy()).sum(1) / np.linalg.norm(a.numpy(), axis=1) / np.linalg.norm(b.numpy(), axis=1)
    per = np.where(y.numpy() > 0, 1 - cos, np.maximum(0, cos - 0.1))
    assert crit.forward([a, b], y) == pytest.approx(per.sum() / (6 if size_average else 1), rel=1e-10)
    check_grad(crit, [a, b], y)
    loss, (ga, gb) = with_autograd(
        lambda p, q: F.cosine_embedding_loss(p, q, y, 0.1, reduction="mean" if size_average else "sum"), a, b
    )
    assert crit.output == pytest.approx(loss, rel=1e-8)
    g1, g2 = crit.backward([a, b], y)
    np.testing.assert_allclose(g1.numpy(), ga.numpy(), rtol=1e-6, atol=1e-10)
    np.testing.assert_allclose(g2.numpy(), gb.numpy(), rtol=1e-6, atol=1e-10)


@pytest.mark.parametrize("size_average", [True, False])
def test_margin_ranking(size_average, rng):
    a, b = dbl(rng.normal(size=6)), dbl(rng.normal(size=6))
    y = dbl(rng.choice([-1.0, 1.0], 6))
    crit = nn.MarginRankingCriterion(0.3, size_average)
    per = np.maximum(0, -y.numpy() * (a.numpy() - b.numpy()) + 0.3)
    assert crit.forward([a, b], y) == pytest.approx(per.sum() / (6 if size_average else 1), rel=1e-12)
    check_grad(crit, [a, b], y)
    loss, (ga, gb) = with_autograd(
        lambda p, q: F.margin_ranking_loss(p, q, y, 0.3, reduction="mean" if size_average else "sum"), a, b
    )
    assert crit.output == pytest.approx(loss, rel=1e-12)
    np.testing.assert_allclose(crit.backward([a, b], y)[0].numpy(), ga.numpy(), rtol=1e-12)
    one = nn.MarginRankingCriterion(1)
    assert one.forward([dbl([0.5]), dbl([1.0])], 1) == pytest.approx(1.5)


def test_l1_hinge_embedding(rng):
    a, b = dbl(rng.normal(size=4)), dbl(rng.normal(size=4))
    d = np.abs(a.numpy() - b.numpy()).sum()
    crit = nn.L1HingeEmbeddingCriterion(d + 1)
    assert crit.forward([a, b], 1) == pytest.approx(d)
    assert crit.forward([a, b], -1) == pytest.approx(1.0)
    check_grad(crit, [a, b], 1)
    check_grad(crit, [a, b], -1)
    assert nn.L1HingeEmbeddingCriterion(d / 2).forward([a, b], -1) == 0


# ---------------------------------------------------------------- composites and ClassSimplex


def test_multi_and_parallel_criterion(rng):
    x, y = dbl(rng.normal(size=(3, 4))), dbl(rng.normal(size=(3, 4)))
    mse, absc = nn.MSECriterion(), nn.AbsCriterion()
    multi = nn.MultiCriterion().add(mse, 0.5).add(absc)
    expected = 0.5 * ((x - y) ** 2).mean().item() + (x - y).abs().mean().item()
    assert multi.forward(x, y) == pytest.approx(expected, rel=1e-12)
    check_grad(multi, x, y)
    par = nn.ParallelCriterion().add(nn.MSECriterion(), 2).add(nn.ClassNLLCriterion())
    logp = dbl(np.log(rng.dirichlet(np.ones(4), 3)))
    t = torch.tensor([0, 3, 1])
    expected = 2 * ((x - y) ** 2).mean().item() - logp.numpy()[[0, 1, 2], [0, 3, 1]].mean()
    assert par.forward([x, logp], [y, t]) == pytest.approx(expected, rel=1e-12)
    check_grad(par, [x, logp], [y, t])
    rep = nn.ParallelCriterion(True).add(nn.MSECriterion()).add(nn.AbsCriterion(), 3)
    assert rep.forward([x, x], y) == pytest.approx(((x - y) ** 2).mean().item() + 3 * (x - y).abs().mean().item())
    with pytest.raises(TypeError):
        par.forward(x, [y, t])
    assert str(multi).startswith("nn.MultiCriterion {")


def test_class_simplex(rng):
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        crit = nn.ClassSimplexCriterion(4)
    finally:
        torch.set_default_dtype(old)
    s = crit.simplex.numpy()
    assert s.dtype == np.float64
    assert s.shape == (4, 4)
    np.testing.assert_allclose(np.linalg.norm(s, axis=1), 1, rtol=1e-12)
    d = np.linalg.norm(s[:, None] - s[None], axis=2)
    np.testing.assert_allclose(d[~np.eye(4, dtype=bool)], d[0, 1], rtol=1e-12)  # equidistant vertices
    x = dbl(rng.normal(size=(3, 4)))
    t = torch.tensor([2, 0, 3])
    assert crit.forward(x, t) == pytest.approx(((x.numpy() - s[[2, 0, 3]]) ** 2).mean(), rel=1e-12)
    check_grad(crit, x, t)
    assert crit.getTopPrediction(dbl(s[[1, 3]])).tolist() == [1, 3]
    with pytest.raises(IndexError):
        crit.forward(x, torch.tensor([4, 0, 0]))


def test_criterions_in_float(rng):
    x = torch.from_numpy(rng.normal(size=(3, 4)).astype(np.float32))
    t = torch.tensor([1, 0, 3])
    for crit in (nn.CrossEntropyCriterion(), nn.MultiMarginCriterion(), nn.ClassNLLCriterion()):
        crit.forward(x, t)
        assert crit.backward(x, t).dtype == torch.float32
    y = torch.zeros(3, 4)
    for crit in (nn.MSECriterion(), nn.SmoothL1Criterion(), nn.AbsCriterion()):
        assert isinstance(crit.forward(x, y), float) and crit.backward(x, y).dtype == torch.float32
