"""DataLoader: batches from a dataset, read in the main process or in worker processes.

Note [DataLoader workers]
With num_workers > 0 each iterator (or, with persistent_workers, the loader's one iterator)
starts that many processes (fork on Linux: the dataset is inherited, not pickled). The main
process hands out sampler entries as numbered tasks, round robin, keeping at most
prefetch_factor tasks per worker in flight, and yields results in task order whatever order
they arrive in. Batches come back as shared-memory handles (Note [Tensors through queues]).
A worker's exception is re-raised in the main process with the worker's traceback text; a
worker that dies is reported as a RuntimeError. Workers exit when the iterator is exhausted
or deleted (and at interpreter exit); the shared memory of batches nobody took has no name
and goes with the worker that made it.
"""

import collections.abc
import atexit
import functools
import itertools
import multiprocessing
import os
import queue
import time
import warnings

import torch
from torch.utils.data import _worker, graph_settings
from torch.utils.data._fetch import DatasetKind, create_fetcher
from torch.utils.data.collate import default_collate, default_convert
from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe
from torch.utils.data.dataset import IterableDataset
from torch.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

get_worker_info = _worker.get_worker_info

# How long shutdown waits for workers to finish on their own before terminating them.
_SHUTDOWN_TIMEOUT = 5.0


class _InfiniteConstantSampler(Sampler):
    """The index sampler of an IterableDataset: None forever (the dataset decides when to stop)."""

    def __iter__(self):
        while True:
            yield None


def _pin(data):
    """data with every tensor in it pinned (PyTorch's pin_memory of a batch): tensors, mappings,
    named tuples, sequences, and objects with a pin_memory() method."""
    if isinstance(data, torch.Tensor):
        return data.pin_memory()
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        try:
            return type(data)({k: _pin(v) for k, v in data.items()})
        except TypeError:
            return {k: _pin(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(_pin(v) for v in data))
    if isinstance(data, tuple):
        return tuple(_pin(v) for v in data)
    if isinstance(data, collections.abc.Sequence):
        try:
            return type(data)([_pin(v) for v in data])
        except TypeError:
            return [_pin(v) for v in data]
    if hasattr(data, "pin_memory"):
        return data.pin_memory()
    return data


class DataLoader:
    """Iterates over a dataset in batches (PyTorch 1.13's arguments and defaults).

    batch_size=None disables batching: each sample is only converted (default_convert).
    pin_memory=True pins each batch's tensors where a GPU is available (and does nothing
    elsewhere, as in PyTorch 1.13)."""

    _initialized = False

    def __init__(
        self,
        dataset,
        batch_size=1,
        shuffle=None,
        sampler=None,
        batch_sampler=None,
        num_workers=0,
        collate_fn=None,
        pin_memory=False,
        drop_last=False,
        timeout=0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor=2,
        persistent_workers=False,
        pin_memory_device="",
    ):
        if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing. let num_workers > 0 "
                "to enable multiprocessing."
            )
        if isinstance(prefetch_factor, bool) or not isinstance(prefetch_factor, int) or prefetch_factor <= 0:
            raise ValueError(
                "prefetch_factor should be a positive integer, but got prefetch_factor=%r" % (prefetch_factor,)
            )
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = DatasetKind.Iterable
            # The stream decides the order; the sampler arguments have no meaning here. A DataPipe
            # pipeline takes shuffle as its Shufflers' setting.
            if isinstance(dataset, IterDataPipe):
                if shuffle is not None:
                    dataset = self.dataset = graph_settings.apply_shuffle_settings(dataset, shuffle=shuffle)
                shuffle = None
            if shuffle not in (None, False):
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                    "shuffle=%r" % (shuffle,)
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, but got "
                    "sampler=%r" % (sampler,)
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                    "got batch_sampler=%r" % (batch_sampler,)
                )
        else:
            self._dataset_kind = DatasetKind.Map
        shuffle = bool(shuffle)

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")

        if sampler is None:
            if self._dataset_kind == DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called = None
        self._iterator = None
        self._initialized = True

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            if self.num_workers == 0:
                raise ValueError(
                    "multiprocessing_context can only be used with multi-process loading "
                    "(num_workers > 0), but got num_workers=%d" % self.num_workers
                )
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(
                        "multiprocessing_context option should specify a valid start method in %r, but "
                        "got multiprocessing_context=%r" % (methods, context)
                    )
                context = multiprocessing.get_context(context)
            elif not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError(
                    "multiprocessing_context option should be a valid context object or a string "
                    "specifying the start method, but got multiprocessing_context=%r" % (context,)
                )
        self._multiprocessing_context = context

    def __setattr__(self, name, value):
        # The samplers are built from these in __init__: changing one later would be ignored.
        if self._initialized and name in (
            "batch_size",
            "batch_sampler",
            "sampler",
            "drop_last",
            "dataset",
            "persistent_workers",
        ):
            raise ValueError("%s attribute should not be set after %s is initialized" % (name, type(self).__name__))
        object.__setattr__(self, name, value)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def __len__(self):
        if self._dataset_kind == DatasetKind.Iterable:
            # The stream's own length (TypeError if it has none); with workers each yields its
            # part, so this is only right if the dataset shards itself with get_worker_info().
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    return length // self.batch_size
                return (length + self.batch_size - 1) // self.batch_size
            return length
        return len(self._index_sampler)


def _sharding_worker_init_fn(worker_init_fn, worker_id):
    """Shards the worker's copy of a DataPipe pipeline, then runs the user's worker_init_fn."""
    info = _worker.get_worker_info()
    graph_settings.apply_sharding(info.dataset, info.num_workers, worker_id)
    if worker_init_fn is not None:
        worker_init_fn(worker_id)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._persistent_workers = loader.persistent_workers
        self._sampler_iter = iter(self._index_sampler)
        if isinstance(self._dataset, IterDataPipe):
            # one seed for the pipeline's random DataPipes, drawn first as PyTorch draws it
            shared_seed = int(torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item())
            shared_rng = torch.Generator()
            shared_rng.manual_seed(shared_seed)
            self._dataset = graph_settings.apply_random_seed(self._dataset, shared_rng)
        self._base_seed = int(torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item())
        self._num_yielded = 0
        # PyTorch 1.13 pins only where there is a GPU to copy to; elsewhere the flag does nothing
        self._pin_memory = loader.pin_memory and torch.cuda.is_available()

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        if self._pin_memory:
            data = _pin(data)
        self._num_yielded += 1
        if (
            self._dataset_kind == DatasetKind.Iterable
            and self._IterableDataset_len_called is not None
            and self._num_yielded > self._IterableDataset_len_called
        ):
            warnings.warn(
                "Length of IterableDataset %r was reported to be %d (when accessing len(dataloader)), but "
                "%d samples have been fetched. With workers, shard the dataset with get_worker_info()."
                % (self._dataset, self._IterableDataset_len_called, self._num_yielded)
            )
        return data

    def __len__(self):
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        self._fetcher = create_fetcher(
            self._dataset_kind, self._dataset, self._auto_collation, self._collate_fn, self._drop_last
        )

    def _next_data(self):
        index = self._next_index()  # StopIteration here ends the epoch
        return self._fetcher.fetch(index)


class _WorkerPool:
    """The worker processes of one iterator, their queues, and their shutdown.

    Note [Pools outlive their iterator]
    An iterator is often freed by the garbage collector, as part of a cycle (an exception's
    traceback holds its frames). The collector runs weakref callbacks before __del__, and
    multiprocessing stops a queue's feeder thread from such a callback: the exit message
    __del__ then puts on an index queue would never be written, and shutdown would wait for
    workers that never hear it. So every pool is held by _live_pools, outside any cycle,
    until it is shut down; at interpreter exit the pools still there are shut down before
    multiprocessing's own exit handler (registered earlier, so run later) kills the workers.
    """

    def __init__(self, context, num_workers, worker_args):
        self.owner = os.getpid()  # a forked worker inherits the pool object, and must not shut it down
        self.result_queue = context.Queue()
        self.done_event = context.Event()
        self.index_queues = []
        self.workers = []
        self.closed = False
        _live_pools.add(self)
        try:
            for worker_id in range(num_workers):
                index_queue = context.Queue()
                index_queue.cancel_join_thread()  # tasks left unread at exit are of no use
                w = context.Process(
                    target=_worker.worker_loop,
                    args=worker_args(worker_id, index_queue, self.result_queue, self.done_event),
                    daemon=True,
                )
                w.start()
                self.index_queues.append(index_queue)
                self.workers.append(w)
        except BaseException:
            self.shutdown()
            raise

    def shutdown(self):
        if self.closed or os.getpid() != self.owner:
            return
        self.closed = True
        _live_pools.discard(self)
        try:
            self.done_event.set()
            for q in self.index_queues:
                q.put(None)
            # A worker exits only once its queue's feeder has written everything out, so keep
            # reading (and dropping, unopened: their memory goes with the worker) meanwhile.
            deadline = time.monotonic() + _SHUTDOWN_TIMEOUT
            while any(w.is_alive() for w in self.workers) and time.monotonic() < deadline:
                try:
                    self.result_queue.get(timeout=0.05)
                except queue.Empty:
                    pass
        finally:
            for w in self.workers:
                if w.is_alive():
                    w.terminate()
                w.join()
            for q in self.index_queues:
                q.close()
            self.result_queue.cancel_join_thread()
            self.result_queue.close()


_live_pools = set()


@atexit.register
def _shutdown_live_pools():
    for pool in list(_live_pools):
        pool.shutdown()


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        context = loader.multiprocessing_context
        if context is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)

        worker_init_fn = loader.worker_init_fn
        if isinstance(self._dataset, (IterDataPipe, MapDataPipe)):
            # each worker keeps its share of a pipeline's items (its ShardingFilter)
            worker_init_fn = functools.partial(_sharding_worker_init_fn, loader.worker_init_fn)

        def worker_args(worker_id, index_queue, result_queue, done_event):
            return (
                self._dataset_kind,
                self._dataset,
                index_queue,
                result_queue,
                done_event,
                self._auto_collation,
                self._collate_fn,
                self._drop_last,
                self._base_seed,
                worker_init_fn,
                worker_id,
                self._num_workers,
                self._persistent_workers,
            )

        self._pool = _WorkerPool(context, self._num_workers, worker_args)
        self._workers = self._pool.workers
        self._index_queues = self._pool.index_queues
        self._worker_result_queue = self._pool.result_queue
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0  # next task number to hand out
        self._rcvd_idx = 0  # next task number to yield
        # task number -> (worker id,) while outstanding, (worker id, data) once arrived early
        self._task_info = {}
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            # Persistent workers: results of the last epoch's leftover tasks are dropped until
            # every worker has echoed the resume message.
            for q in self._index_queues:
                q.put(_worker.ResumeIteration())
            waiting = self._num_workers
            while waiting > 0:
                idx, _ = self._get_data()
                if isinstance(idx, _worker.ResumeIteration):
                    waiting -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self):
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return  # every worker's stream has ended
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_id,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _try_get_data(self, timeout):
        try:
            return True, _worker.receive(self._worker_result_queue, timeout)
        except queue.Empty:
            failure = None
        except (OSError, EOFError) as e:
            # A batch whose worker died before the main process fetched its shared memory
            # (Note [Tensors through queues]): the worker's death is the error to report.
            failure = e
        deadline = time.monotonic() + (_worker.STATUS_CHECK_INTERVAL if failure is not None else 0)
        while True:
            dead = [w for w_id, w in enumerate(self._workers) if self._workers_status[w_id] and not w.is_alive()]
            if dead or time.monotonic() >= deadline:
                break
            time.sleep(0.01)
        if dead:
            detail = ", ".join("pid %d exit code %s" % (w.pid, w.exitcode) for w in dead)
            self._shutdown_workers()
            raise RuntimeError("DataLoader worker (%s) exited unexpectedly" % detail) from None
        if failure is not None:
            raise failure
        return False, None

    def _get_data(self):
        if self._timeout > 0:
            ok, data = self._try_get_data(self._timeout)
            if not ok:
                raise RuntimeError("DataLoader timed out after %s seconds" % self._timeout)
            return data
        while True:
            ok, data = self._try_get_data(_worker.STATUS_CHECK_INTERVAL)
            if ok:
                return data

    def _next_data(self):
        while True:
            # Skip tasks that were given to workers whose stream has ended since.
            while self._rcvd_idx < self._send_idx:
                info = self._task_info[self._rcvd_idx]
                if len(info) == 2 or self._workers_status[info[0]]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration

            if len(self._task_info[self._rcvd_idx]) == 2:  # arrived earlier, out of order
                return self._process_data(self._task_info.pop(self._rcvd_idx)[1])

            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if isinstance(data, _worker.IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                self._task_info[idx] += (data,)
                continue
            del self._task_info[idx]
            return self._process_data(data)

    def _process_data(self, data):
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_as_unavailable(self, worker_id):
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self):
        pool = getattr(self, "_pool", None)  # absent if __init__ failed
        if pool is not None:
            pool.shutdown()

    def __del__(self):
        self._shutdown_workers()
