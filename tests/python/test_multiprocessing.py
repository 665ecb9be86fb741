"""torch.multiprocessing against PyTorch 1.13's semantics: spawn and its failure reports, and
tensors, storages and module parameters that reach other processes as live views of shared
memory under every start method (the functions the children run sit at the top level, so that
spawn and forkserver children can import them)."""

import gc
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

import torch
import torch.multiprocessing as mp
from torch import nn

START_METHODS = ["fork", "spawn", "forkserver"]
SHM_DIR = "/dev/shm"


def _torch_names_in_dev_shm():
    return {n for n in os.listdir(SHM_DIR) if n.startswith("torch")}


@pytest.fixture(autouse=True)
def no_leftovers():
    """Every test leaves no child process, and no torch name in /dev/shm, behind it (other users of
    the machine may come and go there)."""
    before = _torch_names_in_dev_shm()
    yield
    gc.collect()
    assert multiprocessing.active_children() == []
    assert _torch_names_in_dev_shm() - before == set()


# ---- the module ----


def test_everything_of_multiprocessing_is_there():
    for name in ["Process", "Queue", "SimpleQueue", "Pool", "Event", "get_context", "set_start_method", "cpu_count"]:
        assert getattr(mp, name) is getattr(multiprocessing, name), name
    assert mp.get_context("spawn").get_start_method() == "spawn"
    assert torch.multiprocessing is mp


def test_sharing_strategies():
    assert mp.get_all_sharing_strategies() == {"file_descriptor", "file_system"}
    assert mp.get_sharing_strategy() == "file_descriptor"
    try:
        mp.set_sharing_strategy("file_system")
        assert mp.get_sharing_strategy() == "file_system"
        with pytest.raises(ValueError, match="invalid sharing strategy 'bogus'"):
            mp.set_sharing_strategy("bogus")
        assert mp.get_sharing_strategy() == "file_system"
        t = torch.zeros(3).share_memory_()
        _round_trip_is_live(mp.get_context("fork"), t)
    finally:
        mp.set_sharing_strategy("file_descriptor")


# ---- spawn ----


def _fill_slot(i, t):
    t[i] = i + 1


def _raise_in_one(i):
    if i == 1:
        raise ValueError("bad input in worker %d" % i)
    time.sleep(30)  # terminated by the parent once worker 1 failed


def _exit_with(i, code):
    os._exit(code)


def _kill_self(i):
    os.kill(os.getpid(), signal.SIGKILL)


def _sleep(i, seconds):
    time.sleep(seconds)


def test_spawn_runs_fn_with_its_index_on_shared_args():
    t = torch.zeros(3, dtype=torch.int64).share_memory_()
    assert mp.spawn(_fill_slot, args=(t,), nprocs=3) is None
    assert t.tolist() == [1, 2, 3]  # each child wrote into the parent's memory


def test_a_childs_exception_reaches_the_parent_with_its_traceback():
    started = time.monotonic()
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.start_processes(_raise_in_one, nprocs=2, start_method="fork")
    assert time.monotonic() - started < 20  # the sleeping sibling was terminated
    message = str(info.value)
    assert message.startswith("\n\n-- Process 1 terminated with the following error:\nTraceback")
    assert "in _raise_in_one" in message and message.rstrip().endswith("ValueError: bad input in worker 1")
    assert info.value.error_index == 1 and info.value.pid > 0


def test_a_child_that_exits_is_reported_with_its_code():
    with pytest.raises(mp.ProcessExitedException, match="^process 0 terminated with exit code 3$") as info:
        mp.start_processes(_exit_with, args=(3,), nprocs=1, start_method="fork")
    assert info.value.exit_code == 3 and info.value.signal_name is None and info.value.error_index == 0


def test_a_child_killed_by_a_signal_is_reported():
    with pytest.raises(mp.ProcessExitedException, match="^process 0 terminated with signal SIGKILL$") as info:
        mp.start_processes(_kill_self, nprocs=1, start_method="fork")
    assert info.value.exit_code == -signal.SIGKILL and info.value.signal_name == "SIGKILL"


def test_spawn_reports_failures_of_spawned_children():
    with pytest.raises(mp.ProcessExitedException, match="^process 0 terminated with exit code 5$"):
        mp.spawn(_exit_with, args=(5,))


def test_process_context_join_with_a_timeout():
    context = mp.start_processes(_sleep, args=(0.5,), nprocs=2, join=False, start_method="fork")
    pids = context.pids()
    assert len(pids) == 2 and len(set(pids)) == 2 and all(os.path.exists("/proc/%d" % p) for p in pids)
    assert context.join(timeout=0.01) is False  # still running
    deadline = time.monotonic() + 20
    while not context.join(timeout=1):
        assert time.monotonic() < deadline
    assert [p.exitcode for p in context.processes] == [0, 0]


# ---- live views across processes ----


def _live_child(t, ready, go, results):
    ready.set()
    go.wait(20)
    results.put(float(t[0]))  # written by the parent after this process had its tensor
    t[1] = 7.0
    results.put(t)  # sent back: the parent receives a view of the same memory again


def _round_trip_is_live(context, t):
    ready, go, results = context.Event(), context.Event(), context.Queue()
    p = context.Process(target=_live_child, args=(t, ready, go, results))
    p.start()
    assert ready.wait(60)
    t[0] = 5.0
    go.set()
    seen = results.get(timeout=60)
    back = results.get(timeout=60)
    p.join(60)
    assert p.exitcode == 0
    assert seen == 5.0 and t[1].item() == 7.0
    t[2] = 9.0
    assert back.tolist() == t.tolist() == [5.0, 7.0, 9.0]


@pytest.mark.parametrize("method", START_METHODS)
def test_a_shared_tensor_is_one_memory_in_parent_and_child(method):
    t = torch.zeros(3).share_memory_()
    _round_trip_is_live(mp.get_context(method), t)


def test_a_view_keeps_its_place_in_the_shared_storage():
    base = torch.zeros(4, 5).share_memory_()
    view = base[1:, ::2]  # storage offset 5, strides (5, 2)
    _round_trip_is_live(mp.get_context("spawn"), view[:, 1])  # elements 7, 12, 17 of base
    assert base.flatten().tolist()[7::5] == [5.0, 7.0, 9.0]
    assert base.sum().item() == 21.0


def _add_in_child(queue, done):
    t = queue.get(timeout=60)
    t.add_(10)
    s = queue.get(timeout=60)
    s[0] = -1
    done.put(torch.tensor([t.is_shared(), s.is_shared()]))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_tensor_put_on_a_queue_moves_to_shared_memory(method):
    context = mp.get_context(method)
    queue, done = context.Queue(), context.Queue()
    p = context.Process(target=_add_in_child, args=(queue, done))
    p.start()
    t = torch.arange(4.0)
    assert not t.is_shared()
    queue.put(t)
    s = torch.IntStorage([1, 2, 3])
    queue.put(s)
    flags = done.get(timeout=60)
    p.join(60)
    assert p.exitcode == 0 and flags.tolist() == [True, True]
    # PyTorch moves what it sends to shared memory in place: the child's writes are the parent's.
    assert t.is_shared() and t.tolist() == [10.0, 11.0, 12.0, 13.0]
    assert s.is_shared() and list(s) == [-1, 2, 3]


def _train_shared_module(rank, model, steps):
    assert isinstance(model.weight, nn.Parameter) and model.weight.is_shared()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = (model(torch.randn(8, 4)) - 1.0).pow(2).mean()
        loss.backward()
        optimizer.step()


@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_children_train_the_parents_shared_parameters(method):
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    model.share_memory()
    before = [p.detach().clone() for p in model.parameters()]
    x = torch.randn(64, 4)
    loss_before = (model(x) - 1.0).pow(2).mean().item()
    mp.start_processes(_train_shared_module, args=(model, 20), nprocs=2, start_method=method)
    assert all(not torch.equal(b, p) for b, p in zip(before, model.parameters()))
    assert (model(x) - 1.0).pow(2).mean().item() < loss_before / 2


# ---- nothing left behind ----


def _send_fresh_tensors(queue, n):
    for i in range(n):
        queue.put(torch.full((1000,), float(i)))


def test_transfers_leave_no_descriptor_or_mapping_behind():
    context = mp.get_context("fork")

    def transfer(n):
        queue = context.Queue()
        p = context.Process(target=_send_fresh_tensors, args=(queue, n))
        p.start()
        got = [queue.get(timeout=60) for _ in range(n)]
        p.join(60)
        assert p.exitcode == 0 and [t[0].item() for t in got] == list(range(n))
        queue.close()
        queue.join_thread()

    transfer(1)  # the first transfer starts this process's handle server and socket for good
    gc.collect()
    fds = len(os.listdir("/proc/self/fd"))
    maps = open("/proc/self/maps").read().count("memfd:torch_shared")
    transfer(5)
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) == fds  # every received tensor closed its descriptor
    assert open("/proc/self/maps").read().count("memfd:torch_shared") == maps  # and unmapped


def _tensor_of(i):
    return torch.full((2, 3), float(i))


def test_a_pools_results_arrive_as_shared_tensors():
    with mp.get_context("fork").Pool(2) as pool:
        got = pool.map(_tensor_of, range(4))
    assert [t.tolist() for t in got] == [[[float(i)] * 3] * 2 for i in range(4)]
    assert all(t.is_shared() for t in got)


def test_the_hogwild_example_trains_the_parents_model():
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    script = os.path.join(root, "examples", "hogwild.py")
    args = ["--num-processes", "2", "--epochs", "1", "--samples", "512", "--start-method", "spawn"]
    done = subprocess.run([sys.executable, script] + args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    before = float(next(line for line in lines if line.startswith("before:")).split()[3])
    after = float(next(line for line in lines if line.startswith("after:")).split()[3])
    assert after < before and lines[-1] == "the parent's model learned from 2 workers (spawn)"


def test_a_cuda_tensor_on_the_stand_in_device_cannot_travel():
    """CUDA tensors travel by CUDA IPC (Note [CUDA tensors through queues]); the stand-in CUDA
    device is host memory, which has none: pickling one for a queue raises, naming why. In a
    child process, since the stand-in cannot be switched off."""
    code = (
        "import torch, torch.multiprocessing\n"
        "from multiprocessing.reduction import ForkingPickler\n"
        "torch._C._cuda_use_stand_in()\n"
        "t = torch.ones(3, device='cuda')\n"
        "try:\n"
        "    ForkingPickler.dumps(t)\n"
        "except RuntimeError as e:\n"
        "    print(e)\n"
        "print(ForkingPickler.loads(ForkingPickler.dumps(torch.ones(2, 0, device='cuda'))).device)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.path.dirname(torch.__path__[0]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "CUDA IPC needs a GPU" in lines[0], out.stdout
    assert lines[1] == "cuda:0", out.stdout  # an empty tensor has no memory to share: it arrives new
