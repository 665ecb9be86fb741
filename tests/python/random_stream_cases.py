"""Random streams run the same way by this package and by real PyTorch 1.13 (Debian's
python3-torch): every case seeds the default generator (or a torch.Generator), draws, and
returns numpy arrays. test_random_streams.py compares the two runs bit for bit (Note [Two
random streams] in core/ops/Random.h).

Run directly (`python3 random_stream_cases.py OUT.npz`) it writes every case's arrays to
OUT.npz, with the `torch` that interpreter imports."""

import sys

import numpy as np

SEEDS = (0, 1, 12345, 2**40 + 7)
# Below and above the 16 of normal_'s blocks, and not multiples of 16.
SIZES = (1, 5, 15, 16, 17, 33, 100)


def _dtypes(torch):
    return (torch.float32, torch.float64)


def raw_and_uniform(torch):
    out = {}
    for seed in SEEDS:
        torch.manual_seed(seed)
        out[f"random_{seed}"] = torch.empty(40, dtype=torch.int64).random_()
        torch.manual_seed(seed)
        out[f"random_int_{seed}"] = torch.empty(12, dtype=torch.int32).random_()
        for dtype in _dtypes(torch):
            for n in SIZES:
                torch.manual_seed(seed)
                out[f"rand_{seed}_{dtype}_{n}"] = torch.rand(n, dtype=dtype)
            torch.manual_seed(seed)
            out[f"uniform_{seed}_{dtype}"] = torch.empty(3, 7, dtype=dtype).uniform_(-0.37, 2.9)
    return out


def normals(torch):
    out = {}
    for seed in SEEDS:
        for dtype in _dtypes(torch):
            for n in SIZES:
                torch.manual_seed(seed)
                out[f"randn_{seed}_{dtype}_{n}"] = torch.randn(n, dtype=dtype)
            torch.manual_seed(seed)
            out[f"normal_{seed}_{dtype}"] = torch.empty(5, 9, dtype=dtype).normal_(1.5, 0.3)
            torch.manual_seed(seed)
            # Fewer than 16: the scalar Box-Muller and its cached second value, then a block.
            a = torch.randn(3, dtype=dtype)
            b = torch.randn(1, dtype=dtype)
            c = torch.randn(20, dtype=dtype)
            out[f"cache_{seed}_{dtype}"] = torch.cat([a, b, c])
            torch.manual_seed(seed)
            strided = torch.empty(6, 5, dtype=dtype).t()
            out[f"strided_{seed}_{dtype}"] = strided.normal_().contiguous()
            torch.manual_seed(seed)
            # Built from Python floats, not linspace, whose float values are not the question here.
            mean = torch.tensor([-1 + 2 * i / 17 for i in range(18)], dtype=dtype)
            std = torch.tensor([0.1 + 1.9 * i / 17 for i in range(18)], dtype=dtype)
            out[f"normal_tensors_{seed}_{dtype}"] = torch.normal(mean, std)
            out[f"normal_mean_{seed}_{dtype}"] = torch.normal(mean, 0.5)
            out[f"normal_std_{seed}_{dtype}"] = torch.normal(0.25, std)
            out[f"log_normal_{seed}_{dtype}"] = torch.empty(9, dtype=dtype).log_normal_(0.2, 0.7)
    return out


def integers(torch):
    out = {}
    for seed in SEEDS:
        torch.manual_seed(seed)
        out[f"randint_{seed}"] = torch.randint(3, 1000, (37,))
        out[f"randint_wide_{seed}"] = torch.randint(-(2**40), 2**41, (9,))
        out[f"randint_int32_{seed}"] = torch.randint(-5, 5, (11,), dtype=torch.int32)
        out[f"randint_float_{seed}"] = torch.randint(0, 10, (8,), dtype=torch.float32)
        out[f"random_to_{seed}"] = torch.empty(10, dtype=torch.uint8).random_(200)
        for n in (1, 2, 10, 37, 300):
            out[f"randperm_{seed}_{n}"] = torch.randperm(n)
    return out


def others(torch):
    out = {}
    for seed in SEEDS:
        for dtype in _dtypes(torch):
            torch.manual_seed(seed)
            out[f"exponential_{seed}_{dtype}"] = torch.empty(13, dtype=dtype).exponential_(2.5)
            out[f"geometric_{seed}_{dtype}"] = torch.empty(13, dtype=dtype).geometric_(0.3)
            out[f"cauchy_{seed}_{dtype}"] = torch.empty(13, dtype=dtype).cauchy_(0.5, 2.0)
            out[f"bernoulli_p_{seed}_{dtype}"] = torch.empty(21, dtype=dtype).bernoulli_(0.3)
            p = torch.tensor([i / 22 for i in range(23)], dtype=dtype)
            out[f"bernoulli_tensor_{seed}_{dtype}"] = torch.bernoulli(p)
            w = torch.tensor([[0.1, 2.0, 0.5, 0.0, 1.5, 3.0], [1.0, 1.0, 1.0, 1.0, 1.0, 0.2]], dtype=dtype)
            out[f"multinomial_{seed}_{dtype}"] = torch.multinomial(w, 4)
            out[f"multinomial_one_{seed}_{dtype}"] = torch.multinomial(w, 1)
            out[f"multinomial_repl_{seed}_{dtype}"] = torch.multinomial(w, 9, replacement=True)
            out[f"multinomial_1d_{seed}_{dtype}"] = torch.multinomial(w[0], 3)
        torch.manual_seed(seed)
        out[f"bernoulli_long_{seed}"] = torch.empty(17, dtype=torch.int64).bernoulli_(0.6)
    return out


def generators(torch):
    out = {}
    g = torch.Generator().manual_seed(77)
    out["gen_rand"] = torch.rand(20, generator=g)
    out["gen_randn"] = torch.randn(7, generator=g, dtype=torch.float64)
    out["gen_randint"] = torch.randint(0, 50, (6,), generator=g)
    out["gen_randperm"] = torch.randperm(12, generator=g)
    out["gen_state"] = g.get_state()
    return out


def nn_streams(torch):
    nn = torch.nn
    F = torch.nn.functional
    out = {}
    for seed in (0, 3):
        torch.manual_seed(seed)
        lin = nn.Linear(7, 5)
        conv = nn.Conv2d(3, 4, 3)
        out[f"linear_{seed}"] = [lin.weight, lin.bias]
        out[f"conv_{seed}"] = [conv.weight, conv.bias]
        torch.manual_seed(seed)
        x = torch.ones(4, 25)
        out[f"dropout_{seed}"] = F.dropout(x, 0.3)
        out[f"dropout_double_{seed}"] = F.dropout(x.double(), 0.5)
        out[f"dropout2d_{seed}"] = F.dropout2d(torch.ones(2, 6, 3, 3), 0.4)
        torch.manual_seed(seed)
        w = torch.empty(6, 9)
        out[f"init_{seed}"] = [
            nn.init.uniform_(w.clone(), -2, 3),
            nn.init.normal_(w.clone(), 0.5, 2),
            nn.init.xavier_uniform_(w.clone()),
            nn.init.xavier_normal_(w.clone()),
            nn.init.kaiming_uniform_(w.clone()),
            nn.init.kaiming_normal_(w.clone()),
        ]
    return out


def states(torch):
    out = {}
    torch.manual_seed(5)
    out["state_seeded"] = torch.get_rng_state()
    torch.rand(3)
    torch.randn(3)  # the scalar Box-Muller: leaves a double normal in the cache
    out["state_after"] = torch.get_rng_state()
    out["continued"] = torch.randn(3, dtype=torch.float64)  # starts with the cached one
    out["state_continued"] = torch.get_rng_state()
    return out


CASES = (raw_and_uniform, normals, integers, others, generators, nn_streams, states)


def _arrays(value):
    if isinstance(value, (list, tuple)):
        return np.concatenate([np.asarray(v.detach().numpy(), dtype=np.float64).ravel() for v in value])
    return value.detach().numpy()


def run_all(torch=None):
    if torch is None:
        import torch
    result = {}
    for case in CASES:
        for key, value in case(torch).items():
            result[key.replace("torch.", "")] = _arrays(value)
    return result


if __name__ == "__main__":
    np.savez(sys.argv[1], **run_all())
