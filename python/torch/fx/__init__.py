"""torch.fx: not available here (symbolic tracing into graphs of PyTorch's operators); the names
import, and using them raises NotImplementedError."""

from torch._unsupported import unsupported_class, unsupported_function

_WHY = "symbolic tracing into graphs of PyTorch's operators is not implemented here"

symbolic_trace = unsupported_function(__name__, "symbolic_trace", _WHY)
wrap = unsupported_function(__name__, "wrap", _WHY)
replace_pattern = unsupported_function(__name__, "replace_pattern", _WHY)
Graph = unsupported_class(__name__, "Graph", _WHY)
GraphModule = unsupported_class(__name__, "GraphModule", _WHY)
Interpreter = unsupported_class(__name__, "Interpreter", _WHY)
Node = unsupported_class(__name__, "Node", _WHY)
Proxy = unsupported_class(__name__, "Proxy", _WHY)
Tracer = unsupported_class(__name__, "Tracer", _WHY)
Transformer = unsupported_class(__name__, "Transformer", _WHY)

__all__ = [
    "symbolic_trace",
    "wrap",
    "replace_pattern",
    "Graph",
    "GraphModule",
    "Interpreter",
    "Node",
    "Proxy",
    "Tracer",
    "Transformer",
]
