"""Cases of torch.autograd.forward_ad, run the same way by this package and by real PyTorch
1.13 (Debian's python3-torch): each case makes duals of its inputs with random tangents, runs
one function and returns the output's primal and tangent (and the exception names of misuse).
test_forward_ad.py compares the two runs case by case.

Run directly (`python3 forward_ad_cases.py OUT.npz`) it writes every case's results to OUT.npz,
with the `torch` that interpreter imports."""

import case_runner

from functional_cases import error_name, randn, tensor

CASES, case = case_runner.registry()


def _shape(a):
    return a if isinstance(a, tuple) else (a,)


# name: (function of the inputs, the inputs' shapes); every input is a dual with a random tangent
FUNCTIONS = {
    # pointwise
    "sin_exp": (lambda t, x: t.sin(x) * t.exp(x), [(3, 4)]),
    "log_abs_pow": (lambda t, x: t.log(x.abs() + 1) + x.pow(3) - x.abs().sqrt(), [(3, 4)]),
    "tanh_sigmoid": (lambda t, x: t.tanh(x) + t.sigmoid(x) * x, [(5,)]),
    "div_broadcast": (lambda t, x, y: x / (y * y + 1) + x * y, [(3, 4), (4,)]),
    "where_clamp": (lambda t, x, y: t.where(x > 0, x * y, y).clamp(-0.5, 0.7), [(3, 4), (3, 4)]),
    "atan2_hypot": (lambda t, x, y: t.atan2(x, y + 3) + t.hypot(x, y), [(6,), (6,)]),
    # products
    "matmul": (lambda t, a, b: a @ b, [(3, 4), (4, 2)]),
    "bmm_addmm": (lambda t, a, b, c: t.bmm(a, b).sum(0) + t.addmm(c, a[0], b[0]), [(2, 3, 4), (2, 4, 5), (3, 5)]),
    "matrix_vector": (lambda t, a, v: t.mv(a, v) + t.dot(v, v), [(3, 4), (4,)]),
    # reductions
    "sum_mean": (lambda t, x: x.sum(1) + x.mean(0).sum() + x.sum(), [(3, 4)]),
    "prod_norm": (lambda t, x: x.prod(1) + x.norm() + x.norm(dim=0).sum(), [(3, 4)]),
    "max_logsumexp": (lambda t, x: x.max(1).values + t.logsumexp(x, 1) + x.amax(), [(3, 4)]),
    "var_std": (lambda t, x: x.var(0) + x.std(1).sum(), [(3, 4)]),
    "cumsum": (lambda t, x: t.cumsum(x, 1) * x, [(3, 4)]),
    # views and shapes
    "views": (lambda t, x: x.t().reshape(2, 6)[:, ::2] + x.view(6, 2)[1:4].sum(), [(3, 4)]),
    "index_expand": (lambda t, x: x[[0, 2, 2]] + x[1].expand(3, 4) + x.unsqueeze(0).permute(1, 0, 2)[:, 0], [(3, 4)]),
    "cat_stack": (lambda t, x, y: t.cat([x, y], 0).sum(1) + t.stack([x, y]).mean(0).sum(1).repeat(2), [(3, 4), (3, 4)]),
    "gather_flip": (lambda t, x: x.gather(1, t.tensor([[0, 3], [1, 1], [2, 0]])) * x.flip(1)[:, :2], [(3, 4)]),
    # nn.functional
    "linear": (lambda t, x, w, b: t.nn.functional.linear(x, w, b), [(5, 4), (3, 4), (3,)]),
    "conv2d": (
        lambda t, x, w, b: t.nn.functional.conv2d(x, w, b, padding=1, stride=2),
        [(2, 3, 6, 6), (4, 3, 3, 3), (4,)],
    ),
    "conv1d": (lambda t, x, w: t.nn.functional.conv1d(x, w), [(2, 3, 7), (2, 3, 3)]),
    "activations": (
        lambda t, x: (
            t.relu(x)
            + t.nn.functional.gelu(x)
            + t.nn.functional.softplus(x)
            + t.nn.functional.elu(x)
            + t.nn.functional.leaky_relu(x, 0.1)
            + t.nn.functional.silu(x)
            + t.nn.functional.hardtanh(x)
        ),
        [(4, 5)],
    ),
    "softmax": (lambda t, x: t.softmax(x, 1) + t.log_softmax(x, 0), [(3, 4)]),
    "mse_l1_smooth": (
        lambda t, x, y: (
            t.nn.functional.mse_loss(x, y) + t.nn.functional.l1_loss(x, y) + t.nn.functional.smooth_l1_loss(x, y)
        ),
        [(3, 4), (3, 4)],
    ),
    "cross_entropy": (lambda t, x: t.nn.functional.cross_entropy(x, t.tensor([0, 2, 1])), [(3, 4)]),
    "nll_loss": (lambda t, x: t.nn.functional.nll_loss(t.log_softmax(x, 1), t.tensor([3, 0, 1])), [(3, 4)]),
    "bce_logits": (lambda t, x, y: t.nn.functional.binary_cross_entropy_with_logits(x, t.sigmoid(y)), [(3, 4), (3, 4)]),
    "layer_norm": (lambda t, x, w, b: t.nn.functional.layer_norm(x, (4,), w, b), [(3, 4), (4,), (4,)]),
    "pooling": (
        lambda t, x: t.nn.functional.max_pool2d(x, 2).sum() + t.nn.functional.avg_pool2d(x, 2),
        [(1, 2, 4, 4)],
    ),
}


def _dual_run(torch, fn, arrays, tangents, dtype):
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        duals = [fwAD.make_dual(tensor(torch, a, dtype), tensor(torch, t, dtype)) for a, t in zip(arrays, tangents)]
        out = fn(torch, *duals)
        primal, tangent = fwAD.unpack_dual(out)
        return [primal.detach().numpy(), "none" if tangent is None else tangent.numpy()]


def _function_case(name):
    fn, shapes = FUNCTIONS[name]

    def run(torch):
        out = []
        for k, dtype in enumerate([torch.float32, torch.float64]):
            arrays = [randn(10 * i + k, *_shape(s)) for i, s in enumerate(shapes)]
            tangents = [randn(100 + 10 * i + k, *_shape(s)) for i, s in enumerate(shapes)]
            out += _dual_run(torch, fn, arrays, tangents, dtype)
        return out

    run.__name__ = name
    return run


for _name in FUNCTIONS:
    CASES["jvp_" + _name] = _function_case(_name)


@case
def levels_and_misuse(torch):
    import torch.autograd.forward_ad as fwAD

    out = []
    p = tensor(torch, randn(0, 3), torch.float64)
    t = tensor(torch, randn(1, 3), torch.float64)
    out.append(error_name(lambda: fwAD.make_dual(p, t)))  # no level
    with fwAD.dual_level() as level:
        out.append(str(level))
        d = fwAD.make_dual(p, t)
        unpacked = fwAD.unpack_dual(d)
        out += [type(unpacked).__name__, str(unpacked._fields), unpacked.primal.numpy(), unpacked.tangent.numpy()]
        out.append(str(fwAD.unpack_dual(p).tangent is None))  # no tangent: not a dual
        out.append(str(fwAD.unpack_dual(p * 2).tangent is None))
        # a result of a dual and a plain tensor
        _, tangent = fwAD.unpack_dual(d * p + p)
        out.append(tangent.numpy())
        out.append(error_name(lambda: fwAD.make_dual(p, tensor(torch, randn(2, 4), torch.float64))))
        out.append(error_name(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2]))))
        out.append(error_name(lambda: fwAD.enter_dual_level()))  # nested
    out.append(str(fwAD.unpack_dual(d).tangent is None))  # the level is gone
    out.append(error_name(lambda: fwAD.exit_dual_level()))
    level = fwAD.enter_dual_level()
    d = fwAD.make_dual(p, t)
    out.append(fwAD.unpack_dual(d.exp()).tangent.numpy())
    fwAD.exit_dual_level(level=level)
    return out


if __name__ == "__main__":
    case_runner.main(CASES)
