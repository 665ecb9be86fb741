"""torch.autograd.functional: derivatives of a whole function, as in PyTorch 1.13.

    def f(x, y):
        return (x * y).sum()
    jacobian(f, (x, y))         # (df/dx, df/dy)
    hessian(f, (x, y))          # ((d2f/dxdx, d2f/dxdy), (d2f/dydx, d2f/dydy))
    vjp(f, x, v) / jvp(f, x, v) / vhp(f, x, v) / hvp(f, x, v)  # (f(x), product)

Everything runs on the reverse-mode engine: jvp and hvp use the double-backward trick (the
gradient of a vjp with respect to its vector is the jvp), so `vectorize=True` and
`strategy="forward-mode"` give the same values as the defaults, computed row by row.
Inputs are detached copies unless create_graph is True; a result that does not depend on an
input is zeros, or an error in strict mode (PyTorch's messages).
"""

import torch

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(value, arg_name, fn_name):
    """(was_tuple, tuple of tensors), refusing anything but a tensor or a tuple of them."""
    was_tuple = isinstance(value, tuple)
    items = value if was_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, torch.Tensor):
            where = "value at index {}".format(i) if was_tuple else "given {}".format(arg_name)
            raise TypeError(
                "The {} given to {} must be either a Tensor or a tuple of Tensors but the {} has type {}.".format(
                    arg_name, fn_name, where, type(item)
                )
            )
    return was_tuple, items


def _unpack(result, was_tuple):
    """Undoes _as_tuple: one level (a flag) or two (a pair of flags, outer then inner)."""
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            result = tuple(row[0] for row in result)
        return result if outer else result[0]
    return result if was_tuple else result[0]


def _prepare(inputs, create_graph, need_graph):
    """Inputs the function is run on: graph-connected views of them when create_graph is set
    (so that the results can be differentiated further), detached leaves otherwise."""
    return tuple(
        x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(need_graph) for x in inputs
    )


def _finish(results, create_graph):
    if results and isinstance(results[0], tuple):
        return tuple(_finish(r, create_graph) for r in results)
    return tuple(results) if create_graph else tuple(r.detach() for r in results)


def _check_v(v, other, other_is_tuple):
    if len(v) != len(other):
        if other_is_tuple:
            raise RuntimeError("v is a tuple of invalid length: should be {} but got {}.".format(len(other), len(v)))
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, other)):
        if a.size() != b.size():
            prefix = "Entry {} in ".format(i) if other_is_tuple else ""
            raise RuntimeError("{}v has invalid size: should be {} but got {}.".format(prefix, b.size(), a.size()))


_NOT_REQUIRING_GRAD = {
    "outputs": "Output {} of the user-provided function does not require gradients. The outputs must be computed "
    "in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {} is independent of the inputs of the user-provided "
    "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect "
    "to input {} is independent of the input. This is not allowed in strict mode. You should ensure that your "
    "function is twice differentiable and that the jacobian depends on the inputs (this would be violated by a "
    "linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {} is independent of the input. "
    "This is not allowed in strict mode. You should ensure that your function is thrice differentiable and that "
    "the hessian depends on the inputs.",
}


def _check_requires_grad(tensors, kind, strict):
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(
                "The output of the user-provided function is independent of input {}. "
                "This is not allowed in strict mode.".format(i)
            )
        if not t.requires_grad:
            raise RuntimeError(_NOT_REQUIRING_GRAD[kind].format(i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """torch.autograd.grad over the outputs that record a graph; None for every input when none does."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return torch.autograd.grad(
        tuple(o for o, _ in kept),
        inputs,
        tuple(g for _, g in kept),
        allow_unused=True,
        create_graph=create_graph,
        retain_graph=retain_graph,
    )


_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {}. This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {} in the grad_outputs when using "
    "the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {}. This is not allowed in "
    "strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {} in the grad_jacobian. "
    "This is not allowed in strict mode as it prevents from using the double backward trick to replace forward mode "
    "AD.",
}


def _zeros_for_none(grads, refs, strict, create_graph, stage):
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i))
            g = torch.zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                "The {} of the user-provided function is independent of input {}. "
                "This is not allowed in strict mode when create_graph=True.".format(what, i)
            )
        out.append(g)
    return tuple(out)


def _vector(v, reference, reference_is_tuple, create_graph, fn_name, none_message):
    if v is None:
        if len(reference) != 1 or reference[0].nelement() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _prepare(v, create_graph, need_graph=False)
    _check_v(v, reference, reference_is_tuple)
    return v


_V_NONE_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single Tensor with a single element."
)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product, v shaped like the outputs."""
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _vector(
            v,
            outputs,
            outputs_tuple,
            create_graph,
            "vjp",
            "The vector v can only be None if the user-provided function returns a single Tensor with a single element.",
        )
    with torch.set_grad_enabled(create_graph or torch.is_grad_enabled()):
        result = _zeros_for_none(_grad(outputs, inputs, v, create_graph), inputs, strict, create_graph, "back")
    return _unpack(_finish(outputs, create_graph), outputs_tuple), _unpack(_finish(result, create_graph), inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, v shaped like the inputs."""
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _vector(v, inputs, inputs_tuple, create_graph, "jvp", _V_NONE_INPUT)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # u -> J^T u is linear in u; its gradient with respect to u, applied to v, is J v.
        dummies = tuple(torch.zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    if create_graph:
        # the double-backward trick records a differentiable J v, but the NN kernels' backwards
        # record no graph of their own: their part of J v is missing (Note [Forward mode from
        # reverse-mode rows] in forward_ad.py)
        with torch.set_grad_enabled(True):
            back_trick = _grad(grad_inputs, dummies, v, create_graph)
    else:
        back_trick = torch.autograd.forward_ad._jvp_rows(outputs, inputs, v)
    result = _zeros_for_none(back_trick, outputs, strict, create_graph, "back_trick")
    return _unpack(_finish(outputs, create_graph), outputs_tuple), _unpack(_finish(result, create_graph), outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """d outputs / d inputs: for one output and one input a tensor of shape
    output.shape + input.shape; a tuple per input and/or per output otherwise."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and `strategy=\"forward-mode\"` are not "
            'supported together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strict and (vectorize or strategy == "forward-mode"):
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported together. "
            "Please either set `strict=False` or `vectorize=False`."
        )
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        rows = []
        for i, out in enumerate(outputs):
            per_input = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.nelement()):
                grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (g, x) in enumerate(zip(grads, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(
                                "Output {} of the user-provided function is independent of input {}. "
                                "This is not allowed in strict mode.".format(i, k)
                            )
                        g = torch.zeros_like(x)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError(
                            "The jacobian of the user-provided function is independent of input {}. "
                            "This is not allowed in strict mode when create_graph=True.".format(i)
                        )
                    per_input[k].append(g)
            rows.append(
                tuple(
                    (torch.stack(gs, dim=0) if gs else x.new_zeros((0,) + tuple(x.shape))).view(out.size() + x.size())
                    for gs, x in zip(per_input, inputs)
                )
            )
        return _unpack(_finish(tuple(rows), create_graph), (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The second derivatives of a function with one scalar output: for one input a tensor of
    shape input.shape + input.shape, a tuple of tuples (one per pair of inputs) otherwise."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_output(*xs):
        out = func(*xs)
        out_tuple, as_tuple = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(as_tuple, "outputs", strict)
        if out_tuple or not isinstance(out, torch.Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def gradient(*xs):
        g = jacobian(scalar_output, xs, create_graph=True)
        _check_requires_grad(g, "jacobian", strict)
        return g

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize)
    return _unpack(result, (inputs_tuple, inputs_tuple))


def _single_scalar(outputs, outputs_tuple, fn_name):
    if outputs_tuple or not isinstance(outputs[0], torch.Tensor):
        raise RuntimeError("The function given to {} should return a single Tensor".format(fn_name))
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            "The Tensor returned by the function given to {} should contain a single element".format(fn_name)
        )


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function with one scalar output."""
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _vector(v, inputs, inputs_tuple, create_graph, "vhp", _V_NONE_INPUT)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vhp")
        _check_requires_grad(outputs, "outputs", strict)
        _single_scalar(outputs, outputs_tuple, "vhp")
        first = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(first, "jacobian", strict)
    with torch.set_grad_enabled(create_graph or torch.is_grad_enabled()):
        result = _zeros_for_none(_grad(first, inputs, v, create_graph), inputs, strict, create_graph, "double_back")
    return _unpack(_finish(outputs, create_graph), outputs_tuple), _unpack(_finish(result, create_graph), inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function with one scalar output (the double-backward trick)."""
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _vector(v, inputs, inputs_tuple, create_graph, "hvp", _V_NONE_INPUT)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "hvp")
        _check_requires_grad(outputs, "outputs", strict)
        _single_scalar(outputs, outputs_tuple, "hvp")
        first = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(first, "jacobian", strict)
        dummies = tuple(torch.zeros_like(x, requires_grad=True) for x in inputs)
        second = _grad(first, inputs, dummies, create_graph=True)
        _check_requires_grad(first, "hessian", strict)
    with torch.set_grad_enabled(create_graph or torch.is_grad_enabled()):
        result = _zeros_for_none(
            _grad(second, dummies, v, create_graph), inputs, strict, create_graph, "double_back_trick"
        )
    return _unpack(_finish(outputs, create_graph), outputs_tuple), _unpack(_finish(result, create_graph), inputs_tuple)
