# SPDX-License-Identifier: Apache-2.0 OR MIT
"""MXCSR Configuration Dependent Timing (MCDT), declared once.

On some Intel CPUs a few SIMD instructions may take up to a cycle longer to retire,
depending on their data, unless MXCSR holds 0x1FBF (every exception masked and every
exception flag set); the CPUs that do not behave so say it in CPUID.(EAX=7,ECX=2):EDX[5]
(MCDT_NO). Intel's guidance ("MXCSR Configuration Dependent Timing", Software Security
Guidance): save MXCSR, load 0x1FBF, LFENCE, run the code, LFENCE, restore MXCSR.

Which instructions: Intel's article lists them; the public text we could check (a peer's
verified x86 model, citing that article) names PMULUDQ and VPMULUDQ. We protect a
superset, so that the list errs on the safe side: every vector integer multiply and
multiply-add (the kernels run pmuludq on SSE2, vpmuldq and vpmulld on AVX2 and AVX-512,
(v)pmaddwd, (v)pmulhuw and vpmulhrsw in decompose and use_hint; a compiler may vectorise
C into others) and every SSE/AVX floating-point arithmetic, conversion and comparison
instruction (which the library does not mean to use, but a compiler may emit).

The C layer (src/mcdt.c) sets MXCSR around every public API operation (operation-level
placement: measured cheaper than kernel-level, docs/assurance.md); ci/check_mcdt proves from the
disassembly that no instruction this module calls affected can run outside that region.
"""

import re

from .cpuid import Bit

# MXCSR inside the protected region: exceptions masked (0x1F80), flags set (0x3F).
MXCSR_PROTECTED = 0x1FBF

# CPUs with this bit do not exhibit MCDT: no MXCSR change is needed there.
MCDT_NO = Bit(7, 2, "edx", 5, 0)

# Named by the source above.
_NAMED = {"pmuludq", "vpmuludq"}

# The superset: vector integer multiplies in every encoding, and SSE/AVX floating point.
_PATTERNS = [
    r"v?pmul(u?dq|ld|lq|lw|hw|huw|hrsw)",        # integer multiplies
    r"v?pmadd(wd|ubsw|52[lh]uq)",                  # multiply-add
    r"v?(add|sub|mul|div|sqrt|min|max|rcp(14|28)?|rsqrt(14|28)?|round|dp|hadd|hsub|addsub|"
    r"getexp|getmant|range|reduce|rndscale|scalef|fixupimm)(p|s)(s|d|h)",
    r"vf(n)?m(add|sub|addsub|subadd)(132|213|231)(p|s)(s|d|h)",
    r"v?cvt\w+",                                   # every conversion
    r"v?u?comis(s|d|h)", r"v?cmp\w*(p|s)(s|d|h)",  # floating-point comparisons
]
_AFFECTED = re.compile(r"^(?:" + "|".join(_PATTERNS) + r")$")


def affected(mnemonic: str) -> bool:
    """Whether an instruction (AT&T or Intel mnemonic, any case, size suffixes such as
    {vex} or trailing 'x'/'y' of cvt forms included) may show MCDT."""
    m = mnemonic.strip().lower()
    m = re.sub(r"^\{[a-z0-9]+\}", "", m)
    return m in _NAMED or bool(_AFFECTED.match(m))


def describe() -> str:
    """The declaration, for reports."""
    return ("named: " + ", ".join(sorted(_NAMED)) + "; superset: " + " | ".join(_PATTERNS))
