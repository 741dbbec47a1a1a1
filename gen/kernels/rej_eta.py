# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/rej_eta.S.j2 (RejBoundedPoly's inner loop, FIPS 204
Alg. 31 with Alg. 15): one symbol per eta, mldsa_rej_eta2_<isa> and mldsa_rej_eta4_<isa>.

Each byte of the stream gives two half-bytes b, the low one first. eta = 2 keeps b < 15
as 2 - (b mod 5); eta = 4 keeps b < 9 as 4 - b. Everything the SIMD steps need is
computed and checked here:

  lut       16 bytes, value(b) for every b (rejected ones too: they are never kept);
            vpshufb looks it up in a register (AVX2, AVX-512), no memory address
  bound     b is kept when bound > b (a signed byte compare, b <= 15)
  sse2      SSE2 has no pshufb: value(b) = base - b + add * [b > t1] + add * [b > t2]
            (eta 2: 2 - b + 5 [b > 4] + 5 [b > 9]; eta 4: 4 - b)
  mod5      the scalar tail's b mod 5 = b - 5 ((b * mul) >> shift), for b < 16
  left_pack, popcount
            AVX2's tables indexed by the 8-bit accept mask (see the template's header on
            why this address may depend on it), from gen/kernels/rej_uniform.py
  neon      NEON packs each 4 half-bytes' dwords as rej_uniform does: tbl by row m of
            left_pack_bytes, m the 4-bit accept mask; m + 16 popcount(m) for all four
            groups of a step at once from the byte compare ANDed with the weights
            (accept_weights per group of 4 bytes) and two pairwise adds (addp)
"""

from .rej_uniform import accept_weights, left_pack, left_pack_bytes, popcounts


def _value(eta: int, b: int) -> int:
    """The coefficient a kept half-byte stands for (FIPS 204 Alg. 15, CoeffFromHalfByte)."""
    return 2 - b % 5 if eta == 2 else 4 - b


def _kept(eta: int, b: int) -> bool:
    return b < (15 if eta == 2 else 9)


def variants() -> list:
    out = []
    for eta in (2, 4):
        bound = 15 if eta == 2 else 9
        lut = [_value(eta, b) for b in range(16)]
        if eta == 2:
            sse2 = dict(base=2, add=5, t=(4, 9))
        else:
            sse2 = dict(base=4, add=0, t=())
        mul, shift = 205, 10
        for b in range(16):
            kept = _kept(eta, b)
            if kept != (bound > b):
                raise ValueError(f"rej_eta{eta}: bound {bound}")
            if not kept:
                continue
            if sse2["base"] - b + sum(sse2["add"] for t in sse2["t"] if b > t) != lut[b]:
                raise ValueError(f"rej_eta{eta}: SSE2 value of {b}")
            if b - 5 * ((b * mul) >> shift) != b % 5:
                raise ValueError("rej_eta: b mod 5")
            if not -128 <= lut[b] < 128:
                raise ValueError("rej_eta: values must be signed bytes")
        out.append(dict(eta=eta, bound=bound, lut=[v & 0xFF for v in lut], sse2=sse2,
                        mod5=(mul, shift)))
    return out


def neon_tables() -> dict:
    """NEON's weights (16 bytes) and left-pack rows, checked on every accept pattern of a
    group: the two addp leave byte g = the sum of bytes 4g .. 4g + 3."""
    weights = accept_weights() * 4
    for m in range(16):
        ms = [m, 15 - m, 7 * m % 16, (m + 5) % 16]          # one mask per group
        k = [0xFF if ms[i // 4] >> (i % 4) & 1 else 0 for i in range(16)]
        w = [x & y for x, y in zip(k, weights)]
        for _ in range(2):
            w = [(w[2 * i] + w[2 * i + 1]) & 0xFF for i in range(8)] * 2
        if w[:4] != [g + 16 * popcounts()[g] for g in ms]:
            raise ValueError("rej_eta: NEON accept sums")
    return {"weights": weights, "left_pack": [left_pack_bytes(m) for m in range(16)]}


def context(isa) -> dict:
    if isa.arch == "aarch64":
        return {"variants": variants(), "neon": neon_tables()}
    return {
        "variants": variants(),
        "left_pack": [left_pack(m) for m in range(256)],
        "popcount": popcounts(),
    }
