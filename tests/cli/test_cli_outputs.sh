#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# What an output may replace, and how:
#   - no output (signature, public key, private key) replaces an existing file without
#     --force; a file that holds a private key (PEM "... PRIVATE KEY", DER PKCS#8 or
#     EncryptedPrivateKeyInfo, a raw seed or expanded key) is replaced only by a private
#     key and only with --force; a refused run writes nothing;
#   - a symbolic link is resolved: its target is checked and replaced through a temporary
#     file in the target's directory, the link stays a link (a dangling link creates its
#     target); a link to a private key is a private key;
#   - a full disk (tests/cli/full_disk.c, an LD_PRELOAD shim) leaves the old content whole,
#     through a link as in a regular file, and no temporary file;
#   - modes: new files 0600 (private) and 0644 (public) less the umask; a replaced file
#     keeps its mode, a private key at most 0600 (never loosened).
#   test_cli_outputs.sh MLDSA_CLI FULL_DISK_SO
set -uo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shim=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
umask 022
passed=0 failed=0
. "$here/expect.sh"
mode() { stat -c %a "$1"; }
# The full-disk shim runs ahead of a sanitizer runtime (ci/sanitizers' builds), which
# otherwise insists on coming first; it interposes write(2) only, not the allocator.
full_disk_env=(env LD_PRELOAD="$shim" MLDSA_FULL_DISK_DIR="$d/full"
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
no_temp_files() { [ -z "$(ls -A "${1:-.}" | grep '^\.')" ]; }

echo hello >msg
"$cli" keygen --out k.pem --pubout p.pem
cp k.pem k.orig
cp p.pem p.orig

# ---- a signature over a private key: never, --force or not
expect 2 "sign --out a private key" "--out k2.pem: file exists and holds a private key" -- \
  bash -c "cp k.pem k2.pem && '$cli' sign --key k.pem --in msg --out k2.pem"
check "... the key is intact" cmp k2.pem k.orig
check "... its mode is still 0600" test "$(mode k2.pem)" = 600
expect 2 "sign --out a private key --force" "holds a private key; only a private key replaces one" -- \
  "$cli" sign --key k.pem --in msg --out k2.pem --force
check "... the key is intact" cmp k2.pem k.orig
for f in der:"--format der" both:"--form both --format der" raw:"--format raw" rawx:"--form expanded --format raw"; do
  name=${f%%:*}
  "$cli" keygen --seed-file <(head -c 32 /dev/zero) $(echo "${f#*:}") --out "key.$name"
  cp "key.$name" "key.$name.orig"
  expect 2 "pubkey --out over a $name private key --force" "holds a private key" -- \
    "$cli" pubkey --in k.pem --out "key.$name" --force
  check "... intact" cmp "key.$name" "key.$name.orig"
done
printf '%s\n' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >seed.hex
expect 2 "sign --out over a hex seed file --force" "holds a private key" -- \
  "$cli" sign --key k.pem --in msg --out seed.hex --force
openssl genpkey -algorithm ed25519 2>/dev/null | openssl pkcs8 -topk8 -passout pass:pw -v2 aes-256-cbc >enc.pem 2>/dev/null
if grep -q "BEGIN ENCRYPTED PRIVATE KEY" enc.pem; then
  cp enc.pem enc.orig
  expect 2 "sign --out over an ENCRYPTED PRIVATE KEY --force" "holds a private key" -- \
    "$cli" sign --key k.pem --in msg --out enc.pem --force
  check "... intact" cmp enc.pem enc.orig
  openssl pkcs8 -topk8 -passin pass:pw -in enc.pem -passout pass:pw -v2 aes-256-cbc -outform DER -out enc.der 2>/dev/null ||
    openssl pkcs8 -in enc.pem -passin pass:pw -topk8 -v2 aes-256-cbc -passout pass:pw -outform DER -out enc.der
  expect 2 "pubkey --out over a DER EncryptedPrivateKeyInfo --force" "holds a private key" -- \
    "$cli" pubkey --in k.pem --out enc.der --force
  openssl genrsa 1024 2>/dev/null | openssl rsa -traditional -out rsa.pem 2>/dev/null
  expect 2 "pubkey --out over an RSA PRIVATE KEY --force" "holds a private key" -- \
    "$cli" pubkey --in k.pem --out rsa.pem --force
else
  echo "FAIL: openssl could not make an encrypted key"; failed=$((failed + 1))
fi

# ---- no output replaces an existing file without --force
"$cli" sign --key k.pem --in msg --out s.sig
cp s.sig s.orig
expect 2 "sign --out an existing signature" "--out s.sig: file exists.*--force" -- "$cli" sign --key k.pem --in msg --out s.sig
check "... intact" cmp s.sig s.orig
chmod 640 s.sig
expect 0 "sign --out an existing signature --force" -- "$cli" sign --key k.pem --in msg --out s.sig --force
check "... replaced" bash -c "! cmp -s s.sig s.orig"
check "... keeping its mode 0640" test "$(mode s.sig)" = 640
expect 0 "... a valid signature" "signature OK" -- "$cli" verify --pub p.pem --in msg --sig s.sig
echo text >note
expect 2 "pubkey --out an existing file" "--out note: file exists" -- "$cli" pubkey --in k.pem --out note
check "... intact" test "$(cat note)" = text
expect 0 "pubkey --out an existing file --force" -- "$cli" pubkey --in k.pem --out note --force
check "... now the public key" cmp note p.orig
expect 2 "keygen --pubout an existing file" "--pubout note: file exists" -- "$cli" keygen --out new.pem --pubout note
check "... no private key written either" test ! -e new.pem
check "... the public key file intact" cmp note p.orig
expect 2 "keygen --pubout over a private key --force" "--pubout k2.pem: file exists and holds a private key" -- \
  "$cli" keygen --out new.pem --pubout k2.pem --force
check "... nothing written" test ! -e new.pem
check "... the key intact" cmp k2.pem k.orig
expect 0 "keygen --pubout an existing file --force" -- "$cli" keygen --out new.pem --pubout note --force
expect 0 "... a pair" -- bash -c "'$cli' pubkey --in new.pem | cmp - note"
expect 0 "pubkey --out /dev/null needs no --force (a device, written through)" -- "$cli" pubkey --in k.pem --out /dev/null

# ---- symbolic links: resolved, replaced through a temporary file next to the target
mkdir tdir
cp s.sig tdir/target.sig
cp s.sig s.cur
ln -s tdir/target.sig link.sig
expect 2 "sign --out a link to an existing file" "--out link.sig: file exists" -- "$cli" sign --key k.pem --in msg --out link.sig
check "... target intact" cmp tdir/target.sig s.cur
expect 0 "sign --out a link --force" -- "$cli" sign --key k.pem --in msg --out link.sig --force
check "... the link is still a link" test -L link.sig
check "... to the same target" test "$(readlink link.sig)" = tdir/target.sig
check "... whose content is the new signature" bash -c "! cmp -s tdir/target.sig s.cur"
expect 0 "... which verifies" "signature OK" -- "$cli" verify --pub p.pem --in msg --sig link.sig
check "... no temporary file next to the link or the target" bash -c "$(declare -f no_temp_files); no_temp_files . && no_temp_files tdir"
ln -s tdir/absent.sig dangling.sig
expect 0 "sign --out a dangling link" -- "$cli" sign --key k.pem --in msg --out dangling.sig
check "... the link is still a link" test -L dangling.sig
check "... its target created" test -f tdir/absent.sig
check "... mode 0644" test "$(mode tdir/absent.sig)" = 644
expect 0 "... holding the signature" "signature OK" -- "$cli" verify --pub p.pem --in msg --sig tdir/absent.sig
ln -s link.sig chain.sig
expect 0 "sign --out a chain of links --force" -- "$cli" sign --key k.pem --in msg --out chain.sig --force
check "... both still links" bash -c "test -L chain.sig && test -L link.sig"
ln -s loop1 loop2; ln -s loop2 loop1
expect 2 "sign --out a loop of links" "--out loop1: a symbolic link that is not followed" -- "$cli" sign --key k.pem --in msg --out loop1 --force
cp k.orig tdir/key.pem
chmod 400 tdir/key.pem
ln -s tdir/key.pem keylink.pem
expect 2 "sign --out a link to a private key --force" "--out keylink.pem: file exists and holds a private key" -- \
  "$cli" sign --key k.pem --in msg --out keylink.pem --force
check "... the key intact" cmp tdir/key.pem k.orig
expect 2 "keygen --out a link to a private key" "file exists; a secret key is never overwritten" -- "$cli" keygen --out keylink.pem
check "... the key intact" cmp tdir/key.pem k.orig
expect 0 "keygen --out a link to a private key --force" -- "$cli" keygen --out keylink.pem --force
check "... the link is still a link" test -L keylink.pem
check "... the target holds a new key" bash -c "! cmp -s tdir/key.pem k.orig"
check "... its mode 0400 kept (never loosened to 0600)" test "$(mode tdir/key.pem)" = 400

# ---- a full disk leaves the old content whole (ML-DSA-87: a 4627-byte signature, more
# than the 4096 bytes the full file system takes)
"$cli" keygen --param 87 --out k87.pem
mkdir full
cp s.sig full/old.sig
cp s.sig full/regular.sig
ln -s full/old.sig tofull.sig
expect 2 "full disk, --out a link" "--out tofull.sig: cannot write: No space left" -- \
  "${full_disk_env[@]}" "$cli" sign --key k87.pem --in msg --out tofull.sig --force
check "... the target's old content whole" cmp full/old.sig s.sig
check "... the link still a link" test -L tofull.sig
check "... no temporary file" bash -c "$(declare -f no_temp_files); no_temp_files full"
expect 2 "full disk, --out a regular file" "--out full/regular.sig: cannot write: No space left" -- \
  "${full_disk_env[@]}" "$cli" sign --key k87.pem --in msg --out full/regular.sig --force
check "... the old content whole" cmp full/regular.sig s.sig
expect 1 "the shim works: a plain write there fails (Python: OSError)" "No space left" -- \
  "${full_disk_env[@]}" python3 -c "import os; fd = os.open('full/x', os.O_WRONLY | os.O_CREAT); os.write(fd, b'a' * 4096); os.write(fd, b'a')"

# ---- modes and the umask
expect 0 "umask 027: a new signature" -- bash -c "umask 027; '$cli' sign --key k.pem --in msg --out s027.sig"
check "... mode 0640" test "$(mode s027.sig)" = 640
expect 0 "umask 077: a new public key" -- bash -c "umask 077; '$cli' pubkey --in k.pem --out p077.pem"
check "... mode 0600" test "$(mode p077.pem)" = 600
expect 0 "umask 077: a new private key" -- bash -c "umask 077; '$cli' keygen --out k077.pem"
check "... mode 0600" test "$(mode k077.pem)" = 600
expect 0 "umask 0277: a new private key" -- bash -c "umask 0277; '$cli' keygen --out k277.pem"
check "... mode 0400" test "$(mode k277.pem)" = 400
cp k.orig k644.pem
chmod 644 k644.pem
expect 0 "keygen --force over a 0644 private key" -- "$cli" keygen --out k644.pem --force
check "... narrowed to 0600" test "$(mode k644.pem)" = 600
check "no temporary file left behind" no_temp_files

echo "test_cli_outputs: $passed passed, $failed failed"
[ $failed = 0 ]
