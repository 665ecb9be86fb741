"""torch.utils.data: datasets, samplers, collation and the DataLoader, in the main process
and with worker processes whose batches come back through shared memory."""

import collections
import gc
import multiprocessing
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from multiprocessing.reduction import ForkingPickler

import numpy as np
import pytest

import torch
from torch.utils.data import (
    BatchSampler,
    ChainDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    default_convert,
    get_worker_info,
    random_split,
)

from conftest import LAYOUTS, NUMERIC_TYPES, make_tensor

SHM_DIR = "/dev/shm"


def torch_names_in_dev_shm():
    return {n for n in os.listdir(SHM_DIR) if n.startswith("torch")}


@pytest.fixture(autouse=True)
def no_leaks():
    """Every test leaves no worker process and no shared-memory segment name behind."""
    before = torch_names_in_dev_shm()
    yield
    if multiprocessing.active_children():
        gc.collect()  # an iterator kept alive by a reference cycle (a traceback) stops its workers
    assert multiprocessing.active_children() == []
    assert torch_names_in_dev_shm() - before == set()


def gen(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def as_lists(batches):
    """Batches (nested tuples/lists/dicts of tensors and strings) as plain Python values."""
    if torch.is_tensor(batches):
        return ("tensor", str(batches.dtype), batches.tolist())
    if isinstance(batches, dict):
        return {k: as_lists(v) for k, v in batches.items()}
    if isinstance(batches, (list, tuple)):
        return [as_lists(b) for b in batches]
    return batches


# ---------------------------------------------------------------- datasets
class Squares(Dataset):
    """Sample i: a dict holding a tensor, a numpy array, a number and a string built from i."""

    def __init__(self, n, delay=0.0):
        self.n = n
        self.delay = delay

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.delay and (i // 3) % 2 == 0:
            time.sleep(self.delay)  # batches of 3 alternate slow and fast: they arrive out of order
        return {
            "x": torch.arange(3, dtype=torch.float32) * i,
            "sq": np.array([i * i], dtype=np.int64),
            "w": float(i) / 2,
            "name": "item%d" % i,
        }


class Range(IterableDataset):
    """The integers [start, end); with shard=True each worker yields every num_workers-th one."""

    def __init__(self, start, end, shard=True):
        self.start, self.end, self.shard = start, end, shard

    def __iter__(self):
        info = get_worker_info()
        if info is None or not self.shard:
            return iter(range(self.start, self.end))
        return iter(range(self.start + info.id, self.end, info.num_workers))

    def __len__(self):
        return self.end - self.start


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.uint8])
def test_tensor_dataset(layout, dtype, rng):
    x, xa = make_tensor((5, 3), dtype, layout, rng)
    y, ya = make_tensor((5,), torch.float64, "contiguous", rng)
    ds = TensorDataset(x, y)
    assert len(ds) == 5
    for i in range(-5, 5):
        xi, yi = ds[i]
        np.testing.assert_array_equal(xi.numpy(), xa[i])
        assert yi.item() == ya[i]
    with pytest.raises(IndexError):
        ds[5]
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, torch.zeros(4))


def test_concat_dataset():
    parts = [list(range(3)), list(range(10, 14)), [], list(range(20, 22))]
    ds = ConcatDataset(parts)
    flat = sum(parts, [])
    assert len(ds) == len(flat) and ds.cumulative_sizes == [3, 7, 7, 9]
    assert [ds[i] for i in range(len(flat))] == flat
    assert [ds[i] for i in range(-len(flat), 0)] == flat
    with pytest.raises(ValueError):
        ds[-10]
    with pytest.raises(IndexError):
        ds[9]
    with pytest.raises(AssertionError):
        ConcatDataset([])
    with pytest.raises(AssertionError):
        ConcatDataset([Range(0, 3)])
    added = Squares(2) + Squares(3)
    assert isinstance(added, ConcatDataset) and len(added) == 5 and added[4]["name"] == "item2"


def test_chain_dataset():
    chained = ChainDataset([Range(0, 3), Range(10, 12)])
    assert list(chained) == [0, 1, 2, 10, 11] and len(chained) == 5
    assert list(Range(0, 2) + Range(5, 6)) == [0, 1, 5]
    with pytest.raises(AssertionError):
        list(ChainDataset([[1, 2]]))


def test_subset():
    base = list(range(100, 110))
    sub = Subset(base, [7, 2, 2, 9])
    assert len(sub) == 4 and [sub[i] for i in range(4)] == [107, 102, 102, 109]


def test_random_split_lengths():
    data = list(range(20))
    parts = random_split(data, [5, 0, 15], generator=gen(3))
    assert [len(p) for p in parts] == [5, 0, 15]
    values = [p[i] for p in parts for i in range(len(p))]
    assert sorted(values) == data  # a partition: every sample exactly once
    again = random_split(data, [5, 0, 15], generator=gen(3))
    assert [p.indices for p in parts] == [p.indices for p in again]
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(data, [5, 5])


def test_random_split_fractions():
    data = list(range(11))
    with pytest.warns(UserWarning, match="index 2 is 0"):
        parts = random_split(data, [0.5, 0.5, 0.0], generator=gen(0))
    # floor(11 * 0.5) = 5 each, and the 1 left over goes to the first split.
    assert [len(p) for p in parts] == [6, 5, 0]
    assert sorted(p[i] for p in parts for i in range(len(p))) == data
    with pytest.raises(ValueError, match="between 0 and 1"):
        random_split(data, [1.5, -0.5])


# ---------------------------------------------------------------- samplers
def test_sequential_and_subset_random_sampler():
    assert list(SequentialSampler(range(6))) == list(range(6)) and len(SequentialSampler(range(6))) == 6
    indices = [10, 4, 7, 3]
    s = SubsetRandomSampler(indices, generator=gen(5))
    drawn = list(s)
    assert sorted(drawn) == sorted(indices) and len(s) == 4
    assert list(SubsetRandomSampler(indices, generator=gen(5))) == drawn


def test_random_sampler_permutations():
    n = 13
    assert sorted(RandomSampler(range(n))) == list(range(n))
    # num_samples > n: whole permutations, then part of one; every index 2 or 3 times.
    s = RandomSampler(range(n), num_samples=2 * n + 4, generator=gen(1))
    drawn = list(s)
    assert len(drawn) == len(s) == 2 * n + 4
    counts = collections.Counter(drawn)
    assert set(counts) == set(range(n)) and set(counts.values()) <= {2, 3}
    assert sorted(drawn[:n]) == list(range(n)) and sorted(drawn[n : 2 * n]) == list(range(n))
    assert list(RandomSampler(range(n), num_samples=2 * n + 4, generator=gen(1))) == drawn


def test_random_sampler_replacement():
    s = RandomSampler(range(7), replacement=True, num_samples=100, generator=gen(2))
    drawn = list(s)
    assert len(drawn) == 100 and set(drawn) <= set(range(7))
    assert len(set(drawn)) > 1
    assert list(RandomSampler(range(7), replacement=True, num_samples=100, generator=gen(2))) == drawn
    torch.manual_seed(11)
    a = list(RandomSampler(range(50)))
    torch.manual_seed(11)
    assert list(RandomSampler(range(50))) == a  # without a generator: seeded from the global one
    with pytest.raises(TypeError):
        RandomSampler(range(3), replacement=1)
    with pytest.raises(ValueError):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(ValueError):
        RandomSampler([])


def test_weighted_random_sampler_statistics():
    weights = [1.0, 0.0, 2.0, 3.0, 4.0]
    n = 40000
    drawn = list(WeightedRandomSampler(weights, n, generator=gen(7)))
    assert len(drawn) == n
    counts = collections.Counter(drawn)
    assert counts[1] == 0  # weight 0: never drawn
    total = sum(weights)
    for i, w in enumerate(weights):
        # The standard deviation of each frequency is below 0.0025: 0.02 is 8 of them, and the
        # fixed generator makes the draw deterministic anyway.
        assert abs(counts[i] / n - w / total) < 0.02, (i, counts[i] / n, w / total)
    assert list(WeightedRandomSampler(weights, n, generator=gen(7))) == drawn


def test_weighted_random_sampler_without_replacement_and_errors():
    drawn = list(WeightedRandomSampler(torch.tensor([1.0, 5.0, 1.0, 0.5, 2.0]), 5, replacement=False, generator=gen(0)))
    assert sorted(drawn) == [0, 1, 2, 3, 4]
    with pytest.raises(RuntimeError):
        list(WeightedRandomSampler([1.0, 1.0], 3, replacement=False))
    with pytest.raises(ValueError, match="1d"):
        WeightedRandomSampler([[1.0, 2.0]], 2)
    with pytest.raises(ValueError, match="num_samples"):
        WeightedRandomSampler([1.0], 0)
    with pytest.raises(ValueError, match="replacement"):
        WeightedRandomSampler([1.0], 1, replacement=0)


@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("n,batch_size", [(10, 3), (9, 3), (2, 5), (0, 2)])
def test_batch_sampler(n, batch_size, drop_last):
    batches = list(BatchSampler(SequentialSampler(range(n)), batch_size, drop_last))
    expected = [list(range(i, min(i + batch_size, n))) for i in range(0, n, batch_size)]
    if drop_last:
        expected = [b for b in expected if len(b) == batch_size]
    assert batches == expected
    assert len(BatchSampler(SequentialSampler(range(n)), batch_size, drop_last)) == len(expected)


def test_batch_sampler_errors():
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="batch_size"):
            BatchSampler(range(3), bad, False)
    with pytest.raises(ValueError, match="drop_last"):
        BatchSampler(range(3), 2, 1)
    with pytest.raises(NotImplementedError):
        iter(Sampler(None))


# ---------------------------------------------------------------- collation
Point = collections.namedtuple("Point", "x y")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", NUMERIC_TYPES)
def test_collate_stacks_tensors(layout, dtype, rng):
    pairs = [make_tensor((2, 3), dtype, layout, rng) for _ in range(4)]
    batch = default_collate([t for t, _ in pairs])
    assert batch.dtype == dtype
    np.testing.assert_array_equal(batch.numpy(), np.stack([a for _, a in pairs]))


def test_collate_nested_structures():
    samples = [
        {
            "p": Point(torch.tensor([i, i + 1]), float(i)),
            "label": i,
            "flag": i % 2 == 0,
            "name": "s%d" % i,
            "pair": (np.array([i, 2 * i], dtype=np.float32), np.int64(i)),
            "seq": [i, [i * 10]],
        }
        for i in range(3)
    ]
    batch = default_collate(samples)
    assert set(batch) == {"p", "label", "flag", "name", "pair", "seq"}
    assert isinstance(batch["p"], Point)
    assert batch["p"].x.tolist() == [[0, 1], [1, 2], [2, 3]]
    assert batch["p"].y.dtype == torch.float64 and batch["p"].y.tolist() == [0.0, 1.0, 2.0]
    assert batch["label"].dtype == torch.int64 and batch["label"].tolist() == [0, 1, 2]
    assert batch["flag"].dtype == torch.bool and batch["flag"].tolist() == [True, False, True]
    assert batch["name"] == ["s0", "s1", "s2"]
    assert isinstance(batch["pair"], list)  # tuples of fields become lists, as in PyTorch
    assert batch["pair"][0].dtype == torch.float32 and batch["pair"][0].tolist() == [[0, 0], [1, 2], [2, 4]]
    assert batch["pair"][1].dtype == torch.int64 and batch["pair"][1].tolist() == [0, 1, 2]
    assert batch["seq"][0].tolist() == [0, 1, 2] and batch["seq"][1][0].tolist() == [0, 10, 20]
    assert default_collate([b"ab", b"cd"]) == [b"ab", b"cd"]
    scalars = default_collate([np.float64(0.5), np.float64(1.5)])
    assert scalars.dtype == torch.float64 and scalars.tolist() == [0.5, 1.5]


def test_collate_errors():
    with pytest.raises(RuntimeError, match="equal size"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="default_collate"):
        default_collate([object(), object()])
    with pytest.raises(TypeError, match="default_collate"):
        default_collate([np.array(["a"]), np.array(["b"])])
    with pytest.raises(RuntimeError):
        default_collate([torch.zeros(2), torch.zeros(3)])


def test_default_convert():
    out = default_convert({"a": np.arange(3), "b": (np.float64(1.5), "s"), "p": Point(np.int32(2), [np.ones(1)])})
    assert out["a"].dtype == torch.int64 and out["a"].tolist() == [0, 1, 2]
    assert isinstance(out["b"], list) and out["b"][0].dtype == torch.float64 and out["b"][1] == "s"
    assert isinstance(out["p"], Point) and out["p"].x.dtype == torch.int32 and out["p"].y[0].tolist() == [1.0]
    t = torch.ones(2)
    assert default_convert(t) is t
    strings = np.array(["x"])
    assert default_convert(strings) is strings


# ---------------------------------------------------------------- DataLoader, main process
@pytest.mark.parametrize("drop_last", [False, True])
def test_loader_batches(drop_last):
    x = torch.arange(20).reshape(10, 2)
    loader = DataLoader(TensorDataset(x, torch.arange(10)), batch_size=4, drop_last=drop_last)
    expected = [list(range(0, 4)), list(range(4, 8))] + ([] if drop_last else [[8, 9]])
    assert len(loader) == len(expected)
    for _ in range(2):  # iterating again gives the same epoch
        batches = list(loader)
        assert [b[1].tolist() for b in batches] == expected
        assert [b[0].tolist() for b in batches] == [[[2 * i, 2 * i + 1] for i in idx] for idx in expected]


def test_loader_without_batching_and_custom_collate():
    loader = DataLoader(Squares(3), batch_size=None)
    items = list(loader)
    assert len(loader) == 3 and items[2]["sq"].tolist() == [4] and items[2]["name"] == "item2"
    seen = []
    loader = DataLoader(range(7), batch_size=3, collate_fn=lambda b: seen.append(b) or sum(b))
    assert list(loader) == [3, 12, 6] and seen == [[0, 1, 2], [3, 4, 5], [6]]


def test_loader_shuffle_covers_every_index_once():
    loader = DataLoader(range(23), batch_size=5, shuffle=True, generator=gen(4))
    epochs = []
    for _ in range(3):
        batches = [b.tolist() for b in loader]
        assert [len(b) for b in batches] == [5, 5, 5, 5, 3]
        flat = sum(batches, [])
        assert sorted(flat) == list(range(23))
        epochs.append(flat)
    assert len({tuple(e) for e in epochs}) == 3  # each epoch its own order
    again = DataLoader(range(23), batch_size=5, shuffle=True, generator=gen(4))
    assert sum((b.tolist() for b in again), []) == epochs[0]


def test_loader_sampler_arguments():
    order = [4, 1, 3]
    assert [b.tolist() for b in DataLoader(range(5), sampler=order, batch_size=2)] == [[4, 1], [3]]
    assert [b.tolist() for b in DataLoader(range(5), batch_sampler=[[0, 2], [4]])] == [[0, 2], [4]]
    loader = DataLoader(range(5), batch_size=2)
    with pytest.raises(ValueError, match="should not be set"):
        loader.batch_size = 3


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(sampler=[0], shuffle=True), "mutually exclusive with shuffle"),
        (dict(batch_sampler=[[0]], batch_size=2), "batch_sampler option"),
        (dict(batch_sampler=[[0]], drop_last=True), "batch_sampler option"),
        (dict(batch_size=None, drop_last=True), "batch_size=None"),
        (dict(num_workers=-1), "num_workers"),
        (dict(timeout=-1), "timeout"),
        (dict(prefetch_factor=3), "prefetch_factor"),
        (dict(persistent_workers=True), "persistent_workers"),
        (dict(multiprocessing_context="fork"), "multiprocessing_context"),
    ],
)
def test_loader_argument_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        DataLoader(range(4), **kwargs)


def test_loader_iterable_dataset_single_process():
    loader = DataLoader(Range(0, 10), batch_size=4)
    assert [b.tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] and len(loader) == 3
    assert [b.tolist() for b in DataLoader(Range(0, 10), batch_size=4, drop_last=True)] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert [int(v) for v in DataLoader(Range(0, 3), batch_size=None)] == [0, 1, 2]
    for bad in (dict(shuffle=True), dict(sampler=[0]), dict(batch_sampler=[[0]])):
        with pytest.raises(ValueError, match="IterableDataset"):
            DataLoader(Range(0, 3), **bad)


# ---------------------------------------------------------------- DataLoader with workers
def test_workers_give_the_same_batches_in_order():
    ds = Squares(17, delay=0.01)
    single = as_lists(list(DataLoader(ds, batch_size=3)))
    multi = as_lists(list(DataLoader(ds, batch_size=3, num_workers=2)))
    assert multi == single
    assert single[-1]["name"] == ["item15", "item16"]
    shuffled0 = as_lists(list(DataLoader(ds, batch_size=4, shuffle=True, generator=gen(9))))
    shuffled2 = as_lists(
        list(DataLoader(ds, batch_size=4, shuffle=True, generator=gen(9), num_workers=2, prefetch_factor=3))
    )
    assert shuffled2 == shuffled0


@pytest.mark.parametrize("layout", LAYOUTS)
def test_workers_send_tensors_of_any_layout(layout, rng):
    x, xa = make_tensor((6, 4, 3), torch.float64, layout, rng)
    loader = DataLoader(TensorDataset(x), batch_size=None, num_workers=2)
    got = [sample[0] for sample in loader]
    assert len(got) == 6
    for i, t in enumerate(got):
        assert t.is_shared()
        np.testing.assert_array_equal(t.numpy(), xa[i])


def test_workers_drop_last_and_len():
    loader = DataLoader(range(11), batch_size=4, drop_last=True, num_workers=2)
    assert len(loader) == 2
    assert [b.tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_iterable_dataset_with_workers():
    sharded = [v for b in DataLoader(Range(0, 23), batch_size=4, num_workers=3) for v in b.tolist()]
    assert sorted(sharded) == list(range(23))  # no duplicates across workers
    # Without sharding each worker streams the whole dataset: every value once per worker.
    unsharded = [v for b in DataLoader(Range(0, 5, shard=False), batch_size=2, num_workers=2) for v in b.tolist()]
    assert collections.Counter(unsharded) == {v: 2 for v in range(5)}
    # len(loader) is the dataset's; yielding more than that warns.
    loader = DataLoader(Range(0, 3, shard=False), batch_size=None, num_workers=2)
    assert len(loader) == 3
    with pytest.warns(UserWarning, match="get_worker_info"):
        assert sorted(int(v) for v in loader) == [0, 0, 1, 1, 2, 2]
    # Workers whose streams end at different times: the others carry on.
    uneven = [v for b in DataLoader(Range(0, 3), batch_size=1, num_workers=2) for v in b.tolist()]
    assert sorted(uneven) == [0, 1, 2]


class Failing(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise ValueError("sample %d is broken" % i)
        if i == 6:
            raise KeyError("missing")
        return i


def test_worker_exception_is_reraised_with_traceback():
    loader = DataLoader(Failing(), batch_size=2, num_workers=2)
    it = iter(loader)
    assert next(it).tolist() == [0, 1] and next(it).tolist() == [2, 3]
    with pytest.raises(ValueError) as info:
        next(it)
    message = str(info.value)
    assert "Caught ValueError in DataLoader worker process 0" in message
    assert "sample 5 is broken" in message and "__getitem__" in message and "Traceback" in message
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process 1"):
        list(DataLoader(Failing(), batch_size=1, sampler=[0, 6], num_workers=2))
    with pytest.raises(Exception, match="(?s)Caught .* in DataLoader worker process 0 \\(sending the batch\\)"):
        list(DataLoader([lambda: 0], batch_size=None, num_workers=1))  # a sample that cannot be pickled
    workers = it._workers
    del it, info  # the traceback holds the iterator too
    gc.collect()
    assert not any(w.is_alive() for w in workers)


class ReportsWorker(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return [info.id, info.num_workers, info.seed, torch.initial_seed(), random.random(), _init_marker[0]]


_init_marker = [None]


def mark_worker(worker_id):
    _init_marker[0] = 100 + worker_id
    assert get_worker_info().id == worker_id


def test_worker_info_seeds_and_init_fn():
    assert get_worker_info() is None
    torch.manual_seed(123)
    rows = list(DataLoader(ReportsWorker(), batch_size=None, num_workers=2, worker_init_fn=mark_worker))
    assert _init_marker[0] is None  # worker_init_fn ran in the workers, not here
    by_worker = {}
    for wid, num, seed, initial, _, marker in rows:
        assert num == 2 and marker == 100 + wid and initial == seed
        by_worker.setdefault(wid, set()).add(seed)
    assert set(by_worker) == {0, 1}
    seeds = {w: s.pop() for w, s in by_worker.items()}
    assert seeds[1] == seeds[0] + 1  # one base seed per iterator, plus the worker id
    draws = [r[4] for r in rows]
    assert len(set(draws)) == len(draws)  # Python's random is seeded per worker too
    # The base seed comes from the loader's generator (or the global one): reproducible.
    torch.manual_seed(123)
    rows2 = list(DataLoader(ReportsWorker(), batch_size=None, num_workers=2, worker_init_fn=mark_worker))
    assert rows2 == rows


def test_worker_init_fn_error_is_reraised():
    def broken(worker_id):
        raise RuntimeError("init failed in %d" % worker_id)

    with pytest.raises(RuntimeError, match="init failed in 0"):
        list(DataLoader(range(4), num_workers=2, worker_init_fn=broken))


def test_persistent_workers():
    loader = DataLoader(Squares(9), batch_size=2, num_workers=2, persistent_workers=True)
    reference = as_lists(list(DataLoader(Squares(9), batch_size=2)))
    first = iter(loader)
    pids = [w.pid for w in first._workers]
    assert as_lists(list(first)) == reference
    partial = iter(loader)
    next(partial)  # an epoch left half-way: the next one starts from the beginning
    assert iter(loader) is first and as_lists(list(loader)) == reference
    assert [w.pid for w in loader._iterator._workers] == pids and all(w.is_alive() for w in first._workers)
    workers = first._workers
    del loader, first, partial
    gc.collect()
    assert not any(w.is_alive() for w in workers)


def test_deleting_iterator_stops_workers_and_frees_prefetched_batches():
    loader = DataLoader(Squares(40), batch_size=2, num_workers=2, prefetch_factor=4)
    it = iter(loader)
    next(it)
    time.sleep(0.2)  # let the workers fill the queue with prefetched batches
    workers = it._workers
    del it
    gc.collect()
    assert not any(w.is_alive() for w in workers)
    # no_leaks checks /dev/shm: the batches nobody took were unlinked


class Slow(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        time.sleep(1.0)
        return i


def test_timeout():
    with pytest.raises(RuntimeError, match="timed out after 0.2 seconds"):
        list(DataLoader(Slow(), num_workers=1, timeout=0.2))


class Dies(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            os._exit(3)
        return i


def test_worker_death_is_reported():
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        list(DataLoader(Dies(), num_workers=1))


class BigSums(Dataset):
    """Each sample runs a kernel big enough to be split over OpenMP threads."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        x = torch.full((1000, 1000), float(i))
        return (x + x).sum()


def test_workers_survive_openmp_in_the_parent():
    # The parent's OpenMP pool does not exist in a forked child: a worker that used it would
    # hang (caught here by the timeout). Workers run kernels on one thread instead.
    assert (torch.ones(1000, 1000) + 1).sum().item() == 2e6  # the parent starts its pool
    sums = [b.item() for b in DataLoader(BigSums(), batch_size=None, num_workers=2, timeout=20)]
    assert sums == [2e6 * i for i in range(4)]


def test_set_num_threads():
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    assert torch.get_num_threads() == before
    with pytest.raises(RuntimeError, match="positive"):
        torch.set_num_threads(0)


def test_pin_memory_is_accepted():
    assert [b.tolist() for b in DataLoader(range(3), batch_size=2, pin_memory=True, num_workers=1)] == [[0, 1], [2]]


# ---------------------------------------------------------------- shared memory
def mapped_file_of(address):
    """The file backing the mapping that holds address in this process (/proc/self/maps)."""
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split()
            lo, hi = (int(v, 16) for v in fields[0].split("-"))
            if lo <= address < hi:
                return " ".join(fields[5:]) if len(fields) > 5 else ""
    return None


def test_batches_arrive_in_shared_memory():
    x = torch.rand(64, 256, dtype=torch.float64)
    batches = list(DataLoader(TensorDataset(x), batch_size=16, num_workers=2))
    assert [tuple(b[0].shape) for b in batches] == [(16, 256)] * 4
    for k, (b,) in enumerate(batches):
        assert b.is_shared() and b.storage().is_shared()
        np.testing.assert_array_equal(b.numpy(), x.numpy()[16 * k : 16 * (k + 1)])
        # The batch's memory is a mapping of shared memory that never had a name in /dev/shm
        # (a memfd whose descriptor came over a socket), so the main process reads the
        # worker's bytes where they are, not a copy.
        backing = mapped_file_of(b.data_ptr())
        assert backing.startswith("/memfd:torch_shared") and backing.endswith("(deleted)"), backing
    assert not any(b[0].is_shared() for b in DataLoader(TensorDataset(x), batch_size=16))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.int16, torch.bool, torch.float16])
def test_queue_message_is_a_small_handle(layout, dtype, rng):
    t, a = make_tensor((300, 200), dtype, layout, rng)
    message = ForkingPickler.dumps(t)
    assert len(message) < 400 < t.numel()  # the elements are not in the message
    assert len(pickle.dumps(t)) > t.storage().nbytes()  # (ordinary pickles still hold them)
    received = pickle.loads(message)
    assert received.is_shared() and received.dtype == dtype
    assert received.stride() == t.stride()  # layout kept, expanded and strided views included
    np.testing.assert_array_equal(received.numpy(), a)


def test_queue_handles_edge_cases():
    empty = torch.zeros(0, 3)
    got = pickle.loads(ForkingPickler.dumps(empty))
    assert tuple(got.shape) == (0, 3)
    s = torch.DoubleStorage([1.5, 2.5, 3.5])
    got_s = pickle.loads(ForkingPickler.dumps(s))
    assert isinstance(got_s, torch.DoubleStorage) and got_s.is_shared() and list(got_s) == [1.5, 2.5, 3.5]
    view = torch.arange(10.0).narrow(0, 3, 4)
    got_v = pickle.loads(ForkingPickler.dumps(view))
    # A view travels with its whole storage (moved to shared memory) and its place in it.
    assert got_v.tolist() == [3.0, 4.0, 5.0, 6.0] and got_v.storage_offset() == 3 and len(got_v.storage()) == 10
    assert view.is_shared() and got_v.data_ptr() != view.data_ptr()
    view[0] = -1.0  # two mappings of one memory
    assert got_v[0].item() == -1.0
    leaf = torch.ones(3, requires_grad=True)
    assert pickle.loads(ForkingPickler.dumps(leaf)).requires_grad
    with pytest.raises(RuntimeError, match="non-leaf"):
        ForkingPickler.dumps(leaf * 2)


def test_shared_memory_by_descriptor():
    fd = os.memfd_create("torch_q_test_fd", os.MFD_CLOEXEC)
    try:
        made = torch._C._StorageBase._shm_fd_cdata(torch.int32, fd, 5)  # grows the empty memfd
        assert os.fstat(fd).st_size == 5 * 4
        made._tensor().copy_(torch.arange(5, dtype=torch.int32))
        opened = torch._C._StorageBase._shm_fd_cdata(torch.int32, fd, 5)
    finally:
        os.close(fd)  # the storages keep descriptors of their own
    assert opened.is_shared() and made.is_shared() and opened._tensor().tolist() == [0, 1, 2, 3, 4]
    made._tensor().fill_(7)  # one memory, two mappings
    assert opened._tensor().tolist() == [7] * 5
    with pytest.raises(RuntimeError, match="cannot open"):
        torch._C._StorageBase._shm_fd_cdata(torch.int32, 1 << 20, 5)  # no such descriptor
    with pytest.raises(ValueError, match="positive size"):
        torch._C._StorageBase._shm_fd_cdata(torch.int32, 0, 0)


def _send_tensor(q):
    q.put(torch.arange(1000, dtype=torch.int32).reshape(10, 100))


def test_plain_multiprocessing_queue_carries_tensors():
    context = multiprocessing.get_context("fork")
    q = context.Queue()
    p = context.Process(target=_send_tensor, args=(q,))
    p.start()
    # The child has returned from put long before: it waits at exit until its tensor's memory
    # is fetched (PyTorch's file_descriptor strategy would refuse the connection here).
    time.sleep(0.5)
    assert p.exitcode is None
    got = q.get(timeout=10)
    p.join(timeout=10)
    assert p.exitcode == 0
    assert got.is_shared() and got.tolist() == np.arange(1000).reshape(10, 100).tolist()


def _send_tensor_with_a_slow_handoff(q):
    # The handle server takes its descriptor off the pending list, then sends it: a slow send
    # (a loaded machine) must not let the child's exit-time wait end in between.
    plain_send = multiprocessing.reduction.send_handle

    def slow_send(conn, fd, pid):
        time.sleep(0.5)
        plain_send(conn, fd, pid)

    multiprocessing.reduction.send_handle = slow_send
    _send_tensor(q)


def test_a_sender_exits_only_after_its_descriptor_was_sent():
    context = multiprocessing.get_context("fork")
    q = context.Queue()
    p = context.Process(target=_send_tensor_with_a_slow_handoff, args=(q,))
    p.start()
    got = q.get(timeout=10)
    p.join(timeout=10)
    assert p.exitcode == 0
    assert got.tolist() == np.arange(1000).reshape(10, 100).tolist()


# A training script in a subprocess: a DataLoader whose workers prefetch 1 MB batches faster
# than the loop takes them, so that batches are in flight when it is killed.
KILLED_SCRIPT = r"""
import time
import torch
from torch.utils.data import DataLoader, TensorDataset
x = torch.rand(4096, 4096)
for i, (b,) in enumerate(DataLoader(TensorDataset(x), batch_size=64, num_workers=4, prefetch_factor=2)):
    if i == 1:
        print("mid-epoch", flush=True)
    time.sleep(0.2)
"""


def _mapped_names(pid):
    try:
        with open("/proc/%d/maps" % pid) as f:
            return {" ".join(line.split()[5:]) for line in f if len(line.split()) > 5}
    except FileNotFoundError:
        return set()


def test_killing_a_loader_and_its_workers_together_leaves_nothing_in_dev_shm():
    """Finding 5 of issue 14: SIGKILL on the main process and its workers at once (the OOM
    killer) left 8 named segments in /dev/shm every time; the memory now has no name."""
    before = torch_names_in_dev_shm()
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_SCRIPT],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, workers included
    )
    try:
        assert proc.stdout.readline().strip() == "mid-epoch"
        time.sleep(1.0)  # every worker has prefetched its batches by now
        group = [int(p) for p in os.listdir("/proc") if p.isdigit() and _pgid(int(p)) == proc.pid]
        assert len(group) == 5, group  # the loop and its 4 workers
        # Batches really travel through shared memory: the loop maps workers' memfds.
        assert any(n.startswith("/memfd:torch_shared") for n in _mapped_names(proc.pid)), _mapped_names(proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_pgid(int(p)) == proc.pid for p in os.listdir("/proc") if p.isdigit()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert torch_names_in_dev_shm() - before == set()


def _pgid(pid):
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None
