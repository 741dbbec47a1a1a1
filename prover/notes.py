# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The ELF notes of each kernel object, as obligations on the code it holds.

- .note.GNU-stack is present and not executable: without it (or with "x") the linker
  gives the whole library an executable stack.
- Where .note.gnu.property claims a control-flow feature, the code has it, because the
  linker marks the library (and the loader enforces it) only from the notes:
    x86 IBT:        every global function starts with endbr64;
    AArch64 BTI:    every global function starts with a landing pad (bti c, or paciasp,
                    which is one);
    AArch64 PAC:    every function that saves x30 signs it first (paciasp) and
                    authenticates it (autiasp) before each ret after the save.
  x86 SHSTK asks that returns go back where they were called from; that is the machine
  model's return check, not a property of the notes.
The linked library's PT_GNU_STACK is checked in linked.py."""
from . import elf

X86_FEATURE_1_AND, X86_IBT = 0xc0000002, 1
AARCH64_FEATURE_1_AND, AARCH64_BTI, AARCH64_PAC = 0xc0000000, 1, 2
# the hint-space spellings of the AArch64 pointer-authentication instructions
HINTS = {34: 'bti c', 25: 'paciasp', 29: 'autiasp', 27: 'pacibsp', 31: 'autibsp', 36: 'bti j', 38: 'bti jc'}
LANDING_PADS = {'bti c', 'bti jc', 'paciasp', 'pacibsp'}
SIGN, AUTH = {'paciasp', 'pacibsp'}, {'autiasp', 'autibsp'}


def a64_name(ins):
    """'bti c', 'paciasp', ... for an instruction written either way, else its mnemonic."""
    if ins.mnem == 'hint' and ins.ops and ins.ops[0].kind == 'imm':
        return HINTS.get(ins.ops[0].imm, 'hint')
    if ins.mnem == 'bti':
        return 'bti ' + (ins.ops[0].text if ins.ops else '')
    return ins.mnem


def saves_lr(ins):
    return ins.mnem in ('stp', 'str', 'stur') and any(o.kind in ('reg', 'label') and
                                                     (o.reg or o.sym) in ('x30', 'lr') for o in ins.ops[:2])


def global_functions(obj):
    return sorted(x['name'] for x in obj.symbols if x['bind'] == elf.STB_GLOBAL and x['type'] == elf.STT_FUNC
                  and x['section'] == '.text')


def check(obj, unit):
    """None, or what the object's notes claim that its code does not hold."""
    stack = obj.section('.note.GNU-stack')
    if stack is None:
        return 'no .note.GNU-stack section: the linked library would get an executable stack'
    if stack['flags'] & elf.SHF_EXECINSTR:
        return '.note.GNU-stack is executable: the linked library would get an executable stack'
    props = obj.gnu_properties()
    if unit.arch == 'x86':
        if props.get(X86_FEATURE_1_AND, 0) & X86_IBT:
            for name in global_functions(obj):
                fn = unit.functions.get(name)
                if not fn or not fn.insns or fn.insns[0].mnem != 'endbr64':
                    return ('.note.gnu.property claims IBT, but %s does not start with endbr64 (%s)'
                            % (name, fn.insns[0].text if fn and fn.insns else 'no instruction'))
        return None
    feat = props.get(AARCH64_FEATURE_1_AND, 0)
    if feat & AARCH64_BTI:
        for name in global_functions(obj):
            fn = unit.functions.get(name)
            if not fn or not fn.insns or a64_name(fn.insns[0]) not in LANDING_PADS:
                return ('.note.gnu.property claims BTI, but %s does not start with bti c or paciasp (%s)'
                        % (name, fn.insns[0].text if fn and fn.insns else 'no instruction'))
    if feat & AARCH64_PAC:
        for fn in unit.functions.values():
            signed, saved = False, False
            for ins in fn.insns:
                n = a64_name(ins)
                if n in SIGN:
                    signed = True
                elif n in AUTH:
                    signed = False
                elif saves_lr(ins):
                    if not signed:
                        return ('.note.gnu.property claims PAC, but %s saves x30 unsigned (line %d: %s)'
                                % (fn.name, ins.line, ins.text.strip()))
                    saved = True
                elif n == 'ret' and saved and signed:
                    return ('.note.gnu.property claims PAC, but %s returns with x30 not authenticated '
                            '(line %d)' % (fn.name, ins.line))
    return None
