# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The .S text as the prover sees it: functions (lists of instructions with labels) and
read-only data (a byte image with its labels). Only .text and .rodata* are read; every
other section (.note.GNU-stack, .note.gnu.property, ...) and the directives that only
annotate (.globl, .type, .size, .hidden, alignment in .text) are skipped. Anything else
in .text that is not an instruction is an error."""
import re
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


def _int(s):
    s = s.strip()
    neg = s.startswith('-')
    if neg:
        s = s[1:]
    v = int(s, 0)
    return -v if neg else v


def split_operands(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '({':
            depth += 1
        elif ch in ')}':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


MEM_RE = re.compile(r'^(?P<disp>[^(]*)\((?P<base>%\w+)?(?:,(?P<index>%\w+)(?:,(?P<scale>\d+))?)?\)$')


def parse_operand(t):
    o = Operand(kind='?', text=t)
    for deco in re.findall(r'\{([^}]*)\}', t):
        if deco.startswith('%k'):
            o.mask = deco[1:]
        elif deco == 'z':
            o.zero = True
        elif deco.startswith('1to'):
            o.bcst = int(deco[3:])
        else:
            raise ParseError('unknown decoration {%s}' % deco)
    t = re.sub(r'\{[^}]*\}', '', t).strip()
    if t.startswith('%'):
        o.kind, o.reg = 'reg', t[1:]
    elif t.startswith('$'):
        o.kind, o.imm = 'imm', _int(t[1:])
    elif '(' in t:
        m = MEM_RE.match(t.replace(' ', ''))
        if not m:
            raise ParseError('bad memory operand ' + t)
        o.kind = 'mem'
        o.base = m.group('base')[1:] if m.group('base') else None
        o.index = m.group('index')[1:] if m.group('index') else None
        o.scale = int(m.group('scale') or 1)
        d = m.group('disp').strip()
        if d:
            sm = re.match(r'^([A-Za-z_.][\w.]*)\s*([+-]\s*\d+)?$', d)
            if sm:
                o.sym = sm.group(1)
                o.disp = _int(sm.group(2).replace(' ', '')) if sm.group(2) else 0
            else:
                o.disp = _int(d)
    else:
        o.kind, o.sym = 'label', t
    return o


DATA_SIZES = {'.byte': 1, '.word': 2, '.short': 2, '.long': 4, '.int': 4, '.quad': 8}
SKIP_TEXT = {'.globl', '.global', '.hidden', '.type', '.size', '.p2align', '.balign', '.align'}


def parse(path, text=None):
    if text is None:
        with open(path) as f:
            text = f.read()
    lines = text.split('\n')
    functions, rodata, symbols = {}, bytearray(), {}
    section = 'text'
    previous = 'text'
    stack = []
    cur = None
    for n, raw in enumerate(lines, 1):
        line = raw.split('#', 1)[0].strip()
        if not line:
            continue
        if line.startswith(('.section', '.pushsection')):
            if line.startswith('.pushsection'):
                stack.append(section)
            prev = section
            name = line.split()[1].rstrip(',').split(',')[0]
            section = 'rodata' if name.startswith('.rodata') else ('text' if name == '.text' else 'other')
            previous = prev
            continue
        if line.startswith('.popsection'):
            if not stack:
                raise ParseError('%s:%d: .popsection without .pushsection' % (path, n))
            section = stack.pop()
            continue
        if line.startswith('.previous'):
            section, previous = previous, section
            continue
        if line in ('.text',):
            section = 'text'
            continue
        if line.startswith('.data') or line.startswith('.bss'):
            section = 'other'
            continue
        if section == 'other':
            continue
        m = re.match(r'^([A-Za-z_.0-9][\w.$]*):\s*(.*)$', line)
        if m:
            lab, rest = m.group(1), m.group(2)
            if section == 'rodata':
                symbols[lab] = len(rodata)
            else:
                if lab.isdigit():
                    if cur is None:
                        raise ParseError('%s:%d: local label outside a function' % (path, n))
                    cur.numeric.append((len(cur.insns), int(lab)))
                elif lab.startswith('.L'):
                    if cur is None:
                        raise ParseError('%s:%d: label outside a function' % (path, n))
                    cur.labels[lab] = len(cur.insns)
                else:
                    cur = Function(lab)
                    functions[lab] = cur
            line = rest
            if not line:
                continue
        word = line.split()[0]
        if section == 'rodata':
            if word in DATA_SIZES:
                size = DATA_SIZES[word]
                for v in line[len(word):].split(','):
                    rodata += (_int(v) % (1 << (8 * size))).to_bytes(size, 'little')
            elif word in ('.balign', '.p2align', '.align'):
                a = _int(line.split()[1].split(',')[0])
                if word == '.p2align':
                    a = 1 << a
                while len(rodata) % a:
                    rodata.append(0)
            elif word in SKIP_TEXT:
                pass
            else:
                raise ParseError('%s:%d: unknown directive in .rodata: %s' % (path, n, line))
            continue
        if word.startswith('.'):
            if word in SKIP_TEXT:
                continue
            raise ParseError('%s:%d: unknown directive in .text: %s' % (path, n, line))
        if cur is None:
            raise ParseError('%s:%d: instruction outside a function' % (path, n))
        rest = line[len(word):].strip()
        ops = [parse_operand(t) for t in split_operands(rest)] if rest else []
        cur.insns.append(Insn(word, ops, n, line))
    return Unit(path, functions, rodata, symbols, lines)
