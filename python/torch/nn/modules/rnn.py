"""Recurrent layers RNN, LSTM, GRU and their one-step cells, written with tensor
operations (F.linear, sigmoid, tanh, chunk, stack, cat) so that autograd differentiates them.

Note [Recurrence over batch sizes]
A layer runs over a list of time steps where step t holds batch_sizes[t] rows: all equal
for a padded batch, decreasing for a PackedSequence (sequences sorted by length). Going
forward in time the rows of sequences that have ended are set aside as their final state;
going backward the state grows, new rows starting from the initial state. The input part
of every gate (W_ih x + b_ih) is computed for all steps at once, before the loop.
"""

import math
import numbers
import warnings

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter
from torch.nn.utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _reorder(t, dim, order):
    """t's entries along dim in the given order (an index_select made of selects)."""
    if order is None:
        return t
    return torch.stack([t.select(dim, int(i)) for i in order.tolist()], dim)


def _tanh_step(gi, h, w_hh, b_hh):
    return torch.tanh(gi + F.linear(h, w_hh, b_hh))


def _relu_step(gi, h, w_hh, b_hh):
    return F.relu(gi + F.linear(h, w_hh, b_hh))


def _gru_step(gi, h, w_hh, b_hh):
    gh = F.linear(h, w_hh, b_hh)
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return n + z * (h - n)


def _lstm_step(gi, state, w_hh, b_hh, w_hr=None):
    h, c = state
    gates = gi + F.linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, 1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    h = torch.sigmoid(o) * torch.tanh(c)
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


def _run_direction(step, gates, batch_sizes, initial, reverse):
    """Runs one direction of one layer (Note [Recurrence over batch sizes]). gates: the input
    part of the gates per step; initial: the tuple of initial states (B, *). Returns the
    outputs per step and the tuple of final states (B, *)."""
    steps = len(gates)
    outputs = [None] * steps
    if not reverse:
        state = initial
        finished = []
        for t in range(steps):
            bs = batch_sizes[t]
            rows = state[0].size(0)
            if rows > bs:
                finished.append(tuple(s.narrow(0, bs, rows - bs) for s in state))
                state = tuple(s.narrow(0, 0, bs) for s in state)
            state = step(gates[t], state)
            outputs[t] = state[0]
        finished.append(state)
        pieces = finished[::-1]
        final = tuple(
            torch.cat([p[i] for p in pieces], 0) if len(pieces) > 1 else pieces[0][i] for i in range(len(initial))
        )
        return outputs, final
    state = tuple(s.narrow(0, 0, batch_sizes[-1]) for s in initial)
    for t in range(steps - 1, -1, -1):
        bs = batch_sizes[t]
        rows = state[0].size(0)
        if rows < bs:
            state = tuple(torch.cat([s, s0.narrow(0, rows, bs - rows)], 0) for s, s0 in zip(state, initial))
        state = step(gates[t], state)
        outputs[t] = state[0]
    return outputs, state


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the weights per layer and direction, named
    weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} (+ '_reverse'), and the loop."""

    def __init__(
        self,
        mode,
        input_size,
        hidden_size,
        num_layers=1,
        bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        proj_size=0,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                "expects num_layers greater than 1, but got dropout={} and num_layers={}".format(dropout, num_layers)
            )
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [
                    ("weight_ih_l{}{}", (gate_size, layer_input_size)),
                    ("weight_hh_l{}{}", (gate_size, real_hidden_size)),
                ]
                if bias:
                    shapes += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                names = []
                for pattern, shape in shapes:
                    name = pattern.format(layer, suffix)
                    setattr(self, name, Parameter(torch.empty(shape, device=device, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """Kept for scripts that call it: the weights are used where they are."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ---- argument checks (PyTorch's messages) ----
    def check_input(self, input, batch_sizes):
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError("input must have {} dimensions, got {}".format(expected_input_dim, input.dim()))
        if self.input_size != input.size(-1):
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected {}, got {}".format(
                    self.input_size, input.size(-1)
                )
            )

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, hidden)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return _reorder(hx, 1, permutation)

    # ---- the recurrence ----
    def _layer_weights(self, layer, direction):
        suffix = "_reverse" if direction == 1 else ""
        get = lambda pattern: getattr(self, pattern.format(layer, suffix), None)  # noqa: E731
        return (
            get("weight_ih_l{}{}"),
            get("weight_hh_l{}{}"),
            get("bias_ih_l{}{}"),
            get("bias_hh_l{}{}"),
            get("weight_hr_l{}{}"),
        )

    def _step_function(self, w_hh, b_hh, w_hr):
        if self.mode == "LSTM":
            return lambda gi, state: _lstm_step(gi, state, w_hh, b_hh, w_hr)
        single = {"GRU": _gru_step, "RNN_TANH": _tanh_step, "RNN_RELU": _relu_step}[self.mode]
        return lambda gi, state: (single(gi, state[0], w_hh, b_hh),)

    def _run(self, data, batch_sizes, initial):
        """All layers over data ((T, B, F) padded, or (N, F) packed with batch_sizes).
        initial: a tuple of (L * D, B, *) state tensors. Returns (output data, final states)."""
        packed = data.dim() == 2
        num_directions = 2 if self.bidirectional else 1
        finals = [[] for _ in initial]
        for layer in range(self.num_layers):
            if layer > 0 and self.dropout > 0 and self.training:
                data = F.dropout(data, self.dropout, True)
            outputs = []
            for direction in range(num_directions):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._layer_weights(layer, direction)
                gates = F.linear(data, w_ih, b_ih)
                gates = gates.split(batch_sizes, 0) if packed else gates.unbind(0)
                index = layer * num_directions + direction
                start = tuple(s.select(0, index) for s in initial)
                out, final = _run_direction(
                    self._step_function(w_hh, b_hh, w_hr), gates, batch_sizes, start, direction == 1
                )
                outputs.append(torch.cat(out, 0) if packed else torch.stack(out, 0))
                for i, f in enumerate(final):
                    finals[i].append(f)
            data = outputs[0] if num_directions == 1 else torch.cat(outputs, data.dim() - 1)
        return data, tuple(torch.stack(f, 0) for f in finals)

    def _prepare(self, input, hx, state_sizes, messages):
        """Checks and normalizes the arguments: (time-major data, batch sizes per step,
        initial states, how to rebuild the output). state_sizes: the last size of each state
        tensor (h, or h and c); messages: their size-mismatch messages."""
        dims_message = (
            "For unbatched 2-D input, hx should also be 2-D but got {}-D tensor",
            "For batched 3-D input, hx should also be 3-D but got {}-D tensor",
        )
        if len(state_sizes) == 2:
            dims_message = (
                "For unbatched 2-D input, hx and cx should also be 2-D but got ({}-D, {}-D) tensors",
                "For batched 3-D input, hx and cx should also be 3-D but got ({}-D, {}-D) tensors",
            )
        self._check_devices(input.data if isinstance(input, PackedSequence) else input, hx)
        if isinstance(input, PackedSequence):
            data, batch_sizes_tensor, sorted_indices, unsorted_indices = input
            batch_sizes = batch_sizes_tensor.tolist()
            max_batch = batch_sizes[0]
            if hx is not None:
                hx = tuple(self.permute_hidden(h, sorted_indices) for h in hx)
            self.check_input(data, batch_sizes_tensor)
            batched, batch_dim = True, None
        else:
            batch_dim = 0 if self.batch_first else 1
            batched = input.dim() == 3
            if not batched:
                if input.dim() != 2:
                    raise ValueError(
                        "{}: Expected input to be 2-D or 3-D but received {}-D tensor".format(
                            type(self).__name__, input.dim()
                        )
                    )
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if any(h.dim() != 2 for h in hx):
                        raise RuntimeError(dims_message[0].format(*[h.dim() for h in hx]))
                    hx = tuple(h.unsqueeze(1) for h in hx)
            elif hx is not None and any(h.dim() != 3 for h in hx):
                raise RuntimeError(dims_message[1].format(*[h.dim() for h in hx]))
            self.check_input(input, None)
            data = input.transpose(0, 1) if self.batch_first else input
            max_batch = data.size(1)
            batch_sizes = [max_batch] * data.size(0)
            sorted_indices = unsorted_indices = None
        num_directions = 2 if self.bidirectional else 1
        if hx is None:
            hx = tuple(
                torch.zeros(self.num_layers * num_directions, max_batch, size, dtype=data.dtype, device=data.device)
                for size in state_sizes
            )
        for h, size, message in zip(hx, state_sizes, messages):
            self.check_hidden_size(h, (self.num_layers * num_directions, max_batch, size), message)
        return data, batch_sizes, hx, (input, batched, batch_dim, sorted_indices, unsorted_indices)

    def _check_devices(self, input, hx):
        # PyTorch 1.13's check (check_attributes in ATen's RNN.cpp): the states, then the weights
        named = [("hidden", h) for h in (hx or ())] + [("parameter", p) for p in self._flat_weights_list()]
        for name, t in named:
            if t is not None and t.device != input.device:
                raise RuntimeError(
                    "Input and {0} tensors are not at the same device, found input tensor at {1} and {0} tensor "
                    "at {2}".format(name, input.device, t.device)
                )

    def _flat_weights_list(self):
        return [
            p
            for layer in range(self.num_layers)
            for d in range(2 if self.bidirectional else 1)
            for p in self._layer_weights(layer, d)
        ]

    def _finish(self, output, finals, how):
        input, batched, batch_dim, sorted_indices, unsorted_indices = how
        if isinstance(input, PackedSequence):
            output = PackedSequence(output, input.batch_sizes, sorted_indices, unsorted_indices)
            return output, tuple(self.permute_hidden(f, unsorted_indices) for f in finals)
        if self.batch_first:
            output = output.transpose(0, 1)
        if not batched:
            output = output.squeeze(batch_dim)
            finals = tuple(f.squeeze(1) for f in finals)
        return output, finals


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh) (or relu with
    nonlinearity='relu'). forward(input, h_0=None) -> (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError("Unknown nonlinearity '{}'".format(self.nonlinearity))
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        data, batch_sizes, (h0,), how = self._prepare(
            input, None if hx is None else (hx,), [self.hidden_size], ["Expected hidden size {}, got {}"]
        )
        output, (hn,) = self._run(data, batch_sizes, (h0,))
        output, (hn,) = self._finish(output, (hn,), how)
        return output, hn


class LSTM(RNNBase):
    """Long short-term memory: forward(input, (h_0, c_0)=None) -> (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def forward(self, input, hx=None):
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise RuntimeError("LSTM expects hx to be a tuple (h_0, c_0)")
        data, batch_sizes, states, how = self._prepare(
            input,
            hx,
            [real_hidden, self.hidden_size],
            ["Expected hidden[0] size {}, got {}", "Expected hidden[1] size {}, got {}"],
        )
        output, finals = self._run(data, batch_sizes, states)
        return self._finish(output, finals, how)


class GRU(RNNBase):
    """Gated recurrent unit: forward(input, h_0=None) -> (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        data, batch_sizes, (h0,), how = self._prepare(
            input, None if hx is None else (hx,), [self.hidden_size], ["Expected hidden size {}, got {}"]
        )
        output, (hn,) = self._run(data, batch_sizes, (h0,))
        output, (hn,) = self._finish(output, (hn,), how)
        return output, hn


class RNNCellBase(Module):
    """weight_ih (chunks * hidden, input), weight_hh (chunks * hidden, hidden) and biases of a
    one-step cell."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty(num_chunks * hidden_size, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(torch.empty(num_chunks * hidden_size, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, states, labels):
        """input and states with a batch dimension, checked against the cell's sizes."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError("{}: Expected input to be 1-D or 2-D but received {}-D tensor".format(name, input.dim()))
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if input.size(1) != self.input_size:
            raise RuntimeError(
                "input has inconsistent input_size: got {} expected {}".format(input.size(1), self.input_size)
            )
        if states is None:
            states = [
                torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device) for _ in labels
            ]
        else:
            states = [s if batched else s.unsqueeze(0) for s in states]
        for s, label in zip(states, labels):
            if input.size(0) != s.size(0):
                raise RuntimeError(
                    "Input batch size {} doesn't match hidden{} batch size {}".format(input.size(0), label, s.size(0))
                )
            if s.size(1) != self.hidden_size:
                raise RuntimeError(
                    "hidden{} has inconsistent hidden_size: got {}, expected {}".format(
                        label, s.size(1), self.hidden_size
                    )
                )
        return input, states, batched


class RNNCell(RNNCellBase):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, (h,), batched = self._batched(input, None if hx is None else (hx,), ["0"])
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        if self.nonlinearity == "tanh":
            result = _tanh_step(gi, h, self.weight_hh, self.bias_hh)
        elif self.nonlinearity == "relu":
            result = _relu_step(gi, h, self.weight_hh, self.bias_hh)
        else:
            raise RuntimeError("Unknown nonlinearity: {}".format(self.nonlinearity))
        return result if batched else result.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h, c) -> (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (h, c), batched = self._batched(input, hx, ["0", "1"])
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        h, c = _lstm_step(gi, (h, c), self.weight_hh, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h -> h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (h,), batched = self._batched(input, None if hx is None else (hx,), ["0"])
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        result = _gru_step(gi, h, self.weight_hh, self.bias_hh)
        return result if batched else result.squeeze(0)
