#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The OpenSSL provider through the openssl command, against a real OpenSSL:
#
#   test_provider.sh system|35 PROVIDER_DIR MLDSA_CLI CONTEXT_AFTER_DATA
#
# system: the machine's openssl (Debian 12: 3.0, which has no ML-DSA of its own);
# 35: OpenSSL 3.5 from ci/openssl35, whose default provider has ML-DSA, so that keys,
# signatures and certificates are exchanged with it in both directions.
#
# Proof that this provider did the work: every command that should use it runs with a
# configuration that loads it (and prefers it: default_properties = ?provider=mldsa) and
# names a counters file (mldsa.counters_file), and the provider's counts of key
# generations, signatures, verifications, decodings and encodings that the process
# appended there are checked. A preference alone could fall back to the default provider
# without a word; the counts cannot. Commands meant for the default provider alone run
# with a configuration that does not load this one.
set -euo pipefail
kind=$1
provider_dir=$(cd "$2" && pwd)
cli=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
context_after_data=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

case "$kind" in
  system) OPENSSL=(openssl) ;;
  35) mapfile -t OPENSSL < <("$root/ci/openssl35" --argv) ;;
  *) echo "usage: $0 system|35 PROVIDER_DIR MLDSA_CLI CONTEXT_AFTER_DATA" >&2; exit 2 ;;
esac
version=$(OPENSSL_CONF=/dev/null "${OPENSSL[@]}" version)
case "$version" in
  "OpenSSL 3.0"* | "OpenSSL 3.1"* | "OpenSSL 3.2"* | "OpenSSL 3.3"* | "OpenSSL 3.4"*) native=0 ;;
  "OpenSSL 3."*) native=1 ;;
  *) echo "test_provider: $version is not OpenSSL 3" >&2; exit 1 ;;
esac
tls=$native # provider signature algorithms in TLS: 3.2+; tested where the peer can be 3.5's
echo "test_provider: $version (native ML-DSA: $native)"

counts=$work/counts
# ours.cnf: the default provider and this one, this one preferred; formats.cnf: the same
# with a private-key form for this provider's encoders; default-*.cnf: the default
# provider alone, writing one of OpenSSL 3.5's forms.
provider_conf() { # file, extra lines for the mldsa section
  cat >"$1" <<EOF
openssl_conf = init
[init]
providers = provs
alg_section = algs
[algs]
default_properties = ?provider=mldsa
[provs]
default = default_sect
mldsa = mldsa_sect
[default_sect]
activate = 1
[mldsa_sect]
module = $provider_dir/mldsa.so
activate = 1
mldsa.counters_file = $counts
$2
EOF
}
default_conf() { # file, lines for the default provider's section
  cat >"$1" <<EOF
openssl_conf = init
[init]
providers = provs
[provs]
default = default_sect
[default_sect]
activate = 1
$2
EOF
}
provider_conf ours.cnf ""
for form in seed-only priv-only seed-priv; do
  provider_conf "ours-$form.cnf" "ml-dsa.output_formats = $form"
  default_conf "default-$form.cnf" "ml-dsa.output_formats = $form"
done

passed=0
fail() {
  echo "test_provider: FAIL: $*" >&2
  exit 1
}
ok() {
  passed=$((passed + 1))
  echo "ok $passed - $*"
}
ours() { OPENSSL_CONF=$work/ours.cnf "${OPENSSL[@]}" "$@"; }
ours_form() { local form=$1; shift; OPENSSL_CONF=$work/ours-$form.cnf "${OPENSSL[@]}" "$@"; }
dflt() { OPENSSL_CONF=$work/default-seed-priv.cnf "${OPENSSL[@]}" "$@"; }
dflt_form() { local form=$1; shift; OPENSSL_CONF=$work/default-$form.cnf "${OPENSSL[@]}" "$@"; }

# count NAME: what the provider counted in the last command (the largest value any of its
# instances in that process wrote)
count() {
  local n
  n=$(grep -o "mldsa-$1=[0-9]*" "$counts" 2>/dev/null | cut -d= -f2 | sort -n | tail -1)
  echo "${n:-0}"
}
# did WHAT COUNTER>=N ... -- COMMAND...: runs the command, which must succeed, then checks
# each counter
did() {
  local what=$1
  shift
  local checks=()
  while [ "$1" != -- ]; do checks+=("$1"); shift; done
  shift
  : >"$counts"
  local out
  out=$("$@" 2>&1) || fail "$what: exit $?: $out"
  for c in "${checks[@]}"; do
    local name=${c%%>=*} min=${c##*>=}
    [ "$(count "$name")" -ge "$min" ] ||
      fail "$what: the provider counted $(count "$name") $name, expected at least $min"
  done
  ok "$what"
}
# refused WHAT COMMAND...: must fail cleanly (an exit status of 1-127: no signal) with a
# message
refused() {
  local what=$1 rc=0 out
  shift
  out=$("$@" 2>&1) || rc=$?
  [ "$rc" -ne 0 ] || fail "$what: accepted"
  [ "$rc" -lt 128 ] || fail "$what: killed by a signal (exit $rc): $out"
  [ -n "$out" ] || fail "$what: refused without a message"
  ok "$what (exit $rc)"
}
same() { cmp -s "$1" "$2" || fail "$3: $1 and $2 differ"; ok "$3"; }

printf 'The quick brown fox jumps over the lazy dog\n' >msg
head -c 100000 /dev/zero | tr '\0' 'm' >>msg

for n in 44 65 87; do
  alg=ML-DSA-$n
  seed=$(printf 'libmldsa provider test seed %s' "$n" | sha256sum | cut -c1-64)
  printf '%s' "$seed" >seed$n.hex

  # ---- keys: generation, the CLI's keys, text and public forms ----
  did "$alg genpkey (random)" keygens\>=1 encodes\>=1 -- ours genpkey -algorithm $alg -out rand$n.pem
  did "$alg genpkey -pkeyopt hexseed" keygens\>=1 -- \
    ours genpkey -algorithm $alg -pkeyopt hexseed:$seed -out k$n.pem
  "$cli" keygen --param $n --seed-file seed$n.hex --form both --out cli$n.pem --pubout clipub$n.pem
  same k$n.pem cli$n.pem "$alg: genpkey from a seed writes the key mldsa keygen --form both writes"
  did "$alg pkey -pubout" decodes\>=1 encodes\>=1 -- ours pkey -in k$n.pem -pubout -out pub$n.pem
  same pub$n.pem clipub$n.pem "$alg: pkey -pubout gives mldsa keygen's public key"
  did "$alg pkey -text" decodes\>=1 -- ours pkey -in k$n.pem -text -noout -out text$n.txt
  grep -q "^$alg Private-Key:$" text$n.txt && grep -q '^seed:$' text$n.txt && grep -q '^pub:$' text$n.txt ||
    fail "$alg: pkey -text: $(head -3 text$n.txt)"
  if [ $native = 1 ]; then
    dflt pkey -in k$n.pem -text -noout -out text$n.default.txt
    same text$n.txt text$n.default.txt "$alg: pkey -text prints what the default provider prints"
  fi

  # ---- signatures: deterministic ones equal the CLI's (and the default provider's) ----
  did "$alg pkeyutl -sign -rawin (deterministic)" signs\>=1 -- \
    ours pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sig$n -pkeyopt deterministic:1
  "$cli" sign --key cli$n.pem --in msg --deterministic --out sig$n.cli
  same sig$n sig$n.cli "$alg: deterministic signature equals mldsa sign --deterministic"
  did "$alg pkeyutl -sign -rawin with a context" signs\>=1 -- \
    ours pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sigctx$n -pkeyopt deterministic:1 \
    -pkeyopt hexcontext-string:0102abcdef
  "$cli" sign --key cli$n.pem --in msg --deterministic --context-hex 0102abcdef --out sigctx$n.cli
  same sigctx$n sigctx$n.cli "$alg: with a context, equals mldsa sign --context-hex"
  did "$alg pkeyutl -sign (hedged)" signs\>=1 -- \
    ours pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sighedged$n
  cmp -s sighedged$n sig$n && fail "$alg: a hedged signature equals the deterministic one"
  did "$alg pkeyutl -verify (hedged signature)" verifies\>=1 -- \
    ours pkeyutl -verify -rawin -pubin -inkey pub$n.pem -in msg -sigfile sighedged$n
  did "$alg pkeyutl -verify with the context" verifies\>=1 -- \
    ours pkeyutl -verify -rawin -pubin -inkey pub$n.pem -in msg -sigfile sigctx$n \
    -pkeyopt hexcontext-string:0102abcdef
  refused "$alg: a signature under another context" \
    ours pkeyutl -verify -rawin -pubin -inkey pub$n.pem -in msg -sigfile sigctx$n \
    -pkeyopt hexcontext-string:0102abcdee
  "$cli" verify --pub clipub$n.pem --in msg --sig sighedged$n >/dev/null ||
    fail "$alg: mldsa verify refuses the provider's signature"
  ok "$alg: mldsa verify accepts the provider's hedged signature"
  if [ $native = 1 ]; then
    dflt pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sig$n.default -pkeyopt deterministic:1
    same sig$n sig$n.default "$alg: deterministic signature equals the default provider's"
    dflt pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sigctx$n.default -pkeyopt deterministic:1 \
      -pkeyopt hexcontext-string:0102abcdef
    same sigctx$n sigctx$n.default "$alg: with a context, equals the default provider's"
    # the same rnd (test-entropy), the same signature
    entropy=$(printf 'test entropy %s' "$n" | sha256sum | cut -c1-64)
    did "$alg pkeyutl -sign with test-entropy" signs\>=1 -- \
      ours pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sigent$n -pkeyopt hextest-entropy:$entropy
    dflt pkeyutl -sign -rawin -inkey k$n.pem -in msg -out sigent$n.default \
      -pkeyopt hextest-entropy:$entropy
    same sigent$n sigent$n.default "$alg: with given randomness (test-entropy), equals the default provider's"
    cmp -s sigent$n sig$n && fail "$alg: the test-entropy signature equals the deterministic one"
    dflt pkeyutl -verify -rawin -pubin -inkey pub$n.pem -in msg -sigfile sighedged$n >/dev/null ||
      fail "$alg: the default provider refuses this provider's signature"
    ok "$alg: the default provider verifies this provider's signature"
  fi

  # ---- every private-key form, both directions ----
  for form in seed-only priv-only seed-priv; do
    did "$alg write the $form form" encodes\>=1 -- ours_form $form pkey -in k$n.pem -out f$n.$form.pem
    did "$alg read back the $form form" decodes\>=1 -- ours pkey -in f$n.$form.pem -pubout -out fpub$n
    same fpub$n pub$n.pem "$alg: the $form form keeps the key"
    if [ $native = 1 ]; then
      dflt_form $form pkey -in k$n.pem -out d$n.$form.pem
      same f$n.$form.pem d$n.$form.pem "$alg: the $form form is what the default provider writes"
      dflt pkey -in f$n.$form.pem -pubout -out dpub$n
      same dpub$n pub$n.pem "$alg: the default provider reads this provider's $form form"
    fi
  done

  # ---- encrypted private keys ----
  did "$alg genpkey -aes-256-cbc" keygens\>=1 encodes\>=1 -- \
    ours genpkey -algorithm $alg -pkeyopt hexseed:$seed -aes-256-cbc -pass pass:s3cret -out enc$n.pem
  grep -q -- '-----BEGIN ENCRYPTED PRIVATE KEY-----' enc$n.pem || fail "$alg: not encrypted: $(head -1 enc$n.pem)"
  did "$alg read an encrypted key" decodes\>=1 -- \
    ours pkey -in enc$n.pem -passin pass:s3cret -pubout -out encpub$n
  same encpub$n pub$n.pem "$alg: the encrypted key is the key"
  refused "$alg: an encrypted key with a wrong passphrase" \
    ours pkey -in enc$n.pem -passin pass:wrong -pubout
  if [ $native = 1 ]; then
    dflt pkey -in enc$n.pem -passin pass:s3cret -pubout -out dencpub$n
    same dencpub$n pub$n.pem "$alg: the default provider reads this provider's encrypted key"
    dflt pkey -in k$n.pem -aes-256-cbc -passout pass:x -out denc$n.pem
    did "$alg read the default provider's encrypted key" decodes\>=1 -- \
      ours pkey -in denc$n.pem -passin pass:x -pubout -out dencpub$n
    same dencpub$n pub$n.pem "$alg: ... which is the key"
  fi
done

# ---- certificates: an ML-DSA-87 CA and an ML-DSA-65 leaf ----
ca_ext=(-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign)
did "req -x509: a self-signed ML-DSA-87 CA" signs\>=1 -- \
  ours req -x509 -new -key k87.pem -subj /CN=libmldsa-test-CA "${ca_ext[@]}" -days 30 -out ca.crt
did "verify the self-signed CA (-check_ss_sig)" verifies\>=1 -- ours verify -check_ss_sig -CAfile ca.crt ca.crt
did "req -new: an ML-DSA-65 request" signs\>=1 -- \
  ours req -new -key k65.pem -subj /CN=localhost -out leaf.csr
did "x509 -req: the CA signs the leaf" signs\>=1 verifies\>=1 -- \
  ours x509 -req -in leaf.csr -CA ca.crt -CAkey k87.pem -days 30 -out leaf.crt
did "verify the two-level chain" verifies\>=1 -- ours verify -CAfile ca.crt leaf.crt
ours x509 -in leaf.crt -noout -text | grep -q 'Signature Algorithm: ML-DSA-87' ||
  fail "the leaf's signature algorithm is not ML-DSA-87"
ok "the leaf names ML-DSA-87 as its signature algorithm"
refused "verify a chain against the wrong CA" ours verify -CAfile leaf.crt leaf.crt
"$cli" verify --pub leaf.crt --in msg --sig sig65 >/dev/null ||
  fail "mldsa verify --pub leaf.crt refuses a signature of the leaf's key"
ok "mldsa verify takes the public key of a certificate (PEM)"
ours x509 -in leaf.crt -outform DER -out leaf.der
"$cli" verify --pub leaf.der --in msg --sig sig65 >/dev/null ||
  fail "mldsa verify --pub leaf.der refuses a signature of the leaf's key"
ok "mldsa verify takes the public key of a certificate (DER)"
refused "mldsa verify with the CA's certificate for the leaf's signature" \
  "$cli" verify --pub ca.crt --in msg --sig sig65
if [ $native = 1 ]; then
  dflt verify -CAfile ca.crt leaf.crt >/dev/null || fail "the default provider refuses this provider's chain"
  ok "the default provider verifies the chain this provider signed"
  dflt req -x509 -new -key k87.pem -subj /CN=default-CA "${ca_ext[@]}" -days 30 -out dca.crt
  dflt x509 -req -in leaf.csr -CA dca.crt -CAkey k87.pem -days 30 -out dleaf.crt 2>/dev/null
  did "verify a chain the default provider signed" verifies\>=2 -- ours verify -check_ss_sig -CAfile dca.crt dleaf.crt

  # CMS signed data (RFC 9882), where the OpenSSL has it
  did "cms -sign (SHA-512 digest, RFC 9882)" signs\>=1 -- ours cms -sign -md sha512 -signer leaf.crt -inkey k65.pem -in msg -binary \
    -outform DER -out msg.cms
  did "cms -verify" verifies\>=1 -- ours cms -verify -CAfile ca.crt -in msg.cms -inform DER -binary \
    -content msg -out /dev/null
  dflt cms -verify -CAfile ca.crt -in msg.cms -inform DER -binary -content msg -out /dev/null 2>/dev/null ||
    fail "the default provider refuses this provider's CMS signature"
  ok "the default provider verifies this provider's CMS signature"
else
  # mldsa-provider(7): CMS from 3.5 on; 3.0's CMS passes a digest, which ML-DSA refuses
  refused "cms -sign with $(echo "$version" | cut -d" " -f1-2) (its CMS passes a digest)" \
    ours cms -sign -md sha512 -signer leaf.crt -inkey k65.pem -in msg -binary -outform DER -out msg.cms
  refused "cms -sign with $(echo "$version" | cut -d" " -f1-2), no -md (no default digest)" \
    ours cms -sign -signer leaf.crt -inkey k65.pem -in msg -binary -outform DER -out msg.cms
fi

# ---- TLS 1.3: an ML-DSA-65 server certificate ----
# tls_run WHAT SERVER_CONF CLIENT_CONF: one handshake on an ephemeral port of 127.0.0.1,
# bounded in time
tls_run() {
  local what=$1 server=$2 client=$3 port= i
  : >"$counts"
  OPENSSL_CONF=$work/$server.cnf "${OPENSSL[@]}" s_server -accept 127.0.0.1:0 -naccept 1 -cert leaf.crt -key k65.pem -tls1_3 \
    -sigalgs mldsa65 -www >server.out 2>&1 &
  server_pid=$!
  for i in $(seq 600); do # up to a minute, as the client's: a loaded machine is slow to start it
    port=$(grep -o 'ACCEPT 127.0.0.1:[0-9]*' server.out | cut -d: -f2 || true)
    [ -n "$port" ] && break
    kill -0 $server_pid 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || fail "$what: the server did not start: $(cat server.out)"
  local out rc=0
  out=$(printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$work/$client.cnf timeout 60 "${OPENSSL[@]}" s_client -connect 127.0.0.1:$port \
    -CAfile ca.crt -verify_return_error -tls1_3 -brief 2>&1) || rc=$?
  timeout 30 tail --pid=$server_pid -f /dev/null || kill $server_pid
  wait $server_pid 2>/dev/null || true
  server_pid=
  [ $rc = 0 ] || fail "$what: s_client exit $rc: $out"
  echo "$out" | grep -q 'Signature type: mldsa65' || fail "$what: no mldsa65 signature: $out"
  echo "$out" | grep -q 'Verification: OK' || fail "$what: the chain did not verify: $out"
}
if [ $tls = 1 ]; then
  tls_run "TLS 1.3, this provider on both ends" ours ours
  [ "$(count signs)" -ge 1 ] && [ "$(count verifies)" -ge 2 ] ||
    fail "TLS: the provider counted $(count signs) signatures, $(count verifies) verifications"
  ok "TLS 1.3 handshake with an ML-DSA-65 certificate, this provider on both ends (mldsa65)"
  tls_run "TLS 1.3, this provider serving, the default provider's client" ours default-seed-priv
  [ "$(count signs)" -ge 1 ] || fail "TLS: the server's provider did not sign"
  ok "TLS 1.3: this provider's server, the default provider's client (mldsa65)"
  tls_run "TLS 1.3, the default provider's server, this provider's client" default-seed-priv ours
  [ "$(count verifies)" -ge 2 ] || fail "TLS: the client's provider did not verify"
  ok "TLS 1.3: the default provider's server, this provider's client (mldsa65)"
fi

# ---- OpenSSL 3.5's ml-dsa.* options, beside the default provider's ----
# shellcheck source=tests/provider/test_options.sh
. "$root/tests/provider/test_options.sh"

# ---- bad inputs: a clean error each ----
ours pkey -in k65.pem -outform DER -out k65.der
head -c 100 k65.der >trunc.der
refused "a truncated private key" ours pkey -inform DER -in trunc.der -pubout
ours pkey -in pub65.pem -pubin -outform DER -out pub65.der
head -c 500 pub65.der >trunc_pub.der
refused "a truncated public key" ours pkey -pubin -inform DER -in trunc_pub.der -text
# the seed-priv form with one byte of the expanded key changed: the two disagree
python3 - k65.der mixed.der wrongoid.der <<'EOF'
import sys
der = bytearray(open(sys.argv[1], 'rb').read())
mixed = bytearray(der); mixed[-1] ^= 1
open(sys.argv[2], 'wb').write(mixed)
oid = bytes.fromhex('0609608648016503040312')
at = der.index(oid)
wrong = bytearray(der); wrong[at + len(oid) - 1] = 0x20
open(sys.argv[3], 'wb').write(wrong)
EOF
refused "a private key whose seed and expanded key disagree" ours pkey -inform DER -in mixed.der -pubout
refused "a private key under another OID" ours pkey -inform DER -in wrongoid.der -pubout
cp sig65 badsig
printf '\x01' | dd of=badsig bs=1 seek=100 conv=notrunc 2>/dev/null
cmp -s badsig sig65 && printf '\x02' | dd of=badsig bs=1 seek=100 conv=notrunc 2>/dev/null
refused "a corrupted signature" ours pkeyutl -verify -rawin -pubin -inkey pub65.pem -in msg -sigfile badsig
head -c 3000 sig65 >shortsig
refused "a signature of the wrong length" ours pkeyutl -verify -rawin -pubin -inkey pub65.pem -in msg -sigfile shortsig
refused "a 256-byte context" ours pkeyutl -sign -rawin -inkey k65.pem -in msg -out /dev/null \
  -pkeyopt hexcontext-string:$(head -c 256 /dev/zero | od -An -v -tx1 | tr -d ' \n')
refused "a key of another set for the signature" ours pkeyutl -verify -rawin -pubin -inkey pub44.pem -in msg -sigfile sig65

echo "test_provider: $version: all $passed checks passed"
