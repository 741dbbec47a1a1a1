# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A prover for the generated kernels in asm_out/: it reads the .S text, gives every
instruction a bit-vector semantics (semantics.py), executes each kernel symbolically
(machine.py, executor.py) and discharges per-kernel obligations with Z3 (kernels.py)."""
