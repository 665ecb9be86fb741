"""Numerical checks of analytical gradients by central differences (use double precision)."""

import torch


def _differentiable_inputs(inputs):
    return [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]


def _flat_outputs(func, inputs):
    out = func(*inputs)
    return (out,) if isinstance(out, torch.Tensor) else tuple(o for o in out if isinstance(o, torch.Tensor))


def _numerical_jacobian(func, inputs, wrt, output_index, eps):
    """d output / d wrt as a (wrt.numel(), output.numel()) tensor, perturbing wrt in place."""
    out = _flat_outputs(func, inputs)[output_index]
    jac = torch.zeros(wrt.numel(), out.numel(), dtype=torch.float64)
    values = wrt.detach().numpy()  # shares wrt's memory, whatever its strides
    rows = []
    # Grad mode stays on: func may itself compute gradients (gradgradcheck).
    for idx in _indices(wrt.shape):
        original = values[idx].item()
        values[idx] = original + eps
        plus = _flat_outputs(func, inputs)[output_index].detach().double().reshape(-1).numpy().copy()
        values[idx] = original - eps
        minus = _flat_outputs(func, inputs)[output_index].detach().double().reshape(-1).numpy().copy()
        values[idx] = original
        rows.append((plus - minus) / (2 * eps))
    for i, row in enumerate(rows):
        jac.select(0, i).copy_(torch.from_numpy(row))
    return jac


def _indices(shape):
    """Every index tuple of shape, in row-major order."""
    n = 1
    for s in shape:
        n *= s
    for i in range(n):
        idx = []
        for s in reversed(shape):
            idx.append(i % s)
            i //= s
        yield tuple(reversed(idx))


def _analytical_jacobian(func, inputs, wrt, output_index):
    out = _flat_outputs(func, inputs)[output_index]
    jac = torch.zeros(wrt.numel(), out.numel(), dtype=torch.float64)
    for j in range(out.numel()):
        seed = torch.zeros(out.numel(), dtype=out.dtype)
        seed.narrow(0, j, 1).fill_(1)
        (g,) = torch.autograd.grad(out, wrt, seed.reshape(out.shape), retain_graph=True, allow_unused=True)
        if g is not None:
            jac.select(1, j).copy_(g.double().reshape(-1))
    return jac


def gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **unused):
    """True when the gradients autograd computes for func at inputs match central
    differences; otherwise raises (or returns False with raise_exception=False)."""
    inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    outputs = _flat_outputs(func, inputs)
    for k, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for n, x in enumerate(_differentiable_inputs(inputs)):
            numerical = _numerical_jacobian(func, inputs, x, k, eps)
            analytical = _analytical_jacobian(func, inputs, x, k)
            if not torch.allclose(analytical, numerical, rtol, atol):
                if raise_exception:
                    raise RuntimeError(
                        "Jacobian mismatch for output %d with respect to input %d,\nnumerical:%s\n"
                        "analytical:%s\n" % (k, n, numerical, analytical)
                    )
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **unused):
    """gradcheck of the gradient function itself (double backward through create_graph)."""
    inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    outputs = _flat_outputs(func, inputs)
    if grad_outputs is None:
        gen = torch.Generator().manual_seed(0)
        grad_outputs = tuple(torch.randn(o.shape, dtype=o.dtype, generator=gen).requires_grad_() for o in outputs)

    def first_derivatives(*args):
        xs, gos = args[: len(inputs)], args[len(inputs) :]
        outs = _flat_outputs(func, xs)
        grads = torch.autograd.grad(outs, _differentiable_inputs(xs), gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, tuple(inputs) + tuple(grad_outputs), eps, atol, rtol, raise_exception)
