"""Containers: modules made of modules (`modules`, a list)."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module

__all__ = [
    "Container",
    "Sequential",
    "Parallel",
    "Concat",
    "DepthConcat",
    "ConcatTable",
    "ParallelTable",
    "MapTable",
    "Bottle",
]


class Container(Module):
    """A module holding other modules in `modules`; parameters, modes, types and state
    go to every one of them."""

    def __init__(self, *args):
        super().__init__()
        self.modules = []

    def add(self, module):
        self.modules.append(module)
        return self

    def get(self, index):
        return self.modules[index]

    def size(self):
        return len(self.modules)

    def applyToModules(self, fn):
        for m in self.modules:
            fn(m)

    def zeroGradParameters(self):
        self.applyToModules(lambda m: m.zeroGradParameters())

    def updateParameters(self, learningRate):
        self.applyToModules(lambda m: m.updateParameters(learningRate))

    def training(self):
        super().training()
        self.applyToModules(lambda m: m.training())
        return self

    def evaluate(self):
        super().evaluate()
        self.applyToModules(lambda m: m.evaluate())
        return self

    def share(self, other, *names):
        for mine, theirs in zip(self.modules, other.modules):
            mine.share(theirs, *names)
        return self

    def reset(self, stdv=None):
        self.applyToModules(lambda m: m.reset(stdv) if hasattr(m, "reset") else None)
        return self

    def clearState(self):
        super().clearState()
        self.applyToModules(lambda m: m.clearState())
        return self

    def parameters(self):
        weights, grads = [], []
        for m in self.modules:
            p = m.parameters()
            if p:
                weights.extend(p[0])
                grads.extend(p[1])
        return weights, grads

    def _child(self, i):
        return "(%d): %s" % (i + 1, repr(self.modules[i]).replace("\n", "\n  "))

    def _branches(self):
        """torch7's picture of modules side by side."""
        lines = [self.torch_typename() + " {", "  input"]
        for i, m in enumerate(self.modules):
            last = i == len(self.modules) - 1
            inner = repr(m).replace("\n", "\n  " + ("       " if last else "  |    "))
            lines.append("  " + ("   `-> " if last else "  |`-> ") + "(%d): %s" % (i + 1, inner))
        lines.append("     ... -> output")
        return "\n".join(lines) + "\n}"


class Sequential(Container):
    """modules applied one after the other: each one's output is the next one's input."""

    def insert(self, module, index=None):
        """Inserts module before position index (0-based; at the end by default)."""
        if index is None:
            index = len(self.modules)
        utils.check(
            -len(self.modules) <= index <= len(self.modules),
            IndexError,
            "Sequential.insert: index %d is out of range for %d modules",
            index,
            len(self.modules),
        )
        self.modules.insert(index, module)
        return self

    def remove(self, index=None):
        """Removes the module at index (0-based; the last one by default)."""
        if index is None:
            index = len(self.modules) - 1
        utils.check(
            -len(self.modules) <= index < len(self.modules),
            IndexError,
            "Sequential.remove: index %d is out of range for %d modules",
            index,
            len(self.modules),
        )
        del self.modules[index]
        return self

    def updateOutput(self, input):
        current = input
        for m in self.modules:
            current = m.updateOutput(current)
        self.output = current
        return current

    def _inputs(self, input):
        return [input] + [m.output for m in self.modules[:-1]]

    def updateGradInput(self, input, gradOutput):
        current = gradOutput
        for m, x in reversed(list(zip(self.modules, self._inputs(input)))):
            current = m.updateGradInput(x, current)
        self.gradInput = current
        return current

    def accGradParameters(self, input, gradOutput, scale=1):
        grads = [m.gradInput for m in self.modules[1:]] + [gradOutput]
        for m, x, g in reversed(list(zip(self.modules, self._inputs(input), grads))):
            m.accGradParameters(x, g, scale)

    def backward(self, input, gradOutput, scale=1):
        current = gradOutput
        for m, x in reversed(list(zip(self.modules, self._inputs(input)))):
            current = m.backward(x, current, scale)
        self.gradInput = current
        return current

    def accUpdateGradParameters(self, input, gradOutput, lr):
        grads = [m.gradInput for m in self.modules[1:]] + [gradOutput]
        for m, x, g in reversed(list(zip(self.modules, self._inputs(input), grads))):
            m.accUpdateGradParameters(x, g, lr)

    def __repr__(self):
        arrows = "".join(" -> (%d)" % (i + 1) for i in range(len(self.modules)))
        lines = ["nn.Sequential {", "  [input%s -> output]" % arrows]
        lines += ["  " + self._child(i) for i in range(len(self.modules))]
        return "\n".join(lines) + "\n}"


def _add_into(total, g):
    """total + g for tensors or (nested) tables of them, accumulated in total when it is ours."""
    if total is None:
        return _copy(g)
    if torch.is_tensor(g):
        utils.check(
            total.shape == g.shape,
            RuntimeError,
            "gradients of sizes %s and %s cannot be added",
            tuple(total.shape),
            tuple(g.shape),
        )
        return total.add_(g)
    return [_add_into(t, v) for t, v in zip(total, g)]


def _copy(g):
    if torch.is_tensor(g):
        return g.clone()
    return [_copy(v) for v in g]


class _Concatenating(Container):
    """Outputs of the modules concatenated along `dimension` (0-based)."""

    def _dim(self, t):
        dim = int(self.dimension)
        dim = dim + t.dim() if dim < 0 else dim
        utils.check(
            0 <= dim < t.dim(),
            IndexError,
            "%s: dimension %d is out of range for an output of size %s",
            self.torch_typename(),
            int(self.dimension),
            tuple(t.shape),
        )
        return dim

    def _join(self, outputs):
        utils.check(len(outputs) > 0, RuntimeError, "%s: no modules", self.torch_typename())
        dim = self._dim(outputs[0])
        for o in outputs:
            same = o.dim() == outputs[0].dim() and all(
                a == b for d, (a, b) in enumerate(zip(o.shape, outputs[0].shape)) if d != dim
            )
            utils.check(
                same,
                RuntimeError,
                "%s: outputs of sizes %s and %s cannot be concatenated along dimension %d",
                self.torch_typename(),
                tuple(outputs[0].shape),
                tuple(o.shape),
                dim,
            )
        return torch.cat(outputs, dim)

    def _pieces(self, gradOutput):
        dim = self._dim(gradOutput)
        total = sum(m.output.size(dim) for m in self.modules)
        utils.check(
            gradOutput.size(dim) == total,
            RuntimeError,
            "%s: gradOutput of size %s does not fit the output",
            self.torch_typename(),
            tuple(gradOutput.shape),
        )
        pieces, offset = [], 0
        for m in self.modules:
            pieces.append(self._window(gradOutput, m.output, dim, offset))
            offset += m.output.size(dim)
        return pieces

    def _window(self, gradOutput, output, dim, offset):
        return gradOutput.narrow(dim, offset, output.size(dim))

    def __repr__(self):
        return self._branches()


class Concat(_Concatenating):
    """Every module gets the input; their outputs are concatenated along dimension."""

    def __init__(self, dimension):
        super().__init__()
        self.dimension = dimension

    def updateOutput(self, input):
        self.output = self._join([m.updateOutput(input) for m in self.modules])
        return self.output

    def updateGradInput(self, input, gradOutput):
        total = None
        for m, g in zip(self.modules, self._pieces(gradOutput)):
            total = _add_into(total, m.updateGradInput(input, g))
        self.gradInput = total
        return total

    def accGradParameters(self, input, gradOutput, scale=1):
        for m, g in zip(self.modules, self._pieces(gradOutput)):
            m.accGradParameters(input, g, scale)

    def backward(self, input, gradOutput, scale=1):
        total = None
        for m, g in zip(self.modules, self._pieces(gradOutput)):
            total = _add_into(total, m.backward(input, g, scale))
        self.gradInput = total
        return total

    def accUpdateGradParameters(self, input, gradOutput, lr):
        for m, g in zip(self.modules, self._pieces(gradOutput)):
            m.accUpdateGradParameters(input, g, lr)


class DepthConcat(Concat):
    """Concat for outputs that differ in their other dimensions too: each output sits
    centred in the largest size (the rest zeros)."""

    def _join(self, outputs):
        utils.check(len(outputs) > 0, RuntimeError, "nn.DepthConcat: no modules")
        dim = self._dim(outputs[0])
        utils.check(
            all(o.dim() == outputs[0].dim() for o in outputs),
            RuntimeError,
            "nn.DepthConcat: outputs must have the same number of dimensions",
        )
        size = [max(o.size(d) for o in outputs) for d in range(outputs[0].dim())]
        size[dim] = sum(o.size(dim) for o in outputs)
        out = torch.zeros(size, dtype=outputs[0].dtype)
        offset = 0
        for o in outputs:
            self._place(out, o, dim, offset).copy_(o)
            offset += o.size(dim)
        return out

    @staticmethod
    def _place(big, small, dim, offset):
        window = big.narrow(dim, offset, small.size(dim))
        for d in range(small.dim()):
            if d != dim and big.size(d) != small.size(d):
                window = window.narrow(d, (big.size(d) - small.size(d)) // 2, small.size(d))
        return window

    def _window(self, gradOutput, output, dim, offset):
        return self._place(gradOutput, output, dim, offset)


class Parallel(_Concatenating):
    """Module i gets input.select(inputDimension, i); their outputs are concatenated along
    outputDimension."""

    def __init__(self, inputDimension, outputDimension):
        super().__init__()
        self.inputDimension = inputDimension
        self.outputDimension = outputDimension

    @property
    def dimension(self):
        return self.outputDimension

    def _inputs(self, input):
        utils.check_tensor(input, "nn.Parallel: input")
        dim = int(self.inputDimension)
        dim = dim + input.dim() if dim < 0 else dim
        utils.check(
            0 <= dim < input.dim() and input.size(dim) == len(self.modules),
            RuntimeError,
            "nn.Parallel: input of size %s must hold %d slices along dimension %d",
            tuple(input.shape),
            len(self.modules),
            int(self.inputDimension),
        )
        return dim, [input.select(dim, i) for i in range(len(self.modules))]

    def updateOutput(self, input):
        _, inputs = self._inputs(input)
        self.output = self._join([m.updateOutput(x) for m, x in zip(self.modules, inputs)])
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim, inputs = self._inputs(input)
        grad = torch.zeros_like(input)
        for i, (m, x, g) in enumerate(zip(self.modules, inputs, self._pieces(gradOutput))):
            grad.select(dim, i).copy_(m.updateGradInput(x, g))
        self.gradInput = grad
        return grad

    def accGradParameters(self, input, gradOutput, scale=1):
        _, inputs = self._inputs(input)
        for m, x, g in zip(self.modules, inputs, self._pieces(gradOutput)):
            m.accGradParameters(x, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        _, inputs = self._inputs(input)
        for m, x, g in zip(self.modules, inputs, self._pieces(gradOutput)):
            m.accUpdateGradParameters(x, g, lr)


class ConcatTable(Container):
    """Every module gets the input; the output is the table of their outputs."""

    def __init__(self):
        super().__init__()
        self.output = []  # a table from the start, as torch7's (Lua nn fills a saved one in place)

    def updateOutput(self, input):
        self.output = [m.updateOutput(input) for m in self.modules]
        return self.output

    def _grads(self, gradOutput):
        utils.check(
            isinstance(gradOutput, (list, tuple)) and len(gradOutput) == len(self.modules),
            TypeError,
            "%s: gradOutput must be a table of %d entries",
            self.torch_typename(),
            len(self.modules),
        )
        return gradOutput

    def updateGradInput(self, input, gradOutput):
        total = None
        for m, g in zip(self.modules, self._grads(gradOutput)):
            total = _add_into(total, m.updateGradInput(input, g))
        self.gradInput = total
        return total

    def accGradParameters(self, input, gradOutput, scale=1):
        for m, g in zip(self.modules, self._grads(gradOutput)):
            m.accGradParameters(input, g, scale)

    def backward(self, input, gradOutput, scale=1):
        total = None
        for m, g in zip(self.modules, self._grads(gradOutput)):
            total = _add_into(total, m.backward(input, g, scale))
        self.gradInput = total
        return total

    def accUpdateGradParameters(self, input, gradOutput, lr):
        for m, g in zip(self.modules, self._grads(gradOutput)):
            m.accUpdateGradParameters(input, g, lr)

    def __repr__(self):
        return self._branches()


class ParallelTable(Container):
    """Module i gets input[i]; the output is the table of their outputs."""

    def __init__(self):
        super().__init__()
        self.output, self.gradInput = [], []  # tables from the start, as torch7's

    def _check(self, table, what):
        utils.check(
            isinstance(table, (list, tuple)) and len(table) == len(self.modules),
            TypeError,
            "%s: %s must be a table of %d entries",
            self.torch_typename(),
            what,
            len(self.modules),
        )

    def updateOutput(self, input):
        self._check(input, "input")
        self.output = [m.updateOutput(x) for m, x in zip(self.modules, input)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput")
        self.gradInput = [m.updateGradInput(x, g) for m, x, g in zip(self.modules, input, gradOutput)]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput")
        for m, x, g in zip(self.modules, input, gradOutput):
            m.accGradParameters(x, g, scale)

    def backward(self, input, gradOutput, scale=1):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput")
        self.gradInput = [m.backward(x, g, scale) for m, x, g in zip(self.modules, input, gradOutput)]
        return self.gradInput

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput")
        for m, x, g in zip(self.modules, input, gradOutput):
            m.accUpdateGradParameters(x, g, lr)

    def __repr__(self):
        return self._branches()


class MapTable(Container):
    """module applied to every entry of the input table, through clones made as needed
    (sharing weight, bias and their gradients with module unless shared=False)."""

    shared = True

    def __init__(self, module=None, shared=True):
        super().__init__()
        self.output, self.gradInput = [], []  # tables from the start, as torch7's
        self.shared = shared
        self.sharedparams = ["weight", "bias", "gradWeight", "gradBias"]
        if module is not None:
            self.add(module)

    def add(self, module):
        utils.check(getattr(self, "module", None) is None, RuntimeError, "nn.MapTable: it holds one module only")
        self.module = module
        self.modules = [module]
        return self

    def _extend(self, n):
        if not self.modules:
            self.modules = [self.module]
        while len(self.modules) < n:
            if self.shared:
                self.modules.append(self.module.clone(*self.sharedparams))
            else:
                self.modules.append(self.module.clone())

    def _check(self, table, what, n=None):
        utils.check(
            isinstance(table, (list, tuple)) and (n is None or len(table) == n),
            TypeError,
            "nn.MapTable: %s must be a table%s",
            what,
            "" if n is None else " of %d entries" % n,
        )

    def updateOutput(self, input):
        self._check(input, "input")
        self._extend(len(input))
        self.output = [self.modules[i].updateOutput(x) for i, x in enumerate(input)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput", len(input))
        self.gradInput = [self.modules[i].updateGradInput(x, g) for i, (x, g) in enumerate(zip(input, gradOutput))]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput", len(input))
        for i, (x, g) in enumerate(zip(input, gradOutput)):
            self.modules[i].accGradParameters(x, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._check(input, "input")
        self._check(gradOutput, "gradOutput", len(input))
        for i, (x, g) in enumerate(zip(input, gradOutput)):
            self.modules[i].accUpdateGradParameters(x, g, lr)

    def parameters(self):
        # the clones share the module's parameters: list them once
        if self.shared:
            return self.module.parameters() or ([], [])
        return super().parameters()

    def zeroGradParameters(self):
        if self.shared:
            self.module.zeroGradParameters()
        else:
            super().zeroGradParameters()

    def updateParameters(self, learningRate):
        if self.shared:
            self.module.updateParameters(learningRate)
        else:
            super().updateParameters(learningRate)

    def clearState(self):
        self.modules = [self.module]
        return super().clearState()

    def __repr__(self):
        inner = repr(self.module).replace("\n", "\n  ")
        return "nn.MapTable {\n  %s\n}" % inner


class Bottle(Container):
    """module (made for nInputDim-dimensional inputs) applied to an input with more
    leading dimensions, by folding them into one and unfolding the output's."""

    def __init__(self, module, nInputDim=2, nOutputDim=None):
        super().__init__()
        self.nInputDim = nInputDim
        self.nOutputDim = nOutputDim if nOutputDim is not None else nInputDim
        self.modules = [module]

    def _fold(self, input):
        utils.check_tensor(input, "nn.Bottle: input")
        n_in = int(self.nInputDim)
        utils.check(
            input.dim() >= n_in,
            RuntimeError,
            "nn.Bottle: input of size %s has fewer than %d dimensions",
            tuple(input.shape),
            n_in,
        )
        if input.dim() == n_in:
            return input, None
        lead = tuple(input.shape[: input.dim() - n_in + 1])
        return input.reshape((-1,) + tuple(input.shape[input.dim() - n_in + 1 :])), lead

    def _unfold(self, out, lead):
        return out if lead is None else out.reshape(lead + tuple(out.shape[1:]))

    def updateOutput(self, input):
        x, lead = self._fold(input)
        self.output = self._unfold(self.modules[0].updateOutput(x), lead)
        return self.output

    def _fold_grad(self, input, gradOutput):
        x, lead = self._fold(input)
        utils.check_tensor(gradOutput, "nn.Bottle: gradOutput")
        inner = self.modules[0].output
        g = gradOutput if lead is None else gradOutput.reshape(inner.shape)
        return x, g

    def updateGradInput(self, input, gradOutput):
        x, g = self._fold_grad(input, gradOutput)
        self.gradInput = self.modules[0].updateGradInput(x, g).reshape(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, g = self._fold_grad(input, gradOutput)
        self.modules[0].accGradParameters(x, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        x, g = self._fold_grad(input, gradOutput)
        self.modules[0].accUpdateGradParameters(x, g, lr)

    def __repr__(self):
        return "nn.Bottle {\n  %s\n}" % repr(self.modules[0]).replace("\n", "\n  ")
