# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What the front ends make of assembly text, for either machine: operands, instructions,
functions, the unit of one .S file, and the error a text that cannot be read raises.
asm.py (x86-64, and the reader of any .S) and a64.py (AArch64 operands) both build these."""
from dataclasses import dataclass, field


@dataclass
class Operand:
    kind: str            # 'reg', 'imm', 'mem', 'label'
    reg: str = None      # register name without '%'
    imm: int = None
    base: str = None     # mem: base register, or 'rip'
    index: str = None
    scale: int = 1
    disp: int = 0
    sym: str = None      # mem: symbol (rip-relative), label: target
    mask: str = None     # AVX-512 {%kN}
    zero: bool = False   # {z}
    bcst: int = None     # {1toN}

    def __str__(self):
        return self.text

    text: str = ''


@dataclass
class Insn:
    mnem: str
    ops: list            # in AT&T order, as written
    line: int
    text: str


@dataclass
class Function:
    name: str
    insns: list = field(default_factory=list)
    labels: dict = field(default_factory=dict)   # label -> index of next insn
    numeric: list = field(default_factory=list)  # (index, number) of local labels 1:, 2:


@dataclass
class Unit:
    path: str
    functions: dict
    rodata: bytearray
    symbols: dict        # rodata label -> offset
    lines: list


class ParseError(Exception):
    pass
