#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The CLI's features beyond plain sign/verify, each with its bad input (one line naming
# the input, exit 2, nothing written):
#   - short options (-k -i -o -f -q -p -s -c -d), --quiet, the default signature name
#     FILE.sig, sign refusing a terminal as standard output, a warning for a private key
#     readable by group or others;
#   - HashML-DSA (--prehash) and external mu (--mu), checked against mu computed here in
#     Python (hashlib's SHAKE-256, SHA-2, SHA-3): FIPS 204 Alg. 4/5 and 7 line 6;
#   - info (set, type, form, encoding, the SHA-256 fingerprint of the DER
#     SubjectPublicKeyInfo, checked against openssl's, the isa);
#   - convert (PEM <-> DER <-> raw, seed -> both, expanded stays expanded, expanded -> seed
#     refused);
#   - encrypted PKCS#8 (--passout / --passin fd:N, file:PATH; tty is checked by running
#     under a pseudo-terminal): a wrong passphrase, a truncated key; interop with OpenSSL
#     3.5 (ci/openssl35): `openssl pkcs8 -topk8 -v2 aes-256-cbc` keys read by mldsa, and
#     mldsa's encrypted keys read by openssl.
#   test_cli_features.sh MLDSA_CLI
set -uo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
ossl35=$here/../../ci/openssl35
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
umask 022
passed=0 failed=0
. "$here/expect.sh"
one_line_err() { [ "$(wc -l <err)" = 1 ] && grep -q "^mldsa: " err; }
cat >term.py <<'PY'
import os, subprocess, sys
# runs argv[2:] with a pseudo-terminal as its controlling terminal and standard output;
# types argv[1] (lines separated by |) when asked; prints what reached the terminal
import pty
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
out = b""
typed = sys.argv[1].split("|") if sys.argv[1] else []
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
    if typed and chunk.rstrip().endswith(b":"):
        os.write(fd, typed.pop(0).encode() + b"\n")
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
PY

# A build without libcrypto (MLDSA_CLI_LIBCRYPTO=OFF) has no --prehash, fingerprint or
# encrypted keys: there their clear errors are checked instead, and the sections that need
# libcrypto are named as not run (never counted as passed).
if "$cli" --version | grep -q "^libcrypto: none"; then crypto=no; else crypto=yes; fi
not_run() { echo "not run (built without libcrypto): $*"; }

echo hello >msg
# ---- short options, the default signature name, --quiet
expect 0 "keygen -o --pubout" -- "$cli" keygen -o k.pem --pubout p.pem
expect 0 "sign -k -i: FILE.sig by default" -- "$cli" sign -k k.pem -i msg
check "... msg.sig written" test -s msg.sig
expect 0 "verify -p -i: --sig defaults to FILE.sig" "signature OK" -- "$cli" verify -p p.pem -i msg
expect 2 "sign -k -i again: msg.sig exists" "--out msg.sig: file exists" -- "$cli" sign -k k.pem -i msg
expect 0 "sign -f replaces it" -- "$cli" sign -k k.pem -i msg -f
expect 0 "sign -c -d -o -" -- bash -c "'$cli' sign -k k.pem -i msg -c ctx -d -o - >c.sig"
expect 0 "verify -s -c" "signature OK" -- "$cli" verify -p p.pem -i msg -s c.sig -c ctx
expect 0 "verify -q: nothing printed" -- "$cli" verify -p p.pem -i msg -s c.sig -c ctx -q
check "... stdout empty" test ! -s out
expect 1 "verify -q, a bad signature: exit 1 and the reason" "does not verify" -- "$cli" verify -p p.pem -i msg -s c.sig -q
expect 2 "an unknown short option" "sign: unknown option -z" -- "$cli" sign -z
expect 2 "a short option of another command" "keygen: unknown option -k" -- "$cli" keygen -k k.pem
expect 2 "a short option without its value" "sign: --key needs a value" -- "$cli" sign -k
expect 2 "-k and --key" "--key given twice" -- "$cli" sign -k k.pem --key k.pem -i msg
expect 0 "sign from standard input writes to standard output" -- bash -c "'$cli' sign -k k.pem <msg >stdin.sig"
check "... no -.sig" test ! -e ./-.sig
expect 2 "sign to a terminal" "standard output is a terminal; a signature is binary" -- python3 term.py "" "$cli" sign -k k.pem -i msg -o -
check "... nothing signed to the terminal" bash -c "[ \$(wc -c <out) -lt 200 ]"
cp k.pem k644.pem
chmod 644 k644.pem
expect 0 "a private key readable by others: a warning" "warning: --key k644.pem: a private key file of mode 0644, which lets group and others read it" -- "$cli" sign -k k644.pem -i msg -o w.sig
expect 0 "... not with -q" -- "$cli" sign -k k644.pem -i msg -o w2.sig -q
check "... stderr empty" test ! -s err
chmod 640 k644.pem
expect 0 "mode 0640: its group" "which lets its group read it" -- "$cli" pubkey -i k644.pem -o /dev/null
expect 0 "verify --help says --pub takes a certificate" "X.509 certificate" -- "$cli" verify --help

# ---- external mu and HashML-DSA, against mu computed in Python
cat >mu.py <<'PY'
import hashlib, sys
# mu.py PK_RAW MSG CTX [HASH]: mu of ML-DSA (pure) or HashML-DSA (HASH: a hashlib name)
pk, msg, ctx = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), sys.argv[3].encode()
tr = hashlib.shake_256(pk).digest(64)
if len(sys.argv) > 4:
    name = sys.argv[4]
    oids = {"sha256": 1, "sha384": 2, "sha512": 3, "sha224": 4, "sha512_224": 5, "sha512_256": 6,
            "sha3_224": 7, "sha3_256": 8, "sha3_384": 9, "sha3_512": 10, "shake_128": 11, "shake_256": 12}
    h = hashlib.new(name, msg)
    ph = h.digest(32 if name == "shake_128" else 64) if name.startswith("shake") else h.digest()
    oid = bytes([0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, oids[name]])
    mprime = bytes([1, len(ctx)]) + ctx + oid + ph
else:
    mprime = bytes([0, len(ctx)]) + ctx + msg
sys.stdout.buffer.write(hashlib.shake_256(tr + mprime).digest(64))
PY
"$cli" pubkey -i k.pem --format raw -o pk.raw
python3 mu.py pk.raw msg ctx >mu.bin
expect 0 "sign --mu with mu computed in Python" -- "$cli" sign -k k.pem --mu -i mu.bin -o mu.sig
expect 0 "... verifies as a signature of the message (pure, context ctx)" "signature OK" -- "$cli" verify -p p.pem -i msg -s mu.sig -c ctx
expect 0 "verify --mu of a pure signature" "signature OK" -- "$cli" verify -p p.pem --mu -i mu.bin -s c.sig
expect 2 "--mu: a 63-byte file" "--in short.mu: 63 bytes, expected the 64 bytes of mu" -- bash -c "head -c 63 mu.bin >short.mu; '$cli' sign -k k.pem --mu -i short.mu -o no.sig"
check "... nothing written" test ! -e no.sig
expect 2 "--mu with --context" "--mu: no --context" -- "$cli" sign -k k.pem --mu -i mu.bin -c x -o no.sig
if [ $crypto = yes ]; then
for h in sha224 sha256 sha384 sha512 sha512-224 sha512-256 sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256; do
  py=$(echo $h | tr - _ | sed 's/^shake/shake_/')
  "$cli" sign -k k.pem -i msg --prehash $h -c ctx -o ph-$h.sig
  python3 mu.py pk.raw msg ctx $py >ph-$h.mu
  expect 0 "--prehash $h: the signature of HashML-DSA's M' (mu from Python)" "signature OK" -- "$cli" verify -p p.pem --mu -i ph-$h.mu -s ph-$h.sig
  expect 0 "... verify --prehash $h" "signature OK" -- "$cli" verify -p p.pem -i msg -s ph-$h.sig --prehash $h -c ctx
done
expect 1 "a HashML-DSA signature is no pure signature" "does not verify" -- "$cli" verify -p p.pem -i msg -s ph-sha512.sig -c ctx
expect 1 "... nor one under another hash" "does not verify" -- "$cli" verify -p p.pem -i msg -s ph-sha512.sig -c ctx --prehash sha384
else
  not_run "--prehash signatures"
  expect 2 "--prehash without libcrypto: a clear error" "--prehash sha256: this mldsa was built without OpenSSL's libcrypto" -- "$cli" sign -k k.pem -i msg --prehash sha256 -o no.sig
  check "... nothing written" test ! -e no.sig
fi
expect 2 "an unknown hash name" '--prehash: unknown hash "md5"' -- "$cli" sign -k k.pem -i msg --prehash md5 -o no.sig
check "... one line" one_line_err
check "... nothing written" test ! -e no.sig
expect 2 "--prehash and --mu" "give one of them" -- "$cli" sign -k k.pem -i msg --prehash sha256 --mu -o no.sig

# ---- info
openssl pkey -in p.pem -pubin -outform DER 2>/dev/null | sha256sum | cut -d' ' -f1 >fp.want || true
"$cli" pubkey -i k.pem --format der | sha256sum | cut -d' ' -f1 >fp.der
expect 0 "info of a private key" "^set: ML-DSA-65$" -- "$cli" info -i k.pem
check "... seed form, PEM" grep -qx "form: seed" out
check "... encoding PEM" grep -qx "encoding: PEM" out
[ $crypto = yes ] || not_run "the fingerprint"
[ $crypto = no ] || check "... the fingerprint: SHA-256 of the DER SPKI" grep -qx "fingerprint: SHA-256 of the DER SubjectPublicKeyInfo: $(cat fp.der)" out
check "... the isa" grep -qx "isa: $("$cli" isa)" out
check "... the libcrypto of --version" grep -qx "libcrypto: $("$cli" --version | sed -n 's/^libcrypto: //p' | sed 's/ (.*//')" out
expect 0 "info of the public key" "^form: public$" -- "$cli" info -i p.pem
[ $crypto = no ] || check "... the same fingerprint" grep -q "$(cat fp.der)" out
for form in seed expanded both; do
  "$cli" keygen --param 44 --form $form --format der -o k44-$form.der
  expect 0 "info: $form" "^form: $form$" -- "$cli" info -i k44-$form.der
  check "... DER, 44" bash -c "grep -qx 'encoding: DER' out && grep -qx 'set: ML-DSA-44' out"
done
"$cli" keygen --param 87 --form expanded --format raw -o k87.raw
expect 0 "info: raw expanded" "^form: expanded$" -- "$cli" info -i k87.raw
expect 2 "info of a file that is no key" "--in msg: 6 bytes, neither PEM, DER nor a raw key" -- "$cli" info -i msg

# ---- convert
expect 0 "convert PEM seed -> DER" -- "$cli" convert -i k.pem -o k.der --format der
expect 0 "... still the seed form" "^form: seed$" -- "$cli" info -i k.der
expect 0 "convert DER -> raw seed" -- "$cli" convert -i k.der -o k.seed --format raw
check "... 32 bytes" test "$(wc -c <k.seed)" = 32
check "... mode 0600" test "$(stat -c %a k.seed)" = 600
expect 0 "convert raw seed -> PEM both" -- "$cli" convert -i k.seed --param 65 -o k-both.pem --format pem --form both
expect 0 "... both" "^form: both$" -- "$cli" info -i k-both.pem
expect 0 "... the same key" -- bash -c "'$cli' pubkey -i k-both.pem | cmp - p.pem"
expect 0 "convert PEM -> DER -> PEM round trip" -- bash -c "'$cli' convert -i k.der -o k-again.pem --format pem && cmp k-again.pem k.pem"
expect 0 "convert expanded DER -> PEM: stays expanded" -- "$cli" convert -i k44-expanded.der -o k44-x.pem --format pem
expect 0 "... expanded" "^form: expanded$" -- "$cli" info -i k44-x.pem
expect 2 "convert expanded -> seed: refused" "holds the expanded key only; the seed cannot be recovered" -- "$cli" convert -i k44-expanded.der -o no.pem --form seed
check "... one line" one_line_err
check "... nothing written" test ! -e no.pem
expect 2 "convert expanded -> both: refused" "cannot be recovered" -- "$cli" convert -i k44-expanded.der -o no.pem --form both
expect 2 "convert --out an existing key" "file exists" -- "$cli" convert -i k.der -o k.pem
expect 2 "convert a public key" "--in p.pem" -- "$cli" convert -i p.pem -o no.pem
check "... nothing written" test ! -e no.pem

# ---- encrypted PKCS#8
if [ $crypto = no ]; then
  not_run "encrypted PKCS#8 and its interop with OpenSSL 3.5"
  printf 'pw\n' >pw
  expect 2 "--passout without libcrypto: a clear error" "--passout: this mldsa was built without OpenSSL's libcrypto" -- "$cli" keygen -o no.pem --passout file:pw
  check "... nothing written" test ! -e no.pem
  openssl genpkey -algorithm ed25519 2>/dev/null | openssl pkcs8 -topk8 -v2 aes-256-cbc -passout file:pw -out enc.pem 2>/dev/null
  expect 2 "an encrypted key without libcrypto: a clear error" "built without OpenSSL's libcrypto" -- "$cli" sign -k enc.pem --passin file:pw -i msg -o no.sig
else
printf 'correct horse\n' >pw
printf 'wrong horse\n' >bad
expect 0 "convert --passout file:" -- "$cli" convert -i k.pem -o enc.pem --passout file:pw
check "... ENCRYPTED PRIVATE KEY" grep -q "BEGIN ENCRYPTED PRIVATE KEY" enc.pem
check "... mode 0600" test "$(stat -c %a enc.pem)" = 600
expect 0 "... PBES2, PBKDF2 with HMAC-SHA-256, AES-256-CBC" -- bash -c "openssl asn1parse -in enc.pem | grep -q PBES2 && openssl asn1parse -in enc.pem | grep -q hmacWithSHA256 && openssl asn1parse -in enc.pem | grep -q aes-256-cbc"
expect 0 "sign --passin file:" -- "$cli" sign -k enc.pem --passin file:pw -i msg -o enc.sig
expect 0 "... verifies" "signature OK" -- "$cli" verify -p p.pem -i msg -s enc.sig
expect 0 "sign --passin fd:3" -- bash -c "'$cli' sign -k enc.pem --passin fd:3 -i msg -o enc3.sig 3<pw"
expect 0 "info --passin: encrypted" "encoding: PEM, encrypted \(PBES2\)" -- "$cli" info -i enc.pem --passin file:pw
expect 2 "a wrong passphrase" "--key enc.pem: wrong passphrase" -- "$cli" sign -k enc.pem --passin file:bad -i msg -o no.sig
check "... one line" one_line_err
check "... nothing written" test ! -e no.sig
head -c 150 enc.pem >trunc.pem
echo "-----END ENCRYPTED PRIVATE KEY-----" >>trunc.pem
expect 2 "a truncated encrypted key (PEM)" "--key trunc.pem" -- "$cli" sign -k trunc.pem --passin file:pw -i msg -o no.sig
check "... one line" one_line_err
check "... nothing written" test ! -e no.sig
expect 0 "convert to encrypted DER" -- "$cli" convert -i enc.pem --passin file:pw -o enc.der --format der --passout file:pw
head -c 100 enc.der >trunc.der
expect 2 "a truncated encrypted key (DER)" "--key trunc.der: encrypted private key that is truncated or malformed" -- "$cli" sign -k trunc.der --passin file:pw -i msg -o no.sig
check "... nothing written" test ! -e no.sig
expect 2 "--passin of an unknown kind" '--passin "pass:x": expected fd:N, file:PATH or tty' -- "$cli" sign -k enc.pem --passin pass:x -i msg -o no.sig
expect 2 "--passout of an empty passphrase" "an empty passphrase" -- bash -c ": >empty; '$cli' keygen -o no.pem --passout file:empty"
check "... nothing written" test ! -e no.pem
expect 2 "--passout with --format raw" "a raw key cannot be encrypted" -- "$cli" keygen -o no.pem --format raw --passout file:pw
expect 0 "keygen --passout, tty (typed twice, no echo)" -- python3 term.py "s3cret pass|s3cret pass" "$cli" keygen -o tty.pem --pubout tty.pub --passout tty
check "... the passphrase was not echoed" bash -c "! grep -q s3cret out"
printf 's3cret pass\n' >pw2
expect 0 "... and reads back with file:" -- bash -c "'$cli' pubkey -i tty.pem --passin file:pw2 | cmp - tty.pub"
expect 2 "keygen --passout tty, two different passphrases" "the two passphrases differ" -- python3 term.py "one|two" "$cli" keygen -o no.pem --passout tty
check "... nothing written" test ! -e no.pem
# killed at the prompt: the terminal's echo comes back (the shell polls until the echo is
# off, so the signal always arrives while mldsa waits for the passphrase)
cat >killed.sh <<'SH'
"$1" keygen -o killed.pem --passout tty &
pid=$!
until stty -a | grep -q -- ' -echo '; do sleep 0.05; done
kill -TERM $pid
wait $pid
echo "exit $?"
stty -a | grep -o -- ' -\{0,1\}echo ' | head -1
SH
expect 0 "SIGTERM at the passphrase prompt: killed by it" "exit 143" -- python3 term.py "" sh killed.sh "$cli"
check "... the echo is back on" grep -q -- " echo " out
check "... no key written" test ! -e killed.pem
expect 0 "a key asks for its passphrase at the terminal by default" -- python3 term.py "s3cret pass" "$cli" pubkey -i tty.pem -o tty2.pub
check "... the prompt names the file" grep -q "Passphrase for tty.pem" out
expect 2 "no terminal, no --passin" "--key enc.pem: an encrypted private key, and no passphrase" -- setsid -w "$cli" sign -k enc.pem -i msg -o no.sig

# ---- OpenSSL 3.5: its encrypted keys read here, ours read there
if o35=$("$ossl35" --argv 2>/dev/null | tr '\n' ' ') && [ -n "$o35" ]; then
  export OPENSSL_CONF=$("$ossl35" --root)/usr/lib/ssl/openssl.cnf
  $o35 genpkey -algorithm ML-DSA-87 -out o.pem 2>/dev/null
  $o35 pkcs8 -topk8 -v2 aes-256-cbc -in o.pem -passout file:pw -out oenc.pem
  $o35 pkcs8 -topk8 -v2 aes-256-cbc -in o.pem -passout file:pw -outform DER -out oenc.der
  $o35 pkey -in o.pem -pubout -out o.pub
  expect 0 "OpenSSL 3.5's encrypted PEM key read" "^set: ML-DSA-87$" -- "$cli" info -i oenc.pem --passin file:pw
  check "... form both (3.5's default)" grep -qx "form: both" out
  expect 0 "... its public key is 3.5's" -- bash -c "'$cli' pubkey -i oenc.pem --passin file:pw | cmp - o.pub"
  expect 0 "OpenSSL 3.5's encrypted DER key read" -- bash -c "'$cli' pubkey -i oenc.der --passin file:pw | cmp - o.pub"
  expect 2 "... with a wrong passphrase" "wrong passphrase" -- "$cli" info -i oenc.pem --passin file:bad
  expect 0 "our encrypted key read by OpenSSL 3.5" -- bash -c "$o35 pkey -in enc.pem -passin file:pw -pubout | cmp - p.pem"
  expect 0 "our encrypted DER key read by OpenSSL 3.5" -- bash -c "$o35 pkey -in enc.der -inform DER -passin file:pw -pubout | cmp - p.pem"
  expect 0 "... and it signs with it (3.5), we verify" -- bash -c "$o35 pkeyutl -sign -rawin -inkey enc.pem -passin file:pw -in msg -out o35.sig && '$cli' verify -p p.pem -i msg -s o35.sig"
else
  echo "FAIL: OpenSSL 3.5 (ci/openssl35) is not available"; failed=$((failed + 1))
fi

fi

echo "test_cli_features: $passed passed, $failed failed"
[ $failed = 0 ]
