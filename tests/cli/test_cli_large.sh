#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Messages of any size in constant memory: `mldsa sign` and `mldsa verify` stream the
# message through the mu interface, so a 1 GiB file (sparse: truncate -s 1G, no disk
# space) is signed and verified (ML-DSA-87, the largest set) with a peak RSS below 16 MiB
# each, as /usr/bin/time -v measures it (Debian package time). The signature verifies,
# and once a byte in the middle of the file is changed it does not (exit 1). Prints the
# peak RSS and the times of each run, and of a verify of an empty message for comparison.
# Skipped (77) under AddressSanitizer, whose shadow memory and quarantine make the RSS
# the sanitizer's, not the tool's.
#   test_cli_large.sh MLDSA_CLI [SIZE]     SIZE for truncate -s, default 1G
set -uo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
size=${2:-1G}
limit_kib=16384
if { ldd "$cli" 2>/dev/null | grep libasan >/dev/null; } || nm "$cli" 2>/dev/null | grep ' __asan_init' >/dev/null; then
  echo "skipped: $cli is built with AddressSanitizer; its RSS is the sanitizer's"
  exit 77
fi
if [ ! -x /usr/bin/time ]; then
  echo "FAIL: /usr/bin/time is missing (Debian package time; ci/install-deps installs it)"
  exit 1
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
failed=0

# measure LABEL WANT-STATUS COMMAND...: run under /usr/bin/time -v, print the figures,
# check the exit status and the peak RSS
measure() {
  local label=$1 want=$2
  shift 2
  /usr/bin/time -v -o "$d/time" "$@" >"$d/out" 2>"$d/err"
  local rc=$?
  local rss wall user sys
  rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$d/time")
  wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$d/time")
  user=$(sed -n 's/^[[:space:]]*User time (seconds): //p' "$d/time")
  sys=$(sed -n 's/^[[:space:]]*System time (seconds): //p' "$d/time")
  printf '%-34s peak RSS %6s KiB (%s MiB), %s wall, %s s user, %s s sys\n' "$label:" "$rss" \
    "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" "$wall" "$user" "$sys"
  if [ "$rc" != "$want" ]; then
    echo "FAIL: $label: exit $rc, want $want"; head -3 "$d/err"; failed=$((failed + 1))
  elif [ -z "$rss" ] || [ "$rss" -ge $limit_kib ]; then
    echo "FAIL: $label: peak RSS ${rss:-?} KiB, want below $limit_kib KiB"; failed=$((failed + 1))
  fi
}

"$cli" keygen --param 87 --out "$d/key.pem" --pubout "$d/pub.pem" || exit 1
truncate -s "$size" "$d/big" || exit 1
: >"$d/empty"
bytes=$(stat -c %s "$d/big")
echo "message: $bytes bytes (sparse file), ML-DSA-87, arithmetic $("$cli" isa)"

"$cli" sign --key "$d/key.pem" --in "$d/empty" --out "$d/empty.sig" --deterministic || exit 1
measure "verify, empty message" 0 "$cli" verify --pub "$d/pub.pem" --in "$d/empty" --sig "$d/empty.sig"
measure "sign $size" 0 "$cli" sign --key "$d/key.pem" --in "$d/big" --out "$d/big.sig" --context large
measure "verify $size" 0 "$cli" verify --pub "$d/pub.pem" --in "$d/big" --sig "$d/big.sig" --context large
grep -q "signature OK" "$d/out" || { echo "FAIL: verify $size: no \"signature OK\""; failed=$((failed + 1)); }
# one byte in the middle changed: the signature no longer verifies
printf x | dd of="$d/big" bs=1 seek=$((bytes / 2)) conv=notrunc status=none || exit 1
measure "verify $size, 1 byte changed" 1 "$cli" verify --pub "$d/pub.pem" --in "$d/big" --sig "$d/big.sig" --context large

if [ $failed != 0 ]; then
  echo "test_cli_large: $failed FAILED"
  exit 1
fi
echo "test_cli_large: a $bytes-byte message signed and verified, each run below $limit_kib KiB peak RSS"
