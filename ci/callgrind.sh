#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of one keygen, one sign and one verify per
# parameter set and per ISA valgrind can run (valgrind has no AVX-512). Only the operation
# itself is counted (--toggle-collect on mldsa-bench's once_<op>); fixed seed and message,
# so the counts are deterministic. Sign also reports its number of rejection-loop attempts
# (calls of ExpandMask).
#   ci/callgrind.sh [--json] [build-dir]
set -euo pipefail
json=0
build=build
for a in "$@"; do
  case "$a" in
    --json) json=1 ;;
    *) build=$a ;;
  esac
done
bench="$build/mldsa-bench"
[ -x "$bench" ] || { echo "callgrind.sh: $bench not built (run make)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind missing (apt-get install valgrind)" >&2; exit 1; }

isas=$("$build/mldsa" isa >/dev/null 2>&1; "$bench" --json --runs 10 --param 44 2>/dev/null |
       grep -o '"isa": "[a-z0-9]*", "op": "keygen"' | sed 's/"isa": "\([a-z0-9]*\)".*/\1/' | grep -v avx512 || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

first=1
[ $json = 1 ] && echo "[" || printf "callgrind instructions (one operation, fixed inputs)\n  %-9s %-7s %-7s %12s %s\n" set isa op instructions note
for isa in $isas; do
  for p in 44 65 87; do
    for op in keygen sign verify; do
      out="$tmp/cg.$isa.$p.$op"
      valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
        --toggle-collect="once_$op" "$bench" --once "$op" --isa "$isa" --param "$p" >/dev/null 2>"$out.log" ||
        { cat "$out.log" >&2; exit 1; }
      ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$out")
      note=""
      if [ "$op" = sign ]; then
        attempts=$(awk '
          /^c?fn=\([0-9]+\) / { id=$1; sub(/^c?fn=/, "", id); name[id]=$2 }
          /^cfn=\([0-9]+\)/ { id=$1; sub(/^cfn=/, "", id); cur=name[id] }
          /^calls=/ { split($1, c, "="); if (cur ~ /expand_mask$/) n += c[2]; cur="" }
          END { print n+0 }' "$out")
        note="attempts=$attempts"
      fi
      if [ $json = 1 ]; then
        [ $first = 1 ] || echo ","
        printf '  {"param": %s, "isa": "%s", "op": "%s", "instructions": %s%s}' "$p" "$isa" "$op" "$ir" \
          "$( [ -n "$note" ] && echo ", \"attempts\": ${note#attempts=}")"
      else
        printf "  ML-DSA-%s  %-7s %-7s %12s %s\n" "$p" "$isa" "$op" "$ir" "$note"
      fi
      first=0
    done
  done
done
[ $json = 1 ] && printf "\n]\n"
exit 0
