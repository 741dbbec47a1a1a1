# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The kernel inventory: the x86 ISAs, the kernel names the obligations are grouped by,
and the kernels declared as not proved (with the reason). The proof (__main__.py) and the
differential harnesses (differential.py, a64diff.py) read it."""
import re

ISAS = ['sse2', 'avx2', 'avx512']

# kernel name -> (file, what the obligations are)
ELEMENTWISE = ['add', 'sub', 'reduce32', 'caddq', 'shiftl', 'power2round', 'decompose_g88',
               'decompose_g32', 'make_hint_g88', 'make_hint_g32', 'use_hint_g88', 'use_hint_g32',
               'chknorm', 'pointwise_montgomery'] + ['pointwise_acc_L%d' % L for L in (4, 5, 7)]

# Kernels in asm_out that are not proved, with the reason (on the ISAs where keccak.py
# has no description of them); every other function in asm_out must have an obligation.
NOT_PROVED = {
    'keccak_f1600_x1': 'Keccak: tested, not proved',
}

KECCAK = ['keccak_f1600_x1', 'keccak_f1600_batch']


def neon_key(n):
    """mldsa_<k>_neon[_<variant>] -> <k>[_<variant>]"""
    return re.sub(r'_neon(?=_|$)', '', n[len('mldsa_'):], count=1)


# neon functions that are not proved, with the reason (none today)
NEON_NOT_PROVED = {
}
