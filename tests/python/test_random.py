"""Random numbers: generators, seeding and state, sampling functions and in-place fills.

References: MT19937's raw stream from numpy (RandomState seeds it the way torch7 and
PyTorch do) turned into values by PyTorch's definitions (Note [Two random streams] in
core/ops/Random.h; test_random_streams.py compares with PyTorch 1.13 itself),
the distributions' CDFs and probability mass functions, and defining properties
(a permutation, distinct indices, ranges). Statistical checks use 10^5 samples and bounds
whose false-alarm probability is below 1e-8, and fixed seeds, so they cannot flake.
"""

import contextlib
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch
from conftest import FLOAT_TYPES, INT_TYPES, NUMERIC_TYPES, NUMPY_OF, make_tensor

N = 100_000
# Kolmogorov-Smirnov: P(D > d) <= 2 exp(-2 N d^2), 4e-9 at d = 0.01 and N = 10^5.
KS_BOUND = 0.01


# ---- references ----


def raw_stream(seed, count):
    """The first `count` 32-bit outputs of MT19937 seeded with init_genrand(seed)."""
    return np.random.RandomState(seed)._bit_generator.random_raw(count).astype(np.uint64)


def ks_statistic(samples, cdf):
    x = np.sort(np.asarray(samples, dtype=np.float64).ravel())
    f = cdf(x)
    n = len(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


_erf = np.vectorize(math.erf)


def normal_cdf(mean, std):
    return lambda x: 0.5 * (1 + _erf((x - mean) / (std * math.sqrt(2))))


def assert_frequencies(values, pmf, support):
    """Every count of k in support is within 6 standard deviations (plus 6, for the rare
    values of a tail, whose counts are far from normal) of n pmf(k); nothing falls outside
    the support."""
    values = np.asarray(values).ravel()
    n = len(values)
    total = 0
    for k in support:
        p = pmf(k)
        count = np.count_nonzero(values == k)
        total += count
        assert abs(count - n * p) <= 6 * math.sqrt(n * p * (1 - p)) + 6, (k, count / n, p)
    assert total == n, "values outside the support"


def state_of(gen=None):
    return (torch.get_rng_state() if gen is None else gen.get_state()).numpy().copy()


@contextlib.contextmanager
def unchanged(*tensors, gen=None):
    """The block (which raises) leaves the tensors' values and shapes and the generator's
    state as they were."""
    before = [t.numpy().copy() for t in tensors]
    state = state_of(gen)
    yield
    for t, b in zip(tensors, before):
        assert t.numpy().shape == b.shape
        np.testing.assert_array_equal(t.numpy(), b)
    np.testing.assert_array_equal(state_of(gen), state)


# ---- seeding and state ----


def test_manual_seed_returns_the_default_generator_and_repeats_streams():
    g = torch.manual_seed(123)
    assert g is torch.default_generator
    assert isinstance(g, torch.Generator)
    assert torch.initial_seed() == 123
    first = [
        torch.rand(5).numpy(),
        torch.randn(2, 3).numpy(),
        torch.randint(0, 100, (7,)).numpy(),
        torch.randperm(9).numpy(),
    ]
    torch.manual_seed(123)
    again = [
        torch.rand(5).numpy(),
        torch.randn(2, 3).numpy(),
        torch.randint(0, 100, (7,)).numpy(),
        torch.randperm(9).numpy(),
    ]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    torch.manual_seed(124)
    assert not np.array_equal(torch.rand(5).numpy(), first[0])


def test_uniform_stream_is_mersenne_twister():
    # PyTorch's double uniform: 53 bits of a 64-bit draw made of two 32-bit outputs, the
    # first one high; its float uniform: 24 bits of one output.
    torch.manual_seed(2024)
    got = torch.rand(3, 4, dtype=torch.float64).numpy()
    raw = raw_stream(2024, 24)
    wide = (raw[0::2] << np.uint64(32)) | raw[1::2]
    np.testing.assert_array_equal(got.ravel(), (wide & np.uint64(2**53 - 1)) / 2.0**53)
    torch.manual_seed(2024)
    got = torch.rand(12).numpy()
    np.testing.assert_array_equal(got, ((raw_stream(2024, 12) & np.uint64(2**24 - 1)) / 2.0**24).astype(np.float32))


def test_small_integer_ranges_take_one_draw_each_in_memory_order():
    torch.manual_seed(77)
    t = torch.empty(5, 4, dtype=torch.int64).t()  # a transposed result fills its memory in order
    t.random_(10, 17)
    np.testing.assert_array_equal(t.t().numpy().ravel(), raw_stream(77, 20) % 7 + 10)


def test_randperm_is_the_torch7_and_pytorch_shuffle():
    torch.manual_seed(5)
    got = torch.randperm(12).numpy()
    raw = raw_stream(5, 11)
    expected = list(range(12))
    for i in range(11):  # swap i with i + random() % (n - i)
        z = i + int(raw[i] % (12 - i))
        expected[i], expected[z] = expected[z], expected[i]
    assert got.tolist() == expected


def test_seed_values_and_wrapping():
    torch.manual_seed(2**64 - 1)
    assert torch.initial_seed() == 2**64 - 1
    torch.manual_seed(-1)  # negative seeds wrap modulo 2^64, as PyTorch's do
    assert torch.initial_seed() == 2**64 - 1
    a = torch.rand(4).numpy()
    torch.manual_seed(2**64 - 1)
    np.testing.assert_array_equal(torch.rand(4).numpy(), a)
    torch.manual_seed(-(2**63))
    assert torch.initial_seed() == 2**63
    torch.manual_seed(7.0)  # torch.manual_seed takes int(seed)
    assert torch.initial_seed() == 7
    torch.manual_seed(np.int64(8))
    assert torch.initial_seed() == 8
    with unchanged():
        with pytest.raises(RuntimeError):
            torch.manual_seed(2**64)
        with pytest.raises(RuntimeError):
            torch.manual_seed(-(2**63) - 1)
        with pytest.raises(TypeError):
            torch.Generator().manual_seed(1.5)
        with pytest.raises(TypeError):
            torch.manual_seed(None)


def test_seed_reseeds_nondeterministically():
    s1 = torch.seed()
    assert isinstance(s1, int) and 0 <= s1 < 2**64
    assert torch.initial_seed() == s1
    a = torch.rand(6).numpy()
    s2 = torch.seed()
    assert s2 != s1  # 64 bits from /dev/urandom
    torch.manual_seed(s1)
    np.testing.assert_array_equal(torch.rand(6).numpy(), a)


def test_get_and_set_rng_state_restore_every_stream():
    torch.manual_seed(31)
    torch.randn(3)  # an odd count leaves the second value of a Box-Muller pair cached
    state = torch.get_rng_state()
    assert state.dtype == torch.uint8 and state.dim() == 1
    saved = state.numpy().copy()
    draws = [
        torch.randn(5).numpy(),
        torch.rand(5).numpy(),
        torch.randint(-5, 5, (5,)).numpy(),
        torch.multinomial(torch.tensor([1.0, 2.0, 3.0]), 2).numpy(),
    ]
    np.testing.assert_array_equal(state.numpy(), saved)  # the state tensor is a copy
    torch.set_rng_state(state)
    again = [
        torch.randn(5).numpy(),
        torch.rand(5).numpy(),
        torch.randint(-5, 5, (5,)).numpy(),
        torch.multinomial(torch.tensor([1.0, 2.0, 3.0]), 2).numpy(),
    ]
    for a, b in zip(draws, again):
        np.testing.assert_array_equal(a, b)


def test_set_rng_state_rejects_bad_states_and_keeps_the_generator():
    torch.manual_seed(8)
    good = torch.get_rng_state()
    with unchanged():
        with pytest.raises(TypeError):
            torch.set_rng_state(good.long())
        with pytest.raises(TypeError):
            torch.set_rng_state(good.numpy())
        with pytest.raises(RuntimeError):
            torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))
        with pytest.raises(RuntimeError):
            torch.set_rng_state(torch.full((good.numel(),), 255, dtype=torch.uint8))
        with pytest.raises(RuntimeError):
            torch.set_rng_state(torch.zeros(good.numel(), dtype=torch.uint8))  # never seeded
    g = torch.Generator().manual_seed(3)
    with unchanged(gen=g):
        with pytest.raises(RuntimeError):
            g.set_state(torch.zeros(good.numel(), dtype=torch.uint8))


def test_state_moves_between_generators():
    g = torch.Generator()
    g.manual_seed(99)
    torch.rand(1, generator=g)
    h = torch.Generator()
    assert h.set_state(g.get_state()) is h
    assert h.initial_seed() == 99
    np.testing.assert_array_equal(torch.randn(7, generator=g).numpy(), torch.randn(7, generator=h).numpy())
    # a non-contiguous state tensor holds the same bytes
    s = g.get_state()
    strided = torch.zeros(2 * s.numel(), dtype=torch.uint8).as_strided((s.numel(),), (2,), 0)
    strided.copy_(s)
    h.set_state(strided)
    np.testing.assert_array_equal(torch.rand(5, generator=g).numpy(), torch.rand(5, generator=h).numpy())


def test_generators_are_independent():
    g1 = torch.Generator().manual_seed(11)
    g2 = torch.Generator().manual_seed(11)
    assert isinstance(g1, torch.Generator) and g1 is not g2
    assert g1.manual_seed(11) is g1
    assert g1.initial_seed() == 11
    assert str(g1.device) == "cpu"
    torch.manual_seed(11)
    reference = torch.rand(6).numpy()  # the default generator, seeded the same
    default_state = state_of()
    a = torch.rand(6, generator=g1).numpy()
    np.testing.assert_array_equal(a, reference)
    np.testing.assert_array_equal(state_of(), default_state)  # the default was not touched
    torch.rand(100, generator=g1)  # g1 moves on, g2 does not
    np.testing.assert_array_equal(torch.rand(6, generator=g2).numpy(), reference)
    s = g1.seed()
    assert g1.initial_seed() == s
    with pytest.raises(TypeError):
        torch.rand(3, generator=5)
    with pytest.raises(TypeError):
        torch.ones(3).uniform_(generator="default")


def test_every_sampler_follows_its_generator():
    weights = torch.tensor([[1.0, 0.0, 3.0, 2.0], [0.5, 0.5, 0.5, 0.5]])
    calls = [
        lambda g: torch.rand(4, generator=g),
        lambda g: torch.randn(4, generator=g),
        lambda g: torch.randint(3, 9, (4,), generator=g),
        lambda g: torch.randperm(6, generator=g),
        lambda g: torch.normal(torch.zeros(3), torch.ones(3), generator=g),
        lambda g: torch.normal(1.0, 2.0, (3,), generator=g),
        lambda g: torch.bernoulli(torch.full((6,), 0.5), generator=g),
        lambda g: torch.multinomial(weights, 2, generator=g),
        lambda g: torch.poisson(torch.full((4,), 3.0), g),
        lambda g: torch.empty(5).uniform_(generator=g),
        lambda g: torch.empty(5).normal_(generator=g),
        lambda g: torch.empty(5).exponential_(generator=g),
        lambda g: torch.empty(5).cauchy_(generator=g),
        lambda g: torch.empty(5).log_normal_(generator=g),
        lambda g: torch.empty(5).geometric_(0.2, generator=g),
        lambda g: torch.empty(5).bernoulli_(0.5, generator=g),
        lambda g: torch.empty(5).random_(generator=g),
        lambda g: torch.zeros(5).bernoulli(generator=g),
        lambda g: weights.multinomial(3, True, generator=g),
    ]
    for call in calls:
        a = call(torch.Generator().manual_seed(17)).numpy()
        default_state = state_of()
        b = call(torch.Generator().manual_seed(17)).numpy()
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(state_of(), default_state)
        torch.manual_seed(17)
        np.testing.assert_array_equal(call(None).numpy(), a)


# ---- layouts ----

FILLS = {
    "uniform_": (lambda t: t.uniform_(-2, 3), FLOAT_TYPES),
    "normal_": (lambda t: t.normal_(1, 2), FLOAT_TYPES),
    "exponential_": (lambda t: t.exponential_(2), FLOAT_TYPES),
    "cauchy_": (lambda t: t.cauchy_(), FLOAT_TYPES),
    "log_normal_": (lambda t: t.log_normal_(0, 0.5), FLOAT_TYPES),
    "geometric_": (lambda t: t.geometric_(0.3), NUMERIC_TYPES),
    "bernoulli_": (lambda t: t.bernoulli_(0.4), NUMERIC_TYPES + [torch.bool]),
    "bernoulli_tensor": (lambda t: t.bernoulli_(torch.tensor([0.1, 0.5, 0.9, 0.0, 1.0, 0.7])), NUMERIC_TYPES),
    "random_": (lambda t: t.random_(), NUMERIC_TYPES + [torch.bool]),
    "random_range": (lambda t: t.random_(3, 90), NUMERIC_TYPES),
}


@pytest.mark.parametrize("name", sorted(FILLS))
@pytest.mark.parametrize("layout", ["transposed", "strided"])
def test_fills_draw_in_memory_order(name, layout, rng):
    # As PyTorch's TensorIterator walks a result: a transposed tensor gets the values of its
    # contiguous original, a strided one (rows in order) row-major order. normal_ of a
    # non-contiguous tensor takes the scalar Box-Muller, as fills of fewer than 16 do.
    fill, dtypes = FILLS[name]
    for dtype in dtypes:
        t, _ = make_tensor((4, 6), dtype, layout, rng)
        assert not t.is_contiguous()
        torch.manual_seed(4)
        if name == "normal_" and layout == "transposed":
            expected = torch.cat([fill(torch.empty(4, dtype=dtype)) for _ in range(6)]).reshape(6, 4).t()
        elif name == "normal_":
            expected = torch.cat([fill(torch.empty(6, dtype=dtype)) for _ in range(4)]).reshape(4, 6)
        elif layout == "transposed" and name == "bernoulli_tensor":
            p = torch.tensor([0.1, 0.5, 0.9, 0.0, 1.0, 0.7])
            expected = torch.empty(6, 4, dtype=dtype).bernoulli_(p[:, None].expand(6, 4)).t()
        elif layout == "transposed":
            expected = fill(torch.empty(6, 4, dtype=dtype)).t()
        else:
            expected = fill(torch.empty(4, 6, dtype=dtype))
        torch.manual_seed(4)
        assert fill(t) is t
        np.testing.assert_array_equal(t.numpy(), expected.numpy())


def test_functions_with_non_contiguous_inputs_and_out(rng):
    probs, nprobs = make_tensor((5, 4), torch.float64, "transposed", rng, 0.1, 1)
    means, nmeans = make_tensor((5, 4), torch.float32, "strided", rng)
    calls = [
        (lambda p, m: torch.multinomial(p, 3)),
        (lambda p, m: torch.bernoulli(p)),
        (lambda p, m: torch.normal(m, p)),
        (lambda p, m: torch.normal(m, 0.5)),
        (lambda p, m: torch.poisson(p * 10)),
    ]
    for call in calls:
        torch.manual_seed(9)
        got = call(probs, means).numpy()
        torch.manual_seed(9)
        np.testing.assert_array_equal(
            got, call(torch.from_numpy(nprobs.copy()), torch.from_numpy(nmeans.copy())).numpy()
        )
    # out= that is not contiguous gets the values a new tensor would
    out, _ = make_tensor((3, 5), torch.float64, "transposed", rng)
    torch.manual_seed(10)
    assert torch.rand(3, 5, dtype=torch.float64, out=out) is out
    torch.manual_seed(10)
    np.testing.assert_array_equal(out.numpy(), torch.rand(3, 5, dtype=torch.float64).numpy())


# ---- argument forms ----


def test_creation_argument_forms():
    for sizes in [(2, 3), ((2, 3),), ([2, 3],), (torch.Size([2, 3]),)]:
        torch.manual_seed(1)
        a = torch.rand(*sizes)
        torch.manual_seed(1)
        b = torch.randn(*sizes)
        assert a.shape == (2, 3) and b.shape == (2, 3)
        assert a.dtype == torch.float32 and b.dtype == torch.float32
    assert torch.rand(size=(4,)).shape == (4,)
    assert torch.rand(()).shape == ()
    assert torch.rand(0, 3).shape == (0, 3)
    assert torch.rand(3, dtype=torch.float64).dtype == torch.float64
    torch.manual_seed(1)
    plain = torch.rand(3).numpy()
    torch.manual_seed(1)
    np.testing.assert_array_equal(torch.rand(3, requires_grad=True).detach().numpy(), plain)
    out = torch.empty(7)
    assert torch.randn(2, 2, out=out) is out and out.shape == (2, 2)
    with pytest.raises(TypeError):
        torch.rand(3, bogus=1)
    with pytest.raises(TypeError):
        torch.rand()


def test_randint_argument_forms():
    torch.manual_seed(6)
    a = torch.randint(10, (3, 4))
    assert a.dtype == torch.int64 and a.shape == (3, 4)
    torch.manual_seed(6)
    np.testing.assert_array_equal(torch.randint(0, 10, (3, 4)).numpy(), a.numpy())
    torch.manual_seed(6)
    np.testing.assert_array_equal(torch.randint(high=10, size=[3, 4]).numpy(), a.numpy())
    torch.manual_seed(6)
    np.testing.assert_array_equal(torch.randint(0, 10, size=torch.Size([3, 4])).numpy(), a.numpy())
    torch.manual_seed(6)
    np.testing.assert_array_equal(torch.randint(low=0, high=10, size=(3, 4)).numpy(), a.numpy())
    assert torch.randint(3, 5, (2,), dtype=torch.float32).dtype == torch.float32
    out = torch.zeros(1, dtype=torch.int16)
    assert torch.randint(-4, 4, (6,), out=out) is out and out.shape == (6,)
    assert set(out.numpy().tolist()) <= set(range(-4, 4))
    with pytest.raises(TypeError):
        torch.randint(3, 10)  # no size
    with pytest.raises(TypeError):
        torch.randint(1.5, (3,))
    with pytest.raises(TypeError):
        torch.randint(1, 5, (3,), low=0)


def test_like_functions():
    base = torch.zeros(3, 4, dtype=torch.float64).t()
    for fn in (torch.rand_like, torch.randn_like):
        r = fn(base)
        assert r.shape == (4, 3) and r.dtype == torch.float64
        assert fn(base, dtype=torch.float32).dtype == torch.float32
    torch.manual_seed(2)
    r = torch.rand_like(base)  # base's layout, filled in memory order
    assert r.stride() == base.stride()
    torch.manual_seed(2)
    np.testing.assert_array_equal(r.numpy(), torch.rand(3, 4, dtype=torch.float64).t().numpy())
    ints = torch.zeros(50, dtype=torch.int32)
    r = torch.randint_like(ints, 5)
    assert r.dtype == torch.int32 and r.shape == (50,) and set(r.numpy().tolist()) <= set(range(5))
    r = torch.randint_like(ints, -3, 2)
    assert set(r.numpy().tolist()) <= set(range(-3, 2))
    r = torch.randint_like(ints, high=3, dtype=torch.float64)
    assert r.dtype == torch.float64 and set(r.numpy().tolist()) <= {0.0, 1.0, 2.0}
    with pytest.raises(TypeError):
        torch.rand_like(torch.zeros(3, dtype=torch.int64))
    with pytest.raises(TypeError):
        torch.randint_like(ints)
    with pytest.raises(RuntimeError):
        torch.randint_like(ints, 4, 4)


def test_normal_forms_and_shapes():
    assert torch.normal(torch.zeros(2, 3), torch.ones(3)).shape == (2, 3)  # broadcast
    assert torch.normal(torch.zeros(4, 1), 2.0).shape == (4, 1)
    assert torch.normal(torch.zeros(4, 1)).shape == (4, 1)  # std defaults to 1
    assert torch.normal(1.0, torch.ones(5, dtype=torch.float64)).dtype == torch.float64
    assert torch.normal(0.0, 1.0, (2, 5)).shape == (2, 5)
    assert torch.normal(0, 1, size=(3,), dtype=torch.float64).dtype == torch.float64
    assert torch.normal(mean=torch.zeros(3), std=torch.ones(3)).shape == (3,)
    out = torch.empty(1)
    assert torch.normal(torch.zeros(4), torch.ones(4), out=out) is out and out.shape == (4,)
    # a zero standard deviation gives the mean
    np.testing.assert_array_equal(torch.normal(torch.arange(4.0), 0.0).numpy(), np.arange(4.0, dtype=np.float32))
    np.testing.assert_array_equal(torch.empty(3).normal_(5, 0).numpy(), np.full(3, 5.0, np.float32))
    with pytest.raises(TypeError):
        torch.normal(0.0, 1.0)  # no size
    with pytest.raises(TypeError):
        torch.normal(torch.zeros(2), 1.0, (2,))


def test_in_place_fills_return_self_and_take_keywords():
    t = torch.empty(10, dtype=torch.float64)
    assert t.uniform_(**{"from": 2, "to": 3}) is t
    assert ((t.numpy() >= 2) & (t.numpy() < 3)).all()
    assert t.normal_(mean=1, std=0.5) is t
    assert t.exponential_(lambd=3) is t and (t.numpy() >= 0).all()
    assert t.cauchy_(median=1, sigma=2) is t
    assert t.log_normal_(mean=0, std=1) is t and (t.numpy() > 0).all()
    assert t.geometric_(p=0.5) is t and (t.numpy() >= 1).all()
    assert t.bernoulli_(p=0.5) is t
    assert t.bernoulli_() is t and set(t.numpy().tolist()) <= {0.0, 1.0}
    assert t.random_(to=4) is t and set(t.numpy().tolist()) <= {0.0, 1.0, 2.0, 3.0}
    assert t.random_(**{"from": 7}) is t and (t.numpy() >= 7).all()
    assert t.random_(-3, to=-1) is t and set(t.numpy().tolist()) <= {-3.0, -2.0}


# ---- distributions ----


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_uniform(dtype):
    torch.manual_seed(100)
    x = torch.empty(N, dtype=dtype).uniform_(-1.5, 2.5).numpy()
    assert x.min() >= -1.5 and x.max() < 2.5
    assert ks_statistic(x, lambda v: (v + 1.5) / 4) < KS_BOUND
    torch.manual_seed(100)
    r = torch.rand(N, dtype=dtype).numpy()
    assert r.min() >= 0 and r.max() < 1
    assert ks_statistic(r, lambda v: v) < KS_BOUND
    np.testing.assert_array_equal(torch.empty(5, dtype=dtype).uniform_(2, 2).numpy(), np.full(5, 2, NUMPY_OF[dtype]))
    # PyTorch computes u (to - from) + from in the type, which can round to `to` (as here,
    # about half the time); its values are the same as ours (test_random_streams.py)
    top = NUMPY_OF[dtype](np.nextafter(NUMPY_OF[dtype](1), NUMPY_OF[dtype](2)))
    tiny = torch.empty(N, dtype=dtype).uniform_(1, float(top)).numpy()
    assert ((tiny == 1) | (tiny == top)).all() and 0.4 < (tiny == top).mean() < 0.6


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_normal(dtype):
    torch.manual_seed(101)
    x = torch.empty(N, dtype=dtype).normal_(3, 2).numpy()
    assert ks_statistic(x, normal_cdf(3, 2)) < KS_BOUND
    torch.manual_seed(102)
    assert ks_statistic(torch.randn(N, dtype=dtype).numpy(), normal_cdf(0, 1)) < KS_BOUND
    torch.manual_seed(103)
    assert ks_statistic(torch.normal(-1.0, 0.5, (N,), dtype=dtype).numpy(), normal_cdf(-1, 0.5)) < KS_BOUND


def test_normal_with_tensor_means_and_stds():
    means = torch.from_numpy(np.tile(np.array([-5.0, 0.0, 2.0, 10.0]), N // 4))
    stds = torch.from_numpy(np.tile(np.array([0.1, 1.0, 3.0, 7.0]), N // 4))
    torch.manual_seed(104)
    x = torch.normal(means, stds).numpy()
    assert x.dtype == np.float64
    z = (x - means.numpy()) / stds.numpy()
    assert ks_statistic(z, normal_cdf(0, 1)) < KS_BOUND
    for j in range(4):  # each mean and std on its own
        assert ks_statistic(z[j::4], normal_cdf(0, 1)) < 2 * KS_BOUND
    torch.manual_seed(105)
    y = torch.normal(means, 2.0).numpy()
    assert ks_statistic(y - means.numpy(), normal_cdf(0, 2)) < KS_BOUND
    torch.manual_seed(106)
    w = torch.normal(4.0, stds).numpy()
    assert ks_statistic((w - 4) / stds.numpy(), normal_cdf(0, 1)) < KS_BOUND


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_exponential_cauchy_log_normal(dtype):
    torch.manual_seed(107)
    x = torch.empty(N, dtype=dtype).exponential_(2.5).numpy()
    assert x.min() >= 0
    assert ks_statistic(x, lambda v: 1 - np.exp(-2.5 * v)) < KS_BOUND
    torch.manual_seed(108)
    c = torch.empty(N, dtype=dtype).cauchy_(1.0, 3.0).numpy()
    assert ks_statistic(c, lambda v: 0.5 + np.arctan((v - 1) / 3) / np.pi) < KS_BOUND
    torch.manual_seed(109)
    ln = torch.empty(N, dtype=dtype).log_normal_(0.5, 0.25).numpy()
    assert ln.min() > 0
    assert ks_statistic(np.log(ln.astype(np.float64)), normal_cdf(0.5, 0.25)) < KS_BOUND
    torch.manual_seed(110)
    default = torch.empty(N, dtype=dtype).log_normal_().numpy()  # mean 1, std 2 of the log
    assert ks_statistic(np.log(default.astype(np.float64)), normal_cdf(1, 2)) < KS_BOUND


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.int32, torch.int64, torch.int16])
@pytest.mark.parametrize("p", [0.2, 0.7])
def test_geometric(dtype, p):
    torch.manual_seed(111)
    x = torch.empty(N, dtype=dtype).geometric_(p).numpy()
    assert x.min() >= 1  # trials up to and including the first success
    top = int(x.max())
    assert_frequencies(x, lambda k: (1 - p) ** (k - 1) * p, range(1, top + 1))
    assert abs(x.astype(np.float64).mean() - 1 / p) < 6 * math.sqrt((1 - p) / p**2 / N)


@pytest.mark.parametrize("dtype", NUMERIC_TYPES + [torch.bool, torch.float16])
def test_bernoulli_scalar(dtype):
    torch.manual_seed(112)
    x = torch.empty(N, dtype=dtype).bernoulli_(0.3).numpy()
    assert_frequencies(x.astype(np.float64), lambda k: 0.3 if k == 1 else 0.7, [0, 1])
    assert not torch.empty(N, dtype=dtype).bernoulli_(0).numpy().astype(bool).any()
    assert torch.empty(N, dtype=dtype).bernoulli_(1).numpy().astype(bool).all()


def test_bernoulli_with_probability_tensors():
    p = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0], dtype=torch.float64)
    torch.manual_seed(113)
    rows = torch.empty(N // 5, 5, dtype=torch.float32).bernoulli_(p).numpy()  # p broadcast along rows
    for j, q in enumerate(p.numpy()):
        assert_frequencies(rows[:, j], lambda k, q=q: q if k == 1 else 1 - q, [0, 1])
    probs = torch.from_numpy(np.tile(p.numpy(), (N // 5, 1)))
    torch.manual_seed(113)
    drawn = torch.bernoulli(probs)
    assert drawn.dtype == torch.float64
    np.testing.assert_array_equal(drawn.numpy(), rows)  # the same draws, one per element in order
    torch.manual_seed(114)
    assert_frequencies(torch.bernoulli(torch.zeros(N), 0.6).numpy(), lambda k: 0.6 if k == 1 else 0.4, [0, 1])
    assert torch.zeros(3, dtype=torch.int64).bernoulli(0.5).dtype == torch.int64
    # float32 probabilities too, and the method form
    torch.manual_seed(115)
    f = torch.full((N,), 0.8).bernoulli().numpy()
    assert_frequencies(f, lambda k: 0.8 if k == 1 else 0.2, [0, 1])


# The largest value random_() gives per type: the type's maximum, 2^mantissa for floats.
RANDOM_TOP = {
    torch.uint8: 255,
    torch.int8: 127,
    torch.int16: 2**15 - 1,
    torch.int32: 2**31 - 1,
    torch.int64: 2**63 - 1,
    torch.float32: 2**24,
    torch.float64: 2**53,
    torch.bool: 1,
}


@pytest.mark.parametrize("dtype", sorted(RANDOM_TOP, key=str))
def test_random_full_range(dtype):
    torch.manual_seed(116)
    x = torch.empty(20_000, dtype=dtype).random_().numpy()
    values = x.astype(object) if dtype == torch.int64 else x.astype(np.float64)
    top = RANDOM_TOP[dtype]
    assert min(values) >= 0 and max(values) <= top
    assert max(values) > top // 2  # 20000 draws all in the lower half: probability 2^-20000
    if dtype.is_floating_point:
        assert (np.floor(x) == x).all()
    if top < 1000:
        assert set(values) == set(range(top + 1))  # every value turns up


@pytest.mark.parametrize("dtype", INT_TYPES + FLOAT_TYPES)
def test_random_ranges(dtype):
    lo = 0 if dtype == torch.uint8 else -7
    torch.manual_seed(117)
    x = torch.empty(N, dtype=dtype).random_(lo, 13).numpy()
    assert_frequencies(x, lambda k: 1 / (13 - lo), range(lo, 13))
    torch.manual_seed(118)
    y = torch.empty(N, dtype=dtype).random_(6).numpy()
    assert_frequencies(y, lambda k: 1 / 6, range(6))
    if dtype in (torch.int8, torch.uint8):  # the type's whole range
        info = np.iinfo(NUMPY_OF[dtype])
        z = torch.empty(N, dtype=dtype).random_(int(info.min), int(info.max) + 1).numpy()
        assert set(z.tolist()) == set(range(int(info.min), int(info.max) + 1))
    # to=None: from `from` up to the type's top
    w = torch.empty(1000, dtype=dtype).random_(100, None).numpy().astype(np.float64)
    assert w.min() >= 100 and w.max() <= RANDOM_TOP[dtype]


def test_random_wide_int64_ranges():
    torch.manual_seed(119)
    x = torch.empty(N, dtype=torch.int64).random_(-(2**62), 2**62).numpy()
    assert x.min() >= -(2**62) and x.max() < 2**62
    assert ks_statistic(x.astype(np.float64) / 2**62, lambda v: (v + 1) / 2) < KS_BOUND
    y = torch.empty(1000, dtype=torch.int64).random_(-(2**63), None).numpy()  # every int64
    assert (y < 0).any() and (y >= 0).any()


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int8, torch.float32, torch.float64])
def test_randint(dtype):
    torch.manual_seed(120)
    x = torch.randint(-3, 5, (N,), dtype=dtype)
    assert x.dtype == dtype
    assert_frequencies(x.numpy(), lambda k: 1 / 8, range(-3, 5))
    y = torch.randint(1, (100,), dtype=dtype).numpy()
    assert (y == 0).all()


@given(low=st.integers(-(2**40), 2**40), span=st.integers(1, 2**41), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=50, deadline=None)
def test_randint_bounds_property(low, span, seed):
    torch.manual_seed(seed)
    x = torch.randint(low, low + span, (200,)).numpy()
    assert x.min() >= low and x.max() < low + span


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.uint8, torch.float32, torch.float64])
@pytest.mark.parametrize("n", [0, 1, 2, 10, 255])
def test_randperm_is_a_permutation(dtype, n):
    torch.manual_seed(121 + n)
    p = torch.randperm(n, dtype=dtype)
    assert p.dtype == dtype and p.shape == (n,)
    assert sorted(p.numpy().tolist()) == list(range(n))


def test_randperm_is_uniform():
    torch.manual_seed(122)
    n = 6000
    counts = {}
    for _ in range(n):
        key = tuple(torch.randperm(3).numpy().tolist())
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == set(itertools.permutations(range(3)))
    for c in counts.values():
        assert abs(c / n - 1 / 6) <= 6 * math.sqrt((1 / 6) * (5 / 6) / n)
    big = torch.randperm(100_000).numpy()
    assert np.array_equal(np.sort(big), np.arange(100_000))
    # position of element 0 is uniform over the 100000 places
    first = [int(np.nonzero(torch.randperm(50).numpy() == 0)[0][0]) for _ in range(5000)]
    assert_frequencies(first, lambda k: 1 / 50, range(50))


@given(n=st.integers(0, 300), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=50, deadline=None)
def test_randperm_property(n, seed):
    torch.manual_seed(seed)
    assert sorted(torch.randperm(n).numpy().tolist()) == list(range(n))


def test_multinomial_with_replacement_follows_the_weights():
    w = np.array([0.0, 1.0, 3.0, 0.0, 6.0])
    torch.manual_seed(123)
    x = torch.multinomial(torch.from_numpy(w), N, replacement=True)
    assert x.dtype == torch.int64 and x.shape == (N,)
    assert_frequencies(x.numpy(), lambda k: w[k] / w.sum(), range(5))
    # float32 weights, 2-D: one distribution per row
    w2 = np.array([[1.0, 1.0, 2.0], [0.0, 0.0, 5.0]], np.float32)
    y = torch.from_numpy(w2).multinomial(N // 2, True).numpy()
    assert y.shape == (2, N // 2)
    assert_frequencies(y[0], lambda k: [0.25, 0.25, 0.5][k], range(3))
    assert (y[1] == 2).all()


def test_multinomial_without_replacement():
    w = torch.tensor([0.0, 2.0, 0.0, 1.0, 5.0, 0.0, 3.0])
    torch.manual_seed(124)
    for _ in range(200):
        s = torch.multinomial(w, 3).numpy()
        assert len(set(s.tolist())) == 3 and set(s.tolist()) <= {1, 3, 4, 6}
    # drawing every category of nonzero weight gives each exactly once
    full = torch.multinomial(w, 4).numpy()
    assert sorted(full.tolist()) == [1, 3, 4, 6]
    # rows of a 2-D input are sampled separately
    rows = torch.tensor([[1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
    r = torch.multinomial(rows, 2).numpy()
    assert r.shape == (2, 2) and len(set(r[0].tolist())) == 2 and sorted(r[1].tolist()) == [1, 2]
    # the first draw follows the weights; the second is drawn from what is left
    first = np.array([torch.multinomial(torch.tensor([1.0, 2.0, 7.0]), 2).numpy() for _ in range(4000)])
    assert_frequencies(first[:, 0], lambda k: [0.1, 0.2, 0.7][k], range(3))
    second_given_2 = first[first[:, 0] == 2, 1]
    assert_frequencies(second_given_2, lambda k: [1 / 3, 2 / 3, 0][k], range(2))


@pytest.mark.parametrize("rate", [0.0, 0.5, 4.0, 9.9, 10.0, 30.0, 1000.0])
def test_poisson(rate):
    torch.manual_seed(125)
    x = torch.poisson(torch.full((N,), rate, dtype=torch.float64)).numpy()
    assert (x >= 0).all() and (np.floor(x) == x).all()
    assert abs(x.mean() - rate) <= 6 * math.sqrt(rate / N) + 1e-12
    if rate > 0:
        assert abs(x.var() / rate - 1) < 0.05
    if 0 < rate <= 30:

        def pmf(k):
            return math.exp(-rate + k * math.log(rate) - math.lgamma(k + 1))

        assert_frequencies(x, pmf, range(int(x.max()) + 1))
    mixed = torch.poisson(torch.tensor([0.0, 2.0, 50.0], dtype=torch.float32))
    assert mixed.dtype == torch.float32 and mixed.numpy()[0] == 0


# ---- errors ----


def test_distribution_parameter_errors_leave_everything_unchanged(rng):
    t, _ = make_tensor((3, 4), torch.float32, "contiguous", rng)
    ints, _ = make_tensor((3, 4), torch.int32, "contiguous", rng)
    bad = [
        (RuntimeError, lambda: t.normal_(0, -1)),
        (RuntimeError, lambda: t.normal_(0, float("nan"))),
        (RuntimeError, lambda: t.uniform_(2, 1)),
        (RuntimeError, lambda: t.exponential_(0)),
        (RuntimeError, lambda: t.exponential_(-2)),
        (RuntimeError, lambda: t.cauchy_(0, 0)),
        (RuntimeError, lambda: t.log_normal_(0, -1)),
        (RuntimeError, lambda: t.geometric_(0)),
        (RuntimeError, lambda: t.geometric_(1)),
        (RuntimeError, lambda: t.geometric_(1.5)),
        (RuntimeError, lambda: t.bernoulli_(1.5)),
        (RuntimeError, lambda: t.bernoulli_(-0.1)),
        (RuntimeError, lambda: t.bernoulli_(torch.tensor([0.5, 1.2, 0.0, 0.1]))),
        (RuntimeError, lambda: t.bernoulli_(torch.tensor([0.5, float("nan"), 0.0, 0.1]))),
        (RuntimeError, lambda: t.bernoulli_(torch.full((5,), 0.5))),
        (RuntimeError, lambda: t.random_(5, 5)),
        (RuntimeError, lambda: t.random_(0)),
        (RuntimeError, lambda: t.random_(0, 2**25)),  # not exact in float32
        (RuntimeError, lambda: ints.random_(0, 2**31 + 1)),
        (RuntimeError, lambda: ints.random_(-(2**31) - 1, 0)),
        (RuntimeError, lambda: torch.zeros(2, dtype=torch.uint8).random_(-1, 3)),
        (RuntimeError, lambda: torch.zeros(2, dtype=torch.int8).random_(0, 129)),
        (TypeError, lambda: ints.uniform_()),
        (TypeError, lambda: ints.normal_()),
        (TypeError, lambda: ints.exponential_()),
        (TypeError, lambda: ints.cauchy_()),
        (TypeError, lambda: ints.log_normal_()),
        (TypeError, lambda: torch.zeros(3, dtype=torch.bool).geometric_(0.5)),
        (TypeError, lambda: t.random_(1.5)),
        (TypeError, lambda: t.bernoulli_("x")),
    ]
    before_t, before_i = t.numpy().copy(), ints.numpy().copy()
    for exc, call in bad:
        with unchanged(t, ints):
            with pytest.raises(exc):
                call()
    np.testing.assert_array_equal(t.numpy(), before_t)
    np.testing.assert_array_equal(ints.numpy(), before_i)


def test_sampling_function_errors_leave_everything_unchanged():
    out = torch.full((2, 2), 3.0)
    long_out = torch.full((3,), 7, dtype=torch.int64)
    w = torch.tensor([1.0, 0.0, 2.0])
    bad = [
        (RuntimeError, lambda: torch.randint(5, 5, (3,))),
        (RuntimeError, lambda: torch.randint(5, 2, (3,), out=long_out)),
        (RuntimeError, lambda: torch.randint(0, 300, (3,), dtype=torch.uint8)),
        (RuntimeError, lambda: torch.randperm(-1)),
        (RuntimeError, lambda: torch.randperm(300, dtype=torch.int8)),
        (RuntimeError, lambda: torch.randperm(-1, out=long_out)),
        (RuntimeError, lambda: torch.normal(0.0, -1.0, (3,), out=out)),
        (RuntimeError, lambda: torch.normal(torch.zeros(3), torch.tensor([1.0, -1.0, 1.0]))),
        (RuntimeError, lambda: torch.normal(torch.zeros(3), -0.5, out=out)),
        (RuntimeError, lambda: torch.normal(torch.zeros(3), torch.ones(4))),
        (RuntimeError, lambda: torch.bernoulli(torch.tensor([0.5, 1.5]), out=out)),
        (RuntimeError, lambda: torch.bernoulli(torch.zeros(2), 2.0)),
        (RuntimeError, lambda: torch.multinomial(w, 4)),  # more samples than categories
        (RuntimeError, lambda: torch.multinomial(w, 0)),
        (RuntimeError, lambda: torch.multinomial(torch.tensor([1.0, -1.0, 2.0]), 1, True)),
        (RuntimeError, lambda: torch.multinomial(torch.zeros(3), 1, True)),
        (RuntimeError, lambda: torch.multinomial(torch.tensor([1.0, float("inf")]), 1, True)),
        (RuntimeError, lambda: torch.multinomial(torch.ones(2, 2, 2), 1)),
        (RuntimeError, lambda: torch.multinomial(torch.tensor([[1.0, 1.0], [0.0, 0.0]]), 1, out=long_out)),
        (RuntimeError, lambda: torch.poisson(torch.tensor([1.0, -2.0]))),
        (RuntimeError, lambda: torch.poisson(torch.tensor([1.0, float("inf")]))),
        (TypeError, lambda: torch.rand(2, 2, dtype=torch.int64)),
        (TypeError, lambda: torch.rand(2, 2, out=long_out)),
        (TypeError, lambda: torch.randn(3, out=long_out)),
        (TypeError, lambda: torch.rand(2, 2, dtype=torch.float64, out=out)),
        (TypeError, lambda: torch.randn(2, dtype=torch.int32)),
        (TypeError, lambda: torch.multinomial(torch.tensor([1, 2, 3]), 1)),
        (TypeError, lambda: torch.multinomial(w, 1.5)),
        (TypeError, lambda: torch.bernoulli(torch.tensor([0, 1]))),
        (TypeError, lambda: torch.poisson(torch.tensor([1, 2]))),
        (TypeError, lambda: torch.randperm(3.0)),
        (TypeError, lambda: torch.normal(torch.zeros(2), "x")),
    ]
    for exc, call in bad:
        with unchanged(out, long_out, w):
            with pytest.raises(exc):
                call()
