import warnings
from collections import deque

from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe

__all__ = [
    "ConcaterIterDataPipe",
    "DemultiplexerIterDataPipe",
    "ForkerIterDataPipe",
    "MultiplexerIterDataPipe",
    "ZipperIterDataPipe",
]


def _lengths(dp, datapipes):
    try:
        return [len(d) for d in datapipes]
    except TypeError:
        raise TypeError("{} instance doesn't have valid length".format(type(dp).__name__)) from None


@functional_datapipe("concat")
class ConcaterIterDataPipe(IterDataPipe):
    """The items of each DataPipe in turn."""

    def __init__(self, *datapipes):
        if len(datapipes) == 0:
            raise ValueError("Expected at least one DataPipe, but got nothing")
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("Expected all inputs to be `IterDataPipe`")
        self.datapipes = datapipes

    def __iter__(self):
        for dp in self.datapipes:
            for data in dp:
                yield data

    def __len__(self):
        return sum(_lengths(self, self.datapipes))


@functional_datapipe("zip")
class ZipperIterDataPipe(IterDataPipe):
    """Tuples of the DataPipes' items, until the shortest ends."""

    def __init__(self, *datapipes):
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("All inputs are required to be `IterDataPipe` for `ZipIterDataPipe`.")
        super().__init__()
        self.datapipes = datapipes

    def __iter__(self):
        iterators = [iter(datapipe) for datapipe in self.datapipes]
        for data in zip(*iterators):
            yield data

    def __len__(self):
        return min(_lengths(self, self.datapipes))


@functional_datapipe("mux")
class MultiplexerIterDataPipe(IterDataPipe):
    """One item of each DataPipe in turn, until the shortest ends (its round unfinished)."""

    def __init__(self, *datapipes):
        self.datapipes = datapipes

    def __iter__(self):
        iterators = [iter(x) for x in self.datapipes]
        while iterators:
            round_ = []
            for it in iterators:
                try:
                    round_.append(next(it))
                except StopIteration:
                    return
            yield from round_

    def __len__(self):
        return min(_lengths(self, self.datapipes)) * len(self.datapipes)


class _ChildDataPipe(IterDataPipe):
    """One output of a Forker or Demultiplexer: reads through their shared container."""

    def __init__(self, main_datapipe, instance_id):
        self.main_datapipe = main_datapipe
        self.instance_id = instance_id

    def __iter__(self):
        return self.main_datapipe._iterate(self.instance_id)

    def __len__(self):
        return self.main_datapipe._length(self.instance_id)


class _Container:
    """The state the children of a Forker/Demultiplexer share: the source's one iterator and
    the epochs. A child that starts a new pass after finishing (or before the others have
    finished) starts a new epoch: the source is read again from the start."""

    def _init_epochs(self, num_instances):
        self.num_instances = num_instances
        self._epoch = 0
        self._child_epoch = [0] * num_instances
        self._child_done = [True] * num_instances

    def _start(self, instance_id):
        if self._child_epoch[instance_id] == self._epoch:
            if not all(self._child_done):
                warnings.warn(
                    "Some child DataPipes are not exhausted when __iter__ is called. We are resetting "
                    "the buffer and each child DataPipe will read from the start again.",
                    UserWarning,
                )
            self._epoch += 1
            self._restart()
            self._child_done = [False] * self.num_instances
        self._child_epoch[instance_id] = self._epoch
        self._child_done[instance_id] = False
        return self._epoch

    def _finish(self, instance_id):
        self._child_done[instance_id] = True


class _ForkerIterDataPipe(IterDataPipe, _Container):
    def __init__(self, datapipe, num_instances, buffer_size=1000):
        self.main_datapipe = datapipe
        self.buffer_size = buffer_size
        if self.buffer_size < 0:
            warnings.warn(
                "Unlimited buffer size is set for `fork`, please be aware of OOM at random places", UserWarning
            )
        self._init_epochs(num_instances)
        self._restart()

    def _restart(self):
        self._iterator = None
        self.buffer = deque()
        self.child_pointers = [0] * self.num_instances
        self.slowest_ptr = 0
        self.leading_ptr = 0
        self.end_ptr = None

    def _length(self, instance_id):
        return len(self.main_datapipe)

    def _iterate(self, instance_id):
        epoch = self._start(instance_id)
        if self._iterator is None:
            self._iterator = iter(self.main_datapipe)
        while self._epoch == epoch:
            ptr = self.child_pointers[instance_id]
            if ptr < self.leading_ptr:
                value = self.buffer[ptr - self.slowest_ptr]
            else:
                if self.end_ptr is not None:
                    break
                try:
                    value = next(self._iterator)
                except StopIteration:
                    self.end_ptr = self.leading_ptr
                    break
                self.leading_ptr += 1
                self.buffer.append(value)
                if 0 <= self.buffer_size < len(self.buffer):
                    raise BufferError(
                        "ForkerIterDataPipe buffer overflow,buffer size {} is insufficient.".format(self.buffer_size)
                    )
            self.child_pointers[instance_id] = ptr + 1
            slowest = min(self.child_pointers)
            while self.slowest_ptr < slowest:
                self.buffer.popleft()
                self.slowest_ptr += 1
            yield value
        if self._epoch == epoch:
            self._finish(instance_id)


@functional_datapipe("fork")
class ForkerIterDataPipe(IterDataPipe):
    """num_instances DataPipes that each yield all of datapipe's items, read once and kept in
    a buffer of at most buffer_size (-1: unbounded) until every copy has taken them."""

    def __new__(cls, datapipe, num_instances, buffer_size=1000):
        if num_instances < 1:
            raise ValueError(f"Expected `num_instaces` larger than 0, but {num_instances} is found")
        if num_instances == 1:
            return datapipe
        container = _ForkerIterDataPipe(datapipe, num_instances, buffer_size)
        return [_ChildDataPipe(container, i) for i in range(num_instances)]


class _DemultiplexerIterDataPipe(IterDataPipe, _Container):
    def __init__(self, datapipe, num_instances, classifier_fn, drop_none, buffer_size):
        self.main_datapipe = datapipe
        self.classifier_fn = classifier_fn
        self.drop_none = drop_none
        self.buffer_size = buffer_size
        if self.buffer_size < 0:
            warnings.warn(
                "Unlimited buffer size is set for `demux`, please be aware of OOM at random places", UserWarning
            )
        self._init_epochs(num_instances)
        self._restart()

    def _restart(self):
        self._iterator = None
        self.current_buffer_usage = 0
        self.child_buffers = [deque() for _ in range(self.num_instances)]
        self.main_datapipe_exhausted = False

    def _length(self, instance_id):
        raise TypeError("{} instance doesn't have valid length".format(type(self).__name__))

    def _find_next(self, instance_id):
        while True:
            if self.main_datapipe_exhausted:
                raise StopIteration
            try:
                value = next(self._iterator)
            except StopIteration:
                self.main_datapipe_exhausted = True
                raise
            classification = self.classifier_fn(value)
            if classification is None and self.drop_none:
                continue
            if classification is None or classification >= self.num_instances or classification < 0:
                raise ValueError(
                    f"Output of the classification fn should be between 0 and {self.num_instances - 1}. "
                    + f"{classification} is returned."
                )
            if classification == instance_id:
                return value
            self.child_buffers[classification].append(value)
            self.current_buffer_usage += 1
            if 0 <= self.buffer_size < self.current_buffer_usage:
                raise BufferError(
                    f"DemultiplexerIterDataPipe buffer overflow, buffer size {self.buffer_size} is insufficient."
                )

    def _iterate(self, instance_id):
        epoch = self._start(instance_id)
        if self._iterator is None:
            self._iterator = iter(self.main_datapipe)
        while self._epoch == epoch:
            if self.child_buffers[instance_id]:
                self.current_buffer_usage -= 1
                yield self.child_buffers[instance_id].popleft()
            else:
                try:
                    yield self._find_next(instance_id)
                except StopIteration:
                    break
        if self._epoch == epoch:
            self._finish(instance_id)


@functional_datapipe("demux")
class DemultiplexerIterDataPipe(IterDataPipe):
    """num_instances DataPipes, the i-th yielding the items for which classifier_fn gives i
    (None: dropped where drop_none, else an error); items for the others wait in a buffer of
    at most buffer_size (-1: unbounded)."""

    def __new__(cls, datapipe, num_instances, classifier_fn, drop_none=False, buffer_size=1000):
        if num_instances < 1:
            raise ValueError(f"Expected `num_instaces` larger than 0, but {num_instances} is found")
        container = _DemultiplexerIterDataPipe(datapipe, num_instances, classifier_fn, drop_none, buffer_size)
        return [_ChildDataPipe(container, i) for i in range(num_instances)]
