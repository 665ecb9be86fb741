import warnings

from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe
from torch.utils.data.datapipes.utils.common import get_file_binaries_from_pathnames

__all__ = ["FileLoaderIterDataPipe", "FileOpenerIterDataPipe"]


@functional_datapipe("open_files")
class FileOpenerIterDataPipe(IterDataPipe):
    """(pathname, stream) for each pathname, the file opened in mode ('r', 'rt', 't' text;
    'rb', 'b' binary) as a StreamWrapper."""

    def __init__(self, datapipe, mode="r", encoding=None, length=-1):
        super().__init__()
        self.datapipe = datapipe
        self.mode = mode
        self.encoding = encoding
        if self.mode not in ("b", "t", "rb", "rt", "r"):
            raise ValueError("Invalid mode {}".format(mode))
        if "b" in mode and encoding is not None:
            raise ValueError("binary mode doesn't take an encoding argument")
        self.length = length

    def __iter__(self):
        yield from get_file_binaries_from_pathnames(self.datapipe, self.mode, self.encoding)

    def __len__(self):
        if self.length == -1:
            raise TypeError("{} instance doesn't have valid length".format(type(self).__name__))
        return self.length


class FileLoaderIterDataPipe(IterDataPipe):
    """FileOpener under its deprecated name (binary by default)."""

    def __new__(cls, datapipe, mode="b", length=-1):
        warnings.warn(
            "`FileLoaderIterDataPipe` is deprecated since 1.12 and will be removed in 1.13. "
            "Please use `FileOpenerIterDataPipe` instead.",
            DeprecationWarning,
        )
        return FileOpenerIterDataPipe(datapipe=datapipe, mode=mode, length=length)
