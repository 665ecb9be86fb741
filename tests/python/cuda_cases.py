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
def a_program_choosing_its_device_uses_it():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Linear(3, 2).to(device)
    out = model(torch.ones(4, 3, device=device))
    assert out.is_cuda and next(model.parameters()).is_cuda


def main():
    if "--stand-in" in sys.argv:
        torch._C._cuda_use_stand_in(composites="--composites" in sys.argv)
    # compared with the CPU to float's tolerance: no TF32 in cuDNN's convolutions (PyTorch's
    # default allows it; the cudnn_switches case checks both)
    torch.backends.cudnn.allow_tf32 = False
    results = {}
    for name, fn in CASES.items():
        try:
            fn()
            results[name] = None
        except Exception:
            results[name] = traceback.format_exc(limit=4)
    print(json.dumps(results))
    return 0 if all(v is None for v in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
