"""Cases of torch.masked's functions, run the same way by this package and by real PyTorch 1.13
(Debian's python3-torch): values over random inputs and masks (with fully masked slices),
dims, keepdim, dtype, broadcast masks, integer inputs and gradients. test_masked.py compares
the two runs.

Run directly (`python3 masked_cases.py OUT.npz`) it writes every case's results to OUT.npz, with
the `torch` that interpreter imports."""

import numpy as np

import case_runner

CASES, case = case_runner.registry()


def inputs(torch, seed=0):
    rng = np.random.RandomState(seed)
    x = torch.tensor(rng.randn(3, 4, 5))
    mask = torch.tensor(rng.rand(3, 4, 5) > 0.4)
    mask[1, 2] = False  # a fully masked slice along the last dimension
    mask[:, :, 3] = False  # and along the first two
    return x, mask


REDUCTIONS = ["sum", "mean", "amax", "amin", "prod", "logsumexp", "norm", "var", "std"]


@case
def reductions(torch):
    x, mask = inputs(torch)
    out = []
    for name in REDUCTIONS:
        fn = getattr(torch.masked, name)
        out += [fn(x, mask=mask).numpy(), fn(x, dim=2, mask=mask).numpy()]
        out.append(fn(x, dim=(0, 1), keepdim=True, mask=mask).numpy())
    out += [torch.masked.var(x, 2, True, mask=mask).numpy(), torch.masked.norm(x, 1.0, 0, mask=mask).numpy()]
    out += [
        torch.masked.norm(x, float("inf"), 1, mask=mask).numpy(),
        torch.masked.norm(x, float("-inf"), 2, mask=mask).numpy(),
    ]
    return out


@case
def indices_and_medians(torch):
    x, mask = inputs(torch, 1)
    return [
        torch.masked.argmax(x, 2, mask=mask).numpy(),
        torch.masked.argmin(x, 1, keepdim=True, mask=mask).numpy(),
        torch.masked.median(x, 2, mask=mask).numpy(),
        torch.masked.median(x, 0, keepdim=True, mask=mask).numpy(),
    ]


@case
def along_a_dimension(torch):
    x, mask = inputs(torch, 2)
    out = []
    for name in ["cumsum", "cumprod", "softmax", "log_softmax", "softmin"]:
        out += [
            getattr(torch.masked, name)(x, 2, mask=mask).numpy(),
            getattr(torch.masked, name)(x, 0, mask=mask).numpy(),
        ]
    out.append(torch.masked.normalize(x, 2.0, 2, mask=mask).numpy())
    out.append(torch.masked.normalize(x, 1.0, 0, eps=0.5, mask=mask).numpy())
    y = torch.tensor(np.random.RandomState(3).randn(3, 4, 5))
    out.append(torch.masked.logaddexp(x, y, input_mask=mask, other_mask=~mask).numpy())
    return out


@case
def broadcasting_dtypes_and_integers(torch):
    x, _ = inputs(torch, 4)
    row_mask = torch.tensor([True, False, True, True, False])
    ints = torch.tensor([[3, -1, 7], [2, 9, -4]])
    int_mask = torch.tensor([[True, False, False], [False, False, False]])
    return [
        torch.masked.sum(x, 2, mask=row_mask).numpy(),
        torch.masked.mean(x.float(), 1, mask=row_mask).numpy(),
        torch.masked.sum(x.float(), 0, dtype=torch.float64, mask=row_mask).numpy(),
        torch.masked.softmax(x.float(), 2, dtype=torch.float64, mask=row_mask).numpy(),
        torch.masked.amax(ints, 1, mask=int_mask).numpy(),
        torch.masked.amin(ints, 1, mask=int_mask).numpy(),
        torch.masked.sum(ints, 1, mask=int_mask).numpy(),
        torch.masked.sum(x, 1).numpy(),
    ]


@case
def gradients(torch):
    x, mask = inputs(torch, 5)
    out = []
    for name, args in [
        ("sum", (2,)),
        ("mean", (1,)),
        ("amax", (2,)),
        ("softmax", (2,)),
        ("logsumexp", (0,)),
        ("var", (2,)),
    ]:
        leaf = x.clone().requires_grad_()
        result = getattr(torch.masked, name)(leaf, *args, mask=mask)
        weights = torch.tensor(np.random.RandomState(6).randn(*result.shape))
        torch.nansum(result * weights).backward()
        out.append(leaf.grad.numpy())
    return out


if __name__ == "__main__":
    case_runner.main(CASES)
