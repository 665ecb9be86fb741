"""Cases of torch.autograd.graph (saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks),
run the same way by this package and by real PyTorch 1.13 (Debian's python3-torch): each case
records what the hooks saw and returns gradients, counts and exception names. test_saved_hooks.py
compares the two runs.

Run directly (`python3 saved_hooks_cases.py OUT.npz`) it writes every case's results to OUT.npz,
with the `torch` that interpreter imports."""

import numpy as np

import case_runner

from functional_cases import error_name

CASES, case = case_runner.registry()


def leaf(torch, values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


class Counter:
    """Identity hooks that count their calls."""

    def __init__(self):
        self.packed = self.unpacked = 0

    def pack(self, t):
        self.packed += 1
        return t

    def unpack(self, t):
        self.unpacked += 1
        return t


@case
def identity_hooks_count(torch):
    x = leaf(torch, [1.0, 2.0, 3.0])
    hooks = Counter()
    with torch.autograd.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        y = (x * x).sum()
    packed = hooks.packed
    y.backward()
    return [np.array([packed, hooks.unpacked]), x.grad.numpy()]


@case
def only_what_backward_needs_is_packed(torch):
    """mul keeps an operand only for the other operand's gradient."""
    x = leaf(torch, [1.0, 2.0, 3.0])
    c = torch.tensor([4.0, 5.0, 6.0], dtype=torch.float64)
    counts = []
    for fn in (lambda: x * 2, lambda: x * c, lambda: c * x, lambda: x / c, lambda: x * x):
        hooks = Counter()
        with torch.autograd.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
            fn()
        counts.append(hooks.packed)
    return [np.array(counts)]


@case
def numpy_round_trip(torch):
    """Saved tensors kept as numpy copies: the same gradients as without hooks."""
    rng = np.random.RandomState(0)
    w = leaf(torch, rng.randn(4, 3))
    b = leaf(torch, rng.randn(3))
    x = torch.tensor(rng.randn(5, 4))

    def pack(t):
        return t.detach().numpy().copy()

    with torch.autograd.graph.saved_tensors_hooks(pack, torch.from_numpy):
        h = torch.relu(x @ w + b)
        loss = (torch.sigmoid(h) * torch.exp(-h) + torch.tanh(h) ** 2).sum()
    loss.backward()
    return [loss.detach().numpy(), w.grad.numpy(), b.grad.numpy()]


@case
def packed_copy_ignores_later_changes(torch):
    """No version check through hooks: backward uses the value packed before the change."""
    x = leaf(torch, [1.0, 2.0, 3.0])
    y = x * 1
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda p: p):
        z = (y * y).sum()
    with torch.no_grad():
        y.mul_(10)
    z.backward()
    return [x.grad.numpy()]


@case
def custom_function(torch):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a**3

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return 3 * a**2 * grad

    x = leaf(torch, [1.0, -2.0])
    hooks = Counter()
    with torch.autograd.graph.saved_tensors_hooks(hooks.pack, lambda p: p * 2):
        y = Cube.apply(x)
    y.sum().backward()
    return [np.array(hooks.packed), x.grad.numpy()]


@case
def innermost_pair_acts(torch):
    x = leaf(torch, [1.0, 2.0])
    outer, inner = Counter(), Counter()
    with torch.autograd.graph.saved_tensors_hooks(outer.pack, outer.unpack):
        with torch.autograd.graph.saved_tensors_hooks(inner.pack, inner.unpack):
            y = (x * x).sum()
        z = (x * x).sum()
    (y + z).backward()
    return [np.array([outer.packed, outer.unpacked, inner.packed, inner.unpacked]), x.grad.numpy()]


@case
def save_on_cpu(torch):
    x = leaf(torch, [0.5, 1.5, -1.0])
    with torch.autograd.graph.save_on_cpu():
        y = (torch.sin(x) * torch.exp(x)).sum()
    y.backward()
    return [x.grad.numpy()]


@case
def errors(torch):
    graph = torch.autograd.graph
    x = leaf(torch, [1.0, 2.0])
    with graph.saved_tensors_hooks(lambda t: 5, lambda p: p):
        y = (x * x).sum()

    def push_while_disabled():
        with graph.disable_saved_tensors_hooks("no hooks here"):
            with graph.save_on_cpu():
                pass

    def disable_while_pushed():
        with graph.save_on_cpu():
            with graph.disable_saved_tensors_hooks("no hooks here"):
                pass

    def after():
        with graph.save_on_cpu():  # both blocks above left everything as it was
            return (x * 3).sum()

    return [
        error_name(y.backward),
        error_name(push_while_disabled),
        error_name(disable_while_pushed),
        error_name(after),
    ]


if __name__ == "__main__":
    case_runner.main(CASES)
