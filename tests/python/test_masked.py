"""torch.masked (masked_cases.py): the same values and gradients as real PyTorch 1.13, and the
masked sums and means against numpy's masked arrays."""

import numpy as np
import pytest

import masked_cases
import torch
from real_pytorch import same_as_pytorch_1_13

TOLERANCES = {np.float32: (1e-6, 1e-6), np.float64: (1e-12, 1e-12)}


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "masked_cases.py", masked_cases.CASES, lambda name, got, want: TOLERANCES[want.dtype.type]
)


def test_against_numpy_masked_arrays():
    x, mask = masked_cases.inputs(torch, 7)
    values = np.ma.masked_array(x.numpy(), mask=~mask.numpy())
    np.testing.assert_allclose(torch.masked.sum(x, 2, mask=mask).numpy(), values.sum(2).filled(0), rtol=1e-12)
    kept = mask.numpy().any(2)
    np.testing.assert_allclose(torch.masked.mean(x, 2, mask=mask).numpy()[kept], values.mean(2)[kept], rtol=1e-12)
    np.testing.assert_allclose(torch.masked.amax(x, 2, mask=mask).numpy()[kept], values.max(2)[kept], rtol=0)
    np.testing.assert_allclose(
        torch.masked.var(x, 2, True, mask=mask).numpy()[mask.numpy().sum(2) > 1],
        values.var(2, ddof=1)[mask.numpy().sum(2) > 1],
        rtol=1e-12,
    )
    with pytest.raises(ValueError, match="bool"):
        torch.masked.sum(x, 2, mask=mask.int())
