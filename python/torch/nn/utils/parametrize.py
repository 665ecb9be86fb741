"""Parametrizations (PyTorch 1.13's torch.nn.utils.parametrize): a module's tensor computed
from a stored one by modules, on every access.

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(0, 1)
    register_parametrization(layer, "weight", Symmetric())
    layer.weight              # Symmetric()(layer.parametrizations.weight.original)

The module's class becomes a subclass "Parametrized<Class>" with a property per parametrized
name; the stored tensor is module.parametrizations.<name>.original (that is its state_dict
key). Assigning module.<name> = X stores right_inverse(X) when the parametrizations define it.
Inside `with cached():` each parametrized tensor is computed once.
"""

from contextlib import contextmanager

import torch
from torch.nn.modules.container import ModuleDict, ModuleList
from torch.nn.parameter import Parameter

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized", "remove_parametrizations"]

_cache_state = {"depth": 0}
_cache = {}


@contextmanager
def cached():
    """Parametrized tensors are computed once inside (and the cache emptied on leaving)."""
    _cache_state["depth"] += 1
    try:
        yield
    finally:
        _cache_state["depth"] -= 1
        if not _cache_state["depth"]:
            _cache.clear()


def _register_parameter_or_buffer(module, name, value):
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order to `original`."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        with torch.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    new = module.right_inverse(new)
        if not isinstance(new, torch.Tensor):
            raise ValueError(
                "'right_inverse' must return a Tensor (a sequence of tensors is not supported here), got {}".format(
                    type(new).__name__
                )
            )
        if not unsafe and (new.dtype != original.dtype or new.shape != original.shape):
            raise ValueError(
                "When `right_inverse` outputs one tensor, it may not change the dtype or shape.\n"
                "original.dtype: {}\nright_inverse(original).dtype: {}\n"
                "original.shape: {}\nright_inverse(original).shape: {}".format(
                    original.dtype, new.dtype, original.shape, new.shape
                )
            )
        with torch.no_grad():
            original.set_(new)
        _register_parameter_or_buffer(self, "original", original)

    def right_inverse(self, value):
        """Stores the original that the parametrizations map to value."""
        with torch.no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(
                        "parametrization {} does not implement right_inverse.".format(type(module).__name__)
                    )
                value = module.right_inverse(value)
            if not self.unsafe and (value.dtype != self.original.dtype or value.shape != self.original.shape):
                raise ValueError(
                    "The tensor returned by right_inverse has dtype {} and shape {} but the original has "
                    "dtype {} and shape {}".format(value.dtype, value.shape, self.original.dtype, self.original.shape)
                )
            self.original.set_(value)

    def forward(self):
        x = self[0](self.original)
        for module in list(self)[1:]:
            x = module(x)
        return x


def _inject_new_class(module):
    cls = module.__class__

    def getstate(self):
        raise RuntimeError(
            "Serialization of parametrized modules is only supported through state_dict(). "
            "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
        )

    module.__class__ = type("Parametrized" + cls.__name__, (cls,), {"__getstate__": getstate})


def _inject_property(module, tensor_name):
    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if not _cache_state["depth"]:
            return parametrization()
        key = (id(self), tensor_name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def is_parametrized(module, tensor_name=None):
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """module.<tensor_name> becomes parametrization(original) (after any earlier ones); returns module."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            current = getattr(module, tensor_name)
            new = parametrization(current)
            if not isinstance(new, torch.Tensor):
                raise ValueError("A parametrization must return a tensor. Got {}.".format(type(new).__name__))
            if new.dtype != current.dtype or new.shape != current.shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape or dtype of the tensor, unless the "
                    "`unsafe` flag is enabled.\nunparametrized dtype: {}\nparametrized dtype: {}\n"
                    "unparametrized shape: {}\nparametrized shape: {}".format(
                        current.dtype, new.dtype, current.shape, new.shape
                    )
                )
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        if not unsafe:
            value = parametrizations()
            if value.dtype != original.dtype or value.shape != original.shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape or dtype of the tensor, unless the "
                    "`unsafe` flag is enabled.\nunparametrized dtype: {}\nparametrized dtype: {}\n"
                    "unparametrized shape: {}\nparametrized shape: {}".format(
                        original.dtype, value.dtype, original.shape, value.shape
                    )
                )
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(
            "Module '{}' does not have a parameter, a buffer, or a parametrized element with name '{}'".format(
                module, tensor_name
            )
        )
    return module


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undoes register_parametrization: module.<tensor_name> becomes a plain parameter (or
    buffer) again, holding the parametrized value (leave_parametrized) or the original."""
    if not is_parametrized(module, tensor_name):
        raise ValueError("Module {} does not have a parametrization on {}".format(module, tensor_name))
    parametrizations = module.parametrizations[tensor_name]
    original = parametrizations.original
    if leave_parametrized:
        with torch.no_grad():
            value = getattr(module, tensor_name)
            original.set_(value.detach().clone())
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module
