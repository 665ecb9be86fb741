"""optim.polyinterp(points[, xminBound, xmaxBound]) as in lua/optim/polyinterp.lua: the
minimiser of the polynomial that interpolates values and derivatives at the points, after
minFunc's polyinterp. points: a tensor (or nested list) of rows [x, f(x), f'(x)].

Without bounds and with two points, the closed form of the cubic's minimiser; with bounds,
the cubic through the four conditions, minimised over the bounds, the points and its real
critical points inside the bounds. Returns the position (torch7 also returned the cubic's
value there in the bounded case; nothing used it).
torch7 uses torch.gels and torch.eig here; Gaussian elimination and the quadratic formula
give the same answer and limit the bounded case to two points, which is all lswolfe needs.
"""

import math


def _solve(A, b):
    """A x = b by Gaussian elimination with partial pivoting (lists, changed in place);
    a singular system gives NaNs, so that the caller falls back to bisection."""
    n = len(b)
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(A[r][c]))
        A[c], A[pivot] = A[pivot], A[c]
        b[c], b[pivot] = b[pivot], b[c]
        for r in range(c + 1, n):
            factor = A[r][c] / A[c][c] if A[c][c] != 0 else math.nan
            for k in range(c, n):
                A[r][k] = A[r][k] - factor * A[c][k]
            b[r] = b[r] - factor * b[c]
    xs = [0.0] * n
    for r in range(n - 1, -1, -1):
        v = b[r]
        for k in range(r + 1, n):
            v = v - A[r][k] * xs[k]
        xs[r] = v / A[r][r] if A[r][r] != 0 else math.nan
    return xs


def _real_roots(a, b, k):
    """Real roots of a x^2 + b x + k (coefficients below 1e-12 count as 0)."""
    a, b, k = (0.0 if abs(c) < 1e-12 else c for c in (a, b, k))
    if a == 0:
        return [] if b == 0 else [-k / b]
    disc = b * b - 4 * a * k
    if disc < 0:
        return []
    sq = math.sqrt(disc)
    return [(-b - sq) / (2 * a), (-b + sq) / (2 * a)]


def _polyval(p, x):
    v = 0.0
    for i, c in enumerate(p):
        v = v + c * x ** (len(p) - 1 - i)
    return v


def polyinterp(points, xminBound=None, xmaxBound=None):
    rows = points.tolist() if hasattr(points, "tolist") else [list(r) for r in points]
    n_points = len(rows)
    order = n_points * 2 - 1

    if n_points == 2 and xminBound is None and xmaxBound is None:
        # with point 1 the one of smaller x:
        #   d1 = g1 + g2 - 3 (f1 - f2) / (x1 - x2);  d2 = sqrt(d1^2 - g1 g2)
        #   x2 - (x2 - x1) (g2 + d2 - d1) / (g2 - g1 + 2 d2), clamped to [x1, x2]
        lo = 1 if rows[1][0] < rows[0][0] else 0
        (x1, f1, g1), (x2, f2, g2) = rows[lo], rows[1 - lo]
        d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
        disc = d1**2 - g1 * g2
        if disc >= 0:
            d2 = math.sqrt(disc)
            t = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
            return min(max(t, x1), x2)
        return (x1 + x2) / 2

    if order > 3:
        raise ValueError("polyinterp: only two points are supported with bounds")

    xs = [r[0] for r in rows]
    xminBound = min(xs) if xminBound is None else xminBound
    xmaxBound = max(xs) if xmaxBound is None else xmaxBound

    # value and derivative conditions on the coefficients, highest power first
    A, b = [None] * (2 * n_points), [None] * (2 * n_points)
    for i, (xi, fi, gi) in enumerate(rows):
        powers = [order - j for j in range(order + 1)]
        A[i], b[i] = [xi**p for p in powers], fi
        A[n_points + i], b[n_points + i] = [p * xi ** (p - 1) if p > 0 else 0.0 for p in powers], gi
    params = [0.0 if abs(p) <= 1e-12 else p for p in _solve(A, b)]

    candidates = [xminBound, xmaxBound] + xs
    d_params = [params[i] * (order - i) for i in range(order)]
    d_params = [0.0] * (3 - len(d_params)) + d_params
    if all(math.isfinite(v) for v in d_params):
        candidates += _real_roots(*d_params)

    # bisection when no candidate is valid
    min_pos, fmin = (xminBound + xmaxBound) / 2, math.inf
    for xc in candidates:
        if xminBound <= xc <= xmaxBound:
            fc = _polyval(params, xc)
            if fc < fmin:
                min_pos, fmin = xc, fc
    return min_pos
