"""torch.cuda.Stream and torch.cuda.Event over the CUDA runtime (Note [Streams and events in
the bindings] in python/csrc/Cuda.cpp). A Stream is its handle (cuda_stream, 0 for the
default stream); work on a device goes on its current stream, set by torch.cuda.stream(s)."""

import torch
from torch import _C


class Stream:
    """A queue of GPU work that runs in order; work on different streams may overlap."""

    def __new__(cls, device=None, priority=0, _cdata=None):
        _C._cuda_require()
        self = super().__new__(cls)
        self.device = torch.device("cuda", torch.cuda.current_device() if device is None else _index(device))
        self.cuda_stream = _C._cuda_stream_new(priority) if _cdata is None else _cdata
        return self

    def wait_event(self, event):
        """Work queued on this stream from now on waits for event."""
        _C._cuda_stream_wait_event(self.cuda_stream, event._handle)

    def wait_stream(self, stream):
        """Work queued on this stream from now on waits for the work queued on stream until now."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def query(self):
        """Whether all the work queued on this stream is done."""
        return _C._cuda_stream_query(self.cuda_stream)

    def synchronize(self):
        """Waits for all the work queued on this stream."""
        _C._cuda_stream_synchronize(self.cuda_stream)

    def __eq__(self, other):
        return isinstance(other, Stream) and (self.cuda_stream, self.device) == (other.cuda_stream, other.device)

    def __hash__(self):
        return hash((self.cuda_stream, self.device))

    def __repr__(self):
        return "<torch.cuda.Stream device=%s cuda_stream=%#x>" % (self.device, self.cuda_stream)


class Event:
    """A marker in a stream's work: wait for it, ask whether it is done, time between two."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        if interprocess:
            raise RuntimeError("torch.cuda.Event(interprocess=True) is not supported yet")
        self.enable_timing = enable_timing
        self._handle = _C._cuda_event_new(enable_timing, blocking)

    def record(self, stream=None):
        stream = current_stream() if stream is None else stream
        _C._cuda_event_record(self._handle, stream.cuda_stream)

    def wait(self, stream=None):
        (current_stream() if stream is None else stream).wait_event(self)

    def query(self):
        return _C._cuda_event_query(self._handle)

    def synchronize(self):
        _C._cuda_event_synchronize(self._handle)

    def elapsed_time(self, end_event):
        """Milliseconds between this event's recording and end_event's (both with timing)."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        return _C._cuda_event_elapsed(self._handle, end_event._handle)

    def __del__(self):
        handle = getattr(self, "_handle", 0)
        if handle:
            _C._cuda_event_destroy(handle)
            self._handle = 0

    def __repr__(self):
        return "<torch.cuda.Event %#x>" % self._handle


def _index(device):
    if isinstance(device, int):
        return device
    d = torch.device(device)
    return torch.cuda.current_device() if d.index is None else d.index


def current_stream(device=None):
    """The stream the current thread queues work on (the default stream unless set)."""
    return Stream(device, _cdata=_C._cuda_current_stream())


def default_stream(device=None):
    return Stream(device, _cdata=0)


class StreamContext:
    """torch.cuda.stream(s): work inside the block goes on s (None: nothing changes)."""

    def __init__(self, stream):
        self.stream = stream
        self.previous = None

    def __enter__(self):
        if self.stream is not None:
            self.previous = _C._cuda_current_stream()
            _C._cuda_set_stream(self.stream.cuda_stream)
        return self.stream

    def __exit__(self, *exc):
        if self.stream is not None:
            _C._cuda_set_stream(self.previous)
        return False


def stream(stream):
    return StreamContext(stream)
