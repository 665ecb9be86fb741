"""torch.nn's module system: Parameter, Module (registration, state_dict, hooks, repr,
conversions), containers, nn.init, nn.utils and the layers' construction.

Everything here runs without torch.nn.functional: test modules compute with tensor ops, and
where a layer's forward is checked, the functional it calls is replaced by a recorder
(monkeypatch) so that the test sees exactly which arguments the layer passes. The layers'
numerical forward and backward through the real functional are in test_nn_layers_modules.py.
"""

import copy
import io
import math
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import torch
import torch.nn as nn
from torch.nn import functional as F
from torch.nn import init
from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence, unpack_sequence


class Affine(nn.Module):
    """y = x * weight + bias (elementwise), with a counter buffer and a non-persistent one."""

    def __init__(self, n, dtype=torch.float32):
        super().__init__()
        self.weight = nn.Parameter(torch.arange(1, n + 1, dtype=dtype))
        self.bias = nn.Parameter(torch.zeros(n, dtype=dtype))
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))
        self.register_buffer("scratch", torch.ones(n, dtype=dtype), persistent=False)

    def forward(self, x):
        self.calls.add_(1)
        return x * self.weight + self.bias


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = Affine(3)
        self.inner = nn.Sequential(Affine(3), nn.Identity())
        self.scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, x):
        return self.inner(self.first(x)) * self.scale


def reference_linear(input, weight, bias=None):
    out = torch.matmul(input, weight.t())
    return out if bias is None else out + bias


@pytest.fixture
def tensor_linear(monkeypatch):
    """F.linear from tensor ops while torch.nn.functional does not have it yet."""
    if not hasattr(F, "linear"):
        monkeypatch.setattr(F, "linear", reference_linear, raising=False)
    if not hasattr(F, "relu"):
        monkeypatch.setattr(F, "relu", lambda input, inplace=False: input.clamp(min=0), raising=False)


@pytest.fixture(autouse=True)
def seeded():
    """Random initializations drawn from a fixed seed: statistical checks are reproducible."""
    torch.manual_seed(1234)


class Recorder:
    """Stands in for a torch.nn.functional function: records the call, returns a marker."""

    def __init__(self):
        self.calls = []

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return "result"


@pytest.fixture
def record(monkeypatch):
    def install(name):
        recorder = Recorder()
        monkeypatch.setattr(F, name, recorder, raising=False)
        return recorder

    return install


# ---------------------------------------------------------------- Parameter
def test_parameter_is_a_leaf_tensor_sharing_memory():
    data = torch.tensor([1.0, 2.0, 3.0])
    p = nn.Parameter(data)
    assert isinstance(p, nn.Parameter) and isinstance(p, torch.Tensor)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    assert p.data_ptr() == data.data_ptr()
    with torch.no_grad():
        p.mul_(2)
    np.testing.assert_array_equal(data.numpy(), [2.0, 4.0, 6.0])
    assert not nn.Parameter(torch.ones(2), requires_grad=False).requires_grad
    assert nn.Parameter().shape == (0,)


def test_parameter_in_operations_and_backward():
    p = nn.Parameter(torch.tensor([1.0, -2.0]))
    y = p * 3 + 1
    assert type(y) is torch.Tensor and y.grad_fn is not None
    (y * y).sum().backward()
    np.testing.assert_allclose(p.grad.numpy(), 2 * 3 * (3 * np.array([1.0, -2.0]) + 1))


def test_parameter_from_a_tensor_with_history_is_a_leaf():
    x = torch.ones(2, requires_grad=True)
    p = nn.Parameter(x * 2)
    assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_parameter_repr():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    q = nn.Parameter(torch.tensor([[1.5]], dtype=torch.float64), requires_grad=False)
    assert repr(q) == "Parameter containing:\ntensor([[1.5000]], dtype=torch.float64)"


def test_parameter_deepcopy_and_pickle():
    p = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
    for clone in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(clone) is nn.Parameter
        assert clone.requires_grad is False
        assert clone.data_ptr() != p.data_ptr()
        np.testing.assert_array_equal(clone.numpy(), [1.0, 2.0])
    memo_copy = copy.deepcopy([p, p])
    assert memo_copy[0] is memo_copy[1]


def test_parameter_save_load():
    buffer = io.BytesIO()
    p = nn.Parameter(torch.tensor([3.0, 4.0]))
    torch.save({"p": p}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)["p"]
    assert type(loaded) is nn.Parameter and loaded.requires_grad
    np.testing.assert_array_equal(loaded.detach().numpy(), [3.0, 4.0])


# ---------------------------------------------------------------- registration
def test_named_members_order_and_prefixes():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale",
        "first.weight",
        "first.bias",
        "inner.0.weight",
        "inner.0.bias",
    ]
    assert [n for n, _ in net.named_parameters(prefix="model")][0] == "model.scale"
    assert [n for n, _ in net.named_parameters(recurse=False)] == ["scale"]
    assert [n for n, _ in net.named_buffers()] == ["first.calls", "first.scratch", "inner.0.calls", "inner.0.scratch"]
    assert [n for n, _ in net.named_children()] == ["first", "inner"]
    assert [n for n, _ in net.named_modules()] == ["", "first", "inner", "inner.0", "inner.1"]
    assert [type(m).__name__ for m in net.modules()] == ["Net", "Affine", "Sequential", "Affine", "Identity"]
    assert list(net.parameters())[0] is net.scale
    assert list(net.children())[0] is net.first


def test_shared_parameters_and_modules_are_listed_once():
    shared = Affine(2)
    seq = nn.Sequential(shared, shared)
    assert len(list(seq.parameters())) == 2
    assert [n for n, _ in seq.named_modules()] == ["", "0"]
    assert len(list(seq.named_modules(remove_duplicate=False))) == 3
    other = Affine(2)
    other.weight = shared.weight
    assert len(list(nn.Sequential(shared, other).parameters())) == 3


def test_setattr_routes_into_the_dictionaries():
    m = nn.Module()
    m.p = nn.Parameter(torch.ones(1))
    m.child = nn.Identity()
    m.register_buffer("b", torch.zeros(2))
    m.plain = 5
    assert list(m._parameters) == ["p"] and list(m._modules) == ["child"] and list(m._buffers) == ["b"]
    assert m.__dict__["plain"] == 5 and "p" not in m.__dict__
    m.b = torch.ones(3)
    assert m._buffers["b"].shape == (3,)
    m.p = None
    assert m._parameters["p"] is None and m.p is None
    m.child = nn.Parameter(torch.ones(1))  # a parameter replaces the submodule of that name
    assert "child" not in m._modules and "child" in m._parameters
    del m.child, m.b, m.plain
    assert not m._parameters.get("child") and "b" not in m._buffers and not hasattr(m, "plain")
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'missing'"):
        m.missing


def test_setattr_errors():
    m = Affine(2)
    with pytest.raises(
        TypeError,
        match=r"cannot assign 'torch.FloatTensor' as parameter 'weight' "
        r"\(torch.nn.Parameter or None expected\)",
    ):
        m.weight = torch.ones(2)
    s = nn.Sequential(nn.Identity())
    with pytest.raises(
        TypeError,
        match=r"cannot assign 'int' as child module '0' "
        r"\(torch.nn.Module or None expected\)",
    ):
        setattr(s, "0", 3)
    with pytest.raises(TypeError, match=r"cannot assign 'str' as buffer 'calls' \(torch.Tensor or None expected\)"):
        m.calls = "x"

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.ones(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Early()


def test_register_errors():
    m = Affine(2)
    with pytest.raises(KeyError, match="buffer name can.*t contain"):
        m.register_buffer("a.b", torch.ones(1))
    with pytest.raises(KeyError, match="attribute 'weight' already exists"):
        m.register_buffer("weight", torch.ones(1))
    with pytest.raises(TypeError, match="cannot assign 'int' object to buffer 'x'"):
        m.register_buffer("x", 3)
    with pytest.raises(TypeError, match="buffer name should be a string. Got int"):
        m.register_buffer(1, torch.ones(1))
    with pytest.raises(KeyError, match="parameter name can.*t be empty string"):
        m.register_parameter("", nn.Parameter(torch.ones(1)))
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' object to parameter 'q'"):
        m.register_parameter("q", torch.ones(1))
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor to parameter 'q'"):
        m.register_parameter("q", _non_leaf_parameter())
    with pytest.raises(KeyError, match="module name can.*t contain .*, got: a.b"):
        m.add_module("a.b", nn.Identity())
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        m.add_module("k", 3)
    m.register_module("k", nn.Identity())
    assert isinstance(m.k, nn.Identity)


def _non_leaf_parameter():
    """A Parameter that an in-place operation gave history, which register_parameter refuses."""
    p = nn.Parameter(torch.ones(2), requires_grad=False)
    p.mul_(torch.ones(2, requires_grad=True))
    assert p.grad_fn is not None
    return p


def test_get_submodule_parameter_buffer():
    net = Net()
    assert net.get_submodule("inner.0") is net.inner[0]
    assert net.get_submodule("") is net
    assert net.get_parameter("inner.0.weight") is net.inner[0].weight
    assert net.get_buffer("first.calls") is net.first.calls
    with pytest.raises(AttributeError, match="Sequential has no attribute `5`"):
        net.get_submodule("inner.5")
    with pytest.raises(AttributeError, match="`weight` is not an nn.Module"):
        net.get_submodule("first.weight.x")
    with pytest.raises(AttributeError, match="`calls` is not an nn.Parameter"):
        net.get_parameter("first.calls")
    with pytest.raises(AttributeError, match="`weight` is not a buffer"):
        net.get_buffer("first.weight")


def test_dir_lists_members_and_no_digits():
    net = Net()
    names = dir(net)
    for name in ("scale", "first", "inner", "forward", "training", "state_dict"):
        assert name in names
    assert names == sorted(names)
    assert "0" not in dir(net.inner)


def test_forward_missing_raises():
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required "forward" function'):
        nn.Module()(1)


# ---------------------------------------------------------------- modes, gradients, apply
def test_train_eval_propagate():
    net = Net()
    assert net.training and net.inner[1].training
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.inner.train()
    assert net.inner[0].training and not net.first.training and not net.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train(1)


def test_requires_grad_and_zero_grad():
    net = Net()
    x = torch.tensor([1.0, 2.0, 3.0])
    net(x).sum().backward()
    grads = [p.grad for p in net.parameters()]
    assert all(g is not None for g in grads)
    ptr = net.first.weight.grad.data_ptr()
    net.zero_grad()
    for p in net.parameters():
        assert p.grad is not None and not p.grad.any().item()
    assert net.first.weight.grad.data_ptr() == ptr  # zeroed in place
    net.zero_grad(set_to_none=True)
    assert all(p.grad is None for p in net.parameters())
    assert net.requires_grad_(False) is net
    assert not any(p.requires_grad for p in net.parameters())


def test_backward_through_module_matches_formula():
    m = Affine(3)
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (m(x) ** 2).sum().backward()
    w = np.arange(1, 4, dtype=np.float32)
    y = x.detach().numpy() * w
    np.testing.assert_allclose(m.weight.grad.numpy(), 2 * y * x.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(m.bias.grad.numpy(), 2 * y, rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), 2 * y * w, rtol=1e-6)
    assert m.calls.item() == 1


def test_apply_visits_children_first():
    net = Net()
    order = []
    assert net.apply(lambda m: order.append(type(m).__name__)) is net
    assert order == ["Affine", "Affine", "Identity", "Sequential", "Net"]


# ---------------------------------------------------------------- conversions
def test_to_dtype_converts_in_place_keeping_parameter_objects():
    net = Net()
    net(torch.ones(3)).sum().backward()
    params = list(net.parameters())
    counter = net.first.calls
    assert net.to(torch.float64) is net
    assert [p is q for p, q in zip(net.parameters(), params)] == [True] * len(params)
    assert all(type(p) is nn.Parameter and p.dtype == torch.float64 for p in net.parameters())
    assert all(p.grad.dtype == torch.float64 for p in net.parameters())
    assert net.first.scratch.dtype == torch.float64
    assert net.first.calls.dtype == torch.int64 and net.first.calls is counter  # integers are kept
    np.testing.assert_array_equal(net.first.weight.detach().numpy(), [1.0, 2.0, 3.0])
    out = net(torch.ones(3, dtype=torch.float64))
    assert out.dtype == torch.float64
    net.float()
    assert net.scale.dtype == torch.float32
    net.to(torch.zeros(1, dtype=torch.float64))
    assert net.scale.dtype == torch.float64
    net.to("cpu", torch.float32)
    assert net.scale.dtype == torch.float32
    net.to(device=torch.device("cpu"), dtype=torch.float64)
    assert net.scale.dtype == torch.float64
    net.half()
    assert net.scale.dtype == torch.float16
    net.double()
    assert net.scale.dtype == torch.float64 and net.first.calls.dtype == torch.int64
    assert net.cpu() is net


def test_to_rejects_integer_dtypes_and_type_converts_all():
    m = Affine(2)
    with pytest.raises(
        TypeError, match="nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.int32"
    ):
        m.to(torch.int32)
    m.type(torch.float64)
    assert m.calls.dtype == torch.float64 and m.weight.dtype == torch.float64


# ---------------------------------------------------------------- state_dict
def test_state_dict_contents():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == [
        "scale",
        "first.weight",
        "first.bias",
        "first.calls",
        "inner.0.weight",
        "inner.0.bias",
        "inner.0.calls",
    ]  # non-persistent buffers are left out
    assert not sd["first.weight"].requires_grad and type(sd["first.weight"]) is torch.Tensor
    assert sd["first.weight"].data_ptr() == net.first.weight.data_ptr()
    assert sd._metadata[""] == {"version": 1} and sd._metadata["inner.0"] == {"version": 1}
    kept = net.state_dict(keep_vars=True)
    assert kept["first.weight"] is net.first.weight
    assert list(net.first.state_dict(prefix="f.")) == ["f.weight", "f.bias", "f.calls"]


def test_state_dict_round_trip_through_save():
    src, dst = Net(), Net()
    with torch.no_grad():
        for i, p in enumerate(src.parameters()):
            p.fill_(i + 0.5)
    src.first.calls.fill_(7)
    buffer = io.BytesIO()
    torch.save(src.state_dict(), buffer)
    buffer.seek(0)
    result = dst.load_state_dict(torch.load(buffer))
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert repr(result) == "<All keys matched successfully>"
    for (name, p), q in zip(src.named_parameters(), dst.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy(), err_msg=name)
    assert dst.first.calls.item() == 7


def test_load_state_dict_strict_errors():
    net = Net()
    sd = net.state_dict()
    del sd["first.bias"]
    sd["first.extra"] = torch.zeros(1)
    sd["unknown.weight"] = torch.zeros(1)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(sd)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\t'
        'Missing key(s) in state_dict: "first.bias". \n\t'
        'Unexpected key(s) in state_dict: "unknown.weight", "first.extra". '
    )
    result = net.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["first.bias"]
    assert sorted(result.unexpected_keys) == ["first.extra", "unknown.weight"]


def test_load_state_dict_size_mismatch():
    net = Net()
    sd = net.state_dict()
    sd["inner.0.weight"] = torch.zeros(4)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(sd)
    assert str(info.value) == (
        "Error(s) in loading state_dict for Net:\n\tsize mismatch for inner.0.weight: copying "
        "a param with shape torch.Size([4]) from checkpoint, the shape in current model is "
        "torch.Size([3])."
    )
    with pytest.raises(RuntimeError, match='While copying the parameter named "scale", expected torch.Tensor'):
        net.load_state_dict(dict(net.state_dict(), scale=3.0))
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        net.load_state_dict([1, 2])


def test_load_state_dict_copies_values_into_existing_tensors():
    net = Net()
    weight = net.first.weight
    sd = {k: torch.full(v.shape, 9.0, dtype=v.dtype) for k, v in net.state_dict().items()}
    net.load_state_dict(sd)
    assert net.first.weight is weight and net.first.weight.requires_grad
    assert (net.first.weight == 9).all().item() and net.first.calls.item() == 9


def test_state_dict_and_load_hooks():
    m = Affine(2)
    calls = []
    m._register_state_dict_hook(lambda mod, sd, prefix, meta: calls.append(("save", prefix)))
    m._register_load_state_dict_pre_hook(lambda sd, prefix, *rest: calls.append(("pre", prefix)))
    handle = m.register_load_state_dict_post_hook(lambda mod, keys: calls.append(("post", list(keys.missing_keys))))
    m.load_state_dict(m.state_dict())
    assert calls == [("save", ""), ("pre", ""), ("post", [])]
    handle.remove()
    m.register_load_state_dict_post_hook(lambda mod, keys: 1)
    with pytest.raises(RuntimeError, match="are not expected to return new values"):
        m.load_state_dict(m.state_dict())


def test_extra_state_round_trip():
    class WithState(nn.Module):
        def __init__(self):
            super().__init__()
            self.note = "a"

        def get_extra_state(self):
            return {"note": self.note}

        def set_extra_state(self, state):
            self.note = state["note"]

    src, dst = WithState(), WithState()
    src.note = "b"
    sd = src.state_dict()
    assert sd["_extra_state"] == {"note": "b"}
    dst.load_state_dict(sd)
    assert dst.note == "b"
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "_extra_state"'):
        dst.load_state_dict({})
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "_extra_state"'):
        Affine(2).load_state_dict(dict(Affine(2).state_dict(), _extra_state=1))


def test_module_deepcopy_and_pickle_keep_sharing():
    shared = Affine(2)
    seq = nn.Sequential(shared, shared)
    for clone in (copy.deepcopy(seq), pickle.loads(pickle.dumps(seq))):
        assert clone[0] is clone[1] and clone[0] is not shared
        assert type(clone[0].weight) is nn.Parameter
        np.testing.assert_array_equal(clone[0].weight.detach().numpy(), [1.0, 2.0])
        assert clone[0].weight.data_ptr() != shared.weight.data_ptr()


def test_whole_module_save_load():
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), Affine(3))
    model[1].running_mean.fill_(0.5)
    buffer = io.BytesIO()
    torch.save(model, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    assert repr(loaded) == repr(model) and type(loaded[0].weight) is nn.Parameter
    for (name, a), b in zip(model.state_dict().items(), loaded.state_dict().values()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
    assert loaded[2].scratch.tolist() == [1.0, 1.0, 1.0]  # non-persistent buffers travel with the object


def test_setstate_completes_the_state_of_older_pickles():
    state = dict(Affine(2).__dict__)
    for key in (
        "_forward_pre_hooks",
        "_load_state_dict_post_hooks",
        "_non_persistent_buffers_set",
        "_is_full_backward_hook",
    ):
        del state[key]
    old = Affine.__new__(Affine)
    old.__setstate__(state)
    seen = []
    old.register_forward_pre_hook(lambda mod, inputs: seen.append(1))
    old(torch.ones(2))
    assert seen == [1] and "scratch" in old.state_dict()  # without the set, every buffer is persistent
    old.register_full_backward_hook(lambda *a: None)


# ---------------------------------------------------------------- hooks
def test_forward_hooks_order_and_effects():
    m = Affine(2)
    log = []

    def pre(mod, inputs):
        log.append("pre")
        return inputs[0] * 10  # a single value is wrapped into the input tuple

    def post(mod, inputs, output):
        log.append(("post", inputs[0].tolist()))
        return output + 1

    h1 = m.register_forward_pre_hook(pre)
    h2 = m.register_forward_hook(post)
    m.register_forward_hook(lambda mod, inputs, output: log.append(("second", output.tolist())))
    out = m(torch.tensor([1.0, 2.0]))
    np.testing.assert_array_equal(out.detach().numpy(), [11.0, 41.0])
    assert log == ["pre", ("post", [10.0, 20.0]), ("second", [11.0, 41.0])]
    h1.remove()
    h2.remove()
    h2.remove()  # removing twice is harmless
    log.clear()
    np.testing.assert_array_equal(m(torch.tensor([1.0, 2.0])).detach().numpy(), [1.0, 4.0])
    assert log == [("second", [1.0, 4.0])]


def test_hook_handle_as_context_manager_and_global_hooks():
    m = Affine(2)
    seen = []
    with m.register_forward_hook(lambda *a: seen.append("local")):
        m(torch.ones(2))
    m(torch.ones(2))
    assert seen == ["local"]
    handle = nn.modules.module.register_module_forward_hook(lambda mod, i, o: seen.append(type(mod).__name__))
    try:
        nn.Sequential(Affine(2))(torch.ones(2))
    finally:
        handle.remove()
    assert seen == ["local", "Affine", "Sequential"]


def test_full_backward_hook_sees_and_replaces_gradients():
    class Mul(nn.Module):
        def forward(self, x, k, y):
            return x * y * k, x + y

    m = Mul()
    calls = []

    def hook(mod, grad_input, grad_output):
        calls.append(([None if g is None else g.tolist() for g in grad_input], [g.tolist() for g in grad_output]))
        return (grad_input[0] * 100, None, grad_input[2])

    m.register_full_backward_hook(hook)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 5.0])
    a, b = m(x, 2.0, y)
    (a.sum() + 3 * b.sum()).backward()
    # d/dx = 2y + 3, d/dy has no entry (y does not require grad); outputs' grads are 1 and 3
    assert calls == [([[9.0, 13.0], None, None], [[1.0, 1.0], [3.0, 3.0]])]
    np.testing.assert_array_equal(x.grad.numpy(), [900.0, 1300.0])


def test_full_backward_hook_when_no_input_requires_grad():
    m = Affine(2)
    calls = []
    m.register_full_backward_hook(lambda mod, gi, go: calls.append((gi, go[0].tolist())))
    m(torch.ones(2)).sum().backward()
    assert calls == [((None,), [1.0, 1.0])]
    bad = Affine(2)
    bad.register_full_backward_hook(lambda mod, gi, go: (torch.ones(2),))
    with pytest.raises(RuntimeError, match="no input requires gradient should always return None"):
        bad(torch.ones(2)).sum().backward()


def test_legacy_backward_hook_and_mixing():
    m = Affine(2)
    seen = []
    m.register_backward_hook(lambda mod, gi, go: seen.append((mod is m, len(go))))
    m(torch.ones(2, requires_grad=True)).sum().backward()
    assert seen == [(True, 1)]
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full backward hooks"):
        m.register_full_backward_hook(lambda *a: None)


# ---------------------------------------------------------------- repr
def test_repr_of_nested_layers():
    model = nn.Sequential(
        OrderedDict(
            [
                (
                    "features",
                    nn.Sequential(
                        nn.Conv2d(1, 20, 5),
                        nn.ReLU(),
                        nn.MaxPool2d(2),
                        nn.Conv2d(20, 64, (3, 5), stride=2, padding=1, bias=False),
                    ),
                ),
                ("norm", nn.BatchNorm2d(64)),
                ("flat", nn.Flatten()),
                ("drop", nn.Dropout(0.25)),
                ("fc", nn.Linear(64, 10)),
                ("heads", nn.ModuleDict({"a": nn.LogSoftmax(dim=1), "b": nn.Identity()})),
            ]
        )
    )
    assert (
        repr(model)
        == """Sequential(
  (features): Sequential(
    (0): Conv2d(1, 20, kernel_size=(5, 5), stride=(1, 1))
    (1): ReLU()
    (2): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    (3): Conv2d(20, 64, kernel_size=(3, 5), stride=(2, 2), padding=(1, 1), bias=False)
  )
  (norm): BatchNorm2d(64, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
  (flat): Flatten(start_dim=1, end_dim=-1)
  (drop): Dropout(p=0.25, inplace=False)
  (fc): Linear(in_features=64, out_features=10, bias=True)
  (heads): ModuleDict(
    (a): LogSoftmax(dim=1)
    (b): Identity()
  )
)"""
    )


def test_repr_of_single_layers():
    cases = [
        (
            nn.LSTM(10, 20, num_layers=2, batch_first=True, bidirectional=True),
            "LSTM(10, 20, num_layers=2, batch_first=True, bidirectional=True)",
        ),
        (nn.GRU(3, 4, bias=False, dropout=0.5, num_layers=2), "GRU(3, 4, num_layers=2, bias=False, dropout=0.5)"),
        (nn.RNNCell(3, 4, nonlinearity="relu"), "RNNCell(3, 4, nonlinearity=relu)"),
        (nn.Embedding(10, 3, padding_idx=-1, max_norm=1.0), "Embedding(10, 3, padding_idx=9, max_norm=1.0)"),
        (nn.EmbeddingBag(10, 3, mode="sum"), "EmbeddingBag(10, 3, mode=sum)"),
        (nn.LayerNorm([4, 5]), "LayerNorm((4, 5), eps=1e-05, elementwise_affine=True)"),
        (nn.GroupNorm(2, 4), "GroupNorm(2, 4, eps=1e-05, affine=True)"),
        (nn.InstanceNorm2d(3), "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False)"),
        (
            nn.BatchNorm1d(5, momentum=None, affine=False),
            "BatchNorm1d(5, eps=1e-05, momentum=None, affine=False, track_running_stats=True)",
        ),
        (
            nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1, groups=2),
            "ConvTranspose2d(4, 2, kernel_size=(3, 3), stride=(2, 2), output_padding=(1, 1), groups=2)",
        ),
        (
            nn.Conv1d(2, 2, 3, padding="same", padding_mode="reflect", dilation=2),
            "Conv1d(2, 2, kernel_size=(3,), stride=(1,), padding=same, dilation=(2,), padding_mode=reflect)",
        ),
        (nn.AvgPool2d(3, stride=1), "AvgPool2d(kernel_size=3, stride=1, padding=0)"),
        (nn.AvgPool1d(3), "AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))"),
        (nn.AdaptiveAvgPool2d((1, 1)), "AdaptiveAvgPool2d(output_size=(1, 1))"),
        (nn.MaxUnpool2d(2), "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"),
        (nn.LeakyReLU(0.2, inplace=True), "LeakyReLU(negative_slope=0.2, inplace=True)"),
        (nn.ELU(), "ELU(alpha=1.0)"),
        (nn.GELU(), "GELU(approximate='none')"),
        (nn.Hardtanh(-2, 2), "Hardtanh(min_val=-2, max_val=2)"),
        (nn.ReLU6(), "ReLU6()"),
        (nn.Threshold(0.1, 20), "Threshold(threshold=0.1, value=20)"),
        (nn.PReLU(3), "PReLU(num_parameters=3)"),
        (nn.Softplus(), "Softplus(beta=1, threshold=20)"),
        (nn.Softshrink(), "Softshrink(0.5)"),
        (nn.Softmax(), "Softmax(dim=None)"),
        (nn.CrossEntropyLoss(), "CrossEntropyLoss()"),
        (nn.Upsample(scale_factor=2), "Upsample(scale_factor=2.0, mode=nearest)"),
        (nn.Upsample(size=(4, 5), mode="bilinear"), "Upsample(size=(4, 5), mode=bilinear)"),
        (nn.ZeroPad2d((1, 2, 0, 1)), "ZeroPad2d((1, 2, 0, 1))"),
        (nn.ConstantPad1d(2, 3.5), "ConstantPad1d(padding=(2, 2), value=3.5)"),
        (nn.ReflectionPad2d(1), "ReflectionPad2d((1, 1, 1, 1))"),
        (nn.PixelShuffle(3), "PixelShuffle(upscale_factor=3)"),
        (nn.Unflatten(1, (2, 3)), "Unflatten(dim=1, unflattened_size=(2, 3))"),
        (nn.Fold((4, 5), 2), "Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=0, stride=1)"),
        (nn.Bilinear(2, 3, 4, bias=False), "Bilinear(in1_features=2, in2_features=3, out_features=4, bias=False)"),
    ]
    for module, expected in cases:
        assert repr(module) == expected


def test_repr_with_multiline_extra_repr_and_parameter_containers():
    class Custom(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Identity())

        def extra_repr(self):
            return "alpha=1\nbeta=2"

    assert repr(Custom()) == "Custom(\n  alpha=1\n  beta=2\n  (body): Sequential(\n    (0): Identity()\n  )\n)"
    plist = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4, dtype=torch.float64)])
    assert repr(plist) == (
        "ParameterList(\n    (0): Parameter containing: [torch.float32 of size 2x3]\n"
        "    (1): Parameter containing: [torch.float64 of size 4]\n)"
    )
    pdict = nn.ParameterDict({"b": torch.ones(1), "a": torch.ones(2)})
    assert repr(pdict) == (
        "ParameterDict(\n    (a): Parameter containing: [torch.FloatTensor of size 2]\n"
        "    (b): Parameter containing: [torch.FloatTensor of size 1]\n)"
    )


# ---------------------------------------------------------------- containers
def test_sequential_indexing_and_editing():
    a, b, c = Affine(2), nn.Identity(), Affine(2)
    seq = nn.Sequential(a, b, c)
    assert len(seq) == 3 and seq[0] is a and seq[-1] is c and list(seq) == [a, b, c]
    part = seq[1:]
    assert type(part) is nn.Sequential and list(part) == [b, c] and list(part._modules) == ["1", "2"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    seq[1] = nn.Tanh()
    assert isinstance(seq[1], nn.Tanh)
    del seq[0]
    assert list(seq._modules) == ["0", "1"] and seq[1] is c
    seq.append(a).insert(0, b)
    assert list(seq) == [b, seq[1], c, a] and list(seq._modules) == ["0", "1", "2", "3"]
    assert seq.pop(1).__class__ is nn.Tanh and len(seq) == 3
    seq.extend([nn.Identity()])
    assert len(seq) == 4
    assert len(seq + nn.Sequential(b)) == 5 and len(nn.Sequential(a) * 3) == 3
    with pytest.raises(IndexError, match="Index out of range: 9"):
        seq.insert(9, b)
    named = nn.Sequential(OrderedDict([("x", a), ("y", c)]))
    assert list(named._modules) == ["x", "y"] and named.y is c


def test_sequential_forward_chains():
    seq = nn.Sequential(Affine(2), Affine(2))
    np.testing.assert_array_equal(seq(torch.tensor([1.0, 1.0])).detach().numpy(), [1.0, 4.0])


def test_module_list():
    layers = nn.ModuleList([Affine(2), nn.Identity()])
    assert len(layers) == 2 and isinstance(layers[-1], nn.Identity)
    layers.append(nn.Tanh())
    layers += [nn.Sigmoid()]
    layers.insert(1, nn.ReLU())
    assert [type(m).__name__ for m in layers] == ["Affine", "ReLU", "Identity", "Tanh", "Sigmoid"]
    assert type(layers[1:3]) is nn.ModuleList and len(layers[1:3]) == 2
    del layers[0]
    assert list(layers._modules) == ["0", "1", "2", "3"]
    assert isinstance(layers.pop(0), nn.ReLU)
    assert len(layers + nn.ModuleList([nn.Identity()])) == 4
    with pytest.raises(IndexError, match="index -9 is out of range"):
        layers[-9]
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable, but got int"):
        layers.extend(3)
    assert len(list(nn.ModuleList([Affine(2), Affine(3)]).parameters())) == 4


def test_module_dict():
    d = nn.ModuleDict({"conv": nn.Identity(), "act": nn.ReLU()})
    assert list(d.keys()) == ["conv", "act"] and "act" in d and len(d) == 2
    d.update([("z", nn.Tanh())])
    d["y"] = Affine(2)
    assert list(d) == ["conv", "act", "z", "y"]
    assert isinstance(d.pop("z"), nn.Tanh) and "z" not in d
    assert len(list(d.parameters())) == 2
    with pytest.raises(ValueError, match="ModuleDict update sequence element #0 has length 1; 2 is required"):
        d.update([("a",)])
    with pytest.raises(TypeError, match="ModuleDict.update should be called with an iterable"):
        d.update(3)
    d.clear()
    assert len(d) == 0


def test_parameter_list():
    plist = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(3))])
    assert len(plist) == 2 and all(isinstance(p, nn.Parameter) for p in plist)
    plist.append(torch.ones(1))
    plist.extend([torch.ones(4)])
    assert [n for n, _ in plist.named_parameters()] == ["0", "1", "2", "3"]
    assert plist[-1].shape == (4,) and len(plist[1:3]) == 2
    plist[0] = torch.full((2,), 5.0)
    assert plist[0].requires_grad and plist[0].tolist() == [5.0, 5.0]
    with pytest.raises(TypeError, match="ParameterList.extend should be called with an iterable"):
        plist.extend(torch.ones(2))
    with pytest.raises(RuntimeError, match="ParameterList should not be called."):
        plist(1)


def test_parameter_dict():
    pdict = nn.ParameterDict({"b": torch.ones(1), "a": torch.ones(2)})
    assert list(pdict.keys()) == ["a", "b"]  # a plain dict is added in sorted order
    pdict.update(OrderedDict([("z", torch.zeros(1)), ("c", torch.zeros(1))]))
    assert list(pdict) == ["a", "b", "z", "c"]
    assert isinstance(pdict["z"], nn.Parameter) and pdict.get("none") is None
    assert pdict.pop("z").shape == (1,) and "z" not in pdict
    assert [n for n, _ in pdict.named_parameters()] == ["a", "b", "c"]
    with pytest.raises(TypeError, match="Index given to ParameterDict cannot be used as a key"):
        pdict[1] = torch.ones(1)
    pdict.clear()
    assert len(pdict) == 0


# ---------------------------------------------------------------- nn.init
def test_calculate_gain():
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert init.calculate_gain("leaky_relu") == pytest.approx(math.sqrt(2 / (1 + 0.01**2)))
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        init.calculate_gain("leaky_relu", True)


def _stats(t):
    a = t.detach().numpy().astype(np.float64).ravel()
    return a.mean(), a.std(), a.min(), a.max()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_init_uniform_and_normal(dtype):
    t = nn.Parameter(torch.empty(200, 500, dtype=dtype))
    assert init.uniform_(t, -2.0, 3.0) is t
    mean, std, lo, hi = _stats(t)
    assert -2.0 <= lo and hi <= 3.0
    assert abs(mean - 0.5) < 5 * 5 / math.sqrt(12) / math.sqrt(t.numel())
    assert abs(std - 5 / math.sqrt(12)) < 0.01
    assert init.normal_(t, 1.5, 0.5) is t
    mean, std, _, _ = _stats(t)
    assert abs(mean - 1.5) < 5 * 0.5 / math.sqrt(t.numel()) and abs(std - 0.5) < 0.005
    assert t.is_leaf and t.requires_grad and t.grad_fn is None


def test_init_constants_eye_dirac():
    t = torch.empty(3, 4)
    assert (init.constant_(t, 0.25) == 0.25).all().item()
    assert (init.ones_(t) == 1).all().item() and (init.zeros_(t) == 0).all().item()
    np.testing.assert_array_equal(init.eye_(t).numpy(), np.eye(3, 4))
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(torch.empty(3))
    w = init.dirac_(torch.empty(4, 3, 3, 5))
    expected = np.zeros((4, 3, 3, 5))
    for d in range(3):
        expected[d, d, 1, 2] = 1
    np.testing.assert_array_equal(w.numpy(), expected)
    grouped = init.dirac_(torch.empty(4, 2, 3), groups=2)
    expected = np.zeros((4, 2, 3))
    for g in range(2):
        for d in range(2):
            expected[g * 2 + d, d, 1] = 1
    np.testing.assert_array_equal(grouped.numpy(), expected)
    with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions are supported"):
        init.dirac_(torch.empty(2, 2))


def test_init_xavier_and_kaiming_follow_the_fans():
    w = torch.empty(300, 20, 3, 3)  # fan_in 180, fan_out 2700
    fan_in, fan_out = 20 * 9, 300 * 9
    bound = 2.0 * math.sqrt(6.0 / (fan_in + fan_out))
    _, std, lo, hi = _stats(init.xavier_uniform_(w, gain=2.0))
    assert -bound <= lo and hi <= bound and hi > 0.95 * bound and abs(std - bound / math.sqrt(3)) < 0.01 * bound
    _, std, _, _ = _stats(init.xavier_normal_(w))
    assert abs(std - math.sqrt(2.0 / (fan_in + fan_out))) < 0.02 * std
    bound = math.sqrt(2.0 / (1 + 5)) * math.sqrt(3.0 / fan_in)  # a = sqrt(5): what Linear and Conv use
    _, _, lo, hi = _stats(init.kaiming_uniform_(w, a=math.sqrt(5)))
    assert -bound <= lo and hi <= bound and hi > 0.95 * bound
    _, std, _, _ = _stats(init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
    assert abs(std - math.sqrt(2.0 / fan_out)) < 0.02 * std
    with pytest.raises(ValueError, match="Mode fan_avg not supported, please use one of"):
        init.kaiming_uniform_(w, mode="fan_avg")
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2"):
        init.xavier_uniform_(torch.empty(5))
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(torch.empty(0, 3))


def test_init_trunc_normal_matches_truncated_moments():
    t = init.trunc_normal_(torch.empty(40000, dtype=torch.float64), mean=1.0, std=2.0, a=-1.0, b=4.0)
    mean, std, lo, hi = _stats(t)
    assert -1.0 <= lo and hi <= 4.0
    # moments of N(1, 2^2) truncated to [-1, 4]
    alpha, beta = (-1.0 - 1.0) / 2.0, (4.0 - 1.0) / 2.0
    pdf = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda z: (1 + math.erf(z / math.sqrt(2))) / 2  # noqa: E731
    mass = cdf(beta) - cdf(alpha)
    true_mean = 1.0 + 2.0 * (pdf(alpha) - pdf(beta)) / mass
    true_var = 4.0 * (1 + (alpha * pdf(alpha) - beta * pdf(beta)) / mass - ((pdf(alpha) - pdf(beta)) / mass) ** 2)
    assert abs(mean - true_mean) < 6 * math.sqrt(true_var / t.numel())
    assert abs(std - math.sqrt(true_var)) < 6 * math.sqrt(true_var / (2 * t.numel()))
    f = init.trunc_normal_(torch.empty(1000))
    assert f.dtype == torch.float32 and _stats(f)[2] >= -2.0 and _stats(f)[3] <= 2.0


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 2, 3)])
def test_init_orthogonal(shape):
    w = init.orthogonal_(torch.empty(shape, dtype=torch.float64), gain=3.0)
    flat = w.numpy().reshape(shape[0], -1) / 3.0
    if flat.shape[0] >= flat.shape[1]:
        np.testing.assert_allclose(flat.T @ flat, np.eye(flat.shape[1]), atol=1e-10)
    else:
        np.testing.assert_allclose(flat @ flat.T, np.eye(flat.shape[0]), atol=1e-10)
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions are supported"):
        init.orthogonal_(torch.empty(3))


def test_init_sparse():
    w = init.sparse_(torch.empty(10, 30), sparsity=0.3, std=0.5)
    zeros_per_column = (w.numpy() == 0).sum(axis=0)
    np.testing.assert_array_equal(zeros_per_column, np.full(30, 3))
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.sparse_(torch.empty(2, 2, 2), 0.5)


# ---------------------------------------------------------------- layers: construction and defaults
def test_linear_and_conv_default_initialization():
    lin = nn.Linear(50, 400)
    assert lin.weight.shape == (400, 50) and lin.bias.shape == (400,)
    for p in (lin.weight, lin.bias):
        _, std, lo, hi = _stats(p)
        bound = 1 / math.sqrt(50)
        assert -bound <= lo and hi <= bound and hi > 0.9 * bound
    assert nn.Linear(3, 2, bias=False).bias is None
    conv = nn.Conv2d(6, 30, (3, 5), groups=3)
    assert conv.weight.shape == (30, 2, 3, 5)
    bound = 1 / math.sqrt(2 * 15)
    assert _stats(conv.weight)[3] <= bound and _stats(conv.bias)[3] <= bound
    assert nn.ConvTranspose2d(6, 4, 3, groups=2).weight.shape == (6, 2, 3, 3)
    assert nn.Conv3d(2, 3, 2).weight.shape == (3, 2, 2, 2, 2)
    assert nn.Linear(3, 2, dtype=torch.float64).weight.dtype == torch.float64


def test_layer_constructor_errors():
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="groups must be a positive integer"):
        nn.Conv1d(3, 3, 3, groups=0)
    with pytest.raises(ValueError, match="padding='same' is not supported for strided convolutions"):
        nn.Conv2d(2, 2, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match="Invalid padding string 'full'"):
        nn.Conv2d(2, 2, 3, padding="full")
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(2, 2, 3, padding_mode="wrap")
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for ConvTranspose2d'):
        nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        nn.Dropout(1.5)
    with pytest.raises(ValueError, match="num_channels must be divisible by num_groups"):
        nn.GroupNorm(3, 4)
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        nn.LSTM(2, 3, dropout=2)
    with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM"):
        nn.GRU(2, 3, proj_size=1)
    with pytest.raises(ValueError, match="Unknown nonlinearity 'sigmoid'"):
        nn.RNN(2, 3, nonlinearity="sigmoid")
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(TypeError, match="unflattened_size must be tuple of ints"):
        nn.Unflatten(1, (2, "a"))
    with pytest.warns(UserWarning, match="dropout option adds dropout after all but last recurrent layer"):
        nn.GRU(2, 3, dropout=0.5)


def test_norm_layers_buffers_and_parameters():
    bn = nn.BatchNorm2d(4)
    assert bn.weight.tolist() == [1.0] * 4 and bn.bias.tolist() == [0.0] * 4
    assert bn.running_mean.tolist() == [0.0] * 4 and bn.running_var.tolist() == [1.0] * 4
    assert bn.num_batches_tracked.dtype == torch.int64 and bn.num_batches_tracked.item() == 0
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    plain = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
    assert plain.weight is None and plain.running_mean is None and list(plain.state_dict()) == []
    assert list(nn.InstanceNorm1d(3).state_dict()) == []
    assert list(nn.InstanceNorm1d(3, affine=True, track_running_stats=True).state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    ln = nn.LayerNorm((2, 3), elementwise_affine=True)
    assert ln.weight.shape == (2, 3) and nn.LayerNorm(3, elementwise_affine=False).weight is None


def test_batchnorm_loads_old_state_without_num_batches_tracked():
    bn = nn.BatchNorm1d(2)
    bn.num_batches_tracked.fill_(5)
    sd = bn.state_dict()
    del sd["num_batches_tracked"]
    sd._metadata[""]["version"] = 1
    bn.load_state_dict(sd)
    assert bn.num_batches_tracked.item() == 0
    sd._metadata[""]["version"] = 2
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "num_batches_tracked"'):
        nn.BatchNorm1d(2).load_state_dict(sd)


def test_embedding_construction():
    emb = nn.Embedding(2000, 50, padding_idx=3)
    mean, std, _, _ = _stats(emb.weight)
    assert abs(mean) < 0.01 and abs(std - 1) < 0.01
    assert not emb.weight.select(0, 3).any().item()
    weights = torch.arange(6.0).reshape(3, 2)
    frozen = nn.Embedding.from_pretrained(weights)
    assert not frozen.weight.requires_grad and frozen.weight.data_ptr() == weights.data_ptr()
    assert frozen.num_embeddings == 3 and frozen.embedding_dim == 2
    assert nn.Embedding.from_pretrained(weights, freeze=False).weight.requires_grad
    assert nn.EmbeddingBag.from_pretrained(weights, mode="max").mode == "max"
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=3)


def test_prelu_and_rnn_parameters():
    assert nn.PReLU(3, init=0.1).weight.tolist() == pytest.approx([0.1] * 3)
    lstm = nn.LSTM(3, 5, num_layers=2, bidirectional=True)
    names = [n for n, _ in lstm.named_parameters()]
    assert names[:8] == [
        "weight_ih_l0",
        "weight_hh_l0",
        "bias_ih_l0",
        "bias_hh_l0",
        "weight_ih_l0_reverse",
        "weight_hh_l0_reverse",
        "bias_ih_l0_reverse",
        "bias_hh_l0_reverse",
    ]
    assert lstm.weight_ih_l0.shape == (20, 3) and lstm.weight_ih_l1.shape == (20, 10)
    assert lstm.weight_hh_l1_reverse.shape == (20, 5)
    bound = 1 / math.sqrt(5)
    assert all(_stats(p)[3] <= bound and _stats(p)[2] >= -bound for p in lstm.parameters())
    assert len(lstm.all_weights) == 4 and lstm.all_weights[1][0] is lstm.weight_ih_l0_reverse
    assert [n for n, _ in nn.GRU(2, 3, bias=False).named_parameters()] == ["weight_ih_l0", "weight_hh_l0"]
    proj = nn.LSTM(3, 5, proj_size=2)
    assert proj.weight_hr_l0.shape == (2, 5) and proj.weight_hh_l0.shape == (20, 2)
    cell = nn.GRUCell(3, 4)
    assert cell.weight_ih.shape == (12, 3) and cell.bias_hh.shape == (12,)


# ---------------------------------------------------------------- layers: what they pass to F
def test_batchnorm_forward_arguments(record):
    bn = nn.BatchNorm2d(3, momentum=None)
    fake = record("batch_norm")
    x = torch.zeros(2, 3, 4, 4)
    assert bn(x) == "result" and bn(x) == "result"
    args, _ = fake.calls[1]
    assert args[0] is x and args[1] is bn.running_mean and args[2] is bn.running_var
    assert args[3] is bn.weight and args[4] is bn.bias and args[5] is True
    assert args[6] == pytest.approx(0.5) and args[7] == 1e-5  # cumulative average: 1/2 at the second batch
    assert bn.num_batches_tracked.item() == 2
    bn.eval()
    bn(x)
    args, _ = fake.calls[2]
    assert args[5] is False and args[6] == 0.0 and bn.num_batches_tracked.item() == 2
    untracked = nn.BatchNorm1d(3, track_running_stats=False)
    untracked.eval()
    untracked(torch.zeros(2, 3))
    args, _ = fake.calls[3]
    assert args[1] is None and args[2] is None and args[5] is True


def test_norm_layers_check_input_dims():
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)(\n|$)"):
        nn.BatchNorm1d(3)(torch.zeros(2, 3, 4, 5))
    with pytest.raises(ValueError, match=r"^expected 4D input \(got 3D input\)(\n|$)"):
        nn.BatchNorm2d(3)(torch.zeros(2, 3, 4))
    with pytest.raises(ValueError, match=r"^expected 5D input \(got 2D input\)(\n|$)"):
        nn.BatchNorm3d(3)(torch.zeros(2, 3))
    with pytest.raises(ValueError, match=r"^expected 3D or 4D input \(got 2D input\)(\n|$)"):
        nn.InstanceNorm2d(3)(torch.zeros(2, 3))
    with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features \(3\), but got: 4."):
        nn.InstanceNorm1d(3, affine=True)(torch.zeros(2, 4, 5))


def test_instancenorm_unbatched_input(monkeypatch):
    calls = []

    def fake_instance_norm(*args):
        calls.append(args)
        return torch.zeros(args[0].shape)

    monkeypatch.setattr(F, "instance_norm", fake_instance_norm, raising=False)
    out = nn.InstanceNorm1d(3)(torch.ones(3, 5))
    assert tuple(calls[0][0].shape) == (1, 3, 5) and out.shape == (3, 5)
    assert calls[0][5] is True  # use_input_stats


def test_conv_forward_arguments(record):
    conv_fn, pad_fn = record("conv2d"), record("pad")
    conv = nn.Conv2d(2, 4, (3, 5), stride=(1, 2), padding=(1, 2), dilation=1, groups=2)
    x = torch.zeros(1, 2, 8, 8)
    conv(x)
    args, _ = conv_fn.calls[0]
    assert args[0] is x and args[1] is conv.weight and args[2] is conv.bias
    assert args[3:] == ((1, 2), (1, 2), (1, 1), 2)
    reflect = nn.Conv2d(2, 4, 3, padding=(1, 2), padding_mode="reflect", bias=False)
    reflect(x)
    pad_args, pad_kwargs = pad_fn.calls[0]
    assert tuple(pad_args[1]) == (2, 2, 1, 1) and pad_kwargs == {"mode": "reflect"}
    args, _ = conv_fn.calls[1]
    assert args[0] == "result" and args[2] is None and args[4] == (0, 0)
    conv1d_fn = record("conv1d")
    same = nn.Conv1d(1, 1, 4, padding="same", padding_mode="circular", dilation=3)
    same(torch.zeros(1, 1, 10))
    assert conv1d_fn.calls[0][0][0] == "result" and conv1d_fn.calls[0][0][4] == (0,)
    assert tuple(pad_fn.calls[1][0][1]) == (4, 5)


def test_conv_transpose_output_size(record):
    fn = record("conv_transpose2d")
    deconv = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)
    x = torch.zeros(1, 3, 4, 5)
    deconv(x, output_size=[8, 10])
    args, _ = fn.calls[0]
    assert list(args[5]) == [1, 1] and args[3] == (2, 2) and args[4] == (1, 1) and args[6] == 1
    deconv(x, output_size=(1, 2, 7, 9))
    assert list(fn.calls[1][0][5]) == [0, 0]
    with pytest.raises(
        ValueError,
        match=r"requested an output size of \[9, 9\], but valid sizes range from "
        r"\[7, 9\] to \[8, 10\] \(for an input of torch.Size\(\[4, 5\]\)\)",
    ):
        deconv(x, output_size=[9, 9])
    with pytest.raises(ValueError, match="ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements"):
        deconv(x, output_size=[9])


def test_linear_dropout_embedding_arguments(record):
    linear_fn, dropout_fn, emb_fn = record("linear"), record("dropout"), record("embedding")
    lin = nn.Linear(3, 2)
    x = torch.zeros(4, 3)
    lin(x)
    assert linear_fn.calls[0][0] == (x, lin.weight, lin.bias)
    drop = nn.Dropout(0.3, inplace=True)
    drop(x)
    drop.eval()(x)
    assert [c[0][1:] for c in dropout_fn.calls] == [(0.3, True, True), (0.3, False, True)]
    emb = nn.Embedding(5, 2, padding_idx=1, max_norm=2.0, scale_grad_by_freq=True)
    idx = torch.tensor([0, 1])
    emb(idx)
    assert emb_fn.calls[0][0] == (idx, emb.weight, 1, 2.0, 2.0, True, False)


def test_losses_pass_reduction_and_options(record):
    ce, nll, mse, bce_logits = (
        record("cross_entropy"),
        record("nll_loss"),
        record("mse_loss"),
        record("binary_cross_entropy_with_logits"),
    )
    weight = torch.ones(3)
    x, y = torch.zeros(2, 3), torch.zeros(2, dtype=torch.int64)
    loss = nn.CrossEntropyLoss(weight=weight, ignore_index=2, reduction="sum", label_smoothing=0.1)
    assert loss.weight is weight and "weight" in dict(loss.named_buffers())
    loss(x, y)
    assert ce.calls[0] == ((x, y), {"weight": weight, "ignore_index": 2, "reduction": "sum", "label_smoothing": 0.1})
    with pytest.warns(
        UserWarning, match="size_average and reduce args will be deprecated, please use reduction='sum' instead."
    ):
        legacy = nn.NLLLoss(size_average=False)
    legacy(x, y)
    assert nll.calls[0][1]["reduction"] == "sum"
    with pytest.warns(UserWarning):
        assert nn.MSELoss(reduce=False).reduction == "none"
    nn.MSELoss()(x, x)
    assert mse.calls[0][1] == {"reduction": "mean"}
    pos = torch.ones(3)
    nn.BCEWithLogitsLoss(pos_weight=pos)(x, x)
    assert bce_logits.calls[0] == ((x, x, None), {"pos_weight": pos, "reduction": "mean"})


def test_activation_and_pool_arguments(record):
    leaky, pool, softmax, upsample = (
        record("leaky_relu"),
        record("max_pool2d"),
        record("log_softmax"),
        record("interpolate"),
    )
    x = torch.zeros(1, 1, 4, 4)
    nn.LeakyReLU(0.3, inplace=True)(x)
    assert leaky.calls[0][0] == (x, 0.3, True)
    nn.MaxPool2d(3, padding=1, return_indices=True, ceil_mode=True)(x)
    assert pool.calls[0] == ((x, 3, 3, 1, 1), {"ceil_mode": True, "return_indices": True})
    nn.LogSoftmax(dim=-1)(x)
    assert softmax.calls[0][0] == (x, -1)
    nn.UpsamplingBilinear2d(scale_factor=2)(x)
    assert upsample.calls[0] == ((x, None, 2.0, "bilinear", True), {"recompute_scale_factor": None})
    assert torch.equal(nn.Sigmoid()(torch.zeros(2)), torch.full((2,), 0.5))
    assert torch.equal(nn.Identity(1, key=2)(x), x)
    np.testing.assert_array_equal(nn.Flatten()(torch.zeros(2, 3, 4)).shape, (2, 12))
    np.testing.assert_array_equal(nn.Unflatten(1, (3, 4))(torch.zeros(2, 12)).shape, (2, 3, 4))


# ---------------------------------------------------------------- recurrent layers (numpy reference)
def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _numpy_layer(mode, x, params, suffix, layer, reverse, h0, c0=None):
    """One direction of one layer over x (T, B, F), in plain numpy."""
    w_ih = params["weight_ih_l%d%s" % (layer, suffix)]
    w_hh = params["weight_hh_l%d%s" % (layer, suffix)]
    b = params.get("bias_ih_l%d%s" % (layer, suffix), 0) + params.get("bias_hh_l%d%s" % (layer, suffix), 0)
    b_hh = params.get("bias_hh_l%d%s" % (layer, suffix), 0)
    b_ih = params.get("bias_ih_l%d%s" % (layer, suffix), 0)
    h, c = h0, c0
    outs = [None] * x.shape[0]
    for t in range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0]):
        if mode == "LSTM":
            i, f, g, o = np.split(x[t] @ w_ih.T + h @ w_hh.T + b, 4, axis=1)
            c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
            h = _sigmoid(o) * np.tanh(c)
        elif mode == "GRU":
            i_r, i_z, i_n = np.split(x[t] @ w_ih.T + b_ih, 3, axis=1)
            h_r, h_z, h_n = np.split(h @ w_hh.T + b_hh, 3, axis=1)
            r, z = _sigmoid(i_r + h_r), _sigmoid(i_z + h_z)
            n = np.tanh(i_n + r * h_n)
            h = (1 - z) * n + z * h
        elif mode == "RNN_TANH":
            h = np.tanh(x[t] @ w_ih.T + h @ w_hh.T + b)
        else:
            h = np.maximum(x[t] @ w_ih.T + h @ w_hh.T + b, 0)
        outs[t] = h
    return np.stack(outs), h, c


def _numpy_rnn(module, x, h0, c0=None):
    params = {k: v.detach().numpy() for k, v in module.named_parameters()}
    dirs = 2 if module.bidirectional else 1
    hs, cs = [], []
    for layer in range(module.num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            out, h, c = _numpy_layer(
                module.mode, x, params, "_reverse" if d else "", layer, d == 1, h0[k], None if c0 is None else c0[k]
            )
            outs.append(out)
            hs.append(h)
            cs.append(c)
        x = np.concatenate(outs, axis=2)
    return x, np.stack(hs), (np.stack(cs) if c0 is not None else None)


@pytest.mark.parametrize(
    "cls,kwargs",
    [
        (nn.LSTM, {"num_layers": 2, "bidirectional": True}),
        (nn.GRU, {"num_layers": 2}),
        (nn.GRU, {"bidirectional": True, "bias": False}),
        (nn.RNN, {"nonlinearity": "relu", "num_layers": 2}),
        (nn.RNN, {"bidirectional": True, "batch_first": True}),
        (nn.LSTM, {"batch_first": True}),
    ],
)
def test_recurrent_layers_match_numpy(tensor_linear, rng, cls, kwargs):
    torch.manual_seed(3)
    module = cls(3, 4, **kwargs).double()
    dirs = 2 if module.bidirectional else 1
    x = torch.from_numpy(rng.standard_normal((5, 2, 3)))
    h0 = torch.from_numpy(rng.standard_normal((module.num_layers * dirs, 2, 4)))
    c0 = torch.from_numpy(rng.standard_normal((module.num_layers * dirs, 2, 4)))
    given = x.transpose(0, 1) if module.batch_first else x
    if cls is nn.LSTM:
        out, (h, c) = module(given, (h0, c0))
        ref_out, ref_h, ref_c = _numpy_rnn(module, x.numpy(), h0.numpy(), c0.numpy())
        np.testing.assert_allclose(c.detach().numpy(), ref_c, rtol=1e-10, atol=1e-12)
    else:
        out, h = module(given, h0)
        ref_out, ref_h, _ = _numpy_rnn(module, x.numpy(), h0.numpy())
    if module.batch_first:
        out = out.transpose(0, 1)
    np.testing.assert_allclose(out.detach().numpy(), ref_out, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h.detach().numpy(), ref_h, rtol=1e-10, atol=1e-12)


def test_recurrent_default_state_and_unbatched_input(tensor_linear, rng):
    gru = nn.GRU(3, 4).double()
    x = torch.from_numpy(rng.standard_normal((6, 3)))
    out, h = gru(x)
    assert out.shape == (6, 4) and h.shape == (1, 4)
    ref_out, ref_h, _ = _numpy_rnn(gru, x.numpy()[:, None, :], np.zeros((1, 1, 4)))
    np.testing.assert_allclose(out.detach().numpy(), ref_out[:, 0], rtol=1e-10, atol=1e-12)
    with pytest.raises(RuntimeError, match="For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"):
        gru(x, torch.zeros(1, 1, 4, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. Expected 3, got 5"):
        gru(torch.zeros(2, 2, 5, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 2, 4\), got \[1, 3, 4\]"):
        gru(torch.zeros(2, 2, 3, dtype=torch.float64), torch.zeros(1, 3, 4, dtype=torch.float64))
    lstm = nn.LSTM(3, 4)
    with pytest.raises(RuntimeError, match=r"Expected hidden\[1\] size \(1, 2, 4\), got \[1, 2, 5\]"):
        lstm(torch.zeros(2, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 5)))


def test_lstm_projection_shapes(tensor_linear):
    lstm = nn.LSTM(3, 5, proj_size=2, num_layers=2)
    out, (h, c) = lstm(torch.zeros(4, 6, 3))
    assert out.shape == (4, 6, 2) and h.shape == (2, 6, 2) and c.shape == (2, 6, 5)


def test_packed_sequences_match_separate_runs(tensor_linear, rng):
    torch.manual_seed(5)
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True).double()
    seqs = [torch.from_numpy(rng.standard_normal((n, 3))) for n in (2, 5, 3)]
    packed = pack_sequence(seqs, enforce_sorted=False)
    out, (h, c) = lstm(packed)
    padded, lengths = pad_packed_sequence(out)
    assert lengths.tolist() == [2, 5, 3]
    for i, s in enumerate(seqs):
        o, (hi, ci) = lstm(s.unsqueeze(1))
        np.testing.assert_allclose(
            padded.select(1, i).narrow(0, 0, s.size(0)).detach().numpy(),
            o.squeeze(1).detach().numpy(),
            rtol=1e-10,
            atol=1e-12,
        )
        assert not padded.select(1, i).narrow(0, s.size(0), 5 - s.size(0)).any().item()
        np.testing.assert_allclose(h.select(1, i).detach().numpy(), hi.squeeze(1).detach().numpy(), atol=1e-12)
        np.testing.assert_allclose(c.select(1, i).detach().numpy(), ci.squeeze(1).detach().numpy(), atol=1e-12)


@pytest.mark.parametrize("cls,states", [(nn.RNNCell, 1), (nn.LSTMCell, 2), (nn.GRUCell, 1)])
def test_cells_match_one_layer_step(tensor_linear, rng, cls, states):
    cell = cls(3, 4).double()
    x = torch.from_numpy(rng.standard_normal((2, 3)))
    hs = [torch.from_numpy(rng.standard_normal((2, 4))) for _ in range(states)]
    result = cell(x, tuple(hs) if states == 2 else hs[0])
    params = {k + "_l0": v.detach().numpy() for k, v in cell.named_parameters()}
    mode = {nn.RNNCell: "RNN_TANH", nn.LSTMCell: "LSTM", nn.GRUCell: "GRU"}[cls]
    _, h, c = _numpy_layer(
        mode, x.numpy()[None], params, "", 0, False, hs[0].numpy(), hs[1].numpy() if states == 2 else None
    )
    got = result[0] if states == 2 else result
    np.testing.assert_allclose(got.detach().numpy(), h, rtol=1e-10, atol=1e-12)
    if states == 2:
        np.testing.assert_allclose(result[1].detach().numpy(), c, rtol=1e-10, atol=1e-12)
    unbatched = cell(x.select(0, 0))
    assert (unbatched[0] if states == 2 else unbatched).shape == (4,)
    with pytest.raises(RuntimeError, match="input has inconsistent input_size: got 5 expected 3"):
        cell(torch.zeros(2, 5, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="Input batch size 2 doesn't match hidden0 batch size 3"):
        cell(
            x,
            tuple(torch.zeros(3, 4, dtype=torch.float64) for _ in range(states))
            if states == 2
            else torch.zeros(3, 4, dtype=torch.float64),
        )


# ---------------------------------------------------------------- nn.utils.rnn
def test_pack_and_pad_sequences():
    a, b, c = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])
    padded = pad_sequence([a, b, c], padding_value=-1)
    np.testing.assert_array_equal(padded.numpy(), [[1, 4, 6], [2, 5, -1], [3, -1, -1]])
    assert pad_sequence([a, b], batch_first=True).shape == (2, 3)
    packed = pack_padded_sequence(padded, [3, 2, 1])
    np.testing.assert_array_equal(packed.data.numpy(), [1, 4, 6, 2, 5, 3])
    assert packed.batch_sizes.tolist() == [3, 2, 1] and packed.sorted_indices is None
    back, lengths = pad_packed_sequence(packed, padding_value=-1, total_length=4)
    assert lengths.tolist() == [3, 2, 1]
    np.testing.assert_array_equal(back.numpy(), [[1, 4, 6], [2, 5, -1], [3, -1, -1], [-1, -1, -1]])
    unsorted = pack_sequence([c, a, b], enforce_sorted=False)
    assert unsorted.sorted_indices.tolist() == [1, 2, 0] and unsorted.unsorted_indices.tolist() == [2, 0, 1]
    assert [s.tolist() for s in unpack_sequence(unsorted)] == [[6.0], [1.0, 2.0, 3.0], [4.0, 5.0]]
    with pytest.raises(RuntimeError, match="`lengths` array must be sorted in decreasing order"):
        pack_sequence([c, a])
    batch_first, lengths = pad_packed_sequence(unsorted, batch_first=True)
    np.testing.assert_array_equal(batch_first.numpy(), [[6, 0, 0], [1, 2, 3], [4, 5, 0]])


def test_packing_keeps_gradients():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    packed = pack_sequence([b, a], enforce_sorted=False)
    (packed.data * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 100.0])
    np.testing.assert_array_equal(b.grad.numpy(), [10.0])


# ---------------------------------------------------------------- nn.utils: clipping, vectors
def _with_grads(rng, shapes, dtype=torch.float32):
    params = []
    for shape in shapes:
        p = nn.Parameter(torch.zeros(shape, dtype=dtype))
        p.grad = torch.from_numpy(
            rng.standard_normal(shape).astype(np.float32 if dtype == torch.float32 else np.float64)
        )
        params.append(p)
    return params


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, math.inf])
def test_clip_grad_norm_matches_numpy(rng, norm_type):
    params = _with_grads(rng, [(3, 4), (5,), (2, 2, 2)])
    before = [p.grad.numpy().copy() for p in params]
    flat = np.concatenate([g.ravel() for g in before]).astype(np.float64)
    expected = np.abs(flat).max() if norm_type == math.inf else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    max_norm = expected / 4
    total = nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
    assert total.item() == pytest.approx(expected, rel=1e-5)
    coef = max_norm / (expected + 1e-6)
    for p, g in zip(params, before):
        np.testing.assert_allclose(p.grad.numpy(), g * coef, rtol=1e-5)
    # below the limit nothing changes
    again = [p.grad.numpy().copy() for p in params]
    nn.utils.clip_grad_norm_(params, 1e6, norm_type=norm_type)
    for p, g in zip(params, again):
        np.testing.assert_array_equal(p.grad.numpy(), g)


def test_clip_grad_norm_edge_cases(rng):
    assert nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0).item() == 0.0
    (p,) = _with_grads(rng, [(3,)], dtype=torch.float64)
    total = nn.utils.clip_grad_norm_(p, 0.5)  # a single tensor is accepted
    assert total.item() == pytest.approx(np.linalg.norm(p.grad.numpy()) * (total.item() + 1e-6) / 0.5, rel=1e-6)
    assert np.linalg.norm(p.grad.numpy()) == pytest.approx(0.5, rel=1e-5)
    p.grad = torch.tensor([1.0, float("nan"), 2.0], dtype=torch.float64)
    with pytest.raises(
        RuntimeError,
        match="The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped",
    ):
        nn.utils.clip_grad_norm_(p, 1.0, error_if_nonfinite=True)
    np.testing.assert_array_equal(p.grad.numpy(), [1.0, np.nan, 2.0])


def test_clip_grad_value(rng):
    params = _with_grads(rng, [(4, 5), (3,)])
    before = [p.grad.numpy().copy() for p in params]
    nn.utils.clip_grad_value_(params, 0.5)
    for p, g in zip(params, before):
        np.testing.assert_array_equal(p.grad.numpy(), np.clip(g, -0.5, 0.5))


def test_parameters_vector_round_trip():
    net = Net()
    vec = nn.utils.parameters_to_vector(net.parameters())
    expected = np.concatenate([p.detach().numpy().ravel() for p in net.parameters()])
    np.testing.assert_array_equal(vec.detach().numpy(), expected)
    new = torch.arange(float(vec.numel()))
    params = list(net.parameters())
    nn.utils.vector_to_parameters(new, net.parameters())
    assert [p is q for p, q in zip(net.parameters(), params)] == [True] * len(params)
    np.testing.assert_array_equal(nn.utils.parameters_to_vector(net.parameters()).detach().numpy(), new.numpy())
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0], net.parameters())


# ---------------------------------------------------------------- non-contiguous tensors
def test_init_on_non_contiguous_views_writes_only_the_view():
    base = torch.zeros(6, 8, dtype=torch.float64)
    view = base.t()
    init.orthogonal_(view)
    flat = view.numpy()
    np.testing.assert_allclose(flat.T @ flat, np.eye(6), atol=1e-10)
    base = torch.zeros(4, 10)
    strided = base.as_strided((4, 5), (10, 2), 0)
    init.uniform_(strided, 1.0, 2.0)
    assert (base.numpy()[:, 1::2] == 0).all() and (base.numpy()[:, ::2] >= 1).all()
    init.eye_(strided)
    np.testing.assert_array_equal(base.numpy()[:, ::2], np.eye(4, 5))
    init.trunc_normal_(strided, a=-0.5, b=0.5)
    assert (np.abs(base.numpy()[:, ::2]) <= 0.5).all() and (base.numpy()[:, 1::2] == 0).all()


def test_load_state_dict_from_non_contiguous_tensors(rng):
    m = Affine(3, dtype=torch.float64)
    values = rng.standard_normal((2, 3))
    source = torch.from_numpy(values.T.copy()).t()  # rows of a transposed tensor: strided
    assert not source.select(0, 0).is_contiguous()
    m.load_state_dict({"weight": source.select(0, 0), "bias": source.select(0, 1), "calls": torch.tensor(4)})
    np.testing.assert_array_equal(m.weight.detach().numpy(), values[0])
    np.testing.assert_array_equal(m.bias.detach().numpy(), values[1])


def test_clip_grad_norm_with_non_contiguous_grads(rng):
    p = nn.Parameter(torch.zeros(5, 4))
    g = rng.standard_normal((4, 5)).astype(np.float32)
    p.grad = torch.from_numpy(g.copy()).t()
    total = nn.utils.clip_grad_norm_([p], 1.0)
    assert total.item() == pytest.approx(np.linalg.norm(g), rel=1e-5)
    np.testing.assert_allclose(p.grad.numpy(), g.T / (np.linalg.norm(g) + 1e-6), rtol=1e-5)


def test_shape_errors_name_the_layer_and_sizes():
    model = nn.Sequential(nn.Linear(5, 3), nn.ReLU())
    x = torch.zeros(6, 4)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(6x4 and 5x3\)") as info:
        model(x)
    # Only the innermost layer is named (once), with the sizes it was called with.
    assert info.value.__notes__ == [
        "raised in Linear(in_features=5, out_features=3, bias=True) with input sizes [6, 4]"
    ]
    conv = nn.Conv2d(3, 8, 3)
    with pytest.raises(RuntimeError, match="expected input.*to have 3 channels") as info:
        conv(torch.zeros(1, 2, 8, 8))
    assert "Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1)) with input sizes [1, 2, 8, 8]" in info.value.__notes__[0]
