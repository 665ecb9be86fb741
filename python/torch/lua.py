"""torch.lua: Lua code run inside the Python process, on an embedded LuaJIT with this
project's Lua packages (`torch`, and `nn`, `optim`, ... where they exist).

    import torch
    import torch.lua

    lua = torch.lua.Runtime()                  # its own Lua state, `torch` already loaded
    model = lua.eval("torch.load('model.t7')")  # a torch7 object, as a proxy
    y = model.forward(torch.randn(3, 10))       # model:forward(x); y is a torch.Tensor
    lua.execute("function double(t) return t:mul(2) end")
    lua["double"](y)                            # y doubled in place: same memory

Runtime
    `Runtime()` makes an independent Lua state. `rt.eval(expr)` returns the values of a Lua
    expression, `rt.execute(code)` runs a chunk and returns what it returns,
    `rt.require(name)` loads a package and makes it a global (`rt.require('nn')`),
    `rt[name]` / `rt[name] = value` read and write globals, `rt.globals` is `_G`.
    No value returned means None; several values come back as a tuple.

Values
    Python -> Lua: None -> nil, bool -> boolean, int and float -> number (an int must be exact
    as a double), str -> string (UTF-8), bytes -> string, list and tuple -> table with keys
    1..n, dict -> table, tensor -> Lua tensor, storage -> Lua storage, a Lua value handed out
    before -> itself, any other callable -> a Lua function that calls it (its arguments come
    to Python by the rules below; it returns nothing for None, several values for a tuple; a
    Python exception becomes a Lua error). Anything else raises TypeError. Lua tables cannot
    hold nil: None in a list leaves a hole, a dict's None values are absent keys.
    Lua -> Python: nil -> None, boolean -> bool, number -> int when integral (Lua 5.1 has only
    doubles), else float, string -> str (bytes when it is not UTF-8), tensor -> torch.Tensor,
    storage -> typed storage (torch.FloatStorage, ...), anything else (tables, functions,
    torch7 objects such as nn modules) -> a LuaObject proxy. `to_python(value)` turns plain
    tables (no metatable) into lists (keys exactly 1..n) and dicts, recursively.

Tensors are memory
    A tensor crosses in either direction as a new view on the same storage, with its offset,
    sizes and strides: a write on one side is seen on the other, and the memory lives as long
    as either side holds it (a tensor returned from a Runtime stays valid after the Runtime
    is gone). Element types: uint8, int8, int16, int32, int64, float32, float64; a bool tensor
    reaches Lua as a ByteTensor on the same memory (and comes back as uint8); float16 has no
    Lua type (TypeError). A Python 0-d tensor reaches Lua as a 1-element 1-d tensor, since
    torch7 has no 0-d tensors; a Lua tensor with no dimensions (torch7's empty tensor) comes
    back with shape (0,). Lua code that reuses its buffers (an nn module's `output`) rewrites
    the memory a returned tensor views: `.clone()` keeps a value. Autograd does not follow
    values through Lua.

Proxies (LuaObject)
    `obj[key]` and `obj[key] = v` index the Lua value (metamethods included; a missing key is
    None); keys are Lua keys, so `obj[1]` is a table's first element. `obj.name` is the same
    lookup, except that a missing field raises AttributeError and that a function `obj` finds
    through its metatable (a class method, as torch7's `nn.Linear.forward`) comes bound to
    obj: `model.forward(x)` is Lua's `model:forward(x)`. A function stored in obj's own
    table comes unbound (`rt.globals.torch.zeros(3)`); `obj['name']` is always unbound.
    Calling a proxy calls the Lua value; `len(obj)` is Lua's `#obj`; iterating a table yields
    its keys (pairs order); `k in obj` tests for a non-nil value; `typename(obj)` is
    torch.typename or Lua's type name. Names of the form `__x__` are never looked up in Lua.

Errors
    A Lua error raises LuaError (a RuntimeError) whose message is Lua's message followed by
    the Lua stack traceback. Python conversion problems raise TypeError or ValueError before
    Lua runs.

Indices (Note [Indices across the bridge])
    Tensors are memory and numbers are numbers: nothing is shifted by default, so a LongTensor
    of indices that Lua returns holds torch7's 1-based values, and a Lua function given a
    dimension or an index receives exactly the number Python passed. Where a value is an index
    or a dimension, say so: `indexed(fn, args=(...), results=(...))` wraps a Lua function so
    that the arguments at the positions in `args` go from Python's 0-based convention to
    Lua's 1-based one and the results at the positions in `results` come back 0-based
    (`to_lua_index` / `from_lua_index`). Tensors are converted into new tensors (Lua keeps its
    1-based memory, Python gets 0-based values), so both sides stay right:

        lua_max = torch.lua.indexed(rt.eval("torch.max"), args=(1,), results=(1,))
        values, indices = lua_max(x, 0)          # torch.max(x, 1) in Lua; indices 0-based
"""

try:
    from torch import _lua
except ImportError as e:  # pragma: no cover - depends on the build
    raise ImportError(
        "torch.lua needs the bridge module torch/_lua.so: build it with "
        "`bazel build //python:_lua.so` and copy bazel-bin/python/_lua.so into "
        "python/torch/ (scripts/build.sh does)"
    ) from e

import torch

Runtime = _lua.Runtime
LuaObject = _lua.LuaObject
LuaError = _lua.LuaError
to_python = _lua.to_python
typename = _lua.typename

__all__ = ["Runtime", "LuaObject", "LuaError", "to_python", "typename", "to_lua_index", "from_lua_index", "indexed"]


def _shift(value, by, what):
    if isinstance(value, bool):
        raise TypeError("%s: expected an index (an int, an integer tensor or a list of them), got a bool" % what)
    if isinstance(value, int):
        return value + by
    if isinstance(value, torch.Tensor):
        if value.is_floating_point() or value.dtype == torch.bool:
            raise TypeError("%s: expected an integer tensor of indices, got %s" % (what, value.dtype))
        return value + by  # a new tensor: the other side keeps its own convention in its memory
    if isinstance(value, (list, tuple)):
        return type(value)(_shift(v, by, what) for v in value)
    if value is None:
        return None
    raise TypeError(
        "%s: expected an index (an int, an integer tensor or a list of them), got %s" % (what, type(value).__name__)
    )


def to_lua_index(value):
    """A 0-based Python index (int, integer tensor, or a list/tuple of them) as Lua's 1-based one."""
    return _shift(value, 1, "to_lua_index")


def from_lua_index(value):
    """A 1-based Lua index (int, integer tensor, or a list/tuple of them) as Python's 0-based one."""
    return _shift(value, -1, "from_lua_index")


def indexed(fn, args=(), results=()):
    """fn (a Lua function or bound method) with the arguments at the positions `args` shifted
    from 0-based to 1-based and the results at the positions `results` shifted back
    (Note [Indices across the bridge] in this module's documentation)."""
    if not callable(fn):
        raise TypeError("indexed: expected a Lua function, got %s" % type(fn).__name__)
    args, results = frozenset(args), frozenset(results)

    def call(*values):
        out = fn(*(to_lua_index(v) if i in args else v for i, v in enumerate(values)))
        if isinstance(out, tuple):
            return tuple(from_lua_index(v) if i in results else v for i, v in enumerate(out))
        return from_lua_index(out) if 0 in results else out

    return call
