"""Activation checkpointing: checkpoint(function, *args) runs function without recording a
graph, keeps only its inputs, and runs it again (recording) during backward to get the
gradients: memory for compute. With preserve_rng_state (the default) the recomputation draws
the same random numbers as the first run (dropout masks agree).

    out = checkpoint(block, x)          # block(x), its activations not kept
    out = checkpoint_sequential(model, 2, x)
"""

import functools
import warnings

import torch

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointFunction", "check_backward_validity", "detach_variable"]


def detach_variable(inputs):
    """The tensors of the tuple inputs detached, with their requires_grad kept; others as they are."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: ", type(inputs).__name__)
    out = []
    for x in inputs:
        if isinstance(x, torch.Tensor):
            d = x.detach()
            d.requires_grad = x.requires_grad
            x = d
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs):
    if not any(x.requires_grad for x in inputs if isinstance(x, torch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")


class CheckpointFunction(torch.autograd.Function):
    """forward: run_function(*args) without a graph; backward: run it again with one and
    backpropagate through that."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = torch.get_rng_state()
        ctx.inputs = [None if torch.is_tensor(a) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if torch.is_tensor(a)]
        ctx.save_for_backward(*[a for a in args if torch.is_tensor(a)])
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with torch.random.fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                torch.set_rng_state(ctx.fwd_cpu_state)
            detached = detach_variable(tuple(inputs))
            with torch.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if torch.is_tensor(o) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        torch.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(x.grad if isinstance(x, torch.Tensor) else None for x in detached)


def checkpoint(function, *args, use_reentrant=True, **kwargs):
    """function(*args, **kwargs) with its activations recomputed in backward. Keyword arguments
    for function need use_reentrant=False, as in PyTorch; both forms recompute the same way
    here (by a nested backward in the checkpoint's node)."""
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if kwargs:
        function = functools.partial(function, **kwargs)
    return CheckpointFunction.apply(function, preserve, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=True, **kwargs):
    """A sequential model (or list of functions) in `segments` checkpointed pieces; the last
    piece runs normally."""
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
