#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The command-line tool never loses or exposes a key and never reports success it did not
# have:
#   - help: only a bare -h/--help in option position; an option's value (--in -h,
#     --context --help) is its value, never a request for help (which exits 0);
#   - an output that is the same file as an input or another output is refused (hard and
#     symbolic links, ./name, standard output redirected onto an input), naming both;
#   - --force replaces regular files only: a FIFO, a device node or a directory is an
#     error naming the path, and is left as it was; a symbolic link is resolved and its
#     target replaced (the link stays; tests/cli/test_cli_outputs.sh has the details);
#   - keygen writes both outputs or neither: a --pubout that fails (missing directory, full
#     device, closed pipe) leaves no private key, no temporary file, and an existing key
#     replaced with --force intact;
#   - a private key is never written to a terminal; a group/other-readable regular file
#     as standard output gets a warning naming its mode;
#   - a closed standard output or a closed pipe is exit 2 with a line naming the output;
#   - odd arguments to --help and --version are errors.
#   test_cli_safety.sh MLDSA_CLI
set -uo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
umask 022
passed=0 failed=0
. "$here/expect.sh"
# check DESCRIPTION COMMAND...: the command succeeds
no_usage() { ! grep -q usage out; }
no_temp_files() { [ -z "$(ls -A | grep '^\.')" ]; }

# run.py tty CMD...: CMD with a pseudo-terminal as standard output (what reached the
# terminal goes to our standard output); run.py closed-pipe CMD...: CMD writing into a
# pipe whose reader is gone, with SIGPIPE at its default as a shell leaves it.
cat >run.py <<'EOF'
import os, select, subprocess, sys
mode, cmd = sys.argv[1], sys.argv[2:]
if mode == "tty":
    master, slave = os.openpty()
    rc = subprocess.run(cmd, stdout=slave).returncode
    os.close(slave)
    data = b""
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    sys.stdout.buffer.write(data)
else:
    r, w = os.pipe()
    os.close(r)
    rc = subprocess.run(cmd, stdout=w).returncode
sys.exit(128 - rc if rc < 0 else rc)
EOF

echo hello >msg
"$cli" keygen --out k.pem --pubout p.pem
"$cli" sign --key k.pem --in msg --out s.sig
cp k.pem k.orig

# ---- 1. help only in option position
expect 2 "verify --in -h is a file name" "--in -h: cannot open" -- "$cli" verify --pub p.pem --sig s.sig --in -h
check "verify --in -h prints no help" no_usage
expect 2 "verify --in=-h is a file name" "--in -h: cannot open" -- "$cli" verify --pub p.pem --sig s.sig --in=-h
expect 1 "verify --context --help is a context" "does not verify" -- "$cli" verify --pub p.pem --sig s.sig --in msg --context --help
check "verify --context --help prints no help" no_usage
expect 2 "sign --in -h is a file name" "--in -h: cannot open" -- "$cli" sign --key k.pem --in -h --out h.sig
check "sign --in -h writes no signature" test ! -e h.sig
expect 0 "sign --context -h signs with the context -h" -- "$cli" sign --key k.pem --in msg --out h.sig --context -h
expect 0 "... and the signature verifies under the context -h" "signature OK" -- "$cli" verify --pub p.pem --in msg --sig h.sig --context-hex 2d68
expect 2 "keygen --pubout -h --out --help: values" "--out --help: file exists" -- bash -c "touch ./--help && '$cli' keygen --pubout -h --out --help"
check "... no help printed, no -h written" test ! -e ./-h
expect 0 "bare -h after options" "usage: mldsa verify" -- "$cli" verify --pub p.pem -h
expect 0 "bare --help among options" "usage: mldsa sign" -- "$cli" sign --key k.pem --help --in msg
expect 0 "mldsa help sign" "usage: mldsa sign" -- "$cli" help sign
expect 0 "mldsa --help keygen" "usage: mldsa keygen" -- "$cli" --help keygen
expect 2 "mldsa --help frob" 'unexpected argument "frob"' -- "$cli" --help frob
expect 2 "mldsa --version extra" 'unexpected argument "extra"' -- "$cli" --version extra
expect 2 "mldsa isa extra" "unexpected argument \"extra\"" -- "$cli" isa extra

# ---- 3. the same file twice
expect 2 "keygen --out X --pubout X" "--out k2.pem and --pubout k2.pem are the same file" -- "$cli" keygen --out k2.pem --pubout k2.pem
check "... nothing written" test ! -e k2.pem
expect 2 "keygen --out X --pubout ./X" "--out k2.pem and --pubout ./k2.pem are the same file" -- "$cli" keygen --out k2.pem --pubout ./k2.pem
expect 2 "keygen --out X --pubout DIR/../X" "same file" -- bash -c "mkdir -p sub && '$cli' keygen --out k2.pem --pubout sub/../k2.pem"
expect 2 "keygen --force --out K --pubout K" "--out k.pem and --pubout k.pem are the same file" -- "$cli" keygen --force --out k.pem --pubout k.pem
check "... the key is intact" cmp k.pem k.orig
expect 2 "pubkey --in K --out K" "--out k.pem and --in k.pem are the same file" -- "$cli" pubkey --in k.pem --out k.pem
check "... the key is intact" cmp k.pem k.orig
ln k.pem hard.pem
expect 2 "pubkey --out a hard link of --in" "--out hard.pem and --in k.pem are the same file" -- "$cli" pubkey --in k.pem --out hard.pem
ln -s k.pem soft.pem
expect 2 "pubkey --in a symbolic link to --out" "--out k.pem and --in soft.pem are the same file" -- "$cli" pubkey --in soft.pem --out k.pem
check "... the key is intact" cmp k.pem k.orig
cp msg msg.orig
expect 2 "sign --out the message" "--out msg and --in msg are the same file" -- "$cli" sign --key k.pem --in msg --out msg
expect 2 "sign --out the key" "--out k.pem and --key k.pem are the same file" -- "$cli" sign --key k.pem --in msg --out k.pem
expect 2 "sign to a standard output appended to the message" "--out \(standard output\) and --in msg are the same file" -- bash -c "'$cli' sign --key k.pem --in msg --out - >>msg"
check "... the message is intact" cmp msg msg.orig
printf '%s' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >seed.hex
cp seed.hex seed.orig
expect 2 "keygen --out the seed file --force" "--out seed.hex and --seed-file seed.hex are the same file" -- "$cli" keygen --seed-file seed.hex --out seed.hex --force
check "... the seed is intact" cmp seed.hex seed.orig
expect 0 "pubkey --in K --out another file" -- "$cli" pubkey --in k.pem --out p2.pem
check "... the same public key" cmp p.pem p2.pem
expect 0 "pubkey --out /dev/null (a device, not the same file as anything)" -- "$cli" pubkey --in k.pem --out /dev/null

# ---- 4. --force replaces regular files only
mkfifo fifo
expect 2 "--force onto a FIFO" "--out fifo: not a regular file; --force replaces regular files only" -- "$cli" keygen --out fifo --force
check "... the FIFO is still one" test -p fifo
mkdir adir
expect 2 "--force onto a directory" "--out adir: is a directory" -- "$cli" keygen --out adir --force
check "... the directory is still one" test -d adir
cp k.pem target.pem
ln -s target.pem link.pem
expect 2 "a symbolic link to a key, no --force" "--out link.pem: file exists" -- "$cli" keygen --out link.pem
check "... its target is intact" cmp target.pem k.orig
expect 0 "--force onto a symbolic link: its target is replaced" -- "$cli" keygen --out link.pem --force
check "... the link is still one" test -L link.pem
check "... its target holds a new key" bash -c "! cmp -s target.pem k.orig"
cp k.orig target.pem
if mknod null c 1 3 2>/dev/null && [ -c null ]; then # root: a copy of /dev/null's node
  expect 2 "--force onto a device node" "--out null: not a regular file" -- "$cli" keygen --out null --force
  check "... the device node is still one" test -c null
else
  echo "note: mknod not permitted here; the device-node case is covered by the FIFO"
fi
chmod 644 target.pem
expect 0 "--force onto a regular file" -- "$cli" keygen --out target.pem --force
check "... replaced, mode 0600" test "$(stat -c %a target.pem)" = 600
check "... by a new key" bash -c "! cmp -s target.pem k.orig"

# ---- 5. keygen: both outputs or neither
expect 2 "--pubout in a missing directory" "--pubout nodir/p.pem: cannot create" -- "$cli" keygen --out k5.pem --pubout nodir/p.pem
check "... no private key left" test ! -e k5.pem
expect 0 "... the rerun succeeds" -- "$cli" keygen --out k5.pem --pubout p5.pem
expect 2 "--pubout on a full device" "--pubout /dev/full: cannot write: No space left" -- "$cli" keygen --out k6.pem --pubout /dev/full
check "... no private key left" test ! -e k6.pem
expect 2 "--pubout into a closed pipe" "--pubout: cannot write to standard output: Broken pipe" -- python3 run.py closed-pipe "$cli" keygen --out k7.pem --pubout -
check "... no private key left" test ! -e k7.pem
expect 2 "--force, --pubout fails" "--pubout /dev/full" -- "$cli" keygen --out k.pem --force --pubout /dev/full
check "... the old key is intact" cmp k.pem k.orig
expect 2 "--out to standard output, --pubout fails" "--pubout nodir/p.pem" -- bash -c "'$cli' keygen --pubout nodir/p.pem >k8.pem"
check "... nothing written to standard output" test ! -s k8.pem
expect 2 "--out in a missing directory" "--out nodir/k.pem: cannot create" -- "$cli" keygen --out nodir/k.pem --pubout p9.pem
check "... no public key left" test ! -e p9.pem
# killed while --pubout (a FIFO with no reader) blocks: the handler removes the temporary file
mkfifo pubfifo
"$cli" keygen --out k15.pem --pubout pubfifo 2>/dev/null &
pid=$!
for _ in $(seq 100); do ls -A | grep -q k15 && break; sleep 0.05; done
sleep 0.2
kill -TERM $pid
wait $pid
check "SIGTERM while --pubout blocks: killed by it" test $? = 143
check "... no private key left" test ! -e k15.pem
check "... no temporary file left" no_temp_files
rm pubfifo
expect 2 "an empty --out" "--out: an empty file name" -- "$cli" sign --key k.pem --in msg --out ""
check "no temporary file left behind" no_temp_files
expect 0 "keygen --out --pubout" -- "$cli" keygen --out k10.pem --pubout p10.pem
check "... private key 0600" test "$(stat -c %a k10.pem)" = 600
check "... public key 0644" test "$(stat -c %a p10.pem)" = 644
expect 0 "... a pair" -- bash -c "'$cli' pubkey --in k10.pem | cmp - p10.pem"
expect 2 "a public key does not replace a public key without --force" "--pubout p10.pem: file exists" -- "$cli" keygen --out k11.pem --pubout p10.pem
check "... and no private key is written" test ! -e k11.pem
expect 0 "a public key replaces a public key with --force" -- "$cli" keygen --out k11.pem --pubout p10.pem --force
expect 0 "... the new pair" -- bash -c "'$cli' pubkey --in k11.pem | cmp - p10.pem"
check "no temporary file left behind" no_temp_files

# ---- 8. a private key and a terminal, or a readable file
expect 2 "keygen to a terminal" "standard output is a terminal.*use --out FILE" -- python3 run.py tty "$cli" keygen
check "... nothing reached the terminal" test ! -s out
expect 2 "keygen --format raw to a terminal" "terminal" -- python3 run.py tty "$cli" keygen --form seed --format raw
check "... nothing reached the terminal" test ! -s out
expect 0 "pubkey to a terminal is fine" "BEGIN PUBLIC KEY" -- python3 run.py tty "$cli" pubkey --in k.pem
expect 0 "keygen >file under umask 022: a warning naming the mode" "warning: --out: standard output is a regular file of mode 0644" -- bash -c "'$cli' keygen >k12.pem"
expect 0 "... and the key is written" -- "$cli" pubkey --in k12.pem --out /dev/null
expect 0 "keygen >file under umask 077: no warning" -- bash -c "umask 077; '$cli' keygen >k13.pem"
check "... stderr empty" test ! -s err
expect 0 "keygen into a pipe: no warning" -- bash -c "'$cli' keygen | cat >k14.pem"
check "... stderr empty" test ! -s err

# ---- 12. a closed standard output is an error that names it
expect 2 "pubkey >&-" "--out: cannot write to standard output" -- bash -c "'$cli' pubkey --in k.pem >&-"
expect 2 "sign >&-" "--out: cannot write to standard output" -- bash -c "'$cli' sign --key k.pem --in msg --out - >&-"
expect 2 "verify >&-" "cannot be written to standard output" -- bash -c "'$cli' verify --pub p.pem --in msg --sig s.sig >&-"
expect 2 "isa >&-" "cannot write to standard output" -- bash -c "'$cli' isa >&-"
expect 2 "--version >&-" "cannot write to standard output" -- bash -c "'$cli' --version >&-"
expect 2 "--help >&-" "cannot write to standard output" -- bash -c "'$cli' --help >&-"
expect 2 "keygen >&-" "--out: cannot write to standard output" -- bash -c "'$cli' keygen >&-"
expect 2 "sign into a closed pipe" "--out: cannot write to standard output: Broken pipe" -- python3 run.py closed-pipe "$cli" sign --key k.pem --in msg --out -
expect 2 "pubkey into a closed pipe" "Broken pipe" -- python3 run.py closed-pipe "$cli" pubkey --in k.pem
expect 2 "a closed standard input" "--in \(standard input\): cannot read" -- bash -c "'$cli' sign --key k.pem --out x.sig <&-"
check "... no signature written" test ! -e x.sig

echo "test_cli_safety: $passed passed, $failed failed"
[ $failed = 0 ]
