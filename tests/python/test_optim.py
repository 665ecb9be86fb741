"""torch.optim: every optimizer's steps against a numpy re-implementation of its documented
update rule (several steps, option combinations, two parameter groups, a parameter without
gradient, contiguous and non-contiguous parameters, float32 and float64), L-BFGS converging
to known minima, state_dict round trips, the learning-rate schedulers against their closed
forms, and the argument errors."""

import io
import math
import warnings

import numpy as np
import pytest

import torch
from torch import optim
from torch.optim import lr_scheduler

from conftest import NUMPY_OF, assert_close

SHAPES = [(3, 4), (5,), (2, 3)]
PARAM_LAYOUTS = ["contiguous", "transposed", "strided"]
TOLERANCE = {torch.float32: dict(rtol=1e-4, atol=1e-5), torch.float64: dict(rtol=1e-9, atol=1e-11)}


def in_layout(values, layout):
    """A tensor holding the numpy array values, laid out in memory as asked."""
    if layout == "contiguous" or values.ndim < 2:
        return torch.from_numpy(values.copy())
    if layout == "transposed":
        return torch.from_numpy(values.T.copy()).permute(*reversed(range(values.ndim)))
    big = np.zeros(tuple(2 * s for s in values.shape), values.dtype)
    big[tuple(slice(None, None, 2) for _ in values.shape)] = values
    t = torch.from_numpy(big)
    return t.as_strided(values.shape, [2 * s for s in t.stride()], 0)


def grad_of(x, k):
    """A bounded gradient field with sign changes; k makes each parameter's field different."""
    return 3.0 * np.sin(1.7 * x + k) + 0.3 * x


# ---- reference update rules (numpy, float64), written from the documented algorithms ----
# Each takes the parameter x, its gradient g, a dict of buffers, the step number t (from 1)
# and the group's hyper-parameters with their documented defaults; it returns the new x.


def ref_sgd(x, g, st, t, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False):
    if maximize:
        g = -g
    if weight_decay:
        g = g + weight_decay * x
    if momentum:
        st["b"] = g.copy() if t == 1 else momentum * st["b"] + (1 - dampening) * g
        g = g + momentum * st["b"] if nesterov else st["b"]
    return x - lr * g


def _adam_like(x, g, st, t, lr, betas, eps, weight_decay, amsgrad, maximize, decoupled):
    b1, b2 = betas
    if maximize:
        g = -g
    if decoupled:
        x = x * (1 - lr * weight_decay)
    elif weight_decay:
        g = g + weight_decay * x
    st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
    st["v"] = b2 * st.get("v", 0) + (1 - b2) * g * g
    v = st["v"]
    if amsgrad:
        # PyTorch keeps the maximum of the raw second moments and bias-corrects that.
        st["vmax"] = v = np.maximum(st.get("vmax", 0), v)
    m_hat = st["m"] / (1 - b1**t)
    v_hat = v / (1 - b2**t)
    return x - lr * m_hat / (np.sqrt(v_hat) + eps)


def ref_adam(x, g, st, t, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, maximize=False):
    return _adam_like(x, g, st, t, lr, betas, eps, weight_decay, amsgrad, maximize, decoupled=False)


def ref_adamw(x, g, st, t, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, maximize=False):
    return _adam_like(x, g, st, t, lr, betas, eps, weight_decay, amsgrad, maximize, decoupled=True)


def ref_adagrad(
    x, g, st, t, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, maximize=False
):
    if maximize:
        g = -g
    if weight_decay:
        g = g + weight_decay * x
    st["sum"] = st.get("sum", initial_accumulator_value) + g * g
    clr = lr / (1 + (t - 1) * lr_decay)
    return x - clr * g / (np.sqrt(st["sum"]) + eps)


def ref_adadelta(x, g, st, t, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, maximize=False):
    if maximize:
        g = -g
    if weight_decay:
        g = g + weight_decay * x
    st["v"] = rho * st.get("v", 0) + (1 - rho) * g * g
    delta = np.sqrt(st.get("u", 0) + eps) / np.sqrt(st["v"] + eps) * g
    st["u"] = rho * st.get("u", 0) + (1 - rho) * delta * delta
    return x - lr * delta


def ref_rmsprop(x, g, st, t, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, maximize=False):
    if maximize:
        g = -g
    if weight_decay:
        g = g + weight_decay * x
    st["v"] = alpha * st.get("v", 0) + (1 - alpha) * g * g
    v = st["v"]
    if centered:
        st["mean"] = alpha * st.get("mean", 0) + (1 - alpha) * g
        v = v - st["mean"] ** 2
    update = g / (np.sqrt(v) + eps)
    if momentum > 0:
        st["b"] = momentum * st.get("b", 0) + update
        update = st["b"]
    return x - lr * update


def ref_adamax(x, g, st, t, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, maximize=False):
    b1, b2 = betas
    if maximize:
        g = -g
    if weight_decay:
        g = g + weight_decay * x
    st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
    st["u"] = np.maximum(b2 * st.get("u", 0), np.abs(g) + eps)
    return x - lr / (1 - b1**t) * st["m"] / st["u"]


def ref_asgd(x, g, st, t, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, maximize=False):
    if maximize:
        g = -g
    if weight_decay:
        g = g + weight_decay * x
    # PyTorch 1.13 keeps eta and mu in 0-dim tensors of the default dtype (float32).
    eta, mu = st.get("eta", np.float32(lr)), st.get("mu", np.float32(1.0))
    x = x * (1 - lambd * float(eta)) - float(eta) * g
    st["ax"] = x.copy() if mu == 1 else st["ax"] + float(mu) * (x - st["ax"])
    st["eta"] = np.float32(lr / (1 + lambd * lr * t) ** alpha)
    st["mu"] = np.float32(1 / max(1, t - t0))
    return x


def ref_rprop(x, g, st, t, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), maximize=False):
    if maximize:
        g = -g
    etaminus, etaplus = etas
    prev = st.get("prev", np.zeros_like(x))
    size = st.get("size", np.full_like(x, lr))
    agreement = g * prev
    size = np.clip(size * np.where(agreement > 0, etaplus, np.where(agreement < 0, etaminus, 1.0)), *step_sizes)
    g = np.where(agreement < 0, 0.0, g)
    st["prev"], st["size"] = g, size
    return x - size * np.sign(g)


# (optimizer, reference, constructor arguments, overrides of the second group)
CASES = [
    (optim.SGD, ref_sgd, dict(lr=0.1), dict(lr=0.03, momentum=0.2)),
    (optim.SGD, ref_sgd, dict(lr=0.1, momentum=0.9), dict(lr=0.05, dampening=0.3)),
    (optim.SGD, ref_sgd, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1), dict(momentum=0.5)),
    (optim.SGD, ref_sgd, dict(lr=0.1, momentum=0.5, dampening=0.2, weight_decay=0.05, maximize=True), {}),
    (optim.SGD, ref_sgd, dict(lr=0.05, weight_decay=0.2, maximize=True), dict(maximize=False)),
    (optim.Adam, ref_adam, {}, dict(lr=0.004, betas=(0.5, 0.9))),
    (optim.Adam, ref_adam, dict(amsgrad=True), dict(amsgrad=False)),
    (optim.Adam, ref_adam, dict(weight_decay=0.1, amsgrad=True, maximize=True), dict(lr=0.01)),
    (optim.Adam, ref_adam, dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6), dict(weight_decay=0.5)),
    (optim.AdamW, ref_adamw, {}, dict(lr=0.004, weight_decay=0.3)),
    (optim.AdamW, ref_adamw, dict(amsgrad=True, weight_decay=0.1), dict(betas=(0.6, 0.9))),
    (optim.AdamW, ref_adamw, dict(maximize=True, lr=0.01), dict(amsgrad=True)),
    (optim.Adagrad, ref_adagrad, {}, dict(lr=0.05, lr_decay=0.2)),
    (optim.Adagrad, ref_adagrad, dict(lr_decay=0.1, weight_decay=0.1), dict(lr_decay=0.5)),
    (optim.Adagrad, ref_adagrad, dict(initial_accumulator_value=0.5, eps=1e-3, maximize=True), {}),
    (optim.Adadelta, ref_adadelta, {}, dict(lr=0.5, rho=0.7)),
    (optim.Adadelta, ref_adadelta, dict(rho=0.5, eps=1e-3, lr=0.5), dict(eps=1e-2)),
    (optim.Adadelta, ref_adadelta, dict(weight_decay=0.1, maximize=True), {}),
    (optim.RMSprop, ref_rmsprop, {}, dict(lr=0.003, alpha=0.8)),
    (optim.RMSprop, ref_rmsprop, dict(centered=True), dict(centered=False)),
    (optim.RMSprop, ref_rmsprop, dict(momentum=0.9), dict(momentum=0.3, lr=0.02)),
    (optim.RMSprop, ref_rmsprop, dict(centered=True, momentum=0.5, weight_decay=0.1, maximize=True), {}),
    (optim.RMSprop, ref_rmsprop, dict(alpha=0.9, eps=1e-4), dict(centered=True)),
    (optim.Adamax, ref_adamax, {}, dict(lr=0.01, betas=(0.7, 0.95))),
    (optim.Adamax, ref_adamax, dict(weight_decay=0.1, betas=(0.5, 0.9)), {}),
    (optim.Adamax, ref_adamax, dict(maximize=True, eps=1e-3), dict(weight_decay=0.2)),
    (optim.ASGD, ref_asgd, dict(t0=2), dict(lr=0.02, lambd=0.01)),
    (optim.ASGD, ref_asgd, dict(lambd=0.1, alpha=0.5, t0=1, weight_decay=0.1), dict(t0=3)),
    (optim.ASGD, ref_asgd, dict(maximize=True, lr=0.05, t0=3), {}),
    (optim.Rprop, ref_rprop, {}, dict(lr=0.02, etas=(0.4, 1.3))),
    (optim.Rprop, ref_rprop, dict(etas=(0.3, 1.5), step_sizes=(1e-3, 0.05)), dict(step_sizes=(1e-4, 0.5))),
    (optim.Rprop, ref_rprop, dict(maximize=True, lr=0.1), {}),
]
CASE_IDS = ["%s-%d" % (c[0].__name__, i) for i, c in enumerate(CASES)]


def make_params(rng, dtype, layout):
    values = [rng.uniform(-2, 2, s) for s in SHAPES]
    params = [in_layout(v.astype(NUMPY_OF[dtype]), layout).requires_grad_() for v in values]
    return values, params


@pytest.mark.parametrize("layout", PARAM_LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_steps_match_reference(case, dtype, layout, rng):
    cls, ref, kwargs, overrides = case
    values, params = make_params(rng, dtype, layout)
    frozen_value = rng.uniform(-2, 2, (4,)).astype(NUMPY_OF[dtype])
    frozen = torch.from_numpy(frozen_value.copy()).requires_grad_()  # never gets a gradient
    opt = cls([{"params": params[:2]}, {"params": [params[2], frozen], **overrides}], **kwargs)
    hyper = [kwargs, kwargs, {**kwargs, **overrides}]
    refs = [v.copy() for v in values]
    states = [{} for _ in values]
    for t in range(1, 7):
        for k, p in enumerate(params):
            p.grad = in_layout(grad_of(p.detach().numpy().astype(np.float64), k).astype(NUMPY_OF[dtype]), layout)
        assert opt.step() is None
        for k, p in enumerate(params):
            refs[k] = ref(refs[k], grad_of(refs[k], k), states[k], t, **hyper[k])
            assert_close(p.detach(), refs[k].astype(NUMPY_OF[dtype]), **TOLERANCE[dtype])
    assert frozen.grad is None
    assert_close(frozen.detach(), frozen_value, rtol=0, atol=0)
    if cls is optim.Adagrad:
        assert opt.state[frozen]["step"].item() == 0
    else:
        assert frozen not in opt.state
    if cls is optim.ASGD:
        for k, p in enumerate(params):
            assert_close(opt.state[p]["ax"], states[k]["ax"].astype(NUMPY_OF[dtype]), **TOLERANCE[dtype])


ROUND_TRIP = [
    (optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True)),
    (optim.Adam, dict(lr=0.01, amsgrad=True)),
    (optim.AdamW, dict(lr=0.01)),
    (optim.Adagrad, dict(lr_decay=0.1)),
    (optim.Adadelta, {}),
    (optim.RMSprop, dict(centered=True, momentum=0.3)),
    (optim.Adamax, {}),
    (optim.ASGD, dict(t0=1)),
    (optim.Rprop, {}),
]


def test_state_contents_follow_pytorch():
    p = torch.tensor([1.0, -2.0], requires_grad=True)
    p.grad = torch.tensor([0.5, 0.5])
    sgd = optim.SGD([p], lr=0.1)
    sgd.step()
    assert sgd.state[p] == {"momentum_buffer": None}  # stored even without momentum
    adam = optim.Adam([p], amsgrad=True)
    adam.step()
    adam.step()
    assert sorted(adam.state[p]) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
    assert torch.is_tensor(adam.state[p]["step"]) and adam.state[p]["step"].item() == 2
    rms = optim.RMSprop([p], momentum=0.5, centered=True)
    rms.step()
    assert sorted(rms.state[p]) == ["grad_avg", "momentum_buffer", "square_avg", "step"]
    assert rms.state[p]["step"] == 1
    # As in PyTorch 1.13, Adagrad's accumulators start at the constructor's value, whatever a group says.
    q = torch.zeros(3, requires_grad=True)
    ada = optim.Adagrad(
        [{"params": [p]}, {"params": [q], "initial_accumulator_value": 2.0}], initial_accumulator_value=0.5
    )
    assert ada.state[q]["sum"].tolist() == [0.5] * 3 and ada.state[q]["step"].item() == 0


def test_backward_and_closure():
    x = torch.tensor([1.0, -3.0, 2.0], requires_grad=True)
    opt = optim.SGD([x], lr=0.25, momentum=0.5)
    calls = []

    def closure():
        calls.append(torch.is_grad_enabled())
        opt.zero_grad()
        loss = (x * x).sum()
        loss.backward()
        return loss

    ref = np.array([1.0, -3.0, 2.0])
    st = {}
    for t in range(1, 4):
        loss = opt.step(closure)
        assert loss.item() == pytest.approx(float((ref * ref).sum()))
        ref = ref_sgd(ref, 2 * ref, st, t, lr=0.25, momentum=0.5)
        assert_close(x.detach(), ref.astype(np.float32))
    assert calls == [True] * 3  # the closure runs with autograd on
    assert not x.grad_fn and x.is_leaf  # the update itself is not recorded


@pytest.mark.parametrize("cls,kwargs", ROUND_TRIP, ids=[c[0].__name__ for c in ROUND_TRIP])
def test_step_returns_closure_loss(cls, kwargs):
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    opt = cls([x], **kwargs)
    calls = []

    def closure():
        calls.append(torch.is_grad_enabled())
        opt.zero_grad()
        loss = (x * x * x).sum()
        loss.backward()
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
        assert not torch.is_grad_enabled()  # step() leaves the grad mode as it found it
    assert torch.is_grad_enabled()
    assert calls == [True] and loss.item() == pytest.approx(-0.875)
    assert x.detach().tolist() != [0.5, -1.0]


@pytest.mark.parametrize("set_to_none", [False, True])
def test_zero_grad(set_to_none):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    (a * a).sum().backward()
    grad = a.grad
    opt = optim.SGD([a, b], lr=0.1)
    opt.zero_grad(set_to_none=set_to_none)
    assert b.grad is None
    if set_to_none:
        assert a.grad is None
    else:
        assert a.grad is grad and a.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()  # the 1.13 default keeps zero tensors
    assert (a.grad is None) == set_to_none


def test_param_groups_and_add_param_group():
    a, b, c = (torch.zeros(2, requires_grad=True) for _ in range(3))
    opt = optim.Adam([{"params": [a]}, {"params": b, "lr": 0.5}], betas=(0.5, 0.6))
    assert [g["params"] for g in opt.param_groups] == [[a], [b]]
    assert opt.param_groups[0]["lr"] == 1e-3 and opt.param_groups[1]["lr"] == 0.5
    assert opt.param_groups[1]["betas"] == (0.5, 0.6) and opt.param_groups[1]["eps"] == 1e-8
    opt.add_param_group({"params": (c,), "eps": 0.1})
    assert opt.param_groups[2]["params"] == [c] and opt.param_groups[2]["eps"] == 0.1
    assert opt.param_groups[2]["lr"] == 1e-3
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [torch.zeros(1, requires_grad=True), a]})
    assert len(opt.param_groups) == 3
    with pytest.warns(UserWarning, match="duplicate parameters"):
        dup = optim.SGD([{"params": [a, a, b]}, {"params": [c]}], lr=0.1)
    # Indices are positions in the concatenated groups; a duplicate reuses its first index.
    assert [g["params"] for g in dup.state_dict()["param_groups"]] == [[0, 0, 2], [3]]


def test_repr_like_pytorch():
    a, b = torch.zeros(2, requires_grad=True), torch.zeros(1, requires_grad=True)
    opt = optim.SGD([{"params": [a]}, {"params": [b], "momentum": 0.9}], lr=0.1)
    expected = "SGD (\n"
    for i, momentum in enumerate([0, 0.9]):
        expected += (
            "Parameter Group %d\n    dampening: 0\n    differentiable: False\n    foreach: None\n"
            "    lr: 0.1\n    maximize: False\n    momentum: %s\n    nesterov: False\n"
            "    weight_decay: 0\n" % (i, momentum)
        )
    assert repr(opt) == expected + ")"


def _two_groups(cls, kwargs, values):
    params = [torch.from_numpy(v.copy()).requires_grad_() for v in values]
    return params, cls([{"params": params[:2]}, {"params": params[2:], "lr": 0.02}], **kwargs)


def _grad_steps(opt, params, start, count):
    for t in range(start, start + count):
        for k, p in enumerate(params):
            p.grad = torch.from_numpy(grad_of(p.detach().numpy(), k + t))
        opt.step()


@pytest.mark.parametrize("cls,kwargs", ROUND_TRIP, ids=[c[0].__name__ for c in ROUND_TRIP])
def test_state_dict_round_trip(cls, kwargs, rng):
    values = [rng.uniform(-2, 2, s) for s in SHAPES]
    params_a, opt_a = _two_groups(cls, kwargs, values)
    _grad_steps(opt_a, params_a, 0, 3)

    sd = opt_a.state_dict()
    assert set(sd) == {"state", "param_groups"}
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2]]
    assert sorted(sd["state"]) == [0, 1, 2]
    assert sd["param_groups"][1]["lr"] == 0.02
    buf = io.BytesIO()
    torch.save(sd, buf)
    buf.seek(0)
    loaded = torch.load(buf)

    params_b, opt_b = _two_groups(cls, kwargs, [p.detach().numpy() for p in params_a])
    opt_b.load_state_dict(loaded)
    assert opt_b.param_groups[1]["params"] == [params_b[2]]
    for pa, pb in zip(params_a, params_b):
        assert set(opt_b.state[pb]) == set(opt_a.state[pa])
    _grad_steps(opt_a, params_a, 3, 3)
    _grad_steps(opt_b, params_b, 3, 3)
    for pa, pb in zip(params_a, params_b):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())


def test_load_state_dict_copies_and_casts():
    p64 = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    p64.grad = torch.tensor([0.1, -0.3], dtype=torch.float64)
    src = optim.Adam([p64])
    src.step()
    sd = src.state_dict()
    p32 = torch.tensor([1.0, 2.0], requires_grad=True)
    dst = optim.Adam([p32], lr=0.5)
    dst.load_state_dict(sd)
    assert dst.param_groups[0]["lr"] == 1e-3  # hyper-parameters come from the state dict
    assert dst.state[p32]["exp_avg"].dtype == torch.float32
    assert dst.state[p32]["step"].dtype == torch.float32 and dst.state[p32]["step"].item() == 1
    assert_close(dst.state[p32]["exp_avg"], np.array([0.01, -0.03], np.float32))
    # A deep copy: stepping the new optimizer leaves the source's buffers alone.
    p32.grad = torch.tensor([1.0, 1.0])
    dst.step()
    assert_close(sd["state"][0]["exp_avg"], np.array([0.01, -0.03]))
    assert sd["param_groups"][0]["params"] == [0]


def test_load_state_dict_errors():
    a, b = torch.zeros(2, requires_grad=True), torch.zeros(2, requires_grad=True)
    sd = optim.SGD([a, b], lr=0.1).state_dict()
    with pytest.raises(ValueError, match="loaded state dict has a different number of parameter groups"):
        optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1).load_state_dict(sd)
    target = optim.SGD([a], lr=0.3)
    with pytest.raises(
        ValueError,
        match="loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
    ):
        target.load_state_dict(sd)
    assert target.param_groups[0]["lr"] == 0.3 and target.param_groups[0]["params"] == [a]


# ---- L-BFGS ----


def _quadratic(rng, n=6):
    m = rng.uniform(-1, 1, (n, n))
    a = m @ m.T + n * np.eye(n)
    b = rng.uniform(-1, 1, n)
    return a, b


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
@pytest.mark.parametrize("history_size", [2, 100])
def test_lbfgs_quadratic_minimum(line_search_fn, history_size, rng):
    a, b = _quadratic(rng)
    x = torch.zeros(6, dtype=torch.float64, requires_grad=True)
    opt = optim.LBFGS(
        [x],
        history_size=history_size,
        max_iter=50,
        line_search_fn=line_search_fn,
        tolerance_grad=1e-12,
        tolerance_change=1e-20,
    )

    def closure():
        xv = x.detach().numpy()
        x.grad = torch.from_numpy(a @ xv - b)
        return torch.tensor(0.5 * xv @ a @ xv - b @ xv, dtype=torch.float64)

    first = opt.step(closure)
    assert first.item() == 0.0  # the loss at the starting point
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(a, b), rtol=1e-6, atol=1e-8)
    assert opt.state[x]["n_iter"] <= 50


def test_lbfgs_rosenbrock_with_autograd():
    x = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = optim.LBFGS([x], line_search_fn="strong_wolfe", max_iter=100, tolerance_grad=1e-10, tolerance_change=1e-14)

    def closure():
        opt.zero_grad()
        u, v = x.narrow(0, 0, 1), x.narrow(0, 1, 1)
        loss = ((1 - u) ** 2 + 100 * (v - u * u) ** 2).sum()
        loss.backward()
        return loss

    for _ in range(3):
        opt.step(closure)
    np.testing.assert_allclose(x.detach().numpy(), [1.0, 1.0], atol=1e-6)


def test_lbfgs_first_iteration_is_a_damped_gradient_step():
    # With one iteration and no line search, x moves by -min(1, 1/|g|_1) * lr * g.
    x = torch.tensor([3.0, -1.0, 0.5], dtype=torch.float64, requires_grad=True)
    opt = optim.LBFGS([x], lr=0.5, max_iter=1)

    def closure():
        opt.zero_grad()
        loss = (x * x).sum()
        loss.backward()
        return loss

    opt.step(closure)
    x0 = np.array([3.0, -1.0, 0.5])
    g = 2 * x0
    np.testing.assert_allclose(x.detach().numpy(), x0 - min(1.0, 1.0 / np.abs(g).sum()) * 0.5 * g, rtol=1e-12)
    assert opt.state[x]["func_evals"] == 1  # the last iteration does not re-evaluate


def test_lbfgs_stopping_rules(rng):
    a, b = _quadratic(rng)
    x = torch.zeros(6, dtype=torch.float64, requires_grad=True)
    calls = []

    def closure():
        calls.append(1)
        xv = x.detach().numpy()
        x.grad = torch.from_numpy(a @ xv - b)
        return torch.tensor(0.5 * xv @ a @ xv - b @ xv, dtype=torch.float64)

    optim.LBFGS([x], max_iter=100, max_eval=4).step(closure)
    assert len(calls) == 4
    # A gradient already below tolerance_grad: one evaluation, no move.
    calls.clear()
    before = x.detach().numpy().copy()
    optim.LBFGS([x], tolerance_grad=1e6).step(closure)
    assert len(calls) == 1
    np.testing.assert_array_equal(x.detach().numpy(), before)


def test_lbfgs_state_dict_round_trip(rng):
    a, b = _quadratic(rng)

    def run(x, opt, steps):
        def closure():
            xv = x.detach().numpy()
            x.grad = torch.from_numpy(a @ xv - b + 0.1 * np.sin(xv))
            return torch.tensor(0.5 * xv @ a @ xv - b @ xv, dtype=torch.float64)

        for _ in range(steps):
            opt.step(closure)

    x1 = torch.zeros(6, dtype=torch.float64, requires_grad=True)
    o1 = optim.LBFGS([x1], max_iter=2, history_size=3)
    run(x1, o1, 2)
    x2 = x1.detach().clone().requires_grad_()
    o2 = optim.LBFGS([x2], max_iter=2, history_size=3)
    o2.load_state_dict(o1.state_dict())
    run(x1, o1, 2)
    run(x2, o2, 2)
    np.testing.assert_array_equal(x1.detach().numpy(), x2.detach().numpy())


def test_lbfgs_errors():
    x = torch.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        optim.LBFGS([{"params": [x]}, {"params": [torch.zeros(1, requires_grad=True)]}])
    with pytest.raises(TypeError):
        optim.LBFGS([x]).step()  # the closure is required

    def closure():
        x.grad = torch.ones(2)
        return torch.tensor(1.0)

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        optim.LBFGS([x], line_search_fn="backtracking").step(closure)


# ---- constructor errors ----


def _p():
    return [torch.zeros(2, requires_grad=True)]


BAD_ARGS = [
    (lambda: optim.SGD(_p(), lr=-1), "Invalid learning rate: -1"),
    (lambda: optim.SGD(_p(), lr=0.1, momentum=-0.5), "Invalid momentum value: -0.5"),
    (lambda: optim.SGD(_p(), lr=0.1, weight_decay=-1), "Invalid weight_decay value: -1"),
    (lambda: optim.SGD(_p(), lr=0.1, nesterov=True), "Nesterov momentum requires a momentum and zero dampening"),
    (lambda: optim.SGD(_p(), lr=0.1, momentum=0.9, dampening=0.1, nesterov=True), "Nesterov momentum requires"),
    (lambda: optim.SGD(_p()), "didn't specify a value of required optimization parameter lr"),
    (lambda: optim.Adam(_p(), lr=-0.1), "Invalid learning rate: -0.1"),
    (lambda: optim.Adam(_p(), eps=-1e-8), "Invalid epsilon value: -1e-08"),
    (lambda: optim.Adam(_p(), betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
    (lambda: optim.Adam(_p(), betas=(0.9, -0.1)), "Invalid beta parameter at index 1: -0.1"),
    (lambda: optim.Adam(_p(), weight_decay=-0.1), "Invalid weight_decay value: -0.1"),
    (lambda: optim.AdamW(_p(), betas=(0.9, 1.5)), "Invalid beta parameter at index 1: 1.5"),
    (lambda: optim.Adagrad(_p(), lr_decay=-1), "Invalid lr_decay value: -1"),
    (lambda: optim.Adagrad(_p(), initial_accumulator_value=-1), "Invalid initial_accumulator_value value: -1"),
    (lambda: optim.Adagrad(_p(), eps=-1), "Invalid epsilon value: -1"),
    (lambda: optim.Adadelta(_p(), rho=1.5), "Invalid rho value: 1.5"),
    (lambda: optim.RMSprop(_p(), alpha=-0.5), "Invalid alpha value: -0.5"),
    (lambda: optim.RMSprop(_p(), momentum=-1), "Invalid momentum value: -1"),
    (lambda: optim.Adamax(_p(), betas=(-0.1, 0.9)), "Invalid beta parameter at index 0: -0.1"),
    (lambda: optim.ASGD(_p(), weight_decay=-1), "Invalid weight_decay value: -1"),
    (lambda: optim.Rprop(_p(), etas=(1.5, 1.2)), "Invalid eta values: 1.5, 1.2"),
    (lambda: optim.Rprop(_p(), etas=(0.5, 0.9)), "Invalid eta values: 0.5, 0.9"),
    (lambda: optim.SGD([], lr=0.1), "optimizer got an empty parameter list"),
    (lambda: optim.SGD([(torch.zeros(2, requires_grad=True) * 2)], lr=0.1), "can't optimize a non-leaf Tensor"),
]


@pytest.mark.parametrize("make,message", BAD_ARGS, ids=[m for _, m in BAD_ARGS])
def test_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make()


def test_bad_parameter_types():
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts, but got torch.FloatTensor"):
        optim.SGD(torch.zeros(2, requires_grad=True), lr=0.1)
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors, but one of the params is int"):
        optim.SGD([1], lr=0.1)
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": set(_p())}], lr=0.1)


# ---- learning-rate schedulers ----


def _sched_opt(lrs=(0.1, 0.5)):
    return optim.SGD([{"params": _p(), "lr": lr} for lr in lrs], lr=1.0, momentum=0.9)


def _lrs(opt, sched, epochs):
    """The lr of every group at epochs 0 .. epochs-1 (an optimizer step precedes each scheduler step)."""
    seen = []
    for _ in range(epochs):
        seen.append([g["lr"] for g in opt.param_groups])
        assert sched.get_last_lr() == seen[-1]
        opt.step()
        sched.step()
    return np.array(seen)


def _closed(fn, epochs, bases=(0.1, 0.5)):
    return np.array([[fn(base, e) for base in bases] for e in range(epochs)])


SCHEDULES = [
    (lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5), lambda b, e: b * 0.5 ** (e // 3)),
    (
        lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.1),
        lambda b, e: b * 0.1 ** sum(m <= e for m in [2, 5, 5, 9]),
    ),
    (lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9), lambda b, e: b * 0.9**e),
    (
        lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01),
        lambda b, e: 0.01 + (b - 0.01) * (1 + math.cos(math.pi * e / 4)) / 2,
    ),
    (lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5), lambda b, e: b * (1 + math.cos(math.pi * e / 5)) / 2),
    (lambda o: lr_scheduler.LambdaLR(o, lambda e: 1 / (1 + e)), lambda b, e: b / (1 + e)),
    (
        lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.5 + 0.1 * e),
        lambda b, e: b * math.prod(0.5 + 0.1 * k for k in range(1, e + 1)),
    ),
    (lambda o: lr_scheduler.ConstantLR(o, factor=0.25, total_iters=4), lambda b, e: b * (0.25 if e < 4 else 1)),
    (
        lambda o: lr_scheduler.LinearLR(o, start_factor=0.2, end_factor=0.8, total_iters=5),
        lambda b, e: b * (0.2 + 0.6 * min(e, 5) / 5),
    ),
]


@pytest.mark.parametrize(
    "make,closed",
    SCHEDULES,
    ids=[
        "StepLR",
        "MultiStepLR",
        "ExponentialLR",
        "Cosine",
        "CosineNoMin",
        "LambdaLR",
        "MultiplicativeLR",
        "ConstantLR",
        "LinearLR",
    ],
)
def test_schedule_matches_closed_form(make, closed):
    opt = _sched_opt()
    sched = make(opt)
    assert sched.last_epoch == 0 and sched.base_lrs == [0.1, 0.5]
    np.testing.assert_allclose(_lrs(opt, sched, 16), _closed(closed, 16), rtol=1e-10, atol=1e-12)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.5]


@pytest.mark.parametrize(
    "make,closed",
    SCHEDULES[:5] + SCHEDULES[7:],
    ids=["StepLR", "MultiStepLR", "Exponential", "Cosine", "CosineNoMin", "ConstantLR", "LinearLR"],
)
def test_step_with_epoch_uses_closed_form(make, closed):
    opt = _sched_opt()
    sched = make(opt)
    opt.step()
    for e in [7, 2, 11]:
        with pytest.warns(UserWarning, match="epoch parameter in `scheduler.step\\(\\)` was not necessary"):
            sched.step(e)
        np.testing.assert_allclose([g["lr"] for g in opt.param_groups], _closed(closed, e + 1)[e], rtol=1e-10)


def test_chained_schedulers_multiply():
    opt = _sched_opt()
    s1 = lr_scheduler.ExponentialLR(opt, gamma=0.9)
    s2 = lr_scheduler.StepLR(opt, step_size=3, gamma=0.1)
    seen = []
    for _ in range(10):
        seen.append([g["lr"] for g in opt.param_groups])
        opt.step()
        s1.step()
        s2.step()
    np.testing.assert_allclose(seen, _closed(lambda b, e: b * 0.9**e * 0.1 ** (e // 3), 10), rtol=1e-10)


def test_lambda_per_group_and_state_dict():
    class Decay:
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, epoch):
            return self.rate**epoch

    opt = _sched_opt()
    sched = lr_scheduler.LambdaLR(opt, [Decay(0.5), lambda e: e + 1])
    for _ in range(3):
        opt.step()
        sched.step()
    assert sched.get_last_lr() == pytest.approx([0.1 * 0.5**3, 0.5 * 4])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [{"rate": 0.5}, None] and "optimizer" not in sd
    sd["lr_lambdas"][0]["rate"] = 0.25
    sched.load_state_dict(sd)
    assert sched.lr_lambdas[0].rate == 0.25 and "lr_lambdas" in sd
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        lr_scheduler.LambdaLR(_sched_opt(), [lambda e: 1.0])


def test_scheduler_state_dict_resumes():
    opt = _sched_opt()
    sched = lr_scheduler.CosineAnnealingLR(opt, T_max=6, eta_min=0.001)
    for _ in range(4):
        opt.step()
        sched.step()
    sd = sched.state_dict()
    assert sd["last_epoch"] == 4 and sd["T_max"] == 6 and "optimizer" not in sd

    opt2 = _sched_opt()
    opt2.load_state_dict(opt.state_dict())
    sched2 = lr_scheduler.CosineAnnealingLR(opt2, T_max=1)
    sched2.load_state_dict(sd)
    for _ in range(5):
        opt.step()
        sched.step()
        opt2.step()
        sched2.step()
        assert sched2.get_last_lr() == sched.get_last_lr()


def test_resuming_with_last_epoch():
    opt = _sched_opt()
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in param_groups\\[0\\]"):
        lr_scheduler.StepLR(opt, step_size=2, last_epoch=3)
    for g in opt.param_groups:
        g["initial_lr"] = g["lr"] * 2
    sched = lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=3)
    # Resuming starts from the closed form at last_epoch + 1.
    np.testing.assert_allclose(sched.get_last_lr(), [b * (1 + math.cos(math.pi * 4 / 10)) / 2 for b in (0.2, 1.0)])


def test_scheduler_warnings_and_errors():
    opt = _sched_opt()
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        sched.step()
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()
    opt = _sched_opt()
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
    assert opt._step_count == 1
    step = opt.step
    lr_scheduler.StepLR(opt, step_size=2)  # a second scheduler wraps nothing twice, resets the count
    assert opt.step is step and opt._step_count == 0
    opt.step()
    assert opt._step_count == 1
    with pytest.raises(TypeError, match="int is not an Optimizer"):
        lr_scheduler.StepLR(3, step_size=1)
    with pytest.raises(ValueError, match="Constant multiplicative factor expected to be between 0 and 1"):
        lr_scheduler.ConstantLR(_sched_opt(), factor=1.5)
    with pytest.raises(ValueError, match="Starting multiplicative factor expected to be greater than 0"):
        lr_scheduler.LinearLR(_sched_opt(), start_factor=0)


def reference_plateau(
    metrics, lr, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel", cooldown=0, min_lr=0
):
    """The documented ReduceLROnPlateau rule as a plain loop: the lrs after each metric."""
    best = math.inf if mode == "min" else -math.inf
    bad = wait = 0
    out = []
    for m in metrics:
        if mode == "min":
            improved = m < (best * (1 - threshold) if threshold_mode == "rel" else best - threshold)
        else:
            improved = m > (best * (1 + threshold) if threshold_mode == "rel" else best + threshold)
        if improved:
            best, bad = m, 0
        else:
            bad += 1
        if wait > 0:
            wait -= 1
            bad = 0
        if bad > patience:
            if lr - max(lr * factor, min_lr) > 1e-8:
                lr = max(lr * factor, min_lr)
            wait, bad = cooldown, 0
        out.append(lr)
    return out


PLATEAU = [
    dict(),
    dict(patience=2, factor=0.5),
    dict(patience=1, factor=0.5, cooldown=2, min_lr=0.02),
    dict(mode="max", patience=1, threshold=0.1, threshold_mode="abs"),
    dict(mode="max", patience=0, threshold=0.2, factor=0.3),
    dict(patience=1, threshold=0.5, threshold_mode="abs", min_lr=0.09),
]


@pytest.mark.parametrize("kwargs", PLATEAU)
def test_reduce_lr_on_plateau(kwargs, rng):
    metrics = list(np.round(rng.uniform(0, 1, 40).cumsum() % 3, 3)) + [1.0] * 15
    opt = optim.SGD(_p(), lr=0.1)
    sched = lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    seen = []
    for i, m in enumerate(metrics):
        sched.step(torch.tensor(m) if i % 2 else m)
        seen.append(opt.param_groups[0]["lr"])
    np.testing.assert_allclose(seen, reference_plateau(metrics, 0.1, **kwargs), rtol=1e-12)
    assert sched.last_epoch == len(metrics)


def test_reduce_lr_on_plateau_state_and_errors():
    opt = optim.SGD([{"params": _p()}, {"params": _p(), "lr": 1.0}], lr=0.1)
    sched = lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=[0.05, 0.001])
    for m in [1.0, 2.0, 2.0]:
        sched.step(m)
    assert [g["lr"] for g in opt.param_groups] == pytest.approx([0.05, 0.01])
    sd = sched.state_dict()
    assert sd["best"] == 1.0 and "optimizer" not in sd
    other = lr_scheduler.ReduceLROnPlateau(opt, mode="max")
    other.load_state_dict(sd)
    assert other.mode == "min" and other.mode_worse == math.inf and other.best == 1.0
    with pytest.raises(ValueError, match="Factor should be < 1.0."):
        lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="mode avg is unknown!"):
        lr_scheduler.ReduceLROnPlateau(opt, mode="avg")
    with pytest.raises(ValueError, match="threshold mode pct is unknown!"):
        lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="pct")
    with pytest.raises(ValueError, match="expected 2 min_lrs, got 1"):
        lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1])


@pytest.mark.parametrize("three_phase", [False, True])
@pytest.mark.parametrize("anneal", ["cos", "linear"])
def test_one_cycle(three_phase, anneal):
    total, pct = 20, 0.3
    opt = optim.SGD(_p(), lr=0.1, momentum=0.9)
    sched = lr_scheduler.OneCycleLR(
        opt, max_lr=1.0, total_steps=total, pct_start=pct, anneal_strategy=anneal, three_phase=three_phase
    )
    lo, hi, floor = 1.0 / 25, 1.0, 1.0 / 25 / 1e4

    def anneal_fn(a, b, f):
        return b + (a - b) * (1 + math.cos(math.pi * f)) / 2 if anneal == "cos" else a + (b - a) * f

    up = pct * total - 1
    if three_phase:
        phases = [
            (0, up, lo, hi, 0.95, 0.85),
            (up, 2 * up, hi, lo, 0.85, 0.95),
            (2 * up, total - 1, lo, floor, 0.95, 0.95),
        ]
    else:
        phases = [(0, up, lo, hi, 0.95, 0.85), (up, total - 1, hi, floor, 0.85, 0.95)]
    for s in range(total):
        start, end, a, b, ma, mb = next(ph for ph in phases if s <= ph[1] or ph is phases[-1])
        f = (s - start) / (end - start)
        assert opt.param_groups[0]["lr"] == pytest.approx(anneal_fn(a, b, f), rel=1e-12)
        assert opt.param_groups[0]["momentum"] == pytest.approx(anneal_fn(ma, mb, f), rel=1e-12)
        opt.step()
        if s < total - 1:
            sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(floor)
    sched.step()
    with pytest.raises(ValueError, match="Tried to step 22 times. The specified number of total steps is 20"):
        sched.step()


def test_one_cycle_adam_betas_and_errors():
    opt = optim.Adam(_p(), betas=(0.9, 0.99))
    lr_scheduler.OneCycleLR(opt, max_lr=0.01, epochs=2, steps_per_epoch=5)
    assert opt.param_groups[0]["betas"] == (0.95, 0.99)
    assert opt.param_groups[0]["lr"] == pytest.approx(0.01 / 25)
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        lr_scheduler.OneCycleLR(opt, max_lr=0.01)
    with pytest.raises(ValueError, match="Expected positive integer total_steps, but got 0"):
        lr_scheduler.OneCycleLR(opt, max_lr=0.01, total_steps=0)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start, but got 2"):
        lr_scheduler.OneCycleLR(opt, max_lr=0.01, total_steps=5, pct_start=2)
    with pytest.raises(ValueError, match="optimizer must support momentum"):
        lr_scheduler.OneCycleLR(optim.Adagrad(_p()), max_lr=0.01, total_steps=5)
