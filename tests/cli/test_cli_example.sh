#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# examples/keys_roundtrip.c (built with its key decoders wrapped, tests/cli/roundtrip_wrap.c)
# exits 0 on a true round trip, and on every kind of mismatch between what it wrote and
# what it read back exits non-zero with a line naming what differs (never "success").
#   test_cli_example.sh KEYS_ROUNDTRIP_WRAPPED
set -uo pipefail
ex=$1
passed=0 failed=0
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
if "$ex" >"$d/out" 2>"$d/err"; then
  passed=$((passed + 1))
else
  echo "FAIL: the true round trip exits $?"; cat "$d/err"; failed=$((failed + 1))
fi
for c in sk seed noseed pk set; do
  MLDSA_TEST_CORRUPT=$c "$ex" >"$d/out" 2>"$d/err"
  rc=$?
  if [ $rc = 0 ]; then
    echo "FAIL: $c changed: exit 0"; failed=$((failed + 1))
  elif grep -q success "$d/err" || ! grep -q "round trip: the .* read back differs" "$d/err"; then
    echo "FAIL: $c changed: exit $rc, but stderr says:"; cat "$d/err"; failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "test_cli_example: $passed passed, $failed failed"
[ $failed = 0 ]
