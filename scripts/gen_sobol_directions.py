"""Writes python/torch/_sobol_directions.bin, the Sobol direction numbers torch.quasirandom reads,
from Joe and Kuo's table new-joe-kuo-6.21201 (https://web.maths.unsw.edu.au/~fkuo/sobol/, the
table PyTorch 1.13's SobolEngine uses) as Debian's python3-scipy ships it
(scipy/stats/_sobol_direction_numbers.npz: `poly`, the primitive polynomials with their leading
and trailing 1 bits, and `vinit`, the initial direction numbers m_1..m_s).

  /usr/bin/python3 scripts/gen_sobol_directions.py [NPZ]

Note [Sobol direction numbers file]: the table's information is its bits, so the file stores
those and nothing else. Row 0 (the first dimension, all ones) is not stored. The rows 1..21200
come in order of degree s, so the header is 18 little-endian uint16: how many rows have degree
s = 1..18. Then one bit string (most significant bit first, padded to a byte) with one record
per row: the polynomial's s - 1 inner coefficients `a`, then m_2..m_s, each m_i (odd, below
2^i) stored as m_i >> 1 in i - 1 bits (m_1 is always 1). A record of degree s holds
(s - 1) + s(s - 1)/2 bits; 21200 rows take ~400 KB, about a fifth of the table's text.
"""

import os
import sys

import numpy as np

MAXDEG = 18
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_NPZ = "/usr/lib/python3/dist-packages/scipy/stats/_sobol_direction_numbers.npz"
OUT = os.path.join(ROOT, "python", "torch", "_sobol_directions.bin")


def main():
    table = np.load(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_NPZ)
    poly, vinit = table["poly"].astype(np.int64), table["vinit"].astype(np.int64)
    assert poly.shape == (21201,) and vinit.shape == (21201, MAXDEG), (poly.shape, vinit.shape)
    degrees = np.array([int(p).bit_length() - 1 for p in poly[1:]])
    assert np.all(np.diff(degrees) >= 0) and degrees.min() >= 1 and degrees.max() <= MAXDEG
    bits = []
    for p, s, m in zip(poly[1:], degrees, vinit[1:]):
        p = int(p)
        assert p & 1 and m[0] == 1 and not m[s:].any(), (p, m)
        bits.append(format((p >> 1) & ((1 << (s - 1)) - 1), "0%db" % (s - 1)) if s > 1 else "")
        for i in range(2, s + 1):
            mi = int(m[i - 1])
            assert mi & 1 and mi < (1 << i), (p, i, mi)
            bits.append(format(mi >> 1, "0%db" % (i - 1)))
    stream = np.packbits(np.frombuffer("".join(bits).encode(), dtype=np.uint8) - ord("0"))
    counts = np.bincount(degrees, minlength=MAXDEG + 1)[1:].astype("<u2")
    with open(OUT, "wb") as f:
        f.write(counts.tobytes())
        f.write(stream.tobytes())
    print("%s: %d bytes" % (OUT, os.path.getsize(OUT)))


if __name__ == "__main__":
    main()
