"""Optimizer: the base class of torch.optim, as in PyTorch 1.13.

    opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
    opt.zero_grad(); loss(w, b).backward(); opt.step()

Parameters live in param_groups (a list of dicts: 'params' plus every hyper-parameter,
missing ones filled from the optimizer's defaults); per-parameter buffers live in
state, a dict keyed by the parameter tensor itself. state_dict() replaces tensors by
their position (0, 1, ... across all groups in order), so a checkpoint can be loaded
into a new optimizer built over different tensor objects of the same shapes.
"""

import warnings
from collections import abc, defaultdict
from copy import deepcopy
from itertools import chain

import torch

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Marks a hyper-parameter without default (SGD's lr): every group must give it."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj):
    if isinstance(obj, torch.Tensor):
        return obj.type()
    cls = type(obj)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return cls.__module__ + "." + cls.__qualname__


def _use_grad_for_differentiable(step):
    """step() runs with autograd off, unless the optimizer was built with differentiable=True
    (then the update itself is recorded, as PyTorch 1.13 does for SGD/Adam/RMSprop)."""

    def wrapped(self, *args, **kwargs):
        with torch.set_grad_enabled(self.defaults.get("differentiable", False)):
            return step(self, *args, **kwargs)

    wrapped.__name__ = step.__name__
    wrapped.__doc__ = step.__doc__
    return wrapped


def _closure_loss(closure):
    """The closure's loss, evaluated with autograd on (the closure usually calls backward)."""
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


class Optimizer:
    """Base class: subclasses give their defaults and implement step(closure=None)."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, "
                "but got " + _typename(params)
            )
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault("differentiable", False)

    def __repr__(self):
        lines = [self.__class__.__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append("Parameter Group {0}".format(i))
            lines.extend("    {0}: {1}".format(key, group[key]) for key in sorted(group) if key != "params")
        return "\n".join(lines) + "\n)"

    def state_dict(self):
        """{'state': {index: buffers}, 'param_groups': [group with 'params' as indices]}."""
        # A parameter's index is its position in the concatenated groups (a duplicate keeps
        # its first index, and its later position stays unused, as in PyTorch's files).
        index_of = {}
        start = 0
        packed_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index_of.setdefault(id(p), i)
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            start += len(group["params"])
            packed_groups.append(packed)
        # State under a key that is not a parameter (old checkpoints) is kept as it is.
        packed_state = {(index_of[id(k)] if isinstance(k, torch.Tensor) else k): v for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": packed_groups}

    def load_state_dict(self, state_dict):
        """Loads what state_dict() returned (a deep copy of it: the argument is not shared)."""
        state_dict = deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )

        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups), chain.from_iterable(g["params"] for g in groups)
            )
        )

        def cast(param, value, key=None):
            # Floating buffers follow the parameter's dtype and device; 'step' counters keep
            # their own type (PyTorch issue 74424).
            if isinstance(value, torch.Tensor):
                if key != "step":
                    if param.is_floating_point():
                        value = value.to(param.dtype)
                    value = value.to(param.device)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, key=k) for k, v in value.items()}
            if isinstance(value, abc.Iterable) and not isinstance(value, str):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                state[id_map[k]] = cast(id_map[k], v)
            else:
                state[k] = v

        param_groups = []
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            param_groups.append(saved)
        self.__setstate__({"state": state, "param_groups": param_groups})

    def zero_grad(self, set_to_none=False):
        """Zeroes every parameter's .grad in place (or drops it with set_to_none=True)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                    continue
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()

    def step(self, closure):
        raise NotImplementedError

    def add_param_group(self, param_group):
        """Appends a group: {'params': tensors, hyper-parameter: value, ...}."""
        if not isinstance(param_group, dict):
            raise TypeError("param group must be a dict")
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the ordering "
                "of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get("differentiable", False) and not (
                param.is_leaf or getattr(param, "retains_grad", False)
            ):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization parameter " + name)
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this will "
                "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
        if not seen.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
