"""The objects load_lua makes for torch7 classes, and the name -> class registry.

load_lua turns an object of a torch7 class (anything but tensors and storages) into an
instance of the Python class registered under its torch7 name: `nn.Linear` becomes
torch.legacy.nn.Linear, made with `cls.__new__` (no __init__) and then given the file's
fields as attributes. Names with no Python class (`cudnn.ReLU`, `nngraph.Node`, an unknown
`nn.Foo`) get a placeholder class of their own from class_for(typename); save_lua writes
vars(obj) back under torch_typename().

Note [Objects without __init__]: since a loaded object never ran __init__, every method
must work from the fields torch7 writes. Optional fields that torch7 files may lack
(`train`, `bias` of a Linear without bias, ...) have class-level defaults, so they read
as the default and stay out of vars(obj) until set.
"""

import inspect
import sys

__all__ = ["TorchObject", "class_for"]

_classes = {}


def _builds_from_fields(cls, args, kwargs):
    """Whether cls(**kwargs) asks for an object with these fields rather than a constructor
    call: keyword arguments only, and at least one that __init__ does not name. This keeps
    `class_for(name)(weight=w, ...)` (an object as load_lua makes it) working for every class."""
    if args or not kwargs:
        return False
    try:
        params = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return False
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return False
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return any(k not in names for k in kwargs)


class _TorchClass(type):
    def __call__(cls, *args, **kwargs):
        if _builds_from_fields(cls, args, kwargs):
            return cls.from_fields(**kwargs)
        return super().__call__(*args, **kwargs)


class TorchObject(metaclass=_TorchClass):
    """An instance of a torch7 class: its fields are the attributes. `torch_typename()` is
    the torch7 class name ("nn.Linear").

    An object whose content was not a table of string keys (rare: classes with their own
    write method) keeps that content as `_t7_raw` and has no attributes from it."""

    __slots__ = ("__dict__", "_t7_raw", "_t7_version", "__weakref__")
    _torch_typename = None

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_torch_typename" not in cls.__dict__:
            cls._torch_typename = "nn." + cls.__name__
        # the package's own classes are what load_lua makes for their torch7 names
        if cls.__module__.startswith("torch.legacy.nn.") and not cls.__name__.startswith("_"):
            _classes.setdefault(cls._torch_typename, cls)

    @classmethod
    def from_fields(cls, **fields):
        """An object with these fields and nothing else, as load_lua makes it."""
        obj = cls.__new__(cls)
        obj.__dict__.update(fields)
        return obj

    @classmethod
    def torch_typename(cls):
        return cls._torch_typename

    def __repr__(self):
        fields = ", ".join(sorted(map(str, vars(self))))
        return "%s(%s)" % (_printable(self.torch_typename()), fields)

    def __getitem__(self, key):  # torch7's obj.field and obj['field'] are one thing
        try:
            return self.__dict__[key]
        except KeyError:
            raise KeyError(key) from None


def _printable(name):
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _placeholder_repr(self):
    modules = self.__dict__.get("modules")
    if isinstance(modules, list) and modules:
        inner = "\n".join("  (%d): %s" % (i, repr(m).replace("\n", "\n  ")) for i, m in enumerate(modules))
        return "%s {\n%s\n}" % (_printable(self.torch_typename()), inner)
    return TorchObject.__repr__(self)


def class_for(typename):
    """The Python class standing for the torch7 class `typename`: the package's class of that
    name, else a placeholder made on first use (one per name)."""
    cls = _classes.get(typename)
    if cls is not None:
        return cls
    from torch.legacy.nn.module import Module

    package, _, short = typename.rpartition(".")
    base = Module if package == "nn" else TorchObject
    # a corrupt file may name a class with bytes that no Python class name can hold
    name = short if short.isidentifier() else "TorchObject"
    cls = _TorchClass(
        name,
        (base,),
        {
            "__slots__": (),
            "_torch_typename": typename,
            "__module__": "torch.legacy.nn",
            "__qualname__": name,
            "__repr__": _placeholder_repr,
        },
    )
    _classes[typename] = cls
    this = sys.modules["torch.legacy.nn"]
    if package == "nn" and name == short and not hasattr(this, short):
        setattr(this, short, cls)
    return cls
