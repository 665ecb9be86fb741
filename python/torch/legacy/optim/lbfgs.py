"""Limited-memory BFGS, torch7's optim.lbfgs (lua/optim/lbfgs.lua, after minFunc): the
direction is the two-loop recursion over the last nCorrection steps s and gradient changes
y; the step is learningRate (min(1, 1/|g|_1) * learningRate on the very first iteration),
or whatever config['lineSearch'] (e.g. torch.legacy.optim.lswolfe) finds. x must be a
vector.

config: maxIter (20), maxEval (maxIter * 1.25), tolFun (1e-5), tolX (1e-9),
nCorrection (100), lineSearch, lineSearchOptions, learningRate (1), verbose (False).
state: funcEval, nIter, d, t, old_dirs, old_stps, Hdiag, g_old, f_old, and the buffers
tmp1, dir_bufs, stp_bufs, ro, al. A later call continues from this state.
Returns x, the list of f values (before the first step, after each step) and the number
of function evaluations of this call.
"""

import torch

from torch.legacy.optim._state import config_and_state


def lbfgs(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    max_iter = config.get("maxIter", 20)
    max_eval = config.get("maxEval", max_iter * 1.25)
    tol_fun = config.get("tolFun", 1e-5)
    tol_x = config.get("tolX", 1e-9)
    n_correction = config.get("nCorrection", 100)
    line_search = config.get("lineSearch")
    line_search_opts = config.get("lineSearchOptions")
    learning_rate = config.get("learningRate", 1)
    verbose = print if config.get("verbose", False) else (lambda *args: None)

    state.setdefault("funcEval", 0)
    state.setdefault("nIter", 0)

    f, g = opfunc(x)
    f_hist = [f]
    current_func_eval = 1
    state["funcEval"] += 1
    p = g.size(0)

    if "tmp1" not in state:
        state["tmp1"] = torch.zeros_like(g)
    tmp1 = state["tmp1"]
    if tmp1.copy_(g).abs_().sum().item() <= tol_fun:
        verbose("<optim.lbfgs> optimality condition below tolFun")
        return x, f_hist, current_func_eval

    if "dir_bufs" not in state:
        # nCorrection + 1 rows each for the y's and s's, recycled as the history moves on
        dirs, stps = g.new_empty((n_correction + 1, p)), g.new_empty((n_correction + 1, p))
        state["dir_bufs"] = [dirs[i] for i in range(n_correction + 1)]
        state["stp_bufs"] = [stps[i] for i in range(n_correction + 1)]

    d = state.get("d")
    t = state.get("t")
    old_dirs = state.get("old_dirs")
    old_stps = state.get("old_stps")
    h_diag = state.get("Hdiag")
    g_old = state.get("g_old")
    f_old = state.get("f_old")

    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        state["nIter"] += 1

        if state["nIter"] == 1:
            d = g.clone().mul_(-1)
            old_dirs = []
            old_stps = []
            h_diag = 1
        else:
            # update the memory with y = g - g_old, s = d * t when the curvature y.s is positive
            y = state["dir_bufs"].pop()
            s = state["stp_bufs"].pop()
            torch.add(g, g_old, alpha=-1, out=y)
            torch.mul(d, t, out=s)
            ys = y.dot(s).item()
            if ys > 1e-10:
                if len(old_dirs) == n_correction:
                    state["dir_bufs"].append(old_dirs.pop(0))
                    state["stp_bufs"].append(old_stps.pop(0))
                # torch7's names: old_dirs holds the steps s, old_stps the gradient changes y
                old_dirs.append(s)
                old_stps.append(y)
                h_diag = ys / y.dot(y).item()
            else:
                state["dir_bufs"].append(y)
                state["stp_bufs"].append(s)

            # two-loop recursion: d = -H g with H the L-BFGS inverse Hessian
            k = len(old_dirs)
            if "ro" not in state:
                state["ro"] = torch.zeros(n_correction, dtype=torch.float64)
                state["al"] = torch.zeros(n_correction, dtype=torch.float64)
            ro, al = state["ro"], state["al"]
            for i in range(k):
                ro[i] = 1 / old_stps[i].dot(old_dirs[i]).item()
            q = torch.mul(g, -1, out=tmp1)
            for i in range(k - 1, -1, -1):
                al[i] = old_dirs[i].dot(q).item() * ro[i].item()
                q.add_(old_stps[i], alpha=-al[i].item())
            r = torch.mul(q, h_diag, out=d)
            for i in range(k):
                be_i = old_stps[i].dot(r).item() * ro[i].item()
                r.add_(old_dirs[i], alpha=al[i].item() - be_i)
        if g_old is None:
            g_old = g.clone()
        g_old.copy_(g)
        f_old = f

        gtd = g.dot(d).item()
        if gtd > -tol_x:
            # not a descent direction
            break

        if state["nIter"] == 1:
            t = min(1, 1 / tmp1.copy_(g).abs_().sum().item()) * learning_rate
        else:
            t = learning_rate

        ls_func_eval = 0
        if callable(line_search):
            f, g, x, t, ls_func_eval = line_search(opfunc, x, t, d, f, g, gtd, line_search_opts)
            f_hist.append(f)
        else:
            x.add_(d, alpha=t)
            if n_iter != max_iter:
                # the last iteration does not re-evaluate: its value is of no use here
                f, g = opfunc(x)
                ls_func_eval = 1
                f_hist.append(f)
        current_func_eval += ls_func_eval
        state["funcEval"] += ls_func_eval

        if n_iter == max_iter:
            verbose("<optim.lbfgs> reached max number of iterations")
            break
        if current_func_eval >= max_eval:
            verbose("<optim.lbfgs> max nb of function evals")
            break
        if tmp1.copy_(g).abs_().sum().item() <= tol_fun:
            verbose("<optim.lbfgs> optimality condition below tolFun")
            break
        if tmp1.copy_(d).mul_(t).abs_().sum().item() <= tol_x:
            verbose("<optim.lbfgs> step size below tolX")
            break
        if abs(f - f_old) < tol_x:
            verbose("<optim.lbfgs> function value changing less than tolX")
            break

    state["old_dirs"] = old_dirs
    state["old_stps"] = old_stps
    state["Hdiag"] = h_diag
    state["g_old"] = g_old
    state["f_old"] = f_old
    state["t"] = t
    state["d"] = d

    return x, f_hist, current_func_eval
