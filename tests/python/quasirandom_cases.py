"""Cases of torch.quasirandom.SobolEngine, run the same way by this package and by real PyTorch
1.13 (Debian's python3-torch): each case makes engines, draws, and returns the points (and
direction numbers, states, reprs, exception names) as a list. test_quasirandom.py compares the
two runs bit for bit.

Run directly (`python3 quasirandom_cases.py OUT.npz`) it writes every case's results to
OUT.npz, with the `torch` that interpreter imports."""

import numpy as np

import case_runner

from functional_cases import error_name

CASES, case = case_runner.registry()

# (dimension, scramble, seed): one and two dimensions, across the degrees of Joe and Kuo's
# polynomials (dimension 1111 reaches degree 11), scrambled with and without a seed
ENGINES = [(1, False, None), (2, False, None), (5, False, None), (40, False, None), (1111, False, None)]
SCRAMBLED = [(1, True, 0), (3, True, 7), (40, True, 12345), (300, True, 2**33 + 1)]


def _draws(torch, engine):
    """A run of draws through the engine's state: the first point alone, a batch in each dtype,
    a fast-forward, a reset, a draw_base2 and a draw into out."""
    points = [engine.draw().numpy(), engine.draw(9).numpy(), engine.draw(70, dtype=torch.float64).numpy()]
    engine.fast_forward(45)
    points.append(engine.draw(3).numpy())
    points.append(engine.quasi.numpy().copy())
    engine.reset()
    points.append(engine.draw_base2(3, dtype=torch.float64).numpy())
    points.append(engine.draw_base2(3).numpy())
    out = torch.empty(2, 2, dtype=torch.float64)
    points.append(engine.draw(5, out=out, dtype=torch.float64).numpy())
    engine.reset()
    engine.fast_forward(1)
    points.append(engine.draw(4).numpy())
    points.append(np.array(engine.num_generated))
    return points


@case
def direction_numbers(torch):
    """The whole table (the last dimension is 21201) and the start of it."""
    return [
        torch.quasirandom.SobolEngine(21201).sobolstate.numpy(),
        torch.quasirandom.SobolEngine(3).sobolstate.numpy(),
    ]


@case
def unscrambled(torch):
    out = []
    for dimension, scramble, seed in ENGINES:
        out += _draws(torch, torch.quasirandom.SobolEngine(dimension, scramble=scramble, seed=seed))
    return out


@case
def scrambled(torch):
    out = []
    for dimension, scramble, seed in SCRAMBLED:
        engine = torch.quasirandom.SobolEngine(dimension, scramble=scramble, seed=seed)
        out += [engine.sobolstate.numpy(), engine.shift.numpy()]
        out += _draws(torch, engine)
    return out


@case
def scrambled_from_the_default_generator(torch):
    """seed=None takes the scrambling's bits from the default generator, in 1.13's order."""
    torch.manual_seed(2024)
    first = torch.quasirandom.SobolEngine(6, scramble=True)
    second = torch.quasirandom.SobolEngine(6, scramble=True)
    return [first.draw(20).numpy(), second.draw(20).numpy(), torch.rand(3).numpy()]


@case
def first_point_under_double_default(torch):
    """The first point is computed in the default dtype when the engine is made."""
    torch.set_default_dtype(torch.float64)
    try:
        engine = torch.quasirandom.SobolEngine(4, scramble=True, seed=5)
    finally:
        torch.set_default_dtype(torch.float32)
    return [engine.draw(3).numpy(), engine.reset().draw(3, dtype=torch.float64).numpy()]


@case
def many_points(torch):
    engine = torch.quasirandom.SobolEngine(7, scramble=True, seed=1)
    engine.fast_forward(1000)
    return [engine.draw(4100, dtype=torch.float64).numpy(), engine.quasi.numpy()]


@case
def reprs_and_errors(torch):
    engine = torch.quasirandom.SobolEngine
    drawn = engine(3)
    drawn.draw(3)
    return [
        repr(engine(3)),
        repr(engine(21201, scramble=True)),
        repr(engine(2, scramble=True, seed=9)),
        error_name(lambda: engine(0)),
        error_name(lambda: engine(21202)),
        error_name(lambda: drawn.draw_base2(2)),
        error_name(lambda: drawn.draw(-1)),
        error_name(lambda: drawn.draw(2, dtype=torch.float16)),
        np.array(drawn.num_generated),
        drawn.draw(0).numpy(),
    ]


if __name__ == "__main__":
    case_runner.main(CASES)
