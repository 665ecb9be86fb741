"""torch.legacy.optim: each method against its rule re-implemented in numpy, step by step;
against the trajectory of torch.optim's matching optimizer where the rules coincide (and
where they do not, the difference shown); lbfgs/cg reaching a quadratic's minimum; and the
same 5-step runs in Lua (`th`) and Python giving the same x."""

import json
import math
import os
import subprocess

import numpy as np
import pytest

import torch
from torch.legacy import optim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
X0 = [-1.2, 1.0]


def rosenbrock(x):
    a, b = x
    return (1 - a) ** 2 + 100 * (b - a * a) ** 2, np.array([-2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a)])


A = np.array([[4.0, 1, 0], [1, 3, -1], [0, -1, 2]])
XSTAR = np.array([1.0, -2, 3])


def quadratic(x):
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x @ A @ x - (A @ XSTAR) @ x, A @ x - A @ XSTAR


def opfunc_of(problem):
    """opfunc over a float64 tensor: a fresh gradient tensor each call (methods write into it)."""

    def opfunc(x):
        f, g = problem(x.numpy().copy())
        return f, torch.from_numpy(np.array(g, dtype=np.float64))

    return opfunc


# numpy rules: (x, g, t (1-based step), memo, cfg) -> new x
def np_sgd(x, g, t, s, c):
    g = g + c.get("weightDecay", 0) * x
    mom, damp = c.get("momentum", 0), c.get("dampening", c.get("momentum", 0))
    if mom:
        s["v"] = g.copy() if t == 1 else mom * s["v"] + (1 - damp) * g
        g = g + mom * s["v"] if c.get("nesterov") else s["v"]
    return x - c["learningRate"] / (1 + (t - 1) * c.get("learningRateDecay", 0)) * g


def np_nag(x, g_at, t, s, c):
    lr, mom, wd = c["learningRate"], c["momentum"], c.get("weightDecay", 0)
    if "v" in s:
        x = x + mom * s["v"]
    g = g_at(x)
    x = x - wd * lr * x
    s["v"] = mom * s["v"] - lr * g if "v" in s else -lr * g
    return x - lr * g


def np_adagrad(x, g, t, s, c):
    g = g + c.get("weightDecay", 0) * x
    s["sum"] = s.get("sum", 0) + g * g
    clr = c["learningRate"] / (1 + (t - 1) * c.get("learningRateDecay", 0))
    return x - clr * g / (np.sqrt(s["sum"]) + 1e-10)


def np_adadelta(x, g, t, s, c):
    rho, eps = c["rho"], c["eps"]
    s["var"] = rho * s.get("var", 0) + (1 - rho) * g * g
    delta = np.sqrt(s.get("acc", 0) + eps) / np.sqrt(s["var"] + eps) * g
    s["acc"] = rho * s.get("acc", 0) + (1 - rho) * delta * delta
    return x - delta


def np_rmsprop(x, g, t, s, c):
    g = g + c.get("weightDecay", 0) * x
    a = c["alpha"]
    s["m"] = a * s.get("m", c.get("initialMean", 0)) + (1 - a) * g * g
    return x - c["learningRate"] * g / (np.sqrt(s["m"]) + c["epsilon"])


def np_adam(x, g, t, s, c):
    g = g + c.get("weightDecay", 0) * x
    b1, b2 = c["beta1"], c["beta2"]
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    clr = c["learningRate"] / (1 + (t - 1) * c.get("learningRateDecay", 0))
    return x - clr * math.sqrt(1 - b2**t) / (1 - b1**t) * s["m"] / (np.sqrt(s["v"]) + c["epsilon"])


def np_adamax(x, g, t, s, c):
    b1, b2 = c["beta1"], c["beta2"]
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["u"] = np.maximum(b2 * s.get("u", 0), np.abs(g) + c["epsilon"])
    return x - c["learningRate"] / (1 - b1**t) * s["m"] / s["u"]


def np_rprop(x, g, t, s, c):
    step = s.setdefault("step", np.full_like(x, c["stepsize"]))
    direction = np.sign(g * s.get("prev", np.zeros_like(x)))
    step[:] = np.clip(
        step * np.where(direction > 0, c["etaplus"], np.where(direction < 0, c["etaminus"], 1.0)),
        c["stepsizemin"],
        c["stepsizemax"],
    )
    g = np.where(direction < 0, 0.0, g)
    s["prev"] = g
    return x - np.sign(g) * step


def np_asgd(x, g, t, s, c):
    eta, mu = s.get("eta", c["eta0"]), s.get("mu", 1)
    x = x * (1 - c["lambda"] * eta) - eta * g
    s["ax"] = x.copy() if mu == 1 else s["ax"] + mu * (x - s["ax"])
    s["eta"] = c["eta0"] / (1 + c["lambda"] * c["eta0"] * t) ** c["alpha"]
    s["mu"] = 1 / max(1, t - c["t0"])
    return x


CASES = [
    ("sgd", np_sgd, {"learningRate": 1e-3, "learningRateDecay": 0.1}),
    ("sgd", np_sgd, {"learningRate": 1e-3, "momentum": 0.9, "dampening": 0.3, "weightDecay": 0.05}),
    ("sgd", np_sgd, {"learningRate": 1e-3, "momentum": 0.9, "dampening": 0, "nesterov": True}),
    ("nag", np_nag, {"learningRate": 1e-4, "momentum": 0.8, "weightDecay": 0.01}),
    ("adagrad", np_adagrad, {"learningRate": 0.1, "learningRateDecay": 0.05, "weightDecay": 0.01}),
    ("adadelta", np_adadelta, {"rho": 0.95, "eps": 1e-4}),
    (
        "rmsprop",
        np_rmsprop,
        {"learningRate": 1e-2, "alpha": 0.9, "epsilon": 1e-6, "weightDecay": 0.02, "initialMean": 0.5},
    ),
    (
        "adam",
        np_adam,
        {
            "learningRate": 1e-2,
            "learningRateDecay": 0.1,
            "beta1": 0.8,
            "beta2": 0.9,
            "epsilon": 1e-6,
            "weightDecay": 0.05,
        },
    ),
    ("adamax", np_adamax, {"learningRate": 2e-2, "beta1": 0.9, "beta2": 0.99, "epsilon": 1e-8}),
    ("rprop", np_rprop, {"stepsize": 0.1, "etaplus": 1.3, "etaminus": 0.4, "stepsizemax": 0.35, "stepsizemin": 0.02}),
    ("asgd", np_asgd, {"eta0": 1e-3, "lambda": 1e-2, "alpha": 0.75, "t0": 2}),
]


def run_against_numpy(name, rule, config):
    """8 steps of the method and of its numpy rule, x compared after each; returns the
    method's config/state and the rule's memo."""
    config = dict(config)
    x = torch.tensor(X0, dtype=torch.float64)
    xr = np.array(X0)
    memo = {}
    for t in range(1, 9):
        f_ref, g_ref = rosenbrock(xr)
        out = getattr(optim, name)(opfunc_of(rosenbrock), x, config)
        assert out[0] is x, "x is updated in place and returned"
        if name != "nag":  # nag evaluates f at its look-ahead point
            assert out[1][0] == pytest.approx(f_ref, rel=1e-12), "f before the step"
        if name == "nag":
            xr = rule(xr, lambda p: rosenbrock(p)[1], t, memo, config)
        else:
            xr = rule(xr, g_ref, t, memo, config)
        np.testing.assert_allclose(x.numpy(), xr, rtol=1e-12, atol=1e-14, err_msg=f"{name} step {t}")
        if name == "asgd":
            np.testing.assert_allclose(out[2].numpy(), memo["ax"], rtol=1e-12, err_msg="asgd average")
    return config, memo


@pytest.mark.parametrize("name,rule,config", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_numpy_rule(name, rule, config):
    run_against_numpy(name, rule, config)


def test_state_keys_as_torch7():
    # the state fields torch7 keeps, and their values against the numpy rules
    cfg, memo = run_against_numpy(*CASES[7])
    assert cfg["t"] == 8 and set(["m", "v", "denom"]) <= set(cfg)
    np.testing.assert_allclose(cfg["m"].numpy(), memo["m"], rtol=1e-12)
    np.testing.assert_allclose(cfg["v"].numpy(), memo["v"], rtol=1e-12)
    cfg, memo = run_against_numpy(*CASES[1])
    assert cfg["evalCounter"] == 8
    np.testing.assert_allclose(cfg["dfdx"].numpy(), memo["v"], rtol=1e-12)
    cfg, memo = run_against_numpy(*CASES[4])
    assert cfg["evalCounter"] == 8 and "paramStd" in cfg
    np.testing.assert_allclose(cfg["paramVariance"].numpy(), memo["sum"], rtol=1e-12)
    cfg, memo = run_against_numpy(*CASES[5])
    assert set(["paramVariance", "paramStd", "delta", "accDelta", "evalCounter"]) <= set(cfg)
    np.testing.assert_allclose(cfg["accDelta"].numpy(), memo["acc"], rtol=1e-12)
    cfg, memo = run_against_numpy(*CASES[6])
    np.testing.assert_allclose(cfg["m"].numpy(), memo["m"], rtol=1e-12)
    assert "tmp" in cfg
    cfg, memo = run_against_numpy(*CASES[8])
    np.testing.assert_allclose(cfg["u"].numpy(), memo["u"], rtol=1e-12)
    assert tuple(cfg["max"].shape) == (2, 2)
    cfg, memo = run_against_numpy(*CASES[9])
    np.testing.assert_allclose(cfg["stepsize"].numpy(), memo["step"], rtol=1e-12)
    np.testing.assert_array_equal(cfg["delta"].numpy(), memo["prev"])
    cfg, memo = run_against_numpy(*CASES[10])
    assert cfg["t"] == 8 and cfg["eta_t"] == pytest.approx(memo["eta"], rel=1e-12)
    assert cfg["mu_t"] == pytest.approx(memo["mu"], rel=1e-12) and cfg["mu_t"] < 1
    # a separate state table keeps config untouched
    config, state = {"learningRate": 0.1}, {}
    optim.adam(opfunc_of(rosenbrock), torch.tensor(X0, dtype=torch.float64), config, state)
    assert state["t"] == 1 and "t" not in config


def test_argument_errors():
    x = torch.tensor(X0, dtype=torch.float64)
    with pytest.raises(ValueError, match="Nesterov"):
        optim.sgd(opfunc_of(rosenbrock), x, {"momentum": 0.9, "nesterov": True})
    with pytest.raises(ValueError, match="only one of"):
        optim.sgd(opfunc_of(rosenbrock), x, {"weightDecay": 1, "weightDecays": torch.ones(2, dtype=torch.float64)})
    with pytest.raises(ValueError, match="Momentum"):
        optim.nag(opfunc_of(rosenbrock), x, {"momentum": 0})
    np.testing.assert_array_equal(x.numpy(), X0)


def test_sgd_individual_rates_and_decays():
    lrs, wds = np.array([1.0, 0.5]), np.array([0.1, 0.0])
    config = {
        "learningRate": 1e-3,
        "learningRates": torch.from_numpy(lrs.copy()),
        "weightDecays": torch.from_numpy(wds.copy()),
    }
    x, xr = torch.tensor(X0, dtype=torch.float64), np.array(X0)
    for step in range(5):
        optim.sgd(opfunc_of(rosenbrock), x, config)
        xr = xr - 1e-3 * lrs * (rosenbrock(xr)[1] + wds * xr)
        np.testing.assert_allclose(x.numpy(), xr, rtol=1e-12)
    assert "decayParameters" in config and "deltaParameters" in config


# torch.optim: the same trajectory where the rules coincide
def torch_optim_trajectory(make, steps=8):
    p = torch.tensor(X0, dtype=torch.float64, requires_grad=True)
    opt = make([p])
    xs = []
    for _ in range(steps):
        with torch.no_grad():
            g = rosenbrock(p.detach().numpy().copy())[1]
        p.grad = torch.from_numpy(g.copy())
        opt.step()
        xs.append(p.detach().numpy().copy())
    return xs, opt


def legacy_trajectory(name, config, steps=8):
    x = torch.tensor(X0, dtype=torch.float64)
    xs = []
    for _ in range(steps):
        getattr(optim, name)(opfunc_of(rosenbrock), x, config)
        xs.append(x.numpy().copy())
    return xs, config


MATCHING = [
    # (legacy name, legacy config, torch.optim maker, rtol)
    (
        "sgd",
        {"learningRate": 1e-3, "momentum": 0.9, "dampening": 0.3, "weightDecay": 0.05},
        lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, dampening=0.3, weight_decay=0.05),
        1e-12,
    ),
    (
        "sgd",
        {"learningRate": 1e-3, "momentum": 0.9, "dampening": 0, "nesterov": True},
        lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, nesterov=True),
        1e-12,
    ),
    # torch7 adds epsilon to sqrt(v), torch.optim to sqrt(v) / sqrt(1 - beta2^t): equal at epsilon 0
    (
        "adam",
        {"learningRate": 1e-2, "beta1": 0.8, "beta2": 0.9, "epsilon": 0, "weightDecay": 0.05},
        lambda ps: torch.optim.Adam(ps, lr=1e-2, betas=(0.8, 0.9), eps=0, weight_decay=0.05),
        1e-12,
    ),
    (
        "adagrad",
        {"learningRate": 0.1, "learningRateDecay": 0.05, "weightDecay": 0.01},
        lambda ps: torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.05, weight_decay=0.01),
        1e-12,
    ),
    (
        "rmsprop",
        {"learningRate": 1e-2, "alpha": 0.9, "epsilon": 1e-6, "weightDecay": 0.02},
        lambda ps: torch.optim.RMSprop(ps, lr=1e-2, alpha=0.9, eps=1e-6, weight_decay=0.02),
        1e-12,
    ),
    ("adadelta", {"rho": 0.95, "eps": 1e-4}, lambda ps: torch.optim.Adadelta(ps, lr=1.0, rho=0.95, eps=1e-4), 1e-12),
    (
        "adamax",
        {"learningRate": 2e-2, "beta1": 0.9, "beta2": 0.99, "epsilon": 1e-8},
        lambda ps: torch.optim.Adamax(ps, lr=2e-2, betas=(0.9, 0.99), eps=1e-8),
        1e-12,
    ),
    (
        "rprop",
        {"stepsize": 0.1, "etaplus": 1.3, "etaminus": 0.4, "stepsizemax": 0.35, "stepsizemin": 0.02},
        lambda ps: torch.optim.Rprop(ps, lr=0.1, etas=(0.4, 1.3), step_sizes=(0.02, 0.35)),
        1e-12,
    ),
    # torch.optim.ASGD keeps eta and mu as float32 tensors (as PyTorch 1.13 does): close, not equal
    (
        "asgd",
        {"eta0": 1e-3, "lambda": 1e-2, "alpha": 0.75, "t0": 2},
        lambda ps: torch.optim.ASGD(ps, lr=1e-3, lambd=1e-2, alpha=0.75, t0=2),
        1e-6,
    ),
]


@pytest.mark.parametrize("name,config,make,rtol", MATCHING, ids=[f"{m[0]}-{i}" for i, m in enumerate(MATCHING)])
def test_against_torch_optim(name, config, make, rtol):
    ours, state = legacy_trajectory(name, dict(config))
    theirs, opt = torch_optim_trajectory(make)
    for step, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-15, err_msg=f"{name} step {step + 1}")
    if name == "asgd":
        np.testing.assert_allclose(
            state["ax"].numpy(), opt.state[opt.param_groups[0]["params"][0]]["ax"].numpy(), rtol=rtol
        )


def test_adam_epsilon_placement_differs_from_torch_optim():
    # with epsilon = 1e-2 the two rules part: torch7's effective epsilon is sqrt(1 - beta2^t) times larger
    ours, _ = legacy_trajectory("adam", {"learningRate": 1e-2, "epsilon": 1e-2})
    theirs, _ = torch_optim_trajectory(lambda ps: torch.optim.Adam(ps, lr=1e-2, eps=1e-2))
    assert np.abs(ours[0] - theirs[0]).max() > 1e-5
    # and torch.optim at eps * sqrt(1 - beta2) gives torch7's first step
    first, _ = torch_optim_trajectory(
        lambda ps: torch.optim.Adam(ps, lr=1e-2, eps=1e-2 / math.sqrt(1 - 0.999)), steps=1
    )
    np.testing.assert_allclose(ours[0], first[0], rtol=1e-12)


def test_lbfgs_two_loop_without_line_search():
    lr, m = 0.1, 2
    config = {"maxIter": 1, "learningRate": lr, "nCorrection": m}
    x, xr = torch.zeros(3, dtype=torch.float64), np.zeros(3)
    S, Y, gold, d, t, H = [], [], None, None, None, 1.0
    for it in range(6):
        optim.lbfgs(opfunc_of(quadratic), x, config)
        g = quadratic(xr)[1]
        if it == 0:
            d, t = -g, min(1, 1 / np.abs(g).sum()) * lr
        else:
            y, s = g - gold, d * t
            if y @ s > 1e-10:
                if len(S) == m:
                    S.pop(0), Y.pop(0)
                S.append(s), Y.append(y)
                H = (y @ s) / (y @ y)
            q, al = -g, [0.0] * len(S)
            for k in reversed(range(len(S))):
                al[k] = S[k] @ q / (Y[k] @ S[k])
                q = q - al[k] * Y[k]
            q = q * H
            for k in range(len(S)):
                q = q + (al[k] - Y[k] @ q / (Y[k] @ S[k])) * S[k]
            d, t = q, lr
        gold = g
        xr = xr + t * d
        np.testing.assert_allclose(x.numpy(), xr, rtol=1e-12, err_msg=f"iteration {it + 1}")
    assert config["nIter"] == 6 and config["funcEval"] == 6 and len(config["old_dirs"]) == m
    assert config["Hdiag"] == pytest.approx(H, rel=1e-12)
    np.testing.assert_allclose(config["d"].numpy(), d, rtol=1e-12)


@pytest.mark.parametrize(
    "name,config",
    [
        ("lbfgs", {"maxIter": 100, "lineSearch": optim.lswolfe, "tolFun": 1e-10, "tolX": 1e-14}),
        ("lbfgs", {"maxIter": 200, "learningRate": 0.2, "tolFun": 1e-12, "tolX": 1e-14}),
        ("cg", {"maxEval": 100}),
    ],
)
def test_reaches_the_minimum_of_a_quadratic(name, config):
    x = torch.tensor([5.0, 5, -5], dtype=torch.float64)
    _, fs, _ = getattr(optim, name)(opfunc_of(quadratic), x, config)
    np.testing.assert_allclose(x.numpy(), XSTAR, atol=1e-5)
    assert fs[0] == pytest.approx(quadratic([5, 5, -5])[0], rel=1e-12)
    assert fs[-1] == pytest.approx(quadratic(XSTAR)[0], abs=1e-8)


def test_lbfgs_and_cg_on_rosenbrock():
    for name, config in [
        ("lbfgs", {"maxIter": 200, "lineSearch": optim.lswolfe, "tolFun": 1e-10}),
        ("cg", {"maxEval": 300, "maxIter": 50}),
    ]:
        x = torch.tensor(X0, dtype=torch.float64)
        _, fs, _ = getattr(optim, name)(opfunc_of(rosenbrock), x, config)
        np.testing.assert_allclose(x.numpy(), [1, 1], atol=1e-4)
        assert fs[-1] < 1e-8


def test_lswolfe_and_polyinterp():
    def f1(x):
        v = x[0].item()
        return (v - 3) ** 2 + v**4 / 10, torch.tensor([2 * (v - 3) + 0.4 * v**3], dtype=torch.float64)

    d = torch.ones(1, dtype=torch.float64)
    f0, g0 = f1(torch.zeros(1, dtype=torch.float64))
    gtd = g0.dot(d).item()
    for t0 in (0.01, 1, 50):
        x = torch.zeros(1, dtype=torch.float64)
        f, g, xs, t, n = optim.lswolfe(f1, x, t0, d, f0, g0, gtd)
        assert xs is x and x[0].item() == pytest.approx(t, abs=1e-15)
        assert f <= f0 + 1e-4 * t * gtd and abs(g.dot(d).item()) <= 0.9 * abs(gtd) and n >= 1
    # exact on a cubic: x^3 - 3x has its local minimum at 1
    row = lambda v: [v, v**3 - 3 * v, 3 * v * v - 3]  # noqa: E731
    assert optim.polyinterp(torch.tensor([row(0), row(2)], dtype=torch.float64)) == pytest.approx(1, abs=1e-12)
    assert optim.polyinterp(torch.tensor([row(-0.5), row(0.2)]), 0.3, 4) == pytest.approx(1, abs=1e-6)
    assert optim.polyinterp([row(-0.5), row(0.2)], 0.3, 0.6) == pytest.approx(0.6, abs=1e-12)


# Lua and Python, the same 5 steps: each run prints x after every step with %.17g.
CROSS = {
    "sgd": "{learningRate = 1e-3, momentum = 0.9, dampening = 0, nesterov = true, weightDecay = 0.01}",
    "nag": "{learningRate = 1e-4, momentum = 0.8}",
    "asgd": "{eta0 = 1e-3, lambda = 1e-2, t0 = 2}",
    "adagrad": "{learningRate = 0.1, learningRateDecay = 0.05}",
    "adadelta": "{rho = 0.95, eps = 1e-4}",
    "rmsprop": "{learningRate = 1e-2, alpha = 0.9}",
    "adam": "{learningRate = 1e-2, learningRateDecay = 0.1, weightDecay = 0.05}",
    "adamax": "{learningRate = 2e-2}",
    "rprop": "{stepsize = 0.1, stepsizemax = 0.35}",
    "lbfgs": "{maxIter = 1, learningRate = 0.5, nCorrection = 3}",
    "lbfgs_lswolfe": "{maxIter = 1, lineSearch = optim.lswolfe}",
    "cg": "{maxEval = 6}",
}

LUA_SCRIPT = r"""
require 'optim'
local function rosen(x)
   local a, b = x[1], x[2]
   return (1 - a) ^ 2 + 100 * (b - a * a) ^ 2, torch.Tensor({ -2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a) })
end
local runs = { %s }
local out = {}
for name, config in pairs(runs) do
   local x = torch.Tensor({ -1.2, 1 })
   local rows = {}
   for _ = 1, 5 do
      optim[name:match('^[a-z]+')](rosen, x, config)
      rows[#rows + 1] = string.format('[%%.17g, %%.17g]', x[1], x[2])
   end
   out[#out + 1] = string.format('"%%s": [%%s]', name, table.concat(rows, ', '))
end
print('{' .. table.concat(out, ', ') .. '}')
"""


def lua_table_to_dict(text):
    """The few config tables above, as Python dicts."""
    items = {}
    for part in text.strip("{}").split(","):
        key, value = (s.strip() for s in part.split("="))
        items[key] = {"true": True, "optim.lswolfe": optim.lswolfe}.get(value) or (
            False if value == "false" else float(value)
        )
    for k in ("maxIter", "maxEval", "nCorrection"):
        if k in items:
            items[k] = int(items[k])
    return items


def test_lua_and_python_give_the_same_steps():
    th = os.path.join(ROOT, "bazel-bin", "lua", "th")
    if not os.path.exists(th):
        pytest.fail("bazel-bin/lua/th is not built (scripts/build.sh builds it)")
    runs = ", ".join(f"{k} = {v}" for k, v in CROSS.items())
    env = dict(os.environ, TORCH_LUA_PATH=os.path.join(ROOT, "lua"))
    proc = subprocess.run([th, "-e", LUA_SCRIPT % runs], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lua = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(lua) == set(CROSS)
    for name, table in CROSS.items():
        config = lua_table_to_dict(table)
        x = torch.tensor(X0, dtype=torch.float64)
        for step in range(5):
            getattr(optim, name.split("_")[0])(opfunc_of(rosenbrock), x, config)
            np.testing.assert_allclose(
                x.numpy(), lua[name][step], rtol=1e-12, atol=1e-300, err_msg=f"{name} step {step + 1}"
            )
