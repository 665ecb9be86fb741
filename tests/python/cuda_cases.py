"""Programs on CUDA tensors, each run on the CPU and on a CUDA device and compared: the
results' values (the CPU's are the reference), where they live, what views, gradients and
modules keep, and the errors PyTorch raises for mixed devices.

    python tests/python/cuda_cases.py             on a GPU (THC's kernels; the GPU check)
    python tests/python/cuda_cases.py --stand-in  without one: host memory stands in for
                                                  the GPU (torch._C._cuda_use_stand_in), so
                                                  what is checked is the package's device
                                                  handling, not GPU kernels
        ... --stand-in --composites               the same with the composite kernels a GPU
                                                  uses (core/ops/Composite.h) before the CPU's

Prints one JSON line {case: null | "error text"} and exits 0 when every case passed.
tests/python/test_cuda_stand_in.py runs it with --stand-in; scripts/device_check.sh on a GPU."""

import io
import json
import sys
import traceback

import numpy as np

import torch

MIXED = "Expected all tensors to be on the same device"
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def same(got, want, rtol=1e-5, atol=1e-6):
    """got (on the device) has want's (on the CPU) dtype, shape and values."""
    assert got.is_cuda and got.device == torch.device("cuda", 0), got.device
    assert not want.is_cuda
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got.cpu().detach().numpy(), want.detach().numpy(), rtol=rtol, atol=atol)


def raises(fn, words, kind=RuntimeError):
    try:
        fn()
    except kind as e:
        for w in words:
            assert w in str(e), (w, str(e))
        return
    raise AssertionError("no %s raised (expected one saying %s)" % (kind.__name__, words))


def both(program):
    """program(device) run on the CPU and on cuda; the pairs of results."""
    torch.manual_seed(0)
    cpu = program(torch.device("cpu"))
    torch.manual_seed(0)
    gpu = program(torch.device("cuda"))
    return list(zip(gpu, cpu))


@case
def factories_make_tensors_on_the_device():
    def program(d):
        return [
            torch.zeros(2, 3, device=d),
            torch.ones(4, dtype=torch.int64, device=d),
            torch.full((2, 2), 7.5, device=d),
            torch.arange(10, device=d),
            torch.linspace(0, 1, 5, device=d),
            torch.eye(3, device=d),
            torch.tensor([[1, 2], [3, 4]], device=d),
            torch.empty(3, device=d).fill_(2),
            torch.zeros_like(torch.ones(2, 2), device=d),
            torch.ones(2, device=d).new_zeros(3),
            torch.as_tensor(np.arange(4.0), device=d),
        ]

    for got, want in both(program):
        same(got, want)
    x = torch.ones(2, device="cuda")
    assert torch.zeros_like(x).is_cuda and torch.empty_like(x).is_cuda and x.new_full((2,), 3).is_cuda


@case
def moves_keep_values_and_types():
    for dtype in (torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8, torch.bool, torch.float16):
        x = (torch.arange(-3, 9).reshape(3, 4) % 5).to(dtype)
        for moved in (x.cuda(), x.to("cuda"), x.to(torch.device("cuda", 0)), x.to("cuda:0", copy=True)):
            same(moved, x, atol=0)
            assert torch.equal(moved.cpu(), x)
        assert x.cuda().cuda().is_cuda and x.cuda().cpu().device.type == "cpu"
    x = torch.randn(3, 4)
    same(x.to("cuda", torch.float64), x.double())
    same(x.to(torch.zeros(1, dtype=torch.float64, device="cuda")), x.double())
    t = x.t()  # a non-contiguous source
    same(t.cuda(), t)
    same(x.cuda()[1:, ::2].cpu().cuda(), x[1:, ::2])


@case
def pointwise_reductions_and_products():
    def program(d):
        a = torch.randn(4, 5).to(d)
        b = torch.randn(5).to(d)
        m = torch.randn(5, 3).to(d)
        c = a.clone()
        c.mul_(2).add_(b, alpha=0.5)
        return [
            a + b,
            a * 3 - 1,
            torch.exp(a).tanh(),
            a.sum(),
            a.sum(1),
            a.mean(0),
            a.max(1).values,
            a.argmax(1),
            a @ m,
            torch.mm(a, m).relu(),
            (a > 0).float(),
            torch.where(a > 0, a, b),
            c,
            a.t().contiguous(),
            a.view(20)[3:9],
        ]

    for got, want in both(program):
        same(got, want)


@case
def indexing_reads_and_writes():
    def program(d):
        a = torch.arange(20.0).reshape(4, 5).to(d)
        idx = torch.tensor([2, 0, 3])
        b = a.clone()
        b[idx.to(d), 1] = -1.0
        b[b > 15] = 0
        c = a.clone()
        c[1] = torch.ones(5).to(d)
        return [a[1], a[:, 2], a[idx], a[idx.to(d)], a[a > 10], b, c, a.index_select(0, idx.to(d))]

    for got, want in both(program):
        same(got, want)


@case
def mixing_devices_raises_and_changes_nothing():
    a = torch.ones(2, 3, device="cuda")
    b = torch.ones(2, 3)
    raises(lambda: a + b, [MIXED])
    raises(lambda: torch.mm(a, b.t()), [MIXED])
    raises(lambda: torch.nn.functional.linear(a, torch.ones(4, 3)), [MIXED])
    raises(lambda: a.add_(b), [MIXED])
    raises(lambda: b.add_(a), [MIXED])
    assert torch.equal(a.cpu(), torch.ones(2, 3)) and torch.equal(b, torch.ones(2, 3))
    # a CPU number goes along with any device, as in PyTorch
    same(a * torch.tensor(2.0), torch.full((2, 3), 2.0))
    same(a + 1, torch.full((2, 3), 2.0))


@case
def host_reads_and_printing():
    x = torch.tensor([[1.5, -2.0], [3.0, 0.25]], device="cuda")
    assert x.tolist() == [[1.5, -2.0], [3.0, 0.25]]
    assert x[1, 0].item() == 3.0 and float(x.sum()) == 2.75
    assert "device='cuda:0'" in repr(x), repr(x)
    raises(lambda: x.numpy(), ["can't convert cuda:0 device type tensor to numpy", "Tensor.cpu()"], TypeError)
    assert x.get_device() == 0 and torch.ones(1).get_device() == -1
    assert x.is_cuda and not x.cpu().is_cuda


@case
def autograd_keeps_gradients_on_the_device():
    def program(d):
        x = torch.randn(3, 4).to(d).requires_grad_()
        w = torch.randn(4, 2).to(d).requires_grad_()
        y = torch.sigmoid(x @ w).pow(2).sum()
        gx, gw = torch.autograd.grad(y, (x, w), create_graph=True)
        (ggx,) = torch.autograd.grad(gx.sum(), x)  # double backward
        z = torch.randn(5).to(d).requires_grad_()
        seen = []
        z.register_hook(lambda g: seen.append(g.device))
        (z * z).sum().backward()
        assert seen == [z.device]
        return [gx, gw, ggx, z.grad]

    for got, want in both(program):
        same(got, want, rtol=1e-4)
    # the gradient of a move goes back to the source's device
    x = torch.randn(3, requires_grad=True)
    (x.cuda() * 2).sum().backward()
    assert x.grad.device.type == "cpu" and torch.equal(x.grad, torch.full((3,), 2.0))


class _Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


@case
def custom_functions_run_on_the_device():
    x = torch.randn(4, device="cuda", requires_grad=True)
    _Double.apply(x).sum().backward()
    same(x.grad, torch.full((4,), 2.0))


def _train(device, make, data, target, opt_class, steps=3, **opt_args):
    torch.manual_seed(0)
    model = make().to(device)
    opt = opt_class(model.parameters(), **opt_args)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data.to(device)), target.to(device))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss)
    return model, losses


@case
def training_matches_the_cpu():
    def mlp():
        return torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))

    def cnn():
        return torch.nn.Sequential(
            torch.nn.Conv2d(1, 4, 3, padding=1),
            torch.nn.BatchNorm2d(4),
            torch.nn.ReLU(),
            torch.nn.MaxPool2d(2),
            torch.nn.Flatten(),
            torch.nn.Linear(4 * 4 * 4, 3),
        )

    g = torch.Generator().manual_seed(1)
    data = {mlp: torch.randn(5, 6, generator=g), cnn: torch.randn(5, 1, 8, 8, generator=g)}
    target = torch.tensor([0, 2, 1, 1, 0])
    for make in (mlp, cnn):
        for opt_class, args in ((torch.optim.SGD, {"lr": 0.1, "momentum": 0.9}), (torch.optim.Adam, {"lr": 0.01})):
            cpu_model, cpu_losses = _train("cpu", make, data[make], target, opt_class, **args)
            gpu_model, gpu_losses = _train("cuda", make, data[make], target, opt_class, **args)
            for got, want in zip(gpu_losses, cpu_losses):
                same(got, want, rtol=1e-4)
            for (name, got), (_, want) in zip(gpu_model.state_dict().items(), cpu_model.state_dict().items()):
                same(got, want, rtol=1e-4, atol=1e-5)
            # the optimizer's state lives with the parameters
            for state in torch.optim.Adam(gpu_model.parameters()).state.values():
                assert all(v.is_cuda for v in state.values() if torch.is_tensor(v))


@case
def modules_move_in_place():
    model = torch.nn.Linear(3, 2)
    weight = model.weight
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.cuda()
    assert model.weight is weight and weight.is_cuda and model.bias.is_cuda
    model(torch.ones(4, 3, device="cuda")).sum().backward()
    opt.step()  # the optimizer built before the move updates the moved parameters
    assert weight.grad.is_cuda
    model.to("cpu")
    assert not model.weight.is_cuda and not model.weight.grad.is_cuda
    model.to(torch.device("cuda"), torch.float64)
    assert model.weight.is_cuda and model.weight.dtype == torch.float64
    # a state dict from the GPU loads into a CPU module (copied across)
    cpu = torch.nn.Linear(3, 2).double()
    cpu.load_state_dict(model.state_dict())
    assert not cpu.weight.is_cuda and torch.equal(cpu.weight, model.weight.cpu())


@case
def typed_classes_of_old_scripts():
    x = torch.cuda.FloatTensor(2, 3).zero_()
    same(x, torch.zeros(2, 3))
    assert isinstance(x, torch.cuda.FloatTensor) and not isinstance(x.cpu(), torch.cuda.FloatTensor)
    assert not isinstance(x, torch.cuda.DoubleTensor)
    same(torch.cuda.LongTensor([1, 2]), torch.tensor([1, 2]))


@case
def the_torch_cuda_module():
    assert torch.cuda.is_available() and torch.cuda.device_count() >= 1
    assert torch.cuda.current_device() == 0 and isinstance(torch.cuda.get_device_name(0), str)
    torch.cuda.synchronize()
    with torch.cuda.device(0):
        assert torch.zeros(1, device="cuda").get_device() == 0
    before = torch.cuda.memory_allocated()
    assert isinstance(before, int) and before >= 0
    assert torch.cuda.max_memory_allocated() >= before
    torch.cuda.empty_cache()
    torch.cuda.manual_seed_all(3)
    raises(lambda: torch.zeros(1, device="cuda:%d" % torch.cuda.device_count()), ["invalid device ordinal"])


def _saved(obj, **kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf, **kwargs)
    return buf.getvalue()


def _locations(data):
    """The storage locations a torch.save file records, read with pickle alone."""
    import pickle
    import zipfile

    found = []

    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            return (module, name) if module.startswith("torch") else super().find_class(module, name)

        def persistent_load(self, pid):
            found.append(pid[3])
            return None

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        name = [n for n in z.namelist() if n.endswith("data.pkl")][0]
        try:
            Reader(io.BytesIO(z.read(name))).load()
        except Exception:
            pass  # the rebuild calls are stand-ins here; the locations are read by then
    return found


@case
def files_keep_the_device():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2).cuda()
    x = torch.randn(4, 3).cuda()
    for kwargs in ({}, {"_use_new_zipfile_serialization": False}):
        data = _saved({"x": x, "view": x[1:], "model": model.state_dict()}, **kwargs)
        if not kwargs:
            assert set(_locations(data)) == {"cuda:0"}, _locations(data)
        back = torch.load(io.BytesIO(data))
        same(back["x"], x.cpu(), atol=0)
        same(back["view"], x[1:].cpu(), atol=0)
        assert all(v.is_cuda for v in back["model"].values())
        on_cpu = torch.load(io.BytesIO(data), map_location="cpu")
        assert not on_cpu["x"].is_cuda and torch.equal(on_cpu["x"], x.cpu())
        for where in (torch.device("cpu"), {"cuda:0": "cpu"}, lambda storage, location: storage):
            assert not torch.load(io.BytesIO(data), map_location=where)["x"].is_cuda
    # a file from the CPU loads onto the GPU when asked
    plain = _saved(torch.arange(5.0))
    same(torch.load(io.BytesIO(plain), map_location="cuda"), torch.arange(5.0), atol=0)
    same(torch.load(io.BytesIO(plain), map_location=lambda s, loc: s.cuda()), torch.arange(5.0), atol=0)
    # a GPU storage has no host buffer to hand out
    try:
        memoryview(x.storage())
    except BufferError as e:
        assert "copy it with .cpu() first" in str(e.__cause__), repr(e.__cause__)
    else:
        raise AssertionError("memoryview of a GPU storage did not raise")


@case
def pinned_memory_and_data_loaders():
    x = torch.arange(6.0).reshape(2, 3)
    assert not x.is_pinned()
    p = x.pin_memory()
    assert p.is_pinned() and not p.is_cuda and torch.equal(p, x) and p.pin_memory() is p
    assert not x.is_pinned()  # pinning copies
    same(p.cuda(non_blocking=True), x, atol=0)
    data = torch.utils.data.TensorDataset(torch.arange(8.0).reshape(4, 2), torch.arange(4))
    for pin in (False, True):
        batches = list(torch.utils.data.DataLoader(data, batch_size=2, pin_memory=pin))
        assert all(t.is_pinned() == pin for batch in batches for t in batch)
        assert torch.equal(batches[1][0], torch.tensor([[4.0, 5.0], [6.0, 7.0]]))
    loader = torch.utils.data.DataLoader(
        [{"a": torch.ones(2), "b": [torch.zeros(1)]}], batch_size=None, pin_memory=True
    )
    batch = next(iter(loader))
    assert batch["a"].is_pinned() and batch["b"][0].is_pinned()
    raises(lambda: torch.ones(2, device="cuda").pin_memory(), ["cannot pin"])


@case
def streams_and_events():
    default = torch.cuda.current_stream()
    assert default == torch.cuda.default_stream() and default.cuda_stream == 0
    side = torch.cuda.Stream()
    assert side != default and side.device == torch.device("cuda", 0)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    x = torch.randn(64, 64, device="cuda")
    start.record()
    with torch.cuda.stream(side):
        assert torch.cuda.current_stream() == side
        side.wait_stream(default)  # x was made on the default stream
        y = x @ x
        done = side.record_event()
    assert torch.cuda.current_stream() == default
    default.wait_event(done)
    end.record()
    end.synchronize()
    assert end.query() and side.query() and done.query()
    ms = start.elapsed_time(end)
    assert isinstance(ms, float) and ms >= 0
    same(y, x.cpu() @ x.cpu(), rtol=1e-4, atol=1e-4)
    side.synchronize()
    raises(lambda: torch.cuda.Event().elapsed_time(torch.cuda.Event()), ["enable_timing=True"])
    with torch.cuda.stream(None):  # selects nothing
        assert torch.cuda.current_stream() == default


@case
def index_taking_ops_read_their_indices_safely():
    # these read indices, lengths or counts on the host: from a GPU tensor through a copy
    def program(d):
        x = torch.arange(12.0).reshape(3, 4).to(d).requires_grad_()
        r = torch.repeat_interleave(x, torch.tensor([2, 0, 1]).to(d), dim=0)
        w = torch.randn(10, 3).to(d)
        e = torch.nn.functional.embedding(torch.tensor([[1, 2], [9, 0]]).to(d), w)
        bag = torch.nn.functional.embedding_bag(torch.tensor([1, 2, 4, 5, 4]).to(d), w, torch.tensor([0, 2]).to(d))
        pooled, idx = torch.nn.functional.max_pool2d(torch.randn(1, 2, 4, 4).to(d), 2, return_indices=True)
        unpooled = torch.nn.functional.max_unpool2d(pooled, idx, 2)
        (r.sum() * 2).backward()
        return [r, e, bag, unpooled, x.grad]

    for got, want in both(program):
        same(got, want)
    raises(
        lambda: torch.nn.functional.embedding(torch.tensor([10]).cuda(), torch.randn(10, 3).cuda()),
        ["index out of range"],
        IndexError,
    )


@case
def torch7_files_from_cutorch_load_onto_the_gpu_when_asked():
    import struct

    from torch.utils.serialization import load_lua, save_lua

    t = torch.arange(12.0).reshape(3, 4)
    buf = io.BytesIO()
    save_lua({"t": t, "row": t[1], "s": t.storage()}, buf)
    data = buf.getvalue()
    for old, new in (("torch.FloatTensor", "torch.CudaTensor"), ("torch.FloatStorage", "torch.CudaStorage")):
        old, new = old.encode(), new.encode()  # as cutorch writes them: int32 length, then the name
        data = data.replace(struct.pack("<i", len(old)) + old, struct.pack("<i", len(new)) + new)
    on_cpu = load_lua(io.BytesIO(data))
    assert not on_cpu["t"].is_cuda and torch.equal(on_cpu["t"], t)
    back = load_lua(io.BytesIO(data), cuda=True)
    same(back["t"], t, atol=0)
    same(back["row"], t[1], atol=0)
    assert back["s"].is_cuda
    back["t"][1, 0] = -5  # one storage, as in the file
    assert back["row"][0].item() == -5 and back["s"][4] == -5


@case
def cudnn_switches():
    cudnn = torch.backends.cudnn
    assert cudnn.is_available() == torch.cuda.is_available()
    assert cudnn.version() is None or cudnn.version() >= 8000
    conv = torch.nn.Conv2d(3, 4, 3, padding=1)
    x = torch.randn(2, 3, 8, 8)
    want = conv(x)
    conv.cuda()
    for benchmark in (False, True):
        for deterministic in (False, True):
            with cudnn.flags(enabled=True, benchmark=benchmark, deterministic=deterministic, allow_tf32=False):
                assert (cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32) == (benchmark, deterministic, False)
                same(conv(x.cuda()), want, rtol=1e-4, atol=1e-5)
    assert (cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32) == (False, False, False)
    with cudnn.flags(enabled=True, allow_tf32=True):  # TF32: about 1e-3 relative
        same(conv(x.cuda()), want, rtol=1e-2, atol=1e-2)


@case
def average_pooling_and_resampling():
    F = torch.nn.functional

    def program(d):
        x = torch.randn(2, 3, 9, 8, dtype=torch.float64).to(d).requires_grad_()
        v = torch.randn(2, 5, 11, dtype=torch.float64).to(d).requires_grad_()
        outs = [
            F.avg_pool2d(x, 3, 2, 1),
            F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
            F.avg_pool2d(x, (3, 2), (2, 1), (1, 0), divisor_override=5),
            F.avg_pool1d(v, 3, 2, 1, ceil_mode=True, count_include_pad=False),
            F.adaptive_avg_pool2d(x, (5, 3)),
            F.adaptive_avg_pool2d(x, 1),
            F.adaptive_avg_pool1d(v, 4),
            F.interpolate(x, scale_factor=2, mode="nearest"),
            F.interpolate(x, size=(11, 5), mode="bilinear", align_corners=False),
            F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True),
        ]
        sum(o.sum() * (i + 1) for i, o in enumerate(outs)).backward()
        return outs + [x.grad, v.grad]

    for got, want in both(program):
        same(got, want, rtol=1e-10, atol=1e-12)


@case
def sequences_histograms_and_closeness():
    x = torch.randn(200, dtype=torch.float64)
    b = torch.tensor([1.0, float("nan"), float("inf"), 2.0, -float("inf")])
    c = torch.tensor([1.0 + 1e-9, float("nan"), float("inf"), 2.1, float("inf")])

    def program(d):
        return [
            torch.arange(2, 11, 3, device=d),
            torch.arange(0.5, 3, 0.25, device=d, dtype=torch.float64),
            torch.linspace(-1, 1, 7, device=d),
            torch.logspace(0, 2, 5, device=d),
            torch.arange(5, device=d, dtype=torch.float16),
            torch.histc(x.to(d), 12),
            torch.histc(x.to(d), 5, min=-1, max=1),
            torch.isclose(b.to(d), c.to(d)),
            torch.isclose(b.to(d), c.to(d), equal_nan=True),
        ]

    for got, want in both(program):
        same(got, want, atol=0)
    rates = torch.full((1000,), 4.0, device="cuda")
    draws = torch.poisson(rates)
    assert draws.is_cuda and (draws >= 0).all() and abs(draws.mean().item() - 4.0) < 0.5


@case
def a_program_choosing_its_device_uses_it():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Linear(3, 2).to(device)
    out = model(torch.ones(4, 3, device=device))
    assert out.is_cuda and next(model.parameters()).is_cuda


class _Maker:
    """Inputs made on the CPU from one seeded generator and moved to the device, so both
    runs see the same values; the floating ones made with grad=True are leaves to check."""

    def __init__(self, device):
        self.d = device
        self.g = torch.Generator().manual_seed(1)
        self.leaves = []

    def _leaf(self, x, grad):
        x = x.to(self.d)
        if grad:
            x.requires_grad_()
            self.leaves.append(x)
        return x

    def randn(self, *shape, grad=True, dtype=torch.float32):
        return self._leaf(torch.randn(*shape, generator=self.g).to(dtype), grad)

    def rand(self, *shape, grad=True, low=0.0, high=1.0):
        return self._leaf(torch.rand(*shape, generator=self.g) * (high - low) + low, grad)

    def randint(self, high, *shape):
        return torch.randint(high, shape, generator=self.g).to(self.d)

    def tensor(self, data, **kwargs):
        return torch.tensor(data, **kwargs).to(self.d)


def _tensors(out):
    """The tensors in a result: nested tuples, lists and PackedSequences."""
    if torch.is_tensor(out):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensors(o)]
    return []


def _backward(outs, maker):
    """Backward from a weighted sum of every floating result that has a graph."""
    g = torch.Generator().manual_seed(2)
    loss = 0
    for o in outs:
        if o.requires_grad and o.is_floating_point():
            loss = loss + (o * torch.randn(o.shape, generator=g).to(o.dtype).to(o.device)).sum()
    if torch.is_tensor(loss):
        loss.backward()


def _compare_table(table, program, rtol=1e-4, atol=1e-5):
    """Runs program(entry, device) on the CPU and on cuda for each entry of table; the names
    of those that fail, with why, in one assertion."""
    failed = []
    for name, entry in table:
        try:
            for got, want in both(lambda d: program(entry, d)):
                if want is None:
                    assert got is None, "a gradient on cuda where the CPU has none"
                    continue
                assert got is not None, "no gradient on cuda where the CPU has one"
                same(got, want, rtol=rtol, atol=atol)
        except Exception as e:
            failed.append(
                "%s: %s: %s" % (name, type(e).__name__, str(e).strip().splitlines()[-1][:300] if str(e).strip() else "")
            )
    assert not failed, "%d failing:\n" % len(failed) + "\n".join(failed)


def _run_module(entry, d):
    make, inputs, how = entry
    torch.manual_seed(0)
    _on_input_device.device = d
    m = make()
    m = m.cuda() if (d.type == "cuda" and how.get("move") != "to") else m.to(d)
    if how.get("eval"):
        m.eval()
    maker = _Maker(d)
    args = inputs(maker)
    outs = _tensors(m(*args))
    _backward(outs, maker)
    grads = [x.grad for x in maker.leaves] + [p.grad for p in m.parameters()]
    return outs + grads + [b for b in m.buffers()]


nn = torch.nn


def _on_input_device(cls, *args):
    """A lazy module made with device= (the device of the run _run_module is in); its
    parameters are materialised there."""
    return cls(*args, device=_on_input_device.device)


class _Containers(nn.Module):
    """ModuleDict, ModuleList, ParameterList and ParameterDict holding what forward uses."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"a": nn.Linear(3, 3), "b": nn.ModuleList([nn.Linear(3, 2)])})
        self.scales = nn.ParameterList([nn.Parameter(torch.randn(3)), nn.Parameter(torch.randn(2))])
        self.shifts = nn.ParameterDict({"out": nn.Parameter(torch.randn(2))})

    def forward(self, x):
        x = self.layers["a"](x) * self.scales[0]
        return self.layers["b"][0](x) * self.scales[1] + self.shifts["out"]


_MODULES = [
    # layers
    ("Identity", lambda: nn.Identity(), lambda I: [I.randn(2, 3)], {}),
    ("Linear", lambda: nn.Linear(4, 3), lambda I: [I.randn(2, 4)], {"move": "to"}),
    ("Linear/nobias", lambda: nn.Linear(4, 3, bias=False), lambda I: [I.randn(2, 5, 4)], {}),
    ("Bilinear", lambda: nn.Bilinear(3, 4, 2), lambda I: [I.randn(5, 3), I.randn(5, 4)], {}),
    ("LazyLinear", lambda: nn.LazyLinear(3), lambda I: [I.randn(2, 4)], {}),
    ("LazyLinear/device=", lambda: _on_input_device(nn.LazyLinear, 3), lambda I: [I.randn(2, 4)], {}),
    ("LazyBatchNorm1d/device=", lambda: _on_input_device(nn.LazyBatchNorm1d), lambda I: [I.randn(4, 3)], {}),
    ("Conv1d", lambda: nn.Conv1d(2, 3, 3, padding=1), lambda I: [I.randn(2, 2, 7)], {}),
    ("Conv2d", lambda: nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2), lambda I: [I.randn(2, 2, 6, 6)], {}),
    (
        "Conv2d/dilated",
        lambda: nn.Conv2d(2, 3, 3, dilation=2, padding_mode="reflect", padding=2),
        lambda I: [I.randn(1, 2, 7, 7)],
        {},
    ),
    (
        "Conv2d/circular",
        lambda: nn.Conv2d(2, 3, 3, padding=1, padding_mode="circular"),
        lambda I: [I.randn(1, 2, 5, 5)],
        {},
    ),
    (
        "Conv2d/same",
        lambda: nn.Conv2d(2, 3, 4, padding="same", padding_mode="replicate"),
        lambda I: [I.randn(1, 2, 5, 5)],
        {},
    ),
    ("Conv3d", lambda: nn.Conv3d(2, 3, 2), lambda I: [I.randn(1, 2, 4, 4, 4)], {}),
    ("ConvTranspose1d", lambda: nn.ConvTranspose1d(2, 3, 3, stride=2), lambda I: [I.randn(2, 2, 5)], {}),
    (
        "ConvTranspose2d",
        lambda: nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=1),
        lambda I: [I.randn(1, 2, 4, 4)],
        {},
    ),
    ("ConvTranspose3d", lambda: nn.ConvTranspose3d(2, 2, 2), lambda I: [I.randn(1, 2, 3, 3, 3)], {}),
    ("LazyConv2d", lambda: nn.LazyConv2d(3, 3), lambda I: [I.randn(1, 2, 5, 5)], {}),
    ("LazyConvTranspose1d", lambda: nn.LazyConvTranspose1d(3, 3), lambda I: [I.randn(1, 2, 5)], {}),
    ("LazyConv1d", lambda: nn.LazyConv1d(3, 2), lambda I: [I.randn(1, 2, 5)], {}),
    ("LazyConv3d", lambda: nn.LazyConv3d(2, 2), lambda I: [I.randn(1, 2, 3, 3, 3)], {}),
    ("LazyConvTranspose2d", lambda: nn.LazyConvTranspose2d(2, 2, stride=2), lambda I: [I.randn(1, 2, 3, 3)], {}),
    ("LazyConvTranspose3d", lambda: nn.LazyConvTranspose3d(2, 2), lambda I: [I.randn(1, 2, 2, 2, 2)], {}),
    (
        "NonDynamicallyQuantizableLinear",
        lambda: nn.NonDynamicallyQuantizableLinear(4, 3),
        lambda I: [I.randn(2, 4)],
        {},
    ),
    ("Embedding", lambda: nn.Embedding(10, 3, padding_idx=0), lambda I: [I.tensor([[1, 0, 4], [9, 4, 2]])], {}),
    ("Embedding/max_norm", lambda: nn.Embedding(10, 3, max_norm=1.0), lambda I: [I.tensor([1, 3, 3, 7])], {}),
    (
        "EmbeddingBag",
        lambda: nn.EmbeddingBag(10, 3, mode="mean"),
        lambda I: [I.tensor([1, 2, 4, 5, 4, 3]), I.tensor([0, 2])],
        {},
    ),
    ("EmbeddingBag/max2d", lambda: nn.EmbeddingBag(10, 3, mode="max"), lambda I: [I.tensor([[1, 2], [4, 9]])], {}),
    (
        "EmbeddingBag/weights",
        lambda: nn.EmbeddingBag(10, 3, mode="sum"),
        lambda I: [I.tensor([1, 2, 4, 5]), I.tensor([0, 1]), I.randn(4)],
        {},
    ),
    ("Flatten", lambda: nn.Flatten(), lambda I: [I.randn(2, 3, 4)], {}),
    ("Unflatten", lambda: nn.Unflatten(1, (2, 3)), lambda I: [I.randn(2, 6)], {}),
    ("Fold", lambda: nn.Fold((4, 5), 2), lambda I: [I.randn(2, 12, 12)], {}),
    ("Unfold", lambda: nn.Unfold(2, padding=1, stride=2), lambda I: [I.randn(2, 3, 4, 4)], {}),
    ("PixelShuffle", lambda: nn.PixelShuffle(2), lambda I: [I.randn(1, 8, 2, 3)], {}),
    ("PixelUnshuffle", lambda: nn.PixelUnshuffle(2), lambda I: [I.randn(1, 2, 4, 6)], {}),
    ("ChannelShuffle", lambda: nn.ChannelShuffle(2), lambda I: [I.randn(1, 4, 2, 2)], {}),
    ("Upsample/nearest", lambda: nn.Upsample(scale_factor=2), lambda I: [I.randn(1, 2, 3, 3)], {}),
    (
        "Upsample/linear",
        lambda: nn.Upsample(size=7, mode="linear", align_corners=True),
        lambda I: [I.randn(1, 2, 4)],
        {},
    ),
    ("Upsample/bilinear", lambda: nn.Upsample(scale_factor=1.5, mode="bilinear"), lambda I: [I.randn(1, 2, 4, 4)], {}),
    ("Upsample/bicubic", lambda: nn.Upsample(size=(5, 6), mode="bicubic"), lambda I: [I.randn(1, 2, 3, 4)], {}),
    (
        "Upsample/trilinear",
        lambda: nn.Upsample(scale_factor=2, mode="trilinear"),
        lambda I: [I.randn(1, 1, 2, 3, 2)],
        {},
    ),
    ("UpsamplingNearest2d", lambda: nn.UpsamplingNearest2d(size=(5, 4)), lambda I: [I.randn(1, 2, 3, 3)], {}),
    ("UpsamplingBilinear2d", lambda: nn.UpsamplingBilinear2d(scale_factor=2), lambda I: [I.randn(1, 2, 3, 3)], {}),
    # activations
    ("ReLU", lambda: nn.ReLU(), lambda I: [I.randn(3, 4)], {}),
    ("ReLU6", lambda: nn.ReLU6(), lambda I: [I.randn(3, 4) * 4], {}),
    ("LeakyReLU", lambda: nn.LeakyReLU(0.2), lambda I: [I.randn(3, 4)], {}),
    ("PReLU", lambda: nn.PReLU(3), lambda I: [I.randn(2, 3, 4)], {}),
    ("RReLU/eval", lambda: nn.RReLU(), lambda I: [I.randn(3, 4)], {"eval": True}),
    ("ELU", lambda: nn.ELU(0.5), lambda I: [I.randn(3, 4)], {}),
    ("CELU", lambda: nn.CELU(1.5), lambda I: [I.randn(3, 4)], {}),
    ("SELU", lambda: nn.SELU(), lambda I: [I.randn(3, 4)], {}),
    ("GELU", lambda: nn.GELU(), lambda I: [I.randn(3, 4)], {}),
    ("GELU/tanh", lambda: nn.GELU("tanh"), lambda I: [I.randn(3, 4)], {}),
    ("GLU", lambda: nn.GLU(), lambda I: [I.randn(3, 4)], {}),
    ("SiLU", lambda: nn.SiLU(), lambda I: [I.randn(3, 4)], {}),
    ("Mish", lambda: nn.Mish(), lambda I: [I.randn(3, 4)], {}),
    ("Sigmoid", lambda: nn.Sigmoid(), lambda I: [I.randn(3, 4)], {}),
    ("LogSigmoid", lambda: nn.LogSigmoid(), lambda I: [I.randn(3, 4)], {}),
    ("Hardsigmoid", lambda: nn.Hardsigmoid(), lambda I: [I.randn(3, 4) * 4], {}),
    ("Hardswish", lambda: nn.Hardswish(), lambda I: [I.randn(3, 4) * 4], {}),
    ("Hardtanh", lambda: nn.Hardtanh(-0.5, 0.5), lambda I: [I.randn(3, 4)], {}),
    ("Hardshrink", lambda: nn.Hardshrink(0.3), lambda I: [I.randn(3, 4)], {}),
    ("Softshrink", lambda: nn.Softshrink(0.3), lambda I: [I.randn(3, 4)], {}),
    ("Tanh", lambda: nn.Tanh(), lambda I: [I.randn(3, 4)], {}),
    ("Tanhshrink", lambda: nn.Tanhshrink(), lambda I: [I.randn(3, 4)], {}),
    ("Threshold", lambda: nn.Threshold(0.1, -2.0), lambda I: [I.randn(3, 4)], {}),
    ("Softplus", lambda: nn.Softplus(2.0, 1.0), lambda I: [I.randn(3, 4)], {}),
    ("Softsign", lambda: nn.Softsign(), lambda I: [I.randn(3, 4)], {}),
    ("Softmax", lambda: nn.Softmax(1), lambda I: [I.randn(3, 4)], {}),
    ("Softmin", lambda: nn.Softmin(0), lambda I: [I.randn(3, 4)], {}),
    ("LogSoftmax", lambda: nn.LogSoftmax(-1), lambda I: [I.randn(3, 4)], {}),
    ("Softmax2d", lambda: nn.Softmax2d(), lambda I: [I.randn(2, 3, 2, 2)], {}),
    (
        "MultiheadAttention",
        lambda: nn.MultiheadAttention(8, 2),
        lambda I: [I.randn(3, 2, 8), I.randn(4, 2, 8), I.randn(4, 2, 8)],
        {},
    ),
    (
        "MultiheadAttention/masks",
        lambda: nn.MultiheadAttention(8, 2, batch_first=True, add_bias_kv=True, add_zero_attn=True, kdim=5, vdim=6),
        lambda I: [
            I.randn(2, 3, 8),
            I.randn(2, 4, 5),
            I.randn(2, 4, 6),
            I.tensor([[False, False, True, False], [False, False, False, True]]),
            True,
            I.tensor([[False, True, False, False]] * 3),
        ],
        {},
    ),
    # normalizations
    ("BatchNorm1d", lambda: nn.BatchNorm1d(3), lambda I: [I.randn(4, 3)], {}),
    ("BatchNorm1d/3d", lambda: nn.BatchNorm1d(3, momentum=None), lambda I: [I.randn(4, 3, 5)], {}),
    ("BatchNorm2d", lambda: nn.BatchNorm2d(3), lambda I: [I.randn(2, 3, 4, 4)], {"move": "to"}),
    ("BatchNorm2d/eval", lambda: nn.BatchNorm2d(3), lambda I: [I.randn(2, 3, 4, 4)], {"eval": True}),
    (
        "BatchNorm2d/untracked",
        lambda: nn.BatchNorm2d(3, track_running_stats=False, affine=False),
        lambda I: [I.randn(2, 3, 3, 3)],
        {},
    ),
    ("BatchNorm3d", lambda: nn.BatchNorm3d(2), lambda I: [I.randn(2, 2, 2, 3, 3)], {}),
    ("LazyBatchNorm1d", lambda: nn.LazyBatchNorm1d(), lambda I: [I.randn(4, 3)], {}),
    ("LazyBatchNorm2d", lambda: nn.LazyBatchNorm2d(), lambda I: [I.randn(2, 3, 2, 2)], {"move": "to"}),
    ("LazyBatchNorm3d", lambda: nn.LazyBatchNorm3d(affine=False), lambda I: [I.randn(2, 2, 2, 2, 2)], {}),
    ("LazyInstanceNorm1d", lambda: nn.LazyInstanceNorm1d(), lambda I: [I.randn(2, 3, 4)], {}),
    ("LazyInstanceNorm3d", lambda: nn.LazyInstanceNorm3d(affine=False), lambda I: [I.randn(1, 2, 2, 2, 2)], {}),
    ("SyncBatchNorm", lambda: nn.SyncBatchNorm(3), lambda I: [I.randn(2, 3, 4)], {"eval": True}),
    (
        "InstanceNorm1d",
        lambda: nn.InstanceNorm1d(3, affine=True, track_running_stats=True),
        lambda I: [I.randn(2, 3, 5)],
        {},
    ),
    ("InstanceNorm2d", lambda: nn.InstanceNorm2d(3), lambda I: [I.randn(2, 3, 4, 4)], {}),
    ("InstanceNorm3d", lambda: nn.InstanceNorm3d(2, affine=True), lambda I: [I.randn(1, 2, 3, 3, 3)], {}),
    ("LazyInstanceNorm2d", lambda: nn.LazyInstanceNorm2d(), lambda I: [I.randn(2, 3, 4, 4)], {}),
    ("LayerNorm", lambda: nn.LayerNorm([3, 4]), lambda I: [I.randn(2, 3, 4)], {}),
    ("GroupNorm", lambda: nn.GroupNorm(2, 4), lambda I: [I.randn(2, 4, 3)], {}),
    ("LocalResponseNorm", lambda: nn.LocalResponseNorm(3), lambda I: [I.randn(2, 5, 3, 3)], {}),
    ("CrossMapLRN2d", lambda: nn.CrossMapLRN2d(3), lambda I: [I.randn(2, 5, 3, 3)], {}),
    # pooling and padding
    ("MaxPool1d", lambda: nn.MaxPool1d(3, 2, padding=1), lambda I: [I.randn(2, 3, 8)], {}),
    ("MaxPool2d", lambda: nn.MaxPool2d(2, return_indices=True), lambda I: [I.randn(2, 3, 4, 4)], {}),
    ("MaxPool2d/ceil", lambda: nn.MaxPool2d(3, 2, dilation=1, ceil_mode=True), lambda I: [I.randn(1, 2, 6, 6)], {}),
    ("MaxPool3d", lambda: nn.MaxPool3d(2), lambda I: [I.randn(1, 2, 4, 4, 4)], {}),
    ("AvgPool1d", lambda: nn.AvgPool1d(3, 2, padding=1), lambda I: [I.randn(2, 3, 8)], {}),
    (
        "AvgPool2d",
        lambda: nn.AvgPool2d(3, 2, padding=1, count_include_pad=False, ceil_mode=True),
        lambda I: [I.randn(1, 2, 6, 6)],
        {},
    ),
    ("AvgPool2d/divisor", lambda: nn.AvgPool2d(2, divisor_override=3), lambda I: [I.randn(1, 2, 4, 4)], {}),
    ("AvgPool3d", lambda: nn.AvgPool3d(2), lambda I: [I.randn(1, 2, 4, 4, 4)], {}),
    ("LPPool1d", lambda: nn.LPPool1d(2, 3), lambda I: [I.randn(2, 3, 9)], {}),
    ("LPPool2d", lambda: nn.LPPool2d(3, 2), lambda I: [I.randn(1, 2, 4, 4)], {}),
    ("AdaptiveAvgPool1d", lambda: nn.AdaptiveAvgPool1d(3), lambda I: [I.randn(2, 3, 7)], {}),
    ("AdaptiveAvgPool2d", lambda: nn.AdaptiveAvgPool2d((3, None)), lambda I: [I.randn(1, 2, 5, 4)], {}),
    ("AdaptiveAvgPool3d", lambda: nn.AdaptiveAvgPool3d(2), lambda I: [I.randn(1, 2, 3, 5, 4)], {}),
    ("AdaptiveMaxPool1d", lambda: nn.AdaptiveMaxPool1d(3, return_indices=True), lambda I: [I.randn(2, 3, 7)], {}),
    ("AdaptiveMaxPool2d", lambda: nn.AdaptiveMaxPool2d(3), lambda I: [I.randn(1, 2, 5, 4)], {}),
    ("AdaptiveMaxPool3d", lambda: nn.AdaptiveMaxPool3d((2, 2, 3)), lambda I: [I.randn(1, 2, 3, 5, 4)], {}),
    (
        "FractionalMaxPool2d",
        lambda: nn.FractionalMaxPool2d(2, output_size=3, _random_samples=torch.rand(1, 2, 2)),
        lambda I: [I.randn(1, 2, 6, 6)],
        {},
    ),
    (
        "FractionalMaxPool3d",
        lambda: nn.FractionalMaxPool3d(2, output_ratio=0.5, _random_samples=torch.rand(1, 2, 3)),
        lambda I: [I.randn(1, 2, 6, 6, 6)],
        {},
    ),
    ("MaxUnpool1d", lambda: nn.MaxUnpool1d(2), lambda I: [I.randn(1, 2, 3), I.tensor([[[1, 2, 5], [0, 3, 4]]])], {}),
    ("MaxUnpool2d", lambda: nn.MaxUnpool2d(2), lambda I: [I.randn(1, 1, 2, 2), I.tensor([[[[0, 3], [9, 14]]]])], {}),
    ("MaxUnpool3d", lambda: nn.MaxUnpool3d(2), lambda I: [I.randn(1, 1, 1, 1, 2), I.tensor([[[[[0, 3]]]]])], {}),
    ("ConstantPad1d", lambda: nn.ConstantPad1d((1, 2), 3.5), lambda I: [I.randn(2, 3, 4)], {}),
    ("ConstantPad2d", lambda: nn.ConstantPad2d(1, -1.0), lambda I: [I.randn(2, 3, 4)], {}),
    ("ConstantPad3d", lambda: nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 0.5), lambda I: [I.randn(1, 2, 2, 2, 2)], {}),
    ("ZeroPad2d", lambda: nn.ZeroPad2d((1, 2, 0, 1)), lambda I: [I.randn(1, 2, 3, 3)], {}),
    ("ReflectionPad1d", lambda: nn.ReflectionPad1d(2), lambda I: [I.randn(2, 3, 4)], {}),
    ("ReflectionPad2d", lambda: nn.ReflectionPad2d((1, 2, 2, 1)), lambda I: [I.randn(1, 2, 4, 4)], {}),
    ("ReflectionPad3d", lambda: nn.ReflectionPad3d(1), lambda I: [I.randn(1, 1, 3, 3, 3)], {}),
    ("ReplicationPad1d", lambda: nn.ReplicationPad1d((2, 1)), lambda I: [I.randn(2, 3, 4)], {}),
    ("ReplicationPad2d", lambda: nn.ReplicationPad2d(2), lambda I: [I.randn(1, 2, 3, 3)], {}),
    ("ReplicationPad3d", lambda: nn.ReplicationPad3d((1, 1, 0, 0, 2, 0)), lambda I: [I.randn(1, 1, 2, 2, 2)], {}),
    # distances
    ("CosineSimilarity", lambda: nn.CosineSimilarity(1), lambda I: [I.randn(3, 4), I.randn(3, 4)], {}),
    ("PairwiseDistance", lambda: nn.PairwiseDistance(1.5, keepdim=True), lambda I: [I.randn(3, 4), I.randn(3, 4)], {}),
    # dropouts in eval (a GPU draws other numbers than the CPU; the train mode is checked by
    # dropouts_draw_on_the_device)
    ("Dropout/eval", lambda: nn.Dropout(0.3), lambda I: [I.randn(3, 4)], {"eval": True}),
    ("Dropout1d/eval", lambda: nn.Dropout1d(), lambda I: [I.randn(2, 3, 4)], {"eval": True}),
    ("Dropout2d/eval", lambda: nn.Dropout2d(), lambda I: [I.randn(2, 3, 4, 4)], {"eval": True}),
    ("Dropout3d/eval", lambda: nn.Dropout3d(), lambda I: [I.randn(2, 3, 2, 2, 2)], {"eval": True}),
    ("AlphaDropout/eval", lambda: nn.AlphaDropout(), lambda I: [I.randn(3, 4)], {"eval": True}),
    ("FeatureAlphaDropout/eval", lambda: nn.FeatureAlphaDropout(), lambda I: [I.randn(2, 3, 4)], {"eval": True}),
    # containers
    (
        "Sequential",
        lambda: nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.ModuleList([nn.Linear(4, 2)])[0]),
        lambda I: [I.randn(5, 3)],
        {},
    ),
    ("Containers", lambda: _Containers(), lambda I: [I.randn(2, 3)], {}),
    # recurrent
    ("RNN", lambda: nn.RNN(3, 4, 2), lambda I: [I.randn(5, 2, 3)], {}),
    (
        "RNN/relu,h0",
        lambda: nn.RNN(3, 4, nonlinearity="relu", batch_first=True),
        lambda I: [I.randn(2, 5, 3), I.randn(1, 2, 4)],
        {},
    ),
    ("RNN/bidirectional", lambda: nn.RNN(3, 4, 2, bidirectional=True, bias=False), lambda I: [I.randn(5, 2, 3)], {}),
    ("RNN/unbatched", lambda: nn.RNN(3, 4), lambda I: [I.randn(5, 3)], {}),
    ("LSTM", lambda: nn.LSTM(3, 4, 2), lambda I: [I.randn(5, 2, 3)], {}),
    (
        "LSTM/bidirectional,h0",
        lambda: nn.LSTM(3, 4, bidirectional=True, batch_first=True),
        lambda I: [I.randn(2, 5, 3), (I.randn(2, 2, 4), I.randn(2, 2, 4))],
        {},
    ),
    ("LSTM/proj", lambda: nn.LSTM(3, 4, 2, proj_size=2), lambda I: [I.randn(5, 2, 3)], {}),
    ("LSTM/unbatched", lambda: nn.LSTM(3, 4), lambda I: [I.randn(5, 3)], {}),
    ("GRU", lambda: nn.GRU(3, 4, 2), lambda I: [I.randn(5, 2, 3)], {}),
    (
        "GRU/bidirectional,h0",
        lambda: nn.GRU(3, 4, bidirectional=True),
        lambda I: [I.randn(5, 2, 3), I.randn(2, 2, 4)],
        {},
    ),
    ("RNNCell", lambda: nn.RNNCell(3, 4), lambda I: [I.randn(2, 3)], {}),
    ("RNNCell/h", lambda: nn.RNNCell(3, 4, nonlinearity="relu"), lambda I: [I.randn(2, 3), I.randn(2, 4)], {}),
    ("LSTMCell", lambda: nn.LSTMCell(3, 4), lambda I: [I.randn(2, 3)], {}),
    ("LSTMCell/hc", lambda: nn.LSTMCell(3, 4), lambda I: [I.randn(3), (I.randn(4), I.randn(4))], {}),
    ("GRUCell", lambda: nn.GRUCell(3, 4), lambda I: [I.randn(2, 3)], {}),
    ("GRUCell/h", lambda: nn.GRUCell(3, 4), lambda I: [I.randn(2, 3), I.randn(2, 4)], {}),
    # transformers (dropout 0: a GPU draws other numbers)
    (
        "TransformerEncoderLayer",
        lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0),
        lambda I: [I.randn(4, 2, 8)],
        {},
    ),
    (
        "TransformerEncoderLayer/norm_first,gelu",
        lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", norm_first=True, batch_first=True),
        lambda I: [I.randn(2, 4, 8), I.tensor([[False, True, False, False]] * 4)],
        {},
    ),
    (
        "TransformerEncoder/padding",
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2),
        lambda I: [I.randn(2, 4, 8), None, I.tensor([[False, False, True, True], [False, False, False, False]])],
        {},
    ),
    (
        "TransformerEncoder/fast_path",
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2),
        lambda I: [
            I.randn(2, 4, 8, grad=False),
            None,
            I.tensor([[False, False, True, True], [False, False, False, False]]),
        ],
        {"eval": True},
    ),
    (
        "TransformerDecoderLayer",
        lambda: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
        lambda I: [I.randn(3, 2, 8), I.randn(4, 2, 8)],
        {},
    ),
    (
        "TransformerDecoder",
        lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2, nn.LayerNorm(8)),
        lambda I: [I.randn(3, 2, 8), I.randn(4, 2, 8), nn.Transformer.generate_square_subsequent_mask(3).to(I.d)],
        {},
    ),
    (
        "Transformer",
        lambda: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0),
        lambda I: [
            I.randn(4, 2, 8),
            I.randn(3, 2, 8),
            None,
            nn.Transformer.generate_square_subsequent_mask(3).to(I.d),
        ],
        {},
    ),
    (
        "AdaptiveLogSoftmaxWithLoss",
        lambda: nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0),
        lambda I: [I.randn(5, 6), I.tensor([0, 4, 9, 2, 7])],
        {},
    ),
]


@case
def every_module_runs_on_the_device():
    _compare_table([(name, (make, inputs, how)) for name, make, inputs, how in _MODULES], _run_module)


def _loss_table(I):
    """(name, module, inputs) for every loss, with inputs from the maker I."""
    logits = I.randn(4, 5)
    p = I.rand(4, 5, low=0.05, high=0.95)
    p_target = I.rand(4, 5, grad=False)
    classes = I.tensor([1, 0, 4, 2])
    x, y = I.randn(4, 5), I.randn(4, 5)
    sign = I.tensor([1.0, -1.0, 1.0, -1.0])
    multilabel = I.tensor([[3, 0, -1, 1, 2], [1, 2, 4, -1, 0], [0, -1, 2, 2, 2], [4, 3, 2, 1, 0]])
    return [
        ("L1Loss", nn.L1Loss(), [x, y]),
        ("MSELoss", nn.MSELoss(reduction="sum"), [x, y]),
        ("SmoothL1Loss", nn.SmoothL1Loss(beta=0.5), [x, y]),
        ("HuberLoss", nn.HuberLoss(delta=0.7), [x, y]),
        ("CrossEntropyLoss", nn.CrossEntropyLoss(), [logits, classes]),
        (
            "CrossEntropyLoss/weight,smoothing,ignore",
            nn.CrossEntropyLoss(weight=I.rand(5, grad=False), label_smoothing=0.1, ignore_index=2),
            [logits, classes],
        ),
        ("CrossEntropyLoss/probabilities", nn.CrossEntropyLoss(label_smoothing=0.2), [logits, p_target.softmax(1)]),
        ("CrossEntropyLoss/2d", nn.CrossEntropyLoss(reduction="none"), [I.randn(2, 3, 2, 2), I.randint(3, 2, 2, 2)]),
        ("NLLLoss", nn.NLLLoss(weight=I.rand(5, grad=False)), [logits.log_softmax(1), classes]),
        ("NLLLoss2d", nn.NLLLoss2d(), [I.randn(2, 3, 2, 2).log_softmax(1), I.randint(3, 2, 2, 2)]),
        ("BCELoss", nn.BCELoss(weight=I.rand(5, grad=False)), [p, p_target]),
        ("BCEWithLogitsLoss", nn.BCEWithLogitsLoss(pos_weight=I.rand(5, grad=False) + 0.5), [logits, p_target]),
        ("KLDivLoss", nn.KLDivLoss(reduction="batchmean"), [logits.log_softmax(1), p_target.softmax(1)]),
        (
            "KLDivLoss/log_target",
            nn.KLDivLoss(reduction="sum", log_target=True),
            [logits.log_softmax(1), y.log_softmax(1)],
        ),
        ("PoissonNLLLoss", nn.PoissonNLLLoss(), [x, p_target * 3]),
        ("PoissonNLLLoss/full", nn.PoissonNLLLoss(log_input=False, full=True), [p, (p_target * 4).round()]),
        ("GaussianNLLLoss", nn.GaussianNLLLoss(full=True), [x, y, p]),
        ("GaussianNLLLoss/shared var", nn.GaussianNLLLoss(), [x, y, I.rand(4, 1, low=0.5, high=1.5)]),
        ("HingeEmbeddingLoss", nn.HingeEmbeddingLoss(margin=0.5), [x, sign.reshape(4, 1).expand(4, 5)]),
        ("SoftMarginLoss", nn.SoftMarginLoss(), [x, sign.reshape(4, 1).expand(4, 5)]),
        ("MarginRankingLoss", nn.MarginRankingLoss(0.2), [x[:, 0], y[:, 0], sign]),
        ("CosineEmbeddingLoss", nn.CosineEmbeddingLoss(0.1), [x, y, sign]),
        ("MultiMarginLoss", nn.MultiMarginLoss(p=2, margin=0.5, weight=I.rand(5, grad=False)), [logits, classes]),
        ("MultiLabelMarginLoss", nn.MultiLabelMarginLoss(), [logits, multilabel]),
        (
            "MultiLabelSoftMarginLoss",
            nn.MultiLabelSoftMarginLoss(weight=I.rand(5, grad=False)),
            [logits, p_target.round()],
        ),
        ("TripletMarginLoss", nn.TripletMarginLoss(margin=0.5, swap=True), [x, y, I.randn(4, 5)]),
        (
            "TripletMarginWithDistanceLoss",
            nn.TripletMarginWithDistanceLoss(distance_function=nn.CosineSimilarity(), margin=0.3),
            [x, y, I.randn(4, 5)],
        ),
        (
            "CTCLoss",
            nn.CTCLoss(),
            [I.randn(6, 2, 4).log_softmax(2), I.tensor([[1, 2, 2], [3, 1, 0]]), I.tensor([6, 5]), I.tensor([3, 2])],
        ),
        (
            "CTCLoss/concatenated,sum",
            nn.CTCLoss(reduction="sum", zero_infinity=True),
            [I.randn(6, 2, 4).log_softmax(2), I.tensor([1, 2, 2, 3, 1]), (6, 5), (3, 2)],
        ),
    ]


@case
def every_loss_runs_on_the_device():
    names = [name for name, _, _ in _loss_table(_Maker(torch.device("cpu")))]

    def program(name, d):
        I = _Maker(d)
        _, loss, inputs = [entry for entry in _loss_table(I) if entry[0] == name][0]
        loss = loss.cuda() if d.type == "cuda" else loss
        out = loss(*inputs)
        _backward([out], I)
        return [out] + [x.grad for x in I.leaves]

    _compare_table([(n, n) for n in names], program)


F = torch.nn.functional
_FUNCTIONS = [
    ("linear", lambda I: F.linear(I.randn(2, 4), I.randn(3, 4), I.randn(3))),
    ("bilinear", lambda I: F.bilinear(I.randn(2, 3), I.randn(2, 4), I.randn(5, 3, 4))),
    ("conv1d/same", lambda I: F.conv1d(I.randn(1, 2, 6), I.randn(3, 2, 4), padding="same", dilation=2)),
    (
        "conv2d/valid",
        lambda I: F.conv2d(I.randn(1, 2, 5, 5), I.randn(2, 1, 3, 3), I.randn(2), padding="valid", groups=2),
    ),
    ("conv_transpose2d", lambda I: F.conv_transpose2d(I.randn(1, 2, 3, 3), I.randn(2, 3, 2, 2), stride=2, dilation=1)),
    ("affine_grid", lambda I: F.affine_grid(I.randn(2, 2, 3), [2, 1, 3, 4], align_corners=False)),
    ("affine_grid/3d", lambda I: F.affine_grid(I.randn(1, 3, 4), [1, 1, 2, 3, 2], align_corners=True)),
    (
        "grid_sample/bilinear,zeros",
        lambda I: F.grid_sample(I.randn(1, 2, 4, 5), I.rand(1, 3, 3, 2, low=-1.2, high=1.2), align_corners=False),
    ),
    (
        "grid_sample/border",
        lambda I: F.grid_sample(
            I.randn(1, 2, 4, 5), I.rand(1, 3, 3, 2, low=-1.2, high=1.2), "bilinear", "border", align_corners=True
        ),
    ),
    ("interpolate/area", lambda I: F.interpolate(I.randn(1, 2, 5, 7), size=(3, 4), mode="area")),
    ("interpolate/nearest-exact", lambda I: F.interpolate(I.randn(1, 2, 5), scale_factor=1.7, mode="nearest-exact")),
    ("interpolate/bilinear", lambda I: F.interpolate(I.randn(1, 2, 8, 8), size=(3, 5), mode="bilinear")),
    (
        "interpolate/bicubic,recompute",
        lambda I: F.interpolate(I.randn(1, 1, 4, 4), scale_factor=1.5, mode="bicubic", recompute_scale_factor=True),
    ),
    ("upsample_nearest", lambda I: F.upsample_nearest(I.randn(1, 2, 2, 3), scale_factor=2)),
    ("upsample_bilinear", lambda I: F.upsample_bilinear(I.randn(1, 2, 2, 3), size=(4, 5))),
    ("pad/constant", lambda I: F.pad(I.randn(2, 3), (1, 2, 0, 1), value=-2.0)),
    ("pad/reflect", lambda I: F.pad(I.randn(1, 2, 4, 4), (2, 1, 1, 2), mode="reflect")),
    ("pad/replicate", lambda I: F.pad(I.randn(1, 2, 3), (2, 3), mode="replicate")),
    ("pad/circular", lambda I: F.pad(I.randn(1, 1, 3, 3, 3), (1, 1, 2, 0, 1, 1), mode="circular")),
    ("normalize", lambda I: F.normalize(I.randn(3, 4), p=1.5, dim=0)),
    ("one_hot", lambda I: F.one_hot(I.tensor([[0, 3], [2, 1]]), 5)),
    ("one_hot/inferred", lambda I: F.one_hot(I.tensor([0, 3, 2]))),
    ("pdist", lambda I: F.pdist(I.randn(5, 3), p=3)),
    ("cosine_similarity/broadcast", lambda I: F.cosine_similarity(I.randn(3, 1, 4), I.randn(1, 2, 4), dim=-1)),
    ("pairwise_distance", lambda I: F.pairwise_distance(I.randn(3, 4), I.randn(3, 4), p=1)),
    (
        "embedding/max_norm",
        lambda I: F.embedding(I.tensor([1, 2, 1]), I.randn(4, 3, grad=False).requires_grad_(), max_norm=0.5),
    ),
    ("embedding/scale_grad", lambda I: F.embedding(I.tensor([[1, 2], [1, 1]]), I.randn(4, 3), scale_grad_by_freq=True)),
    (
        "embedding_bag/offsets,last",
        lambda I: F.embedding_bag(
            I.tensor([1, 2, 4, 5, 4, 3]), I.randn(6, 3), I.tensor([0, 2, 6]), mode="sum", include_last_offset=True
        ),
    ),
    (
        "embedding_bag/padding_idx",
        lambda I: F.embedding_bag(I.tensor([[1, 0, 2], [0, 0, 3]]), I.randn(6, 3), mode="mean", padding_idx=0),
    ),
    (
        "embedding_bag/per_sample",
        lambda I: F.embedding_bag(
            I.tensor([1, 2, 4, 5]), I.randn(6, 3), I.tensor([0, 3]), mode="sum", per_sample_weights=I.randn(4)
        ),
    ),
    ("max_pool1d/indices", lambda I: F.max_pool1d(I.randn(2, 3, 7), 2, return_indices=True)),
    ("max_pool2d_with_indices", lambda I: F.max_pool2d_with_indices(I.randn(1, 2, 5, 5), 3, 2, 1, dilation=2)),
    ("max_pool3d/indices", lambda I: F.max_pool3d(I.randn(1, 1, 4, 4, 4), 2, return_indices=True)),
    (
        "max_unpool2d/roundtrip",
        lambda I: F.max_unpool2d(*F.max_pool2d(I.randn(1, 2, 5, 5), 2, return_indices=True), 2, output_size=(5, 5)),
    ),
    (
        "max_unpool3d/roundtrip",
        lambda I: F.max_unpool3d(*F.max_pool3d(I.randn(1, 1, 4, 4, 4), 2, return_indices=True), 2),
    ),
    ("adaptive_max_pool2d/indices", lambda I: F.adaptive_max_pool2d(I.randn(1, 2, 5, 7), (2, 3), return_indices=True)),
    ("adaptive_max_pool3d/indices", lambda I: F.adaptive_max_pool3d(I.randn(1, 2, 4, 5, 3), 2, return_indices=True)),
    ("adaptive_avg_pool2d", lambda I: F.adaptive_avg_pool2d(I.randn(2, 5, 7), 3)),
    (
        "fractional_max_pool2d",
        lambda I: F.fractional_max_pool2d(
            I.randn(1, 2, 7, 7), 2, output_ratio=0.5, _random_samples=I.rand(1, 2, 2, grad=False), return_indices=True
        ),
    ),
    (
        "fractional_max_pool3d",
        lambda I: F.fractional_max_pool3d(
            I.randn(2, 5, 5, 5), 2, output_size=3, _random_samples=I.rand(1, 2, 3, grad=False)
        ),
    ),
    ("lp_pool2d", lambda I: F.lp_pool2d(I.rand(1, 2, 4, 4), 1.5, 2)),
    ("avg_pool1d", lambda I: F.avg_pool1d(I.randn(1, 2, 7), 3, 2, 1, ceil_mode=True, count_include_pad=False)),
    (
        "batch_norm/no stats",
        lambda I: F.batch_norm(I.randn(4, 3, 2), None, None, I.randn(3), I.randn(3), training=True),
    ),
    (
        "batch_norm/running",
        lambda I: F.batch_norm(
            I.randn(4, 3), I.rand(3, grad=False), I.rand(3, grad=False, low=0.5, high=1.5), training=False
        ),
    ),
    (
        "instance_norm/running",
        lambda I: F.instance_norm(
            I.randn(2, 3, 4), I.rand(3, grad=False), I.rand(3, grad=False), use_input_stats=True, momentum=0.2
        ),
    ),
    ("layer_norm", lambda I: F.layer_norm(I.randn(2, 3, 4), (4,), I.randn(4), None)),
    ("group_norm", lambda I: F.group_norm(I.randn(2, 6, 3), 3, I.randn(6), I.randn(6))),
    ("local_response_norm", lambda I: F.local_response_norm(I.randn(1, 4, 3), 2)),
    ("softmax/dtype", lambda I: F.softmax(I.randn(3, 4), 1, dtype=torch.float64)),
    ("log_softmax/dtype", lambda I: F.log_softmax(I.randn(3, 4), 0, dtype=torch.float64)),
    ("prelu", lambda I: F.prelu(I.randn(2, 3, 4), I.rand(3))),
    ("rrelu/eval", lambda I: F.rrelu(I.randn(3, 4), training=False)),
    ("threshold", lambda I: F.threshold(I.randn(3, 4), 0.2, 5.0)),
    ("hardtanh_", lambda I: F.hardtanh_(I.randn(3, 4, grad=False) * 2)),
    (
        "relu_/elu_/leaky_relu_/celu_/selu_",
        lambda I: [f(I.randn(3, 4, grad=False)) for f in (F.relu_, F.elu_, F.leaky_relu_, F.celu_, F.selu_)],
    ),
    ("threshold_", lambda I: F.threshold_(I.randn(3, 4, grad=False), 0.0, -1.0)),
    ("relu6/rrelu_", lambda I: [F.relu6(I.randn(3, 4) * 5), F.rrelu_(I.randn(3, 4, grad=False), training=False)]),
    (
        "max_pool1d/3d_with_indices",
        lambda I: [
            *F.max_pool1d_with_indices(I.randn(1, 2, 7), 3, 2),
            *F.max_pool3d_with_indices(I.randn(1, 1, 4, 4, 4), 2),
        ],
    ),
    ("upsample", lambda I: F.upsample(I.randn(1, 2, 3, 3), scale_factor=2, mode="bilinear", align_corners=False)),
    ("silu/inplace", lambda I: F.silu(I.randn(3, 4, grad=False), inplace=True)),
    (
        "binary_cross_entropy_with_logits/weight",
        lambda I: F.binary_cross_entropy_with_logits(
            I.randn(3, 4), I.rand(3, 4, grad=False), weight=I.rand(4, grad=False), reduction="sum"
        ),
    ),
    (
        "binary_cross_entropy/none",
        lambda I: F.binary_cross_entropy(I.rand(3, 4, low=0.1, high=0.9), I.rand(3, 4, grad=False), reduction="none"),
    ),
    ("nll_loss/ignore_index", lambda I: F.nll_loss(I.randn(4, 3).log_softmax(1), I.tensor([0, -100, 2, 1]))),
    ("cross_entropy/unbatched", lambda I: F.cross_entropy(I.randn(5), I.tensor(3))),
    (
        "cross_entropy/probs,weight",
        lambda I: F.cross_entropy(I.randn(3, 4), I.rand(3, 4, grad=False).softmax(1), weight=I.rand(4, grad=False)),
    ),
    (
        "kl_div",
        lambda I: F.kl_div(I.randn(3, 4).log_softmax(1), I.rand(3, 4, grad=False).softmax(1), reduction="batchmean"),
    ),
    (
        "poisson_nll_loss",
        lambda I: F.poisson_nll_loss(I.rand(3, 4), I.rand(3, 4, grad=False) * 2, log_input=False, full=True),
    ),
    ("gaussian_nll_loss", lambda I: F.gaussian_nll_loss(I.randn(3, 4), I.randn(3, 4), I.rand(3, 4, low=0.2))),
    ("huber_loss", lambda I: F.huber_loss(I.randn(3, 4), I.randn(3, 4), delta=0.5)),
    ("smooth_l1_loss", lambda I: F.smooth_l1_loss(I.randn(3, 4), I.randn(3, 4), beta=0.0)),
    ("margin_ranking_loss", lambda I: F.margin_ranking_loss(I.randn(4), I.randn(4), I.tensor([1.0, -1.0, -1.0, 1.0]))),
    ("hinge_embedding_loss", lambda I: F.hinge_embedding_loss(I.randn(4), I.tensor([1.0, -1.0, -1.0, 1.0]))),
    ("multi_margin_loss", lambda I: F.multi_margin_loss(I.randn(3, 4), I.tensor([3, 0, 1]))),
    (
        "multilabel_margin_loss",
        lambda I: F.multilabel_margin_loss(I.randn(2, 4), I.tensor([[3, 0, -1, 0], [1, 2, 3, 0]])),
    ),
    (
        "multilabel_soft_margin_loss",
        lambda I: F.multilabel_soft_margin_loss(I.randn(2, 4), I.tensor([[1.0, 0, 0, 1], [0, 1, 1, 0]])),
    ),
    ("soft_margin_loss", lambda I: F.soft_margin_loss(I.randn(2, 4), I.tensor([[1.0, -1, -1, 1], [-1, 1, 1, -1]]))),
    ("cosine_embedding_loss", lambda I: F.cosine_embedding_loss(I.randn(3, 4), I.randn(3, 4), I.tensor([1, -1, 1]))),
    ("triplet_margin_loss", lambda I: F.triplet_margin_loss(I.randn(3, 4), I.randn(3, 4), I.randn(3, 4), p=1)),
    (
        "triplet_margin_with_distance_loss",
        lambda I: F.triplet_margin_with_distance_loss(I.randn(3, 4), I.randn(3, 4), I.randn(3, 4)),
    ),
    (
        "ctc_loss/unbatched",
        lambda I: F.ctc_loss(I.randn(5, 4).log_softmax(1), I.tensor([1, 2]), I.tensor(5), I.tensor(2)),
    ),
    (
        "l1_loss/mse_loss",
        lambda I: [F.l1_loss(I.randn(3), I.randn(3)), F.mse_loss(I.randn(3), I.randn(3), reduction="none")],
    ),
    ("pixel_shuffle/unshuffle", lambda I: F.pixel_unshuffle(F.pixel_shuffle(I.randn(1, 4, 2, 2), 2), 2)),
    (
        "channel_shuffle",
        lambda I: [F.channel_shuffle(I.randn(1, 6, 2), 3), F.native_channel_shuffle(I.randn(1, 6, 2), 2)],
    ),
    ("fold/unfold", lambda I: F.fold(F.unfold(I.randn(1, 2, 4, 4), 2, stride=1), (4, 4), 2)),
    ("glu/dim", lambda I: F.glu(I.randn(4, 3), 0)),
    ("softplus/threshold", lambda I: F.softplus(I.randn(3, 4) * 10, beta=0.5, threshold=3)),
    (
        "tanh/sigmoid/hardsigmoid/hardswish/mish",
        lambda I: [f(I.randn(3, 4)) for f in (F.tanh, F.sigmoid, F.hardsigmoid, F.hardswish, F.mish)],
    ),
    (
        "scaled attention/multi_head_attention_forward",
        lambda I: F.multi_head_attention_forward(
            I.randn(3, 1, 4),
            I.randn(3, 1, 4),
            I.randn(3, 1, 4),
            4,
            2,
            I.randn(12, 4),
            I.randn(12),
            None,
            None,
            False,
            0.0,
            I.randn(4, 4),
            I.randn(4),
            attn_mask=I.tensor([[0.0, -1e9, 0.0]] * 3),
            average_attn_weights=False,
        ),
    ),
]


@case
def every_functional_runs_on_the_device():
    def program(fn, d):
        I = _Maker(d)
        outs = _tensors(fn(I))
        _backward(outs, I)
        return outs + [x.grad for x in I.leaves]

    _compare_table(_FUNCTIONS, program)


@case
def dropouts_draw_on_the_device():
    """Train-mode randomness: a GPU draws other numbers than the CPU, so what is compared is
    where the results live and what they must satisfy."""
    x = torch.randn(4, 6, 3, 3).cuda().requires_grad_()
    failed = []
    checks = [
        ("dropout", lambda: F.dropout(x, 0.4), lambda y: ((y == 0) | torch.isclose(y, x / 0.6)).all()),
        (
            "dropout1d",
            lambda: nn.Dropout1d(0.4)(x[..., 0]),
            lambda y: ((y == 0) | torch.isclose(y, x[..., 0] / 0.6)).all(),
        ),
        ("dropout2d", lambda: F.dropout2d(x, 0.4), lambda y: ((y == 0) | torch.isclose(y, x / 0.6)).all()),
        ("dropout3d", lambda: nn.Dropout3d(0.4)(x.unsqueeze(2)), lambda y: True),
        ("alpha_dropout", lambda: F.alpha_dropout(x, 0.3, training=True), lambda y: True),
        ("feature_alpha_dropout", lambda: F.feature_alpha_dropout(x, 0.3, training=True), lambda y: True),
        (
            "rrelu",
            lambda: F.rrelu(x, training=True),
            lambda y: ((y == x) | ((y / x >= 1 / 8) & (y / x <= 1 / 3))).all(),
        ),
        (
            "gumbel_softmax",
            lambda: F.gumbel_softmax(x, tau=0.5, dim=1),
            lambda y: torch.allclose(y.sum(1).cpu(), torch.ones(4, 3, 3)),
        ),
        ("gumbel_softmax/hard", lambda: F.gumbel_softmax(x, hard=True, dim=1), lambda y: (y.sum(1) == 1).all()),
        (
            "fractional_max_pool2d",
            lambda: F.fractional_max_pool2d(x, 2, output_size=2),
            lambda y: y.shape == (4, 6, 2, 2),
        ),
        (
            "FractionalMaxPool3d",
            lambda: nn.FractionalMaxPool3d(2, output_size=1).cuda()(x.unsqueeze(2).expand(4, 6, 3, 3, 3)),
            lambda y: True,
        ),
        ("RNN dropout", lambda: nn.LSTM(3, 4, 2, dropout=0.5).cuda()(x[0])[0], lambda y: True),
        (
            "Transformer dropout",
            lambda: nn.TransformerEncoderLayer(6, 2, 8, dropout=0.3).cuda()(x[..., 0].permute(2, 0, 1).contiguous()),
            lambda y: True,
        ),
    ]
    for name, run, holds in checks:
        try:
            x.grad = None
            y = run()
            assert y.is_cuda, "the result is on the CPU"
            assert bool(holds(y)), "the result's values are wrong"
            y.sum().backward()
            assert x.grad is not None and x.grad.is_cuda, "the gradient is not on cuda"
        except Exception as e:
            failed.append("%s: %s: %s" % (name, type(e).__name__, e))
    assert not failed, "\n".join(failed)


@case
def packed_sequences_on_the_device():
    rnn_utils = torch.nn.utils.rnn

    def program(d):
        torch.manual_seed(0)
        lstm = nn.LSTM(3, 4, 2, bidirectional=True).to(d)
        gru = nn.GRU(3, 5, batch_first=True).to(d)
        seqs = [torch.randn(n, 3).to(d).requires_grad_() for n in (2, 5, 3)]
        padded = rnn_utils.pad_sequence(seqs, padding_value=-1.0)
        lengths = torch.tensor([2, 5, 3])  # on the CPU, as PyTorch requires
        packed = rnn_utils.pack_padded_sequence(padded, lengths, enforce_sorted=False)
        assert packed.data.device == padded.device and packed.sorted_indices.device == padded.device
        assert packed.unsorted_indices.device == padded.device and not packed.batch_sizes.is_cuda
        out, (h, c) = lstm(packed)
        unpacked, out_lengths = rnn_utils.pad_packed_sequence(out, total_length=6, padding_value=0.5)
        assert not out_lengths.is_cuda and out_lengths.tolist() == [2, 5, 3]
        by_list = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
        out2, h2 = gru(
            rnn_utils.pack_padded_sequence(padded.transpose(0, 1), lengths, batch_first=True, enforce_sorted=False)
        )
        g_out, g_lengths = rnn_utils.pad_packed_sequence(out2, batch_first=True)
        sorted_packed = rnn_utils.pack_sequence(sorted(seqs, key=len, reverse=True))
        out3, h3 = nn.RNN(3, 2).to(d)(sorted_packed)
        (unpacked.sum() + h.sum() * 2 + c.pow(2).sum() + g_out.sum() + h2.sum() + out3.data.sum()).backward()
        return (
            [padded, packed.data, by_list.data, out.data, h, c, unpacked, g_out, h2, out3.data, h3]
            + [s.grad for s in seqs]
            + [p.grad for p in lstm.parameters()]
        )

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-5)
    packed = rnn_utils.pack_sequence([torch.ones(3, 2), torch.ones(1, 2)], enforce_sorted=False)
    for moved in (packed.cuda(), packed.to("cuda"), packed.to(torch.ones(1, device="cuda"))):
        assert moved.is_cuda and moved.data.is_cuda and moved.sorted_indices.is_cuda and not moved.batch_sizes.is_cuda
    back = packed.cuda().cpu()
    assert not back.is_cuda and not back.sorted_indices.is_cuda
    # a recurrent layer names what is on the wrong device, as PyTorch 1.13 does
    x = torch.randn(4, 2, 3, device="cuda")
    raises(
        lambda: nn.LSTM(3, 5).cuda()(x, (torch.zeros(1, 2, 5), torch.zeros(1, 2, 5))),
        ["Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu"],
    )
    raises(
        lambda: nn.GRU(3, 5)(x),
        [
            "Input and parameter tensors are not at the same device, found input tensor at cuda:0 and parameter tensor at cpu"
        ],
    )
    # PyTorch 1.13 wants the lengths on the CPU
    raises(
        lambda: rnn_utils.pack_padded_sequence(torch.ones(3, 2, 1, device="cuda"), torch.tensor([3, 2], device="cuda")),
        ["'lengths' argument should be a 1D CPU int64 tensor"],
    )


optim = torch.optim
_OPTIMIZERS = [
    ("SGD", optim.SGD, {"lr": 0.1}),
    ("SGD/momentum,nesterov,decay", optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    (
        "SGD/dampening,maximize,foreach",
        optim.SGD,
        {"lr": 0.1, "momentum": 0.5, "dampening": 0.1, "maximize": True, "foreach": True},
    ),
    ("Adam", optim.Adam, {"lr": 0.01}),
    ("Adam/amsgrad,decay,foreach", optim.Adam, {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1, "foreach": True}),
    ("Adam/maximize", optim.Adam, {"lr": 0.01, "maximize": True}),
    ("AdamW", optim.AdamW, {"lr": 0.01}),
    ("AdamW/amsgrad,foreach", optim.AdamW, {"lr": 0.01, "amsgrad": True, "foreach": True}),
    ("Adamax", optim.Adamax, {"lr": 0.02, "weight_decay": 0.1}),
    ("Adamax/foreach", optim.Adamax, {"lr": 0.02, "foreach": True}),
    ("NAdam", optim.NAdam, {"lr": 0.02}),
    ("NAdam/decay,foreach", optim.NAdam, {"lr": 0.02, "weight_decay": 0.1, "foreach": True}),
    ("RAdam", optim.RAdam, {"lr": 0.02}),
    ("RAdam/foreach", optim.RAdam, {"lr": 0.02, "weight_decay": 0.1, "foreach": True}),
    ("Adagrad", optim.Adagrad, {"lr": 0.1}),
    (
        "Adagrad/decay,initial,foreach",
        optim.Adagrad,
        {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1, "initial_accumulator_value": 0.2, "foreach": True},
    ),
    ("Adadelta", optim.Adadelta, {"lr": 1.0}),
    ("Adadelta/foreach", optim.Adadelta, {"lr": 1.0, "weight_decay": 0.1, "foreach": True}),
    ("RMSprop", optim.RMSprop, {"lr": 0.01}),
    (
        "RMSprop/centered,momentum,foreach",
        optim.RMSprop,
        {"lr": 0.01, "centered": True, "momentum": 0.9, "weight_decay": 0.1, "foreach": True},
    ),
    ("Rprop", optim.Rprop, {"lr": 0.01}),
    ("Rprop/foreach", optim.Rprop, {"lr": 0.01, "etas": (0.4, 1.5), "step_sizes": (1e-4, 1), "foreach": True}),
    ("ASGD", optim.ASGD, {"lr": 0.05, "t0": 1}),
    ("ASGD/foreach", optim.ASGD, {"lr": 0.05, "t0": 1, "weight_decay": 0.1, "foreach": True}),
    ("LBFGS", optim.LBFGS, {"lr": 0.5, "max_iter": 4}),
    ("LBFGS/strong_wolfe", optim.LBFGS, {"lr": 1, "max_iter": 5, "history_size": 3, "line_search_fn": "strong_wolfe"}),
]


def _problem(d):
    """A small model and a loss on device d: the same on every run."""
    torch.manual_seed(0)
    # in double: line searches (LBFGS's strong Wolfe) branch on comparisons that float's
    # rounding, which differs between devices' kernels, could tip
    model = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 2)).double().to(d)
    g = torch.Generator().manual_seed(3)
    x = torch.randn(6, 4, generator=g, dtype=torch.float64).to(d)
    y = torch.randn(6, 2, generator=g, dtype=torch.float64).to(d)

    def closure():
        model.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        return loss

    return model, closure


def _state_tensors(opt):
    """The optimizer's state tensors in a fixed order, as (name, tensor)."""
    found = []
    for i, p in enumerate(p for g in opt.param_groups for p in g["params"]):
        for key, value in sorted(opt.state[p].items()):
            if torch.is_tensor(value):
                found.append(("%d.%s" % (i, key), value))
    return found


@case
def every_optimizer_steps_on_the_device():
    def program(entry, d):
        cls, args = entry
        model, closure = _problem(d)
        opt = cls(model.parameters(), **args)
        losses = [opt.step(closure) for _ in range(4)]
        state = _state_tensors(opt)
        for name, t in state:
            if d.type == "cuda" and not (name.endswith(".step") or t.dim() == 0):
                assert t.is_cuda, "state %s is on the CPU" % name
        # a scalar counter may live on the CPU (PyTorch 1.13 keeps Adam's 'step' there)
        return (
            [l.detach() for l in losses] + list(model.parameters()) + [t.to(d) if t.dim() == 0 else t for _, t in state]
        )

    _compare_table([(name, (cls, args)) for name, cls, args in _OPTIMIZERS], program)


@case
def optimizer_state_moves_across_devices():
    """load_state_dict casts the state to each parameter's device and dtype, except 'step'
    (PyTorch 1.13 keeps it as saved); training then goes on as on the device it came from."""
    failed = []
    for name, cls, args in _OPTIMIZERS:
        try:
            ref_model, ref_closure = _problem(torch.device("cpu"))
            ref = cls(ref_model.parameters(), **args)
            for _ in range(2):
                ref.step(ref_closure)
            for source, target in (("cuda", "cpu"), ("cpu", "cuda")):
                src_model, src_closure = _problem(torch.device(source))
                src = cls(src_model.parameters(), **args)
                src.step(src_closure)
                saved = src.state_dict()
                dst_model, dst_closure = _problem(torch.device(target))
                dst_model.load_state_dict(src_model.state_dict())
                dst = cls(dst_model.parameters(), **args)
                dst.load_state_dict(saved)
                for (key, moved), (_, original) in zip(_state_tensors(dst), _state_tensors(src)):
                    want = (
                        original.device
                        if key.endswith(".step")
                        else torch.device(target, 0)
                        if target == "cuda"
                        else torch.device("cpu")
                    )
                    assert moved.device == want, "%s -> %s: state %s on %s" % (source, target, key, moved.device)
                    assert torch.equal(moved.cpu(), original.cpu()), "%s changed in the move" % key
                for key, original in _state_tensors(src):  # the saved state is copied, not shared
                    # (PyTorch 1.13 keeps 'step', and NAdam's and ASGD's scalars, on the CPU)
                    assert original.device.type == source or original.dim() == 0, key
                dst.step(dst_closure)
                for got, want in zip(dst_model.parameters(), ref_model.parameters()):
                    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-6)
        except Exception as e:
            failed.append(
                "%s: %s: %s" % (name, type(e).__name__, str(e).strip().splitlines()[-1][:300] if str(e).strip() else "")
            )
    assert not failed, "%d failing:\n" % len(failed) + "\n".join(failed)


@case
def capturable_and_fused_adam_count_on_the_device():
    """capturable/fused Adam keep 'step' on the GPU and update as plain Adam does on the CPU;
    with CPU parameters PyTorch refuses them."""
    ref_model, ref_closure = _problem(torch.device("cpu"))
    ref = optim.Adam(ref_model.parameters(), lr=0.01, amsgrad=True)
    for _ in range(3):
        ref.step(ref_closure)
    for cls, args in (
        (optim.Adam, {"capturable": True}),
        (optim.AdamW, {"capturable": True, "weight_decay": 0}),
        (optim.Adam, {"fused": True}),
    ):
        model, closure = _problem(torch.device("cuda"))
        opt = cls(model.parameters(), lr=0.01, amsgrad=True, **args)
        for _ in range(3):
            opt.step(closure)
        for got, want in zip(model.parameters(), ref_model.parameters()):
            same(got.detach(), want.detach(), rtol=1e-4, atol=1e-6)
        for key, t in _state_tensors(opt):
            assert t.is_cuda, (cls.__name__, args, key)
        cpu_model, cpu_closure = _problem(torch.device("cpu"))
        words = ["FusedAdam requires all the params to be CUDA"] if "fused" in args else ["capturable=True"]
        raises(lambda: cls(cpu_model.parameters(), **args).step(cpu_closure), words)


@case
def copies_keep_the_device():
    import copy
    import pickle

    x = torch.arange(6.0, device="cuda").requires_grad_()
    a, b = copy.deepcopy([x, x.detach()[2:]])
    same(a, x.cpu())
    same(b, torch.arange(2.0, 6.0))
    assert a.requires_grad and b.storage_offset() == 2
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).cuda()
    for clone in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        for (name, got), (_, want) in zip(clone.state_dict().items(), model.state_dict().items()):
            assert got.is_cuda and torch.equal(got.cpu(), want.cpu()), name
        assert all(p.is_cuda for p in clone.parameters())
    assert copy.copy(x.storage()).is_cuda and x.storage().clone().is_cuda


def _schedulers(opt):
    sched = optim.lr_scheduler
    return [
        ("StepLR", lambda: sched.StepLR(opt, 2, 0.5)),
        ("MultiStepLR", lambda: sched.MultiStepLR(opt, [1, 3], 0.3)),
        ("ExponentialLR", lambda: sched.ExponentialLR(opt, 0.9)),
        ("CosineAnnealingLR", lambda: sched.CosineAnnealingLR(opt, 4, 0.001)),
        ("CosineAnnealingWarmRestarts", lambda: sched.CosineAnnealingWarmRestarts(opt, 2, 2)),
        ("LambdaLR", lambda: sched.LambdaLR(opt, lambda e: 1 / (1 + e))),
        ("MultiplicativeLR", lambda: sched.MultiplicativeLR(opt, lambda e: 0.9)),
        ("ConstantLR", lambda: sched.ConstantLR(opt, 0.5, 2)),
        ("LinearLR", lambda: sched.LinearLR(opt, 0.2, 1.0, 3)),
        ("PolynomialLR", lambda: sched.PolynomialLR(opt, 4, 2.0)),
        ("CyclicLR", lambda: sched.CyclicLR(opt, 0.01, 0.1, 2)),
        ("OneCycleLR", lambda: sched.OneCycleLR(opt, 0.1, total_steps=8)),
        (
            "SequentialLR",
            lambda: sched.SequentialLR(opt, [sched.ConstantLR(opt, 0.5, 2), sched.ExponentialLR(opt, 0.8)], [2]),
        ),
        (
            "ChainedScheduler",
            lambda: sched.ChainedScheduler([sched.ConstantLR(opt, 0.5, 2), sched.ExponentialLR(opt, 0.8)]),
        ),
        ("ReduceLROnPlateau", lambda: sched.ReduceLROnPlateau(opt, patience=0, factor=0.5)),
        ("SWALR", lambda: optim.swa_utils.SWALR(opt, 0.05, anneal_epochs=2)),
    ]


@case
def lr_schedulers_drive_device_parameters():
    names = [name for name, _ in _schedulers(None)]

    def program(name, d):
        model, closure = _problem(d)
        opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scheduler = dict(_schedulers(opt))[name]()
        lrs = []
        for _ in range(5):
            loss = opt.step(closure)
            # ReduceLROnPlateau reads a metric that lives on the device
            scheduler.step(loss.detach() + 1) if name == "ReduceLROnPlateau" else scheduler.step()
            lrs.append(opt.param_groups[0]["lr"])
        restored = dict(_schedulers(opt))[name]()
        restored.load_state_dict(scheduler.state_dict())
        return [torch.tensor(lrs, dtype=torch.float64).to(d)] + list(model.parameters())

    _compare_table([(n, n) for n in names], program)


@case
def swa_averages_on_the_device():
    def program(d):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)).to(d)
        averaged = optim.swa_utils.AveragedModel(model)
        ema = optim.swa_utils.AveragedModel(model, avg_fn=lambda avg, new, n: 0.9 * avg + 0.1 * new)
        opt = optim.SGD(model.parameters(), lr=0.1)
        data = torch.randn(12, 3)
        for i in range(3):
            opt.zero_grad()
            model(data[4 * i : 4 * i + 4].to(d)).pow(2).sum().backward()
            opt.step()
            averaged.update_parameters(model)
            ema.update_parameters(model)
        loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data), batch_size=4)
        optim.swa_utils.update_bn(loader, averaged, device=d)
        # (n_averaged stays on the CPU unless AveragedModel is given a device, as in PyTorch 1.13)
        assert averaged.n_averaged.item() == 3
        return (
            list(averaged.parameters())
            + list(averaged.module.buffers())
            + list(ema.parameters())
            + [averaged(data.to(d))]
        )

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-6)


class _Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(0, 1)


@case
def nn_utils_on_the_device():
    utils = torch.nn.utils

    def program(d):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
        # the random starting vectors are drawn on the CPU, then moved with the module
        model[0] = utils.spectral_norm(model[0])
        model[2] = utils.weight_norm(model[2], dim=0)
        model = model.to(d)
        conv = utils.weight_norm(nn.Conv1d(2, 3, 2)).to(d)
        sym = nn.Linear(3, 3)
        torch.nn.utils.parametrize.register_parametrization(sym, "weight", _Symmetric())
        sym = sym.to(d)
        x = torch.randn(5, 3).to(d)
        out = model(x).pow(2).sum() + conv(x.reshape(1, 3, 5)[:, :2]).sum() + sym(x).pow(2).sum()
        out.backward()
        params = list(model.parameters()) + list(conv.parameters()) + list(sym.parameters())
        grads = [p.grad.clone() for p in params]
        total = utils.clip_grad_norm_(params, 0.5)
        inf_total = utils.clip_grad_norm_(params, 0.1, norm_type="inf")
        one_total = utils.clip_grad_norm_(params[:2], 0.05, norm_type=1, error_if_nonfinite=True)
        clipped = [p.grad.clone() for p in params]
        utils.clip_grad_value_(params, 0.01)
        vec = utils.parameters_to_vector(params)
        utils.vector_to_parameters(vec * 2, params)
        removed = utils.remove_weight_norm(conv).weight
        removed_sn = utils.remove_spectral_norm(model[0]).weight
        torch.nn.utils.parametrize.remove_parametrizations(sym, "weight")
        return (
            [out, total, inf_total, one_total, vec, removed, removed_sn, sym.weight, model(x)]
            + grads
            + clipped
            + [p.grad for p in params]
            + list(model.buffers())
        )

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-6)
    # no gradients: a zero on the CPU, as in PyTorch 1.13
    assert not utils.clip_grad_norm_([torch.zeros(2, device="cuda", requires_grad=True)], 1.0).is_cuda
    # gradients on two devices are clipped together
    a, b = torch.ones(2, requires_grad=True), torch.ones(2, device="cuda", requires_grad=True)
    (a.sum() * 3 + b.sum() * 4).backward()
    total = utils.clip_grad_norm_([a, b], 1.0)
    assert not total.is_cuda and abs(total.item() - 50**0.5) < 1e-5
    same(b.grad, torch.full((2,), 4 / 50**0.5), rtol=1e-4)
    raises(lambda: utils.parameters_to_vector([a, b]), ["Found two parameters on different devices"], TypeError)
    raises(
        lambda: utils.vector_to_parameters(torch.zeros(4), [a, b]),
        ["Found two parameters on different devices"],
        TypeError,
    )


@case
def moved_leaves_and_cpu_scalars_differentiate():
    # a module used on the CPU, then moved: its parameters' gradients go to the device
    model = nn.Linear(3, 2)
    model(torch.ones(1, 3)).sum().backward()
    model.cuda()
    model.zero_grad(set_to_none=True)
    model(torch.ones(4, 3, device="cuda")).sum().backward()
    same(model.weight.grad, torch.full((2, 3), 4.0))
    model.double()  # and a change of type
    model(torch.ones(4, 3, device="cuda", dtype=torch.float64)).sum().backward()
    same(model.bias.grad, torch.full((2,), 8.0, dtype=torch.float64))
    # a CPU scalar in a CUDA expression gets its gradient on the CPU, as in PyTorch
    s = torch.tensor(3.0, requires_grad=True)
    x = torch.ones(2, device="cuda", requires_grad=True)
    (x * s + s).sum().backward()
    assert not s.grad.is_cuda and s.grad.item() == 4.0
    same(x.grad, torch.full((2,), 3.0))


def _distributions(I):
    """(name, a distribution with parameters from the maker I (made when called), a value in
    its support)."""
    D = torch.distributions
    T = D.transforms
    loc, scale = I.randn(3), I.rand(3, low=0.5, high=2.0)
    probs = I.rand(3, low=0.1, high=0.9)
    simplex = I.rand(2, 4, low=0.1, high=1.0)
    cov_factor = I.randn(3, 2)
    tril = torch.tril(I.randn(3, 3, grad=False)) + 3 * torch.eye(3).to(I.d)
    pos = I.rand(3, low=0.5, high=2.0)
    return [
        ("Normal", lambda: D.Normal(loc, scale), I.randn(3, grad=False)),
        ("LogNormal", lambda: D.LogNormal(loc, scale), I.rand(3, grad=False, low=0.1, high=3)),
        ("HalfNormal", lambda: D.HalfNormal(scale), I.rand(3, grad=False, low=0.1, high=3)),
        ("Laplace", lambda: D.Laplace(loc, scale), I.randn(3, grad=False)),
        ("Cauchy", lambda: D.Cauchy(loc, scale), I.randn(3, grad=False)),
        ("HalfCauchy", lambda: D.HalfCauchy(scale), I.rand(3, grad=False, low=0.1, high=3)),
        ("Gumbel", lambda: D.Gumbel(loc, scale), I.randn(3, grad=False)),
        ("StudentT", lambda: D.StudentT(pos * 3, loc, scale), I.randn(3, grad=False)),
        ("Uniform", lambda: D.Uniform(loc - 2, loc + 2), loc.detach() + 0.5),
        ("Exponential", lambda: D.Exponential(pos), I.rand(3, grad=False, low=0.1, high=3)),
        ("Gamma", lambda: D.Gamma(pos, scale), I.rand(3, grad=False, low=0.1, high=3)),
        ("Chi2", lambda: D.Chi2(pos * 2), I.rand(3, grad=False, low=0.1, high=3)),
        ("Beta", lambda: D.Beta(pos, scale), I.rand(3, grad=False, low=0.1, high=0.9)),
        ("Kumaraswamy", lambda: D.Kumaraswamy(pos, scale), I.rand(3, grad=False, low=0.1, high=0.9)),
        ("Dirichlet", lambda: D.Dirichlet(simplex), I.rand(2, 4, grad=False, low=0.1, high=1).softmax(-1)),
        ("FisherSnedecor", lambda: D.FisherSnedecor(pos * 3, scale * 4), I.rand(3, grad=False, low=0.1, high=3)),
        ("Pareto", lambda: D.Pareto(scale, pos), scale.detach() + I.rand(3, grad=False)),
        ("Weibull", lambda: D.Weibull(scale, pos), I.rand(3, grad=False, low=0.1, high=3)),
        ("Bernoulli", lambda: D.Bernoulli(probs), I.tensor([1.0, 0.0, 1.0])),
        ("Bernoulli/logits", lambda: D.Bernoulli(logits=loc), I.tensor([0.0, 0.0, 1.0])),
        ("ContinuousBernoulli", lambda: D.ContinuousBernoulli(probs), I.rand(3, grad=False)),
        ("Binomial", lambda: D.Binomial(5, probs), I.tensor([0.0, 3.0, 5.0])),
        ("Binomial/tensor count", lambda: D.Binomial(I.tensor([4.0, 6.0, 2.0]), probs), I.tensor([1.0, 6.0, 0.0])),
        ("Geometric", lambda: D.Geometric(probs), I.tensor([0.0, 2.0, 5.0])),
        ("NegativeBinomial", lambda: D.NegativeBinomial(pos * 2, probs), I.tensor([0.0, 2.0, 5.0])),
        ("Poisson", lambda: D.Poisson(pos), I.tensor([0.0, 2.0, 5.0])),
        ("Categorical", lambda: D.Categorical(simplex), I.tensor([3, 0])),
        ("Categorical/logits", lambda: D.Categorical(logits=simplex), I.tensor([1, 2])),
        ("OneHotCategorical", lambda: D.OneHotCategorical(simplex), I.tensor([[0.0, 1, 0, 0], [0, 0, 0, 1]])),
        ("Multinomial", lambda: D.Multinomial(6, simplex), I.tensor([[1.0, 2, 3, 0], [0, 0, 6, 0]])),
        (
            "RelaxedBernoulli",
            lambda: D.RelaxedBernoulli(I.tensor(0.5), probs),
            I.rand(3, grad=False, low=0.1, high=0.9),
        ),
        (
            "RelaxedOneHotCategorical",
            lambda: D.RelaxedOneHotCategorical(I.tensor(0.7), simplex),
            I.rand(2, 4, grad=False, low=0.1, high=1).softmax(-1),
        ),
        (
            "MultivariateNormal/scale_tril",
            lambda: D.MultivariateNormal(loc, scale_tril=tril),
            I.randn(2, 3, grad=False),
        ),
        (
            "MultivariateNormal/covariance",
            lambda: D.MultivariateNormal(loc, covariance_matrix=tril @ tril.t()),
            I.randn(2, 3, grad=False),
        ),
        (
            "MultivariateNormal/precision",
            lambda: D.MultivariateNormal(loc, precision_matrix=tril @ tril.t()),
            I.randn(3, grad=False),
        ),
        (
            "LowRankMultivariateNormal",
            lambda: D.LowRankMultivariateNormal(loc, cov_factor, pos),
            I.randn(2, 3, grad=False),
        ),
        ("Independent", lambda: D.Independent(D.Normal(loc, scale), 1), I.randn(3, grad=False)),
        (
            "MixtureSameFamily",
            lambda: D.MixtureSameFamily(D.Categorical(probs), D.Normal(loc, scale)),
            I.randn(4, grad=False),
        ),
        (
            "TransformedDistribution",
            lambda: D.TransformedDistribution(D.Normal(loc, scale), [T.AffineTransform(1.0, 2.0), T.ExpTransform()]),
            I.rand(3, grad=False, low=0.5, high=5),
        ),
        ("LogisticNormal", lambda: D.LogisticNormal(loc, scale), I.rand(4, grad=False, low=0.1, high=1).softmax(-1)),
        (
            "StickBreaking/Sigmoid/Tanh transforms",
            lambda: D.TransformedDistribution(
                D.Normal(loc, scale), [T.TanhTransform(), T.SigmoidTransform(), T.PowerTransform(I.tensor(2.0))]
            ),
            I.rand(3, grad=False, low=0.3, high=0.5),
        ),
    ]


@case
def distributions_on_the_device():
    """log_prob, cdf, entropy and moments compared with the CPU; samples (other numbers on a
    GPU) checked for their device, shape and support."""
    names = [name for name, _, _ in _distributions(_Maker(torch.device("cpu")))]

    def program(name, d):
        I = _Maker(d)
        _, make, value = [entry for entry in _distributions(I) if entry[0] == name][0]
        dist = make()
        outs = [dist.log_prob(value)]
        for method in ("cdf", "entropy", "mean", "variance"):
            try:
                got = getattr(dist, method)(value) if method == "cdf" else getattr(dist, method)
                if method != "cdf":
                    got = got() if callable(got) else got
            except NotImplementedError:
                continue
            outs.append(got)
        try:
            if dist.has_enumerate_support:
                outs += [dist.enumerate_support(), dist.enumerate_support(expand=False)]
        except NotImplementedError:  # Binomial with counts that differ, as in PyTorch
            pass
        try:
            outs.append(dist.icdf(torch.full(dist.batch_shape, 0.3).to(value.device)))
        except (NotImplementedError, AttributeError):
            pass
        if tuple(value.shape) == tuple(dist.batch_shape + dist.event_shape):
            outs.append(dist.expand((2,) + dist.batch_shape).log_prob(value))
        sample = dist.rsample((2,)) if dist.has_rsample else dist.sample((2,))
        assert sample.device == value.device, "%s sampled on %s" % (name, sample.device)
        assert sample.shape == (2,) + dist.batch_shape + dist.event_shape, sample.shape
        assert bool(dist.support.check(sample).all()), "a sample is outside the support"
        if dist.has_rsample:
            sample.sum().backward(retain_graph=True)
        outs = [o.detach() if not o.requires_grad else o for o in outs]
        _backward([o for o in outs if o.requires_grad], I)
        return outs + [x.grad for x in I.leaves]

    _compare_table([(n, n) for n in names], program, rtol=1e-4, atol=1e-5)


@case
def transforms_on_the_device():
    D = torch.distributions
    T = D.transforms

    def program(d):
        I = _Maker(d)
        x, v = I.randn(2, 3), I.randn(2, 4)
        m = I.randn(2, 3, 3)
        cases = [
            (T.AbsTransform(), x),
            (T.ExpTransform(), x),
            (T.AffineTransform(I.randn(3), 2.0), x),
            (T.PowerTransform(I.tensor(3.0)), x.abs() + 0.1),
            (T.SigmoidTransform(), x),
            (T.TanhTransform(), x),
            (T.SoftplusTransform(), x),
            (T.SoftmaxTransform(), x),
            (T.StickBreakingTransform(), x),
            (T.LowerCholeskyTransform(), m),
            (T.ReshapeTransform((2, 2), (4,)), v.reshape(2, 2, 2)),
            (T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.ExpTransform()]), x),
            (T.IndependentTransform(T.ExpTransform(), 1), x),
            (T.CumulativeDistributionTransform(D.Normal(I.randn(3), I.rand(3, low=0.5, high=2))), x),
        ]
        outs = []
        for t, value in cases:
            y = t(value)
            outs.append(y)
            if t.bijective and not isinstance(t, (T.AbsTransform, T.LowerCholeskyTransform, T.SoftmaxTransform)):
                outs.append(t.inv(y))
                try:
                    outs.append(t.log_abs_det_jacobian(value, y))
                except NotImplementedError:
                    pass
        _backward(outs, I)
        st = D.OneHotCategoricalStraightThrough(logits=I.randn(2, 4))
        sample = st.rsample((3,))
        assert sample.device == x.device and bool((sample.sum(-1) == 1).all())
        grads = [t.grad for t in I.leaves if t.grad is not None]
        return outs + [st.log_prob(I.tensor([[0.0, 1, 0, 0], [1, 0, 0, 0]]))] + grads

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-5)


@case
def kl_divergences_on_the_device():
    D = torch.distributions

    def program(d):
        I = _Maker(d)
        loc, scale, probs = I.randn(3), I.rand(3, low=0.5, high=2), I.rand(3, low=0.1, high=0.9)
        pairs = [
            (D.Normal(loc, scale), D.Normal(loc * 2, scale + 1)),
            (D.Bernoulli(probs), D.Bernoulli(probs.flip(0))),
            (D.Categorical(probs), D.Categorical(probs.flip(0))),
            (D.Gamma(scale, scale + 1), D.Gamma(scale + 1, scale)),
            (D.Beta(scale, scale + 1), D.Beta(scale + 1, scale)),
            (D.Exponential(scale), D.Exponential(scale + 1)),
            (D.Laplace(loc, scale), D.Laplace(loc + 1, scale)),
            (D.Uniform(loc - 1, loc + 1), D.Normal(loc, scale)),
            (D.Poisson(scale), D.Poisson(scale + 1)),
            (D.Dirichlet(scale), D.Dirichlet(scale + 1)),
            (
                D.MultivariateNormal(loc, torch.eye(3).to(d) * 2),
                D.MultivariateNormal(loc * 0.5, torch.eye(3).to(d) + 0.5),
            ),
        ]
        kls = [D.kl_divergence(p, q) for p, q in pairs]
        sum(k.sum() for k in kls).backward()
        return kls + [x.grad for x in I.leaves]

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-5)


class _CudaDataset(torch.utils.data.Dataset):
    """Items made on the device (as a dataset that preloads to the GPU does)."""

    def __init__(self, data, labels):
        self.data, self.labels = data.cuda(), labels.cuda()

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return {"x": self.data[i], "y": self.labels[i], "i": i}


@case
def data_loaders_feed_the_device():
    data = torch.utils.data
    g = torch.Generator().manual_seed(5)
    x, y = torch.randn(10, 3, generator=g), torch.randint(0, 3, (10,), generator=g)

    def program(d):
        torch.manual_seed(0)
        model = nn.Linear(3, 3).to(d)
        opt = optim.SGD(model.parameters(), lr=0.1)
        dataset = data.TensorDataset(x, y)
        train, _ = data.random_split(dataset, [8, 2], generator=torch.Generator().manual_seed(1))
        losses = []
        for workers in (0, 2):
            loader = data.DataLoader(
                train, batch_size=3, shuffle=True, num_workers=workers, generator=torch.Generator().manual_seed(2)
            )
            for xb, yb in loader:
                assert not xb.is_cuda
                xb, yb = xb.to(d, non_blocking=True), yb.to(d)
                opt.zero_grad()
                loss = F.cross_entropy(model(xb), yb)
                loss.backward()
                opt.step()
                losses.append(loss.detach())
        weights = torch.tensor([0.1, 0.2, 3.0, 0.5, 0.1, 0.1, 0.1, 0.9, 1, 1]).to(d)
        sampler = data.WeightedRandomSampler(weights, 6, generator=torch.Generator().manual_seed(3))
        for xb, yb in data.DataLoader(dataset, batch_size=2, sampler=sampler):
            losses.append(F.cross_entropy(model(xb.to(d)), yb.to(d)).detach())
        return losses + list(model.parameters())

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-6)
    # items already on the device are collated there
    batches = list(torch.utils.data.DataLoader(_CudaDataset(x, y), batch_size=4))
    assert all(b["x"].is_cuda and b["y"].is_cuda and not b["i"].is_cuda for b in batches)
    same(batches[0]["x"], x[:4])
    same(torch.utils.data.default_collate([x[0].cuda(), x[1].cuda()]), x[:2])
    # pin_memory asks for page-locked batches; with a GPU present they still carry the values
    for xb, yb in torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=5, pin_memory=True):
        same(xb.cuda(non_blocking=True), x[:5]) if yb[0] == y[0] else None
        break


@case
def autograd_functional_on_the_device():
    AF = torch.autograd.functional

    def f(a, b):
        return (a.sin() * b).sum(0) + a.pow(3).mean()

    def scalar(a):
        return (a.exp() * a).sum() + a.prod()

    def program(d):
        I = _Maker(d)
        a, b = I.randn(3, 2, grad=False), I.randn(3, 2, grad=False)
        v2, v3 = I.randn(2, grad=False), I.randn(3, 2, grad=False)
        outs = _tensors(AF.jacobian(f, (a, b)))
        outs += _tensors(AF.jacobian(f, (a, b), vectorize=True, create_graph=True))
        outs += _tensors(AF.jacobian(lambda a: f(a, b), a, strategy="forward-mode", vectorize=True))
        outs += _tensors(AF.hessian(scalar, a))
        outs += _tensors(AF.hessian(scalar, a, vectorize=True, outer_jacobian_strategy="forward-mode"))
        outs += _tensors(AF.vjp(f, (a, b), v2))
        outs += _tensors(AF.jvp(f, (a, b), (v3, v3)))
        outs += _tensors(AF.hvp(scalar, a, v3))
        outs += _tensors(AF.vhp(scalar, a, v3))
        return outs

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-5)
    x = torch.randn(3, dtype=torch.float64, device="cuda", requires_grad=True)
    w = torch.randn(3, 3, dtype=torch.float64, device="cuda", requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, w: (w @ x).tanh(), (x, w))
    assert torch.autograd.gradcheck(lambda x: x.exp().cumsum(0), (x,), fast_mode=True)
    assert torch.autograd.gradgradcheck(lambda x, w: (w @ x).sin(), (x, w))
    # and a wrong gradient is caught on the device (_Double's backward, for x * 3)
    version = x._version
    _Double.forward = staticmethod(lambda ctx, x: x * 3)
    try:
        for fast in (False, True):
            assert not torch.autograd.gradcheck(_Double.apply, (x,), raise_exception=False, fast_mode=fast)
    finally:
        _Double.forward = staticmethod(lambda ctx, x: x * 2)
    assert x.grad is None and x._version == version  # the inputs are left as they were


@case
def nn_init_on_the_device():
    init = torch.nn.init

    # deterministic ones are compared with the CPU
    def program(d):
        return [
            init.constant_(torch.empty(3, 4, device=d), 0.3),
            init.ones_(torch.empty(3, device=d)),
            init.zeros_(torch.empty(2, 2, device=d)),
            init.eye_(torch.empty(3, 5, device=d)),
            init.dirac_(torch.empty(4, 2, 3, 3, device=d), groups=2),
        ]

    for got, want in both(program):
        same(got, want)
    # random ones draw on the device (other numbers on a GPU): where they live and what holds
    failed = []
    for name, fill, holds in [
        ("uniform_", lambda t: init.uniform_(t, -0.5, 0.5), lambda t: t.abs().max() <= 0.5),
        ("normal_", lambda t: init.normal_(t, 2.0, 0.1), lambda t: (t.mean() - 2).abs() < 0.1),
        ("trunc_normal_", lambda t: init.trunc_normal_(t, 0, 1, -0.5, 0.5), lambda t: t.abs().max() <= 0.5),
        ("xavier_uniform_", init.xavier_uniform_, lambda t: t.abs().max() <= (6 / (64 + 48)) ** 0.5),
        ("xavier_normal_", init.xavier_normal_, lambda t: t.std() < 1),
        ("kaiming_uniform_", lambda t: init.kaiming_uniform_(t, a=5**0.5), lambda t: t.abs().max() <= 1),
        ("kaiming_normal_", lambda t: init.kaiming_normal_(t, mode="fan_out"), lambda t: t.std() < 1),
        (
            "orthogonal_",
            init.orthogonal_,
            lambda t: torch.allclose(t @ t.t(), torch.eye(48, device=t.device), atol=1e-4),
        ),
        ("sparse_", lambda t: init.sparse_(t, 0.5), lambda t: ((t == 0).sum(0) >= 24).all()),
    ]:
        try:
            t = torch.empty(48, 64, device="cuda")
            assert fill(t) is t and t.is_cuda, "not filled in place on the device"
            assert bool(holds(t)), "the values are off"
        except Exception as e:
            failed.append("%s: %s: %s" % (name, type(e).__name__, e))
    assert not failed, "\n".join(failed)
    assert init.calculate_gain("leaky_relu", 0.2) == (2 / 1.04) ** 0.5


@case
def linalg_on_the_device():
    L = torch.linalg

    def program(d):
        I = _Maker(d)
        a = I.randn(4, 4)
        spd = I.randn(4, 4, grad=False)
        spd = (spd @ spd.t() + 4 * torch.eye(4).to(d)).requires_grad_()
        I.leaves.append(spd)
        b = I.randn(4, 2)
        rect = I.randn(5, 3)
        batch = I.randn(2, 3, 3)
        q, r = L.qr(rect)
        u, s, vh = L.svd(rect, full_matrices=False)
        w, v = L.eigh(spd)
        lu, piv = L.lu_factor(a)
        p, l, uu = L.lu(a)
        sign, logabsdet = L.slogdet(a)
        outs = [
            L.norm(a),
            L.norm(a, "fro"),
            L.norm(a, 2),
            L.norm(b, dim=0),
            L.vector_norm(a, 3, dim=1),
            L.vector_norm(a, float("inf")),
            L.matrix_norm(a, "nuc"),
            L.matrix_norm(batch, 1),
            L.det(a),
            L.det(batch),
            sign,
            logabsdet,
            L.inv(a),
            L.inv_ex(a).inverse,
            L.pinv(rect),
            L.pinv(spd, hermitian=True),
            L.solve(a, b),
            L.solve_ex(a, b).result,
            L.lstsq(rect, I.randn(5, 2)).solution,
            L.cholesky(spd),
            L.cholesky_ex(spd).L,
            q @ r,
            (u * s) @ vh,
            s,
            L.svdvals(rect),
            w,
            (v * w) @ v.t(),
            L.eigvalsh(spd, UPLO="U"),
            L.matrix_rank(rect),
            L.matrix_rank(spd, hermitian=True),
            L.matrix_power(a, 3),
            L.matrix_power(spd, -2),
            L.matrix_exp(batch * 0.3),
            L.cross(I.randn(4, 3), I.randn(4, 3)),
            L.multi_dot([rect, I.randn(3, 4), b]),
            L.lu_solve(lu, piv, b),
            p @ l @ uu,
            L.solve_triangular(torch.tril(spd), b, upper=False),
            L.tensorinv(I.randn(4, 2, 2), ind=1),
            L.tensorsolve(I.randn(2, 3, 6), I.randn(2, 3)),
            L.cond(a),
            L.cond(spd, "fro"),
            L.vander(I.randn(4), N=3),
            L.vecdot(a, b.t().repeat(2, 1)),
            L.diagonal(batch, offset=1),
            L.matmul(a, b),
        ]
        _backward([o for o in outs if o.requires_grad], I)
        return outs + [x.grad for x in I.leaves]

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-5)
    # PyTorch refuses operands on two devices
    raises(lambda: L.solve(torch.eye(2, device="cuda"), torch.ones(2, 1)), [MIXED])


_TORCH_FUNCTIONS = [
    ("nan_to_num", lambda I: torch.nan_to_num(I.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), 0.5, 9.0)),
    ("float_power", lambda I: [torch.float_power(I.rand(3, low=0.5), 2.5), torch.float_power(2, I.randn(3))]),
    (
        "combinations",
        lambda I: [torch.combinations(I.randn(4)), torch.combinations(I.randn(3), 2, with_replacement=True)],
    ),
    ("block_diag", lambda I: torch.block_diag(I.randn(2, 3), I.randn(1, 1), I.randn(2))),
    ("vander", lambda I: torch.vander(I.randn(4), 3, increasing=True)),
    ("cummax/cummin", lambda I: [*torch.cummax(I.randn(3, 4), 1), *torch.cummin(I.randn(5), 0)]),
    ("logcumsumexp", lambda I: torch.logcumsumexp(I.randn(3, 4), 1)),
    (
        "searchsorted",
        lambda I: [
            torch.searchsorted(I.tensor([1.0, 3, 5, 7]), I.tensor([[0.0, 3, 8], [5, 6, 1]])),
            torch.searchsorted(I.tensor([1.0, 3, 5, 7]), 4.0, right=True),
            torch.bucketize(I.tensor([0.5, 3, 9]), I.tensor([1.0, 3, 5]), out_int32=True),
        ],
    ),
    (
        "bincount",
        lambda I: [
            torch.bincount(I.tensor([0, 2, 2, 5])),
            torch.bincount(I.tensor([1, 1, 3]), I.tensor([0.5, 1, 2]), minlength=6),
        ],
    ),
    ("histc", lambda I: torch.histc(I.randn(20), 5, -2, 2)),
    (
        "quantile",
        lambda I: [
            torch.quantile(I.randn(3, 5), 0.3, dim=1),
            torch.quantile(I.randn(7), I.tensor([0.1, 0.9])),
            torch.nanquantile(I.tensor([1.0, float("nan"), 3]), 0.5),
        ],
    ),
    (
        "median/nanmedian/mode",
        lambda I: [
            torch.median(I.randn(5)),
            torch.nanmedian(I.tensor([1.0, float("nan"), 3, 2])),
            *torch.mode(I.tensor([1, 2, 2, 3])),
        ],
    ),
    (
        "cov/corrcoef",
        lambda I: [
            torch.cov(I.randn(3, 6)),
            torch.cov(I.randn(2, 5), fweights=I.tensor([1, 2, 1, 3, 1]), aweights=I.rand(5, grad=False)),
            torch.corrcoef(I.randn(3, 5)),
        ],
    ),
    (
        "unique",
        lambda I: [
            *torch.unique(I.tensor([3, 1, 3, 2, 1]), return_inverse=True, return_counts=True),
            *torch.unique(I.tensor([[1, 2], [1, 2], [0, 1]]), dim=0, return_inverse=True),
        ],
    ),
    (
        "unique_consecutive",
        lambda I: [
            *torch.unique_consecutive(I.tensor([1, 1, 2, 2, 3, 1]), return_inverse=True, return_counts=True),
            torch.unique_consecutive(I.tensor([[1, 1], [1, 1], [2, 0]]), dim=0),
        ],
    ),
    (
        "isin",
        lambda I: [torch.isin(I.tensor([1, 2, 3, 4]), I.tensor([2, 4])), torch.isin(I.tensor([1, 2]), 2, invert=True)],
    ),
    ("pdist/cdist", lambda I: [torch.pdist(I.randn(4, 3)), torch.cdist(I.randn(2, 4, 3), I.randn(2, 5, 3), p=1.5)]),
    (
        "windows",
        lambda I: (
            [
                f(5, device=I.d)
                for f in (
                    torch.hann_window,
                    torch.hamming_window,
                    torch.blackman_window,
                    torch.bartlett_window,
                    torch.kaiser_window,
                )
            ]
            + [torch.hann_window(1, device=I.d), torch.kaiser_window(6, False, 8.0, device=I.d)]
        ),
    ),
    (
        "slice_scatter/diagonal_scatter",
        lambda I: [
            torch.slice_scatter(I.randn(4, 3), I.randn(2, 3), 0, 1, 3),
            torch.diagonal_scatter(I.randn(3, 4), I.randn(3), 1),
        ],
    ),
    ("select_scatter", lambda I: torch.select_scatter(I.randn(3, 4), I.randn(4), 0, 1)),
    (
        "meshgrid/cartesian_prod",
        lambda I: [
            *torch.meshgrid(I.randn(2), I.randn(3), indexing="xy"),
            torch.cartesian_prod(I.randn(2), I.randn(3)),
        ],
    ),
    (
        "einsum/tensordot/kron",
        lambda I: [
            torch.einsum("ij,jk->ik", I.randn(2, 3), I.randn(3, 4)),
            torch.tensordot(I.randn(2, 3, 4), I.randn(3, 4, 2)),
            torch.kron(I.randn(2, 2), I.randn(2, 3)),
        ],
    ),
    (
        "tril/triu_indices",
        lambda I: [torch.tril_indices(3, 4, 1, device=I.d), torch.triu_indices(4, 3, -1, device=I.d)],
    ),
    (
        "diff/gradient/trapz",
        lambda I: [
            torch.diff(I.randn(5), 2, prepend=I.randn(1)),
            *torch.gradient(I.randn(4, 5), spacing=2.0),
            torch.trapezoid(I.randn(5), I.tensor([0.0, 1, 3, 4, 6])),
            torch.cumulative_trapezoid(I.randn(5)),
        ],
    ),
    (
        "rot90/roll/flip",
        lambda I: [
            torch.rot90(I.randn(2, 3), 1),
            torch.roll(I.randn(3, 4), (1, -1), (0, 1)),
            torch.fliplr(I.randn(2, 3)),
        ],
    ),
    (
        "atleast/broadcast",
        lambda I: [
            torch.atleast_3d(I.randn(2)),
            *torch.broadcast_tensors(I.randn(3, 1), I.randn(4)),
            torch.broadcast_to(I.randn(3), (2, 3)),
        ],
    ),
    (
        "chain_matmul/lu_unpack",
        lambda I: [
            torch.chain_matmul(I.randn(2, 3), I.randn(3, 3), I.randn(3, 1)),
            *torch.lu_unpack(*torch.linalg.lu_factor(I.randn(3, 3))),
        ],
    ),
    ("std_mean/var_mean", lambda I: [*torch.std_mean(I.randn(3, 4), 1), *torch.var_mean(I.randn(5), unbiased=False)]),
    (
        "sort/topk/kthvalue",
        lambda I: [
            *torch.sort(I.randn(5), descending=True),
            *torch.topk(I.randn(3, 5), 2),
            *torch.kthvalue(I.randn(6), 3),
            torch.argsort(I.randn(4), stable=True),
        ],
    ),
    (
        "take_along_dim/gather",
        lambda I: [
            torch.take_along_dim(I.randn(3, 4), I.tensor([[0], [2], [1]]), 1),
            torch.gather(I.randn(3, 4), 1, I.tensor([[3, 0], [1, 1], [2, 0]])),
        ],
    ),
    (
        "index_add",
        lambda I: [
            torch.index_add(I.randn(4, 2), 0, I.tensor([0, 3, 0]), I.randn(3, 2), alpha=2),
        ],
    ),
    (
        "renorm/clamp/where",
        lambda I: [
            torch.renorm(I.randn(3, 4), 2, 0, 1.0),
            torch.clamp(I.randn(4), I.randn(4), I.randn(4) + 2),
            torch.where(I.randn(4) > 0, I.randn(4), 0.5),
        ],
    ),
    (
        "count_nonzero/nonzero/argwhere",
        lambda I: [
            torch.count_nonzero(I.tensor([[0, 1], [2, 0]]), 1),
            torch.nonzero(I.tensor([0, 3, 0, 4])),
            torch.argwhere(I.tensor([[1, 0], [0, 1]])),
        ],
    ),
    (
        "norm",
        lambda I: [
            torch.norm(I.randn(3, 4)),
            torch.norm(I.randn(3, 4), p=1, dim=1),
            torch.norm(I.randn(3, 3), p="fro", dim=(0, 1)),
        ],
    ),
    (
        "cross/dist/cosine",
        lambda I: [torch.cross(I.randn(2, 3), I.randn(2, 3), dim=1), torch.dist(I.randn(4), I.randn(4), 3)],
    ),
    ("nextafter", lambda I: torch.nextafter(I.randn(4, grad=False), I.tensor([0.0, 1e9, -1e9, 0.0]))),
    (
        "asarray",
        lambda I: [torch.asarray([1.0, 2.0], device=I.d), torch.asarray(np.ones(3), device=I.d, dtype=torch.float32)],
    ),
    (
        "frexp/ldexp/copysign",
        lambda I: [
            *torch.frexp(I.randn(4, grad=False)),
            torch.ldexp(I.randn(4), I.tensor([1, 2, 0, -1])),
            torch.copysign(I.randn(4), -1.0),
        ],
    ),
    (
        "randperm-free: arange/linspace/logspace",
        lambda I: [torch.logspace(0, 2, 5, device=I.d), torch.arange(0, 1, 0.25, device=I.d)],
    ),
]


@case
def torch_functions_run_on_the_device():
    def program(fn, d):
        I = _Maker(d)
        outs = _tensors(fn(I))
        _backward(outs, I)
        return outs + [x.grad for x in I.leaves]

    _compare_table(_TORCH_FUNCTIONS, program)
    # PyTorch refuses operands on two devices
    on_gpu = torch.tensor([1.0, 2.0, 3.0], device="cuda")
    raises(lambda: torch.quantile(on_gpu, torch.tensor([0.5])), ["q tensor must be on the same device as the input"])
    raises(lambda: torch.searchsorted(on_gpu, torch.tensor([2.5])), ["should have same device type"])
    raises(lambda: torch.bincount(torch.tensor([0, 1], device="cuda"), torch.ones(2)), [MIXED])


@case
def tensor_methods_in_python_on_the_device():
    def program(d):
        a = torch.zeros(4, 3).to(d).fill_diagonal_(2.5)
        b = torch.zeros(7, 3).to(d).fill_diagonal_(1.0, wrap=True)
        c = torch.zeros(3, 3, 3).to(d).fill_diagonal_(-1.0)
        return [a, b, c]

    for got, want in both(program):
        same(got, want)
    x = torch.ones(2, device="cuda")
    raises(lambda: x.apply_(lambda v: v), ["apply_ is only implemented on CPU tensors"], TypeError)
    raises(lambda: x.map_(x, lambda a, b: a), ["map_ is only implemented on CPU tensors"], TypeError)
    raises(lambda: x.map2_(x, x, lambda a, b, c: a), ["map2_ is only implemented on CPU tensors"], TypeError)


@case
def sync_batch_norm_trains_on_the_device():
    import os
    import shutil
    import tempfile

    import torch.distributed as dist

    folder = tempfile.mkdtemp()
    dist.init_process_group("gloo", init_method="file://" + os.path.join(folder, "store"), rank=0, world_size=1)
    try:

        def program(d):
            torch.manual_seed(0)
            sync = nn.SyncBatchNorm(3).to(d)
            plain = nn.BatchNorm1d(3).to(d)
            x = torch.randn(4, 3, 5).to(d).requires_grad_()
            out = sync(x)
            (out * torch.arange(60.0).reshape(4, 3, 5).to(d)).sum().backward()
            return [out, plain(x.detach()), x.grad, sync.weight.grad, sync.running_mean, sync.running_var]

        results = both(program)
        for got, want in results:
            same(got, want, rtol=1e-4, atol=1e-5)
        same(results[0][0], results[1][0].cpu(), rtol=1e-4, atol=1e-5)  # as a plain batch norm
    finally:
        dist.destroy_process_group()
        shutil.rmtree(folder, ignore_errors=True)


@case
def data_parallel_on_one_device():
    def program(d):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
        x = torch.randn(6, 3, requires_grad=True)  # on the CPU: DataParallel moves it
        if d.type == "cuda":
            wrapped = nn.DataParallel(model)  # all visible devices: one here
            assert wrapped.device_ids == [0] and next(model.parameters()).is_cuda
            out = wrapped(x)
            via_function = nn.parallel.data_parallel(model, x, device_ids=[0])
        else:
            out = model(x)
            via_function = model(x)
        out.pow(2).sum().backward()
        assert x.grad.device.type == "cpu"  # the move is differentiable
        return [out, via_function, x.grad.to(d)] + [p.grad for p in model.parameters()] + list(model.buffers())

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-6)
    wrapped = nn.DataParallel(nn.Linear(2, 2), device_ids=[torch.device("cuda:0")], output_device=0)
    wrapped.module.cpu()
    raises(lambda: wrapped(torch.ones(1, 2)), ["module must have its parameters and buffers on device cuda:0"])


@case
def distributed_data_parallel_on_the_device():
    import os
    import shutil
    import tempfile

    import torch.distributed as dist

    folder = tempfile.mkdtemp()
    dist.init_process_group("gloo", init_method="file://" + os.path.join(folder, "store"), rank=0, world_size=1)
    try:

        def program(d):
            torch.manual_seed(0)
            model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).to(d)
            ddp = nn.parallel.DistributedDataParallel(model, device_ids=[0] if d.type == "cuda" else None)
            opt = optim.SGD(ddp.parameters(), lr=0.1)
            x = torch.randn(5, 3)  # on the CPU: with device_ids, DDP moves it
            losses = []
            for _ in range(2):
                opt.zero_grad()
                loss = ddp(x if d.type == "cuda" else x.to(d)).pow(2).sum()
                loss.backward()
                opt.step()
                losses.append(loss.detach())
            return losses + [p.grad for p in model.parameters()] + list(model.parameters())

        for got, want in both(program):
            same(got, want, rtol=1e-4, atol=1e-6)
        raises(
            lambda: nn.parallel.DistributedDataParallel(nn.Linear(2, 2), device_ids=[0]),
            ["device_ids and output_device arguments only work with single-device/multiple-device GPU modules"],
            ValueError,
        )
    finally:
        dist.destroy_process_group()
        shutil.rmtree(folder, ignore_errors=True)


@case
def cpu_indices_serve_device_tensors():
    def program(d):
        a = torch.arange(12.0).reshape(3, 4).to(d)
        mask = torch.tensor([[True, False, True, False], [False] * 4, [True] * 4])  # on the CPU
        rows = torch.tensor([True, False, True])
        b = a.clone()
        b[mask] = -1.0
        b[rows, 1] = torch.tensor([5.0, 6.0]).to(d)
        c = a.clone()
        c[torch.tensor([0, 2]), torch.tensor([3, 0])] += 10
        return [a[mask], a[rows], a[:, torch.tensor([3, 1])], b, c]

    for got, want in both(program):
        same(got, want)
    # a CPU tensor refuses indices on a GPU, as in PyTorch
    raises(
        lambda: torch.ones(3)[torch.tensor([0], device="cuda")],
        ["indices should be either on cpu or on the same device as the indexed tensor (cpu)"],
        IndexError,
    )


@case
def backward_checks_devices_of_seeds_and_hooks():
    x = torch.ones(3, device="cuda", requires_grad=True)
    y = x * 2
    raises(
        lambda: torch.autograd.grad(y, x, torch.ones(3), retain_graph=True),
        ["invalid gradient at index 0 - expected device cuda:0 but got cpu"],
    )
    # a 0-dim seed is moved to its output's device, as in PyTorch
    (g,) = torch.autograd.grad(y.sum(), x, torch.tensor(0.5), retain_graph=True)
    same(g, torch.full((3,), 1.0))
    y.sum().backward(torch.tensor(2.0))
    same(x.grad, torch.full((3,), 4.0))

    def to_host(grad):
        return grad.cpu()

    z = torch.ones(3, device="cuda", requires_grad=True)
    z.register_hook(to_host)
    raises(
        lambda: (z * 2).sum().backward(),
        ["hook 'to_host' has changed the type of value (was CUDAFloatType got CPUFloatType)"],
    )
    w = torch.ones(3, device="cuda", requires_grad=True)
    w.register_hook(lambda grad: grad[:2])
    raises(lambda: (w * 2).sum().backward(), ["hook '<lambda>' has changed the size of value"])
    # .grad is assigned only a tensor on the same device
    v = torch.ones(3, device="cuda", requires_grad=True)

    def assign(grad):
        v.grad = grad

    raises(lambda: assign(torch.zeros(3)), ["assigned grad has data located on a different device"])
    raises(
        lambda: torch.nn.Linear(2, 2).weight.__setattr__("grad", torch.zeros(2, 2, device="cuda")), ["different device"]
    )
    assign(torch.zeros(3, device="cuda"))
    assert v.grad.is_cuda


@case
def testing_export_and_sharing_take_device_tensors():
    x = torch.randn(2, 3, device="cuda")
    torch.testing.assert_close(x, x.clone())
    torch.testing.assert_close(x, x.cpu(), check_device=False)
    raises(
        lambda: torch.testing.assert_close(x, x.cpu()),
        ["The values for attribute 'device' do not match"],
        AssertionError,
    )
    raises(lambda: torch.testing.assert_close(x, x + 1), ["Tensor-likes are not close!"], AssertionError)
    # a CUDA model exports as its CPU copy does
    try:
        import onnx  # noqa: F401
    except ImportError:
        onnx = None
    if onnx is not None:
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
        files = []
        for example in (x.cpu(), x):
            buf = io.BytesIO()
            torch.onnx.export(model.to(example.device), example, buf)
            files.append(buf.getvalue())
        assert files[0] == files[1]
    # shared memory is a CPU notion: a no-op on the device, as in PyTorch
    assert x.share_memory_() is x and x.is_cuda and x.storage().share_memory_().is_cuda


@case
def modules_made_with_device_and_dtype():
    """device=/dtype= of the constructors put every parameter and buffer there."""
    ctors = {
        "Linear": lambda **k: nn.Linear(3, 4, **k),
        "Bilinear": lambda **k: nn.Bilinear(2, 3, 4, **k),
        "Conv1d": lambda **k: nn.Conv1d(2, 3, 3, **k),
        "Conv2d": lambda **k: nn.Conv2d(2, 3, 3, **k),
        "Conv3d": lambda **k: nn.Conv3d(2, 3, 3, **k),
        "ConvTranspose2d": lambda **k: nn.ConvTranspose2d(2, 3, 3, **k),
        "Embedding": lambda **k: nn.Embedding(5, 3, **k),
        "EmbeddingBag": lambda **k: nn.EmbeddingBag(5, 3, **k),
        "BatchNorm1d": lambda **k: nn.BatchNorm1d(3, **k),
        "BatchNorm2d": lambda **k: nn.BatchNorm2d(3, **k),
        "SyncBatchNorm": lambda **k: nn.SyncBatchNorm(3, **k),
        "InstanceNorm1d": lambda **k: nn.InstanceNorm1d(3, affine=True, track_running_stats=True, **k),
        "LayerNorm": lambda **k: nn.LayerNorm(3, **k),
        "GroupNorm": lambda **k: nn.GroupNorm(1, 3, **k),
        "PReLU": lambda **k: nn.PReLU(**k),
        "MultiheadAttention": lambda **k: nn.MultiheadAttention(4, 2, add_bias_kv=True, kdim=3, vdim=3, **k),
        "RNN": lambda **k: nn.RNN(3, 4, **k),
        "LSTM": lambda **k: nn.LSTM(3, 4, proj_size=2, **k),
        "GRU": lambda **k: nn.GRU(3, 4, bidirectional=True, **k),
        "RNNCell": lambda **k: nn.RNNCell(3, 4, **k),
        "LSTMCell": lambda **k: nn.LSTMCell(3, 4, **k),
        "GRUCell": lambda **k: nn.GRUCell(3, 4, **k),
        "Transformer": lambda **k: nn.Transformer(8, 2, 1, 1, 16, **k),
        "TransformerEncoderLayer": lambda **k: nn.TransformerEncoderLayer(8, 2, 16, **k),
        "TransformerDecoderLayer": lambda **k: nn.TransformerDecoderLayer(8, 2, 16, **k),
        "AdaptiveLogSoftmaxWithLoss": lambda **k: nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], **k),
        "LazyLinear": lambda **k: nn.LazyLinear(3, **k),
        "LazyConv2d": lambda **k: nn.LazyConv2d(3, 3, **k),
        "LazyBatchNorm2d": lambda **k: nn.LazyBatchNorm2d(**k),
    }
    failed = []
    for name, make in ctors.items():
        for kwargs in ({"device": "cuda"}, {"device": torch.device("cuda", 0), "dtype": torch.float64}):
            try:
                m = make(**kwargs)
                for key, t in list(m.named_parameters()) + list(m.named_buffers()):
                    assert t.device == torch.device("cuda", 0), "%s on %s" % (key, t.device)
                    assert not t.is_floating_point() or t.dtype == kwargs.get("dtype", torch.float32), key
            except Exception as e:
                failed.append("%s %s: %s: %s" % (name, kwargs, type(e).__name__, e))
    assert not failed, "\n".join(failed)


@case
def special_functions_on_the_device():
    import inspect

    S = torch.special
    names = [
        n
        for n in dir(S)
        if not n.startswith("_")
        and callable(getattr(S, n))
        and not inspect.isclass(getattr(S, n))
        and not inspect.ismodule(getattr(S, n))
    ]
    g = torch.Generator().manual_seed(4)
    x, y = torch.rand(5, generator=g, dtype=torch.float64) * 0.8 + 0.1, torch.rand(5, generator=g) * 3
    failed, ran = [], 0
    for n in names:
        f = getattr(S, n)
        for args in ((x,), (x, y.double()), (x, 2), (y, 1)):
            try:
                want = f(*args)
            except Exception:
                continue  # not a signature of this function
            ran += 1
            try:
                got = f(*[a.cuda() if torch.is_tensor(a) else a for a in args])
                same(got, want, rtol=1e-6, atol=1e-9)
            except Exception as e:
                failed.append("%s: %s: %s" % (n, type(e).__name__, str(e).strip().splitlines()[-1][:200]))
            break
    assert ran > 30, ran
    assert not failed, "\n".join(failed)


@case
def default_tensor_type_on_the_device():
    """torch.set_default_tensor_type(torch.cuda.FloatTensor): what old scripts call to work
    on the GPU; creation functions without device= make CUDA tensors, as in PyTorch 1.13."""

    def program(d):
        torch.set_default_tensor_type(torch.cuda.FloatTensor if d.type == "cuda" else torch.FloatTensor)
        try:
            torch.manual_seed(0)
            made = [
                torch.zeros(2, 3),
                torch.ones(2, dtype=torch.int64),
                torch.tensor([[1.5, 2.0]]),
                torch.as_tensor(np.arange(3.0)),
                torch.arange(5),
                torch.linspace(0, 1, 4),
                torch.eye(3),
                torch.full((2,), 7.0),
                torch.randn(3),
                torch.rand(2, 2),
                torch.randint(0, 9, (4,)),
                torch.randperm(5),
                torch.Tensor([1, 2]),
                torch.Tensor(2, 3).zero_(),
            ]
            model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
            lstm = nn.LSTM(2, 3)
            opt = optim.Adam(list(model.parameters()) + list(lstm.parameters()), lr=0.01)
            x = torch.randn(5, 3)
            for _ in range(2):
                opt.zero_grad()
                out, _ = lstm(model(x).unsqueeze(1))
                loss = out.pow(2).sum()
                loss.backward()
                opt.step()
            return made + [loss.detach()] + list(model.parameters()) + list(lstm.parameters())
        finally:
            torch.set_default_tensor_type(torch.FloatTensor)

    for got, want in both(program):
        same(got, want, rtol=1e-4, atol=1e-6)
    assert not torch.zeros(1).is_cuda  # restored
    torch.set_default_tensor_type("torch.cuda.DoubleTensor")
    try:
        t = torch.zeros(1)
        assert t.is_cuda and t.dtype == torch.float64
        # the *_like functions and new_* follow their input, not the default
        assert not torch.zeros_like(torch.ones(1, device="cpu")).is_cuda
        assert not torch.ones(1, device="cpu").new_zeros(2).is_cuda
        assert torch.Tensor(2).is_cuda and not torch.DoubleTensor(2).is_cuda  # a typed class is its type
    finally:
        torch.set_default_tensor_type("torch.FloatTensor")
    assert not torch.zeros(1).is_cuda and torch.get_default_dtype() == torch.float32


@case
def checkpoints_resume_across_devices():
    """Train two steps on one device, torch.save model and optimizer, load them with
    map_location on the other and train two more: the same as four steps on the CPU."""
    x, y = torch.randn(6, 3), torch.randn(6, 2)

    def run(model, opt, device, steps):
        for _ in range(steps):
            opt.zero_grad()
            F.mse_loss(model(x.to(device)), y.to(device)).backward()
            opt.step()

    def fresh(device, cls, args):
        torch.manual_seed(0)
        # BatchNorm after a nonlinearity: right after a Linear it would cancel that Linear's
        # bias gradient to rounding noise, which Adam and RMSprop scale up to whole steps
        model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.BatchNorm1d(4), nn.Linear(4, 2)).to(device)
        return model, cls(model.parameters(), **args)

    for cls, args in (
        (optim.SGD, {"lr": 0.1, "momentum": 0.9}),
        (optim.Adam, {"lr": 0.01}),
        (optim.RMSprop, {"lr": 0.01}),
    ):
        ref, ref_opt = fresh("cpu", cls, args)
        run(ref, ref_opt, "cpu", 4)
        for first, second in (("cuda", "cpu"), ("cpu", "cuda")):
            model, opt = fresh(first, cls, args)
            run(model, opt, first, 2)
            buf = io.BytesIO()
            torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
            buf.seek(0)
            saved = torch.load(buf, map_location=second)
            resumed, resumed_opt = fresh(second, cls, args)
            resumed.load_state_dict(saved["model"])
            resumed_opt.load_state_dict(saved["opt"])
            run(resumed, resumed_opt, second, 2)
            for (key, got), (_, want) in zip(resumed.state_dict().items(), ref.state_dict().items()):
                assert got.device.type == second, (cls.__name__, first, key)
                np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-4, atol=1e-6, err_msg=key)


def main():
    if "--stand-in" in sys.argv:
        torch._C._cuda_use_stand_in(composites="--composites" in sys.argv)
    # compared with the CPU to float's tolerance: no TF32 in cuDNN's convolutions (PyTorch's
    # default allows it; the cudnn_switches case checks both)
    torch.backends.cudnn.allow_tf32 = False
    return run_cases(CASES)


def run_cases(cases, after_failure=lambda: None):
    """Runs every case, prints {name: None or the failure's traceback} as JSON (what
    scripts/device_check.sh counts) and returns the exit status; after_failure cleans up."""
    results = {}
    for name, fn in cases.items():
        try:
            fn()
            results[name] = None
        except Exception:
            results[name] = traceback.format_exc(limit=4)
            after_failure()
    print(json.dumps(results))
    return 0 if all(v is None for v in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
