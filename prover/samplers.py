# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The samplers' tables, every entry checked against its definition (exhaustively: all
256 masks, all 16 half-bytes, every shuffle byte), read from the .S text:
  .Lleft_pack  row m: the indices of the bits set in m, in increasing order, first
               (the lanes after popcount(m) are stored past the count: not checked);
  .Lpopcount   entry m: the number of bits set in m;
  .L2_lut, .L4_lut  half-byte b -> 2 - (b mod 5) for b < 15, 4 - b for b < 9 (signed
               bytes; entries of rejected half-bytes are don't-care);
  .Lshuffle    rej_uniform: dword j of 128-bit lane L holds the 3 bytes of group 4L + j,
               little-endian, of a lane loaded from byte offset off_L of the step (the
               offsets from the header: 'from bytes ... of the step'), top byte zeroed.
The samplers' code up to the accept mask is proved per lane in sampler_lanes.py."""
import os
import re
from . import asm


def table(u, label, n):
    if label not in u.symbols:
        return None
    o = u.symbols[label]
    return list(u.rodata[o:o + n])


def check(asm_dir, isa, parse=asm.parse):
    out = []
    for f in ('rej_uniform', 'rej_eta'):
        path = os.path.join(asm_dir, isa, f + '.S')
        if not os.path.exists(path):
            continue
        u = parse(path)
        lp = table(u, '.Lleft_pack', 256 * 8)
        if lp is not None:
            bad = []
            for m in range(256):
                bits = [i for i in range(8) if m >> i & 1]
                if lp[8 * m:8 * m + len(bits)] != bits:
                    bad.append(m)
            out.append((f, '.Lleft_pack: 256 rows, set-bit indices first', not bad, bad[:3]))
        pc = table(u, '.Lpopcount', 256)
        if pc is not None:
            bad = [m for m in range(256) if pc[m] != bin(m).count('1')]
            out.append((f, '.Lpopcount: 256 entries', not bad, bad[:3]))
        for eta, keep, val in ((2, 15, lambda b: 2 - b % 5), (4, 9, lambda b: 4 - b)):
            lut = table(u, '.L%d_lut' % eta, 16)
            if lut is not None:
                sb = [x - 256 if x > 127 else x for x in lut]
                bad = [b for b in range(keep) if sb[b] != val(b)]
                out.append((f, '.L%d_lut: half-bytes 0..%d' % (eta, keep - 1), not bad, bad[:3]))
        sh = table(u, '.Lshuffle', 64)
        if sh is not None and f == 'rej_uniform':
            text = ' '.join(l.lstrip('#').strip() for l in open(path).read().split('\n') if l.startswith('#'))
            mt = re.search(r'from\s+bytes ([\d, ]+?) of the step', text)
            offs = [int(x) for x in mt.group(1).split(',')] if mt else []
            nbytes = 16 * len(offs)
            sh = sh[:nbytes]
            bad = []
            for L, off in enumerate(offs):
                for j in range(4):
                    g = 4 * L + j
                    want = [3 * g + k - off for k in range(3)] + [128]
                    got = sh[16 * L + 4 * j:16 * L + 4 * j + 4]
                    if got[:3] != want[:3] or not got[3] & 0x80 or not all(0 <= w < 16 for w in want[:3]):
                        bad.append((L, j))
            ok = bool(offs) and not bad
            out.append((f, '.Lshuffle: %d lanes from offsets %s' % (len(offs), offs), ok, bad[:3]))
    return out
