"""torch.library: new operators, written in Python, under torch.ops.<namespace> (Note [Operator
overloads] in torch/_ops.py).

    lib = torch.library.Library("mylib", "DEF")
    lib.define("scale(Tensor x, float s) -> Tensor")
    lib.impl("scale", lambda x, s: x * s, "CPU")
    torch.ops.mylib.scale(x, 2.0)

Overriding this package's own operators ("IMPL" libraries on aten) is not possible: its ops are
not dispatched through a table that Python can change.
"""

from torch._ops import OpOverload, _custom_ops, _CustomOp

__all__ = ["Library", "impl", "define"]

_impls = set()  # "ns/name/dispatch key" of every kernel registered
_reserved_namespaces = ["prim"]


def _split(name):
    """'name.overload' -> (name, overload), 'default' when there is none."""
    name = name.split("::")[-1]
    base, _, overload = name.partition(".")
    return base, overload or "default"


class Library:
    """A library of operators in namespace ns: kind "DEF" defines new ones, "IMPL" adds kernels
    to operators defined elsewhere; dispatch_key is the kernels' default key."""

    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in ("IMPL", "DEF"):
            raise ValueError("Unsupported kind: ", kind)
        if ns in _reserved_namespaces and kind == "DEF":
            raise ValueError(ns, " is a reserved namespace. Please try creating a library with another name.")
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key
        self._op_impls = set()

    def __repr__(self):
        return "Library(kind={}, ns={}, dispatch_key={})>".format(self.kind, self.ns, self.dispatch_key)

    def define(self, schema, alias_analysis=""):
        """Defines the operator of schema ("name(Tensor x, float s) -> Tensor", or
        "name.overload(...)"); returns its name."""
        if alias_analysis not in ("", "FROM_SCHEMA", "CONSERVATIVE"):
            raise RuntimeError("Invalid alias_analysis type {}".format(alias_analysis))
        if self.kind != "DEF":
            raise RuntimeError("define: the library %s was created with kind %s, not DEF" % (self.ns, self.kind))
        head = schema.split("(", 1)[0].strip()
        if not head or "(" not in schema or "->" not in schema:
            raise RuntimeError("define: expected a schema like 'name(Tensor x) -> Tensor', got %r" % (schema,))
        name, overload = _split(head)
        op = _custom_ops.setdefault(self.ns, {}).setdefault(name, _CustomOp(self.ns, name))
        if overload in op.kernels:
            raise RuntimeError(
                "Tried to register an operator (%s::%s) with the same name and overload name "
                "multiple times." % (self.ns, head)
            )
        op.kernels[overload] = {}
        return name

    def impl(self, op_name, fn, dispatch_key=""):
        """Registers fn as the kernel of op_name ("name" or "name.overload", or an OpOverload) for
        dispatch_key (default: the library's)."""
        if not callable(fn):
            raise TypeError("Input function is required to be a callable but found type {}".format(type(fn)))
        if dispatch_key == "":
            dispatch_key = self.dispatch_key
        if isinstance(op_name, OpOverload):
            op_name = "%s.%s" % (op_name.overloadpacket.__name__, op_name._overloadname)
        elif not isinstance(op_name, str):
            raise RuntimeError("impl should be passed either a name or an OpOverload object as the first argument")
        name, overload = _split(op_name)
        if self.ns == "aten":
            raise NotImplementedError(
                "Library('aten', ...).impl(%r): this package's own operators cannot be overridden from Python" % op_name
            )
        op = _custom_ops.get(self.ns, {}).get(name)
        if op is None or overload not in op.kernels:
            raise RuntimeError("impl: no operator %s::%s has been defined" % (self.ns, op_name))
        key = "%s/%s/%s" % (self.ns, op_name.split("::")[-1], dispatch_key)
        if key in _impls:
            raise RuntimeError(
                "This is not allowed since there's already a kernel registered from python overriding {}'s "
                "behavior for {} dispatch key and {} namespace.".format(op_name.split("::")[-1], dispatch_key, self.ns)
            )
        op.kernels[overload][dispatch_key] = fn
        _impls.add(key)
        self._op_impls.add((key, op, overload, dispatch_key))

    def __del__(self):
        for key, op, overload, dispatch_key in getattr(self, "_op_impls", ()):
            _impls.discard(key)
            op.kernels.get(overload, {}).pop(dispatch_key, None)


def impl(lib, name, dispatch_key=""):
    """Decorator: registers the function as name's kernel in lib."""

    def wrap(f):
        lib.impl(name, f, dispatch_key)
        return f

    return wrap


def define(lib, schema, alias_analysis=""):
    """Decorator: defines schema's operator in lib with the function as its kernel."""

    def wrap(f):
        name = lib.define(schema, alias_analysis)
        lib.impl(name, f)
        return f

    return wrap
