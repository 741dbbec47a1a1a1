# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Object formats and calling conventions: what a kernel's entry, exit, sections and
symbols look like on each platform. The bodies never know the flavour.

  elf    ELF, System V AMD64 / AAPCS64 (Linux, the BSDs): asm_out/<isa>/
  win64  PE/COFF, the Microsoft x64 ABI (Windows): asm_out/win64/<isa>/
  macos  Mach-O, System V AMD64 / Apple's AArch64 ABI (macOS): asm_out/macos/<isa>/

A template writes `m.begin(isa, name, push=..., stack=..., fp=..., align=...)` (the Frame
below) and `m.end(isa, name)` around a body. They
leave two marker lines; Flavour.finish() replaces them with the flavour's entry and exit
once the whole file is rendered, when the body is known: the Microsoft x64 entry saves
only the callee-saved registers (rdi, rsi, xmm6-xmm15) that the body writes.

  ELF and Mach-O  the frame's pushes and allocation, with .cfi_* unwind directives; on
                  AArch64 the frame is written by the template (m.cfi annotates it).
  win64           the same frame preceded by the saves the Microsoft ABI asks of a System
                  V body, all described by .seh_* unwind codes; then the moves that bring
                  the arguments from rcx, rdx, r8, r9 to rdi, rsi, rdx, rcx. The body runs
                  unchanged, as on Linux: `ci/check_flavours` shows that every flavour's
                  object holds the ELF object's body bytes, between `<comment> body` lines.

Every flavour's entry keeps the landing pad (endbr64, bti c) and every body's own bytes.
"""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The C declarations of the kernels: the number of integer arguments of each, for the
# argument moves of the Microsoft x64 entry (no second list to keep in step).
_DECLARATIONS = ("src/kernels.h", "src/fips202.h", "src/fips202x.h")
_DECL = re.compile(r"\bmldsa_(\w+?)_##isa\s*\(([^)]*)\)\s*;")


def kernel_arguments() -> dict:
    """{kernel name: number of arguments} from the declarations mldsa_<kernel>_##isa."""
    out = {}
    for rel in _DECLARATIONS:
        text = re.sub(r"\\\n", " ", (ROOT / rel).read_text())
        for name, params in _DECL.findall(text):
            params = params.strip()
            out[name] = 0 if params in ("", "void") else params.count(",") + 1
    return out


@dataclass(frozen=True)
class Frame:
    """What an x86-64 body needs around it, written by the flavour with unwind info:
    push  general registers saved at entry, in push order (popped in reverse);
    stack bytes below them that the body addresses from %rsp;
    fp    %rbp = %rsp after the pushes (and %rbp among them); the body's area is then
          allocated after it and %rsp rounded down to `align` (a multiple of 16)."""
    push: tuple = ()
    stack: int = 0
    fp: bool = False
    align: int = 0

    def marker(self) -> str:
        return (f"push={','.join(self.push)} stack={self.stack} fp={int(self.fp)} "
                f"align={self.align}")

    @staticmethod
    def parse(fields) -> "Frame":
        kv = dict(f.split("=", 1) for f in fields)
        push = tuple(r for r in kv.get("push", "").split(",") if r)
        return Frame(push, int(kv.get("stack", 0)), kv.get("fp") == "1", int(kv.get("align", 0)))


# the lines m.begin and m.end leave (templates/macros.S.j2)
_MARK = re.compile(r"^@@(begin|end) (\S+)(.*)$")


class Flavour:
    """ELF with the System V AMD64 ABI and the AAPCS64: the flavour the prover reads."""
    name = "elf"
    subdir = ""                 # asm_out/<subdir>/<isa>/
    arches = ("x86_64", "aarch64")
    cfi = True

    # -- spellings used by the templates (through isa.fmt) ----------------------------

    def symbol(self, name: str) -> str:
        return name

    def rodata(self) -> str:
        return "    .section .rodata"

    @staticmethod
    def _plus(off: int) -> str:
        return f"+{off}" if off else ""

    def page(self, label: str, off: int = 0) -> str:
        """The adrp operand of the 4 KiB page of label + off."""
        return f"{label}{self._plus(off)}"

    def pageoff(self, label: str, off: int = 0) -> str:
        """The offset of label + off in its page (add or ldr immediate)."""
        return f":lo12:{label}{self._plus(off)}"

    def notes(self, arch: str) -> list:
        """What ends every file: no executable stack, and the branch-protection property:
        x86, IBT | SHSTK (every entry starts with endbr64, no kernel touches the return
        address); AArch64, BTI | PAC (every entry starts with bti c, every saved x30 is
        signed). The linker ANDs the property over all objects: one object without it
        unmarks the whole library."""
        c = "//" if arch == "aarch64" else "#"
        kind, value, names = (("0xc0000000", 3, "GNU_PROPERTY_AARCH64_FEATURE_1_BTI | _PAC")
                              if arch == "aarch64" else
                              ("0xc0000002", 3,
                               "GNU_PROPERTY_X86_FEATURE_1_IBT | GNU_PROPERTY_X86_FEATURE_1_SHSTK"))
        feature = ("GNU_PROPERTY_AARCH64_FEATURE_1_AND" if arch == "aarch64"
                   else "GNU_PROPERTY_X86_FEATURE_1_AND")
        progbits = "%progbits" if arch == "aarch64" else "@progbits"
        return ['    .section .note.gnu.property,"a"',
                "    .p2align 3",
                f'    .long 4                 {c} name size: "GNU\\0"',
                f"    .long 16                {c} descriptor size: one property, padded to 8 bytes",
                f"    .long 5                 {c} NT_GNU_PROPERTY_TYPE_0",
                '    .asciz "GNU"',
                f"    .long {kind}        {c} {feature}",
                f"    .long 4                 {c} property data size",
                f"    .long {value}                 {c} {names}",
                "    .p2align 3",
                f'    .section .note.GNU-stack,"",{progbits}']

    # -- entry and exit ----------------------------------------------------------------

    def declare(self, sym: str, arch: str) -> list:
        kind = "%function" if arch == "aarch64" else "@function"
        return ["    .text", f"    .globl {sym}", f"    .hidden {sym}", f"    .type {sym}, {kind}",
                "    .p2align 5", f"{sym}:"]

    def close(self, sym: str) -> list:
        return [f"    .size {sym}, .-{sym}"]

    def prepare(self, isa, frame: Frame, body: list, nargs: int):
        """What the entry and the exit of one function share (the Microsoft ABI's saves)."""
        return None

    def entry(self, isa, sym: str, frame: Frame, saves) -> list:
        out = self.declare(sym, isa.arch)
        if self.cfi:
            out.append("    .cfi_startproc")
        if isa.arch == "aarch64":
            return out + ["    hint #34  // bti c: a landing pad for indirect calls where BTI is on, a nop elsewhere"]
        out.append("    endbr64")
        return out + self.frame_entry(frame, cfa=8)

    def exit(self, isa, sym: str, frame: Frame, vzeroupper: bool, saves) -> list:
        if isa.arch == "aarch64":
            out = ["    ret"]
        else:
            out = self.frame_exit(frame) + (["    vzeroupper"] if vzeroupper else []) + ["    ret"]
        if self.cfi:
            out.append("    .cfi_endproc")
        return out + self.close(sym)

    def frame_entry(self, frame: Frame, cfa: int) -> list:
        """Pushes, frame pointer and allocation with their .cfi_* directives; cfa is the
        distance from %rsp to the canonical frame address before them."""
        out = []
        for r in frame.push:
            cfa += 8
            out += [f"    push {r}", f"    .cfi_adjust_cfa_offset 8", f"    .cfi_offset {r}, -{cfa}"]
        if frame.fp:
            out += ["    mov %rsp, %rbp", "    .cfi_def_cfa_register %rbp"]
        if frame.stack:
            out.append(f"    sub ${frame.stack}, %rsp")
            if not frame.fp:
                out.append(f"    .cfi_adjust_cfa_offset {frame.stack}")
        if frame.align:
            out.append(f"    and $-{frame.align}, %rsp")
        return out

    def frame_exit(self, frame: Frame) -> list:
        out = []
        if frame.fp:
            out += ["    mov %rbp, %rsp", "    .cfi_def_cfa_register %rsp"]
        elif frame.stack:
            out += [f"    add ${frame.stack}, %rsp", f"    .cfi_adjust_cfa_offset -{frame.stack}"]
        for r in reversed(frame.push):
            out += [f"    pop {r}", "    .cfi_adjust_cfa_offset -8", f"    .cfi_restore {r}"]
        return out

    # -- the whole file -------------------------------------------------------------

    def rewrite(self, text: str) -> str:
        """Spellings the whole file shares (Mach-O's private labels)."""
        return text

    def finish(self, isa, text: str, nargs: dict) -> str:
        """The rendered file with each begin/end marker pair replaced by this flavour's
        entry and exit, and `<comment> body` / `<comment> end of body` around each body."""
        lines = text.split("\n")
        out, i = [], 0
        c = isa.COMMENT
        while i < len(lines):
            m = _MARK.match(lines[i])
            if not m:
                out.append(lines[i])
                i += 1
                continue
            if m.group(1) != "begin":
                raise ValueError(f"{isa.name}: {m.group(2)}: end without begin")
            sym, fields = m.group(2), m.group(3).split()
            j = next((k for k in range(i + 1, len(lines)) if _MARK.match(lines[k])), None)
            end = _MARK.match(lines[j]) if j is not None else None
            if end is None or end.group(1) != "end" or end.group(2) != sym:
                raise ValueError(f"{isa.name}: {sym}: begin without its end")
            frame = Frame.parse(fields)
            body = lines[i + 1:j]
            vzu = end.group(3).split() == ["vzeroupper=1"]
            kernel = sym[len("mldsa_"):].rsplit("_" + isa.name, 1)[0]
            if kernel not in nargs:
                raise ValueError(f"{isa.name}: {sym} has no C declaration (src/kernels.h)")
            saves = self.prepare(isa, frame, body, nargs[kernel])
            out += self.entry(isa, self.symbol(sym), frame, saves)
            out += [f"{c} body"] + body + [f"{c} end of body"]
            out += self.exit(isa, self.symbol(sym), frame, vzu, saves)
            i = j + 1
        return self.rewrite("\n".join(out))


class Win64(Flavour):
    """PE/COFF with the Microsoft x64 ABI (x86-64 only). Arguments arrive in rcx, rdx,
    r8, r9 (four at most here: every kernel has at most four); rdi, rsi and xmm6-xmm15
    (their low 128 bits) are callee-saved, rax, rcx, rdx, r8-r11, xmm0-5 and xmm16-31 are
    not, and there is no red zone below %rsp (a body never addresses one: checked)."""
    name = "win64"
    subdir = "win64"
    arches = ("x86_64",)
    cfi = False

    ARGS_WIN = ("%rcx", "%rdx", "%r8", "%r9")
    ARGS_SYSV = ("%rdi", "%rsi", "%rdx", "%rcx")

    def rodata(self) -> str:
        return '    .section .rdata,"dr"'

    def notes(self, arch: str) -> list:
        return []

    def declare(self, sym: str, arch: str) -> list:
        return ["    .text", f"    .globl {sym}", f"    .def {sym}; .scl 2; .type 32; .endef",
                "    .p2align 5", f"    .seh_proc {sym}", f"{sym}:"]

    def close(self, sym: str) -> list:
        return ["    .seh_endproc"]

    @staticmethod
    def _written(body: list, pattern: str) -> bool:
        code = "\n".join(line.split("#", 1)[0] for line in body)
        return re.search(pattern, code) is not None

    def prepare(self, isa, frame: Frame, body: list, nargs: int):
        """The Microsoft ABI's saves: rdi and rsi where the argument moves or the body
        write them, xmm6-15 where the body names them; the xmm save area's offset from
        %rsp (above the body's own area) and the allocation (%rsp stays 16-byte aligned).
        Returns (nargs, gprs, xmms, area, size)."""
        if nargs > len(self.ARGS_WIN):
            raise ValueError(f"{isa.name}: {nargs} arguments: stack arguments are not written")
        gprs = [r for i, r in enumerate(("%rdi", "%rsi"))
                if (i < nargs or self._written(body, rf"%(r|e){r[2:]}\b|%{r[2:4]}l\b"))
                and r not in frame.push]
        xmms = [n for n in range(6, 16) if self._written(body, rf"%[xyz]mm{n}\b")]
        if self._written(body, r"-\d+\(%rsp\)"):
            raise ValueError(f"{isa.name}: the body addresses below %rsp (no red zone on Windows)")
        area = 0 if frame.fp else -(-frame.stack // 16) * 16
        size = area + 16 * len(xmms)
        if (8 + 8 * (len(gprs) + len(frame.push)) + size) % 16:
            size += 8
        return nargs, gprs, xmms, area, size

    def entry(self, isa, sym, frame, saves):
        nargs, gprs, xmms, area, size = saves
        out = self.declare(sym, isa.arch) + ["    endbr64"]
        for r in gprs + list(frame.push):
            out += [f"    push {r}", f"    .seh_pushreg {r}"]
        if size:
            out += [f"    sub ${size}, %rsp", f"    .seh_stackalloc {size}"]
        mov = "vmovdqa" if isa.vex else "movdqa"
        for k, n in enumerate(xmms):
            out += [f"    {mov} %xmm{n}, {area + 16 * k}(%rsp)", f"    .seh_savexmm %xmm{n}, {area + 16 * k}"]
        if frame.fp:
            out += ["    mov %rsp, %rbp", "    .seh_setframe %rbp, 0"]
        out.append("    .seh_endprologue")
        if frame.fp and frame.stack:
            out.append(f"    sub ${frame.stack}, %rsp")
        if frame.align:
            out.append(f"    and $-{frame.align}, %rsp")
        for win, sysv in list(zip(self.ARGS_WIN, self.ARGS_SYSV))[:nargs]:
            out.append(f"    mov {win}, {sysv}  # argument: Microsoft x64 -> System V")
        return out

    def exit(self, isa, sym, frame, vzeroupper, saves):
        nargs, gprs, xmms, area, size = saves
        # vzeroupper first: the epilogue proper (add/lea %rsp, pops, ret) must be the
        # form the Windows unwinder recognises
        out = ["    vzeroupper"] if vzeroupper else []
        base = "%rbp" if frame.fp else "%rsp"
        mov = "vmovdqa" if isa.vex else "movdqa"
        for k, n in enumerate(xmms):
            out.append(f"    {mov} {area + 16 * k}({base}), %xmm{n}")
        if frame.fp:
            out.append(f"    lea {size}(%rbp), %rsp")
        elif size:
            out.append(f"    add ${size}, %rsp")
        for r in reversed(gprs + list(frame.push)):
            out.append(f"    pop {r}")
        return out + ["    ret"] + self.close(sym)


class MachO(Flavour):
    """Mach-O (macOS) with the System V AMD64 ABI and Apple's AArch64 ABI (AAPCS64 with
    x18 reserved, which no kernel touches): C symbols carry a leading underscore, a
    private external is `.private_extern`, private labels start with L (not .L), and
    there are no .type, .size or ELF notes. Pages: label@PAGE, label@PAGEOFF."""
    name = "macos"
    subdir = "macos"

    def symbol(self, name: str) -> str:
        return "_" + name

    def rodata(self) -> str:
        return "    .section __TEXT,__const"

    def page(self, label: str, off: int = 0) -> str:
        return f"{label}@PAGE{self._plus(off)}"

    def pageoff(self, label: str, off: int = 0) -> str:
        return f"{label}@PAGEOFF{self._plus(off)}"

    def notes(self, arch: str) -> list:
        return []

    def declare(self, sym: str, arch: str) -> list:
        return ["    .text", f"    .globl {sym}", f"    .private_extern {sym}", "    .p2align 5",
                f"{sym}:"]

    def close(self, sym: str) -> list:
        return []

    def rewrite(self, text: str) -> str:
        # .Lname -> Lname: the assembler's private-label prefix on Mach-O
        return re.sub(r"(?<![\w.])\.L(?=[A-Za-z_])", "L", text)


ELF = Flavour()
FLAVOURS = {f.name: f for f in (ELF, Win64(), MachO())}
