"""assert_close(actual, expected): tensors, numbers, booleans and None, nested in sequences
and mappings, compared as PyTorch 1.13 compares them.

Values match when |actual - expected| <= atol + rtol * |expected| elementwise; without
rtol/atol the tolerances come from the dtypes (the loosest of the two):

    float16 (1e-3, 1e-5)   bfloat16 (1.6e-2, 1e-5)   float32 (1.3e-6, 1e-5)
    float64 (1e-7, 1e-7)   integers and bool (0, 0)

A failure raises (AssertionError, TypeError or ValueError) with PyTorch's message, e.g.

    Tensor-likes are not close!

    Mismatched elements: 1 / 3 (33.3%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.25 at index (1,) (up to 1.3e-06 allowed)

followed, for nested inputs, by "The failure occurred for item [key][index]".
"""

import cmath
import collections.abc

import numpy as np

import torch

__all__ = ["assert_close"]

_DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}
if hasattr(torch, "bfloat16"):
    _DTYPE_PRECISIONS[torch.bfloat16] = (0.016, 1e-5)

_NUMBER_DTYPES = {int: torch.int64, float: torch.float64, complex: getattr(torch, "complex128", torch.float64)}


class _Failure(Exception):
    """A mismatch found somewhere in the inputs: the exception type to raise, the message, and
    the path (keys and indices) to the failing item."""

    def __init__(self, type, msg, path=()):
        super().__init__(msg)
        self.type, self.msg, self.path = type, msg, path

    def to_error(self, msg=None):
        if isinstance(msg, str):
            return self.type(msg)
        text = self.msg
        if self.path:
            text += "\n\nThe failure occurred for item {}".format("".join(str([item]) for item in self.path))
        return self.type(msg(text) if callable(msg) else text)


class _Unsupported(Exception):
    pass


def _tolerances(dtypes, rtol, atol):
    if (rtol is None) != (atol is None):
        raise _Failure(
            ValueError,
            "Both 'rtol' and 'atol' must be either specified or omitted, but got no {}.".format(
                "rtol" if rtol is None else "atol"
            ),
        )
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*[_DTYPE_PRECISIONS.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def _mismatch_message(default_identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def line(kind, diff, idx, tol):
        text = (
            "{} difference: {}".format(kind.title(), diff)
            if idx is None
            else ("Greatest {} difference: {} at index {}".format(kind, diff, idx))
        )
        if not equality:
            text += " (up to {} allowed)".format(tol)
        return text + "\n"

    text = "{} are not {}!\n\n".format(default_identifier, "equal" if equality else "close")
    if extra:
        text += extra.strip() + "\n"
    text += line("absolute", abs_diff, abs_idx, atol)
    text += line("relative", rel_diff, rel_idx, rtol)
    return text.strip()


def _scalar_message(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_message("Scalars", None, abs_diff, None, atol, rel_diff, None, rtol)


def _unravel(flat_index, shape):
    index = []
    for size in reversed(shape):
        flat_index, rest = divmod(flat_index, size)
        index.append(rest)
    return tuple(reversed(index))


def _tensor_message(actual, expected, mismatches, rtol, atol):
    total = int(mismatches.sum().item())
    count = mismatches.numel()
    extra = "Mismatched elements: {} / {} ({:.1%})".format(total, count, total / count)
    a, b = actual.flatten(), expected.flatten()
    matches = mismatches.flatten().logical_not()
    abs_diff = (a - b).abs().masked_fill(matches, 0)
    max_abs, abs_at = torch.max(abs_diff, 0)
    rel_diff = (abs_diff / b.abs()).masked_fill(matches, 0)
    max_rel, rel_at = torch.max(rel_diff, 0)
    shape = tuple(mismatches.shape)
    return _mismatch_message(
        "Tensor-likes",
        extra,
        max_abs.item(),
        _unravel(int(abs_at), shape),
        atol,
        max_rel.item(),
        _unravel(int(rel_at), shape),
        rtol,
    )


def _compare_none(actual, expected, path, options):
    if actual is not None and expected is not None:
        raise _Unsupported()
    if not (actual is None and expected is None):
        raise _Failure(AssertionError, "None mismatch: {} is not {}".format(actual, expected), path)


def _compare_bool(actual, expected, path, options):
    if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
        raise _Unsupported()
    actual, expected = bool(actual), bool(expected)
    if actual is not expected:
        raise _Failure(AssertionError, "Booleans mismatch: {} is not {}".format(actual, expected), path)


def _compare_number(actual, expected, path, options):
    if not all(isinstance(x, (int, float, complex, np.number)) for x in (actual, expected)):
        raise _Unsupported()
    actual, expected = [x.item() if isinstance(x, np.number) else x for x in (actual, expected)]
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], options["rtol"], options["atol"])
    if options["check_dtype"] and type(actual) is not type(expected):
        raise _Failure(
            AssertionError, "The (d)types do not match: {} != {}.".format(type(actual), type(expected)), path
        )
    if actual == expected:
        return
    if options["equal_nan"] and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Failure(AssertionError, _scalar_message(actual, expected, rtol, atol), path)


def _as_tensor(x):
    if isinstance(x, torch.Tensor):
        return x
    try:
        return torch.as_tensor(x)
    except Exception:
        raise _Unsupported()


def _compare_tensor(actual, expected, path, options):
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported()
    if not options["allow_subclasses"] and type(actual) is not type(expected):
        raise _Unsupported()
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], options["rtol"], options["atol"])

    def differ(attribute, a, b):
        raise _Failure(
            AssertionError, "The values for attribute '{}' do not match: {} != {}.".format(attribute, a, b), path
        )

    if actual.shape != expected.shape:
        differ("shape", actual.shape, expected.shape)
    # Every tensor here is strided (the only layout): there is no layout to compare.
    if options["check_device"] and actual.device != expected.device:
        differ("device", actual.device, expected.device)
    if actual.device != expected.device:  # check_device=False: compared on the CPU, as PyTorch does
        actual, expected = actual.cpu(), expected.cpu()
    if options["check_dtype"] and actual.dtype != expected.dtype:
        differ("dtype", actual.dtype, expected.dtype)
    if options["check_stride"] and actual.stride() != expected.stride():
        differ("stride()", actual.stride(), expected.stride())

    if actual.dtype != expected.dtype:
        common = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    # Compared in the widest type of their kind, so that the differences print exactly.
    wide = torch.float64 if actual.dtype.is_floating_point else torch.int64
    actual, expected = actual.detach().to(wide), expected.detach().to(wide)
    matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=options["equal_nan"])
    if bool(matches.all()):
        return
    if actual.dim() == 0:
        message = _scalar_message(actual.item(), expected.item(), rtol, atol)
    else:
        message = _tensor_message(actual, expected, matches.logical_not(), rtol, atol)
    raise _Failure(AssertionError, message, path)


_COMPARISONS = (_compare_none, _compare_bool, _compare_number, _compare_tensor)


def _compare(actual, expected, path, options):
    sequence = collections.abc.Sequence
    if isinstance(actual, sequence) and isinstance(expected, sequence):
        if not isinstance(actual, str) and not isinstance(expected, str):
            if len(actual) != len(expected):
                raise _Failure(
                    AssertionError,
                    "The length of the sequences mismatch: {} != {}".format(len(actual), len(expected)),
                    path,
                )
            for i in range(len(actual)):
                _compare(actual[i], expected[i], path + (i,), options)
            return
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        keys, expected_keys = set(actual.keys()), set(expected.keys())
        if keys != expected_keys:
            raise _Failure(
                AssertionError,
                "The keys of the mappings do not match:\nMissing keys in the actual mapping: {}\n"
                "Additional keys in the actual mapping: {}".format(
                    sorted(expected_keys - keys), sorted(keys - expected_keys)
                ),
                path,
            )
        try:
            keys = sorted(keys)
        except Exception:
            pass
        for key in keys:
            _compare(actual[key], expected[key], path + (key,), options)
        return
    for comparison in _COMPARISONS:
        try:
            comparison(actual, expected, path, options)
            return
        except _Unsupported:
            continue
    raise _Failure(
        TypeError,
        "No comparison pair was able to handle inputs of type {} and {}.".format(type(actual), type(expected)),
        path,
    )


def assert_close(
    actual,
    expected,
    *,
    allow_subclasses=True,
    rtol=None,
    atol=None,
    equal_nan=False,
    check_device=True,
    check_dtype=True,
    check_layout=True,
    check_stride=False,
    msg=None,
):
    """Raises unless actual and expected are close (see the module's docstring); msg replaces
    the message (a string) or rewrites it (a callable)."""
    __tracebackhide__ = True
    options = dict(
        allow_subclasses=allow_subclasses,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_device=check_device,
        check_dtype=check_dtype,
        check_layout=check_layout,
        check_stride=check_stride,
    )
    try:
        _compare(actual, expected, (), options)
    except _Failure as failure:
        raise failure.to_error(msg) from None
