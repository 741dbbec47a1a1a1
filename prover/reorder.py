# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ntt_reorder: the permutation an ISA declares in the NTT-order paragraph of its
ntt.S header ("every group of G consecutive coefficients, read as a L x L row-major
matrix, transposed" or "the standard order"), read from the .S text, and the kernel
proved to be exactly that permutation: output position p holds the input variable
a[sigma(p)] itself, for all int32 values."""
import re
import time
from .kernels import execute
from .lanes import check_structure

N = 256


def declared_order(ntt_text):
    """sigma: position -> standard index, from the header of ntt.S."""
    head = ' '.join(l.lstrip('#').strip() for l in ntt_text.split('\n') if l.startswith('#'))
    mt = re.search(r'every group of (\d+) consecutive coefficients, read as a (\d+) x (\d+) '
                   r'row-major matrix, transposed', head)
    if mt:
        g, r, c = map(int, mt.groups())
        assert g == r * c and r == c
        return [g * (p // g) + r * ((p % g) % r) + (p % g) // r for p in range(N)]
    if re.search(r'NTT order of \w+: the standard order', head) and 'transposed' not in head:
        return list(range(N))
    raise ValueError('no declared NTT order in the header of ntt.S')


def prove_reorder(unit, isa, rep, ntt_text):
    t = time.time()
    try:
        sigma = declared_order(ntt_text)
        res = execute(unit, isa, 'mldsa_ntt_reorder_%s' % isa, {'rdi': ('ptr', 'a')})
        st = check_structure(res, ['a'], ['a'])
        m = res.m
        bad = []
        for p in range(N):
            out = m.load('a', 4 * p, 4)
            if not out.eq(m.input_var('a', sigma[p])):
                bad.append((p, sigma[p], str(out)[:60]))
        if bad:
            rep.fail('declared permutation', 'position %d should hold a[%d], holds %s' % bad[0])
            return
        if sorted(sigma) != list(range(N)):
            rep.fail('declared permutation', 'the declared order is not a permutation')
            return
        rep.ok('output position p = input a[sigma(p)] exactly, sigma the declared NTT order',
               'back edges %s; all int32 values' % st['back_edges'], time.time() - t)
    except Exception as e:
        rep.fail('ntt_reorder', str(e))
