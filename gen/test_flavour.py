# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Unit tests of the object formats and calling conventions (gen/flavour.py)."""

import dataclasses
import re
import unittest

from .flavour import FLAVOURS, Frame, kernel_arguments
from .isa import ISAS
from .outputs import OUT

WIN64 = FLAVOURS["win64"]


def win64(isa_name, body, frame=Frame(), kernel="add", nargs=3):
    isa = dataclasses.replace(ISAS[isa_name], fmt=WIN64)
    text = (f"@@begin mldsa_{kernel}_{isa_name} {frame.marker()}\n" + "\n".join(body) +
            f"\n@@end mldsa_{kernel}_{isa_name} vzeroupper={int(isa.vex)}\n")
    return WIN64.finish(isa, text, {kernel: nargs})


class Flavours(unittest.TestCase):
    def test_arguments_from_the_declarations(self):
        n = kernel_arguments()
        self.assertEqual(n["add"], 3)
        self.assertEqual(n["ntt"], 1)
        self.assertEqual(n["rej_uniform"], 4)
        self.assertEqual(n["keccak_f1600_batch"], 1)

    def test_win64_saves_what_the_body_names(self):
        text = win64("avx2", ["    vpaddd %ymm7, %ymm1, %ymm9", "    mov %esi, %eax"])
        saved = re.findall(r"vmovdqa %xmm(\d+), \d+\(%rsp\)", text)
        self.assertEqual(saved, ["7", "9"])
        self.assertIn("push %rdi", text)
        self.assertIn("push %rsi", text)
        self.assertIn("mov %r8, %rdx", text)
        self.assertNotIn("mov %r9, %rcx", text)       # three arguments

    def test_win64_keeps_rsp_aligned(self):
        """After the pushes and the allocation %rsp is 16-byte aligned (movdqa saves)."""
        for path in sorted((OUT / "win64").glob("*/*.S")):
            for entry in re.findall(r"endbr64\n(.*?)\.seh_endprologue", path.read_text(), re.S):
                pushes = entry.count("push ")
                alloc = sum(int(a) for a in re.findall(r"sub \$(\d+), %rsp", entry))
                self.assertEqual((8 + 8 * pushes + alloc) % 16, 0, path)

    def test_win64_refuses(self):
        with self.assertRaisesRegex(ValueError, "red zone"):
            win64("sse2", ["    movdqu %xmm0, -16(%rsp)"])
        with self.assertRaisesRegex(ValueError, "stack arguments"):
            win64("sse2", ["    nop"], nargs=5)

    def test_win64_frame_pointer(self):
        text = win64("avx2", ["    vpxor %ymm6, %ymm6, %ymm6"],
                     Frame(("%rbp",), 800, True, 32), kernel="keccak_f1600_batch", nargs=1)
        self.assertIn(".seh_setframe %rbp, 0", text)
        self.assertIn("lea ", text)
        self.assertLess(text.index(".seh_endprologue"), text.index("sub $800, %rsp"))

    def test_macho_spellings(self):
        text = (OUT / "macos" / "neon" / "ntt.S").read_text()
        self.assertNotIn(":lo12:", text)
        self.assertNotIn(".type", text)
        self.assertRegex(text, r"adrp x10, L\w+@PAGE")
        self.assertIn(".private_extern _mldsa_ntt_neon", text)

    def test_every_flavour_marks_bodies(self):
        for path in sorted(OUT.rglob("*.S")):
            text = path.read_text()
            c = "//" if "neon" in path.parts else "#"
            self.assertEqual(text.count(f"\n{c} body\n"), text.count(f"\n{c} end of body\n"), path)
            self.assertGreater(text.count(f"\n{c} body\n"), 0, path)


if __name__ == "__main__":
    unittest.main()
