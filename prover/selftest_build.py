# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The self-test of what the prover checks about the build: planted bugs in the build's
options, the kernel symbols, the linked libraries, the ELF notes and the package's
imports, each of which must be rejected with a message that names its cause.

Plants in a .S go through the whole proof (as the self-test's other plants do); plants in
a linked library are made in a copy of the library in memory. asm_out/ and the build are
not touched."""
import copy
import os
import shutil
import tempfile

from . import asm, build, elf, import_graph, linked

# (isa, file, kernel, a line's text, what the build's options assemble instead, under which
# condition, the bug): each must be proved as the build assembles it, and so rejected
FLAG_PLANTS = [
    ('avx2', 'add', 'add', 'mov $4, %eax', 'mov $3, %eax', 'defined(NDEBUG)',
     'a loop count only the release build (-DNDEBUG) sees'),
    ('sse2', 'sub', 'sub', 'psubd', 'paddd', 'defined(__OPTIMIZE__)',
     'an instruction only an optimizing build (__OPTIMIZE__) assembles'),
    ('avx512', 'caddq', 'caddq', 'vpaddd', 'vpsubd', 'defined(MLDSA_HAVE_AVX512)',
     'an instruction only a build with the ISA (MLDSA_HAVE_AVX512) assembles'),
    ('neon', 'add', 'add', 'mov w9, #8', 'mov w9, #7', 'defined(NDEBUG) && defined(MLDSA_HAVE_NEON)',
     'a neon loop count only the release build sees'),
]


def _under(text, old, new, condition):
    """text with the first line holding old written twice: with new where condition holds."""
    i = text.find(old)
    if i < 0:
        return None
    start, end = text.rfind('\n', 0, i) + 1, text.index('\n', i)
    line = text[start:end]
    return (text[:start] + '#if %s\n%s\n#else\n%s\n#endif' % (condition, line.replace(old, new, 1), line)
            + text[end:])


# (isa, file, kernel, text (or a tuple of texts), replacement, the bug, what the rejection
# must say)
SOURCE_PLANTS = [
    ('avx2', 'add', 'add', '    .hidden mldsa_add_avx2\n', '', 'the kernel symbol not hidden', 'not hidden'),
    ('sse2', 'reduce32', 'reduce32', '    .globl mldsa_reduce32_sse2\n', '', 'the kernel symbol local',
     'not global'),
    ('neon', 'caddq', 'caddq', '    .hidden mldsa_caddq_neon\n', '', 'a neon kernel symbol not hidden', 'not hidden'),
    ('avx2', 'add', 'add', '    .section .note.GNU-stack,"",@progbits\n', '', 'no .note.GNU-stack',
     'no .note.GNU-stack'),
    ('neon', 'sub', 'sub', '    .section .note.GNU-stack,"",%progbits\n', '', 'no .note.GNU-stack (neon)',
     'no .note.GNU-stack'),
    ('sse2', 'add', 'add', '    .section .note.GNU-stack,"",@progbits\n', '    .section .note.GNU-stack,"x",@progbits\n',
     'an executable-stack note', 'is executable'),
    ('avx2', 'add', 'add', '    endbr64\n', '', 'no endbr64 under an IBT property', 'does not start with endbr64'),
    ('avx512', 'sub', 'sub', '    endbr64\n', '    nop\n', 'a nop for endbr64 under IBT', 'does not start with endbr64'),
    ('neon', 'add', 'add', '    hint #34', '    //', 'no bti c under a BTI property', 'does not start with bti c'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', ('    hint #25', '    hint #29'), '    //',
     'x30 saved and restored unsigned under a PAC property', 'saves x30 unsigned'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', '    hint #29', '    //',
     'x30 not authenticated before ret under PAC', 'not authenticated'),
]


def _plant(text, old, new):
    """text with old (or each of a tuple of texts) replaced by new once, or None."""
    for o in (old if isinstance(old, tuple) else (old,)):
        if o not in text:
            return None
        text = text.replace(o, new, 1)
    return text


def _rejected(rep, cause):
    """(rejected for the cause, the first failure's message)."""
    why = next((it[4] for it in rep.items if not it[3]), '')
    return not rep.passed and cause in why, why


def _source(asm_dir, isa, f):
    path = os.path.join(asm_dir, isa, f + '.S')
    with open(path) as fh:
        return path, fh.read()


def _linked_plants(asm_dir):
    """(bug, its check's message or None, what the message must say) for plants in copies
    of the libraries the build linked."""
    out = []
    path, text = _source(asm_dir, 'avx2', 'add')
    b = build.of('x86')
    built = asm.check_assembled(path, text, *_view(path, text))
    members = list(b.members())
    defs = linked.definitions(members)
    out.append(('the unmodified avx2 add against the archive and the library (must pass)',
                linked.check_archive(members, defs, built) or linked.check_shared(b.shared(), built), None))
    # a second definition of the kernel in another object of the archive
    twin = asm._assemble((path, '    .text\n    .globl mldsa_add_avx2\n    .type mldsa_add_avx2, @function\n'
                          'mldsa_add_avx2:\n    ret\n    .size mldsa_add_avx2, .-mldsa_add_avx2\n'
                          '    .section .note.GNU-stack,"",@progbits\n'), 'assembler-with-cpp', 'x86')
    more = members + [('twin.o', twin.raw)]
    out.append(('mldsa_add_avx2 defined a second time in another object',
                linked.check_archive(more, linked.definitions(more), built), 'defined 2 times'))
    # the archive's object for add.S with one code byte changed
    (i, _), = defs['mldsa_add_avx2']
    data = bytearray(members[i][1])
    text_sec = elf.Object(bytes(data)).section('.text')
    data[text_sec['offset'] + 8] ^= 1
    changed = members[:i] + [(members[i][0], bytes(data))] + members[i + 1:]
    out.append(('the linked object of avx2 add differs in one code byte',
                linked.check_archive(changed, linked.definitions(changed), built), 'than the one proved'))
    # the shared library: an executable stack, an exported kernel, other code at the kernel
    so = copy.deepcopy(b.shared())
    next(p for p in so.segments if p['type'] == elf.PT_GNU_STACK)['flags'] |= elf.PF_X
    out.append(('libmldsa.so with an executable PT_GNU_STACK', linked.check_shared(so, built),
                'executable stack'))
    so = copy.deepcopy(b.shared())
    exported = dict(next(x for x in so.symbols if x['name'] == 'mldsa_add_avx2'), bind=elf.STB_GLOBAL)
    so.dynamic_symbols.append(exported)
    out.append(('libmldsa.so exporting mldsa_add_avx2', linked.check_shared(so, built), 'exports'))
    so = copy.deepcopy(b.shared())
    sub = next(x for x in so.symbols if x['name'] == 'mldsa_sub_avx2')
    add = next(x for x in so.symbols if x['name'] == 'mldsa_add_avx2')
    add['value'] = sub['value']
    out.append(('libmldsa.so whose mldsa_add_avx2 is the code of mldsa_sub_avx2', linked.check_shared(so, built),
                'differs from the proved code'))
    return out


def _view(path, text):
    """what asm.parse writes back of text (to assemble again), as check_assembled takes it."""
    captured = {}
    real = asm.check_assembled

    def capture(p, t, emit_text, emit_rodata, arch='x86'):
        captured['args'] = (emit_text, emit_rodata, arch)
        return real(p, t, emit_text, emit_rodata, arch)
    asm.check_assembled = capture
    try:
        asm.parse(path, text)
    finally:
        asm.check_assembled = real
    return captured['args']


def _import_cycle():
    """a lazy import planted in a copy of the package must make a cycle."""
    with tempfile.TemporaryDirectory(prefix='prover-imports-') as d:
        pkg = os.path.join(d, 'prover')
        shutil.copytree(import_graph.PACKAGE, pkg, ignore=shutil.ignore_patterns('__pycache__'))
        with open(os.path.join(pkg, 'syntax.py'), 'a') as f:
            f.write('\n\ndef _late():\n    from . import asm\n    return asm\n')
        clean = import_graph.cycles(import_graph.edges(import_graph.PACKAGE))
        planted = import_graph.cycles(import_graph.edges(pkg))
    return clean, planted


def main(asm_dir, run_one, out=print):
    """run_one(path, text, isa, kernel) -> Report: the self-test's proof of one kernel."""
    bad = 0
    plants = [(isa, f, k, (old, new, cond), what, '') for isa, f, k, old, new, cond, what in FLAG_PLANTS]
    plants += [(isa, f, k, (old, new), what, cause) for isa, f, k, old, new, what, cause in SOURCE_PLANTS]
    for isa, f, k, edit, what, cause in plants:
        path, text = _source(asm_dir, isa, f)
        mut = _under(text, *edit) if len(edit) == 3 else _plant(text, *edit)
        if mut is None:
            out('self-test: %s %s: could not plant "%s" (the kernel changed?)' % (isa, k, what))
            bad += 1
            continue
        caught, why = _rejected(run_one(path, mut, isa, k), cause)
        out('self-test: %-7s %-22s planted (%s) %s%s' % (isa, k, what, 'rejected' if caught else 'ACCEPTED',
                                                       ': ' + why[:150] if why else ''), flush=True)
        bad += not caught
    for what, msg, cause in _linked_plants(asm_dir):
        ok = (msg is None) if cause is None else (msg is not None and cause in msg)
        out('self-test: linked  %s: %s%s' % (what, ('accepted' if msg is None else 'rejected') if ok else
                                               ('REJECTED' if cause is None else 'ACCEPTED'),
                                               ': ' + msg[:150] if msg else ''))
        bad += not ok
    clean, planted = _import_cycle()
    ok = not clean and any({'asm', 'syntax'} <= set(c) for c in planted)
    out('self-test: imports: %s; a lazy import planted in syntax.py %s'
        % ('no cycle' if not clean else 'CYCLES %s' % clean, 'rejected' if planted else 'ACCEPTED'))
    bad += not ok
    return bad
