# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keccak-f[1600] constants from their definitions in FIPS 202 section 3.2."""

import itertools
import re


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


# Lane complementing (Bertoni et al., "Keccak implementation overview", section 2.2):
# the single-state C permutation keeps these six lanes of the state complemented, (x, y)
# indexed x + 5y. theta and rho-pi carry the complements along (x ^ ~y = ~(x ^ y)), and
# chi, b0 ^ (~b1 & b2), can then be written with AND and OR of the stored lanes for most
# outputs, so a round needs 5 NOTs instead of 25 (x86-64 has no and-not before BMI1).
COMPLEMENTED = (1, 2, 8, 12, 17, 20)


def _chi_options(b: list, inv: list, x: int, want: int) -> list:
    """Every way of writing output x of a plane, b0 ^ (~b1 & b2), from the stored values
    b (b[i] holds the true lane, complemented when inv[i]) so that it is stored
    complemented when want: (expression, set of stored values it negates)."""
    i0, i1, i2 = inv[x], inv[(x + 1) % 5], inv[(x + 2) % 5]
    k0, k1, k2 = x, (x + 1) % 5, (x + 2) % 5
    out = []
    for n1 in (0, 1):          # NOT applied to the stored b1, b2
        for n2 in (0, 1):
            s1 = f"~{b[k1]}" if n1 else b[k1]
            s2 = f"~{b[k2]}" if n2 else b[k2]
            v1, v2 = i1 ^ n1, i2 ^ n2   # s = true lane ^ (all ones when v)
            if v1 == 1 and v2 == 0:     # s1 & s2 = ~t1 & t2
                e, neg = f"({s1} & {s2})", 0
            elif v1 == 0 and v2 == 1:   # s1 | s2 = t1 | ~t2 = ~(~t1 & t2)
                e, neg = f"({s1} | {s2})", 1
            else:
                continue
            negs = {k for k, n in ((k1, n1), (k2, n2)) if n}
            if i0 ^ neg != want:        # complement b0 to store the wanted form
                negs.add(k0)
                out.append((f"~{b[k0]} ^ {e}", negs))
            else:
                out.append((f"{b[k0]} ^ {e}", negs))
    return out


def _chi_plane(b: list, inv: list, want: list) -> list:
    """The five chi expressions of a plane with the fewest distinct NOTs (the compiler
    computes a repeated ~b once)."""
    best = None
    for combo in itertools.product(*(_chi_options(b, inv, x, want[x]) for x in range(5))):
        nots = len(set().union(*(negs for _, negs in combo)))
        if best is None or nots < best[0]:
            best = (nots, [e for e, _ in combo])
    return best[1]


def column_parities(src: str) -> list:
    """theta's column parities c0..c4 of lanes src00..src44."""
    return [f"c{x} = " + " ^ ".join(f"{src}{x}{y}" for y in range(5)) + ";" for x in range(5)]


def round_statements_complemented(src: str, dst: str) -> list:
    """round_statements for a state whose COMPLEMENTED lanes are stored complemented, in
    and out: the same data flow, with chi's NOTs moved onto as few lanes as possible.
    (Accumulating the next round's column parities in chi, as it writes each lane, was
    measured too: fewer loads, but more registers live, and 6-10% slower with GCC 12.)"""
    rho = rho_offsets()
    comp = [1 if i in COMPLEMENTED else 0 for i in range(25)]
    s = column_parities(src)
    cinv = [sum(comp[x + 5 * y] for y in range(5)) & 1 for x in range(5)]
    dinv = []
    for x in range(5):
        s.append(f"d{x} = c{(x + 4) % 5} ^ ROL(c{(x + 1) % 5}, 1);")
        dinv.append(cinv[(x + 4) % 5] ^ cinv[(x + 1) % 5])
    source = {pi_target(x, y): (x, y) for x in range(5) for y in range(5)}
    for y in range(5):
        names, inv = [], []
        for x in range(5):
            sx, sy = source[(x, y)]
            r = rho[sx + 5 * sy]
            expr = f"{src}{sx}{sy} ^ d{sx}"
            s.append(f"b{x} = ROL({expr}, {r});" if r else f"b{x} = {expr};")
            names.append(f"b{x}")
            inv.append(comp[sx + 5 * sy] ^ dinv[sx])
        exprs = _chi_plane(names, inv, [comp[x + 5 * y] for x in range(5)])
        for x in range(5):
            s.append(f"{dst}{x}{y} = {exprs[x]};")
    s.append(f"{dst}00 ^= rc;")
    return s


def nots_per_round(statements: list) -> int:
    """Distinct NOTs in one round's statements (a repeated ~b of one plane counted once)."""
    plane = -1
    seen = set()
    for st in statements:
        if st.startswith("b0 = "):          # each plane starts with its b0
            plane += 1
        seen |= {(plane, tok) for tok in re.findall(r"~\w+|~\(", st)}
    return len(seen)


def run_statements(statements: list, env: dict) -> None:
    """Evaluate C statements of the forms the round generators write (assignments with
    ^ & | ~ and ROL(x, n) on 64-bit lanes) in env, to check them against permute()."""
    mask = (1 << 64) - 1
    for st in statements:
        target, op, expr = st.rstrip(";").partition(" ^= ") if " ^= " in st else \
            (*st.rstrip(";").split(" = ", 1)[:1], "=", st.rstrip(";").split(" = ", 1)[1])
        e = expr
        # ROL(a ^ b, n) -> rol64((a ^ b), n); ~ on nonnegative ints is fine once masked
        e = e.replace("ROL(", "rol64(")
        v = eval(e, {"rol64": rol64}, env) & mask
        env[target] = (env[target] ^ v) & mask if op == " ^= " else v


def permute_complemented(lanes: list) -> list:
    """Keccak-f[1600] through the statements of round_statements_complemented, with the
    complemented lanes complemented on the way in and out: must equal permute()."""
    mask = (1 << 64) - 1
    env = {}
    for i, v in enumerate(lanes):
        env[f"a{i % 5}{i // 5}"] = v ^ (mask if i in COMPLEMENTED else 0)
    ae = round_statements_complemented("a", "e")
    ea = round_statements_complemented("e", "a")
    rcs = round_constants(24)
    for r in range(0, 24, 2):
        env["rc"] = rcs[r]
        run_statements(ae, env)
        env["rc"] = rcs[r + 1]
        run_statements(ea, env)
    return [env[f"a{i % 5}{i // 5}"] ^ (mask if i in COMPLEMENTED else 0) for i in range(25)]
