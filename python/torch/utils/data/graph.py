"""The graph of a DataPipe pipeline (PyTorch 1.13's torch.utils.data.graph): which DataPipes
each one reads from, found among its attributes (directly, or inside lists, tuples, sets and
dicts)."""

import warnings

from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe

__all__ = ["traverse", "traverse_dps"]

DataPipe = (IterDataPipe, MapDataPipe)


def _connected(datapipe):
    found = []

    def visit(value):
        if isinstance(value, DataPipe):
            found.append(value)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                visit(v)
        elif isinstance(value, dict):
            for v in value.values():
                visit(v)

    for value in vars(datapipe).values():
        visit(value)
    unique, seen = [], set()
    for dp in found:
        if id(dp) not in seen and dp is not datapipe:
            seen.add(id(dp))
            unique.append(dp)
    return unique


def _traverse_helper(datapipe, cache):
    if not isinstance(datapipe, DataPipe):
        raise RuntimeError("Expected `IterDataPipe` or `MapDataPipe`, but {} is found".format(type(datapipe)))
    dp_id = id(datapipe)
    if dp_id in cache:
        return {}
    cache.add(dp_id)
    graph = {dp_id: (datapipe, {})}
    for item in _connected(datapipe):
        # a copy per path: a DataPipe may appear on several paths, only not twice on one
        graph[dp_id][1].update(_traverse_helper(item, cache.copy()))
    return graph


def traverse_dps(datapipe):
    """{id(datapipe): (datapipe, the same for each DataPipe it reads from)}."""
    return _traverse_helper(datapipe, set())


def traverse(datapipe, only_datapipe=None):
    """traverse_dps, under its deprecated name."""
    msg = "`traverse` function and will be removed after 1.13. Please use `traverse_dps` instead."
    if not only_datapipe:
        msg += " And, the behavior will be changed to the equivalent of `only_datapipe=True`."
    warnings.warn(msg, FutureWarning)
    return traverse_dps(datapipe)
