# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The alignment each kernel contract promises for its pointer arguments: a fact of the
contracts that the machine model reads without depending on the specifications."""

# The alignment of the kernels' pointer arguments, by the name the proofs give each one (the
# bytes every address of the argument is a multiple of). src/kernels.h: a polynomial is an
# int32_t array the kernels accept unaligned (the C layer's 64-byte alignment is not part of
# the contract), so 4; the encoders' and samplers' byte buffers have none; a Keccak state is
# uint64_t, 8-byte aligned (src/fips202.h, src/fips202x.h). An argument not named here is
# taken as byte aligned.
ARG_ALIGN = {'a': 4, 'b': 4, 'c': 4, 'a0': 4, 'a1': 4, 'h': 4, 'out': 1, 'buf': 1, 's': 8}
