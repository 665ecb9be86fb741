"""lswolfe(opfunc, x, t, d, f, g, gtd[, options]) as in lua/optim/lswolfe.lua: a line search
along d from x for a step satisfying the strong Wolfe conditions (after minFunc's
WolfeLineSearch): bracketing with cubic extrapolation, then zooming with cubic
interpolation. t: first step; f, g, gtd: f(x), df/dx and g.d at x.

options: c1 (1e-4, sufficient decrease), c2 (0.9, curvature), tolX (1e-9, smallest
bracket), maxIter (20), verbose.
Returns f, g at the new x (= x + t d, set in place), x, t and the number of evaluations.
"""

from torch.legacy.optim.polyinterp import polyinterp


def lswolfe(opfunc, x, t, d, f, g, gtd, options=None):
    options = options or {}
    c1 = options.get("c1", 1e-4)
    c2 = options.get("c2", 0.9)
    tol_x = options.get("tolX", 1e-9)
    max_iter = options.get("maxIter", 20)
    verbose = options.get("verbose", False)

    x_init = x.clone()
    ls_func_eval = 0

    def evaluate_at(step):
        """f, df/dx and the slope along d at x_init + step * d, where x is left."""
        nonlocal ls_func_eval
        x.copy_(x_init).add_(d, alpha=step)
        f_step, g_step = opfunc(x)
        ls_func_eval += 1
        return f_step, g_step, g_step.dot(d).item()

    f_new, g_new, gtd_new = evaluate_at(t)

    # bracket: steps, values and gradients at its two ends (one point once done)
    ls_iter, t_prev, done = 0, 0, False
    f_prev, g_prev, gtd_prev = f, g.clone(), gtd
    bracket = bracket_f = bracket_g = None
    while ls_iter < max_iter:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f, bracket_g = [t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()]
            break
        elif abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new.clone()]
            done = True
            break
        elif gtd_new >= 0:
            bracket, bracket_f, bracket_g = [t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()]
            break

        # extrapolate between 1.01 t and 10 t
        tmp = t_prev
        t_prev = t
        min_step = t + 0.01 * (t - tmp)
        max_step = t * 10
        t = polyinterp([[tmp, f_prev, gtd_prev], [t, f_new, gtd_new]], min_step, max_step)

        f_prev = f_new
        g_prev = g_new.clone()
        gtd_prev = gtd_new
        f_new, g_new, gtd_new = evaluate_at(t)
        ls_iter += 1

    if ls_iter == max_iter:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new.clone()]

    # zoom: shrink the bracket until a point satisfies the conditions
    insuf_progress = False
    while not done and ls_iter < max_iter:
        lo = 1 if bracket_f[1] < bracket_f[0] else 0
        hi = 1 - lo
        f_lo = bracket_f[lo]

        t = polyinterp(
            [
                [bracket[0], bracket_f[0], bracket_g[0].dot(d).item()],
                [bracket[1], bracket_f[1], bracket_g[1].dot(d).item()],
            ]
        )

        # too close to an end of the bracket: move it to 10% inside
        bmax, bmin = max(bracket), min(bracket)
        if min(bmax - t, t - bmin) / (bmax - bmin) < 0.1:
            if insuf_progress or t >= bmax or t <= bmin:
                if abs(t - bmax) < abs(t - bmin):
                    t = bmax - 0.1 * (bmax - bmin)
                else:
                    t = bmin + 0.1 * (bmax - bmin)
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False

        f_new, g_new, gtd_new = evaluate_at(t)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= f_lo:
            # not a sufficient decrease, or not below the low end: new high end
            bracket[hi], bracket_f[hi], bracket_g[hi] = t, f_new, g_new.clone()
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[hi] - bracket[lo]) >= 0:
                # the old low end becomes the high end
                bracket[hi], bracket_f[hi], bracket_g[hi] = bracket[lo], bracket_f[lo], bracket_g[lo]
            bracket[lo], bracket_f[lo], bracket_g[lo] = t, f_new, g_new.clone()

        if not done and abs((bracket[0] - bracket[1]) * gtd_new) < tol_x:
            break

    if ls_iter == max_iter and verbose:
        print("<optim.lswolfe> reached max number of iterations")

    lo = 1 if len(bracket_f) > 1 and bracket_f[1] < bracket_f[0] else 0
    t = bracket[lo]
    x.copy_(x_init).add_(d, alpha=t)
    return bracket_f[lo], bracket_g[lo], x, t, ls_func_eval
