"""Settings applied across a DataPipe graph (PyTorch 1.13's torch.utils.data.graph_settings):
sharding for workers, shuffling on or off, seeds for the random DataPipes."""

import inspect
import warnings

import torch
from torch.utils.data.graph import traverse_dps

__all__ = ["apply_random_seed", "apply_sharding", "apply_shuffle_seed", "apply_shuffle_settings", "get_all_graph_pipes"]


def get_all_graph_pipes(graph):
    """Every DataPipe of a traverse_dps graph, once each, from the end back."""
    results, seen = [], set()

    def walk(g):
        for dp_id, (datapipe, sub_graph) in g.items():
            if dp_id in seen:
                continue
            seen.add(dp_id)
            results.append(datapipe)
            walk(sub_graph)

    walk(graph)
    return results


def apply_sharding(datapipe, num_of_instances, instance_id):
    """apply_sharding(num_of_instances, instance_id) on the graph's one shardable DataPipe."""
    applied_to = None
    for pipe in get_all_graph_pipes(traverse_dps(datapipe)):
        if hasattr(pipe, "is_shardable") and pipe.is_shardable() and hasattr(pipe, "apply_sharding"):
            if applied_to is not None:
                raise RuntimeError(
                    "This implementation of sharding can be only applied once per instance of DataPipeline.",
                    "Already applied to",
                    applied_to,
                    "while trying to apply to",
                    pipe,
                )
            pipe.apply_sharding(num_of_instances, instance_id)
            applied_to = pipe
    return datapipe


def _is_shuffle_datapipe(datapipe):
    return (
        hasattr(datapipe, "set_shuffle")
        and hasattr(datapipe, "set_seed")
        and inspect.ismethod(datapipe.set_shuffle)
        and inspect.ismethod(datapipe.set_seed)
    )


def apply_shuffle_settings(datapipe, shuffle=None):
    """Shuffling on or off in every shuffling DataPipe of the graph (None: unchanged); a
    Shuffler is added at the end where shuffle=True finds none."""
    if shuffle is None:
        return datapipe
    shufflers = [pipe for pipe in get_all_graph_pipes(traverse_dps(datapipe)) if _is_shuffle_datapipe(pipe)]
    if not shufflers and shuffle:
        warnings.warn(
            "`shuffle=True` was set, but the datapipe does not contain a `Shuffler`. Adding one at the end. "
            "Be aware that the default buffer size might not be sufficient for your task."
        )
        datapipe = datapipe.shuffle()
        shufflers = [datapipe]
    for shuffler in shufflers:
        shuffler.set_shuffle(shuffle)
    return datapipe


def apply_random_seed(datapipe, rng):
    """A seed drawn from the generator rng for each random DataPipe (one with set_seed)."""
    seen, random_pipes = set(), []
    for pipe in get_all_graph_pipes(traverse_dps(datapipe)):
        if id(pipe) not in seen and hasattr(pipe, "set_seed") and inspect.ismethod(pipe.set_seed):
            random_pipes.append(pipe)
            seen.add(id(pipe))
    for pipe in random_pipes:
        pipe.set_seed(int(torch.empty((), dtype=torch.int64).random_(generator=rng).item()))
    return datapipe


def apply_shuffle_seed(datapipe, rng):
    warnings.warn(
        "`apply_shuffle_seed` is deprecated since 1.12 and will be removed in the future releases."
        "\nPlease use `apply_random_seed` instead."
    )
    return apply_random_seed(datapipe, rng)
