# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Where each AArch64 feature named in gen.isa lives in the Linux auxiliary vector
(getauxval(AT_HWCAP), bits of arch/arm64/include/uapi/asm/hwcap.h). The dispatcher's gate
(asm_out/isa_gates.h) is generated from this and from the features each AArch64 ISA
declares. Linux sets a bit only when the CPU has the feature and the kernel supports its
state, so no second check (like x86's XCR0) is needed."""

HWCAP = {
    "asimd": 1 << 1,    # HWCAP_ASIMD: Advanced SIMD (mandatory in Armv8-A Linux)
    "sha3": 1 << 17,    # HWCAP_SHA3: EOR3, RAX1, XAR, BCAX (Armv8.2-A FEAT_SHA3)
}


def gate(features) -> int:
    """The AT_HWCAP bits that must all be set for an ISA with these features."""
    mask = 0
    for name in features:
        mask |= HWCAP[name]
    return mask
