#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Instruction counts (valgrind --tool=callgrind) of one keygen, one sign and one verify per
# parameter set and per ISA valgrind can run (it has no AVX-512). Only the operation itself
# is counted (--toggle-collect on mldsa-bench's once_<op>); fixed seed and message, so the
# counts are deterministic. "sign" is one signature of one fixed message, with its number
# of rejection-loop attempts (calls of ExpandMask); "sign_mean20" is the mean over twenty
# different messages, the figure comparable to other libraries' averages.
#   ci/callgrind.sh [--json] [--param P] [--isa NAME] [build-dir]
set -euo pipefail
json=0 build=build params="44 65 87" only_isa=""
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --param) params=$2; shift ;;
    --isa) only_isa=$2; shift ;;
    *) build=$1 ;;
  esac
  shift
done
bench="$build/mldsa-bench"
[ -x "$bench" ] || { echo "callgrind.sh: $bench not built (run make)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind missing (apt-get install valgrind)" >&2; exit 1; }
isas=$("$bench" --list-isas | grep -vx avx512)
[ -z "$only_isa" ] || isas=$only_isa
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count FILE: total instructions; calls FILE SUFFIX: calls of functions named *SUFFIX
count() { awk '/^(summary|totals):/ {print $2; exit}' "$1"; }
calls() {
  awk -v suffix="$2" '
    /^c?fn=\([0-9]+\) / { id=$1; sub(/^c?fn=/, "", id); name[id]=$2 }
    /^cfn=\([0-9]+\)/ { id=$1; sub(/^cfn=/, "", id); cur=name[id] }
    /^calls=/ { split($1, c, "="); if (substr(cur, length(cur) - length(suffix) + 1) == suffix) n += c[2]; cur="" }
    END { print n+0 }' "$1"
}

first=1
if [ $json = 1 ]; then echo "["; else
  printf "callgrind instructions (one operation, fixed inputs)\n  %-9s %-7s %-12s %12s  %s\n" set isa op instructions note
fi
for isa in $isas; do
  for p in $params; do
    for op in keygen sign sign20 verify; do
      out="$tmp/cg.$isa.$p.$op"
      valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
        --toggle-collect="once_$op" "$bench" --once "$op" --isa "$isa" --param "$p" >/dev/null 2>"$out.log" ||
        { cat "$out.log" >&2; exit 1; }
      ir=$(count "$out") name=$op extra="" note=""
      case $op in
        sign)
          attempts=$(calls "$out" expand_mask_$isa)
          extra=", \"attempts\": $attempts" note="attempts=$attempts" ;;
        sign20)
          attempts=$(calls "$out" expand_mask_$isa)
          ir=$(( (ir + 10) / 20 )) name=sign_mean20
          mean=$(awk -v a="$attempts" 'BEGIN { printf "%.2f", a / 20 }')
          extra=", \"attempts_mean\": $mean" note="mean of 20 messages, attempts=$mean" ;;
      esac
      if [ $json = 1 ]; then
        [ $first = 1 ] || echo ","
        printf '  {"param": %s, "isa": "%s", "op": "%s", "instructions": %s%s}' "$p" "$isa" "$name" "$ir" "$extra"
      else
        printf "  ML-DSA-%s  %-7s %-12s %12s  %s\n" "$p" "$isa" "$name" "$ir" "$note"
      fi
      first=0
    done
  done
done
[ $json = 0 ] || printf "\n]\n"
