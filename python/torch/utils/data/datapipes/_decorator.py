"""functional_datapipe: the decorator that gives a DataPipe class its functional name."""

from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe

__all__ = ["functional_datapipe"]


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
