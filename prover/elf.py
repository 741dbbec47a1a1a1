# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Just enough of ELF64 (little-endian, relocatable) to compare two objects: section
bytes, flags and alignment, relocations and the symbols defined in each section."""
import struct

SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
SHT_NOBITS, SHT_RELA, SHT_SYMTAB = 8, 4, 2


class Object:
    def __init__(self, data):
        if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
            raise ValueError('not a little-endian ELF64 object')
        shoff, = struct.unpack_from('<Q', data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
        raw = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
        strtab = raw[shstrndx]

        def name(off, tab):
            s = data[tab[4] + off:data.index(b'\0', tab[4] + off)]
            return s.decode()
        self.sections = []
        for r in raw:
            nm, typ, flags, _, off, size, link, info, align, entsize = r
            body = b'' if typ == SHT_NOBITS else data[off:off + size]
            self.sections.append({'name': name(nm, strtab), 'type': typ, 'flags': flags,
                                  'size': size, 'align': align, 'data': body, 'link': link,
                                  'info': info})
        self.symbols = []
        for s in self.sections:
            if s['type'] != SHT_SYMTAB:
                continue
            names = raw[s['link']]
            for j in range(len(s['data']) // 24):
                nm, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', s['data'], 24 * j)
                self.symbols.append({'name': name(nm, names), 'bind': info >> 4, 'type': info & 15,
                                     'shndx': shndx, 'value': value,
                                     'section': self.sections[shndx]['name'] if 0 < shndx < len(self.sections) else None})

    def section(self, name):
        return next((s for s in self.sections if s['name'] == name), None)

    def relocations(self, target):
        """(offset, type, symbol or section name, addend) of the section named target."""
        out = []
        symtab = next((s for s in self.sections if s['type'] == SHT_SYMTAB), None)
        for s in self.sections:
            if s['type'] != SHT_RELA or self.sections[s['info']]['name'] != target:
                continue
            for j in range(len(s['data']) // 24):
                off, info, addend = struct.unpack_from('<QQq', s['data'], 24 * j)
                sym = self.symbols[info >> 32] if symtab else None
                out.append((off, info & 0xffffffff, sym['name'] or sym['section'], addend))
        return sorted(out)
