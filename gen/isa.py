"""The one description of each SIMD ISA: register file, lane count and the CPU features
its generated code may use. The dispatcher's gate and ci/check_isa derive from FEATURES."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Isa:
    name: str            # asm_out/<name>/, symbol suffix
    reg: str             # vector register prefix: xmm, ymm, zmm
    bits: int            # vector width
    nregs: int           # architectural vector registers
    features: tuple      # CPU features the generated code may use (CPUID names)

    @property
    def lanes(self) -> int:
        """32-bit lanes per register."""
        return self.bits // 32


ISAS = {
    "sse2": Isa("sse2", "xmm", 128, 16, ("sse", "sse2")),
    "avx2": Isa("avx2", "ymm", 256, 16, ("sse", "sse2", "avx", "avx2")),
    "avx512": Isa("avx512", "zmm", 512, 32,
                  ("sse", "sse2", "avx", "avx2", "avx512f", "avx512bw", "avx512vl")),
}
