"""nngraph's nn.gModule as load_lua reads it: a graph of modules run in topological order.

Layout (nngraph's gmodule.lua / node.lua, as torch.save writes it):
- the gModule: `forwardnodes` / `backwardnodes` (nngraph.Node lists, topologically sorted
  for the forward graph and the backward one), `innode` (a forward node: the graph's
  input), `outnode` (a backward node: the graph's output), `fg` / `bg` (graph.Graph),
  `modules` (the modules in forward order), `nInputs`, `output`, `gradInput`, ...
- each nngraph.Node: `data` (a table shared by the node's forward and backward copies),
  `children` (forward graph: the nodes consuming this one's output; backward graph: the
  nodes feeding it), `id`, `visited`, `marked`.
- node.data: `module` (absent for pass-through nodes), `input` (the inputs of the last
  forward, in order), `gradOutput` (gradients to sum), `mapindex` (input order: i -> the
  data of the i-th input node and that data -> i, 1-based), `selectindex` (1-based: a node
  taking one element of a split node's table output), `nSplitOutputs`, annotations, ...

mapindex keeps tables as keys; load_lua gives those tables as t7fields.IdentityDict. These
routing tables stay 1-based as nngraph wrote them (they are bookkeeping, not indices a
user passes); runs fill node.data's `input` / `gradOutput` in place as nngraph does.
"""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn._object import TorchObject
from torch.legacy.nn.containers import Container
from torch.legacy.nn.t7fields import IdentityDict
from torch.legacy.nn.utils import check

__all__ = ["gModule", "Node"]


class Node(TorchObject):
    """nngraph.Node: a vertex of a gModule's graphs (see the module's docstring)."""

    _torch_typename = "nngraph.Node"

    def __init__(self, data=None):
        self.data = IdentityDict() if data is None else data
        self.data.setdefault("mapindex", {})
        self.data.setdefault("reverseMap", {})
        self.data.setdefault("annotations", {})
        self.children = []
        self.id = 0.0
        self.visited = False
        self.marked = False

    def __repr__(self):
        module = self.data.get("module") if isinstance(self.data, dict) else None
        return "nngraph.Node(%s)" % (repr(module) if module is not None else "-")


def _as_list(v):
    """A Lua array as load_lua gives it: a list, an empty table ({}), or absent."""
    if isinstance(v, list):
        return v
    if v is None or (isinstance(v, dict) and not v):
        return []
    if isinstance(v, dict):  # a sparse array: integer keys from 1
        n = max(int(k) for k in v if isinstance(k, (int, float)))
        return [v.get(float(i + 1), v.get(i + 1)) for i in range(n)]
    raise TypeError("nn.gModule: expected a list in a node's data, got %s" % type(v).__name__)


def _input_index(consumer, producer):
    """1-based position of producer's output among consumer's inputs (consumer.mapindex)."""
    mapindex = consumer.get("mapindex")
    if isinstance(mapindex, dict):
        i = mapindex.get(producer) if isinstance(producer, IdentityDict) else None
        if i is not None:
            return int(i)
        items = [(k, v) for k, v in mapindex.items() if isinstance(k, (int, float)) and not isinstance(k, bool)]
    elif isinstance(mapindex, list):
        items = list(enumerate(mapindex, 1))
    else:
        items = []
    for k, v in items:
        if v is producer:
            return int(k)
    raise RuntimeError("nn.gModule: a node's mapindex does not list one of its inputs")


def _place(lst, index, value):
    while len(lst) < index:
        lst.append(None)
    lst[index - 1] = value


def _add_nested(a, b):
    if torch.is_tensor(a):
        return a + b
    return [_add_nested(x, y) for x, y in zip(a, b)]


def _module_input(data):
    inputs = data.get("input")
    if inputs is None and data.get("module") is not None:
        return []
    inputs = _as_list(inputs)
    return inputs[0] if len(inputs) == 1 else inputs


class gModule(Container):
    """A graph of modules (nngraph): inputs and outputs are tensors, or tables (lists) of
    them for graphs with several inputs / outputs. Runs forward over `forwardnodes` and
    backward over `backwardnodes`, as nngraph does."""

    def _n_inputs(self):
        n = self.__dict__.get("nInputs")
        return int(n) if n is not None else len(self.innode.children)

    def updateOutput(self, input):
        n = self._n_inputs()
        if n <= 1:
            inputs = [input]
        else:
            check(
                isinstance(input, (list, tuple)),
                TypeError,
                "nn.gModule: expected a table of %d inputs, got %s",
                n,
                type(input).__name__,
            )
            inputs = list(input)
        check(len(inputs) == n, RuntimeError, "nn.gModule: got %d inputs instead of %d", len(inputs), n)
        for node in self.forwardnodes:
            node.data["input"] = []
        self.innode.data["input"] = inputs
        for node in self.forwardnodes:
            self._forward_node(node)
        outs = _as_list(self.outnode.data.get("input"))
        self.output = outs[0] if len(self.outnode.children) == 1 else outs
        return self.output

    @staticmethod
    def _propagate(node, value):
        for child in node.children:
            inputs = child.data.get("input")
            if not isinstance(inputs, list):
                inputs = child.data["input"] = _as_list(inputs)
            _place(inputs, _input_index(child.data, node.data), value)

    def _forward_node(self, node):
        data = node.data
        if data.get("selectindex") is not None:
            check(data.get("module") is None, RuntimeError, "nn.gModule: a split's select node has a module")
            inputs = _as_list(data.get("input"))
            check(
                len(inputs) == 1 and isinstance(inputs[0], (list, tuple)),
                RuntimeError,
                "nn.gModule: a split node's input must be one table",
            )
            self._propagate(node, inputs[0][int(data["selectindex"]) - 1])
            return
        x = _module_input(data)
        module = data.get("module")
        output = x if module is None else module.updateOutput(x)
        n_split = data.get("nSplitOutputs")
        if n_split is not None:
            check(
                isinstance(output, (list, tuple)) and len(output) == int(n_split),
                RuntimeError,
                "nn.gModule: split(%d) cannot split %s",
                int(n_split),
                type(output).__name__,
            )
        self._propagate(node, output)

    @staticmethod
    def _total_grad(data):
        grads = _as_list(data.get("gradOutput"))
        check(grads, RuntimeError, "nn.gModule: a node received no gradient")
        if len(grads) == 1:
            return grads[0]
        total = grads[0]
        for g in grads[1:]:
            total = _add_nested(total, g)
        data["gradOutputBuffer"] = total
        return total

    def updateGradInput(self, input, gradOutput):
        outnode = self.outnode
        if len(outnode.children) > 1:
            check(
                isinstance(gradOutput, (list, tuple)) and len(gradOutput) == len(outnode.children),
                RuntimeError,
                "nn.gModule: expected %d gradOutputs",
                len(outnode.children),
            )
            gradOutput = list(gradOutput)
        for node in self.backwardnodes:
            node.data["gradOutput"] = []
        outnode.data["gradOutput"] = [gradOutput]
        for node in self.backwardnodes:
            self._backward_node(node)
        grads = _as_list(self.innode.data.get("gradOutput"))
        check(len(grads) == 1, RuntimeError, "nn.gModule: expecting the input node to be used once")
        self.gradInput = grads[0]
        return self.gradInput

    def _backward_node(self, node):
        data = node.data
        if data.get("selectindex") is not None:
            check(len(node.children) == 1, RuntimeError, "nn.gModule: a select node has one input")
            child = node.children[0]
            go = self._total_grad(data)
            grads = child.data.get("gradOutput")
            if not isinstance(grads, list):
                grads = child.data["gradOutput"] = _as_list(grads)
            if not grads:
                grads.append([])
            _place(grads[0], int(data["selectindex"]), go)
            return
        go = self._total_grad(data)
        module = data.get("module")
        gi = go if module is None else module.updateGradInput(_module_input(data), go)
        for child in node.children:
            grads = child.data.get("gradOutput")
            if not isinstance(grads, list):
                grads = child.data["gradOutput"] = _as_list(grads)
            grads.append(gi if len(node.children) == 1 else gi[_input_index(data, child.data) - 1])

    def accGradParameters(self, input, gradOutput, scale=1):
        for node in self.backwardnodes:
            module = node.data.get("module")
            if module is None:
                continue
            grads = _as_list(node.data.get("gradOutput"))
            go = node.data["gradOutputBuffer"] if len(grads) > 1 else grads[0]
            module.accGradParameters(_module_input(node.data), go, scale)

    def clearState(self):
        super().clearState()
        for node in self.backwardnodes:
            node.data.pop("gradOutput", None)
            node.data.pop("gradOutputBuffer", None)
        for node in self.forwardnodes:
            node.data.pop("input", None)
        return self

    def __repr__(self):
        return "nn.gModule(%d modules)" % len(self.modules)


utils.make_grad_free(gModule)
