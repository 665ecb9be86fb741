"""load_lua on models saved on a GPU and on classes it has no Python counterpart for:
cutorch's torch.Cuda*Tensor / Storage as CPU tensors, cudnn modules as their nn twins, other
packages' classes as placeholders with a warning, nngraph graphs (tables used as keys).
The files are written as torch7 writes them: save_lua's bytes with the class names cutorch
and cudnn write, or bytes put together by hand from the format."""

import io
import struct
import warnings

import numpy as np
import pytest

import torch
from conftest import LAYOUTS, NUMPY_OF, make_tensor
from legacy_helpers import binary, load_bytes, same_storage, t7_bytes
from torch.legacy import nn as legacy_nn


def obj(typename, **fields):
    return legacy_nn.class_for(typename)(**fields)


def rename_classes(data, renames):
    """The binary file with class names replaced, as if another writer had written them
    (each name is an int32 length and the bytes)."""
    for old, new in renames.items():
        old, new = old.encode(), new.encode()
        data = data.replace(struct.pack("<i", len(old)) + old, struct.pack("<i", len(new)) + new)
    return data


# ---------------------------------------------------------------- cutorch's tensors

CUDA_NAMES = [
    (torch.float32, "Float", "Cuda"),
    (torch.float64, "Double", "CudaDouble"),
    (torch.int64, "Long", "CudaLong"),
    (torch.int32, "Int", "CudaInt"),
    (torch.int16, "Short", "CudaShort"),
    (torch.int8, "Char", "CudaChar"),
    (torch.uint8, "Byte", "CudaByte"),
]


@pytest.mark.parametrize("dtype,cpu,cuda", CUDA_NAMES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cuda_tensors_load_as_cpu_tensors(dtype, cpu, cuda, layout, rng):
    t, expected = make_tensor((3, 4), dtype, layout, rng)
    part = t[1:]
    data = rename_classes(
        t7_bytes({"t": t, "part": part, "s": t.storage()}),
        {"torch.%sTensor" % cpu: "torch.%sTensor" % cuda, "torch.%sStorage" % cpu: "torch.%sStorage" % cuda},
    )
    assert ("torch.%sTensor" % cuda).encode() in data and ("torch.%sTensor" % cpu).encode() not in data
    back = load_bytes(data)
    expected = np.asarray(expected, dtype=NUMPY_OF[dtype])
    assert back["t"].dtype == dtype and back["part"].dtype == dtype
    np.testing.assert_array_equal(back["t"].numpy(), expected)
    np.testing.assert_array_equal(back["part"].numpy(), expected[1:])
    assert same_storage(back["t"], back["part"]) and back["s"]._cdata == back["t"].storage()._cdata
    assert back["s"].dtype == dtype


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cuda_half_loads_as_float(layout, rng):
    t, expected = make_tensor((2, 5), torch.float16, layout, rng)
    data = rename_classes(
        t7_bytes({"t": t, "row": t[1], "s": t.storage()}),
        {"torch.HalfTensor": "torch.CudaHalfTensor", "torch.HalfStorage": "torch.CudaHalfStorage"},
    )
    back = load_bytes(data)
    want = np.asarray(expected, dtype=np.float16).astype(np.float32)  # every half is a float exactly
    assert back["t"].dtype == torch.float32 and back["row"].dtype == torch.float32
    np.testing.assert_array_equal(back["t"].numpy(), want)
    np.testing.assert_array_equal(back["row"].numpy(), want[1])
    assert back["t"].stride() == t.stride()
    # still one storage, as in the file, now of floats
    assert same_storage(back["t"], back["row"]) and back["s"]._cdata == back["t"].storage()._cdata
    assert back["s"].dtype == torch.float32
    back["t"][1, 0] = 7.5
    assert back["row"][0].item() == 7.5


def test_cuda_true_needs_a_gpu():
    # what load_lua(cuda=True) does on a GPU is in cuda_cases.py (test_cuda_stand_in.py)
    data = rename_classes(t7_bytes(torch.ones(2)), {"torch.FloatTensor": "torch.CudaTensor"})
    if torch.cuda.is_available():
        assert load_lua_bytes_cuda(data).is_cuda
    else:
        kind = RuntimeError if torch.backends.cuda.is_built() else AssertionError
        with pytest.raises(kind, match="No CUDA GPUs are available|Torch not compiled with CUDA"):
            load_lua_bytes_cuda(data)
    with pytest.raises(ValueError, match="cuda must be True or False"):
        torch.utils.serialization.load_lua(io.BytesIO(data), cuda="yes")


def load_lua_bytes_cuda(data):
    return torch.utils.serialization.load_lua(io.BytesIO(data), cuda=True)


def test_cpu_half_stays_half():
    t = torch.tensor([1.5, -2.25], dtype=torch.float16)
    assert load_bytes(t7_bytes(t)).dtype == torch.float16


# ---------------------------------------------------------------- cudnn modules


def cudnn_fields(**fields):
    """What every cudnn module carries besides its own fields, as cudnn writes it: CUDA
    buffers and the sizes its descriptors were made for (descriptors themselves are cleared)."""
    base = {
        "output": torch.zeros(2, 3),
        "gradInput": torch.zeros(0),
        "_type": "torch.CudaTensor",
        "train": False,
        "iSize": torch.tensor([2, 3, 8, 8]).storage(),
    }
    base.update(fields)
    return base


CUDNN_CASES = [
    # (cudnn class, its fields, the nn class, fields expected after loading, fields that must be gone)
    (
        "cudnn.SpatialConvolution",
        dict(
            nInputPlane=4,
            nOutputPlane=6,
            kW=3,
            kH=3,
            dW=1,
            dH=1,
            padW=1,
            padH=1,
            groups=1,
            weight=torch.ones(6, 4, 3, 3),
            bias=torch.ones(6),
            gradWeight=torch.zeros(6, 4, 3, 3),
            gradBias=torch.zeros(6),
            input_offset=256,
            output_offset=384,
            weight_offset=108,
            fmode="CUDNN_X",
            bdmode="CUDNN_Y",
            bwmode="CUDNN_Z",
            pad=[1, 1],
            stride=[1, 1],
            convDescData={"padA": [1, 1], "dataType": "CUDNN_DATA_FLOAT"},
            oSize=torch.tensor([2, 6, 8, 8]).storage(),
        ),
        "nn.SpatialConvolution",
        dict(nInputPlane=4.0, padW=1.0, kH=3.0),
        [
            "groups",
            "input_offset",
            "output_offset",
            "weight_offset",
            "fmode",
            "bdmode",
            "bwmode",
            "pad",
            "stride",
            "convDescData",
            "iSize",
            "oSize",
        ],
    ),
    (
        "cudnn.SpatialConvolution",
        dict(
            nInputPlane=4,
            nOutputPlane=6,
            kW=3,
            kH=3,
            dW=2,
            dH=2,
            padW=0,
            padH=0,
            groups=2,
            weight=torch.ones(6, 2, 3, 3),
            bias=torch.ones(6),
        ),
        "nn.SpatialConvolution",
        dict(groups=2.0, dW=2.0),
        ["iSize"],
    ),
    (
        "cudnn.SpatialFullConvolution",
        dict(nInputPlane=4, nOutputPlane=2, kW=3, kH=3, dW=2, dH=2, padW=1, padH=1, weight=torch.ones(4, 2, 3, 3)),
        "nn.SpatialFullConvolution",
        dict(adjW=0.0, adjH=0.0, dW=2.0),
        ["iSize"],
    ),
    (
        "cudnn.VolumetricConvolution",
        dict(
            nInputPlane=2,
            nOutputPlane=3,
            kT=3,
            kW=3,
            kH=3,
            dT=1,
            dW=1,
            dH=1,
            padT=1,
            padW=1,
            padH=1,
            weight=torch.ones(3, 2, 3, 3, 3),
        ),
        "nn.VolumetricConvolution",
        dict(padT=1.0, kT=3.0),
        ["iSize"],
    ),
    (
        "cudnn.ReLU",
        dict(inplace=True, mode="CUDNN_ACTIVATION_RELU", nElem=384),
        "nn.ReLU",
        dict(threshold=0.0, val=0.0, inplace=True),
        ["mode", "nElem", "iSize"],
    ),
    (
        "cudnn.ClippedReLU",
        dict(inplace=False, ceiling=6, mode="CUDNN_ACTIVATION_CLIPPED_RELU"),
        "nn.Clamp",
        dict(min_val=0.0, max_val=6.0),
        ["ceiling", "mode"],
    ),
    ("cudnn.Tanh", dict(inplace=False, mode="CUDNN_ACTIVATION_TANH"), "nn.Tanh", {}, ["mode", "inplace"]),
    ("cudnn.Sigmoid", dict(inplace=False, mode="CUDNN_ACTIVATION_SIGMOID"), "nn.Sigmoid", {}, ["mode", "inplace"]),
    (
        "cudnn.SoftMax",
        dict(mode="CUDNN_SOFTMAX_MODE_INSTANCE", algorithm="CUDNN_SOFTMAX_ACCURATE"),
        "nn.SoftMax",
        {},
        ["mode", "algorithm", "iSize"],
    ),
    (
        "cudnn.LogSoftMax",
        dict(mode="CUDNN_SOFTMAX_MODE_INSTANCE", algorithm="CUDNN_SOFTMAX_LOG"),
        "nn.LogSoftMax",
        {},
        ["mode", "algorithm"],
    ),
    (
        "cudnn.SpatialMaxPooling",
        dict(kW=2, kH=2, dW=2, dH=2, padW=0, padH=0, ceil_mode=True, mode="CUDNN_POOLING_MAX"),
        "nn.SpatialMaxPooling",
        dict(ceil_mode=True, kW=2.0),
        ["mode", "iSize"],
    ),
    (
        "cudnn.SpatialAveragePooling",
        dict(
            kW=3,
            kH=3,
            dW=1,
            dH=1,
            padW=1,
            padH=1,
            ceil_mode=False,
            count_include_pad=False,
            mode="CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING",
        ),
        # cudnn counts the padding whatever the field says
        "nn.SpatialAveragePooling",
        dict(count_include_pad=True, divide=True, padW=1.0),
        ["mode"],
    ),
    (
        "cudnn.SpatialBatchNormalization",
        dict(
            running_mean=torch.zeros(3),
            running_var=torch.ones(3),
            weight=torch.ones(3),
            bias=torch.zeros(3),
            eps=1e-5,
            momentum=0.1,
            affine=True,
            save_mean=torch.zeros(3),
            save_std=torch.ones(3),
            scaleT=torch.ones(1),
        ),
        "nn.SpatialBatchNormalization",
        dict(eps=1e-5, affine=True),
        ["scaleT", "iSize"],
    ),
    (
        "cudnn.BatchNormalization",
        dict(
            running_mean=torch.zeros(3),
            running_var=torch.ones(3),
            weight=torch.ones(3),
            bias=torch.zeros(3),
            eps=1e-3,
            momentum=0.1,
            affine=True,
        ),
        "nn.BatchNormalization",
        dict(eps=1e-3),
        ["iSize"],
    ),
    (
        "cudnn.SpatialCrossMapLRN",
        dict(size=5, alpha=1e-4, beta=0.75, K=2.0),
        "nn.SpatialCrossMapLRN",
        dict(k=2.0, size=5.0),
        ["K", "iSize"],
    ),
]


@pytest.mark.parametrize("case", CUDNN_CASES, ids=lambda c: c[0] + ("_g" if c[1].get("groups", 1) != 1 else ""))
def test_cudnn_modules_load_as_nn_twins(case):
    cudnn_name, fields, nn_name, expected, gone = case
    data = rename_classes(
        t7_bytes(obj(cudnn_name, **cudnn_fields(**fields))),
        {"torch.FloatTensor": "torch.CudaTensor", "torch.FloatStorage": "torch.CudaStorage"},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a mapped class is known: no warning
        m = load_bytes(data)
    assert type(m) is legacy_nn.class_for(nn_name) and m.torch_typename() == nn_name
    assert isinstance(m, legacy_nn.Module)
    for name, value in expected.items():
        assert getattr(m, name) == value, name
    for name in gone:
        assert name not in vars(m), name
    assert m._type == "torch.FloatTensor" and m.train is False
    for name, value in fields.items():  # tensors come through as CPU floats with their values
        if torch.is_tensor(value) and name in vars(m):
            got = getattr(m, name)
            assert got.dtype == torch.float32 and got.shape == value.shape
            np.testing.assert_array_equal(got.numpy(), value.numpy())


@pytest.mark.parametrize(
    "cuda,cpu",
    [
        ("torch.CudaTensor", "torch.FloatTensor"),
        ("torch.CudaDoubleTensor", "torch.DoubleTensor"),
        ("torch.CudaHalfTensor", "torch.FloatTensor"),
        ("torch.FloatTensor", "torch.FloatTensor"),
    ],
)
def test_type_field_names_the_cpu_type(cuda, cpu):
    m = load_bytes(t7_bytes(obj("nn.Linear", weight=torch.ones(2, 2), _type=cuda)))
    assert m._type == cpu


def test_gpu_model_loads_whole():
    """A Sequential as a GPU-trained model is saved: CudaTensor weights, cudnn layers, nn layers."""
    model = obj(
        "nn.Sequential",
        _type="torch.CudaTensor",
        train=False,
        modules=[
            obj(
                "cudnn.SpatialConvolution",
                **cudnn_fields(
                    nInputPlane=3,
                    nOutputPlane=4,
                    kW=3,
                    kH=3,
                    dW=1,
                    dH=1,
                    padW=1,
                    padH=1,
                    weight=torch.randn(4, 3, 3, 3),
                    bias=torch.randn(4),
                ),
            ),
            obj("cudnn.ReLU", **cudnn_fields(inplace=True)),
            obj("nn.View", size=torch.tensor([64]).storage(), numElements=64),
            obj("nn.Linear", weight=torch.randn(2, 64), bias=torch.randn(2), _type="torch.CudaTensor"),
        ],
    )
    data = rename_classes(
        t7_bytes(model), {"torch.FloatTensor": "torch.CudaTensor", "torch.FloatStorage": "torch.CudaStorage"}
    )
    back = load_bytes(data)
    assert [m.torch_typename() for m in back.modules] == ["nn.SpatialConvolution", "nn.ReLU", "nn.View", "nn.Linear"]
    np.testing.assert_array_equal(back.modules[0].weight.numpy(), model.modules[0].weight.numpy())
    assert back.modules[3].weight.dtype == torch.float32
    assert back.modules[2].size.tolist() == [64]  # a LongStorage stays one


# ---------------------------------------------------------------- unknown classes


def unknown_file():
    fancy = obj("mypkg.Fancy", weight=torch.arange(3.0), scale=2.0)
    return t7_bytes(
        {
            "a": fancy,
            "b": obj("mypkg.Fancy", scale=3.0),
            "c": obj("other.Thing", name="x"),
            "d": fancy,
            "known": obj("nn.Linear", weight=torch.ones(1, 1)),
            "rnn": obj("cudnn.RNN", hiddenSize=4),
        }
    )


def test_unknown_classes_load_with_one_warning_per_class():
    data = unknown_file()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = load_bytes(data)
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 3, messages  # one per class, though mypkg.Fancy occurs twice
    assert "'cudnn.RNN'" in messages[0] and "'mypkg.Fancy'" in messages[1] and "'other.Thing'" in messages[2]
    assert all(issubclass(w.category, UserWarning) for w in caught)
    a = back["a"]
    assert a.torch_typename() == "mypkg.Fancy" and isinstance(a, legacy_nn.TorchObject)
    assert a.weight.tolist() == [0.0, 1.0, 2.0] and a.scale == 2.0 and a["scale"] == 2.0
    assert back["d"] is a and back["b"].scale == 3.0 and back["c"].name == "x"
    assert back["rnn"].torch_typename() == "cudnn.RNN" and back["rnn"].hiddenSize == 4.0
    # once per class and load: the next load warns again
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        load_bytes(data)
    assert len(again) == 3
    # and it saves back as written
    assert t7_bytes(back) == data


def test_unknown_classes_true_loads_quietly_false_raises():
    data = unknown_file()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        back = load_bytes(data, unknown_classes=True)
    assert back["c"].torch_typename() == "other.Thing"
    with pytest.raises(RuntimeError, match="cudnn.RNN|mypkg.Fancy|other.Thing"):
        load_bytes(data, unknown_classes=False)
    # known classes load with unknown_classes=False too (PyTorch 0.4 loaded what it had readers for)
    known = load_bytes(t7_bytes([obj("nn.Linear", weight=torch.ones(1, 1)), torch.ones(2)]), unknown_classes=False)
    assert known[0].torch_typename() == "nn.Linear"
    with pytest.raises(ValueError):
        load_bytes(data, unknown_classes="yes")


def test_hand_written_unknown_class():
    # object #1 of class "lab.Net" (version "V 1") whose content is table #2 {depth = 3}
    data = binary(4, 1, 3, b"V 1", 7, b"lab.Net", 3, 2, 1, 2, 5, b"depth", 1, 3.0)
    with pytest.warns(UserWarning, match="'lab.Net'"):
        net = load_bytes(data)
    assert net.torch_typename() == "lab.Net" and net.depth == 3.0


# ---------------------------------------------------------------- tables as keys, nngraph


def test_hand_written_table_as_key():
    # table #1 {[t] = 1, [1] = t} with t = table #2 {a = 1}: t is a key and a value
    data = binary(3, 1, 2, 3, 2, 1, 2, 1, b"a", 1, 1.0, 1, 1.0, 1, 1.0, 3, 2)
    back = load_bytes(data)
    t = back[1.0]
    assert dict(t) == {"a": 1.0} and back[t] == 1.0
    assert hash(t) == hash(t) and t == t and t != {"a": 1.0}  # compared as Lua does: by identity
    # a key table with keys 1..n is a list, hashable the same way
    data = binary(3, 1, 1, 3, 2, 2, 1, 1.0, 2, 1, b"x", 1, 2.0, 2, 1, b"y", 5, 1)
    back = load_bytes(data)
    ((key, value),) = back.items()
    assert list(key) == ["x", "y"] and value is True and back[key] is True
    assert t7_bytes(back) == data


class IdDict(dict):
    """A Lua table that may be a key (as load_lua's tables used as keys are)."""

    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other


def build_gmodule(spec, outputs, n_inputs=1):
    """An nn.gModule laid out as nngraph writes it. spec: [(name, module or None, [input names],
    extra data fields)], the input node first, in an evaluation order; outputs: the names whose
    outputs the graph returns. Returns the gModule placeholder object."""
    node_cls, graph_cls, edge_cls = (legacy_nn.class_for(n) for n in ("nngraph.Node", "graph.Graph", "graph.Edge"))
    spec = list(spec) + [("out", None, list(outputs), {})]
    datas, fnodes, bnodes, modules = {}, {}, {}, []
    for k, (name, module, inputs, extra) in enumerate(spec):
        data = IdDict(
            mapindex={},
            reverseMap={},
            annotations={"_debugLabel": "[test.lua]:%d_" % (k + 1)},
            forwardNodeId=float(k + 1),
            **extra,
        )
        if module is not None:
            data["module"] = module
            modules.append(module)
        for pos, source in enumerate(inputs, 1):
            data["mapindex"][float(pos)] = datas[source]
            data["mapindex"][datas[source]] = float(pos)
        if k == 0 or name == "out":
            data["input"] = {}
        datas[name] = data
        fnodes[name] = node_cls(data=data, id=float(k + 1), children=[], visited=False, marked=False)
        bnodes[name] = node_cls(data=data, id=float(len(spec) - k), children=[], visited=False, marked=False)
    edges_f, edges_b = [], []
    for name, _, inputs, _ in spec:
        for source in inputs:
            fnodes[source].children.append(fnodes[name])
            bnodes[name].children.append(bnodes[source])
            datas[source]["reverseMap"][bnodes[name]] = True
            edges_f.append(edge_cls(**{"from": fnodes[source], "to": fnodes[name]}))
            edges_b.append(edge_cls(**{"from": bnodes[name], "to": bnodes[source]}))
    order = [name for name, *_ in spec]
    fg = graph_cls(nodes=[fnodes[n] for n in order], edges=edges_f, nodeset={fnodes[n]: True for n in order})
    bg = graph_cls(nodes=[bnodes[n] for n in reversed(order)], edges=edges_b, nodeset={bnodes[n]: True for n in order})
    return obj(
        "nn.gModule",
        forwardnodes=[fnodes[n] for n in order],
        backwardnodes=[bnodes[n] for n in reversed(order)],
        innode=fnodes[order[0]],
        outnode=bnodes["out"],
        fg=fg,
        bg=bg,
        modules=modules,
        nInputs=float(n_inputs),
        verbose=False,
        output=torch.zeros(0),
        gradInput=torch.zeros(0),
        _type="torch.FloatTensor",
        train=False,
    )


def residual_graph():
    lin_a = obj("nn.Linear", weight=torch.randn(4, 4), bias=torch.randn(4))
    lin_b = obj("nn.Linear", weight=torch.randn(4, 4), bias=torch.randn(4))
    spec = [
        ("in", None, [], {}),
        ("a", lin_a, ["in"], {}),
        ("b", lin_b, ["in"], {}),
        ("sum", obj("nn.CAddTable"), ["a", "b"], {}),
        ("tanh", obj("nn.Tanh"), ["sum"], {}),
    ]
    return build_gmodule(spec, ["tanh"]), lin_a, lin_b


def test_nngraph_gmodule_loads_and_walks():
    g, lin_a, lin_b = residual_graph()
    data = t7_bytes(g)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nngraph and graph are known packages
        back = load_bytes(data)
    assert back.torch_typename() == "nn.gModule" and isinstance(back, legacy_nn.Module)
    nodes = back.forwardnodes
    assert len(nodes) == 6 and all(n.torch_typename() == "nngraph.Node" for n in nodes)
    assert back.innode is nodes[0] and back.nInputs == 1.0
    assert [m.torch_typename() for m in back.modules] == ["nn.Linear", "nn.Linear", "nn.CAddTable", "nn.Tanh"]
    # each node's inputs in order, through mapindex: position -> data and data -> position
    by_data = {id(n.data): k for k, n in enumerate(nodes)}
    add = nodes[3].data
    assert add["module"] is back.modules[2]
    mapindex = add["mapindex"]
    assert [by_data[id(mapindex[float(p)])] for p in (1, 2)] == [1, 2]
    assert mapindex[nodes[1].data] == 1.0 and mapindex[nodes[2].data] == 2.0
    assert nodes[1].data["module"].weight.tolist() == lin_a.weight.tolist()
    # the forward graph's children are the consumers; the backward graph's the inputs
    assert nodes[0].children == [nodes[1], nodes[2]] and nodes[3].children == [nodes[4]]
    out = back.outnode
    assert out.data is nodes[5].data and out.children[0].data is nodes[4].data
    # reverseMap is keyed by node objects, graph.Graph's nodeset too
    assert all(k.torch_typename() == "nngraph.Node" for k in nodes[1].data["reverseMap"])
    assert set(map(id, back.fg.nodeset)) == set(map(id, nodes))
    assert back.fg.edges[0]["from"] is nodes[0]
    # saved again, the same bytes
    assert t7_bytes(back) == data


def test_nngraph_mapindex_lookup_after_round_trip():
    g, _, _ = residual_graph()
    back = load_bytes(t7_bytes(load_bytes(t7_bytes(g))))
    for node in back.forwardnodes:
        mapindex = node.data["mapindex"]
        positions = sorted(k for k in mapindex if isinstance(k, float))
        for p in positions:
            assert mapindex[mapindex[p]] == p


def test_many_objects_save_with_their_own_fields():
    # save_lua asks Python for each object's fields as a fresh dict: every one must be written,
    # even when a freed one's address comes back for the next
    objs = [obj("nn.Linear", k=float(i), weight=torch.full((1,), float(i))) for i in range(300)]
    back = load_bytes(t7_bytes(objs))
    assert [o.k for o in back] == [float(i) for i in range(300)]
    assert [o.weight.item() for o in back] == [float(i) for i in range(300)]
    assert len({id(o) for o in back}) == 300
