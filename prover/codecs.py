# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The byte-format kernels with their obligations: the decoders (unpack_z) and the
encoders (pack_w1), by kernel name."""
from . import decoders, encoders

OBLIGATIONS = {**decoders.OBLIGATIONS, **encoders.OBLIGATIONS}
