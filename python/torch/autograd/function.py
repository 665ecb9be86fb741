"""Custom differentiable operations written in Python:

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad

y = Square.apply(x)
"""

import torch
from torch import _C
from torch.autograd import anomaly_mode


class FunctionCtx:
    """What forward leaves for backward: saved tensors (checked for in-place changes when
    read), dirty and non-differentiable outputs, needs_input_grad."""

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError(
                    "save_for_backward can only save tensors, but argument %d is of type %s"
                    % (tensors.index(t), type(t).__name__)
                )
        # kept as the core keeps an op's: version-checked, and packed by saved_tensors_hooks
        self._saved = tuple(None if t is None else _C._SavedTensor(t) for t in tensors)

    @property
    def saved_tensors(self):
        owner = getattr(self, "_owner", "a custom Function")
        return tuple(None if s is None else s.unpack(owner) for s in getattr(self, "_saved", ()))

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        self._materialize_grads = value


class Function:
    """Subclass with static forward(ctx, *args) and backward(ctx, *grad_outputs); call apply."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom autograd.Function.")

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx()
        ctx._owner = cls.__name__ + "Backward"
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        with torch.no_grad():
            outputs = cls.forward(ctx, *args)
        single = not isinstance(outputs, tuple)
        output_tuple = (outputs,) if single else outputs
        inputs = [a if isinstance(a, torch.Tensor) else None for a in args]
        retain = {"done": False}

        def backward(*grads):
            if retain["done"]:
                raise RuntimeError("Trying to backward through the graph a second time; specify retain_graph=True")
            result = cls.backward(ctx, *grads)
            return result if isinstance(result, tuple) else (result,)

        stack = anomaly_mode._forward_stack()
        results = _C._record_function(
            anomaly_mode._checked_backward(cls.__name__ + "Backward", stack, backward),
            cls.__name__,
            inputs,
            output_tuple,
            getattr(ctx, "_dirty", ()),
            getattr(ctx, "_non_differentiable", ()),
        )
        return results[0] if single else tuple(results)


def _flatten(nested, keep_none=False):
    """The tensors of nested tuples and lists (and Nones where keep_none), in order."""
    if isinstance(nested, torch.Tensor) or (keep_none and nested is None):
        return [nested]
    if isinstance(nested, (list, tuple)):
        return [t for item in nested for t in _flatten(item, keep_none)]
    return []


def _unflatten(flat, structure):
    """structure with its tensors replaced, in order, by the items of flat (an iterator)."""
    if isinstance(structure, torch.Tensor):
        return next(flat)
    if isinstance(structure, (list, tuple)):
        return type(structure)(_unflatten(flat, item) for item in structure)
    return structure


class NestedIOFunction(Function):
    """The legacy Function of nested inputs and outputs: an instance is called on tuples and
    lists of tensors, and its forward_extended(*inputs) and backward_extended(*grad_outputs)
    see them nested as given, with self.save_for_backward/saved_tensors nested too. (1.13
    keeps the class, but its instances fail when called; here they run.)"""

    def __call__(self, *inputs):
        owner = self
        flat_inputs = _flatten(inputs)

        class _Nested(Function):
            @staticmethod
            def forward(ctx, *flat):
                owner.needs_input_grad = ctx.needs_input_grad
                result = owner.forward_extended(*_unflatten(iter(flat), inputs))
                owner._nested_output = result
                ctx.mark_dirty(*getattr(owner, "dirty_tensors", ()))
                ctx.mark_non_differentiable(*getattr(owner, "non_differentiable", ()))
                return tuple(_flatten(result))

            @staticmethod
            def backward(ctx, *grads):
                result = owner.backward_extended(*_unflatten(iter(grads), owner._nested_output))
                return tuple(_flatten(result if isinstance(result, tuple) else (result,), keep_none=True))

        _Nested.__name__ = type(self).__name__
        outputs = _Nested.apply(*flat_inputs)
        return _unflatten(iter(outputs if isinstance(outputs, tuple) else (outputs,)), self._nested_output)

    def save_for_backward(self, *args):
        self._to_save_nested = args
        self.to_save = tuple(_flatten(args))

    @property
    def saved_tensors(self):
        return _unflatten(iter(self.to_save), self._to_save_nested)

    def mark_dirty(self, *args, **kwargs):
        self.dirty_tensors = tuple(_flatten((args, tuple(kwargs.values()))))

    def mark_non_differentiable(self, *args, **kwargs):
        self.non_differentiable = tuple(_flatten((args, tuple(kwargs.values()))))

    def forward_extended(self, *input):
        raise NotImplementedError

    def backward_extended(self, *grad_output):
        raise NotImplementedError
