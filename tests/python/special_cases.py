"""Cases of the torch.special functions added for the Bessel, Airy and Chebyshev families
(core/ops/Special.h, torch/special.py), run the same way by this package and by real PyTorch
1.13 (Debian's python3-torch): each case builds its inputs from numpy, calls the functions and
returns a list of results (numpy arrays, dtype names, exception names). test_special.py compares
the two runs case by case, and this package's double values with mpmath's (MPMATH below, run by
/usr/bin/python3, which has mpmath).

Run directly (`python3 special_cases.py OUT.npz`) it writes every case's results to OUT.npz, with
the `torch` that interpreter imports; `python3 special_cases.py --mpmath OUT.npz` writes mpmath's
values of the functions at ACCURACY_POINTS instead."""

import sys

import numpy as np

import case_runner

from functional_cases import error_name, tensor, values

CASES, case = case_runner.registry()


UNARY = [
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "airy_ai",
]
POLYNOMIALS = [
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
]
# both signs, the ends of PyTorch's approximations' ranges (2, 5, 2.09, 8.32), around 0, large
POINTS = np.concatenate(
    [
        np.array(
            [1e-300, 1e-20, 1e-8, 1e-5, 2.0, 5.0, 2.09, -2.09, 8.32, 8.33, 25.0, 60.0, 103.8, 104.0, 700.0, 800.0]
        ),
        np.linspace(-30, 30, 121),
    ]
)
EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])
# the polynomials' arguments: outside, at and inside [-1, 1] (the shifted ones' [0, 1]) and NaN
POLY_X = np.array([-1.5, -1.0, -0.999, -0.5, 0.0, 0.25, 0.5, 0.75, 0.999, 1.0, 1.5, 2.0, np.nan])
# degrees on both sides of PyTorch's trigonometric thresholds (4, 6 and 8) and negative ones
POLY_N = np.array([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15])


@case
def unary_values(torch):
    out = []
    for name in UNARY:
        fn = getattr(torch.special, name)
        for dt in [torch.float32, torch.float64]:
            out += values(fn(tensor(torch, POINTS, dt)))
            out += values(fn(tensor(torch, EDGES, dt)))
    return out


@case
def unary_forms(torch):
    """Strides, integer input, out=, no gradient recorded, and the errors of bad input."""
    out = []
    base = np.linspace(0.1, 9, 24).reshape(4, 6)
    for name in UNARY:
        fn = getattr(torch.special, name)
        x = tensor(torch, base, torch.float64)
        out += values(fn(x.t()))
        out += values(fn(x[:, ::2]))
        out += values(fn(x[1].expand(3, 6)))
        out += values(fn(torch.tensor([1, 2, 3])))
        r = torch.empty(2)
        same = fn(tensor(torch, [0.5, 3.0], torch.float32), out=r)
        out += values(r) + [str(same is r)]
        wider = torch.empty(5, dtype=torch.float64)  # resized, float32 results cast up
        fn(tensor(torch, [0.5, 3.0], torch.float32), out=wider)
        out += values(wider)
        leaf = tensor(torch, [0.5, 3.0], torch.float64).requires_grad_()
        out.append(str(fn(leaf).requires_grad))
        out.append(error_name(lambda: fn([1.0])))
        out.append(error_name(lambda: fn(torch.tensor([1.0], dtype=torch.float16))))
        out.append(error_name(lambda: fn(torch.tensor([1.0]), out=torch.empty(1, dtype=torch.int64))))
    return out


@case
def polynomial_values(torch):
    out = []
    x, n = np.meshgrid(POLY_X, POLY_N)
    for name in POLYNOMIALS:
        fn = getattr(torch.special, name)
        for dt in [torch.float32, torch.float64]:
            out += values(fn(tensor(torch, x.ravel(), dt), tensor(torch, n.ravel(), dt)))
        # a degree of 30 inside the interval, in double: the trigonometric forms
        out += values(fn(tensor(torch, np.linspace(0.05, 0.95, 7), torch.float64), 30))
    return out


@case
def polynomial_forms(torch):
    """Tensor and number arguments in either place, integer degrees and broadcasting, dtypes,
    non-integer degrees (truncated), out=, no gradient recorded, and the errors."""
    out = []
    xs = tensor(torch, [0.1, 0.4, 0.8], torch.float32)
    for name in POLYNOMIALS:
        fn = getattr(torch.special, name)
        out += values(fn(xs, 3))
        out += values(fn(xs, 2.7))
        out += values(fn(0.3, torch.tensor([0, 1, 2, 3])))
        out += values(fn(xs.reshape(3, 1), torch.tensor([2, 5])))
        out += values(fn(xs.double(), torch.tensor([4])))
        out += values(fn(torch.tensor([1, 2]), torch.tensor([3])))
        r = torch.empty(3)
        fn(xs, 4, out=r)
        out += values(r)
        out.append(str(fn(xs.clone().requires_grad_(), 3).requires_grad))
        out.append(error_name(lambda: fn([0.5], 2)))
        out.append(error_name(lambda: fn(torch.tensor([0.5], dtype=torch.float16), 2)))
    return out


ACCURACY_POINTS = np.concatenate(
    [np.array([1e-8, 1e-5, 2.0, 2.09, 5.0, 8.32, 100.0, 700.0, 1e4]), np.linspace(0.05, 30, 120)]
)


def mpmath_values():
    import mpmath

    mpmath.mp.dps = 40
    fns = {
        "bessel_j0": lambda x: mpmath.besselj(0, x),
        "bessel_j1": lambda x: mpmath.besselj(1, x),
        "bessel_y0": lambda x: mpmath.bessely(0, x),
        "bessel_y1": lambda x: mpmath.bessely(1, x),
        "modified_bessel_k0": lambda x: mpmath.besselk(0, x),
        "modified_bessel_k1": lambda x: mpmath.besselk(1, x),
        "scaled_modified_bessel_k0": lambda x: mpmath.besselk(0, x) * mpmath.exp(x),
        "scaled_modified_bessel_k1": lambda x: mpmath.besselk(1, x) * mpmath.exp(x),
        "airy_ai": lambda x: mpmath.airyai(x),
    }
    points = {name: ACCURACY_POINTS for name in fns}
    for name in ("bessel_j0", "bessel_j1", "airy_ai"):  # their negative arguments too
        points[name] = np.concatenate([-ACCURACY_POINTS, ACCURACY_POINTS])
    points["airy_ai"] = points["airy_ai"][np.abs(points["airy_ai"]) < 103]
    result = {}
    for name, fn in fns.items():
        result[name + "::x"] = points[name]
        result[name] = np.array([float(fn(mpmath.mpf(float(v)))) for v in points[name]])
    return result


if __name__ == "__main__":
    if sys.argv[1] == "--mpmath":
        np.savez(sys.argv[2], **mpmath_values())
    else:
        case_runner.main(CASES)
