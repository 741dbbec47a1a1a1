#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# mldsa verify --batch LIST: pairs of good, tampered, wrong-context, short and missing
# signatures and messages (names with spaces, an empty message, one that spans several
# 64 KiB read chunks), checked line by line against the expected output; the exit codes
# (0 all verify, 1 some do not, 2 any ERROR or a bad list, key or option); every kind of
# malformed list refused with its file and line number before anything is verified;
# comments, empty lines and a last line without LF; the list from standard input; the
# options that exclude each other; the verdicts equal to single verifies; every set.
#   test_cli_batch.sh MLDSA_CLI
set -uo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
passed=0 failed=0
# expect STATUS DESCRIPTION [STDERR-PATTERN] -- COMMAND...
expect() {
  local want=$1 what=$2 pattern=
  shift 2
  if [ "$1" != -- ]; then pattern=$1; shift; fi
  shift
  "$@" >out 2>err
  local rc=$?
  if [ $rc != "$want" ]; then
    echo "FAIL: $what: exit $rc, want $want"; head -3 err out; failed=$((failed + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" err; then
    echo "FAIL: $what: stderr lacks /$pattern/:"; head -3 err; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}
# same_output DESCRIPTION EXPECTED-FILE: stdout of the last expect is exactly that
same_output() {
  if cmp -s out "$2"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $1: output differs:"; diff "$2" out | head -10; failed=$((failed + 1))
  fi
}
flip() { # flip FILE OFFSET OUT
  python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[int(sys.argv[2])] ^= 1; open(sys.argv[3], "wb").write(b)' "$@"
}

"$cli" keygen --param 65 --out k.pem --pubout p.pem
mkdir msgs sigs
echo hello >msgs/m1
echo "a message whose name has spaces" >"msgs/m 2 with spaces"
: >msgs/empty
head -c 200003 /dev/urandom >msgs/big # several of the 64 KiB read chunks
echo other >msgs/m5
for m in m1 "m 2 with spaces" empty big; do
  "$cli" sign --key k.pem --in "msgs/$m" --out "sigs/$(echo "$m" | tr ' ' _).sig" --context batch
done
"$cli" sign --key k.pem --in msgs/m5 --out sigs/m5.other-context.sig --context other
flip sigs/m1.sig 100 sigs/m1.tampered.sig
head -c 100 sigs/m1.sig >sigs/short.sig

# ---- all good: exit 0, one OK line per pair in the list's order
cat >good.list <<'EOF'
# signatures of msgs/, context "batch"
sigs/m1.sig msgs/m1

sigs/m_2_with_spaces.sig msgs/m 2 with spaces
sigs/empty.sig msgs/empty
#sigs/m1.tampered.sig msgs/m1   (a comment, not a pair)
sigs/big.sig msgs/big
EOF
printf 'OK msgs/m1\nOK msgs/m 2 with spaces\nOK msgs/empty\nOK msgs/big\n' >good.want
expect 0 "all good" -- "$cli" verify --pub p.pem --batch good.list --context batch
same_output "all good" good.want
expect 0 "stderr is empty when all verify" -- bash -c "'$cli' verify --pub p.pem --batch good.list --context batch 2>&1 >/dev/null | wc -c | grep -qx 0"
expect 0 "--context-hex" -- "$cli" verify --pub p.pem --batch good.list --context-hex 6261746368
same_output "--context-hex" good.want
expect 0 "list from standard input" -- bash -c "'$cli' verify --pub p.pem --batch - --context batch <good.list"
same_output "list from standard input" good.want
printf 'sigs/m1.sig msgs/m1' >nolf.list
expect 0 "last line without LF" -- "$cli" verify --pub p.pem --batch nolf.list --context batch
printf 'OK msgs/m1\n' >nolf.want
same_output "last line without LF" nolf.want
cp sigs/m1.sig "sigs/m1.sig#x"
printf 'sigs/m1.sig#x msgs/m1\n' >hash.list
expect 0 "# inside a line is part of a name" -- "$cli" verify --pub p.pem --batch hash.list --context batch

# ---- wrong context: every pair fails, exit 1
printf 'FAIL msgs/m1: the signature does not verify\nFAIL msgs/m 2 with spaces: the signature does not verify\nFAIL msgs/empty: the signature does not verify\nFAIL msgs/big: the signature does not verify\n' >wrongctx.want
expect 1 "wrong context: exit 1" "4 pairs: 0 OK, 4 FAIL .*0 ERROR" -- "$cli" verify --pub p.pem --batch good.list --context other
same_output "wrong context" wrongctx.want
expect 1 "no context: exit 1" -- "$cli" verify --pub p.pem --batch good.list

# ---- tampered and wrong-context pairs among good ones: exit 1, the others OK
cat >mixed.list <<'EOF'
sigs/m1.sig msgs/m1
sigs/m1.tampered.sig msgs/m1
sigs/m5.other-context.sig msgs/m5
sigs/m1.sig msgs/m5
sigs/big.sig msgs/big
EOF
printf 'OK msgs/m1\nFAIL msgs/m1: the signature does not verify\nFAIL msgs/m5: the signature does not verify\nFAIL msgs/m5: the signature does not verify\nOK msgs/big\n' >mixed.want
expect 1 "tampered and wrong-context pairs: exit 1" "5 pairs: 2 OK, 3 FAIL .*0 ERROR" -- "$cli" verify --pub p.pem --batch mixed.list --context batch
same_output "tampered and wrong-context pairs" mixed.want

# ---- per-pair errors: ERROR lines, the batch goes on, exit 2 (also with a FAIL)
cat >errors.list <<'EOF'
sigs/m1.sig msgs/nosuch
sigs/nosuch.sig msgs/m1
sigs/short.sig msgs/m1
sigs/m1.sig msgs
sigs/m1.tampered.sig msgs/m1
sigs/m1.sig msgs/m1
EOF
cat >errors.want <<'EOF'
ERROR msgs/nosuch: cannot open: No such file or directory
ERROR msgs/m1: signature sigs/nosuch.sig: cannot open: No such file or directory
ERROR msgs/m1: signature sigs/short.sig: 100 bytes, expected 3309 for an ML-DSA-65 signature
ERROR msgs: cannot read: Is a directory
FAIL msgs/m1: the signature does not verify
OK msgs/m1
EOF
expect 2 "missing, short and unreadable files: exit 2" "6 pairs: 1 OK, 1 FAIL .*4 ERROR" -- "$cli" verify --pub p.pem --batch errors.list --context batch
same_output "missing, short and unreadable files" errors.want
# one pair: the count says "1 pair", not "1 pairs"
echo "sigs/m1.tampered.sig msgs/m1" >one.list
expect 1 "one failing pair: exit 1" "one.list: 1 pair: 0 OK, 1 FAIL" -- "$cli" verify --pub p.pem --batch one.list --context batch

# ---- the verdicts are those of single verifies
while read -r sig msg; do
  "$cli" verify --pub p.pem --sig "$sig" --in "$msg" --context batch >/dev/null 2>&1
  echo $?
done <mixed.list >single.rc
sed 's/^OK .*/0/; s/^FAIL .*/1/' mixed.want >batch.rc
expect 0 "batch verdicts equal single verifies" -- cmp single.rc batch.rc

# ---- malformed lists: exit 2, the list and the line named, nothing verified
malformed() { # malformed DESCRIPTION PATTERN CONTENT (printf format)
  printf "$3" >bad.list
  expect 2 "malformed list: $1" "$2" -- "$cli" verify --pub p.pem --batch bad.list --context batch
  if [ -s out ]; then
    echo "FAIL: malformed list: $1: results printed:"; head -3 out; failed=$((failed + 1))
  fi
}
malformed "no space" "--batch bad.list line 2: no space; expected SIGNATURE-FILE MESSAGE-FILE" 'sigs/m1.sig msgs/m1\nsigs/m1.sig\n'
malformed "leading space" "line 3: begins with a space" 'sigs/m1.sig msgs/m1\n\n sigs/m1.sig msgs/m1\n'
malformed "blank line of spaces" "line 1: begins with a space" '   \nsigs/m1.sig msgs/m1\n'
malformed "two spaces" "line 1: more than one space after the signature file" 'sigs/m1.sig  msgs/m1\n'
malformed "trailing space" "line 1: ends with a space" 'sigs/m1.sig msgs/m1 \n'
malformed "no message" "line 1: no message file after the signature file" 'sigs/m1.sig \n'
malformed "CRLF" "line 1: a carriage return at byte 20; lines end with LF alone" 'sigs/m1.sig msgs/m1\r\n'
malformed "tab" "line 1: control character 0x09 at byte 12" 'sigs/m1.sig\tmsgs/m1\n'
malformed "stdin as a signature" 'line 2: "-" \(standard input\) cannot be a file of a batch' '# x\n- msgs/m1\n'
malformed "stdin as a message" 'line 1: "-" \(standard input\) cannot be a file' 'sigs/m1.sig -\n'
malformed "NUL byte" "line 2: a NUL byte; the list is a text file" 'sigs/m1.sig msgs/m1\nsigs/m1.sig ms\0gs/m1\n'
malformed "only comments" "--batch bad.list: no pairs \(only empty lines and comments\)" '# nothing\n\n'
malformed "empty file" "--batch bad.list: no pairs" ''
malformed "good lines, then a bad one" "line 4: no space" 'sigs/m1.sig msgs/m1\nsigs/m1.tampered.sig msgs/m1\nsigs/nosuch msgs/nosuch\nlast\n'
expect 2 "missing list" "--batch nosuch.list: cannot open" -- "$cli" verify --pub p.pem --batch nosuch.list
expect 2 "list is a directory" "--batch msgs: cannot read" -- "$cli" verify --pub p.pem --batch msgs

# ---- options and keys
expect 2 "--batch with --in" "--batch LIST and --in exclude each other" -- "$cli" verify --pub p.pem --batch good.list --in msgs/m1
expect 2 "--batch with --sig" "--batch LIST and --sig exclude each other" -- "$cli" verify --pub p.pem --batch good.list --sig sigs/m1.sig
expect 2 "--batch without --pub" "--pub KEY is required" -- "$cli" verify --batch good.list
expect 2 "--pub and --batch both stdin" "both standard input" -- "$cli" verify --pub - --batch -
expect 2 "--batch needs a value" "--batch needs a value" -- "$cli" verify --pub p.pem --batch
expect 2 "--batch is verify's" "unknown option --batch" -- "$cli" sign --key k.pem --batch good.list
printf 'garbage' >garbage.key
expect 2 "bad key" "garbage.key: 7 bytes, neither PEM, DER nor a raw key" -- "$cli" verify --pub garbage.key --batch good.list
expect 2 "--param mismatch" "ML-DSA-65 key, but --param 87" -- "$cli" verify --pub p.pem --param 87 --batch good.list
"$cli" keygen --param 65 --out k2.pem --pubout p2.pem
expect 1 "another key of the same set: exit 1" -- "$cli" verify --pub p2.pem --batch good.list --context batch

# ---- every parameter set, and a signature of another set
for set in 44 87; do
  "$cli" keygen --param $set --out k$set.pem --pubout p$set.pem
  "$cli" sign --key k$set.pem --in msgs/m1 --out sigs/m1.$set.sig
  "$cli" sign --key k$set.pem --in "msgs/m 2 with spaces" --out sigs/m2.$set.sig --deterministic
  printf 'sigs/m1.%s.sig msgs/m1\nsigs/m2.%s.sig msgs/m 2 with spaces\n' $set $set >set.list
  expect 0 "ML-DSA-$set" -- "$cli" verify --pub p$set.pem --batch set.list
done
printf 'sigs/m1.sig msgs/m1\n' >other-set.list
expect 2 "a 65 signature under an 87 key" -- "$cli" verify --pub p87.pem --batch other-set.list
printf 'ERROR msgs/m1: signature sigs/m1.sig: 3309 bytes, expected 4627 for an ML-DSA-87 signature\n' >other-set.want
same_output "a 65 signature under an 87 key" other-set.want

echo "test_cli_batch: $passed passed, $failed failed"
[ $failed = 0 ]
