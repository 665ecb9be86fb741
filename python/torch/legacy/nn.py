"""Placeholder classes for torch7 objects read from .t7 files.

load_lua turns an object of a torch7 class (anything but tensors and storages) into an
instance of a Python class named after it: `nn.Linear` becomes `torch.legacy.nn.Linear`,
other packages' classes (`cudnn.ReLU`, `nngraph.Node`, ...) get a class of their own,
reachable through `class_for(typename)`. The object's fields are its attributes (`weight`,
`bias`, `modules`, `output`, `gradInput`, `train`, `_type`, ...), exactly as written, and
save_lua writes them back under the same class name. They have no methods beyond that yet:
running them is the job of the torch.legacy.nn port to come.
"""

import sys

__all__ = ["TorchObject", "Module", "class_for"]


class TorchObject:
    """An instance of a torch7 class with no Python implementation: its fields are the
    attributes. `torch_typename()` is the torch7 class name ("nn.Linear").

    An object whose content was not a table of string keys (rare: classes with their own
    write method) keeps that content as `_t7_raw` and has no attributes from it."""

    __slots__ = ("__dict__", "_t7_raw", "_t7_version")
    _torch_typename = None

    def __init__(self, **fields):
        self.__dict__.update(fields)

    @classmethod
    def torch_typename(cls):
        return cls._torch_typename

    def __repr__(self):
        fields = ", ".join(sorted(map(str, vars(self))))
        return "%s(%s)" % (self.torch_typename().encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
                           fields)

    def __getitem__(self, key):  # torch7's obj.field and obj['field'] are one thing
        try:
            return self.__dict__[key]
        except KeyError:
            raise KeyError(key) from None


class Module(TorchObject):
    """Base of the placeholder nn.* classes."""

    __slots__ = ()

    def __repr__(self):
        modules = self.__dict__.get("modules")
        if isinstance(modules, list) and modules:
            inner = "\n".join("  (%d): %s" % (i, repr(m).replace("\n", "\n  ")) for i, m in enumerate(modules))
            return "%s {\n%s\n}" % (self.torch_typename(), inner)
        return TorchObject.__repr__(self)


_classes = {}


def class_for(typename):
    """The Python class standing for the torch7 class `typename` (made on first use; one per name)."""
    cls = _classes.get(typename)
    if cls is not None:
        return cls
    package, _, short = typename.rpartition(".")
    base = Module if package == "nn" else TorchObject
    # a corrupt file may name a class with bytes that no Python class name can hold
    name = short if short.isidentifier() else "TorchObject"
    cls = type(name, (base,), {"__slots__": (), "_torch_typename": typename, "__module__": __name__,
                               "__qualname__": name})
    _classes[typename] = cls
    this = sys.modules[__name__]
    if package == "nn" and name == short and not hasattr(this, short):
        setattr(this, short, cls)
    return cls
