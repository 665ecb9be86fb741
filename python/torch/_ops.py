"""torch.ops: operators by their dispatcher names. torch.ops.aten.<name> is this package's op of
that name (torch.<name>, torch._C._nn.<name>, or the Tensor method for in-place ones);
torch.ops.<ns>.<name> for other namespaces are the operators torch.library defines.

Note [Operator overloads]: PyTorch tells an op's overloads apart by schema (aten.add.Tensor,
aten.add.Scalar, aten.add.out); here an op's Python function picks by its arguments, so every
overload name (torch.ops.aten.add.Tensor, .default, .out) calls the same function. Custom ops
keep their overloads apart, as torch.library registers them by name.
"""

import types

import torch

__all__ = ["ops", "OpOverload", "OpOverloadPacket"]


class OpOverload:
    """One overload of an operator: callable."""

    def __init__(self, packet, overload_name, fn):
        self.overloadpacket = packet
        self._overloadname = overload_name
        self._op = fn
        self.__name__ = "%s.%s" % (packet.__name__, overload_name)
        self.__qualname__ = self._name = "%s::%s" % (packet._qualified_op_name.split("::")[0], self.__name__)

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __str__(self):
        return "%s.%s.%s" % (self.overloadpacket._namespace, self.overloadpacket.__name__, self._overloadname)

    def __repr__(self):
        return "<OpOverload(op='%s', overload='%s')>" % (self.overloadpacket, self._overloadname)


class OpOverloadPacket:
    """An operator with all its overloads: callable (the default overload), and
    packet.<overload> gives one (Note [Operator overloads])."""

    def __init__(self, namespace, name, resolve):
        self._namespace = namespace
        self.__name__ = name
        self._qualified_op_name = "%s::%s" % (namespace, name)
        self._resolve = resolve  # overload name -> function (raises AttributeError when none)

    def __getattr__(self, overload_name):
        if overload_name.startswith("__"):
            raise AttributeError(overload_name)
        overload = OpOverload(self, overload_name, self._resolve(overload_name))
        setattr(self, overload_name, overload)
        return overload

    def __call__(self, *args, **kwargs):
        return self._resolve("default")(*args, **kwargs)

    def __str__(self):
        return "%s.%s" % (self._namespace, self.__name__)

    def __repr__(self):
        return "<OpOverloadPacket(op='%s')>" % self


def _aten_function(name):
    """This package's function for the aten operator name, or None."""
    for owner in (torch, torch._C._nn, torch.nn.functional):
        fn = getattr(owner, name, None)
        if callable(fn) and not isinstance(fn, type):
            return fn
    method = getattr(torch.Tensor, name, None)
    return method if callable(method) else None


class _OpNamespace(types.ModuleType):
    """torch.ops.<namespace>: its operators as attributes."""

    def __init__(self, name):
        super().__init__("torch.ops." + name)
        self.name = name

    def __getattr__(self, op_name):
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        packet = None
        if self.name == "aten":
            fn = _aten_function(op_name)
            if fn is not None:
                packet = OpOverloadPacket("aten", op_name, lambda overload: fn)
        elif op_name in _custom_ops.get(self.name, {}):
            packet = OpOverloadPacket(self.name, op_name, _custom_ops[self.name][op_name].overload)
        if packet is None:
            raise AttributeError("'_OpNamespace' '%s' object has no attribute '%s'" % (self.name, op_name))
        setattr(self, op_name, packet)
        return packet


class _CustomOp:
    """An operator torch.library defined: its overloads' kernels by dispatch key."""

    def __init__(self, namespace, name):
        self.namespace, self.name = namespace, name
        self.kernels = {}  # overload name ("default" for none) -> {dispatch key: function}

    def overload(self, overload_name):
        if overload_name not in self.kernels:
            raise AttributeError(
                "The underlying op of '%s.%s' has no overload name '%s'" % (self.namespace, self.name, overload_name)
            )
        kernels = self.kernels[overload_name]

        def call(*args, **kwargs):
            on_cuda = any(isinstance(a, torch.Tensor) and a.is_cuda for a in args)
            for key in (("CUDA",) if on_cuda else ("CPU",)) + (
                "",
                "CompositeImplicitAutograd",
                "CompositeExplicitAutograd",
                "Autograd",
            ):
                if key in kernels:
                    return kernels[key](*args, **kwargs)
            raise NotImplementedError(
                "Could not run '%s::%s' with arguments from the '%s' backend: no kernel is registered for it"
                % (self.namespace, self.name, "CUDA" if on_cuda else "CPU")
            )

        return call


_custom_ops = {}  # namespace -> {name: _CustomOp}


class _Ops(types.ModuleType):
    """torch.ops: namespaces of operators as attributes."""

    def __init__(self):
        super().__init__("torch.ops")
        self.loaded_libraries = set()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        namespace = _OpNamespace(name)
        setattr(self, name, namespace)
        return namespace

    def load_library(self, path):
        raise RuntimeError(
            "torch.ops.load_library(%r): C++ operator libraries are built against PyTorch's dispatcher, which this "
            "package does not have; register Python operators with torch.library instead" % (path,)
        )


ops = _Ops()
