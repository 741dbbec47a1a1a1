# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The kernel symbols' contract, and the proved objects against what the build links.

Contract: a kernel entry (a function named mldsa_*) is a global, hidden function symbol
with its size; every other label of the code is local. Only the API is exported from
the library, so a kernel is reached only through the dispatch that names it.

Linked: for a .S as it is on disk, the object the prover assembled with the build's own
command (build.py) must be the object libmldsa.a holds for it: the same bytes in every
section, the same relocations and the same symbols (binding, visibility, type, size).
Each of its kernel symbols is defined exactly once among all the archive's objects (a
second definition, which the linker may pick instead, fails the proof of the first),
and in libmldsa.so exactly once, local (hidden), not in the dynamic symbol table, with
the proved code at its address (except the bytes the linker fills in at the object's
relocations). The library's PT_GNU_STACK is present and not executable."""
from . import elf

# relocation types that patch 8 bytes (x86-64 R_X86_64_64, _PC64; AArch64 ABS64, PREL64);
# every other type the kernels use patches 4 (a rel32, or one A64 instruction)
WIDE_RELOCATIONS = {1, 24, 257, 260}
# sections the comparison with the linked object reads only through the others
NOT_COMPARED = {elf.SHT_SYMTAB, 3, elf.SHT_RELA}


def kernel_symbol(name):
    return name.startswith('mldsa_')


def check_kernel_symbols(obj, unit):
    """None, or the first function label whose symbol breaks the contract above."""
    for x in obj.symbols:
        if x['section'] != '.text' or not x['name'] or x['name'] not in unit.functions:
            continue
        name = x['name']
        if kernel_symbol(name):
            if x['bind'] != elf.STB_GLOBAL:
                return '%s is not global (.globl): a kernel is a global, hidden function' % name
            if x['visibility'] != elf.STV_HIDDEN:
                return '%s is not hidden (.hidden): a kernel is not exported from the library' % name
            if x['type'] != elf.STT_FUNC or not x['size']:
                return '%s is not a function symbol with a size (.type, .size)' % name
        elif x['bind'] != elf.STB_LOCAL:
            return '%s is global but not a kernel (mldsa_*): only kernels are global' % name
    return None


def kernels_of(obj):
    return sorted(x['name'] for x in obj.symbols if x['section'] == '.text' and x['bind'] != elf.STB_LOCAL
                  and kernel_symbol(x['name']))


def differences(a, b):
    """None, or the first difference between two relocatable objects."""
    secs = {s['name']: s for s in a.sections if s['type'] not in NOT_COMPARED}
    other = {s['name']: s for s in b.sections if s['type'] not in NOT_COMPARED}
    if sorted(secs) != sorted(other):
        return 'sections %s, linked %s' % (sorted(set(secs) - set(other)), sorted(set(other) - set(secs)))
    for nm, s in secs.items():
        o = other[nm]
        if (s['data'], s['flags'], s['align'], s['type']) != (o['data'], o['flags'], o['align'], o['type']):
            return 'section %s differs' % nm
        if a.relocations(nm) != b.relocations(nm):
            return 'relocations of %s differ' % nm

    def syms(o):
        return sorted((x['name'], x['section'], x['value'], x['bind'], x['visibility'], x['type'], x['size'])
                      for x in o.symbols if x['name'] and x['type'] != elf.STT_FILE)
    if syms(a) != syms(b):
        return 'symbols differ: %s' % sorted(set(syms(a)) ^ set(syms(b)))[:3]
    return None


def definitions(members):
    """kernel symbol -> the archive members (index, name) that define it globally."""
    out = {}
    for i, (name, data) in enumerate(members):
        if data[:4] != b'\x7fELF':
            continue
        for x in elf.Object(data).symbols:
            if x['shndx'] and x['bind'] in (elf.STB_GLOBAL, elf.STB_WEAK) and kernel_symbol(x['name']):
                out.setdefault(x['name'], []).append((i, name))
    return out


def check_archive(members, defs, built, archive='libmldsa.a'):
    """None, or why the archive does not link exactly the proved object for its kernels."""
    kernels = kernels_of(built)
    for k in kernels:
        where = defs.get(k, [])
        if len(where) != 1:
            return ('%s is defined %d times in %s%s: the proved definition must be the only one'
                    % (k, len(where), archive, ' (%s)' % ', '.join(n for _, n in where) if where else ''))
    members_of = {defs[k][0] for k in kernels}
    if len(members_of) != 1:
        return 'the kernels of one object are in %d objects of %s' % (len(members_of), archive)
    (i, name), = members_of
    diff = differences(built, elf.Object(members[i][1]))
    if diff:
        return ('%s links another object for %s (member %s) than the one proved: %s'
                % (archive, ', '.join(kernels), name, diff))
    return None


def check_shared(so, built, library='libmldsa.so'):
    """None, or why libmldsa.so does not hold the proved code as hidden kernels."""
    stack = [p for p in so.segments if p['type'] == elf.PT_GNU_STACK]
    if len(stack) != 1 or stack[0]['flags'] & elf.PF_X:
        return '%s has an executable stack (PT_GNU_STACK %s)' % (
            library, 'missing' if not stack else 'flags %#x' % stack[0]['flags'])
    if not so.symbols:
        return '%s has no symbol table (stripped): its kernels cannot be checked' % library
    text = built.section('.text')
    relocated = set()
    for off, typ, _, _ in built.relocations('.text'):
        relocated.update(range(off, off + (8 if typ in WIDE_RELOCATIONS else 4)))
    for x in built.symbols:
        if x['section'] != '.text' or x['bind'] == elf.STB_LOCAL or not kernel_symbol(x['name']):
            continue
        k = x['name']
        if any(d['name'] == k and d['shndx'] for d in so.dynamic_symbols):
            return '%s exports %s (in its dynamic symbol table): a kernel is hidden' % (library, k)
        defs = [d for d in so.symbols if d['name'] == k and d['shndx']]
        if len(defs) != 1:
            return '%s defines %s %d times' % (library, k, len(defs))
        d = defs[0]
        if d['bind'] != elf.STB_LOCAL or d['type'] != elf.STT_FUNC:
            return '%s: %s is not a local (hidden) function' % (library, k)
        if d['size'] != x['size']:
            return '%s: %s is %d bytes, the proved one %d' % (library, k, d['size'], x['size'])
        got = so.bytes_at(d['value'], d['size'])
        want = text['data'][x['value']:x['value'] + x['size']]
        if got is None or len(got) != len(want):
            return '%s: %s is not in its loaded image' % (library, k)
        for j in range(len(want)):
            if got[j] != want[j] and x['value'] + j not in relocated:
                return '%s: the code of %s differs from the proved code at byte %d' % (library, k, j)
    return None


# id(members) -> (members, definitions(members)), one entry per archive read (the
# x86-64 and the AArch64 one, a self-test's): the members kept, so that their id is
# never another's; read by the threads that read the files before the full run forks
_DEFINITIONS = {}


def check_linked(b, path, built, arch):
    """the object of path (as built by the prover) against build b's libraries."""
    if not kernels_of(built):
        return None
    members = b.members()
    hit = _DEFINITIONS.get(id(members))
    if hit is None:
        hit = _DEFINITIONS[id(members)] = (members, definitions(members))
    return (check_archive(members, hit[1], built)
            or check_shared(b.shared(), built))
