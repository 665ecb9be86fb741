"""torch.hub: models published as a directory with a hubconf.py, and checkpoints by URL.

load/list/help take a local directory (source='local') as in PyTorch. A GitHub repository
(source='github') is fetched by PyTorch from the network; here it is looked up in the hub
cache (get_dir(), where PyTorch keeps the repositories it downloaded: owner_name_branch)
and a clear error names the directory when it is not there. Checkpoints are downloaded with
urllib into get_dir()/checkpoints and loaded from there afterwards."""

import errno
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import urllib.parse
import urllib.request

import torch

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url", "set_dir"]

_hub_dir = None
_HASH = re.compile(r"-([a-f0-9]*)\.")


def get_dir():
    """Where hub keeps repositories and checkpoints: set_dir's, else $TORCH_HOME/hub, else
    $XDG_CACHE_HOME/torch/hub, else ~/.cache/torch/hub."""
    if _hub_dir is not None:
        return _hub_dir
    if os.getenv("TORCH_HOME"):
        return os.path.join(os.path.expanduser(os.getenv("TORCH_HOME")), "hub")
    cache = os.path.expanduser(os.getenv("XDG_CACHE_HOME", os.path.join("~", ".cache")))
    return os.path.join(cache, "torch", "hub")


def set_dir(d):
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def _repo_dir(repo_or_dir, source):
    if source not in ("github", "local"):
        raise ValueError('Unknown source: "%s". Allowed values: "github" | "local".' % source)
    if source == "local":
        if not os.path.isdir(repo_or_dir):
            raise FileNotFoundError(errno.ENOENT, "torch.hub: no such directory", repo_or_dir)
        return repo_or_dir
    owner_name, _, branch = repo_or_dir.partition(":")
    if "/" not in owner_name:
        raise ValueError("torch.hub: a GitHub repository is written owner/name[:branch], got %r" % repo_or_dir)
    owner, name = owner_name.split("/", 1)
    cached = os.path.join(get_dir(), "_".join([owner, name, branch or "main"]))
    if branch == "" and not os.path.isdir(cached):
        cached = os.path.join(get_dir(), "_".join([owner, name, "master"]))
    if not os.path.isdir(cached):
        raise RuntimeError(
            "torch.hub: %s is not in the hub cache (%s) and is not downloaded here; clone it and "
            "load it with source='local'" % (repo_or_dir, cached)
        )
    return cached


def _hubconf(repo_dir):
    path = os.path.join(repo_dir, "hubconf.py")
    if not os.path.isfile(path):
        raise FileNotFoundError(errno.ENOENT, "torch.hub: the repository has no hubconf.py", path)
    name = "hubconf_%d" % abs(hash(os.path.abspath(repo_dir)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, repo_dir)  # hubconf imports the repository's own modules
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_dir)
    for dep in getattr(module, "dependencies", []):
        if importlib.util.find_spec(dep) is None:
            raise RuntimeError("Missing dependencies: %s" % dep)
    return module


def _entrypoint(module, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError("Cannot find callable %s in hubconf" % model)
    return fn


def list(github, force_reload=False, skip_validation=False, trust_repo=None, source="github"):
    """The entrypoints (public callables) of the repository's hubconf.py."""
    module = _hubconf(_repo_dir(github, source))
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo=None, source="github"):
    """The docstring of an entrypoint."""
    return _entrypoint(_hubconf(_repo_dir(github, source)), model).__doc__


def load(
    repo_or_dir,
    model,
    *args,
    source="github",
    trust_repo=None,
    force_reload=False,
    verbose=True,
    skip_validation=False,
    **kwargs,
):
    """The entrypoint model of repo_or_dir's hubconf.py called with args and kwargs."""
    return _entrypoint(_hubconf(_repo_dir(repo_or_dir, source)), model)(*args, **kwargs)


def download_url_to_file(url, dst, hash_prefix=None, progress=True):
    """url's bytes written to dst (through a temporary file beside it, so that dst is never
    half written); with hash_prefix, their SHA-256 must start with it."""
    dst = os.path.expanduser(dst)
    directory = os.path.dirname(os.path.abspath(dst))
    os.makedirs(directory, exist_ok=True)
    digest = hashlib.sha256()
    handle, tmp = tempfile.mkstemp(dir=directory, prefix=".download_")
    try:
        with os.fdopen(handle, "wb") as out, urllib.request.urlopen(url) as response:
            while True:
                chunk = response.read(1 << 20)
                if not chunk:
                    break
                out.write(chunk)
                digest.update(chunk)
        if hash_prefix is not None and not digest.hexdigest().startswith(hash_prefix):
            raise RuntimeError('invalid hash value (expected "%s", got "%s")' % (hash_prefix, digest.hexdigest()))
        shutil.move(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True, check_hash=False, file_name=None):
    """torch.load of the checkpoint at url, downloaded once into model_dir (get_dir()/checkpoints).
    check_hash: the hex digits after the last '-' of the file name must begin its SHA-256."""
    model_dir = model_dir or os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    name = file_name or os.path.basename(urllib.parse.urlparse(url).path)
    cached = os.path.join(model_dir, name)
    if not os.path.exists(cached):
        prefix = None
        if check_hash:
            match = _HASH.search(name)
            prefix = match.group(1) if match else None
        download_url_to_file(url, cached, prefix, progress=progress)
    return torch.load(cached, map_location=map_location)
