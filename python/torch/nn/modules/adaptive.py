"""AdaptiveLogSoftmaxWithLoss: the softmax of Grave et al.'s "Efficient softmax approximation
for GPUs" for large vocabularies, as PyTorch 1.13 has it: the frequent classes (below
cutoffs[0]) and one entry per cluster in a head; each cluster's classes in a tail of two
linear layers, smaller by div_value per cluster. A class's log-probability is its cluster's
head log-probability plus its log-probability inside the cluster."""

from collections import namedtuple

import torch
import torch.nn.functional as F

from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if (
            cutoffs != sorted(cutoffs)
            or min(cutoffs, default=0) <= 0
            or max(cutoffs, default=0) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs)
            or any(int(c) != c for c in cutoffs)
        ):
            raise ValueError(
                "cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                "order, where each value is between 1 and n_classes-1"
            )
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, device=device, dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(
                Sequential(
                    Linear(in_features, hidden, bias=False, device=device, dtype=dtype),
                    Linear(hidden, size, bias=False, device=device, dtype=dtype),
                )
            )

    def reset_parameters(self):
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input, target):
        batched = target.dim() == 1
        if target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if input.dim() != target.dim() + 1:
            raise RuntimeError(
                f"{target.dim()}D target tensor expects {target.dim() + 1}D input tensors, but found "
                f"inputs with size {tuple(input.shape)}"
            )
        if batched and input.size(0) != target.size(0):
            raise RuntimeError("Input and target should have the same size in the batch dimension.")
        if input.size(-1) != self.in_features:
            raise RuntimeError(f"Input should have {self.in_features} features, got {input.size(-1)}")
        x = input if batched else input.unsqueeze(0)
        t = target if batched else target.unsqueeze(0)
        rows = t.size(0)
        output = x.new_zeros(rows)
        gather = t.new_empty(rows)
        used = 0
        bounds = [0] + self.cutoffs
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            mask = (t >= low) & (t < high)
            indices = mask.nonzero().squeeze(1)
            if indices.numel() == 0:
                continue
            if i == 0:
                gather = gather.index_copy(0, indices, t[mask])
            else:
                relative = t[mask] - low
                cluster = self.tail[i - 1](x.index_select(0, indices))
                gather = gather.index_fill(0, indices, self.shortlist_size + i - 1)
                local = F.log_softmax(cluster, dim=1).gather(1, relative.unsqueeze(1))
                output = output.index_copy(0, indices, local.squeeze(1))
            used += indices.numel()
        if used != rows:
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{t.min().item()}, {t.max().item()}] were found. "
            )
        head = F.log_softmax(self.head(x), dim=1)
        output = output + head.gather(1, gather.unsqueeze(1)).squeeze(1)
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, x, head_output):
        out = x.new_empty((head_output.size(0), self.n_classes))
        head = F.log_softmax(head_output, dim=1)
        out[:, : self.shortlist_size] = head[:, : self.shortlist_size]
        for i, (start, stop) in enumerate(zip(self.cutoffs, self.cutoffs[1:])):
            cluster = F.log_softmax(self.tail[i](x), dim=1)
            out[:, start:stop] = cluster + head[:, self.shortlist_size + i].unsqueeze(1)
        return out

    def log_prob(self, input):
        """Log-probabilities of every class, (N, n_classes) (or (n_classes,) for one input)."""
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        out = self._full_log_prob(x, self.head(x))
        return out if batched else out.squeeze(0)

    def predict(self, input):
        """The most likely class of each input (the full distribution only where a cluster's
        entry beats the shortlist in the head)."""
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        head_output = self.head(x)
        out = torch.argmax(head_output, dim=1)
        not_in_shortlist = out >= self.shortlist_size
        if bool(not_in_shortlist.any()):
            rows = not_in_shortlist.nonzero().squeeze(1)
            full = self._full_log_prob(x.index_select(0, rows), head_output.index_select(0, rows))
            out = out.index_copy(0, rows, torch.argmax(full, dim=1))
        return out if batched else out.squeeze(0)
