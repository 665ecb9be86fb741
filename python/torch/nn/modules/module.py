"""nn.Module: the base class of every layer and model.

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)                        # a submodule
            self.scale = nn.Parameter(torch.ones(2))         # a parameter
            self.register_buffer("calls", torch.zeros(()))   # state that is not trained

        def forward(self, x):
            return self.fc(x) * self.scale

Attribute assignment registers parameters, buffers and submodules in three ordered
dictionaries; everything else (parameters(), state_dict(), to(), hooks, repr) walks them.
"""

import functools
import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import torch
from torch.nn.parameter import Parameter, UninitializedBuffer
from torch.utils.hooks import RemovableHandle

__all__ = [
    "Module",
    "RemovableHandle",
    "register_module_forward_pre_hook",
    "register_module_forward_hook",
    "register_module_backward_hook",
    "register_module_full_backward_hook",
]

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


def _typename(obj):
    """torch.typename: 'torch.FloatTensor' for a tensor, 'module.Class' for other objects."""
    if isinstance(obj, torch.Tensor):
        return obj.type()
    module = getattr(obj, "__module__", None)
    prefix = module + "." if module not in (None, "builtins") else ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    return prefix + name


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


# Hooks that run for every module (register_module_*_hook).
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None


def _register(hooks, hook):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def register_module_forward_pre_hook(hook):
    """hook(module, input) runs before every module's forward."""
    return _register(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook):
    """hook(module, input, output) runs after every module's forward."""
    return _register(_global_forward_hooks, hook)


def register_module_backward_hook(hook):
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is True:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module hook. "
            "Please use only one of them."
        )
    _global_is_full_backward_hook = False
    return _register(_global_backward_hooks, hook)


def register_module_full_backward_hook(hook):
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is False:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module hook. "
            "Please use only one of them."
        )
    _global_is_full_backward_hook = True
    return _register(_global_backward_hooks, hook)


class _HookIdentity(torch.autograd.Function):
    """The identity on tensors that require grad, whose backward hands the gradients to a
    callback (which may replace them): how full backward hooks see a module's grad_input
    and grad_output."""

    @staticmethod
    def forward(ctx, callback, *tensors):
        ctx.callback = callback
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.callback(grads))


def _wrap_tensors(values, callback):
    """values with its tensors that require grad passed through _HookIdentity; returns the
    new values and the positions of those tensors."""
    positions = [i for i, v in enumerate(values) if isinstance(v, torch.Tensor) and v.requires_grad]
    if not positions:
        return values, positions
    wrapped = _HookIdentity.apply(callback, *[values[i] for i in positions])
    values = list(values)
    for i, t in zip(positions, wrapped):
        values[i] = t
    return tuple(values), positions


class _BackwardHook:
    """The full backward hooks of one module call: the gradients with respect to the
    module's outputs are kept when they pass the outputs, and the hooks run when the
    gradients with respect to the inputs are known. Inputs that do not require grad get
    None as their grad_input."""

    def __init__(self, module, hooks):
        self.module = module
        self.hooks = hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_positions = []
        self.output_positions = []
        self.n_outputs = 0

    def setup_input_hook(self, args):
        self.n_inputs = len(args)
        if not torch.is_grad_enabled():
            return args
        args, self.input_positions = _wrap_tensors(args, self._input_grads)
        return args

    def setup_output_hook(self, result):
        single = isinstance(result, torch.Tensor)
        outputs = (result,) if single else result
        if not isinstance(outputs, tuple) or not torch.is_grad_enabled():
            return result
        self.n_outputs = len(outputs)
        outputs, self.output_positions = _wrap_tensors(outputs, self._output_grads)
        return outputs[0] if single else outputs

    def _output_grads(self, grads):
        grad_outputs = [None] * self.n_outputs
        for i, g in zip(self.output_positions, grads):
            grad_outputs[i] = g
        self.grad_outputs = tuple(grad_outputs)
        if not self.input_positions:
            # no input needs a gradient: the hooks run now, with None for every input
            grad_input = (None,) * self.n_inputs
            for hook in self.hooks:
                result = hook(self.module, grad_input, self.grad_outputs)
                if result is not None and not all(g is None for g in result):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should always "
                        "return None or None for all gradients."
                    )
        return grads

    def _input_grads(self, grads):
        grad_input = [None] * self.n_inputs
        for i, g in zip(self.input_positions, grads):
            grad_input[i] = g
        grad_input = tuple(grad_input)
        for hook in self.hooks:
            result = hook(self.module, grad_input, self.grad_outputs)
            if result is None:
                continue
            if len(result) != len(grad_input):
                raise RuntimeError(
                    "Backward hook returned an invalid number of grad_input, got {}, but expected {}".format(
                        len(result), len(grad_input)
                    )
                )
            grad_input = tuple(result)
        return tuple(grad_input[i] for i in self.input_positions)


def _parse_to(*args, **kwargs):
    """The (device, dtype, non_blocking) of to(device, dtype), to(dtype), to(tensor)."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError("to() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    rest = list(args)
    if rest and isinstance(rest[0], torch.Tensor):
        other = rest.pop(0)
        device, dtype = other.device, other.dtype
    elif rest and isinstance(rest[0], (str, torch.device)):
        device = torch.device(rest.pop(0))
    elif rest and isinstance(rest[0], int) and not isinstance(rest[0], bool):
        device = torch.device("cuda:%d" % rest.pop(0))
    if rest and isinstance(rest[0], torch.dtype):
        dtype = rest.pop(0)
    if rest and isinstance(rest[0], bool):
        non_blocking = rest.pop(0)
    if rest:
        raise TypeError("to() received an invalid combination of arguments: %s" % (args,))
    if device is not None:
        device = torch.device(device)
    return device, dtype, non_blocking


def _forward_unimplemented(self, *input):
    raise NotImplementedError('Module [{}] is missing the required "forward" function'.format(type(self).__name__))


def _name_failing_layer(error, module, input):
    """Adds a note naming the innermost module whose forward raised, and the sizes of its
    tensor inputs, to the error's traceback (the message itself stays PyTorch's)."""
    if getattr(error, "_torch_layer_named", False) or not hasattr(error, "add_note"):
        return
    error._torch_layer_named = True
    sizes = ", ".join("[%s]" % ", ".join(str(s) for s in x.shape) for x in input if isinstance(x, torch.Tensor))
    error.add_note("raised in %s(%s) with input sizes %s" % (module._get_name(), module.extra_repr(), sizes or "()"))


class Module:
    """Base class for all neural network modules: subclasses set their parameters and
    submodules as attributes in __init__ and define forward()."""

    dump_patches = False
    _version = 1

    def __init__(self):
        set_ = super().__setattr__
        set_("training", True)
        set_("_parameters", OrderedDict())
        set_("_buffers", OrderedDict())
        set_("_non_persistent_buffers_set", set())
        set_("_backward_hooks", OrderedDict())
        set_("_is_full_backward_hook", None)
        set_("_forward_hooks", OrderedDict())
        set_("_forward_pre_hooks", OrderedDict())
        set_("_state_dict_hooks", OrderedDict())
        set_("_load_state_dict_pre_hooks", OrderedDict())
        set_("_load_state_dict_post_hooks", OrderedDict())
        set_("_modules", OrderedDict())

    forward = _forward_unimplemented

    # ---- registration ----
    def register_buffer(self, name, tensor, persistent=True):
        """Adds a tensor that is part of the module's state but not a parameter (running
        statistics, ...). Non-persistent buffers are left out of state_dict()."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError("buffer name should be a string. Got {}".format(_typename(name)))
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError("attribute '{}' already exists".format(name))
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                "cannot assign '{}' object to buffer '{}' (torch Tensor or None required)".format(
                    _typename(tensor), name
                )
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a parameter (a Parameter or None) under name."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError("parameter name should be a string. Got {}".format(_typename(name)))
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError("attribute '{}' already exists".format(name))
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                "cannot assign '{}' object to parameter '{}' (torch.nn.Parameter or None required)".format(
                    _typename(param), name
                )
            )
        elif param.grad_fn is not None:
            raise ValueError(
                "Cannot assign non-leaf Tensor to parameter '{0}'. Model parameters must be created "
                "explicitly. To express '{0}' as a function of another Tensor, compute the value in "
                "the forward() method.".format(name)
            )
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a child module (or None) under name."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError("{} is not a Module subclass".format(_typename(module)))
        if not isinstance(name, str):
            raise TypeError("module name should be a string. Got {}".format(_typename(name)))
        if hasattr(self, name) and name not in self._modules:
            raise KeyError("attribute '{}' already exists".format(name))
        if "." in name:
            raise KeyError('module name can\'t contain ".", got: {}'.format(name))
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name, module):
        """Alias of add_module."""
        self.add_module(name, module)

    def get_submodule(self, target):
        """The submodule at a dotted path ('' is the module itself)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    def get_extra_state(self):
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called.")

    def set_extra_state(self, state):
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called.")

    # ---- attribute protocol ----
    def __getattr__(self, name):
        # only reached when ordinary lookup fails: parameters, buffers and modules live in dicts
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError("'{}' object has no attribute '{}'".format(type(self).__name__, name))

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    "cannot assign '{}' as parameter '{}' (torch.nn.Parameter or None expected)".format(
                        _typename(value), name
                    )
                )
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    "cannot assign '{}' as child module '{}' (torch.nn.Module or None expected)".format(
                        _typename(value), name
                    )
                )
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, torch.Tensor):
                raise TypeError(
                    "cannot assign '{}' as buffer '{}' (torch.Tensor or None expected)".format(_typename(value), name)
                )
            buffers[name] = value
            return
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self):
        keys = (
            dir(self.__class__)
            + list(self.__dict__.keys())
            + list(self._parameters.keys())
            + list(self._modules.keys())
            + list(self._buffers.keys())
        )
        return sorted(key for key in keys if not key[0].isdigit())

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in (
            "_forward_pre_hooks",
            "_forward_hooks",
            "_backward_hooks",
            "_state_dict_hooks",
            "_load_state_dict_pre_hooks",
            "_load_state_dict_post_hooks",
        ):
            if name not in self.__dict__:
                self.__dict__[name] = OrderedDict()
        if "_non_persistent_buffers_set" not in self.__dict__:
            self._non_persistent_buffers_set = set()
        if "_is_full_backward_hook" not in self.__dict__:
            self._is_full_backward_hook = None

    # ---- iteration over members ----
    def _named_members(self, get_members_fn, prefix="", recurse=True):
        memo = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or v in memo:
                    continue
                memo.add(v)
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True):
        """(name, parameter) pairs; a parameter shared by several modules comes once."""
        return self._named_members(lambda m: m._parameters.items(), prefix=prefix, recurse=recurse)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True):
        return self._named_members(lambda m: m._buffers.items(), prefix=prefix, recurse=recurse)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(dotted name, module) for this module and every submodule, depth first."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    # ---- modes and gradients ----
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        """Zeroes the .grad of every parameter (or drops it with set_to_none=True)."""
        for p in self.parameters():
            grad = p.grad
            if grad is None:
                continue
            if set_to_none:
                p.grad = None
                continue
            if grad.grad_fn is not None:
                grad.detach_()
            else:
                grad.requires_grad_(False)
            grad.zero_()

    def apply(self, fn):
        """Calls fn on every submodule (children first) and then on self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- conversions ----
    def _apply(self, fn):
        # Parameters keep their identity (param.data is replaced), so optimizers built
        # before .to()/.double() still hold the module's parameters.
        for module in self.children():
            module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with torch.no_grad():
                param.data = fn(param)
            grad = param.grad
            if grad is not None:
                with torch.no_grad():
                    grad.data = fn(grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                moved = fn(buf)
                if isinstance(buf, UninitializedBuffer) and not isinstance(moved, UninitializedBuffer):
                    # a lazy module's placeholder stays one, on the new device or in the new type
                    buf.data, moved = moved, buf
                self._buffers[key] = moved
        return self

    def to(self, *args, **kwargs):
        """to(device), to(dtype), to(device, dtype), to(tensor): converts parameters and
        buffers in place (floating point ones only for a dtype)."""
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={}".format(dtype)
            )

        def convert(t):
            options = {}
            if device is not None:
                options["device"] = device
            if dtype is not None and t.is_floating_point():
                options["dtype"] = dtype
            return t.to(non_blocking=non_blocking, **options) if options else t

        return self._apply(convert)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def share_memory(self):
        return self._apply(lambda t: t.share_memory_())

    # ---- hooks ----
    def register_forward_pre_hook(self, hook):
        """hook(module, input) runs before forward; it may return a new input (a tuple, or a
        single value that is wrapped into one)."""
        return _register(self._forward_pre_hooks, hook)

    def register_forward_hook(self, hook):
        """hook(module, input, output) runs after forward; it may return a new output."""
        return _register(self._forward_hooks, hook)

    def register_backward_hook(self, hook):
        """hook(module, grad_input, grad_output) on the last operation of forward (deprecated
        in favour of register_full_backward_hook)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. "
                "Please use only one of them."
            )
        self._is_full_backward_hook = False
        return _register(self._backward_hooks, hook)

    def register_full_backward_hook(self, hook):
        """hook(module, grad_input, grad_output) runs once the gradients with respect to the
        module's inputs are computed; it may return a new grad_input."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. "
                "Please use only one of them."
            )
        self._is_full_backward_hook = True
        return _register(self._backward_hooks, hook)

    def _get_backward_hooks(self):
        full, non_full = [], []
        if _global_is_full_backward_hook is True:
            full += _global_backward_hooks.values()
        if self._is_full_backward_hook is True:
            full += self._backward_hooks.values()
        if _global_is_full_backward_hook is False:
            non_full += _global_backward_hooks.values()
        if self._is_full_backward_hook is False:
            non_full += self._backward_hooks.values()
        return full, non_full

    def _call_impl(self, *input, **kwargs):
        try:
            return self._call_with_hooks(*input, **kwargs)
        except (RuntimeError, ValueError, IndexError, TypeError) as error:
            _name_failing_layer(error, self, input)
            raise

    def _call_with_hooks(self, *input, **kwargs):
        forward_call = self.forward
        if not (
            self._backward_hooks
            or self._forward_hooks
            or self._forward_pre_hooks
            or _global_backward_hooks
            or _global_forward_hooks
            or _global_forward_pre_hooks
        ):
            return forward_call(*input, **kwargs)
        full_backward_hooks, non_full_backward_hooks = self._get_backward_hooks()
        for hook in (*_global_forward_pre_hooks.values(), *self._forward_pre_hooks.values()):
            result = hook(self, input)
            if result is not None:
                input = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if full_backward_hooks:
            bw_hook = _BackwardHook(self, full_backward_hooks)
            input = bw_hook.setup_input_hook(input)
        result = forward_call(*input, **kwargs)
        for hook in (*_global_forward_hooks.values(), *self._forward_hooks.values()):
            hook_result = hook(self, input, result)
            if hook_result is not None:
                result = hook_result
        if bw_hook is not None:
            result = bw_hook.setup_output_hook(result)
        if non_full_backward_hooks:
            var = result
            while not isinstance(var, torch.Tensor):
                if isinstance(var, dict):
                    var = next(v for v in var.values() if isinstance(v, torch.Tensor))
                else:
                    var = var[0]
            grad_fn = var.grad_fn
            if grad_fn is not None:
                for hook in non_full_backward_hooks:
                    grad_fn.register_hook(functools.partial(hook, self))
        return result

    __call__ = _call_impl

    def _register_state_dict_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) runs after state_dict(); it may
        return a new state dict."""
        return _register(self._state_dict_hooks, hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs) runs before this module loads its entries."""
        return _register(self._load_state_dict_pre_hooks, functools.partial(hook, self) if with_module else hook)

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) runs after load_state_dict(); it may edit the
        missing/unexpected key lists in place."""
        return _register(self._load_state_dict_post_hooks, hook)

    # ---- state dict ----
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if getattr(self.__class__, "get_extra_state", Module.get_extra_state) is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of parameters and persistent buffers under dotted names (detached
        from autograd unless keep_vars)."""
        if args:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/master/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
                " for details."
            )
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if hook_result is not None:
                destination = hook_result
        return destination

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        """Copies this module's own entries of state_dict (not its children's) into its
        parameters and buffers, recording missing and unexpected keys and errors."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent_buffers = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {
            k: v for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items()) if v is not None
        }
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, torch.Tensor):
                error_msgs.append(
                    'While copying the parameter named "{}", expected torch.Tensor or Tensor-like '
                    "object from checkpoint but received {}".format(key, type(input_param))
                )
                continue
            if param.dim() == 0 and input_param.dim() == 1 and input_param.numel() == 1:
                input_param = input_param.select(0, 0)  # a 0-dim value saved by old versions as shape (1,)
            if input_param.shape != param.shape:
                error_msgs.append(
                    "size mismatch for {}: copying a param with shape {} from checkpoint, the shape in "
                    "current model is {}.".format(key, input_param.shape, param.shape)
                )
                continue
            try:
                with torch.no_grad():
                    param.copy_(input_param)
            except Exception as ex:
                error_msgs.append(
                    'While copying the parameter named "{}", whose dimensions in the model are {} and '
                    "whose dimensions in the checkpoint are {}, an exception occurred : {}.".format(
                        key, param.size(), input_param.size(), ex.args
                    )
                )
        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if getattr(self.__class__, "set_extra_state", Module.set_extra_state) is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix) :].split(".", 1)[0]
                    if input_name not in self._modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copies parameters and buffers from state_dict. With strict, missing or unexpected
        keys raise; returns the (missing_keys, unexpected_keys) named tuple."""
        if not isinstance(state_dict, Mapping):
            raise TypeError("Expected state_dict to be dict-like, got {}.".format(type(state_dict)))
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(
                local_state_dict, prefix, local_metadata, True, missing_keys, unexpected_keys, error_msgs
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)
            incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, incompatible_keys)
                if out is not None:
                    raise RuntimeError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not expected "
                        "to return new values, if incompatible_keys need to be modified, it should be "
                        "done inplace."
                    )

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join('"{}"'.format(k) for k in unexpected_keys)
                    ),
                )
            if missing_keys:
                error_msgs.insert(
                    0, "Missing key(s) in state_dict: {}. ".format(", ".join('"{}"'.format(k) for k in missing_keys))
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(self.__class__.__name__, "\n\t".join(error_msgs))
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- printing ----
    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        """The text inside the parentheses of repr() (before the children); layers override it."""
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = ["(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"
