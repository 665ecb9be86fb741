"""torch.legacy.nn, the base: Module/Container/Criterion protocol, Sequential, Linear,
Tanh, ReLU, LogSoftMax, MSECriterion, ClassNLLCriterion, against numpy, torch.nn.functional
(and its autograd), numerical Jacobians, and torch7's MLP fixture (../shared/fixtures/t7)."""

import io

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from conftest import LAYOUTS, make_tensor
from legacy_helpers import dbl, fixture, np_log_softmax
from torch.legacy import nn
from torch.utils.serialization import load_lua, save_lua

PREC = 1e-6  # Jacobian tolerance in double


def mlp(sizes=(10, 20, 5)):
    return (
        nn.Sequential()
        .add(nn.Linear(sizes[0], sizes[1]))
        .add(nn.Tanh())
        .add(nn.Linear(sizes[1], sizes[2]))
        .add(nn.LogSoftMax())
        .double()
    )


# ---------------------------------------------------------------- torch7's MLP


def test_mlp_fixture_runs_as_torch7_did():
    model = load_lua(fixture("mlp.t7"))
    ref = load_lua(fixture("mlp_io.t7"))
    assert type(model) is nn.Sequential and [type(m) for m in model.modules] == [
        nn.Linear,
        nn.Tanh,
        nn.Linear,
        nn.LogSoftMax,
    ]

    def close(got, want):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-12)

    close(model.forward(ref["input"]), ref["output"])
    model.zeroGradParameters()
    close(model.backward(ref["input"], ref["gradOutput"]), ref["gradInput"])
    l1, l3 = model.modules[0], model.modules[2]
    close(l1.gradWeight, ref["gradWeight1"])
    close(l1.gradBias, ref["gradBias1"])
    close(l3.gradWeight, ref["gradWeight3"])
    close(l3.gradBias, ref["gradBias3"])
    close(model.forward(ref["input_single"]), ref["output_single"])
    assert str(model) == (
        "nn.Sequential {\n  [input -> (1) -> (2) -> (3) -> (4) -> output]\n"
        "  (1): nn.Linear(10 -> 20)\n  (2): nn.Tanh\n  (3): nn.Linear(20 -> 5)\n"
        "  (4): nn.LogSoftMax\n}"
    )


def test_mlp_fixture_trains_and_saves_back(tmp_path):
    model = load_lua(fixture("mlp.t7"))
    ref = load_lua(fixture("mlp_io.t7"))
    x, target = ref["input"], torch.tensor([0, 3, 4])
    crit = nn.ClassNLLCriterion()
    losses = []
    for _ in range(20):
        losses.append(crit.forward(model.forward(x), target))
        model.zeroGradParameters()
        model.backward(x, crit.backward(model.output, target))
        model.updateParameters(0.5)
    assert losses[-1] < losses[0] / 2
    # what save_lua writes of a model that ran loads and computes the same
    save_lua(model, str(tmp_path / "m.t7"))
    back = load_lua(str(tmp_path / "m.t7"))
    np.testing.assert_array_equal(back.forward(x).numpy(), model.forward(x).numpy())


def test_loaded_objects_have_only_the_file_fields():
    model = load_lua(fixture("mlp.t7"))
    assert set(vars(model.modules[1])) == {"output", "gradInput", "_type"}
    assert model.modules[1].train is True  # a field torch7 did not write reads as its default
    model.evaluate()
    assert all(m.train is False for m in model.listModules())
    assert model.type() == "torch.DoubleTensor"


# ---------------------------------------------------------------- class lookup and construction


def test_class_lookup_and_field_construction():
    assert nn.class_for("nn.Linear") is nn.Linear and nn.class_for("nn.Sequential") is nn.Sequential
    assert nn.class_for("nn.ClassNLLCriterion") is nn.ClassNLLCriterion
    assert nn.Linear.torch_typename() == "nn.Linear" and nn.MSECriterion.torch_typename() == "nn.MSECriterion"
    unknown = nn.class_for("nn.SomethingNew")
    assert issubclass(unknown, nn.Module) and unknown is nn.class_for("nn.SomethingNew")
    other = nn.class_for("cudnn.Thing")
    assert not issubclass(other, nn.Module) and issubclass(other, nn.TorchObject)
    # keyword arguments the constructor does not take: an object holding those fields (as load_lua makes)
    w = torch.ones(2, 3, dtype=torch.float64)
    lin = nn.Linear(
        weight=w,
        bias=torch.zeros(2, dtype=torch.float64),
        gradWeight=torch.zeros(2, 3),
        gradBias=torch.zeros(2),
        output=torch.empty(0),
        gradInput=torch.empty(0),
    )
    assert type(lin) is nn.Linear and lin.weight is w
    np.testing.assert_array_equal(lin.forward(dbl([1, 2, 3])).numpy(), [6, 6])
    # the constructor's own arguments still construct
    assert nn.Linear(inputSize=4, outputSize=2, bias=False).weight.shape == (2, 4)
    with pytest.raises(TypeError):
        nn.Linear(4)


def test_python_model_round_trips_through_t7(tmp_path):
    model = mlp((4, 6, 3))
    x = torch.randn(2, 4, dtype=torch.float64)
    save_lua(model, str(tmp_path / "m.t7"))
    back = load_lua(str(tmp_path / "m.t7"))
    assert type(back) is nn.Sequential and str(back) == str(model)
    np.testing.assert_array_equal(back.forward(x).numpy(), model.forward(x).numpy())


# ---------------------------------------------------------------- Linear


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_linear_against_numpy_and_functional(layout, dtype, rng):
    lin = nn.Linear(5, 3).type(dtype)
    x, xa = make_tensor((4, 5), dtype, layout, rng, -2, 2)
    go, goa = make_tensor((4, 3), dtype, layout, rng, -2, 2)
    w, b = lin.weight.numpy().astype(np.float64), lin.bias.numpy().astype(np.float64)
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == torch.float32 else dict(rtol=1e-12, atol=1e-12)
    out = lin.forward(x)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), xa @ w.T + b, **tol)
    lin.zeroGradParameters()
    gi = lin.backward(x, go, 0.5)
    np.testing.assert_allclose(gi.numpy(), goa @ w, **tol)
    np.testing.assert_allclose(lin.gradWeight.numpy(), 0.5 * goa.T.astype(np.float64) @ xa, **tol)
    np.testing.assert_allclose(lin.gradBias.numpy(), 0.5 * goa.sum(0), **tol)
    # the same weights in torch.nn.functional, and its autograd, agree
    xr = x.detach().clone().requires_grad_(True)
    wr = lin.weight.clone().requires_grad_(True)
    br = lin.bias.clone().requires_grad_(True)
    ref = F.linear(xr, wr, br)
    ref.backward(go)
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), **tol)
    np.testing.assert_allclose(gi.numpy(), xr.grad.numpy(), **tol)
    np.testing.assert_allclose(lin.gradWeight.numpy(), 0.5 * wr.grad.numpy(), **tol)


def test_linear_single_sample_and_no_bias():
    lin = nn.Linear(4, 2, bias=False).double()
    assert "bias" not in vars(lin) and lin.parameters() == ([lin.weight], [lin.gradWeight])
    assert str(lin) == "nn.Linear(4 -> 2) without bias"
    x = dbl([1, -2, 0.5, 3])
    np.testing.assert_allclose(lin.forward(x).numpy(), lin.weight.numpy() @ x.numpy())
    assert nn.Jacobian.testJacobian(lin, x.clone()) < PREC
    assert nn.Jacobian.testJacobianParameters(lin, x.clone(), lin.weight, lin.gradWeight) < PREC
    with_bias = nn.Linear(4, 2).double()
    assert str(with_bias.noBias()) == "nn.Linear(4 -> 2) without bias" and with_bias.parameters()[0] == [
        with_bias.weight
    ]


@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_linear_jacobians(shape):
    lin = nn.Linear(3, 4).double()
    x = torch.empty(shape, dtype=torch.float64)
    assert nn.Jacobian.testJacobian(lin, x) < PREC
    assert nn.Jacobian.testJacobianParameters(lin, x, lin.weight, lin.gradWeight) < PREC
    assert nn.Jacobian.testJacobianParameters(lin, x, lin.bias, lin.gradBias) < PREC
    assert nn.Jacobian.testJacobianUpdateParameters(lin, x, lin.weight) < PREC
    assert nn.Jacobian.testJacobianUpdateParameters(lin, x, lin.bias) < PREC


def test_linear_reset_and_errors():
    lin = nn.Linear(100, 50).double()
    assert np.abs(lin.weight.numpy()).max() <= 0.1 and np.abs(lin.weight.numpy()).max() > 0.09
    lin.reset(0.01)
    assert np.abs(lin.weight.numpy()).max() <= 0.01 * np.sqrt(3)
    out, gw = lin.forward(torch.randn(2, 100, dtype=torch.float64)).clone(), lin.gradWeight.clone()
    with pytest.raises(RuntimeError, match="100"):
        lin.forward(torch.randn(2, 99, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="dimensions"):
        lin.forward(torch.randn(2, 2, 100, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="gradOutput"):
        lin.backward(torch.randn(2, 100, dtype=torch.float64), torch.randn(2, 49, dtype=torch.float64))
    with pytest.raises(TypeError):
        lin.forward([1.0] * 100)
    # a failing call changed nothing
    np.testing.assert_array_equal(lin.output.numpy(), out.numpy())
    np.testing.assert_array_equal(lin.gradWeight.numpy(), gw.numpy())


# ---------------------------------------------------------------- activations


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tanh_relu_against_numpy(layout, rng):
    x, xa = make_tensor((3, 4), torch.float64, layout, rng, -3, 3)
    go, goa = make_tensor((3, 4), torch.float64, layout, rng, -3, 3)
    t = nn.Tanh()
    np.testing.assert_allclose(t.forward(x).numpy(), np.tanh(xa), rtol=1e-14)
    np.testing.assert_allclose(t.backward(x, go).numpy(), goa * (1 - np.tanh(xa) ** 2), rtol=1e-12)
    r = nn.ReLU()
    np.testing.assert_array_equal(r.forward(x).numpy(), np.maximum(xa, 0))
    np.testing.assert_array_equal(r.backward(x, go).numpy(), goa * (xa > 0))
    np.testing.assert_array_equal(x.numpy(), xa)  # not in place
    assert str(r) == "nn.ReLU" and str(nn.Threshold(0.5, -1)) == "nn.Threshold(0.5, -1)"


def test_relu_in_place():
    x = dbl([[-1, 2], [3, -4]])
    go = dbl([[1, 1], [1, 1]])
    r = nn.ReLU(True)
    out = r.forward(x)
    assert out is x and x.tolist() == [[0, 2], [3, 0]]
    gi = r.backward(x, go)
    assert gi is go and go.tolist() == [[0, 1], [1, 0]]


@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 3, 3), (2, 3, 2, 2)])
def test_log_softmax_against_numpy_and_functional(shape, rng):
    x = dbl(rng.normal(size=shape))
    dim = 0 if len(shape) in (1, 3) else 1
    m = nn.LogSoftMax()
    np.testing.assert_allclose(m.forward(x).numpy(), np_log_softmax(x.numpy(), dim), rtol=1e-12, atol=1e-14)
    go = dbl(rng.normal(size=shape))
    xr = x.clone().requires_grad_(True)
    F.log_softmax(xr, dim).backward(go)
    np.testing.assert_allclose(m.backward(x, go).numpy(), xr.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert nn.Jacobian.testJacobian(m, x.clone()) < PREC


@pytest.mark.parametrize("cls", [nn.Tanh, nn.ReLU, nn.LogSoftMax])
def test_activation_jacobians_and_errors(cls):
    m = cls()
    assert nn.Jacobian.testJacobian(m, torch.empty(3, 4, dtype=torch.float64)) < PREC
    x = torch.randn(3, 4, dtype=torch.float64)
    m.forward(x)
    with pytest.raises(RuntimeError, match="size"):
        m.backward(x, torch.randn(4, 3, dtype=torch.float64))


# ---------------------------------------------------------------- criterions


@pytest.mark.parametrize("size_average", [True, False])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_mse_criterion(size_average, layout, rng):
    x, xa = make_tensor((3, 4), torch.float64, layout, rng)
    y, ya = make_tensor((3, 4), torch.float64, "contiguous", rng)
    c = nn.MSECriterion(size_average)
    n = xa.size if size_average else 1
    assert c.forward(x, y) == pytest.approx(((xa - ya) ** 2).sum() / n, rel=1e-12)
    np.testing.assert_allclose(c.backward(x, y).numpy(), 2 * (xa - ya) / n, rtol=1e-12)
    ref = F.mse_loss(x, y, reduction="mean" if size_average else "sum")
    assert c.output == pytest.approx(ref.item(), rel=1e-12)
    with pytest.raises(RuntimeError, match="number of elements"):
        c.forward(x, torch.zeros(5, dtype=torch.float64))


def nll_numpy(x, t, w, size_average):
    wt = w[t]
    loss = -(x[np.arange(len(t)), t] * wt).sum()
    grad = np.zeros_like(x)
    grad[np.arange(len(t)), t] = -wt
    if size_average:
        loss, grad = loss / wt.sum(), grad / wt.sum()
    return loss, grad


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("size_average", [True, False])
def test_class_nll_criterion(weighted, size_average, rng):
    x = dbl(np_log_softmax(rng.normal(size=(6, 4)), 1))
    t = torch.from_numpy(rng.integers(0, 4, 6))
    w = dbl(rng.uniform(0.5, 2, 4)) if weighted else None
    c = nn.ClassNLLCriterion(w, size_average)
    loss, grad = nll_numpy(x.numpy(), t.numpy(), w.numpy() if weighted else np.ones(4), size_average)
    assert c.forward(x, t) == pytest.approx(loss, rel=1e-12)
    np.testing.assert_allclose(c.backward(x, t).numpy(), grad, rtol=1e-12)
    ref = F.nll_loss(x, t, weight=w, reduction="mean" if size_average else "sum")
    assert c.output == pytest.approx(ref.item(), rel=1e-10)
    # a single sample: a 1-D input and a number (or one-element tensor) as target
    c1 = nn.ClassNLLCriterion(w, size_average)
    assert c1.forward(x[2], int(t[2])) == pytest.approx(
        nll_numpy(x.numpy()[2:3], t.numpy()[2:3], w.numpy() if weighted else np.ones(4), size_average)[0], rel=1e-12
    )
    assert c1.backward(x[2], t[2:3]).shape == (4,)


def test_class_nll_ignore_index_and_errors():
    x = dbl(np.log(np.full((3, 4), 0.25)) + np.arange(12).reshape(3, 4))
    c = nn.ClassNLLCriterion(ignoreIndex=1)
    t = torch.tensor([0, 1, 3])
    assert c.forward(x, t) == pytest.approx(-(x[0, 0] + x[2, 3]).item() / 2)
    assert c.backward(x, t)[1].abs().sum().item() == 0
    c = nn.ClassNLLCriterion()
    with pytest.raises(IndexError, match="4"):
        c.forward(x, torch.tensor([0, 4, 1]))
    with pytest.raises(IndexError):
        c.forward(x, torch.tensor([0, -1, 1]))
    with pytest.raises(RuntimeError, match="targets"):
        c.forward(x, torch.tensor([0, 1]))
    assert c.output == 0 and c.gradInput.numel() == 0  # nothing changed


def test_criterion_type_and_clone():
    c = nn.ClassNLLCriterion(torch.ones(3, dtype=torch.float64))
    d = c.clone().float()
    assert d.weights.dtype == torch.float32 and c.weights.dtype == torch.float64
    assert d.forward(torch.zeros(2, 3), torch.tensor([0, 2])) == 0
    assert str(c) == "nn.ClassNLLCriterion"


# ---------------------------------------------------------------- Sequential and the module protocol


def test_sequential_wiring_matches_functional(rng):
    model = mlp((4, 6, 3))
    x = dbl(rng.normal(size=(5, 4)))
    go = dbl(rng.normal(size=(5, 3)))
    l1, l3 = model.get(0), model.get(2)
    params = [p.clone().requires_grad_(True) for p in (l1.weight, l1.bias, l3.weight, l3.bias)]
    xr = x.clone().requires_grad_(True)
    ref = F.log_softmax(F.linear(torch.tanh(F.linear(xr, params[0], params[1])), params[2], params[3]), 1)
    ref.backward(go)
    np.testing.assert_allclose(model.forward(x).numpy(), ref.detach().numpy(), rtol=1e-12)
    model.zeroGradParameters()
    np.testing.assert_allclose(model.backward(x, go).numpy(), xr.grad.numpy(), rtol=1e-10, atol=1e-14)
    for g, p in zip(model.parameters()[1], params):
        np.testing.assert_allclose(g.numpy(), p.grad.numpy(), rtol=1e-10, atol=1e-14)
    # updateGradInput + accGradParameters is backward
    grads = [g.clone() for g in model.parameters()[1]]
    model.zeroGradParameters()
    model.updateGradInput(x, go)
    model.accGradParameters(x, go, 2)
    for g, ref_g in zip(model.parameters()[1], grads):
        np.testing.assert_allclose(g.numpy(), 2 * ref_g.numpy(), rtol=1e-12)
    assert nn.Jacobian.testJacobian(model, x.clone()) < PREC
    assert nn.Jacobian.testJacobianParameters(model, x.clone(), l1.weight, l1.gradWeight) < PREC


def test_sequential_updates():
    model = mlp((3, 4, 2))
    x, go = torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 2, dtype=torch.float64)
    before = [p.clone() for p in model.parameters()[0]]
    model.zeroGradParameters()
    model.forward(x)
    model.backward(x, go)
    grads = [g.clone() for g in model.parameters()[1]]
    model.updateParameters(0.1)
    for p, b, g in zip(model.parameters()[0], before, grads):
        np.testing.assert_allclose(p.numpy(), b.numpy() - 0.1 * g.numpy(), rtol=1e-12)
    # accUpdateGradParameters: the same step without touching the gradients
    other = mlp((3, 4, 2))
    for p, b in zip(other.parameters()[0], before):
        p.copy_(b)
    other.zeroGradParameters()
    other.forward(x)
    other.updateGradInput(x, go)
    other.accUpdateGradParameters(x, go, 0.1)
    for p, q in zip(other.parameters()[0], model.parameters()[0]):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-12)
    assert all(not g.numpy().any() for g in other.parameters()[1])


def test_sequential_editing_and_tree_walks():
    model = nn.Sequential().add(nn.Linear(2, 3)).add(nn.Tanh())
    inner = nn.Sequential().add(nn.ReLU())
    model.insert(inner, 1)
    assert [type(m) for m in model.modules] == [nn.Linear, nn.Sequential, nn.Tanh] and model.size() == 3
    assert [type(m) for m in model.listModules()] == [nn.Sequential, nn.Linear, nn.Sequential, nn.ReLU, nn.Tanh]
    nodes, containers = model.findModules("nn.ReLU")
    assert nodes == [inner.modules[0]] and containers == [inner]
    assert model.findModules(nn.Linear)[0] == [model.modules[0]]
    seen = []
    model.apply(lambda m: seen.append(m.torch_typename()))
    assert seen == ["nn.Sequential", "nn.Linear", "nn.Sequential", "nn.ReLU", "nn.Tanh"]
    model.replace(lambda m: nn.Tanh() if isinstance(m, nn.ReLU) else m)
    assert type(inner.modules[0]) is nn.Tanh
    model.remove(1)
    model.remove()
    assert [type(m) for m in model.modules] == [nn.Linear]
    with pytest.raises(IndexError):
        model.remove(5)
    assert str(nn.Sequential().add(inner)) == (
        "nn.Sequential {\n  [input -> (1) -> output]\n"
        "  (1): nn.Sequential {\n    [input -> (1) -> output]\n"
        "    (1): nn.Tanh\n  }\n}"
    )
    empty = nn.Sequential()
    x = torch.ones(2)
    assert empty.forward(x) is x and empty.backward(x, x) is x


def test_training_evaluate():
    model = mlp()
    model.evaluate()
    assert all(m.train is False for m in model.listModules())
    model.training()
    assert all(m.train is True for m in model.listModules())


def test_get_parameters_flattens_and_shares():
    model = mlp((3, 4, 2))
    x = torch.randn(5, 3, dtype=torch.float64)
    values = [p.clone() for p in model.parameters()[0]]
    flat, gflat = model.getParameters()
    assert flat.shape == (3 * 4 + 4 + 4 * 2 + 2,) and gflat.shape == flat.shape
    np.testing.assert_array_equal(flat.numpy(), np.concatenate([v.numpy().ravel() for v in values]))
    for p in model.parameters()[0]:
        assert p.storage()._cdata == flat.storage()._cdata
    # writing the flat tensor writes the modules' parameters; backward fills gflat
    flat.mul_(2)
    np.testing.assert_array_equal(model.get(0).weight.numpy(), 2 * values[0].numpy())
    gflat.zero_()
    model.forward(x)
    model.backward(x, torch.ones(5, 2, dtype=torch.float64))
    assert gflat[:12].abs().sum() > 0
    np.testing.assert_array_equal(gflat[:12].numpy(), model.get(0).gradWeight.numpy().ravel())


def test_get_parameters_with_shared_modules():
    a = nn.Linear(3, 3).double()
    b = a.clone("weight", "bias", "gradWeight", "gradBias")
    assert b.weight.storage()._cdata == a.weight.storage()._cdata
    model = nn.Sequential().add(a).add(nn.Tanh()).add(b).add(nn.Linear(3, 2).double())
    flat, gflat = model.getParameters()
    assert flat.numel() == 12 + 8  # the shared Linear counted once
    assert a.weight.storage()._cdata == b.weight.storage()._cdata == flat.storage()._cdata
    assert a.weight.data_ptr() == b.weight.data_ptr()
    flat.fill_(0.5)
    assert b.weight.sum().item() == 4.5
    assert (
        nn.Jacobian.testJacobianParameters(model, torch.empty(2, 3, dtype=torch.float64), a.weight, a.gradWeight) < PREC
    )


def test_get_parameters_skips_unviewed_storage():
    lin = nn.Linear(3, 2).double()
    big = torch.arange(20, dtype=torch.float64)
    lin.weight = big[4:10].view(2, 3)  # a view of part of a larger storage
    flat, _ = lin.getParameters()
    assert flat.numel() == 8
    np.testing.assert_array_equal(lin.weight.numpy(), np.arange(4, 10).reshape(2, 3))


def test_clone_is_deep_and_share_shares():
    model = mlp((3, 4, 2))
    copy = model.clone()
    x = torch.randn(2, 3, dtype=torch.float64)
    np.testing.assert_array_equal(copy.forward(x).numpy(), model.forward(x).numpy())
    copy.get(0).weight.fill_(0)
    assert model.get(0).weight.abs().sum() > 0
    shared = nn.Linear(3, 4).double().share(model.get(0), "weight")
    assert shared.weight.data_ptr() == model.get(0).weight.data_ptr()
    assert shared.bias.data_ptr() != model.get(0).bias.data_ptr()
    tied = model.clone("weight", "bias")
    tied.get(2).bias.fill_(7)
    assert model.get(2).bias.tolist() == [7, 7]


def test_type_conversion_keeps_sharing():
    model = mlp((3, 4, 2))
    model.getParameters()
    assert model.type() == "torch.DoubleTensor"
    model.float()
    assert model.type() == "torch.FloatTensor" and model.get(0).type() == "torch.FloatTensor"
    ws = model.parameters()[0]
    assert all(p.dtype == torch.float32 for p in ws)
    assert len({p.storage()._cdata for p in ws}) == 1  # still one flat storage
    out = model.forward(torch.randn(2, 3))
    assert out.dtype == torch.float32
    model.type(torch.float64)
    assert model.forward(torch.randn(2, 3, dtype=torch.float64)).dtype == torch.float64
    with pytest.raises(TypeError):
        model.type("torch.LongTensor")


def test_clear_state():
    model = mlp((3, 4, 2))
    model.forward(torch.randn(2, 3, dtype=torch.float64))
    model.clearState()
    assert all(m.output.numel() == 0 for m in model.listModules())
    assert model.get(0).weight.numel() == 12
    # a field holding the caller's tensor (Identity, in-place ReLU) is let go, not emptied
    x = torch.ones(3)
    seq = nn.Sequential().add(nn.ReLU(True)).add(nn.Identity())
    seq.forward(x)
    seq.clearState()
    assert x.tolist() == [1, 1, 1] and seq.output.numel() == 0
    drop = nn.Dropout(0.5)
    drop.forward(torch.ones(4))
    drop.clearState()
    assert drop.noise.numel() == 0


@pytest.mark.parametrize("make", [nn.Tanh, nn.Sigmoid, nn.LogSoftMax, lambda: nn.Threshold(0.2, -1)])
def test_results_are_new_tensors_of_the_input_type(make):
    # Note [Modules over THNN]: a result the caller holds is not overwritten by the next
    # call, and a module built with float32 buffers computes in its input's type
    m = make()
    x1, x2 = torch.tensor([[0.5, -1.5]], dtype=torch.float64), torch.tensor([[2.0, 0.1]], dtype=torch.float64)
    out1 = m.forward(x1)
    want1 = out1.clone()
    gi1 = m.backward(x1, torch.ones(1, 2, dtype=torch.float64))
    gi1_want = gi1.clone()
    out2 = m.forward(x2)
    m.backward(x2, torch.ones(1, 2, dtype=torch.float64))
    assert out1.dtype == out2.dtype == torch.float64
    assert torch.equal(out1, want1) and torch.equal(gi1, gi1_want) and not torch.equal(out1, out2)


def test_parameters_of_another_type_than_the_input_raise():
    # parameters are not converted (Note [Modules over THNN]): THNN's Double kernel names them
    lin = nn.Linear(3, 2).float()
    with pytest.raises(TypeError, match=r"weight.*torch.DoubleTensor expected, got torch.FloatTensor"):
        lin.forward(torch.randn(2, 3, dtype=torch.float64))
    assert lin.forward(torch.randn(2, 3, dtype=torch.float32)).dtype == torch.float32


def test_modules_never_record_autograd():
    lin = nn.Linear(3, 2).double()
    lin.weight.requires_grad_(True)
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    out = lin.forward(x)
    assert out.grad_fn is None and not out.requires_grad
    lin.backward(x, torch.ones(2, 2, dtype=torch.float64))
    lin.updateParameters(0.1)  # in place on a leaf that requires grad: allowed, nothing recorded
    assert lin.weight.grad is None


def test_save_load_file_object_round_trip():
    model = mlp((2, 3, 2))
    buf = io.BytesIO()
    save_lua(model, buf)
    back = load_lua(io.BytesIO(buf.getvalue()))
    x = torch.randn(4, 2, dtype=torch.float64)
    np.testing.assert_array_equal(back.forward(x).numpy(), model.forward(x).numpy())


# ---------------------------------------------------------------- every module through a .t7 file


def _round_trip_cases():
    x = lambda *s: torch.randn(*s, dtype=torch.float64)  # noqa: E731
    return [
        (nn.View(6), x(2, 3)),
        (nn.View(-1, 2).setNumInputDims(2), x(3, 2, 2)),
        (nn.Reshape(3, 2), x(4, 6)),
        (nn.Select(1, -1), x(2, 3)),
        (nn.Narrow(0, 1, 2), x(4, 2)),
        (nn.Squeeze(), x(2, 1, 3)),
        (nn.Squeeze(0, 2), x(4, 1, 3)),
        (nn.Unsqueeze(1), x(2, 3)),
        (nn.Transpose((0, 1)), x(2, 3)),
        (nn.Replicate(3, 0, 1), x(2, 4)),
        (nn.Padding(0, -1, 1, 5), x(2, 3)),
        (nn.Sum(1), x(2, 3)),
        (nn.Mean(0, 1), x(2, 3)),
        (nn.Max(0), x(3, 2)),
        (nn.Min(1), x(3, 2)),
        (nn.Normalize(2), x(2, 3)),
        (nn.Copy(torch.float64, torch.float32), x(2)),
        (nn.Contiguous(), x(2, 3).t()),
        (nn.HardShrink(0.3), x(5)),
        (nn.SoftShrink(0.3), x(5)),
        (nn.LeakyReLU(0.2), x(5)),
        (nn.ELU(0.5), x(5)),
        (nn.SoftPlus(2, 5), x(5)),
        (nn.HardTanh(-0.5, 0.5), x(5)),
        (nn.ReLU6(), x(5)),
        (nn.Clamp(0, 1), x(5)),
        (nn.PReLU(3), x(2, 3)),
        (nn.Threshold(0.1, 2), x(5)),
        (nn.Sqrt(1), x(5).abs()),
        (nn.Power(2), x(5)),
        (nn.MulConstant(2), x(5)),
        (nn.AddConstant(-1), x(5)),
        (nn.GradientReversal(2), x(5)),
        (nn.Dropout(0.3).evaluate(), x(5)),
        (nn.L1Penalty(0.1), x(5)),
        (nn.Maxout(3, 2, 2), x(4, 3)),
        (nn.Linear(3, 2, False), x(3)),
        (nn.LinearWeightNorm(3, 2), x(2, 3)),
        (nn.Bilinear(2, 3, 2), [x(4, 2), x(4, 3)]),
        (nn.Add(3, True), x(3)),
        (nn.CAdd(1, 3), x(2, 3)),
        (nn.CMul(3), x(2, 3)),
        (nn.Mul(), x(2)),
        (nn.Euclidean(3, 2), x(3)),
        (nn.WeightedEuclidean(3, 2), x(2, 3)),
        (nn.Cosine(3, 2), x(2, 3)),
        (nn.LookupTable(5, 2, 1, 1.0), torch.tensor([0, 4, 1])),
        (nn.Index(1), [x(2, 3), torch.tensor([2, 0])]),
        (nn.MM(False, True), [x(2, 3), x(4, 3)]),
        (nn.MV(True), [x(3, 2), x(3)]),
        (nn.JoinTable(0, 1), [x(2, 3), x(2, 1)]),
        (nn.SplitTable(-1), x(2, 3)),
        (nn.SelectTable(-1), [x(2), x(3)]),
        (nn.NarrowTable(0, 2), [x(1), x(2), x(3)]),
        (nn.FlattenTable(), [x(1), [x(2)]]),
        (nn.MixtureTable(), [x(2, 3), x(2, 3, 4)]),
        (nn.CosineDistance(), [x(3), x(3)]),
        (nn.PairwiseDistance(1), [x(2, 3), x(2, 3)]),
        (nn.DotProduct(), [x(3), x(3)]),
        (nn.CAddTable(), [x(2), x(2)]),
        (nn.CDivTable(), [x(2), x(2)]),
        (nn.Concat(0).add(nn.Identity()).add(nn.Tanh()), x(2)),
        (nn.DepthConcat(0).add(nn.Identity()), x(2)),
        (nn.Parallel(0, 0).add(nn.Sigmoid()).add(nn.Exp()), x(2, 3)),
        (nn.ConcatTable().add(nn.SoftMax()).add(nn.SoftMin()), x(3)),
        (nn.ParallelTable().add(nn.LogSigmoid()).add(nn.SoftSign()), [x(2), x(3)]),
        (nn.MapTable(nn.Linear(2, 2)), [x(2), x(2)]),
        (nn.Bottle(nn.Linear(3, 2)), x(2, 2, 3)),
    ]


def _same(a, b):
    if torch.is_tensor(a):
        assert torch.is_tensor(b) and a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    else:
        assert len(a) == len(b)
        for u, v in zip(a, b):
            _same(u, v)


def test_every_module_works_after_a_t7_round_trip():
    """What load_lua makes (no __init__, fields from the file, nil fields absent) computes
    what the module saved did, forward and backward."""
    torch.manual_seed(0)
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        cases = _round_trip_cases()
    finally:
        torch.set_default_dtype(old)
    for module, x in cases:
        out = module.forward(x)
        buf = io.BytesIO()
        save_lua(module, buf)
        back = load_lua(io.BytesIO(buf.getvalue()))
        assert type(back) is type(module), module
        _same(back.forward(x), out)
        grad_out = [torch.ones_like(o) for o in out] if isinstance(out, list) else torch.ones_like(out)
        module.zeroGradParameters()
        back.zeroGradParameters()
        _same(back.backward(x, grad_out), module.backward(x, grad_out))
        if module.parameters():
            _same(back.parameters()[1], module.parameters()[1])


def test_criterions_work_after_a_t7_round_trip():
    x = torch.randn(3, 4, dtype=torch.float64)
    t = torch.tensor([0, 3, 1])
    for crit in (
        nn.ClassNLLCriterion(torch.ones(4, dtype=torch.float64)),
        nn.CrossEntropyCriterion(),
        nn.MultiMarginCriterion(2),
        nn.MultiCriterion().add(nn.ClassNLLCriterion(), 0.5),
        nn.ClassSimplexCriterion(4),
    ):
        buf = io.BytesIO()
        save_lua(crit, buf)
        back = load_lua(io.BytesIO(buf.getvalue()))
        assert type(back) is type(crit)
        assert back.forward(x, t) == crit.forward(x, t)
        _same(back.backward(x, t), crit.backward(x, t))


def test_cnn_fixture_tail_runs(rng):
    """The View, Linear and LogSoftMax of torch7's CNN (float, evaluate mode, as loaded)."""
    cnn = load_lua(fixture("cnn.t7"))
    view, lin, lsm = cnn.modules[4:]
    assert type(view) is nn.View and view.train is False
    tail = nn.Sequential().add(view).add(lin).add(lsm)
    x = torch.from_numpy(rng.normal(size=(2, 8, 4, 4)).astype(np.float32))
    z = x.numpy().reshape(2, 128).astype(np.float64) @ lin.weight.numpy().T.astype(np.float64) + lin.bias.numpy()
    np.testing.assert_allclose(tail.forward(x).numpy(), np_log_softmax(z, 1), rtol=1e-5, atol=1e-5)
    assert tail.forward(x[0]).shape == (10,)  # one sample: View sees no batch
