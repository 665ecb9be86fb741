"""nn.Module: torch7's module protocol (forward/backward through updateOutput,
updateGradInput and accGradParameters, parameters, getParameters, type, clone, ...)."""

import copy

import torch
from torch.legacy.nn import utils
from torch.legacy.nn._object import TorchObject

__all__ = ["Module"]


class _Common(TorchObject):
    """What modules and criterions share: element types, copies, printing."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        utils.make_grad_free(cls)

    def type(self, type=None, tensorCache=None):
        """Without an argument the type name ('torch.DoubleTensor'); else converts every
        floating tensor held in a field (storages shared stay shared) and returns self."""
        if type is None:
            return self.__dict__.get("_type", utils.typename_of(self._dtype()))
        dtype = utils.dtype_of(type)
        cache = {} if tensorCache is None else tensorCache
        for key, value in list(vars(self).items()):
            self.__dict__[key] = utils.convert(value, dtype, cache)
        self._type = utils.typename_of(dtype)
        return self

    def float(self):
        return self.type("torch.FloatTensor")

    def double(self):
        return self.type("torch.DoubleTensor")

    def half(self):
        return self.type("torch.HalfTensor")

    def _dtype(self):
        """The floating type this object computes in."""
        for name in ("weight", "bias", "output", "gradInput"):
            v = getattr(self, name, None)
            if torch.is_tensor(v) and v.is_floating_point():
                return v.dtype
        t = self.__dict__.get("_type")
        if t is not None:
            try:
                return utils.dtype_of(t)
            except TypeError:
                pass
        return torch.get_default_dtype()

    def clone(self, *shareNames):
        """A deep copy (storages shared inside the object stay shared in the copy); the
        fields named in shareNames are then shared with this one."""
        clone = copy.deepcopy(self)
        if shareNames:
            clone.share(self, *shareNames)
        return clone

    def share(self, other, *names):
        """Makes this object's tensors `names` views of other's (same storage, same values)."""
        for name in names:
            mine, theirs = getattr(self, name, None), getattr(other, name, None)
            if torch.is_tensor(mine) and torch.is_tensor(theirs):
                mine.set_(theirs)
        return self

    def __repr__(self):
        return self.torch_typename()


class Module(_Common):
    """Base of the legacy modules. A module holds its last `output` and `gradInput`;
    `forward(input)` computes the output, `backward(input, gradOutput, scale)` the gradient
    with respect to the input and accumulates `scale` times the gradients of the
    parameters (`gradWeight`, `gradBias`, ...) without autograd."""

    # a class-level default for a field that torch7 files may lack (Note [Objects without
    # __init__]); optional tensors (weight, bias, ...) have none: a module without them
    # has no such attribute, as in torch7
    train = True

    def __init__(self):
        dtype = torch.get_default_dtype()
        self.gradInput = torch.empty(0, dtype=dtype)
        self.output = torch.empty(0, dtype=dtype)
        self._type = utils.typename_of(dtype)

    # ------------------------------------------------------------ computation

    def updateOutput(self, input):
        return self.output

    def forward(self, input):
        return self.updateOutput(input)

    def backward(self, input, gradOutput, scale=1):
        self.updateGradInput(input, gradOutput)
        self.accGradParameters(input, gradOutput, scale)
        return self.gradInput

    def backwardUpdate(self, input, gradOutput, lr):
        self.updateGradInput(input, gradOutput)
        self.accUpdateGradParameters(input, gradOutput, lr)
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        pass

    def accUpdateGradParameters(self, input, gradOutput, lr):
        """parameters -= lr * (their gradient for this input and gradOutput), leaving the
        gradient fields as they were."""
        if type(self).parameters is Module.parameters:
            self._swapped_update(input, gradOutput, lr)
            return
        params = self.parameters()
        if not params or not params[0]:
            return
        saved = [g.clone() for g in params[1]]
        try:
            self.zeroGradParameters()
            self.accGradParameters(input, gradOutput, 1)
            for p, g in zip(*params):
                p.add_(g, alpha=-lr)
        finally:
            for g, s in zip(params[1], saved):
                g.copy_(s)

    def _swapped_update(self, input, gradOutput, lr):
        """torch7's way for weight and bias: accGradParameters with the parameters standing
        in for their gradients, scaled by -lr (no gradient fields needed)."""
        weight, bias = getattr(self, "weight", None), getattr(self, "bias", None)
        if weight is None and bias is None:
            return
        grad_weight, grad_bias = self.__dict__.get("gradWeight"), self.__dict__.get("gradBias")
        if weight is not None:
            self.gradWeight = weight
        if bias is not None:
            self.gradBias = bias
        try:
            self.accGradParameters(input, gradOutput, -lr)
        finally:
            self._restore("gradWeight", grad_weight)
            self._restore("gradBias", grad_bias)

    def _restore(self, name, value):
        if value is None:
            self.__dict__.pop(name, None)
        else:
            self.__dict__[name] = value

    def sharedAccUpdateGradParameters(self, input, gradOutput, lr):
        if self.parameters():
            self.zeroGradParameters()
            self.accGradParameters(input, gradOutput, 1)
            self.updateParameters(lr)

    # ------------------------------------------------------------ parameters

    def parameters(self):
        """(parameters, their gradients) as two lists, or None for a module without any."""
        weight, bias = getattr(self, "weight", None), getattr(self, "bias", None)
        if weight is not None and bias is not None:
            return [weight, bias], [self.gradWeight, self.gradBias]
        if weight is not None:
            return [weight], [self.gradWeight]
        if bias is not None:
            return [bias], [self.gradBias]
        return None

    def zeroGradParameters(self):
        params = self.parameters()
        if params:
            for g in params[1]:
                if g is not None:
                    g.zero_()

    def updateParameters(self, learningRate):
        params = self.parameters()
        if params:
            for p, g in zip(*params):
                p.add_(g, alpha=-learningRate)

    def getParameters(self):
        """Every parameter in one flat tensor and every gradient in another: the module's
        tensors become views of them (a tensor shared between modules is stored once)."""
        params = self.parameters() or ([], [])
        return utils.flatten(params[0]), utils.flatten(params[1])

    # ------------------------------------------------------------ modes, types, copies

    def training(self):
        self.train = True
        return self

    def evaluate(self):
        self.train = False
        return self

    def clearState(self):
        utils.clear(self, "output", "gradInput")
        return self

    # ------------------------------------------------------------ module trees

    def apply(self, callback):
        callback(self)
        for m in self.__dict__.get("modules") or ():
            m.apply(callback)

    def listModules(self):
        modules = [self]
        for m in self.__dict__.get("modules") or ():
            modules.extend(m.listModules())
        return modules

    def findModules(self, typename, container=None):
        """(modules of that class, the container holding each): typename is a torch7 name
        ('nn.Linear', exact class) or a Python class (subclasses too)."""
        nodes, containers = [], []
        if _is_a(self, typename):
            nodes.append(self)
            containers.append(container if container is not None else self)
        for child in self.__dict__.get("modules") or ():
            n, c = child.findModules(typename, self)
            nodes.extend(n)
            containers.extend(c)
        return nodes, containers

    def replace(self, callback):
        out = callback(self)
        modules = self.__dict__.get("modules")
        if modules:
            for i, m in enumerate(modules):
                modules[i] = m.replace(callback)
        return out


def _is_a(module, typename):
    if isinstance(typename, str):
        return module.torch_typename() == typename
    return isinstance(module, typename)


utils.make_grad_free(_Common)
utils.make_grad_free(Module)
