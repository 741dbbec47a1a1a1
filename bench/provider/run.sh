#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The provider's figures for docs/provider.md, with OpenSSL 3.5 (ci/openssl35): operations/s
# through EVP on the AVX-512 and AVX2 paths (bench/provider/speed.c, the default provider
# and libmldsa's API beside it, interleaved) and TLS 1.3 handshakes/s
# (bench/provider/tls.sh), written to OUTDIR/speed-<isa>.txt and OUTDIR/tls.txt.
#
#   bench/provider/run.sh BUILD_DIR OUTDIR [SECONDS_PER_ROUND] [ROUNDS]
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
seconds=${3:-0.3}
rounds=${4:-7}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
mapfile -t ossl < <("$root/ci/openssl35" --argv)
libdir=$(dirname "${ossl[3]}")
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
for isa in avx512 avx2; do
  {
    echo "# SPDX-License-Identifier: Apache-2.0 OR MIT"
    echo "# CPU: $cpu"
    MLDSA_ISA=$isa OPENSSL_CONF=/dev/null "$libdir/ld-linux-x86-64.so.2" --library-path "$libdir" \
      "$build/provider/provider_speed" "$build/provider" "$seconds" "$rounds"
  } | tee "$out/speed-$isa.txt"
done
{
  echo "# SPDX-License-Identifier: Apache-2.0 OR MIT"
  bash "$root/bench/provider/tls.sh" "$build/provider" 4 3
} | tee "$out/tls.txt"
