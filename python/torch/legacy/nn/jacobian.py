"""nn.Jacobian: a module's derivatives by backpropagation against central finite
differences (use double tensors). Inputs and outputs may be tensors or tables (lists) of
them; the tensors perturbed must be contiguous."""

import torch
from torch.legacy.nn.utils import no_grad

__all__ = ["Jacobian"]


def _tensors(x):
    if torch.is_tensor(x):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in _tensors(v)]
    raise TypeError("Jacobian: expected a tensor or a table of tensors, got %s" % type(x).__name__)


def _flat(x):
    ts = _tensors(x)
    if not ts:
        return torch.zeros(0, dtype=torch.float64)
    return torch.cat([t.reshape(-1).double() for t in ts])


def _zeros_like(x):
    if torch.is_tensor(x):
        return torch.zeros(x.shape, dtype=x.dtype)
    return [_zeros_like(v) for v in x]


def _clone(x):
    if torch.is_tensor(x):
        return x.clone()
    return [_clone(v) for v in x]


def _one_hots(output):
    """Zero structures shaped like output with a one at each element in turn (fresh
    tensors each time: a module may write into its gradOutput)."""
    grad = _zeros_like(output)
    for flat, i in _elements(grad):
        flat[i] = 1
        yield _clone(grad)
        flat[i] = 0


def _elements(x):
    """(flat view, index) for every element of the tensors in x."""
    for t in _tensors(x):
        if not t.is_contiguous():
            raise ValueError("Jacobian: the tensors perturbed must be contiguous")
        flat = t.view(-1)
        for i in range(flat.numel()):
            yield flat, i


def _fill(x, minval, maxval):
    for t in _tensors(x):
        t.uniform_(minval, maxval)


class Jacobian:
    @staticmethod
    @no_grad
    def forward(module, input, param=None, perturbation=1e-6):
        """Rows: elements of param (default: input); columns: elements of the output."""
        param = input if param is None else param
        n_out = _flat(module.forward(input)).numel()
        rows = []
        for flat, i in _elements(param):
            orig = flat[i].item()
            flat[i] = orig - perturbation
            minus = _flat(module.forward(input))
            flat[i] = orig + perturbation
            plus = _flat(module.forward(input))
            flat[i] = orig
            rows.append((plus - minus) / (2 * perturbation))
        return torch.stack(rows) if rows else torch.zeros(0, n_out, dtype=torch.float64)

    @staticmethod
    @no_grad
    def backward(module, input, param=None, dparam=None):
        """The same matrix from updateGradInput (or accGradParameters into dparam)."""
        output = module.forward(input)
        n_out = _flat(output).numel()
        columns = []
        for grad_output in _one_hots(output):
            module.zeroGradParameters()
            grad_input = module.updateGradInput(input, grad_output)
            if param is not None:
                module.accGradParameters(input, grad_output, 1)
                columns.append(_flat(dparam))
            else:
                columns.append(_flat(grad_input))
        n_in = _flat(input if param is None else param).numel()
        return torch.stack(columns, 1) if columns else torch.zeros(n_in, n_out, dtype=torch.float64)

    @staticmethod
    @no_grad
    def backwardUpdate(module, input, param):
        """Columns: param after accUpdateGradParameters(lr=1) for a one-hot gradOutput."""
        output = module.forward(input)
        params = module.parameters()[0]
        originals = [p.clone() for p in params]
        columns = []
        for grad_output in _one_hots(output):
            for p, o in zip(params, originals):
                p.copy_(o)
            module.updateGradInput(input, grad_output)
            module.accUpdateGradParameters(input, grad_output, 1)
            columns.append(_flat(param))
        for p, o in zip(params, originals):
            p.copy_(o)
        return torch.stack(columns, 1)

    @staticmethod
    def testJacobian(module, input, minval=-2, maxval=2, perturbation=1e-6):
        """Fills input uniformly in [minval, maxval]; the largest difference between the
        backpropagated and the numerical Jacobian with respect to the input."""
        _fill(input, minval, maxval)
        numerical = Jacobian.forward(module, input, perturbation=perturbation)
        analytical = Jacobian.backward(module, input)
        return (numerical - analytical).abs().max().item() if numerical.numel() else 0.0

    @staticmethod
    def testJacobianParameters(module, input, param, dparam, minval=-2, maxval=2, perturbation=1e-6):
        """The same for a parameter (param) and its gradient (dparam); both input and
        param are filled uniformly in [minval, maxval]."""
        _fill(input, minval, maxval)
        _fill(param, minval, maxval)
        numerical = Jacobian.forward(module, input, param, perturbation)
        analytical = Jacobian.backward(module, input, param, dparam)
        return (numerical - analytical).abs().max().item() if numerical.numel() else 0.0

    @staticmethod
    def testJacobianUpdateParameters(module, input, param, minval=-2, maxval=2, perturbation=1e-6):
        """accUpdateGradParameters(lr=1) must leave param - (its numerical derivative)."""
        _fill(input, minval, maxval)
        _fill(param, minval, maxval)
        updated = Jacobian.backwardUpdate(module, input, param)
        numerical = Jacobian.forward(module, input, param, perturbation)
        expected = _flat(param).unsqueeze(1) - numerical
        return (expected - updated).abs().max().item() if expected.numel() else 0.0
