"""The protocol of the "::"-keyed cases files (distributions_cases.py, functional_cases.py, ...):
CASES maps a name to a function of the torch module returning a list of arrays. The tests run
them here and, through `python3 X_cases.py OUT.npz`, under real PyTorch 1.13; the results
are {"<name>::<i>": array}, or {"<name>::failed": the error} for a case that raised, and
real_pytorch.assert_same_case compares them. Imports numpy only: both interpreters load it."""

import sys
import traceback

import numpy as np


def registry():
    """A cases file's CASES and the decorator that adds a function to it under its name."""
    cases = {}

    def case(fn):
        cases[fn.__name__] = fn
        return fn

    return cases, case


def run_case(cases, torch, name):
    """One case's results (a case that raised is reported, not fatal: the others still run)."""
    try:
        items = cases[name](torch)
    except Exception as exc:  # noqa: BLE001
        error = "CASE FAILED: %s: %s\n%s" % (type(exc).__name__, exc, traceback.format_exc())
        return {name + "::failed": np.array(error)}
    return {"%s::%d" % (name, i): np.asarray(item) for i, item in enumerate(items)}


def main(cases):
    """Every case under the torch this interpreter imports, saved to sys.argv[1]."""
    import torch

    results = {}
    for name in cases:
        results.update(run_case(cases, torch, name))
    np.savez(sys.argv[1], **results)
