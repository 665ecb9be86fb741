"""check: a converted module's forward against a reference (torch7's recorded output, or the
legacy module's own forward on an input guessed from its first layer, read the way the
converter reads fields)."""

import copy
import math

import torch
from torch.utils.convert_t7.converter import _CONTAINERS, _field, _modules_of, _tensor, _typename
from torch.utils.convert_t7.model_dtype import _model_dtype


_SPATIAL_CANDIDATES = (224, 32, 28, 64, 8, 16, 227, 96, 128, 299, 256, 48, 12, 4)


def _first_leaf(m):
    modules = _modules_of(m)
    if _typename(m).endswith("gModule"):
        for node in _field(m, "forwardnodes") or []:
            data = _field(node, "data")
            if data.get("module") is not None:
                return _first_leaf(data["module"])
        return m
    if modules and _typename(m).rpartition(".")[2] in _CONTAINERS:
        return _first_leaf(modules[0])
    return m


def _candidate_inputs(legacy, dtype):
    """Random inputs the model may take, judged from its first layer."""
    first = _first_leaf(legacy)
    name = _typename(first).rpartition(".")[2]
    gen = torch.Generator().manual_seed(0)
    if name == "LookupTable" and _tensor(first, "weight") is not None:
        # ids, 0-based as the converted Embedding and the legacy LookupTable both take them
        yield torch.randint(0, _tensor(first, "weight").shape[0], (2, 7), generator=gen)
        return
    if name == "Linear" and _tensor(first, "weight") is not None:
        yield torch.randn(2, _tensor(first, "weight").shape[1], generator=gen, dtype=dtype)
        return
    planes = _field(first, "nInputPlane")
    if planes is None and _tensor(first, "running_mean") is not None:
        planes = _tensor(first, "running_mean").numel()
    if planes is not None:
        volumetric = name.startswith("Volumetric")
        for side in _SPATIAL_CANDIDATES:
            shape = (2, int(planes)) + ((side,) * (3 if volumetric else 2))
            yield torch.randn(*shape, generator=gen, dtype=dtype)


def _flatten_output(out):
    if torch.is_tensor(out):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flatten_output(o)]
    raise TypeError("output of type %s" % type(out).__name__)


def _max_difference(a, b):
    fa, fb = _flatten_output(a), _flatten_output(b)
    if len(fa) != len(fb) or any(x.shape != y.shape for x, y in zip(fa, fb)):
        return math.inf
    diff = 0.0
    for x, y in zip(fa, fb):
        if x.numel():
            diff = max(diff, (x.double() - y.double()).abs().max().item())
    return diff


def _default_tolerance(output):
    outs = _flatten_output(output)
    scale = max([1.0] + [t.double().abs().max().item() for t in outs if t.numel()])
    double = all(t.dtype == torch.float64 for t in outs)
    return (1e-8 if double else 1e-4) * scale


def _legacy_forward(legacy, x):
    """The legacy module's own output in evaluation mode, or None when it cannot run."""
    forward = getattr(legacy, "forward", None)
    if not callable(forward):
        return None
    model = copy.deepcopy(legacy)
    evaluate = getattr(model, "evaluate", None)
    if callable(evaluate):
        evaluate()
    try:
        return model.forward(x.clone())
    except Exception:  # a placeholder class or a layer the legacy port lacks: no reference
        return None


def check(legacy, converted, input=None, output=None, tolerance=None):
    """Compares converted (in evaluation mode, on a copy) with a reference: output recorded for
    input when given, else the legacy module's forward on input or on a random input.
    Returns (max difference, tolerance, how the reference was obtained); the difference is
    None when there is no reference."""
    model = copy.deepcopy(converted).eval()
    with torch.no_grad():
        if output is not None:
            got = model(input)
            how = "recorded output"
        else:
            inputs = [input] if input is not None else list(_candidate_inputs(legacy, _model_dtype(converted)))
            got = output = None
            for x in inputs:
                try:
                    got = model(x)
                except Exception:
                    continue
                output = _legacy_forward(legacy, x)
                break
            if output is None:
                return None, tolerance, "no reference"
            how = "legacy forward"
    if tolerance is None:
        tolerance = _default_tolerance(output)
    return _max_difference(got, output), tolerance, how
