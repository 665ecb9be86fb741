"""Turning the samples a dataset returns into what a DataLoader yields.

default_collate stacks a list of samples into a batch, keeping the samples' structure
(dicts, namedtuples, tuples and lists of fields become one of each holding batched fields);
default_convert is what DataLoader applies to single samples when batching is off
(batch_size=None): numpy data becomes tensors, nothing is stacked.
"""

import collections.abc
import re

import numpy as np

import torch

# numpy dtype strings of bytes, unicode and object arrays, which have no tensor type.
_NP_NON_NUMERIC = re.compile(r"[SaUO]")

_COLLATE_TYPE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _is_numpy(obj):
    t = type(obj)
    return t.__module__ == "numpy" and t.__name__ not in ("str_", "string_", "bytes_")


def default_convert(data):
    """numpy arrays and scalars in data (at any depth of dicts, namedtuples, tuples and
    lists) become tensors; everything else is left as it is."""
    if torch.is_tensor(data):
        return data
    if _is_numpy(data):
        if type(data).__name__ in ("ndarray", "memmap") and _NP_NON_NUMERIC.search(data.dtype.str):
            return data
        return torch.as_tensor(np.asarray(data))  # a numpy scalar keeps its dtype as a 0-d array
    if isinstance(data, collections.abc.Mapping):
        converted = {key: default_convert(data[key]) for key in data}
        try:
            return type(data)(converted)
        except TypeError:  # a mapping type that cannot be built from a dict
            return converted
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # PyTorch gives a list here
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        converted = [default_convert(d) for d in data]
        try:
            return type(data)(converted)
        except TypeError:
            return converted
    return data


def default_collate(batch):
    """A batch from a list of samples of the same structure:
    - tensors -> torch.stack (a new leading dimension of len(batch));
    - numpy arrays -> tensors, stacked; numpy scalars -> a 1-D tensor;
    - Python floats -> a float64 tensor, ints (and bools) -> an int64 (bool) tensor;
    - str and bytes -> the list as it is;
    - Mapping -> the same mapping type with each key collated across samples;
    - namedtuple -> the same namedtuple of collated fields; tuple and other sequences ->
      a list (sequences: the same type when it can be built from a list) of collated
      fields; every sample must have the same length.
    """
    elem = batch[0]
    elem_type = type(elem)
    if torch.is_tensor(elem):
        return torch.stack(batch, 0)
    if _is_numpy(elem):
        if elem_type.__name__ in ("ndarray", "memmap"):
            if _NP_NON_NUMERIC.search(elem.dtype.str):
                raise TypeError(_COLLATE_TYPE_ERROR.format(elem.dtype))
            return default_collate([torch.as_tensor(b) for b in batch])
        if elem.shape == ():  # numpy scalars: one array keeps their dtype
            return torch.as_tensor(np.array(batch))
    elif isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    elif isinstance(elem, int):
        return torch.tensor(batch)
    elif isinstance(elem, (str, bytes)):
        return batch
    elif isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([sample[key] for sample in batch]) for key in elem}
        try:
            return elem_type(collated)
        except TypeError:
            return collated
    elif isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(default_collate(list(field)) for field in zip(*batch)))
    elif isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(list(field)) for field in zip(*batch)]
        if isinstance(elem, tuple):
            return fields
        try:
            return elem_type(fields)
        except TypeError:
            return fields
    raise TypeError(_COLLATE_TYPE_ERROR.format(elem_type))
