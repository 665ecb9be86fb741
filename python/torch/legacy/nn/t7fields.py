"""Fields that change form between a .t7 file and Python: index bases and older nn versions.

Note [1-based fields]
torch7 counts from 1: a Select's `dimension`, a max-pooling module's `indices` buffer, a
LookupTable's `paddingValue`. torch.legacy.nn counts from 0 like the rest of this project,
so load_lua shifts those fields down when it fills an object (from_torch7, called by the
loader's set_content hook) and save_lua shifts them back up in the content it writes
(to_torch7, called by the writer's content_of hook; the object itself is left alone).
A file that load_lua read therefore saves back to the same bytes.

The table is keyed by torch7 class name, not by Python class, so it applies whichever
Python class (ours, the other legacy modules', a placeholder) stands for that name.
Whoever writes a torch.legacy.nn class with a 1-based field adds its name here.

Kinds of field:
- INDEX: a number; k >= 1 becomes k - 1. Zero and negative values (torch7's "from the
  end" for Narrow, Select, SplitTable, ...) stay as they are on both sides.
- OPTIONAL_INDEX: as INDEX, but torch7's 0 means "none" and is None in Python
  (LookupTable's paddingValue).
- INDEX_TENSOR: a tensor whose every element is an index (pooling `indices`, Max's
  `_indices`, SpatialConvolutionMap's `connTable`). Its whole storage is shifted once
  however many tensors view it; on save the shifted copy keeps the original's offset,
  strides and storage size, and storages shared between such fields stay shared.
- INDEX_LIST: a list of INDEX values or of lists of them (Transpose's `permutations`).

VolumetricMaxPooling's `indices` are 1-based flat positions in each volume, as this
project's THNN (and so its Lua package) keeps them, and as SpatialMaxPooling's are. torch7's
own THNN packed the 0-based offsets of the max inside its window as bytes (t | h << 8 |
w << 16) instead: a file torch7 wrote loads with those bytes less one. The next forward
recomputes the indices, so only a backward or a VolumetricMaxUnpooling run straight after
loading reads them: the Python module recognises the packed form there (the positions are
not inside their windows, the bytes are inside the kernel) and decodes it, and raises a
RuntimeError for indices of neither form. Unpooling needs its pooling module to have run
forward (or to come from a file saved after one) on both sides.

Left as written on purpose: TemporalMaxPooling's `indices` (0-based offsets in torch7
already), and nngraph's routing tables (`mapindex`, `selectindex`: internal bookkeeping
gModule reads as torch7 wrote it).

Note [Older nn versions]
upgrade() brings fields of older nn versions to today's form on load, as nn's own
backward-compatibility code did lazily (a convolution's `padding` -> padW/padH), and gives
a field that torch7 names otherwise the name this project's nn uses (Kmeans's `_minIndx`
-> `_assignment`). Fields that older files simply lack (padW, ceil_mode, count_include_pad,
dilation, a bias) need no upgrade: the classes read them through class-level defaults (Note
[Objects without __init__]), so a file that had no such field also saves back without one.
"""

import numbers

import torch
from torch.legacy.nn.utils import typename_of

__all__ = [
    "IdentityDict",
    "IdentityList",
    "ONE_BASED",
    "INDEX",
    "OPTIONAL_INDEX",
    "INDEX_TENSOR",
    "INDEX_LIST",
    "from_torch7",
    "to_torch7",
    "upgrade",
]

INDEX = "index"
OPTIONAL_INDEX = "optional index"
INDEX_TENSOR = "index tensor"
INDEX_LIST = "index list"


class IdentityDict(dict):
    """A Lua table that is used as a key of another table (nngraph's mapindex[node.data]):
    load_lua gives such tables as IdentityDict / IdentityList, which hash and compare by
    identity as Lua compares tables, so mapindex[node.data] finds it. Build one of these for
    a table you mean to use as a key in a graph made by hand."""

    __slots__ = ()

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return id(self) >> 4


class IdentityList(list):
    """IdentityDict's twin for a table with keys 1..n."""

    __slots__ = ()

    __eq__ = IdentityDict.__eq__
    __ne__ = IdentityDict.__ne__
    __hash__ = IdentityDict.__hash__


_POOL_INDICES = {"indices": INDEX_TENSOR}

# torch7 class name -> {field: kind}
ONE_BASED = {
    # pooling buffers (flat positions in each input plane, or per-axis positions)
    "nn.SpatialMaxPooling": _POOL_INDICES,
    "nn.SpatialDilatedMaxPooling": _POOL_INDICES,
    "nn.SpatialFractionalMaxPooling": _POOL_INDICES,
    "nn.SpatialAdaptiveMaxPooling": _POOL_INDICES,
    "nn.SpatialMaxUnpooling": _POOL_INDICES,  # a view of its pooling module's indices
    "nn.VolumetricMaxPooling": _POOL_INDICES,
    "nn.VolumetricDilatedMaxPooling": _POOL_INDICES,
    "nn.VolumetricMaxUnpooling": _POOL_INDICES,
    "nn.Max": {"dimension": INDEX, "_indices": INDEX_TENSOR},
    "nn.Min": {"dimension": INDEX, "_indices": INDEX_TENSOR},
    "nn.SpatialConvolutionMap": {"connTable": INDEX_TENSOR},
    "nn.SpatialFullConvolutionMap": {"connTable": INDEX_TENSOR},
    "nn.CMaxTable": {"maxIdx": INDEX_TENSOR},  # which input holds each maximum
    "nn.CMinTable": {"maxIdx": INDEX_TENSOR},
    "nn.TemporalDynamicKMaxPooling": {"indices": INDEX_TENSOR},
    "nn.IndexLinear": {"keys": INDEX_TENSOR, "runningKeys": INDEX_TENSOR},  # feature keys
    "nn.PartialLinear": {"allcolumns": INDEX_TENSOR, "partition": INDEX_TENSOR},  # output columns
    "nn.Kmeans": {"output": INDEX_TENSOR, "_assignment": INDEX_TENSOR},  # each sample's centre
    # dimensions and positions
    "nn.Index": {"dimension": INDEX},
    "nn.Select": {"dimension": INDEX, "index": INDEX},
    "nn.Narrow": {"dimension": INDEX, "index": INDEX},
    "nn.JoinTable": {"dimension": INDEX},
    "nn.SplitTable": {"dimension": INDEX},
    "nn.Squeeze": {"dim": INDEX},
    "nn.Unsqueeze": {"pos": INDEX},
    "nn.Transpose": {"permutations": INDEX_LIST},
    "nn.Concat": {"dimension": INDEX},
    "nn.DepthConcat": {"dimension": INDEX},
    "nn.Parallel": {"inputDimension": INDEX, "outputDimension": INDEX},
    "nn.Sum": {"dimension": INDEX},
    "nn.Mean": {"dimension": INDEX},
    "nn.Replicate": {"dim": INDEX},
    "nn.Padding": {"dim": INDEX, "index": INDEX},
    "nn.MixtureTable": {"dim": INDEX},
    "nn.SelectTable": {"index": INDEX},
    "nn.NarrowTable": {"offset": INDEX},
    "nn.SoftMaxTree": {"rootId": INDEX},
    "nn.GatedLinearUnit": {"dim": INDEX},
    "nn.WeightNorm": {"outputDim": INDEX},
    "nn.Convert": {"perm": INDEX_LIST, "flatAt": INDEX},
    # class indices
    "nn.LookupTable": {"paddingValue": OPTIONAL_INDEX},
    "nn.ClassNLLCriterion": {"ignoreIndex": INDEX},
    "nn.SpatialClassNLLCriterion": {"ignoreIndex": INDEX},
}


def _is_number(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _down(v):
    return v - 1 if _is_number(v) and v >= 1 else v


def _up(v):
    return v + 1 if _is_number(v) and v >= 0 else v


def _storage_key(t):
    s = t.storage()
    return s._cdata, s.data_ptr()


def _whole(t):
    """A 1-D tensor over all of t's storage."""
    s = t.storage()
    return torch.empty(0, dtype=t.dtype).set_(s, 0, (s.size(),), (1,))


def _list_map(v, fn):
    if isinstance(v, list):
        return [_list_map(x, fn) for x in v]
    return fn(v)


def from_torch7(obj, seen):
    """Shifts obj's 1-based fields to 0-based in place (load). seen: the storages shifted
    so far in this load, so that a storage two fields view is shifted once."""
    kinds = ONE_BASED.get(obj.torch_typename())
    if not kinds:
        return
    fields = obj.__dict__
    for name, kind in kinds.items():
        if name not in fields:
            continue
        v = fields[name]
        if kind == INDEX:
            fields[name] = _down(v)
        elif kind == OPTIONAL_INDEX:
            fields[name] = None if _is_number(v) and v == 0 else _down(v)
        elif kind == INDEX_LIST:
            fields[name] = _list_map(v, _down)
        elif kind == INDEX_TENSOR and torch.is_tensor(v) and v.storage() is not None and v.storage().size():
            key = _storage_key(v)
            if key not in seen:
                seen[key] = v  # keeps the storage alive, so that its address stays its own
                _whole(v).sub_(1)


def to_torch7(obj, content, cache):
    """content (a copy of obj's fields) with the 1-based fields in torch7's form (save).
    cache: per save, original storage -> shifted storage and id(tensor) -> shifted tensor."""
    for name, v in content.items():
        if isinstance(v, torch.Size):  # torch7 holds sizes (View's, Reshape's) as LongStorages
            content[name] = torch.LongStorage(list(v))
    kinds = ONE_BASED.get(obj.torch_typename())
    if not kinds:
        return content
    for name, kind in kinds.items():
        if name not in content:
            continue
        v = content[name]
        if kind == INDEX:
            content[name] = _up(v)
        elif kind == OPTIONAL_INDEX:
            content[name] = 0.0 if v is None else _up(v)
        elif kind == INDEX_LIST:
            content[name] = _list_map(v, _up)
        elif kind == INDEX_TENSOR and torch.is_tensor(v) and v.storage() is not None and v.storage().size():
            content[name] = _shifted_tensor(v, cache)
    return content


def _shifted_tensor(t, cache):
    done = cache.get(id(t))
    if done is not None:
        return done[1]
    key = ("storage",) + _storage_key(t)
    storage = cache.get(key)
    if storage is None:
        storage = _whole(t).add(1).storage()
        cache[key] = storage
    new = torch.empty(0, dtype=t.dtype).set_(storage, t.storage_offset(), tuple(t.shape), t.stride())
    cache[id(t)] = (t, new)  # keeps t alive so that its id stays its own during the save
    return new


# ---------------------------------------------------------------- older nn versions


def _padding_to_padW_padH(fields):
    # nn before 2015 had one `padding` for both axes
    if "padding" in fields and "padW" not in fields and _is_number(fields["padding"]):
        p = fields.pop("padding")
        fields["padW"] = p
        fields["padH"] = p


def _pad_w_pad_h(fields):
    # some versions of SpatialConvolutionMM named them pad_w / pad_h
    if "pad_w" in fields and "padW" not in fields:
        fields["padW"] = fields.pop("pad_w")
    if "pad_h" in fields and "padH" not in fields:
        fields["padH"] = fields.pop("pad_h")


def _conv_upgrade(fields):
    _padding_to_padW_padH(fields)
    _pad_w_pad_h(fields)


def _copy_types(fields):
    # nn.Copy keeps its two types only as the types of its output and gradInput buffers
    # (and "no copy" as torch7's closures, or passThrough in this project's Lua nn)
    for name, buffer in (("intype", "gradInput"), ("outtype", "output")):
        if name not in fields and isinstance(fields.get(buffer), torch.Tensor):
            fields[name] = typename_of(fields[buffer].dtype)
    if "forceCopy" not in fields and "passThrough" in fields:
        fields["forceCopy"] = not fields["passThrough"]


def _multilabel_soft_margin(fields):
    # torch7 nn before 2017 (and this project's Lua nn) hold the weights and sizeAverage in a
    # BCECriterion `nll` applied to a Sigmoid `lsm`
    nll = fields.get("nll")
    if nll is not None and "weights" not in fields:
        fields["weights"] = getattr(nll, "weights", None)
        fields.setdefault("sizeAverage", getattr(nll, "sizeAverage", True))


def _kmeans_assignment(fields):
    # torch7's Kmeans keeps its last forward's assignment in _minIndx, this project's Lua nn
    # in _assignment (shifted to 0-based after this)
    if "_minIndx" in fields and "_assignment" not in fields:
        fields["_assignment"] = fields.pop("_minIndx")


UPGRADES = {
    "nn.Kmeans": _kmeans_assignment,
    "nn.MultiLabelSoftMarginCriterion": _multilabel_soft_margin,
    "nn.Copy": _copy_types,
    "nn.SpatialConvolution": _conv_upgrade,
    "nn.SpatialConvolutionMM": _conv_upgrade,
    "nn.SpatialConvolutionLocal": _conv_upgrade,
}


def upgrade(obj):
    fix = UPGRADES.get(obj.torch_typename())
    if fix is not None:
        fix(obj.__dict__)
