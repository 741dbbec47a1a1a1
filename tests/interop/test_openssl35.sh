#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Interop with OpenSSL 3.5 (ci/openssl35: Debian 13's binaries in a private root), both
# ways, for ML-DSA-44, -65 and -87:
#   openssl -> libmldsa: keys from `openssl genpkey` in each private form (seed-only,
#     priv-only, seed-priv) in PEM and DER, and their public keys, decoded by the library
#     (keyinfo) and by the CLI (whose public key must be byte-identical to openssl's);
#     openssl's signatures verified by the CLI;
#   libmldsa -> openssl: CLI keys in each form (seed, expanded, both) and format (PEM, DER)
#     read by `openssl pkey` with nothing on stderr, the same public key derived; the CLI's
#     signatures verified by openssl;
#   signatures of a 200,003-byte message (several of the CLI's 64 KiB read chunks, each
#     absorbed into the streaming mu) with an empty and a non-empty context; deterministic
#     signatures of both tools byte-identical; `both` keys with one flipped bit (seed or
#     expanded half) refused by openssl, by the library and by the CLI.
# Never skipped: when OpenSSL 3.5 cannot be fetched the test fails.
#   test_openssl35.sh MLDSA_CLI KEYINFO
set -uo pipefail
cli=$1 keyinfo=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$("$here/../../ci/openssl35" --root) || { echo "FAIL: OpenSSL 3.5 is not available"; exit 1; }
lib=$root/usr/lib/x86_64-linux-gnu
o() {
  OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$lib/ossl-modules \
    "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$root/usr/bin/openssl" "$@"
}
echo "$(o version) from $root"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# 200,003 bytes: the CLI streams a message in 64 KiB chunks, so this crosses chunk borders
head -c 200003 /dev/urandom >"$d/msg"

declare -A count
failures=0
# check DIRECTION DESCRIPTION COMMAND...: the command must succeed
check() {
  local dir=$1 what=$2
  shift 2
  if "$@" >"$d/out" 2>"$d/err"; then
    count[$dir]=$((${count[$dir]:-0} + 1))
  else
    echo "FAIL: ML-DSA-$set: $what"
    head -5 "$d/err" "$d/out"
    failures=$((failures + 1))
  fi
}
# clean: succeed with nothing on stderr (openssl must not complain)
clean() { "$@" 2>"$d/err2" && [ ! -s "$d/err2" ] || { cat "$d/err2" >&2; return 1; }; }
# refuse DESCRIPTION COMMAND...: the command must fail
refuse() {
  local what=$1
  shift
  if "$@" >"$d/out" 2>"$d/err"; then
    echo "FAIL: ML-DSA-$set: accepted: $what"
    failures=$((failures + 1))
  else
    count[refused]=$((${count[refused]:-0} + 1))
  fi
}
ctx_opt() { [ -n "$1" ] && echo "-pkeyopt hexcontext-string:$1"; }
flip() { # flip FILE OFFSET OUT (negative offset: from the end)
  python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[int(sys.argv[2])] ^= 0x01; open(sys.argv[3], "wb").write(b)' "$@"
}

contexts=("" "696e7465726f702d636f6e74657874") # empty, "interop-context"
total=0
for set in 44 65 87; do
  count=()
  pk_bytes=$((set == 44 ? 1312 : set == 65 ? 1952 : 2592))
  # ---- openssl -> libmldsa
  for fmt in seed-only priv-only seed-priv; do
    k=$d/o-$fmt
    o genpkey -algorithm ML-DSA-$set -provparam ml-dsa.output_formats=$fmt -out $k.pem
    o pkey -in $k.pem -outform DER -provparam ml-dsa.output_formats=$fmt -out $k.der
    o pkey -in $k.pem -pubout -out $k.pub.pem
    o pkey -in $k.pem -pubout -outform DER -out $k.pub.der
    tail -c $pk_bytes $k.pub.der >$k.pub.raw
    want_seed=1
    [ $fmt = priv-only ] && want_seed=0
    for f in pem der; do
      check o2l "library decodes openssl's $fmt private key ($f)" \
        bash -c "'$keyinfo' private $k.$f $k.pub.raw | grep -x 'ML-DSA-$set private seed=$want_seed' >/dev/null"
      check o2l "library decodes openssl's public key ($f)" \
        bash -c "'$keyinfo' public $k.pub.$f $k.pub.raw | grep -x 'ML-DSA-$set public seed=0' >/dev/null"
      check o2l "CLI: public key of openssl's $fmt private key ($f) equals openssl's" \
        bash -c "'$cli' pubkey --in $k.$f --format $f | cmp - $k.pub.$f"
      check o2l "CLI reads openssl's public key ($f)" \
        bash -c "'$cli' pubkey --in $k.pub.$f --param $set --format $f | cmp - $k.pub.$f"
    done
    for ctx in "${contexts[@]}"; do
      o pkeyutl -sign -rawin -inkey $k.pem -in "$d/msg" -out "$d/osig" $(ctx_opt "$ctx")
      check o2l "CLI verifies openssl's signature (ctx '$ctx')" \
        "$cli" verify --pub $k.pub.pem --in "$d/msg" --sig "$d/osig" --context-hex "$ctx"
      "$cli" sign --key $k.der --in "$d/msg" --out "$d/msig" --force --context-hex "$ctx"
      check l2o "openssl verifies the CLI's signature with openssl's key (ctx '$ctx')" \
        o pkeyutl -verify -rawin -pubin -inkey $k.pub.pem -in "$d/msg" -sigfile "$d/msig" $(ctx_opt "$ctx")
      o pkeyutl -sign -rawin -inkey $k.pem -in "$d/msg" -out "$d/osig.det" -pkeyopt deterministic:1 $(ctx_opt "$ctx")
      "$cli" sign --key $k.pem --in "$d/msg" --out "$d/msig.det" --force --deterministic --context-hex "$ctx"
      check identical "deterministic signatures identical ($fmt key, ctx '$ctx')" cmp "$d/osig.det" "$d/msig.det"
    done
  done
  # ---- libmldsa -> openssl
  for form in seed expanded both; do
    for f in pem der; do
      k=$d/m-$form
      F=$(echo $f | tr a-z A-Z)
      rm -f $k.$f $k.pub.$f
      "$cli" keygen --param $set --form $form --format $f --out $k.$f --pubout $k.pub.$f
      check l2o "openssl pkey reads the CLI's $form key ($f) cleanly" clean o pkey -in $k.$f -inform $F -noout
      check l2o "openssl prints the CLI's $form key ($f) cleanly" clean o pkey -in $k.$f -inform $F -text -noout
      check l2o "openssl derives the CLI's public key from its $form key ($f)" \
        bash -c "$(declare -f o); root='$root' lib='$lib'; o pkey -in $k.$f -inform $F -pubout -outform $F | cmp - $k.pub.$f"
      check l2o "openssl reads the CLI's public key ($f) cleanly" clean o pkey -pubin -in $k.pub.$f -inform $F -noout
      for ctx in "${contexts[@]}"; do
        "$cli" sign --key $k.$f --in "$d/msg" --out "$d/msig" --force --context-hex "$ctx"
        check l2o "openssl verifies the CLI's signature ($form key, $f, ctx '$ctx')" \
          o pkeyutl -verify -rawin -pubin -inkey $k.pub.$f -keyform $F -in "$d/msg" -sigfile "$d/msig" $(ctx_opt "$ctx")
        o pkeyutl -sign -rawin -inkey $k.$f -keyform $F -in "$d/msg" -out "$d/osig" $(ctx_opt "$ctx")
        check o2l "CLI verifies openssl's signature with the CLI's $form key ($f, ctx '$ctx')" \
          "$cli" verify --pub $k.pub.$f --in "$d/msg" --sig "$d/osig" --context-hex "$ctx"
        o pkeyutl -sign -rawin -inkey $k.$f -keyform $F -in "$d/msg" -out "$d/osig.det" -pkeyopt deterministic:1 $(ctx_opt "$ctx")
        "$cli" sign --key $k.$f --in "$d/msg" --out "$d/msig.det" --force --deterministic --context-hex "$ctx"
        check identical "deterministic signatures identical (CLI's $form key, $f, ctx '$ctx')" cmp "$d/osig.det" "$d/msig.det"
      done
    done
  done
  # ---- inconsistent "both" keys: one flipped bit in the seed (offset 30 + 5 in the DER:
  # 30 82 LL LL, 02 01 00, the 13-byte AlgorithmIdentifier, 04 82 LL LL, 30 82 LL LL, 04 20)
  # or in the expanded key (100 bytes from the end), from either tool
  o pkey -in "$d/o-seed-priv.pem" -outform DER -provparam ml-dsa.output_formats=seed-priv -out "$d/o-both.der"
  for src in "$d/o-both.der" "$d/m-both.der"; do
    for off in 35 -100; do
      flip "$src" $off "$d/bad.der"
      refuse "openssl reads a both key with a flipped bit at $off" o pkey -in "$d/bad.der" -inform DER -noout
      refuse "library decodes a both key with a flipped bit at $off" "$keyinfo" private "$d/bad.der"
      refuse "CLI signs with a both key with a flipped bit at $off" "$cli" sign --key "$d/bad.der" --in "$d/msg" --out "$d/x"
      refuse "CLI derives a public key from a both key with a flipped bit at $off" "$cli" pubkey --in "$d/bad.der"
    done
  done
  echo "ML-DSA-$set: openssl->libmldsa ${count[o2l]:-0} checks passed, libmldsa->openssl ${count[l2o]:-0}," \
    "deterministic signatures byte-identical ${count[identical]:-0}, inconsistent both keys refused ${count[refused]:-0}"
  total=$((total + ${count[o2l]:-0} + ${count[l2o]:-0} + ${count[identical]:-0} + ${count[refused]:-0}))
done
if [ $failures != 0 ]; then
  echo "openssl35 interop: $failures FAILED, $total passed"
  exit 1
fi
echo "openssl35 interop: all $total checks passed"
