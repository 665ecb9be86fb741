"""Variable-length sequences for the recurrent layers: PackedSequence and the functions
that pack and pad.

A PackedSequence holds the time steps of a batch of sequences sorted by decreasing length,
one after the other: step t contributes its first batch_sizes[t] sequences' elements.
"""

from collections import namedtuple

import torch

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]


def _rows(t, dim, order):
    """t's entries along dim in the given order (an index_select made of selects)."""
    return torch.stack([t.select(dim, int(i)) for i in order], dim)


class PackedSequence(namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """(data, batch_sizes, sorted_indices, unsorted_indices): build it with
    pack_padded_sequence or pack_sequence, not directly."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """Moves data, and the indices along to data's new device (batch_sizes stays on the
        CPU), as PyTorch does."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        kwargs = {k: v for k, v in kwargs.items() if k not in ("device", "dtype")}
        sorted_indices, unsorted_indices = (
            None if t is None else t.to(data.device, **kwargs) for t in (self.sorted_indices, self.unsorted_indices)
        )
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def cuda(self, *args, **kwargs):
        probe = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        return self.to(*args, **kwargs) if probe.is_cuda else self.to(*args, device="cuda", **kwargs)

    def cpu(self, *args, **kwargs):
        probe = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        return self.to(*args, **kwargs) if probe.device.type == "cpu" else self.to(*args, device="cpu", **kwargs)

    def float(self):
        return self.to(dtype=torch.float32)

    def double(self):
        return self.to(dtype=torch.float64)

    def half(self):
        return self.to(dtype=torch.float16)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def invert_permutation(permutation):
    if permutation is None:
        return None
    return torch.argsort(permutation)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences of the
    given lengths."""
    lengths = torch.as_tensor(lengths, dtype=torch.int64)
    if lengths.dim() != 1:
        raise RuntimeError("lengths must be a 1D tensor (got %dD)" % lengths.dim())
    if lengths.device.type != "cpu":
        raise RuntimeError(
            "'lengths' argument should be a 1D CPU int64 tensor, but got 1D %s Long tensor" % lengths.device
        )
    batch_dim = 0 if batch_first else 1
    if enforce_sorted:
        values = lengths.tolist()
        if any(a < b for a, b in zip(values, values[1:])):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                "sidestep this requirement if you do not need ONNX exportability."
            )
        sorted_indices = None
    else:
        sorted_indices = torch.argsort(lengths, descending=True)
        lengths = _rows(lengths, 0, sorted_indices.tolist())
        input = _rows(input, batch_dim, sorted_indices.tolist())
        sorted_indices = sorted_indices.to(input.device)  # with the data; batch_sizes stays on the CPU
    values = lengths.tolist()
    if len(values) != input.size(batch_dim):
        raise RuntimeError(
            "Expected `len(lengths)` to be equal to batch_size, but got %d (batch_size=%d)"
            % (len(values), input.size(batch_dim))
        )
    if values and values[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    if values and values[0] > input.size(1 - batch_dim):
        raise RuntimeError(
            "Expected the longest sequence length %d to be at most the padded length %d"
            % (values[0], input.size(1 - batch_dim))
        )
    if batch_first:
        input = input.transpose(0, 1)
    batch_sizes = [sum(1 for n in values if n > t) for t in range(values[0] if values else 0)]
    data = torch.cat([input.select(0, t).narrow(0, 0, bs) for t, bs in enumerate(batch_sizes)], 0)
    return PackedSequence(data, torch.tensor(batch_sizes, dtype=torch.int64), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded batch, lengths)."""
    data, batch_sizes = sequence.data, sequence.batch_sizes.tolist()
    max_batch = batch_sizes[0]
    steps = len(batch_sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, but "
                "got total_length={} and max sequence length being {}".format(total_length, steps)
            )
    else:
        total_length = steps
    rest = tuple(data.shape[1:])
    padded = []
    offset = 0
    for bs in batch_sizes + [0] * (total_length - steps):
        parts = [data.narrow(0, offset, bs)] if bs else []
        if bs < max_batch:
            parts.append(torch.full((max_batch - bs,) + rest, padding_value, dtype=data.dtype, device=data.device))
        padded.append(torch.cat(parts, 0) if len(parts) > 1 else parts[0])
        offset += bs
    output = torch.stack(padded, 0)
    lengths = [sum(1 for bs in batch_sizes if bs > b) for b in range(max_batch)]
    lengths = torch.tensor(lengths, dtype=torch.int64)
    if sequence.unsorted_indices is not None:
        order = sequence.unsorted_indices.tolist()
        output = _rows(output, 1, order)
        lengths = _rows(lengths, 0, order)
    if batch_first:
        output = output.transpose(0, 1)
    return output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """Stacks tensors of shape (L_i, *) into (max L, B, *) (or (B, max L, *)), padding the
    shorter ones with padding_value."""
    if isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)
    max_len = max(s.size(0) for s in sequences)
    padded = []
    for s in sequences:
        if s.size(0) < max_len:
            fill = torch.full(
                (max_len - s.size(0),) + tuple(s.shape[1:]), padding_value, dtype=s.dtype, device=s.device
            )
            s = torch.cat([s, fill], 0)
        padded.append(s)
    return torch.stack(padded, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences of a padded batch, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    lengths = torch.as_tensor(lengths).tolist()
    return [seq.narrow(0, 0, int(n)) for seq, n in zip(padded_sequences.unbind(0), lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of tensors of shape (L_i, *)."""
    lengths = torch.tensor([s.size(0) for s in sequences], dtype=torch.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences of a PackedSequence."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
