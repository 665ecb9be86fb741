"""How much of real PyTorch 1.13's public surface this package lacks, per namespace.

  scripts/missing_names.py            one line per namespace: "namespace missing/total"
  scripts/missing_names.py --list NS  the names of namespace NS that are missing here

A public name is one without a leading underscore. Real PyTorch's names come from Debian's
python3-torch under /usr/bin/python3 (run without PYTHONPATH, from /, so that it cannot import
this checkout); ours from this checkout's python/ under the interpreter running this script
(the project's venv: PYTHONPATH=python scripts/missing_names.py, or scripts/env.sh's $PY).
"""

import argparse
import importlib
import json
import os
import subprocess
import sys

NAMESPACES = [
    "torch",
    "torch.Tensor",
    "torch.nn",
    "torch.nn.functional",
    "torch.linalg",
    "torch.special",
    "torch.fft",
    "torch.autograd",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.utils.data",
    "torch.distributions",
]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def public_names(namespace):
    """The public names of namespace (a module, or torch.Tensor), or None where it cannot be imported."""
    module_name, _, attr = namespace.rpartition(".")
    try:
        if attr == "Tensor":
            obj = importlib.import_module(module_name).Tensor
        else:
            obj = importlib.import_module(namespace)
    except ImportError:
        return None
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def real_names():
    """{namespace: names} as real PyTorch 1.13 has them."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(
        ["/usr/bin/python3", os.path.abspath(__file__), "--dump"], capture_output=True, text=True, env=env, cwd="/"
    )
    if run.returncode != 0:
        sys.exit("missing_names: real PyTorch under /usr/bin/python3 failed:\n" + run.stderr)
    return json.loads(run.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", metavar="NS", help="print the names of namespace NS that are missing here")
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)  # the real-PyTorch side
    args = parser.parse_args()
    if args.dump:
        json.dump({ns: public_names(ns) for ns in NAMESPACES}, sys.stdout)
        return
    sys.path.insert(0, os.path.join(ROOT, "python"))
    theirs = real_names()
    if args.list:
        if args.list not in theirs:
            sys.exit("missing_names: unknown namespace %s (one of %s)" % (args.list, ", ".join(NAMESPACES)))
        ours = set(public_names(args.list) or ())
        for name in theirs[args.list] or ():
            if name not in ours:
                print(name)
        return
    for ns in NAMESPACES:
        names = theirs[ns] or []
        ours = set(public_names(ns) or ())
        print("%s %d/%d" % (ns, sum(n not in ours for n in names), len(names)))


if __name__ == "__main__":
    main()
