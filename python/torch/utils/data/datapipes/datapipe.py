"""IterDataPipe and MapDataPipe (PyTorch 1.13's torch.utils.data.datapipes.datapipe): datasets
that are steps of a data pipeline, each step reachable from the previous one by its functional
name (``IterableWrapper(range(10)).map(f).filter(g).batch(4)``). functional_datapipe registers
a DataPipe class under such a name. A DataPipe's reset() runs each time an iterator of it is
made (so a Shuffler reseeds per epoch); unlike PyTorch's, making a second iterator does not
invalidate the first."""

import functools

from torch.utils.data.dataset import Dataset, IterableDataset

__all__ = ["DataChunk", "IterDataPipe", "MapDataPipe"]


def _resetting(iter_fn):
    """iter_fn preceded by self.reset() when the iterator is made."""

    @functools.wraps(iter_fn)
    def __iter__(self):
        self.reset()
        return iter_fn(self)

    __iter__._resets = True
    return __iter__


class _Functional:
    """The registry of functional names shared by one family of DataPipes."""

    @classmethod
    def register_function(cls, function_name, function):
        cls.functions[function_name] = function

    @classmethod
    def register_datapipe_as_function(cls, function_name, cls_to_register, enable_df_api_tracing=False):
        if function_name in cls.functions:
            raise Exception("Unable to add DataPipe function name {} as it is already taken".format(function_name))

        def class_function(cls_to_register, source_dp, *args, **kwargs):
            return cls_to_register(source_dp, *args, **kwargs)

        function = functools.partial(class_function, cls_to_register)
        functools.update_wrapper(wrapper=function, wrapped=cls_to_register, assigned=("__doc__",))
        cls.functions[function_name] = function

    def __getattr__(self, attribute_name):
        functions = type(self)._family.functions
        if attribute_name in functions:
            function = functools.partial(functions[attribute_name], self)
            functools.update_wrapper(wrapper=function, wrapped=functions[attribute_name], assigned=("__doc__",))
            return function
        raise AttributeError("'{0}' object has no attribute '{1}".format(self.__class__.__name__, attribute_name))

    def __repr__(self):
        if self.repr_hook is not None:
            return self.repr_hook(self)
        return str(self.__class__.__qualname__)

    def __str__(self):
        if self.str_hook is not None:
            return self.str_hook(self)
        return str(self.__class__.__qualname__)

    @classmethod
    def set_getstate_hook(cls, hook_fn):
        if cls._family.getstate_hook is not None and hook_fn is not None:
            raise Exception("Attempt to override existing getstate_hook")
        cls._family.getstate_hook = hook_fn

    @classmethod
    def set_reduce_ex_hook(cls, hook_fn):
        if cls._family.reduce_ex_hook is not None and hook_fn is not None:
            raise Exception("Attempt to override existing reduce_ex_hook")
        cls._family.reduce_ex_hook = hook_fn

    def __getstate__(self):
        hook = type(self)._family.getstate_hook
        if hook is not None:
            return hook(self)
        return self.__dict__

    def __reduce_ex__(self, *args, **kwargs):
        hook = type(self)._family.reduce_ex_hook
        if hook is not None:
            try:
                return hook(self)
            except NotImplementedError:
                pass
        return super().__reduce_ex__(*args, **kwargs)


class IterDataPipe(_Functional, IterableDataset):
    """An iterable-style DataPipe: __iter__ yields its items. Subclasses registered by
    functional_datapipe('name') are reachable as ``source.name(...)``."""

    functions = {}
    reduce_ex_hook = None
    getstate_hook = None
    str_hook = None
    repr_hook = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("__iter__")
        if own is not None and not getattr(own, "_resets", False):
            cls.__iter__ = _resetting(own)

    def reset(self):
        """Called when an iterator of this DataPipe is made: resets its per-epoch state."""

    def __class_getitem__(cls, item):
        """IterDataPipe[T] in class definitions and hints: the class itself (item types are
        not checked here)."""
        return cls


class MapDataPipe(_Functional, Dataset):
    """A map-style DataPipe: __getitem__ and __len__. Subclasses registered by
    functional_datapipe('name') are reachable as ``source.name(...)``."""

    def __class_getitem__(cls, item):
        return cls

    functions = {}
    reduce_ex_hook = None
    getstate_hook = None
    str_hook = None
    repr_hook = None


IterDataPipe._family = IterDataPipe
MapDataPipe._family = MapDataPipe


class DataChunk(list):
    """A batch: a list that DataPipes can tell apart from items that are lists."""

    def __init__(self, items):
        super().__init__(items)
        self.items = items

    def as_str(self, indent=""):
        return indent + "[" + ", ".join(str(i) for i in iter(self)) + "]"

    def __iter__(self):
        yield from super().__iter__()

    def raw_iterator(self):
        yield from self.items
