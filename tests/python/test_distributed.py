"""torch.distributed on Gloo, over loopback: collectives against numpy on the same per-rank
inputs, DDP against one process over the whole batch, the stores, the init methods, the
launcher, failures (a rank that dies or hangs), and bad input."""

import collections
import json
import os
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta

import numpy as np
import pytest
import torch
import torch.distributed as dist
import torch.nn as nn

from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "distributed_worker.py")
sys.path.insert(0, HERE)
import distributed_worker as worker  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker_env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(HERE, "..", "..", "python"), env.get("PYTHONPATH", "")])
    env["OMP_NUM_THREADS"] = "1"
    env.update({k: str(v) for k, v in extra.items()})
    return env


def start(scenario, world, out_dir, timeout=60, **extra):
    """world processes of scenario, each told its rank through the environment (env://)."""
    port = free_port()
    procs = []
    for rank in range(world):
        env = worker_env(
            RANK=rank,
            WORLD_SIZE=world,
            LOCAL_RANK=rank,
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=port,
            DIST_TEST_TIMEOUT=timeout,
            **extra,
        )
        procs.append(
            subprocess.Popen(
                [sys.executable, WORKER, scenario, str(out_dir)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    return procs, port


def finish(procs, limit=120):
    outputs = []
    for p in procs:
        out, err = p.communicate(timeout=limit)
        outputs.append((p.returncode, out, err))
    return outputs


def results(out_dir, world):
    return [torch.load(os.path.join(out_dir, f"rank{r}.pt")) for r in range(world)]


def run_scenario(scenario, world, out_dir, **extra):
    procs, _ = start(scenario, world, out_dir, **extra)
    for code, out, err in finish(procs):
        assert code == 0, err[-3000:]
    return results(out_dir, world)


def inputs(world, dtype=np.float64, n=6):
    return [worker.rank_input(r, n).numpy().astype(dtype) for r in range(world)]


def run_mpi(scenario, world, out_dir, **extra):
    """world processes of scenario started by Open MPI's mpirun, on the MPI backend."""
    env = worker_env(
        DIST_TEST_INIT="mpi", DIST_TEST_TIMEOUT=60, OMPI_ALLOW_RUN_AS_ROOT=1, OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, **extra
    )
    exported = []
    for name in ("PYTHONPATH", "DIST_TEST_INIT", "DIST_TEST_TIMEOUT", "OMP_NUM_THREADS", *extra):
        exported += ["-x", name]
    run = subprocess.run(
        ["mpirun", "--oversubscribe", "-np", str(world), *exported, sys.executable, WORKER, scenario, str(out_dir)],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    return results(out_dir, world)


@pytest.mark.parametrize("world", [2, 3])
def test_collectives_match_numpy(world, tmp_path):
    check_collectives(run_scenario("collectives", world, tmp_path), world)


@pytest.mark.parametrize("world", [2, 3])
def test_mpi_collectives_match_numpy(world, tmp_path):
    assert dist.is_mpi_available()
    check_collectives(run_mpi("collectives", world, tmp_path), world)


def test_mpi_ddp_equals_one_process(tmp_path):
    got = run_mpi("ddp", 2, tmp_path, DDP_CHECKPOINT=tmp_path / "model.pt")
    _, _, trained, _, _ = single_process_reference(2)
    for r in got:
        for a, b in zip(r["trained"], trained):
            torch.testing.assert_close(a, b, rtol=1e-6, atol=1e-6)


def check_collectives(got, world):
    x = inputs(world)
    reductions = {"SUM": np.sum, "PRODUCT": np.prod, "MIN": np.min, "MAX": np.max}
    for rank, r in enumerate(got):
        assert (r["rank"], r["world"]) == (rank, world)
        for dtype in (torch.float32, torch.float64, torch.int64, torch.int32):
            for op, fn in reductions.items():
                t = r[f"all_reduce {op} {dtype}"]
                assert t.dtype == dtype
                np.testing.assert_allclose(t.double().numpy(), fn(np.stack(x), axis=0), rtol=1e-6)
        np.testing.assert_allclose(r["all_reduce AVG"].numpy(), np.mean(np.stack(x), axis=0))
        bits = np.array([[12 + q, 5 * q, 255 - q] for q in range(world)])
        for op, fn in (("BAND", np.bitwise_and), ("BOR", np.bitwise_or), ("BXOR", np.bitwise_xor)):
            np.testing.assert_array_equal(r[f"all_reduce {op}"].numpy(), fn.reduce(bits, axis=0))
        np.testing.assert_array_equal(r["all_reduce 2d"].numpy(), sum(v.reshape(2, 3).T for v in x))
        for root in range(world):
            np.testing.assert_array_equal(r[f"broadcast {root}"].numpy(), x[root])
            want = np.max(np.stack(x), axis=0) if rank == root else x[rank]
            np.testing.assert_array_equal(r[f"reduce {root}"].numpy(), want)
        np.testing.assert_array_equal(r["all_gather"].numpy(), np.stack(x))
        np.testing.assert_array_equal(r["all_gather_into_tensor"].numpy(), np.concatenate(x))
        if rank == 1:
            np.testing.assert_array_equal(r["gather"].numpy(), np.stack(x))
        np.testing.assert_array_equal(r["scatter"].numpy(), worker.rank_input(10 + rank).numpy())
        np.testing.assert_array_equal(r["reduce_scatter"].numpy(), sum(v * (rank + 1) for v in x))
        np.testing.assert_array_equal(r["all_to_all"].numpy(), np.stack([x[src] + 100 * rank for src in range(world)]))
        want = np.concatenate([np.arange(2 * rank, 2 * rank + 2) + 10 * src for src in range(world)])
        np.testing.assert_array_equal(r["all_to_all_single"].numpy(), want)
        want = np.concatenate([np.full((rank + 1, 2), 100.0 * src + rank) for src in range(world)])
        np.testing.assert_array_equal(r["all_to_all_single uneven"].numpy(), want)
        np.testing.assert_array_equal(r["all_to_all uneven"].numpy(), want)
        total = np.sum(np.stack(x), axis=0)
        np.testing.assert_array_equal(r["async"].numpy(), np.stack([total, 2 * total]))
        assert r["async completed"].tolist() == [True, True, True]
        np.testing.assert_array_equal(r["ring"].numpy(), x[(rank - 1) % world])
        if rank == 0:
            assert r["any source"].tolist() == [[q, q * 11.0] for q in range(1, world)]
        assert r["objects"] == [{"rank": q, "word": "x" * (q + 1)} for q in range(world)]
        assert r["broadcast objects"] == [{"from": "rank0", "n": 42}, [1, 2, 3]]
        evens = [q for q in range(world) if q % 2 == 0]
        if rank in evens:
            np.testing.assert_array_equal(r["even group"].numpy(), sum(x[q] for q in evens))
            assert r["even group size"] == len(evens)
        else:  # not a member: the call returns at once and leaves the tensor alone
            np.testing.assert_array_equal(r["even group"].numpy(), x[rank])
            assert r["even group size"] == -1


def single_process_reference(world, steps=4):
    """What DDP over `world` ranks of 8 samples must equal: one process over all 8*world."""
    torch.manual_seed(100)  # rank 0's initialisation, which DDP gives every rank
    model = worker._model()
    initial = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = worker.ddp_data(world)
    for _ in range(steps):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    trained = [p.detach().clone() for p in model.parameters()]
    return model, initial, trained, x, y


@pytest.mark.parametrize("world", [2, 3])
def test_ddp_equals_one_process_over_the_whole_batch(world, tmp_path):
    checkpoint = tmp_path / "model.pt"
    got = run_scenario("ddp", world, tmp_path, DDP_CHECKPOINT=checkpoint)
    _, initial, trained, x, y = single_process_reference(world)
    for r in got:
        assert r["buckets"] > 1
        for a, b in zip(r["initial"], initial):
            torch.testing.assert_close(a, b, rtol=0, atol=0)
        for a, b in zip(r["trained"], trained):
            torch.testing.assert_close(a, b, rtol=1e-6, atol=1e-6)
    # no_sync: the first micro-batch's gradient stays local; the next backward averages the
    # ranks' accumulated sums. Both computed here at the trained parameters, one rank at a time.
    probe = worker._model()
    with torch.no_grad():
        for p, t in zip(probe.parameters(), got[0]["trained"]):
            p.copy_(t)

    def grads_on(rows):
        probe.zero_grad()
        ((probe(x[rows]) - y[rows]) ** 2).mean().backward()
        return [p.grad.clone() for p in probe.parameters()]

    averaged = [torch.zeros_like(p) for p in probe.parameters()]
    for q, r in enumerate(got):
        first = grads_on(slice(q * 8, q * 8 + 4))
        second = grads_on(slice(q * 8 + 4, (q + 1) * 8))
        for g, want in zip(r["local grad"], first):
            torch.testing.assert_close(g, want, rtol=1e-5, atol=1e-6)
        for a, f, s in zip(averaged, first, second):
            a += (f + s) / world
    for r in got:
        for g, want in zip(r["accumulated grad"], averaged):
            torch.testing.assert_close(g, want, rtol=1e-5, atol=1e-6)
    # rank 0's saved state_dict loads into a plain module
    plain = worker._model()
    plain.load_state_dict(torch.load(checkpoint))
    for a, b in zip(plain.parameters(), got[0]["trained"]):
        torch.testing.assert_close(a.detach(), b, rtol=0, atol=0)


def test_ddp_find_unused_parameters_and_buffers(tmp_path):
    world = 3
    got = run_scenario("ddp_unused", world, tmp_path)
    torch.manual_seed(7)
    reference = worker._TwoHeads()
    # each rank's own gradient, computed alone; DDP must give every rank their average
    grads = []
    for q in range(world):
        m = worker._TwoHeads()
        m.load_state_dict(reference.state_dict())
        (m(got[q]["x"], "a" if q == 0 else "b") ** 2).sum().backward()
        grads.append({n: (p.grad if p.grad is not None else torch.zeros_like(p)) for n, p in m.named_parameters()})
    for r in got:
        for name, g in r["grads"].items():
            want = sum(gr[name] for gr in grads) / world
            assert g is not None, name
            torch.testing.assert_close(g, want, rtol=1e-5, atol=1e-6)
        # buffers come from rank 0 at each forward; training-mode batch norm then updates them
        # with this rank's batch
        m = worker._TwoHeads()
        m.load_state_dict(reference.state_dict())
        m(r["x"], "a")
        torch.testing.assert_close(r["running_mean"], m.norm.running_mean)


@pytest.mark.parametrize("world", [2, 3])
def test_sync_batchnorm_equals_batchnorm_over_the_whole_batch(world, tmp_path):
    got = run_scenario("sync_batchnorm", world, tmp_path)
    torch.manual_seed(5)
    model = worker._bn_net(nn.BatchNorm2d)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = worker.sync_batchnorm_data(world)
    for _ in range(3):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    for r in got:
        assert r["kind"] == "SyncBatchNorm"
        for name, want in model.state_dict().items():
            torch.testing.assert_close(r["state"][name], want, rtol=1e-5, atol=1e-5, msg=name)


def test_distributed_sampler_matches_pytorch(tmp_path):
    world = 3
    got = run_scenario("sampler", world, tmp_path)
    env = require_real_torch_env()
    script = (
        "import json, torch\n"
        "from torch.utils.data import DistributedSampler\n"
        "out = {}\n"
        f"for rank in range({world}):\n"
        "    for shuffle, drop_last in ((True, False), (False, False), (True, True)):\n"
        f"        s = DistributedSampler(list(range(23)), num_replicas={world}, rank=rank, shuffle=shuffle,\n"
        "                               drop_last=drop_last, seed=5)\n"
        "        for epoch in (0, 1):\n"
        "            s.set_epoch(epoch)\n"
        "            out[f'{rank} {shuffle} {drop_last} {epoch}'] = list(s)\n"
        "print(json.dumps(out))\n"
    )
    run = subprocess.run(["/usr/bin/python3", "-c", script], capture_output=True, text=True, env=env, cwd="/")
    assert run.returncode == 0, run.stderr
    want = json.loads(run.stdout)
    for r in got:
        for key, indices in r.items():
            if key in ("rank", "world"):
                continue
            assert indices == want[f"{r['rank']} {key}"], key


def test_gloo_socket_ifname_names_the_interface(tmp_path):
    got = run_scenario("sampler", 2, tmp_path, GLOO_SOCKET_IFNAME="lo")
    assert [r["rank"] for r in got] == [0, 1]
    procs, _ = start("sampler", 2, tmp_path, timeout=5, GLOO_SOCKET_IFNAME="no-such-interface0")
    for code, _, err in finish(procs):
        assert code != 0 and "no-such-interface0" in err, err[-2000:]


@pytest.mark.parametrize("method", ["tcp", "file"])
def test_init_methods(method, tmp_path):
    port = free_port()
    init = f"tcp://127.0.0.1:{port}" if method == "tcp" else f"file://{tmp_path}/rendezvous"
    got = run_scenario("sampler", 2, tmp_path, DIST_TEST_INIT=init)
    assert [r["rank"] for r in got] == [0, 1]
    if method == "file":  # the last user of a FileStore removes its file
        assert not os.path.exists(tmp_path / "rendezvous")


def test_a_dead_rank_makes_the_others_raise(tmp_path):
    procs, port = start("dies", 3, tmp_path, timeout=20)
    outputs = finish(procs)
    assert outputs[1][0] == 9
    for rank in (0, 2):
        code, out, err = outputs[rank]
        assert code == 0, err[-2000:]
        r = torch.load(tmp_path / f"rank{rank}.pt")
        assert r["error"] is not None and r["seconds"] < 20, r
    with socket.socket() as s:  # the store's port is free again: nothing left listening
        s.bind(("127.0.0.1", port))


def test_a_hung_rank_makes_the_others_time_out(tmp_path):
    procs, _ = start("hangs", 2, tmp_path, timeout=3)
    begin = time.monotonic()
    procs[0].wait(60)
    elapsed = time.monotonic() - begin
    finish(procs)
    r = torch.load(tmp_path / "rank0.pt")
    assert r["error"] is not None and "imed out" in r["error"] or "imeout" in r["error"], r
    assert 2.5 < r["seconds"] < 15, r
    assert elapsed < 30


def launcher(args, **env):
    return subprocess.run(
        [sys.executable, "-m", "torch.distributed.run"] + args,
        capture_output=True,
        text=True,
        env=worker_env(**env),
        timeout=120,
    )


def test_launcher_sets_the_environment_and_reports_a_failed_rank(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(
        "import os, sys, torch, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "t = torch.ones(1) * dist.get_rank()\n"
        "dist.all_reduce(t)\n"
        "keys = ['RANK', 'LOCAL_RANK', 'WORLD_SIZE', 'LOCAL_WORLD_SIZE', 'MASTER_ADDR', 'MASTER_PORT']\n"
        "line = '|'.join(os.environ[k] for k in keys) + ' %s %s\\n' % (float(t), sys.argv[1:])\n"
        "sys.stdout.write(line)  # one write: the workers share the launcher's stdout\n"
        "if 'fail' in sys.argv and dist.get_rank() == 2:\n"
        "    sys.exit(5)\n"
    )
    run = launcher(["--standalone", "--nproc_per_node", "3", str(script), "--flag", "x"])
    assert run.returncode == 0, run.stderr
    lines = sorted(run.stdout.strip().splitlines())
    assert len(lines) == 3
    for rank, line in enumerate(lines):
        fields, total, args = line.split(" ", 2)
        rank_, local, world, local_world, addr, _ = fields.split("|")
        assert (rank_, local, world, local_world, addr) == (str(rank), str(rank), "3", "3", "127.0.0.1")
        assert float(total) == 3.0 and args == "['--flag', 'x']"
    run = launcher(["--standalone", "--nproc_per_node", "3", str(script), "fail"])
    assert run.returncode != 0
    assert "rank 2" in run.stderr and "exit code 5" in run.stderr, run.stderr[-2000:]


def test_launch_passes_local_rank(tmp_path):
    script = tmp_path / "job.py"
    script.write_text("import sys\nsys.stdout.write(sys.argv[1] + \"\\n\")\n")
    run = subprocess.run(
        [sys.executable, "-m", "torch.distributed.launch", "--nproc_per_node", "2", str(script)],
        capture_output=True,
        text=True,
        env=worker_env(),
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert sorted(run.stdout.split()) == ["--local_rank=0", "--local_rank=1"]


# -- stores, in one process ---------------------------------------------------------------


def check_store(store):
    store.set("a", "1")
    assert store.get("a") == b"1"
    store.set("b", b"\x00\xff")
    assert store.get("b") == b"\x00\xff"
    assert store.add("n", 2) == 2 and store.add("n", 5) == 7 and store.get("n") == b"7"
    assert store.check(["a", "n"]) and not store.check(["a", "missing"])
    store.wait(["a", "b"])
    assert store.compare_set("c", "", "first") == b"first"
    assert store.compare_set("c", "wrong", "second") == b"first"
    assert store.compare_set("c", "first", "second") == b"second"
    assert store.delete_key("c") and not store.delete_key("c")
    begin = time.monotonic()
    with pytest.raises(RuntimeError, match="imeout"):
        store.wait(["never"], timedelta(seconds=0.3))
    assert time.monotonic() - begin < 5


def test_stores(tmp_path):
    check_store(dist.HashStore())
    check_store(dist.FileStore(str(tmp_path / "store"), 1))
    master = dist.TCPStore("127.0.0.1", 0, 2, True, timedelta(seconds=10), wait_for_workers=False)
    client = dist.TCPStore("127.0.0.1", master.port, 2, False, timedelta(seconds=10))
    check_store(client)
    assert master.get("a") == b"1"  # one table behind both
    prefixed = dist.PrefixStore("p", master)
    check_store(prefixed)
    assert client.get("p/a") == b"1"
    master.set_timeout(timedelta(seconds=0.3))
    with pytest.raises(RuntimeError, match="imeout"):
        master.get("nothing")


def test_tcp_store_client_without_server_raises():
    port = free_port()
    begin = time.monotonic()
    with pytest.raises(RuntimeError, match="could not connect"):
        dist.TCPStore("127.0.0.1", port, 2, False, timedelta(seconds=0.5))
    assert time.monotonic() - begin < 5


# -- bad input, in one process (a group of one) ---------------------------------------------


@pytest.fixture
def group_of_one():
    store = dist.HashStore()
    dist.init_process_group("gloo", store=store, rank=0, world_size=1, timeout=timedelta(seconds=10))
    yield
    dist.destroy_process_group()


def test_bad_input(group_of_one):
    assert dist.is_initialized() and dist.get_rank() == 0 and dist.get_world_size() == 1
    assert dist.get_backend() == "gloo"
    with pytest.raises(RuntimeError, match="twice"):
        dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    with pytest.raises(RuntimeError, match="torch.Tensor"):
        dist.all_reduce([1, 2])
    t = torch.arange(6.0).reshape(2, 3).t()
    before = t.clone()
    with pytest.raises(ValueError, match="contiguous"):
        dist.all_reduce(t)
    torch.testing.assert_close(t, before)
    with pytest.raises(RuntimeError, match="tensor_list"):
        dist.all_gather([torch.zeros(2), torch.zeros(2)], torch.ones(2))
    with pytest.raises(RuntimeError, match="dtype"):
        dist.all_gather([torch.zeros(3)], torch.ones(2))
    with pytest.raises(ValueError, match="ReduceOp"):
        dist.all_reduce(torch.ones(2), op="sum")
    with pytest.raises(RuntimeError, match="not part of the group"):
        dist.broadcast(torch.ones(2), src=3)
    with pytest.raises(RuntimeError, match="BAND"):
        dist.all_reduce(torch.ones(2), op=dist.ReduceOp.BAND)
    t = torch.tensor([1.0, 2.0])
    dist.all_reduce(t)  # a group of one: the sum is the tensor
    assert t.tolist() == [1.0, 2.0]


def test_uninitialised_and_unavailable_backends():
    assert not dist.is_initialized()
    with pytest.raises(RuntimeError, match="init_process_group"):
        dist.all_reduce(torch.ones(1))
    with pytest.raises(RuntimeError, match="init_process_group"):
        nn.parallel.DistributedDataParallel(nn.Linear(2, 2))
    with pytest.raises(ValueError, match="Invalid backend"):
        dist.init_process_group("carrier-pigeon", store=dist.HashStore(), rank=0, world_size=1)
    assert dist.is_available() and dist.is_gloo_available()
    assert not dist.is_initialized()


def _nccl_loads():
    """The reference for is_nccl_available(): whether the dynamic loader finds libnccl, and its
    version by NCCL's own ncclGetVersion."""
    import ctypes

    try:
        lib = ctypes.CDLL("libnccl.so.2")
    except OSError:
        return None
    version = ctypes.c_int()
    assert lib.ncclGetVersion(ctypes.byref(version)) == 0
    return version.value


def test_nccl_is_available_when_libnccl_loads():
    version = _nccl_loads()
    assert dist.is_nccl_available() == (version is not None)
    if version is not None:
        assert torch._C._nccl.version() == version


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without a GPU")
def test_nccl_without_a_gpu_raises_naming_why():
    reason = torch._C._cuda_unavailable_reason() if torch._C._cuda_is_built else "no CUDA build"
    assert reason
    with pytest.raises(RuntimeError, match="nccl backend needs a CUDA GPU") as e:
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    assert reason in str(e.value)
    assert not dist.is_initialized()
    # a gloo world refuses an nccl group the same way and goes on working
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        with pytest.raises(RuntimeError, match="nccl backend needs a CUDA GPU"):
            dist.new_group(backend="nccl")
        t = torch.tensor([1.0, 2.0])
        dist.all_reduce(t, group=dist.new_group(backend="gloo"))
        assert t.tolist() == [1.0, 2.0]
    finally:
        dist.destroy_process_group()


def test_nccl_refuses_the_stand_in_device():
    """The stand-in CUDA device (host memory) is no GPU: the nccl backend says so, in a child
    process since the stand-in cannot be switched off."""
    code = (
        "import torch, torch.distributed as dist\n"
        "torch._C._cuda_use_stand_in()\n"
        "try:\n"
        "    dist.init_process_group('nccl', store=dist.HashStore(), rank=0, world_size=1)\n"
        "except RuntimeError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=worker_env(), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "needs a CUDA GPU" in out.stdout or "NCCL built in" in out.stdout, out.stdout


def test_the_nccl_watchdog_drops_finished_ops_and_aborts_late_or_failed_ones():
    """The watchdog's look at a group (torch/distributed/_nccl_backend.py), on stand-ins for the
    communicator and its ops, since NCCL itself needs a GPU: finished ops leave the list in
    order, an op past its deadline or one whose communicator failed aborts the communicator
    once, naming why."""
    from torch.distributed import _nccl_backend

    class Op:
        def __init__(self, done=False, error=None):
            self.done, self.error = done, error

        def is_completed(self):
            if self.error:
                raise RuntimeError(self.error)
            return self.done

    class Comm:
        def __init__(self):
            self.aborted = []

        def abort(self, why):
            self.aborted.append(why)

    def group(timeout):
        g = object.__new__(_nccl_backend.NCCLGroup)
        g._comm, g._rank, g._timeout = Comm(), 0, timeout
        g._inflight = collections.deque()
        g._inflight_lock = threading.Lock()
        return g

    g = group(60.0)
    first, second, third = Op(done=True), Op(done=True), Op()
    for op in (first, second, third):
        g._work(op)
    g._check()
    assert [w for _, w in g._inflight] == [third] and g._comm.aborted == []
    third.done = True
    g._check()
    assert not g._inflight and g._comm.aborted == []

    g = group(0.05)
    g._work(Op())
    g._check()  # not late yet
    assert len(g._inflight) == 1 and g._comm.aborted == []
    time.sleep(0.1)
    g._check()
    assert not g._inflight and len(g._comm.aborted) == 1
    assert "timeout of 0.05 s" in g._comm.aborted[0]

    g = group(60.0)
    g._work(Op(error="NCCL communicator of rank 0 failed: NCCL error: remote process exited"))
    g._check()
    assert g._comm.aborted == ["NCCL communicator of rank 0 failed: NCCL error: remote process exited"]
    assert not g._inflight
