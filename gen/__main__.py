# SPDX-License-Identifier: Apache-2.0 OR MIT
"""python3 -m gen         write asm_out/ from templates/
python3 -m gen --check  write nothing; print a unified diff and exit 1 where asm_out/
                        differs from what would be written (including stray files)"""

import argparse
import difflib
import sys

from .outputs import OUT, all_outputs


def main() -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen")
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args()

    wanted = all_outputs()
    present = {str(p.relative_to(OUT)) for p in OUT.rglob("*")
               if p.is_file() and p.name != "README.md"}

    if args.check:
        bad = 0
        for rel in sorted(set(wanted) | present):
            path = OUT / rel
            old = path.read_text() if path.exists() else ""
            new = wanted.get(rel, "")
            if old != new:
                bad += 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True),
                    f"a/asm_out/{rel}", f"b/asm_out/{rel}"))
        if bad:
            print(f"gen --check: {bad} file(s) in asm_out/ differ from the generator; "
                  "run make regen", file=sys.stderr)
            return 1
        print(f"gen --check: {len(wanted)} generated files match")
        return 0

    for rel in present - set(wanted):
        (OUT / rel).unlink()
    for rel, text in sorted(wanted.items()):
        path = OUT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    print(f"gen: wrote {len(wanted)} files under asm_out/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
