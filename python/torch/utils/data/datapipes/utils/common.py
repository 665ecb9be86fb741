"""Helpers of the file DataPipes: path listing by masks, opening, and StreamWrapper, the file
handle that closes itself when it is dropped."""

import fnmatch
import os
import warnings
from collections.abc import Iterable

__all__ = ["StreamWrapper", "get_file_binaries_from_pathnames", "get_file_pathnames_from_root", "match_masks"]


def match_masks(name, masks):
    """Whether name matches the glob mask (or any of the masks); no masks match everything."""
    if not masks:
        return True
    if isinstance(masks, str):
        return fnmatch.fnmatch(name, masks)
    return any(fnmatch.fnmatch(name, mask) for mask in masks)


def get_file_pathnames_from_root(root, masks, recursive=False, abspath=False, non_deterministic=False):
    """The files under root (root itself if it is a file) matching masks, sorted per directory
    unless non_deterministic; subdirectories only where recursive."""

    def onerror(err):
        warnings.warn(err.filename + " : " + err.strerror)
        raise err

    if os.path.isfile(root):
        path = os.path.abspath(root) if abspath else root
        if match_masks(os.path.basename(path), masks):
            yield path
        return
    for path, dirs, files in os.walk(root, onerror=onerror):
        if abspath:
            path = os.path.abspath(path)
        if not non_deterministic:
            files.sort()
        for f in files:
            if match_masks(f, masks):
                yield os.path.join(path, f)
        if not recursive:
            break
        if not non_deterministic:
            dirs.sort()


def get_file_binaries_from_pathnames(pathnames, mode, encoding=None):
    """(pathname, StreamWrapper of the open file) for each pathname."""
    if not isinstance(pathnames, Iterable):
        pathnames = [pathnames]
    if mode in ("b", "t"):
        mode = "r" + mode
    for pathname in pathnames:
        if not isinstance(pathname, str):
            raise TypeError("Expected string type for pathname, but got {}".format(type(pathname)))
        yield pathname, StreamWrapper(open(pathname, mode, encoding=encoding))


class StreamWrapper:
    """A file object that is closed when this wrapper is garbage-collected (or explicitly);
    everything else is the file's."""

    def __init__(self, file_obj, parent_stream=None, name=None):
        self.file_obj = file_obj
        self.child_counter = 0
        self.parent_stream = parent_stream
        self.close_on_last_child = False
        self.name = name
        self.closed = False
        if parent_stream is not None:
            if not isinstance(parent_stream, StreamWrapper):
                raise RuntimeError("Parent stream should be StreamWrapper, {} was given".format(type(parent_stream)))
            parent_stream.child_counter += 1

    @classmethod
    def close_streams(cls, v, depth=0):
        """Closes every StreamWrapper in a structure of dicts, lists and tuples."""
        if depth > 10:
            return
        if isinstance(v, StreamWrapper):
            v.close()
        elif isinstance(v, dict):
            for vv in v.values():
                cls.close_streams(vv, depth=depth + 1)
        elif isinstance(v, (list, tuple)):
            for vv in v:
                cls.close_streams(vv, depth=depth + 1)

    def __getattr__(self, name):
        return getattr(self.__dict__["file_obj"], name)

    def close(self, *args, **kwargs):
        parent = self.__dict__.get("parent_stream")
        if parent is not None:
            parent.child_counter -= 1
            if not parent.child_counter and parent.close_on_last_child:
                parent.close()
        try:
            self.file_obj.close(*args, **kwargs)
        except AttributeError:
            pass
        self.closed = True

    def autoclose(self):
        """Closes now if no child stream is open, else when the last one closes."""
        if self.child_counter == 0:
            self.close()
        self.close_on_last_child = True

    def __dir__(self):
        return list(set(list(self.__dict__.keys()) + list(StreamWrapper.__dict__.keys()) + dir(self.file_obj)))

    def __del__(self):
        if not self.__dict__.get("closed", True):
            self.close()

    def __iter__(self):
        for line in self.file_obj:
            yield line

    def __next__(self):
        return next(self.file_obj)

    def __repr__(self):
        if self.name is None:
            return f"StreamWrapper<{self.file_obj!r}>"
        return f"StreamWrapper<{self.name},{self.file_obj!r}>"

    def __getstate__(self):
        return self.file_obj

    def __setstate__(self, obj):
        self.file_obj = obj


class ShuffleSettings:
    """set_shuffle / set_seed of the shuffling pipes (what graph_settings.apply_shuffle_* and
    DataLoader call): whether the pipe shuffles, and the seed of its next pass."""

    def set_shuffle(self, shuffle=True):
        self._enabled = shuffle
        return self

    def set_seed(self, seed):
        self._seed = seed
        return self
