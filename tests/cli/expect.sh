# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by the CLI tests: counts in $passed and $failed.
# expect STATUS DESCRIPTION [PATTERN] -- COMMAND...: the exit status, and PATTERN (an ERE)
# in stderr or stdout
expect() {
  local want=$1 what=$2 pattern=
  shift 2
  if [ "$1" != -- ]; then pattern=$1; shift; fi
  shift
  "$@" >out 2>err
  local rc=$?
  if [ $rc != "$want" ]; then
    echo "FAIL: $what: exit $rc, want $want"; head -3 err; failed=$((failed + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" err out; then
    echo "FAIL: $what: output lacks /$pattern/:"; cat err out | head -3; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

# check DESCRIPTION COMMAND...: the command succeeds
check() {
  local what=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; failed=$((failed + 1)); fi
}
