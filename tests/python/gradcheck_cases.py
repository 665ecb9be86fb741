"""The cases of test_gradcheck.py: calls of torch.autograd.gradcheck/gradgradcheck whose
outcome (return value, exception type and first line, warning) must be the same here and under
real PyTorch 1.13. Run as a script, it prints one line per case for the torch it imports:
    /usr/bin/python3 tests/python/gradcheck_cases.py"""

import warnings

import torch
from torch.autograd import gradcheck, gradgradcheck


def d(*shape, rg=True):
    """Doubles in [0.5, 1.5), the same under both torches for a given shape."""
    g = torch.Generator().manual_seed(sum(shape) + 1)
    return (torch.rand(*shape, generator=g, dtype=torch.float64) + 0.5).requires_grad_(rg)


class BadBackward(torch.autograd.Function):
    """Forward 2x, backward 3g: the Jacobians differ."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3


class NotLinear(torch.autograd.Function):
    """Right for every unit grad_output, not zero for a zero one."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2 + (g.abs().sum() == 0).to(g.dtype)


class Nondet(torch.autograd.Function):
    """Backward alternates between two results 1e-7 apart."""

    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        Nondet.calls += 1
        return g * 2 + (1e-7 if Nondet.calls % 2 else 0)


class WrongDtype(torch.autograd.Function):
    """Backward returns float32 for a float64 input (the engine casts it back)."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()


CASES = {
    "ok_mul": lambda: gradcheck(lambda a, b: a * b, (d(2, 3), d(2, 3))),
    "ok_tuple_out": lambda: gradcheck(lambda a: (a.sin(), a.exp()), (d(3),)),
    "ok_one_input_no_grad": lambda: gradcheck(lambda a, b: a * b, (d(3), d(3, rg=False))),
    "no_input_requires_grad": lambda: gradcheck(lambda a: a * 2, (d(3, rg=False),)),
    "detached_output_dependent": lambda: gradcheck(lambda a: (a * 2).detach(), (d(3),)),
    "detached_output_constant": lambda: gradcheck(lambda a: torch.ones(3, dtype=torch.float64), (d(3),)),
    "wrong_grad": lambda: gradcheck(BadBackward.apply, (d(3),)),
    "wrong_grad_noraise": lambda: gradcheck(BadBackward.apply, (d(3),), raise_exception=False),
    "not_mul_by_grad_output": lambda: gradcheck(NotLinear.apply, (d(3),)),
    "nondet": lambda: gradcheck(Nondet.apply, (d(3),)),
    "nondet_tol": lambda: gradcheck(Nondet.apply, (d(3),), nondet_tol=1e-6),
    "wrong_dtype_default": lambda: gradcheck(WrongDtype.apply, (d(3),)),
    "wrong_dtype_checked": lambda: gradcheck(WrongDtype.apply, (d(3),), check_grad_dtypes=True),
    "stride0": lambda: gradcheck(lambda a: a * 2, (d(1).expand(3),)),
    "float32_input": lambda: gradcheck(
        lambda a: a * 2, (d(3).detach().float().requires_grad_(),), atol=1e-2, rtol=1e-2
    ),
    "eps_big_fails": lambda: gradcheck(lambda a: a**3, (d(3),), eps=0.1),
    "eps_big_atol": lambda: gradcheck(lambda a: a**3, (d(3),), eps=0.1, atol=0.1),
    "fast_ok": lambda: gradcheck(lambda a, b: a * b + a.exp(), (d(2, 3), d(2, 3)), fast_mode=True),
    "fast_wrong": lambda: gradcheck(BadBackward.apply, (d(3),), fast_mode=True),
    "fast_detached": lambda: gradcheck(lambda a: (a * 2).detach(), (d(3),), fast_mode=True),
    "positional_eps": lambda: gradcheck(lambda a: a * 2, (d(3),), 1e-6),
    "gradgrad_ok": lambda: gradgradcheck(lambda a: a**3, (d(3),)),
    "gradgrad_no_input": lambda: gradgradcheck(lambda a: a**3, (d(3, rg=False),)),
    "noncontig_input": lambda: gradcheck(lambda a: a.exp(), (d(3, 4).t(),)),
    "gradgrad_noncontig": lambda: gradgradcheck(lambda a: a**3, (d(2, 3),), gen_non_contig_grad_outputs=True),
    "undefined_grad_off": lambda: gradcheck(lambda a: a * 2, (d(3),), check_undefined_grad=False),
    "one_output_detached": lambda: gradcheck(lambda a: (a * 2, (a * 3).detach()), (d(3),)),
    "no_input_requires_grad_noraise": lambda: gradcheck(lambda a: a * 2, (d(3, rg=False),), raise_exception=False),
    "detached_output_noraise": lambda: gradcheck(lambda a: (a * 2).detach(), (d(3),), raise_exception=False),
    "gradgrad_wrong": lambda: gradgradcheck(lambda a: a * BadBackward.apply(a), (d(3),)),
    "backward_ad_off": lambda: gradcheck(BadBackward.apply, (d(3),), check_backward_ad=False),
}


def outcome(name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = "returned %r" % (CASES[name](),)
        except Exception as e:  # the exception is the outcome being compared
            result = "%s: %s" % (type(e).__name__, str(e).splitlines()[0])
    seen = [str(w.message) for w in caught if "gradient" in str(w.message)]
    return result + ("  [warning: %s]" % seen[0] if seen else "")


if __name__ == "__main__":
    for name in CASES:
        print("%s\t%s" % (name, outcome(name)))
