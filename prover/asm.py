# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The .S text as the assembler reads it, as the prover sees it: functions (lists of
instructions with labels) and read-only data (a byte image with its labels).

The text goes through the C preprocessor first, with the command the build compiles the
.S with (build.py: CMake's compile_commands.json), so a #define, an
#include or an #if is seen as the assembler sees it. Then, as GNU as on x86-64: '#' starts
a comment, ';' separates statements. Only .text and .rodata are read; every other section
(.note.GNU-stack, .note.gnu.property, ...) is skipped here (the notes are checked on the
object, notes.py); alignment is recorded; the symbol directives (.globl, .hidden, .type,
.size) and the unwind directives (.cfi_*) are kept for the comparison below and have no
semantics. Anything else in .text that is
not an instruction is an error.

What was read is then checked against what the assembler makes of the same file: the
instructions, labels and alignments of .text and the bytes, labels and alignments of
.rodata, written back out from the parsed fields (alignment without any fill value, so
that the assembler pads code with its NOPs and data with zeros), are assembled, and
both objects must hold the same bytes in .text and .rodata, the same relocations and the
same symbols at the same offsets with the same binding, visibility, type and size, and no
other code or data. The object of the file as it is on disk must then be the one the
build links (linked.py), and every object's notes are obligations (notes.py). A fill that is not the
assembler's NOP padding, a statement the prover read differently (or not at all), a
macro, a redefinition or code in another section fails the parse."""
import os
import re
import subprocess
import tempfile

from . import a64, build, elf, linked, notes
from .syntax import Function, Insn, Operand, ParseError, Unit


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
        if ch in '({[':
            depth += 1
        elif ch in ')}]':
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
# symbol binding, visibility, type and size: kept as written, so that the symbols are
# compared with them (below) and checked against the kernel contract (linked.py)
SYMBOL_DIRECTIVES = {'.globl', '.global', '.hidden', '.type', '.size'}
ALIGN = {'.p2align', '.balign', '.align'}

LINEMARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: [1-4])*)$')


def _command(path, arch):
    """the compiler and options the build compiles path with (build.py), and -iquote for
    the .S's own directory, which a text read from stdin would lose."""
    cc, opts = build.of(arch).command(path)
    return [cc] + list(opts) + ['-iquote', os.path.dirname(os.path.abspath(path))]


def _run(args, data):
    r = subprocess.run(args, input=data, capture_output=True)
    if r.returncode:
        raise ParseError('%s: %s' % (' '.join(args[:3]), r.stderr.decode(errors='replace').strip()[:600]))
    return r.stdout


def preprocess(path, text, arch='x86'):
    """the text after the C preprocessor, as (line of the .S or None, text) pairs: lines
    that come from an included file carry None."""
    args = _command(path, arch) + ['-E', '-x', 'assembler-with-cpp', '-']
    out = _run(args, text.encode()).decode()
    lines, cur, n = [], None, 0
    for raw in out.split('\n'):
        m = LINEMARKER.match(raw)
        if m:
            cur, n = m.group(2), int(m.group(1))
            continue
        lines.append((n if cur == '<stdin>' else None, raw))
        n += 1
    return lines


def statements(line):
    """GNU as on x86-64: '#' outside a string starts a comment, ';' separates statements."""
    out, cur, quoted, esc = [], '', False, False
    for ch in line:
        if quoted:
            cur += ch
            if esc:
                esc = False
            elif ch == '\\':
                esc = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch == '#':
            break
        elif ch == ';':
            out.append(cur)
            cur = ''
            continue
        cur += ch
    out.append(cur)
    return [x.strip() for x in out if x.strip()]


def _align_args(word, line):
    """(alignment in bytes, max skip or None) of an alignment directive; its fill value is
    dropped (the byte check then refuses any fill other than the assembler's own)."""
    args = [a.strip() for a in line[len(word):].split(',')]
    a = _int(args[0])
    if word == '.p2align':
        a = 1 << a
    mx = _int(args[2]) if len(args) > 2 and args[2] else None
    return a, mx


def parse(path, text=None, check_bytes=True, arch=None):
    if text is None:
        with open(path) as f:
            text = f.read()
    if arch is None:
        arch = 'a64' if os.path.basename(os.path.dirname(os.path.abspath(path))) == 'neon' else 'x86'
    if arch == 'a64':
        split, operand, unparse_ = a64.statements, a64.parse_operand, a64.unparse
    else:
        split, operand, unparse_ = statements, parse_operand, unparse
    pre = preprocess(path, text, arch)
    functions, rodata, symbols = {}, bytearray(), {}
    rodata_align = 1     # the section's alignment: its largest (checked against the object)
    emit_text, emit_rodata = [], []      # what was read, to be assembled again
    section = 'text'
    previous = 'text'
    stack = []
    cur = None
    for n, raw in pre:
        where = '%s:%s' % (path, n if n is not None else '(included)')
        for line in split(raw):
            if line.startswith('/'):
                raise ParseError('%s: a statement starting with /: %s' % (where, line))
            if line.startswith(('.section', '.pushsection')):
                if line.startswith('.pushsection'):
                    stack.append(section)
                prev = section
                name = line.split()[1].rstrip(',').split(',')[0]
                section = 'rodata' if name.startswith('.rodata') else ('text' if name == '.text' else 'other')
                if section == 'rodata' and name != '.rodata':
                    raise ParseError('%s: read-only data in %s (only .rodata is read)' % (where, name))
                previous = prev
                continue
            if line.startswith('.popsection'):
                if not stack:
                    raise ParseError('%s: .popsection without .pushsection' % where)
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
                    emit_rodata.append(lab + ':')
                else:
                    if lab.isdigit():
                        if cur is None:
                            raise ParseError('%s: local label outside a function' % where)
                        cur.numeric.append((len(cur.insns), int(lab)))
                    elif lab.startswith('.L'):
                        if cur is None:
                            raise ParseError('%s: label outside a function' % where)
                        cur.labels[lab] = len(cur.insns)
                    else:
                        cur = Function(lab)
                        functions[lab] = cur
                    emit_text.append(lab + ':')
                line = rest
                if not line:
                    continue
            word = line.split()[0]
            if section == 'rodata':
                if word in DATA_SIZES:
                    size = DATA_SIZES[word]
                    start = len(rodata)
                    for v in line[len(word):].split(','):
                        rodata += (_int(v) % (1 << (8 * size))).to_bytes(size, 'little')
                    emit_rodata.append('.byte ' + ', '.join(str(b) for b in rodata[start:]))
                elif word in ALIGN:
                    a, mx = _align_args(word, line)
                    if mx is not None:
                        raise ParseError('%s: alignment with a maximum skip in .rodata: %s' % (where, line))
                    while len(rodata) % a:
                        rodata.append(0)
                    rodata_align = max(rodata_align, a)
                    emit_rodata.append('.balign %d' % a)
                elif word in SYMBOL_DIRECTIVES:
                    emit_rodata.append(line)
                else:
                    raise ParseError('%s: unknown directive in .rodata: %s' % (where, line))
                continue
            if word.startswith('.'):
                if word in SYMBOL_DIRECTIVES:
                    emit_text.append(line)
                    continue
                if word.startswith('.cfi_'):
                    # unwind information: no effect on the semantics; kept, so that the
                    # .eh_frame it makes is compared as assembled
                    emit_text.append(line)
                    continue
                if word == '.arch' and arch == 'a64':
                    # the extensions the assembler accepts from here (armv8.2-a+sha3 for
                    # a SHA3 body): kept for the check below, no effect on the semantics
                    emit_text.append(line)
                    continue
                if word in ALIGN:
                    a, mx = _align_args(word, line)
                    emit_text.append('.balign %d%s' % (a, ',,%d' % mx if mx is not None else ''))
                    continue
                raise ParseError('%s: unknown directive in .text: %s' % (where, line))
            if cur is None:
                raise ParseError('%s: instruction outside a function' % where)
            if n is None:
                raise ParseError('%s: an instruction from an included file: %s' % (where, line))
            rest = line[len(word):].strip()
            ops = [operand(t) for t in split_operands(rest)] if rest else []
            ins = Insn(word, ops, n, line)
            cur.insns.append(ins)
            emit_text.append(unparse_(ins))
    u = Unit(path, functions, rodata, symbols, text.split('\n'))
    u.arch = arch
    u.rodata_align = rodata_align
    if check_bytes:
        built = check_assembled(path, text, emit_text, emit_rodata, arch)
        # (a text the build does not compile, a single form the self-test writes, is
        # linked nowhere: it has no notes or kernel symbols to hold)
        for check in (notes.check, linked.check_kernel_symbols) if build.of(arch).compiles(path) else ():
            msg = check(built, u)
            if msg:
                raise ParseError('%s: %s' % (path, msg))
        if build.of(arch).compiles(path) and _on_disk(path) == text:
            msg = linked.check_linked(build.of(arch), path, built, arch)
            if msg:
                raise ParseError('%s: %s' % (path, msg))
    return u


def _on_disk(path):
    with open(path) as f:
        return f.read()


def unparse(ins):
    """the instruction written back from its parsed fields."""
    def op(o):
        deco = ('{1to%d}' % o.bcst if o.bcst else '') + ('{%%%s}' % o.mask if o.mask else '') + \
            ('{z}' if o.zero else '')
        if o.kind == 'reg':
            return '%' + o.reg + deco
        if o.kind == 'imm':
            return '$%d' % o.imm + deco
        if o.kind == 'label':
            return o.sym + deco
        d = (o.sym + ('%+d' % o.disp if o.disp else '')) if o.sym else ('%d' % o.disp if o.disp else '')
        inner = ('%' + o.base if o.base else '') + (',%%%s,%d' % (o.index, o.scale) if o.index else '')
        return '%s(%s)%s' % (d, inner, deco)
    return ins.mnem + (' ' + ', '.join(op(o) for o in ins.ops) if ins.ops else '')


_CHECKED = {}


def _assemble(source, lang, arch='x86'):
    with tempfile.TemporaryDirectory(prefix='prover-') as d:
        obj = os.path.join(d, 'o.o')
        _run(_command(source[0], arch) + ['-c', '-x', lang, '-o', obj, '-'], source[1].encode())
        with open(obj, 'rb') as f:
            return elf.Object(f.read())


def check_assembled(path, text, emit_text, emit_rodata, arch='x86'):
    """the object the build makes of text holds exactly what was read (see the top)."""
    view = '\n'.join(['\t.text'] + emit_text + ['\t.section .rodata'] + emit_rodata) + '\n'
    key = (os.path.abspath(path), text, view, arch)
    if key not in _CHECKED:
        msg = built = None
        try:
            built = _assemble((path, text), 'assembler-with-cpp', arch)
            seen = _assemble((path, view), 'assembler', arch)
            msg = compare_objects(built, seen)
        except ParseError as e:
            msg = str(e)
        _CHECKED[key] = (msg, built)
    msg, built = _CHECKED[key]
    if msg:
        raise ParseError('%s: %s' % (path, msg))
    return built


ALLOWED_OTHER = {'.note.gnu.property', '.note.GNU-stack'}
# what must be the same bytes in both objects: code, data, and the unwind tables the
# .cfi_* directives make
COMPARED = ('.text', '.rodata', '.eh_frame')


def compare_objects(built, seen):
    for s in built.sections:
        nm = s['name']
        # (an executable .note.GNU-stack is named as such by notes.py)
        if s['flags'] & elf.SHF_EXECINSTR and nm not in ('.text', '.note.GNU-stack'):
            return 'code in section %s, which the prover does not read' % nm
        if s['flags'] & elf.SHF_ALLOC and nm not in COMPARED and nm not in ALLOWED_OTHER \
                and s['size']:
            return 'section %s holds %d bytes the prover does not read' % (nm, s['size'])
    for nm in COMPARED:
        a, b = built.section(nm), seen.section(nm)
        ad = a['data'] if a else b''
        bd = b['data'] if b else b''
        if ad != bd:
            j = next((i for i in range(min(len(ad), len(bd))) if ad[i] != bd[i]), min(len(ad), len(bd)))
            return ('%s as assembled differs from what the prover read at byte %d of %d/%d '
                    '(built %s, read %s)' % (nm, j, len(ad), len(bd), ad[j:j + 8].hex(), bd[j:j + 8].hex()))
        if ad and a['align'] != b['align']:
            return '%s alignment %d, the prover read %d' % (nm, a['align'], b['align'])
        if built.relocations(nm) != seen.relocations(nm):
            return 'relocations of %s differ from what the prover read' % nm

    def syms(o):
        return sorted((x['name'], x['section'], x['value'], x['bind'], x['visibility'], x['type'], x['size'])
                      for x in o.symbols if x['name'] and x['section'] in ('.text', '.rodata')
                      and x['type'] not in (elf.STT_SECTION, elf.STT_FILE))
    if syms(built) != syms(seen):
        d = sorted(set(syms(built)) ^ set(syms(seen)))[:4]
        return 'symbols differ from the labels the prover read: %s' % d
    return None
