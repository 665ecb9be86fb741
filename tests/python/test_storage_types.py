"""torch.TypedStorage, torch.UntypedStorage, torch.Storage and torch.StorageBase
(storage_types_cases.py): the same values, classes and exceptions as real PyTorch 1.13, files
written by each loading in the other."""

import subprocess


import storage_types_cases
import torch
from conftest import require_real_torch_env
from real_pytorch import same_as_pytorch_1_13


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "storage_types_cases.py", storage_types_cases.CASES, lambda name, got, want: (0, 0)
)


def _real(code):
    run = subprocess.run(
        ["/usr/bin/python3", "-c", code], capture_output=True, text=True, env=require_real_torch_env(), cwd="/"
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_files_cross_both_ways(tmp_path):
    theirs, ours = str(tmp_path / "theirs.pt"), str(tmp_path / "ours.pt")
    _real(
        "import torch; t = torch.tensor([1.5, 2.5]); "
        "torch.save([torch.UntypedStorage([9, 8, 7]), t.storage(), torch.TypedStorage([4, 5], dtype=torch.int64)], %r)"
        % theirs
    )
    untyped, typed, longs = torch.load(theirs)
    assert untyped.dtype is torch.uint8 and untyped.tolist() == [9, 8, 7]
    assert isinstance(typed, torch.FloatStorage) and typed.tolist() == [1.5, 2.5]
    assert isinstance(longs, torch.TypedStorage) and longs.dtype is torch.int64 and longs.tolist() == [4, 5]
    torch.save([torch.UntypedStorage([6, 5]), torch.TypedStorage([0.25], dtype=torch.float64)], ours)
    out = _real("import torch; u, d = torch.load(%r); print(u.dtype, u.tolist(), d.dtype, d.tolist())" % ours)
    assert out.split() == ["torch.uint8", "[6,", "5]", "torch.float64", "[0.25]"]
