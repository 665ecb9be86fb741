"""main: the command line `python -m torch.utils.convert_t7` (usage and exit statuses in
__init__.py): convert, check, and save only what passed the check."""

import argparse
import sys

import torch
from torch.utils.convert_t7.checker import check
from torch.utils.convert_t7.converter import NOT_CONVERTIBLE, NOT_YET, convert, convertible_classes
from torch.utils.convert_t7.emitter import emit_python
from torch.utils.convert_t7.errors import ConversionError
from torch.utils.convert_t7.model_dtype import _model_dtype
from torch.utils.serialization import load_lua


def _parse_size(text):
    try:
        return tuple(int(s) for s in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected sizes like 2,3,224,224, got %r" % text) from None


def print_classes(out=sys.stdout):
    """The table of torch7 classes: those convert() takes (each tested by its own case in
    tests/python/test_convert_t7_classes.py), those it never will, those it does not yet."""
    names = list(convertible_classes())
    print("convertible torch7 classes (%d):" % len(names), file=out)
    for i in range(0, len(names), 4):
        print("  " + "".join("%-32s" % n for n in names[i : i + 4]).rstrip(), file=out)
    print("not convertible (%d):" % len(NOT_CONVERTIBLE), file=out)
    for name, why in sorted(NOT_CONVERTIBLE.items()):
        print("  %-32s %s" % (name, why), file=out)
    print("not converted yet (%d):" % len(NOT_YET), file=out)
    for name, why in sorted(NOT_YET.items()):
        print("  %-32s %s" % (name, why), file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m torch.utils.convert_t7",
        description="Convert a torch7 .t7 model to a torch.nn state_dict (.pt).",
    )
    parser.add_argument("model", nargs="?", help="the torch7 model (.t7)")
    parser.add_argument("out", nargs="?", help="where to save the converted model's state_dict (torch.save)")
    parser.add_argument(
        "--list", action="store_true", help="print the torch7 classes that convert, and those that do not"
    )
    parser.add_argument("--emit-python", metavar="FILE", help="also write Python source defining the model class")
    parser.add_argument("--save-module", metavar="FILE", help="also torch.save the whole converted module")
    parser.add_argument(
        "--reference",
        metavar="IO_T7",
        help="a .t7 table with `input` and `output` recorded by torch7, to check against",
    )
    parser.add_argument("--input-size", type=_parse_size, help="shape of the random check input, e.g. 2,3,224,224")
    parser.add_argument(
        "--tolerance",
        type=float,
        help="largest difference accepted (default 1e-4 for float, 1e-8 for double, times the "
        "largest output magnitude when above 1)",
    )
    args = parser.parse_args(argv)
    if args.list:
        print_classes()
        return 0
    if args.model is None or args.out is None:
        parser.error("the model and out arguments are required (or --list)")

    try:
        legacy = load_lua(args.model)
        model = convert(legacy)
        inp = out = None
        if args.reference:
            ref = load_lua(args.reference)
            if not isinstance(ref, dict) or not torch.is_tensor(ref.get("input")) or "output" not in ref:
                raise ConversionError("%s: expected a table with `input` and `output`" % args.reference)
            inp, out = ref["input"], ref["output"]
        elif args.input_size:
            inp = torch.randn(*args.input_size, dtype=_model_dtype(model))
        diff, tol, how = check(legacy, model, inp, out, args.tolerance)
    except (ConversionError, RuntimeError, OSError, ValueError, TypeError, IndexError) as e:
        print("convert_t7: cannot convert %s: %s" % (args.model, e), file=sys.stderr)
        return 2

    if diff is None:
        print(
            "convert_t7: no reference: %s has no runnable forward and no --reference was given; the "
            "converted model is saved unchecked" % args.model
        )
    else:
        print("convert_t7: max difference %.3g against the %s (tolerance %.3g)" % (diff, how, tol))
        if not diff <= tol:
            print(
                "convert_t7: refusing to save: the converted model's output differs from the %s by %.3g, above "
                "the tolerance %.3g" % (how, diff, tol),
                file=sys.stderr,
            )
            return 1
    torch.save(model.state_dict(), args.out)
    if args.save_module:
        torch.save(model, args.save_module)
    if args.emit_python:
        emit_python(model, args.emit_python)
    print("convert_t7: saved %s" % args.out)
    return 0
