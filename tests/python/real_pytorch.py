"""Runs a cases file (a module with CASES and run_all(), writing OUT.npz when run as a script)
under real PyTorch 1.13 and compares its arrays with this package's, case by case."""

import os
import subprocess

import numpy as np

from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))


def run_real_python(code, *args):
    """The standard output of code run by /usr/bin/python3 (real PyTorch 1.13) with args."""
    run = subprocess.run(
        ["/usr/bin/python3", "-c", code, *args], env=require_real_torch_env(), cwd="/", capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def real_results(cases_file, tmp_dir):
    """{key: array} of every case of cases_file as /usr/bin/python3's PyTorch computes them."""
    env = require_real_torch_env()
    out = os.path.join(str(tmp_dir), "real.npz")
    run = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, cases_file), out], capture_output=True, text=True, env=env, cwd="/"
    )
    assert run.returncode == 0, run.stderr
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def assert_case_matches(case, ours, theirs, rtol=1e-6, atol=1e-8):
    """The arrays case(...) returned here (ours, a list) equal PyTorch's "<name>_<i>" arrays."""
    name = case.__name__
    want = []
    while "%s_%d" % (name, len(want)) in theirs:
        want.append(theirs["%s_%d" % (name, len(want))])
    assert want, "real PyTorch gave no results for " + name
    assert len(ours) == len(want), (name, len(ours), len(want))
    for i, (got, expected) in enumerate(zip(ours, want)):
        got = np.asarray(got)
        key = "%s_%d" % (name, i)
        assert got.shape == expected.shape, (key, got.shape, expected.shape)
        if expected.dtype.kind in "USb" or got.dtype.kind in "USb":
            np.testing.assert_array_equal(got, expected, err_msg=key)
        else:
            np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=key)


def assert_same_case(name, ours, real, tolerance):
    """One case of a "::"-keyed cases file (run_case(torch, name) gives {"<name>::<i>": array},
    with "<name>::failed" holding the error of a case that raised): ours equals real PyTorch's
    results (real: every case's). Strings compare as text, other non-float arrays exactly,
    float arrays within tolerance(got, want) -> (rtol, atol), with NaNs and infinities (and
    their signs) in the same places."""
    failed = name + "::failed"
    theirs = {k: v for k, v in real.items() if k.split("::")[0] == name}
    assert theirs, "real PyTorch gave no results for " + name
    assert failed not in theirs, str(theirs.get(failed))
    assert failed not in ours, str(ours.get(failed))
    assert sorted(ours) == sorted(theirs)
    for key in sorted(theirs, key=lambda k: int(k.split("::")[1])):
        want, got = theirs[key], ours[key]
        if want.dtype.kind in "US" or got.dtype.kind in "US":
            assert str(got) == str(want), key
            continue
        assert got.shape == want.shape, (key, got.shape, want.shape)
        assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
        if want.dtype.kind != "f":
            np.testing.assert_array_equal(got, want, err_msg=key)
            continue
        rtol, atol = tolerance(got, want)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=key)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=key)
        np.testing.assert_array_equal(got[np.isinf(got)], want[np.isinf(got)], err_msg=key)


def same_as_pytorch_1_13(cases_file, cases, tolerance):
    """The fixture and the test every "::"-keyed cases file has (case_runner's protocol), for a
    test module to bind at its top level:

        real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13("x_cases.py", x_cases.CASES, tol)

    real_results (module-scoped) runs the file under real PyTorch 1.13; the test compares each
    case, floats within tolerance(name, got, want) -> (rtol, atol)."""
    import pytest
    import torch

    import case_runner

    run_real = real_results

    @pytest.fixture(scope="module", name="real_results")
    def results(tmp_path_factory):
        return run_real(cases_file, tmp_path_factory.mktemp(cases_file[: -len(".py")]))

    @pytest.mark.parametrize("name", sorted(cases))
    def test_same_as_pytorch_1_13(name, real_results):
        ours = case_runner.run_case(cases, torch, name)
        assert_same_case(name, ours, real_results, lambda got, want: tolerance(name, got, want))

    return results, test_same_as_pytorch_1_13
