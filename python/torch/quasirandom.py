"""torch.quasirandom: Sobol sequences, drawn point for point as PyTorch 1.13 draws them.

Note [Sobol sequences as 1.13 draws them]: the direction numbers are Joe and Kuo's
(new-joe-kuo-6.21201), read from _sobol_directions.bin (Note [Sobol direction numbers file] in
scripts/gen_sobol_directions.py) and extended to 30 bits by Bratley and Fox's recurrence. Point
k of an engine is shift ^ (the XOR of the direction numbers picked by the rightmost zero bits
of 0..k-1), the Gray-code order Antonov and Saleev gave and 1.13 uses, so one cumulative XOR
over the picked numbers gives a whole draw. Scrambling (Owen's linear matrix scramble plus a
digital shift) takes its random bits from torch.randint in 1.13's order, so a seeded engine
draws 1.13's points bit for bit. Two of 1.13's quirks are kept because they show in the
values: the first point is computed in the default dtype when the engine is made (so a float64
draw's first row is float32-rounded under the default float32), and the points are int64
numerators converted to the dtype before the exact scaling by 2^-30.
"""

import functools
import os

import numpy as np

import torch

__all__ = ["SobolEngine"]

_DIRECTIONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_sobol_directions.bin")
_MAXDEG = 18


def _as_ints(bits):
    """The integers whose most-significant-first bits are the rows of bits (an (n, w) 0/1 array)."""
    weights = np.left_shift(np.int64(1), np.arange(bits.shape[1] - 1, -1, -1, dtype=np.int64))
    return bits @ weights


@functools.lru_cache(maxsize=1)
def _joe_kuo_rows():
    """[(s, polynomials, m)] per degree s, for rows 1..21200 in order: polynomials with their
    leading and trailing 1 bits, m the (rows, s) initial direction numbers."""
    raw = np.fromfile(_DIRECTIONS_FILE, dtype=np.uint8)
    counts = raw[: 2 * _MAXDEG].view("<u2").astype(np.int64)
    bits = np.unpackbits(raw[2 * _MAXDEG :]).astype(np.int64)
    groups, start = [], 0
    for s, count in enumerate(counts, 1):
        record = (s - 1) + s * (s - 1) // 2
        block = bits[start : start + count * record].reshape(count, record)
        start += count * record
        polynomials = (1 << s) | (_as_ints(block[:, : s - 1]) << 1) | 1
        m = np.ones((count, s), dtype=np.int64)
        column = s - 1
        for i in range(2, s + 1):
            m[:, i - 1] = (_as_ints(block[:, column : column + i - 1]) << 1) | 1
            column += i - 1
        groups.append((s, polynomials, m))
    return groups


def _direction_numbers(dimension, maxbit):
    """(dimension, maxbit) int64: the direction numbers of each dimension as maxbit-bit integers."""
    v = np.zeros((dimension, maxbit), dtype=np.int64)
    v[0] = 1
    row = 1
    for s, polynomials, m in _joe_kuo_rows():
        take = min(len(polynomials), dimension - row)
        if take <= 0:
            break
        rows, p = v[row : row + take], polynomials[:take]
        rows[:, :s] = m[:take]
        # Bratley and Fox (ACM TOMS 14(1), 1988, p. 90): v_j from the s numbers before it.
        for j in range(s, maxbit):
            new = rows[:, j - s].copy()
            for k in range(s):
                new ^= np.where((p >> (s - 1 - k)) & 1 == 1, rows[:, j - k - 1] << (k + 1), 0)
            rows[:, j] = new
        row += take
    return v << np.arange(maxbit - 1, -1, -1, dtype=np.int64)


def _parity(x):
    """Each element's number of 1 bits, mod 2 (non-negative int64 below 2^32)."""
    for shift in (16, 8, 4, 2, 1):
        x = x ^ (x >> shift)
    return x & 1


class SobolEngine(object):
    r"""An engine drawing (scrambled) Sobol sequences of up to 21201 dimensions, with Joe and
    Kuo's direction numbers (search criterion D(6)).

    Args:
        dimension (int): the dimension of the points.
        scramble (bool, optional): draw scrambled points (a random linear matrix scramble and
            digital shift). Default: ``False``.
        seed (int, optional): seed of the scrambling's random numbers; ``None`` draws them from
            the default generator. Default: ``None``.
    """

    MAXBIT = 30
    MAXDIM = 21201

    def __init__(self, dimension, scramble=False, seed=None):
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality for SobolEngine is [1, %d]" % self.MAXDIM)
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        self.sobolstate = torch.from_numpy(_direction_numbers(dimension, self.MAXBIT))
        if scramble:
            self._scramble()
        else:
            self.shift = torch.zeros(dimension, dtype=torch.long)
        self.quasi = self.shift.clone()
        self._first_point = (self.quasi / 2**self.MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _states(self, n, counter):
        """The n states after self.quasi, stepping counters counter..counter+n-1: (n, dimension)
        int64 (Note [Sobol sequences as 1.13 draws them])."""
        steps = np.arange(counter, counter + n, dtype=np.int64)
        lowest_zero = np.frexp((~steps & (steps + 1)).astype(np.float64))[1] - 1
        if n > 0 and lowest_zero.max() >= self.MAXBIT:
            raise RuntimeError("SobolEngine: a Sobol sequence of %d bits has only 2^%d points" % ((self.MAXBIT,) * 2))
        picked = self.sobolstate.numpy()[:, lowest_zero].T
        return np.bitwise_xor.accumulate(picked, axis=0) ^ self.quasi.numpy()

    def _draw_points(self, n, counter, dtype):
        """The next n points as a (n, dimension) tensor of dtype, advancing self.quasi."""
        states = self._states(n, counter)
        if n > 0:
            self.quasi = torch.from_numpy(states[-1].copy())
        numpy_dtype = np.float32 if dtype == torch.float32 else np.float64
        return torch.from_numpy(states.astype(numpy_dtype) * numpy_dtype(2.0**-self.MAXBIT))

    def draw(self, n=1, out=None, dtype=torch.float32):
        r"""The next n points of the sequence, a (n, dimension) tensor of dtype (``torch.float32``
        or ``torch.float64``), written into out when given."""
        if dtype not in (torch.float32, torch.float64):
            raise RuntimeError("SobolEngine.draw: dtype must be torch.float32 or torch.float64, not %s" % dtype)
        if n < 0:
            raise RuntimeError("SobolEngine.draw: cannot draw a negative number of points (%d)" % n)
        if self.num_generated == 0 and n > 0:
            rest = self._draw_points(n - 1, 0, dtype)
            result = self._first_point.to(dtype) if n == 1 else torch.cat((self._first_point, rest), dim=-2)
        else:
            result = self._draw_points(n, self.num_generated - 1, dtype)
        self.num_generated += n
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m, out=None, dtype=torch.float32):
        r"""The next 2**m points (see :meth:`draw`); the total drawn must stay a power of 2, which
        keeps the points' balance properties."""
        n = 2**m
        total_n = self.num_generated + n
        if total_n & (total_n - 1) != 0:
            raise ValueError(
                "The balance properties of Sobol' points require n to be a power of 2. "
                "%d points have been previously generated, then: n=%d+2**%d=%d. "
                "If you still want to do this, please use 'SobolEngine.draw()' instead."
                % (self.num_generated, self.num_generated, m, total_n)
            )
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self):
        r"""Back to the first point."""
        self.quasi.copy_(self.shift)
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        r"""Skip n points, as drawing them would."""
        if n < 0:
            raise ValueError("SobolEngine.fast_forward: cannot skip a negative number of points (%d)" % n)
        if n > 0:
            counter = self.num_generated - 1 if self.num_generated > 0 else 0
            count = n if self.num_generated > 0 else n - 1
            if count > 0:
                self.quasi.copy_(torch.from_numpy(self._states(count, counter)[-1]))
        self.num_generated += n
        return self

    def _scramble(self):
        generator = None
        if self.seed is not None:
            generator = torch.Generator()
            generator.manual_seed(self.seed)
        bits = self.MAXBIT
        shift_bits = torch.randint(2, (self.dimension, bits), generator=generator).numpy()
        self.shift = torch.from_numpy(shift_bits @ (np.int64(1) << np.arange(bits, dtype=np.int64)))
        # Owen's linear matrix scramble: lower unit-triangular random bit matrices, one per dimension;
        # bit (bits-1-p) of a scrambled number is row p of the matrix dotted, mod 2, with its bits.
        ltm = torch.randint(2, (self.dimension, bits, bits), generator=generator).tril().numpy()
        ltm[:, np.arange(bits), np.arange(bits)] = 1
        rows = ltm @ (np.int64(1) << np.arange(bits - 1, -1, -1, dtype=np.int64))
        v = self.sobolstate.numpy()
        place = np.int64(1) << np.arange(bits - 1, -1, -1, dtype=np.int64)
        for first in range(0, self.dimension, 1024):  # (chunk, bits, bits) int64 at a time
            chunk = slice(first, first + 1024)
            dots = _parity(rows[chunk, :, None] & v[chunk, None, :])
            v[chunk] = np.einsum("dpj,p->dj", dots, place)

    def __repr__(self):
        fields = ["dimension=%d" % self.dimension]
        if self.scramble:
            fields.append("scramble=True")
        if self.seed is not None:
            fields.append("seed=%s" % self.seed)
        return "%s(%s)" % (self.__class__.__name__, ", ".join(fields))
