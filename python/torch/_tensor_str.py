"""repr() of tensors, laid out as PyTorch 1.13 lays them out, and torch.set_printoptions.

Layout in short: one formatter is chosen for the whole tensor from the elements that will be
shown, so that every element gets the same width and the columns line up. Floating tensors
print in one of three modes:
  - int mode (every finite element is a whole number): `1.`, `-3.`;
  - fixed mode: `precision` digits after the point, `1.5000`;
  - scientific mode, when the shown magnitudes span more than a factor 1000, or exceed 1e8, or
    (fixed mode only) go below 1e-4: `1.0000e+05`.
nan, inf and zeros take no part in choosing the mode or the width. Tensors with more than
`threshold` elements show `edgeitems` entries at each end of every dimension and `...` between.

Note [Quirks kept on purpose]: a few details look odd but are what PyTorch prints, and scripts
and doctests compare these strings, so they are kept: the width is computed from the shown
elements only and may be smaller than a forced-mode string (no padding then); the ellipsis
inside a row is ' ...' (so it reads `2,  ..., 7`) but a whole skipped row is '...'; the
suffix wrapping counts the last line two characters longer than it is.
"""

import math

import torch


class _PrintOptions:
    """The current settings; set_printoptions changes them for the whole process."""

    def __init__(self):
        self.precision = 4
        self.threshold = 1000
        self.edgeitems = 3
        self.linewidth = 80
        self.sci_mode = None


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    r"""Sets the options for printing tensors (names and meaning follow NumPy's).

    Args:
        precision: digits after the decimal point of floating elements (default 4).
        threshold: tensors with more elements than this are summarized (default 1000).
        edgeitems: elements shown at each end of a summarized dimension (default 3).
        linewidth: characters per line before wrapping (default 80).
        profile: 'default', 'short' or 'full'; sets the four options above, and any of them
            given alongside overrides the profile.
        sci_mode: True forces scientific notation, False forbids it, None (the default)
            lets the formatter choose. Every call sets it, so leaving it out resets it.
    """
    if profile is not None and profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    for name, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict, in the keywords set_printoptions takes."""
    return dict(
        precision=PRINT_OPTS.precision,
        threshold=PRINT_OPTS.threshold,
        edgeitems=PRINT_OPTS.edgeitems,
        linewidth=PRINT_OPTS.linewidth,
        sci_mode=PRINT_OPTS.sci_mode,
    )


class _Formatter:
    """Turns one element into a string of the common width, in the mode the shown elements need."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        if not floating:
            for v in values:
                self.max_width = max(self.max_width, len(str(v)))
            return
        shown = [v for v in values if math.isfinite(v) and v != 0]
        if not shown:
            return  # the sci_mode option is ignored here too: there is nothing to scale
        magnitudes = [abs(v) for v in shown]
        smallest, largest = min(magnitudes), max(magnitudes)
        self.int_mode = all(v == math.ceil(v) for v in shown)
        wide_range = largest / smallest > 1000.0 or largest > 1.0e8
        if self.int_mode:
            self.sci_mode = wide_range
            # an integral float prints with a trailing '.', one more character
            widths = (len(self._sci(v)) if self.sci_mode else len("%.0f" % v) + 1 for v in shown)
        else:
            self.sci_mode = wide_range or smallest < 1.0e-4
            widths = (len(self._sci(v) if self.sci_mode else self._fixed(v)) for v in shown)
        self.max_width = max(self.max_width, max(widths))
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    @staticmethod
    def _sci(v):
        return "{:.{p}e}".format(v, p=PRINT_OPTS.precision)

    @staticmethod
    def _fixed(v):
        return "{:.{p}f}".format(v, p=PRINT_OPTS.precision)

    def width(self):
        return self.max_width

    def format(self, v):
        if not self.floating:
            s = str(v)
        elif self.sci_mode:
            s = self._sci(v)
        elif self.int_mode:
            s = "%.0f" % v
            if math.isfinite(v):
                s += "."
        else:
            s = self._fixed(v)
        return s.rjust(self.max_width)


class _ComplexFormatter:
    """A complex element as PyTorch prints it: the real and imaginary parts each with their own
    formatter (chosen from all shown parts), joined by the imaginary part's sign: `1.+2.j`."""

    def __init__(self, real_values, imag_values):
        self.real = _Formatter(real_values, True)
        self.imag = _Formatter(imag_values, True)

    def width(self):
        return self.real.width() + self.imag.width() + 1  # and the 'j'

    def format(self, v):
        imag = (self.imag.format(v.imag) + "j").lstrip()
        sign = "" if imag[0] in "+-" else "+"
        return self.real.format(v.real) + sign + imag


def _shown_indices(n, summarize):
    """Indices along one dimension that are printed, and whether an ellipsis sits between."""
    e = PRINT_OPTS.edgeitems
    if summarize and n > 2 * e:
        return list(range(e)) + list(range(n - e, n)), True
    return list(range(n)), False


def _shown_values(t, summarize):
    """The elements that will appear in the output, in printing order (to size the formatter)."""
    if not summarize:
        return t.reshape(-1).tolist()
    if t.dim() == 0:
        return [t.item()]
    idx, cut = _shown_indices(t.size(0), summarize)
    if t.dim() == 1:
        if not cut:
            return t.tolist()
        e = PRINT_OPTS.edgeitems
        return t.narrow(0, 0, e).tolist() + t.narrow(0, t.size(0) - e, e).tolist()
    values = []
    for i in idx:
        values.extend(_shown_values(t.select(0, i), summarize))
    return values


def _vector_str(t, indent, summarize, fmt):
    element_width = fmt.width() + 2  # ", " between elements
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_width)))
    n, e = t.size(0), PRINT_OPTS.edgeitems
    if summarize and not e:
        items = ["..."]
    elif summarize and n > 2 * e:
        items = (
            [fmt.format(v) for v in t.narrow(0, 0, e).tolist()]
            + [" ..."]
            + [fmt.format(v) for v in t.narrow(0, n - e, e).tolist()]
        )
    else:
        items = [fmt.format(v) for v in t.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(t, indent, summarize, fmt):
    dim = t.dim()
    if dim == 0:
        return fmt.format(t.item())
    if dim == 1:
        return _vector_str(t, indent, summarize, fmt)
    idx, cut = _shown_indices(t.size(0), summarize)
    rows = [_nested_str(t.select(0, i), indent + 1, summarize, fmt) for i in idx]
    if cut:
        rows.insert(PRINT_OPTS.edgeitems, "...")
    # deeper tensors separate their blocks by more blank lines, as NumPy does
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(rows) + "]"


def _body_str(t, indent):
    summarize = t.numel() > PRINT_OPTS.threshold
    if t.is_complex():
        fmt = _ComplexFormatter(_shown_values(t.real, summarize), _shown_values(t.imag, summarize))
        return _nested_str(t, indent, summarize, fmt)
    floating = t.is_floating_point()
    fmt = _Formatter(_shown_values(t, summarize), floating)
    return _nested_str(t, indent, summarize, fmt)


def _add_suffixes(text, suffixes, indent):
    # PyTorch measures the last line two characters long (see Note [Quirks kept on purpose])
    last_line = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _is_plain(t):
    nn = getattr(torch, "nn", None)
    return type(t) is torch.Tensor or (nn is not None and type(t) is getattr(nn, "Parameter", None))


def _str(t):
    """repr(t): `tensor(<elements>, <suffixes>)`; suffixes name what the elements do not show."""
    prefix = "tensor(" if _is_plain(t) else type(t).__name__ + "("
    indent = len(prefix)
    suffixes = []
    device = t.device
    if device.type != "cpu":
        suffixes.append("device='%s'" % device)
    default = torch.get_default_dtype()
    if t.numel() == 0:
        # no element hints at the shape or the type, so both are spelled out (the shape only
        # when it is not plain (0,), as NumPy does)
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != default:
            suffixes.append("dtype=" + str(t.dtype))
        body = "[]"
    else:
        # int64 and bool are what torch.tensor infers from Python ints and bools, and the complex
        # type of the default one from complex numbers
        default_complex = torch.complex128 if default == torch.float64 else torch.complex64
        if t.dtype not in (default, default_complex, torch.int64, torch.bool):
            suffixes.append("dtype=" + str(t.dtype))
        body = _body_str(t, indent)
    grad_fn = getattr(t, "grad_fn", None)
    if grad_fn is not None:
        name = grad_fn.name() if callable(getattr(grad_fn, "name", None)) else type(grad_fn).__name__
        suffixes.append("grad_fn=<%s>" % name)
    elif getattr(t, "requires_grad", False):
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
