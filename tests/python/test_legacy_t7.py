"""torch.legacy.nn with torch7's files: the CNN fixture written by Lua torch7 (run and
compared with its stored output and batch-norm statistics), 1-based fields that load_lua
makes 0-based and save_lua writes back 1-based (hand-written torch7 bytes, byte-for-byte
resaves), fields of older nn versions, and nngraph gModules in nngraph's layout run forward
and backward against the same computation written out."""

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from legacy_helpers import binary, fixture, load_bytes, t7_bytes
from torch.legacy import nn
from torch.legacy.nn import t7fields
from torch.utils.serialization import load_lua, save_lua


# ---------------------------------------------------------------- the CNN fixture


def test_cnn_fixture_reproduces_torch7_output():
    cnn = load_lua(fixture("cnn.t7"))
    ref = load_lua(fixture("cnn_io.t7"))
    assert [type(m) for m in cnn.modules] == [
        nn.SpatialConvolution,
        nn.ReLU,
        nn.SpatialMaxPooling,
        nn.SpatialBatchNormalization,
        nn.View,
        nn.Linear,
        nn.LogSoftMax,
    ]
    out = cnn.forward(ref["input"])
    assert out.dtype == torch.float32 and out.shape == (2, 10)
    np.testing.assert_allclose(out.numpy(), ref["output"].numpy(), rtol=1e-4, atol=1e-6)
    # the same model in double computes the same numbers more exactly
    cnn.double()
    assert cnn.modules[0].weight.dtype == torch.float64 and cnn.modules[3].running_var.dtype == torch.float64
    out64 = cnn.forward(ref["input"].double())
    assert out64.dtype == torch.float64
    np.testing.assert_allclose(out64.numpy(), ref["output"].numpy(), rtol=1e-4, atol=1e-5)
    # and it backpropagates: gradInput against finite differences of one output
    cnn.zeroGradParameters()
    x = ref["input"].double()
    g = torch.zeros(2, 10, dtype=torch.float64)
    g[1, 3] = 1
    gi = cnn.backward(x, g)
    eps = 1e-6
    for pos in [(1, 0, 2, 3), (1, 2, 7, 7), (0, 1, 4, 4)]:
        xp, xm = x.clone(), x.clone()
        xp[pos] += eps
        xm[pos] -= eps
        num = (cnn.forward(xp)[1, 3] - cnn.forward(xm)[1, 3]).item() / (2 * eps)
        assert abs(num - gi[pos].item()) < 1e-6


def test_cnn_training_forward_reproduces_batch_norm_statistics():
    # torch7 ran one training forward on train_input from fresh statistics (mean 0, var 1)
    cnn = load_lua(fixture("cnn.t7"))
    ref = load_lua(fixture("cnn_io.t7"))
    bn = cnn.modules[3]
    bn.running_mean.zero_()
    bn.running_var.fill_(1)
    cnn.training()
    cnn.forward(ref["train_input"])
    np.testing.assert_allclose(bn.running_mean.numpy(), ref["bn_running_mean"].numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(bn.running_var.numpy(), ref["bn_running_var"].numpy(), rtol=1e-4, atol=1e-6)


def test_cnn_fixture_buffers_and_indices(monkeypatch):
    cnn = load_lua(fixture("cnn.t7"))
    conv, pool = cnn.modules[0], cnn.modules[2]
    # the file's buffers are those of torch7's training forward: the same as ours on train_input
    # on the im2col path (oneDNN's, the default for float, leaves finput a scratch buffer)
    ref = load_lua(fixture("cnn_io.t7"))
    saved_finput, saved_indices = conv.finput.clone(), pool.indices.clone()
    assert saved_indices.min().item() == 0 and saved_indices.max().item() <= 63  # 0-based after load
    dnnl_output = cnn.forward(ref["train_input"]).clone()
    assert conv.finput.dim() == 1
    monkeypatch.setenv("THNN_CONV_IM2COL", "1")
    np.testing.assert_allclose(cnn.forward(ref["train_input"]).numpy(), dnnl_output.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(conv.finput.numpy(), saved_finput.numpy(), atol=1e-6)
    np.testing.assert_array_equal(pool.indices.numpy(), saved_indices.numpy())
    # and what a loaded torch7 file says is written back as torch7 wrote it
    with open(fixture("cnn.t7"), "rb") as f:
        original = f.read()
    loaded = load_bytes(original)
    assert t7_bytes(loaded) == original
    assert t7_bytes(loaded) == original  # saving leaves the object's 0-based values alone
    assert loaded.modules[2].indices.min().item() == 0


def test_loaded_indices_are_where_the_maxima_are():
    cnn = load_lua(fixture("cnn.t7"))
    relu_out = cnn.modules[1].output.reshape(4, 8, 64)
    pool = cnn.modules[2]
    np.testing.assert_array_equal(
        relu_out.gather(2, pool.indices.reshape(4, 8, 16)).numpy(), pool.output.reshape(4, 8, 16).numpy()
    )


# ---------------------------------------------------------------- 1-based fields, by hand


def _str(s):
    return binary(len(s), s)


def torch7_object(classname, fields, ref=1):
    """The bytes torch.save writes for an object of that class with these number fields
    (tag 4, reference, version, class, then its table: tag 3, reference, count, pairs;
    references numbered in writing order)."""
    body = b""
    for k, v in fields:
        body += binary(2) + _str(k.encode())
        if v is None:
            raise ValueError
        if isinstance(v, list):  # a table of number pairs {{a, b}, ...}
            inner = b""
            for i, pair in enumerate(v):
                inner += binary(1, float(i + 1), 3, ref + 3 + i, len(pair))
                for j, x in enumerate(pair):
                    inner += binary(1, float(j + 1), 1, float(x))
            body += binary(3, ref + 2, len(v)) + inner
        else:
            body += binary(1, float(v))
    return binary(4, ref) + _str(b"V 1") + _str(classname.encode()) + binary(3, ref + 1, len(fields)) + body


@pytest.mark.parametrize(
    "classname,fields,expected",
    [
        ("nn.Select", [("dimension", 2), ("index", 3)], {"dimension": 1.0, "index": 2.0}),
        (
            "nn.Narrow",
            [("dimension", 1), ("index", -2), ("length", 3)],
            {"dimension": 0.0, "index": -2.0, "length": 3.0},
        ),
        ("nn.JoinTable", [("dimension", 2), ("nInputDims", 3)], {"dimension": 1.0, "nInputDims": 3.0}),
        ("nn.SplitTable", [("dimension", -1)], {"dimension": -1.0}),
        ("nn.Squeeze", [("dim", 4)], {"dim": 3.0}),
        ("nn.Unsqueeze", [("pos", 1)], {"pos": 0.0}),
        ("nn.LookupTable", [("paddingValue", 0)], {"paddingValue": None}),
        ("nn.LookupTable", [("paddingValue", 5)], {"paddingValue": 4.0}),
        ("nn.ClassNLLCriterion", [("ignoreIndex", -100)], {"ignoreIndex": -100.0}),
        ("nn.ClassNLLCriterion", [("ignoreIndex", 3)], {"ignoreIndex": 2.0}),
        ("nn.Concat", [("dimension", 2)], {"dimension": 1.0}),
        ("nn.Transpose", [("permutations", [[1, 2], [3, 4]])], {"permutations": [[0.0, 1.0], [2.0, 3.0]]}),
        ("nn.Linear", [("dimension", 2)], {"dimension": 2.0}),  # not a 1-based field of that class
    ],
)
def test_one_based_fields_from_torch7_bytes(classname, fields, expected):
    data = torch7_object(classname, fields)
    obj = load_bytes(data)
    assert obj.torch_typename() == classname
    for k, v in expected.items():
        got = getattr(obj, k)
        assert got == v, (k, got, v)
    assert t7_bytes(obj) == data  # written back 1-based, byte for byte


def test_index_tensors_saved_one_based_and_shared_once(tmp_path, monkeypatch):
    pool = nn.SpatialMaxPooling(2, 2)
    unpool = nn.SpatialMaxUnpooling(pool)
    model = nn.Sequential().add(pool).add(unpool).double()
    x = torch.randn(1, 2, 4, 4, dtype=torch.float64)
    model.forward(x)
    ours = pool.indices.clone()
    assert unpool.indices is pool.indices
    path = str(tmp_path / "m.t7")
    save_lua(model, path)
    np.testing.assert_array_equal(pool.indices.numpy(), ours.numpy())  # the object keeps its 0-based values
    back = load_lua(path)
    bp, bu = back.modules
    np.testing.assert_array_equal(bp.indices.numpy(), ours.numpy())  # shifted back once, not twice
    assert bu.indices.storage()._cdata == bp.indices.storage()._cdata
    np.testing.assert_array_equal(back.forward(x).numpy(), model.forward(x).numpy())
    # the file itself holds torch7's 1-based values
    monkeypatch.setattr(t7fields, "ONE_BASED", {})
    raw = load_lua(path)
    np.testing.assert_array_equal(raw.modules[0].indices.numpy(), ours.numpy() + 1)


def test_volumetric_indices_saved_one_based(tmp_path, monkeypatch):
    pool = nn.VolumetricMaxPooling(2, 2, 2).double()
    x = torch.randn(1, 4, 4, 4, dtype=torch.float64)
    pool.forward(x)
    _, flat = F.max_pool3d(x.unsqueeze(0), 2, return_indices=True)
    np.testing.assert_array_equal(pool.indices.numpy(), flat[0].numpy())  # positions in the volume
    path = str(tmp_path / "v.t7")
    save_lua(pool, path)
    np.testing.assert_array_equal(load_lua(path).indices.numpy(), flat[0].numpy())
    monkeypatch.setattr(t7fields, "ONE_BASED", {})
    np.testing.assert_array_equal(load_lua(path).indices.numpy(), flat[0].numpy() + 1)


def torch7_packed(flat, in_size, stride, pad):
    """torch7's `indices`: the max's (t, h, w) offsets inside its window as bytes."""
    it, ih, iw = flat // (in_size[1] * in_size[2]), (flat // in_size[2]) % in_size[1], flat % in_size[2]
    o = flat.shape[-3:]
    t0 = (torch.arange(o[0]) * stride[0] - pad[0]).view(-1, 1, 1)
    h0 = (torch.arange(o[1]) * stride[1] - pad[1]).view(-1, 1)
    w0 = torch.arange(o[2]) * stride[2] - pad[2]
    return (it - t0) + (ih - h0) * 256 + (iw - w0) * 65536


@pytest.mark.parametrize("window", [(2, 2, 2, 2, 2, 2, 0, 0, 0), (3, 3, 2, 2, 1, 2, 1, 1, 0)])
def test_torch7_packed_volumetric_indices_are_read(tmp_path, window):
    # a file as torch7 wrote it: the pooling ran forward, its indices hold packed offsets
    kT, kW, kH, dT, dW, dH, padT, padW, padH = window
    x = torch.randn(2, 3, 5, 6, 4, dtype=torch.float64)
    pool = nn.VolumetricMaxPooling(*window).double()
    y = pool.forward(x)
    _, flat = F.max_pool3d(x, (kT, kH, kW), (dT, dH, dW), (padT, padH, padW), return_indices=True)
    pool.indices = torch7_packed(flat, (5, 6, 4), (dT, dH, dW), (padT, padH, padW)) - 1  # saved 1 up
    path = str(tmp_path / "t7.t7")
    save_lua(pool, path)
    loaded = load_lua(path)
    g = torch.randn(y.shape, dtype=torch.float64)
    want = torch.zeros(2, 3, 120, dtype=torch.float64).scatter_add_(2, flat.reshape(2, 3, -1), g.reshape(2, 3, -1))
    np.testing.assert_array_equal(loaded.updateGradInput(x, g).numpy(), want.reshape(x.shape).numpy())
    if (kT, kW, kH) == (dT, dW, dH):
        unpool = nn.VolumetricMaxUnpooling(loaded)
        np.testing.assert_array_equal(
            unpool.forward(y).numpy(), F.max_unpool3d(y, flat, (kT, kH, kW), output_size=(5, 6, 4)).numpy()
        )
    # neither form: a clear error
    loaded.indices = torch.full(y.shape, 7 * 65536, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="torch7's packed"):
        loaded.updateGradInput(x, g)


def test_volumetric_unpooling_needs_a_forward():
    unpool = nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 2, 2))
    with pytest.raises(RuntimeError, match="forward"):
        unpool.forward(torch.randn(1, 2, 2, 2, dtype=torch.float64))


# ---------------------------------------------------------------- older nn versions


def test_old_convolution_fields():
    w = torch.randn(4, 3 * 3 * 3, dtype=torch.float64)  # the 2-D weight of old files
    old = nn.class_for("nn.SpatialConvolution")(
        nInputPlane=3.0,
        nOutputPlane=4.0,
        kW=3.0,
        kH=3.0,
        dW=1.0,
        dH=1.0,
        padding=1.0,
        weight=w,
        gradWeight=torch.zeros_like(w),
        output=torch.empty(0, dtype=torch.float64),
        gradInput=torch.empty(0, dtype=torch.float64),
    )
    conv = load_bytes(t7_bytes(old))
    assert type(conv) is nn.SpatialConvolution
    assert conv.padW == 1.0 and conv.padH == 1.0 and "padding" not in vars(conv)
    assert "bias" not in vars(conv)  # saved without bias
    x = torch.randn(2, 3, 5, 6, dtype=torch.float64)
    np.testing.assert_allclose(conv.forward(x).numpy(), F.conv2d(x, w.view(4, 3, 3, 3), None, 1, 1).numpy(), atol=1e-12)
    conv.zeroGradParameters()
    conv.backward(x, torch.ones(2, 4, 5, 6, dtype=torch.float64))
    assert conv.gradWeight.shape == (4, 27) and conv.gradWeight.abs().sum() > 0


def test_old_pooling_fields():
    # a SpatialMaxPooling from before padding and ceil mode: no padW, padH, ceil_mode
    old = nn.class_for("nn.SpatialMaxPooling")(
        kW=2.0, kH=2.0, dW=2.0, dH=2.0, indices=torch.empty(0, dtype=torch.int64)
    )
    pool = load_bytes(t7_bytes(old))
    assert set(vars(pool)) == {"kW", "kH", "dW", "dH", "indices"}
    x = torch.randn(1, 5, 5, dtype=torch.float64)
    np.testing.assert_array_equal(pool.forward(x).numpy(), F.max_pool2d(x, 2).numpy())
    assert pool.ceil_mode is False and pool.padW == 0


# ---------------------------------------------------------------- nngraph


def _node(module=None, inputs=(), **data):
    """nngraph.Node(data) whose inputs are added with domap (node.lua's add): children in the
    backward graph, mapindex both ways, reverseMap in each input."""
    Node = nn.class_for("nngraph.Node")
    d = t7fields.IdentityDict(data)
    if module is not None:
        d["module"] = module
    d.setdefault("annotations", {})
    d["mapindex"], d["reverseMap"] = {}, {}
    node = Node.from_fields(data=d, id=0.0, children=[], visited=False, marked=False)
    for inp in inputs:
        _add(node, inp)
    return node


def _add(node, child):
    node.children.append(child)
    mi = node.data["mapindex"]
    n = sum(1 for k in mi if isinstance(k, float)) + 1
    mi[float(n)] = child.data
    mi[child.data] = float(n)
    child.data["reverseMap"][node] = True


def _topsort(roots):
    order, seen = [], set()

    def visit(n):
        if id(n) in seen:
            return
        seen.add(id(n))
        for c in n.children:
            visit(c)
        order.append(n)

    for r in roots:
        visit(r)
    return order[::-1]


def _graph(nodes):
    Graph, Edge = nn.class_for("graph.Graph"), nn.class_for("graph.Edge")
    edges = [Edge.from_fields(**{"from": n, "to": c}) for n in nodes for c in n.children]
    return Graph.from_fields(nodes=list(nodes), edges=edges)


def build_gmodule(inputs, outputs):
    """gModule(inputs, outputs) as nngraph's gmodule.lua lays it out."""
    outnode = _node(input=[])
    for o in outputs:
        _add(outnode, o)
    innode = _node(input=[])
    if len(inputs) == 1:
        _add(inputs[0], innode)
    else:
        mnode = _node(nSplitOutputs=float(len(inputs)))
        _add(mnode, innode)
        for i, inp in enumerate(inputs):
            sel = _node(selectindex=float(i + 1), input=[])
            _add(sel, mnode)
            _add(inp, sel)
    bg_nodes = _topsort([outnode])
    for i, n in enumerate(bg_nodes):
        n.id = float(i + 1)
    # the forward graph: new nodes on the same data, edges reversed (graph.Graph:reverse)
    Node = nn.class_for("nngraph.Node")
    twin = {id(n): Node.from_fields(data=n.data, id=n.id, children=[], visited=False, marked=False) for n in bg_nodes}
    for n in bg_nodes:
        for c in n.children:
            twin[id(c)].children.append(twin[id(n)])
    fg_root = twin[id(innode)]
    forwardnodes = _topsort([fg_root])
    g = nn.class_for("nn.gModule").from_fields(
        fg=_graph(forwardnodes),
        bg=_graph(bg_nodes),
        innode=fg_root,
        outnode=outnode,
        verbose=False,
        nInputs=float(len(inputs)),
        forwardnodes=forwardnodes,
        backwardnodes=bg_nodes,
        modules=[n.data["module"] for n in forwardnodes if "module" in n.data],
        train=True,
        _type="torch.DoubleTensor",
    )
    return g


def two_input_graph():
    torch.manual_seed(5)
    a, b = _node(), _node()  # input nodes without modules (identity)
    l1 = _node(nn.Linear(4, 3).double(), [a])
    t = _node(nn.Tanh(), [l1])
    o1 = _node(nn.Linear(3, 2).double(), [t])
    o2 = _node(nn.ReLU(), [t])  # t feeds two nodes: its gradients add up
    o3 = _node(nn.Linear(5, 2).double(), [b])
    return build_gmodule([a, b], [o1, o2, o3])


def test_gmodule_forward_backward_against_hand_computation():
    data = t7_bytes(two_input_graph())
    g = load_bytes(data)
    assert type(g) is nn.gModule and isinstance(g, nn.Container)
    assert type(g.forwardnodes[0]) is nn.Node
    assert any(isinstance(k, t7fields.IdentityDict) for n in g.forwardnodes for k in n.data["mapindex"])
    assert t7_bytes(g) == data  # table keys and object keys written back as they came
    l1, l2, l3 = [m for m in g.modules if isinstance(m, nn.Linear)]
    assert [l.weight.shape for l in (l1, l2, l3)] == [(3, 4), (2, 3), (2, 5)]

    a = torch.randn(6, 4, dtype=torch.float64)
    b = torch.randn(6, 5, dtype=torch.float64)
    out = g.forward([a, b])
    # the same computation with autograd
    w1, b1, w2, b2, w3, b3 = [
        p.detach().clone().requires_grad_(True) for p in (l1.weight, l1.bias, l2.weight, l2.bias, l3.weight, l3.bias)
    ]
    ar, br = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    h = torch.tanh(F.linear(ar, w1, b1))
    want = [F.linear(h, w2, b2), torch.relu(h), F.linear(br, w3, b3)]
    assert isinstance(out, list) and len(out) == 3
    for got, w in zip(out, want):
        np.testing.assert_allclose(got.numpy(), w.detach().numpy(), atol=1e-12)
    grads = [torch.randn(w.shape, dtype=torch.float64) for w in want]
    g.zeroGradParameters()
    gi = g.backward([a, b], grads, 1)
    torch.autograd.backward(want, grads)
    assert isinstance(gi, list) and len(gi) == 2
    np.testing.assert_allclose(gi[0].numpy(), ar.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(gi[1].numpy(), br.grad.numpy(), atol=1e-12)
    for m, wp, bp in ((l1, w1, b1), (l2, w2, b2), (l3, w3, b3)):
        np.testing.assert_allclose(m.gradWeight.numpy(), wp.grad.numpy(), atol=1e-12)
        np.testing.assert_allclose(m.gradBias.numpy(), bp.grad.numpy(), atol=1e-12)
    params, grads_p = g.parameters()
    assert len(params) == 6
    with pytest.raises(RuntimeError):
        g.forward([a])  # two inputs expected
    with pytest.raises(TypeError):
        g.forward(a)


def test_gmodule_single_input_chain_and_jacobian():
    torch.manual_seed(2)
    x = _node()
    h = _node(nn.Linear(3, 4).double(), [x])
    y = _node(nn.LogSoftMax(), [_node(nn.Tanh(), [h])])
    g = load_bytes(t7_bytes(build_gmodule([x], [y])))
    lin = g.modules[0]
    inp = torch.randn(2, 3, dtype=torch.float64)
    ref = nn.Sequential().add(nn.Linear(3, 4)).add(nn.Tanh()).add(nn.LogSoftMax()).double()
    ref.modules[0].weight.copy_(lin.weight)
    ref.modules[0].bias.copy_(lin.bias)
    np.testing.assert_allclose(g.forward(inp).numpy(), ref.forward(inp).numpy(), atol=1e-12)
    assert nn.Jacobian.testJacobian(g, torch.zeros(2, 3, dtype=torch.float64)) < 1e-6
    assert (
        nn.Jacobian.testJacobianParameters(g, torch.zeros(2, 3, dtype=torch.float64), lin.weight, lin.gradWeight) < 1e-6
    )
    g.float()
    assert g.forward(inp.float()).dtype == torch.float32
