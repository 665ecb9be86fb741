"""Cases of the torch functions added for issue 21's remaining names (segment_reduce,
batch_norm_update_stats, get_device, as_strided_, feature_(alpha_)dropout_, and the ones 1.13
has only for other backends), run the same way by this package and by real PyTorch 1.13
(Debian's python3-torch); test_native_extra.py compares the two runs.

Run directly (`python3 native_extra_cases.py OUT.npz`) it writes every case's results to OUT.npz."""

import numpy as np

import case_runner

from functional_cases import error_name, randn, tensor, with_grad

CASES, case = case_runner.registry()


@case
def segment_reduce(torch):
    out = []
    data = np.array([1.0, 3.0, 3.0, 2.0, 0.0, 5.0, 5.0, -1.0])
    lengths = torch.tensor([3, 2, 0, 3])
    for dt in [torch.float32, torch.float64]:
        for reduce in ["sum", "mean", "max", "min", "prod"]:
            out += with_grad(torch, lambda d: torch.segment_reduce(d, reduce, lengths=lengths), [data], dt)
            out += with_grad(torch, lambda d: torch.segment_reduce(d, reduce, lengths=lengths, initial=2.0), [data], dt)
            offsets = torch.tensor([0, 3, 5, 5, 8])
            out.append(torch.segment_reduce(tensor(torch, data, dt), reduce, offsets=offsets).numpy())
    grid = randn(1, 2, 6, 3)
    out += with_grad(
        torch,
        lambda d: torch.segment_reduce(d, "sum", lengths=torch.tensor([[2, 4], [3, 3]]), axis=1),
        [grid],
        torch.float64,
    )
    out += with_grad(
        torch, lambda d: torch.segment_reduce(d, "max", lengths=torch.tensor([1, 5]), axis=0), [grid[0]], torch.float64
    )
    short = torch.segment_reduce(tensor(torch, data, torch.float64), "sum", lengths=torch.tensor([3, 2]), unsafe=True)
    out.append(short.numpy())
    d = tensor(torch, data, torch.float64)
    out += [
        error_name(lambda: torch.segment_reduce(d, "sum", lengths=torch.tensor([3, 2]))),
        error_name(lambda: torch.segment_reduce(d, "sum", lengths=torch.tensor([3, -1, 6]))),
        error_name(lambda: torch.segment_reduce(d, "sum", indices=torch.tensor([0, 1]))),
        error_name(lambda: torch.segment_reduce(d, "sum")),
        error_name(lambda: torch.segment_reduce(d, "median", lengths=torch.tensor([8]))),
        error_name(lambda: torch.segment_reduce(torch.arange(4), "sum", lengths=torch.tensor([4]))),
    ]
    return out


@case
def batch_norm_update_stats(torch):
    out = []
    for dt in [torch.float32, torch.float64]:
        x = tensor(torch, randn(2, 4, 3, 5), dt)
        rm, rv = tensor(torch, randn(3, 3), dt), tensor(torch, np.abs(randn(4, 3)), dt)
        mean, var = torch.batch_norm_update_stats(x, rm, rv, 0.2)
        out += [mean.numpy(), var.numpy(), rm.numpy(), rv.numpy()]
        mean, var = torch.batch_norm_update_stats(tensor(torch, randn(5, 4, 3), dt), None, None, 0.1)
        out += [mean.numpy(), var.numpy()]
    return out


@case
def small_functions(torch):
    out = [str(torch.get_device(torch.zeros(2)))]
    y = torch.arange(8.0)
    r = torch.as_strided_(y, (2, 3), (3, 1), 1)
    out += [r.numpy().copy(), y.numpy().copy(), str(r is y), np.array(y.stride())]
    z = torch.arange(8.0).reshape(2, 4)
    out.append(z.as_strided_((3,), (2,), 0).numpy().copy())
    ones = torch.ones(2, 3, 4)
    out += [
        torch.feature_dropout_(ones, 0.5, False).numpy().copy(),
        str(torch.feature_dropout_(ones, 0.5, False) is ones),
    ]
    out.append(torch.feature_dropout_(torch.ones(2, 3, 4), 1.0, True).numpy())
    out.append(torch.feature_alpha_dropout_(torch.ones(2, 3, 4), 0.3, False).numpy())
    out.append(torch.feature_alpha_dropout_(torch.ones(2, 3), 1.0, True).numpy())
    x = torch.ones(3, 2)
    out += [
        error_name(lambda: torch.align_tensors(x, x)),
        error_name(lambda: torch.native_norm(x)),
        error_name(lambda: torch.batch_norm_stats(x, 1e-5)),
        error_name(lambda: torch.batch_norm_elemt(x, None, None, torch.zeros(2), torch.ones(2), 1e-5)),
        error_name(
            lambda: torch.batch_norm_backward_reduce(x, x, torch.zeros(2), torch.ones(2), None, True, True, True)
        ),
    ]
    return out


@case
def special_values_through_relu_and_hardshrink(torch):
    """NaN passes relu and hardshrink, relu keeps -0.0, and a unit the activation cuts gets an
    exact 0 gradient whatever arrives from above (inf and NaN included)."""
    out = []
    values = np.array([-0.0, 0.0, -1.0, 2.0, 0.3, -0.4, np.nan, np.inf, -np.inf])
    above = np.array([1.0, np.inf, np.nan, 3.0, -np.inf, 2.0, 5.0, 1.0, np.nan])
    relus = [torch.relu, torch.nn.functional.relu, lambda v: v.clone().relu_()]
    shrinks = [lambda v: torch.nn.functional.hardshrink(v, 0.5), lambda v: torch.nn.functional.hardshrink(v, 0.0)]
    for dt in [torch.float32, torch.float64]:
        for fn in relus + shrinks:
            x = tensor(torch, values, dt).requires_grad_()
            y = fn(x)
            y.backward(tensor(torch, above, dt))
            grad = x.grad.numpy()
            if fn in shrinks:  # 1.13's hardshrink gradient at a NaN input: 5 in float, 0 in double
                grad = np.where(np.isnan(values), 0, grad)
            out += [y.detach().numpy(), np.signbit(y.detach().numpy()), grad]
    return out


@case
def special_values_through_threshold(torch):
    """F.threshold replaces x <= threshold by value: NaN passes (with its gradient), -0.0
    at threshold 0 is replaced, and so is the threshold itself; in place too, and nn.Threshold."""
    F = torch.nn.functional
    out = []
    values = np.array([-0.0, 0.0, -1.0, 2.0, 0.5, 0.3, -0.4, np.nan, np.inf, -np.inf])
    above = np.array([1.0, np.inf, np.nan, 3.0, -np.inf, 2.0, 5.0, 7.0, 1.0, np.nan])
    fns = [
        lambda v: F.threshold(v, 0.5, -2.0),
        lambda v: F.threshold(v, 0.0, 9.0),
        lambda v: F.threshold(v.clone(), -0.5, 0.25, inplace=True),
        lambda v: torch.nn.Threshold(0.3, -1.0)(v),
    ]
    for dt in [torch.float32, torch.float64]:
        for fn in fns:
            x = tensor(torch, values, dt).requires_grad_()
            y = fn(x)
            y.backward(tensor(torch, above, dt))
            out += [y.detach().numpy(), np.signbit(y.detach().numpy()), x.grad.numpy()]
        out.append(F.threshold_(tensor(torch, values, dt), 0.3, 4.0).numpy())
    return out


@case
def smooth_activations_over_many_blocks(torch):
    """The activations computed in vector blocks (Note [Activations in vector blocks]): values
    and gradients over 1000 elements (several blocks and a partial one) spanning the ranges
    where their formulas change, with the special values at the ends."""
    F = torch.nn.functional
    out = []
    values = np.concatenate([np.linspace(-30, 30, 990), [0.0, -0.0, 1e-30, -1e-30, 88.0, -88.0, 100.0, -100.0]])
    values = np.concatenate([values, [np.inf, -np.inf]])
    fns = [F.silu, F.selu, F.mish, F.gelu, lambda v: F.gelu(v, approximate="tanh"), F.celu, lambda v: F.celu(v, 0.5)]
    fns += [F.elu, lambda v: F.elu(v, 0.3), F.leaky_relu, F.softshrink, F.hardtanh]
    # softplus and logsigmoid in THNN's blocks; beta 2 and threshold 1 put inputs where beta x
    # is under the threshold and beta softplus(x) over it (PyTorch tests the input)
    fns += [F.softplus, lambda v: F.softplus(v, 2, 1), lambda v: F.softplus(v, 0.5, 3), F.logsigmoid]
    for dt in [torch.float32, torch.float64]:
        for fn in fns:
            finite = np.isfinite(values)
            out += with_grad(torch, fn, [values[finite]], dt)
            out.append(fn(tensor(torch, values, dt)).numpy())
    return out


if __name__ == "__main__":
    case_runner.main(CASES)
