"""torch.autograd.profiler and torch.profiler: the ops a block runs, counted, nested and timed
(against time.perf_counter and time.sleep), and the originals put back afterwards."""

import json
import time

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import profiler


def test_counts_nesting_and_shapes():
    x = torch.randn(8, 5)
    w = torch.randn(5, 3, requires_grad=True)
    with profiler.profile(record_shapes=True) as prof:
        for _ in range(4):
            y = torch.matmul(x, w)
        with profiler.record_function("block"):
            z = y.relu().sum()
        z.backward()
    averages = {e.key: e for e in prof.key_averages()}
    assert averages["aten::matmul"].count == 4
    assert averages["aten::relu"].count == 1 and averages["aten::sum"].count == 1
    assert averages["autograd::engine::backward"].count == 1
    block = next(e for e in prof.function_events if e.name == "block")
    assert {c.name for c in block.cpu_children} == {"aten::relu", "aten::sum"}
    assert block.self_cpu_time_total <= block.cpu_time_total
    assert (
        abs(block.cpu_time_total - block.self_cpu_time_total - sum(c.cpu_time_total for c in block.cpu_children)) < 1e-6
    )
    matmul = next(e for e in prof.function_events if e.name == "aten::matmul")
    assert matmul.input_shapes == [[8, 5], [5, 3]]
    by_shape = prof.key_averages(group_by_input_shape=True)
    assert any(e.key == "aten::matmul" and e.input_shapes == [[8, 5], [5, 3]] and e.count == 4 for e in by_shape)
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=3)
    top = max(prof.key_averages(), key=lambda e: e.self_cpu_time_total)
    assert table.splitlines()[3].split()[0] == top.key  # the first row after the header lines
    assert (
        len([line for line in table.splitlines() if "aten::" in line or "autograd::" in line or "block" in line]) == 3
    )


def test_times_are_measured():
    with profiler.profile() as prof:
        with profiler.record_function("sleep"):
            time.sleep(0.02)
        begin = time.perf_counter()
        torch.randn(300, 300).matmul(torch.randn(300, 300))
        elapsed_us = (time.perf_counter() - begin) * 1e6
    sleep = next(e for e in prof.function_events if e.name == "sleep")
    assert 20000 <= sleep.cpu_time_total < 20000 + 200000
    recorded = sum(e.cpu_time_total for e in prof.function_events if e.cpu_parent is None and e.name != "sleep")
    assert 0 < recorded <= elapsed_us


def test_module_forward_records_functional_ops_and_restores_everything():
    originals = (torch.matmul, F.linear, torch.Tensor.add, torch.Tensor.__add__, torch.autograd.backward)
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    with pytest.raises(ValueError, match="inside"):
        with profiler.profile() as prof:
            model(torch.randn(2, 4)).sum()
            raise ValueError("an error inside the profiled block")
    names = {e.name for e in prof.function_events}
    assert "aten::linear" in names and "aten::relu" in names
    assert (torch.matmul, F.linear, torch.Tensor.add, torch.Tensor.__add__, torch.autograd.backward) == originals
    with profiler.record_function("no profile"):  # without a profile: nothing recorded, no error
        torch.ones(2).add(1)


def test_chrome_trace(tmp_path):
    with profiler.profile() as prof:
        torch.ones(3) + torch.ones(3)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    events = json.loads(path.read_text())["traceEvents"]
    assert any(e["name"] == "aten::add" and e["ph"] == "X" and e["dur"] >= 0 for e in events)


def test_profiler_schedule(tmp_path):
    traces = []
    x = torch.randn(4, 4)
    with torch.profiler.profile(
        activities=[torch.profiler.ProfilerActivity.CPU],
        schedule=torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1),
        on_trace_ready=traces.append,
    ) as prof:
        for step in range(6):
            for _ in range(step + 1):  # step s runs s + 1 matmuls
                x.matmul(x)
            prof.step()
    assert len(traces) == 1
    counts = {e.key: e.count for e in traces[0].key_averages()}
    assert counts["aten::matmul"] == 3 + 4  # the active steps 2 and 3 only
    handler = torch.profiler.tensorboard_trace_handler(str(tmp_path / "tb"), worker_name="w")
    handler(prof)
    written = list((tmp_path / "tb").iterdir())
    assert len(written) == 1 and written[0].name.startswith("w.") and written[0].name.endswith(".pt.trace.json")


def test_bad_use():
    with pytest.raises(RuntimeError, match="didn't finish"):
        profiler.profile().key_averages()
    with pytest.raises(ValueError):
        torch.profiler.schedule(wait=0, warmup=0, active=0)
    with profiler.profile() as prof:
        torch.ones(1)
    with pytest.raises(ValueError, match="sort by"):
        prof.key_averages().table(sort_by="colour")
    with pytest.raises(RuntimeError, match="CUDA"):
        profiler.emit_nvtx()
