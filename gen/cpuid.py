# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Where each CPU feature named in gen.isa lives in CPUID, and which XCR0 state the OS
must enable for it. The dispatcher's gate (asm_out/isa_gates.h) is generated from this and
from each ISA's declared features, so the gate and the code cannot drift apart."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Bit:
    leaf: int
    subleaf: int
    reg: str      # eax, ebx, ecx, edx
    bit: int
    xcr0: int     # XCR0 bits the OS must have set for this feature's registers (0: none)


XCR0_SSE = 1 << 1          # XMM state
XCR0_AVX = 1 << 2          # upper halves of YMM
XCR0_OPMASK = 1 << 5       # k0-k7
XCR0_ZMM_HI256 = 1 << 6    # upper halves of ZMM0-15
XCR0_HI16_ZMM = 1 << 7     # ZMM16-31
XCR0_AVX512 = XCR0_SSE | XCR0_AVX | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM

FEATURES = {
    # SSE and SSE2 are part of x86-64: every x86-64 CPU and OS has them.
    "sse": Bit(1, 0, "edx", 25, 0),
    "sse2": Bit(1, 0, "edx", 26, 0),
    "avx": Bit(1, 0, "ecx", 28, XCR0_SSE | XCR0_AVX),
    "avx2": Bit(7, 0, "ebx", 5, XCR0_SSE | XCR0_AVX),
    "avx512f": Bit(7, 0, "ebx", 16, XCR0_AVX512),
    "avx512bw": Bit(7, 0, "ebx", 30, XCR0_AVX512),
    "avx512vl": Bit(7, 0, "ebx", 31, XCR0_AVX512),
}

OSXSAVE = Bit(1, 0, "ecx", 27, 0)   # XGETBV is usable: needed to read XCR0 at all


def gate(features) -> dict:
    """The test for one ISA: {(leaf, subleaf, reg): mask} of CPUID bits that must all be
    set, and the XCR0 mask the OS must have enabled."""
    words = {}
    xcr0 = 0
    for name in features:
        b = FEATURES[name]
        words[(b.leaf, b.subleaf, b.reg)] = words.get((b.leaf, b.subleaf, b.reg), 0) | (1 << b.bit)
        xcr0 |= b.xcr0
    if xcr0:
        key = (OSXSAVE.leaf, OSXSAVE.subleaf, OSXSAVE.reg)
        words[key] = words.get(key, 0) | (1 << OSXSAVE.bit)
    return {"words": sorted(words.items()), "xcr0": xcr0}
