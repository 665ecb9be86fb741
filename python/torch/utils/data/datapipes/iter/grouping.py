from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import DataChunk, IterDataPipe

__all__ = ["BatcherIterDataPipe", "GrouperIterDataPipe", "ShardingFilterIterDataPipe", "UnBatcherIterDataPipe"]


def _no_length(dp):
    return TypeError("{} instance doesn't have valid length".format(type(dp).__name__))


@functional_datapipe("sharding_filter")
class ShardingFilterIterDataPipe(IterDataPipe):
    """Every num_of_instances-th item from instance_id on, once apply_sharding has set them
    (all items before)."""

    def __init__(self, source_datapipe):
        self.source_datapipe = source_datapipe
        self.num_of_instances = 1
        self.instance_id = 0

    def is_shardable(self):
        return True

    def apply_sharding(self, num_of_instances, instance_id):
        self.num_of_instances = num_of_instances
        self.instance_id = instance_id

    def __iter__(self):
        for i, item in enumerate(self.source_datapipe):
            if i % self.num_of_instances == self.instance_id:
                yield item

    def __len__(self):
        try:
            n = len(self.source_datapipe)
        except TypeError:
            raise _no_length(self) from None
        return n // self.num_of_instances + (1 if self.instance_id < n % self.num_of_instances else 0)


@functional_datapipe("batch")
class BatcherIterDataPipe(IterDataPipe):
    """Consecutive items in batches (wrapper_class, DataChunk by default) of batch_size, the
    last one shorter unless drop_last."""

    def __init__(self, datapipe, batch_size, drop_last=False, wrapper_class=DataChunk):
        assert batch_size > 0, "Batch size is required to be larger than 0!"
        super().__init__()
        self.datapipe = datapipe
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.wrapper_class = wrapper_class

    def __iter__(self):
        batch = []
        for x in self.datapipe:
            batch.append(x)
            if len(batch) == self.batch_size:
                yield self.wrapper_class(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.wrapper_class(batch)

    def __len__(self):
        try:
            n = len(self.datapipe)
        except TypeError:
            raise _no_length(self) from None
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


@functional_datapipe("unbatch")
class UnBatcherIterDataPipe(IterDataPipe):
    """The items of the batches, unbatch_level levels deep (-1: all the way down)."""

    def __init__(self, datapipe, unbatch_level=1):
        self.datapipe = datapipe
        self.unbatch_level = unbatch_level

    def __iter__(self):
        for element in self.datapipe:
            for i in self._dive(element, unbatch_level=self.unbatch_level):
                yield i

    def _dive(self, element, unbatch_level):
        if unbatch_level < -1:
            raise ValueError("unbatch_level must be -1 or >= 0")
        if unbatch_level == -1:
            if isinstance(element, (list, DataChunk)):
                for item in element:
                    for i in self._dive(item, unbatch_level=-1):
                        yield i
            else:
                yield element
        elif unbatch_level == 0:
            yield element
        else:
            if isinstance(element, (list, DataChunk)):
                for item in element:
                    for i in self._dive(item, unbatch_level=unbatch_level - 1):
                        yield i
            else:
                raise IndexError(f"unbatch_level {self.unbatch_level} exceeds the depth of the DataPipe")


@functional_datapipe("groupby")
class GrouperIterDataPipe(IterDataPipe):
    """Items grouped by group_key_fn into DataChunks: a group is yielded when it reaches
    group_size; when buffer_size items are held the largest group goes out (or, smaller than
    guaranteed_group_size, is an error, or dropped where drop_remaining); at the end the rest
    go out in the order their keys first came."""

    def __init__(
        self,
        datapipe,
        group_key_fn,
        *,
        buffer_size=10000,
        group_size=None,
        guaranteed_group_size=None,
        drop_remaining=False,
    ):
        self.datapipe = datapipe
        self.group_key_fn = group_key_fn
        self.max_buffer_size = buffer_size
        self.group_size = group_size
        self.guaranteed_group_size = None
        if group_size is not None and buffer_size is not None:
            assert 0 < group_size <= buffer_size
            self.guaranteed_group_size = group_size
        if guaranteed_group_size is not None:
            assert group_size is not None and 0 < guaranteed_group_size <= group_size
            self.guaranteed_group_size = guaranteed_group_size
        self.drop_remaining = drop_remaining
        self.wrapper_class = DataChunk
        self.reset()

    def reset(self):
        self.buffer_elements = {}
        self.curr_buffer_size = 0

    def _take(self, key):
        group = self.buffer_elements.pop(key)
        self.curr_buffer_size -= len(group)
        return group

    def _remove_biggest_key(self):
        """The largest group (the first of equal ones) taken out of the buffer; None where it
        is too small to yield and may be dropped."""
        biggest_key, biggest_size = None, 0
        for key, group in self.buffer_elements.items():
            if len(group) > biggest_size:
                biggest_key, biggest_size = key, len(group)
        too_small = self.guaranteed_group_size is not None and biggest_size < self.guaranteed_group_size
        if too_small and not self.drop_remaining:
            raise RuntimeError("Failed to group items", str(self.buffer_elements[biggest_key]))
        group = self._take(biggest_key)
        return None if too_small else group

    def __iter__(self):
        for x in self.datapipe:
            key = self.group_key_fn(x)
            self.buffer_elements.setdefault(key, []).append(x)
            self.curr_buffer_size += 1
            if self.group_size is not None and len(self.buffer_elements[key]) == self.group_size:
                yield self.wrapper_class(self._take(key))
            if self.curr_buffer_size == self.max_buffer_size:
                group = self._remove_biggest_key()
                if group is not None:
                    yield self.wrapper_class(group)
        for key in tuple(self.buffer_elements.keys()):
            yield self.wrapper_class(self._take(key))
