# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Just enough of ELF64 (little-endian) to compare two objects and to read a linked
library: section bytes, flags and alignment, relocations, the symbols (binding,
visibility, size; .symtab and .dynsym), the notes and the program headers; and the
members of an ar archive."""
import struct

SHF_ALLOC, SHF_WRITE, SHF_EXECINSTR = 0x2, 0x1, 0x4
SHT_NOBITS, SHT_RELA, SHT_SYMTAB, SHT_NOTE, SHT_DYNSYM = 8, 4, 2, 7, 11
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STT_FUNC, STT_SECTION, STT_FILE = 2, 3, 4
STV_DEFAULT, STV_HIDDEN = 0, 2
PT_GNU_STACK, PF_X = 0x6474e551, 0x1


class Object:
    def __init__(self, data):
        if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
            raise ValueError('not a little-endian ELF64 object')
        self.raw = data
        shoff, = struct.unpack_from('<Q', data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
        raw = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
        self.type, = struct.unpack_from('<H', data, 0x10)
        phoff, = struct.unpack_from('<Q', data, 0x20)
        phentsize, phnum = struct.unpack_from('<HH', data, 0x36)
        self.segments = [dict(zip(('type', 'flags', 'offset', 'vaddr', 'paddr', 'filesz', 'memsz', 'align'),
                                  struct.unpack_from('<IIQQQQQQ', data, phoff + i * phentsize)))
                         for i in range(phnum)]
        strtab = raw[shstrndx]

        def name(off, tab):
            s = data[tab[4] + off:data.index(b'\0', tab[4] + off)]
            return s.decode()
        self.sections = []
        for r in raw:
            nm, typ, flags, addr, off, size, link, info, align, entsize = r
            body = b'' if typ == SHT_NOBITS else data[off:off + size]
            self.sections.append({'name': name(nm, strtab), 'type': typ, 'flags': flags, 'addr': addr, 'offset': off,
                                  'size': size, 'align': align, 'data': body, 'link': link,
                                  'info': info})
        self.symbols, self.dynamic_symbols = [], []
        for s in self.sections:
            if s['type'] not in (SHT_SYMTAB, SHT_DYNSYM):
                continue
            names = raw[s['link']]
            for j in range(len(s['data']) // 24):
                nm, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', s['data'], 24 * j)
                (self.symbols if s['type'] == SHT_SYMTAB else self.dynamic_symbols).append(
                    {'name': name(nm, names), 'bind': info >> 4, 'type': info & 15,
                     'visibility': other & 3, 'shndx': shndx, 'value': value, 'size': size,
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

    def notes(self, name):
        """(owner, type, descriptor) of each note in section name."""
        s, out, i = self.section(name), [], 0
        d = s['data'] if s else b''
        while i + 12 <= len(d):
            namesz, descsz, typ = struct.unpack_from('<III', d, i)
            i += 12
            owner = d[i:i + namesz].rstrip(b'\0').decode(errors='replace')
            i += (namesz + 3) & ~3
            out.append((owner, typ, d[i:i + descsz]))
            i += (descsz + (7 if s['align'] >= 8 else 3)) & ~(7 if s['align'] >= 8 else 3)
        return out

    def gnu_properties(self):
        """pr_type -> the 32-bit value of each GNU property (NT_GNU_PROPERTY_TYPE_0) whose
        data is one word, as the x86 and AArch64 feature properties are."""
        out = {}
        for owner, typ, desc in self.notes('.note.gnu.property'):
            if owner != 'GNU' or typ != 5:
                continue
            i = 0
            while i + 8 <= len(desc):
                pr_type, size = struct.unpack_from('<II', desc, i)
                if size == 4:
                    out[pr_type] = struct.unpack_from('<I', desc, i + 8)[0]
                i += 8 + ((size + 7) & ~7)
        return out

    def bytes_at(self, addr, n):
        """n bytes of the loaded image at address addr (a linked object)."""
        for s in self.sections:
            if s['flags'] & SHF_ALLOC and s['type'] != SHT_NOBITS and s['addr'] <= addr < s['addr'] + s['size']:
                return s['data'][addr - s['addr']:addr - s['addr'] + n]
        return None


def archive_members(data):
    """(name, bytes) of each member of an ar archive (GNU long names); the symbol index
    and the long-name table are left out."""
    if data[:8] != b'!<arch>\n':
        raise ValueError('not an ar archive')
    out, longnames, i = [], b'', 8
    while i + 60 <= len(data):
        head = data[i:i + 60]
        name, size = head[:16].decode().rstrip(), int(head[48:58].decode())
        body = data[i + 60:i + 60 + size]
        i += 60 + size + (size & 1)
        if name == '//':
            longnames = body
        elif name in ('/', '/SYM64/'):
            continue
        else:
            if name.startswith('/') and name[1:].isdigit():
                off = int(name[1:])
                name = longnames[off:longnames.index(b'\n', off)].decode()
            out.append((name.rstrip('/'), body))
    return out
