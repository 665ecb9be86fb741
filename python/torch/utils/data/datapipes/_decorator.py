"""functional_datapipe: the decorator that gives a DataPipe class its functional name."""

from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe

__all__ = ["functional_datapipe", "guaranteed_datapipes_determinism", "non_deterministic"]


class functional_datapipe:
    """@functional_datapipe('name') on an IterDataPipe (or MapDataPipe) class: ``dp.name(*args)``
    then builds ``cls(dp, *args)``."""

    def __init__(self, name, enable_df_api_tracing=False):
        self.name = name
        self.enable_df_api_tracing = enable_df_api_tracing

    def __call__(self, cls):
        if isinstance(cls, type) and issubclass(cls, IterDataPipe):
            IterDataPipe.register_datapipe_as_function(self.name, cls, enable_df_api_tracing=self.enable_df_api_tracing)
        elif isinstance(cls, type) and issubclass(cls, MapDataPipe):
            MapDataPipe.register_datapipe_as_function(self.name, cls)
        else:
            raise TypeError("`functional_datapipe` can only decorate IterDataPipe or MapDataPipe")
        return cls


_determinism = False


class guaranteed_datapipes_determinism:
    """While it is active (from construction to the end of its with block), building a
    DataPipe marked non_deterministic raises TypeError."""

    def __init__(self):
        global _determinism
        self.prev = _determinism
        _determinism = True

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        global _determinism
        _determinism = self.prev


class non_deterministic:
    """Marks an IterDataPipe class as non-deterministic (@non_deterministic), or as
    non-deterministic for the arguments where a function of them returns True
    (@non_deterministic(fn)): building one under guaranteed_datapipes_determinism is then a
    TypeError."""

    cls = None

    def __init__(self, arg):
        if isinstance(arg, type):
            if not issubclass(arg, IterDataPipe):
                raise TypeError(
                    "Only `IterDataPipe` can be decorated with `non_deterministic`, but {} is found".format(
                        arg.__name__
                    )
                )
            self.cls = arg
        elif callable(arg):
            self.deterministic_fn = arg
        else:
            raise TypeError("{} can not be decorated by non_deterministic".format(arg))

    def __call__(self, *args, **kwargs):
        if self.cls is not None:
            if _determinism:
                raise TypeError(
                    "{} is non-deterministic, but you set 'guaranteed_datapipes_determinism'. You can turn off "
                    "determinism for this DataPipe if that is acceptable for your application".format(self.cls.__name__)
                )
            return self.cls(*args, **kwargs)
        if not (isinstance(args[0], type) and issubclass(args[0], IterDataPipe)):
            raise TypeError("Only `IterDataPipe` can be decorated, but {} is found".format(args[0].__name__))
        self.cls = args[0]
        return self.deterministic_wrapper_fn

    def deterministic_wrapper_fn(self, *args, **kwargs):
        res = self.deterministic_fn(*args, **kwargs)
        if not isinstance(res, bool):
            raise TypeError(
                "deterministic_fn of `non_deterministic` decorator is required to return a boolean value, but {} "
                "is found".format(type(res))
            )
        if _determinism and res:
            raise TypeError(
                "{} is non-deterministic with the inputs, but you set 'guaranteed_datapipes_determinism'. You can "
                "turn off determinism for this DataPipe if that is acceptable for your application".format(
                    self.cls.__name__
                )
            )
        return self.cls(*args, **kwargs)
