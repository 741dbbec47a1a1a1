# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The one description of each SIMD ISA: register file, lane count and the CPU features
its generated code may use. The dispatcher's gate and ci/check_isa derive from FEATURES.

Besides the description, an Isa spells instructions for the templates. Templates write
every vector instruction once, in the three-operand AT&T order of AVX with the SSE
mnemonic (`isa.ins("paddd", src2, src1, dst)`: dst = src1 + src2) and the Isa writes it
for its encoding:

  sse2    `movdqa src1, dst` (when dst is not src1) then `paddd src2, dst`; a commutative
          operation whose dst is src2 is swapped instead; anything else that would
          overwrite a source is refused
  avx2    `vpaddd src2, src1, dst`
  avx512  the same with EVEX spellings where they differ (vpandd, vmovdqu32, ...), opmask
          decorations `{%k1}` / `{%k1}{z}` allowed on the destination

and refuses, loudly, any instruction that needs a CPU feature the ISA does not declare
(pmuldq, pminud, pabsd, pshufb ... on sse2; zmm word operations without avx512bw; popcnt,
AVX512DQ and VBMI anywhere). The declaration in FEATURES is therefore also what the
templates are checked against while they are rendered.
"""

import re
from dataclasses import dataclass, field

from .constants import N
from .flavour import ELF, Frame

POLY_BYTES = 4 * N       # one polynomial: N int32 coefficients

# The feature an instruction needs beyond SSE2, by SSE-style base mnemonic (VEX/EVEX forms
# are looked up without their leading "v"). Feature names not in any ISA's tuple (sse3,
# ssse3, sse4.1, ...) make the instruction unusable there: SSE2 code cannot name them,
# and AVX code reaches them only through the VEX form, which its own "avx"/"avx2" covers.
_NEEDS = {
    # SSE3 / SSSE3 / SSE4.1: encodable by AVX(2) in VEX form, never by plain SSE2 code
    "movshdup": "sse3", "movsldup": "sse3", "lddqu": "sse3", "haddps": "sse3",
    "pabsd": "ssse3", "pabsw": "ssse3", "pshufb": "ssse3", "pmulhrsw": "ssse3",
    "psignd": "ssse3", "palignr": "ssse3", "phaddd": "ssse3", "pmaddubsw": "ssse3",
    "pmuldq": "sse4.1", "pmulld": "sse4.1", "pminsd": "sse4.1", "pmaxsd": "sse4.1",
    "pminud": "sse4.1", "pmaxud": "sse4.1", "ptest": "sse4.1", "pblendw": "sse4.1",
    "pblendvb": "sse4.1", "pcmpeqq": "sse4.1", "pextrd": "sse4.1", "pinsrd": "sse4.1",
    "packusdw": "sse4.1", "pmovzxdq": "sse4.1", "pmovsxdq": "sse4.1",
    "pcmpgtq": "sse4.2", "popcnt": "popcnt",
    # AVX2-only (no SSE form)
    "vpbroadcastd": "avx2", "vpbroadcastq": "avx2", "vpblendd": "avx2",
    "vperm2i128": "avx2", "vinserti128": "avx2", "vextracti128": "avx2",
    "vpermd": "avx2", "vpermq": "avx2", "vpsllvd": "avx2", "vpsrlvd": "avx2",
    "vpsravd": "avx2", "vpmaskmovd": "avx2",
    # AVX-512 F (opmask, EVEX-only instructions)
    "vpternlogd": "avx512f", "vpternlogq": "avx512f", "vpermt2d": "avx512f",
    "vpermi2d": "avx512f", "vpermt2q": "avx512f", "vpermi2q": "avx512f",
    "vptestmd": "avx512f", "vptestnmd": "avx512f", "vpcmpd": "avx512f",
    "vpcmpud": "avx512f", "vpcmpnltud": "avx512f", "vpcmpltud": "avx512f",
    "vpcmpnled": "avx512f", "vpcmpltd": "avx512f", "vpcmpled": "avx512f",
    "vextracti64x4": "avx512f", "vextracti32x4": "avx512f", "vinserti64x4": "avx512f",
    "vinserti32x4": "avx512f", "vshufi32x4": "avx512f", "vshufi64x2": "avx512f",
    "vpblendmd": "avx512f", "vpcompressd": "avx512f", "vpexpandd": "avx512f",
    "vmovdqa32": "avx512f", "vmovdqu32": "avx512f", "vmovdqa64": "avx512f",
    "vmovdqu64": "avx512f", "vpandd": "avx512f", "vpandnd": "avx512f",
    "vpord": "avx512f", "vpxord": "avx512f", "vpandq": "avx512f", "vporq": "avx512f",
    "vpxorq": "avx512f", "vpandnq": "avx512f", "vprold": "avx512f", "vprord": "avx512f",
    "kmovw": "avx512f", "korw": "avx512f", "kandw": "avx512f", "kandnw": "avx512f",
    "kxorw": "avx512f", "knotw": "avx512f", "kortestw": "avx512f", "kshiftrw": "avx512f",
    "kshiftlw": "avx512f", "kunpckbw": "avx512f",
    # AVX-512 BW / DQ / VBMI
    "kmovd": "avx512bw", "kmovq": "avx512bw", "korq": "avx512bw", "kortestd": "avx512bw",
    "vmovdqu8": "avx512bw", "vmovdqu16": "avx512bw", "vpermw": "avx512bw",
    "vpmovd2m": "avx512dq", "vpmovm2d": "avx512dq", "vpmullq": "avx512dq",
    "kmovb": "avx512dq", "korb": "avx512dq",
    "vpermb": "avx512vbmi", "vpermt2b": "avx512vbmi",
}

# Byte and word element operations: on zmm (and with opmasks) they are AVX512BW.
_WORD_OPS = {
    "pmulhuw", "pmulhw", "pmullw", "pmulhrsw", "pmaddwd", "pmaddubsw", "paddw", "psubw",
    "paddb", "psubb", "pshufb", "packssdw", "packusdw", "packsswb", "packuswb",
    "pcmpeqw", "pcmpgtw", "pcmpeqb", "pcmpgtb", "psllw", "psrlw", "psraw", "pminsw",
    "pmaxsw", "pminuw", "pmaxuw", "pabsw", "palignr", "punpcklbw", "punpckhbw",
    "punpcklwd", "punpckhwd", "pshuflw", "pshufhw", "pavgw", "pmovmskb", "psadbw",
}

# Spellings that the EVEX (AVX-512) form changes: logic and moves take an element size.
_EVEX_SPELLING = {
    "pand": "vpandd", "pandn": "vpandnd", "por": "vpord", "pxor": "vpxord",
    "movdqa": "vmovdqa32", "movdqu": "vmovdqu32",
    "vextracti128": "vextracti32x4", "vinserti128": "vinserti32x4",
}

# Instructions whose SSE form already has every operand (no destructive source): they
# are spelled, never lowered.
_NOT_DESTRUCTIVE = {
    "movdqa", "movdqu", "movd", "movq", "movaps", "movups", "pshufd", "pshuflw",
    "pshufhw", "pmovmskb", "movmskps", "pextrw", "movshdup", "movsldup", "pabsd",
    "vpbroadcastd", "vpbroadcastq", "vextracti128", "vextracti32x4", "vextracti64x4",
    "kmovw", "kmovd", "knotw", "kortestw", "ptest", "vptest",
}

# Operations where src2 and src1 may trade places (so the SSE form can write over src2).
_COMMUTATIVE = {
    "paddd", "paddq", "paddw", "pmuludq", "pmuldq", "pmulld", "pmullw", "pmulhuw",
    "pmulhw", "pmaddwd", "pand", "por", "pxor", "pcmpeqd", "pcmpeqw", "pminud", "pmaxud",
    "pminsd", "pmaxsd",
}

_REG = re.compile(r"%([xyz])mm(\d+)$")


@dataclass(frozen=True)
class Isa:
    name: str            # asm_out/<name>/, symbol suffix
    reg: str             # vector register prefix: xmm, ymm, zmm
    bits: int            # vector width
    nregs: int           # architectural vector registers
    features: tuple      # CPU features the generated code may use (CPUID names)
    # the object format and calling convention written for (gen/flavour.py)
    fmt: object = field(default=ELF, compare=False, repr=False)
    arch = "x86_64"      # the instruction set family (gen.outputs renders per family)

    # -- general-purpose registers and memory operands ----------------------------------

    # System V AMD64: the integer arguments in order, a scratch register (loop counters).
    ARGS = ("%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9")
    COMMENT = "#"

    ARGS32 = ("%edi", "%esi", "%edx", "%ecx", "%r8d", "%r9d")
    RET32 = "%eax"      # an int or unsigned result

    def arg(self, i: int) -> str:
        """The register of pointer/integer argument i (64-bit view)."""
        return self.ARGS[i]

    def arg32(self, i: int) -> str:
        """The 32-bit view of argument i's register (an int or unsigned argument)."""
        return self.ARGS32[i]

    def mem(self, base: str, off: int = 0) -> str:
        """The memory operand off bytes from the address in register base."""
        return f"{off}({base})"

    @property
    def lanes(self) -> int:
        """32-bit lanes per register."""
        return self.bits // 32

    @property
    def vbytes(self) -> int:
        """Bytes per vector register."""
        return self.bits // 8

    @property
    def even_lanes(self) -> int:
        """Opmask of the even 32-bit lanes (0x5555 for zmm)."""
        return sum(1 << i for i in range(0, self.lanes, 2))

    @property
    def vex(self) -> bool:
        """Three-operand VEX (or EVEX) encodings: AVX and later."""
        return "avx" in self.features

    @property
    def opmask(self) -> bool:
        """AVX-512: opmask registers k1-k7, masked operations, vpternlogd, vpermt2d."""
        return "avx512f" in self.features

    @property
    def signed_mul(self) -> bool:
        """(v)pmuldq, the signed 32x32->64 product, exists; else only pmuludq (SSE2)."""
        return self.can("pmuldq")

    @property
    def const_regs(self) -> bool:
        """Templates keep their constants in registers (AVX2, AVX-512, NEON), not as
        memory operands (SSE2: its 16 registers go to data)."""
        return self.vex

    @property
    def const_bytes(self) -> int:
        """Bytes of one constant in .rodata: SSE2 stores whole vectors (loaded with an
        aligned movdqa, and usable as an aligned memory operand); AVX2 and AVX-512 store
        one dword and broadcast it."""
        return 4 if self.can("vpbroadcastd") else self.vbytes

    # -- registers -------------------------------------------------------------------

    def v(self, i: int) -> str:
        """Vector register i in this ISA's width: %xmm3, %ymm3, %zmm3."""
        if not 0 <= i < self.nregs:
            raise ValueError(f"{self.name}: no vector register {i} (has {self.nregs})")
        return f"%{self.reg}{i}"

    def x(self, i: int) -> str:
        """The xmm view of vector register i (movd, final horizontal steps)."""
        self.v(i)
        return f"%xmm{i}"

    def y(self, i: int) -> str:
        """The ymm view of vector register i."""
        self.v(i)
        if self.bits < 256:
            raise ValueError(f"{self.name}: no ymm registers")
        return f"%ymm{i}"

    def regs(self, first: int, n: int) -> list:
        """n consecutive vector registers from first."""
        return [self.v(first + i) for i in range(n)]

    @property
    def poly_bytes(self) -> int:
        """Bytes of one polynomial (N int32)."""
        return POLY_BYTES

    def plan_mem(self, op: str) -> str:
        """A memory operand of an NTT plan (gen/kernels/ntt_plan.py writes them in AT&T
        syntax: off(%rax), .Lntt_data+off(%rip)) as this ISA spells it."""
        return op

    def frame(self, push=(), stack: int = 0, fp: bool = False, align: int = 0) -> str:
        """For m.begin: the frame a body needs (gen.flavour.Frame), as its marker text."""
        return Frame(tuple(push), stack, fp, align).marker()

    def fail(self, message: str):
        """For templates: stop the generator with a message (Jinja has no raise)."""
        raise ValueError(f"{self.name}: {message}")

    # -- instruction spelling --------------------------------------------------------

    def can(self, mnemonic: str) -> bool:
        """Whether this ISA may use the instruction (SSE-style or VEX/EVEX mnemonic)."""
        return self._missing(mnemonic) is None

    def _missing(self, mnemonic: str):
        """The declared feature this ISA lacks for the instruction, or None."""
        if mnemonic in _NEEDS:
            need = _NEEDS[mnemonic]
        elif mnemonic.startswith("v") and mnemonic[1:] in _NEEDS:
            need = _NEEDS[mnemonic[1:]]
        else:
            need = None
        if need is not None and need.startswith(("sse", "ssse")) and self.vex:
            need = None                          # the VEX form: covered by avx / avx2
        if need is None and mnemonic.startswith("v") and not self.vex:
            need = "avx"
        if need is not None and need not in self.features:
            return need
        stripped = mnemonic[1:] if mnemonic.startswith("v") else mnemonic
        if self.bits == 512 and stripped in _WORD_OPS and "avx512bw" not in self.features:
            return "avx512bw"
        return None

    def spell(self, mnemonic: str) -> str:
        """The mnemonic as this ISA encodes it; refuses what it may not use."""
        need = self._missing(mnemonic)
        if need is not None:
            raise ValueError(f"{self.name}: {mnemonic} needs {need}, which "
                             f"{self.name} does not declare")
        if mnemonic.startswith(("v", "k")) or not self.vex:
            spelled = mnemonic
        elif self.opmask and mnemonic in _EVEX_SPELLING:
            spelled = _EVEX_SPELLING[mnemonic]
        else:
            spelled = "v" + mnemonic
        if self.opmask and spelled in _EVEX_SPELLING:
            spelled = _EVEX_SPELLING[spelled]
        need = self._missing(spelled)
        if need is not None:
            raise ValueError(f"{self.name}: {spelled} needs {need}")
        return spelled

    def _check_operand(self, op: str) -> None:
        core = op.split("{", 1)[0]
        if "{" in op and not self.opmask:
            raise ValueError(f"{self.name}: opmask decoration in {op!r}")
        m = _REG.match(core)
        if m:
            width = {"x": 128, "y": 256, "z": 512}[m.group(1)]
            if width > self.bits:
                raise ValueError(f"{self.name}: {core} is wider than the ISA")
            if int(m.group(2)) >= self.nregs:
                raise ValueError(f"{self.name}: no register {core}")

    def ins(self, mnemonic: str, *ops, comment: str = "") -> str:
        """One vector instruction, operands in AVX AT&T order (sources first, destination
        last, an immediate first of all), as this ISA writes it. Returns one or two lines,
        each indented by four spaces, no trailing newline."""
        for op in ops:
            self._check_operand(op)
        spelled = self.spell(mnemonic)
        tail = f"  # {comment}" if comment else ""
        if self.vex or mnemonic in _NOT_DESTRUCTIVE or len(ops) < 2:
            return f"    {spelled} {', '.join(ops)}{tail}"
        imm = [o for o in ops if o.startswith("$")]
        vecs = [o for o in ops if not o.startswith("$")]
        if len(vecs) == 2:                       # shift by immediate: src1, dst
            src2, (src1, dst) = None, vecs
        elif len(vecs) == 3:
            src2, src1, dst = vecs
        else:
            raise ValueError(f"{self.name}: cannot lower {mnemonic} {ops}")
        if any("(" in o and "(%rip)" not in o for o in (src1, src2 or "")):
            raise ValueError(f"{self.name}: {mnemonic} {ops}: SSE memory operands must "
                             "be aligned .rodata (load data with movdqu first)")
        lines = []
        if dst == src1:
            pass
        elif dst == src2:
            if mnemonic not in _COMMUTATIVE:
                raise ValueError(f"{self.name}: {mnemonic} {ops} overwrites a source")
            src2, src1 = src1, src2
        else:
            lines.append(f"    movdqa {src1}, {dst}")
        lines.append(f"    {spelled} {', '.join(imm + ([src2] if src2 else []) + [dst])}{tail}")
        return "\n".join(lines)

    def mov(self, src: str, dst: str, comment: str = "") -> str:
        """Register copy (or aligned constant load)."""
        return self.ins("movdqa", src, dst, comment=comment)

    def load(self, mem: str, dst: str, comment: str = "") -> str:
        """Unaligned vector load."""
        return self.ins("movdqu", mem, dst, comment=comment)

    def store(self, src: str, mem: str, comment: str = "") -> str:
        """Unaligned vector store."""
        return self.ins("movdqu", src, mem, comment=comment)

    def load_rodata(self, label: str, dst: str, comment: str = "") -> str:
        """A whole vector of .rodata (a table) into dst, position-independent."""
        return self.load(f"{label}(%rip)", dst, comment=comment)

    def const(self, label: str, dst: str, comment: str = "") -> str:
        """A .rodata constant (see const_bytes) into every lane of dst."""
        if self.const_bytes == 4:
            return self.ins("vpbroadcastd", f"{label}(%rip)", dst, comment=comment)
        return self.ins("movdqa", f"{label}(%rip)", dst, comment=comment)

    def place_consts(self, labels, first: int, registers=None) -> dict:
        """Where a template keeps its .rodata constants: {label: operand}. In registers
        first, first+1, ... (the default on AVX2 and AVX-512, whose constants are
        broadcast dwords), or as aligned memory operands `label(%rip)` (the default on
        SSE2, whose 16 registers go to data; the constants are whole aligned vectors).
        m.load_consts loads the ones that are registers."""
        if registers is None:
            registers = self.vex
        if registers:
            return {label: self.v(first + i) for i, label in enumerate(labels)}
        if self.const_bytes != self.vbytes:
            raise ValueError(f"{self.name}: broadcast constants cannot be memory operands")
        return {label: f"{label}(%rip)" for label in labels}

    def unroll(self, per_vector: int, reserved: int, most: int = 8) -> int:
        """Vectors per loop iteration: the largest power of two <= most whose registers
        (per_vector each, plus reserved ones for constants) fit the register file and
        that divides the N coefficients of a polynomial."""
        u = most
        while u > 1 and (u * per_vector + reserved > self.nregs or
                         N % (u * self.lanes)):
            u //= 2
        if u * per_vector + reserved > self.nregs:
            raise ValueError(f"{self.name}: {per_vector}+{reserved} registers do not fit")
        return u



# AArch64 Advanced SIMD spellings of the SSE-style mnemonics the templates use for
# lane-wise arithmetic: (mnemonic, arrangement, form). Forms: "bin" src1 OP src2,
# "rev" src2 OP src1 (pandn: dst = src2 & ~src1 is bic dst, src2, src1), "imm" a shift by
# an immediate, "un" one source.
_NEON_SPELLING = {
    "paddd": ("add", "4s", "bin"), "psubd": ("sub", "4s", "bin"),
    "paddq": ("add", "2d", "bin"), "psubq": ("sub", "2d", "bin"),
    "pand": ("and", "16b", "bin"), "por": ("orr", "16b", "bin"),
    "pxor": ("eor", "16b", "bin"), "pandn": ("bic", "16b", "rev"),
    "pcmpgtd": ("cmgt", "4s", "bin"), "pcmpeqd": ("cmeq", "4s", "bin"),
    "pminsd": ("smin", "4s", "bin"), "pmaxsd": ("smax", "4s", "bin"),
    "pminud": ("umin", "4s", "bin"), "pmaxud": ("umax", "4s", "bin"),
    "pmulld": ("mul", "4s", "bin"),
    "psrad": ("sshr", "4s", "imm"), "psrld": ("ushr", "4s", "imm"),
    "pslld": ("shl", "4s", "imm"),
    "pabsd": ("abs", "4s", "un"), "movdqa": ("mov", "16b", "un"),
}

_NEON_REG = re.compile(r"v(\d+)(\.[0-9a-z]+|\.[bhsd]\[\d+\])?$")


class NeonIsa(Isa):
    """AArch64 Advanced SIMD (Armv8.0-A, 128-bit, four 32-bit lanes). The templates'
    lane-wise arithmetic (isa.ins with SSE mnemonics, AVX operand order) is spelled in
    A64 (`add v2.4s, v0.4s, v1.4s`); what A64 does differently (products, shuffles,
    reductions, compaction) is written with isa.a64 in the template's own block.

    Registers: the templates' vector register i is v0-v7 for i < 8 and v16-v31 after,
    so that generated code never touches v8-v15, whose low halves (d8-d15) the AAPCS64
    makes callee-saved: 24 registers, no spills. General registers: the arguments
    x0-x7, scratch x9-x17 (x16 addresses constants); x18 (the platform register) and
    x19-x28 are never used. The exception is Keccak (templates/keccak_a64.S.j2), whose
    bodies need every register and save what the AAPCS64 asks them to: d8-d15, x19-x29
    (x18 and x30 stay untouched there too)."""

    arch = "aarch64"
    ARGS = ("x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7")
    ARGS32 = ("w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7")
    RET32 = "w0"
    COMMENT = "//"
    # Kernels with several bodies, between which the C layer chooses at run time
    # (src/keccak_neon.c): the features each body may use, by symbol suffix
    # (mldsa_<kernel>_neon<suffix>). The template enables what the ISA lacks around the
    # body (.arch) and ci/check_isa checks each body against its own features.
    BODIES = {"_base": ("asimd",), "_sha3": ("asimd", "sha3")}
    # The assembler's architecture for a feature: FEAT_SHA3 is an Armv8.2-A extension, and
    # GNU as refuses EOR3 & co. under armv8-a+sha3. "asimd" is the ISA's own baseline.
    A64_ARCH = {"asimd": "armv8-a", "sha3": "armv8.2-a+sha3"}

    def mem(self, base: str, off: int = 0) -> str:
        return f"[{base}, #{off}]" if off else f"[{base}]"

    def mem_post(self, base: str, inc: int) -> str:
        """The address in base, which then advances by inc bytes (post-indexed: any
        -256 <= inc < 256, where `ldr q, [base, #off]` needs off a multiple of 16)."""
        if not -256 <= inc < 256:
            raise ValueError(f"{self.name}: post-index {inc} out of range")
        return f"[{base}], #{inc}" if inc else f"[{base}]"

    def adr(self, reg: str, label: str) -> str:
        """The address of a .rodata label into reg (adrp + add: position-independent)."""
        return (f"    adrp {reg}, {self.fmt.page(label)}\n"
                f"    add {reg}, {reg}, {self.fmt.pageoff(label)}")

    def load_rodata(self, label: str, dst: str, comment: str = "") -> str:
        """16 bytes of .rodata (a table) into dst (x16 holds its address)."""
        tail = f"  // {comment}" if comment else ""
        return f"{self.adr('x16', label)}\n    ldr q{self._vreg(dst)[1:]}, [x16]{tail}"

    # The registers of an NTT plan's AT&T operands (gen/kernels/ntt_plan.py): the array
    # (the first argument), the group pointer and the group's twiddles; the table's
    # address (x10, for its RIP-relative operands) and the loop counter (w12).
    PLAN_REGS = {"%rdi": "x0", "%rax": "x9", "%rsi": "x11", "%rip": "x10", "%ecx": "w12"}

    def plan_reg(self, reg: str) -> str:
        return self.PLAN_REGS[reg]

    def plan_off(self, op: str) -> int:
        """The byte offset of a plan operand from its register (for a table operand,
        label+off(%rip), from the table's address)."""
        m = re.match(r"^(?:[.\w]+\+)?(-?\d+)\((%r[a-z]+)\)$", op)
        if not m:
            raise ValueError(f"{self.name}: plan operand {op!r}")
        return int(m.group(1))

    def plan_mem(self, op: str) -> str:
        reg = self.plan_reg(re.search(r"\((%r[a-z]+)\)$", op).group(1))
        return self.mem(reg, self.plan_off(op))

    @property
    def vex(self) -> bool:
        return False

    @property
    def const_regs(self) -> bool:
        return True

    @property
    def opmask(self) -> bool:
        return False

    @property
    def signed_mul(self) -> bool:
        return False

    @property
    def const_bytes(self) -> int:
        return 4

    def v(self, i: int) -> str:
        if not 0 <= i < self.nregs:
            raise ValueError(f"{self.name}: no vector register {i} (has {self.nregs})")
        return f"v{i if i < 8 else i + 8}"

    def x(self, i: int) -> str:
        raise ValueError(f"{self.name}: no xmm registers")

    def y(self, i: int) -> str:
        raise ValueError(f"{self.name}: no ymm registers")

    def can(self, mnemonic: str) -> bool:
        return mnemonic in _NEON_SPELLING

    def spell(self, mnemonic: str) -> str:
        if mnemonic not in _NEON_SPELLING:
            raise ValueError(f"{self.name}: no A64 spelling for {mnemonic} (write the "
                             "A64 instructions with isa.a64 in the template's neon block)")
        return _NEON_SPELLING[mnemonic][0]

    def _vreg(self, op: str) -> str:
        m = _NEON_REG.match(op)
        if not m or m.group(2):
            raise ValueError(f"{self.name}: {op!r} is not a plain vector register")
        n = int(m.group(1))
        if 8 <= n <= 15:
            raise ValueError(f"{self.name}: {op} is callee-saved (d8-d15)")
        return op

    def ins(self, mnemonic: str, *ops, comment: str = "") -> str:
        name, arr, form = _NEON_SPELLING.get(mnemonic, (None, None, None))
        if name is None:
            self.spell(mnemonic)
        tail = f"  // {comment}" if comment else ""
        if form == "imm":
            imm, src, dst = ops
            n = int(imm.lstrip("$"))
            srcs = [f"{self._vreg(src)}.{arr}"]
            last = f", #{n}"
        else:
            regs = [self._vreg(o) for o in ops]
            dst = regs[-1]
            srcs = [f"{r}.{arr}" for r in ({"bin": regs[-2::-1], "rev": regs[:-1],
                                            "un": regs[:-1]}[form])]
            last = ""
        return f"    {name} {self._vreg(dst)}.{arr}, {', '.join(srcs)}{last}{tail}"

    def a64(self, mnemonic: str, dst: str, *srcs, arr: str = "4s", comment: str = "") -> str:
        """One A64 vector instruction in its own operand order (destination first): vector
        registers get the arrangement arr (an operand that already has one, v3.s[1] or
        v3.2d, keeps it), ints become immediates (#n)."""
        def operand(o):
            if isinstance(o, int):
                return f"#{o}"
            m = _NEON_REG.match(o)
            if m:
                self._vreg(f"v{m.group(1)}")
                return o if m.group(2) else f"{o}.{arr}"
            return o
        tail = f"  // {comment}" if comment else ""
        ops = ", ".join(operand(o) for o in (dst,) + srcs)
        return f"    {mnemonic} {ops}{tail}"

    def load(self, mem: str, dst: str, comment: str = "") -> str:
        tail = f"  // {comment}" if comment else ""
        return f"    ldr q{self._vreg(dst)[1:]}, {mem}{tail}"

    def load_pair(self, mem1: str, mem2: str, dst1: str, dst2: str,
                  comment: str = "") -> str:
        """Two vector loads; one ldp where mem2 is the 16 bytes after mem1 and the offset
        fits its 7-bit scaled immediate."""
        tail = f"  // {comment}" if comment else ""
        m1 = re.match(r"^\[(x\d+)(?:, #(\d+))?\]$", mem1)
        m2 = re.match(r"^\[(x\d+)(?:, #(\d+))?\]$", mem2)
        if m1 and m2 and m1.group(1) == m2.group(1):
            o1, o2 = int(m1.group(2) or 0), int(m2.group(2) or 0)
            if o2 == o1 + 16 and o1 % 16 == 0 and o1 <= 1008:
                r1, r2 = self._vreg(dst1)[1:], self._vreg(dst2)[1:]
                return f"    ldp q{r1}, q{r2}, {mem1}{tail}"
        return self.load(mem1, dst1, comment) + "\n" + self.load(mem2, dst2)

    def store(self, src: str, mem: str, comment: str = "") -> str:
        tail = f"  // {comment}" if comment else ""
        return f"    str q{self._vreg(src)[1:]}, {mem}{tail}"

    def mov(self, src: str, dst: str, comment: str = "") -> str:
        return self.ins("movdqa", src, dst, comment=comment)

    def const(self, label: str, dst: str, comment: str = "") -> str:
        """A .rodata dword into every lane (x16 holds its address: position-independent)."""
        tail = f"  // {comment}" if comment else ""
        return f"{self.adr('x16', label)}\n    ld1r {{{self._vreg(dst)}.4s}}, [x16]{tail}"

    def place_consts(self, labels, first: int, registers=None) -> dict:
        return {label: self.v(first + i) for i, label in enumerate(labels)}

ISAS = {
    "sse2": Isa("sse2", "xmm", 128, 16, ("sse", "sse2")),
    "avx2": Isa("avx2", "ymm", 256, 16, ("sse", "sse2", "avx", "avx2")),
    "avx512": Isa("avx512", "zmm", 512, 32,
                  ("sse", "sse2", "avx", "avx2", "avx512f", "avx512bw", "avx512vl")),
    "neon": NeonIsa("neon", "v", 128, 24, ("asimd",)),
}
