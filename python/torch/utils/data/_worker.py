"""What runs inside a DataLoader worker process, and what the worker tells the main process.

A worker takes (task index, sampler output) pairs from its index queue, fetches and
collates the batch, and puts (task index, batch) on the result queue shared by all
workers; the batch's tensors travel as shared-memory handles (Note [Tensors through queues]
in torch/multiprocessing/reductions.py). A failure travels as an ExceptionWrapper holding the worker's traceback
text, re-raised by the main process. None on the index queue means: exit.

The worker pickles each result itself (send) and queues the bytes: the queue's feeder
thread would otherwise pickle it later, where a batch that cannot be pickled is only
printed and dropped, and the main process would wait for it forever.
"""

import os
import pickle
import queue
import random
import sys
import traceback
from multiprocessing.reduction import ForkingPickler

import numpy as np

import torch
from torch.utils.data._fetch import DatasetKind, create_fetcher
from torch.multiprocessing.reductions import abandon_unreceived

# How often a waiting worker (and the waiting main process) looks whether the other side is alive.
STATUS_CHECK_INTERVAL = 1.0

_worker_info = None


class WorkerInfo:
    """What get_worker_info() returns in a worker: id, num_workers, seed, dataset (the
    worker's own copy). Read-only."""

    _frozen = False

    def __init__(self, **fields):
        for key, value in fields.items():
            setattr(self, key, value)
        self._keys = tuple(fields)
        self._frozen = True

    def __setattr__(self, key, value):
        if self._frozen:
            raise RuntimeError("Cannot assign attributes to %s objects" % type(self).__name__)
        object.__setattr__(self, key, value)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (k, getattr(self, k)) for k in self._keys))


def get_worker_info():
    """In a DataLoader worker process: its WorkerInfo (id, num_workers, seed, dataset). In the
    main process: None. An IterableDataset uses it to give each worker its own part."""
    return _worker_info


class KeyErrorMessage(str):
    """KeyError prints its argument's repr; this str prints as itself, keeping the
    traceback's line breaks readable."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception caught in a worker, as its type and traceback text (picklable, unlike
    the traceback itself)."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = "Caught %s %s.\nOriginal %s" % (self.exc_type.__name__, self.where, self.exc_msg)
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except TypeError:  # an exception type whose constructor wants other arguments
            raise RuntimeError(msg) from None
        raise exception


class IterableDatasetStopIteration:
    """A worker's IterableDataset copy is exhausted."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class ResumeIteration:
    """Persistent workers: a new epoch starts (sent to the worker, echoed back)."""


def send(data_queue, idx, data, worker_id):
    try:
        message = ForkingPickler.dumps((idx, data))
    except Exception:
        message = ForkingPickler.dumps(
            (idx, ExceptionWrapper(where="in DataLoader worker process %d (sending the batch)" % worker_id))
        )
    data_queue.put(bytes(message))


def receive(data_queue, timeout):
    """(task index, data) from a worker; queue.Empty after timeout seconds."""
    return pickle.loads(data_queue.get(timeout=timeout))


def _seed_worker(seed, worker_id):
    random.seed(seed)
    torch.manual_seed(seed)
    np.random.seed(np.random.SeedSequence([worker_id, seed]).generate_state(4))


def worker_loop(
    dataset_kind,
    dataset,
    index_queue,
    data_queue,
    done_event,
    auto_collation,
    collate_fn,
    drop_last,
    base_seed,
    init_fn,
    worker_id,
    num_workers,
    persistent_workers,
):
    global _worker_info
    parent = os.getppid()
    try:
        # A forked child must not use the OpenMP thread pool it inherited (its threads do not
        # exist here): one thread per worker, as PyTorch does.
        torch.set_num_threads(1)
        seed = base_seed + worker_id
        _seed_worker(seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)

        init_exception = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_exception = ExceptionWrapper(where="in DataLoader worker process %d" % worker_id)

        iteration_end = False
        while os.getppid() == parent:  # the main process died: nobody will read what we make
            try:
                task = index_queue.get(timeout=STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if isinstance(task, ResumeIteration):
                send(data_queue, task, None, worker_id)
                iteration_end = False
                if dataset_kind == DatasetKind.Iterable and init_exception is None:
                    fetcher = create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
                continue
            if task is None:
                abandon_unreceived()  # the main process drops what it has not read
                break
            if done_event.is_set() or iteration_end:
                continue  # the loader is shutting down, or this worker's stream has ended
            idx, index = task
            if init_exception is not None:
                data = init_exception  # every task fails: this worker has nothing to fetch with
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:
                    if isinstance(e, StopIteration) and dataset_kind == DatasetKind.Iterable:
                        data = IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(where="in DataLoader worker process %d" % worker_id)
            send(data_queue, idx, data, worker_id)
            del data, idx, index, task
        else:
            # The main process is gone: what is queued will never be read (and may never be
            # written, if the pipe is full); its shared memory goes with this process.
            data_queue.cancel_join_thread()
            abandon_unreceived()
    except KeyboardInterrupt:
        pass  # the main process handles Ctrl-C and shuts workers down
