#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# No freed heap block of `mldsa keygen`, `mldsa sign` or `mldsa pubkey` still holds key
# material: the free/realloc shim (free_scan.c, LD_PRELOAD) scans each block before it is
# freed for any 16-byte window of the seed, of K, of s1 || s2 || t0, and of the base64 text
# of every PEM private key, for each parameter set, each form and each format.
# Self-test first: a program that frees a key file's bytes unwiped must be caught.
#   test_cli_free_scan.sh MLDSA_CLI SHIM.so LEAKY
set -euo pipefail
cli=$1 shim=$2 leaky=$3
# Under AddressSanitizer (ci/sanitizers) the allocator is ASan's and cannot be interposed:
# the test runs in the normal build (make test) only.
if { ldd "$cli" 2>/dev/null | grep libasan >/dev/null; } || nm "$cli" 2>/dev/null | grep ' __asan_init' >/dev/null; then
  echo "skipped: $cli is built with AddressSanitizer, whose allocator the shim cannot interpose"
  exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
report=$d/report
export MLDSA_FREE_SCAN_REPORT=$report

findings() { grep -c 'holds key material' "$report" || true; }
summary() {
  awk '/ scanned,/ { p++; b += $2; n += substr($4, 2) } END { printf "%d processes, %d freed blocks (%d bytes) scanned", p, b, n }' "$report"
}

# Self-test: the shim finds an unwiped key.
head -c 4032 /dev/urandom >"$d/secret.bin"
: >"$report"
MLDSA_FREE_SCAN_SECRETS=$d/secret.bin LD_PRELOAD=$shim "$leaky" "$d/secret.bin" >/dev/null
if [ "$(findings)" -lt 1 ]; then
  echo "FAIL: self-test: the shim did not see an unwiped key in a freed block"; cat "$report"; exit 1
fi
echo "self-test: an unwiped key in a freed block is found ($(findings) finding)"

printf '%s' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >"$d/seed.hex"
head -c 1000 /dev/urandom >"$d/msg"
runs=0
for set in 44 65 87; do
  # reference material, made without the shim
  "$cli" keygen --param $set --seed-file "$d/seed.hex" --form seed --format raw --out "$d/seed.raw" --force
  "$cli" keygen --param $set --seed-file "$d/seed.hex" --form expanded --format raw --out "$d/sk.raw" --force
  head -c 64 "$d/sk.raw" | tail -c 32 >"$d/K.raw"
  tail -c +129 "$d/sk.raw" >"$d/s.raw"
  secrets=$d/seed.raw:$d/K.raw:$d/s.raw
  for form in seed expanded both; do
    "$cli" keygen --param $set --seed-file "$d/seed.hex" --form $form --out "$d/ref-$form.pem" --force
    grep -v -- '-----' "$d/ref-$form.pem" >"$d/b64-$form"
    secrets=$secrets:$d/b64-$form
  done
  export MLDSA_FREE_SCAN_SECRETS=$secrets
  : >"$report"
  for form in seed expanded both; do
    for format in pem der raw; do
      [ $form = both ] && [ $format = raw ] && continue
      key=$d/key-$form.$format
      rm -f "$key"
      LD_PRELOAD=$shim "$cli" keygen --param $set --seed-file "$d/seed.hex" --form $form --format $format --out "$key" --pubout "$d/pub.$format" --force
      LD_PRELOAD=$shim "$cli" keygen --param $set --seed-file - --form $form --format $format <"$d/seed.hex" >/dev/null
      pset=; [ $format = raw ] && [ $form = seed ] && pset="--param $set"
      LD_PRELOAD=$shim "$cli" sign --key "$key" $pset --in "$d/msg" --out "$d/sig" --context free-scan --force
      LD_PRELOAD=$shim "$cli" sign --key "$key" $pset --in "$d/msg" --out "$d/sig.det" --deterministic --force
      LD_PRELOAD=$shim "$cli" sign --key - $pset --in "$d/msg" --out "$d/sig.det" --deterministic --force <"$key"
      LD_PRELOAD=$shim "$cli" pubkey --in "$key" $pset --out "$d/pub2.pem" --force
      "$cli" verify --pub "$d/pub2.pem" --in "$d/msg" --sig "$d/sig" --context free-scan >/dev/null
      runs=$((runs + 6))
    done
  done
  # a key refused on load (a flipped bit in K of a "both" key) must be wiped too
  "$cli" keygen --param $set --seed-file "$d/seed.hex" --form both --format der --out "$d/both.der" --force
  python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-4000 if len(b) > 4000 else -100] ^= 1; open(sys.argv[2], "wb").write(b)' "$d/both.der" "$d/bad.der"
  if LD_PRELOAD=$shim "$cli" sign --key "$d/bad.der" --in "$d/msg" --out "$d/sig" 2>/dev/null; then
    echo "FAIL: ML-DSA-$set: an inconsistent both key signed"; exit 1
  fi
  runs=$((runs + 1))
  n=$(findings)
  echo "ML-DSA-$set: $(summary), $n with key material"
  if [ "$n" != 0 ]; then
    echo "FAIL: ML-DSA-$set: freed blocks still hold key material:"; grep 'holds key material' "$report" | head; exit 1
  fi
done
echo "free-scan: $runs runs of keygen/sign/pubkey under the shim, no freed block holds key material"
