#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The command-line tool as a user meets it: help and version, exit codes (0 success, 1 bad
# signature, 2 anything else), secret keys created 0600 and never overwritten without
# --force, strict hex, - for stdin/stdout, detection of PEM/DER/raw keys and --param as a
# check, a secret key with a corrupted tr refused before signing, a message of several
# read chunks streamed from a file and from a pipe to the same signature, and error
# messages that name the file or option with what was expected and found.
#   test_cli.sh MLDSA_CLI
set -uo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
umask 022
passed=0 failed=0
. "$here/expect.sh"
echo hello >msg

expect 0 "--help" "usage: mldsa <command>" -- "$cli" --help
expect 0 "-h" "Exit status" -- "$cli" -h
expect 0 "--version" "^mldsa \(libmldsa\) [0-9]" -- "$cli" --version
for c in keygen pubkey sign verify isa; do
  expect 0 "$c --help" "usage: mldsa $c" -- "$cli" $c --help
done
expect 2 "no command" "usage" -- "$cli"
expect 2 "unknown command" 'unknown command "frob"' -- "$cli" frob
expect 2 "unknown option" "unknown option --pk" -- "$cli" keygen --pk x
expect 2 "option twice" "--param given twice" -- "$cli" keygen --param 44 --param 65
expect 2 "missing value" "--out needs a value" -- "$cli" keygen --out
expect 2 "bad --param" '--param: "45", expected 44, 65 or 87' -- "$cli" keygen --param 45

# keygen defaults: ML-DSA-65, PEM, seed form, 0600
expect 0 "keygen" -- "$cli" keygen --out k.pem --pubout p.pem
expect 0 "default form is the seed: 128-byte PEM" -- test "$(wc -c <k.pem)" = 128
expect 0 "default set 65" -- "$cli" pubkey --in k.pem --param 65 --out /dev/null
expect 0 "private key mode 0600" -- test "$(stat -c %a k.pem)" = 600
expect 0 "public key mode 0644" -- test "$(stat -c %a p.pem)" = 644
expect 2 "no overwrite" "k.pem: file exists.*--force" -- "$cli" keygen --out k.pem
chmod 644 k.pem
expect 0 "--force replaces" -- "$cli" keygen --out k.pem --force --pubout p.pem
expect 0 "replaced file is 0600" -- test "$(stat -c %a k.pem)" = 600
expect 0 "keygen to stdout" -- bash -c "'$cli' keygen --param 44 --form both --format der > k44.der"
expect 0 "sign from stdin to stdout" -- bash -c "'$cli' sign --key k44.der < msg > s44"
expect 0 "verify" "signature OK" -- "$cli" verify --pub k44.der --in msg --sig s44
expect 0 "verify, key from stdin" -- bash -c "'$cli' verify --pub - --in msg --sig s44 < k44.der"
expect 2 "two stdins" "both standard input" -- "$cli" sign --key - --in -

# exit codes of verify
"$cli" sign --key k.pem --in msg --out sig --context ctx
expect 0 "verify with context" -- "$cli" verify --pub p.pem --in msg --sig sig --context ctx
expect 1 "wrong context: exit 1" "does not verify" -- "$cli" verify --pub p.pem --in msg --sig sig
echo other >msg2
expect 1 "other message: exit 1" -- "$cli" verify --pub p.pem --in msg2 --sig sig --context ctx
head -c 100 sig >short
expect 2 "short signature: exit 2" "short: 100 bytes, expected 3309 for an ML-DSA-65 signature" -- "$cli" verify --pub p.pem --in msg --sig short
expect 2 "missing file" "--in nosuch: cannot open" -- "$cli" verify --pub p.pem --in nosuch --sig sig

# a message of several 64 KiB read chunks, streamed from a file and from a pipe (short reads)
head -c 200003 /dev/urandom >big
"$cli" sign --key k.pem --in big --out big.sig --deterministic
expect 0 "from a pipe: the same deterministic signature" -- bash -c "cat big | '$cli' sign --key k.pem --deterministic | cmp - big.sig"
expect 0 "verify from a pipe" "signature OK" -- bash -c "cat big | '$cli' verify --pub p.pem --sig big.sig"
head -c 200002 big >big.short
expect 1 "one byte short: exit 1" -- "$cli" verify --pub p.pem --in big.short --sig big.sig

# strict hex
expect 0 "--context-hex" -- "$cli" verify --pub p.pem --in msg --sig sig --context-hex 637478
expect 2 "hex with a non-digit" "'g' at position 2" -- "$cli" sign --key k.pem --in msg --out x --context-hex 0g
expect 2 "hex with a sign" "'-' at position 1" -- "$cli" sign --key k.pem --in msg --out x --context-hex -1
expect 2 "odd hex" "3 hex digits, expected an even number" -- "$cli" sign --key k.pem --in msg --out x --context-hex 636
expect 2 "context too long" "256 bytes, at most 255" -- "$cli" sign --key k.pem --in msg --out x --context "$(head -c 256 /dev/zero | tr '\0' a)"
printf '%s' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >seed.hex
printf '%s\n' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >seed.hexnl
printf '%s' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g >seed.bad
expect 0 "seed file" -- "$cli" keygen --seed-file seed.hex --out s1.pem
expect 0 "seed file with newline" -- "$cli" keygen --seed-file seed.hexnl --out s2.pem
expect 0 "same seed, same key" -- cmp s1.pem s2.pem
expect 2 "bad seed hex" "'g' at position 64" -- "$cli" keygen --seed-file seed.bad --out s3.pem
expect 2 "short seed" "31 bytes, expected 32 raw bytes or 64 hex digits" -- bash -c "head -c 31 /dev/zero | '$cli' keygen --seed-file - --out s4.pem"

# detection and --param as a check
"$cli" keygen --param 87 --form expanded --format raw --out k87.raw
expect 0 "raw expanded key detected" -- "$cli" sign --key k87.raw --in msg --out s87
expect 2 "--param mismatch" "ML-DSA-87 key, but --param 44" -- "$cli" sign --key k87.raw --param 44 --in msg --out x
expect 2 "raw seed needs --param" "a raw seed; say which set" -- bash -c "'$cli' keygen --form seed --format raw | '$cli' sign --key - --in /dev/null --out x"
expect 2 "public key as a private key" 'PEM without a "PRIVATE KEY" block \(its first block is "PUBLIC KEY"\)' -- "$cli" sign --key p.pem --in msg --out x
expect 2 "not a key" "7 bytes, neither PEM, DER nor a raw key" -- bash -c "printf 'garbage' >g; '$cli' sign --key g --in msg --out x"
expect 2 "raw both" "--format raw holds one form" -- "$cli" keygen --form both --format raw --out x
# a corrupted tr (byte 64 of the expanded key) is refused before signing
python3 -c 'import sys; b = bytearray(open("k87.raw", "rb").read()); b[64] ^= 1; open("bad.raw", "wb").write(b)'
expect 2 "corrupted tr refused" "fails the import check" -- "$cli" sign --key bad.raw --in msg --out x
expect 0 "no signature written" -- test ! -e x
python3 -c 'import sys; b = bytearray(open("k44.der", "rb").read()); b[-50] ^= 1; open("bad.der", "wb").write(b)'
expect 2 "inconsistent both refused" "seed and expanded key" -- "$cli" sign --key bad.der --in msg --out x
python3 -c 'import sys; b = bytearray(open("k44.der", "rb").read()); b[19] = 0x20; open("badoid.der", "wb").write(b)'
expect 2 "another OID named" "OID 2.16.840.1.101.3.4.3.32, expected an ML-DSA OID" -- "$cli" sign --key badoid.der --in msg --out x

echo "test_cli: $passed passed, $failed failed"
[ $failed = 0 ]
