# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keccak-f[1600] constants from their definitions in FIPS 202 section 3.2."""


def rc_bit(t: int) -> int:
    """FIPS 202 Alg. 5: bit t of the LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0] + r
        r[0] ^= r[8]
        r[4] ^= r[8]
        r[5] ^= r[8]
        r[6] ^= r[8]
        r = r[:8]
    return r[0]


def round_constants(rounds: int = 24) -> list:
    """iota's RC for each round: bit 2^j - 1 of lane (0,0) is rc(j + 7 i_r)."""
    out = []
    for ir in range(rounds):
        rc = 0
        for j in range(7):
            rc |= rc_bit(j + 7 * ir) << ((1 << j) - 1)
        out.append(rc)
    return out


def rho_offsets() -> list:
    """rho's rotation of lane x + 5y (FIPS 202 Alg. 2), indexed x + 5y."""
    off = [0] * 25
    x, y = 1, 0
    for t in range(24):
        off[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return off


def pi_target(x: int, y: int) -> tuple:
    """rho-pi moves lane (x, y) to (y, 2x + 3y mod 5)."""
    return y, (2 * x + 3 * y) % 5


def round_statements(src: str, dst: str) -> list:
    """C statements of one unrolled Keccak round from lanes src00..src44 (named by x, y)
    into dst00..dst44, with the round constant in `rc`: theta, then rho, pi and chi one
    output plane at a time (only five rotated lanes b0..b4 are live, which keeps the
    compiler's register pressure low), then iota."""
    rho = rho_offsets()
    s = []
    for x in range(5):
        s.append(f"c{x} = " + " ^ ".join(f"{src}{x}{y}" for y in range(5)) + ";")
    for x in range(5):
        s.append(f"d{x} = c{(x + 4) % 5} ^ ROL(c{(x + 1) % 5}, 1);")
    source = {pi_target(x, y): (x, y) for x in range(5) for y in range(5)}
    for y in range(5):
        for x in range(5):
            sx, sy = source[(x, y)]
            r = rho[sx + 5 * sy]
            expr = f"{src}{sx}{sy} ^ d{sx}"
            s.append(f"b{x} = ROL({expr}, {r});" if r else f"b{x} = {expr};")
        for x in range(5):
            s.append(f"{dst}{x}{y} = b{x} ^ (~b{(x + 1) % 5} & b{(x + 2) % 5});")
    s.append(f"{dst}00 ^= rc;")
    return s


def lane_names(prefix: str) -> list:
    """Local variable names of the 25 lanes, in state order s[x + 5y]."""
    return [f"{prefix}{x}{y}" for y in range(5) for x in range(5)]


def rol64(v: int, r: int) -> int:
    """Rotate a 64-bit lane left by r bits."""
    r %= 64
    return ((v << r) | (v >> (64 - r))) & 0xFFFFFFFFFFFFFFFF if r else v


def permute(lanes: list) -> list:
    """Keccak-f[1600] (FIPS 202 Alg. 7, 24 rounds) on 25 lanes indexed x + 5y, straight
    from the step mappings: the model the generator checks its kernel plans against."""
    a = list(lanes)
    rho = rho_offsets()
    for rc in round_constants(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x + 4) % 5] ^ rol64(c[(x + 1) % 5], 1) for x in range(5)]
        b = [0] * 25
        for y in range(5):
            for x in range(5):
                tx, ty = pi_target(x, y)
                b[tx + 5 * ty] = rol64(a[x + 5 * y] ^ d[x], rho[x + 5 * y])
        a = [b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & b[(i % 5 + 2) % 5 + 5 * (i // 5)])
             for i in range(25)]
        a[0] ^= rc
    return a
