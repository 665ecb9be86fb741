from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe

__all__ = ["StreamReaderIterDataPipe"]


@functional_datapipe("read_from_stream")
class StreamReaderIterDataPipe(IterDataPipe):
    """(label, data) for each chunk of each (label, stream): the whole stream at once, or
    chunk bytes (characters) at a time; each stream is closed at its end."""

    def __init__(self, datapipe, chunk=None):
        self.datapipe = datapipe
        self.chunk = chunk

    def __iter__(self):
        for furl, stream in self.datapipe:
            while True:
                d = stream.read(self.chunk) if self.chunk is not None else stream.read()
                if not d:
                    stream.close()
                    break
                yield (furl, d)
