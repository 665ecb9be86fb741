"""Nonlinear conjugate gradients, torch7's optim.cg (lua/optim/cg.lua), a rewrite of Carl
E. Rasmussen's minimize.m: Polak-Ribiere directions, a line search by cubic interpolation
and extrapolation under the Wolfe-Powell conditions. One call runs until maxEval function
evaluations are spent or a line search fails.

config: rho (0.01), sig (0.5), int (0.1), ext (3.0), maxIter (20: line-search steps per
direction), ratio (100), maxEval (maxIter * 1.25).
state: df0, df1, df2, df3, s, x0 (buffers, reused when present).
Returns x, the list of f at the start and after each successful line search, and the
number of function evaluations.
"""

import math

import torch

from torch.legacy.optim._state import config_and_state


def _not_finite(v):
    return math.isnan(v) or math.isinf(v)


def _div(a, b):
    """a / b with IEEE results for b == 0, as Lua computes it: the checks below catch them."""
    if b != 0:
        return a / b
    return math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a) * math.copysign(1, b)


def _sqrt(v):
    return math.sqrt(v) if v >= 0 else math.nan


def cg(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    rho = config.get("rho", 0.01)
    sig = config.get("sig", 0.5)
    interp = config.get("int", 0.1)
    ext = config.get("ext", 3.0)
    max_iter = config.get("maxIter", 20)
    ratio = config.get("ratio", 100)
    max_eval = config.get("maxEval", max_iter * 1.25)
    red = 1

    i = 0
    fx = []
    buffers = {}
    for name in ("df0", "df1", "df2", "df3", "s", "x0"):
        buf = state.get(name)
        buffers[name] = torch.empty_like(x) if buf is None else buf.resize_as_(x)
    df0, df1, df2, df3, s, x0 = (buffers[k] for k in ("df0", "df1", "df2", "df3", "s", "x0"))

    f1, tdf = opfunc(x)
    fx.append(f1)
    df1.copy_(tdf)
    i += 1

    # steepest descent to begin with
    s.copy_(df1).mul_(-1)
    d1 = -s.dot(s).item()
    z1 = red / (1 - d1)

    def step_by(z):
        """x moved by z along s and evaluated there: f and the slope along s (df2 holds the
        gradient)."""
        x.add_(s, alpha=z)
        f, grad = opfunc(x)
        df2.copy_(grad)
        return f, df2.dot(s).item()

    while i < abs(max_eval):
        x0.copy_(x)
        df0.copy_(df1)

        f2, d2 = step_by(z1)
        i += 1
        f3, d3, z3 = f1, d1, -z1
        m = min(max_iter, max_eval - i)
        success = False
        limit = -1

        while True:
            # while the point is too far (too high or too steep): interpolate back
            while (f2 > f1 + z1 * rho * d1 or d2 > -sig * d1) and m > 0:
                limit = z1
                if f2 > f1:
                    z2 = z3 - _div(0.5 * d3 * z3 * z3, d3 * z3 + f2 - f3)
                else:
                    A = _div(6 * (f2 - f3), z3) + 3 * (d2 + d3)
                    B = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
                    z2 = _div(_sqrt(B * B - A * d2 * z3 * z3) - B, A)
                if _not_finite(z2):
                    z2 = z3 / 2
                z2 = max(min(z2, interp * z3), (1 - interp) * z3)
                z1 = z1 + z2
                f2, d2 = step_by(z2)
                i += 1
                m -= 1
                z3 = z3 - z2
            if f2 > f1 + z1 * rho * d1 or d2 > -sig * d1:
                break
            elif d2 > sig * d1:
                success = True
                break
            elif m == 0:
                break
            # extrapolate with a cubic
            A = _div(6 * (f2 - f3), z3) + 3 * (d2 + d3)
            B = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
            z2 = _div(-d2 * z3 * z3, B + _sqrt(B * B - A * d2 * z3 * z3))
            if _not_finite(z2) or z2 < 0:
                if limit < -0.5:
                    z2 = z1 * (ext - 1)
                else:
                    z2 = (limit - z1) / 2
            elif limit > -0.5 and z2 + z1 > limit:
                z2 = (limit - z1) / 2
            elif limit < -0.5 and z2 + z1 > z1 * ext:
                z2 = z1 * (ext - 1)
            elif z2 < -z3 * interp:
                z2 = -z3 * interp
            elif limit > -0.5 and z2 < (limit - z1) * (1 - interp):
                z2 = (limit - z1) * (1 - interp)
            f3, d3, z3 = f2, d2, -z2
            z1 = z1 + z2
            f2, d2 = step_by(z2)
            i += 1
            m -= 1

        if success:
            f1 = f2
            fx.append(f1)
            # Polak-Ribiere direction
            ss = (df2.dot(df2).item() - df2.dot(df1).item()) / df1.dot(df1).item()
            s.mul_(ss)
            s.add_(df2, alpha=-1)
            tmp = df1.clone()
            df1.copy_(df2)
            df2.copy_(tmp)
            d2 = df1.dot(s).item()
            if d2 > 0:
                s.copy_(df1).mul_(-1)
                d2 = -s.dot(s).item()
            z1 = z1 * min(ratio, d1 / (d2 - 1e-320))
            d1 = d2
        else:
            # back to the last good point; torch7's `if ls_failed` is always true in Lua
            # (a number), so one failed line search ends the call
            x.copy_(x0)
            df1.copy_(df0)
            break

    state.update(buffers)
    return x, fx, i
