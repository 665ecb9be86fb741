"""torch.autograd.profiler: which operations a piece of code runs, how often and for how long.

    with torch.autograd.profiler.profile(record_shapes=True) as prof:
        model(x).sum().backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))

Note [Recording at the API]: while a profile is active, the callables of the `torch`
namespace, of torch.nn.functional and the methods of torch.Tensor are replaced by timing
wrappers (put back when it ends); an op is named "aten::<the name it was called by>". Ops
called from inside another recorded op nest under it, so each event has its total time and
its self time (total minus its children's). Backward runs in the C++ engine: it shows as one
"autograd::engine::backward" event, not node by node. record_function adds user ranges.
Events of every thread are recorded, each with its thread id.
"""

import enum
import functools
import json
import threading
import time
import warnings
from collections import OrderedDict

import torch

__all__ = ["profile", "record_function", "emit_nvtx", "FunctionEvent", "FunctionEventAvg", "EventList"]


class ProfilerActivity(enum.Enum):
    """What torch.profiler.profile records (torch.autograd.ProfilerActivity too, as in 1.13)."""

    CPU = 0
    CUDA = 1


def _now_us():
    return time.perf_counter_ns() / 1000.0


class FunctionEvent:
    """One recorded call: name, start and end (microseconds), thread, input shapes, children."""

    def __init__(self, name, start, thread, input_shapes=None, is_user_range=False):
        self.name = name
        self.key = name
        self.start = start
        self.end = start
        self.thread = thread
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.cpu_children = []
        self.cpu_parent = None
        self.is_user_annotation = is_user_range
        self.count = 1
        self.id = None

    @property
    def cpu_time_total(self):
        return self.end - self.start

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):
        return self.cpu_time_total

    @property
    def time_range(self):
        return (self.start, self.end)

    def __repr__(self):
        return (
            f"<FunctionEvent id={self.id} name={self.name} cpu_time={_format_us(self.cpu_time_total)} "
            f"thread={self.thread} input_shapes={self.input_shapes}>"
        )


class FunctionEventAvg:
    """Events of one key (name, and shapes with group_by_input_shape) summed."""

    def __init__(self, key, input_shapes=None):
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.is_user_annotation = False

    def add(self, event):
        self.count += 1
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        self.is_user_annotation = event.is_user_annotation
        return self

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={_format_us(self.self_cpu_time_total)} "
            f"cpu_time={_format_us(self.cpu_time)} count={self.count} input_shapes={self.input_shapes}>"
        )


def _format_us(us):
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


_SORT_KEYS = {
    "cpu_time": "cpu_time",
    "cpu_time_total": "cpu_time_total",
    "self_cpu_time_total": "self_cpu_time_total",
    "count": "count",
}


class EventList(list):
    """A list of events with PyTorch's summaries."""

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        groups = OrderedDict()
        for e in self:
            shapes = str(e.input_shapes) if group_by_input_shape else None
            key = (e.key, shapes)
            if key not in groups:
                groups[key] = FunctionEventAvg(e.key, e.input_shapes if group_by_input_shape else None)
            groups[key].add(e)
        return EventList(groups.values())

    def total_average(self):
        total = FunctionEventAvg("Total")
        for e in self:
            total.add(e)
        return total

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, header=None, top_level_events_only=False):
        rows = [e for e in self if not top_level_events_only or getattr(e, "cpu_parent", None) is None]
        if sort_by is not None:
            if sort_by not in _SORT_KEYS:
                raise ValueError(f"table: cannot sort by {sort_by!r}; one of {sorted(_SORT_KEYS)}")
            rows = sorted(rows, key=lambda e: getattr(e, _SORT_KEYS[sort_by]), reverse=True)
        if row_limit is not None and row_limit >= 0:
            rows = rows[:row_limit]
        total_self = self.self_cpu_time_total or 1.0
        shapes = any(getattr(e, "input_shapes", None) for e in rows) and any(
            isinstance(e, FunctionEventAvg) and e.input_shapes is not None for e in rows
        )
        name_width = max([len("Name")] + [len(e.key) for e in rows]) + 2
        columns = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        widths = [12] * len(columns)
        line = "-" * name_width + "  " + "  ".join("-" * w for w in widths)
        out = []
        if header:
            out.append(header)
        out.append(line)
        title = "Name".rjust(name_width) + "  " + "  ".join(c.rjust(w) for c, w in zip(columns, widths))
        if shapes:
            title += "  Input Shapes"
        out += [title, line]
        for e in rows:
            values = [
                f"{100 * e.self_cpu_time_total / total_self:.2f}%",
                _format_us(e.self_cpu_time_total),
                f"{100 * e.cpu_time_total / total_self:.2f}%",
                _format_us(e.cpu_time_total),
                _format_us(e.cpu_time_total / max(e.count, 1)),
                str(e.count),
            ]
            text = e.key.rjust(name_width) + "  " + "  ".join(v.rjust(w) for v, w in zip(values, widths))
            if shapes:
                text += "  " + str(e.input_shapes)
            out.append(text)
        out.append(line)
        out.append(f"Self CPU time total: {_format_us(self.self_cpu_time_total)}")
        return "\n".join(out) + "\n"

    def export_chrome_trace(self, path):
        """The events as a Chrome trace (chrome://tracing, Perfetto)."""
        trace = [
            {
                "name": e.name,
                "ph": "X",
                "ts": e.start,
                "dur": e.cpu_time_total,
                "pid": 0,
                "tid": e.thread,
                "cat": "user_annotation" if e.is_user_annotation else "cpu_op",
                "args": {"Input Dims": e.input_shapes} if e.input_shapes else {},
            }
            for e in self
        ]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace, "displayTimeUnit": "ms"}, f)


# -- recording: Note [Recording at the API] ---------------------------------------------------


class _State:
    lock = threading.Lock()
    active = []  # the profiles recording now (outermost first)
    saved = []  # (owner, name, original) put back when the last profile ends
    local = threading.local()


def _stack():
    stack = getattr(_State.local, "stack", None)
    if stack is None:
        stack = _State.local.stack = []
    return stack


def _shapes(args):
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            out.append(list(a.shape))
        elif isinstance(a, (list, tuple)) and a and all(isinstance(t, torch.Tensor) for t in a):
            out.append([list(t.shape) for t in a])
        else:
            out.append([])
    return out


def _begin(name, args=(), user_range=False):
    profiles = _State.active
    if not profiles:
        return None
    shapes = _shapes(args) if any(p.record_shapes for p in profiles) else None
    event = FunctionEvent(name, _now_us(), threading.get_ident(), shapes, user_range)
    stack = _stack()
    if stack:
        event.cpu_parent = stack[-1]
    stack.append(event)
    return event


def _end(event):
    if event is None:
        return
    event.end = _now_us()
    stack = _stack()
    if stack and stack[-1] is event:
        stack.pop()
    if event.cpu_parent is not None:
        event.cpu_parent.cpu_children.append(event)
    for p in list(_State.active):
        p._add(event)


def _wrap(name, fn):
    @functools.wraps(fn)
    def recorded(*args, **kwargs):
        event = _begin(name, args)
        try:
            return fn(*args, **kwargs)
        finally:
            _end(event)

    recorded.__profiler_original__ = fn
    return recorded


# names that read or set state rather than compute
_NOT_OPS = {
    "size",
    "dim",
    "numel",
    "stride",
    "is_contiguous",
    "data_ptr",
    "element_size",
    "storage_offset",
    "tolist",
    "item",
    "type",
    "backward",
    "register_hook",
    "retain_grad",
    "requires_grad_",
    "detach_",
    "share_memory_",
    "is_shared",
    "is_pinned",
    "storage",
    "untyped_storage",
    "nelement",
    "ndimension",
    "get_device",
    "numpy",
    "dim_order",
    "__repr__",
    "__str__",
    "__format__",
    "__len__",
    "__hash__",
    "__iter__",
    "__bool__",
    "__index__",
    "__int__",
    "__float__",
    "__reduce_ex__",
    "__setstate__",
    "__getstate__",
    "__deepcopy__",
    "__dir__",
    "__array__",
    "__array_wrap__",
    "__contains__",
    "__init__",
    "__new__",
    "__del__",
    "__init_subclass__",
    "__subclasshook__",
    "__class__",
    "__getattr__",
    "__getattribute__",
    "__setattr__",
    "__delattr__",
    "__sizeof__",
    "__reduce__",
    "__torch_function__",
}


def _patch_targets():
    import torch.nn.functional as F

    targets = []
    for owner, names in ((torch, vars(torch)), (F, vars(F))):
        for name, value in list(names.items()):
            if name.startswith("_") or not callable(value) or isinstance(value, type):
                continue
            if name.startswith(("is_", "get_", "set_")) or name in (
                "manual_seed",
                "seed",
                "initial_seed",
                "load",
                "save",
                "typename",
                "no_grad",
                "enable_grad",
                "inference_mode",
                "compile",
                "use_deterministic_algorithms",
            ):
                continue
            module = getattr(value, "__module__", "") or ""
            if module.startswith("torch") or type(value).__name__ == "builtin_function_or_method":
                targets.append((owner, name, value))
    for name, value in list(vars(torch.Tensor).items()):
        if name in _NOT_OPS or isinstance(value, (property, type, staticmethod, classmethod)):
            continue
        if name.startswith("__") and not name.startswith(
            (
                "__add",
                "__radd",
                "__iadd",
                "__sub",
                "__rsub",
                "__isub",
                "__mul",
                "__rmul",
                "__imul",
                "__matmul",
                "__rmatmul",
                "__truediv",
                "__rtruediv",
                "__itruediv",
                "__floordiv",
                "__pow",
                "__rpow",
                "__neg",
                "__getitem",
                "__setitem",
                "__eq",
                "__ne",
                "__lt",
                "__le",
                "__gt",
                "__ge",
                "__and",
                "__or",
                "__xor",
                "__invert",
                "__abs",
                "__mod",
            )
        ):
            continue
        if name.startswith("_") and not name.startswith("__"):
            continue
        if callable(value):
            targets.append((torch.Tensor, name, value))
    return targets


def _start_recording():
    with _State.lock:
        if _State.saved:
            return
        for owner, name, value in _patch_targets():
            try:
                setattr(owner, name, _wrap("aten::" + name.strip("_"), value))
            except (AttributeError, TypeError):
                continue
            _State.saved.append((owner, name, value))
        backward = torch.autograd.backward
        torch.autograd.backward = _wrap("autograd::engine::backward", backward)
        _State.saved.append((torch.autograd, "backward", backward))


def _stop_recording():
    with _State.lock:
        for owner, name, value in reversed(_State.saved):
            setattr(owner, name, value)
        _State.saved.clear()


class profile:
    """profile(enabled=True, *, use_cuda=False, record_shapes=False, ...): records the ops run
    inside it (Note [Recording at the API]); function_events, key_averages(), table() and
    export_chrome_trace() read the result."""

    def __init__(
        self,
        enabled=True,
        *,
        use_cuda=False,
        use_device=None,
        record_shapes=False,
        with_flops=False,
        profile_memory=False,
        with_stack=False,
        with_modules=False,
        use_kineto=False,
        use_cpu=True,
        experimental_config=None,
    ):
        self.enabled = enabled
        self.record_shapes = record_shapes
        if use_cuda or use_device:
            warnings.warn("profile: CUDA activity is not recorded: this build has no CUDA tensors")
        self._events = []
        self._function_events = None
        self.entered = False

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._events = []
        self._function_events = None
        _start_recording()
        _State.active.append(self)
        return self

    def __exit__(self, *exc):
        if not self.enabled:
            return False
        _State.active.remove(self)
        if not _State.active:
            _stop_recording()
        events = EventList(sorted(self._events, key=lambda e: e.start))
        for i, e in enumerate(events):
            e.id = i
        self._function_events = events
        return False

    def _add(self, event):
        self._events.append(event)

    def _check_finished(self):
        if self._function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    @property
    def function_events(self):
        self._check_finished()
        return self._function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, header=None, top_level_events_only=False):
        return self.function_events.table(sort_by, row_limit, max_src_column_width, header, top_level_events_only)

    def total_average(self):
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self):
        return self.function_events.self_cpu_time_total

    def export_chrome_trace(self, path):
        self.function_events.export_chrome_trace(path)

    def __str__(self):
        return self.table()


class record_function:
    """A named range in the profile (a context manager, or a decorator)."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._event = None

    def __enter__(self):
        self._event = _begin(self.name, user_range=True)
        return self

    def __exit__(self, *exc):
        _end(self._event)
        self._event = None
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)

        return wrapped


class emit_nvtx:
    def __init__(self, enabled=True, record_shapes=False):
        if enabled:
            raise RuntimeError("emit_nvtx needs CUDA (NVTX ranges for nvprof), and this build has no CUDA tensors")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
