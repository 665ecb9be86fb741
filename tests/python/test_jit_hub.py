"""torch.jit's eager surface and torch.hub over a local repository, each checked against
what real PyTorch 1.13 does with the same program where it can run here."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import torch
from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")


# ---- torch.jit ----


def test_marking_decorators_return_what_they_mark():
    def f(x):
        return x + 1

    assert torch.jit.ignore(f) is f and torch.jit.ignore(drop=True)(f) is f
    assert torch.jit.unused(f) is f and torch.jit.export(f) is f
    assert torch.jit.annotate(list, [1, 2]) == [1, 2]
    assert torch.jit.is_scripting() is False and torch.jit.is_tracing() is False


@pytest.mark.parametrize("call", ["script", "trace", "load", "save", "freeze"])
def test_compiling_raises_a_clear_error(call, tmp_path):
    m = torch.nn.Linear(2, 2)
    calls = {
        "script": lambda: torch.jit.script(m),
        "trace": lambda: torch.jit.trace(m, torch.zeros(1, 2)),
        "load": lambda: torch.jit.load(str(tmp_path / "m.pt")),
        "save": lambda: torch.jit.save(m, str(tmp_path / "m.pt")),
        "freeze": lambda: torch.jit.freeze(m),
    }
    with pytest.raises(RuntimeError, match="TorchScript"):
        calls[call]()
    assert not os.path.exists(tmp_path / "m.pt")


JIT_OFF_PROGRAM = textwrap.dedent(
    """
    import torch

    @torch.jit.script
    def twice(x):
        return x * 2

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 2)

        @torch.jit.export
        def extra(self, x):
            return self.fc(x).sum()

        @torch.jit.ignore
        def debug(self):
            return "debug"

        def forward(self, x):
            if torch.jit.is_scripting():
                return x
            return twice(self.fc(x))

    net = Net()
    with torch.no_grad():
        net.fc.weight.copy_(torch.arange(6.0).reshape(2, 3) / 10)
        net.fc.bias.fill_(0.5)
    traced = torch.jit.trace(net, torch.ones(1, 3))
    scripted = torch.jit.script(net)
    x = torch.tensor([[1.0, -2.0, 0.5]])
    print(traced is net, scripted is net, twice(torch.ones(2)).tolist(), traced(x).tolist(), net.debug(),
          round(net.extra(x).item(), 6))
    """
)


def test_pytorch_jit_0_runs_a_torchscript_program_eagerly_as_pytorch_does(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(JIT_OFF_PROGRAM)
    ours_env = dict(os.environ, PYTORCH_JIT="0", PYTHONPATH=PYTHON_DIR)
    ours = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=ours_env, cwd=str(tmp_path)
    )
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.split()[:2] == ["True", "True"]
    real_env = dict(require_real_torch_env(), PYTORCH_JIT="0")
    real = subprocess.run(
        ["/usr/bin/python3", str(script)], capture_output=True, text=True, env=real_env, cwd=str(tmp_path)
    )
    assert real.returncode == 0, real.stderr
    assert ours.stdout == real.stdout


# ---- torch.hub ----

HUBCONF = textwrap.dedent(
    '''
    dependencies = ["numpy"]

    import torch
    from tinynets import make_linear


    def tiny(scale=1.0, bias=True):
        """A 3 -> 2 linear layer with weights 0.1 * k * scale."""
        return make_linear(scale, bias)


    def doubled(**kwargs):
        return tiny(scale=2.0, **kwargs)


    def _private():
        return None
    '''
)

TINYNETS = textwrap.dedent(
    """
    import torch


    def make_linear(scale, bias):
        m = torch.nn.Linear(3, 2, bias=bias)
        with torch.no_grad():
            m.weight.copy_(torch.arange(6.0).reshape(2, 3) * 0.1 * scale)
            if bias:
                m.bias.fill_(0.25)
        return m
    """
)


@pytest.fixture
def repo(tmp_path):
    d = tmp_path / "repo"
    d.mkdir()
    (d / "hubconf.py").write_text(HUBCONF)
    (d / "tinynets.py").write_text(TINYNETS)
    return str(d)


HUB_PROGRAM = textwrap.dedent(
    """
    import sys
    import torch
    repo = sys.argv[1]
    m = torch.hub.load(repo, "doubled", source="local", bias=False)
    print(m.bias is None, m(torch.tensor([[1.0, 2.0, 3.0]])).tolist())
    for bad in ("nothere", "_private"):
        try:
            torch.hub.load(repo, bad, source="local")
        except RuntimeError as e:
            print(type(e).__name__, e)
    """
)


def test_local_repository_list_and_help(repo):
    # PyTorch 1.13's list and help reach GitHub only; later versions take source= as here.
    assert sorted(torch.hub.list(repo, source="local")) == ["doubled", "make_linear", "tiny"]
    assert torch.hub.help(repo, "tiny", source="local") == "A 3 -> 2 linear layer with weights 0.1 * k * scale."


def test_local_repository_load_as_pytorch(repo, tmp_path):
    script = tmp_path / "hubprog.py"
    script.write_text(HUB_PROGRAM)
    ours = subprocess.run(
        [sys.executable, str(script), repo], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=PYTHON_DIR)
    )
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.startswith("True [[1.6")
    real = subprocess.run(
        ["/usr/bin/python3", str(script), repo], capture_output=True, text=True, env=require_real_torch_env()
    )
    assert real.returncode == 0, real.stderr
    assert ours.stdout == real.stdout


def test_missing_dependency_and_missing_repository_are_clear(repo, tmp_path):
    with open(os.path.join(repo, "hubconf.py"), "a") as f:
        f.write("\ndependencies = ['a_module_that_is_not_installed']\n")
    with pytest.raises(RuntimeError, match="Missing dependencies: a_module_that_is_not_installed"):
        torch.hub.load(repo, "tiny", source="local")
    with pytest.raises(FileNotFoundError):
        torch.hub.load(str(tmp_path / "absent"), "tiny", source="local")
    with pytest.raises(ValueError, match="Unknown source"):
        torch.hub.load(repo, "tiny", source="gitlab")


def test_a_github_repository_comes_from_the_hub_cache(repo, tmp_path, monkeypatch):
    monkeypatch.setattr(torch.hub, "_hub_dir", str(tmp_path / "hub"))
    with pytest.raises(RuntimeError, match="not in the hub cache"):
        torch.hub.load("someone/tinynets", "tiny")
    os.makedirs(tmp_path / "hub")
    os.rename(repo, tmp_path / "hub" / "someone_tinynets_main")
    m = torch.hub.load("someone/tinynets", "tiny", scale=3.0)
    np.testing.assert_allclose(m.weight.detach().numpy(), np.arange(6.0).reshape(2, 3) * 0.3, rtol=1e-6)


def test_checkpoints_by_url_are_downloaded_once_and_hash_checked(tmp_path, monkeypatch):
    monkeypatch.setattr(torch.hub, "_hub_dir", str(tmp_path / "hub"))
    state = {"w": torch.arange(4.0)}
    src = tmp_path / "src"
    src.mkdir()
    plain = src / "weights.pt"
    torch.save(state, str(plain))
    got = torch.hub.load_state_dict_from_url(plain.as_uri())
    assert got["w"].tolist() == [0.0, 1.0, 2.0, 3.0]
    cached = tmp_path / "hub" / "checkpoints" / "weights.pt"
    assert cached.exists()
    plain.unlink()  # the second call reads the cache, not the URL
    assert torch.hub.load_state_dict_from_url(plain.as_uri())["w"].tolist() == [0.0, 1.0, 2.0, 3.0]

    import hashlib

    torch.save(state, str(src / "tmp.pt"))
    digest = hashlib.sha256((src / "tmp.pt").read_bytes()).hexdigest()
    good = src / ("net-%s.pt" % digest[:8])
    os.rename(src / "tmp.pt", good)
    assert torch.hub.load_state_dict_from_url(good.as_uri(), check_hash=True)["w"].tolist() == [0.0, 1.0, 2.0, 3.0]
    bad = src / "net-00000000.pt"
    torch.save(state, str(bad))
    with pytest.raises(RuntimeError, match="invalid hash value"):
        torch.hub.load_state_dict_from_url(bad.as_uri(), check_hash=True)
    assert not (tmp_path / "hub" / "checkpoints" / bad.name).exists()
    assert [n for n in os.listdir(tmp_path / "hub" / "checkpoints") if n.startswith(".download_")] == []
