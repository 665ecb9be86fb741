"""init_process_group's rendezvous: an init_method URL to (store, rank, world_size).

env://   MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE from the environment (what the launcher sets)
tcp://host:port?rank=r&world_size=n   a TCPStore on host:port, rank 0 serving it
file:///path?rank=r&world_size=n      a FileStore in that file
Arguments to init_process_group override the URL's query and the environment.
"""

import os
from urllib.parse import parse_qs, urlparse

from ._store import FileStore, TCPStore

__all__ = ["rendezvous", "register_rendezvous_handler"]

_handlers = {}


def register_rendezvous_handler(scheme, handler):
    if scheme in _handlers:
        raise RuntimeError(f"Rendezvous handler for {scheme}:// already registered")
    _handlers[scheme] = handler


def _pick(given, query, key, env=None):
    if given is not None and given >= 0:
        return given
    if key in query:
        return int(query[key][0])
    if env and env in os.environ:
        return int(os.environ[env])
    raise ValueError(
        f"Error initializing torch.distributed using the init method: {key} is not set "
        f"(pass it, put it in the URL's query{', or set ' + env if env else ''})"
    )


def _tcp(url, rank, world_size, timeout):
    if not url.hostname or not url.port:
        raise ValueError(f"tcp:// init method needs a host and a port, got {url.geturl()!r}")
    query = parse_qs(url.query)
    rank = _pick(rank, query, "rank")
    world_size = _pick(world_size, query, "world_size")
    store = TCPStore(url.hostname, url.port, world_size, rank == 0, timeout)
    return store, rank, world_size


def _env(url, rank, world_size, timeout):
    query = parse_qs(url.query)
    rank = _pick(rank, query, "rank", "RANK")
    world_size = _pick(world_size, query, "world_size", "WORLD_SIZE")
    for var in ("MASTER_ADDR", "MASTER_PORT"):
        if var not in os.environ:
            raise ValueError(
                f"Error initializing torch.distributed using env:// rendezvous: environment variable "
                f"{var} expected, but not set"
            )
    store = TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world_size, rank == 0, timeout)
    return store, rank, world_size


def _file(url, rank, world_size, timeout):
    query = parse_qs(url.query)
    rank = _pick(rank, query, "rank")
    world_size = _pick(world_size, query, "world_size")
    store = FileStore(url.path, world_size)
    store.set_timeout(timeout)
    return store, rank, world_size


register_rendezvous_handler("tcp", _tcp)
register_rendezvous_handler("env", _env)
register_rendezvous_handler("file", _file)


def rendezvous(url, rank=-1, world_size=-1, timeout=None):
    parsed = urlparse(url)
    if parsed.scheme not in _handlers:
        raise RuntimeError(f"No rendezvous handler for {parsed.scheme}://")
    from datetime import timedelta

    return _handlers[parsed.scheme](
        parsed,
        None if rank is None else rank,
        None if world_size is None else world_size,
        timeout or timedelta(minutes=30),
    )
