"""Numerical checks of analytical gradients by central differences (use double precision).

Behaves as PyTorch 1.13's ``torch.autograd.gradcheck``/``gradgradcheck``: the same keyword
options, the same checks and the same errors. Nothing passes vacuously: a call where no input
requires grad raises ValueError, and a function whose outputs do not require grad must have a
numerical Jacobian of zero (a detached output of a function that depends on its inputs fails).
Options that need machinery this torch does not have (vmap for ``check_batched_grad``, forward-mode
AD for ``check_forward_ad``) raise NotImplementedError rather than being ignored.
"""

import warnings

import numpy as np

import torch
from torch.autograd.function import Function

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Error raised by gradcheck and gradgradcheck."""


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_tensor(x):
    return isinstance(x, torch.Tensor)


def _is_float(t):
    return t.dtype.is_floating_point


def _differentiable_outputs(out):
    return tuple(o for o in _as_tuple(out) if _is_tensor(o) and o.requires_grad)


def _diff_input_indices(inputs):
    return [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]


def _promoted(a, b):
    """a and b in the wider of their two dtypes (only floating Jacobians meet here)."""
    if a.dtype == b.dtype:
        return a, b
    wide = a.dtype if a.element_size() >= b.element_size() else b.dtype
    return a.to(wide), b.to(wide)


def _allclose(a, b, rtol, atol):
    a, b = _promoted(a, b)
    return torch.allclose(a, b, rtol, atol)


def _check_inputs(inputs, check_sparse_nnz):
    any_requires_grad = False
    for idx, inp in enumerate(inputs):
        if not (_is_tensor(inp) and inp.requires_grad):
            continue
        if inp.dtype != torch.float64:
            warnings.warn(
                f"Input #{idx} requires gradient and is not a double precision floating point or complex. "
                "This check will likely fail if all the inputs are not of double precision floating point or "
                "complex. "
            )
        if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.shape)):
            raise RuntimeError(
                f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs that are "
                "non-overlapping to be able to compute the numerical gradients correctly. You should call "
                ".contiguous on the input before passing it to gradcheck."
            )
        any_requires_grad = True
    if not any_requires_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, "
            "but none of the them have requires_grad=True."
        )


def _outputs_of(func, inputs):
    """func's tensor outputs at inputs, detached copies (they must not change when inputs are
    perturbed again)."""
    return tuple(o.detach().clone() if _is_tensor(o) else o for o in _as_tuple(func(*inputs)))


def _central_difference(func, inputs, perturb, eps, where):
    """(f(x + delta) - f(x - delta)) / (2 eps) per output (flattened); perturb(sign) moves one
    input's memory in place by sign * delta (sign 0 restores it)."""
    perturb(-1)
    minus = _outputs_of(func, inputs)
    perturb(1)
    plus = _outputs_of(func, inputs)
    perturb(0)
    columns = []
    for a, b in zip(minus, plus):
        if not _is_tensor(a):
            columns.append(None)
            continue
        if a.shape != b.shape:
            raise AssertionError(
                f"Expected `func` to return outputs with the same shape when inputs are perturbed {where}by "
                f"{eps}, but got: shapes {a.shape} and {b.shape}."
            )
        if a.dtype != b.dtype:
            raise AssertionError(
                f"Expected `func` to return outputs with the same dtype when inputs are perturbed {where}by "
                f"{eps}, but got: dtypes {a.dtype} and {b.dtype}."
            )
        columns.append(((b - a) / (2 * eps)).reshape(-1) if _is_float(a) else None)
    return columns


def _perturber(values, index, delta):
    """perturb(sign) for _central_difference: values[index] = original + sign * delta, where
    values is a numpy view of an input's memory (any strides), or for an input on a GPU the
    detached input itself."""
    original = values[index].copy() if isinstance(values, np.ndarray) else values[index].clone()

    def perturb(sign):
        values[index] = original + sign * delta if sign else original

    return perturb


def _values(inputs, k):
    """What _perturber writes to, and the inputs to call func with: a numpy view sharing input
    k's memory, whatever its strides; on a GPU, which numpy cannot see, a copy of it that
    stands in for it in the call (perturbing the input itself would bump its version)."""
    inp = inputs[k]
    if not inp.is_cuda:
        return inp.detach().numpy(), inputs
    copy = inp.detach().clone().requires_grad_(inp.requires_grad)
    return copy.detach(), tuple(inputs[:k]) + (copy,) + tuple(inputs[k + 1 :])


def _numerical_jacobians(func, inputs, func_out, eps):
    """jac[input k][output i]: a (input.numel(), output.numel()) tensor in the output's dtype, for
    every input that requires grad and every floating output (None for the others)."""
    func_out = _as_tuple(func_out)
    result = []
    for k in _diff_input_indices(inputs):
        inp = inputs[k]
        values, call_inputs = _values(inputs, k)
        jacs = [
            torch.zeros(inp.numel(), o.numel(), dtype=o.dtype) if _is_tensor(o) and _is_float(o) else None
            for o in func_out
        ]
        for row, idx in enumerate(np.ndindex(*values.shape)):
            perturb = _perturber(values, idx, values.dtype.type(eps) if isinstance(values, np.ndarray) else eps)
            columns = _central_difference(func, call_inputs, perturb, eps, "on index %s " % (idx,))
            for jac, col in zip(jacs, columns):
                if jac is not None and col is not None:
                    jac.select(0, row).copy_(col)
        result.append(jacs)
    return result


def _vjps(output, diff_inputs, grad_output):
    return torch.autograd.grad(output, diff_inputs, grad_output, retain_graph=True, allow_unused=True)


def _stack_rows(rows_per_input, diff_inputs, numel_output):
    """Analytical Jacobians (input.numel(), numel_output) from per-row gradients, with whether
    every gradient had its input's size and dtype."""
    sizes_ok, types_ok = True, True
    jacobians = []
    for inp, rows in zip(diff_inputs, rows_per_input):
        jac = torch.zeros(inp.numel(), numel_output, dtype=inp.dtype)
        for j, g in enumerate(rows):
            if g is None:
                continue
            if g.shape != inp.shape:
                sizes_ok = False
            elif g.dtype != inp.dtype:
                types_ok = False
            if g.numel() != inp.numel():
                continue  # reported as a size mismatch below
            jac.select(1, j).copy_(g.reshape(-1))
        jacobians.append(jac)
    return jacobians, sizes_ok, types_ok


def _analytical_rows(output, diff_inputs, grad_outputs):
    rows = [[] for _ in diff_inputs]
    for go in grad_outputs:
        for k, g in enumerate(_vjps(output, diff_inputs, go)):
            rows[k].append(g.clone() if _is_tensor(g) else None)
    return rows


def _unit_grad_outputs(output):
    for j in range(output.numel()):
        go = torch.zeros(output.numel(), dtype=output.dtype, device=output.device)
        go[j] = 1
        yield go.reshape(output.shape)


_NONDET_NOTE = (
    "\n\nNOTE: If your op relies on non-deterministic operations, this failure might be expected: "
    "call gradcheck/gradgradcheck with `nondet_tol=<tol>` as a keyword argument."
)


def _analytical_jacobians(inputs, output, nondet_tol, check_grad_dtypes, grad_outputs=None):
    """The rows v^T J of one output for each v in grad_outputs (every unit vector by default),
    computed twice to check that backward is deterministic (reentrant)."""
    diff_inputs = [inputs[k] for k in _diff_input_indices(inputs)]
    gos = list(grad_outputs) if grad_outputs is not None else list(_unit_grad_outputs(output))
    jac1, sizes_ok, types_ok = _stack_rows(_analytical_rows(output, diff_inputs, gos), diff_inputs, len(gos))
    jac2, _, _ = _stack_rows(_analytical_rows(output, diff_inputs, gos), diff_inputs, len(gos))
    reentrant = all(a.numel() == 0 or float((a - b).abs().max()) <= nondet_tol for a, b in zip(jac1, jac2))
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times "
            "gives different values, although analytical gradient matches numerical gradient."
            f"The tolerance for nondeterminism was {nondet_tol}." + _NONDET_NOTE
        )
    return jac1


def _mismatch(analytical, numerical, output_idx, input_idx):
    return "Jacobian mismatch for output %d with respect to input %d,\nnumerical:%s\nanalytical:%s\n" % (
        output_idx,
        input_idx,
        numerical,
        analytical,
    )


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    func_out = _as_tuple(func_out)
    numerical = _numerical_jacobians(func, inputs, func_out, eps)
    if not outputs:
        for jacs in numerical:
            for jac in jacs:
                if jac is not None and int(torch.ne(jac, 0).sum()) > 0:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    out_positions = [i for i, o in enumerate(func_out) if _is_tensor(o) and o.requires_grad]
    for i, (pos, o) in enumerate(zip(out_positions, outputs)):
        analytical = _analytical_jacobians(inputs, o, nondet_tol, check_grad_dtypes)
        for j, a in enumerate(analytical):
            n = numerical[j][pos]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_mismatch(a, n, i, j))
    return True


def _unit_vector(numel, dtype, generator):
    v = torch.rand(numel, generator=generator).to(dtype)
    return v / v.norm()


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    """PyTorch's fast mode: compare v^T J u, numerically (one perturbation along u per input) and
    analytically (one backward with v per output), for random unit vectors u and v."""
    func_out = _as_tuple(func_out)
    gen = torch.Generator()
    indices = _diff_input_indices(inputs)
    all_u = [_unit_vector(inputs[k].numel(), inputs[k].dtype, gen) for k in indices]
    all_v = [_unit_vector(o.numel(), o.dtype, gen) for o in outputs]
    out_positions = [i for i, o in enumerate(func_out) if _is_tensor(o) and o.requires_grad]
    numerical = []  # numerical[j][i] = v_i^T J_ij u_j
    for k, u in zip(indices, all_u):
        values, call_inputs = _values(inputs, k)
        delta = (u * eps).reshape(inputs[k].shape)
        delta = delta.numpy().astype(values.dtype) if isinstance(values, np.ndarray) else delta.to(values)
        columns = _central_difference(func, call_inputs, _perturber(values, Ellipsis, delta), eps, "")
        if not outputs:
            if any(c is not None and int(torch.ne(c, 0).sum()) > 0 for c in columns):
                raise GradcheckError("Numerical gradient for function expected to be zero")
        numerical.append([(v * columns[pos].to(v.device, v.dtype)).sum() for pos, v in zip(out_positions, all_v)])
    for i, (o, v) in enumerate(zip(outputs, all_v)):
        vJ = _analytical_jacobians(inputs, o, nondet_tol, check_grad_dtypes, [v.reshape(o.shape).to(o.device)])
        for j, (row, u) in enumerate(zip(vJ, all_u)):
            a = (row.reshape(-1) * u.to(row.dtype)).sum()
            n = numerical[j][i]
            tol = atol * float(all_u[j].sum()) * float(v.sum())
            if not _allclose(a, n, rtol, tol):
                slow_n = _numerical_jacobians(func, inputs, func_out, eps)[j][out_positions[i]]
                slow_a = _analytical_jacobians(inputs, o, float("inf"), False)[j]
                msg = (
                    "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
                    "in fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
                    f"Numerical:\n {slow_n}\nAnalytical:\n{slow_a}\n\n"
                    f"The max per-element difference (slow mode) is: {float((slow_n - slow_a).abs().max())}.\n"
                )
                if _allclose(slow_a, slow_n, rtol, atol):
                    msg += (
                        "Fast gradcheck failed but element-wise differences are small. This means that the\n"
                        "test might've passed in slow_mode! Call gradcheck with `fast_mode=False`."
                    )
                raise GradcheckError(_mismatch(a, n, i, j) + msg)
    return True


def _test_backward_mul_by_grad_output(outputs, inputs, check_sparse_nnz):
    diff_inputs = [inputs[k] for k in _diff_input_indices(inputs)]
    grads = torch.autograd.grad(outputs, diff_inputs, [torch.zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff_inputs):
        if gi is None:
            continue
        zero = torch.allclose(gi, torch.zeros_like(gi)) if check_sparse_nnz else bool(gi.eq(0).all())
        if not zero:
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype or gi.device != di.device:
            raise GradcheckError("grad is incorrect type")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")
    return True


class _UndefinedGrad(Function):
    """Identity forward; its backward hands an undefined (None) gradient upstream, as PyTorch's
    torch._C._functions.UndefinedGrad does."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return None


_UNDEFINED_NOTE = 'Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'


def _test_undefined_backward_mode(func, outputs, inputs):
    diff_inputs = [inputs[k] for k in _diff_input_indices(inputs)]

    def supports(outs):
        try:
            grads = torch.autograd.grad(outs, diff_inputs, [torch.zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError as e:
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. " + _UNDEFINED_NOTE
            ) from e
        for gi in grads:
            if gi is not None and not bool(gi.eq(0).all()):
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are undefined or zero. "
                    + _UNDEFINED_NOTE
                )
        return True

    to_check = [[_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs))]]
    if len(to_check[0]) > 1:  # undefined one at a time too
        for undef in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            to_check.append([_UndefinedGrad.apply(o) if i == undef else o for i, o in enumerate(outs)])
    return all(supports(outs) for outs in to_check)


def _gradcheck_helper(
    func,
    inputs,
    eps,
    atol,
    rtol,
    check_sparse_nnz,
    nondet_tol,
    check_undefined_grad,
    check_grad_dtypes,
    check_batched_grad,
    check_batched_forward_grad,
    check_forward_ad,
    check_backward_ad,
    fast_mode,
):
    if check_forward_ad or check_batched_forward_grad:
        raise NotImplementedError("gradcheck: check_forward_ad needs forward-mode AD, which this torch does not have")
    if check_batched_grad:
        raise NotImplementedError("gradcheck: check_batched_grad needs vmap, which this torch does not have")
    inputs = _as_tuple(inputs)
    _check_inputs(inputs, check_sparse_nnz)
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    if not check_backward_ad:
        return True
    check = _fast_gradcheck if fast_mode else _slow_gradcheck
    check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
    _test_backward_mul_by_grad_output(outputs, inputs, check_sparse_nnz)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, inputs)
    return True


def gradcheck(
    func,
    inputs,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    raise_exception=True,
    check_sparse_nnz=False,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_batched_forward_grad=False,
    check_forward_ad=False,
    check_backward_ad=True,
    fast_mode=False,
):
    """True when the gradients autograd computes for func at inputs match central
    differences (and backward is deterministic, linear in grad_output and handles undefined
    output gradients); otherwise raises GradcheckError (or returns False with
    raise_exception=False). Errors in the call itself (no input requiring grad, overlapping
    inputs) raise whatever raise_exception says."""
    assert check_forward_ad or check_backward_ad, (
        "Expected at least one of check_forward_ad or check_backward_ad to be True"
    )
    assert not (check_batched_grad and not check_backward_ad), (
        "Setting check_batched_grad=True requires check_backward_ad to be True"
    )
    assert not (check_batched_forward_grad and not check_forward_ad), (
        "Setting check_batched_forward_grad=True requires check_forward_ad to be True"
    )
    args = dict(
        func=func,
        inputs=inputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        check_sparse_nnz=check_sparse_nnz,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        check_batched_forward_grad=check_batched_forward_grad,
        check_forward_ad=check_forward_ad,
        check_backward_ad=check_backward_ad,
        fast_mode=fast_mode,
    )
    if raise_exception:
        return _gradcheck_helper(**args)
    try:
        return _gradcheck_helper(**args)
    except GradcheckError:
        return False


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    gen_non_contig_grad_outputs=False,
    raise_exception=True,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_fwd_over_rev=False,
    check_rev_over_rev=True,
    fast_mode=False,
):
    """gradcheck of the gradient function itself (double backward through create_graph),
    at grad_outputs (random in [-1, 1) and requiring grad when not given)."""
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = []
        for o in _differentiable_outputs(func(*inputs)):
            dtype = o.dtype if _is_float(o) else torch.float64
            g = torch.rand(o.shape, dtype=dtype, device=o.device) * 2 - 1
            if gen_non_contig_grad_outputs and g.dim() > 0 and g.numel() > 1:
                # the same values in a non-contiguous layout: every other element of a wider buffer
                wide = torch.zeros(*g.shape[:-1], 2 * g.shape[-1], dtype=dtype, device=o.device)
                g = wide[..., ::2].copy_(g)
            grad_outputs.append(g.requires_grad_())
        grad_outputs = tuple(grad_outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(grad_outputs)
    diff_input_indices = set(_diff_input_indices(inputs))

    def first_derivatives(*args):
        xs, gos = args[: len(args) - num_outputs], args[len(args) - num_outputs :]
        outs = _differentiable_outputs(func(*xs))
        diff_xs = tuple(x for i, x in enumerate(xs) if i in diff_input_indices)
        grads = torch.autograd.grad(outs, diff_xs, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivatives,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        fast_mode=fast_mode,
        check_forward_ad=check_fwd_over_rev,
        check_backward_ad=check_rev_over_rev,
    )
