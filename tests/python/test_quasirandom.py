"""torch.quasirandom.SobolEngine (quasirandom_cases.py): the same direction numbers, states and
points as real PyTorch 1.13, bit for bit, scrambled or not."""

import numpy as np
import pytest

import quasirandom_cases
import torch
from real_pytorch import same_as_pytorch_1_13


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "quasirandom_cases.py", quasirandom_cases.CASES, lambda name, got, want: (0, 0)
)


def test_points_are_stratified():
    """The defining property, checked by counting: the first 2^m unscrambled or scrambled points
    put exactly one point in each of the 2^m intervals of every coordinate."""
    for scramble in (False, True):
        points = torch.quasirandom.SobolEngine(50, scramble=scramble, seed=3).draw(256, dtype=torch.float64).numpy()
        for column in points.T:
            np.testing.assert_array_equal(np.sort(np.floor(column * 256)), np.arange(256))


def test_a_failing_draw_changes_nothing():
    engine = torch.quasirandom.SobolEngine(3)
    engine.draw(5)
    state = engine.quasi.clone()
    for bad in (lambda: engine.draw(-2), lambda: engine.draw(3, dtype=torch.int64), lambda: engine.fast_forward(-1)):
        with pytest.raises((RuntimeError, ValueError)):
            bad()
        assert engine.num_generated == 5 and torch.equal(engine.quasi, state)
